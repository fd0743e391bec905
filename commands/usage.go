// Package commands holds Cordillera's subcommands — generate, presets,
// explore, render, sweep, plot and web — each a function of its arguments and
// output streams, so the tests run them in-process. main.go only
// dispatches to them. The commands make worlds through pipeline and write
// them through terrain/heightfile; they hold no terrain maths of their own.
package commands

import (
	"fmt"
	"io"
)

// Usage prints the list of commands.
func Usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  cordillera [explore] [flags]     open the 3D explorer on the default world (or -preset, -heightmap)
  cordillera render -o shot.png [flags]  render one frame of the explorer to a PNG (needs a display)
  cordillera generate -o OUT [flags]  generate a heightmap (.png, .r16/.raw, .exr, .tif, .obj, .glb/.gltf)
  cordillera presets               list the built-in presets
  cordillera sweep -param NAME -values V1,V2,... -o sheet.png [flags]
                                   one parameter at several values, as a contact sheet of shaded reliefs
  cordillera sweep -figure fig7.5 -o sheet.png   redraw a thesis figure (7.4–7.14); -list lists them
  cordillera plot -kind profile|histogram|spectrum -o plot.png [flags]
                                   a height profile, the height histogram, or the power spectrum with its slope
  cordillera web -o DIR [-serve :8080]  the explorer and its lessons as a web page (builds it with the Go toolchain)
  cordillera help [COMMAND]        this list, or one command's flags

The documentation is in README.md and docs/ beside the program's source.
`)
}
