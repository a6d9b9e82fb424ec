# Sourced by the golden-output tests (tests/corpus/golden.sh,
# tests/inspect/golden.sh).
# golden_compare GOLDEN TMP MODE UPDATE_CMD FILE...: with MODE --update,
# copies each FILE from TMP into GOLDEN; otherwise compares each byte for
# byte with GOLDEN's, shows the first differing lines of each that differs,
# prints "N passed, M failed" and returns 1 when any differs.
golden_compare() {
    local golden=$1 tmp=$2 mode=$3 update=$4 f passed=0 failed=0
    shift 4
    if [ "$mode" = --update ]; then
        mkdir -p "$golden"
        for f in "$@"; do cp "$tmp/$f" "$golden/"; done
        echo "updated $golden: $*"
        return 0
    fi
    for f in "$@"; do
        if cmp -s "$golden/$f" "$tmp/$f"; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            echo "FAIL $golden/$f differs from the current output (first differing lines):"
            diff -u "$golden/$f" "$tmp/$f" | head -n 40 || true
            echo "(a deliberate change: $update)"
        fi
    done
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
