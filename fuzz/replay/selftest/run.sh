#!/usr/bin/env bash
# The replay checks expectations (fuzz/replay/replay.c): each folder here is
# a regressions root holding one input; every case but "met" must fail, for
# its own reason.
# usage: run.sh MC_REPLAY_AUTO
set -uo pipefail
replay=$1
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0
check() { # case, expected exit code, text the output must hold
    local out rc
    out=$("$replay" --regressions "$here/$1" 2>&1); rc=$?
    if [ "$rc" -eq "$2" ] && grep -qF -- "$3" <<<"$out"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $1: exit $rc (expected $2), output lacks \"$3\":"; echo "$out"
    fi
}
check met 0 "replayed 1 inputs, 1 verdicts checked, 0 failures"
check wrong_verdict 1 "plain.txt: expected valid, the validator says invalid"
check missed_deadline 1 "(deadline 0 ms)"
check missing_line 1 "plain.txt: no line in expectations.txt"
check stale_line 1 "gone.bin: named in expectations.txt but not there"
check timeout_without_deadline 1 "timeout-plain is a timeout: its line needs a deadline in ms"
check no_expectations 1 "plain.txt: no line in expectations.txt (what must it give?); the folder has no expectations.txt"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
