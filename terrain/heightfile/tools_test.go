package heightfile

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// needTool returns the path of a command-line tool the consumer tests run
// (gdalinfo, gdal_translate, exrheader). A missing tool fails the test with
// the package to install — test.sh installs them — unless
// CORDILLERA_NO_TOOLS=1 asks to skip such tests, which then say so.
func needTool(t *testing.T, name, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	msg := name + " not found: install Debian's " + pkg + " (test.sh does), or set CORDILLERA_NO_TOOLS=1 to skip the real-consumer tests"
	if os.Getenv("CORDILLERA_NO_TOOLS") == "1" {
		t.Skip("SKIPPED: " + msg)
	}
	t.Fatal(msg)
	return ""
}

// runTool runs a tool and returns its standard output, failing the test
// with its output on a non-zero exit.
func runTool(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}
