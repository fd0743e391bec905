// Package fn2bench times FastNoise2's fBm on this machine, for Cordillera's
// noise benchmarks to be read against (README.md). It has no Go code of its
// own: the test builds harness/fn2bench.cpp against FastNoise2's sources, which this
// repository does not hold, and runs it.
package fn2bench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// A compiler pair FastNoise2 is built with: clang, as its README
// recommends, and gcc, which makes it slower.
type toolchain struct{ name, cc, cxx string }

var toolchains = []toolchain{{"clang", "clang", "clang++"}, {"gcc", "gcc", "g++"}}

var line = regexp.MustCompile(`^fn2 (\S+) (\S+) (\S+) ns/sample-octave=([0-9.]+) ms=([0-9.]+) checksum=(\S+)$`)

// TestFastNoise2 builds the harness with each compiler present and prints
// FastNoise2's CPU time per sample-octave of fBm 1025² × 8 octaves, one
// thread, for Perlin, simplex and Worley F1 and F2 − F1 at AVX-512 and
// AVX2, and checks that each run did work on the level asked for. It runs
// only where FASTNOISE2_SRC names FastNoise2's source tree and cmake and a
// compiler are present; FASTSIMD_SRC may name FastSIMD's sources where
// CMake cannot download them, and FN2BENCH_BUILD a folder to build in and
// keep (by default a temporary one, removed afterwards).
func TestFastNoise2(t *testing.T) {
	src := os.Getenv("FASTNOISE2_SRC")
	if src == "" {
		t.Skip("FASTNOISE2_SRC is not set: no FastNoise2 sources to build against")
	}
	if _, err := os.Stat(filepath.Join(src, "include", "FastNoise", "FastNoise.h")); err != nil {
		t.Fatalf("FASTNOISE2_SRC=%s is not a FastNoise2 source tree: %v", src, err)
	}
	if _, err := exec.LookPath("cmake"); err != nil {
		t.Skip("cmake not found")
	}
	here, err := filepath.Abs("harness")
	if err != nil {
		t.Fatal(err)
	}
	reps := 3
	if testing.Short() {
		reps = 1
	}
	built := 0
	for _, tc := range toolchains {
		if _, err := exec.LookPath(tc.cxx); err != nil {
			t.Logf("%s: %s not found, skipped", tc.name, tc.cxx)
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			bin := build(t, here, src, tc)
			for _, level := range []string{"avx512", "avx2"} {
				for _, basis := range []string{"perlin", "simplex", "worley", "worleyedge"} {
					run(t, bin, tc.name, basis, level, reps)
				}
			}
		})
		built++
	}
	if built == 0 {
		t.Skip("no C++ compiler (clang++ or g++) found")
	}
}

// build configures and builds fn2bench with tc and returns the binary.
func build(t *testing.T, here, src string, tc toolchain) string {
	dir := os.Getenv("FN2BENCH_BUILD")
	if dir == "" {
		dir = t.TempDir()
	}
	dir = filepath.Join(dir, tc.name)
	args := []string{"-S", here, "-B", dir, "-DCMAKE_BUILD_TYPE=Release",
		"-DCMAKE_C_COMPILER=" + tc.cc, "-DCMAKE_CXX_COMPILER=" + tc.cxx, "-DFASTNOISE2_SRC=" + src}
	if s := os.Getenv("FASTSIMD_SRC"); s != "" {
		args = append(args, "-DFASTSIMD_SRC="+s)
	}
	for _, cmd := range [][]string{args, {"--build", dir, "--target", "fn2bench", "-j2"}} {
		c := exec.Command("cmake", cmd...)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("cmake %v: %v\n%s", cmd, err, tail(out))
		}
	}
	return filepath.Join(dir, "fn2bench")
}

// run runs one basis at one level and logs the fastest of its repetitions.
func run(t *testing.T, bin, compiler, basis, level string, reps int) {
	out, err := exec.Command(bin, basis, level, "1025", "8", strconv.Itoa(reps)).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", basis, level, err, out)
	}
	best, n := 0.0, 0
	var active string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			t.Fatalf("%s %s: unexpected output %q", basis, level, sc.Text())
		}
		ns, _ := strconv.ParseFloat(m[4], 64)
		sum, err := strconv.ParseFloat(m[6], 64)
		if err != nil || sum == 0 || ns <= 0 {
			t.Fatalf("%s %s: no work seen in %q", basis, level, sc.Text())
		}
		if n == 0 || ns < best {
			best = ns
		}
		active = m[3]
		n++
	}
	if n != reps {
		t.Fatalf("%s %s: %d results, want %d:\n%s", basis, level, n, reps, out)
	}
	if active != level {
		t.Logf("%s %s: this CPU runs %s", basis, level, active)
	}
	fmt.Printf("FN2 %-5s %-7s %-10s ran=%-6s %.3f ns/sample-octave (best of %d)\n", compiler, level, basis, active, best, reps)
}

func tail(b []byte) []byte {
	if len(b) > 4000 {
		return b[len(b)-4000:]
	}
	return b
}
