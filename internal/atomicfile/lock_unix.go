//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"

	"cordillera/internal/inputfile"
)

// takeLock holds an flock(2) on the lock file at name, creating it if need
// be, and writes this run's PID into it for the message a second run
// gets. The kernel releases an flock when its process dies however it
// dies, so a lock file a killed run left is simply taken over. The file
// is removed by its holder before the lock is released; a run that opened
// it just before finds on locking that the name now means another file
// (or none), and starts again.
func takeLock(name string) (unlock func(), err error) {
	for range 8 {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
		if err != nil {
			return nil, err
		}
		info, err := f.Stat()
		if err == nil && !info.Mode().IsRegular() {
			err = fmt.Errorf("%s is %s; want a lock file", name, inputfile.Kind(info.Mode()))
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			holder := readHolder(f)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, locked(name, holder)
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if now, err := os.Lstat(name); err != nil || !os.SameFile(info, now) {
			f.Close() // its holder removed it between our open and our lock
			continue
		}
		pid := []byte(strconv.Itoa(os.Getpid()) + "\n")
		if err := f.Truncate(0); err == nil {
			f.WriteAt(pid, 0)
		}
		return func() {
			os.Remove(name) // while still holding it: see above
			f.Close()
		}, nil
	}
	return nil, locked(name, "")
}
