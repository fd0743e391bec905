package commands

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"cordillera/internal/atomicfile"
	"cordillera/web"
)

// The web command builds the explorer for the browser and writes the page
// around it. The .wasm is built from Cordillera's source with the Go
// toolchain at the time the page is written, rather than embedded in the
// cordillera binary: embedding would need a second build stage and would
// add 36 MB to every binary, and the page's loader, wasm_exec.js, must come
// from the very toolchain that compiled the .wasm anyway. So 'cordillera
// web' needs go on PATH and runs inside the source tree.

// explorerPackage is the WebAssembly program's import path.
const explorerPackage = "cordillera/web/explorer"

// Web writes the explorer as a web page into a folder, serves it, or both.
func Web(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("web", flag.ContinueOnError)
	out := fs.String("o", "", "write the page into this folder: index.html, cordillera.js, cordillera.wasm, cordillera.wasm.js (the same, loadable from file://) and the toolchain's wasm_exec.js")
	serve := fs.String("serve", "", "serve the page at this address, e.g. :8080 (with -o from that folder, else from a temporary one)")
	if err := parseFlags(fs, args, stderr, "cordillera web -o DIR | -serve ADDR  (needs the Go toolchain; run inside Cordillera's source tree)"); err != nil {
		return err
	}
	if *out == "" && *serve == "" {
		return errors.New("web: give -o DIR to write the page, -serve ADDR (e.g. :8080) to serve it, or both")
	}
	var ln net.Listener
	if *serve != "" { // before the minute-long build: a taken port fails at once
		var err error
		if ln, err = net.Listen("tcp", *serve); err != nil {
			return fmt.Errorf("web: -serve %s: %w", *serve, err)
		}
		defer ln.Close()
	}
	ctx, stop := signalContext()
	defer stop()
	dir := *out
	if dir == "" {
		tmp, err := os.MkdirTemp("", "cordillera-web-")
		if err != nil {
			return fmt.Errorf("web: %w", err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	if err := WritePage(ctx, dir, stdout, stderr); err != nil {
		return err
	}
	if ln == nil {
		return nil
	}
	fmt.Fprintf(stdout, "serving %s at http://%s/ (Ctrl-C stops)\n", dir, browsable(ln.Addr()))
	srv := &http.Server{Handler: PageHandler(dir)}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("web: -serve %s: %w", *serve, err)
	}
	return nil
}

// browsable is an address to type into a browser: localhost for a
// listener on every interface.
func browsable(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

// PageHandler serves the page's folder, the .wasm as application/wasm
// (which WebAssembly.instantiateStreaming insists on) and nothing cached,
// so a rebuilt page shows at the next reload.
func PageHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

// WritePage builds the explorer for the browser and writes the page into
// dir, creating it if need be. Either every file is written or none:
// whatever was in dir stays as it was when something fails.
func WritePage(ctx context.Context, dir string, stdout, stderr io.Writer) error {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return errors.New("web: the page's WebAssembly is built from Cordillera's source with the Go toolchain, and go is not on PATH: install Go 1.26 (https://go.dev/dl/)")
	}
	root, err := moduleRoot(ctx, goTool)
	if err != nil {
		return err
	}
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return fmt.Errorf("web: -o %s: is a file; want a folder", dir)
	}
	goroot, err := goEnv(ctx, goTool, root, "GOROOT")
	if err != nil {
		return err
	}
	loader, err := wasmExecJS(goroot)
	if err != nil {
		return err
	}
	build, err := os.MkdirTemp("", "cordillera-wasm-")
	if err != nil {
		return fmt.Errorf("web: %w", err)
	}
	defer os.RemoveAll(build)
	wasmPath := filepath.Join(build, web.WasmFile)
	fmt.Fprintf(stdout, "building %s for the browser (GOOS=js GOARCH=wasm)…\n", explorerPackage)
	cmd := exec.CommandContext(ctx, goTool, "build", "-trimpath", "-ldflags=-s -w", "-o", wasmPath, explorerPackage)
	cmd.Dir, cmd.Env = root, append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("web: building %s: %w", explorerPackage, err)
	}
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		return fmt.Errorf("web: %w", err)
	}
	g := atomicfile.NewGroup(ctx)
	defer g.Abort()
	if err := g.MkdirAll(dir); err != nil { // removed again if anything fails
		return fmt.Errorf("web: -o %s: %w", dir, err)
	}
	add := func(name string, data []byte) error {
		return g.Add(filepath.Join(dir, name), func(w io.Writer) error { _, err := w.Write(data); return err })
	}
	page, err := fs.ReadDir(web.Page, ".")
	if err != nil {
		return fmt.Errorf("web: %w", err)
	}
	for _, e := range page {
		data, err := fs.ReadFile(web.Page, e.Name())
		if err != nil {
			return fmt.Errorf("web: %w", err)
		}
		if err := add(e.Name(), data); err != nil {
			return fmt.Errorf("web: %w", err)
		}
	}
	if err := add("wasm_exec.js", loader); err != nil {
		return fmt.Errorf("web: %w", err)
	}
	if err := add(web.WasmFile, wasm); err != nil {
		return fmt.Errorf("web: %w", err)
	}
	script, err := web.WasmScript(wasm)
	if err != nil {
		return fmt.Errorf("web: %w", err)
	}
	if err := add(web.WasmScriptFile, script); err != nil {
		return fmt.Errorf("web: %w", err)
	}
	if err := g.Commit(); err != nil {
		return fmt.Errorf("web: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: index.html, cordillera.js, wasm_exec.js, %s (%.1f MB, %.1f MB gzipped) and %s (%.1f MB, for opening index.html from the folder)\n",
		dir, web.WasmFile, float64(len(wasm))/1e6, float64(gzipSize(wasm))/1e6, web.WasmScriptFile, float64(len(script))/1e6)
	return nil
}

// moduleRoot is the folder of Cordillera's go.mod, found from the current
// folder as the go command finds it.
func moduleRoot(ctx context.Context, goTool string) (string, error) {
	gomod, err := goEnv(ctx, goTool, "", "GOMOD")
	if err != nil {
		return "", err
	}
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("web: the page is built from Cordillera's source: run 'cordillera web' inside the source tree (no go.mod here or above)")
	}
	if err := checkModule(gomod); err != nil {
		return "", err
	}
	return filepath.Dir(gomod), nil
}

// checkModule checks that a go.mod declares module cordillera.
func checkModule(gomod string) error {
	f, err := os.Open(gomod)
	if err != nil {
		return fmt.Errorf("web: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) == 2 && fields[0] == "module" {
			if fields[1] != "cordillera" {
				return fmt.Errorf("web: %s is module %s, not cordillera: run 'cordillera web' inside Cordillera's source tree", gomod, fields[1])
			}
			return nil
		}
	}
	return fmt.Errorf("web: %s declares no module", gomod)
}

// goEnv reads one variable of 'go env', run in dir ("" for the current folder).
func goEnv(ctx context.Context, goTool, dir, name string) (string, error) {
	cmd := exec.CommandContext(ctx, goTool, "env", name)
	cmd.Dir = dir
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("web: go env %s: %v %s", name, err, strings.TrimSpace(errOut.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// wasmExecJS reads the JavaScript half of Go's WebAssembly port from the
// toolchain at goroot: lib/wasm since Go 1.24, misc/wasm before.
func wasmExecJS(goroot string) ([]byte, error) {
	var tried []string
	for _, p := range []string{filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"), filepath.Join(goroot, "misc", "wasm", "wasm_exec.js")} {
		data, err := os.ReadFile(p)
		if err == nil {
			return data, nil
		}
		tried = append(tried, p)
	}
	return nil, fmt.Errorf("web: the Go toolchain at %s has no wasm_exec.js (looked at %s)", goroot, strings.Join(tried, " and "))
}

// gzipSize is how many bytes data takes gzipped, as a web server sends it.
func gzipSize(data []byte) int {
	var n countWriter
	zw := gzip.NewWriter(&n)
	zw.Write(data)
	zw.Close()
	return int(n)
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }
