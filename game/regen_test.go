package game

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cordillera/pipeline"
	"cordillera/terrain"
)

// randomParams draws quick parameters: small maps over several algorithms.
func randomParams(rng *rand.Rand) terrain.Params {
	p := terrain.DefaultParams()
	p.Algorithm = []terrain.Algorithm{terrain.FBm, terrain.Hetero, terrain.Ridged, terrain.DiamondSquareAlg, terrain.Quilez}[rng.IntN(5)]
	p.Size = []int{65, 129}[rng.IntN(2)]
	p.Seed = rng.Int64()
	p.Hurst = 0.3 + rng.Float64()
	p.Octaves = 3 + rng.IntN(5)
	return p
}

// waitIdle polls until no generation is under way. It has no deadline of
// its own: on a loaded machine (the race detector, packages tested in
// parallel, other work) the soak's last map took longer than the 30 s
// this once allowed, and the test failed with "generation never finished"
// while the regenerator was only slow. A regenerator that never becomes
// idle is still caught, by go test's -timeout, whose goroutine dump shows
// where it hangs.
func waitIdle(t *testing.T, r *Regenerator) {
	t.Helper()
	for {
		if busy, _ := r.Status(); !busy {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// A thousand random changes, faster than generation can follow: results
// only ever move forward, the last one is exactly what a direct generation
// of the last parameters makes, and no goroutine is left behind.
func TestRegeneratorSoak(t *testing.T) {
	before := runtime.NumGoroutine()
	r := NewRegenerator()
	r.PreviewSide = 33
	rng := rand.New(rand.NewPCG(1, 2))

	var mu sync.Mutex
	var seen []*Generated
	stop := make(chan struct{})
	consumed := make(chan struct{})
	go func() { // the frame loop: takes whatever is ready, every "frame"
		defer close(consumed)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if g := r.Take(); g != nil {
				mu.Lock()
				if n := len(seen); n > 0 && seen[n-1] == g {
					t.Errorf("result of request %d (preview %v) was taken twice", g.ID, g.Preview)
				}
				seen = append(seen, g)
				mu.Unlock()
			}
			time.Sleep(200 * time.Microsecond)
		}
	}()
	// One request followed through to the frame loop before the storm, so
	// that at least one result besides the last reaches it however the
	// storm's requests and the machine's load fall: under load every
	// request of the storm may rightly replace the one before it.
	r.Request(randomParams(rng))
	waitIdle(t, r)
	// No deadline here either (see waitIdle): the frame loop takes the
	// result on its next turn however long the machine makes it wait.
	for ; ; time.Sleep(time.Millisecond) {
		mu.Lock()
		n := len(seen)
		mu.Unlock()
		if n > 0 {
			break
		}
	}
	var last terrain.Params
	var lastID uint64
	for i := 0; i < 1000; i++ {
		last = randomParams(rng)
		lastID = r.Request(last)
		time.Sleep(time.Duration(rng.IntN(100)) * time.Microsecond)
	}
	waitIdle(t, r)
	time.Sleep(5 * time.Millisecond)
	close(stop)
	<-consumed
	if g := r.Take(); g != nil {
		seen = append(seen, g)
	}

	for i := 1; i < len(seen); i++ {
		a, b := seen[i-1], seen[i]
		if b.ID < a.ID || (b.ID == a.ID && b.Preview && !a.Preview) {
			t.Fatalf("result %d (request %d, preview %v) came after request %d (preview %v): an older map replaced a newer one",
				i, b.ID, b.Preview, a.ID, a.Preview)
		}
	}
	final := seen[len(seen)-1]
	if final.ID != lastID || final.Preview || final.Err != nil {
		t.Fatalf("last result: request %d preview %v err %v; want the full map of request %d", final.ID, final.Preview, final.Err, lastID)
	}
	want, err := terrain.Generate(context.Background(), last, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := final.World.Map
	if got.Width != want.Width || len(got.Samples) != len(want.Samples) {
		t.Fatalf("final map %d×%d, want %d×%d", got.Width, got.Height, want.Width, want.Height)
	}
	for i := range want.Samples {
		if math.Float32bits(got.Samples[i]) != math.Float32bits(want.Samples[i]) {
			t.Fatalf("final map differs from a direct generation at sample %d", i)
		}
	}
	if len(seen) < 2 {
		t.Errorf("only %d results reached the frame loop", len(seen))
	}
	t.Logf("%d requests, %d results taken", lastID, len(seen))

	r.Close()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+1 {
		t.Errorf("%d goroutines before, %d after Close: generation goroutines leaked", before, n)
	}
}

// A slow map arrives first as a preview, then in full; each is handed out
// once.
func TestRegeneratorPreviewThenFull(t *testing.T) {
	r := NewRegenerator()
	defer r.Close()
	p := terrain.DefaultParams()
	p.Size = 513
	r.PreviewSide = 65
	id := r.Request(p)
	waitIdle(t, r)
	g := r.Take()
	if g == nil || g.ID != id || g.Preview || g.World.Map.Width != 513 {
		t.Fatalf("got %+v, want the full 513² map", g)
	}
	if again := r.Take(); again != nil {
		t.Fatalf("Take handed out request %d (preview %v) again", again.ID, again.Preview)
	}
	// The preview is published before the parameters settle; with a settle
	// delay longer than the test it stays ready until taken.
	r2 := NewRegenerator()
	defer r2.Close()
	r2.PreviewSide, r2.SettleDelay = 33, time.Hour
	p.Seed++
	id = r2.Request(p)
	preview := takeWithin(t, r2, 30*time.Second)
	if preview == nil {
		t.Fatalf("no preview of request %d arrived", id)
	}
	if !preview.Preview || preview.ID != id || preview.World.Map.Width != 33 {
		t.Fatalf("first result: request %d preview %v %d², want the 33² preview of request %d",
			preview.ID, preview.Preview, preview.World.Map.Width, id)
	}
	if again := r2.Take(); again != nil {
		t.Errorf("Take handed out request %d (preview %v) again", again.ID, again.Preview)
	}
	if busy, _ := r2.Status(); !busy {
		t.Error("idle after the preview: the full map should still be coming")
	}
}

// Every result is handed out once: a second Take finds nothing.
func TestRegeneratorTakesEachResultOnce(t *testing.T) {
	r := NewRegenerator()
	defer r.Close()
	p := terrain.DefaultParams()
	p.Size = 65
	id := r.Request(p)
	waitIdle(t, r)
	if g := r.Take(); g == nil || g.ID != id || g.Preview {
		t.Fatalf("got %+v, want the full map of request %d", g, id)
	}
	for i := 0; i < 3; i++ {
		if g := r.Take(); g != nil {
			t.Fatalf("Take %d after the result was taken handed out request %d again", i+2, g.ID)
		}
	}
}

// takeWithin polls Take until a result comes, or gives nil after d.
func takeWithin(t *testing.T, r *Regenerator, d time.Duration) *Generated {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if g := r.Take(); g != nil {
			return g
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

// Parameters that cannot make a map come back as an error, and nothing else.
func TestRegeneratorReportsBadParameters(t *testing.T) {
	r := NewRegenerator()
	defer r.Close()
	p := terrain.DefaultParams()
	p.Algorithm, p.Size = terrain.DiamondSquareAlg, 1000
	id := r.Request(p)
	waitIdle(t, r)
	g := r.Take()
	if g == nil || g.ID != id || g.Err == nil || g.World != nil {
		t.Fatalf("got %+v, want an error and no world", g)
	}
}

// The finishing work after the pipeline (the world's meshes and minimap,
// then what the request adds: the land beyond the map, a route) shows in
// the progress as its last finishShare, not as done.
func TestFinishingWorkShowsInTheProgress(t *testing.T) {
	r := NewRegenerator()
	defer r.Close()
	p := terrain.DefaultParams()
	p.Size = 65
	pw, err := pipeline.Generate(context.Background(), p, pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	r.latest++
	id := r.latest
	r.mu.Unlock()
	var during float64
	r.publishBuilt(context.Background(), id, p, pw, nil, func(*Generated) { _, during = r.Status() })
	if want := 1 - finishShare/2; math.Abs(during-want) > 1e-12 {
		t.Errorf("progress %.3f while the world is dressed, want %.3f", during, want)
	}
}

// A burst of requests does the newest one's work alone: a request
// replaced before its goroutine ran loads nothing. Each replaced job used
// to run its first steps before it looked at its context, and in the
// soak's burst of a thousand, on a loaded machine, the newest map waited
// behind hundreds of them. One core makes the burst come before any of
// its goroutines runs.
func TestReplacedRequestsDoNoWork(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	r := NewRegenerator()
	defer r.Close()
	m := terrain.NewHeightmap(9, 9)
	var loads atomic.Int32
	load := func(context.Context) (*terrain.Heightmap, error) {
		loads.Add(1)
		return m, nil
	}
	p := terrain.DefaultParams()
	p.Erosion = ""
	var id uint64
	for range 100 {
		id = r.RequestMap(load, p)
	}
	waitIdle(t, r)
	if g := r.Take(); g == nil || g.ID != id || g.Err != nil {
		t.Fatalf("result %+v, want request %d's map", g, id)
	}
	if n := loads.Load(); n != 1 {
		t.Errorf("a burst of 100 requests loaded %d maps, want the newest one's alone", n)
	}
}
