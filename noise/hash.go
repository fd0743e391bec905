package noise

// Lattice hashing. Every basis draws its pseudo-random numbers — lattice
// values, gradient directions, feature points — from an integer hash of the
// lattice point (i, j) and a key derived from the seed, instead of the
// thesis's 256-entry permutation table P. So the fields never tile (the
// thesis's repeat every 256 cells), two seeds share no table, and the result
// is pure integer arithmetic, identical on every machine.

// Multipliers that spread a lattice index over all 64 bits before the
// finaliser: the golden-ratio constant and xxHash's PRIME64_2, both odd.
const (
	primeX = 0x9E3779B97F4A7C15
	primeY = 0xC2B2AE3D27D4EB4F
)

// Salts make the keys of different bases unrelated for the same seed.
const (
	saltValue   = 0x56414C5545000001 // "VALUE"
	saltPerlin  = 0x5045524C494E0002 // "PERLIN"
	saltSimplex = 0x53494D504C450003 // "SIMPLE"
	saltWorley  = 0x574F524C45590004 // "WORLEY"
)

// Mix64 is MurmurHash3's 64-bit finaliser (fmix64): a bijection in which
// every input bit flips each output bit with probability close to ½. The
// bases hash lattice points with it; the material synthesis reuses it.
func Mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xFF51AFD7ED558CCD
	h ^= h >> 33
	h *= 0xC4CEB9FE1A85EC53
	h ^= h >> 33
	return h
}

// seedKey turns a seed into the 64-bit key of one basis.
func seedKey(seed int64, salt uint64) uint64 {
	return Mix64(uint64(seed) ^ salt)
}

// rowKey folds lattice row j into a basis key. A row form computes it once
// per row; hashCell then needs only the column.
func rowKey(key uint64, j int) uint64 {
	return key ^ uint64(j)*primeY
}

// hashCell returns the 64-bit hash of lattice point (i, j), given j's row key.
func hashCell(row uint64, i int) uint64 {
	return Mix64(row ^ uint64(i)*primeX)
}

// SplitMix64 is the SplitMix64 finaliser (Steele, Lea and Flood 2014): every input
// bit changes each output bit with probability about ½. The subdivision
// generators and the route lattice draw their random values from it.
func SplitMix64(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}
