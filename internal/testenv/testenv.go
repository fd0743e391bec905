// Package testenv tells tests what their environment lets them do. A test
// that needs a display calls NeedDisplay: without one it skips, unless
// CORDILLERA_REQUIRE_DISPLAY=1 asks for the display tests to run (as
// test.sh does for its Xvfb step), and then the missing display fails it
// instead, so a run that forgot the display cannot look green.
package testenv

import (
	"os"
	"testing"
)

// RequireDisplayEnv names the switch that turns display skips into failures.
const RequireDisplayEnv = "CORDILLERA_REQUIRE_DISPLAY"

// HasDisplay reports whether an X display is named ($DISPLAY is set).
func HasDisplay() bool { return os.Getenv("DISPLAY") != "" }

// DisplayRequired reports whether CORDILLERA_REQUIRE_DISPLAY=1.
func DisplayRequired() bool { return os.Getenv(RequireDisplayEnv) == "1" }

// NeedDisplay skips t when no display is named, or fails it when one is
// required.
func NeedDisplay(t testing.TB) {
	t.Helper()
	if !HasDisplay() {
		NoDisplay(t, "DISPLAY is empty")
	}
}

// NoDisplay ends t, which cannot draw because of why: a skip that says to
// run under xvfb-run, or a failure when a display is required.
func NoDisplay(t testing.TB, why string) {
	t.Helper()
	if DisplayRequired() {
		t.Fatalf("needs a display (%s), and %s=1 requires one", why, RequireDisplayEnv)
		return
	}
	t.Skipf("needs a display (%s): run under xvfb-run, or set %s=1 to make this a failure", why, RequireDisplayEnv)
}
