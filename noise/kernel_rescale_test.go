package noise

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNormalize32 checks that every kernel's Normalize32 is bit for bit the
// scalar expression, on lengths around the kernels' steps and on values
// that round differently: spans that do not divide evenly, denormal
// results, negative zero, infinities and NaN.
func TestNormalize32(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	specials := []float32{0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.MaxFloat32}
	ranges := [][2]float64{{-0.7071, 1.4142}, {3, 1.0 / 3}, {0, 7e-39}, {-1e30, 3e30}, {-0.1, -1}}
	for _, kernel := range Kernels() {
		t.Run(string(kernel), func(t *testing.T) {
			useKernel(t, kernel)
			for _, n := range []int{0, 1, 7, 15, 16, 17, 31, 32, 33, 63, 65, 1025} {
				for _, lr := range ranges {
					v := make([]float32, n)
					for k := range v {
						v[k] = float32(lr[0] + r.Float64()*lr[1])
						if r.IntN(8) == 0 {
							v[k] = specials[r.IntN(len(specials))]
						}
					}
					want := make([]float32, n)
					for k, h := range v {
						want[k] = float32((float64(h) - lr[0]) / lr[1])
					}
					Normalize32(v, lr[0], lr[1])
					for k := range v {
						if math.Float32bits(v[k]) != math.Float32bits(want[k]) && !(v[k] != v[k] && want[k] != want[k]) {
							t.Fatalf("%d samples, range %v: sample %d = %v, want %v", n, lr, k, v[k], want[k])
						}
					}
				}
			}
		})
	}
}

// TestNormalize32AtMidpoints checks Normalize32 where multiplying by the
// reciprocal 1/span instead of dividing would round to the other float32:
// quotients exactly halfway between two float32s, normal or subnormal.
// With an odd integer span s and x = s·M·2^e (exact), x/s = M·2^e is a
// float32 midpoint for every odd 25-bit M at a normal exponent, and for
// every odd M at e = −150. The product x·r strays by up to an ulp, enough
// to leave the midpoint, where M's mantissa is near 2 and 1/s is rounded
// by nearly half an ulp. Normal cases take v = 1, lo = 1 − x with x in
// [¼, ½), subnormal ones v = 0, lo = −x (both exact).
func TestNormalize32AtMidpoints(t *testing.T) {
	type midpoint struct {
		v         float32
		lo, span  float64
		subnormal bool
	}
	var cases []midpoint // where x·r and x/span round apart
	for s := 3.0; s < 400 && len(cases) < 40; s += 2 {
		r := 1 / s
		for _, subnormal := range []bool{false, true} {
			top := 1<<25 - 1
			if subnormal {
				top = 1<<24 - 1
			}
			for m := top; m > top-4000; m -= 2 {
				c := midpoint{v: 1, span: s, subnormal: subnormal}
				x := s * float64(m)
				if subnormal {
					x = math.Ldexp(x, -150)
					c.v, c.lo = 0, -x
				} else {
					_, e := math.Frexp(x)
					x = math.Ldexp(x, -e-1) // into [¼, ½)
					c.lo = 1 - x
				}
				if float32(x*r) != float32(x/s) {
					cases = append(cases, c)
					break
				}
			}
		}
	}
	for _, subnormal := range []bool{false, true} {
		if !slices.ContainsFunc(cases, func(c midpoint) bool { return c.subnormal == subnormal }) {
			t.Fatalf("no midpoint (subnormal %v) where the reciprocal rounds differently: the test checks nothing", subnormal)
		}
	}
	for _, kernel := range Kernels() {
		t.Run(string(kernel), func(t *testing.T) {
			useKernel(t, kernel)
			v := make([]float32, 64)
			for _, c := range cases {
				for k := range v {
					v[k] = c.v
				}
				want := float32((float64(c.v) - c.lo) / c.span)
				Normalize32(v, c.lo, c.span)
				for k := range v {
					if v[k] != want {
						t.Fatalf("%+v: sample %d = %v, want %v", c, k, v[k], want)
					}
				}
			}
		})
	}
}
