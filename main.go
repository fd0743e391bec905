// Command cordillera generates fractal terrain and explores it.
//
//	cordillera                      explore the default world in 3D
//	cordillera render -o shot.png   one frame of the explorer's view
//	cordillera generate -o map.png  a heightmap from the command line
//	cordillera presets              the built-in presets
//	cordillera sweep -figure fig7.5 -o sheet.png   a parameter study as a contact sheet
//	cordillera plot -kind spectrum -o plot.png     a profile, histogram or power spectrum
//	cordillera web -o site/ -serve :8080           the explorer as a web page
package main

import (
	"fmt"
	"os"

	"cordillera/commands"
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
		err = commands.Generate(args, os.Stdout, os.Stderr)
	case "presets":
		err = commands.Presets(os.Stdout)
	case "sweep":
		err = commands.Sweep(args, os.Stdout, os.Stderr)
	case "plot":
		err = commands.Plot(args, os.Stdout, os.Stderr)
	case "explore":
		err = commands.Explore(args, os.Stdout, os.Stderr)
	case "render":
		err = commands.Render(args, os.Stdout, os.Stderr)
	case "web":
		err = commands.Web(args, os.Stdout, os.Stderr)
	case "help", "-h", "--help":
		commands.Usage(os.Stdout)
	default:
		commands.Usage(os.Stderr)
		err = fmt.Errorf("unknown command %q", cmd)
	}
	if err == commands.ErrHelp {
		return
	}
	if err != nil {
		if err != commands.ErrUsage {
			fmt.Fprintln(os.Stderr, "cordillera:", err)
		}
		os.Exit(2)
	}
}
