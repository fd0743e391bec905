package noise

// Helpers shared by the lattice noises.
//
// A note on the float64(·) conversions around products throughout this
// package: the Go specification lets a compiler fuse x*y + z into one
// fused multiply-add, rounded once, and the compilers for arm64, ppc64le,
// s390x and riscv64 do so. Where that happened in one code path and not in
// another, the point and row forms would differ in their last bits, and so
// would two machines. An explicit conversion forces the product to be
// rounded on its own, which forbids the fusion, so every expression here
// evaluates exactly as written, everywhere. It costs nothing on amd64.

// floorFrac splits x into its lattice index ⌊x⌋ and the offset
// x − ⌊x⌋ ∈ [0, 1] (exact; 1 only for tiny negative x, where it rounds up).
// x must lie well inside ±2⁶³; beyond ±2⁵² the offset is always 0.
func floorFrac(x float64) (int, float64) {
	i := int(x)
	if x < float64(i) {
		i--
	}
	return i, x - float64(i)
}

// fade is the quintic blend w(t) = 6t⁵ − 15t⁴ + 10t³ (thesis eq. A.1),
// evaluated as t³(t(6t − 15) + 10). Its first and second derivatives vanish
// at 0 and 1, so the noise is C² across cell borders.
func fade(t float64) float64 {
	return t * t * t * (float64(t*(float64(t*6)-15)) + 10)
}

// fadeD is w'(t) = 30t⁴ − 60t³ + 30t² (thesis eq. A.6), evaluated as
// 30·(t(t − 1))².
func fadeD(t float64) float64 {
	s := t * (t - 1)
	return 30 * s * s
}
