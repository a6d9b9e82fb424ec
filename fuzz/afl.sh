#!/usr/bin/env bash
# AFL++ campaigns: runs each target under afl-fuzz for a while, then replays
# everything it kept (queue, crashes, hangs) through the ASan+UBSan replay
# driver, which is the verdict: the AFL++ build itself carries no sanitizer,
# so that it runs at full speed.
#
#   fuzz/afl.sh [SECONDS_PER_TARGET] [TARGET...]    default: 180 s, all targets
#   MCM=1 fuzz/afl.sh 180 e3d                       with the structure-aware mutator
#                                                   (validator targets only)
# Prints one Markdown table row per target (docs/FUZZING.md); a crash, a
# sanitizer report or an input slower than 10 s under ASan is copied to
# fuzz/regressions/<target>/ and fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
source fuzz/targets.sh
seconds=${1:-180}; shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${mc_default_targets[@]}")

cmake --preset afl >/dev/null
cmake --build --preset afl >/dev/null
cmake --preset asan >/dev/null
cmake --build --preset asan >/dev/null

export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
export AFL_SKIP_CRASHES=1 # seeds include inputs the loaders reject; none crash
export AFL_NO_AFFINITY=1
unset ASAN_OPTIONS UBSAN_OPTIONS # afl-fuzz insists on its own; set for the replay below
found=0
stat_of() { grep -E "^$1 *:" "$2" | sed 's/.*: *//'; }
for t in "${targets[@]}"; do
    base=$(mc_target_format "$t")
    seeds=$(mc_target_seeds "$t")
    out=build/afl/campaigns/$t
    rm -rf "$out"
    mkdir -p "$out"
    mutator=byte
    if [ "${MCM:-0}" = 1 ] && [ "$t" = "$base" ]; then
        export AFL_CUSTOM_MUTATOR_LIBRARY=$PWD/build/afl/fuzz/libmcm_afl_$base.so
        mutator=sa
        out=$out.sa
        rm -rf "$out"
    else
        unset AFL_CUSTOM_MUTATOR_LIBRARY
    fi
    # -t: an input is a hang after 2 s (the replay below re-times it under ASan)
    afl-fuzz -i "$seeds" -o "$out" -x "fuzz/dict/$base.dict" -t 2000 -m none -V "$seconds" \
        -- "build/afl/fuzz/mc_fuzz_$t" >"$out.log" 2>&1 || { tail -20 "$out.log"; found=1; continue; }
    s=$out/default/fuzzer_stats
    execs=$(stat_of execs_done "$s")
    run=$(stat_of run_time "$s")
    rate=$((execs / (run > 0 ? run : 1)))
    line="| $t | $mutator | ${run} s | $execs | $rate | $(stat_of edges_found "$s") / $(stat_of total_edges "$s") ($(stat_of bitmap_cvg "$s")) | $(stat_of corpus_count "$s") | $(stat_of saved_crashes "$s") | $(stat_of saved_hangs "$s") |"
    # The verdict: every kept input under ASan+UBSan, each within 10 s.
    replay=build/asan/fuzz/mc_replay_$t
    bad=0
    for f in "$out"/default/queue/id* "$out"/default/crashes/id* "$out"/default/hangs/id*; do
        [ -e "$f" ] || continue
        if ! ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
            timeout 10 "$replay" "$f" >/dev/null 2>"$out.replay.err"; then
            mkdir -p "fuzz/regressions/$t"
            cp "$f" "fuzz/regressions/$t/afl-$(basename "$f" | tr ':,' '--')"
            echo "  finding kept: fuzz/regressions/$t/ ($(head -c 200 "$out.replay.err" | tr '\n' ' '))"
            bad=$((bad + 1))
        fi
    done
    echo "$line ASan replay: $bad"
    [ $bad -eq 0 ] || found=1
done
if [ $found -ne 0 ]; then echo "afl: findings above; fix them and keep the inputs"; exit 1; fi
echo "afl: no findings"
