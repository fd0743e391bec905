//go:build !js

package parallel

import "context"

// yield does nothing where goroutines have threads of their own: the
// operating system keeps the frame loop going (yield_js.go is the
// browser's).
func yield(context.Context) {}
