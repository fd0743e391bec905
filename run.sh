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
# A first build compiles Ebitengine and the rest from a cold cache, which
# takes minutes on a small machine: say so rather than sit silent.
echo "run.sh: building bin/cordillera (the first build takes a few minutes; later ones seconds)" >&2
go build -o bin/cordillera .
exec bin/cordillera "$@"
