//go:build js

package game

import (
	"bytes"
	"io"
)

// loadData opens a file's content, already in memory (the web version's
// file picker), by its kind, parsing it in the background.
func (g *Game) loadData(name string, data []byte) {
	g.files.Start(name, func() (io.ReadCloser, int64, error) {
		return io.NopCloser(bytes.NewReader(data)), int64(len(data)), nil
	})
}
