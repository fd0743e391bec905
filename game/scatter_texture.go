package game

import (
	"image"
	"image/color"
	"math"
)

// The scatter's drawings, made at startup: four conifers, four broadleaf
// trees, four rocks and the soft shadow under a tree, each in a cell of
// the atlas with its mip levels beside it. Two images share the layout:
// the colour (display-referred, premultiplied by coverage) and the
// normal in the billboard's frame with the share of sky each point sees
// (shaders/scatter.kage).
//
// A tree is drawn the way a landscape painter blocks one in: a conifer as
// a narrow cone of drooping tiers, ragged at the edges, lit like a cone
// (its sides turn away from the eye); a broadleaf tree as a crown of
// overlapping rounded clumps on a short trunk, each clump lit like a
// ball, so that the sun picks out their tops. Gaps inside a crown see
// less of the sky and are darker.

// The atlas's layout, as shaders/scatter.kage's cellW, cellH, blockW and
// maxLevel: a drawing is scatterCellW × scatterCellH texels, its mip
// levels stacked to its right in a block scatterBlockW wide.
const (
	scatterCellW    = 128
	scatterCellH    = 256
	scatterBlockW   = 192
	scatterLevels   = 8 // level 7 is 1 × 2
	scatterAtlasCol = 4
)

// The drawings' cells.
const (
	conifers   = 0 // 0–3
	broadleafs = 4 // 4–7
	rocks      = 8 // 8–11
	blobCell   = 12
	drawings   = 4 // of each kind
)

// scatterCellOrigin is cell k's top-left texel.
func scatterCellOrigin(k int) image.Point {
	return image.Pt((k%scatterAtlasCol)*scatterBlockW, (k/scatterAtlasCol)*scatterCellH)
}

// scatterAtlas draws the drawings and their mip levels.
func scatterAtlas() (albedo, normal *image.RGBA) {
	rows := (blobCell + scatterAtlasCol) / scatterAtlasCol
	r := image.Rect(0, 0, scatterAtlasCol*scatterBlockW, rows*scatterCellH)
	albedo, normal = image.NewRGBA(r), image.NewRGBA(r)
	for k := 0; k <= blobCell; k++ {
		d := newDrawing()
		switch {
		case k < broadleafs:
			d.conifer(uint64(k))
		case k < rocks:
			d.broadleaf(uint64(k))
		case k < blobCell:
			d.rock(uint64(k))
		default:
			d.blob()
		}
		d.store(albedo, normal, scatterCellOrigin(k))
	}
	return albedo, normal
}

// drawing is one cell's level 0 in float: premultiplied linear colour and
// coverage, and the coverage-weighted normal and sky share.
type drawing struct {
	col [][4]float64 // r, g, b (linear, premultiplied), coverage
	nrm [][4]float64 // nx, ny, nz, sky (each times coverage)
}

func newDrawing() *drawing {
	n := scatterCellW * scatterCellH
	return &drawing{col: make([][4]float64, n), nrm: make([][4]float64, n)}
}

// put sets texel (x, y) to the linear colour c seen through coverage a,
// with normal n and sky share sky.
func (d *drawing) put(x, y int, c [3]float64, a float64, n [3]float64, sky float64) {
	if x < 0 || y < 0 || x >= scatterCellW || y >= scatterCellH || a <= 0 {
		return
	}
	k := y*scatterCellW + x
	// Over what is there already (drawn back to front).
	old := d.col[k][3]
	keep := 1 - a
	d.col[k] = [4]float64{c[0]*a + d.col[k][0]*keep, c[1]*a + d.col[k][1]*keep, c[2]*a + d.col[k][2]*keep, a + old*keep}
	l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])
	o := d.nrm[k]
	d.nrm[k] = [4]float64{n[0]/l*a + o[0]*keep, n[1]/l*a + o[1]*keep, n[2]/l*a + o[2]*keep, sky*a + o[3]*keep}
}

// hashUnit is a number in [0, 1) from a seed and two integers.
func hashUnit(seed uint64, i, j int) float64 {
	z := seed*0x9e3779b97f4a7c15 ^ uint64(uint32(i))*0xbf58476d1ce4e5b9 ^ uint64(uint32(j))*0x94d049bb133111eb
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}

// scatterNoise is smooth value noise at (x, y), one lattice cell a unit, 0–1.
func scatterNoise(seed uint64, x, y float64) float64 {
	ix, iy := math.Floor(x), math.Floor(y)
	fx, fy := x-ix, y-iy
	ux, uy := fx*fx*(3-2*fx), fy*fy*(3-2*fy)
	i, j := int(ix), int(iy)
	a, b := hashUnit(seed, i, j), hashUnit(seed, i+1, j)
	c, e := hashUnit(seed, i, j+1), hashUnit(seed, i+1, j+1)
	return (a+(b-a)*ux)*(1-uy) + (c+(e-c)*ux)*uy
}

// conifer draws a spruce or fir: a trunk, and a cone of drooping tiers.
func (d *drawing) conifer(seed uint64) {
	const w, h = scatterCellW, scatterCellH
	top := 2.0
	base := float64(h) * (0.90 + 0.03*hashUnit(seed, 1, 0)) // where the lowest branches end
	half := float64(w) * (0.40 + 0.08*hashUnit(seed, 2, 0))
	tiers := 9 + int(5*hashUnit(seed, 3, 0))
	green := [3]float64{0.030 + 0.010*hashUnit(seed, 4, 0), 0.052 + 0.014*hashUnit(seed, 5, 0), 0.030 + 0.008*hashUnit(seed, 6, 0)}
	bark := [3]float64{0.035, 0.027, 0.020}
	// The trunk, behind the branches.
	for y := int(base - 0.25*float64(h)); y < h; y++ {
		tw := 0.035 * float64(w) * (1 + 0.5*float64(y)/float64(h))
		for x := 0; x < w; x++ {
			u := (float64(x) + 0.5 - float64(w)/2) / tw
			if math.Abs(u) < 1 {
				d.put(x, y, bark, 1, [3]float64{u, 0, math.Sqrt(1 - u*u)}, 0.5)
			}
		}
	}
	for y := 0; y < h; y++ {
		fy := float64(y) + 0.5
		if fy < top || fy > base+6 {
			continue
		}
		v := (fy - top) / (base - top) // 0 at the tip, 1 at the base
		// Each tier's branches droop: the tier widens towards its lower
		// edge, then steps in to the next.
		t := v * float64(tiers)
		frac := t - math.Floor(t)
		tierJitter := 0.9 + 0.2*hashUnit(seed, 10, int(t))
		width := half * math.Pow(min(v, 1), 0.95) * (0.72 + 0.28*frac) * tierJitter
		if fy > base {
			width *= 1 - (fy-base)/6
		}
		for x := 0; x < w; x++ {
			fx := float64(x) + 0.5 - float64(w)/2
			// Ragged edge: the tips of the branches.
			rag := 0.82 + 0.3*scatterNoise(seed+7, fx/3.0, fy/2.2)
			edge := width * rag
			r := math.Abs(fx) / max(edge, 1e-6)
			if r >= 1.15 {
				continue
			}
			a := min(1, (1.15-r)/0.3)
			// Needle clumps: holes and bright tufts.
			clump := scatterNoise(seed+11, fx/2.2, fy/2.2)
			if clump < 0.28 && r > 0.4 {
				a *= clump / 0.28
			}
			// The cone's normal: its side turns away, its surface tilts up.
			nx := max(min(fx/max(half*math.Pow(min(v, 1), 0.95), 1), 1), -1)
			n := [3]float64{nx * 0.9, 0.45 + 0.35*(1-frac), math.Sqrt(max(1-nx*nx, 0.05))}
			n[0] += 0.5 * (scatterNoise(seed+13, fx/3, fy/3) - 0.5)
			n[1] += 0.6 * (clump - 0.5)
			// Inside the crown and under each tier, less sky.
			sky := (0.45 + 0.55*min(r, 1)) * (0.6 + 0.4*(1-frac)) * (1 - 0.25*v)
			shade := 0.75 + 0.5*clump
			c := [3]float64{green[0] * shade, green[1] * shade, green[2] * shade}
			d.put(x, y, c, a, n, sky)
		}
	}
}

// broadleaf draws a beech or oak: a short trunk and a crown of many
// overlapping clumps over a dark core (the crown's shaded inside, seen
// through the gaps).
func (d *drawing) broadleaf(seed uint64) {
	const w, h = scatterCellW, scatterCellH
	fw, fh := float64(w), float64(h)
	green := [3]float64{0.048 + 0.014*hashUnit(seed, 4, 0), 0.080 + 0.018*hashUnit(seed, 5, 0), 0.028 + 0.01*hashUnit(seed, 6, 0)}
	bark := [3]float64{0.032, 0.027, 0.022}
	cx, cy := fw/2+fw*0.04*(hashUnit(seed, 7, 0)-0.5), fh*(0.36+0.03*hashUnit(seed, 1, 0))
	rx, ry := fw*(0.44+0.04*hashUnit(seed, 8, 0)), fh*(0.33+0.03*hashUnit(seed, 9, 0))
	// The trunk, up into the crown.
	for y := int(cy); y < h; y++ {
		fy := float64(y) + 0.5
		tw := 0.03 * fw * (1 + 0.8*fy/fh)
		for x := 0; x < w; x++ {
			u := (float64(x) + 0.5 - fw/2) / tw
			if math.Abs(u) < 1 {
				d.put(x, y, bark, 1, [3]float64{u, 0, math.Sqrt(1 - u*u)}, 0.4)
			}
		}
	}
	// The core: the crown's inside, in its own shade.
	for y := int(cy - ry); y <= int(cy+ry); y++ {
		for x := 0; x < w; x++ {
			u, v := (float64(x)+0.5-cx)/(rx*0.8), (float64(y)+0.5-cy)/(ry*0.8)
			if r := u*u + v*v; r < 1 {
				c := [3]float64{green[0] * 0.6, green[1] * 0.6, green[2] * 0.6}
				d.put(x, y, c, min(1, (1-r)/0.2), [3]float64{u, -v, 0.6}, 0.25)
			}
		}
	}
	// Clumps: balls within the ellipse, drawn from the back to the front.
	type ball struct{ x, y, z, r float64 }
	var balls []ball
	n := 34 + int(12*hashUnit(seed, 2, 0))
	for i := range n {
		a := 2 * math.Pi * hashUnit(seed, 20, i)
		s := math.Sqrt(hashUnit(seed, 21, i))
		r := fw * (0.09 + 0.07*hashUnit(seed, 22, i))
		bx := cx + math.Cos(a)*s*(rx-r*0.8)
		by := cy + math.Sin(a)*s*(ry-r*0.8)
		// Clumps on the crown's rim stand in front less often.
		z := hashUnit(seed, 23, i) * (1 - 0.5*s)
		balls = append(balls, ball{bx, by, z, r})
	}
	for i := 1; i < len(balls); i++ {
		for j := i; j > 0 && balls[j].z < balls[j-1].z; j-- {
			balls[j], balls[j-1] = balls[j-1], balls[j]
		}
	}
	for bi, b := range balls {
		for y := int(b.y - b.r - 2); y <= int(b.y+b.r+2); y++ {
			for x := int(b.x - b.r - 2); x <= int(b.x+b.r+2); x++ {
				fx, fy := float64(x)+0.5-b.x, float64(y)+0.5-b.y
				// A leafy edge: the radius wanders.
				ang := math.Atan2(fy, fx)
				rr := b.r * (0.85 + 0.25*scatterNoise(seed+uint64(bi)*977, ang*2.5+10, 0.5))
				dist := math.Hypot(fx, fy) / rr
				if dist >= 1.08 {
					continue
				}
				a := min(1, (1.08-dist)/0.16)
				leaf := scatterNoise(seed+31, float64(x)/1.7, float64(y)/1.7)
				if leaf < 0.3 && dist > 0.55 {
					a *= leaf / 0.3
				}
				dd := min(dist, 1)
				nz := math.Sqrt(1 - dd*dd)
				// A ball's normal, tilted out from the crown's centre.
				nrm := [3]float64{fx/rr + 0.6*(b.x-cx)/rx, -fy/rr*0.9 - 0.5*(b.y-cy)/ry, nz + 0.2}
				nrm[0] += 0.6 * (leaf - 0.5)
				nrm[1] += 0.6 * (scatterNoise(seed+37, float64(x)/2.2, float64(y)/2.2) - 0.5)
				// Clumps deep in the crown (behind, low) see less sky.
				sky := (0.5 + 0.5*b.z) * (0.7 + 0.3*(1-dd)) * (1 - 0.3*max(fy/rr, 0)) * (1 - 0.3*max((b.y-cy)/ry, 0))
				shade := 0.8 + 0.4*leaf
				c := [3]float64{green[0] * shade, green[1] * shade, green[2] * shade}
				d.put(x, y, c, a, nrm, sky)
			}
		}
	}
}

// rock draws a boulder: an angular outline (straight edges between a few
// corners, as broken rock has), flat below, its face split into facets
// that each catch the light their own way, with cracks between them.
func (d *drawing) rock(seed uint64) {
	const w, h = scatterCellW, scatterCellH
	fw, fh := float64(w), float64(h)
	grey := 0.15 + 0.06*hashUnit(seed, 1, 0)
	warm := 0.96 + 0.08*hashUnit(seed, 2, 0)
	// The outline: corners over the upper half, their radii random.
	const corners = 9
	var rad [corners + 1]float64
	for i := range rad {
		rad[i] = 0.62 + 0.38*hashUnit(seed, 30, i)
	}
	rad[0], rad[corners] = 0.9+0.1*hashUnit(seed, 31, 0), 0.9+0.1*hashUnit(seed, 31, 1)
	outline := func(ang float64) float64 { // ang 0 … π, right to left
		t := ang / math.Pi * corners
		i := min(int(t), corners-1)
		f := t - float64(i)
		// Straight edges between corners: the radius along a chord.
		a0, a1 := float64(i)*math.Pi/corners, float64(i+1)*math.Pi/corners
		x0, y0 := rad[i]*math.Cos(a0), rad[i]*math.Sin(a0)
		x1, y1 := rad[i+1]*math.Cos(a1), rad[i+1]*math.Sin(a1)
		x, y := x0+(x1-x0)*f, y0+(y1-y0)*f
		return math.Hypot(x, y)
	}
	// Facets: seed points over the face, each with its own tilt.
	type facet struct{ x, y, nx, ny, nz, shade float64 }
	var fs []facet
	for i := range 9 {
		fx := 2*hashUnit(seed, 10, i) - 1
		fy := hashUnit(seed, 11, i)
		nx := fx*0.8 + 0.7*(hashUnit(seed, 12, i)-0.5)
		ny := 0.2 + fy*0.9 + 0.5*(hashUnit(seed, 13, i)-0.5)
		fs = append(fs, facet{fx, fy, nx, ny, 0.8, 0.85 + 0.3*hashUnit(seed, 14, i)})
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			u := (float64(x) + 0.5 - fw/2) / (fw / 2) // −1 … 1
			v := (float64(y) + 0.5) / fh              // 0 top … 1 bottom
			// 0 at the bottom; the cell is twice as tall as wide, the
			// quad about 0.7 times, so this keeps the outline's shape.
			yy := (1 - v) * 1.45
			r := math.Hypot(u, yy)
			edge := outline(math.Atan2(yy, u))
			if r >= edge || v > 0.99 {
				continue
			}
			a := min(1, (edge-r)/0.03)
			// The nearest facet and the distance to the next: cracks.
			d1, d2, bi := math.Inf(1), math.Inf(1), 0
			for i, f := range fs {
				dd := math.Hypot(u-f.x, yy-f.y*edge)
				if dd < d1 {
					d1, d2, bi = dd, d1, i
				} else if dd < d2 {
					d2 = dd
				}
			}
			f := fs[bi]
			// Towards the outline the face turns away.
			out := r / edge
			n := [3]float64{f.nx + 0.8*u*out*out, f.ny + 0.6*yy*out*out, f.nz * (1 - 0.6*out*out)}
			grain := scatterNoise(seed+5, float64(x)/2.5, float64(y)/2.5)
			lichen := scatterNoise(seed+7, float64(x)/5, float64(y)/5)
			g := grey * f.shade * (0.85 + 0.3*grain)
			c := [3]float64{g * warm, g, g / warm}
			if lichen > 0.74 && yy > 0.3 {
				c = [3]float64{c[0] * 1.3, c[1] * 1.25, c[2] * 0.8}
			}
			if d2-d1 < 0.025 { // a crack between facets
				c = [3]float64{c[0] * 0.55, c[1] * 0.55, c[2] * 0.55}
			}
			// The foot, in the soil, is darker and sees less sky.
			foot := min(yy/0.12, 1)
			c = [3]float64{c[0] * (0.6 + 0.4*foot), c[1] * (0.6 + 0.4*foot), c[2] * (0.6 + 0.4*foot)}
			sky := 0.5 + 0.5*min(yy/edge, 1)
			d.put(x, y, c, a, n, sky)
		}
	}
}

// blob draws the soft shadow under a tree: dark in the middle, fading
// out towards the edge of the crown above it.
func (d *drawing) blob() {
	const w, h = scatterCellW, scatterCellH
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			u := (float64(x) + 0.5 - w/2) / (w / 2)
			v := (float64(y) + 0.5 - h/2) / (h / 2)
			r2 := u*u + v*v
			if r2 < 1 {
				a := math.Pow(1-r2, 1.5)
				d.put(x, y, [3]float64{}, a, [3]float64{0, 1, 0}, 1)
			}
		}
	}
}

// store writes the drawing and its mip levels (box filtered) into the
// atlases with the cell at o: level 0 at o, levels 1… at o + (cellW, …).
func (d *drawing) store(albedo, normal *image.RGBA, o image.Point) {
	col, nrm := d.col, d.nrm
	w, h := scatterCellW, scatterCellH
	for level := range scatterLevels {
		at := o
		if level > 0 {
			at = o.Add(image.Pt(scatterCellW, scatterCellH-2*scatterCellH>>level))
		}
		gamma := 1 / 2.2
		for y := range h {
			for x := range w {
				c, n := col[y*w+x], nrm[y*w+x]
				a := c[3]
				var cc, nn color.RGBA
				if a > 0 {
					// Display-referred colour, premultiplied.
					cc = color.RGBA{to8(math.Pow(c[0]/a, gamma) * a), to8(math.Pow(c[1]/a, gamma) * a), to8(math.Pow(c[2]/a, gamma) * a), to8(a)}
					nn = color.RGBA{to8(n[0]/a*0.5 + 0.5), to8(n[1]/a*0.5 + 0.5), to8(n[2]/a*0.5 + 0.5), to8(n[3] / a)}
				} else {
					nn = color.RGBA{128, 128, 255, 255}
				}
				albedo.SetRGBA(at.X+x, at.Y+y, cc)
				normal.SetRGBA(at.X+x, at.Y+y, nn)
			}
		}
		if w == 1 {
			break
		}
		// The next level: 2×2 boxes of this one.
		nw, nh := w/2, h/2
		nc, nn := make([][4]float64, nw*nh), make([][4]float64, nw*nh)
		for y := range nh {
			for x := range nw {
				for _, k := range [4]int{2*y*w + 2*x, 2*y*w + 2*x + 1, (2*y+1)*w + 2*x, (2*y+1)*w + 2*x + 1} {
					for i := range 4 {
						nc[y*nw+x][i] += col[k][i] / 4
						nn[y*nw+x][i] += nrm[k][i] / 4
					}
				}
			}
		}
		col, nrm, w, h = nc, nn, nw, nh
	}
}

func to8(v float64) uint8 { return uint8(min(max(v*255+0.5, 0), 255)) }
