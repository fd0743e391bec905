package heightfile

import (
	"errors"
	"testing"
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
// format that cannot be counted in bytes reports its share of the work as
// it goes, never going back, in steps small enough for an estimate, and
// says 100 % only once the last byte is written. A write that fails never
// says 100 %.
func TestWritersReportTheirWork(t *testing.T) {
	m := randomHeightmap(513, 513, 3)
	m.VerticalScale = 300
	for _, name := range []string{"m.png", "m.exr", "m.tif", "m.obj"} {
		var log progressLog
		encode, err := Encoder(name, m, SaveOptions{Progress: log.report})
		if err != nil {
			t.Fatal(err)
		}
		if err := encode(&log); err != nil {
			t.Fatal(err)
		}
		if len(log.reports) == 0 {
			t.Errorf("%s: no progress reported", name)
			continue
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
		encode, _ = Encoder(name, m, SaveOptions{Progress: failed.report})
		if err := encode(&failingWriter{n: int(log.written / 2)}); !errors.Is(err, errDiskFull) {
			t.Errorf("%s: writing onto a full disk: error %v", name, err)
		}
		for _, f := range failed.reports {
			if f == 1 {
				t.Errorf("%s: a failed write reported 100 %%", name)
				break
			}
		}
	}
}
