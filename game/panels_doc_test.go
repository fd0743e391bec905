package game

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestPanelsAreAllListed: with every panel open, buildUI lays out the
// panels of panelNames, in that order.
func TestPanelsAreAllListed(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.OpenPanels(panelNames...)
	uiPixels(t, g)
	if !slices.Equal(g.ui.unfolded, panelNames) {
		t.Errorf("with every panel open buildUI unfolds %q; panelNames are %q", g.ui.unfolded, panelNames)
	}
}

// TestPanelsDoc: docs/explorer.md's Panels section names the panels of
// panelNames in their order, in its opening sentence and as its bullets,
// points to docs/viewer.md for the Viewer's settings, and names every fold
// of the Viewer panel in its order.
func TestPanelsDoc(t *testing.T) {
	src, err := os.ReadFile(explorerDocPath)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(src), "\n## Panels\n")
	if !ok {
		t.Fatalf("%s has no ## Panels section", explorerDocPath)
	}
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	words := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
	n := len(panelNames)
	list := strings.Join(panelNames[:n-1], ", ") + " and " + panelNames[n-1]
	if want := fmt.Sprintf("has %s panels", words[n]); !strings.Contains(section, want) {
		t.Errorf("the Panels section does not say the window %s", want)
	}
	if flat := strings.Join(strings.Fields(section), " "); !strings.Contains(flat, list) {
		t.Errorf("the Panels section does not list the panels as %q", list)
	}
	var bullets []string
	for _, m := range regexp.MustCompile(`(?m)^- \*\*(\w+)\*\*`).FindAllStringSubmatch(section, -1) {
		bullets = append(bullets, m[1])
	}
	if !slices.Equal(bullets, panelNames) {
		t.Errorf("the Panels section's bullets are %q; the panels are %q", bullets, panelNames)
	}
	_, viewer, _ := strings.Cut(section, "- **Viewer**")
	viewer, _, _ = strings.Cut(viewer, "\n- **")
	viewer = strings.Join(strings.Fields(viewer), " ")
	if !strings.Contains(viewer, "(viewer.md)") {
		t.Errorf("the Viewer bullet does not point to viewer.md, the table of its settings")
	}
	at := 0
	for _, fold := range viewerFolds {
		i := strings.Index(viewer[at:], "*"+fold+"*")
		if i < 0 {
			t.Errorf("the Viewer bullet does not name the fold *%s* after the folds before it", fold)
			continue
		}
		at += i
	}
}
