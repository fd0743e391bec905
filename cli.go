package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"cordillera/terrain"
)

// errUsage marks an error the flag package has already reported; errHelp a
// request for the flag list, which has been printed.
var (
	errUsage = errors.New("usage")
	errHelp  = errors.New("help")
)

// generateOptions are the parsed flags of the generate command.
type generateOptions struct {
	out, paramsOut string
	params         terrain.Params
}

// parseGenerateFlags builds the generate command's flag set from the
// parameter table: one flag per parameter, plus -o, -preset and
// -params-out. Flags given on the command line override the preset, in
// whatever order they appear.
func parseGenerateFlags(args []string, stderr io.Writer) (generateOptions, error) {
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opt generateOptions
	preset := "default"
	fs.StringVar(&opt.out, "o", "", "output file: .png (16-bit grayscale), .r16 (raw little-endian 16-bit) or .obj (mesh)")
	fs.StringVar(&preset, "preset", preset, "built-in preset name (see 'cordillera presets') or a parameters .json file")
	fs.StringVar(&opt.paramsOut, "params-out", "", "also save the parameters as JSON to this file")
	type setting struct {
		spec  terrain.Spec
		value string
	}
	var given []setting
	for _, s := range terrain.Specs {
		s := s
		fs.Func(s.Name, specUsage(s), func(v string) error {
			if err := s.Set(&terrain.Params{}, v); err != nil {
				return errors.New(strings.TrimPrefix(err.Error(), s.Name+": "))
			}
			given = append(given, setting{s, v})
			return nil
		})
	}
	fs.Usage = func() {} // a bad flag gets its error alone; -h gets the list below
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "usage: cordillera generate -o OUT [flags]")
			fs.PrintDefaults()
			return opt, errHelp
		}
		fmt.Fprintln(stderr, "run 'cordillera generate -h' for the list of flags")
		return opt, errUsage
	}
	if fs.NArg() > 0 {
		return opt, fmt.Errorf("generate: unexpected argument %q (flags start with -)", fs.Arg(0))
	}
	if opt.out == "" {
		return opt, errors.New("generate: -o OUT is required (a .png, .r16 or .obj file)")
	}
	if err := checkOutputExt(opt.out); err != nil {
		return opt, err
	}
	if opt.paramsOut != "" && !strings.EqualFold(filepath.Ext(opt.paramsOut), ".json") {
		return opt, fmt.Errorf("generate: -params-out %s: want a .json file", opt.paramsOut)
	}
	p, err := terrain.ResolvePreset(preset)
	if err != nil {
		return opt, fmt.Errorf("generate: -preset: %w", err)
	}
	for _, g := range given {
		if err := g.spec.Set(&p, g.value); err != nil {
			return opt, fmt.Errorf("generate: -%w", err)
		}
	}
	if err := p.Validate(); err != nil {
		return opt, fmt.Errorf("generate: -%w", err)
	}
	opt.params = p
	return opt, nil
}

func specUsage(s terrain.Spec) string {
	return fmt.Sprintf("%s: %s (default %s)", s.Usage, s.RangeText(), s.Default)
}

func checkOutputExt(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png", ".r16", ".raw", ".obj":
		return nil
	}
	return fmt.Errorf("generate: -o %s: unknown format %q (want .png, .r16, .raw or .obj)", path, filepath.Ext(path))
}

// runGenerate is the generate command: parse, generate (Ctrl-C cancels),
// write the outputs atomically, and print the time and the height range.
func runGenerate(args []string, stdout, stderr io.Writer) error {
	opt, err := parseGenerateFlags(args, stderr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	m, err := terrain.Generate(ctx, opt.params, nil)
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	elapsed := time.Since(start)
	if err := terrain.SaveHeightmap(opt.out, m); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	if opt.paramsOut != "" {
		if err := terrain.SaveParams(opt.paramsOut, opt.params); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
	}
	lo, hi := m.Range()
	fmt.Fprintf(stdout, "%s\ngenerated in %v; heights %.4g–%.4g (normalised %.4f–%.4f × %g); wrote %s\n",
		opt.params.Describe(), elapsed.Round(time.Millisecond),
		float64(lo)*m.VerticalScale, float64(hi)*m.VerticalScale, lo, hi, m.VerticalScale, opt.out)
	return nil
}

// runPresets lists the built-in presets.
func runPresets(stdout io.Writer) error {
	for _, pr := range terrain.Presets {
		fmt.Fprintf(stdout, "%-20s %s\n", pr.Name, pr.Description)
	}
	return nil
}

// runExplore stands in for the 3D explorer until it exists: it generates the
// default world to default-world.png.
func runExplore(args []string, stdout, stderr io.Writer) error {
	fmt.Fprintln(stdout, "The 3D explorer is not built yet; generating the default world instead.")
	return runGenerate(append([]string{"-preset", "default", "-o", "default-world.png"}, args...), stdout, stderr)
}
