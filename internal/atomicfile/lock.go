package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ErrLocked is the error Lock returns while another run holds the lock.
var ErrLocked = errors.New("another run is writing it")

// LockPath is the lock file of the output path: ".NAME.cordillera-lock"
// beside it, a name nobody writes by hand and the sweep never touches.
func LockPath(path string) string {
	dir, base := filepath.Split(path)
	return filepath.Join(dir, "."+base+".cordillera-lock")
}

// Lock takes the lock of the output path for this run, so that two runs
// writing one output (a map's tiles, say, which are renamed into place one
// by one) cannot mix their files: the second is refused with ErrLocked and
// the holder's PID. unlock releases it and removes the lock file. A lock
// left by a run that was killed is taken over (takeLock says how a dead
// holder is told).
func Lock(path string) (unlock func(), err error) {
	name := LockPath(path)
	unlock, err = takeLock(name)
	if err == nil {
		return unlock, nil
	}
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Path == name && folderError(pe.Err) {
		return nil, fmt.Errorf("cannot write into folder %s: %w", filepath.Dir(name), pe.Err)
	}
	return nil, fmt.Errorf("%s: %w", path, err)
}

// locked is the error for a lock file held by the process holder ("" when
// it cannot be read).
func locked(name, holder string) error {
	if holder != "" {
		return fmt.Errorf("%w (process %s holds %s); wait for it to end, or pick another output", ErrLocked, holder, name)
	}
	return fmt.Errorf("%w (it holds %s); wait for it to end, or pick another output", ErrLocked, name)
}

// folderError reports whether creating a file failed because of its
// folder: missing, not a folder, or not writable.
func folderError(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EROFS)
}

// readHolder reads the PID a lock file holds, or "".
func readHolder(f *os.File) string {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	pid := strings.TrimSpace(string(buf[:n]))
	if _, err := strconv.Atoi(pid); err != nil {
		return ""
	}
	return pid
}
