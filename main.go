// Command cordillera generates fractal terrain and explores it.
//
//	cordillera [explore] [flags]           open the 3D explorer on the default world (or -preset, -heightmap)
//	cordillera render -o shot.png [flags]  render one frame of the explorer to a PNG (needs a display)
//	cordillera generate -o OUT [flags]     generate a heightmap (.png, .r16/.raw, .exr, .tif, .obj, .glb/.gltf)
//	cordillera build -o DIR -world N -tile N [flags]
//	                                       a world larger than one map as tiles, a GDAL VRT and a manifest; resumable, -shard K/N splits it
//	cordillera presets                     list the built-in presets
//	cordillera sweep -param NAME -values V1,V2,... -o sheet.png [flags]
//	                                       one parameter at several values, as a contact sheet of shaded reliefs
//	cordillera sweep -figure fig7.5 -o sheet.png
//	                                       redraw a thesis figure (7.4–7.14); -list lists them
//	cordillera plot -kind profile|histogram|spectrum -o plot.png [flags]
//	                                       a height profile, the height histogram, or the power spectrum with its slope
//	cordillera analyze MAP | -preset NAME [-json] [-picture relief.png]
//	                                       slope, hypsometry, drainage density, concavity, Hack and spectral exponents of a map
//	cordillera web [-o DIR] [-serve :8080] the explorer and its lessons as a web page (builds it with the Go toolchain)
//	cordillera help [COMMAND]              this list, or one command's flags
package main

import (
	"fmt"
	"io"
	"os"

	"cordillera/commands"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches one command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	cmd := "explore"
	switch {
	case len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help"):
		// The command list, not the explorer's flags: a newcomer asking for
		// help wants to know what the program can do first.
		cmd, args = "help", args[1:]
	case len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-':
		cmd, args = args[0], args[1:]
	}
	var err error
	if c, ok := commands.Lookup(cmd); ok {
		err = c.Run(args, stdout, stderr)
	} else {
		commands.Usage(stderr)
		err = fmt.Errorf("unknown command %q", cmd)
	}
	if err == commands.ErrHelp {
		return 0
	}
	if err != nil {
		if err != commands.ErrUsage {
			fmt.Fprintln(stderr, "cordillera:", err)
		}
		return 2
	}
	return 0
}
