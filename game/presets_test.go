package game

import (
	"testing"

	"cordillera/terrain"
)

// Every preset view belongs to a built-in terrain preset and gives the
// thesis's settings for its scenario (section 7.6).
func TestPresetViews(t *testing.T) {
	for _, pv := range PresetViews {
		if _, err := terrain.PresetParams(pv.Preset); err != nil {
			t.Errorf("view for %s: %v", pv.Preset, err)
		}
		if PresetViewer(pv.Preset) == DefaultViewer() {
			t.Errorf("%s: its view is the default one", pv.Preset)
		}
	}
	for _, tc := range []struct {
		preset       string
		texturing    Texturing
		split        float32 // the boundary between the thesis's two materials
		materials    [2]int  // the thesis's two materials, flat or low first
		tiling       float32
		elev, az     float32
		sky          [3]float32
		detail       bool
		detailTiling float32
		detailDist   float32
	}{
		{"scenario-1", ByHeight, 0.26, [2]int{1, 2}, 5, 65, 30, rgb(201, 226, 255), false, 0, 0}, // grass, rock
		{"scenario-2", BySlope, 0.3, [2]int{0, 2}, 5, 75, 0, rgb(201, 176, 255), false, 0, 0},    // sand, dark earth
		{"scenario-3", BySlope, 0.2, [2]int{3, 2}, 3, 50, 210, rgb(61, 112, 163), true, 50, 100}, // snow, rock
	} {
		v := PresetViewer(tc.preset)
		if v.MaterialCount != 2 || v.BandMaterials[0] != tc.materials[0] || v.BandMaterials[1] != tc.materials[1] {
			t.Errorf("%s: %d bands showing %v; want 2 showing %v", tc.preset, v.MaterialCount, v.BandMaterials[:2], tc.materials)
		}
		if v.Texturing != tc.texturing || v.Boundaries[0] != tc.split || v.Tiling != tc.tiling ||
			v.SunElevation != tc.elev || v.SunAzimuth != tc.az || v.SkyColor != tc.sky {
			t.Errorf("%s: texturing %v split %v tiling %v sun %v°/%v° sky %v; want %v %v %v %v°/%v° %v",
				tc.preset, v.Texturing, v.Boundaries[0], v.Tiling, v.SunElevation, v.SunAzimuth, v.SkyColor,
				tc.texturing, tc.split, tc.tiling, tc.elev, tc.az, tc.sky)
		}
		if !v.Triplanar || !v.Lighting || v.SunColor != rgb(253, 220, 48) {
			t.Errorf("%s: triplanar %v lighting %v sun colour %v; want on, on, (253, 220, 48)",
				tc.preset, v.Triplanar, v.Lighting, v.SunColor)
		}
		if v.DetailMaps != tc.detail || tc.detail && (v.DetailTiling != tc.detailTiling || v.DetailDist != tc.detailDist) {
			t.Errorf("%s: detail maps %v (%v repeats, %v distance); want %v (%v, %v)",
				tc.preset, v.DetailMaps, v.DetailTiling, v.DetailDist, tc.detail, tc.detailTiling, tc.detailDist)
		}
	}
	if PresetViewer("hetero") != DefaultViewer() || PresetViewer("my.json") != DefaultViewer() {
		t.Error("a preset without thesis viewer settings should bring the default look")
	}
}

// Choosing a preset in the Generator panel's list gives the Viewer its
// look, keeping the modes the keys toggle; UsePreset does the same from
// the command line and shows the preset as chosen.
func TestPresetChoiceSetsTheView(t *testing.T) {
	index := func(name string) int {
		for i, pr := range terrain.Presets {
			if pr.Name == name {
				return i
			}
		}
		t.Fatalf("no preset %s", name)
		return -1
	}
	g := &Game{Options: Options{View: DefaultViewer()}}
	g.View.Wireframe, g.View.Ambient = true, 0.1
	g.followPresetChoice()
	if g.View.Ambient != 0.1 {
		t.Error("the view changed without a preset being chosen")
	}
	g.ui.preset = index("scenario-2") // what the dropdown does
	g.followPresetChoice()
	if g.View.SunElevation != 75 || g.View.Texturing != BySlope || !g.View.Wireframe || g.View.Ambient != DefaultViewer().Ambient {
		t.Errorf("after choosing scenario-2: sun %v°, texturing %v, wireframe %v, ambient %v; want 75°, slope, kept, default",
			g.View.SunElevation, g.View.Texturing, g.View.Wireframe, g.View.Ambient)
	}
	g.ui.preset = index("hetero")
	g.followPresetChoice()
	if want := DefaultViewer(); g.View.SunElevation != want.SunElevation || g.View.Texturing != want.Texturing {
		t.Errorf("after choosing hetero: sun %v°, texturing %v; want the default look", g.View.SunElevation, g.View.Texturing)
	}

	g = &Game{Options: Options{View: DefaultViewer()}}
	g.UsePreset("scenario-3")
	if g.ui.preset != index("scenario-3") || g.View.SunAzimuth != 210 {
		t.Errorf("UsePreset(scenario-3): list at %d, sun azimuth %v; want %d, 210°", g.ui.preset, g.View.SunAzimuth, index("scenario-3"))
	}
	g.followPresetChoice()
	if g.View.SunAzimuth != 210 {
		t.Error("UsePreset's choice was applied again over the view")
	}
	g.UsePreset("world.json")
	if g.ui.preset != index("scenario-3") || g.View.SunAzimuth != 210 {
		t.Error("a parameter file changed the preset list or the view")
	}
}

// The thesis's figure look: diffuse light only, from straight above.
func TestThesisFigureLook(t *testing.T) {
	v := DefaultViewer()
	v.FogDensity = 0.01
	ThesisFigureLook(&v)
	if !v.Lighting || v.Ambient != 0 || v.SunElevation != 90 || v.SunAzimuth != 0 || v.SunColor != [3]float32{1, 1, 1} || v.FogDensity != 0 {
		t.Errorf("thesis look %+v: want lighting on, no ambient, a white sun at 90°, no fog", v)
	}
	if d := v.SunDir(); d[1] < 0.9999 {
		t.Errorf("sun direction %v, want straight up", d)
	}
}
