//go:build linux

package noise

import "syscall"

// threadCPU is the calling thread's CPU time in nanoseconds.
func threadCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(1, &ru) != nil { // RUSAGE_THREAD
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
