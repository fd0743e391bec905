// Package inputfile opens the files a command reads within bounds: only
// regular files (a FIFO would block forever, a device such as /dev/zero
// never ends), and never more bytes than the kind of file can sensibly
// hold, so that a huge or sparse file is refused before it fills memory.
package inputfile

import (
	"fmt"
	"io"
	"os"
)

// Open opens path for reading if it is a regular file (after following
// symbolic links) of at most limit bytes, and returns it with its size.
// The check comes before the open, since opening a FIFO blocks until
// someone writes to it. Errors name the path and say what was wrong.
func Open(path string, limit int64, what string) (*os.File, int64, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, 0, err // *PathError names the path
	}
	if err := check(path, info, limit, what); err != nil {
		return nil, 0, err
	}
	betweenStatAndOpen(path)
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	// The path may have been replaced between Stat and Open: check what
	// was opened.
	if info, err = f.Stat(); err == nil {
		err = check(path, info, limit, what)
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, info.Size(), nil
}

// betweenStatAndOpen runs between Open's check of path and its opening:
// a test replaces the file there, staging the race the second check is for.
var betweenStatAndOpen = func(string) {}

// ReadAll reads a regular file of at most limit bytes whole. A file that
// grows past the limit while it is read is refused too.
func ReadAll(path string, limit int64, what string) ([]byte, error) {
	f, _, err := Open(path, limit, what)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, TooLarge(path, int64(len(data)), limit, what)
	}
	return data, nil
}

// TooLarge is the error for a file of size bytes, over limit, that is to be
// read as what ("a parameter file").
func TooLarge(path string, size, limit int64, what string) error {
	return fmt.Errorf("%s: %s is too large for %s (at most %s)", path, Bytes(size), what, Bytes(limit))
}

// check refuses what is not a regular file of at most limit bytes.
func check(path string, info os.FileInfo, limit int64, what string) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s: %s, not a regular file; want %s", path, Kind(info.Mode()), what)
	}
	if info.Size() > limit {
		return TooLarge(path, info.Size(), limit, what)
	}
	return nil
}

// Kind names what kind of file mode m describes, for messages.
func Kind(m os.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "a special file (" + m.String() + ")"
}

// Bytes writes a size for people: "812 bytes", "1 MB", "8.6 GB".
func Bytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.4g KB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.4g MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.4g GB", float64(n)/(1<<30))
}
