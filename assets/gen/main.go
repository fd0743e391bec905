// Command gen writes the procedural material textures and detail maps of
// package assets as PNGs: `go run ./assets/gen` from the repository root
// rewrites assets/materials/*.png. The output depends only on the code, so
// rerunning it reproduces the committed files byte for byte.
//
// Package assets embeds those PNGs, so it (and this command) builds only
// while they exist; restore them from version control if they are lost.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"

	"cordillera/assets"
)

func main() {
	out := flag.String("out", filepath.Join("assets", "materials"), "directory the PNGs are written to")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, m := range assets.Materials {
		tex, det := assets.Synthesize(m)
		if err := write(filepath.Join(dir, m.TextureFile()), tex); err != nil {
			return err
		}
		if err := write(filepath.Join(dir, m.DetailFile()), det); err != nil {
			return err
		}
	}
	return nil
}

func write(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Println("wrote", path)
	return nil
}
