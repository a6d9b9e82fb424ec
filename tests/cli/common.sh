# Sourced by the CLI tests: a scratch directory, pass/fail counting and the
# assertions. A command that runs over 60 s is killed: a hang fails the test
# instead of stalling the suite.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# expect NAME EXIT_CODE CMD...: runs CMD, keeps stdout/stderr in $tmp/out, $tmp/err
expect() {
    local name=$1 want=$2; shift 2
    timeout -s KILL "${MC_TEST_TIMEOUT:-60}" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
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
