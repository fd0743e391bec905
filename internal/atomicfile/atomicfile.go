// Package atomicfile writes files so that a reader never sees half of one:
// heightmaps, masks, parameter files and route reports all go through it.
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write writes a file through write and then puts it at path in
// one step: it writes a temporary file in the same directory, syncs it to
// disk and renames it over path. On any error the temporary file is removed
// and whatever was at path stays as it was. Errors name the path.
func Write(path string, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	// A leading dot hides the file from directory listings while it is written.
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	renamed := false
	defer func() {
		// Also runs when write panics, so no temporary file is left behind.
		if !renamed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
		if err != nil {
			err = fmt.Errorf("%s: %w", path, err)
		}
	}()
	// CreateTemp makes the file private (0600); give it the mode the file
	// it replaces had, or the usual 0644 for a new one.
	mode := os.FileMode(0o644)
	if info, statErr := os.Stat(path); statErr == nil {
		mode = info.Mode().Perm()
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	renamed = true
	syncDir(dir)
	return nil
}

// syncDir makes a rename in dir durable. It is best effort: some systems
// cannot sync a directory, and the new file is already in place.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}
