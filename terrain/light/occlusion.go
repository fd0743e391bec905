package light

import (
	"context"
	"math"

	"cordillera/terrain"
)

// DefaultDirections is how many azimuths Occlusion sweeps by default:
// enough that the horizon between them is smooth on natural terrain.
const DefaultDirections = 12

// Occlusion writes to out, for every sample of m, the share of the sky's
// light that reaches it past the surrounding terrain, in [0, 1]: 1 on open
// flat ground, lower in valleys, gullies and crevices. Horizon-based
// ambient occlusion (Bavoil, Sainz and Dimitrov, "Image-space horizon-based
// ambient occlusion", 2008, applied to the heightfield itself): over
// directions evenly spaced azimuths φ, with θ(φ) the horizon's elevation
// (none below 0), a uniformly bright sky lights horizontal ground with
//
//	A = 1/K · Σ_φ cos² θ(φ)
//
// (the cosine-weighted hemisphere above the horizon in each direction).
// ws may be nil.
func Occlusion(ctx context.Context, m *terrain.Heightmap, directions int, out []float32, ws *Workspace) error {
	if ws == nil {
		ws = &Workspace{}
	}
	directions = max(directions, 1)
	horizon := make([]float32, len(out))
	clear(out)
	for k := 0; k < directions; k++ {
		az := (float64(k) + 0.5) * 2 * math.Pi / float64(directions)
		if err := Horizon(ctx, m, az, horizon, ws); err != nil {
			return err
		}
		for i, t := range horizon {
			if t > 0 {
				out[i] += 1 / (1 + t*t) // cos²θ = 1 / (1 + tan²θ)
			} else {
				out[i]++
			}
		}
	}
	inv := 1 / float32(directions)
	for i := range out {
		out[i] *= inv
	}
	return nil
}
