package web

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// errNotBesidePage is the advice for a typed path the page will not fetch.
var errNotBesidePage = errors.New("a typed path is a file beside the page on its server (maps/alps.png); files on this computer: drop them on the page or use Open file…")

// CheckTypedPath refuses a path typed in the File panel that could make
// the page fetch from anywhere but its own server: an absolute URL
// (https://elsewhere/, data:, javascript:), a scheme-relative one
// (//elsewhere/), and anything a browser would read differently from Go's
// URL parser: backslashes (which browsers take as slashes, so \\elsewhere
// is //elsewhere), control characters (which they drop) and leading or
// trailing spaces (which they trim). A path relative to the page, or
// absolute on its server (/maps/alps.png), is fine.
func CheckTypedPath(path string) error {
	if path == "" {
		return errors.New("no path typed")
	}
	if strings.TrimSpace(path) != path {
		return fmt.Errorf("%q: leading or trailing spaces: %w", path, errNotBesidePage)
	}
	if i := strings.IndexFunc(path, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }); i >= 0 {
		return fmt.Errorf("%q: %q is not taken in a path: %w", path, path[i], errNotBesidePage)
	}
	u, err := url.Parse(path)
	if err != nil {
		return fmt.Errorf("%q: %w", path, errNotBesidePage)
	}
	if u.Scheme != "" || u.Host != "" || u.User != nil || strings.HasPrefix(path, "//") {
		return fmt.Errorf("%s: another server's address; %w", path, errNotBesidePage)
	}
	return nil
}

// SameOrigin reports whether the URL resolved, as the browser wrote it,
// has the page's origin: the same scheme, host and port.
func SameOrigin(resolved, page string) bool {
	r, err1 := url.Parse(resolved)
	p, err2 := url.Parse(page)
	return err1 == nil && err2 == nil && r.Scheme != "" && strings.EqualFold(r.Scheme, p.Scheme) && strings.EqualFold(r.Host, p.Host)
}
