#!/usr/bin/env bash
# Measures the CPU time (user+sys, of go and the test binaries it runs)
# of test.sh's go test steps, one package at a time so that each line is
# one package's cost. CPU, not wall: on a shared machine wall time swings
# with the load, CPU time much less. Writes "step package user sys wall"
# lines to stdout and each package's -v output under $1 (default
# /tmp/suite-cpu). The first line, build, is the cost of compiling the
# test binaries (plain and -race), which the later lines then find cached.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${1:-/tmp/suite-cpu}
mkdir -p "$logs"
export CORDILLERA_REQUIRE_DATA=1
t() { # step pkg cmd...
	local step=$1 pkg=$2; shift 2
	local f="$logs/$step-${pkg//\//_}.log"
	/usr/bin/time -o "$f.time" -f '%U %S %e' "$@" >"$f" 2>&1 || echo "FAIL $step $pkg" >&2
	echo "$step $pkg $(cat "$f.time" | tail -1)"
}
plain=$(go list ./... | grep -v -E '/(e2e|game|shaders)$')
racepk=$(go list ./terrain/... ./game/... ./route/...)
t build all sh -c "go test -count=1 -run XXX ./... && go test -count=1 -race -run XXX $(echo $racepk)"
for p in $plain; do t test "${p#cordillera/}" go test -count=1 -timeout 30m -v "$p"; done
. scripts/race-skip.sh
for p in $racepk; do t race "${p#cordillera/}" go test -count=1 -timeout 30m -race -short -skip "$race_skip" -v "$p"; done
for p in game shaders e2e; do
	t xvfb "$p" env CORDILLERA_REQUIRE_DISPLAY=1 xvfb-run -a -s "-screen 0 1280x800x24" go test -count=1 -timeout 40m -v "./$p/"
done
