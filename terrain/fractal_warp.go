package terrain

import "cordillera/noise"

// warpRow writes the first-octave coordinates of every sample of a row
// after the domain distortion, exactly what point returns for each
// column, with the two distortion noises evaluated a row at a time
// (noise.ValuePoints: simplex noise in the vector kernel). wx and wy are
// scratch rows as long as xs.
func (s *synthesis) warpRow(row int, xs, ys, wx, wy []float64) {
	y := float64(float64(row*s.stride)*s.freq) + gridOffset
	for col := range xs {
		xs[col], ys[col] = float64(float64((s.col0+col)*s.stride)*s.freq)+gridOffset, y
	}
	// Both noises at the undistorted point, as point's tuple assignment
	// reads them.
	noise.ValuePoints(s.warpX, xs, ys, wx)
	noise.ValuePoints(s.warpY, xs, ys, wy)
	wx, wy = wx[:len(xs)], wy[:len(xs)]
	for col := range xs {
		xs[col], ys[col] = xs[col]+float64(s.alpha*wx[col]), ys[col]+float64(s.alpha*wy[col])
	}
}
