package assets

import (
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io/fs"
	"path/filepath"

	xdraw "golang.org/x/image/draw"

	"cordillera/internal/inputfile"
)

// LoadMaterials builds an atlas from a folder of the user's own materials,
// as the thesis's Viewer allows: sand.png, grass.png, rock.png, snow.png
// and their detail maps sand_detail.png … snow_detail.png. Files that are
// missing keep the built-in material; images of any size are resampled to
// TextureSize². A folder with none of these files is an error, and so is a
// file that is not a PNG.
func LoadMaterials(dir string) (*image.RGBA, int, error) {
	var tex, det [MaterialCount]*image.RGBA
	found := 0
	for _, m := range Materials {
		for _, detail := range []bool{false, true} {
			name := m.TextureFile()
			if detail {
				name = m.DetailFile()
			}
			img, err := loadUser(filepath.Join(dir, name))
			switch {
			case errors.Is(err, fs.ErrNotExist):
				if detail {
					img, err = Detail(m)
				} else {
					img, err = Texture(m)
				}
				if err != nil {
					return nil, 0, err
				}
			case err != nil:
				return nil, 0, err
			default:
				found++
			}
			if detail {
				det[m] = img
			} else {
				tex[m] = img
			}
		}
	}
	if found == 0 {
		return nil, 0, fmt.Errorf("%s: no material files (want sand.png, grass.png, rock.png, snow.png and their _detail.png maps)", dir)
	}
	return BuildAtlas(tex, det), found, nil
}

// MaxMaterialFile is the largest material image read, in bytes: an
// 8192² photograph as a PNG takes well under it.
const MaxMaterialFile = 256 << 20

// loadUser reads a PNG and resamples it to TextureSize², opaque. It opens
// only a regular file within MaxMaterialFile (inputfile.Open): a FIFO
// named sand.png would otherwise block the import for ever.
func loadUser(path string) (*image.RGBA, error) {
	f, _, err := inputfile.Open(path, MaxMaterialFile, "a material image (PNG)")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		return nil, fmt.Errorf("%s: not a PNG image: %w", path, err)
	}
	if cfg.Width > 8192 || cfg.Height > 8192 {
		return nil, fmt.Errorf("%s: %d×%d is too large for a texture (at most 8192 per side)", path, cfg.Width, cfg.Height)
	}
	if _, err := f.Seek(0, 0); err != nil {
		return nil, err
	}
	src, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dst := image.NewRGBA(image.Rect(0, 0, TextureSize, TextureSize))
	draw.Draw(dst, dst.Bounds(), image.Opaque, image.Point{}, draw.Src)
	xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Over, nil)
	for i := 3; i < len(dst.Pix); i += 4 {
		dst.Pix[i] = 255
	}
	return dst, nil
}
