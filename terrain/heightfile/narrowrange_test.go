package heightfile

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/terrain"
)

// The "give -map-height 65535" note appears exactly when a 16-bit map's
// values all lie low in the range (its top below 4096, metres most
// likely), whatever the relief: a narrow band high in the range (a plateau
// from 60000 to 62000) is a normal map and gets no note, a low one does,
// and the boundary is the top value, 4095 noted, 4096 not.
func TestMapHeightNoteExactlyWhenTheTopIsLow(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		lo, hi int // the 16-bit values' range
		note   bool
	}{
		{44, 2044, true},
		{0, 4095, true},
		{4000, 4095, true},
		{0, 4096, false},
		{60000, 62000, false}, // relief 2000, far from the bottom
		{3000, 5000, false},
		{0, 65535, false},
		{1000, 1000, false}, // flat: nothing to tell
	} {
		m := terrain.NewHeightmap(8, 8)
		for i := range m.Samples {
			m.Samples[i] = float32(tc.lo+(tc.hi-tc.lo)*i/63) / 65535
		}
		path := filepath.Join(dir, fmt.Sprintf("v%d-%d.png", tc.lo, tc.hi))
		writePlainPNG16(t, path, m) // another tool's: no metres recorded
		src, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(src.Note, "-map-height 65535"); got != tc.note {
			t.Errorf("values %d–%d: note %q; want the -map-height note: %v", tc.lo, tc.hi, src.Note, tc.note)
		}
	}
}
