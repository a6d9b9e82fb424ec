# Stand-ins, in the WebAssembly build (cmake --preset wasm), for the host
# libraries the top-level CMakeLists.txt finds with pkg-config:
#   PkgConfig::CJSON   cJSON compiled from Debian's source package (the same
#                      version as libcjson-dev; scripts/setup-wasm.sh unpacks
#                      it into build/src/cjson)
#   PkgConfig::CRYPTO  none: SHA-256 comes from the platform (WebCrypto,
#                      node:crypto), computed in JS and handed to web/src/mc_wasm.c
#   Threads::Threads   none: one thread (the hash thread never starts)
set(MC_CJSON_SRC_DIR ${PROJECT_SOURCE_DIR}/build/src/cjson CACHE PATH
    "cJSON sources for the WebAssembly build (scripts/setup-wasm.sh)")
if(NOT EXISTS ${MC_CJSON_SRC_DIR}/cJSON.c)
  message(FATAL_ERROR "cJSON sources not found in ${MC_CJSON_SRC_DIR}: run scripts/setup-wasm.sh")
endif()
# The code includes <cjson/cJSON.h>, as installed by libcjson-dev.
configure_file(${MC_CJSON_SRC_DIR}/cJSON.h ${PROJECT_BINARY_DIR}/cjson_include/cjson/cJSON.h COPYONLY)
add_library(mc_cjson STATIC ${MC_CJSON_SRC_DIR}/cJSON.c)
target_include_directories(mc_cjson SYSTEM PUBLIC ${PROJECT_BINARY_DIR}/cjson_include)
add_library(PkgConfig::CJSON ALIAS mc_cjson)

add_library(mc_platform_sha256 INTERFACE)
target_compile_definitions(mc_platform_sha256 INTERFACE MC_EXTERNAL_SHA256)
add_library(PkgConfig::CRYPTO ALIAS mc_platform_sha256)

add_library(mc_no_threads INTERFACE)
add_library(Threads::Threads ALIAS mc_no_threads)

# WebAssembly SIMD (every current browser; Node 16.4+): the SSE2 four-record
# lanes of validator/core/mc_numeric.h compile to it through emscripten's
# <emmintrin.h> (docs/PERFORMANCE.md, "WebAssembly").
add_compile_options(-msimd128 -msse2)
