package web

import (
	"strings"
	"testing"
)

// A path typed in the File panel is fetched only from beside the page:
// another origin's URL, however spelled, is refused with the advice to
// drop the file; paths relative to the page or absolute on its server
// are taken. The page used to fetch whatever URL was typed.
func TestCheckTypedPath(t *testing.T) {
	for _, p := range []string{"alps.png", "maps/alps.png", "/maps/alps.png", "../maps/alps.png", "alps%20map.png", "a.json?x=1", "maps/alps:2.png"} {
		if err := CheckTypedPath(p); err != nil {
			t.Errorf("%q: %v; want it taken", p, err)
		}
	}
	for _, p := range []string{
		"https://elsewhere.example/x.png", "http://127.0.0.1:9/x", "HTTPS://elsewhere.example/x", "//elsewhere.example/x.png",
		"\\\\elsewhere.example\\x.png", "/\\elsewhere.example/x", " //elsewhere.example/x", "ht\ttps://elsewhere.example/x",
		"data:image/png;base64,AAAA", "javascript:alert(1)", "blob:https://elsewhere.example/1", "file:///etc/passwd",
		"", "C:/maps/alps.png",
	} {
		err := CheckTypedPath(p)
		if err == nil {
			t.Errorf("%q: taken; want it refused", p)
		} else if p != "" && !strings.Contains(err.Error(), "Open file") {
			t.Errorf("%q: %v; want the advice to open the file instead", p, err)
		}
	}
}

// The URL the browser resolved is checked against the page's origin too.
func TestSameOrigin(t *testing.T) {
	page := "https://school.example/geo/index.html#preset=alps"
	for resolved, want := range map[string]bool{
		"https://school.example/geo/alps.png":        true,
		"https://School.example/maps/alps.png":       true,
		"https://school.example:8443/geo/alps.png":   false,
		"http://school.example/geo/alps.png":         false,
		"https://elsewhere.example/geo/alps.png":     false,
		"https://school.example.elsewhere.example/x": false,
		"data:image/png;base64,AAAA":                 false,
	} {
		if got := SameOrigin(resolved, page); got != want {
			t.Errorf("SameOrigin(%q) = %v; want %v", resolved, got, want)
		}
	}
}
