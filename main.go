// Command cordillera generates fractal terrain and explores it.
//
//	cordillera                      explore the default world in 3D
//	cordillera render -o shot.png   one frame of the explorer's view
//	cordillera generate -o map.png  a heightmap from the command line
//	cordillera presets              the built-in presets
//	cordillera sweep -figure fig7.5 -o sheet.png   a parameter study as a contact sheet
//	cordillera plot -kind spectrum -o plot.png     a profile, histogram or power spectrum
package main

import (
	"fmt"
	"os"
)

func main() {
	args := os.Args[1:]
	cmd := "explore"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "generate":
		err = runGenerate(args, os.Stdout, os.Stderr)
	case "presets":
		err = runPresets(os.Stdout)
	case "sweep":
		err = runSweep(args, os.Stdout, os.Stderr)
	case "plot":
		err = runPlot(args, os.Stdout, os.Stderr)
	case "explore":
		err = runExplore(args, os.Stdout, os.Stderr)
	case "render":
		err = runRender(args, os.Stdout, os.Stderr)
	case "help", "-h", "--help":
		usage(os.Stdout)
	default:
		usage(os.Stderr)
		err = fmt.Errorf("unknown command %q", cmd)
	}
	if err == errHelp {
		return
	}
	if err != nil {
		if err != errUsage {
			fmt.Fprintln(os.Stderr, "cordillera:", err)
		}
		os.Exit(2)
	}
}

func usage(w *os.File) {
	fmt.Fprint(w, `usage:
  cordillera [explore] [flags]     open the 3D explorer on the default world (or -preset, -heightmap)
  cordillera render -o shot.png [flags]  render one frame of the explorer to a PNG (needs a display)
  cordillera generate -o OUT [flags]  generate a heightmap (.png, .r16, .obj); -h lists the flags
  cordillera presets               list the built-in presets
  cordillera sweep -param NAME -values V1,V2,... -o sheet.png [flags]
                                   one parameter at several values, as a contact sheet of shaded reliefs
  cordillera sweep -figure fig7.5 -o sheet.png   redraw a thesis figure (7.4–7.14); -list lists them
  cordillera plot -kind profile|histogram|spectrum -o plot.png [flags]
                                   a height profile, the height histogram, or the power spectrum with its slope
`)
}
