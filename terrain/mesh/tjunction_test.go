package mesh

import (
	"math/rand/v2"
	"testing"
)

// edgeVertices returns the vertices of d's triangles that lie on the
// border at column col (alongRows) or row row, as sample position along
// the border → height.
func edgeVertices(d *ChunkDraw, alongRows bool, line int) map[int]float32 {
	out := map[int]float32{}
	for _, k := range d.Tris {
		col, row := d.Sample(int(k))
		switch {
		case alongRows && col == line:
			out[row] = d.Heights[k]
		case !alongRows && row == line:
			out[col] = d.Heights[k]
		}
	}
	return out
}

// Neighbouring chunks end in the same vertices, to the bit, along their
// shared edge, whatever their steps: a vertex that only one of them has
// would be a T-junction, whose rounding on screen opens pinholes.
func TestSelectNoTJunctions(t *testing.T) {
	m := hillsMap(257, 201, 11, 60)
	l := NewLOD(m, 16)
	rng := rand.New(rand.NewPCG(7, 7))
	var dst []ChunkDraw
	mixed := 0
	for trial := range 60 {
		x, z := rng.Float64()*300-20, rng.Float64()*240-20
		eye := groundEye(m, x, z, 1.7+rng.Float64()*rng.Float64()*150)
		cam := newPinhole(eye, rng.Float64()*360, -rng.Float64()*60, 320, 240, 40+rng.Float64()*50)
		dst = l.Select(cam.view(0.5+rng.Float64()*6), dst)
		at := map[[2]int]*ChunkDraw{}
		for k := range dst {
			at[[2]int{dst[k].Col0 / 16, dst[k].Row0 / 16}] = &dst[k]
		}
		compare := func(a, b *ChunkDraw, alongRows bool, line int) {
			if a.Step != b.Step {
				mixed++
			}
			va, vb := edgeVertices(a, alongRows, line), edgeVertices(b, alongRows, line)
			for p, h := range va {
				if hb, ok := vb[p]; !ok || hb != h {
					t.Fatalf("camera %d: chunks at (%d,%d) step %d and (%d,%d) step %d: vertex at %d on their edge is %v and %v (present %v)",
						trial, a.Col0, a.Row0, a.Step, b.Col0, b.Row0, b.Step, p, h, hb, ok)
				}
			}
			if len(va) != len(vb) {
				t.Fatalf("camera %d: chunks at (%d,%d) step %d and (%d,%d) step %d have %d and %d vertices on their edge",
					trial, a.Col0, a.Row0, a.Step, b.Col0, b.Row0, b.Step, len(va), len(vb))
			}
		}
		for key, d := range at {
			if r := at[[2]int{key[0] + 1, key[1]}]; r != nil {
				compare(d, r, true, d.Col1)
			}
			if b := at[[2]int{key[0], key[1] + 1}]; b != nil {
				compare(d, b, false, d.Row1)
			}
		}
	}
	if mixed < 100 {
		t.Errorf("only %d edges between chunks of different steps over all cameras", mixed)
	}
}

// Cutting border triangles at a finer neighbour's vertices keeps the
// chunk's surface: the pieces cover the chunk's square once, seen from
// above, with the winding of the cells (counter-clockwise from above,
// which is negative signed area in x, z).
func TestEdgeCutsTileTheChunk(t *testing.T) {
	m := hillsMap(257, 201, 11, 60)
	l := NewLOD(m, 16)
	rng := rand.New(rand.NewPCG(8, 8))
	var dst []ChunkDraw
	cut := 0
	for range 30 {
		x, z := rng.Float64()*300-20, rng.Float64()*240-20
		eye := groundEye(m, x, z, 1.7+rng.Float64()*80)
		cam := newPinhole(eye, rng.Float64()*360, -rng.Float64()*60, 320, 240, 60)
		dst = l.Select(cam.view(1+rng.Float64()*4), dst)
		for k := range dst {
			d := &dst[k]
			cut += len(d.Edge)
			area := 0.0
			for p := 0; p+2 < len(d.Tris); p += 3 {
				var q [3][2]float64
				for v := range 3 {
					c, r := d.Sample(int(d.Tris[p+v]))
					q[v] = [2]float64{float64(c), float64(r)}
				}
				a := (q[1][0]-q[0][0])*(q[2][1]-q[0][1]) - (q[2][0]-q[0][0])*(q[1][1]-q[0][1])
				if a >= 0 {
					t.Fatalf("chunk at (%d,%d): triangle %v has signed area %v; cuts must keep the winding and leave no slivers", d.Col0, d.Row0, q, a/2)
				}
				area -= a / 2
			}
			if want := float64((d.Col1 - d.Col0) * (d.Row1 - d.Row0)); area != want {
				t.Fatalf("chunk at (%d,%d): triangles cover %v cells², want %v", d.Col0, d.Row0, area, want)
			}
		}
	}
	if cut == 0 {
		t.Error("no chunk had a finer neighbour: the test cuts nothing")
	}
}
