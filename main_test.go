package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestHelpListsEveryCommand: "cordillera --help", "-h" and "help" print
// the command list (not the explorer's flags), and it names every command
// run dispatches.
func TestHelpListsEveryCommand(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"-help"}, {"help"}} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errOut.String())
		}
		for _, cmd := range []string{"render", "generate", "presets", "sweep", "plot", "web", "help"} {
			if !strings.Contains(out.String(), "cordillera "+cmd) {
				t.Errorf("%v: the command list does not mention %q:\n%s", args, cmd, out.String())
			}
		}
	}
}

// TestHelpCommand: "help generate" prints generate's own flags, as
// "generate -help" does, and exits 0.
func TestHelpCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"help", "generate"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	all := out.String() + errOut.String()
	if !strings.Contains(all, "usage: cordillera generate") || !strings.Contains(all, "-algorithm") {
		t.Errorf("help generate printed %q; want generate's flags", all)
	}
	var o2, e2 bytes.Buffer
	if code := run([]string{"help", "nonsense"}, &o2, &e2); code != 2 || !strings.Contains(e2.String(), `unknown command "nonsense"`) {
		t.Errorf("help nonsense: exit %d, stderr %q; want exit 2 naming the command", code, e2.String())
	}
}
