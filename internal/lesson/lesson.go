// Package lesson reads and writes the state of a Teach lesson as a
// lecturer hands it on: which lesson, the stage or octave or erosion
// batch shown, the plot beside it and the camera. The browser's links
// ("#algorithm=midpoint&size=17&lesson=subdivision&stage=2a") and the
// explore and render commands' flags ("-lesson subdivision -stage 2a")
// both go through State.Set, so a link and a command line name the same
// state in the same words. The lesson's algorithm and map size are the
// generator's own parameters (algorithm=, size=), not keys of their own.
package lesson

import (
	"flag"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"cordillera/terrain"
)

// Lessons are the Teach panel's lessons, as a link or flag names them.
// compare steps midpoint displacement and diamond-square side by side
// with one seed; profile is the 1-D midpoint displacement and fBm of a
// first lecture.
var Lessons = []string{"subdivision", "octaves", "erosion", "thermal", "fluvial", "compare", "profile"}

// StageLessons are the lessons that take stage=: the subdivision stages
// (0, 1a, 1b, …) of subdivision and compare, the iterations n (0 … N) of
// the 1-D profile.
var StageLessons = []string{"subdivision", "compare", "profile"}

// OctaveLessons are the lessons that take octave=.
var OctaveLessons = []string{"octaves", "profile"}

// Plots are the plot kinds the Teach panel can show beside a lesson.
var Plots = []string{"profile", "histogram", "spectrum"}

// Sizes are the map sides offered for stepping through subdivision: small
// enough to see every point.
var Sizes = []int{5, 9, 17, 33, 65, 129}

// ErosionBatches is how many droplet batches the erosion lesson plays: one
// droplet per cell at the default density. Single steps go on to
// MaxBatches, ten droplets per cell.
const (
	ErosionBatches = 40
	MaxBatches     = 10 * ErosionBatches
)

// MaxDroplets bounds the erosion lesson's single droplets a link may
// name: more than a 257² map has at 10 droplets a cell. A number past the
// stage's last droplet shows the last.
const MaxDroplets = 1 << 20

// Keys are the lesson's own keys, in the order a link writes them.
var Keys = []string{"lesson", "stage", "octave", "batch", "droplet", "step", "plot", "camera", "point"}

// Pose is a camera: its position in world units and its heading in
// degrees, as render's -camera gives it.
type Pose struct {
	X, Y, Z, Yaw, Pitch float32
}

// State is a lesson as shown. The zero State is no lesson, no plot, the
// camera where the explorer puts it.
type State struct {
	Lesson string // "", or one of Lessons
	Stage  int    // subdivision: the stages shown, 0 (the corners) … 2N
	Octave int    // octaves: the octaves summed, 1 … octaves; 0 for all of them
	Batch  int    // erosion: the droplet batches run, 0 … MaxBatches
	// Droplet is the erosion lesson's droplets run one at a time (the
	// last of them shown with its state), 0 … MaxDroplets; Step the
	// thermal lesson's sweeps or the fluvial lesson's time steps run.
	Droplet int
	Step    int
	Plot    string // "", or one of Plots
	Camera  *Pose  // nil: the lesson's own framing (or the overview)
	// Point is the subdivision diagram's point clicked, or the thermal
	// or fluvial lesson's sample shown, (col, row); nil for none (the
	// wear lessons then pick a sample of their own).
	Point *[2]int
}

// Set reads one key's value, as a link's key=value or a flag: the error
// names the key and what it accepts.
func (s *State) Set(key, value string) error {
	switch key {
	case "lesson":
		if value != "" && !slices.Contains(Lessons, value) {
			return fmt.Errorf("lesson %q: want one of %s", value, strings.Join(Lessons, ", "))
		}
		s.Lesson = value
	case "stage":
		k, err := ParseStage(value)
		if err != nil {
			return err
		}
		s.Stage = k
	case "octave", "batch", "droplet", "step":
		return s.setCount(key, value)
	case "plot":
		if value == "none" {
			value = ""
		}
		if value != "" && !slices.Contains(Plots, value) {
			return fmt.Errorf("plot %q: want one of none, %s", value, strings.Join(Plots, ", "))
		}
		s.Plot = value
	case "point":
		var x, y int
		if n, err := fmt.Sscanf(value, "%d,%d", &x, &y); n != 2 || err != nil || x < 0 || y < 0 || fmt.Sprintf("%d,%d", x, y) != value {
			return fmt.Errorf("point %q: want the diagram point or sample clicked as col,row, two whole numbers from 0", value)
		}
		s.Point = &[2]int{x, y}
	case "camera":
		p, err := ParsePose(value)
		if err != nil {
			return fmt.Errorf("camera %w", err)
		}
		s.Camera = &p
	default:
		return fmt.Errorf("unknown lesson key %q (want one of %s)", key, strings.Join(Keys, ", "))
	}
	return nil
}

// counts are the lesson's whole-number keys: their range and what a
// number counts, for the message that refuses one out of range.
var counts = map[string]struct {
	min, max int
	what     string
}{
	"octave":  {1, math.MaxInt32, "the number of octaves summed, 1 or more"},
	"batch":   {0, MaxBatches, fmt.Sprintf("the droplet batches run, 0 to %d", MaxBatches)},
	"droplet": {0, MaxDroplets, fmt.Sprintf("the droplets run one at a time, 0 to %d", MaxDroplets)},
	"step":    {0, 100000, "the thermal sweeps or fluvial time steps run, 0 or more"},
}

// setCount reads one of the whole-number keys in counts.
func (s *State) setCount(key, value string) error {
	c := counts[key]
	k, err := strconv.Atoi(value)
	if err != nil || k < c.min || k > c.max {
		return fmt.Errorf("%s %q: want %s", key, value, c.what)
	}
	switch key {
	case "octave":
		s.Octave = k
	case "batch":
		s.Batch = k
	case "droplet":
		s.Droplet = k
	default:
		s.Step = k
	}
	return nil
}

// Check refuses a state that p's lesson cannot show: a stage past the
// last, more octaves than p sums, a key of another lesson than the one
// named. The error names the key.
func (s State) Check(p terrain.Params) error {
	if s.Stage != 0 {
		if !slices.Contains(StageLessons, s.Lesson) {
			return fmt.Errorf("stage %s: needs lesson %s", StageLabel(s.Stage), strings.Join(StageLessons, ", "))
		}
		if s.Lesson == "profile" {
			if last := ProfileIterations(p); s.Stage > last {
				return fmt.Errorf("stage %d: the %d-point profile has iterations 0 to %d", s.Stage, SubdivisionSize(p), last)
			}
		} else if last := Stages(p); s.Stage > last {
			return fmt.Errorf("stage %s: the %d² map has stages 0 to %s", StageLabel(s.Stage), SubdivisionSize(p), StageLabel(last))
		}
	}
	if s.Octave != 0 {
		if !slices.Contains(OctaveLessons, s.Lesson) {
			return fmt.Errorf("octave %d: needs lesson %s", s.Octave, strings.Join(OctaveLessons, " or "))
		}
		if s.Octave > p.Octaves {
			return fmt.Errorf("octave %d: the map sums %d octaves (octaves=%d)", s.Octave, p.Octaves, p.Octaves)
		}
	}
	if s.Point != nil {
		var n int
		switch s.Lesson {
		case "subdivision":
			n = SubdivisionSize(p)
		case "thermal", "fluvial":
			n = WearSize(p)
		default:
			return fmt.Errorf("point %d,%d: needs lesson subdivision, thermal or fluvial", s.Point[0], s.Point[1])
		}
		if s.Point[0] >= n || s.Point[1] >= n {
			return fmt.Errorf("point %d,%d: outside the %d² map (0 to %d)", s.Point[0], s.Point[1], n, n-1)
		}
	}
	if s.Batch != 0 && s.Lesson != "erosion" {
		return fmt.Errorf("batch %d: needs lesson erosion", s.Batch)
	}
	if s.Droplet != 0 {
		if s.Lesson != "erosion" {
			return fmt.Errorf("droplet %d: needs lesson erosion", s.Droplet)
		}
		if s.Batch != 0 {
			return fmt.Errorf("droplet %d: batch %d names the other way through the lesson (batches or single droplets): give one", s.Droplet, s.Batch)
		}
	}
	if s.Step != 0 {
		switch s.Lesson {
		case "thermal":
			if s.Step > p.ThermalIterations {
				return fmt.Errorf("step %d: the thermal stage runs %d sweeps (thermal-iterations=%d)", s.Step, p.ThermalIterations, p.ThermalIterations)
			}
		case "fluvial":
			if s.Step > p.FluvialSteps {
				return fmt.Errorf("step %d: the fluvial stage runs at most %d time steps (fluvial-steps=%d)", s.Step, p.FluvialSteps, p.FluvialSteps)
			}
		default:
			return fmt.Errorf("step %d: needs lesson thermal or fluvial", s.Step)
		}
	}
	return nil
}

// Pairs returns the state's keys and values that differ from the zero
// State, in the order of Keys; Set reads each back to the same state.
func (s State) Pairs() [][2]string {
	var out [][2]string
	add := func(k, v string) { out = append(out, [2]string{k, v}) }
	if s.Lesson != "" {
		add("lesson", s.Lesson)
	}
	if s.Stage != 0 {
		if s.Lesson == "profile" { // an iteration n, not a stage of two passes
			add("stage", strconv.Itoa(s.Stage))
		} else {
			add("stage", StageLabel(s.Stage))
		}
	}
	if s.Octave != 0 {
		add("octave", strconv.Itoa(s.Octave))
	}
	if s.Batch != 0 {
		add("batch", strconv.Itoa(s.Batch))
	}
	if s.Droplet != 0 {
		add("droplet", strconv.Itoa(s.Droplet))
	}
	if s.Step != 0 {
		add("step", strconv.Itoa(s.Step))
	}
	if s.Plot != "" {
		add("plot", s.Plot)
	}
	if s.Camera != nil {
		add("camera", s.Camera.String())
	}
	if s.Point != nil {
		add("point", fmt.Sprintf("%d,%d", s.Point[0], s.Point[1]))
	}
	return out
}

// String writes a pose as x,y,z,yaw,pitch, each number in the shortest
// form that reads back to the same float32.
func (p Pose) String() string {
	f := func(v float32) string { return strconv.FormatFloat(float64(v), 'f', -1, 32) }
	return strings.Join([]string{f(p.X), f(p.Y), f(p.Z), f(p.Yaw), f(p.Pitch)}, ",")
}

// ParsePose reads "x,y,z,yaw,pitch": world units and degrees.
func ParsePose(s string) (Pose, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 5 {
		return Pose{}, fmt.Errorf("%q: want five numbers x,y,z,yaw,pitch", s)
	}
	var v [5]float32
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 32)
		if err != nil || math.IsNaN(f) || f > 1e7 || f < -1e7 {
			return Pose{}, fmt.Errorf("%q: %q is not a usable number", s, p)
		}
		v[i] = float32(f)
	}
	return Pose{X: v[0], Y: v[1], Z: v[2], Yaw: v[3], Pitch: v[4]}, nil
}

// StageLabel names the k-th subdivision stage as the diamond-square
// article's figure does: 0 for the corners, then "1a", "1b" for the two
// passes of iteration 1 (diamond and square, or edges and centres), "2a",
// "2b" and so on.
func StageLabel(k int) string {
	if k <= 0 {
		return "0"
	}
	return strconv.Itoa((k+1)/2) + string(rune('a'+(k+1)%2))
}

// ParseStage reads a stage as its label ("2a") or its number among the
// stages (3, the same stage).
func ParseStage(v string) (int, error) {
	if k, err := strconv.Atoi(v); err == nil {
		if k < 0 {
			return 0, fmt.Errorf("stage %q: want 0 or more, or a label such as 2a", v)
		}
		return k, nil
	}
	if n := len(v); n >= 2 && (v[n-1] == 'a' || v[n-1] == 'b') {
		if it, err := strconv.Atoi(v[:n-1]); err == nil && it >= 1 && v[0] != '+' {
			return 2*it - 1 + int(v[n-1]-'a'), nil
		}
	}
	return 0, fmt.Errorf("stage %q: want a stage as the figure labels it (0, 1a, 1b, 2a, …) or its number (0, 1, 2, …)", v)
}

// SubdivisionAlgorithm is the algorithm the subdivision lesson steps
// through for p: p's own where it is a subdivision generator, midpoint
// displacement otherwise.
func SubdivisionAlgorithm(p terrain.Params) terrain.Algorithm {
	if p.Algorithm.IsSubdivision() {
		return p.Algorithm
	}
	return terrain.Midpoint
}

// SubdivisionSize is the map side of the subdivision lesson for p: p's
// own where it is one of Sizes, the smallest otherwise.
func SubdivisionSize(p terrain.Params) int {
	if slices.Contains(Sizes, p.Size) {
		return p.Size
	}
	return Sizes[0]
}

// WearSide is the largest map side of the erosion, thermal and fluvial
// lessons: a batch of droplets or a sweep takes milliseconds.
const WearSide = 257

// WearSize is the map side of the erosion, thermal and fluvial lessons
// for p: p's own up to WearSide; WearSide for a subdivision generator,
// whose small lesson sizes are for stepping through, not for wearing.
func WearSize(p terrain.Params) int {
	if p.Algorithm.IsSubdivision() {
		return WearSide
	}
	return min(p.Size, WearSide)
}

// Stages is the number of the subdivision lesson's last stage for p: two
// per iteration, 2N for a (2^N+1)² map.
func Stages(p terrain.Params) int {
	return 2 * (bits.Len(uint(SubdivisionSize(p)-1)) - 1)
}

// ProfileIterations is the number N of the profile lesson's last
// iteration: its profile has SubdivisionSize(p) = 2^N + 1 points.
func ProfileIterations(p terrain.Params) int {
	return bits.Len(uint(SubdivisionSize(p)-1)) - 1
}

// AddFlags defines the lesson's keys as flags of fs (-lesson, -stage,
// -octave, -batch, -plot and, with camera, -camera), each read by Set
// into s.
func AddFlags(fs *flag.FlagSet, s *State, camera bool) {
	help := map[string]string{
		"lesson":  "open a Teach lesson: " + strings.Join(Lessons, ", ") + " (its map comes from -algorithm and -size, as a link's)",
		"batch":   fmt.Sprintf("with -lesson erosion: the droplet batches run, 0 to %d (%d make one droplet per cell)", MaxBatches, ErosionBatches),
		"droplet": "with -lesson erosion: the droplets run one at a time from the uneroded map, the last shown with its path and state (instead of -batch)",
		"step":    "with -lesson thermal: the sweeps run; with -lesson fluvial: the time steps run",
		"plot":    "the Teach panel's plot beside the view: none, " + strings.Join(Plots, ", "),
		"camera":  "camera as x,y,z,yaw,pitch (world units, degrees); default: the lesson's framing",
		"stage":   "with -lesson subdivision or compare: the stage shown, 0, 1a, 1b, 2a, … (or its number 0, 1, 2, …); with -lesson profile: the iteration n, 0 to N",
		"octave":  "with -lesson octaves or profile: the octaves summed, 1 to -octaves (default all)",
		"point":   "with -lesson subdivision: the diagram's point clicked, col,row (its parents, mean, R and z shown); with -lesson thermal or fluvial: the sample whose numbers are shown",
	}
	for _, key := range Keys {
		if key == "camera" && !camera {
			continue
		}
		fs.Func(key, help[key], func(v string) error {
			if err := s.Set(key, v); err != nil {
				// flag prefixes the flag's name already: keep the rest.
				return fmt.Errorf("%s", strings.TrimPrefix(err.Error(), key+" "))
			}
			return nil
		})
	}
}
