package game

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/terrain"
	"cordillera/terrain/mesh"
)

// Mode is how the camera moves.
type Mode int

// The camera modes.
const (
	Fly  Mode = iota // free flight (the thesis's Camera class, section 4.3.2)
	Walk             // on foot: eye height above the ground, gravity, jumping
)

func (m Mode) String() string {
	if m == Walk {
		return "walk"
	}
	return "fly"
}

// Walking constants, in world units (metres) and seconds.
const (
	EyeHeight   = 1.7  // eye above the ground when walking
	Gravity     = 9.81 // downward acceleration when walking
	JumpSpeed   = 4.5  // upward speed of a jump
	WalkSpeed   = 4.0  // walking speed before the Shift boost
	WadeDepth   = 0.6  // deepest water a walker wades into: about knee deep
	nearDefault = 0.1  // near plane distance
)

// Camera is the viewer: a position, a heading (yaw around +y, 0 looking
// along +x) and a pitch (positive looks up), with a perspective lens.
type Camera struct {
	Pos        mgl32.Vec3
	Yaw, Pitch float32 // radians
	FovY       float32 // vertical field of view, radians
	Near, Far  float32
	Mode       Mode
	Speed      float32 // fly speed, world units per second
	// Water is the world height of the water surface, where Wet: a
	// walker wades up to WadeDepth into it and no deeper.
	Water float32
	Wet   bool
	// Beyond is the land drawn beyond the map (nil: none), faded towards
	// the level ground at BeyondLevel: a flying camera out there keeps
	// above it rather than above the map's nearest edge.
	Beyond      *terrain.Outside
	BeyondLevel float32
	// Surface is the ground as last drawn (nil: the finest mesh): a
	// walker stands on its triangles at the level of detail they were
	// drawn with.
	Surface DrawnSurface

	vy       float32 // vertical speed when walking
	grounded bool
}

// defaultFovY is the lens's vertical field of view: 60°.
const defaultFovY = math.Pi / 3

// NewCamera returns a fly camera with a 60° lens looking along +x.
func NewCamera() *Camera {
	return &Camera{FovY: defaultFovY, Near: nearDefault, Far: 1e5, Speed: 40}
}

// Forward is the unit viewing direction.
func (c *Camera) Forward() mgl32.Vec3 {
	cp := float32(math.Cos(float64(c.Pitch)))
	return mgl32.Vec3{
		cp * float32(math.Cos(float64(c.Yaw))),
		float32(math.Sin(float64(c.Pitch))),
		cp * float32(math.Sin(float64(c.Yaw))),
	}
}

// Right is the unit horizontal direction to the right of the view.
func (c *Camera) Right() mgl32.Vec3 {
	return mgl32.Vec3{-float32(math.Sin(float64(c.Yaw))), 0, float32(math.Cos(float64(c.Yaw)))}
}

// View is the world-to-eye matrix.
func (c *Camera) View() mgl32.Mat4 {
	f := c.Forward()
	up := mgl32.Vec3{0, 1, 0}
	if math.Abs(float64(f[1])) > 0.999 { // looking straight up or down
		up = mgl32.Vec3{float32(math.Cos(float64(c.Yaw))), 0, float32(math.Sin(float64(c.Yaw)))}
		if f[1] > 0 {
			up = up.Mul(-1)
		}
	}
	return mgl32.LookAtV(c.Pos, c.Pos.Add(f), up)
}

// Projection is the eye-to-clip matrix for a w×h screen.
func (c *Camera) Projection(w, h int) mgl32.Mat4 {
	return mgl32.Perspective(c.FovY, float32(w)/float32(h), c.Near, c.Far)
}

// Look turns the camera by dyaw, dpitch radians; the pitch stops at straight
// up and straight down.
func (c *Camera) Look(dyaw, dpitch float32) {
	c.Yaw = float32(math.Mod(float64(c.Yaw+dyaw), 2*math.Pi))
	c.Pitch = mgl32.Clamp(c.Pitch+dpitch, -math.Pi/2, math.Pi/2)
}

// Input is what the player asks of the camera during one tick.
type Input struct {
	Forward, Strafe, Lift float32 // each in [−1, 1]: W/S, D/A, up/down
	Boost                 bool    // Shift: move faster
	Jump                  bool
}

// boostFactor multiplies the speed while Shift is held.
const boostFactor = 4

// Step moves the camera by one tick of dt seconds over the ground m.
// Flying moves along the view direction and never goes below the ground;
// walking moves horizontally, falls under gravity and keeps the eye
// EyeHeight above the ground as drawn (groundAt).
func (c *Camera) Step(in Input, dt float32, m *terrain.Heightmap) {
	boost := float32(1)
	if in.Boost {
		boost = boostFactor
	}
	switch c.Mode {
	case Fly:
		v := c.Forward().Mul(in.Forward).Add(c.Right().Mul(in.Strafe)).Add(mgl32.Vec3{0, in.Lift, 0})
		c.Pos = c.Pos.Add(v.Mul(c.Speed * boost * dt))
		c.clampToMap(m)
		if m != nil {
			c.Pos[1] = max(c.Pos[1], c.groundAt(m)+c.Near*4)
		}
	case Walk:
		fwd := mgl32.Vec3{float32(math.Cos(float64(c.Yaw))), 0, float32(math.Sin(float64(c.Yaw)))}
		v := fwd.Mul(in.Forward).Add(c.Right().Mul(in.Strafe))
		if l := v.Len(); l > 1 {
			v = v.Mul(1 / l)
		}
		c.wade(v.Mul(WalkSpeed*boost*dt), m)
		if in.Jump && c.grounded {
			c.vy = JumpSpeed
		}
		c.vy -= Gravity * dt
		c.Pos[1] += c.vy * dt
		c.grounded = false
		if m != nil {
			if floor := c.groundAt(m) + EyeHeight; c.Pos[1] <= floor {
				c.Pos[1], c.vy, c.grounded = floor, 0, true
			}
		}
	}
}

// wade moves a walker by the horizontal step d, but not into water deeper
// than WadeDepth (unless that is shallower than where it stands, so that
// a walker set down in the sea can walk out): along the shore, the part
// of the step along the shore's axis that stays shallow is kept, so the
// walker slides along the water's edge rather than sticking to it.
func (c *Camera) wade(d mgl32.Vec3, m *terrain.Heightmap) {
	from := c.Pos
	here := c.depth(m)
	for _, step := range [3]mgl32.Vec3{d, {d[0], 0, 0}, {0, 0, d[2]}} {
		c.Pos = from.Add(step)
		c.clampToMap(m)
		if depth := c.depth(m); depth <= WadeDepth || depth <= here {
			return
		}
	}
	c.Pos = from
}

// depth is how deep the water is where the camera stands: negative on dry
// land, and always without water.
func (c *Camera) depth(m *terrain.Heightmap) float32 {
	if !c.Wet || m == nil {
		return -1
	}
	return c.Water - c.groundAt(m)
}

// SetMode switches between flying and walking; walking starts on the ground.
func (c *Camera) SetMode(mode Mode, m *terrain.Heightmap) {
	c.Mode, c.vy = mode, 0
	if mode == Walk && m != nil {
		c.Pos[1] = c.groundAt(m) + EyeHeight
		c.grounded = true
	}
}

// DrawnSurface is the ground a frame drew: its height at world (x, z)
// on map m, false where it drew none there or drew another map.
type DrawnSurface interface {
	DrawnHeight(m *terrain.Heightmap, x, z float64) (float64, bool)
}

// groundAt is the height of the ground under the camera as it is drawn:
// the triangles of the last frame's level of detail (Surface), with their
// borders stitched onto coarser neighbours, or where there are none the
// finest mesh's two planar triangles per cell (meshHeight); never the
// bilinear patch GroundHeight interpolates. Over a ridge cell the two
// differ by metres on a rough map, and an eye held above the bilinear
// patch stood inside the drawn hill and saw through it.
// Beyond the map's square it is the land drawn there (Beyond), where the
// world has one.
func (c *Camera) groundAt(m *terrain.Heightmap) float32 {
	x, z := float64(c.Pos[0]), float64(c.Pos[2])
	if w, d := m.Extent(); c.Beyond != nil && !(x >= 0 && x <= w && z >= 0 && z <= d) {
		return float32(c.Beyond.GroundHeight(x, z, c.BeyondLevel))
	}
	if c.Surface != nil {
		if h, ok := c.Surface.DrawnHeight(m, x, z); ok {
			return float32(h)
		}
	}
	return float32(meshHeight(m, x, z))
}

// DrawnHeight is the height at world (x, z) of the triangles the frame
// last built for map m (mesh.DrawnHeight).
func (f *frame) DrawnHeight(m *terrain.Heightmap, x, z float64) (float64, bool) {
	if !f.valid || f.built.m != m || m == nil {
		return 0, false
	}
	return mesh.DrawnHeight(f.chunks, m.CellSize, x, z)
}

// GroundBelow is the height of the ground drawn under the camera.
func (c *Camera) GroundBelow(m *terrain.Heightmap) float64 { return float64(c.groundAt(m)) }

// clampToMap keeps the camera over the map horizontally, with a margin for
// flying out to look back at it.
func (c *Camera) clampToMap(m *terrain.Heightmap) {
	if m == nil {
		return
	}
	w, d := m.Extent()
	margin := float32(0)
	if c.Mode == Fly {
		margin = float32(max(w, d))
	}
	c.Pos[0] = mgl32.Clamp(c.Pos[0], -margin, float32(w)+margin)
	c.Pos[2] = mgl32.Clamp(c.Pos[2], -margin, float32(d)+margin)
}

// Overview places the camera over the middle of the map's north edge
// (row 0) looking south across it: high enough to clear the map's peaks
// (overviewClearance height ranges) and to see its far edge at least
// overviewFarDepression below the horizon, pitched down so that the far
// edge stands overviewFarAbove above the view's centre, but at least
// overviewPitch, where the top tenth of the view is still sky over the
// land beyond the map. The map fills the view from its bottom edge, its
// foreground the map itself and not the coarser land beyond it: the
// default first view, and Home's.
func (c *Camera) Overview(m *terrain.Heightmap) {
	w, d := m.Extent()
	const inset = 0.1
	far := (1 - inset) * d     // to the far edge, along the ground
	mid := m.VerticalScale / 3 // about the height of the map's middle ground
	h := max(overviewClearance*m.VerticalScale, mid+far*math.Tan(overviewFarDepression*math.Pi/180))
	depression := math.Atan((h - mid) / far)
	c.Pos = mgl32.Vec3{float32(w / 2), float32(h), float32(inset * d)}
	c.Yaw = math.Pi / 2
	c.Pitch = -float32(max(overviewPitch*math.Pi/180, depression+overviewFarAbove*math.Pi/180))
	c.Mode = Fly
	c.Speed = float32(max(w, d) / 20)
}

// The overview's angles (degrees) and least height (in map height ranges).
const (
	overviewPitch         = 20
	overviewFarDepression = 14
	overviewFarAbove      = 6
	overviewClearance     = 1.15
)

// SwitchMode is the user's switch between flying and walking: walking
// starts on the ground looking level, not down from where the flight was,
// and the way the land stays nearest eye level (along a valley, down it),
// not into whatever hillside the flight faced.
func (c *Camera) SwitchMode(mode Mode, m *terrain.Heightmap) {
	if mode == Walk && c.Mode != Walk {
		c.Pitch = 0
		if m != nil {
			if yaw, ok := m.ViewHeading(float64(c.Pos[0]), float64(c.Pos[2])); ok {
				c.Yaw = float32(yaw)
			}
		}
	}
	c.SetMode(mode, m)
}
