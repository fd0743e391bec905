//go:build !unix

package atomicfile

import (
	"fmt"
	"os"
	"strconv"
)

// takeLock creates the lock file at name only if there is none, and
// writes this run's PID into it. Without flock a lock a killed run left
// cannot be told from a live one's: the message names the file to remove.
func takeLock(name string) (unlock func(), err error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if os.IsExist(err) {
		holder := ""
		if old, err := os.Open(name); err == nil {
			holder = readHolder(old)
			old.Close()
		}
		return nil, fmt.Errorf("%w (if no such run is going on, remove it)", locked(name, holder))
	}
	if err != nil {
		return nil, err
	}
	f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
	return func() {
		f.Close()
		os.Remove(name)
	}, nil
}
