package atomicfile

import (
	"cordillera/internal/testenv"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// One lock per output: a second taker is refused with the holder's PID
// until the first releases it, which removes the lock file.
func TestLockRefusesASecondRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "t.tif")
	unlock, err := Lock(out)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(LockPath(out))
	if err != nil || strings.TrimSpace(string(data)) != strconv.Itoa(os.Getpid()) {
		t.Errorf("lock file holds %q, %v; want this PID", data, err)
	}
	_, err = Lock(out)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), out) || !strings.Contains(err.Error(), "process "+strconv.Itoa(os.Getpid())) {
		t.Errorf("second lock: error %v; want ErrLocked naming %s and this PID", err, out)
	}
	unlock()
	if _, err := os.Lstat(LockPath(out)); !os.IsNotExist(err) {
		t.Errorf("after unlock the lock file is still there: %v", err)
	}
	unlock, err = Lock(out)
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	unlock()
}

// A lock file left by a run that was killed is taken over; a symbolic
// link where the lock file goes is refused and what it points to stays.
func TestLockTakesOverStaleAndRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "t.tif")
	if err := os.WriteFile(LockPath(out), []byte("999999999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unlock, err := Lock(out)
	if err != nil {
		t.Fatalf("a killed run's lock: %v", err)
	}
	unlock()
	victim := filepath.Join(dir, "precious")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, LockPath(out)); err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(out); err == nil {
		t.Error("a lock file that is a symbolic link was taken")
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep" {
		t.Errorf("the link's target now holds %q", data)
	}
	// A lock file that is a special file (a named pipe here) is refused,
	// not locked: it is no lock a later run could see.
	pipe := filepath.Join(dir, "p.tif")
	if testenv.Mkfifo(LockPath(pipe)) == nil {
		if unlock, err := Lock(pipe); err == nil || !strings.Contains(err.Error(), "is a named pipe (FIFO); want a lock file") {
			t.Errorf("a lock file that is a named pipe: error %v", err)
			if err == nil {
				unlock()
			}
		}
	}
	if _, err := Lock(filepath.Join(dir, "missing", "t.tif")); err == nil || !strings.Contains(err.Error(), "cannot write into folder "+filepath.Join(dir, "missing")) {
		t.Errorf("missing folder: error %v", err)
	}
}
