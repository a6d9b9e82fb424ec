#!/usr/bin/env bash
# The upstream AEM converter (janhsimon/aem @42bd501, built by
# scripts/refimpls.sh with the aem-converter-build kit) as a
# `certify --exporter` command:  run_converter.sh BUILD_DIR IN OUT
# It takes one glTF/GLB path, needs an OpenGL context (Mesa's software
# renderer in a virtual X server here), loads its shaders from the directory
# it starts in, and writes <stem>.aem beside its input; that file is moved
# to OUT when OUT is elsewhere. Its exit status is the converter's (128 + N
# when a signal N ended it, as the shell reports). The build is an ASan one:
# leaks are not reported (they die with the converter).
#
# The X server is started here rather than by xvfb-run: Xvfb -displayfd
# picks a free display itself (two cases starting together cannot take the
# same one), and xvfb-run's own clean-up failed now and then after a crash,
# replacing the converter's status with its own.
set -u
build=$1 in=$2 out=$3
written=${in%.*}.aem
cd "$build" || exit 2
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:print_legend=0
# A server started by the caller (scripts/refimpls.sh does, for certify's
# sandbox, in which /tmp is read-only): use it.
if [ -n "${MCC_DISPLAY:-}" ]; then
    rc=0
    DISPLAY=$MCC_DISPLAY LIBGL_ALWAYS_SOFTWARE=1 ./converter "$in" || rc=$?
    if [ "$written" != "$out" ] && [ -f "$written" ]; then mv "$written" "$out"; fi
    exit $rc
fi
fifo=$(mktemp -u "${TMPDIR:-/tmp}/mc_xvfb.XXXXXX")
mkfifo "$fifo" || exit 2
Xvfb -displayfd 3 -screen 0 640x480x24 -nolisten tcp 3> "$fifo" 2> /dev/null &
xvfb=$!
display=$(head -n 1 < "$fifo")
rm -f "$fifo"
if [ -z "$display" ]; then
    kill "$xvfb" 2> /dev/null
    echo "run_converter: Xvfb did not start" >&2
    exit 2
fi
rc=0
DISPLAY=:$display LIBGL_ALWAYS_SOFTWARE=1 ./converter "$in" || rc=$?
kill "$xvfb" 2> /dev/null
wait "$xvfb" 2> /dev/null
if [ "$written" != "$out" ] && [ -f "$written" ]; then mv "$written" "$out"; fi
exit $rc
