package web

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
)

// WasmScriptFile is the explorer again, inside a script, for a page opened
// from a folder: browsers refuse fetch() of a file:// URL (Chromium's
// "URL scheme file is not supported", Firefox's CORS error for a file
// origin) but load a <script src> beside the page. cordillera.js loads it
// when location.protocol is "file:" and fetches WasmFile otherwise.
const WasmScriptFile = WasmFile + ".js"

// wasmScriptGlobal is the global the script sets; cordillera.js reads and
// deletes it.
const wasmScriptGlobal = "cordilleraWasmGzipBase64"

// GzipWasm compresses the .wasm once, at the best level: the script below
// carries it so, and 'cordillera web -serve' sends it so to a browser that
// accepts gzip (36.5 MB of .wasm become about 12 MB).
func GzipWasm(wasm []byte) ([]byte, error) {
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(wasm); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return gz.Bytes(), nil
}

// WasmScript is the JavaScript of WasmScriptFile: the .wasm gzipped (the
// browser's DecompressionStream("gzip") inflates it, so the page carries
// no decoder of its own) and in standard base64, the densest encoding a
// JavaScript string literal holds in a UTF-8 file (every byte above 0x7f
// would take two). 36.5 MB of .wasm become about 16 MB of script.
func WasmScript(wasm []byte) ([]byte, error) {
	gz, err := GzipWasm(wasm)
	if err != nil {
		return nil, err
	}
	return GzipWasmScript(gz), nil
}

// GzipWasmScript is WasmScript of a .wasm already gzipped (GzipWasm).
func GzipWasmScript(gz []byte) []byte {
	var out bytes.Buffer
	fmt.Fprintf(&out, "// Cordillera's explorer (%s) for a page opened from a folder: gzip, then base64.\n", WasmFile)
	fmt.Fprintf(&out, "globalThis.%s = \"", wasmScriptGlobal)
	// Only a capacity hint (the string and its closing `";\n`): any size
	// gives the same script, so a mutant of this sum is equivalent.
	out.Grow(base64.StdEncoding.EncodedLen(len(gz)) + 3)
	enc := base64.NewEncoder(base64.StdEncoding, &out)
	enc.Write(gz)
	enc.Close()
	out.WriteString("\";\n")
	return out.Bytes()
}

// ReadWasmScript is WasmScript's inverse, for the tests: the .wasm a
// script holds.
func ReadWasmScript(script []byte) ([]byte, error) {
	prefix := []byte("globalThis." + wasmScriptGlobal + " = \"")
	i := bytes.Index(script, prefix)
	if i < 0 {
		return nil, fmt.Errorf("web: the script sets no %s", wasmScriptGlobal)
	}
	rest := script[i+len(prefix):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return nil, fmt.Errorf("web: %s's string is not closed", wasmScriptGlobal)
	}
	gz, err := base64.StdEncoding.DecodeString(string(rest[:j]))
	if err != nil {
		return nil, fmt.Errorf("web: %s: %w", wasmScriptGlobal, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("web: %s: %w", wasmScriptGlobal, err)
	}
	return io.ReadAll(zr)
}
