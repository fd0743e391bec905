//go:build !unix

package testenv

import "time"

// ProcessCPU is not known here (no getrusage).
func ProcessCPU() (cpu time.Duration, ok bool) { return 0, false }
