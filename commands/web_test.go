package commands

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"cordillera/web"
)

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
		{[]string{"-serve", ":0", "-force"}, "-force is for -o DIR"},
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

// fakeWasm stands in for the explorer in the tests: the .wasm magic and
// enough code-like bytes for gzip to shrink it.
var fakeWasm = append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte("cordillera explorer code "), 4000)...)

// withFakeBuild makes the page's build write fakeWasm instead of running
// the minute-long go build, for the test's duration.
func withFakeBuild(t *testing.T) {
	t.Helper()
	old := buildExplorer
	buildExplorer = func(_ context.Context, _, _, out string, _ io.Writer) error {
		return os.WriteFile(out, fakeWasm, 0o644)
	}
	t.Cleanup(func() { buildExplorer = old })
}

// startWeb runs the web command with args until the test ends, and
// returns the URL it says it serves at.
func startWeb(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	done := make(chan error, 1)
	go func() {
		err := runWeb(ctx, args, pw, io.Discard)
		pw.Close()
		done <- err
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("web %q: %v", args, err)
		}
	})
	for line := range lines {
		if rest, ok := strings.CutPrefix(line, "serving "); ok {
			_, url, _ := strings.Cut(rest, " at ")
			url, _, _ = strings.Cut(url, " ")
			return url
		}
	}
	t.Fatalf("web %q ended without serving: %v", args, <-done)
	return ""
}

// get requests a path of the server, with the request headers given as
// name, value pairs; it returns the response with its body read.
func get(t *testing.T, method, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{DisableCompression: true}}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// web -serve sends exactly the page it built, from memory: a symbolic link
// to a file outside the folder, a dotfile such as .git/config, a subfolder
// and a user's file beside the page are never sent, there are no
// listings, every answer says nosniff, and the .wasm goes as
// application/wasm, gzipped to a browser that accepts it. -serve :PORT
// listens on 127.0.0.1 and prints the address it bound. The old server
// sent /etc/passwd through a link, listed folders and sent .git/config,
// and -serve :PORT listened on every interface while printing localhost.
func TestWebServesOnlyThePage(t *testing.T) {
	withFakeBuild(t)
	dir := filepath.Join(t.TempDir(), "site")
	url := startWeb(t, "-o", dir, "-serve", ":0")
	if !strings.HasPrefix(url, "http://127.0.0.1:") || strings.HasSuffix(url, ":0/") {
		t.Fatalf("serving at %q; want http://127.0.0.1:PORT/, the address bound", url)
	}
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("not for the web"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ name, data string }{{".git/config", "[core]"}, {"sub/notes.txt", "notes"}, {"user.txt", "mine"}} {
		path := filepath.Join(dir, f.name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"link": secret, "linkdir": filepath.Dir(secret), "etc": "/etc"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	index, err := fs.ReadFile(web.Page, "index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, ctype string
		body        []byte
	}{
		{"", "text/html; charset=utf-8", index},
		{"index.html", "text/html; charset=utf-8", index},
		{"cordillera.wasm", "application/wasm", fakeWasm},
		{"wasm_exec.js", "text/javascript; charset=utf-8", nil},
		{"cordillera.wasm.js", "text/javascript; charset=utf-8", nil},
	} {
		resp, body := get(t, "GET", url+c.path)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != c.ctype || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET /%s: %d, type %q, nosniff %q; want 200 %q nosniff", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("X-Content-Type-Options"), c.ctype)
		}
		if c.body != nil && !bytes.Equal(body, c.body) {
			t.Errorf("GET /%s: %d bytes that differ from the %d expected", c.path, len(body), len(c.body))
		}
	}
	for _, path := range []string{"link", "linkdir/secret", "etc/passwd", "etc/", ".git/config", ".git/", "sub/", "sub/notes.txt", "user.txt",
		".cordillera-web", "../secret", "%2e%2e/secret", "index.html/", "/index.html", "cordillera.wasm.gz"} {
		resp, body := get(t, "GET", url+path)
		if resp.StatusCode != 404 || bytes.Contains(body, []byte("not for the web")) || bytes.Contains(body, []byte("root:")) || bytes.Contains(body, []byte("<a href")) {
			t.Errorf("GET /%s: %d %q; want 404", path, resp.StatusCode, body)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET /%s: no nosniff", path)
		}
	}
	if resp, _ := get(t, "POST", url+"index.html"); resp.StatusCode != 405 {
		t.Errorf("POST: %d; want 405", resp.StatusCode)
	}
	resp, body := get(t, "GET", url+"cordillera.wasm", "Accept-Encoding", "gzip, deflate, br")
	if resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Content-Type") != "application/wasm" || !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
		t.Errorf("gzip accepted: encoding %q, type %q, vary %q", resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Type"), resp.Header.Get("Vary"))
	} else if len(body) >= len(fakeWasm) {
		t.Errorf("gzipped .wasm takes %d bytes, the .wasm %d", len(body), len(fakeWasm))
	} else if zr, err := gzip.NewReader(bytes.NewReader(body)); err != nil {
		t.Error(err)
	} else if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, fakeWasm) {
		t.Errorf("gunzipped .wasm: %d bytes, %v; want the .wasm", len(got), err)
	}
	for _, ae := range []string{"gzip;q=0", "identity", "br"} {
		resp, body := get(t, "GET", url+"cordillera.wasm", "Accept-Encoding", ae)
		if resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, fakeWasm) {
			t.Errorf("Accept-Encoding %q: encoding %q, %d bytes; want the plain .wasm", ae, resp.Header.Get("Content-Encoding"), len(body))
		}
	}
}

// -serve without a host listens on the loopback interface only; a host
// named is taken as given, and a listener on every interface says so.
func TestServeListensOnLoopbackUnlessAHostIsNamed(t *testing.T) {
	for _, addr := range []string{":0", "0", "127.0.0.1:0"} {
		ln, err := listenLocal(addr)
		if err != nil {
			t.Fatalf("%s: %v", addr, err)
		}
		ip := ln.Addr().(*net.TCPAddr).IP
		ln.Close()
		if !ip.Equal(net.IPv4(127, 0, 0, 1)) {
			t.Errorf("-serve %s listened on %v; want 127.0.0.1", addr, ip)
		}
	}
	if _, err := listenLocal("99999"); err == nil {
		t.Error("-serve 99999: no error")
	}
	all := &net.TCPAddr{IP: net.IPv4zero, Port: 8080}
	if s := servingAt(all); !strings.HasPrefix(s, "http://0.0.0.0:8080/") || !strings.Contains(s, "every network interface") {
		t.Errorf("servingAt(0.0.0.0:8080) = %q", s)
	}
}

// 40 slow clients, each sending half a request's headers and then
// nothing, neither stop a normal request from being served (though the
// server takes fewer connections at once here) nor stay connected: the
// header timeout drops them. The old server had no timeouts and no limit,
// so slow clients stayed until the descriptors ran out.
func TestPageServerOutlastsSlowConnections(t *testing.T) {
	if pageLimits.readHeader <= 0 || pageLimits.read <= 0 || pageLimits.write <= 0 || pageLimits.idle <= 0 || pageLimits.conns <= 0 {
		t.Fatalf("the server's limits %+v leave something unbounded", pageLimits)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	page := &Page{files: map[string][]byte{"index.html": []byte("<!doctype html><title>x</title>")}, made: time.Now()}
	lim := serveLimits{readHeader: 200 * time.Millisecond, read: time.Second, write: 5 * time.Second, idle: time.Second, conns: 8}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- servePage(ctx, ln, page, lim) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("servePage: %v", err)
		}
	}()
	var slow []net.Conn
	defer func() {
		for _, c := range slow {
			c.Close()
		}
	}()
	for range 40 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		slow = append(slow, c)
		if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n"); err != nil {
			t.Fatal(err)
		}
	}
	resp, body := get(t, "GET", "http://"+ln.Addr().String()+"/")
	if resp.StatusCode != 200 || !bytes.Equal(body, page.files["index.html"]) {
		t.Errorf("a normal request beside 40 slow ones: %d %q", resp.StatusCode, body)
	}
	for i, c := range slow {
		c.SetReadDeadline(time.Now().Add(time.Minute)) // a guard against a hang, not a measure
		_, err := io.Copy(io.Discard, c)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("slow connection %d still open after a minute; want the server to drop it", i)
		}
	}
}

// web -o refuses a folder it did not make when it holds anything: the
// user's own index.html used to be replaced without a word. An empty
// folder is taken, -force writes into any, and a folder the page was
// written to (its manifest) is refreshed without -force, keeping files
// the user put beside the page.
func TestWebRefusesAFolderItDidNotMake(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join(dir, "index.html")
	if err := os.WriteFile(index, []byte("my own page"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := Web([]string{"-o", dir}, &out, io.Discard)
	if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "-force") || !strings.Contains(err.Error(), "index.html") {
		t.Errorf("web -o over a user's folder: error %v; want one naming %s, its files and -force", err, dir)
	}
	if strings.Contains(out.String(), "building") {
		t.Error("the refusal came after the build")
	}
	if data, _ := os.ReadFile(index); string(data) != "my own page" {
		t.Fatalf("index.html now holds %q", data)
	}

	withFakeBuild(t)
	if err := runWeb(context.Background(), []string{"-o", dir, "-force"}, io.Discard, io.Discard); err != nil {
		t.Fatalf("-force: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "cordillera.wasm")); !bytes.Equal(data, fakeWasm) {
		t.Errorf("-force: cordillera.wasm holds %d bytes, want the build's %d", len(data), len(fakeWasm))
	}
	beside := filepath.Join(dir, "map.png")
	if err := os.WriteFile(beside, []byte("a teacher's map"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := runWeb(context.Background(), []string{"-o", dir}, io.Discard, io.Discard); err != nil {
		t.Fatalf("refreshing the page's own folder: %v", err)
	}
	if data, _ := os.ReadFile(beside); string(data) != "a teacher's map" {
		t.Errorf("the refresh changed map.png: %q", data)
	}
	empty := t.TempDir()
	if err := runWeb(context.Background(), []string{"-o", empty}, io.Discard, io.Discard); err != nil {
		t.Errorf("an empty folder: %v", err)
	}
	names := dirNames(t, empty)
	want := []string{".cordillera-web", "cordillera.js", "cordillera.wasm", "cordillera.wasm.js", "index.html", "wasm_exec.js"}
	if !slices.Equal(names, want) {
		t.Errorf("the page's folder holds %q; want %q", names, want)
	}
}

// A page file the user edited since 'cordillera web -o' wrote it (a
// teacher's own title in index.html) is not replaced by a refresh without
// -force: the manifest records each file's SHA-256, and the refusal names
// the file and comes before the build. The old manifest listed only names,
// and the refresh replaced the edited index.html without a word. Files
// untouched since are refreshed, and a manifest of names alone (written
// before the hashes) is still taken as it was.
func TestWebKeepsAPageFileTheUserEdited(t *testing.T) {
	withFakeBuild(t)
	dir := t.TempDir()
	if err := runWeb(context.Background(), []string{"-o", dir}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := runWeb(context.Background(), []string{"-o", dir}, io.Discard, io.Discard); err != nil {
		t.Fatalf("refreshing an untouched page: %v", err)
	}
	index := filepath.Join(dir, "index.html")
	if err := os.WriteFile(index, []byte("<title>Geography 3B</title>"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := runWeb(context.Background(), []string{"-o", dir}, &out, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "index.html") || !strings.Contains(err.Error(), "-force") || strings.Contains(err.Error(), "cordillera.js") {
		t.Errorf("refreshing over an edited index.html: %v; want a refusal naming index.html alone and -force", err)
	}
	if strings.Contains(out.String(), "building") {
		t.Error("the refusal came after the build")
	}
	if data, _ := os.ReadFile(index); string(data) != "<title>Geography 3B</title>" {
		t.Fatalf("index.html now holds %q", data)
	}
	if err := runWeb(context.Background(), []string{"-o", dir, "-force"}, io.Discard, io.Discard); err != nil {
		t.Fatalf("-force: %v", err)
	}
	want, err := fs.ReadFile(web.Page, "index.html")
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(index); !bytes.Equal(data, want) {
		t.Errorf("-force left index.html as %q", data)
	}
	// A manifest of names alone.
	old := manifestHeader + "\ncordillera.js\nindex.html\nwasm_exec.js\ncordillera.wasm\ncordillera.wasm.js\n"
	if err := os.WriteFile(filepath.Join(dir, manifestFile), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(index, []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := runWeb(context.Background(), []string{"-o", dir}, io.Discard, io.Discard); err != nil {
		t.Errorf("a manifest without hashes: %v", err)
	}
}
