#!/usr/bin/env bash
# Runs every libFuzzer target for a while, merges and minimises the corpora,
# and keeps crashers under fuzz/regressions/<target>/ (replayed by ctest).
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]    default: 600 s, all targets
#   fuzz/run.sh --smoke                             CI: 10 s per target, fails on any finding
# Targets run side by side, one per CPU (MC_FUZZ_JOBS=N to choose).
# Targets: auto aem semodel aamf e3d nlm, load_<format> and diff_<format> (reference
# loaders, differential), fix_<format> (modelcheck fix: no crash, no issue added,
# idempotent, the loader's model unchanged outside the edited fields), abi_<format> (your loader, docs/FUZZING.md), clean (the
# clean paths against the exact checks, every format), and the
# structure-aware <target>_sa (same harness, fuzz/mutators): e.g.
# fuzz/run.sh 600 e3d_sa aem_sa
set -euo pipefail
cd "$(dirname "$0")/.."
source fuzz/targets.sh
smoke=0
if [ "${1:-}" = "--smoke" ]; then smoke=1; shift; set -- 10 "$@"; fi
seconds=${1:-600}; shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${mc_default_targets[@]}")

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz >/dev/null
bin=build/fuzz/fuzz
work=build/fuzz/corpora
# One target: its run, its findings kept, its summary in build/fuzz/$t.result
# (printed in the targets' order once all are done).
run_target() {
    local t=$1 base seeds log rc execs cov a found=0
    base=$(mc_target_format "$t")
    seeds=$(mc_target_seeds "$t")
    rm -rf "build/fuzz/artifacts/$t" # findings of earlier runs are kept already
    mkdir -p "$work/$t" "fuzz/regressions/$t" build/fuzz/artifacts/$t
    log=build/fuzz/$t.log
    set +e
    "$bin/mc_fuzz_$t" -max_total_time="$seconds" -dict="fuzz/dict/$base.dict" -max_len=65536 \
        -timeout=10 -rss_limit_mb=2560 -print_final_stats=1 \
        -artifact_prefix="build/fuzz/artifacts/$t/" "$work/$t" "$seeds" >"$log" 2>&1
    rc=$?
    set -e
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    {
        echo "fuzz $t: ${seconds}s, $execs executions, $cov, exit $rc"
        for a in build/fuzz/artifacts/$t/*; do
            [ -e "$a" ] || continue
            cp "$a" "fuzz/regressions/$t/"
            echo "  finding kept: fuzz/regressions/$t/$(basename "$a") (fix it, then give it its line in fuzz/regressions/$t/expectations.txt)"
            found=1
        done
        if [ $rc -ne 0 ] && [ $found -eq 0 ]; then tail -20 "$log"; found=1; fi
    } > "build/fuzz/$t.result"
    [ $found -eq 0 ] || touch "build/fuzz/$t.found"
    if [ $smoke -eq 0 ]; then # minimise the working corpus
        mkdir -p "$work/$t.min"
        "$bin/mc_fuzz_$t" -merge=1 "$work/$t.min" "$work/$t" >/dev/null 2>&1 || true
        rm -rf "$work/$t" && mv "$work/$t.min" "$work/$t"
    fi
}

# Targets run side by side, one per CPU (MC_FUZZ_JOBS): each is one
# process on one core, and a smoke of 10 s each would leave the others idle.
jobs=${MC_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
for t in "${targets[@]}"; do rm -f "build/fuzz/$t.result" "build/fuzz/$t.found"; done
for t in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    run_target "$t" &
done
wait
found=0
for t in "${targets[@]}"; do
    cat "build/fuzz/$t.result" 2>/dev/null || { echo "fuzz $t: no result"; found=1; }
    [ ! -e "build/fuzz/$t.found" ] || found=1
done
if [ $found -ne 0 ]; then echo "fuzz: findings above; fix them and keep the inputs"; exit 1; fi
echo "fuzz: no findings"
