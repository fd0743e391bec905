package commands

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// An erosion stage's flags without the stage in -erosion would be
// silently unused: they are refused with a message naming the stage, in
// every command that takes the parameter flags; with the stage, or in a
// sweep of the stages themselves, they are taken.
func TestStageFlagsNeedTheirStage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.png")
	for _, c := range []struct {
		args []string
		want string // "" for accepted
	}{
		{[]string{"-o", out, "-hydraulic-droplets", "2"}, "-hydraulic-droplets is not used: it shapes only the hydraulic erosion stage; add -erosion hydraulic"},
		{[]string{"-o", out, "-erosion", "thermal", "-hydraulic-radius", "4"}, "add -erosion hydraulic (erosion now: thermal)"},
		{[]string{"-o", out, "-erosion", "hydraulic", "-thermal-talus", "30"}, "-thermal-talus is not used: it shapes only the thermal erosion stage"},
		{[]string{"-o", out, "-fluvial-k", "1e-4"}, "add -erosion fluvial"},
		{[]string{"-o", out, "-erosion", "thermal,hydraulic", "-hydraulic-droplets", "2", "-thermal-talus", "30"}, ""},
		{[]string{"-o", out, "-erosion", "fluvial", "-fluvial-k", "1e-4"}, ""},
	} {
		_, err := parseGenerateFlags(c.args, &bytes.Buffer{})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("generate %q: error %v; want %q", c.args, err, c.want)
		}
	}
	if _, err := parseSweepFlags([]string{"-param", "erosion", "-values", "none,hydraulic", "-hydraulic-droplets", "2", "-o", out}, &bytes.Buffer{}); err != nil {
		t.Errorf("a sweep of the stages with -hydraulic-droplets: %v", err)
	}
	if _, err := parseSweepFlags([]string{"-param", "octaves", "-values", "2,4", "-thermal-rate", "0.2", "-o", out}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "add -erosion thermal") {
		t.Errorf("a sweep of octaves with -thermal-rate: error %v; want it refused", err)
	}
}
