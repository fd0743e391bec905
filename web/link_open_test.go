package web

import (
	"slices"
	"testing"

	"cordillera/internal/lesson"
	"cordillera/terrain"
)

// A link that unfolds panels writes them last, comma-separated, and reads
// back to the same panels.
func TestFragmentOpensPanels(t *testing.T) {
	l := Link{Preset: "default", Params: terrain.DefaultParams(), State: lesson.State{Lesson: "erosion"}, Open: []string{"Teach", "Viewer"}}
	frag := l.Fragment()
	if frag != "lesson=erosion&open=Teach%2CViewer" {
		t.Errorf("Fragment() = %q", frag)
	}
	back, err := ParseFragment("#" + frag)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Open, l.Open) || back.Lesson != l.Lesson {
		t.Errorf("%q reads back as lesson %q, panels %q; want %q, %q", frag, back.Lesson, back.Open, l.Lesson, l.Open)
	}
}
