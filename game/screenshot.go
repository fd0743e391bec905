package game

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"
)

// shotPixels returns the 3D view, vr on the screen, for a screenshot,
// drawn at its full size. The frame on the screen may have been drawn at a share of it
// and upscaled (dynamic resolution), softer than a picture to keep should
// be; the shot draws the view once more at 100 %, which a slow machine
// pays for once.
func (g *Game) shotPixels(screen *ebiten.Image, vr image.Rectangle) *image.RGBA {
	if g.res.scale >= maxViewScale {
		return ScreenPixels(screen.SubImage(vr).(*ebiten.Image))
	}
	w, h := vr.Dx(), vr.Dy()
	full := ebiten.NewImageWithOptions(image.Rect(0, 0, w, h), &ebiten.NewImageOptions{Unmanaged: true})
	defer full.Deallocate()
	// A frame of its own, so the frame kept for the screen stays as built;
	// the level of detail it selects is the shared LOD's, so that frame is
	// built again next time.
	f := frame{noOcclusion: g.frame.noOcclusion, keepBack: g.frame.keepBack,
		water: g.frame.water, wet: g.frame.wet, waterKnown: g.frame.waterKnown}
	f.build(g.Camera, w, h, g.World.Map, g.World.LOD, g.World.Normals, g.FullMesh, g.View.DetailDist)
	g.render.draw(full, g.Camera, &g.View, g.World, &f)
	g.frame.valid = false
	if !g.View.Antialias {
		return ScreenPixels(full)
	}
	aa := ebiten.NewImageWithOptions(image.Rect(0, 0, w, h), &ebiten.NewImageOptions{Unmanaged: true})
	defer aa.Deallocate()
	g.render.antialias(aa, full)
	return ScreenPixels(aa)
}
