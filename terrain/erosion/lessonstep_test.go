package erosion

import (
	"context"
	"math"
	"slices"
	"testing"

	"cordillera/terrain"
)

// Running every droplet of the stepper is the hydraulic stage, bit for
// bit: the same droplets, through the stage's own step, in an order the
// stage's result does not depend on. Maps of one tile and of many.
func TestDropletStepperIsTheStage(t *testing.T) {
	for _, c := range []struct {
		size int
		over []string
	}{{65, nil}, {129, []string{"hydraulic-lifetime", "10", "hydraulic-droplets", "1"}}} {
		m, p := testMap(t, c.size, "hydraulic", c.over...)
		want := clone(m)
		b, err := Hydraulic(context.Background(), want, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewDropletStepper(m, p)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			if _, ok := s.Next(); !ok {
				break
			}
			n++
		}
		if n != s.Total() || n == 0 {
			t.Fatalf("%d²: ran %d droplets of %d", c.size, n, s.Total())
		}
		got := clone(m)
		s.Store(got)
		if i := sameBits(got.Samples, want.Samples); i >= 0 {
			t.Errorf("%d²: sample %d is %g after the stepper's %d droplets; the stage gives %g", c.size, i, got.Samples[i], n, want.Samples[i])
		}
		if sb := s.Budget(); math.Abs(sb.Eroded-b.Eroded) > 1e-9*b.Eroded || math.Abs(sb.CarriedOff-b.CarriedOff) > 1e-9*b.Eroded {
			t.Errorf("%d²: the stepper's budget %v; the stage's %v", c.size, sb, b)
		}
	}
}

// refState is a droplet's state in Beyer's rules.
type refState struct{ x, y, dx, dy, speed, water, sediment float64 }

// refStep is one step of Beyer's droplet written out from the rules alone,
// on its own copy of the heights z: it returns the capacity and the state
// after the step, and false where the droplet leaves the map.
func refStep(z []float64, w, h int, cell float64, p terrain.Params, st refState) (float64, refState, bool) {
	at := func(x, y float64) (hgt, gx, gy float64) {
		ix, iy := int(x), int(y)
		u, v := x-float64(ix), y-float64(iy)
		a, b, c, d := z[iy*w+ix], z[iy*w+ix+1], z[(iy+1)*w+ix], z[(iy+1)*w+ix+1]
		hgt = a*(1-u)*(1-v) + b*u*(1-v) + c*(1-u)*v + d*u*v
		gx = (b-a)*(1-v) + (d-c)*v
		gy = (c-a)*(1-u) + (d-b)*u
		return hgt, gx, gy
	}
	x, y, sed := st.x, st.y, st.sediment
	r := p.HydraulicRadius
	hgt, gx, gy := at(x, y)
	dx := st.dx*p.HydraulicInertia - gx/cell*(1-p.HydraulicInertia)
	dy := st.dy*p.HydraulicInertia - gy/cell*(1-p.HydraulicInertia)
	l := math.Hypot(dx, dy)
	dx, dy = dx/l, dy/l
	nx, ny := x+dx, y+dy
	if nx < 0 || ny < 0 || nx >= float64(w-1) || ny >= float64(h-1) {
		return 0, st, false
	}
	nh, _, _ := at(nx, ny)
	dh := nh - hgt
	c := max(-dh/cell, p.HydraulicMinSlope) * st.speed * st.water * p.HydraulicCapacity * cell
	ix, iy := int(x), int(y)
	inner := ix >= 1 && iy >= 1 && ix+2 < w && iy+2 < h
	deposit := func(a float64) {
		u, v := x-float64(ix), y-float64(iy)
		z[iy*w+ix] += a * (1 - u) * (1 - v)
		z[iy*w+ix+1] += a * u * (1 - v)
		z[(iy+1)*w+ix] += a * (1 - u) * v
		z[(iy+1)*w+ix+1] += a * u * v
		sed -= a
	}
	cx, cy := int(x+0.5), int(y+0.5)
	switch {
	case (dh > 0 || sed > c) && !inner:
	case dh > 0:
		deposit(min(dh, sed))
	case sed > c:
		deposit((sed - c) * p.HydraulicDeposition)
	case cx >= r && cy >= r && cx+r < w && cy+r < h:
		e := min((c-sed)*p.HydraulicErosion, -dh)
		var sum float64
		for j := -r; j <= r; j++ {
			for i := -r; i <= r; i++ {
				sum += max(0, float64(r)-math.Hypot(float64(i), float64(j)))
			}
		}
		for j := -r; j <= r; j++ {
			for i := -r; i <= r; i++ {
				z[(cy+j)*w+cx+i] -= e * max(0, float64(r)-math.Hypot(float64(i), float64(j))) / sum
			}
		}
		sed += e
	}
	speed := math.Sqrt(max(0, st.speed*st.speed-dh/cell*p.HydraulicGravity))
	return c, refState{nx, ny, dx, dy, speed, st.water * (1 - p.HydraulicEvaporation), sed}, true
}

// A droplet's state as the stepper shows it (position, speed, water,
// sediment, capacity at every step, and the map it leaves) is what
// Beyer's rules, written out independently, give from the state shown at
// the step before: each step checked on its own, so that rounding, which
// a droplet's path amplifies, does not pile up.
func TestDropletStateMatchesReference(t *testing.T) {
	m, p := testMap(t, 129, "hydraulic")
	s, err := NewDropletStepper(m, p)
	if err != nil {
		t.Fatal(err)
	}
	close := func(a, b, scale float64) bool { return math.Abs(a-b) <= 1e-9*scale }
	checked, eroding, depositing := 0, 0, 0
	for range 300 {
		z := slices.Clone(s.g.z)
		d, _ := s.Next()
		if len(d.Steps) == 0 {
			continue
		}
		if st := d.Steps[0]; st.Speed != 1 || st.Water != 1 || st.Sediment != 0 {
			t.Fatalf("droplet %d starts with %+v; want speed 1, water 1, no sediment", d.Number, st)
		}
		for k, st := range d.Steps {
			in := refState{x: st.X, y: st.Y, speed: st.Speed, water: st.Water, sediment: st.Sediment}
			if k > 0 {
				in.dx, in.dy = d.Steps[k-1].DirX, d.Steps[k-1].DirY
			}
			c, out, ok := refStep(z, s.g.w, s.g.h, s.g.cell, p, in)
			next := d.End
			if k+1 < len(d.Steps) {
				next = d.Steps[k+1]
			}
			if !ok {
				if k != len(d.Steps)-1 || d.Fate != "left the map" {
					t.Fatalf("droplet %d leaves the map at step %d in the reference; the stepper: %d steps, %s", d.Number, k, len(d.Steps), d.Fate)
				}
				break
			}
			if !close(st.Capacity, c, 1) || !close(next.X, out.x, 1) || !close(next.Y, out.y, 1) || !close(next.Speed, out.speed, out.speed) ||
				!close(next.Water, out.water, 1) || !close(next.Sediment, out.sediment, 1) {
				t.Fatalf("droplet %d step %d: capacity %g then %+v; the reference gives %g then %+v", d.Number, k, st.Capacity, next, c, out)
			}
			if st.Eroded > 0 {
				eroding++
			}
			if st.Deposited > 0 {
				depositing++
			}
		}
		for i := range z {
			if !close(z[i], s.g.z[i], 1) {
				t.Fatalf("droplet %d: the map at %d is %g; the reference leaves %g", d.Number, i, s.g.z[i], z[i])
			}
		}
		checked++
	}
	if checked < 200 || eroding < 100 || depositing < 100 {
		t.Errorf("only %d droplets checked, %d eroding and %d depositing steps", checked, eroding, depositing)
	}
}

// Back takes the last droplet back bit for bit, within the journal and
// past it (a replay).
func TestDropletBackRestoresBits(t *testing.T) {
	m, p := testMap(t, 129, "hydraulic")
	s, err := NewDropletStepper(m, p)
	if err != nil {
		t.Fatal(err)
	}
	snap := map[int][]float64{}
	budgets := map[int]Budget{}
	keep := func() { snap[s.Done()] = slices.Clone(s.g.z); budgets[s.Done()] = s.b }
	keep()
	for range 700 {
		s.Next()
		if n := s.Done(); n == 40 || n == 41 || n == 699 || n == 700 {
			keep()
		}
	}
	same := func(when string, n int) {
		t.Helper()
		if s.Done() != n {
			t.Fatalf("%s: %d droplets done; want %d", when, s.Done(), n)
		}
		for i, v := range snap[n] {
			if math.Float64bits(v) != math.Float64bits(s.g.z[i]) {
				t.Fatalf("%s: height %d is %v; before it was %v", when, i, s.g.z[i], v)
			}
		}
		if s.b != budgets[n] {
			t.Fatalf("%s: budget %v; want %v", when, s.b, budgets[n])
		}
	}
	s.Back()
	same("one back from 700", 699)
	for s.Done() > 41 {
		s.Back()
	}
	same("back to 41, past the journal", 41)
	s.Back()
	same("back to 40", 40)
	for s.Back() {
	}
	same("back to the start", 0)
}

// The thermal stepper's sweeps are the stage's, bit for bit, and the
// exchanges it shows for a sample add up to the sample's change in the
// sweep, bit for bit: each neighbour past the talus drop (√2 times longer
// on a diagonal) gets k times the excess.
func TestThermalStepperIsTheStage(t *testing.T) {
	m, p := testMap(t, 65, "thermal", "thermal-iterations", "7")
	want := clone(m)
	if _, err := Thermal(context.Background(), want, p, Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := NewThermalStepper(m, p)
	if err != nil {
		t.Fatal(err)
	}
	ax, dg, k := s.Talus()
	if tan := math.Tan(p.ThermalTalus * math.Pi / 180); math.Abs(ax-tan*m.CellSize) > 1e-12 || math.Abs(dg-ax*math.Sqrt2) > 1e-12 || k != p.ThermalRate/16 {
		t.Errorf("talus drops %g, %g and k %g; want tan θ·cell, √2 times it and rate/16", ax, dg, k)
	}
	for sweep := range 7 {
		x, y := s.Steepest()
		ex, change := s.Exchanges(x, y)
		if len(ex) != 8 {
			t.Fatalf("inner sample (%d, %d) has %d exchanges", x, y, len(ex))
		}
		sent := 0
		for _, e := range ex {
			talus := ax
			if e.DX != 0 && e.DY != 0 {
				talus = dg
			}
			var f float64
			switch {
			case e.Drop > talus:
				f = k * (e.Drop - talus)
				sent++
			case -e.Drop > talus:
				f = -k * (-e.Drop - talus)
			}
			if e.Talus != talus || e.Diagonal != (e.DX != 0 && e.DY != 0) || math.Abs(e.Flux-f) > 1e-15*max(math.Abs(f), 1) ||
				e.Drop != s.Height(x, y)-s.Height(x+e.DX, y+e.DY) {
				t.Errorf("sweep %d, (%d, %d) to %+d,%+d: %+v; want drop %g, talus %g, flux %g", sweep, x, y, e.DX, e.DY, e, s.Height(x, y)-s.Height(x+e.DX, y+e.DY), talus, f)
			}
		}
		if sent == 0 {
			t.Errorf("sweep %d: the steepest sample (%d, %d) sends nothing", sweep, x, y)
		}
		old := s.Height(x, y)
		s.Sweep()
		if got := s.Height(x, y); got != old+change {
			t.Errorf("sweep %d: (%d, %d) went from %v to %v; its exchanges add to %v", sweep, x, y, old, got, change)
		}
	}
	got := clone(m)
	s.Store(got)
	if i := sameBits(got.Samples, want.Samples); i >= 0 {
		t.Errorf("sample %d is %g after 7 sweeps of the stepper; the stage gives %g", i, got.Samples[i], want.Samples[i])
	}
}

// The fluvial stepper's steps are the stage's, bit for bit; the drainage
// areas it shows count every sample upstream, and each sample's new
// height is the implicit stream-power update from its receiver's.
func TestFluvialStepperIsTheStage(t *testing.T) {
	m, p := testMap(t, 65, "fluvial", "fluvial-steps", "3")
	want := clone(m)
	if _, err := Fluvial(context.Background(), want, p, Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := NewFluvialStepper(m, p)
	if err != nil {
		t.Fatal(err)
	}
	w, n := m.Width, len(m.Samples)
	for step := 0; step <= 3; step++ {
		if step > 0 && !s.Step() {
			t.Fatalf("step %d refused (steady %v)", step, s.Steady())
		}
		rec, area := s.Receivers(), s.Areas()
		count := make([]int32, n)
		for i := range n {
			for j, hops := i, 0; ; hops++ {
				count[j]++
				if int(rec[j]) == j {
					break
				}
				if hops > n {
					t.Fatalf("step %d: the receivers from %d loop", step, i)
				}
				j = int(rec[j])
			}
		}
		if !slices.Equal(count, area) {
			t.Errorf("step %d: the areas shown are not the samples upstream", step)
		}
		inc := s.Incision()
		checked := 0
		for i := range n {
			v := s.Sample(i)
			if step == 0 {
				if v.After != v.Before || inc[i] != 0 {
					t.Fatalf("before the first step sample %d shows a change", i)
				}
				continue
			}
			a := max(float64(v.Area), p.FluvialHead) * m.CellSize * m.CellSize
			f := p.FluvialK * p.FluvialDt * math.Pow(a, p.FluvialM) / v.Distance
			ref := (v.Before + v.Uplift + f*v.Receiver0) / (1 + f)
			if math.Abs(ref-v.After) > 1e-9*max(math.Abs(ref), 1) || math.Abs(inc[i]-(v.Before+v.Uplift-v.After)) > 1e-9 {
				t.Fatalf("step %d sample %d (%d, %d): %+v; the update gives %g", step, i, i%w, i/w, v, ref)
			}
			checked++
		}
		if step > 0 && checked != n {
			t.Errorf("step %d: %d samples checked", step, checked)
		}
	}
	got := clone(m)
	s.Finish(got)
	if i := sameBits(got.Samples, want.Samples); i >= 0 {
		t.Errorf("sample %d is %g after the stepper's 3 steps; the stage gives %g", i, got.Samples[i], want.Samples[i])
	}
}
