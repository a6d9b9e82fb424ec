#!/usr/bin/env bash
# Byte-level vs structure-aware mutation, same budget (docs/FUZZING.md,
# "Structure-aware mutators"). For each format and seed: mc_fuzz_<f> and
# mc_fuzz_<f>_sa with the same -runs, -seed, seeds (corpus/<f>), dictionary
# and options, each into a fresh output corpus; libFuzzer's final cov/ft;
# then the line coverage of the format's validator module by the replay
# driver built with gcc --coverage, over that run's output corpus plus the
# seeds. Engines: byte (mc_fuzz_<f>), byte-nolen (the same with
# -len_control=0: libFuzzer applies no length control to a target with a
# custom mutator, so this is the byte-level run on the same footing), sa
# (mc_fuzz_<f>_sa); seeds (no fuzzing: the coverage of corpus/<f> alone).
#
#   fuzz/mutators/measure.sh RUNS "SEEDS" FORMAT...    e.g. 200000 "1 2" e3d aem
#   MCM_ENGINES="byte sa" ...                          a subset of the engines
#   MCM_REPLAY_ONLY=1 ...                              coverage of earlier runs only
#   MCM_SECONDS=600 ...                                a time budget instead of RUNS
#   MCM_FUZZ_ONLY=1 ...                                no coverage replay (lets two
#                                                      fuzzing runs share the machine;
#                                                      replay afterwards with MCM_REPLAY_ONLY)
#
# Needs the fuzz preset built (cmake --preset fuzz && cmake --build --preset fuzz).
# Prints one table row per run; work files in build/measure/.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=$1
seeds=$2
shift 2
bin=build/fuzz/fuzz
work=build/measure
cov=build/mcm-cov
mkdir -p "$work"
if [ ! -d "$cov" ] && [ -z "${MCM_FUZZ_ONLY:-}" ]; then
    cmake -S . -B "$cov" -DCMAKE_BUILD_TYPE=Debug -DMC_COVERAGE=ON -DMC_TESTS=OFF >/dev/null
fi
engines=${MCM_ENGINES:-byte byte-nolen sa}
echo "| format | engine | seed | executions | cov | ft | corpus files | lines of the module | branches |"
echo "|---|---|---|---|---|---|---|---|---|"
for f in "$@"; do
    # (not with MCM_FUZZ_ONLY: two such runs side by side must not build one tree at once)
    [ -n "${MCM_FUZZ_ONLY:-}" ] || nice cmake --build "$cov" -j1 --target "mc_replay_$f" >/dev/null
    case $f in
    e3d) filter='validator/formats/e3d(_blocks)?\.c' ;;
    *) filter="validator/formats/$f\\.c" ;;
    esac
    for s in $seeds; do
        for engine in $engines; do
            target=mc_fuzz_$f
            extra=()
            [ "$engine" = sa ] && target=mc_fuzz_${f}_sa
            [ "$engine" = byte-nolen ] && extra=(-len_control=0)
            out=$work/$f-$engine-$s
            log=$work/$f-$engine-$s.log
            if [ "$engine" = seeds ]; then # baseline: the seeds alone
                rm -rf "$out" && mkdir -p "$out" && : >"$log"
            elif [ -z "${MCM_REPLAY_ONLY:-}" ]; then
                rm -rf "$out" "$out.artifacts" && mkdir -p "$out" "$out.artifacts"
                budget=(-runs="$runs")
                [ -z "${MCM_SECONDS:-}" ] || budget=(-max_total_time="$MCM_SECONDS")
                nice "$bin/$target" "${budget[@]}" -seed="$s" -artifact_prefix="$out.artifacts/" -dict="fuzz/dict/$f.dict" -max_len=65536 \
                    -timeout=10 -rss_limit_mb=2560 -print_final_stats=1 "${extra[@]}" "$out" "corpus/$f" \
                    >"$log" 2>&1 || true
            fi
            line=$(grep -E '^#[0-9]+.*(DONE|cov:)' "$log" | tail -1 || true)
            c=$(echo "$line" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*' || echo '-')
            ft=$(echo "$line" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*' || echo '-')
            n=$(ls "$out" | wc -l)
            execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '-')
            [ -z "${MCM_FUZZ_ONLY:-}" ] || { echo "| $f | $engine | $s | $execs | $c | $ft | $n | - | - |"; continue; }
            find "$cov" -name '*.gcda' -delete
            "$cov/fuzz/mc_replay_$f" "$out" "corpus/$f" >/dev/null 2>&1 || true
            summary=$(gcovr --root . --object-directory "$cov" --filter "$filter" --print-summary "$cov" 2>/dev/null)
            lines=$(echo "$summary" | grep '^lines:' | sed 's/^lines: //')
            branches=$(echo "$summary" | grep '^branches:' | sed 's/^branches: //')
            echo "| $f | $engine | $s | $execs | $c | $ft | $n | $lines | $branches |"
        done
    done
done
