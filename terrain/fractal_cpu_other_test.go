//go:build !unix

package terrain

import "time"

// thesisProcessCPU is not known here (no getrusage).
func thesisProcessCPU() (time.Duration, bool) { return 0, false }
