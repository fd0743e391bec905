// Command cordillera generates fractal terrain and explores it.
//
//	cordillera                      explore the default world in 3D
//	cordillera render -o shot.png   one frame of the explorer's view
//	cordillera generate -o map.png  a heightmap from the command line
//	cordillera presets              the built-in presets
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
`)
}
