package meshfile

import (
	"errors"
	"image"
	"testing"
)

// progressLog records the progress reports of an encoding and how many
// bytes were written at each; with fail > 0 it refuses writes past fail
// bytes, as a full disk does.
type progressLog struct {
	written, fail int64
	at            []int64
	reports       []float64
}

var errDiskFull = errors.New("disk full")

func (l *progressLog) Write(p []byte) (int, error) {
	if l.fail > 0 && l.written+int64(len(p)) > l.fail {
		return 0, errDiskFull
	}
	l.written += int64(len(p))
	return len(p), nil
}

func (l *progressLog) report(f float64) {
	l.reports = append(l.reports, f)
	l.at = append(l.at, l.written)
}

// Writing a mesh shows a bar that moves, for a decimated mesh too (whose
// size is not known until most of the work is done): the reports never
// go back, every pass moves the bar, and 100 % comes once the last byte is
// written and only then. A write that fails never says 100 %.
func TestMeshReportsItsWork(t *testing.T) {
	m := testMap(300, 200)
	for _, maxError := range []float64{0, 0.5} {
		var log progressLog
		if err := Encode(&log, m, Options{MaxError: maxError, Binary: true, Progress: log.report}); err != nil {
			t.Fatal(err)
		}
		// A full mesh makes no level of detail: its bar starts with its
		// first pass, not past a decimated mesh's first half.
		if first := log.reports[0]; maxError == 0 && first > 0.1 {
			t.Errorf("a full mesh's bar starts at %.0f %%", 100*first)
		}
		if len(log.reports) < 20 {
			t.Fatalf("error %v: %d progress reports, want one a row", maxError, len(log.reports))
		}
		prev := 0.0
		for i, f := range log.reports {
			if f < prev || f > 1 {
				t.Errorf("error %v: report %d is %v after %v", maxError, i, f, prev)
			}
			prev = f
		}
		// Each pass that runs ends where the next begins: the shares of
		// all of them add up to the whole.
		sum := 0.0
		for _, s := range meshShares[maxError > 0] {
			sum += s.share
		}
		if sum < 0.999 || sum > 1.001 {
			t.Errorf("error %v: the passes' shares add up to %v", maxError, sum)
		}
		for i, f := range log.reports {
			if f == 1 && log.at[i] != log.written {
				t.Errorf("error %v: 100 %% at byte %d of %d", maxError, log.at[i], log.written)
				break
			}
		}
		if last := log.reports[len(log.reports)-1]; last != 1 {
			t.Errorf("error %v: the last report is %v, want 1", maxError, last)
		}

		failed := progressLog{fail: log.written / 2}
		if err := Encode(&failed, m, Options{MaxError: maxError, Binary: true, Progress: failed.report}); !errors.Is(err, errDiskFull) {
			t.Errorf("error %v: onto a full disk: %v", maxError, err)
		}
		for _, f := range failed.reports {
			if f == 1 {
				t.Errorf("error %v: a failed write reported 100 %%", maxError)
				break
			}
		}
	}
}

// The refine pass runs as many sweeps as the stitching needs: each sweep
// moves the bar on by half of what is left of the pass's share, so it
// never goes back and never passes the next pass's start.
func TestRefineSweepsStayInTheirShare(t *testing.T) {
	var got []float64
	mt := newMeter(func(f float64) { got = append(got, f) }, true, false)
	for sweep := range 5 {
		for j := range 4 {
			mt.refine(sweep, j, 4)
		}
	}
	mt.report("mark", 0)
	lo, hi := meshShares[true][0].share, meshShares[true][0].share+meshShares[true][1].share
	prev := lo
	for i, f := range got[:len(got)-1] {
		if f < prev || f >= hi {
			t.Errorf("report %d: %v after %v; want within [%v, %v)", i, f, prev, lo, hi)
		}
		prev = f
	}
	if last := got[len(got)-1]; last != hi {
		t.Errorf("the next pass starts at %v, want %v", last, hi)
	}
}

// A decimated mesh's level of detail, nearly half of its writing's time,
// moves the bar as its chunk rows are measured instead of in one jump at
// its end: several reports fall inside its share, none goes back.
func TestMeshReportsItsLevelsOfDetail(t *testing.T) {
	m := testMap(700, 500)
	var log progressLog
	if err := Encode(&log, m, Options{MaxError: 0.5, Binary: true, Progress: log.report}); err != nil {
		t.Fatal(err)
	}
	levels := meshShares[true][0]
	if levels.pass != "levels" {
		t.Fatalf("the first pass of a decimated mesh is %q, want levels", levels.pass)
	}
	inside, prev := 0, 0.0
	for i, f := range log.reports {
		if f < prev {
			t.Errorf("report %d is %v after %v", i, f, prev)
		}
		prev = f
		if f > 0 && f < levels.share {
			inside++
		}
	}
	if rows := (m.Height - 2 + chunkCells) / chunkCells; inside < rows/8 {
		t.Errorf("%d reports within the level of detail's share (%v) for %d chunk rows; want about one every 8 rows", inside, levels.share, rows)
	}
}

// A baked texture, encoded before the mesh's buffer is written, moves the
// bar as its rows are compressed instead of holding it still: several
// reports fall inside its share, the reports never go back, and 100 %
// comes with the last byte.
func TestMeshReportsItsTexture(t *testing.T) {
	m := testMap(300, 1000)
	tex := image.NewRGBA(image.Rect(0, 0, m.Width, m.Height))
	for i := range tex.Pix {
		tex.Pix[i] = byte(i * i >> 7)
		if i%4 == 3 {
			tex.Pix[i] = 255
		}
	}
	for _, maxError := range []float64{0, 0.5} {
		var log progressLog
		if err := Encode(&log, m, Options{MaxError: maxError, Binary: true, Texture: tex, Progress: log.report}); err != nil {
			t.Fatal(err)
		}
		mt := newMeter(nil, maxError > 0, true)
		lo, hi := 0.0, 0.0
		for _, s := range mt.shares {
			if s.pass == "texture" {
				hi = lo + s.share
				break
			}
			lo += s.share
		}
		if hi == 0 {
			t.Fatalf("error %v: no texture pass in %v", maxError, mt.shares)
		}
		inside, prev := 0, 0.0
		for i, f := range log.reports {
			if f < prev {
				t.Errorf("error %v: report %d is %v after %v", maxError, i, f, prev)
			}
			prev = f
			if f > lo && f < hi {
				inside++
			}
		}
		if inside < 4 {
			t.Errorf("error %v: %d reports within the texture's share [%.3f, %.3f]; want one a segment of rows", maxError, inside, lo, hi)
		}
		if last := log.reports[len(log.reports)-1]; last != 1 || log.at[len(log.at)-1] != log.written {
			t.Errorf("error %v: the last report %v at byte %d of %d", maxError, last, log.at[len(log.at)-1], log.written)
		}
	}
}
