package commands

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"cordillera/internal/atomicfile"
)

// A generate run holds its output's lock: a second run into the same -o
// while it lasts is refused, naming the output, and writes nothing; once
// the first has ended the output is free again.
func TestGenerateRefusesAnOutputInUse(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "t.r16")
	unlock, err := atomicfile.Lock(out) // as a run in progress holds it
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = runCLI(t, "-size", "65", "-tiles", "2", "-o", out)
	if !errors.Is(err, atomicfile.ErrLocked) || !strings.Contains(err.Error(), out) || !strings.Contains(err.Error(), fmt.Sprint(os.Getpid())) {
		t.Errorf("a second run: error %v; want one saying another run (process %d) writes %s", err, os.Getpid(), out)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "t_*")); len(names) > 0 {
		t.Errorf("the refused run wrote %q", names)
	}
	unlock()
	if _, _, err := runCLI(t, "-size", "65", "-tiles", "2", "-o", out); err != nil {
		t.Fatalf("after the first run ended: %v", err)
	}
	if names := dirNames(t, dir); len(names) != 4 {
		t.Errorf("folder holds %q; want the 4 tiles and no lock file", names)
	}
}

// Two tiled runs started together into one -o never leave a mix of their
// tiles: the second is refused while the first runs, or they ran one
// after the other; either way every tile is one seed's.
func TestConcurrentTiledRunsDoNotMix(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 1025² maps tile by tile, twice at once")
	}
	dir := t.TempDir()
	want := map[string][2][]byte{} // a tile's content from seed 1 and from seed 2
	for s, seed := range []string{"1", "2"} {
		ref := filepath.Join(dir, "ref"+seed, "t.r16")
		if err := os.Mkdir(filepath.Dir(ref), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, _, err := runCLI(t, "-size", "1025", "-tiles", "4", "-seed", seed, "-o", ref); err != nil {
			t.Fatal(err)
		}
		for i := range 4 {
			for j := range 4 {
				data, err := os.ReadFile(tilePath(ref, i, j))
				if err != nil {
					t.Fatal(err)
				}
				w := want[tilePath("t.r16", i, j)]
				w[s] = data
				want[tilePath("t.r16", i, j)] = w
			}
		}
	}
	out := filepath.Join(dir, "t.r16")
	for round := range 3 {
		var wg sync.WaitGroup
		errs := make([]error, 2)
		start := make(chan struct{})
		for s, seed := range []string{"1", "2"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				var o, e bytes.Buffer
				errs[s] = Generate([]string{"-size", "1025", "-tiles", "4", "-seed", seed, "-o", out}, &o, &e)
			}()
		}
		close(start)
		wg.Wait()
		for _, err := range errs {
			if err != nil && !errors.Is(err, atomicfile.ErrLocked) {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		t.Logf("round %d: %v; %v", round, errs[0], errs[1])
		if errs[0] != nil && errs[1] != nil {
			t.Fatalf("round %d: both runs refused: %v; %v", round, errs[0], errs[1])
		}
		from := map[int]int{}
		for name, w := range want {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case bytes.Equal(data, w[0]):
				from[1]++
			case bytes.Equal(data, w[1]):
				from[2]++
			default:
				t.Fatalf("round %d: %s is neither seed's tile", round, name)
			}
		}
		if len(from) != 1 {
			t.Fatalf("round %d: the tiles mix the runs: %d of seed 1, %d of seed 2", round, from[1], from[2])
		}
	}
}
