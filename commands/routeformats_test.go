package commands

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"cordillera/route/trackfile"
)

// The -route flag of generate, explore and render names every format the
// route reader reads: its help is made from trackfile's table, not copied.
func TestRouteFlagNamesEveryFormat(t *testing.T) {
	for name, run := range map[string]func([]string, io.Writer, io.Writer) error{"generate": Generate, "explore": Explore, "render": Render} {
		var out, errOut bytes.Buffer
		_ = run([]string{"-h"}, &out, &errOut)
		all := out.String() + errOut.String()
		_, entry, ok := strings.Cut(all, "\n  -route string\n")
		if !ok {
			t.Fatalf("%s -h printed no -route flag:\n%s", name, all)
		}
		entry, _, _ = strings.Cut(entry, "\n  -")
		for _, f := range strings.Split(trackfile.FormatNames(",", ","), ",") {
			if !strings.Contains(entry, f) {
				t.Errorf("%s: -route help %q does not name %s", name, strings.TrimSpace(entry), f)
			}
		}
	}
}
