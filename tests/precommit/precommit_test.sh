#!/usr/bin/env bash
# The pre-commit hooks for real (issue 15), offline: Debian's pre-commit
# installs this repository's .pre-commit-hooks.yaml from a local clone into
# a temporary git repository, and real commits go through it:
#   a valid asset passes; an invalid one is blocked with its report shown;
#   a binary file no format claims passes (skipped by modelcheck-any);
#   a .modelcheck.json override that downgrades the code lets the invalid
#   asset in under legacy/; only the staged content is read (a broken
#   unstaged edit of a staged valid file does not block); args: [--werror]
#   turns a warning into a blocked commit; modelcheck-fix (issue 35) fixes a
#   staged file in place and fails the commit (as pre-commit's fixers do),
#   the fixed file then commits, and a file with nothing to fix passes it
#   untouched.
# usage: precommit_test.sh MODELCHECK SOURCE_DIR      (exit 77: SKIP)
set -uo pipefail
mc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") src=$(cd "$2" && pwd)
command -v pre-commit >/dev/null || { echo "SKIP: pre-commit not installed (apt-get install pre-commit)"; exit 77; }
command -v git >/dev/null || { echo "SKIP: git not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { local what=$1; shift; if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi; }

# The command on PATH under the name the hooks use.
mkdir -p "$tmp/bin" && ln -s "$mc" "$tmp/bin/modelcheck"
export PATH=$tmp/bin:$PATH PRE_COMMIT_HOME=$tmp/cache HOME=$tmp
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.invalid GIT_COMMITTER_NAME=test \
       GIT_COMMITTER_EMAIL=test@example.invalid GIT_CONFIG_NOSYSTEM=1
git config --global init.defaultBranch main
git config --global protocol.file.allow always

# A local clone of this repository, carrying the working tree's hooks file
# (committed there when it differs from HEAD's), or a repository holding
# only that file where the source is not a git work tree.
hooks=$tmp/hooks
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1 && git clone -q --depth 1 "file://$src" "$hooks" 2>/dev/null; then
    :
else
    git init -q "$hooks"
fi
cp "$src/.pre-commit-hooks.yaml" "$hooks/"
git -C "$hooks" add .pre-commit-hooks.yaml
git -C "$hooks" diff --cached --quiet || git -C "$hooks" commit -q -m "hooks under test"
rev=$(git -C "$hooks" rev-parse HEAD)

repo=$tmp/repo
git init -q "$repo" && cd "$repo" || exit 1
# The hooks the README's example enables (its uncommented "- id:" lines):
# one of the two, since a file both take would be reported twice (issue 36).
readme_hooks=$(awk '/^```yaml$/ {block = ""; inside = 1; next} /^```$/ {if (inside && block ~ /rev:/) print block; inside = 0; block = ""; next}
                    inside {block = block "\n" $0}' "$src/README.md" | sed -n 's/^ *- id: *\([a-z-]*\).*/\1/p')
check "the README's pre-commit example enables exactly one hook (got: $(echo $readme_hooks))" \
    test "$(echo "$readme_hooks" | wc -w)" -eq 1
# write_config ARGS [HOOK...]: the hooks with ARGS (default: the README's)
write_config() {
    local args=$1 ids
    shift
    ids=${*:-$readme_hooks}
    {
        echo "repos:"
        echo "  - repo: file://$hooks"
        echo "    rev: $rev"
        echo "    hooks:"
        for id in $ids; do
            echo "      - id: $id"
            echo "        args: [$args]"
        done
    } >.pre-commit-config.yaml
    git add .pre-commit-config.yaml
}
write_config ""
pre-commit install >/dev/null 2>&1
check "pre-commit install" test -x .git/hooks/pre-commit
git commit -q -m config >/dev/null 2>&1
corpus=$src/corpus
commit() { git add -A && git commit -m "$1" >"$tmp/out" 2>&1; }

cp "$corpus/aem/valid/skinned_animated.aem" ok.aem
commit "valid asset"
check "a valid asset is committed: $(tail -5 "$tmp/out")" test $? -eq 0

cp "$corpus/aem/invalid/version_2.aem" new.aem
commit "invalid asset"
rc=$?
check "an invalid asset is blocked" test $rc -ne 0
check "the report is shown: $(tail -8 "$tmp/out")" grep -q "new.aem:0x3: error: AEM_UNSUPPORTED_VERSION" "$tmp/out"
check "the report is shown once: $(grep -c 'new.aem:0x3: error' "$tmp/out") times" \
    test "$(grep -c "new.aem:0x3: error: AEM_UNSUPPORTED_VERSION" "$tmp/out")" -eq 1
check "the blocked file was not committed" bash -c "! git cat-file -e HEAD:new.aem 2>/dev/null"
git reset -q && rm new.aem

write_config "" modelcheck-any
head -c 4096 /dev/urandom >blob.bin
printf '\0\1\2' >>blob.bin
commit "binary file no format claims"
check "a binary file no format claims passes: $(tail -5 "$tmp/out")" test $? -eq 0
check "modelcheck-any ran on it" grep -q "by content.*Passed" "$tmp/out"
cp "$corpus/aem/invalid/version_2.aem" any.model
commit "invalid asset under another name"
check "modelcheck-any blocks an invalid asset by content" test $? -ne 0
check "modelcheck-any reports it once" test "$(grep -c "any.model:0x3: error: AEM_UNSUPPORTED_VERSION" "$tmp/out")" -eq 1
git reset -q && rm any.model
write_config ""

mkdir -p legacy/v1
cp "$corpus/aem/invalid/version_2.aem" legacy/v1/old.aem
cat >.modelcheck.json <<'JSON'
{"overrides": [{"files": "legacy/**/*.aem", "severity": {"AEM_UNSUPPORTED_VERSION": "warning"}}]}
JSON
commit "legacy asset, downgraded by .modelcheck.json"
check "a config override that downgrades the code lets it in: $(tail -5 "$tmp/out")" test $? -eq 0

cp "$corpus/aem/valid/skinned_animated.aem" staged.aem
git add staged.aem
cp "$corpus/aem/invalid/version_2.aem" staged.aem   # unstaged, broken
git commit -m "staged content only" >"$tmp/out" 2>&1
check "only the staged content is read: $(tail -5 "$tmp/out")" test $? -eq 0
check "the unstaged edit is left in place" cmp -s staged.aem "$corpus/aem/invalid/version_2.aem"
git checkout -q staged.aem

write_config "--werror"
cp "$corpus/aem/valid/static_exporter_unskinned.aem" warn.aem
commit "a warning under --werror"
check "args: [--werror] blocks a warning" test $? -ne 0
check "the warning is shown: $(tail -5 "$tmp/out")" grep -q "warn.aem:0x[0-9a-f]*: warning: AEM_UNSKINNED_VERTEX" "$tmp/out"

# modelcheck-fix: a fixer hook. It rewrites the file and fails; the fixed
# file, staged again, passes (both hooks: the fix removed the warning).
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: file://$hooks
    rev: $rev
    hooks:
      - id: modelcheck-fix
      - id: modelcheck
        args: [--werror]
YAML
git add .pre-commit-config.yaml && git commit -q -m "fix hook" >/dev/null 2>&1
cp "$corpus/aem/valid/2025_filler_joint_index.aem" filler.aem
commit "an asset with a fixable warning"
check "modelcheck-fix fails the commit when it changed a file" test $? -ne 0
check "pre-commit says the hook changed it: $(tail -8 "$tmp/out")" grep -q "files were modified by this hook" "$tmp/out"
check "the file was fixed in place" bash -c "! cmp -s filler.aem '$corpus/aem/valid/2025_filler_joint_index.aem'"
modelcheck --no-config filler.aem >"$tmp/after" 2>&1
check "the fixed file has no warning left: $(tail -3 "$tmp/after")" grep -q "0 errors, 0 warnings" "$tmp/after"
commit "the fixed asset"
check "the fixed file commits: $(tail -5 "$tmp/out")" test $? -eq 0
cp "$corpus/aem/valid/skinned_animated.aem" clean.aem
commit "an asset with nothing to fix"
check "a file with nothing to fix passes modelcheck-fix: $(tail -5 "$tmp/out")" test $? -eq 0
check "it is left as it was" cmp -s clean.aem "$corpus/aem/valid/skinned_animated.aem"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
