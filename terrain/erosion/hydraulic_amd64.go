//go:build amd64 && !purego

package erosion

import "golang.org/x/sys/cpu"

// brushAVX2 is whether the brush is applied four cells at a time in AVX2
// (hydraulic_amd64.s).
var brushAVX2 = cpu.X86.HasAVX2

// erodeBrushAVX2 subtracts e·weight from the cells of the nrows brush
// rows around the sample at centre, four cells at a time and then one:
// the arithmetic of erodeBrushGo.
//
//go:noescape
func erodeBrushAVX2(centre *float64, rows *brushRow, nrows int, weights *float64, e float64)

// erodeBrush takes e·weight from each cell of the brush around sample
// centre, which lies wholly on the map.
func (hp *hydraulicParams) erodeBrush(z []float64, centre int, e float64) {
	if !brushAVX2 {
		hp.erodeBrushGo(z, centre, e)
		return
	}
	_, _ = z[centre+hp.brushLo], z[centre+hp.brushHi] // the brush is on the map
	erodeBrushAVX2(&z[centre], &hp.brushRows[0], len(hp.brushRows), &hp.brushWeights[0], e)
}
