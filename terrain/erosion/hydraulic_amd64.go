//go:build amd64 && !purego

package erosion

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// brushAVX2 is whether the brush is applied four cells at a time in AVX2
// (hydraulic_amd64.s).
var brushAVX2 = cpu.X86.HasAVX2

// erodeBrushAVX2 subtracts e·weight from the cells of the brush around
// the sample at centre: the nq runs of four cells at quads, with their
// weights at qw, and the ns single cells at singles, weights at sw. It is
// the arithmetic of erodeBrushGo.
//
//go:noescape
func erodeBrushAVX2(centre *float64, quads *int, nq int, qw *float64, singles *int, ns int, sw *float64, e float64)

// erodeBrush takes e·weight from each cell of the brush around sample
// centre, which lies wholly on the map.
func (hp *hydraulicParams) erodeBrush(z []float64, centre int, e float64) {
	if !brushAVX2 {
		hp.erodeBrushGo(z, centre, e)
		return
	}
	_, _ = z[centre+hp.brushLo], z[centre+hp.brushHi] // the brush is on the map
	erodeBrushAVX2(&z[centre], unsafe.SliceData(hp.brushQuads), len(hp.brushQuads), unsafe.SliceData(hp.quadWeights),
		unsafe.SliceData(hp.brushSingles), len(hp.brushSingles), unsafe.SliceData(hp.singleWeights), e)
}
