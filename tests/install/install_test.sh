#!/usr/bin/env bash
# cmake --install into a DESTDIR, then as an outsider (issue 15):
#  - every piece is where the README says, the library has its SONAME, and no
#    installed file names the source or build tree;
#  - the installed command, moved to another prefix, certifies with the
#    corpus of that prefix;
#  - a tiny consumer builds and runs against the installed files twice:
#    through pkg-config and through find_package(modelcheck).
# usage: install_test.sh BUILD_DIR SOURCE_DIR C_COMPILER SANITIZE(ON/OFF)
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) cc=$3 sanitize=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { echo "FAIL: $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok; else no "$what"; fi; }

DESTDIR=$tmp/dest cmake --install "$build" --prefix /opt/mc >"$tmp/install.log" 2>&1 || {
    cat "$tmp/install.log"; echo "0 passed, 1 failed"; exit 1; }
root=$tmp/dest/opt/mc
libdir=$(cd "$root" && dirname "$(find . -name 'libmodelcheck.so.0' | head -1)")
libdir=${libdir#./}
for f in bin/modelcheck bin/mc_load "$libdir/libmodelcheck.so.0" "$libdir/libmodelcheck.so" "$libdir/libmodelcheck.a" \
         include/modelcheck/modelcheck.h include/modelcheck/mc_catalog.def include/modelcheck/mc_code_numbers.def include/modelcheck/mc_kinds.def "$libdir/pkgconfig/modelcheck.pc" \
         "$libdir/cmake/modelcheck/modelcheckConfig.cmake" share/modelcheck/corpus/manifest.json \
         share/modelcheck/schema/report.schema.json share/modelcheck/schema/config.schema.json \
         share/modelcheck/schema/sarif.schema.json share/man/man1/modelcheck.1 share/doc/modelcheck/README.md \
         share/bash-completion/completions/modelcheck share/zsh/site-functions/_modelcheck \
         share/fish/vendor_completions.d/modelcheck.fish; do
    check "installed $f" test -e "$root/$f"
done
# every document the catalog's clauses, its advice and the messages cite
# (issue 36): what `modelcheck explain` names must be installed
cited=$(grep -rhoE 'docs/[A-Za-z0-9_./-]+\.md' "$src/validator" "$src/reports/render" "$src/conformance/certify" | sort -u)
check "the sources cite documents (found: $(echo $cited))" test -n "$cited"
for d in $cited; do
    check "installed share/doc/modelcheck/$d (cited)" test -f "$root/share/doc/modelcheck/$d"
done
check "libmodelcheck.so.0 is a link to the versioned file" test -L "$root/$libdir/libmodelcheck.so.0"
soname=$(readelf -d "$root/$libdir/libmodelcheck.so.0" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
check "SONAME is libmodelcheck.so.0 (got '$soname')" test "$soname" = libmodelcheck.so.0
# no file refers to the trees it came from. Binaries: their strings once
# stripped of debug information, less the source file names that
# sanitizer and assert diagnostics carry by design (path/to/file.c) and the
# profile files of a coverage build (file.c.gcda).
leaks=""
while IFS= read -r -d '' f; do
    if file -b "$f" | grep -q -e ELF -e 'ar archive'; then
        strip -o "$tmp/stripped" "$f" 2>/dev/null || cp "$f" "$tmp/stripped"
        strings -a "$tmp/stripped" >"$tmp/strings"
    else
        cp "$f" "$tmp/strings"
    fi
    if grep -aF -e "$src" -e "$build" "$tmp/strings" | grep -qvE '\.[ch](:[0-9]+)*$|\.gcda$'; then
        leaks="$leaks ${f#$root/}"
    fi
done < <(find "$root" -path '*/corpus' -prune -o -type f -print0)
check "no installed file names $src or $build:$leaks" test -z "$leaks"

# the installed command, moved: its corpus is the moved prefix's
cp -a "$root" "$tmp/moved"
run_env=(env "LD_LIBRARY_PATH=$tmp/moved/$libdir")
(cd / && "${run_env[@]}" "$tmp/moved/bin/modelcheck" certify --reference -f nlm -o json >"$tmp/cert.json" 2>"$tmp/cert.err")
rc=$?
check "moved install: certify --reference exits 0 (got $rc: $(head -c 300 "$tmp/cert.err"))" test $rc -eq 0
dir=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["corpus"]["dir"])' "$tmp/cert.json" 2>/dev/null)
check "moved install: the default corpus is $tmp/moved/share/modelcheck/corpus (got '$dir')" \
    test "$dir" = "$tmp/moved/share/modelcheck/corpus"
"${run_env[@]}" "$tmp/moved/bin/modelcheck" "$src/corpus/aem/valid/skinned_animated.aem" >/dev/null
check "moved install: modelcheck validates" test $? -eq 0
# explain names the moved prefix's documents, and they exist
"${run_env[@]}" "$tmp/moved/bin/modelcheck" explain e3d_lzma_bad_properties >"$tmp/explain.txt" 2>&1
doc=$(sed -n 's/^  Document: *//p' "$tmp/explain.txt")
check "moved install: explain names $tmp/moved/share/doc/modelcheck/docs/formats/e3d.md (got '$doc')" \
    test "$doc" = "$tmp/moved/share/doc/modelcheck/docs/formats/e3d.md"
check "moved install: the document explain names exists" test -f "$doc"

# consumers
san=()
[ "$sanitize" = ON ] && san=(-fsanitize=address,undefined)
file=$src/corpus/aem/valid/static_exporter_unskinned.aem
want="aem 0 1 error"
export PKG_CONFIG_PATH=$root/$libdir/pkgconfig
if flags=$(pkg-config --cflags --libs modelcheck); then
    # shellcheck disable=SC2086
    "$cc" -std=c11 -Wall -Werror "${san[@]}" "$src/tests/install/consumer.c" $flags -o "$tmp/consumer_pc" 2>"$tmp/cc.log"
    check "pkg-config consumer builds: $(head -c 400 "$tmp/cc.log")" test -x "$tmp/consumer_pc"
    got=$(LD_LIBRARY_PATH=$root/$libdir "$tmp/consumer_pc" "$file")
    check "pkg-config consumer prints '$want' (got '$got')" test "$got" = "$want"
    check "pkg-config consumer uses the shared library" \
        bash -c "LD_LIBRARY_PATH=$root/$libdir ldd $tmp/consumer_pc | grep -q '$root/$libdir/libmodelcheck.so.0'"
else
    no "pkg-config --cflags --libs modelcheck"
fi
mkdir -p "$tmp/cmake_consumer"
cp "$src/tests/install/consumer.c" "$tmp/cmake_consumer/"
cp "$src/tests/install/CMakeLists.txt.in" "$tmp/cmake_consumer/CMakeLists.txt"
cmake -S "$tmp/cmake_consumer" -B "$tmp/cmake_consumer/build" -DCMAKE_C_COMPILER="$cc" \
      -DCMAKE_PREFIX_PATH="$root" -DCMAKE_C_FLAGS="${san[*]}" -DCMAKE_EXE_LINKER_FLAGS="${san[*]}" \
      >"$tmp/cmake.log" 2>&1 && cmake --build "$tmp/cmake_consumer/build" >>"$tmp/cmake.log" 2>&1
check "find_package consumer builds: $(tail -c 600 "$tmp/cmake.log")" test -x "$tmp/cmake_consumer/build/consumer"
got=$(LD_LIBRARY_PATH=$root/$libdir "$tmp/cmake_consumer/build/consumer" "$file")
check "find_package consumer prints '$want' (got '$got')" test "$got" = "$want"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
