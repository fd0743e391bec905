package web

import (
	"strings"
	"testing"
)

// Every lesson key of a link round-trips, link → state → link, for every
// lesson and every algorithm its map can have; before, a link could name
// the lesson alone, and stage=3 was refused as an unknown parameter.
func TestLessonLinksRoundTrip(t *testing.T) {
	cam := "&camera=512,900.5,-300,90,-40"
	var fragments []string
	for _, alg := range []string{"midpoint", "midpoint-recursive", "diamond-square"} {
		for _, stage := range []string{"", "&stage=1a", "&stage=1b", "&stage=4b"} {
			fragments = append(fragments, "algorithm="+alg+"&size=17&lesson=subdivision"+stage+cam)
		}
	}
	for _, alg := range []string{"", "algorithm=hetero&", "algorithm=hybrid&", "algorithm=quilez&", "algorithm=ridged&", "algorithm=billow&", "algorithm=swiss&"} {
		fragments = append(fragments, alg+"octaves=6&lesson=octaves&octave=3&plot=spectrum"+cam)
	}
	fragments = append(fragments,
		"lesson=octaves"+cam,
		"lesson=erosion&batch=12&plot=profile"+cam,
		"lesson=erosion&droplet=12"+cam,
		"lesson=thermal&step=3&plot=profile"+cam,
		"fluvial-steps=20&lesson=fluvial&step=4"+cam,
		"preset=scenario-3&seed=5&lesson=erosion&open=Teach%2CViewer",
		"plot=histogram")
	for _, f := range fragments {
		l, err := ParseFragment(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if back := l.Fragment(); back != f {
			t.Errorf("%s\nwrites back as\n%s", f, back)
		}
	}
	// A stage by its number is the stage the figure labels.
	if l, err := ParseFragment("#algorithm=midpoint&size=9&lesson=subdivision&stage=3"); err != nil || l.Stage != 3 || !strings.Contains(l.Fragment(), "stage=2a") {
		t.Errorf("stage=3: %+v, %v; want stage 2a", l.State, err)
	}
}

// A bad lesson value is refused with a message naming the key, and the
// default world opens.
func TestLessonLinksRefused(t *testing.T) {
	for _, c := range []struct{ fragment, want string }{
		{"lesson=subdivision&algorithm=midpoint&size=9&stage=5a", "link: stage 5a: the 9² map has stages 0 to 3b"},
		{"lesson=subdivision&stage=x", `link: stage "x"`},
		{"lesson=octaves&octaves=4&octave=5", "link: octave 5: the map sums 4 octaves"},
		{"lesson=erosion&batch=-1", `link: batch "-1"`},
		{"stage=2a", "link: stage 2a: needs lesson subdivision"},
		{"lesson=octaves&batch=3", "link: batch 3: needs lesson erosion"},
		{"lesson=erosion&droplet=3&batch=2", "link: droplet 3: batch 2 names the other way"},
		{"lesson=thermal&thermal-iterations=5&step=6", "link: step 6: the thermal stage runs 5 sweeps"},
		{"plot=pie", `link: plot "pie"`},
		{"lesson=octaves&camera=1,2", `link: camera "1,2": want five numbers`},
	} {
		l, err := ParseFragment(c.fragment)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error containing %q", c.fragment, err, c.want)
		}
		if l.Lesson != "" || l.Stage != 0 || l.Camera != nil {
			t.Errorf("%s: the refused link still gives %+v", c.fragment, l.State)
		}
	}
}
