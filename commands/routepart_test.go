package commands

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A CSV holding two walks 500 km apart in one run of rows: generate maps
// the longer and says so, naming the other and -route-part; -route-part 2
// maps the other, 3 is refused naming the 2 parts, and -route-part
// without -route is refused. Seen failing without the flag (not defined).
func TestGenerateRoutePart(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("lat,lon,ele\n")
	for k, n := range []int{600, 300} {
		lat0 := 46 + 4.5*float64(k) // 500 km north
		for i := range n {
			a := float64(i) / 60
			fmt.Fprintf(&b, "%.7f,%.7f,%.1f\n", lat0+0.002*math.Sin(a)+float64(i)*1e-5, 14+0.003*math.Cos(a), 300+20*math.Sin(a))
		}
	}
	track := filepath.Join(dir, "two.csv")
	if err := os.WriteFile(track, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.png")
	stdout, _, err := runCLI(t, "-route", track, "-o", out, "-size", "129", "-route-warn")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"600 points", "the file holds 2 recordings far apart", "part 2: 300 points", "-route-part N (1 to 2)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output %q lacks %q", stdout, want)
		}
	}
	stdout, _, err = runCLI(t, "-route", track, "-o", out, "-size", "129", "-route-part", "2", "-route-warn")
	if err != nil || !strings.Contains(stdout, "the map is of part 2: 300 points") {
		t.Errorf("-route-part 2: %v, output %q", err, stdout)
	}
	os.Remove(out)
	expectRefusal(t, []string{"-route", track, "-o", out, "-route-part", "3"}, "-route-part 3: the file holds 2 recordings far apart, parts 1 to 2", out)
	expectRefusal(t, []string{"-o", out, "-route-part", "1"}, "-route-part needs -route TRACK", out)
}
