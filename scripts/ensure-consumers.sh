#!/usr/bin/env bash
# Sourced by test.sh: installs the real consumers the file-format tests run
# (issue 13): GDAL's gdalinfo and gdal_translate (Debian gdal-bin), OpenEXR's
# exrheader (openexr), headless Chromium for the web page's tests (chromium,
# issue 17), and the Khronos glTF validator (npm gltf-validator,
# into .tools/ at the repository root, which git ignores). Node comes from
# Debian's nodejs/npm only where no node is installed: a nodesource build
# already brings its own npm, which Debian's npm package would conflict with.
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
missing=""
command -v gdalinfo >/dev/null 2>&1 || missing="$missing gdal-bin"
command -v exrheader >/dev/null 2>&1 || missing="$missing openexr"
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v node >/dev/null 2>&1 || missing="$missing nodejs npm"
if [ -n "$missing" ]; then
	echo "ensure-consumers: installing$missing" >&2
	as_root apt-get update -qq
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
gltf_validator_version=2.0.0-dev.3.10
if [ ! -f .tools/node_modules/gltf-validator/package.json ] ||
	! grep -q "\"version\": \"$gltf_validator_version\"" .tools/node_modules/gltf-validator/package.json; then
	echo "ensure-consumers: installing gltf-validator $gltf_validator_version into .tools" >&2
	npm install --silent --no-audit --no-fund --prefix .tools "gltf-validator@$gltf_validator_version" >/dev/null
fi
