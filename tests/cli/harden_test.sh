#!/usr/bin/env bash
# The environment around the files (issue 18): FIFOs, files that change while
# they are read, output that cannot be written, hostile file names, deep
# trees, large standard input, reports over many files.
# usage: harden_test.sh MODELCHECK MC_CORPUSGEN PYTHON
set -uo pipefail
mc=$1 gen=$2 py=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# expect NAME EXIT_CODE CMD...: runs CMD (killed after 10 s: a hang is a
# failure, not a stuck suite), keeps stdout/stderr in $tmp/out, $tmp/err
expect() {
    local name=$1 want=$2; shift 2
    timeout -s KILL 10 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    local got=$?
    if [ "$got" -eq "$want" ]; then ok; else fail "$name: exit $got, expected $want"; head -5 "$tmp/err"; fi
}
contains() { # contains NAME FILE TEXT
    if grep -qF -- "$3" "$2"; then ok; else fail "$1: '$3' not in $2:"; head -5 "$2"; fi
}
lacks() { # lacks NAME FILE TEXT
    if grep -qF -- "$3" "$2"; then fail "$1: '$3' in $2"; else ok; fi
}
one_line() { # one_line NAME FILE: exactly one line starting with "modelcheck"
    if [ "$(wc -l <"$2")" -eq 1 ] && grep -q '^modelcheck' "$2"; then ok; else fail "$1: stderr is not one line:"; cat "$2"; fi
}

asan=0 # (grep -q under pipefail would fail the pipe when ldd gets SIGPIPE)
case "$(ldd "$mc" 2>/dev/null)" in *libasan*) asan=1 ;; esac

"$gen" "$tmp/corpus" >/dev/null || { echo "cannot generate corpus"; exit 1; }
valid=$tmp/corpus/aem/valid/skinned_animated.aem
weights=$tmp/corpus/aem/invalid/weights_sum_0_93.aem

# ---- 1. FIFOs: IO_NOT_REGULAR at once, named or met in a walk ----
mkdir "$tmp/fifo"
cp "$valid" "$tmp/fifo/a.aem"
mkfifo "$tmp/fifo/b.pipe"
expect fifo-named 3 "$mc" "$tmp/fifo/b.pipe"
contains fifo-named-code "$tmp/err" "cannot validate a FIFO"
expect fifo-walk 3 "$mc" "$tmp/fifo"
contains fifo-walk-other "$tmp/out" "$tmp/fifo/a.aem: aem (aem1): valid"
expect fifo-json 3 "$mc" --output json "$tmp/fifo"
contains fifo-json-code "$tmp/out" '"IO_NOT_REGULAR"'

# ---- 3. output that cannot be written: one line, exit 4, never a silent 0 ----
for kind in text json sarif; do
    expect full-$kind 4 bash -c '"$0" --output "$1" "$2" >/dev/full' "$mc" $kind "$valid"
    one_line full-$kind-msg "$tmp/err"
    contains full-$kind-why "$tmp/err" "modelcheck: cannot write standard output: No space left on device"
    expect closed-$kind 4 bash -c '"$0" --output "$1" "$2" >&-' "$mc" $kind "$valid"
    contains closed-$kind-why "$tmp/err" "modelcheck: cannot write standard output: Bad file descriptor"
done
expect full-invalid 4 bash -c '"$0" "$1" >/dev/full' "$mc" "$weights" # 4 wins over 1
expect full-help 4 bash -c '"$0" --help >/dev/full' "$mc"
expect full-certify 4 "$mc" certify --reference -f nlm -c "$tmp/corpus" --json /dev/full
contains full-certify-why "$tmp/err" "modelcheck certify: cannot write /dev/full: No space left on device"
expect certify-no-dir 4 "$mc" certify --reference -f nlm -c "$tmp/corpus" --report "$tmp/no/such/dir.txt"
contains certify-no-dir-why "$tmp/err" "cannot write $tmp/no/such/dir.txt: No such file or directory"
expect certify-stdout-closed 4 bash -c '"$0" certify --reference -f nlm -c "$1" >&-' "$mc" "$tmp/corpus"

# ---- 6. standard input: never more than the limit in memory, a true message ----
expect stdin-large 1 bash -c 'head -c 5000 /dev/zero | "$0" --max-file-bytes 1000 -' "$mc"
contains stdin-large-msg "$tmp/out" "FILE_TOO_LARGE: standard input is longer than the limit of 1000 bytes (reading stopped at byte 1001)"
if [ "$asan" -eq 1 ]; then
    ok # ASan's allocator keeps freed blocks and its own shadow: no bound on memory to assert
else
    # a 32 MiB limit in a 64 MiB address space: reading one doubling past the
    # limit (64 MiB) runs out of memory, reading to the limit does not
    expect stdin-bounded 1 bash -c 'ulimit -v 65536; head -c 100000000 /dev/zero | "$0" --max-file-bytes 33554432 -' "$mc"
fi

echo "harden: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
