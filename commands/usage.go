// Package commands holds Cordillera's subcommands — generate, build, presets,
// explore, render, sweep, plot, analyze and web — each a function of its
// arguments and output streams, so the tests run them in-process. main.go only
// dispatches to them, through Commands. The commands make worlds through
// pipeline and write them through terrain/heightfile; they hold no terrain
// maths of their own.
package commands

import (
	"fmt"
	"io"
	"strings"
)

// Command is one subcommand of cordillera: its name, the ways it is called
// with what each does (the lines of the command list), and what runs it.
type Command struct {
	Name  string
	Forms []Form
	Run   func(args []string, stdout, stderr io.Writer) error

	// NoFlags: the command takes no flags, so "help NAME" prints its forms
	// instead of running it with -help.
	NoFlags bool
}

// Form is one way to call a command: the arguments after "cordillera"
// and what that call does.
type Form struct{ Call, What string }

// Commands is the one command table: main dispatches through it, and
// "cordillera help", "--help", "help NAME", the README's command list and
// main.go's doc comment are made from it. It is a function, not a
// variable, because help reads the table it belongs to.
func Commands() []Command {
	return []Command{
		{Name: "explore", Run: Explore, Forms: []Form{
			{"[explore] [flags]", "open the 3D explorer on the default world (or -preset, -heightmap)"}}},
		{Name: "render", Run: Render, Forms: []Form{
			{"render -o shot.png [flags]", "render one frame of the explorer to a PNG (needs a display)"}}},
		{Name: "generate", Run: Generate, Forms: []Form{
			{"generate -o OUT [flags]", "generate a heightmap (.png, .r16/.raw, .exr, .tif, .obj, .glb/.gltf)"}}},
		{Name: "build", Run: Build, Forms: []Form{
			{"build -o DIR -world N -tile N [flags]", "a world larger than one map as tiles, a GDAL VRT and a manifest; resumable, -shard K/N splits it"}}},
		{Name: "presets", NoFlags: true, Run: func(_ []string, stdout, _ io.Writer) error { return Presets(stdout) }, Forms: []Form{
			{"presets", "list the built-in presets"}}},
		{Name: "sweep", Run: Sweep, Forms: []Form{
			{"sweep -param NAME -values V1,V2,... -o sheet.png [flags]", "one parameter at several values, as a contact sheet of shaded reliefs"},
			{"sweep -figure fig7.5 -o sheet.png", "redraw a thesis figure (7.4–7.14); -list lists them"}}},
		{Name: "plot", Run: Plot, Forms: []Form{
			{"plot -kind profile|histogram|spectrum -o plot.png [flags]", "a height profile, the height histogram, or the power spectrum with its slope"}}},
		{Name: "analyze", Run: Analyze, Forms: []Form{
			{"analyze MAP | -preset NAME [-json] [-picture relief.png]", "slope, hypsometry, drainage density, concavity, Hack and spectral exponents of a map"}}},
		{Name: "web", Run: Web, Forms: []Form{
			{"web [-o DIR] [-serve :8080]", "the explorer and its lessons as a web page (builds it with the Go toolchain)"}}},
		{Name: "help", NoFlags: true, Run: help, Forms: []Form{
			{"help [COMMAND]", "this list, or one command's flags"}}},
	}
}

// Lookup returns the command called name.
func Lookup(name string) (Command, bool) {
	for _, c := range Commands() {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// formColumn is where the command list's descriptions start; a call
// longer than that puts its description on the next line.
const formColumn = 41

// formLines writes a command's forms as lines of the command list.
func formLines(b *strings.Builder, c Command) {
	for _, f := range c.Forms {
		call := "  cordillera " + f.Call
		if len(call) < formColumn {
			fmt.Fprintf(b, "%-*s%s\n", formColumn, call, f.What)
		} else {
			fmt.Fprintf(b, "%s\n%*s%s\n", call, formColumn, "", f.What)
		}
	}
}

// UsageText is the list of commands, as "cordillera help" prints it.
func UsageText() string {
	var b strings.Builder
	b.WriteString("usage:\n")
	for _, c := range Commands() {
		formLines(&b, c)
	}
	b.WriteString("\nRun 'cordillera help COMMAND' for a command's flags. The documentation is in\nREADME.md and docs/ beside the program's source.\n")
	return b.String()
}

// Usage prints the list of commands.
func Usage(w io.Writer) { fmt.Fprint(w, UsageText()) }

// help runs "cordillera help [COMMAND]": the command list, or one
// command's flags (its -help), or the forms of a command without flags.
func help(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		Usage(stdout)
		return nil
	}
	c, ok := Lookup(args[0])
	if !ok {
		Usage(stderr)
		return fmt.Errorf("unknown command %q", args[0])
	}
	if c.NoFlags {
		var b strings.Builder
		b.WriteString("usage:\n")
		formLines(&b, c)
		fmt.Fprint(stdout, b.String())
		return nil
	}
	return c.Run([]string{"-help"}, stdout, stderr)
}
