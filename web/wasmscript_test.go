package web

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// The script holds the .wasm byte for byte, gzipped: smaller than the
// .wasm for compressible content, and only base64 characters between the
// quotes (no byte a JavaScript string literal would need escaped).
func TestWasmScriptRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	wasm := []byte("\x00asm\x01\x00\x00\x00")
	for i := 0; i < 200000; i++ {
		wasm = append(wasm, byte(rng.IntN(16))) // half-entropy bytes, as code is
	}
	script, err := WasmScript(wasm)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadWasmScript(script)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, wasm) {
		t.Fatalf("the script holds %d bytes that differ from the %d-byte .wasm", len(got), len(wasm))
	}
	if len(script) >= len(wasm) {
		t.Errorf("the script takes %d bytes for a %d-byte .wasm of 4-bit symbols; want it smaller (gzip before base64)", len(script), len(wasm))
	}
	body := script[bytes.IndexByte(script, '"')+1 : bytes.LastIndexByte(script, '"')]
	if i := bytes.IndexFunc(body, func(r rune) bool {
		return !strings.ContainsRune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=", r)
	}); i >= 0 {
		t.Errorf("the string holds %q at %d; want base64 only", body[i], i)
	}
	if !bytes.HasPrefix(script, []byte("//")) || !bytes.HasSuffix(script, []byte("\";\n")) {
		t.Errorf("the script starts %q and ends %q", script[:10], script[len(script)-10:])
	}
}

// A script without the global, or with a broken string, is an error.
func TestReadWasmScriptErrors(t *testing.T) {
	for _, s := range []string{"", "globalThis.other = \"AAAA\";", "globalThis.cordilleraWasmGzipBase64 = \"AAAA", "globalThis.cordilleraWasmGzipBase64 = \"!!!!\";"} {
		if _, err := ReadWasmScript([]byte(s)); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}
