// Package heightfile reads and writes heightmaps in the formats other tools
// read: 16-bit grayscale PNG, raw 16-bit r16, and OBJ meshes, one format per
// file, each written atomically. It knows the Heightmap and nothing of how
// a map was made or drawn.
package heightfile

import (
	"bufio"
	"cordillera/internal/atomicfile"
	"cordillera/terrain"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// SaveHeightmap writes m to path in the format its extension names: .png
// (16-bit grayscale, EncodePNG16), .r16 or .raw (EncodeR16), .obj
// (EncodeOBJ). The file is replaced atomically (atomicfile.Write), so a
// failed save leaves any earlier file intact.
func SaveHeightmap(path string, m *terrain.Heightmap) error {
	var encode func(io.Writer, *terrain.Heightmap) error
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
	return atomicfile.Write(path, func(w io.Writer) error { return encode(w, m) })
}

// LoadHeightmap reads a heightmap from a .png (DecodeHeightmapImage) or a
// .r16 or .raw file (DecodeR16). Errors start with the path.
func LoadHeightmap(path string) (*terrain.Heightmap, error) {
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
	var m *terrain.Heightmap
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
