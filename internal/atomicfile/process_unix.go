//go:build unix

package atomicfile

import "syscall"

// processAlive reports whether a process with the ID pid exists: signal 0
// checks without sending anything, and EPERM means it exists but is
// another user's.
func processAlive(pid int) bool {
	if pid <= 0 { // 0 and negative IDs name process groups, not a process
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
