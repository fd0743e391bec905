package game

import "math"

// The sky and the air. The sky is the light the air scatters towards the
// eye, and the ground far away is seen through the same air: both come
// from one model of a thin atmosphere over a flat ground (as in Bruneton
// and Neyret, "Precomputed Atmospheric Scattering", 2008, and Hillaire,
// "A Scalable and Production Ready Sky and Atmosphere Rendering
// Technique", 2020, simplified to single scattering in closed form):
//
//   - air molecules (Rayleigh scattering, strongly blue, density falling
//     with altitude over rayleighScale) and aerosols (Mie scattering,
//     grey, over mieScale), each density exp(−altitude/scale);
//   - along a straight ray from altitude h0 to h1 of length d the optical
//     depth of a density exp(−h/H) is d·H·(e^(−h0/H) − e^(−h1/H))/(h1 − h0)
//     (d·e^(−h0/H) when level), so a ray looking down from high up passes
//     through little air and a ray along the valley floor through much:
//     haze depends on the air crossed, not on distance alone;
//   - the ground's colour is kept by the transmittance exp(−τ), and the
//     air in front of it adds the sun's light scattered by the phase
//     functions (Rayleigh's 3/4·(1 + cos²θ), Henyey–Greenstein's for the
//     aerosols) plus the sky's light scattered again (a stand-in for
//     multiple scattering, AirLight), weighted by each kind's share of
//     the extinction, times 1 − exp(−τ);
//   - the sky is the same in-scattering along a ray that leaves the air:
//     its optical depth is the density at the eye times the scale height
//     times the air mass, 1/(μ + 1/√(πR/2H)) for a ray at elevation sine μ
//     over a round Earth of radius R (the Chapman function's limit), so
//     the horizon is dense and bright and the zenith thin and blue;
//   - the sun's light itself crossed that air: its transmittance at the
//     sun's elevation reddens and dims it at a low sun (the alpenglow on
//     the snow, the warm light of dusk) for the ground and the air alike.
//
// The fog (FogDensity) is one more layer of grey scatterers, thicker in
// the valleys: its density at the map's lowest ground is the extinction
// that leaves 5 % of the contrast at the fog's visibility, and it thins
// out over the map's height range, so it hazes the view from above as
// well as along the valleys.

// Scattering at altitude 0 per metre: Rayleigh for red, green, blue
// (Bruneton and Neyret 2008, section 2.1, λ = 680, 550, 440 nm); Mie for
// a clear day with some haze (Bruneton and Neyret's 21e-6 is a hazy one),
// its extinction 1/0.9 of its scattering.
var rayleighBeta = [3]float64{5.8e-6, 13.5e-6, 33.1e-6}

const (
	rayleighScale = 8000.0 // metres
	mieBeta       = 12e-6
	mieExtinction = 1 / 0.9
	mieScale      = 1200.0 // metres
	mieG          = 0.76   // Henyey–Greenstein asymmetry of the aerosols
	earthRadius   = 6.371e6
)

// airDensity scales the whole atmosphere (tests of the textures alone set
// it to 0).
var airDensity = 1.0

// airMass is the optical depth of a density exp(−h/scale) along a ray at
// elevation sine mu from the ground to space, over scale: the air mass.
func airMass(mu, scale float64) float64 {
	return 1 / (max(mu, 0) + 1/math.Sqrt(math.Pi*earthRadius/(2*scale)))
}

// sunTransmittance is the share of the sun's light that reaches the
// ground at sun elevation el (degrees), per channel; 0 once the sun is
// a degree below the horizon.
func sunTransmittance(el float32) [3]float32 {
	mu := math.Sin(float64(el) * math.Pi / 180)
	mr, mm := airMass(mu, rayleighScale)*rayleighScale, airMass(mu, mieScale)*mieScale
	below := smoothstep64(-1, 1, float64(el))
	var t [3]float32
	for c := range t {
		t[c] = float32(math.Exp(-airDensity*(rayleighBeta[c]*mr+mieBeta*mieExtinction*mm)) * below)
	}
	return t
}

// skyLight is the view's light for its sun: the ambient light of the
// sky, the sun's light on the ground and its disc in the sky (the view's
// colours reddened by the air the light crossed), and the air's: the
// sun's light that the air scatters and the sky's light it scatters
// again, and the tint of the Rayleigh sky (the view's sky colour over the
// default's, so a scenario's purple sky stays purple).
type skyLight struct {
	zenith, sun, disc [3]float32
	airSun, airSky    [3]float32
	tint              [3]float32
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
	sunT := sunTransmittance(v.SunElevation)
	high := sunTransmittance(90)
	def := DefaultViewer()
	var sl skyLight
	for c := range 3 {
		// Relative to the sun overhead, so that at noon the ground shows
		// the view's own sun colour.
		rel := sunT[c] / high[c]
		sl.sun[c] = v.SunColor[c] * rel
		sl.disc[c] = rel
		// The sky's light dims far less than the sun's as the sun sinks
		// (at 5° the clear sky still gives the ground about a third of
		// its noon irradiance while the direct beam on the level falls
		// to a few per cent), and the eye adapts to it: the side of a hill away
		// from a low sun is shaded, not black.
		sl.zenith[c] = v.SkyColor[c] * (1 - duskSkyDim*t)
		sl.airSun[c] = airSunGain * sunT[c]
		// The sky's light on the air: the horizon's colour, dimming as
		// the sun sinks and the sky darkens.
		sl.airSky[c] = airSkyGain * v.HorizonColor[c] * float32(math.Sqrt(float64(sunT[1]/high[1])))
		sl.tint[c] = v.SkyColor[c] / max(def.SkyColor[c], 1e-3)
	}
	return sl
}

// duskSkyDim is how much of the sky's light on the ground is gone with
// the sun at the horizon.
const duskSkyDim = 0.25

// The brightness of the air's light: the sun's scattered once and the
// sky's scattered again, relative to the ground's light (a white level
// ground in the sun shows SunColor·sin(elevation) + SkyColor·Ambient).
const (
	airSunGain = 1.0
	airSkyGain = 0.45
)

// setSky sets the atmosphere's uniforms, which the sky and terrain
// shaders share, in u. base is the world height of the map's lowest
// ground and fogHeight the fog's scale height (the map's height range);
// fog is the fog's exp² density (0: none).
func (sl skyLight) setSky(u map[string]any, fog, base, fogHeight float32) {
	u["SkyTint"] = vec3(sl.tint)
	u["AirSun"] = vec3(sl.airSun)
	u["AirSky"] = vec3(sl.airSky)
	d := float32(airDensity)
	u["BetaR"] = []float32{d * float32(rayleighBeta[0]), d * float32(rayleighBeta[1]), d * float32(rayleighBeta[2])}
	u["BetaM"] = d * mieBeta
	// The fog's extinction at the map's lowest ground: 5 % of the
	// contrast left at its visibility V, exp(−βV) = 0.05, and an exp²
	// density ρ has V = √(ln 20)/ρ, so β = √(ln 20)·ρ.
	u["FogBeta"] = float32(math.Sqrt(-math.Log(fogContrastLeft))) * fog
	u["FogBase"] = base
	u["FogHeight"] = max(fogHeight, 1e-3)
}
