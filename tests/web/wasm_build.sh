# Sourced by the web tests: builds the WebAssembly preset (cmake --preset
# wasm) if needed, under a lock (ctest runs tests in parallel), and sets
# MC_WASM_DIR to build/wasm/web. Exits 77 (SKIP) when emscripten or node is
# missing; a build that fails is a failure.
wasm_build() {
    local src=$1
    command -v emcc >/dev/null || { echo "SKIP: emscripten (emcc) not installed (scripts/setup-debian.sh)"; exit 77; }
    command -v node >/dev/null || { echo "SKIP: node not installed"; exit 77; }
    "$src/scripts/setup-wasm.sh" || { echo "FAIL: scripts/setup-wasm.sh"; exit 1; }
    mkdir -p "$src/build"
    (
        flock 9
        cd "$src"
        # configured once; the build re-runs the configuration when a CMakeLists.txt changes;
        # warnings are errors, as in test.sh's builds (a 32-bit target shows truncations
        # the 64-bit ones do not)
        { [ -f build/wasm/CMakeCache.txt ] || cmake --preset wasm -DMC_WERROR=ON >/dev/null; } &&
            cmake --build --preset wasm >/dev/null ||
            { echo "FAIL: cmake --preset wasm && cmake --build --preset wasm"; exit 1; }
    ) 9>"$src/build/.wasm.lock" || exit 1
    MC_WASM_DIR=$src/build/wasm/web
}
