package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"cordillera/game"
	"cordillera/internal/testenv"
	"cordillera/terrain"
)

// The web page end to end: 'cordillera web -o DIR' builds it (once per test
// binary), an httptest server serves the folder, and headless Chromium
// (Debian's chromium package, driven over the DevTools protocol with
// chromedp) loads it with WebGL on SwiftShader. The page publishes the
// explorer's state as JSON in globalThis.cordilleraState (game/web_js.go);
// the tests read it and the page's pixels. Without chromium they skip,
// unless CORDILLERA_REQUIRE_DISPLAY=1 makes that a failure.
//
// CORDILLERA_WEB_SHOTS=DIR saves the screenshots the tests take in DIR.

// webViewport is the size of the browser window the tests use.
var webViewport = image.Pt(1024, 640)

var (
	webOnce sync.Once
	webSite string // the folder 'cordillera web' wrote
	webErr  error
)

// webPage builds the page once with the cordillera command itself.
func webPage(t *testing.T) string {
	t.Helper()
	webOnce.Do(func() {
		// TestMain removes the scratch folder after the run.
		dir, err := scratchDir()
		if err != nil {
			webErr = err
			return
		}
		bin := plainBinary(t)
		webSite = filepath.Join(dir, "site")
		cmd := exec.Command(bin, "web", "-o", webSite)
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			webErr = fmt.Errorf("cordillera web: %v\n%s", err, out)
		}
	})
	if webErr != nil {
		t.Fatal(webErr)
	}
	return webSite
}

// chromium finds the browser, or ends the test: a skip, or a failure when
// CORDILLERA_REQUIRE_DISPLAY=1.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if testenv.DisplayRequired() {
		t.Fatalf("needs Chromium for the web page tests (apt-get install chromium), and %s=1 requires it", testenv.RequireDisplayEnv)
	}
	t.Skipf("needs Chromium (apt-get install chromium; scripts/ensure-consumers.sh installs it); %s=1 makes this a failure", testenv.RequireDisplayEnv)
	return ""
}

// page is one browser tab on the page.
type page struct {
	t   *testing.T
	ctx context.Context
}

// webState is what the page publishes in cordilleraState.
type webState struct {
	game.State
	Frames     int64   `json:"frames"`
	BusyFrames int64   `json:"busy_frames"`
	FullFrames int64   `json:"full_frames"`
	FullSteps  int64   `json:"full_steps"`
	Link       string  `json:"link"`
	Progress   float64 `json:"progress"`
}

// openPage starts headless Chromium on the page with the URL fragment;
// extra are more command-line switches for the browser.
func openPage(t *testing.T, fragment string, extra ...chromedp.ExecAllocatorOption) *page {
	t.Helper()
	chromium(t)
	url := serveSite(t, webPage(t), nil) + "/"
	if fragment != "" {
		url += "#" + fragment
	}
	return openURL(t, url, extra...)
}

// serveSite serves the page's folder on a test server, and returns its
// address; besides, when not nil, answers the paths it knows first.
func serveSite(t *testing.T, site string, besides map[string]http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h, ok := besides[r.URL.Path]; ok {
			h(w, r)
			return
		}
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		http.FileServer(http.Dir(site)).ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// openURL starts headless Chromium on a URL; extra are more command-line
// switches for the browser. A browser that dies before it opens its
// DevTools port (seen once in CI, a crash at start-up) is started again
// with a fresh profile, up to three times; any other error ends the test.
func openURL(t *testing.T, url string, extra ...chromedp.ExecAllocatorOption) *page {
	t.Helper()
	const tries = 3
	for try := 1; ; try++ {
		p, err := startBrowser(t, url, extra...)
		if err == nil {
			return p
		}
		if try == tries || !strings.Contains(err.Error(), "chrome failed to start") {
			t.Fatalf("loading %s (try %d of %d): %v", url, try, tries, err)
		}
		t.Logf("loading %s (try %d of %d): %v; starting the browser again", url, try, tries, err)
	}
}

// startBrowser starts one headless Chromium with a fresh profile and loads
// the URL; on an error everything it started is stopped again.
func startBrowser(t *testing.T, url string, extra ...chromedp.ExecAllocatorOption) (*page, error) {
	t.Helper()
	exe := chromium(t)
	// A fresh profile; Chromium may still write to it as it exits, so it
	// is removed best effort rather than with t.TempDir.
	profile, err := os.MkdirTemp("", "cordillera-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(profile) })
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(webViewport.X, webViewport.Y),
		// WebGL without a GPU: ANGLE on SwiftShader, Chromium's CPU renderer.
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("ignore-gpu-blocklist", true),
		// This machine has no network: nothing but the test server.
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
	)
	opts = append(opts, extra...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf), chromedp.WithErrorf(func(format string, args ...any) {
		// cdproto predates some of this Chromium's event fields; those events are not ours.
		if msg := fmt.Sprintf(format, args...); !strings.Contains(msg, "could not unmarshal event") {
			t.Logf("chromedp: %s", msg)
		}
	}))
	// A guard against a page that hangs, not a measure of speed: the widget
	// walk, which works some thirty dropdowns each with a redraw in the
	// software-rendered tab, has taken over ten minutes on a loaded machine.
	ctx, cancelTime := context.WithTimeout(ctx, 25*time.Minute)
	stop := func() { cancelTime(); cancelTab(); cancelAlloc() }
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(int64(webViewport.X), int64(webViewport.Y)), chromedp.Navigate(url)); err != nil {
		stop()
		return nil, err
	}
	t.Cleanup(stop)
	return &page{t: t, ctx: ctx}, nil
}

// eval evaluates a JavaScript expression into out.
func (p *page) eval(expr string, out any) {
	p.t.Helper()
	if err := chromedp.Run(p.ctx, chromedp.Evaluate(expr, out)); err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
}

// state reads the explorer's latest state; ok is false before the first.
func (p *page) state() (s webState, ok bool) {
	p.t.Helper()
	var text string
	p.eval(`globalThis.cordilleraState || ""`, &text)
	if text == "" {
		return s, false
	}
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		p.t.Fatalf("cordilleraState: %v", err)
	}
	return s, true
}

// waitState polls the state until done holds, and returns it.
func (p *page) waitState(what string, timeout time.Duration, done func(webState) bool) webState {
	p.t.Helper()
	end := time.Now().Add(timeout)
	var last webState
	for time.Now().Before(end) {
		if s, ok := p.state(); ok {
			last = s
			if done(s) {
				return s
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	var msg string
	p.eval(`document.getElementById("message").innerText`, &msg)
	p.t.Fatalf("waited %v for %s; last state: tick %d, frames %d, busy %v, message %q; page says %q",
		timeout, what, last.Tick, last.Frames, last.Busy, last.Message, msg)
	return last
}

// ready waits until the world the page was opened on is made in full.
func (p *page) ready() webState {
	p.t.Helper()
	return p.waitState("the world to be made", 3*time.Minute, func(s webState) bool { return s.Tick > 0 && !s.Busy && s.Frames > 3 })
}

// shot takes a screenshot of the page, saved as NAME.png in
// CORDILLERA_WEB_SHOTS when set.
func (p *page) shot(name string) *image.RGBA {
	p.t.Helper()
	var buf []byte
	if err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot(&buf)); err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	if dir := os.Getenv("CORDILLERA_WEB_SHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err == nil {
			_ = os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644)
		}
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Bounds(), img, img.Bounds().Min, draw.Src)
	return rgba
}

// click clicks the page at a point in CSS pixels.
func (p *page) click(x, y float64) {
	p.t.Helper()
	if err := chromedp.Run(p.ctx, chromedp.MouseClickXY(x, y)); err != nil {
		p.t.Fatalf("click at %v,%v: %v", x, y, err)
	}
}

// holdKey presses a key on the page and holds it for two ticks of the
// explorer, which at SwiftShader's frame rate could miss a press and
// release that both fall between two ticks.
func (p *page) holdKey(key string, code int64) {
	p.t.Helper()
	s, _ := p.state()
	down := input.DispatchKeyEvent(input.KeyRawDown).WithKey(key).WithCode(key).WithWindowsVirtualKeyCode(code)
	if err := chromedp.Run(p.ctx, down); err != nil {
		p.t.Fatalf("pressing %s: %v", key, err)
	}
	p.waitState("two ticks with "+key+" held", time.Minute, func(q webState) bool { return q.Tick >= s.Tick+2*webStateEvery })
	up := input.DispatchKeyEvent(input.KeyUp).WithKey(key).WithCode(key).WithWindowsVirtualKeyCode(code)
	if err := chromedp.Run(p.ctx, up); err != nil {
		p.t.Fatalf("releasing %s: %v", key, err)
	}
}

// webStateEvery is how many ticks pass between two states the page
// publishes (game/web_js.go).
const webStateEvery = 10

// meanRGB is the mean colour of a rectangle of img.
func meanRGB(img *image.RGBA, r image.Rectangle) (red, green, blue float64) {
	n := 0.0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := img.RGBAAt(x, y)
			red, green, blue = red+float64(c.R), green+float64(c.G), blue+float64(c.B)
			n++
		}
	}
	return red / n, green / n, blue / n
}

// pixelsDiffering counts the pixels of r that differ between a and b by
// more than 24 in some channel.
func pixelsDiffering(a, b *image.RGBA, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p, q := a.RGBAAt(x, y), b.RGBAAt(x, y)
			if absDiff(p.R, q.R) > 24 || absDiff(p.G, q.G) > 24 || absDiff(p.B, q.B) > 24 {
				n++
			}
		}
	}
	return n
}

// TestWebFirstFrame loads the page on the default world: the first frame
// comes, then the full map, and the view right of the panels shows bright
// bluish sky above darker green ground, as the desktop explorer does.
func TestWebFirstFrame(t *testing.T) {
	start := time.Now()
	p := openPage(t, "")
	p.waitState("the first frame", 3*time.Minute, func(s webState) bool { return s.Frames > 0 })
	var loaded, first float64
	p.eval(`globalThis.cordilleraLoaded || 0`, &loaded)
	p.eval(`globalThis.cordilleraFirstFrame || 0`, &first)
	logStartup(t, p)
	s := p.ready()
	t.Logf("wasm compiled %.0f ms after navigation, first frame at %.0f ms; the full %d² map after %v (%d frames drawn)",
		loaded, first, s.MapWidth, time.Since(start).Round(time.Millisecond), s.Frames)
	if s.MapWidth != 1025 || s.Params != terrainDefaults() {
		t.Fatalf("the page opened a %d² map with %+v; want the default world", s.MapWidth, s.Params)
	}
	img := p.shot("web-default")
	sky := image.Rect(560, 70, 800, 130)     // right of the panels, below the HUD
	ground := image.Rect(480, 470, 780, 590) // left of the minimap, above the scale bar
	sr, sg, sb := meanRGB(img, sky)
	gr, gg, gb := meanRGB(img, ground)
	t.Logf("sky %.0f,%.0f,%.0f; ground %.0f,%.0f,%.0f", sr, sg, sb, gr, gg, gb)
	if sb <= sr || sr+sg+sb < 450 {
		t.Errorf("the top of the view is %.0f,%.0f,%.0f; want bright sky, bluer than red", sr, sg, sb)
	}
	if gr+gg+gb > sr+sg+sb-60 || gg <= gb {
		t.Errorf("the bottom of the view is %.0f,%.0f,%.0f; want terrain, greener than blue and darker than the sky", gr, gg, gb)
	}
}

// TestWebSeedLink opens a link with a seed and size: the world made is that
// one, the Copy link fragment carries them back, and another seed makes
// another map. A bad link says what was wrong and opens the default world.
func TestWebSeedLink(t *testing.T) {
	p := openPage(t, "seed=5&size=257")
	s := p.ready()
	if s.Params.Seed != 5 || s.Params.Size != 257 || s.MapWidth != 257 {
		t.Fatalf("#seed=5&size=257 opened seed %d, size %d (a %d² map); want seed 5 at 257²", s.Params.Seed, s.Params.Size, s.MapWidth)
	}
	var link string
	p.eval(`cordilleraLink()`, &link)
	if link != "size=257&seed=5" {
		t.Errorf("cordilleraLink() = %q; want size=257&seed=5", link)
	}
	var title string
	p.eval(`document.title`, &title)
	if !strings.Contains(title, "seed 5") {
		t.Errorf("the page's title is %q; want it to name seed 5", title)
	}
	// The Copy link button puts the link in the address bar as well.
	var href string
	if err := chromedp.Run(p.ctx, chromedp.Click("#copy", chromedp.ByID), chromedp.Value("#link", &href, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(href, "/#size=257&seed=5") {
		t.Errorf("Copy link shows %q; want the page's address with #size=257&seed=5", href)
	}

	// A new fragment opens its world in the running page.
	p.eval(`location.hash = "seed=6&size=257"; true`, new(bool))
	s6 := p.waitState("seed 6", 2*time.Minute, func(s webState) bool { return s.Params.Seed == 6 && !s.Busy && s.MapWidth == 257 })
	if s6.MapSumHash == s.MapSumHash {
		t.Errorf("seeds 5 and 6 made maps with the same checksum %v", s.MapSumHash)
	}

	bad := openPage(t, "seed=many")
	b := bad.waitState("a frame", 3*time.Minute, func(s webState) bool { return s.Frames > 0 })
	if !b.IsError || !strings.Contains(b.Message, "seed") || b.Params.Seed != terrainDefaults().Seed {
		t.Errorf("#seed=many: message %q (error %v), seed %d; want an error naming seed, and the default world", b.Message, b.IsError, b.Params.Seed)
	}
}

// TestWebTeachLesson opens the subdivision lesson from a link with the Teach
// panel unfolded, and clicks its ">" button: the lesson moves one stage on
// and the frame changes.
func TestWebTeachLesson(t *testing.T) {
	p := openPage(t, "lesson=subdivision&open=Teach")
	s := p.waitState("the lesson", 3*time.Minute, func(s webState) bool {
		return s.Teach.Mode == "subdivision" && s.Frames > 2 && slices.Contains(s.Panels, "Teach")
	})
	if s.Teach.Stage != 0 || s.Teach.Stages == 0 {
		t.Fatalf("the lesson starts at stage %d of %d; want 0 of several", s.Teach.Stage, s.Teach.Stages)
	}
	before := p.shot("web-teach-stage0")
	p.click(teachNext.X, teachNext.Y)
	s1 := p.waitState("stage 1", time.Minute, func(s webState) bool { return s.Teach.Stage == 1 })
	p.waitState("a frame of stage 1", time.Minute, func(s webState) bool { return s.Frames > s1.Frames+1 })
	after := p.shot("web-teach-stage1")
	view := image.Rect(360, 60, 1000, 620)
	if n := pixelsDiffering(before, after, view); n < 2000 {
		t.Errorf("stepping the lesson changed %d pixels of the view; want the new stage drawn", n)
	}
}

// TestWebLessonLink opens a lesson state from a link, the algorithm, size,
// stage and plot of a slide: the page shows that stage of that map, and
// Copy link gives the same state back with the camera added. Before, the
// stage was an unknown parameter and the lesson's algorithm its own.
func TestWebLessonLink(t *testing.T) {
	const link = "algorithm=diamond-square&size=17&lesson=subdivision&stage=2a&plot=histogram"
	p := openPage(t, link)
	s := p.waitState("the lesson's stage", 3*time.Minute, func(s webState) bool {
		return s.Teach.Mode == "subdivision" && s.Frames > 2 && strings.Contains(s.Link, "camera=")
	})
	if s.Teach.Stage != 3 || s.Teach.Stages != 8 || s.Teach.Added != 4 {
		t.Errorf("the link shows stage %d of %d with %d points added; want stage 2a, 3 of 8, its 4 diamond centres", s.Teach.Stage, s.Teach.Stages, s.Teach.Added)
	}
	if !strings.HasPrefix(s.Link, link+"&camera=") {
		t.Errorf("Copy link gives %q; want %q with the camera", s.Link, link)
	}
	p.shot("web-lesson-link")
}

// teachNext is where the Teach panel's ">" button is with only that panel
// unfolded, in CSS pixels.
var teachNext = struct{ X, Y float64 }{135, 289}

// TestWebPanels opens each panel from a link and takes its screenshot (see
// CORDILLERA_WEB_SHOTS): the panel named is the one unfolded.
func TestWebPanels(t *testing.T) {
	for _, panel := range []string{"Viewer", "File", "Teach"} {
		t.Run(panel, func(t *testing.T) {
			p := openPage(t, "size=257&open="+panel)
			s := p.waitState("the panel", 3*time.Minute, func(s webState) bool { return s.Frames > 2 && !s.Busy && len(s.Panels) > 0 })
			if s.Panels[0] != panel {
				t.Errorf("#open=%s unfolded %v; want %s", panel, s.Panels, panel)
			}
			p.shot("web-panel-" + strings.ToLower(panel))
		})
	}
}

// TestWebKeepsDrawingWhileGenerating opens a 2049² world: while the full map
// is made (past the preview, through its finishing work: the meshes'
// bounds, the normals, the land beyond the map), frames keep coming and
// the progress they show grows. Were generation not to give the browser
// its turns, no frame would be drawn between the preview and the finished
// map. The page counts those frames itself: its state, polled every 100 ms
// at best and answered only every few frames while busy, once missed the
// whole generation on a loaded machine (the map itself takes a fraction of
// a second, its finishing work 1–2 s).
func TestWebKeepsDrawingWhileGenerating(t *testing.T) {
	p := openPage(t, "size=2049")
	s := p.waitState("the world to be made", 3*time.Minute, func(s webState) bool { return s.FullFrames > 0 && !s.Busy && s.Frames > 3 })
	t.Logf("%d frames, %d of them while busy, %d while the full map was made, %d at a higher progress than the frame before", s.Frames, s.BusyFrames, s.FullFrames, s.FullSteps)
	if s.FullFrames < 2 || s.FullSteps < 1 {
		t.Fatalf("while the full map was made %d frames were drawn, %d of them at a higher progress than the one before; want at least 2 and 1", s.FullFrames, s.FullSteps)
	}
	p.shot("web-generated")
}

// TestWebDropGPX drops a GPS track on the page as a browser drop (the
// DevTools protocol's drag events, which carry real files): the terrain is
// made through it and the route shows on the minimap in magenta.
func TestWebDropGPX(t *testing.T) {
	p := openPage(t, "size=257")
	s := p.ready()
	track, err := filepath.Abs(filepath.Join("testdata", "web-track.gpx"))
	if err != nil {
		t.Fatal(err)
	}
	before := p.shot("web-before-drop")
	mm := image.Rect(s.Minimap[0], s.Minimap[1], s.Minimap[2], s.Minimap[3])
	if n := magenta(before, mm); n > 0 {
		t.Fatalf("%d magenta pixels on the minimap before the drop", n)
	}
	data := &input.DragData{Items: []*input.DragDataItem{}, Files: []string{track}, DragOperationsMask: 1}
	x, y := 600.0, 300.0
	for _, typ := range []input.DispatchDragEventType{input.DragEnter, input.DragOver, input.Drop} {
		if err := chromedp.Run(p.ctx, input.DispatchDragEvent(typ, x, y, data)); err != nil {
			t.Fatalf("drag event %s: %v", typ, err)
		}
	}
	r := p.waitState("the route's terrain", 3*time.Minute, func(r webState) bool {
		return r.WorldID != s.WorldID && !r.Busy && r.Extent != s.Extent
	})
	if r.IsError {
		t.Fatalf("dropping the track: %s", r.Message)
	}
	p.waitState("a frame of it", time.Minute, func(q webState) bool { return q.Frames > r.Frames+1 })
	after := p.shot("web-after-drop")
	mm = image.Rect(r.Minimap[0], r.Minimap[1], r.Minimap[2], r.Minimap[3])
	if n := magenta(after, mm); n < 50 {
		t.Errorf("%d magenta pixels on the minimap after dropping the track; want the route drawn", n)
	}
}

// magenta counts the route's magenta pixels in r.
func magenta(img *image.RGBA, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if c.R > 200 && c.B > 200 && c.G < 90 {
				n++
			}
		}
	}
	return n
}

// TestWebSaveDownloads saves the map with the File panel's Save map
// button and a screenshot with F12: in the browser each is a download (the
// page's in-memory file system turns a finished file into one), named as
// on the desktop.
func TestWebSaveDownloads(t *testing.T) {
	p := openPage(t, "size=257&open=File")
	p.ready()
	p.holdKey("F12", 123) // before any click: the explorer leaves keys alone while a panel control has the focus
	p.click(saveMap.X, saveMap.Y)
	type download struct {
		Name string `json:"name"`
		Size int    `json:"size"`
	}
	var got []download
	end := time.Now().Add(time.Minute)
	for len(got) < 2 && time.Now().Before(end) {
		time.Sleep(200 * time.Millisecond)
		p.eval(`cordilleraDownloads`, &got)
	}
	if len(got) != 2 {
		s, _ := p.state()
		t.Fatalf("downloads: %+v; want the map and a screenshot (the page says %q)", got, s.Message)
	}
	slices.SortFunc(got, func(a, b download) int { return strings.Compare(a.Name, b.Name) })
	// 257² 16-bit samples compress, but not below a few kB.
	if !strings.HasPrefix(got[0].Name, "cordillera-") || !strings.HasSuffix(got[0].Name, ".png") || got[0].Size < 10000 {
		t.Errorf("F12 downloaded %+v; want a screenshot cordillera-….png", got[0])
	}
	if got[1].Name != "map.png" || got[1].Size < 10000 {
		t.Errorf("Save map downloaded %+v; want map.png holding the 257² map", got[1])
	}
}

// saveMap is where the File panel's Save map button is with only that
// panel unfolded, in CSS pixels.
var saveMap = struct{ X, Y float64 }{255, 201}

// TestWebWithoutWebGLSaysSo opens the page in a browser with WebGL turned
// off: it says so in words instead of showing an empty canvas.
func TestWebWithoutWebGLSaysSo(t *testing.T) {
	p := openPage(t, "", chromedp.Flag("disable-webgl", true), chromedp.Flag("disable-3d-apis", true))
	var msg string
	end := time.Now().Add(time.Minute)
	for !strings.Contains(msg, "WebGL") && time.Now().Before(end) {
		time.Sleep(200 * time.Millisecond)
		p.eval(`document.getElementById("message").innerText`, &msg)
	}
	if !strings.Contains(msg, "WebGL") {
		t.Fatalf("without WebGL the page says %q; want it to say WebGL is missing", msg)
	}
	var canvases int
	p.eval(`document.getElementsByTagName("canvas").length`, &canvases)
	if canvases != 0 {
		t.Errorf("without WebGL the page has %d canvases; want none started", canvases)
	}
	p.shot("web-no-webgl")
}

// terrainDefaults are the default world's parameters.
func terrainDefaults() terrain.Params { return terrain.DefaultParams() }
