#!/usr/bin/env bash
# The Debian package (issue 15): cpack -G DEB, then dpkg itself installs it
# into a clean root (its own dpkg database, dpkg --root; the root holds only
# /bin/sh and ldconfig, so that the package's postinst runs in it), the
# libraries its Depends name are copied in from the host (what apt would
# install), and the command runs chrooted there, where neither the source
# nor the build tree exists: it validates a packaged corpus file and
# certifies with the packaged corpus by default. dpkg then removes it
# without leaving a file. Where chroot or a /proc bind mount is refused, the
# command runs from the root with LD_LIBRARY_PATH instead (said on stdout).
# usage: deb_test.sh BUILD_DIR SOURCE_DIR     (exit 77: SKIP without dpkg/cpack)
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
for t in cpack dpkg dpkg-deb dpkg-shlibdeps; do
    command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
tmp=$(mktemp -d)
cleanup() {
    mountpoint -q "$tmp/root/proc" 2>/dev/null && umount "$tmp/root/proc"
    rm -rf --one-file-system "$tmp"
}
trap cleanup EXIT
pass=0 fail=0
check() { local what=$1; shift; if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi; }

(cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1)
deb=$(find "$tmp/pkg" -maxdepth 1 -name 'modelcheck_*.deb' | head -1)
if [ -z "$deb" ]; then tail -20 "$tmp/cpack.log"; echo "0 passed, 1 failed"; exit 1; fi
info=$(dpkg-deb -f "$deb" Package Version Depends)
check "control: Package modelcheck ($info)" grep -q '^Package: modelcheck$' <<<"$info"
check "control: Depends names libssl and libcjson ($info)" \
    bash -c 'grep "^Depends:" <<<"$1" | grep -q libssl && grep "^Depends:" <<<"$1" | grep -q libcjson' _ "$info"
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/modelcheck ./usr/bin/mc_load ./usr/include/modelcheck/modelcheck.h ./usr/share/man/man1/modelcheck.1 \
         ./usr/share/modelcheck/corpus/manifest.json; do
    check "package holds $f" grep -qx "$f" <<<"$contents"
done
check "package holds libmodelcheck.so.0" grep -q '/libmodelcheck\.so\.0$' <<<"$contents"

root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers" "$root/etc" "$root/proc"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
# the host libraries a program needs, copied to the same place in the root
copy_libs() {
    LD_LIBRARY_PATH=${2:-} ldd "$1" | grep -o '/[^ ]*' | while read -r lib; do
        case $lib in "$root"/*) ;; *) [ -e "$root$lib" ] || cp -L --parents "$lib" "$root" ;; esac
    done
}
mkdir -p "$root/bin" "$root/sbin"
cp -L /bin/sh "$root/bin/sh" && cp -L "$(command -v ldconfig)" "$root/sbin/ldconfig"
copy_libs /bin/sh
dpkg --root="$root" --log=/dev/null --force-depends -i "$deb" >"$tmp/dpkg.log" 2>&1
check "dpkg -i into a clean root: $(tail -3 "$tmp/dpkg.log")" test -x "$root/usr/bin/modelcheck"
check "dpkg: installed and configured (postinst ran)" \
    bash -c "dpkg --root='$root' -s modelcheck 2>/dev/null | grep -q '^Status: install ok installed'"
libdir=$(dirname "$(find "$root/usr" -name libmodelcheck.so.0 | head -1)")
for b in "$root/usr/bin/modelcheck" "$root/usr/bin/mc_load" "$libdir/libmodelcheck.so.0"; do copy_libs "$b" "$libdir"; done
run=()
if mount --bind /proc "$root/proc" 2>/dev/null && chroot "$root" /usr/bin/modelcheck --version >/dev/null 2>&1; then
    run=(chroot "$root")
    at=""
else
    echo "note: chroot refused here: running from the root with LD_LIBRARY_PATH"
    export LD_LIBRARY_PATH=${libdir}
    at=$root
fi
check "modelcheck --version" bash -c "$(printf '%q ' "${run[@]}") '$at/usr/bin/modelcheck' --version | grep -q '^modelcheck '"
(cd / && "${run[@]}" "$at/usr/bin/modelcheck" "$at/usr/share/modelcheck/corpus/aem/valid/skinned_animated.aem" >/dev/null)
check "modelcheck validates a packaged corpus file" test $? -eq 0
(cd / && "${run[@]}" "$at/usr/bin/modelcheck" certify --reference -f e3d -o json >"$tmp/cert.json" 2>"$tmp/cert.err")
check "certify --reference with the packaged corpus: $(head -c 300 "$tmp/cert.err")" test $? -eq 0
dir=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["corpus"]["dir"])' "$tmp/cert.json" 2>/dev/null)
check "default corpus is the packaged one (got '$dir')" test "$dir" = "$at/usr/share/modelcheck/corpus"
mountpoint -q "$root/proc" && umount "$root/proc"
dpkg --root="$root" --log=/dev/null -r modelcheck >"$tmp/dpkg.log" 2>&1
left=$(dpkg-deb -c "$deb" | awk '{print $6}' | grep -v '/$' | while read -r f; do [ -e "$root/$f" ] && echo "$f"; done | head -5)
check "dpkg -r leaves no file ($left)" test -z "$left"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
