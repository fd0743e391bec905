#!/usr/bin/env bash
# Sourced by run.sh and test.sh: installs the libraries Ebiten loads at run
# time (X11, EGL/GLES through Mesa) and, with "xvfb" as first argument, the
# virtual X server the pixel tests run under. Debian/Ubuntu only.
runtime_pkgs="libx11-6 libxext6 libxrender1 libxi6 libxrandr2 libxcursor1 libxinerama1 libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri libgl1 libglx-mesa0"
# The tests also drive a real window with X events (xdotool) and read it
# back (ImageMagick's import).
[ "${1:-}" = xvfb ] && runtime_pkgs="$runtime_pkgs xvfb xauth xdotool imagemagick"
missing=""
for p in $runtime_pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "ensure-display: installing$missing" >&2
	as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
	as_root apt-get update -qq
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
