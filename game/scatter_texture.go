package game

import (
	"image"
	"image/color"
	"math"
)

// The scatter's drawings, made at startup: eight conifers (spruce, fir,
// pine, larch), eight broadleaf trees (beech, oak, birch, a young bushy
// tree), eight rocks and the soft shadow under a tree, each in a cell of
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
	drawings   = 8 // of each kind
	conifers   = 0
	broadleafs = conifers + drawings
	rocks      = broadleafs + drawings
	blobCell   = rocks + drawings
)

// scatterCellOrigin is cell k's top-left texel.
func scatterCellOrigin(k int) image.Point {
	return image.Pt((k%scatterAtlasCol)*scatterBlockW, (k/scatterAtlasCol)*scatterCellH)
}

// scatterAtlas draws the drawings and their mip levels, and for each
// drawing the narrowest top of a trapezoid that holds it (tops).
func scatterAtlas() (albedo, normal *image.RGBA, tops []float32) {
	rows := (blobCell + scatterAtlasCol) / scatterAtlasCol
	r := image.Rect(0, 0, scatterAtlasCol*scatterBlockW, rows*scatterCellH)
	albedo, normal = image.NewRGBA(r), image.NewRGBA(r)
	for k := 0; k <= blobCell; k++ {
		d := newDrawing()
		switch {
		case k < broadleafs:
			d.conifer(uint64(k), (k-conifers)%4)
		case k < rocks:
			d.broadleaf(uint64(k), (k-broadleafs)%4)
		case k < blobCell:
			d.rock(uint64(k))
		default:
			d.blob()
		}
		d.store(albedo, normal, scatterCellOrigin(k))
		tops = append(tops, d.top())
	}
	return albedo, normal, tops
}

// top is the half-width of the top edge, as a share of the cell's
// half-width, of the narrowest trapezoid with the cell's bottom edge that
// holds every texel of the drawing: a cone's quad drawn as that trapezoid
// leaves out the air beside its tip, which the shader would otherwise run
// for (a forest is many layers of such quads).
func (d *drawing) top() float32 {
	const w, h = scatterCellW, scatterCellH
	b := float64(w) / 2
	t := 0.0
	for y := range h - 1 {
		hw := 0.0
		for x := range w {
			if d.col[y*w+x][3] > 0.004 {
				hw = max(hw, math.Abs(float64(x)+0.5-b)+1.5) // a texel's bilinear reach
			}
		}
		// At row y the trapezoid's half-width is t + (b − t)·y/h.
		f := float64(y) / h
		t = max(t, (hw-b*f)/(1-f))
	}
	return float32(min(t/b, 1))
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

// The conifers' styles: how the drawings of a kind differ in build, so
// that a stand of them is not a row of one cone.
const (
	spruce = iota // a broad cone of drooping tiers down to the ground
	fir           // narrower, its tiers level, a rounded top
	pine          // a bare trunk, a loose crown of tufts in its upper part
	larch         // a slender, open cone, lighter green
)

// conifer draws a conifer of the given style: a trunk, and a crown of
// tiers (or tufts), ragged only at its edge: inside it is solid, as a
// crown is at 5–20 m.
func (d *drawing) conifer(seed uint64, style int) {
	const w, h = scatterCellW, scatterCellH
	fw, fh := float64(w), float64(h)
	top := 2.0
	base := fh * (0.90 + 0.04*hashUnit(seed, 1, 0)) // where the lowest branches end
	half := fw * (0.40 + 0.08*hashUnit(seed, 2, 0))
	crownTop := top
	tiers := 9 + int(5*hashUnit(seed, 3, 0))
	droop, power := 0.28, 0.95
	green := [3]float64{0.030 + 0.010*hashUnit(seed, 4, 0), 0.052 + 0.014*hashUnit(seed, 5, 0), 0.030 + 0.008*hashUnit(seed, 6, 0)}
	switch style {
	case fir:
		half *= 0.72
		droop, power = 0.12, 0.7
		tiers += 4
		green = [3]float64{green[0] * 0.85, green[1] * 0.95, green[2] * 1.15}
	case pine:
		base = fh * (0.55 + 0.1*hashUnit(seed, 7, 0))
		half *= 0.85
		tiers = 5 + int(3*hashUnit(seed, 3, 0))
		droop, power = 0.45, 0.55
		green = [3]float64{green[0] * 1.15, green[1] * 1.05, green[2] * 0.8}
	case larch:
		half *= 0.78
		droop, power = 0.35, 1.0
		green = [3]float64{green[0] * 1.5, green[1] * 1.4, green[2] * 0.9}
	}
	bark := [3]float64{0.07, 0.052, 0.036}
	if style == pine {
		bark = [3]float64{0.09, 0.05, 0.03} // a pine's upper trunk is reddish
	}
	// The trunk, behind the branches.
	for y := int(base - 0.25*fh); y < h; y++ {
		tw := 0.035 * fw * (1 + 0.5*float64(y)/fh)
		for x := 0; x < w; x++ {
			u := (float64(x) + 0.5 - fw/2) / tw
			if math.Abs(u) < 1 {
				d.put(x, y, bark, 1, [3]float64{u, 0, math.Sqrt(1 - u*u)}, 0.35)
			}
		}
	}
	// The crown's axis leans and bends a little.
	lean := fw * 0.04 * (hashUnit(seed, 8, 0) - 0.5)
	for y := 0; y < h; y++ {
		fy := float64(y) + 0.5
		if fy < crownTop || fy > base+6 {
			continue
		}
		v := (fy - crownTop) / (base - crownTop) // 0 at the tip, 1 at the base
		axis := fw/2 + lean*v
		// Each tier's branches droop: the tier widens towards its lower
		// edge, then steps in to the next.
		t := v * float64(tiers)
		frac := t - math.Floor(t)
		tierJitter := 0.85 + 0.3*hashUnit(seed, 10, int(t))
		profile := math.Pow(min(v, 1), power)
		if style == pine {
			// A pine's crown is widest in its middle, rounded above and below.
			profile = math.Sin(math.Pi*min(v, 1)) * (0.7 + 0.3*min(v, 1))
		}
		width := half * profile * (1 - droop + droop*frac) * tierJitter
		if fy > base {
			width *= 1 - (fy-base)/6
		}
		// Branch ends on either side of a tier are not level.
		sideJitter := 0.15 * (hashUnit(seed, 12, int(t)) - 0.5)
		for x := 0; x < w; x++ {
			fx := float64(x) + 0.5 - axis
			// Ragged edge: the tips of the branches.
			rag := 0.84 + 0.3*scatterNoise(seed+7, fx/3.0, fy/2.2)
			edge := width * rag * (1 + sideJitter*math.Copysign(1, fx))
			r := math.Abs(fx) / max(edge, 1e-6)
			if r >= 1.1 {
				continue
			}
			a := min(1, (1.1-r)/0.1)
			clump := scatterNoise(seed+11, fx/2.2, fy/2.2)
			// Gaps only at the edge, where the sky shows between branch
			// tips; inside, the crown is solid.
			if style == pine || style == larch {
				if clump < 0.3 && r > 0.85 {
					a *= clump / 0.3
				}
			} else if clump < 0.22 && r > 0.95 {
				a *= clump / 0.22
			}
			// The cone's normal: its side turns away, its surface tilts up.
			nx := max(min(fx/max(half*profile, 1), 1), -1)
			n := [3]float64{nx * 0.9, 0.45 + 0.35*(1-frac), math.Sqrt(max(1-nx*nx, 0.05))}
			n[0] += 0.5 * (scatterNoise(seed+13, fx/3, fy/3) - 0.5)
			n[1] += 0.6 * (clump - 0.5)
			// Inside the crown, under each tier and low down, less sky.
			sky := (0.45 + 0.55*min(r, 1)) * (0.6 + 0.4*(1-frac)) * (1 - 0.45*v*v)
			shade := 0.75 + 0.5*clump
			c := [3]float64{green[0] * shade, green[1] * shade, green[2] * shade}
			d.put(x, y, c, a, n, sky)
		}
	}
}

// The broadleaf trees' styles.
const (
	beech = iota // a broad dome on a short trunk, down to low branches
	oak          // wide and irregular, big lobes
	birch        // a narrow, tall oval, white bark, lighter leaves
	bushy        // a young tree: a crown from near the ground
)

// broadleaf draws a broadleaf tree of the given style: a trunk and a
// crown of many overlapping clumps over a solid core (the crown's shaded
// inside), lobed rather than a ball on a stick.
func (d *drawing) broadleaf(seed uint64, style int) {
	const w, h = scatterCellW, scatterCellH
	fw, fh := float64(w), float64(h)
	green := [3]float64{0.048 + 0.014*hashUnit(seed, 4, 0), 0.080 + 0.018*hashUnit(seed, 5, 0), 0.028 + 0.01*hashUnit(seed, 6, 0)}
	bark := [3]float64{0.065, 0.055, 0.045}
	cx := fw/2 + fw*0.06*(hashUnit(seed, 7, 0)-0.5)
	// The crown from its top (near the cell's top) down to its lowest
	// branches: most of the tree's height, so that little trunk shows.
	crownTop := fh * (0.01 + 0.02*hashUnit(seed, 1, 0))
	crownLow := fh * (0.76 + 0.06*hashUnit(seed, 9, 0))
	rx := fw * (0.44 + 0.04*hashUnit(seed, 8, 0))
	lobes, clumpR := 42, 0.10
	switch style {
	case oak:
		crownLow = fh * (0.70 + 0.06*hashUnit(seed, 9, 0))
		rx = fw * 0.48
		lobes, clumpR = 30, 0.13
		green = [3]float64{green[0] * 0.9, green[1] * 0.9, green[2] * 0.9}
	case birch:
		rx = fw * (0.27 + 0.04*hashUnit(seed, 8, 0))
		crownLow = fh * 0.80
		lobes, clumpR = 50, 0.07
		green = [3]float64{green[0] * 1.35, green[1] * 1.25, green[2] * 0.9}
		bark = [3]float64{0.45, 0.43, 0.40}
	case bushy:
		crownTop = fh * 0.12
		crownLow = fh * 0.93
		rx = fw * 0.47
		lobes, clumpR = 46, 0.11
	}
	cy := (crownTop + crownLow) / 2
	ry := (crownLow - crownTop) / 2
	// The trunk, up into the crown.
	for y := int(cy); y < h; y++ {
		fy := float64(y) + 0.5
		tw := 0.032 * fw * (1 + 0.8*fy/fh)
		for x := 0; x < w; x++ {
			u := (float64(x) + 0.5 - fw/2) / tw
			if math.Abs(u) < 1 {
				c := bark
				if style == birch && scatterNoise(seed+3, float64(x)/6, fy/1.5) < 0.3 {
					c = [3]float64{0.05, 0.045, 0.04} // the dark bands of a birch
				}
				d.put(x, y, c, 1, [3]float64{u, 0, math.Sqrt(1 - u*u)}, 0.4)
			}
		}
	}
	// The crown's outline: an ellipse whose radius wanders with the
	// angle (big lobes), flattened below like a real crown's underside.
	lobe := func(ang float64) float64 {
		return 0.82 + 0.3*scatterNoise(seed+41, ang*1.6+20, 0.5)
	}
	// The core: the crown's inside, in its own shade, solid.
	for y := int(crownTop); y <= int(crownLow)+1; y++ {
		for x := 0; x < w; x++ {
			u, v := (float64(x)+0.5-cx)/rx, (float64(y)+0.5-cy)/ry
			r := math.Hypot(u, v) / (0.76 * lobe(math.Atan2(v, u)))
			if r < 1 {
				c := [3]float64{green[0] * 0.55, green[1] * 0.55, green[2] * 0.55}
				d.put(x, y, c, min(1, (1-r)/0.1), [3]float64{u, -v, 0.6}, 0.2+0.2*(1-max(v, 0)))
			}
		}
	}
	// Clumps: balls inside the lobed outline, drawn from the back to the
	// front.
	type ball struct{ x, y, z, r float64 }
	var balls []ball
	n := lobes + int(12*hashUnit(seed, 2, 0))
	for i := range n {
		a := 2 * math.Pi * hashUnit(seed, 20, i)
		s := math.Sqrt(hashUnit(seed, 21, i))
		r := fw * (clumpR + 0.06*hashUnit(seed, 22, i))
		l := lobe(a)
		bx := cx + math.Cos(a)*s*(rx*l-r*0.8)
		by := cy + math.Sin(a)*s*(ry*l-r*0.8)
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
				a := min(1, (1.08-dist)/0.1)
				leaf := scatterNoise(seed+31, float64(x)/1.7, float64(y)/1.7)
				// Gaps between leaves only on the crown's rim.
				rim := math.Hypot((float64(x)-cx)/rx, (float64(y)-cy)/ry)
				if leaf < 0.3 && dist > 0.6 && rim > 0.92 {
					a *= leaf / 0.3
				}
				dd := min(dist, 1)
				nz := math.Sqrt(1 - dd*dd)
				// A ball's normal, tilted out from the crown's centre.
				nrm := [3]float64{fx/rr + 0.6*(b.x-cx)/rx, -fy/rr*0.9 - 0.5*(b.y-cy)/ry, nz + 0.2}
				nrm[0] += 0.6 * (leaf - 0.5)
				nrm[1] += 0.6 * (scatterNoise(seed+37, float64(x)/2.2, float64(y)/2.2) - 0.5)
				// Clumps deep in the crown (behind, low) see less sky.
				sky := (0.5 + 0.5*b.z) * (0.7 + 0.3*(1-dd)) * (1 - 0.3*max(fy/rr, 0)) * (1 - 0.45*max((b.y-cy)/ry, 0))
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
	grey := 0.15 + 0.08*hashUnit(seed, 1, 0)
	// Some rocks are low slabs, some taller blocks.
	tall := 1.1 + 0.8*hashUnit(seed, 3, 0)
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
			yy := (1 - v) * tall
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
				a := (1 - r2) * (1 - r2)
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
