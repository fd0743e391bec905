package commands

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The page's folder is served with the MIME type WebAssembly streaming
// compilation insists on.
func TestPageHandlerServesWasm(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"index.html": "<!doctype html><title>x</title>", "cordillera.wasm": "\x00asm\x01\x00\x00\x00"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(PageHandler(dir))
	defer srv.Close()
	for path, want := range map[string]string{"/cordillera.wasm": "application/wasm", "/": "text/html; charset=utf-8"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != want {
			t.Errorf("GET %s: %d %q; want 200 %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), want)
		}
	}
}

// Bad flags fail before the minute-long build, naming what was wrong.
func TestWebFlagErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "page")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "give -o DIR"},
		{[]string{"-serve", "not an address"}, "-serve not an address"},
		{[]string{"-serve", busy.Addr().String()}, "address already in use"},
		{[]string{"-o", file}, "is a file; want a folder"},
	} {
		var out, errOut bytes.Buffer
		err := Web(c.args, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("web %q: error %v; want one naming %q", c.args, err, c.want)
		}
		if strings.Contains(out.String(), "building") {
			t.Errorf("web %q started the build before failing", c.args)
		}
	}
	if data, err := os.ReadFile(file); err != nil || len(data) != 0 {
		t.Errorf("the file named by -o changed: %q, %v", data, err)
	}
}

// wasm_exec.js comes from the toolchain: lib/wasm since Go 1.24, misc/wasm
// before; a toolchain without it is an error naming where it looked.
func TestWasmExecJSLocations(t *testing.T) {
	for _, sub := range []string{"lib/wasm", "misc/wasm"} {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, sub, "wasm_exec.js"), []byte("// "+sub), 0o644); err != nil {
			t.Fatal(err)
		}
		if data, err := wasmExecJS(root); err != nil || string(data) != "// "+sub {
			t.Errorf("%s: got %q, %v", sub, data, err)
		}
	}
	root := t.TempDir()
	if _, err := wasmExecJS(root); err == nil || !strings.Contains(err.Error(), root) || !strings.Contains(err.Error(), "wasm_exec.js") {
		t.Errorf("a toolchain without wasm_exec.js: error %v; want one naming %s", err, root)
	}
}

// The page is built only from Cordillera's own module.
func TestCheckModule(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ gomod, want string }{
		{"module cordillera\n\ngo 1.26\n", ""},
		{"// x\nmodule example.com/other\n", "is module example.com/other, not cordillera"},
		{"go 1.26\n", "declares no module"},
	} {
		path := filepath.Join(dir, "go.mod")
		if err := os.WriteFile(path, []byte(c.gomod), 0o644); err != nil {
			t.Fatal(err)
		}
		err := checkModule(path)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%q: error %v; want %q", c.gomod, err, c.want)
		}
	}
	if _, err := moduleRoot(context.Background(), "go"); err != nil {
		t.Errorf("inside the repository: %v", err)
	}
}
