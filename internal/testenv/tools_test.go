package testenv

import (
	"os/exec"
	"strings"
	"testing"
)

// A tool that is there is found; a missing one fails the test naming the
// package that installs it, or skips it when the switch says so.
func TestNeedTool(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh here to stand for a tool")
	}
	for _, tc := range []struct {
		noTools    string
		skip, fail bool
	}{{"", false, true}, {"0", false, true}, {"1", true, false}} {
		t.Setenv(NoToolsEnv, tc.noTools)
		f := &fakeT{}
		if got := NeedTool(f, "sh", "dash"); got != sh || f.skipped || f.failed {
			t.Errorf("%s=%q, sh: %q, skipped %v failed %v; want %q", NoToolsEnv, tc.noTools, got, f.skipped, f.failed, sh)
		}
		f = &fakeT{}
		got := NeedTool(f, "cordillera-no-such-tool", "some-package")
		if got != "" || f.skipped != tc.skip || f.failed != tc.fail {
			t.Errorf("%s=%q, a missing tool: %q, skipped %v failed %v; want skipped %v failed %v",
				NoToolsEnv, tc.noTools, got, f.skipped, f.failed, tc.skip, tc.fail)
		}
		if !strings.Contains(f.msg, "cordillera-no-such-tool not found: install Debian's some-package") || !strings.Contains(f.msg, NoToolsEnv+"=1") {
			t.Errorf("%s=%q, a missing tool says %q; want the tool, its package and the switch", NoToolsEnv, tc.noTools, f.msg)
		}
	}
}

// RunTool returns what the tool writes to its standard output, not its
// warnings; a tool that fails fails the test with what it said.
func TestRunTool(t *testing.T) {
	sh := NeedTool(t, "sh", "dash")
	f := &fakeT{}
	if out := RunTool(f, sh, "-c", "echo result; echo warning >&2"); out != "result\n" || f.failed {
		t.Errorf("a tool that succeeds: output %q, failed %v; want %q", out, f.failed, "result\n")
	}
	f = &fakeT{}
	out := RunTool(f, sh, "-c", "echo partial; echo cannot read the file >&2; exit 3")
	if out != "" || !f.failed || !strings.Contains(f.msg, "cannot read the file") || !strings.Contains(f.msg, "exit status 3") {
		t.Errorf("a tool that fails: output %q, failed %v, message %q; want a failure with its stderr and exit status", out, f.failed, f.msg)
	}
}
