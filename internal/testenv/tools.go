package testenv

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// NoToolsEnv names the switch that turns a missing real-consumer tool
// (GDAL, OpenEXR's tools, the Khronos glTF validator) from a failure into
// a skip. The file-format tests check our files against the programs
// people read them with; test.sh installs those, so a missing one fails
// unless a run says it does without them.
const NoToolsEnv = "CORDILLERA_NO_TOOLS"

// NeedTool returns the path of the command-line tool name (gdalinfo,
// gdal_translate, exrheader, …), which Debian's package pkg installs.
// When it is missing t fails naming the package, or skips, saying so,
// when CORDILLERA_NO_TOOLS=1.
func NeedTool(t testing.TB, name, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		NoTool(t, name+" not found: install Debian's "+pkg+" (test.sh does)")
		return ""
	}
	return path
}

// NoTool ends t, which needs a tool that is missing (why says which and
// how to install it): a failure, or a skip when CORDILLERA_NO_TOOLS=1.
func NoTool(t testing.TB, why string) {
	t.Helper()
	msg := why + ", or set " + NoToolsEnv + "=1 to skip the real-consumer tests"
	if os.Getenv(NoToolsEnv) == "1" {
		t.Skipf("SKIPPED: %s", msg)
		return
	}
	t.Fatalf("%s", msg)
}

// RunTool runs the tool name with args and returns its standard output.
// A tool that fails fails t, with the command line and the tool's
// standard error; what it writes there when it succeeds (GDAL's warnings)
// is left out of the output, which callers parse.
func RunTool(t testing.TB, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		var stderr []byte
		if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
			stderr = exit.Stderr
		}
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr)
		return ""
	}
	return string(out)
}
