package e2e

import (
	"encoding/base64"
	"fmt"
	"image"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cordillera/internal/testenv"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// The page opened from a folder and the files it reads: a file:// page
// loads the explorer from cordillera.wasm.js (browsers refuse fetch() of
// file:// URLs), typed paths are fetched from beside the page, and EXR maps
// say which compressions the browser reads.

// TestWebFromFolder opens index.html as a file:// URL in a browser started
// without --allow-file-access-from-files, as a teacher's is: the explorer
// comes from the script beside the page, the File panel's Load button
// says plainly that typed paths cannot be read here, and the frame is the
// one the same link draws when the folder is served over HTTP.
func TestWebFromFolder(t *testing.T) {
	site := webPage(t)
	p := openURL(t, "file://"+filepath.ToSlash(site)+"/index.html#size=257&open=File")
	p.waitState("the first frame", 3*time.Minute, func(s webState) bool { return s.Frames > 0 })
	logStartup(t, p)
	var source string
	p.eval(`globalThis.cordilleraSource`, &source)
	if source != "cordillera.wasm.js" {
		t.Errorf("the file:// page loaded the explorer from %q; want cordillera.wasm.js", source)
	}
	s := p.ready()
	if s.MapWidth != 257 || s.IsError {
		t.Fatalf("the file:// page made a %d² map (message %q); want the 257² world", s.MapWidth, s.Message)
	}
	img := p.shot("web-from-folder")

	p.click(loadButton.X, loadButton.Y)
	e := p.waitState("the typed path's answer", time.Minute, func(s webState) bool { return s.IsError })
	if !strings.Contains(e.Message, "cannot read typed paths") || !strings.Contains(e.Message, "Open file") {
		t.Errorf("Load on a file:// page says %q; want that typed paths cannot be read, and to drop the file or use Open file…", e.Message)
	}
	if e.WorldID != s.WorldID {
		t.Errorf("the failed load changed the world")
	}
	p.shot("web-from-folder-typed-path")

	// The same link served over HTTP draws the same frame: the view right
	// of the panel, between the HUD and the minimap, matches.
	served := openPage(t, "size=257&open=File")
	served.ready()
	want := served.shot("web-from-folder-served")
	view := image.Rect(360, 60, 1000, 400)
	n := pixelsDiffering(img, want, view)
	t.Logf("%d of %d pixels of the view differ between the file:// and the http:// page", n, view.Dx()*view.Dy())
	if n > view.Dx()*view.Dy()/50 {
		t.Errorf("%d pixels of the view differ from the page served over HTTP; want the same world drawn", n)
	}
	if r, g, b := meanRGB(img, view); r+g+b < 120 {
		t.Errorf("the view is dark (%.0f,%.0f,%.0f); want the world drawn", r, g, b)
	}
}

// loadButton is where the File panel's "Load map or params" button is with
// only that panel unfolded, in CSS pixels (left of Save map).
var loadButton = struct{ X, Y float64 }{95, 201}

// TestWebTypedPath types nothing new into the File panel (its path is
// map.png) and clicks Load: the page fetches map.png from beside itself.
// While the server has none, the error names the 404 and what to do; once
// it has one, that map opens.
func TestWebTypedPath(t *testing.T) {
	chromium(t)
	m := terrain.NewHeightmap(129, 97)
	for i := range m.Samples {
		x, y := i%m.Width, i/m.Width
		m.Samples[i] = float32(x+y) / float32(m.Width+m.Height)
	}
	mapPath := filepath.Join(t.TempDir(), "map.png")
	if err := heightfile.Save(mapPath, m, heightfile.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	var there atomic.Bool
	url := serveSite(t, webPage(t), map[string]http.HandlerFunc{"/map.png": func(w http.ResponseWriter, r *http.Request) {
		if !there.Load() {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, mapPath)
	}})
	p := openURL(t, url+"/#size=257&open=File")
	s := p.ready()
	if s.Path != "map.png" {
		t.Fatalf("the File panel's path is %q; want map.png", s.Path)
	}
	p.click(loadButton.X, loadButton.Y)
	e := p.waitState("the 404", time.Minute, func(s webState) bool { return s.IsError })
	if !strings.Contains(e.Message, "404") || !strings.Contains(e.Message, "/map.png") {
		t.Errorf("Load without map.png on the server says %q; want the 404 and the address fetched", e.Message)
	}
	p.shot("web-typed-path-404")
	there.Store(true)
	p.click(loadButton.X, loadButton.Y)
	r := p.waitState("map.png opened", 2*time.Minute, func(r webState) bool { return r.MapWidth == 129 && r.MapHeight == 97 && !r.Busy })
	if r.IsError {
		t.Errorf("opening map.png from the server: %s", r.Message)
	}
	p.shot("web-typed-path")
}

// TestWebEXRCompressions opens EXR maps that OpenEXR's own exrmultiview
// compressed: PXR24 and PIZ open (decoded in pure Go, in the browser as on
// the desktop), B44 is refused with a message naming it and the way out.
func TestWebEXRCompressions(t *testing.T) {
	chromium(t)
	tool, err := exec.LookPath("exrmultiview")
	if err != nil {
		if testenv.DisplayRequired() {
			t.Fatalf("needs exrmultiview (apt-get install openexr), and %s=1 requires it", testenv.RequireDisplayEnv)
		}
		t.Skip("needs exrmultiview (apt-get install openexr)")
	}
	dir := t.TempDir()
	m := terrain.NewHeightmap(200, 150)
	for i := range m.Samples {
		m.Samples[i] = float32(i%m.Width) / float32(m.Width)
	}
	m.VerticalScale = 800
	src := filepath.Join(dir, "src.exr")
	if err := heightfile.Save(src, m, heightfile.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	exrFile := func(z string) string {
		out := filepath.Join(dir, z+".exr")
		if b, err := exec.Command(tool, "-z", z, "left", src, "right", src, out).CombinedOutput(); err != nil {
			t.Fatalf("exrmultiview -z %s: %v\n%s", z, err, b)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("cordilleraOpen(%q, Uint8Array.from(atob(%q), c => c.charCodeAt(0))); true", z+".exr", base64.StdEncoding.EncodeToString(data))
	}
	p := openPage(t, "size=257")
	s := p.ready()
	p.eval(exrFile("pxr24"), new(bool))
	r := p.waitState("the PXR24 map", 2*time.Minute, func(r webState) bool { return r.WorldID != s.WorldID && !r.Busy || r.IsError })
	if r.IsError || r.MapWidth != 200 || r.MapHeight != 150 {
		t.Fatalf("the PXR24 map: %d×%d, message %q; want the 200×150 map", r.MapWidth, r.MapHeight, r.Message)
	}
	p.eval(exrFile("piz"), new(bool))
	z := p.waitState("the PIZ map", 2*time.Minute, func(z webState) bool { return z.WorldID != r.WorldID && !z.Busy || z.IsError })
	if z.IsError || z.MapWidth != 200 || z.MapHeight != 150 {
		t.Fatalf("the PIZ map: %d×%d, message %q; want the 200×150 map", z.MapWidth, z.MapHeight, z.Message)
	}
	p.eval(exrFile("b44"), new(bool))
	e := p.waitState("the B44 refusal", time.Minute, func(e webState) bool { return e.IsError })
	for _, want := range []string{"B44 compression is not read", "ZIP"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("the B44 map: %q; want it to say %q", e.Message, want)
		}
	}
	if e.WorldID != z.WorldID {
		t.Errorf("the refused B44 map replaced the world")
	}
	p.shot("web-exr-b44")
}

// logStartup logs where the time before the first frame went: the marks
// game/web_js.go sets, in ms since navigation.
func logStartup(t *testing.T, p *page) {
	t.Helper()
	var marks map[string]float64
	p.eval(`Object.assign({loaded: globalThis.cordilleraLoaded || 0}, globalThis.cordilleraStartup || {})`, &marks)
	t.Logf("start-up (ms since navigation): wasm compiled %.0f, Go main %.0f, preview %.0f, game %.0f, first frame %.0f",
		marks["loaded"], marks["main"], marks["preview"], marks["game"], marks["firstFrame"])
}
