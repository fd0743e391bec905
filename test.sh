#!/usr/bin/env bash
# Runs the whole test suite: formatting, vet, staticcheck, the unit and
# property tests, the race detector on the concurrent packages, the kept
# fuzz corpora (replayed by go test), the file-format tests against real
# consumers (GDAL, OpenEXR, the Khronos glTF validator; installed by
# scripts/ensure-consumers.sh), and the explorer's pixel tests under a
# virtual X server.
set -euo pipefail
cd "$(dirname "$0")"
# Every go test below: a test that reads the real tracks and DEMs of
# ../shared/data fails when they are missing instead of skipping
# (internal/testenv).
export CORDILLERA_REQUIRE_DATA=1
. scripts/ensure-go.sh
. scripts/ensure-display.sh xvfb
. scripts/ensure-consumers.sh

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then echo "gofmt would change: $unformatted"; exit 1; fi

echo "== go vet"
go vet ./...
# The explorer is built for Windows and macOS users too: code (tests
# included) that only compiles on Linux fails here.
GOOS=windows go vet ./...
GOOS=darwin go vet ./...

echo "== staticcheck"
if ! command -v staticcheck >/dev/null 2>&1 && [ ! -x "$(go env GOPATH)/bin/staticcheck" ]; then
	go install honnef.co/go/tools/cmd/staticcheck@v0.7.0
fi
"$(command -v staticcheck || echo "$(go env GOPATH)/bin/staticcheck")" ./...

echo "== go test"
# game, shaders and e2e run once, below, under the virtual display: their
# tests without a window would only run again there.
go test -count=1 -timeout 30m $(go list ./... | grep -v -E '/(e2e|game|shaders)$')
go test -count=1 github.com/ebitengine/debugui # the patched copy in internal/debugui is a module of its own

echo "== go test -race (packages with goroutines)"
# Without the heaviest tests, which repeat code paths the others take:
# scripts/race-skip.sh says which and why.
. scripts/race-skip.sh
go test -count=1 -timeout 30m -race -short -skip "$race_skip" ./terrain/... ./game/... ./route/...

echo "== pixel tests under Xvfb"
# CORDILLERA_REQUIRE_DISPLAY=1: a display test that finds no display fails here instead of skipping.
CORDILLERA_REQUIRE_DISPLAY=1 xvfb-run -a -s "-screen 0 1280x800x24" go test -count=1 -timeout 40m ./game/... ./shaders/... ./e2e/...
