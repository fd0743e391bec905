package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// fakeT records how a test ended instead of ending it.
type fakeT struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (f *fakeT) Helper()                       {}
func (f *fakeT) Skipf(format string, a ...any) { f.skipped, f.msg = true, fmt.Sprintf(format, a...) }
func (f *fakeT) Fatalf(format string, a ...any) {
	f.failed, f.msg = true, fmt.Sprintf(format, a...)
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

// A test that needs the shared data gets its path when it is there; when
// it is absent the test skips, or fails when the switch requires the data.
func TestSharedData(t *testing.T) {
	dir, ok := SharedDataDir()
	if dir == "" || filepath.Base(dir) != "data" || filepath.Base(filepath.Dir(dir)) != "shared" {
		t.Fatalf("shared data folder %q; want .../shared/data beside the repository", dir)
	}
	root, found := repoRoot()
	if !found || filepath.Dir(filepath.Dir(dir)) != filepath.Dir(root) {
		t.Errorf("%s is not beside the repository %s", dir, root)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Error(err)
	}
	for _, tc := range []struct {
		require    string
		skip, fail bool
	}{{"", true, false}, {"0", true, false}, {"1", false, true}} {
		t.Setenv(RequireDataEnv, tc.require)
		f := &fakeT{}
		SharedData(f, "no-such-folder-here")
		if f.skipped != tc.skip || f.failed != tc.fail {
			t.Errorf("absent data, %s=%q: skipped %v failed %v, want %v %v", RequireDataEnv, tc.require, f.skipped, f.failed, tc.skip, tc.fail)
		}
		if ok {
			f := &fakeT{}
			if got := SharedData(f, ""); got != dir || f.skipped || f.failed {
				t.Errorf("present data, %s=%q: %q, skipped %v failed %v; want %q", RequireDataEnv, tc.require, got, f.skipped, f.failed, dir)
			}
		}
	}
}
