package terrain

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// SaveHeightmap writes m to path in the format its extension names: .png
// (16-bit grayscale, EncodePNG16), .r16 or .raw (EncodeR16), .obj
// (EncodeOBJ). The file is replaced atomically (WriteFileAtomic), so a
// failed save leaves any earlier file intact.
func SaveHeightmap(path string, m *Heightmap) error {
	var encode func(io.Writer, *Heightmap) error
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png":
		encode = EncodePNG16
	case ".r16", ".raw":
		encode = EncodeR16
	case ".obj":
		encode = EncodeOBJ
	default:
		return fmt.Errorf("%s: cannot save a heightmap as %q; supported extensions: .png, .r16, .raw, .obj", path, ext)
	}
	return WriteFileAtomic(path, func(w io.Writer) error { return encode(w, m) })
}

// LoadHeightmap reads a heightmap from a .png (DecodeHeightmapImage) or a
// .r16 or .raw file (DecodeR16). Errors start with the path.
func LoadHeightmap(path string) (*Heightmap, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".png", ".r16", ".raw":
	case ".obj":
		return nil, fmt.Errorf("%s: .obj is an export format; load a .png, .r16 or .raw heightmap", path)
	default:
		return nil, fmt.Errorf("%s: cannot load a heightmap from %q; supported extensions: .png, .r16, .raw", path, ext)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err // *PathError already names the path
	}
	defer f.Close()
	var m *Heightmap
	if ext == ".png" {
		m, err = DecodeHeightmapImage(bufio.NewReader(f))
	} else {
		var info os.FileInfo
		if info, err = f.Stat(); err == nil {
			m, err = DecodeR16(bufio.NewReader(f), info.Size())
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// WriteFileAtomic writes a file through write and then puts it at path in
// one step: it writes a temporary file in the same directory, syncs it to
// disk and renames it over path. On any error the temporary file is removed
// and whatever was at path stays as it was. Errors name the path.
func WriteFileAtomic(path string, write func(io.Writer) error) (err error) {
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
