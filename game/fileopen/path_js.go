//go:build js

package fileopen

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"syscall/js"

	"cordillera/terrain/heightfile"
	"cordillera/web"
)

// Path opens a path typed in the File panel. A web page cannot read
// the visitor's disk, so the path is a URL relative to the page: a teacher
// who puts maps beside index.html on the school's server can have the class
// type their names. A page opened from a folder (file://) cannot fetch at
// all, and says so.
func Path(path string) Opener {
	return func() (io.ReadCloser, int64, error) {
		data, err := fetchBesidePage(path)
		if err != nil {
			return nil, 0, err
		}
		return io.NopCloser(bytes.NewReader(data)), int64(len(data)), nil
	}
}

// errTypedPathFromFolder is what a typed path gets in a page opened from a
// folder: browsers refuse fetch() of file:// URLs.
var errTypedPathFromFolder = errors.New("a page opened from a folder cannot read typed paths (the browser forbids it): drop the file on the page or use Open file… at the top right")

// fetchBesidePage fetches path relative to the page's address, from the
// page's own server only (web.CheckTypedPath), refusing a file larger than any kind's cap before reading it whole. It blocks the
// calling goroutine, not the page: the browser's promises resolve on the
// event loop while Go waits on a channel.
func fetchBesidePage(path string) (data []byte, err error) {
	defer func() { // a URL the browser refuses to parse throws
		if p := recover(); p != nil {
			data, err = nil, fmt.Errorf("%s: %v", path, p)
		}
	}()
	location := js.Global().Get("location")
	if location.Get("protocol").String() == "file:" {
		return nil, fmt.Errorf("%s: %w", path, errTypedPathFromFolder)
	}
	// Only the page's own server: a typed (or pasted) URL of another
	// origin would have the page fetch from wherever it pointed.
	if err := web.CheckTypedPath(path); err != nil {
		return nil, err
	}
	page := location.Get("href").String()
	url := js.Global().Get("URL").New(path, page).Get("href").String()
	if !web.SameOrigin(url, page) {
		return nil, fmt.Errorf("%s: resolves to %s, not on the page's server; drop the file on the page or use Open file…", path, url)
	}
	resp, err := await(js.Global().Call("fetch", url))
	if err != nil {
		return nil, fmt.Errorf("%s: fetching %s: %v", path, url, err)
	}
	if !resp.Get("ok").Bool() {
		return nil, fmt.Errorf("%s: the page's server answered %d %s for %s (a typed path is fetched from beside the page; files on this computer: drop them or use Open file…)",
			path, resp.Get("status").Int(), resp.Get("statusText").String(), url)
	}
	if n := resp.Get("headers").Call("get", "Content-Length"); !n.IsNull() {
		var size int64
		if _, err := fmt.Sscan(n.String(), &size); err == nil && size > heightfile.MaxFileBytes {
			return nil, fmt.Errorf("%s: %d bytes; the largest map, parameter or route file read is %d", path, size, heightfile.MaxFileBytes)
		}
	}
	buf, err := await(resp.Call("arrayBuffer"))
	if err != nil {
		return nil, fmt.Errorf("%s: reading %s: %v", path, url, err)
	}
	bytesJS := js.Global().Get("Uint8Array").New(buf)
	if n := bytesJS.Get("length").Int(); n > heightfile.MaxFileBytes {
		return nil, fmt.Errorf("%s: %d bytes; the largest map, parameter or route file read is %d", path, n, heightfile.MaxFileBytes)
	}
	data = make([]byte, bytesJS.Get("length").Int())
	js.CopyBytesToGo(data, bytesJS)
	return data, nil
}

// await waits for a JavaScript promise: its value, or its rejection as an
// error. Call it off the game's goroutine.
func await(promise js.Value) (js.Value, error) {
	type settled struct {
		value js.Value
		err   error
	}
	done := make(chan settled, 1)
	resolve := js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- settled{value: args[0]}
		return nil
	})
	reject := js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- settled{err: errors.New(js.Global().Call("String", args[0]).String())}
		return nil
	})
	defer resolve.Release()
	defer reject.Release()
	promise.Call("then", resolve, reject)
	s := <-done
	return s.value, s.err
}
