//go:build !js

package fileopen

import (
	"io"

	"cordillera/internal/inputfile"
	"cordillera/terrain/heightfile"
)

// Path opens a file by its path, refusing what is not a regular file
// (a FIFO would block) or larger than any kind's cap. The browser's is in
// path_js.go.
func Path(path string) Opener {
	return func() (io.ReadCloser, int64, error) {
		return inputfile.Open(path, heightfile.MaxFileBytes, "a heightmap, parameter or route file")
	}
}
