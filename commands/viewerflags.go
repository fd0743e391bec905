package commands

import (
	"flag"
	"fmt"

	"cordillera/game"
)

// viewerFlags are render's flags of the Viewer's settings, one for each
// setting of game.ViewerSpecs that names a flag, in its order: each one
// given overrides the preset's look.
type viewerFlags struct {
	given map[string]string // the text given, by flag name
}

// viewerFlag is one of them; its value is checked as it is parsed.
type viewerFlag struct {
	spec  game.ViewerSpec
	flags *viewerFlags
}

func (f *viewerFlag) String() string { return "" } // the usage gives the default

func (f *viewerFlag) Set(text string) error {
	v := game.DefaultViewer()
	if err := f.spec.Set(&v, text); err != nil {
		return err
	}
	f.flags.given[f.spec.Flag] = text
	return nil
}

// IsBoolFlag lets a switch stand alone (-wireframe) or take =false.
func (f *viewerFlag) IsBoolFlag() bool { return f.spec.Kind == game.ViewerBool }

// addViewerFlags defines the flags of the Viewer's settings on fs.
func addViewerFlags(fs *flag.FlagSet) *viewerFlags {
	vf := &viewerFlags{given: map[string]string{}}
	def := game.DefaultViewer()
	for _, s := range game.ViewerSpecs {
		if s.Flag == "" {
			continue
		}
		usage := fmt.Sprintf("%s (%g to %g; default: the preset's, %s in the default look)", s.Doc, s.Min, s.Max, s.Get(&def))
		switch s.Kind {
		case game.ViewerBool:
			usage = fmt.Sprintf("%s; =false turns it off (default: the preset's, %s in the default look)", s.Doc, s.Get(&def))
		case game.ViewerChoice:
			usage = fmt.Sprintf("%s: %v (default: the preset's, %s in the default look)", s.Doc, s.Choices, s.Get(&def))
		}
		fs.Var(&viewerFlag{s, vf}, s.Flag, usage)
	}
	return vf
}

// isGiven reports whether the flag was on the command line.
func (vf *viewerFlags) isGiven(name string) bool {
	_, ok := vf.given[name]
	return ok
}

// apply sets v's settings whose flags were given, in the table's order.
func (vf *viewerFlags) apply(v *game.Viewer) {
	for _, s := range game.ViewerSpecs {
		if text, ok := vf.given[s.Flag]; ok && s.Flag != "" {
			_ = s.Set(v, text) // checked when the flag was parsed
		}
	}
}
