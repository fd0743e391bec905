package game

import (
	"github.com/hajimehoshi/ebiten/v2"
)

// upscale draws view over the whole of dst through the sharp upscale
// (shaders/upscale.kage: a sharpened Catmull-Rom, clamped so it does not
// ring). A bilinear upscale of a view drawn at a quarter of the size
// spreads a step edge over 3.2 screen pixels; this keeps it to 2.4.
func (r *renderer) upscale(dst, view *ebiten.Image) {
	db, vb := dst.Bounds(), view.Bounds()
	x0, y0, x1, y1 := float32(db.Min.X), float32(db.Min.Y), float32(db.Max.X), float32(db.Max.Y)
	u0, v0, u1, v1 := float32(vb.Min.X), float32(vb.Min.Y), float32(vb.Max.X), float32(vb.Max.Y)
	vs := []ebiten.Vertex{
		{DstX: x0, DstY: y0, SrcX: u0, SrcY: v0, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1},
		{DstX: x1, DstY: y0, SrcX: u1, SrcY: v0, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1},
		{DstX: x0, DstY: y1, SrcX: u0, SrcY: v1, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1},
		{DstX: x1, DstY: y1, SrcX: u1, SrcY: v1, ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1},
	}
	var op ebiten.DrawTrianglesShaderOptions
	op.Images[0] = view
	op.Blend = ebiten.BlendCopy
	dst.DrawTrianglesShader(vs, []uint16{0, 1, 2, 1, 3, 2}, r.up, &op)
}
