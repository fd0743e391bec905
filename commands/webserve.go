package commands

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/netutil"

	"cordillera/web"
)

// The local server of 'cordillera web -serve' sends the page's files from
// memory, exactly those 'cordillera web' built, and nothing else: no file
// of the folder is read back, so a symbolic link, a dotfile (.git/config)
// or a subfolder put beside the page is never sent, and there are no
// listings. It listens on 127.0.0.1 unless a host is named.

// serveLimits bound what clients may hold of the server.
type serveLimits struct {
	readHeader time.Duration // to send a request's headers
	read       time.Duration // to send a whole request
	write      time.Duration // to take a whole answer (the .wasm is 12 MB gzipped)
	idle       time.Duration // a kept-alive connection waiting for its next request
	conns      int           // connections served at once; more wait to be accepted
}

// pageLimits are the server's limits: slow or idle connections are
// dropped, and no more connections are open at once than a default
// descriptor limit (1024) has room for, so that 40 slow clients can
// neither exhaust the descriptors nor keep a browser waiting for long.
var pageLimits = serveLimits{
	readHeader: 10 * time.Second,
	read:       30 * time.Second,
	write:      5 * time.Minute,
	idle:       time.Minute,
	conns:      128,
}

// listenLocal listens at addr, on 127.0.0.1 when addr names no host
// (":8080", or a bare "8080"): a page for this computer is not offered to
// the whole network unless asked for by naming a host (0.0.0.0:8080).
func listenLocal(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		if _, perr := strconv.ParseUint(addr, 10, 16); perr != nil {
			return nil, err
		}
		host, port = "", addr
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.Listen("tcp", net.JoinHostPort(host, port))
}

// servingAt writes the address a listener really bound as a URL, and,
// for one on every interface, says so and gives this computer's address.
func servingAt(a net.Addr) string {
	url := "http://" + a.String() + "/"
	tcp, ok := a.(*net.TCPAddr)
	if ok && tcp.IP.IsUnspecified() {
		return url + " (every network interface; on this computer http://" + net.JoinHostPort("localhost", strconv.Itoa(tcp.Port)) + "/)"
	}
	return url
}

// servePage serves p on ln within the limits until ctx ends.
func servePage(ctx context.Context, ln net.Listener, p *Page, lim serveLimits) error {
	srv := &http.Server{
		Handler:           p,
		ReadHeaderTimeout: lim.readHeader,
		ReadTimeout:       lim.read,
		WriteTimeout:      lim.write,
		IdleTimeout:       lim.idle,
		MaxHeaderBytes:    16 << 10,
	}
	stop := context.AfterFunc(ctx, func() { srv.Close() })
	defer stop()
	err := srv.Serve(netutil.LimitListener(ln, lim.conns))
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// contentTypes are the types of the page's files; WebAssembly streaming
// compilation insists on application/wasm.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".wasm": "application/wasm",
}

// ServeHTTP sends one of the page's files: "/" is index.html, any other
// path must name a file of the page exactly. Nothing is cached without
// asking again, so a rebuilt page shows at the next reload; nosniff keeps
// browsers to the types given. The .wasm goes gzipped to a browser that
// accepts it.
func (p *Page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(r.URL.Path, "/")
	if name == "" {
		name = "index.html"
	}
	data, ok := p.files[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if t, ok := contentTypes[path.Ext(name)]; ok {
		h.Set("Content-Type", t)
	}
	if name == web.WasmFile && p.wasmGzip != nil {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			h.Set("Content-Encoding", "gzip")
			data = p.wasmGzip
		}
	}
	http.ServeContent(w, r, name, p.made, bytes.NewReader(data))
}

// acceptsGzip reads an Accept-Encoding header: gzip (or *) listed without
// q=0.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.TrimSpace(coding)
		if !strings.EqualFold(coding, "gzip") && coding != "*" {
			continue
		}
		q, found := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
		if !found {
			return true
		}
		v, err := strconv.ParseFloat(q, 64)
		return err == nil && v > 0
	}
	return false
}
