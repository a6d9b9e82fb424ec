#!/usr/bin/env bash
# The steps of the GitHub Action (action.yml at the repository root; README,
# "GitHub Action"). A runner sets GITHUB_ACTION_PATH, GITHUB_WORKSPACE,
# GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY and RUNNER_TEMP;
# action.yml passes the inputs as MC_* variables.
#
#   action.sh install   MC_INSTALL=auto|always|never: use the modelcheck on
#                       PATH (auto, never) or build this checkout of it with
#                       -DMC_TESTS=OFF and install it under RUNNER_TEMP, its
#                       bin added to GITHUB_PATH
#   action.sh run       in GITHUB_WORKSPACE: modelcheck --output github
#                       MC_ARGS MC_PATHS (annotations), then with MC_SARIF
#                       the same run as --output sarif-github into that file;
#                       the text summary into the step summary; outputs
#                       exit-code and sarif; exits with modelcheck's code
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)

fail() { echo "::error title=modelcheck action::$*"; exit 2; }

install() {
    local mode=${MC_INSTALL:-auto}
    case $mode in
        auto|always|never) ;;
        *) fail "install: '$mode' is not auto, always or never" ;;
    esac
    if [ "$mode" != always ] && command -v modelcheck >/dev/null; then
        echo "modelcheck: $(command -v modelcheck) ($(modelcheck --version))"
        return 0
    fi
    [ "$mode" = never ] && fail "install: never, and no modelcheck on PATH"
    local tmp=${RUNNER_TEMP:?RUNNER_TEMP is not set}
    "$src/scripts/setup-debian.sh" --minimal || fail "the build's packages could not be installed"
    cmake -S "$src" -B "$tmp/modelcheck-build" -DCMAKE_BUILD_TYPE=Release -DMC_TESTS=OFF >/dev/null &&
        cmake --build "$tmp/modelcheck-build" -j "$(nproc)" >/dev/null &&
        cmake --install "$tmp/modelcheck-build" --prefix "$tmp/modelcheck" >/dev/null ||
        fail "modelcheck could not be built"
    echo "$tmp/modelcheck/bin" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"
    echo "modelcheck: built and installed in $tmp/modelcheck"
}

run() {
    cd "${GITHUB_WORKSPACE:?GITHUB_WORKSPACE is not set}" || fail "cannot enter GITHUB_WORKSPACE"
    local -a paths args
    read -r -a paths <<<"${MC_PATHS:-.}"
    read -r -a args <<<"${MC_ARGS:-}"
    [ ${#paths[@]} -gt 0 ] || paths=(.)
    local out rc
    out=$(mktemp)
    modelcheck --output github "${args[@]}" "${paths[@]}" | tee "$out"
    rc=${PIPESTATUS[0]}
    local sarif=${MC_SARIF:-}
    if [ -n "$sarif" ]; then
        modelcheck --output sarif-github "${args[@]}" "${paths[@]}" >"$sarif"
        local sarif_rc=$?
        [ $sarif_rc -gt 1 ] && [ $sarif_rc -gt "$rc" ] && rc=$sarif_rc
        [ -s "$sarif" ] || sarif=""
    fi
    {
        echo "exit-code=$rc"
        echo "sarif=$sarif"
    } >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
        {
            echo "### modelcheck"
            echo
            echo '```'
            grep '^modelcheck: ' "$out" | tail -1
            echo '```'
        } >>"$GITHUB_STEP_SUMMARY"
    fi
    rm -f "$out"
    return "$rc"
}

case ${1:-} in
    install) install ;;
    run) run ;;
    *) echo "usage: action.sh install|run" >&2; exit 2 ;;
esac
