package commands

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"cordillera/internal/atomicfile"
	"cordillera/internal/inputfile"
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

// manifestFile marks a folder 'cordillera web -o' wrote and lists the
// files it wrote there, each with its SHA-256: a folder holding it may be
// refreshed unless one of those files was changed since (a teacher's own
// title in index.html), any other that is not empty is refused (unless
// -force). A dotfile, so that the server never sends it and a folder
// listing hides it.
const manifestFile = ".cordillera-web"

// manifestHeader is the manifest's first line.
const manifestHeader = "cordillera web page: these files are rewritten by 'cordillera web -o'"

// Web writes the explorer as a web page into a folder, serves it, or both.
func Web(args []string, stdout, stderr io.Writer) error {
	ctx, stop := signalContext()
	defer stop()
	return runWeb(ctx, args, stdout, stderr)
}

// runWeb is Web until ctx ends: serving stops then.
func runWeb(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("web", flag.ContinueOnError)
	out := fs.String("o", "", "write the page into this folder: index.html, cordillera.js, cordillera.wasm, cordillera.wasm.js (the same, loadable from file://) and the toolchain's wasm_exec.js; a folder not made by 'cordillera web' must be new or empty (or -force)")
	serve := fs.String("serve", "", "serve the page at this address: :8080 or 8080 listens on 127.0.0.1 only; name a host (0.0.0.0:8080) to listen beyond this computer")
	force := fs.Bool("force", false, "with -o: write the page's files into a folder that holds other files, replacing those of the same names")
	if err := parseFlags(fs, args, stderr, "cordillera web -o DIR | -serve ADDR  (needs the Go toolchain; run inside Cordillera's source tree)"); err != nil {
		return err
	}
	if *out == "" && *serve == "" {
		return errors.New("web: give -o DIR to write the page, -serve ADDR (e.g. :8080) to serve it, or both")
	}
	if *force && *out == "" {
		return errors.New("web: -force is for -o DIR")
	}
	var ln net.Listener
	if *serve != "" { // before the minute-long build: a taken port fails at once
		var err error
		if ln, err = listenLocal(*serve); err != nil {
			return fmt.Errorf("web: -serve %s: %w", *serve, err)
		}
		defer ln.Close()
	}
	if *out != "" {
		if err := checkPageFolder(*out, *force); err != nil {
			return err
		}
	}
	page, err := BuildPage(ctx, stdout, stderr)
	if err != nil {
		return err
	}
	if *out != "" {
		if err := WritePage(ctx, *out, page); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: %s, %s (%.1f MB, %.1f MB gzipped) and %s (%.1f MB, for opening index.html from the folder)\n",
			*out, strings.Join(page.names[:len(page.names)-2], ", "), web.WasmFile, float64(len(page.files[web.WasmFile]))/1e6,
			float64(len(page.wasmGzip))/1e6, web.WasmScriptFile, float64(len(page.files[web.WasmScriptFile]))/1e6)
	}
	if ln == nil {
		return nil
	}
	what := "the page"
	if *out != "" {
		what = "the page written to " + *out
	}
	fmt.Fprintf(stdout, "serving %s at %s (Ctrl-C stops)\n", what, servingAt(ln.Addr()))
	if err := servePage(ctx, ln, page, pageLimits); err != nil {
		return fmt.Errorf("web: -serve %s: %w", *serve, err)
	}
	return nil
}

// Page is the page's files, in memory: what 'cordillera web' writes, and
// all that it serves.
type Page struct {
	names    []string          // in the order written; the .wasm and its script last
	files    map[string][]byte // by name
	wasmGzip []byte            // the .wasm gzipped, sent to browsers that accept gzip
	made     time.Time         // when it was built: the files' Last-Modified
}

// buildExplorer compiles the explorer for the browser into the file out;
// a variable so that the tests can stand a small file in for the
// minute-long build.
var buildExplorer = func(ctx context.Context, goTool, root, out string, stderr io.Writer) error {
	cmd := exec.CommandContext(ctx, goTool, "build", "-trimpath", "-ldflags=-s -w", "-o", out, explorerPackage)
	cmd.Dir, cmd.Env = root, append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = stderr, stderr
	return cmd.Run()
}

// BuildPage builds the explorer for the browser and gathers the page's
// files around it.
func BuildPage(ctx context.Context, stdout, stderr io.Writer) (*Page, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return nil, errors.New("web: the page's WebAssembly is built from Cordillera's source with the Go toolchain, and go is not on PATH: install Go 1.26 (https://go.dev/dl/)")
	}
	root, err := moduleRoot(ctx, goTool)
	if err != nil {
		return nil, err
	}
	goroot, err := goEnv(ctx, goTool, root, "GOROOT")
	if err != nil {
		return nil, err
	}
	loader, err := wasmExecJS(goroot)
	if err != nil {
		return nil, err
	}
	build, err := os.MkdirTemp("", "cordillera-wasm-")
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	defer os.RemoveAll(build)
	wasmPath := filepath.Join(build, web.WasmFile)
	fmt.Fprintf(stdout, "building %s for the browser (GOOS=js GOARCH=wasm)…\n", explorerPackage)
	if err := buildExplorer(ctx, goTool, root, wasmPath, stderr); err != nil {
		return nil, fmt.Errorf("web: building %s: %w", explorerPackage, err)
	}
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	p := &Page{files: map[string][]byte{}, made: time.Now()}
	add := func(name string, data []byte) {
		p.names = append(p.names, name)
		p.files[name] = data
	}
	entries, err := fs.ReadDir(web.Page, ".")
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	for _, e := range entries {
		data, err := fs.ReadFile(web.Page, e.Name())
		if err != nil {
			return nil, fmt.Errorf("web: %w", err)
		}
		add(e.Name(), data)
	}
	add("wasm_exec.js", loader)
	if p.wasmGzip, err = web.GzipWasm(wasm); err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	add(web.WasmFile, wasm)
	add(web.WasmScriptFile, web.GzipWasmScript(p.wasmGzip))
	return p, nil
}

// checkPageFolder refuses to write the page into dir when dir is a file,
// or a folder holding files that 'cordillera web' did not put there
// (unless force): the page would replace a user's own index.html.
func checkPageFolder(dir string, force bool) error {
	info, err := os.Stat(dir)
	switch {
	case os.IsNotExist(err):
		return nil
	case err != nil:
		return fmt.Errorf("web: -o %w", err)
	case !info.IsDir():
		return fmt.Errorf("web: -o %s: is a file; want a folder", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("web: -o %w", err)
	}
	if len(entries) == 0 || force {
		return nil
	}
	if written, own := ownPageFolder(dir); own {
		if edited := editedPageFiles(dir, written); len(edited) > 0 {
			return fmt.Errorf("web: -o %s: %s changed since 'cordillera web' wrote it; keep a copy and add -force to replace it with the page's own, or give another folder",
				dir, joinFew(edited))
		}
		return nil
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return fmt.Errorf("web: -o %s: the folder holds files 'cordillera web' did not write (%s); give a new or empty folder, or add -force to write the page's files into it, replacing any of the same names",
		dir, joinFew(names))
}

// ownPageFolder reports whether dir holds the manifest 'cordillera web -o'
// leaves: a regular file (not a link) that starts with manifestHeader. It
// returns the files the manifest lists, in its order, each with the hex
// SHA-256 it was written with ("" in a manifest written before the hashes).
func ownPageFolder(dir string) (written [][2]string, own bool) {
	path := filepath.Join(dir, manifestFile)
	if info, err := os.Lstat(path); err != nil || !info.Mode().IsRegular() {
		return nil, false
	}
	data, err := inputfile.ReadAll(path, 64<<10, "the page's manifest")
	rest, own := strings.CutPrefix(string(data), manifestHeader+"\n")
	if err != nil || !own {
		return nil, false
	}
	for _, line := range strings.Split(rest, "\n") {
		name, sum, _ := strings.Cut(line, "\t")
		if name != "" && name == filepath.Base(name) && name != ".." {
			written = append(written, [2]string{name, sum})
		}
	}
	return written, true
}

// editedPageFiles returns the files of written (name, SHA-256) that dir
// holds with other contents than the manifest records, or as other than
// a regular file. A file gone is not edited: the page writes it anew.
func editedPageFiles(dir string, written [][2]string) []string {
	var edited []string
	for _, w := range written {
		if w[1] == "" {
			continue
		}
		path := filepath.Join(dir, w[0])
		info, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil || !info.Mode().IsRegular() || fileSHA256(path) != w[1] {
			edited = append(edited, w[0])
		}
	}
	return edited
}

// fileSHA256 is the hex SHA-256 of the regular file at path (at most 1 GB),
// or "" when it cannot be read.
func fileSHA256(path string) string {
	f, _, err := inputfile.Open(path, 1<<30, "a page file")
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// joinFew lists a few names for a message.
func joinFew(names []string) string {
	const most = 4
	if len(names) > most {
		return fmt.Sprintf("%s and %d more", strings.Join(names[:most], ", "), len(names)-most)
	}
	return strings.Join(names, ", ")
}

// WritePage writes the page's files and its manifest into dir, creating it
// if need be. Either every file is written or none: whatever was in dir
// stays as it was when something fails.
func WritePage(ctx context.Context, dir string, p *Page) error {
	g := atomicfile.NewGroup(ctx)
	defer g.Abort()
	if err := g.MkdirAll(dir); err != nil { // removed again if anything fails
		return fmt.Errorf("web: -o %s: %w", dir, err)
	}
	manifest := []byte(manifestHeader + "\n")
	for _, name := range p.names {
		sum := sha256.Sum256(p.files[name])
		manifest = fmt.Appendf(manifest, "%s\t%s\n", name, hex.EncodeToString(sum[:]))
	}
	add := func(name string, data []byte) error {
		return g.Add(filepath.Join(dir, name), func(w io.Writer) error { _, err := w.Write(data); return err })
	}
	for _, name := range p.names {
		if err := add(name, p.files[name]); err != nil {
			return fmt.Errorf("web: %w", err)
		}
	}
	if err := add(manifestFile, manifest); err != nil {
		return fmt.Errorf("web: %w", err)
	}
	if err := g.Commit(); err != nil {
		return fmt.Errorf("web: %w", err)
	}
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
