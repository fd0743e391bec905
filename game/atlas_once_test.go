package game

import (
	"bytes"
	"image"
	"slices"
	"sync"
	"testing"
)

// The plants' atlas depends on nothing but the code, so the tests draw it
// once and hand every new game the same pixels (newScatterView copies
// them onto the GPU; nothing writes to them). TestScatterAtlasIsTheSame
// checks that a fresh drawing matches the one shared.
func init() {
	type atlas struct {
		albedo, normal *image.RGBA
		tops           []float32
	}
	once := sync.OnceValue(func() atlas {
		a, n, tops := scatterAtlas()
		return atlas{a, n, tops}
	})
	drawScatterAtlas = func() (albedo, normal *image.RGBA, tops []float32) {
		a := once()
		return a.albedo, a.normal, a.tops
	}
}

// TestScatterAtlasIsTheSame: the atlas the tests share is the one a fresh
// drawing makes, texel for texel, so no test sees other plants than the
// explorer draws, nor a copy some earlier test changed.
func TestScatterAtlasIsTheSame(t *testing.T) {
	shared, sharedN, sharedTops := drawScatterAtlas()
	fresh, freshN, freshTops := scatterAtlas()
	if !bytes.Equal(shared.Pix, fresh.Pix) || !bytes.Equal(sharedN.Pix, freshN.Pix) {
		t.Error("the shared atlas's texels differ from a fresh drawing's")
	}
	if !slices.Equal(sharedTops, freshTops) {
		t.Errorf("the shared atlas's tops %v differ from a fresh drawing's %v", sharedTops, freshTops)
	}
}
