package heightfile

import (
	"errors"
	"io"
	"testing"

	"cordillera/terrain"
	"cordillera/terrain/materials"
)

// progressLog records a writer's progress reports and how many bytes it
// had written at each.
type progressLog struct {
	written int64
	at      []int64   // bytes written when each report came
	reports []float64 // the reports
}

func (l *progressLog) Write(p []byte) (int, error) {
	l.written += int64(len(p))
	return len(p), nil
}

func (l *progressLog) report(f float64) {
	l.reports = append(l.reports, f)
	l.at = append(l.at, l.written)
}

// Writing a large map shows a bar that moves and an estimate: every
// format that cannot be counted in bytes, and the normal and splat maps
// derived from the heights, report their share of the work as they go,
// never going back, in steps small enough for an estimate, and say 100 %
// only once the last byte is written. A write that fails never says
// 100 %.
func TestWritersReportTheirWork(t *testing.T) {
	m := randomHeightmap(513, 513, 3)
	m.VerticalScale = 300
	writers := map[string]func(w io.Writer, progress terrain.Progress) error{
		"normal map": func(w io.Writer, progress terrain.Progress) error {
			return EncodeNormalMap(w, m, NormalsOpenGL, progress)
		},
		"splat map": func(w io.Writer, progress terrain.Progress) error {
			return EncodeSplatMap(w, m, materials.DefaultRule, progress)
		},
	}
	for _, name := range []string{"m.png", "m.exr", "m.tif", "m.obj"} {
		writers[name] = func(w io.Writer, progress terrain.Progress) error {
			encode, err := Encoder(name, m, SaveOptions{Progress: progress})
			if err != nil {
				return err
			}
			return encode(w)
		}
	}
	for name, write := range writers {
		checkReports(t, name, write)
	}
}

// checkReports writes with write and checks its progress reports.
func checkReports(t *testing.T, name string, write func(w io.Writer, progress terrain.Progress) error) {
	t.Helper()
	var log progressLog
	if err := write(&log, log.report); err != nil {
		t.Fatal(err)
	}
	if len(log.reports) == 0 {
		t.Errorf("%s: no progress reported", name)
		return
	}
	prev, gap := 0.0, 0.0
	for i, f := range log.reports {
		if f < prev || f > 1 {
			t.Errorf("%s: report %d is %v after %v", name, i, f, prev)
		}
		gap, prev = max(gap, f-prev), f
	}
	if gap > 0.25 {
		t.Errorf("%s: the bar jumps by %.0f %% at once; want steps of at most a quarter", name, 100*gap)
	}
	last := len(log.reports) - 1
	if log.reports[last] != 1 {
		t.Errorf("%s: the last report is %v, want 1", name, log.reports[last])
	}
	for i, f := range log.reports {
		if f == 1 && log.at[i] != log.written {
			t.Errorf("%s: 100 %% reported at byte %d of %d", name, log.at[i], log.written)
			break
		}
	}

	var failed progressLog
	if err := write(&failingWriter{n: int(log.written / 2)}, failed.report); !errors.Is(err, errDiskFull) {
		t.Errorf("%s: writing onto a full disk: error %v", name, err)
	}
	for _, f := range failed.reports {
		if f == 1 {
			t.Errorf("%s: a failed write reported 100 %%", name)
			break
		}
	}
}
