package game

import "cordillera/terrain"

// The look that goes with a terrain preset. terrain.Presets hold only the
// generator's parameters; the viewer settings the thesis gives for its
// test scenarios (section 7.6) live here, keyed by the preset's name, so
// that terrain never needs to know about the viewer.

// PresetView is the viewer side of a built-in terrain preset.
type PresetView struct {
	Preset string        // the name of a terrain.Presets entry
	Source string        // where the settings come from
	Apply  func(*Viewer) // changes DefaultViewer into the preset's look
}

// scenarioView is what all three scenarios of thesis 7.6 share:
// triplanar projection and lighting on, the sun coloured (253, 220, 48);
// no anti-aliasing, hiding of the textures' repeat or trees, which the thesis's
// renderer did not have.
func scenarioView(v *Viewer) {
	v.Triplanar, v.Lighting = true, true
	v.Antialias, v.BreakTiling, v.Scatter = false, false, false
	v.SunColor = rgb(253, 220, 48)
}

// PresetViews are the viewer settings of the thesis's scenarios: two
// materials each, split at the thesis's boundary, shown by the bands'
// BandMaterials (the thesis's "dark earth" of scenario 2 is our rock).
var PresetViews = []PresetView{
	{"scenario-1", "thesis 7.6 scenario 1: height texturing, grass to 0.26 and rock above, tiling 5, sun at 65° in direction 30°, sky (201, 226, 255)",
		func(v *Viewer) {
			scenarioView(v)
			v.Texturing = ByHeight
			v.MaterialCount, v.Boundaries, v.BandMaterials = 2, [4]float32{0.26, 1, 1, 1}, [4]int{1, 2, 2, 3}
			v.Tiling, v.DetailMaps = 5, false
			v.SunElevation, v.SunAzimuth = 65, 30
			v.SkyColor = rgb(201, 226, 255)
		}},
	{"scenario-2", "thesis 7.6 scenario 2: slope texturing, sand to 0.3 and dark earth (our rock) above, tiling 5, sun at 75° in direction 0°, sky (201, 176, 255)",
		func(v *Viewer) {
			scenarioView(v)
			v.Texturing = BySlope
			v.MaterialCount, v.Boundaries, v.BandMaterials = 2, [4]float32{0.3, 1, 1, 1}, [4]int{0, 2, 2, 3}
			v.Tiling, v.DetailMaps = 5, false
			v.SunElevation, v.SunAzimuth = 75, 0
			v.SkyColor = rgb(201, 176, 255)
		}},
	{"scenario-3", "thesis 7.6 scenario 3: slope texturing, snow on the flat to 0.2 and rock on the steep, tiling 3, detail maps 50 repeats fading over 100, sun at 50° in direction 210°, sky (61, 112, 163)",
		func(v *Viewer) {
			scenarioView(v)
			v.Texturing = BySlope
			v.MaterialCount, v.Boundaries, v.BandMaterials = 2, [4]float32{0.2, 1, 1, 1}, [4]int{3, 2, 2, 3}
			v.Tiling = 3
			v.DetailMaps, v.DetailTiling, v.DetailDist = true, 50, 100
			v.SunElevation, v.SunAzimuth = 50, 210
			v.SkyColor = rgb(61, 112, 163)
		}},
}

// PresetViewer returns the look that goes with the named preset: the
// thesis's settings for its scenarios, DefaultViewer for any other name.
func PresetViewer(name string) Viewer {
	v := DefaultViewer()
	for _, pv := range PresetViews {
		if pv.Preset == name {
			pv.Apply(&v)
		}
	}
	return v
}

// UsePreset shows the named built-in preset as chosen in the Generator
// panel and gives the Viewer its look (PresetViewer), keeping the display
// modes the keys toggle: wireframe, flat shading, colour scheme and fog.
// A name that is not a built-in preset (a .json file) changes nothing.
func (g *Game) UsePreset(name string) {
	for i, pr := range terrain.Presets {
		if pr.Name == name {
			g.ui.preset, g.ui.presetView = i, i
			g.setPresetView(name)
		}
	}
	g.fitSnowLine()
}

// fitSnowLine puts the snow line where the world asks for it: on a route
// map where the climate puts it (RouteView.SnowLine), elsewhere at the
// Alps' snow line in metres (metricSnowLine); but a snow line the user has moved since it was last
// set this way stays where they put it.
func (g *Game) fitSnowLine() {
	want := PresetViewer("").SnowLine
	if i := g.ui.presetView; i >= 0 && i < len(terrain.Presets) {
		want = PresetViewer(terrain.Presets[i].Name).SnowLine
	}
	if g.World != nil && g.World.Route != nil {
		want = g.World.Route.SnowLine
	} else if g.World != nil && g.World.Map != nil {
		want = metricSnowLine(g.World.Map)
	}
	if !g.gen.snowFitted || g.View.SnowLine == g.gen.snowFit {
		g.View.SnowLine = want
	}
	g.gen.snowFit, g.gen.snowFitted = want, true
}

// followPresetChoice gives the Viewer the look of a preset just chosen in
// the Generator panel's list.
func (g *Game) followPresetChoice() {
	if i := g.ui.preset; i != g.ui.presetView && i >= 0 && i < len(terrain.Presets) {
		g.ui.presetView = i
		g.setPresetView(terrain.Presets[i].Name)
	}
}

func (g *Game) setPresetView(name string) {
	old := g.View
	g.View = PresetViewer(name)
	g.View.Wireframe, g.View.FlatShading, g.View.ColourScheme, g.View.FogDensity = old.Wireframe, old.FlatShading, old.ColourScheme, old.FogDensity
}

// ThesisFigureLook sets the view the thesis rendered its figures 7.4–7.14
// with (section 7.3): only the diffuse term of the lighting (no ambient
// light, a white sun, so the shading is N·L itself) with the sun at 90°
// in direction 0°, the materials as they are, no fog.
func ThesisFigureLook(v *Viewer) {
	v.Lighting, v.Ambient = true, 0
	v.SunElevation, v.SunAzimuth = 90, 0
	v.SunColor = [3]float32{1, 1, 1}
	v.FogDensity = 0
}
