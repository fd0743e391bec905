package terrain

import (
	"context"
	"math"
	"regexp"
	"strings"
	"testing"
)

// thesisListings are the statements of thesis listings 6.1–6.4 as the
// thesis prints them (C++), declarations, comments and the return left
// out, in order.
var thesisListings = map[Algorithm][]string{
	FBm: { // listing 6.1, Terrain::fBm
		"value = 0.0f;",
		"for(int i = 0; i < bands; i++){",
		"n = (noise->nfunction)(p);",
		"amp = pow(lacunarity, -i*H);",
		"value += amp*n;",
		"p *= lacunarity;",
	},
	Hetero: { // listing 6.2, Terrain::HeteroMultifractal
		"n = (noise->nfunction)(p);",
		"value = (n+offset);",
		"p *= lacunarity;",
		"for(int i = 1; i < bands; i++){",
		"n = (noise->nfunction)(p);",
		"amp = pow(lacunarity, -i*H);",
		"value += value*amp*(n+offset);",
		"p *= lacunarity;",
	},
	Hybrid: { // listing 6.3, Terrain::HybridMultifractal
		"n = (noise->nfunction)(p);",
		"w = value = (n+offset);",
		"p *= lacunarity;",
		"for(int i = 1; i < bands; i++){",
		"if(w > 1.0) w = 1.0;",
		"n = (noise->nfunction)(p);",
		"amp = pow(lacunarity, -i*H);",
		"aux = amp*(n+offset);",
		"value += w*aux;",
		"w *= aux;",
		"p *= lacunarity;",
	},
	Quilez: { // listing 6.4, Terrain::QuilezTurbulence
		"value = 0.0f;",
		"d = glm::vec2(0.0f);",
		"for(int i = 0; i < bands; i++){",
		"n = (noise->*nfunction)(p);",
		"d += glm::vec2(n.y, n.z);",
		"amp = pow(lacunarity, -i*H);",
		"value += amp*n.x/(1.0f+glm::dot(d, d));",
		"p *= lacunarity;",
	},
}

// listingNames are the listings' function names, which Source must give.
var listingNames = map[Algorithm]string{FBm: "listing 6.1 (fBm)", Hetero: "listing 6.2 (HeteroMultifractal)",
	Hybrid: "listing 6.3 (HybridMultifractal)", Quilez: "listing 6.4 (QuilezTurbulence)"}

var forLoop = regexp.MustCompile(`^for\(inti=(\d);i<bands;i\+\+\)\{$`)

// fromC writes a listing's C++ statement in the formulas' notation,
// spaces removed: · for *, λ^(x) for pow(lacunarity, x), N(p) for the
// basis call, "for i = a to bands-1:" for the loop.
func fromC(stmt string) string {
	s := strings.ReplaceAll(stmt, " ", "")
	if m := forLoop.FindStringSubmatch(s); m != nil {
		return "fori=" + m[1] + "tobands-1:"
	}
	for _, r := range [][2]string{
		{"(noise->nfunction)(p)", "N(p)"}, {"(noise->*nfunction)(p)", "N(p)"},
		{"pow(lacunarity,", "λ^("}, {"lacunarity", "λ"},
		{"glm::vec2(0.0f)", "(0,0)"}, {"glm::vec2(n.y,n.z)", "(n.y,n.z)"}, {"glm::dot(d,d)", "d·d"},
		{"1.0f", "1"}, {"0.0f", "0"}, {"1.0", "1"},
		{"*=", "\x00"}, {"*", "·"}, {"\x00", "*="}, {";", ""},
	} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	return s
}

// Each of the thesis's four generators is shown as its listing: statement
// for statement, in order, nothing left out (the hybrid's start w = value
// and its clamp, the heterogeneous start value = n + offset), under the
// listing's number and function name.
func TestOctaveFormulasAreTheListings(t *testing.T) {
	for alg, listing := range thesisListings {
		f, ok := OctaveFormulas[alg]
		if !ok {
			t.Errorf("%s: no formula", alg)
			continue
		}
		if !strings.Contains(f.Source, listingNames[alg]) {
			t.Errorf("%s: source %q does not name %q", alg, f.Source, listingNames[alg])
		}
		var shown []string
		for _, l := range f.Lines {
			shown = append(shown, strings.ReplaceAll(l, " ", ""))
		}
		for i, stmt := range listing {
			want := fromC(stmt)
			if i >= len(shown) {
				t.Errorf("%s: line %d missing, want %q (listing: %s)", alg, i+1, want, stmt)
				continue
			}
			if shown[i] != want {
				t.Errorf("%s: line %d is %q, the listing's %q reads %q", alg, i+1, f.Lines[i], stmt, want)
			}
		}
		if len(shown) > len(listing) {
			t.Errorf("%s: %d lines, the listing has %d statements", alg, len(shown), len(listing))
		}
	}
	for _, alg := range Algorithms {
		if f, ok := OctaveFormulas[alg]; alg.IsSubdivision() == ok {
			t.Errorf("%s: formula %v; want one for every fractal generator and none for subdivision", alg, f)
		}
	}
	for alg, f := range OctaveFormulas {
		for _, l := range append([]string{f.Source, f.Note}, f.Lines...) {
			if n := len([]rune(l)); n > 50 {
				t.Errorf("%s: %q is %d characters, wider than the Teach panel's 50", alg, l, n)
			}
		}
	}
}

// basisAt is octave i's basis noise at (x, y) and its gradient.
type basisAt func(i int, x, y float64) (n, dx, dy float64)

// formulaReference evaluates a formula of OctaveFormulas line by line, as
// written there (and, for the thesis's four, in its listing), from the
// point (x, y) with the generator's bases: the oracle for the formulas.
func formulaReference(alg Algorithm, N basisAt, x, y, lacunarity, H, offset float64, bands int) float64 {
	var value float64
	switch alg {
	case FBm: // listing 6.1
		value = 0
		for i := 0; i < bands; i++ {
			n, _, _ := N(i, x, y)
			amp := math.Pow(lacunarity, -float64(i)*H)
			value += amp * n
			x, y = x*lacunarity, y*lacunarity
		}
	case Hetero: // listing 6.2
		n, _, _ := N(0, x, y)
		value = n + offset
		x, y = x*lacunarity, y*lacunarity
		for i := 1; i < bands; i++ {
			n, _, _ := N(i, x, y)
			amp := math.Pow(lacunarity, -float64(i)*H)
			value += value * amp * (n + offset)
			x, y = x*lacunarity, y*lacunarity
		}
	case Hybrid: // listing 6.3
		n, _, _ := N(0, x, y)
		value = n + offset
		w := value
		x, y = x*lacunarity, y*lacunarity
		for i := 1; i < bands; i++ {
			if w > 1 {
				w = 1
			}
			n, _, _ := N(i, x, y)
			amp := math.Pow(lacunarity, -float64(i)*H)
			aux := amp * (n + offset)
			value += w * aux
			w *= aux
			x, y = x*lacunarity, y*lacunarity
		}
	case Quilez: // listing 6.4
		var dx, dy float64
		for i := 0; i < bands; i++ {
			n, ny, nz := N(i, x, y)
			dx, dy = dx+ny, dy+nz
			amp := math.Pow(lacunarity, -float64(i)*H)
			value += amp * n / (1 + (dx*dx + dy*dy))
			x, y = x*lacunarity, y*lacunarity
		}
	case Ridged:
		n, _, _ := N(0, x, y)
		signal := (1 - math.Abs(n)) * (1 - math.Abs(n))
		value = signal
		x, y = x*lacunarity, y*lacunarity
		for i := 1; i < bands; i++ {
			weight := math.Min(math.Max(2*signal, 0), 1)
			n, _, _ := N(i, x, y)
			signal = (1 - math.Abs(n)) * (1 - math.Abs(n)) * weight
			value += signal * math.Pow(lacunarity, -float64(i)*H)
			x, y = x*lacunarity, y*lacunarity
		}
	case Billow:
		for i := 0; i < bands; i++ {
			n, _, _ := N(i, x, y)
			value += math.Pow(lacunarity, -float64(i)*H) * math.Abs(n)
			x, y = x*lacunarity, y*lacunarity
		}
	case Swiss:
		amp := 1.0
		var sx, sy float64
		for i := 0; i < bands; i++ {
			f := math.Pow(lacunarity, float64(i))
			n, dx, dy := N(i, f*(x+0.15*sx), f*(y+0.15*sy))
			value += amp * (1 - math.Abs(n))
			sx, sy = sx+amp*-n*dx, sy+amp*-n*dy
			amp *= math.Pow(lacunarity, -H) * math.Min(math.Max(value, 0), 1)
		}
	default:
		panic("no reference for " + alg)
	}
	return value
}

// Every formula the Teach panel shows is what the generator computes: the
// formula evaluated as written, with the generator's own bases, agrees with
// the generator's point evaluation to 1e-9 and with its map (float32) to
// float32 rounding, at several points and parameters, distortion included.
func TestOctaveFormulasAgreeWithGenerator(t *testing.T) {
	cases := []struct {
		lacunarity, H, offset, distortion float64
		bands                             int
	}{
		{2, 1, 0, 0, 8}, {2.1, 0.7, 0.4, 0, 5}, {2, 0.25, 0.7, 0, 6}, {1.8, 1.3, 0.3, 40, 4}, {3, 0.5, 1, 0, 1},
	}
	points := [][2]int{{0, 0}, {13, 21}, {40, 7}, {64, 64}, {29, 50}}
	for alg := range OctaveFormulas {
		for _, c := range cases {
			p := DefaultParams()
			p.Algorithm, p.Size, p.Octaves = alg, 65, c.bands
			p.Lacunarity, p.Hurst, p.Offset, p.Distortion = c.lacunarity, c.H, c.offset, c.distortion
			s, err := newSynthesis(p)
			if err != nil {
				t.Fatalf("%s %+v: %v", alg, c, err)
			}
			m, err := fractalRaw(context.Background(), p, 1, nil, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			N := func(i int, x, y float64) (float64, float64, float64) { return s.octaves[i].Eval(x, y) }
			for _, pt := range points {
				x, y := s.point(pt[0], pt[1])
				want := formulaReference(alg, N, x, y, c.lacunarity, c.H, c.offset, c.bands)
				if got := s.sampleReference(pt[0], pt[1]); math.Abs(got-want) > 1e-9 {
					t.Errorf("%s %+v at %v: generator %.12g, formula %.12g", alg, c, pt, got, want)
				}
				if got := float64(m.At(pt[0], pt[1])); math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
					t.Errorf("%s %+v at %v: map %.9g, formula %.9g", alg, c, pt, got, want)
				}
			}
		}
	}
}

// An octave's wavelength is the lattice period the generator uses, and at
// 257² with the default feature size the eighth octave (i = 7) falls under
// two samples, the seventh not.
func TestOctaveWavelength(t *testing.T) {
	p := DefaultParams()
	p.Size, p.Algorithm = 257, FBm
	for _, tileable := range []bool{false, true} {
		p.Tileable = tileable
		s, err := newSynthesis(p)
		if err != nil {
			t.Fatal(err)
		}
		for i := range p.Octaves {
			got, err := OctaveWavelength(p, i)
			if err != nil {
				t.Fatal(err)
			}
			if want := 1 / (s.freq * math.Pow(p.Lacunarity, float64(i))); math.Abs(got-want) > 1e-9*want {
				t.Errorf("tileable %v, octave i = %d: wavelength %g samples, the generator's lattice gives %g", tileable, i, got, want)
			}
		}
	}
	p.Tileable = false
	w6, _ := OctaveWavelength(p, 6)
	w7, _ := OctaveWavelength(p, 7)
	if w6 < 2 || w7 >= 2 {
		t.Errorf("at 257²: octave 7 is %.3g samples, octave 8 %.3g; want 8 (only) below 2", w6, w7)
	}
	p.Algorithm = Midpoint
	if _, err := OctaveWavelength(p, 0); err == nil {
		t.Error("a subdivision map has no octave wavelength, yet no error")
	}
}
