//go:build !linux

package noise

// threadCPU is 0 where the thread's CPU time cannot be read (RUSAGE_THREAD
// is Linux's): the benchmarks then report their wall time only.
func threadCPU() int64 { return 0 }
