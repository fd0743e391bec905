//go:build js

// Command explorer is Cordillera's explorer built for the browser
// (GOOS=js GOARCH=wasm): web/index.html loads it. 'cordillera web' builds
// it and writes the page around it.
package main

import (
	"fmt"
	"os"

	"cordillera/game"
)

func main() {
	if err := game.RunWeb(); err != nil {
		fmt.Fprintln(os.Stderr, "cordillera:", err)
		os.Exit(1)
	}
}
