package testenv

import (
	"testing"
)

// fakeT records how a test ended instead of ending it.
type fakeT struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (f *fakeT) Helper()                       {}
func (f *fakeT) Skipf(format string, a ...any) { f.skipped, f.msg = true, format }
func (f *fakeT) Fatalf(format string, a ...any) {
	f.failed, f.msg = true, format
}

// Without a display a test skips, or fails when the switch requires one;
// with a display it goes on.
func TestNeedDisplay(t *testing.T) {
	for _, tc := range []struct {
		display, require string
		skip, fail       bool
	}{
		{"", "", true, false},
		{"", "1", false, true},
		{"", "0", true, false},
		{":99", "", false, false},
		{":99", "1", false, false},
	} {
		t.Setenv("DISPLAY", tc.display)
		t.Setenv(RequireDisplayEnv, tc.require)
		f := &fakeT{}
		NeedDisplay(f)
		if f.skipped != tc.skip || f.failed != tc.fail {
			t.Errorf("DISPLAY=%q %s=%q: skipped %v failed %v, want %v %v", tc.display, RequireDisplayEnv, tc.require,
				f.skipped, f.failed, tc.skip, tc.fail)
		}
	}
}
