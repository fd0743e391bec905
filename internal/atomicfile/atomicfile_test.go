package atomicfile

import (
	"context"
	"cordillera/internal/testenv"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// dirNames lists the names in dir, sorted.
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

func TestWriteFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "map.png")
	if err := os.WriteFile(path, []byte("old content"), 0o600); err != nil {
		t.Fatal(err)
	}
	errBoom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("half-written ", 10000)) // past bufio's buffer
		return errBoom
	})
	if !errors.Is(err, errBoom) || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v, want one wrapping %v and naming %s", err, errBoom, path)
	}
	if got, _ := os.ReadFile(path); string(got) != "old content" {
		t.Errorf("file now holds %q, want the old content", got)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"map.png"}) {
		t.Errorf("directory holds %q, want only map.png", names)
	}
}

func TestWritePanicLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "map.r16")
	func() {
		defer func() { recover() }()
		Write(path, func(w io.Writer) error { panic("encoder bug") })
	}()
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("directory holds %q after a panic, want nothing", names)
	}
}

func TestWriteReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "map.obj")
	for _, content := range []string{"first", "second, longer content", "3rd"} {
		if err := Write(path, func(w io.Writer) error {
			_, err := io.WriteString(w, content)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != content {
			t.Errorf("file holds %q, want %q", got, content)
		}
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"map.obj"}) {
		t.Errorf("directory holds %q, want only map.obj", names)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o644 {
		t.Errorf("new file has mode %v, want 0644", info.Mode().Perm())
	}
}

func TestWriteMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no such dir", "map.png")
	err := Write(path, func(io.Writer) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), path+": ") {
		t.Fatalf("error %v, want one starting with %s", err, path)
	}
}

// writeString returns a write function that writes s.
func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// A group puts its files in place only when every one was written: the
// failure of the second leaves the first's old content, and no temporary.
func TestGroupFailureWritesNothing(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "map.png")
	if err := os.WriteFile(first, []byte("old map"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := NewGroup(context.Background())
	defer g.Abort()
	if err := g.Add(first, writeString("new map")); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "missing", "p.json")
	if err := g.Add(bad, writeString("{}")); err == nil || !strings.HasPrefix(err.Error(), bad) {
		t.Fatalf("second file: error %v, want one naming %s", err, bad)
	}
	g.Abort()
	if got, _ := os.ReadFile(first); string(got) != "old map" {
		t.Errorf("first file holds %q after the group failed, want the old content", got)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"map.png"}) {
		t.Errorf("directory holds %q, want only map.png", names)
	}

	g = NewGroup(context.Background())
	second := filepath.Join(dir, "p.json")
	if err := g.Add(first, writeString("new map")); err != nil {
		t.Fatal(err)
	}
	if err := g.Add(second, writeString("{}")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(first); string(got) != "old map" {
		t.Errorf("first file holds %q before Commit, want the old content", got)
	}
	if err := g.Commit(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(first); string(got) != "new map" {
		t.Errorf("first file holds %q after Commit, want the new content", got)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"map.png", "p.json"}) {
		t.Errorf("directory holds %q, want map.png and p.json", names)
	}
}

// Write refuses to replace what is not a regular file; a rename used to
// replace a symbolic link (or a device) with a regular file.
func TestWriteRefusesNonRegularTargets(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.png")
	if err := os.WriteFile(target, []byte("real"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.png")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "folder.png")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, want string }{
		{link, "is a symbolic link; refusing to replace anything but a regular file"},
		{folder, "is a directory; refusing"},
	}
	// A named pipe stands for the special files (devices too): a real
	// device node would be replaced, as root, if the check ever broke.
	if fifo := filepath.Join(dir, "fifo.png"); testenv.Mkfifo(fifo) == nil {
		cases = append(cases, struct{ path, want string }{fifo, "is a named pipe (FIFO); refusing"})
	}
	for _, c := range cases {
		err := Write(c.path, writeString("new"))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.path) {
			t.Errorf("%s: error %v, want %q", c.path, err, c.want)
		}
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link was replaced: %v %v", info, err)
	}
	if got, _ := os.ReadFile(target); string(got) != "real" {
		t.Errorf("link target holds %q, want it untouched", got)
	}
}

// An output may not be an input (a hard link to it included) or another
// output.
func TestGroupRefusesInputsAndRepeatedOutputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.png")
	if err := os.WriteFile(in, []byte("input"), 0o644); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.png")
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	g := NewGroup(context.Background())
	defer g.Abort()
	g.Input(in)
	for _, out := range []string{in, hard, filepath.Join(dir, ".", "in.png")} {
		if err := g.Add(out, writeString("x")); err == nil || !strings.Contains(err.Error(), "is also an input") {
			t.Errorf("output %s: error %v, want a refusal to overwrite the input", out, err)
		}
	}
	out := filepath.Join(dir, "out.json")
	if err := g.Add(out, writeString("a")); err != nil {
		t.Fatal(err)
	}
	if err := g.Add(filepath.Join(dir, "x", "..", "out.json"), writeString("b")); err == nil || !strings.Contains(err.Error(), "same file as another output") {
		t.Errorf("same output twice: error %v, want a refusal", err)
	}
	if err := CheckOutputs([]string{out, hard}, []string{in}); err == nil || !strings.Contains(err.Error(), "is also an input") {
		t.Errorf("CheckOutputs with a hard link to the input: %v", err)
	}
	if got, _ := os.ReadFile(in); string(got) != "input" {
		t.Errorf("input now holds %q", got)
	}
}

// A cancelled context stops a write in the middle of the data, leaving
// neither the file nor a temporary.
func TestWriteContextStopsMidWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "huge.obj")
	ctx, cancel := context.WithCancel(context.Background())
	written := 0
	err := WriteContext(ctx, path, func(w io.Writer) error {
		chunk := make([]byte, 1<<12)
		for range 1 << 20 { // 4 GB unless stopped
			if _, err := w.Write(chunk); err != nil {
				return err
			}
			written += len(chunk)
			if written == 1<<20 {
				cancel()
			}
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if written > 2<<20 {
		t.Errorf("wrote %d bytes after cancelling at 1 MB; want the writer to stop within a buffer", written)
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("directory holds %q, want nothing", names)
	}
}

// The sweep removes only the temporaries our own writer made: a name no
// one types by hand, carrying the PID of the run that made it. A crashed
// run's temporary goes at the next write into its folder once that process
// is gone, however fresh; a live run's stays, unless it is older than
// StaleAfter (its PID since taken by another process). A user's own
// ".thesis.tmp-20251124", two days old, and names of the old pattern stay.
func TestSweepRemovesOnlyOurTemporaries(t *testing.T) {
	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadPID, livePID := dead.Process.Pid, os.Getppid()
	dir := t.TempDir()
	twoDays := time.Now().Add(-48 * time.Hour)
	for _, f := range []struct {
		name string
		old  bool
	}{
		{".thesis.tmp-20251124", true},                                     // the user's
		{".map.png.tmp-123", true},                                         // no marker
		{fmt.Sprintf("keep.tmp-cordillera-%d-1", deadPID), false},          // no leading dot
		{fmt.Sprintf(".crashed.r16.tmp-cordillera-%d-42", deadPID), false}, // its run is gone
		{fmt.Sprintf(".live.exr.tmp-cordillera-%d-7", livePID), false},     // its run is alive
		{fmt.Sprintf(".reused.tif.tmp-cordillera-%d-8", livePID), true},    // a PID reused since
		{".zero.obj.tmp-cordillera-0-9", false},                            // PID 0 is no process (to kill, our own group)
	} {
		path := filepath.Join(dir, f.name)
		if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if f.old {
			if err := os.Chtimes(path, twoDays, twoDays); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := Write(filepath.Join(dir, "map.png"), writeString("new")); err != nil {
		t.Fatal(err)
	}
	want := []string{".live.exr.tmp-cordillera-" + strconv.Itoa(livePID) + "-7", ".map.png.tmp-123", ".thesis.tmp-20251124",
		"keep.tmp-cordillera-" + strconv.Itoa(deadPID) + "-1", "map.png"}
	if names := dirNames(t, dir); !slices.Equal(names, want) {
		t.Errorf("directory holds %q, want %q", names, want)
	}
}

// A temporary being written carries the marker the sweep looks for.
func TestTemporaryCarriesMarker(t *testing.T) {
	dir := t.TempDir()
	var seen []string
	err := Write(filepath.Join(dir, "map.png"), func(io.Writer) error {
		seen = dirNames(t, dir)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	prefix := fmt.Sprintf(".map.png.tmp-cordillera-%d-", os.Getpid())
	if len(seen) != 1 || !strings.HasPrefix(seen[0], prefix) || !tmpName.MatchString(seen[0]) {
		t.Errorf("while writing the folder holds %q; want one temporary named %s…", seen, prefix)
	}
}

// A folder is swept once a run, however its path is spelt: the explorer
// saves its state every few frames and would list its folder each time.
// A stale temporary that appears after the first write stays until the
// next run, whether the folder is then named relatively or absolutely.
func TestSweepOncePerFolderHoweverSpelt(t *testing.T) {
	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("maps", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join("maps", "a.png"), writeString("a")); err != nil {
		t.Fatal(err)
	}
	stale := fmt.Sprintf(".b.png.tmp-cordillera-%d-1", dead.Process.Pid)
	if err := os.WriteFile(filepath.Join("maps", stale), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join(dir, "maps", "c.png"), writeString("c")); err != nil {
		t.Fatal(err)
	}
	if names := dirNames(t, filepath.Join(dir, "maps")); !slices.Contains(names, stale) {
		t.Errorf("the folder was swept again when named absolutely: %q", names)
	}
}

// A target whose folder is a file is refused with the system's reason,
// not taken for a missing file.
func TestCheckTargetUnderAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "map.png")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CheckTarget(filepath.Join(file, "x.png")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a target under a file: error %v, want \"not a directory\"", err)
	}
}
