// Package web is the explorer as a web page: the page itself (index.html
// and its loader, embedded here so that 'cordillera web' can write them
// out) and the links a teacher shares, "#preset=scenario-3&seed=5", which
// name a built-in preset and the parameters that differ from it. The
// WebAssembly program is in web/explorer; the browser glue of the game is
// in game/web_js.go.
package web

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"cordillera/internal/lesson"
	"cordillera/terrain"
)

// Link is what a page's URL fragment asks for.
type Link struct {
	Preset string         // a built-in preset ("default" when the link names none)
	Params terrain.Params // the preset's parameters with the link's applied
	// The Teach lesson to open (Lesson "" for none), its stage, octave or
	// batch, the plot and the camera: the keys of package lesson, which
	// the explore and render commands read as flags.
	lesson.State
	Open []string // the panels to unfold (Generator, Viewer, File, Teach, Erosion, Route)
}

// Lessons are the Teach panel's lessons a link may open.
var Lessons = lesson.Lessons

// Panels are the panels a link may unfold.
var Panels = []string{"Generator", "Viewer", "File", "Teach", "Erosion", "Route"}

// ParseFragment reads a URL fragment (with or without its '#'):
// preset=NAME, any generation parameter by its flag name (seed=5,
// size=513), the lesson's keys (lesson=subdivision&stage=2a, octave=3,
// batch=5, plot=profile, camera=x,y,z,yaw,pitch) and open=Teach,Viewer. A
// bad key or value is an error naming it; the Link then holds the default
// world.
func ParseFragment(fragment string) (Link, error) {
	def := Link{Preset: "default", Params: terrain.DefaultParams()}
	fragment = strings.TrimPrefix(fragment, "#")
	if fragment == "" {
		return def, nil
	}
	values, err := url.ParseQuery(fragment)
	if err != nil {
		return def, fmt.Errorf("link #%s: %w", fragment, err)
	}
	for key, v := range values {
		if len(v) > 1 {
			return def, fmt.Errorf("link: %s is given %d times", key, len(v))
		}
	}
	l := def
	if name := values.Get("preset"); name != "" {
		p, err := terrain.PresetParams(name)
		if err != nil {
			return def, fmt.Errorf("link: %w", err)
		}
		l.Preset, l.Params = name, p
	}
	for _, key := range slices.Sorted(maps.Keys(values)) {
		value := values.Get(key)
		switch key {
		case "preset":
		case "lesson", "stage", "octave", "batch", "droplet", "step", "plot", "camera", "point":
			if err := l.State.Set(key, value); err != nil {
				return def, fmt.Errorf("link: %w", err)
			}
		case "open":
			for _, p := range strings.Split(value, ",") {
				if !slices.Contains(Panels, p) {
					return def, fmt.Errorf("link: open %q: want panels among %s", p, strings.Join(Panels, ","))
				}
				l.Open = append(l.Open, p)
			}
		default:
			s, ok := terrain.SpecByName(key)
			if !ok {
				return def, fmt.Errorf("link: unknown parameter %q (parameters are named as the command line's flags, e.g. seed=5)", key)
			}
			if err := s.Set(&l.Params, value); err != nil {
				return def, fmt.Errorf("link: %w", err)
			}
		}
	}
	if err := l.Params.Validate(); err != nil {
		return def, fmt.Errorf("link: %w", err)
	}
	if err := l.State.Check(l.Params); err != nil {
		return def, fmt.Errorf("link: %w", err)
	}
	return l, nil
}

// Fragment writes a link to the world p made from the built-in preset:
// the preset's name, then every parameter that differs from it in the
// parameter table's order, then the lesson's keys and the panels if set.
// ParseFragment reads it back to the same parameters and lesson.
func (l Link) Fragment() string {
	base, err := terrain.PresetParams(l.Preset)
	var parts []string
	if err != nil || l.Preset == "default" {
		base = terrain.DefaultParams()
	} else {
		parts = append(parts, "preset="+url.QueryEscape(l.Preset))
	}
	for _, s := range terrain.Specs {
		if v := s.Get(&l.Params); v != s.Get(&base) {
			parts = append(parts, s.Name+"="+url.QueryEscape(v))
		}
	}
	for _, kv := range l.State.Pairs() {
		// A camera's commas need no escape in a fragment: kept, the
		// numbers read on a slide.
		parts = append(parts, kv[0]+"="+strings.ReplaceAll(url.QueryEscape(kv[1]), "%2C", ","))
	}
	if len(l.Open) > 0 {
		parts = append(parts, "open="+url.QueryEscape(strings.Join(l.Open, ",")))
	}
	return strings.Join(parts, "&")
}
