package game

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

//go:generate go test . -run TestKeysDoc -update

var update = flag.Bool("update", false, "rewrite the generated key table of docs/explorer.md from keyBindings")

const (
	explorerDocPath = "../docs/explorer.md"
	keysBegin       = "<!-- keys: generated from game.keyBindings by: go test ./game -run TestKeysDoc -update -->\n"
	keysEnd         = "<!-- end of keys -->\n"
)

// keysDoc is docs/explorer.md's key table, made from keyBindings.
func keysDoc() string {
	var b strings.Builder
	b.WriteString("| key | action |\n| --- | --- |\n")
	for _, k := range keyBindings {
		doc := k.doc
		if doc == "" {
			doc = k.help
		}
		fmt.Fprintf(&b, "| %s | %s |\n", k.name, strings.ReplaceAll(doc, "|", `\|`))
	}
	return b.String()
}

// TestKeysDoc: the key table in docs/explorer.md (between its markers) is
// what keysDoc makes of keyBindings, so a key added to the table, or a
// binding changed, fails here until the doc is regenerated.
func TestKeysDoc(t *testing.T) {
	const regen = "go test ./game -run TestKeysDoc -update"
	doc, err := os.ReadFile(explorerDocPath)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(doc, []byte(keysBegin))
	j := bytes.Index(doc, []byte(keysEnd))
	if i < 0 || j < i {
		t.Fatalf("%s has no key table between the markers %q and %q", explorerDocPath, keysBegin, keysEnd)
	}
	got, want := string(doc[i+len(keysBegin):j]), keysDoc()
	if *update && got != want {
		out := bytes.Join([][]byte{doc[:i+len(keysBegin)], []byte(want), doc[j:]}, nil)
		if err := os.WriteFile(explorerDocPath, out, 0o644); err != nil {
			t.Fatal(err)
		}
		got = want
	}
	if got != want {
		t.Errorf("the key table of docs/explorer.md differs from keyBindings; regenerate it with: %s\ndoc:\n%s\ncode:\n%s", regen, got, want)
	}
}

// TestKeyBindingNames: every key a binding acts on is named in the text
// the help overlay and the docs show for it, no key has two actions, and
// every key binding has an action (a row without one is input read
// elsewhere and lists no keys).
func TestKeyBindingNames(t *testing.T) {
	spoken := map[ebiten.Key]string{ebiten.KeyEscape: "Esc"}
	seen := map[ebiten.Key]string{}
	for _, b := range keyBindings {
		if (b.act == nil) != (len(b.keys) == 0) {
			t.Errorf("%q: keys %v with act %v: a binding needs both or neither", b.name, b.keys, b.act != nil)
		}
		if b.help == "" {
			t.Errorf("%q has no help text", b.name)
		}
		for _, k := range b.keys {
			word, ok := spoken[k]
			if !ok {
				word = k.String()
			}
			if !strings.Contains(" "+b.name+" ", " "+word+" ") {
				t.Errorf("%q acts on %v but does not name it (%q)", b.name, k, word)
			}
			if other, dup := seen[k]; dup {
				t.Errorf("%v is bound twice: %q and %q", k, other, b.name)
			}
			seen[k] = b.name
		}
	}
}

// TestHelpOverlayListsEveryBinding: each binding is one line of the help
// overlay, its keys then its help text.
func TestHelpOverlayListsEveryBinding(t *testing.T) {
	lines := strings.Split(helpText, "\n")
	if len(lines) != len(keyBindings)+2 {
		t.Fatalf("help overlay has %d lines, want a title, %d bindings and the drop line:\n%s", len(lines), len(keyBindings), helpText)
	}
	for i, b := range keyBindings {
		l := lines[i+1]
		if !strings.HasPrefix(l, b.name+" ") || !strings.HasSuffix(l, "  "+b.help) {
			t.Errorf("help line %d is %q, want %q then %q", i+1, l, b.name, b.help)
		}
	}
}

// bindingFor is the binding acting on key k.
func bindingFor(t *testing.T, k ebiten.Key) keyBinding {
	t.Helper()
	for _, b := range keyBindings {
		for _, bk := range b.keys {
			if bk == k {
				return b
			}
		}
	}
	t.Fatalf("no binding acts on %v", k)
	return keyBinding{}
}

// TestKeyActions: each key's action changes what the explorer's old
// handleKeys changed, and pressing it twice toggles back (F5 cycles
// through its three texturings).
func TestKeyActions(t *testing.T) {
	g := undoGame(t)
	toggles := []struct {
		key   ebiten.Key
		state func() any
	}{
		{ebiten.KeyF2, func() any { return g.View.Wireframe }},
		{ebiten.KeyF3, func() any { return g.View.ColourScheme }},
		{ebiten.KeyF4, func() any { return g.View.FlatShading }},
		{ebiten.KeyF6, func() any { return g.View.FogDensity }},
		{ebiten.KeyF7, func() any { return g.FullMesh }},
		{ebiten.KeyH, func() any { return g.ShowHelp }},
		{ebiten.KeyF1, func() any { return g.ShowHelp }},
		{ebiten.KeyM, func() any { return g.ShowMinimap }},
		{ebiten.KeyU, func() any { return g.ShowUI }},
		{ebiten.KeyF12, func() any { return g.scene.shotPending }},
		{ebiten.KeyTab, func() any { return g.Camera.Mode }},
	}
	for _, tc := range toggles {
		b := bindingFor(t, tc.key)
		before := tc.state()
		b.act(g)
		if after := tc.state(); after == before {
			t.Errorf("%v left its state at %v", tc.key, after)
		}
		if tc.key == ebiten.KeyF12 {
			continue // a screenshot is taken, not toggled back
		}
		b.act(g)
		if again := tc.state(); again != before {
			t.Errorf("%v twice: %v, want %v back", tc.key, again, before)
		}
	}
	if g.View.FogDensity != 0 {
		t.Fatalf("fog %v after F6 twice, want off", g.View.FogDensity)
	}
	bindingFor(t, ebiten.KeyF6).act(g)
	if want := DefaultFog(g.World.Map); g.View.FogDensity != want {
		t.Errorf("F6 set fog %v, want DefaultFog %v", g.View.FogDensity, want)
	}
	start := g.View.Texturing
	f5 := bindingFor(t, ebiten.KeyF5)
	for i := range 3 {
		f5.act(g)
		if want := (start + Texturing(i) + 1) % 3; g.View.Texturing != want {
			t.Errorf("F5 press %d: texturing %v, want %v", i+1, g.View.Texturing, want)
		}
	}
	g.Follow = true
	bindingFor(t, ebiten.KeyHome).act(g)
	if g.Follow {
		t.Error("Home left the camera following the route")
	}
	bindingFor(t, ebiten.KeyEscape).act(g) // not captured: nothing to release
	if g.input.captured {
		t.Error("Esc captured the pointer")
	}
}
