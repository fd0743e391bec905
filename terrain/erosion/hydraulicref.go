package erosion

import "math"

// dropletReference is droplet written for clarity rather than speed: the
// oracle of HydraulicReference. It must do the same arithmetic in the same
// order, so that the two agree bit for bit; the explicit float64
// conversions stop the compiler fusing a multiply and an add (FMA), which
// would round differently on some machines.
func (g *grid) dropletReference(x, y float64, key uint64, hp *hydraulicParams, b *Budget) {
	if !hp.inside(g, x, y) {
		return
	}
	var dirX, dirY, sediment float64
	speed, water := 1.0, 1.0
	for step := 0; step < hp.lifetime; step++ {
		height, gx, gy := g.heightAndGradient(x, y)
		dirX = float64(dirX*hp.inertia) - float64(gx/hp.cell*(1-hp.inertia))
		dirY = float64(dirY*hp.inertia) - float64(gy/hp.cell*(1-hp.inertia))
		length := math.Sqrt(float64(dirX*dirX) + float64(dirY*dirY))
		if length == 0 {
			dirX, dirY = randomDirection(key, step)
		} else {
			dirX, dirY = dirX/length, dirY/length
		}
		nx, ny := x+dirX, y+dirY
		if !hp.inside(g, nx, ny) {
			b.CarriedOff += sediment // it flows off the map with its load
			return
		}
		newHeight, _, _ := g.heightAndGradient(nx, ny)
		dh := newHeight - height
		slope := -dh / hp.cell
		capacity := float64(float64(float64(max(slope, hp.minSlope)*speed)*water) * hp.capacity)
		ix, iy := int(x), int(y)
		cx, cy := int(x+0.5), int(y+0.5)
		switch {
		case (dh > 0 || sediment > capacity) && !depositable(g, ix, iy):
			// on the map's outermost ring, the base level: nothing changes
		case dh > 0: // uphill: fill the pit behind, as far as the load allows
			deposit := min(dh, sediment)
			sediment -= deposit
			b.Deposited += deposit
			g.depositAt(x, y, deposit)
		case sediment > capacity:
			deposit := float64((sediment - capacity) * hp.deposition)
			sediment -= deposit
			b.Deposited += deposit
			g.depositAt(x, y, deposit)
		case hp.erodible(g, cx, cy):
			erode := min(float64((capacity-sediment)*hp.erosion), -dh)
			sediment += erode
			b.Eroded += erode
			g.erodeAround(x, y, erode, hp.radius)
		}
		speed = math.Sqrt(max(0, float64(speed*speed)+float64(slope*hp.gravity)))
		water = float64(water * (1 - hp.evaporation))
		x, y = nx, ny
	}
	b.Suspended += sediment
}

// heightAndGradient interpolates the height and its gradient (metres per
// cell) bilinearly between the four samples around (x, y).
func (g *grid) heightAndGradient(x, y float64) (h, gx, gy float64) {
	ix, iy := int(x), int(y)
	u, v := x-float64(ix), y-float64(iy)
	h00, h10 := g.at(ix, iy), g.at(ix+1, iy)
	h01, h11 := g.at(ix, iy+1), g.at(ix+1, iy+1)
	top := h00 + float64((h10-h00)*u)
	bottom := h01 + float64((h11-h01)*u)
	h = top + float64((bottom-top)*v)
	gx = float64((h10-h00)*(1-v)) + float64((h11-h01)*v)
	gy = float64((h01-h00)*(1-u)) + float64((h11-h10)*u)
	return h, gx, gy
}

// depositAt adds d metres at (x, y), shared among the four samples around
// it by their bilinear weights.
func (g *grid) depositAt(x, y, d float64) {
	ix, iy := int(x), int(y)
	u, v := x-float64(ix), y-float64(iy)
	g.add(ix, iy, float64(float64(d*(1-u))*(1-v)))
	g.add(ix+1, iy, float64(float64(d*u)*(1-v)))
	g.add(ix, iy+1, float64(float64(d*(1-u))*v))
	g.add(ix+1, iy+1, float64(float64(d*u)*v))
}

// erodeAround takes e metres from the samples nearer than r cells to the
// sample nearest (x, y), each in proportion to r − distance (Beyer's brush),
// normalised over the samples that lie on the map.
func (g *grid) erodeAround(x, y, e float64, r int) {
	cx, cy := int(x+0.5), int(y+0.5)
	onMap := func(x, y int) bool { return x >= 0 && y >= 0 && x < g.w && y < g.h }
	var sum float64
	for dy := -(r - 1); dy <= r-1; dy++ {
		for dx := -(r - 1); dx <= r-1; dx++ {
			if onMap(cx+dx, cy+dy) {
				sum += brushRaw(r, dx, dy)
			}
		}
	}
	for dy := -(r - 1); dy <= r-1; dy++ {
		for dx := -(r - 1); dx <= r-1; dx++ {
			if w := brushRaw(r, dx, dy); w > 0 && onMap(cx+dx, cy+dy) {
				g.add(cx+dx, cy+dy, -float64(e*(w/sum)))
			}
		}
	}
}

func (g *grid) at(x, y int) float64     { return g.z[y*g.w+x] }
func (g *grid) add(x, y int, d float64) { g.z[y*g.w+x] += d }
