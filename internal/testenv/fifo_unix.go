//go:build unix

package testenv

import "syscall"

// Mkfifo makes a named pipe at path, a file that blocks whoever opens it
// for reading: the tests give one where a map or a settings file is read.
func Mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
