#!/usr/bin/env bash
# The seed formats' own reference implementations under test (issue 17,
# docs/REFERENCE-LOADERS.md): obtains each at its pinned commit, builds it out
# of tree under build/refimpl/ with the adapters in conformance/refimpl/, and
# certifies or fuzzes it. Their code is never copied into the project.
#
#   scripts/refimpls.sh list                  the implementations and their loaders
#   scripts/refimpls.sh build IMPL            obtain and build (prints what it used)
#   scripts/refimpls.sh build-cache ecere     build the Ecere SDK (eC compiler, libecere) once
#                                             into the cache outside the clone that
#                                             ecere-e3d and ecere-e3d-writer need:
#                                             ${MC_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/modelcheck}/ecere-sdk-b621aaa9b44c
#                                             (about 26 minutes on 2 cores; without it they SKIP)
#   scripts/refimpls.sh certify IMPL [DIR]    certificates (text, JSON, HTML, JUnit) in DIR
#                                             (default build/refimpl/IMPL/certificate); a
#                                             writer is certified as an exporter
#                                             (certify --exporter) on the source scenes
#   scripts/refimpls.sh check IMPL            build, certify (2 jobs), compare the verdicts
#                                             with conformance/refimpl/expected/IMPL.txt;
#                                             exit 77 (skip) without snapshot or network
#   scripts/refimpls.sh expect IMPL           rewrite that expectation file
#   scripts/refimpls.sh sites ecere-e3d       replay fuzz/external/ecere-e3d/SITES.tsv: each reproducer still reaches its site
#                                             (check ecere-e3d runs it too)
#   scripts/refimpls.sh markdown IMPL [DIR]   the certificate in DIR as docs/REFERENCE-LOADERS.md
#                                             tables (rule groups, crash sites)
#   scripts/refimpls.sh fuzz IMPL TARGET SECONDS
#                                             a libFuzzer campaign (TARGET abi_<format> or
#                                             abi_<format>_sa built over the C reader) that goes
#                                             on past crashes; findings in
#                                             build/refimpl/IMPL/fuzz-TARGET/artifacts
#   scripts/refimpls.sh replay IMPL TARGET FILE...
#                                             builds that fuzz target (no campaign) and prints
#                                             the crash site of each FILE, as triage names it
#                                             (the libaem reproducers in fuzz/external/ are
#                                             named after their site in the abi_aem build)
#   scripts/refimpls.sh reduce IMPL TARGET FILE...
#                                             libaem: each FILE reduced in place by sections
#                                             (conformance/refimpl/libaem/reduce.py), its crash
#                                             site kept; what triage does when -minimize_crash
#                                             drifts to another site
#   scripts/refimpls.sh triage IMPL TARGET    those findings deduplicated by crash site, the
#                                             smallest of each site minimised (-minimize_crash)
#                                             and kept in fuzz/external/IMPL/ unless another
#                                             campaign's reproducer of that site is smaller (not
#                                             our bugs: never replayed by CI)
#   scripts/refimpls.sh campaign IMPL SECONDS [DIR]
#                                             `modelcheck fuzz` against the reader as a command
#                                             (a library through library_command.c), certify's
#                                             sandbox around each input; sites, reproducers and
#                                             IMPL.json in DIR (default build/refimpl/IMPL/campaign)
#   scripts/refimpls.sh blindfuzz unnamedhb1 SECONDS
#                                             for the 32-bit runtime no engine can drive: batches
#                                             of structure-aware mutants (fuzz/mutators, mcm_gen)
#                                             of corpus/aamf run one by one, no coverage feedback;
#                                             crashes and hangs reduced to their site, the smallest
#                                             input of each new site kept in fuzz/external/unnamedhb1/
#                                             (minimised: prefix, then cuts) and listed in its
#                                             SITES.tsv
#   scripts/refimpls.sh blindtriage unnamedhb1
#                                             that last step again, on the last campaign's findings
#   scripts/refimpls.sh outputs aem-converter [DIR]
#                                             the upstream AEM converter run on every source
#                                             scene, its files kept in DIR (default
#                                             build/refimpl/aem-converter/outputs): a line per
#                                             scene with exit status and size; seeds of
#                                             `fuzz libaem2025`
#   scripts/refimpls.sh amftools [DIR]        UnnamedHB1's amf2gltf.py and amf2obj.py (standalone
#                                             AMF converters: no certify cases) run on the distinct
#                                             AMF blocks embedded in the corpus's legacy AAMF
#                                             (conformance/refimpl/python/amf_tools.py; blocks and
#                                             outputs in DIR, default build/refimpl/amftools)
#
# IMPL: libaem, libaem-bounded (the viewer's texture test fixed), libaem2025
# (libaem @42bd501, the current upstream AEM layout, used as its viewer uses
# it), aem-converter (the upstream converter @42bd501, an exporter, run
# under Xvfb; `outputs aem-converter [DIR]` keeps its files), unnamedhb1
# (the game runtime, AAMF/SAMF), aamf2gltf (Python), semodel (Python), and
# semodel-writer: semodel.py's writer (save()), driven by our exporter adapter
# conformance/refimpl/python/semodel_export.py (glTF scene -> semodel.Model),
# selib and selib-writer (SELib, the C# SEModel library,
# dtzxporter/SELibDotNet @97acee1, under Mono: SEModel.Read and the lookups a
# tool makes, and SEModel.Write driven by conformance/refimpl/selib/export.cs),
# modelmerger-selib and modelmerger-selib-writer (ModelMerger's fork of
# SELib @b6ebc4f, which also reads the SEBlend trailer),
# ecere-e3d (the Ecere SDK's E3D reader, e3dRead.ec, eC) and
# ecere-e3d-writer (its writer, e3dWrite.ec, an exporter on the static
# scenes), both through our adapter conformance/refimpl/ecere/, built against
# the SDK build cached by `build-cache ecere` (MC_CACHE_DIR).
# Environment: MC_REFIMPL_DIR (snapshots; default ../shared/refimpl beside the
# source tree), MC_REFIMPL_CLONE=0 (do not try the network), MC_BIN (the
# modelcheck binary; default build/asan/cli/modelcheck: an ASan build, needed
# to dlopen the ASan adapters; MC_REFIMPL_HOST_ASAN=OFF says it is not, and the
# library adapters are then skipped), MC_REFIMPL_OUT (default build/refimpl).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
refdir=${MC_REFIMPL_DIR:-$root/../shared/refimpl}
out=${MC_REFIMPL_OUT:-$root/build/refimpl}
data=$root/conformance/refimpl
mc=${MC_BIN:-$root/build/asan/cli/modelcheck}
SKIP=77
python=${MC_SYSTEM_PYTHON:-/usr/bin/python3}
hb1_run= # how the 32-bit runtime runs here (i386_runner)

# name | upstream | commit | snapshot folder | sha256 of the snapshot's file list
# (`find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum`, computed
# when the snapshot was taken in, 2026-11-24; the two SELib kits, whose
# src/ holds the `git archive` tarball of the files used, 2026-12-06)
upstreams="
aem|https://github.com/janhsimon/aem|1a273aaf7438635584d90fe35ea2b853f76bdfc0|janhsimon-aem-1a273aa|c0e7f09316cfc72edb984f45f83ed6b6b369775725d25326864439e38b68583b
hb1|https://github.com/kiwanowski/UnnamedHB1|9d03bbb7dea5dce498b417cc625b87c8fdaa9321|kiwanowski-UnnamedHB1-9d03bbb|c9e9e2203cae858d630f341a127b29031f015d381a6b1eb061a124967b44f9a4
semodel|https://github.com/dtzxporter/io_model_semodel|188a4437b4c43c225db6c9277449d482b740562d|dtzxporter-io_model_semodel-188a443|c699b15f6b13c0a7cca38de38424792378009dbff572a497f82166c29bb2f3cd
aem2|https://github.com/janhsimon/aem|42bd5015a5fbd8058f4b899160acb2d2cdca68bc|janhsimon-aem-42bd501|972a6f2947d4415f2c5f315fe6d3f2b87ceaab52c8d7c5a3850147a20023a0e6
selib|https://github.com/dtzxporter/SELibDotNet|97acee1e8aeda8a5bb93fec4895c93fdf269f138|selibdotnet-build|1088e046731bdcdc456e51e99040aa3ad04629920afebf267a3a73911af7a4d8
mmselib|https://github.com/Scobalula/ModelMerger|b6ebc4fa7fc11902b59deee4fba1415ce376d59f|modelmerger-selib-build|550c224aca87e133c5a0ad8c1eeb18c11e9585c8e87c65ba11c8d08ca1784571
"

die() { echo "refimpls: $*" >&2; exit 2; }
skip() { echo "refimpls: SKIP: $*" >&2; exit $SKIP; }
# E3D's reference reader and writer: the Ecere SDK's own e3d*.ec (eC), which
# need the SDK's eC compiler and libecere. The SDK takes some 26 minutes to
# build on 2 cores, so its build is cached outside the clone, keyed by the
# commit, and made once by `build-cache ecere` with the ecere-e3d-build kit
# beside the snapshots (its checksum recorded as the snapshots' are). Without
# the cache the ecere IMPLs SKIP and say that one command.
ecere_commit=b621aaa9b44c13f2813c639ad1a528e16151f099
ecere_kit_digest=d4d99fae84db7c24077ab635453a1d056a5eeff493dbc471587ae7d964b1357f
ecere_cache() {
    printf '%s/ecere-sdk-%s\n' "${MC_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/modelcheck}" "${ecere_commit:0:12}"
}

ecere_build_cache() {
    local kit=$refdir/ecere-e3d-build cache got start=$SECONDS
    cache=$(ecere_cache)
    [ -f "$kit/build.sh" ] || die "ecere: no build kit $kit"
    got=$(snapshot_digest "$kit")
    [ "$got" = "$ecere_kit_digest" ] ||
        die "ecere: kit $kit differs from the one recorded (sha256 $got, expected $ecere_kit_digest)"
    grep -q "$ecere_commit" "$kit/build.sh" || die "ecere: $kit/build.sh does not build commit $ecere_commit"
    mkdir -p "$cache"
    echo "refimpls: ecere: building the SDK @${ecere_commit:0:7} into $cache (about 26 minutes on 2 cores; log $cache/build.log)" >&2
    JOBS=${JOBS:-2} sh "$kit/build.sh" - "$cache" > "$cache/build.log" 2>&1 ||
        die "ecere: the SDK build failed ($cache/build.log)"
    echo "refimpls: ecere: SDK built in $((SECONDS - start)) s: $cache" >&2
}

# Our adapter (conformance/refimpl/ecere/e3d_adapter.ec) compiled with the
# four upstream files, unmodified, from the cached SDK tree, as build.sh's
# step 4 and the SDK's own e3dView do: ecp, ecc, ecs, then gcc. The eC
# compiler keeps #line directives, so a sanitizer names e3dRead.ec lines.
# The adapter and the upstream files are built with ASan+UBSan; the SDK's
# LZMA C code (deps/lzma-2107) with ASan only: its encoder stores through
# misaligned pointers on purpose (x86); libecere is the cached build, not
# instrumented (its allocations go through ASan's malloc all the same).
# Cached with a stamp. Sets ecere_lib (libecere's directory: the eC runtime
# dlopens "ecere" by name, so it must be on LD_LIBRARY_PATH) and prints the
# adapter's path.
ecere_lib=
build_ecere_e3d() {
    local cache sdk dir=$out/ecere-e3d/build stamp s
    cache=$(ecere_cache) sdk=$(ecere_cache)/ecere-sdk
    [ -x "$sdk/obj/linux/bin/ecc" ] && [ -e "$sdk/obj/linux/lib/libecere.so" ] ||
        skip "ecere-e3d: no cached Ecere SDK build in $cache; build it once (about 26 minutes on 2 cores) with: scripts/refimpls.sh build-cache ecere"
    ecere_lib=$sdk/obj/linux/lib
    local e3d=$sdk/ecere/src/gfx/3D/models lz=$sdk/deps/lzma-2107 bin=$sdk/obj/linux/bin
    local srcs=(e3dDefs e3dRead e3dWrite e3d e3d_adapter)
    stamp="$ecere_commit $(cat "$e3d/e3d.ec" "$e3d/e3d"/e3d{Defs,Read,Write}.ec "$data/ecere/e3d_adapter.ec" \
        "$ecere_lib/libecere.so" | sha256sum | cut -c1-64) ${san[*]}"
    if [ -x "$dir/mc_ecere_e3d" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ]; then
        echo "refimpls: ecere-e3d: cached build $dir/mc_ecere_e3d" >&2
        echo "$dir/mc_ecere_e3d"
        return
    fi
    rm -rf "$dir" && mkdir -p "$dir"
    cp "$e3d/e3d/e3dDefs.ec" "$e3d/e3d/e3dRead.ec" "$e3d/e3d/e3dWrite.ec" "$e3d/e3d.ec" \
        "$data/ecere/e3d_adapter.ec" "$dir/"
    (
        cd "$dir"
        export LD_LIBRARY_PATH=$ecere_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
        local flags=(-fPIC -w -D_7ZIP_ST -I"$lz") ec=(-module mc_ecere_e3d)
        for s in "${srcs[@]}"; do "$bin/ecp" "${flags[@]}" "${ec[@]}" -c "$s.ec" -o "$s.sym"; done
        for s in "${srcs[@]}"; do "$bin/ecc" "${flags[@]}" "${ec[@]}" -c "$s.ec" -o "$s.c" -symbols .; done
        "$bin/ecs" -console $(for s in "${srcs[@]}"; do printf '%s.sym %s.imp ' "$s" "$s"; done) \
            -symbols . -o mc_ecere_e3d.main.ec
        "$bin/ecp" "${flags[@]}" "${ec[@]}" -c mc_ecere_e3d.main.ec -o mc_ecere_e3d.main.sym -symbols .
        "$bin/ecc" "${flags[@]}" "${ec[@]}" -c mc_ecere_e3d.main.ec -o mc_ecere_e3d.main.c -symbols .
        for s in LzmaLib LzmaDec LzmaEnc LzFind LzFindOpt CpuArch Alloc; do
            gcc -fsanitize=address -fno-omit-frame-pointer -g -O1 -fPIC -D_7ZIP_ST -c "$lz/$s.c" -o "lzma_$s.o"
        done
        for s in "${srcs[@]}" mc_ecere_e3d.main; do gcc "${san[@]}" "${flags[@]}" -c "$s.c" -o "$s.o"; done
        gcc "${san[@]}" -o mc_ecere_e3d $(for s in "${srcs[@]}" mc_ecere_e3d.main; do printf '%s.o ' "$s"; done) \
            lzma_*.o -L"$ecere_lib" -lecere -lm -lpthread
    ) > "$dir/build.log" 2>&1 || die "ecere-e3d: adapter build failed ($dir/build.log)"
    echo "$stamp" > "$dir/stamp"
    echo "refimpls: ecere-e3d: built $dir/mc_ecere_e3d" >&2
    echo "$dir/mc_ecere_e3d"
}

# The certify arguments of the ecere IMPLs (loader_of's).
loader_of_ecere() { # IMPL
    local adapter
    adapter=$(build_ecere_e3d)
    ecere_lib=$(ecere_cache)/ecere-sdk/obj/linux/lib # (set in a subshell above)
    case $1 in
    ecere-e3d)
        echo "--loader"
        printf 'LD_LIBRARY_PATH=%q %q load {}\n' "$ecere_lib" "$adapter" ;;
    ecere-e3d-writer)
        echo "--exporter"
        printf '%q -B %q %q %q %q {in} {out}\n' "$python" "$data/ecere/e3d_export.py" "$data/python" "$adapter" "$ecere_lib" ;;
    esac
}

# The E3D reader's kept reproducers (fuzz/external/ecere-e3d/SITES.tsv)
# replayed through the adapter with certify's sanitizer options: each must
# still reach the site its row names (column 5: a crash site, "timeout", or
# "-" for a file loaded with exit 0), so REFERENCE-LOADERS' table of sites
# stays true of the pinned commit.
ecere_sites() {
    local keep=$root/fuzz/external/ecere-e3d adapter file want got rc bad=0 n=0
    need_site_tool
    adapter=$(build_ecere_e3d)
    ecere_lib=$(ecere_cache)/ecere-sdk/obj/linux/lib
    while IFS=$'\t' read -r file _ _ _ want _; do
        [ "$file" = reproducer ] && continue
        n=$((n + 1)) rc=0
        got=$({ env LD_LIBRARY_PATH="$ecere_lib" ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=2048:detect_leaks=0 \
                  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 timeout 5 "$adapter" load "$keep/$file" 2>&1 >/dev/null ||
                  echo "exit $?"; } | tee "$out/ecere-e3d/site.err" | "$site_tool")
        if [ -z "$got" ]; then
            rc=$(sed -n 's/^exit \([0-9]*\)$/\1/p' "$out/ecere-e3d/site.err" | tail -1)
            case ${rc:-0} in 0) got=- ;; 124) got=timeout ;; *) got="exit $rc" ;; esac
        fi
        if [ "$got" != "$want" ]; then
            echo "refimpls: ecere-e3d: $file: site '$got', SITES.tsv says '$want'" >&2
            bad=$((bad + 1))
        fi
    done < "$keep/SITES.tsv"
    [ $bad -eq 0 ] || die "ecere-e3d: $bad of $n kept reproducers no longer reach their site"
    echo "refimpls: ecere-e3d: $n kept reproducers reach their sites"
}

# The crash-site reader of every campaign and triage step (asan build).
need_site_tool() {
    site_tool=$root/build/asan/conformance/mc_crash_site
    [ -x "$site_tool" ] || die "no $site_tool (cmake --build --preset asan)"
}

upstream_of() { # IMPL -> the upstream key
    case $1 in
    libaem|libaem-bounded) echo aem ;;
    libaem2025|aem-converter) echo aem2 ;;
    unnamedhb1|aamf2gltf) echo hb1 ;;
    semodel|semodel-writer) echo semodel ;;
    selib|selib-writer) echo selib ;;
    modelmerger-selib|modelmerger-selib-writer) echo mmselib ;;
    ecere-e3d|ecere-e3d-writer) echo ecere ;;
    *) die "unknown implementation '$1' (see: $0 list)" ;;
    esac
}

field() { # KEY N
    printf '%s\n' "$upstreams" | awk -F'|' -v k="$1" -v n="$2" '$1 == k { print $n }'
}

snapshot_digest() {
    (cd "$1" && find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum | cut -c1-64)
}

# Prints the source directory of upstream KEY at its pinned commit, and says
# on stderr where it came from. Exit 77 when neither network nor snapshot.
obtain() {
    local key=$1 url commit folder digest src
    url=$(field "$key" 2) commit=$(field "$key" 3) folder=$(field "$key" 4) digest=$(field "$key" 5)
    src=$out/src/$key
    if [ -d "$src/.git" ] && [ "$(git -C "$src" rev-parse HEAD 2>/dev/null)" = "$commit" ]; then
        echo "refimpls: $key: clone of $url at $commit (verified with git rev-parse)" >&2
        echo "$src"
        return
    fi
    if [ "${MC_REFIMPL_CLONE:-1}" != 0 ]; then
        rm -rf "$src.tmp"
        if GIT_TERMINAL_PROMPT=0 timeout 20 git clone --quiet "$url" "$src.tmp" 2>/dev/null &&
           git -C "$src.tmp" -c advice.detachedHead=false checkout --quiet "$commit" 2>/dev/null &&
           [ "$(git -C "$src.tmp" rev-parse HEAD)" = "$commit" ]; then
            rm -rf "$src" && mv "$src.tmp" "$src"
            echo "refimpls: $key: cloned $url at $commit (verified with git rev-parse)" >&2
            echo "$src"
            return
        fi
        rm -rf "$src.tmp"
        echo "refimpls: $key: cannot clone $url (no network?): using the snapshot" >&2
    fi
    local snap=$refdir/$folder
    [ -d "$snap" ] || skip "$key: no snapshot $snap and no clone"
    local got
    got=$(snapshot_digest "$snap")
    [ "$got" = "$digest" ] || die "$key: snapshot $snap differs from the one recorded (sha256 $got, expected $digest)"
    grep -q "$commit" "$refdir/README.md" 2>/dev/null ||
        die "$key: $refdir/README.md does not name commit $commit"
    echo "refimpls: $key: snapshot $snap of $commit (file checksums verified; the snapshot has no git history to check the commit against)" >&2
    echo "$snap"
}

san=(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -g -O1)

# One build directory per variant: ctest runs libaem and libaem-bounded side
# by side, and one rebuilding the library the other is loading made it fail.
build_libaem() { # SRC IMPL
    local src=$1 dir=$out/$2
    mkdir -p "$dir"
    pkg-config --exists cglm 2>/dev/null || [ -f /usr/include/cglm/cglm.h ] ||
        skip "libaem needs cglm (apt-get install libcglm-dev; scripts/setup-debian.sh)"
    gcc -std=gnu11 "${san[@]}" -fPIC -shared -w \
        -I"$root/conformance/certify" -I"$data/libaem" \
        -I"$src/libaem/include" -I"$src/libaem/include/aem" -I"$src/libaem" \
        "$data/libaem/adapter.c" "$data/libaem/animation_unit.c" "$src/libaem/core.c" \
        -lm -o "$dir/libmc_refimpl_libaem.so"
    echo "$dir/libmc_refimpl_libaem.so"
}

# Sanitizer checks off for a reader, after the others. libaem @42bd501 casts
# pointers into the file's packed sections: every section after an image
# buffer whose size is not a multiple of 8 (the converter's are 10 bytes)
# is read at misaligned addresses, undefined in C but harmless on the x86
# and ARM64 machines it runs on; reported, that would be every file's crash
# and hide all the rest (docs/REFERENCE-LOADERS.md says so).
abi_options() { # IMPL
    case $1 in
    libaem2025) echo "-fno-sanitize=alignment" ;;
    esac
}

# libaem @42bd501 needs no library: its cglm is the snapshot's own headers
# (external/cglm, which has the *_make functions Debian's lacks).
build_libaem2025() { # SRC
    local src=$1 dir=$out/libaem2025
    mkdir -p "$dir"
    gcc -std=gnu11 "${san[@]}" $(abi_options libaem2025) -fPIC -shared -w \
        -I"$root/conformance/certify" -I"$src/external/cglm/include" \
        -I"$src/libaem/include" -I"$src/libaem/include/aem" -I"$src/libaem" \
        "$data/libaem2025/adapter.c" "$data/libaem2025/animation_unit.c" "$src/libaem/model.c" \
        "$src/libaem/texture.c" -lm -o "$dir/libmc_refimpl_libaem2025.so"
    echo "$dir/libmc_refimpl_libaem2025.so"
}

# The upstream converter @42bd501, built headless by the aem-converter-build
# kit beside the snapshots (ours, not upstream's: build.sh and shims; its
# checksum recorded below as the snapshots' are) and cached: the build is
# redone only when the source or the kit changes. It needs an X server and
# OpenGL even without a window: Xvfb and Mesa's software renderer. Built with
# ASan, as the C readers are: its heap overflows (lines_points) otherwise
# crash or not from one run to the next (run_converter.sh turns leak
# detection off: a converter's leaks die with it).
converter_cflags="-fsanitize=address -fno-omit-frame-pointer"
converter_kit_digest=3a09c9f0c36c80a0efe4eef865b4f0765e44112befb6347303e3c6d88035cbcf
build_converter() { # SRC
    local src=$1 kit=$refdir/aem-converter-build dir=$out/aem-converter/build stamp
    command -v Xvfb >/dev/null ||
        skip "aem-converter needs Xvfb (apt-get install xvfb; scripts/setup-debian.sh)"
    [ -f /usr/include/GLFW/glfw3.h ] ||
        skip "aem-converter needs GLFW (apt-get install libglfw3-dev; scripts/setup-debian.sh)"
    ls /usr/lib/*/dri/swrast_dri.so >/dev/null 2>&1 ||
        skip "aem-converter needs Mesa's software renderer (apt-get install libgl1-mesa-dri; scripts/setup-debian.sh)"
    [ -f "$kit/build.sh" ] || skip "aem-converter: no build kit $kit"
    local got
    got=$(snapshot_digest "$kit")
    [ "$got" = "$converter_kit_digest" ] ||
        die "aem-converter: kit $kit differs from the one recorded (sha256 $got, expected $converter_kit_digest)"
    stamp="$(field aem2 3) $(snapshot_digest "$src") $got $converter_cflags"
    if [ -x "$dir/converter" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ]; then
        echo "refimpls: aem-converter: cached build $dir/converter" >&2
    else
        local start=$SECONDS
        rm -rf "$dir" && mkdir -p "$dir"
        SRC=$src CFLAGS_EXTRA=$converter_cflags sh "$kit/build.sh" "$dir" > "$dir/build.log" 2>&1 ||
            die "aem-converter: build failed ($dir/build.log)"
        echo "$stamp" > "$dir/stamp"
        echo "refimpls: aem-converter: built $dir/converter in $((SECONDS - start)) s" >&2
    fi
    echo "$dir"
}

# The runtime is 32-bit console code that overlays its structures (4-byte
# pointers included) on the file: built -m32 (gcc-multilib) as a command, so
# the layouts are the console's. `1 << 31` (model.c) is undefined in C but
# what every compiler makes of it: the shift check is off.
build_unnamedhb1() {
    local src=$1/framework dir=$out/unnamedhb1 a=$data/unnamedhb1
    mkdir -p "$dir"
    echo 'int main(void){return 0;}' > "$dir/m32.c"
    gcc -m32 -fsanitize=address "$dir/m32.c" -o "$dir/m32" 2>/dev/null ||
        skip "unnamedhb1 needs a 32-bit gcc with ASan (apt-get install gcc-multilib; scripts/setup-debian.sh)"
    i386_runner "$dir/m32"
    gcc -m32 -std=gnu11 "${san[@]}" -fno-sanitize=shift -w -DMC_REFIMPL_MAIN \
        -I"$a/shim" -I"$src" -I"$root/conformance/certify" \
        "$a/adapter.c" "$a/unreached.c" "$src/anim_model.c" "$src/model.c" "$src/scene.c" \
        -o "$dir/mc_refimpl_unnamedhb1"
    echo "${hb1_run:+$hb1_run }$dir/mc_refimpl_unnamedhb1 {}"
}

# How a 32-bit x86 program runs here, found by running one (PROBE, an ASan
# build): natively where the kernel executes i386 code, else under
# qemu-user's qemu-i386 (kernels built without IA32 emulation answer "Exec
# format error"). Sets hb1_run to the word put before the program: empty or
# the emulator's path. Under qemu, LeakSanitizer cannot stop the world (it
# spins in sched_yield): every run of the runtime has detect_leaks=0 anyway
# (asan_of), and the probe runs with it too.
i386_runner() { # PROBE
    hb1_run=
    if "$1" 2>/dev/null; then
        echo "refimpls: unnamedhb1: this kernel runs i386 programs natively" >&2
        return
    fi
    local qemu
    qemu=$(command -v qemu-i386 || true)
    [ -n "$qemu" ] ||
        skip "unnamedhb1: this kernel does not run i386 programs and there is no qemu-i386 (apt-get install qemu-user; scripts/setup-debian.sh)"
    ASAN_OPTIONS=detect_leaks=0 timeout 30 "$qemu" "$1" 2>/dev/null ||
        skip "unnamedhb1: this kernel does not run i386 programs, and $qemu could not run one either"
    echo "refimpls: unnamedhb1: this kernel does not run i386 programs: run under $qemu" >&2
    hb1_run=$qemu
}

# The fuzz build of the project with the C reader as MC_FUZZ_ABI_SOURCES
# (clang, libFuzzer, ASan+UBSan; 64-bit: libFuzzer has no i386 runtime on
# Debian 12, see docs/REFERENCE-LOADERS.md for what that means for UnnamedHB1).
fuzz_build() { # IMPL SRC TARGET
    local impl=$1 src=$2 target=$3 bdir=$out/fuzz-$1 sources includes
    case $impl in
    libaem|libaem-bounded)
        sources="$data/libaem/adapter.c;$data/libaem/animation_unit.c;$src/libaem/core.c"
        includes="$root/conformance/certify;$data/libaem;$src/libaem/include;$src/libaem/include/aem;$src/libaem" ;;
    libaem2025)
        sources="$data/libaem2025/adapter.c;$data/libaem2025/animation_unit.c;$src/libaem/model.c;$src/libaem/texture.c"
        includes="$root/conformance/certify;$src/external/cglm/include;$src/libaem/include;$src/libaem/include/aem;$src/libaem" ;;
    unnamedhb1)
        sources="$data/unnamedhb1/adapter.c;$data/unnamedhb1/unreached.c;$src/framework/anim_model.c;$src/framework/model.c;$src/framework/scene.c"
        includes="$root/conformance/certify;$data/unnamedhb1/shim;$src/framework" ;;
    *) die "$impl: not a C reader" ;;
    esac
    cmake --preset fuzz -S "$root" -B "$bdir" -DMC_FUZZ_ABI_SOURCES="$sources" \
        -DMC_FUZZ_ABI_INCLUDES="$includes" -DMC_FUZZ_ABI_LIBRARIES=m \
        -DMC_FUZZ_ABI_OPTIONS="$(abi_options "$impl")" >/dev/null
    cmake --build "$bdir" -j2 --target "mc_fuzz_$target" >/dev/null
    echo "$bdir/fuzz/mc_fuzz_$target"
}

fuzz() { # IMPL TARGET SECONDS
    local impl=$1 target=$2 seconds=$3 key src bin fmt dir
    mkdir -p "$out"
    key=$(upstream_of "$impl")
    src=$(obtain "$key")
    fmt=$(format_of "$impl")
    case $target in abi_$fmt|abi_${fmt}_sa) ;; *) die "$impl: target abi_$fmt or abi_${fmt}_sa" ;; esac
    bin=$(fuzz_build "$impl" "$src" "$target")
    dir=$out/$impl/fuzz-$target
    rm -rf "$dir" && mkdir -p "$dir/corpus" "$dir/artifacts"
    if [ "$impl" = libaem2025 ]; then
        # its layout's corpus files, and the upstream converter's outputs
        # when `outputs aem-converter` kept them
        local layout f
        layout=$(layout_of "$impl")
        "$python" - "$root/corpus/manifest.json" "$layout" <<'PY' | while read -r f; do cp "$root/corpus/$f" "$dir/corpus/"; done
import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    if c.get("layout") == sys.argv[2]: print(c["file"])
PY
        cp "$out/aem-converter/outputs"/*.aem "$dir/corpus/" 2>/dev/null || true
        [ -n "$(ls "$dir/corpus")" ] ||
            die "libaem2025: no seeds (no $layout corpus files; run '$0 outputs aem-converter' first)"
    else
        cp "$root/corpus/$fmt"/*/* "$dir/corpus/" # libFuzzer writes into its first corpus dir
    fi
    echo "refimpls: $impl: $target for $seconds s, log $dir/fuzz.log" >&2
    # fork mode goes on past crashes and hangs, so one campaign finds many sites;
    # header counts are allocated unchecked (up to 4 GiB): allowed, never touched
    local leaks=1
    [ "$impl" != unnamedhb1 ] || leaks=0
    env ASAN_OPTIONS="detect_leaks=$leaks" "$(env_of "$impl")" \
        "$bin" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$seconds" -timeout=5 -rss_limit_mb=6144 -malloc_limit_mb=4200 \
        -max_len=65536 -dict="$root/fuzz/dict/$fmt.dict" -artifact_prefix="$dir/artifacts/" \
        "$dir/corpus" > "$dir/fuzz.log" 2>&1 || true
    echo "refimpls: $impl: $target: $(ls "$dir/artifacts" | wc -l) artifacts in $dir/artifacts" >&2
}

# The sanitizer options of a replay: site_of and reduce.py must see the same
# sites (MC_REFIMPL_LEAKS=0: leaks are not crashes).
replay_asan() { echo "detect_leaks=${MC_REFIMPL_LEAKS:-1}"; }

# The crash site of one input replayed by the fuzz binary (empty: no crash).
site_of() { # BIN FILE
    { env ASAN_OPTIONS="$(replay_asan)" UBSAN_OPTIONS=print_stacktrace=1 \
        "$(env_of "$impl")" timeout 60 "$1" -timeout=5 -rss_limit_mb=6144 -malloc_limit_mb=4200 \
        "$2" 2>&1 || true; } | "$site_tool"
}

# Reduces an AEM reproducer in place, its site kept (reduce.py says how).
reduce_aem() { # BIN FILE
    env "$(env_of "$impl")" ASAN_OPTIONS="$(replay_asan)" "$python" -B "$data/libaem/reduce.py" "$1" "$site_tool" \
        "$2" "$2" 60
}

triage() { # IMPL TARGET
    local impl=$1 target=$2 dir=$out/$1/fuzz-$2 bin=$out/fuzz-$1/fuzz/mc_fuzz_$2
    local fmt keep=$root/fuzz/external/$impl
    fmt=$(format_of "$impl")
    need_site_tool
    [ -x "$bin" ] && [ -d "$dir/artifacts" ] || die "$impl: run '$0 fuzz $impl $target SECONDS' first"
    mkdir -p "$keep"
    : > "$dir/sites.tsv"
    local a site timeouts=0
    for a in $(ls -S -r "$dir/artifacts"); do # smallest first: the first of a site is kept
        # a hang replays for the whole -timeout: the 8 smallest stand for the rest
        case $a in timeout-*) timeouts=$((timeouts + 1)); [ $timeouts -le 8 ] || continue ;; esac
        site=$(site_of "$bin" "$dir/artifacts/$a")
        [ -n "$site" ] || site="no crash on replay"
        printf '%s\t%s\t%s\n' "$site" "$(stat -c %s "$dir/artifacts/$a")" "$a" >> "$dir/sites.tsv"
    done
    local n=0
    cut -f1 "$dir/sites.tsv" | awk '!seen[$0]++' | while IFS= read -r site; do
        [ "$site" = "no crash on replay" ] && continue
        a=$(awk -F'\t' -v s="$site" '$1 == s { print $3; exit }' "$dir/sites.tsv")
        local runs slug min
        runs=$(awk -F'\t' -v s="$site" '$1 == s' "$dir/sites.tsv" | wc -l)
        slug=$(printf '%s' "$site" | tr -c 'A-Za-z0-9_\n' '-' | tr -s '-')
        min=$keep/$target-$slug.$fmt
        env ASAN_OPTIONS="detect_leaks=${MC_REFIMPL_LEAKS:-1}" "$(env_of "$impl")" \
            "$bin" -minimize_crash=1 -max_total_time=15 -timeout=5 -rss_limit_mb=6144 \
            -malloc_limit_mb=4200 -exact_artifact_path="$min" "$dir/artifacts/$a" >/dev/null 2>&1 || true
        # minimising may drift to another crash: keep the original then, and
        # reduce it by sections where the format allows (AEM)
        if [ ! -s "$min" ] || [ "$(site_of "$bin" "$min")" != "$site" ]; then
            cp "$dir/artifacts/$a" "$min"
            # (reduce.py knows the aem.md layout only)
            [ "$fmt" != aem ] || [ "$impl" = libaem2025 ] || reduce_aem "$bin" "$min" >/dev/null || true
        fi
        # one reproducer per site whatever the campaign: the smaller one stays
        local other
        for other in "$keep"/*-"$slug.$fmt"; do
            # TARGET-SLUG.FMT, TARGET without '-': the same slug, not one ending in it
            local base=${other##*/}
            [ -f "$other" ] && [ "$other" != "$min" ] && [ "${base#*-}" = "$slug.$fmt" ] || continue
            if [ "$(stat -c %s "$other")" -le "$(stat -c %s "$min")" ]; then rm "$min"; min=$other; else rm "$other"; fi
        done
        printf '%s\t%s\t%s\t%s\n' "$target" "$site" "$runs" "$(basename "$min")"
    done | tee "$dir/triage.tsv"
    echo "refimpls: $impl: $target: $(wc -l < "$dir/triage.tsv") distinct sites from $(wc -l < "$dir/sites.tsv") findings; reproducers in $keep" >&2
}

# A campaign without an engine (issue 17): the UnnamedHB1 runtime is only
# faithful as 32-bit code and Debian has no i386 libFuzzer or AFL++ runtime.
# mcm_gen writes batches of mutants of the corpus (seeds of 1 MiB at most),
# each run as certify runs the loader; no coverage guides the choice.
blindfuzz() { # IMPL SECONDS
    local impl=$1 seconds=$2 src gen dir keep asan fmt=aamf
    [ "$impl" = unnamedhb1 ] || die "blindfuzz: unnamedhb1 only (the C readers libFuzzer can build: $0 fuzz)"
    gen=${MC_GEN:-$root/build/asan/fuzz/mcm_gen}
    [ -x "$gen" ] || die "no $gen (cmake --build --preset asan)"
    need_site_tool
    mkdir -p "$out"
    src=$(obtain hb1)
    build_unnamedhb1 "$src" > /dev/null
    local bin=($hb1_run "$out/unnamedhb1/mc_refimpl_unnamedhb1")
    dir=$out/unnamedhb1/blindfuzz keep=$root/fuzz/external/unnamedhb1
    asan=$(asan_of "$impl")
    rm -rf "$dir" && mkdir -p "$dir/batch" "$dir/sites" "$keep"
    local seeds=()
    mapfile -t seeds < <(find "$root/corpus/$fmt" -type f -size -1025k | LC_ALL=C sort)
    : > "$dir/findings.tsv"
    local base=${MC_BLINDFUZZ_SEED:-1} batch=0 execs=0 crashes=0 hangs=0 replays=0
    local start=$SECONDS f rc site slug size
    echo "refimpls: $impl: blind campaign for $seconds s over ${#seeds[@]} seeds, log $dir/findings.tsv" >&2
    while [ $((SECONDS - start)) -lt "$seconds" ]; do
        rm -f "$dir/batch"/*
        "$gen" "$fmt" $((base * 100000 + batch)) 500 "$dir/batch" "${seeds[@]}"
        batch=$((batch + 1))
        for f in "$dir/batch"/*; do
            [ $((SECONDS - start)) -lt "$seconds" ] || break
            execs=$((execs + 1)) rc=0
            env ASAN_OPTIONS="$asan" UBSAN_OPTIONS=print_stacktrace=1 MC_REFIMPL=1 \
                timeout 5 "${bin[@]}" "$f" > /dev/null 2> "$dir/report" || rc=$?
            if [ $rc -eq 124 ]; then
                hangs=$((hangs + 1)) site="timeout (not replayed)"
                # replayed with a stack (SIGABRT, which ASan then reports):
                # at most 20 times, each costs the whole 5 s
                if [ $replays -lt 20 ]; then
                    replays=$((replays + 1))
                    env ASAN_OPTIONS="$asan:handle_abort=1" UBSAN_OPTIONS=print_stacktrace=1 MC_REFIMPL=1 \
                        timeout -s ABRT 5 "${bin[@]}" "$f" > /dev/null 2> "$dir/report" || true
                    site=$("$site_tool" < "$dir/report")
                    if [ -n "$site" ]; then site="timeout in ${site#* in }"; else site="timeout (no stack)"; fi
                fi
            elif [ $rc -gt 128 ] || grep -q -e '^==[0-9]*==ERROR: ' -e ' runtime error: ' "$dir/report"; then
                crashes=$((crashes + 1))
                site=$("$site_tool" < "$dir/report")
                [ -n "$site" ] || site="exit $rc without a report"
            else
                continue
            fi
            size=$(stat -c %s "$f")
            printf '%s\t%s\t%s\n' "$site" "$size" "$(basename "$f")" >> "$dir/findings.tsv"
            slug=$(printf '%s' "$site" | tr -c 'A-Za-z0-9_\n' '-' | tr -s '-')
            if [ ! -f "$dir/sites/$slug.$fmt" ] || [ "$size" -lt "$(stat -c %s "$dir/sites/$slug.$fmt")" ]; then
                cp "$f" "$dir/sites/$slug.$fmt"
            fi
        done
        echo "refimpls: $impl: $((SECONDS - start)) s: $execs runs, $crashes crashes, $hangs hangs" >&2
    done
    rm -rf "$dir/batch" "$dir/report"
    blind_sites "$dir" "$keep" "$fmt"
    local elapsed=$((SECONDS - start)) distinct
    distinct=$(cut -f1 "$dir/findings.tsv" | sort -u | wc -l)
    echo "refimpls: $impl: $execs runs in $elapsed s ($((execs / (elapsed > 0 ? elapsed : 1))) exec/s), $crashes crashes, $hangs hangs, $distinct distinct sites ($(wc -l < "$dir/new.tsv") new, the rest known: $dir/sites.tsv)"
}

# The site of one input under the 32-bit runtime, run as certify runs it.
hb1_site() { # FILE
    { env ASAN_OPTIONS="$(asan_of unnamedhb1)" UBSAN_OPTIONS=print_stacktrace=1 MC_REFIMPL=1 \
        timeout 5 $hb1_run "$out/unnamedhb1/mc_refimpl_unnamedhb1" "$1" 2>&1 > /dev/null < /dev/null || true; } | "$site_tool"
}

# Greedy reduction without an engine: a shorter prefix, then cuts of ever
# smaller chunks (halves first) wherever the cut keeps the crash at SITE;
# at most 200 runs.
minimise_blind() { # FILE SITE OUT
    local site=$2 dst=$3 size chunk off runs=0
    local lo=0 hi mid
    hi=$(stat -c %s "$1")
    # the shortest prefix that still crashes there (bisection: a guess, the
    # runtime reading past a cut can crash elsewhere), then the cuts
    while [ $((hi - lo)) -gt 1 ] && [ $runs -lt 40 ]; do
        mid=$(((lo + hi) / 2)) runs=$((runs + 1))
        head -c "$mid" "$1" > "$dst.try"
        if [ "$(hb1_site "$dst.try")" = "$site" ]; then hi=$mid; else lo=$mid; fi
    done
    head -c "$hi" "$1" > "$dst.cur"
    size=$hi chunk=$((hi / 2))
    while [ "$chunk" -ge 1 ] && [ $runs -lt 200 ]; do
        off=0
        while [ $((off + chunk)) -le "$size" ] && [ $runs -lt 200 ]; do
            { head -c "$off" "$dst.cur"; tail -c +$((off + chunk + 1)) "$dst.cur"; } > "$dst.try"
            runs=$((runs + 1))
            if [ "$(hb1_site "$dst.try")" = "$site" ]; then
                mv "$dst.try" "$dst.cur"
                size=$((size - chunk))
            else
                off=$((off + chunk))
            fi
        done
        chunk=$((chunk / 2))
    done
    mv "$dst.cur" "$dst"
    rm -f "$dst.try"
}

# The campaign's sites against SITES.tsv: a new one's smallest input is
# minimised (not a hang's: each run would cost the whole timeout), kept
# (64 KiB at most) and listed; known ones are only counted.
blind_sites() { # DIR KEEP FMT
    local dir=$1 keep=$2 fmt=$3 list=$2/SITES.tsv site runs slug file status min how
    [ -f "$list" ] || printf 'campaign\tsite\tfindings\treproducer\tbytes\thow\n' > "$list"
    : > "$dir/new.tsv"
    cut -f1 "$dir/findings.tsv" | sort | uniq -c | sort -rn | while read -r runs site; do
        slug=$(printf '%s' "$site" | tr -c 'A-Za-z0-9_\n' '-' | tr -s '-')
        file=$dir/sites/$slug.$fmt status=known
        if ! cut -f2 "$list" | grep -qxF "$site"; then
            status=new min=$keep/blind_$fmt-$slug.$fmt how="smallest finding, not minimised"
            case $site in
            timeout*|exit*) cp "$file" "$min" ;;
            *)
                minimise_blind "$file" "$site" "$min"
                if [ "$(hb1_site "$min")" != "$site" ]; then cp "$file" "$min" # flaky: keep the finding
                elif [ "$(stat -c %s "$min")" -lt "$(stat -c %s "$file")" ]; then how="minimised (prefix, cuts)"; fi ;;
            esac
            if [ "$(stat -c %s "$min")" -le 65536 ]; then
                printf 'blind_%s\t%s\t%s\t%s\t%s\t%s\n' "$fmt" "$site" "$runs" "$(basename "$min")" \
                    "$(stat -c %s "$min")" "$how" >> "$list"
            else
                rm "$min"
            fi
            printf '%s\t%s\n' "$site" "$runs" >> "$dir/new.tsv"
        fi
        printf '%s\t%s\t%s\t%s\n' "$status" "$runs" "$(stat -c %s "$file")" "$site"
    done | tee "$dir/sites.tsv" >&2
}

# SELib (C#): its 4 source files (SEModel.cs, Utilities/*.cs), unmodified,
# compiled with Mono's mcs into SELib.dll, and our adapter
# (conformance/refimpl/selib/) against it: load.cs (the loader; built with
# -define:SEBLEND for ModelMerger's fork, which reads the SEBlend trailer)
# or export.cs (the writer's exporter adapter). From a clone, or from the
# snapshot kit's `git archive` tarball (src/*.tar) unpacked here. One
# build per IMPL (ctest runs the loader and the writer side by side),
# redone only when the source, the adapter or the compiler changes.
build_selib() { # SRC IMPL -> the build directory
    local src=$1 impl=$2 dir=$out/$2/build lib stamp tree
    command -v mcs >/dev/null && command -v mono >/dev/null ||
        skip "$impl needs Mono (apt-get install mono-mcs mono-devel; scripts/setup-debian.sh)"
    case $impl in
    selib*) lib=src/SELib ;;
    *) lib=src/SELibDotNet/src/SELib ;;
    esac
    # the source, our adapter, these commands (this function) and the compiler
    stamp="$(snapshot_digest "$src") $(cat "$data/selib"/*.cs | sha256sum | cut -c1-64)"
    stamp="$stamp $(declare -f build_selib | sha256sum | cut -c1-64) $(mcs --version)"
    if [ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$stamp" ]; then
        echo "refimpls: $impl: cached build $dir" >&2
        echo "$dir"
        return
    fi
    rm -rf "$dir" && mkdir -p "$dir/src"
    tree=$src
    if [ ! -f "$src/$lib/SEModel.cs" ]; then # the kit: its tarball
        tar -xf "$(ls "$src"/src/*.tar)" -C "$dir/src" || die "$impl: cannot unpack $src/src/*.tar"
        tree=$dir/src
    fi
    # -nowarn:219: SEModel.Read's five unused locals (the header fields it
    # skips); -debug: the .mdb files with which `mono --debug` gives an
    # unhandled exception's frames their file and line
    (cd "$tree" && mcs -nologo -target:library -langversion:7 -optimize+ -debug -nowarn:219 \
        -out:"$dir/SELib.dll" "$lib/SEModel.cs" "$lib"/Utilities/Extended{BinaryReader,BinaryWriter,Math}.cs) ||
        die "$impl: mcs failed on SELib"
    case $impl in
    *-writer)
        mcs -nologo -langversion:7 -optimize+ -debug -r:"$dir/SELib.dll" -r:System.Json.dll \
            -out:"$dir/selib_export.exe" "$data/selib/export.cs" "$data/selib/crash.cs" ;;
    modelmerger-selib)
        mcs -nologo -langversion:7 -optimize+ -debug -define:SEBLEND -r:"$dir/SELib.dll" \
            -out:"$dir/selib_load.exe" "$data/selib/load.cs" "$data/selib/crash.cs" ;;
    *)
        mcs -nologo -langversion:7 -optimize+ -debug -r:"$dir/SELib.dll" \
            -out:"$dir/selib_load.exe" "$data/selib/load.cs" "$data/selib/crash.cs" ;;
    esac || die "$impl: mcs failed on the adapter"
    echo "$stamp" > "$dir/stamp"
    echo "refimpls: $impl: built $dir" >&2
    echo "$dir"
}

# The certify loader argument(s) for IMPL, after building it (for a writer:
# --exporter and its command).
loader_of() {
    local impl=$1 key src
    case $impl in ecere-e3d|ecere-e3d-writer) loader_of_ecere "$impl"; return ;; esac
    key=$(upstream_of "$impl")
    src=$(obtain "$key")
    case $impl in
    libaem|libaem-bounded)
        case ${MC_REFIMPL_HOST_ASAN:-ON} in
        ON|1|on|TRUE|true) ;;
        *) skip "$impl: the ASan adapter library needs an ASan modelcheck (the asan preset)" ;;
        esac
        echo "--library"; build_libaem "$src" "$impl" ;;
    libaem2025)
        case ${MC_REFIMPL_HOST_ASAN:-ON} in
        ON|1|on|TRUE|true) ;;
        *) skip "$impl: the ASan adapter library needs an ASan modelcheck (the asan preset)" ;;
        esac
        echo "--library"; build_libaem2025 "$src" ;;
    unnamedhb1) echo "--loader"; build_unnamedhb1 "$src" ;;
    semodel|aamf2gltf)
        # -B: no bytecode written into the snapshot
        echo "--loader"
        printf '%q -B %q %s %q {}\n' "$python" "$data/python/run_reader.py" "$impl" "$src" ;;
    semodel-writer)
        echo "--exporter"
        printf '%q -B %q %q {in} {out}\n' "$python" "$data/python/semodel_export.py" "$src" ;;
    selib|modelmerger-selib)
        # Mono's heap capped at 2 GiB, as the others' allocations are;
        # --debug: file and line in a crash's stack
        local build
        build=$(build_selib "$src" "$impl")
        echo "--loader"
        printf 'MONO_GC_PARAMS=max-heap-size=2g %q --debug %q {}\n' "$(command -v mono)" "$build/selib_load.exe" ;;
    selib-writer|modelmerger-selib-writer)
        local build
        build=$(build_selib "$src" "$impl")
        echo "--exporter"
        printf 'MONO_GC_PARAMS=max-heap-size=2g %q --debug %q {in} {out}\n' "$(command -v mono)" "$build/selib_export.exe" ;;
    aem-converter)
        local build
        build=$(build_converter "$src")
        echo "--exporter"
        printf 'bash %q %q {in} {out}\n' "$data/converter/run_converter.sh" "$build" ;;
    *) die "$impl: not yet" ;;
    esac
}

format_of() {
    case $1 in
    libaem|libaem-bounded|libaem2025|aem-converter) echo aem ;;
    unnamedhb1|aamf2gltf) echo aamf ;;
    semodel|semodel-writer|selib|selib-writer|modelmerger-selib|modelmerger-selib-writer) echo semodel ;;
    ecere-e3d|ecere-e3d-writer) echo e3d ;;
    esac
}

env_of() {
    case $1 in
    libaem-bounded) echo MCC_LIBAEM_TEXTURE_CHECK=bounded ;;
    *) echo MC_REFIMPL=1 ;;
    esac
}

# Cases run at once: 2, but one for the converter (its ASan build under
# Mesa's software renderer takes most of a core, and all its cases share the
# run's one X server).
jobs_of() {
    case $1 in
    aem-converter) echo 1 ;;
    *) echo 2 ;;
    esac
}

# The seconds a case may take under `check`: 30, but 5 for the Ecere reader,
# which spins forever on a truncated file or a block size under 6 (each such
# case costs the whole timeout) and loads every corpus file in under 3 s
# under ASan (measured with --timings, 2 jobs on the 2-core machine).
check_timeout_of() {
    case $1 in
    ecere-e3d) echo 5 ;;
    *) echo 30 ;;
    esac
}

# What an exporter claims to write (certify --scope), when not everything:
# our adapter over the Ecere writer builds static scenes only (no skins, no
# skeletons, no animations: conformance/refimpl/ecere/e3d_export.py).
scope_of() {
    case $1 in
    ecere-e3d-writer) echo static ;;
    esac
}

# UBSan prints no stack by default: the crash site needs one. Allocations
# over 2 GiB fail (NULL, as on a machine without the memory) whatever the
# host has free, so verdicts do not depend on it. The game never frees what
# it loads: no leak detection for the UnnamedHB1 runtime.
asan_of() { # IMPL
    local asan=allocator_may_return_null=1:max_allocation_size_mb=2048
    [ "$1" != unnamedhb1 ] || asan=$asan:detect_leaks=0
    echo "$asan"
}

# The layout of its format a reader reads, when the format has several:
# libaem @1a273aa reads aem.md's AEM layout, libaem @42bd501 the current
# upstream one, each the other's files as garbage by design; each is
# certified on its layout's cases (and the "any" ones). Empty: every case.
layout_of() {
    case $1 in
    libaem|libaem-bounded) echo "${MC_REFIMPL_LAYOUT:-aem1}" ;;
    libaem2025) echo "${MC_REFIMPL_LAYOUT:-2025}" ;;
    esac
}

# A corpus of the cases of one layout: a manifest of those cases beside
# links to the corpus's folders (prints its directory).
layout_corpus() { # LAYOUT DIR
    local layout=$1 dir=$2 d
    rm -rf "$dir" && mkdir -p "$dir"
    for d in "$root/corpus"/*/; do ln -s "$d" "$dir/$(basename "$d")"; done
    "$python" - "$root/corpus/manifest.json" "$dir/manifest.json" "$layout" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["cases"] = [c for c in m["cases"] if c["format"] == "any" or c.get("layout") == sys.argv[3]]
json.dump(m, open(sys.argv[2], "w"), indent=1)
PY
    echo "$dir"
}

certify() { # IMPL DIR JOBS TIMEOUT
    local impl=$1 dir=$2 jobs=$3 timeout=$4 loader
    mkdir -p "$out"
    [ -x "$mc" ] || die "no modelcheck at $mc (cmake --preset asan && cmake --build --preset asan)"
    # not a process substitution: a SKIP (77) or failure inside must end the script
    loader_of "$impl" > "$out/$impl.loader"
    mapfile -t loader < "$out/$impl.loader"
    [ ${#loader[@]} -eq 2 ] || die "$impl: no loader"
    mkdir -p "$dir"
    # an exporter's source scenes are built into modelcheck: no corpus
    local corpus=(--corpus "$root/corpus") layout
    layout=$(layout_of "$impl")
    [ -z "$layout" ] || corpus=(--corpus "$(layout_corpus "$layout" "$out/$impl/corpus-$layout")")
    [ "${loader[0]}" != --exporter ] || corpus=()
    local scope=() sc
    sc=$(scope_of "$impl")
    [ -z "$sc" ] || scope=(--scope "$sc")
    local rc=0 display=MCC_DISPLAY= xvfb=
    # The converter needs an X server. Certify's sandbox gives each case a
    # read-only /tmp, where Xvfb could not create its socket: one server is
    # started here, outside, for the whole run, and its display handed in by
    # the one variable kind the sandbox keeps (MCC_*); cases connect to its
    # socket in /tmp/.X11-unix, which a read-only view still lets them reach.
    if [ "$impl" = aem-converter ]; then
        local fifo n
        fifo=$(mktemp -u "${TMPDIR:-/tmp}/mc_xvfb.XXXXXX")
        mkfifo "$fifo" || die "aem-converter: cannot make $fifo"
        Xvfb -displayfd 3 -screen 0 640x480x24 -nolisten tcp 3> "$fifo" 2> /dev/null &
        xvfb=$!
        n=$(head -n 1 < "$fifo")
        rm -f "$fifo"
        [ -n "$n" ] || { kill "$xvfb" 2> /dev/null; die "aem-converter: Xvfb did not start"; }
        display=MCC_DISPLAY=:$n
    fi
    env ASAN_OPTIONS="$(asan_of "$impl")" UBSAN_OPTIONS=print_stacktrace=1 "$(env_of "$impl")" $display \
        "$mc" certify "${loader[0]}" "${loader[1]}" --format "$(format_of "$impl")" \
        --jobs "$jobs" --timeout "$timeout" "${corpus[@]}" "${scope[@]}" \
        --text "$dir/$impl.txt" --json "$dir/$impl.json" --html "$dir/$impl.html" \
        --junit "$dir/$impl.junit.xml" --report /dev/null || rc=$?
    if [ -n "$xvfb" ]; then kill "$xvfb" 2> /dev/null; wait "$xvfb" 2> /dev/null || true; fi
    [ $rc -le 1 ] || die "$impl: certify failed (exit $rc)"
    echo "refimpls: $impl: certificates in $dir/$impl.{txt,json,html,junit.xml}" >&2
}

# A loader library as a command (`modelcheck fuzz` takes commands): our
# conformance/refimpl/library_command.c, built with ASan like the library
# (the runtime must come first), dlopens it and calls it once per run.
library_command() { # LIBRARY FORMAT -> the command, {} the input
    local dir=$out/library-command
    mkdir -p "$dir"
    [ -x "$dir/mc_library_command" ] && [ "$dir/mc_library_command" -nt "$data/library_command.c" ] ||
        gcc -std=gnu11 "${san[@]}" -I"$root/conformance/certify" "$data/library_command.c" -ldl \
            -o "$dir/mc_library_command" || die "cannot build $dir/mc_library_command"
    printf '%q %q %s {}\n' "$dir/mc_library_command" "$1" "$2"
}

# A black-box campaign (`modelcheck fuzz`) against a reader as a command,
# certify's sandbox and limits around each input, its findings (sites,
# reproducers, the state to resume from) in DIR; the JSON and text reports
# beside them. A library reader runs through library_command.
campaign() { # IMPL SECONDS DIR
    local impl=$1 seconds=$2 dir=$3 fmt cmd
    [ -x "$mc" ] || die "no modelcheck at $mc (cmake --preset asan && cmake --build --preset asan)"
    mkdir -p "$out" "$dir"
    loader_of "$impl" > "$out/$impl.loader"
    mapfile -t loader < "$out/$impl.loader"
    [ ${#loader[@]} -eq 2 ] || die "$impl: no loader"
    fmt=$(format_of "$impl")
    case ${loader[0]} in
    --loader) cmd=${loader[1]} ;;
    --library) cmd=$(library_command "${loader[1]}" "$fmt") ;;
    *) die "$impl: a writer: campaigns are for readers" ;;
    esac
    local corpus=(--corpus "$root/corpus") layout
    layout=$(layout_of "$impl")
    [ -z "$layout" ] || corpus=(--corpus "$(layout_corpus "$layout" "$out/$impl/corpus-$layout")")
    local timeout=5 rc=0
    [ "$(check_timeout_of "$impl")" -lt 30 ] && timeout=$(check_timeout_of "$impl")
    echo "refimpls: $impl: modelcheck fuzz for $seconds s, findings in $dir" >&2
    env ASAN_OPTIONS="$(asan_of "$impl")" UBSAN_OPTIONS=print_stacktrace=1 "$(env_of "$impl")" \
        "$mc" fuzz --loader "$cmd" --format "$fmt" "${corpus[@]}" --seconds "$seconds" --seed 1 -j "${MC_FUZZ_JOBS:-1}" \
        --timeout "$timeout" --findings "$dir/findings" --no-progress -o json > "$dir/$impl.json" || rc=$?
    [ $rc -le 1 ] || die "$impl: modelcheck fuzz failed (exit $rc)"
    "$python" - "$dir/$impl.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"{r.get('executions')} inputs in {r.get('seconds')} s ({r.get('execs_per_second')}/s), {len(r['sites'])} sites")
for s in r["sites"]:
    print(f"  {s['kind']:12} {s['count']:6}  {s['signature']}  {s['reproducer']}")
PY
}

# One line per case: file, format, verdict and crash site, from the JSON (an
# exporter's: scene, format, verdict and the validator's error codes).
verdicts() {
    python3 - "$1" <<'PY'
import json, re, sys
cert = json.load(open(sys.argv[1]))

def managed_site(tail):
    # A Mono program's unhandled exception (the SELib adapters print it in
    # Mono's shape, then die by SIGABRT): its type and the first frame
    # outside the runtime's own System.* code, with file and line if known.
    if "Unhandled Exception:" not in tail:
        return None
    lines = tail.split("Unhandled Exception:", 1)[1].strip().splitlines()
    kind = lines[0].split(":")[0]
    for line in lines[1:]:
        m = re.match(r"\s+at (\S+) .*?(?: in (\S+?):(\d+))?\s*$", line)
        if m and not m.group(1).startswith("System."):
            where = f"{m.group(1)}" + (f"@{m.group(2).rsplit('/', 1)[-1]}:{m.group(3)}" if m.group(2) and not m.group(2).startswith("<") else "")
            return f"{kind}:{where}"
    return kind

for c in cert["cases"]:
    if "scene" in c:
        codes = ",".join(e.split("@")[0] for e in c["errors"]) or "-"
        tail = c.get("stderr_tail", "")
        asan = re.search(r"SUMMARY: AddressSanitizer: (\S+) \S*?([^/\s]+:\d+) in (\S+)", tail)
        if c["verdict"] == "crash" and asan:
            codes = ":".join(asan.groups())
        elif c["verdict"] == "crash" and managed_site(tail):
            codes = managed_site(tail)
        elif c["verdict"] == "crash" and c.get("signal"):
            # the signal, and the failed assertion when an abort() says it
            codes = f'signal{c["signal"]}'
            m = re.search(r"Assertion `(.*)' failed", tail)
            if m: codes += ":assert:" + m.group(1).replace(" ", "")
        print(f'{c["scene"]} {cert["exporter"]["format"]} {c["verdict"]} {codes}')
        continue
    site = c.get("crash_site") or "-"
    managed = managed_site(c.get("stderr_tail") or "")
    if c["verdict"] == "crash" and managed:
        site = managed
    print(f'{c["file"]} {c["format"]} {c["verdict"]} {site}')
PY
}

# The certificate as markdown: per rule group, then the crash sites (an
# exporter's: per scene group).
markdown() {
    "$python" - "$1" <<'PY'
import json, sys
cert = json.load(open(sys.argv[1]))
exporter = "exporter" in cert
if exporter:
    v = ["conforming", "refused", "failed", "invalid_output", "unfaithful", "crash", "hang", "no_output", "error", "skipped"]
    tables = [(cert["groups"], cert["total"])]
else:
    v = ["conforming", "too_lenient", "too_strict", "crash", "hang", "skipped"]
    tables = [(f["groups"], f) for f in cert["formats"]]
# the rarer verdicts get a column when the run has them
v[v.index("hang") + 1:v.index("hang") + 1] = [x for x in ("leak", "oom") if cert["total"]["verdicts"].get(x)]
print(f"| {'scene' if exporter else 'rule'} group | runs | " + " | ".join(x.replace("_", " ") for x in v) + " |")
print("|---|" + "---:|" * (len(v) + 1))
for groups, all_ in tables:
    rows = [(g["group"], g) for g in groups] + [("**all**", all_)]
    for name, g in rows:
        print(f"| {name} | {g['runs']} | " + " | ".join(str(g["verdicts"][x]) for x in v) + " |")
print(f"\nscore {cert['total']['score']}%\n")
if cert.get("crash_sites"):
    print("| crash site | runs | cases |")
    print("|---|---:|---|")
    for s in cert["crash_sites"]:
        cases = ", ".join(f"`{c['file']}`" for c in s["cases"][:6])
        more = len(s["cases"]) - 6
        if more > 0: cases += f" and {more} more"
        print(f"| `{s['site']}` | {s['runs']} | {cases} |")
PY
}

# The converter run by hand over every source scene (the corpus's .gltf
# copies, what certify gives it), its outputs kept in DIR: the files AEM
# users have today, for a look (modelcheck validate) and as fuzz seeds of
# libaem2025. Prints one line per scene: exit status and output size.
converter_outputs() { # DIR
    local dir=$1 build scene stem rc
    build=$(build_converter "$(obtain aem2)")
    rm -rf "$dir" && mkdir -p "$dir/in"
    cp "$root/corpus/scenes"/*.gltf "$root/corpus/scenes"/*.png "$dir/in/"
    for scene in "$dir/in"/*.gltf; do
        stem=$(basename "$scene" .gltf) rc=0
        bash "$data/converter/run_converter.sh" "$build" "$scene" "$dir/$stem.aem" \
            > "$dir/$stem.log" 2>&1 < /dev/null || rc=$?
        [ -s "$dir/$stem.aem" ] || rm -f "$dir/$stem.aem"
        printf '%s\texit %s\t%s\n' "$stem" "$rc" \
            "$( [ -f "$dir/$stem.aem" ] && echo "$(stat -c %s "$dir/$stem.aem") bytes" || echo "no output")"
    done | tee "$dir/outputs.tsv"
    rm -rf "$dir/in"
}

cmd=${1:-}
case $cmd in
list)
    cat <<'L'
libaem          janhsimon/aem @1a273aa  libaem + the viewer's use (C, ASan+UBSan .so)  aem
libaem-bounded  the same, the viewer's texture test bounded by the texture count       aem
libaem2025      janhsimon/aem @42bd501  libaem (the 2025 layout) + the viewer's use (C, ASan+UBSan .so)  aem
aem-converter   janhsimon/aem @42bd501  converter/ (glTF to AEM 2025; ASan build, Xvfb + Mesa) (exporter)  aem
unnamedhb1      kiwanowski/UnnamedHB1 @9d03bbb  aamfInitData/samfInitData + animation (C, 32-bit, ASan+UBSan)  aamf
aamf2gltf       kiwanowski/UnnamedHB1 @9d03bbb  tools/aamf2gltf.py (Python command)  aamf
semodel         dtzxporter/io_model_semodel @188a443  semodel.py (Python command)  semodel
semodel-writer  dtzxporter/io_model_semodel @188a443  semodel.py's save() via semodel_export.py (exporter)  semodel
selib           dtzxporter/SELibDotNet @97acee1  SEModel.Read + a tool's lookups (C#, Mono)  semodel
selib-writer    dtzxporter/SELibDotNet @97acee1  SEModel.Write via selib/export.cs (C#, Mono; exporter)  semodel
modelmerger-selib         Scobalula/ModelMerger @b6ebc4f  its SELib fork's SEModel.Read (+ SEBlend) + lookups (C#, Mono)  semodel
modelmerger-selib-writer  Scobalula/ModelMerger @b6ebc4f  its SELib fork's SEModel.Write via selib/export.cs (exporter)  semodel
ecere-e3d       ecere/ecere-sdk @b621aaa  e3dRead.ec via Object::Load (eC; adapter + reader ASan+UBSan; cached SDK)  e3d
ecere-e3d-writer  ecere/ecere-sdk @b621aaa  e3dWrite.ec via Object::Save, static scenes (exporter)  e3d
L
    ;;
build-cache)
    [ $# -eq 2 ] && [ "$2" = ecere ] || die "usage: $0 build-cache ecere"
    ecere_build_cache ;;
build)
    [ $# -eq 2 ] || die "usage: $0 build IMPL"
    loader_of "$2" | tail -1 ;;
certify)
    [ $# -ge 2 ] || die "usage: $0 certify IMPL [DIR]"
    certify "$2" "${3:-$out/$2/certificate}" "$(jobs_of "$2")" 10 ;;
check|expect)
    [ $# -eq 2 ] || die "usage: $0 $cmd IMPL"
    impl=$2 dir=$out/$2/check
    certify "$impl" "$dir" "$(jobs_of "$impl")" "$(check_timeout_of "$impl")"
    verdicts "$dir/$impl.json" > "$dir/verdicts.txt"
    exp=$data/expected/$impl.txt
    if [ "$cmd" = expect ]; then
        mkdir -p "$data/expected" && cp "$dir/verdicts.txt" "$exp"
        echo "refimpls: wrote $exp ($(wc -l < "$exp") cases)"
    elif ! diff -u "$exp" "$dir/verdicts.txt"; then
        echo "refimpls: $impl: verdicts differ from $exp (above); if intended: $0 expect $impl" >&2
        exit 1
    else
        echo "refimpls: $impl: $(wc -l < "$exp") verdicts as expected"
    fi
    [ "$cmd" = check ] && [ "$impl" = ecere-e3d ] && ecere_sites
    : ;;
sites)
    [ $# -eq 2 ] && [ "$2" = ecere-e3d ] || die "usage: $0 sites ecere-e3d"
    impl=$2
    ecere_sites ;;
markdown)
    [ $# -ge 2 ] || die "usage: $0 markdown IMPL [DIR]"
    markdown "${3:-$out/$2/certificate}/$2.json" ;;
replay)
    [ $# -ge 4 ] || die "usage: $0 replay IMPL TARGET FILE..."
    impl=$2
    need_site_tool
    fmt=$(format_of "$impl")
    case $3 in abi_$fmt|abi_${fmt}_sa) ;; *) die "$impl: target abi_$fmt or abi_${fmt}_sa" ;; esac
    bin=$(fuzz_build "$impl" "$(obtain "$(upstream_of "$impl")")" "$3")
    shift 3
    for f in "$@"; do
        site=$(site_of "$bin" "$f")
        printf '%s\t%s\n' "${site:-no crash}" "$f"
    done ;;
reduce)
    [ $# -ge 4 ] || die "usage: $0 reduce IMPL TARGET FILE..."
    impl=$2
    [ "$(format_of "$impl")" = aem ] && [ "$impl" != libaem2025 ] || die "reduce: aem.md-layout readers only"
    need_site_tool
    case $3 in abi_aem|abi_aem_sa) ;; *) die "$impl: target abi_aem or abi_aem_sa" ;; esac
    bin=$(fuzz_build "$impl" "$(obtain aem)" "$3")
    shift 3
    for f in "$@"; do reduce_aem "$bin" "$f" || echo "refimpls: $f: kept as it was" >&2; done ;;
triage)
    [ $# -eq 3 ] || die "usage: $0 triage IMPL TARGET"
    impl=$2
    triage "$2" "$3" ;;
fuzz)
    [ $# -eq 4 ] || die "usage: $0 fuzz IMPL TARGET SECONDS"
    fuzz "$2" "$3" "$4" ;;
campaign)
    [ $# -ge 3 ] || die "usage: $0 campaign IMPL SECONDS [DIR]"
    campaign "$2" "$3" "${4:-$out/$2/campaign}" ;;
blindfuzz)
    [ $# -eq 3 ] || die "usage: $0 blindfuzz unnamedhb1 SECONDS"
    blindfuzz "$2" "$3" ;;
blindtriage)
    [ $# -eq 2 ] && [ "$2" = unnamedhb1 ] || die "usage: $0 blindtriage unnamedhb1"
    need_site_tool
    [ -s "$out/unnamedhb1/blindfuzz/findings.tsv" ] || die "unnamedhb1: run '$0 blindfuzz unnamedhb1 SECONDS' first"
    build_unnamedhb1 "$(obtain hb1)" > /dev/null # and how it runs here (hb1_run)
    blind_sites "$out/unnamedhb1/blindfuzz" "$root/fuzz/external/unnamedhb1" aamf ;;
outputs)
    [ $# -ge 2 ] && [ $# -le 3 ] && [ "$2" = aem-converter ] || die "usage: $0 outputs aem-converter [DIR]"
    converter_outputs "${3:-$out/aem-converter/outputs}" ;;
amftools)
    [ $# -le 2 ] || die "usage: $0 amftools [DIR]"
    src=$(obtain hb1)
    "$python" -B "$data/python/amf_tools.py" "$src" "$root/corpus" "${2:-$out/amftools}" ;;
*) die "usage: $0 list|build|build-cache|certify|check|expect|sites|fuzz|replay|reduce|triage|blindfuzz|blindtriage IMPL, outputs aem-converter, or amftools (see the top of this file)" ;;
esac
