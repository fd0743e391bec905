//go:build unix

package testenv

import (
	"syscall"
	"time"
)

// ProcessCPU is the user and system time the process has used so far,
// all its threads (an OpenGL driver's included). Benchmarks on a machine
// shared with other work report it beside wall time, which swings with
// the others' load far more. ok is false where it cannot be read.
func ProcessCPU() (cpu time.Duration, ok bool) {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0, false
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()), true
}
