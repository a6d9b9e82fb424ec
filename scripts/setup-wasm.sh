#!/usr/bin/env bash
# What the WebAssembly build (cmake --preset wasm) needs besides Debian's
# emscripten (scripts/setup-debian.sh installs it): cJSON's C sources, which
# libcjson-dev does not install. They come from Debian's source package of
# the installed libcjson-dev (same version, same patches), fetched with apt
# through a private source list (the system's apt configuration is left as
# it is) and unpacked into build/src/cjson. Does nothing when they are there
# or when emscripten is not installed. Usage: scripts/setup-wasm.sh
set -euo pipefail
cd "$(dirname "$0")/.."
dest=build/src/cjson
[ -f "$dest/cJSON.c" ] && exit 0
command -v emcc >/dev/null || { echo "setup-wasm: no emcc: the WebAssembly build and its tests are skipped" >&2; exit 0; }
version=$(dpkg-query -W -f='${source:Version}' libcjson-dev 2>/dev/null || true)
[ -n "$version" ] || { echo "setup-wasm: libcjson-dev is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/src"
# the system's binary sources, as source sources
for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && sed 's/^Types:.*/Types: deb-src/' "$f" >> "$work/deb-src.sources" && echo >> "$work/deb-src.sources"
done
if [ -f /etc/apt/sources.list ]; then
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > "$work/deb-src.list"
    mv "$work/deb-src.list" "$work/sources.list"
else
    : > "$work/sources.list"
fi
mkdir -p "$work/parts"
[ -f "$work/deb-src.sources" ] && mv "$work/deb-src.sources" "$work/parts/deb-src.sources"
apt_opts=(-o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts="$work/parts"
          -o Dir::State::Lists="$work/lists" -o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)")
apt-get "${apt_opts[@]}" update -qq
(cd "$work/src" && apt-get "${apt_opts[@]}" source --download-only -qq "cjson=$version" 2>/dev/null)
dpkg-source --no-check -x "$work"/src/cjson_*.dsc "$work/cjson" >/dev/null
mkdir -p "$dest"
cp "$work/cjson/cJSON.c" "$work/cjson/cJSON.h" "$work/cjson/LICENSE" "$dest/"
echo "setup-wasm: cJSON $version sources in $dest"
