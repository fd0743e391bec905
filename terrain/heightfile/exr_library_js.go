//go:build js

package heightfile

import (
	"errors"
	"io"
)

// decodeEXRLibrary stands in for the OpenEXR library, which does not build
// for the browser (it maps files with syscall.Mmap): there DecodeEXR reads
// the compressions it decodes itself (none, RLE, ZIPS, ZIP) and refuses the
// others plainly.
func decodeEXRLibrary(io.ReaderAt, int64) (*Source, error) {
	return nil, errors.New("exr: PIZ, PXR24, B44 and DWA compression are not read in the browser; save the file with ZIP or no compression")
}
