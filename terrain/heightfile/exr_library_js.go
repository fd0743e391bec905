//go:build js

package heightfile

import (
	"fmt"
	"io"
)

// decodeEXRLibrary stands in for the OpenEXR library, which does not build
// for the browser: github.com/mrjoshuak/go-openexr maps files into memory
// with syscall.Mmap, which GOOS=js lacks. There DecodeEXR reads the
// compressions it decodes itself and refuses the others, naming both.
func decodeEXRLibrary(_ io.ReaderAt, _ int64, compression int) (*Source, error) {
	return nil, fmt.Errorf("exr: %s compression is not read in the browser, which reads EXR maps %s: save the map with one of those (Cordillera saves ZIP; exrmultiview -z zip converts)",
		exrCompressionName(compression), exrBrowserCompressions)
}

// exrBrowserCompressions are the compressions DecodeEXR decodes itself, in
// pure Go with no library: all the browser build reads.
const exrBrowserCompressions = "uncompressed or compressed with RLE, ZIPS, ZIP or PXR24"

// exrCompressionName is the name OpenEXR gives a compression code
// (ImfCompression.h).
func exrCompressionName(code int) string {
	names := []string{"no", "RLE", "ZIPS", "ZIP", "PIZ", "PXR24", "B44", "B44A", "DWAA", "DWAB", "HTJ2K256", "HTJ2K32"}
	if code >= 0 && code < len(names) {
		return names[code]
	}
	return fmt.Sprintf("unknown (code %d)", code)
}
