//go:build !unix

package testenv

import "errors"

// Mkfifo fails where there are no named pipes; the tests skip that case.
func Mkfifo(string) error { return errors.New("no named pipes here") }
