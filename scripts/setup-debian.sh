#!/usr/bin/env bash
# Installs what modelcheck needs on Debian 12 (as root, or through sudo).
# usage: setup-debian.sh [--minimal]
#
# --minimal (README command 1, scripts/demo.sh): what building and running
# the validator needs, nothing more: a C compiler, make, CMake, pkg-config
# (which finds the next three), cJSON (every JSON), OpenSSL's libcrypto (the
# SHA-256 of JSON and SARIF reports and baselines) and the LZMA SDK (E3D's
# LZMA blocks; compiled from lzma-dev's sources).
#
# Without it (README command 2, scripts/test.sh), everything the tests use
# besides: Criterion (unit tests); emscripten (with node-acorn, which its
# optimiser needs) builds the WebAssembly preset, and chromium runs the
# page's test headless (web/); clang, afl++ and the multilib compilers the
# fuzzing and the 32-bit reference reader; bubblewrap is certify's sandbox
# (docs/CERTIFY.md, Running untrusted code); xvfb, GLFW and Mesa run the
# upstream AEM converter headless, and Mono (mono-mcs, mono-devel) builds and
# runs SELib, the C# SEModel library, with our adapters (refimpl tests);
# zsh and fish check the syntax of their completion scripts.
# Does nothing when everything is already installed.
set -euo pipefail
minimal=(gcc libc6-dev make cmake pkg-config libcjson-dev libssl-dev lzma-dev)
packages=(build-essential libcriterion-dev
          gcovr python3 python3-jsonschema clang afl++ libclang-rt-14-dev zip
          libcglm-dev gcc-multilib pre-commit git file groff-base dpkg-dev
          emscripten node-acorn chromium bubblewrap qemu-user
          xvfb libglfw3-dev libgl-dev libgl1-mesa-dri libglx-mesa0 libegl-mesa0
          mono-mcs mono-devel zsh fish)
case "${1:-}" in
    --minimal) packages=("${minimal[@]}") ;;
    "") packages=("${minimal[@]}" "${packages[@]}") ;;
    *) echo "usage: setup-debian.sh [--minimal]" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm runs the independent checkers of the tests (scripts/setup-npm.sh); any
# npm will do, Debian's package when none is there.
[ "${1:-}" = --minimal ] || command -v npm >/dev/null || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup: installing ${missing[*]}"
run=()
[ "$(id -u)" -eq 0 ] || run=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${run[@]}" apt-get update -qq
"${run[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
