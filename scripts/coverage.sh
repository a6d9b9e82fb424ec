#!/usr/bin/env bash
# Coverage of the validator, the report renderers and the reference loaders
# from the whole test suite (unit, CLI, corpus, replay of seeds and
# regressions), with gcovr: HTML in build/coverage/coverage/index.html and a
# summary line. Fails when line coverage falls below the thresholds (set
# from the measurement: see README, Quality).
#
# --ci (scripts/test.sh): the long end-to-end suites (label e2e: certify's,
# the exporter certification's, the clean paths'), which the ASan run has
# just run, are left out; the gates are then the validator's and that of
# validator/ reports/ cli/ conformance/loaders/ (certify's own lines are
# reported, not gated: the full run gates them).
set -euo pipefail
cd "$(dirname "$0")/.."
ci=0
[ "${1:-}" = --ci ] && ci=1
min_lines=${MC_COVERAGE_MIN_LINES:-97}   # validator/ (measured 97.8%; 97.3% on 2026-12-06)
min_all=${MC_COVERAGE_MIN_ALL:-94}       # validator/ reports/ cli/ conformance/{loaders,certify}/ (95.1% on 2026-12-06)
min_ci=${MC_COVERAGE_MIN_CI:-94}         # --ci: validator/ reports/ cli/ conformance/loaders/
# (measured 95.3% on 2026-11-27; it was 96.2% before certify's sandbox and the
# inspect renderers came, parts of which only the refimpl and browser tests
# reach, and this run leaves those out)
cmake --preset coverage >/dev/null
cmake --build --preset coverage >/dev/null
find build/coverage -name '*.gcda' -delete
# Objects the build no longer makes (a target renamed or moved, a source
# dropped) keep their .gcno files, and gcovr fails merging them with the live
# ones of the same sources: keep only the .gcno of objects some build.make lists.
targets=$(cmake --build --preset coverage --target help | sed -n 's/^\.\.\. \([^ ]*\).*/\1/p')
live=$(cd build/coverage && find . -path '*/CMakeFiles/*.dir/build.make' | while read -r m; do
           t=$(basename "$(dirname "$m")" .dir)
           grep -qxF "$t" <<<"$targets" && grep -ho '^[^ #:]*\.o:' "$m"
       done | sed 's/:$//; s/\.o$/.gcno/; s|^|./|' | sort -u)
(cd build/coverage && find . -name '*.gcno' | sort) | comm -23 - <(echo "$live") |
    while read -r g; do rm -f "build/coverage/$g"; done
# The refimpl tests run third-party loaders and exporters: what they add of
# ours (the certify runner) the certify tests cover, and they cost minutes;
# the nocoverage ones test third-party checkers' views of our outputs, or
# the fuzz mutators (tests/CMakeLists.txt).
leave='refimpl|nocoverage'
[ $ci -eq 0 ] || leave="$leave|e2e"
if ! ctest --preset coverage -LE "$leave" >build/coverage/ctest.log 2>&1; then
    # a failure here is a test failing in the coverage build: show which and why
    grep -E 'FAIL|Failed|tests passed' build/coverage/ctest.log | tail -20
    ctest --preset coverage -LE "$leave" --rerun-failed --output-on-failure | tail -40
    exit 1
fi
mkdir -p build/coverage/coverage
# The search path (last argument) keeps other builds' coverage data out: gcovr
# searches the whole --root by default, and a stale build of the same sources
# makes it merge mismatched line numbers.
if [ $ci -eq 0 ]; then
    gcovr --root . --object-directory build/coverage \
          --filter validator/ --filter reports/ --filter cli/ --filter conformance/loaders/ \
          --filter conformance/certify/ \
          --html-details build/coverage/coverage/index.html --fail-under-line "$min_all" --print-summary \
          build/coverage | sed 's/^/coverage (validator, reports, cli, loaders, certify): /'
else
    gcovr --root . --object-directory build/coverage \
          --filter validator/ --filter reports/ --filter cli/ --filter conformance/loaders/ \
          --html-details build/coverage/coverage/index.html --fail-under-line "$min_ci" --print-summary \
          build/coverage | sed 's/^/coverage --ci (validator, reports, cli, loaders): /'
    gcovr --root . --object-directory build/coverage --filter conformance/certify/ --print-summary \
          -o build/coverage/coverage/certify.txt build/coverage |
        sed 's/^/coverage --ci (certify, not gated: scripts\/coverage.sh gates it): /'
fi
gcovr --root . --object-directory build/coverage --filter validator/ \
      --fail-under-line "$min_lines" --print-summary -o build/coverage/coverage/report.txt \
      build/coverage | sed 's/^/coverage (validator): /'
