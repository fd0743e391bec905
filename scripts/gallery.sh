#!/usr/bin/env bash
# Renders the README's gallery with `cordillera render`, so that the
# pictures stay true to what the program draws: docs/gallery/*.png.
#
#   scripts/gallery.sh            # all shots
#   scripts/gallery.sh dusk       # only the shots named
#
# Each picture is rendered at 960×540 and, while its PNG is larger than
# 300 KB, again a step smaller (the README should load fast). The Mont
# Blanc and GPS route shots need the shared data folder (../shared/data
# beside the repository, or $CORDILLERA_DATA); without it they are skipped
# with a note. Without a display the renders run under xvfb-run.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=docs/gallery
data=${CORDILLERA_DATA:-$root/../shared/data}
max_bytes=$((300 * 1024))

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "gallery: building cordillera" >&2
go build -o "$tmp/cordillera" .

run=("$tmp/cordillera")
if [ -z "${DISPLAY:-}" ]; then
	if ! command -v xvfb-run >/dev/null; then
		echo "gallery: no DISPLAY and no xvfb-run: install xvfb (scripts/ensure-display.sh xvfb)" >&2
		exit 1
	fi
	run=(xvfb-run -a -s "-screen 0 1280x800x24" "$tmp/cordillera")
fi

have_data=1
if [ ! -d "$data" ]; then
	have_data=0
	echo "gallery: shared data folder $data not found: skipping the Mont Blanc and GPS route shots" >&2
fi

mkdir -p "$out"
only="$*"

# shot NAME NEEDS_DATA FLAGS... renders one picture, shrinking it until it
# fits in max_bytes.
shot() {
	local name=$1 needs_data=$2
	shift 2
	if [ -n "$only" ] && [[ " $only " != *" $name "* ]]; then
		return
	fi
	if [ "$needs_data" = 1 ] && [ "$have_data" = 0 ]; then
		echo "gallery: $name: skipped (no shared data)" >&2
		return
	fi
	local w h
	for size in 960x540 880x495 800x450 720x405 640x360; do
		w=${size%x*} h=${size#*x}
		"${run[@]}" render -o "$tmp/$name.png" -width "$w" -height "$h" "$@" >/dev/null
		if [ "$(stat -c %s "$tmp/$name.png")" -le "$max_bytes" ]; then
			break
		fi
	done
	mv "$tmp/$name.png" "$out/$name.png"
	echo "gallery: $out/$name.png ${w}×$h, $(($(stat -c %s "$out/$name.png") / 1024)) KB" >&2
}

# The default world (thesis 7.3 defaults, 1025²) from above a ridge,
# looking across its valleys to the highest peak, in the haze of distance.
shot default 0 -fog -camera 120,230,900,-45,-14

# The ridged range worn by droplets, rivers and rockfall (66 km across,
# 64 m cells): looking down a trunk valley from above its head, under a
# morning sun from the south-east.
shot eroded-alps 0 -preset eroded-alps -fog -camera 53300,2200,8200,-135,-15 -sun-elevation 30 -sun-azimuth 160

# Mont Blanc from SRTM data (60 km square, 4356 m of relief above the
# valleys), seen from the south-west at 5600 m.
shot mont-blanc 1 -heightmap "$data/heightmaps/alps-montblanc_16bit.png" -map-height 4356 -cell-size 92.7 \
	-fog -camera 19000,5600,41000,-45,-9 -sun-elevation 35 -sun-azimuth 120

# A GPS track up Mojstrovka (Julian Alps): the terrain made around the
# route, the camera walking it.
shot route 1 -route "$data/gpx/mojstrovka.gpx" -follow 100

# Dusk at walking height: the sun 8° above the ridge, the slopes facing
# away from it in shadow.
shot dusk 0 -walk -camera 500,0,500,30,4 -sun-elevation 8 -sun-azimuth 60 -fog

# Water at 30 % of the height range: a lake between the hills, and the sea
# beyond the map reaching to the horizon.
shot water 0 -water 0.3 -fog -camera 560,120,250,90,-6
