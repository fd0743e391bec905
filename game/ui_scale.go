package game

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ebitengine/debugui"

	"cordillera/internal/atomicfile"
)

// The panels' scale, for a projector or a large screen: the debug UI's
// font is a 12-pixel bitmap face whose capitals are 8 pixels tall, too
// small to read from the back of a lecture room at 1920×1080. 1.5×
// and 2× draw every widget, glyph and tooltip that much larger (at 2×
// capitals are 16 pixels); the pointer is divided by the same scale.

// UIScales are the panels' scales offered: the Viewer's Window row and
// explore's -ui-scale take one of them.
var UIScales = []float64{1, 1.5, 2}

// uiScaleNames are UIScales as the Window row lists them.
var uiScaleNames = []string{"1×", "1.5×", "2×"}

// ParseUIScale reads a scale as -ui-scale gives it: 1, 1.5 or 2 (a
// trailing x or × allowed).
func ParseUIScale(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimRight(strings.TrimSpace(s), "x×"), 64)
	if err != nil || !slices.Contains(UIScales, v) {
		return 0, fmt.Errorf("ui scale %q: want 1, 1.5 or 2", s)
	}
	return v, nil
}

// uiScale is the panels' scale (1 until one is set).
func (u *uiState) uiScale() float64 {
	if u.scale == 0 {
		return 1
	}
	return u.scale
}

// px is a length in the panels' units as screen pixels at their scale.
func (u *uiState) px(n int) int { return int(math.Round(float64(n) * u.uiScale())) }

// strip is the width in screen pixels of the window's left strip that
// holds the panels (panelStrip at scale 1).
func (u *uiState) strip() int { return u.px(panelStrip) }

// UIScale is the panels' scale.
func (g *Game) UIScale() float64 { return g.ui.uiScale() }

// SetUIScale sets the panels' scale, one of UIScales.
func (g *Game) SetUIScale(s float64) error {
	if !slices.Contains(UIScales, s) {
		return fmt.Errorf("ui scale %g: want 1, 1.5 or 2", s)
	}
	g.ui.scale = s
	return nil
}

// uiScaleRow is the Viewer's Window row: the panels' scale, remembered
// for the next run (SavePrefs).
func (g *Game) uiScaleRow(ctx *debugui.Context) {
	ctx.SetGridLayout([]int{specLabelW, -1}, nil)
	g.ui.labelWithTip(ctx, "Window scale", "-ui-scale 1, 1.5 or 2: the panels' size, for a projector or a large screen (2: capitals 16 pixels tall); kept for the next run")
	i := max(slices.Index(UIScales, g.ui.uiScale()), 0)
	ctx.Dropdown(&i, uiScaleNames).On(func() {
		g.ui.scale = UIScales[i]
		if err := SavePrefs(Prefs{UIScale: g.ui.scale}); err != nil {
			g.ui.fail(err)
		}
	})
}

// Prefs are the explorer's settings kept from one run to the next: only
// the panels' scale, a property of the screen and the room rather than
// of a world (worlds and looks go in parameter files and links).
type Prefs struct {
	UIScale float64 `json:"ui_scale,omitempty"`
}

// PrefsFile is where Prefs are kept: cordillera/explorer.json in the
// user's configuration folder ($XDG_CONFIG_HOME, ~/.config on Linux).
func PrefsFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("explorer settings: %w", err)
	}
	return filepath.Join(dir, "cordillera", "explorer.json"), nil
}

// LoadPrefs reads the settings kept; none kept yet is the zero Prefs. A
// damaged file is an error naming it.
func LoadPrefs() (Prefs, error) {
	path, err := PrefsFile()
	if err != nil {
		return Prefs{}, err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Prefs{}, nil
	}
	if err != nil {
		return Prefs{}, fmt.Errorf("explorer settings: %w", err)
	}
	var p Prefs
	if err := json.Unmarshal(data, &p); err != nil {
		return Prefs{}, fmt.Errorf("explorer settings %s: %w", path, err)
	}
	if p.UIScale != 0 && !slices.Contains(UIScales, p.UIScale) {
		return Prefs{}, fmt.Errorf("explorer settings %s: ui_scale %g: want 1, 1.5 or 2", path, p.UIScale)
	}
	return p, nil
}

// SavePrefs keeps p for the next run.
func SavePrefs(p Prefs) error {
	path, err := PrefsFile()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("explorer settings: %w", err)
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	})
}
