package terrain

import (
	"fmt"
	"slices"
	"strings"
)

// AppliesTo reports whether the parameter shapes maps made with p; when
// it does not, why says so in words that name what would make it act
// (the command line's flags; the panels show the same). The sweep command
// refuses a sweep that would change nothing by it, and the explorer's
// panels show only the parameters that apply.
func (s Spec) AppliesTo(p Params) (ok bool, why string) {
	switch s.Name {
	case "basis", "basis-transform", "feature-size", "octaves", "lacunarity":
		if p.Algorithm.IsSubdivision() {
			return false, "the subdivision generators have no basis noise or octaves; try -algorithm fbm"
		}
	case "offset":
		if p.Algorithm != Hetero && p.Algorithm != Hybrid {
			return false, "only the hetero and hybrid multifractals have an offset; try -algorithm hetero"
		}
	case "corners":
		if !p.Algorithm.IsSubdivision() {
			return false, "only the subdivision generators start from corners; try -algorithm diamond-square"
		}
	case "corner-value":
		if !p.Algorithm.IsSubdivision() || p.Corners != CornersFixed {
			return false, "it is the corner height of a subdivision map with -corners fixed"
		}
	case "intensity":
		if p.Effect == NoEffect {
			return false, "it is the strength of a post-effect; add -effect glacier, canyon or plateau"
		}
	}
	if s.Group == "route" {
		return false, "it shapes only a terrain built through a route (generate -route)"
	}
	if stage, _, found := strings.Cut(s.Name, "-"); found && slices.Contains(ErosionStages, stage) &&
		!slices.Contains(strings.Split(p.Erosion, ","), stage) {
		return false, fmt.Sprintf("it shapes only the %s erosion stage; add -erosion %s", stage, stage)
	}
	return true, ""
}
