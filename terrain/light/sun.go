package light

import (
	"context"
	"math"

	"cordillera/terrain"
)

// DefaultPenumbra is the angular width, in degrees, over which the sun
// goes from hidden to fully shown as it rises past a sample's horizon.
// The sun's disc is about 0.5° wide; scattering in the air and the
// softness a painter gives distant shadows make a few degrees look right.
const DefaultPenumbra = 3.0

// SunVisibility writes to out how much of the sun each sample sees, in
// [0, 1], from its horizon along the sun's azimuth (Horizon's tangents):
// 0 below the horizon, 1 above it, and a smoothstep over the penumbra
// (degrees, > 0) centred on it, so that a shadow's edge lies exactly where
// the horizon crosses the sun's centre and softens with the distance to
// what casts it. elevation is the sun's, in degrees.
func SunVisibility(horizon []float32, elevation, penumbra float64, out []float32) {
	el := elevation * math.Pi / 180
	half := max(penumbra, 1e-3) * math.Pi / 180 / 2
	for i, t := range horizon {
		x := (el - math.Atan(float64(t))) / half // −1 … 1 across the penumbra
		x = min(max(0.5+0.5*x, 0), 1)
		out[i] = float32(x * x * (3 - 2*x))
	}
}

// Shadows writes to out the sun's visibility from every sample of m for
// the sun at elevation and azimuth (degrees; azimuth measured like the
// camera's yaw) with the given penumbra (degrees): one horizon sweep and
// SunVisibility. ws may be nil.
func Shadows(ctx context.Context, m *terrain.Heightmap, elevation, azimuth, penumbra float64, out []float32, ws *Workspace) error {
	if err := Horizon(ctx, m, azimuth*math.Pi/180, out, ws); err != nil {
		return err
	}
	SunVisibility(out, elevation, penumbra, out)
	return nil
}
