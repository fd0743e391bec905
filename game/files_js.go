//go:build js

package game

import (
	"bytes"
	"io"
)

// loadData opens a file's content, already in memory (the web version's
// file picker), by its kind, parsing it in the background.
func (g *Game) loadData(name string, data []byte) {
	g.startOpen(name, func() (io.Reader, int64, func(), error) {
		return bytes.NewReader(data), int64(len(data)), func() {}, nil
	})
}
