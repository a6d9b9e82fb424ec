#!/usr/bin/env bash
# Installs the independent checkers the tests use (tests/npm/package.json, pinned
# by its lock file) into build/npm. Tests that need them report SKIP when this
# could not run (no npm, no registry). Usage: scripts/setup-npm.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v npm >/dev/null || { echo "setup-npm: npm not found: tests that need it will be skipped" >&2; exit 0; }
dest=build/npm
if [ -f "$dest/.installed" ] && cmp -s tests/npm/package-lock.json "$dest/package-lock.json"; then exit 0; fi
mkdir -p "$dest"
cp tests/npm/package.json tests/npm/package-lock.json "$dest/"
# --ignore-scripts: nothing of theirs runs at install time; the one step a
# package's install script would do (make the multitool executable) is done here.
if (cd "$dest" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null); then
    find "$dest/node_modules/@microsoft" -name Sarif.Multitool -type f -exec chmod u+x {} + 2>/dev/null || true
    touch "$dest/.installed"
else
    echo "setup-npm: npm ci failed: tests that need these tools will be skipped" >&2
fi
