#!/usr/bin/env bash
# The reference loaders must be certified 100% conforming, in each way a
# studio can run a loader: as a command (mc_load), as a shared library
# (libmc_refloader.so, the dlopen ABI) and in-process (--reference).
# ctest certify_reference. The timeout is generous: the verdicts are under
# test, not speed, and under ASan on a loaded 2-core machine the largest valid
# case (aem/valid/meshes_overlapping_20000.aem, 20,000 meshes over shared
# vertices: 4 s) once passed the default 10 s.
# usage: certify_reference.sh MODELCHECK MC_LOAD REFLOADER_SO CORPUS SCHEMA PYTHON
set -uo pipefail
mc=$1 mcload=$2 refso=$3 corpus=$4 schema=$5 py=$6
check="$py $(cd "$(dirname "$0")" && pwd)/certify_check.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
run() { # run NAME ARGS...
    local name=$1; shift
    "$mc" certify --corpus "$corpus" --jobs 2 --timeout 60 --json "$tmp/$name.json" "$@" >"$tmp/$name.txt" 2>&1
    local rc=$?
    if [ "$rc" -ne 0 ]; then
        failed=$((failed + 1))
        echo "FAIL: $name: exit $rc, the certificate:"
        grep -v '^conforming' "$tmp/$name.txt" | head -40
    else
        echo "ok: $name: $(tail -1 "$tmp/$name.txt")"
    fi
}
run command --loader "$mcload --format {format} {}"
run library --library "$refso"
run reference --reference
$check schema "$schema" "$tmp"/*.json || failed=$((failed + 1))
# Both AEM layouts are covered: the current upstream one (2025) has cases of its own.
for name in command library reference; do
    n=$($check layout "$tmp/$name.json" aem 2025) || { failed=$((failed + 1)); echo "FAIL: $name: AEM 2025 cases: $n"; continue; }
    echo "ok: $name: $n AEM 2025 cases conforming"
done
[ "$failed" -eq 0 ]
