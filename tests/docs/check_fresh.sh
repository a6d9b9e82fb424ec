#!/usr/bin/env bash
# Fails when docs/ISSUES.md differs from what the catalog generates.
# usage: check_fresh.sh MODELCHECK DOCS/ISSUES.md
set -euo pipefail
mc=$1 doc=$2
if ! diff -u "$doc" <("$mc" --list-codes --output markdown); then
    echo "docs/ISSUES.md is stale: regenerate with"
    echo "  modelcheck --list-codes --output markdown > docs/ISSUES.md"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "1 passed, 0 failed"
