#!/usr/bin/env bash
# Sourced by run.sh and test.sh: puts a Go toolchain at least as new as
# go.mod's on PATH. Uses the one installed if it is new enough (or the one in
# /usr/local/go); otherwise installs Debian's Go and uses it only to fetch the
# exact toolchain from the Go module proxy (golang.org/toolchain).
need=$(awk '/^go /{print $2; exit}' go.mod)

go_ok() {
	command -v go >/dev/null 2>&1 || return 1
	local have
	have=$(go env GOVERSION 2>/dev/null | sed 's/^go//') || return 1
	[ -n "$have" ] && [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n1)" = "$need" ]
}

sudo_cmd() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! go_ok && [ -x /usr/local/go/bin/go ]; then
	export PATH="/usr/local/go/bin:$PATH"
fi
if ! go_ok; then
	echo "ensure-go: need Go $need; fetching it through the Go module proxy" >&2
	if ! command -v go >/dev/null 2>&1; then
		sudo_cmd apt-get update -qq && sudo_cmd apt-get install -y -qq golang-go ca-certificates >/dev/null
	fi
	arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
	mod="golang.org/toolchain@v0.0.1-go${need}.linux-${arch}"
	cache="${XDG_CACHE_HOME:-$HOME/.cache}/cordillera-go"
	mkdir -p "$cache"
	dir=$(cd "$cache" && GOPATH="$cache/gopath" GO111MODULE=on GOTOOLCHAIN=local \
		go mod download -json "$mod" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
	if [ -z "$dir" ] || [ ! -f "$dir/bin/go" ]; then
		echo "ensure-go: could not fetch $mod" >&2
		return 1 2>/dev/null || exit 1
	fi
	chmod -R u+w "$dir" && chmod +x "$dir"/bin/* "$dir"/pkg/tool/*/* 2>/dev/null
	export PATH="$dir/bin:$PATH" GOTOOLCHAIN=local
	go_ok || { echo "ensure-go: $dir/bin/go is not Go $need" >&2; return 1 2>/dev/null || exit 1; }
fi
export GOTOOLCHAIN=local
