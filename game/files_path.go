//go:build !js

package game

import (
	"io"

	"cordillera/internal/inputfile"
	"cordillera/terrain/heightfile"
)

// openPath opens a file by its path, refusing what is not a regular file
// (a FIFO would block) or larger than any kind's cap. The browser's is in
// files_js.go.
func openPath(path string) func() (io.ReadCloser, int64, error) {
	return func() (io.ReadCloser, int64, error) {
		return inputfile.Open(path, heightfile.MaxFileBytes, "a heightmap, parameter or route file")
	}
}
