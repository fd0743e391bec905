//go:build !amd64 || purego

package erosion

// erodeBrush takes e·weight from each cell of the brush around sample
// centre, which lies wholly on the map.
func (hp *hydraulicParams) erodeBrush(z []float64, centre int, e float64) {
	hp.erodeBrushGo(z, centre, e)
}
