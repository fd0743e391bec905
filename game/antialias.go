package game

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"
)

// Anti-aliasing of silhouettes. The terrain is drawn without multisampling
// (Ebiten offers none to a shader), so a ridge against the sky steps from
// pixel to pixel and crawls as the camera moves. With Viewer.Antialias the
// 3D view is drawn offscreen and copied to the screen through an edge pass
// (shaders/antialias.kage, Lottes's FXAA) that turns the steps into ramps
// of intermediate colours. It costs one full-screen pass of about twenty
// texel reads, far less than drawing the terrain at twice the size.

// antialias draws view onto dst, the same size, through the edge pass.
func (r *renderer) antialias(dst, view *ebiten.Image) {
	var op ebiten.DrawRectShaderOptions
	op.Images[0] = view
	op.Blend = ebiten.BlendCopy
	b := view.Bounds()
	dst.DrawRectShader(b.Dx(), b.Dy(), r.aa, &op)
}

// antialiased returns the view after the edge pass, in a second
// offscreen image (the corner of the view's size).
func (g *Game) antialiased(size image.Point, view *ebiten.Image) *ebiten.Image {
	r := &g.scene.res
	sw, sh := size.X, size.Y
	vb := view.Bounds()
	if r.aaImg == nil || r.aaImg.Bounds().Dx() != sw || r.aaImg.Bounds().Dy() != sh {
		if r.aaImg != nil {
			r.aaImg.Deallocate()
		}
		r.aaImg = ebiten.NewImageWithOptions(image.Rect(0, 0, sw, sh), &ebiten.NewImageOptions{Unmanaged: true})
	}
	out := r.aaImg.SubImage(image.Rect(0, 0, vb.Dx(), vb.Dy())).(*ebiten.Image)
	g.render.antialias(out, view)
	return out
}
