#!/usr/bin/env bash
# Installs what modelcheck needs on Debian 12 (as root, or through sudo).
# emscripten (with node-acorn, which its optimiser needs) builds the
# WebAssembly preset, and chromium runs the page's test headless (web/);
# bubblewrap is certify's sandbox (docs/CERTIFY.md, Running untrusted code);
# xvfb, GLFW and Mesa run the upstream AEM converter headless, and Mono
# (mono-mcs, mono-devel) builds and runs SELib, the C# SEModel library, with
# our adapters (refimpl tests).
# Does nothing when everything is already installed.
set -euo pipefail
packages=(build-essential cmake pkg-config libcjson-dev libcriterion-dev libssl-dev
          gcovr python3 python3-jsonschema lzma-dev clang afl++ libclang-rt-14-dev zip
          libcglm-dev gcc-multilib pre-commit git file groff-base dpkg-dev
          emscripten node-acorn chromium bubblewrap qemu-user
          xvfb libglfw3-dev libgl-dev libgl1-mesa-dri libglx-mesa0 libegl-mesa0
          mono-mcs mono-devel)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm runs the independent checkers of the tests (scripts/setup-npm.sh); any
# npm will do, Debian's package when none is there.
command -v npm >/dev/null || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup: installing ${missing[*]}"
run=()
[ "$(id -u)" -eq 0 ] || run=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${run[@]}" apt-get update -qq
"${run[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
