package meshfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// offeredWriter counts the bytes offered to it after ctx is cancelled:
// work the encoder did past the cancellation.
type offeredWriter struct {
	ctx   context.Context
	total int64 // bytes offered
	late  int64 // of them after the cancellation
}

func (w *offeredWriter) Write(p []byte) (int, error) {
	w.total += int64(len(p))
	if w.ctx.Err() != nil {
		w.late += int64(len(p))
	}
	return len(p), nil
}

// passCalls encodes m once, uncancelled, and returns how often each pass
// looked at its context, and the bytes written between two looks at most.
func passCalls(t *testing.T, opt Options) (map[string]int, int64) {
	t.Helper()
	calls := map[string]int{}
	w := &offeredWriter{ctx: context.Background()}
	var last, gap int64
	rowHook = func(pass string) {
		calls[pass]++
		gap = max(gap, w.total-last)
		last = w.total
	}
	defer func() { rowHook = nil }()
	if err := EncodeContext(context.Background(), w, testMap(301, 211), opt); err != nil {
		t.Fatal(err)
	}
	return calls, max(gap, w.total-last)
}

// A cancelled export stops at once in whichever pass it is: no pass goes
// on with another row, nothing more is written, and the error is the
// context's. Each pass looks once a row (or chunk row), so the work left
// after a cancellation is at most one row: the bytes written between two
// looks are bounded by a chunk row of triangles. The encoder used to build
// the whole mesh (and on a 4097² map write 0.94 GB) before it noticed.
func TestEncodeStopsWithinARowOfCancel(t *testing.T) {
	m := testMap(301, 211)
	for _, opt := range []Options{{Binary: true}, {Binary: true, MaxError: 1}, {Binary: false}} {
		calls, gap := passCalls(t, opt)
		// A chunk row of triangles: 32 rows of 300 cells, two triangles of
		// three 4-byte indices each, plus the 64 KB the writer gathers.
		if limit := int64(32*300*2*3*4 + 1<<16); gap > limit {
			t.Errorf("mesh error %v: %d bytes written between two looks at the context; want at most %d", opt.MaxError, gap, limit)
		}
		want := []string{"count", "vertices", "triangles"}
		if opt.MaxError > 0 {
			want = append(want, "mark", "refine")
		}
		for _, pass := range want {
			if calls[pass] < 7 {
				t.Fatalf("mesh error %v: pass %q looked at the context %d times; want one per row", opt.MaxError, pass, calls[pass])
			}
			ctx, cancel := context.WithCancel(context.Background())
			w := &offeredWriter{ctx: ctx}
			seen, after := 0, 0
			rowHook = func(p string) {
				if ctx.Err() != nil {
					after++
				}
				if p == pass {
					if seen++; seen == calls[pass]/2 {
						cancel()
					}
				}
			}
			err := EncodeContext(ctx, w, m, opt)
			rowHook = nil
			cancel()
			if !errors.Is(err, context.Canceled) {
				t.Errorf("mesh error %v, cancelled in pass %s: %v; want context.Canceled", opt.MaxError, pass, err)
			}
			if after != 0 || w.late != 0 {
				t.Errorf("mesh error %v, cancelled in pass %s: %d more rows and %d more bytes after the cancellation; want none",
					opt.MaxError, pass, after, w.late)
			}
		}
	}
}

// A save cancelled in the middle of writing the vertices leaves no file
// and no temporary behind.
func TestSaveCancelledLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.glb")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rows := 0
	rowHook = func(pass string) {
		if pass == "vertices" {
			if rows++; rows == 100 {
				cancel()
			}
		}
	}
	defer func() { rowHook = nil }()
	err := SaveContext(ctx, path, testMap(301, 211), Options{})
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), path+": ") {
		t.Errorf("cancelled save: %v; want context.Canceled naming %s", err, path)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("cancelled save left %s", entries[0].Name())
	}
}

// A mesh whose buffer exceeds the limit is refused before anything is
// written, with its size and the limit; the limit is lowered here so that
// a small map reaches it (an 8193² map's full mesh, 3.76 GB, does at the
// real one).
func TestTooLargeMeshRefused(t *testing.T) {
	if got := FullMeshBytes(8193, 8193); got <= MaxBytes || FullMeshBytes(4097, 4097) > MaxBytes {
		t.Fatalf("full mesh bytes 8193² %d, 4097² %d; want the first over %d and the second within", got, FullMeshBytes(4097, 4097), int64(MaxBytes))
	}
	m := testMap(70, 45)
	full := FullMeshBytes(70, 45)
	defer func(old int64) { maxBytes = old }(maxBytes)
	maxBytes = full - 1
	w := &offeredWriter{ctx: context.Background()}
	err := Encode(w, m, Options{Binary: true})
	var large *TooLargeError
	if !errors.As(err, &large) || large.Bytes != full || large.Vertices != 70*45 || large.Triangles != 2*69*44 ||
		!strings.Contains(err.Error(), "70×45") || !strings.Contains(err.Error(), "tiles") {
		t.Fatalf("a %d-byte mesh over a limit of %d: %v; want a TooLargeError naming the map, its size and tiles", full, maxBytes, err)
	}
	if w.total != 0 {
		t.Errorf("the refused mesh wrote %d bytes", w.total)
	}
	// At the limit it is written, as exactly that buffer.
	maxBytes = full
	if err := Encode(io.Discard, m, Options{Binary: true}); err != nil {
		t.Errorf("a mesh of exactly the limit: %v", err)
	}
}

// The refusal states the mesh's size and the limit in gigabytes, as a
// user sizes tiles by them.
func TestTooLargeMessageInGigabytes(t *testing.T) {
	e := &TooLargeError{Width: 8193, Height: 8193, Vertices: 8193 * 8193, Triangles: 2 * 8192 * 8192,
		Bytes: FullMeshBytes(8193, 8193), Limit: MaxBytes}
	if msg := e.Error(); !strings.Contains(msg, "would be 3.76 GB, over the limit of 2.00 GB") {
		t.Errorf("refusal %q; want the size 3.76 GB and the limit 2.00 GB", msg)
	}
}
