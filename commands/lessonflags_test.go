package commands

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// render reads a lesson state from the same keys a link has, and refuses
// one the map cannot show before it needs a display, naming the flag and
// writing nothing.
func TestRenderLessonFlagsRefused(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	dir := t.TempDir()
	out := filepath.Join(dir, "slide.png")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-algorithm", "midpoint", "-size", "9", "-lesson", "subdivision", "-stage", "4a"}, "render: -stage 4a: the 9² map has stages 0 to 3b"},
		{[]string{"-size", "33", "-stage", "1a"}, "render: -stage 1a: needs lesson subdivision"},
		{[]string{"-size", "33", "-octaves", "3", "-lesson", "octaves", "-octave", "4"}, "render: -octave 4: the map sums 3 octaves"},
		{[]string{"-size", "33", "-lesson", "subdivision", "-walk", "-camera", "1,2,3,4,5"}, "render: -walk: a lesson's camera flies"},
	} {
		var stderr bytes.Buffer
		err := Render(append([]string{"-o", out}, c.args...), &bytes.Buffer{}, &stderr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("render %v: %v; want %q", c.args, err, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("render %v wrote %s", c.args, out)
		}
	}
	var stderr bytes.Buffer
	if err := Render([]string{"-o", out, "-lesson", "subdivision", "-stage", "x"}, &bytes.Buffer{}, &stderr); err == nil ||
		!strings.Contains(stderr.String(), `-stage: "x": want a stage`) {
		t.Errorf("-stage x: %v, said %q; want the flag named", err, stderr.String())
	}
	// A valid state passes every check and stops only for the display.
	err := Render([]string{"-o", out, "-algorithm", "diamond-square", "-size", "17", "-lesson", "subdivision", "-stage", "2a", "-plot", "profile"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "no display") {
		t.Errorf("a valid lesson state without a display: %v; want only the display missing", err)
	}
}
