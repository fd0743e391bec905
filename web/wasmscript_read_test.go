package web

import (
	"bytes"
	"strings"
	"testing"
)

// ReadWasmScript finds the string wherever the script sets it, at its
// very start too, and says what is wrong with an empty one (it is closed,
// but holds no gzip stream).
func TestReadWasmScriptFindsTheString(t *testing.T) {
	wasm := []byte("\x00asm\x01\x00\x00\x00 and some code")
	script, err := WasmScript(wasm)
	if err != nil {
		t.Fatal(err)
	}
	bare := script[bytes.Index(script, []byte("globalThis.")):] // without the comment line
	got, err := ReadWasmScript(bare)
	if err != nil || !bytes.Equal(got, wasm) {
		t.Errorf("a script starting with the global: %q, %v; want the .wasm", got, err)
	}
	_, err = ReadWasmScript([]byte(`globalThis.cordilleraWasmGzipBase64 = "";`))
	if err == nil || strings.Contains(err.Error(), "not closed") {
		t.Errorf("an empty string: %v; want an error about its content, not its quotes", err)
	}
}
