#!/usr/bin/env bash
# Builds Cordillera (installing Go and the X11/OpenGL runtime libraries
# first if needed) and opens the 3D explorer on the built-in default world.
# Extra arguments go to the program, for example:
#   ./run.sh generate -preset scenario-3 -o world.png
set -euo pipefail
cd "$(dirname "$0")"
. scripts/ensure-go.sh
. scripts/ensure-display.sh
mkdir -p bin
go build -o bin/cordillera .
exec bin/cordillera "$@"
