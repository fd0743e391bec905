// Package terrain makes heightmaps: the Heightmap itself, the parameter
// table (Params, Specs, presets) that drives the CLI flags, the JSON files
// and the debug UI, and the generators and transforms — subdivision
// (midpoint displacement, diamond-square), fractal noise synthesis (fBm and
// its multifractal variants), domain distortion and post-effects — with
// the step-through views of them the Teach panel shows.
//
// Everything here is pure Go with no graphics dependency: generators take a
// context.Context so that a newer request can cancel older work, report
// progress in [0, 1], split their rows across all cores, and are
// deterministic for a seed. terrain knows nothing of erosion, routes, files,
// meshes or the explorer: those packages build on it.
package terrain

import (
	"cordillera/internal/parallel"
	"fmt"
	"math"
)

// Heightmap is a grid of height samples, row-major, row 0 first.
//
// Generated maps hold normalised heights in [0, 1]; CellSize and
// VerticalScale turn a sample (col, row, h) into world units:
// (col·CellSize, h·VerticalScale, row·CellSize).
type Heightmap struct {
	Width, Height int
	Samples       []float32 // len Width*Height; Samples[row*Width+col]

	CellSize      float64 // horizontal distance between neighbouring samples, in world units (metres)
	VerticalScale float64 // world height of a sample value of 1, in world units (metres)
}

// NewHeightmap returns a zeroed w×h map with unit cell size and vertical scale.
func NewHeightmap(w, h int) *Heightmap {
	return &Heightmap{Width: w, Height: h, Samples: make([]float32, w*h), CellSize: 1, VerticalScale: 1}
}

// At returns the sample at column x, row y.
func (m *Heightmap) At(x, y int) float32 { return m.Samples[y*m.Width+x] }

// Set stores the sample at column x, row y.
func (m *Heightmap) Set(x, y int, v float32) { m.Samples[y*m.Width+x] = v }

// Range returns the smallest and largest sample.
func (m *Heightmap) Range() (lo, hi float32) {
	if len(m.Samples) == 0 {
		return 0, 0
	}
	lo, hi = m.Samples[0], m.Samples[0]
	for _, v := range m.Samples {
		lo = min(lo, v)
		hi = max(hi, v)
	}
	return lo, hi
}

// Normalize rescales the samples linearly onto [0, 1] (thesis ch. 6.1: the
// generators' raw ranges differ widely, so every map is normalised before
// the post-effects). A flat map becomes all zeros.
func (m *Heightmap) Normalize() {
	lo, hi := m.Range()
	span := float64(hi) - float64(lo)
	for i, v := range m.Samples {
		if span == 0 {
			m.Samples[i] = 0
			continue
		}
		m.Samples[i] = float32((float64(v) - float64(lo)) / span)
	}
}

// Validate reports whether the map is internally consistent and finite.
func (m *Heightmap) Validate() error {
	switch {
	case m.Width <= 0 || m.Height <= 0:
		return fmt.Errorf("heightmap: size %d×%d must be positive", m.Width, m.Height)
	case len(m.Samples) != m.Width*m.Height:
		return fmt.Errorf("heightmap: %d samples for a %d×%d map", len(m.Samples), m.Width, m.Height)
	case !(m.CellSize > 0) || math.IsInf(m.CellSize, 0):
		return fmt.Errorf("heightmap: cell size %v must be positive and finite", m.CellSize)
	case !(m.VerticalScale > 0) || math.IsInf(m.VerticalScale, 0):
		return fmt.Errorf("heightmap: vertical scale %v must be positive and finite", m.VerticalScale)
	}
	for i, v := range m.Samples {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("heightmap: sample %d (col %d, row %d) is %v", i, i%m.Width, i/m.Width, v)
		}
	}
	return nil
}

// Progress receives the fraction of a generation that is done, in [0, 1].
// It is called from several goroutines and must be safe for that; nil is allowed.
type Progress = parallel.Progress

// Every returns the map of every k-th sample of m in each direction
// (corners included where the side minus one is a multiple of k), with
// cells k times as large; m itself when k is 1.
func (m *Heightmap) Every(k int) *Heightmap {
	if k <= 1 {
		return m
	}
	t := NewHeightmap((m.Width-1)/k+1, (m.Height-1)/k+1)
	t.CellSize, t.VerticalScale = m.CellSize*float64(k), m.VerticalScale
	for row := range t.Height {
		src := m.Samples[row*k*m.Width:]
		dst := t.Samples[row*t.Width : (row+1)*t.Width]
		for col := range dst {
			dst[col] = src[col*k]
		}
	}
	return t
}
