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
	if cmd == "help" && len(args) > 0 {
		// "help generate" is "generate -help".
		cmd, args = args[0], []string{"-help"}
	}
	var err error
	switch cmd {
	case "generate":
		err = commands.Generate(args, stdout, stderr)
	case "presets":
		err = commands.Presets(stdout)
	case "sweep":
		err = commands.Sweep(args, stdout, stderr)
	case "plot":
		err = commands.Plot(args, stdout, stderr)
	case "explore":
		err = commands.Explore(args, stdout, stderr)
	case "render":
		err = commands.Render(args, stdout, stderr)
	case "web":
		err = commands.Web(args, stdout, stderr)
	case "help":
		commands.Usage(stdout)
	default:
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
