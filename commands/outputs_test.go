package commands

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A failing generate writes nothing: the map used to be written (and an
// earlier one replaced) before -params-out or -route-report failed.
func TestGenerateFailureLeavesEarlierFiles(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.png")
	if err := os.WriteFile(out, []byte("earlier map"), 0o644); err != nil {
		t.Fatal(err)
	}
	track := writeTrack(t, dir, 30)
	missing := filepath.Join(dir, "nonexistent")
	for _, args := range [][]string{
		{"-size", "65", "-o", out, "-params-out", filepath.Join(missing, "p.json")},
		{"-size", "257", "-route", track, "-o", out, "-route-report", filepath.Join(missing, "r.json")},
		{"-size", "65", "-o", out, "-normal-map", filepath.Join(missing, "n.png")},
		{"-size", "65", "-erosion", "thermal", "-o", out, "-masks", filepath.Join(out, "masks")},
		{"-size", "257", "-route", track, "-erosion", "thermal", "-o", out, "-masks", filepath.Join(dir, "new", "masks"), "-route-report", filepath.Join(missing, "r.json")},
	} {
		if _, _, err := runCLI(t, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
		if got, _ := os.ReadFile(out); string(got) != "earlier map" {
			t.Errorf("%v: x.png now holds %d bytes, want the earlier map", args, len(got))
		}
		want := []string{"track.csv", "x.png"}
		if names := dirNames(t, dir); !slices.Equal(names, want) {
			t.Errorf("%v: folder holds %q, want %q", args, names, want)
		}
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// An output may not replace an input, another output, or anything but a
// regular file; each used to be overwritten silently.
func TestOutputsRefuseInputsAndEachOther(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.png")
	if _, _, err := runCLI(t, "-size", "65", "-o", in); err != nil {
		t.Fatal(err)
	}
	params := filepath.Join(dir, "p.json")
	if err := os.WriteFile(params, []byte(`{"size": 65}`), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.png")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.png")
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	track := writeTrack(t, dir, 30)
	rep := filepath.Join(dir, "same.json")
	before, _ := os.ReadFile(in)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-heightmap", in, "-erosion", "thermal", "-o", in}, "in.png: is also an input"},
		{[]string{"-heightmap", in, "-erosion", "thermal", "-o", hard}, "hard.png: is also an input"},
		{[]string{"-preset", params, "-o", filepath.Join(dir, "o.png"), "-params-out", params}, "p.json: is also an input"},
		{[]string{"-size", "65", "-o", link}, "link.png: is a symbolic link; refusing to replace anything but a regular file"},
		{[]string{"-size", "257", "-route", track, "-o", filepath.Join(dir, "o.png"), "-params-out", rep, "-route-report", rep}, "same.json: is the same file as another output"},
	} {
		_, _, err := runCLI(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
	if after, _ := os.ReadFile(in); !bytes.Equal(before, after) {
		t.Error("the input was changed")
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Error("the symbolic link was replaced")
	}
	if _, err := os.Stat(filepath.Join(dir, "o.png")); err == nil {
		t.Error("o.png was written despite the refusal")
	}
	// render and plot refuse it too, before making anything.
	for _, c := range []struct {
		run  func([]string) error
		args []string
	}{
		{func(a []string) error { return Render(a, &bytes.Buffer{}, &bytes.Buffer{}) }, []string{"-heightmap", in, "-o", in}},
		{func(a []string) error { return Render(a, &bytes.Buffer{}, &bytes.Buffer{}) }, []string{"-route", track, "-o", track + ".png", "-preset", params}},
		{func(a []string) error { return Plot(a, &bytes.Buffer{}, &bytes.Buffer{}) }, []string{"-kind", "histogram", "-heightmap", in, "-o", hard}},
	} {
		if c.args[len(c.args)-1] == params {
			c.args = []string{"-preset", params, "-o", params + ".png"}
			if err := os.Symlink(params, params+".png"); err != nil {
				t.Fatal(err)
			}
		}
		err := c.run(c.args)
		if err == nil || !strings.Contains(err.Error(), "refusing") {
			t.Errorf("%v: error %v, want a refusal", c.args, err)
		}
	}
}

// Numbers that make no map are refused with what is wrong; -map-height Inf
// gave a blank image with exit 0, NaN and -5 were ignored, -size 0 was
// said to need more than 2 GB and a 1×1 heightmap drew empty sky.
func TestGenerateRefusesMeaninglessNumbers(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.png")
	if _, _, err := runCLI(t, "-size", "65", "-o", in); err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(dir, "one.png")
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(one, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.png")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-heightmap", in, "-map-height", "Inf", "-erosion", "thermal", "-o", out}, "-map-height +Inf: want a positive number of metres"},
		{[]string{"-heightmap", in, "-map-height", "NaN", "-erosion", "thermal", "-o", out}, "-map-height NaN: want a positive number of metres"},
		{[]string{"-heightmap", in, "-map-height", "-5", "-erosion", "thermal", "-o", out}, "-map-height -5: want a positive number of metres"},
		{[]string{"-size", "0", "-o", out}, "size: 0 is out of range [2, 8193]"},
		{[]string{"-seed", "18446744073709551616", "-o", out}, "18446744073709551616 is out of range"},
		{[]string{"-heightmap", one, "-erosion", "thermal", "-o", out}, "png: image is 1×1; each side must be between 2"},
	} {
		expectRefusal(t, c.args, c.want, out)
	}
	_, stderr, err := runCLI(t, "-size", "0", "-o", out)
	if msg := stderr + err.Error(); strings.Contains(msg, "2 GB") {
		t.Errorf("-size 0: %q; a size below the range is not about memory", msg)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-heightmap", in, "-map-height", "Inf", "-o", out}, "-map-height +Inf: want a positive number of metres"},
		{[]string{"-heightmap", in, "-map-height", "-5", "-o", out}, "-map-height -5"},
		{[]string{"-heightmap", one, "-o", out}, "each side must be between 2"},
		{[]string{"-route", filepath.Join(dir, "t.csv"), "-follow", "NaN", "-o", out}, "-follow NaN"},
		{[]string{"-follow", "10", "-o", out}, "-follow needs -route"},
	} {
		err := Render(c.args, &bytes.Buffer{}, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("render %v: error %v, want %q", c.args, err, c.want)
		}
	}
}

// The signal tests run generate in a child process of the test binary.
const signalChildEnv = "CORDILLERA_SIGNAL_CHILD"

func TestMain(m *testing.M) {
	if args := os.Getenv(signalChildEnv); args != "" {
		if err := Generate(strings.Split(args, "\x1f"), os.Stdout, os.Stderr); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// SIGINT, SIGTERM and SIGHUP in the middle of writing a large file stop
// generate with a non-zero status and leave neither the file nor its
// temporary. SIGINT used to let the write finish (exit 0), SIGTERM and
// SIGHUP killed the process and left .NAME.tmp-* behind.
func TestSignalsCancelWriting(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 2049² maps in child processes")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		dir := t.TempDir()
		out := filepath.Join(dir, "big.obj")
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), signalChildEnv+"="+strings.Join([]string{"-size", "2049", "-octaves", "1", "-o", out, "-params-out", filepath.Join(dir, "p.json")}, "\x1f"))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		// Wait for the temporary of big.obj: the signal then comes while
		// the file is being written.
		var err error
	waiting:
		for {
			select {
			case err = <-exited:
				t.Fatalf("%v: the child ended before writing: %v, stderr %q", sig, err, stderr.String())
			default:
			}
			if names, _ := filepath.Glob(filepath.Join(dir, ".big.obj.tmp-*")); len(names) > 0 {
				break waiting
			}
			time.Sleep(5 * time.Millisecond)
		}
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		err = <-exited
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("%v: exit %v, stderr %q; want status 2 after a clean stop", sig, err, stderr.String())
		}
		if !strings.Contains(stderr.String(), "context canceled") {
			t.Errorf("%v: stderr %q, want the cancellation reported", sig, stderr.String())
		}
		if names := dirNames(t, dir); len(names) != 0 {
			t.Errorf("%v: folder holds %q, want nothing", sig, names)
		}
	}
}

// render without a display says how to get one, after checking its
// flags and inputs; Ebitengine's own error named only /dev/fb0.
func TestRenderWithoutDisplaySaysHow(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	if runtime.GOOS != "linux" {
		t.Skip("only Linux needs DISPLAY")
	}
	err := Render([]string{"-size", "33", "-o", filepath.Join(t.TempDir(), "shot.png")}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "xvfb-run -a cordillera render") {
		t.Errorf("render without a display: %v; want the xvfb-run hint", err)
	}
}
