package game

import (
	"cmp"
	"image"
	"image/color"
	"math"
	"slices"
)

// The scatter's drawings, made at startup: eight conifers (spruce, fir,
// pine, larch), eight broadleaf trees (beech, oak, birch, a young bushy
// tree) and the soft shadow under a tree, each in a cell of
// the atlas with its mip levels beside it. Two images share the layout:
// the colour (display-referred, premultiplied by coverage) and the
// normal in the billboard's frame with the share of sky each point sees
// (shaders/scatter.kage).
//
// A tree is drawn the way a landscape painter blocks one in: a conifer as
// a narrow cone of drooping tiers, each in the shade of the one above,
// ragged at the edges, lit like a cone (its sides turn away from the
// eye); a broadleaf tree as a trunk forking into limbs and branches with
// clusters of leaves on their outer parts, each cluster lit like a ball
// so that the sun picks out their tops, and sky between them. Rocks are
// meshes (scatter_rock.go). The cells are large (256 × 512) so that a
// tree 10 m away is drawn from level 0 at about one texel a pixel.

// The atlas's layout, as shaders/scatter.kage's cellW, cellH, blockW and
// maxLevel: a drawing is scatterCellW × scatterCellH texels, its mip
// levels stacked to its right in a block scatterBlockW wide.
const (
	scatterCellW    = 256
	scatterCellH    = 512
	scatterBlockW   = 384
	scatterLevels   = 9 // level 8 is 1 × 2
	scatterAtlasCol = 4
)

// The drawings' cells.
const (
	drawings   = 8 // of each kind
	conifers   = 0
	broadleafs = conifers + drawings
	blobCell   = broadleafs + drawings
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
		case k < blobCell:
			d.broadleaf(uint64(k), (k-broadleafs)%4)
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
	droop, power := 0.45, 0.95
	green := [3]float64{0.030 + 0.010*hashUnit(seed, 4, 0), 0.052 + 0.014*hashUnit(seed, 5, 0), 0.030 + 0.008*hashUnit(seed, 6, 0)}
	switch style {
	case fir:
		half *= 0.72
		droop, power = 0.25, 0.7
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
		droop, power = 0.45, 1.0
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
			// Each tier reads as a layer: a dark band in the shade of the
			// tier above it, its branches lit below that.
			band := 0.4 + 0.6*smoothstep01(frac/0.3)
			// Inside the crown and low down, less sky.
			sky := (0.45 + 0.55*min(r, 1)) * band * (1 - 0.45*v*v)
			shade := (0.75 + 0.5*clump) * (0.6 + 0.4*band)
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

// branch is a limb of a drawn tree: a tapered segment.
type branch struct{ x0, y0, x1, y1, w0, w1 float64 }

// broadleaf draws a broadleaf tree of the given style as a painter would
// at 5–50 m: a trunk that forks into limbs and those into branches, and
// the foliage in clusters of leaves at the branches' outer parts, each
// cluster lit like a ball and broken into leaves at its edge, with sky
// between the clusters where the limbs show: not one ball of cotton.
func (d *drawing) broadleaf(seed uint64, style int) {
	const w, h = scatterCellW, scatterCellH
	fw, fh := float64(w), float64(h)
	green := [3]float64{0.048 + 0.014*hashUnit(seed, 4, 0), 0.080 + 0.018*hashUnit(seed, 5, 0), 0.028 + 0.01*hashUnit(seed, 6, 0)}
	bark := [3]float64{0.065, 0.055, 0.045}
	cx := fw/2 + fw*0.05*(hashUnit(seed, 7, 0)-0.5)
	crownTop := fh * (0.01 + 0.02*hashUnit(seed, 1, 0))
	crownLow := fh * (0.70 + 0.06*hashUnit(seed, 9, 0))
	rx := fw * (0.44 + 0.04*hashUnit(seed, 8, 0))
	limbs, clusterR, fill := 5, 0.075, 1.0
	switch style {
	case oak:
		crownLow = fh * (0.66 + 0.06*hashUnit(seed, 9, 0))
		rx = fw * 0.48
		limbs, clusterR = 6, 0.085
		green = [3]float64{green[0] * 0.9, green[1] * 0.9, green[2] * 0.9}
	case birch:
		rx = fw * (0.28 + 0.04*hashUnit(seed, 8, 0))
		crownLow = fh * 0.78
		limbs, clusterR, fill = 4, 0.06, 0.85
		green = [3]float64{green[0] * 1.35, green[1] * 1.25, green[2] * 0.9}
		bark = [3]float64{0.45, 0.43, 0.40}
	case bushy:
		crownTop = fh * 0.10
		crownLow = fh * 0.90
		rx = fw * 0.47
		limbs, clusterR, fill = 6, 0.08, 1.15
	}
	cy := (crownTop + crownLow) / 2
	ry := (crownLow - crownTop) / 2
	// The crown's outline wanders with the angle: a few big lobes.
	lobe := func(ang float64) float64 {
		return 0.85 + 0.25*scatterNoise(seed+41, ang*1.6+20, 0.5)
	}
	// The skeleton: the trunk up to the fork low in the crown, limbs
	// fanning out and up from it towards the outline, each with two or
	// three branches off its outer half.
	forkY := cy + 0.55*ry
	trunkW := 0.030 * fw
	if style == bushy {
		forkY = crownLow - 0.05*fh
	}
	bs := []branch{{cx, fh, cx, forkY, trunkW * 1.25, trunkW}}
	for i := range limbs {
		// From −70° to +70° off the vertical, jittered.
		t := (float64(i)+0.5)/float64(limbs)*2 - 1
		ang := t*1.2 + 0.25*(hashUnit(seed, 50, i)-0.5)
		dx, dy := math.Sin(ang), -math.Cos(ang)
		sy := forkY - 0.15*ry*hashUnit(seed, 51, i)
		// To about four fifths of the way to the outline in that direction.
		reach := 0.0
		for {
			u, v := dx*(reach+2)/rx, (sy+dy*(reach+2)-cy)/ry
			if math.Hypot(u, v) > lobe(math.Atan2(v, u)) {
				break
			}
			reach += 2
		}
		reach *= 0.8
		x1, y1 := cx+dx*reach, sy+dy*reach
		lw := trunkW * (0.55 + 0.15*hashUnit(seed, 52, i))
		bs = append(bs, branch{cx, sy, x1, y1, lw, lw * 0.35})
		for j := range 2 + int(2*hashUnit(seed, 53, i)) {
			f := 0.45 + 0.4*hashUnit(seed, 54, i*8+j)
			bx, by := cx+(x1-cx)*f, sy+(y1-sy)*f
			side := 1.0
			if j%2 == 1 {
				side = -1
			}
			ba := ang + side*(0.5+0.4*hashUnit(seed, 55, i*8+j))
			bl := reach * (0.3 + 0.25*hashUnit(seed, 56, i*8+j))
			ex, ey := bx+math.Sin(ba)*bl, by-math.Cos(ba)*bl
			// A twig out of the leaves would be a line in the sky.
			u, v := (ex-cx)/rx, (ey-cy)/ry
			if l := math.Hypot(u, v) / (0.9 * lobe(math.Atan2(v, u))); l > 1 {
				ex, ey = cx+(ex-cx)/l, cy+(ey-cy)/l
			}
			bs = append(bs, branch{bx, by, ex, ey, lw * 0.45, lw * 0.15})
		}
	}
	for _, b := range bs {
		d.limb(b, bark, seed, style == birch)
	}
	// The clusters: along each branch's outer part and at its tip, and
	// more filling the crown's outline; those deep in the crown (its back)
	// first, so the outer ones overlap them.
	type cluster struct{ x, y, z, r float64 }
	var cs []cluster
	add := func(x, y float64, k int) {
		r := fw * clusterR * (0.75 + 0.5*hashUnit(seed, 60, k))
		u, v := (x-cx)/rx, (y-cy)/ry
		if l := math.Hypot(u, v) / lobe(math.Atan2(v, u)); l > 1 {
			x, y = cx+(x-cx)/l, cy+(y-cy)/l // inside the outline
		}
		cs = append(cs, cluster{x, y, hashUnit(seed, 61, k), r})
	}
	k := 0
	for _, b := range bs[1:] {
		for f := 0.5; f <= 1.01; f += 0.25 {
			k++
			add(b.x0+(b.x1-b.x0)*f+fw*0.04*(hashUnit(seed, 62, k)-0.5), b.y0+(b.y1-b.y0)*f+fw*0.04*(hashUnit(seed, 63, k)-0.5), k)
		}
	}
	n := int(fill * 50)
	for i := range n {
		k++
		a := 2 * math.Pi * hashUnit(seed, 64, i)
		s := math.Sqrt(hashUnit(seed, 65, i)) // even over the crown's area
		l := lobe(a)
		add(cx+math.Cos(a)*s*rx*l*0.85, cy+math.Sin(a)*s*ry*l*0.85, k)
	}
	slices.SortFunc(cs, func(a, b cluster) int { return cmp.Compare(a.z, b.z) })
	for ci, c := range cs {
		// A cluster low in the crown or deep in it is in the crown's shade.
		depth := 0.55 + 0.45*c.z
		for y := int(c.y - c.r - 2); y <= int(c.y+c.r+2); y++ {
			for x := int(c.x - c.r - 2); x <= int(c.x+c.r+2); x++ {
				fx, fy := float64(x)+0.5-c.x, float64(y)+0.5-c.y
				dist := math.Hypot(fx, fy) / c.r
				if dist >= 1.15 {
					continue
				}
				// Leaves: fine noise, a few texels a leaf; towards the
				// cluster's edge fewer of them stay, so the edge is
				// leaves against the sky, not a round line.
				leaf := scatterNoise(seed+31+uint64(ci%3), float64(x)/2.3, float64(y)/2.3)
				need := 0.12 + 0.75*smoothstep01((dist-0.45)/0.7)
				if leaf < need {
					continue
				}
				a := min(1, (leaf-need)/0.05)
				dd := min(dist, 1)
				nz := math.Sqrt(1 - dd*dd)
				nrm := [3]float64{fx/c.r + 0.6*(c.x-cx)/rx, -fy/c.r*0.9 - 0.5*(c.y-cy)/ry, nz + 0.2}
				nrm[0] += 0.8 * (leaf - 0.5)
				nrm[1] += 0.8 * (scatterNoise(seed+37, float64(x)/2.1, float64(y)/2.1) - 0.5)
				sky := depth * (0.7 + 0.3*(1-dd)) * (1 - 0.35*max(fy/c.r, 0)) * (1 - 0.45*max((c.y-cy)/ry, 0))
				shade := (0.7 + 0.6*leaf) * (0.75 + 0.25*depth)
				col := [3]float64{green[0] * shade, green[1] * shade, green[2] * shade}
				d.put(x, y, col, a, nrm, sky)
			}
		}
	}
}

// limb draws branch b in bark colour c, rounded across (its normal turns
// with the distance from its axis); a birch's bark has dark bands.
func (d *drawing) limb(b branch, c [3]float64, seed uint64, birch bool) {
	const w, h = scatterCellW, scatterCellH
	lx, ly := b.x1-b.x0, b.y1-b.y0
	l2 := lx*lx + ly*ly
	if l2 < 1e-9 {
		return
	}
	ww := max(b.w0, b.w1)
	for y := int(min(b.y0, b.y1) - ww - 1); y <= int(max(b.y0, b.y1)+ww+1); y++ {
		for x := int(min(b.x0, b.x1) - ww - 1); x <= int(max(b.x0, b.x1)+ww+1); x++ {
			if x < 0 || y < 0 || x >= w || y >= h {
				continue
			}
			px, py := float64(x)+0.5-b.x0, float64(y)+0.5-b.y0
			t := min(max((px*lx+py*ly)/l2, 0), 1)
			ex, ey := px-t*lx, py-t*ly
			hw := b.w0 + (b.w1-b.w0)*t
			// The signed distance across the axis, in half-widths.
			u := (ex*ly - ey*lx) / math.Sqrt(l2) / max(hw, 0.5)
			if math.Abs(u) >= 1 || math.Hypot(ex, ey) > hw+0.5 {
				continue
			}
			col := c
			if birch && scatterNoise(seed+3, float64(x)/6, float64(y)/1.5) < 0.3 {
				col = [3]float64{0.05, 0.045, 0.04} // the dark bands of a birch
			}
			a := min(1, (1-math.Abs(u))*max(hw, 0.5))
			d.put(x, y, col, a, [3]float64{u, 0.1, math.Sqrt(1 - u*u)}, 0.35)
		}
	}
}

func smoothstep01(t float64) float64 {
	t = min(max(t, 0), 1)
	return t * t * (3 - 2*t)
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
