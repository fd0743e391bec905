package web

import (
	"strings"
	"testing"

	"cordillera/terrain"
)

// A link whose parameters are each in range but make no valid world
// together is refused, and the page opens the default world: invalid
// parameters are never applied. And whatever link is accepted gives
// parameters the generator accepts.
func TestInvalidLinksRefused(t *testing.T) {
	for _, c := range []struct{ fragment, want string }{
		{"#algorithm=diamond-square&size=1000", "nearest valid sizes are 513 and 1025"},
		{"#preset=scenario-3&algorithm=midpoint&size=100", "size"},
	} {
		l, err := ParseFragment(c.fragment)
		if err == nil || !strings.HasPrefix(err.Error(), "link") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want one starting with link and naming %q", c.fragment, err, c.want)
		}
		if l.Preset != "default" || l.Params != terrain.DefaultParams() {
			t.Errorf("%s: the link gives preset %s, %s at size %d; want the default world", c.fragment, l.Preset, l.Params.Algorithm, l.Params.Size)
		}
	}
	for _, fragment := range []string{"#algorithm=diamond-square&size=513", "#preset=scenario-3&seed=5", "#size=1000"} {
		l, err := ParseFragment(fragment)
		if err != nil {
			t.Errorf("%s: %v", fragment, err)
			continue
		}
		if err := l.Params.Validate(); err != nil {
			t.Errorf("%s was accepted with parameters the generator refuses: %v", fragment, err)
		}
	}
}
