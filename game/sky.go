package game

// The sky and the light at dusk and dawn. As the sun sinks below about
// 25°, its light reddens and dims (a longer path through the air
// scatters the blue away), the sky near the horizon on the sun's side
// turns warm, and the zenith darkens; the ground is lit by the same sun
// and sky, so its light follows.

// Dusk colours, linear: the low sun's light and the horizon around it.
var (
	duskSun     = rgb(255, 124, 52)
	duskHorizon = rgb(255, 168, 102)
)

// skyLight is the view's light for its sun: the zenith (and ambient)
// colour, the horizon's colour, the sun's light on the ground and its disc
// in the sky, and how far towards dusk the sun is (0–1; the shaders warm
// the horizon on the sun's side towards duskHorizon by it).
type skyLight struct {
	zenith, horizon, sun, disc [3]float32
	dusk                       float32
}

// duskWarmth is how far the sun at elevation el (degrees) has gone
// towards dusk: 0 above 25°, 1 at the horizon and below.
func duskWarmth(el float32) float32 {
	t := min(max((25-float64(el))/25, 0), 1)
	return float32(t * t * (3 - 2*t))
}

// lightOf is the sky and sun of view v.
func lightOf(v *Viewer) skyLight {
	t := duskWarmth(v.SunElevation)
	mix := func(a, b [3]float32, t, scale float32) [3]float32 {
		return [3]float32{(a[0] + (b[0]-a[0])*t) * scale, (a[1] + (b[1]-a[1])*t) * scale, (a[2] + (b[2]-a[2])*t) * scale}
	}
	return skyLight{
		zenith:  mix(v.SkyColor, v.SkyColor, 0, 1-0.3*t),
		horizon: mix(v.HorizonColor, duskHorizon, 0.25*t, 1-0.1*t),
		sun:     mix(v.SunColor, duskSun, t, 1-0.3*t),
		disc:    mix(v.SunColor, duskSun, t, 1),
		dusk:    t,
	}
}

// aerialVisibility is the distance, in world units taken as metres, over
// which the aerial perspective leaves 5 % of the ground's contrast: 60 km,
// clear mountain air. A map a few kilometres wide barely hazes; the far
// side of a 100 km range does, and the ground beyond the map fades into
// the sky before it ends (horizonReach).
const aerialVisibility = 60000

// aerialDensity is the haze density that leaves 5 % at aerialVisibility.
var aerialDensity = FogDensityFor(aerialVisibility)

// setSky sets the sky's colours, which the sky and terrain shaders share
// (the terrain's haze takes the colour of the sky in its direction), as
// uniforms in u.
func (sl skyLight) setSky(u map[string]any) {
	u["SkyColor"] = vec3(sl.zenith)
	u["HorizonColor"] = vec3(sl.horizon)
	u["DuskColor"] = vec3(duskHorizon)
	u["Dusk"] = sl.dusk
}
