#!/usr/bin/env bash
# Shell completions (issue 36): `modelcheck --completion bash|zsh|fish` is
# valid for its shell (bash -n; zsh -n and fish -n where installed), lists
# every option of --help, and bash's completes options, their values and
# explain's codes.
# usage: completion_test.sh MODELCHECK
set -uo pipefail
mc=$1
. "$(dirname "$0")/common.sh"

"$mc" --help >"$tmp/help"
opts=$(grep -oE '^ +(-[A-Za-z], )?--[a-z0-9-]+' "$tmp/help" | grep -oE -- '--[a-z0-9-]+' | sort -u)
[ "$(echo "$opts" | wc -l)" -gt 20 ] && ok || fail "--help lists too few options: $opts"
for sh in bash zsh fish; do
    expect "completion-$sh" 0 "$mc" --completion "$sh"
    cp "$tmp/out" "$tmp/c.$sh"
    missing=""
    for o in $opts; do
        case $sh in
            bash) grep -qE -- "(^| |'|\|)$o( |'|\||\))" "$tmp/c.$sh" ;;
            zsh) grep -qF -- "'$o" "$tmp/c.$sh" ;;
            fish) grep -qE -- " -l ${o#--}( |$)" "$tmp/c.$sh" ;;
        esac || missing="$missing $o"
    done
    [ -z "$missing" ] && ok || fail "$sh completion lacks:$missing"
    if command -v "$sh" >/dev/null; then
        "$sh" -n "$tmp/c.$sh" 2>"$tmp/syntax" && ok || fail "$sh -n: $(head -3 "$tmp/syntax")"
    else
        echo "note: no $sh here: its script's syntax is not checked"
    fi
done
expect completion-unknown 2 "$mc" --completion tcsh; one_line completion-unknown "$tmp/err"

# bash, as readline calls it
complete_words() { # complete_words WORD...: COMPREPLY for the last word, one a line
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _modelcheck; printf "%s\n" "${COMPREPLY[@]}"' \
        sh "$tmp/c.bash" "$@"
}
[ "$(complete_words modelcheck --for)" = "--format" ] && ok || fail "bash: --for: $(complete_words modelcheck --for)"
[ "$(complete_words modelcheck -f "" | tr '\n' ' ')" = "aem semodel aamf e3d nlm " ] && ok ||
    fail "bash: -f values: $(complete_words modelcheck -f "")"
[ "$(complete_words modelcheck --output sarif | tr '\n' ' ')" = "sarif sarif-github " ] && ok ||
    fail "bash: --output sarif: $(complete_words modelcheck --output sarif)"
[ "$(complete_words modelcheck explain aem_weight_s)" = "AEM_WEIGHT_SUM" ] && ok ||
    fail "bash: explain codes: $(complete_words modelcheck explain aem_weight_s)"
complete_words modelcheck ins | grep -qx inspect && ok || fail "bash: subcommands: $(complete_words modelcheck ins)"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
