#!/usr/bin/env bash
# What modelcheck writes (issue 37, items 4 and 5, and item 3's manifest
# names): no output replaces an input (inspect -O, certify's reports,
# --write-baseline), compared by device and inode; outputs are written whole
# or not at all; inspect refuses devices and FIFOs as validation does; a
# manifest's control and bidi characters reach no certify report.
# usage: outputs_test.sh MODELCHECK SOURCE_DIR PYTHON
set -uo pipefail
mc=$(realpath "$1") src=$(realpath "$2") py=$3
. "$(dirname "$0")/common.sh"
MC_TEST_TIMEOUT=30 # FIFOs: a hang is the bug

sum() { sha256sum "$1" | cut -d' ' -f1; }
unchanged() { # unchanged NAME FILE SUM
    if [ "$(sum "$2")" = "$3" ]; then ok; else fail "$1: $2 was changed"; fi
}
no_temp() { # no_temp NAME DIR: no temporary left behind
    if ls -A "$2" | grep -q '\.tmp$'; then fail "$1: a temporary is left in $2: $(ls -A "$2")"; else ok; fi
}

# ---- inspect --extract-block -O: never onto its FILE ----
w=$tmp/inspect
mkdir "$w"
cp "$src/corpus/e3d/valid/cube3_spec_lzma_444.e3d" "$w/F.e3d"
ln "$w/F.e3d" "$w/hard.e3d"
ln -s F.e3d "$w/sym.e3d"
f_sum=$(sum "$w/F.e3d")
expect extract-self 2 env -C "$w" "$mc" inspect --extract-block 0xc -O F.e3d F.e3d
one_line extract-self-line "$tmp/err"
contains extract-self-msg "$tmp/err" "modelcheck inspect: refusing to write F.e3d: it is the input F.e3d (the same file)"
unchanged extract-self-file "$w/F.e3d" "$f_sum"
expect extract-dot 2 env -C "$w" "$mc" inspect --extract-block 0xc -O ./F.e3d F.e3d
contains extract-dot-msg "$tmp/err" "refusing to write ./F.e3d: it is the input F.e3d (the same file)"
expect extract-hardlink 2 env -C "$w" "$mc" inspect --extract-block 0xc -O hard.e3d F.e3d
contains extract-hardlink-msg "$tmp/err" "refusing to write hard.e3d: it is the input F.e3d (the same file)"
expect extract-symlink 2 env -C "$w" "$mc" inspect --extract-block lzma@0xc -O sym.e3d F.e3d
contains extract-symlink-msg "$tmp/err" "refusing to write sym.e3d: it is the input F.e3d (the same file)"
expect extract-abs 2 "$mc" inspect --extract-block 0xc -O "$w/F.e3d" "$w/sym.e3d"
expect extract-stdin 2 bash -c 'exec "$0" inspect --extract-block 0xc -O "$1" - <"$1"' "$mc" "$w/F.e3d"
contains extract-stdin-msg "$tmp/err" "it is the input - (standard input) (the same file)"
unchanged extract-links-file "$w/F.e3d" "$f_sum"
[ -L "$w/sym.e3d" ] && ok || fail "extract-symlink: the link was replaced"
# -O onto a directory, a FIFO or a device: refused, and a FIFO never waited on
mkdir "$w/dir"
mkfifo "$w/fifo"
for o in dir fifo /dev/null; do
    expect extract-onto-$(basename $o) 2 env -C "$w" "$mc" inspect --extract-block 0xc -O $o F.e3d
    one_line extract-onto-$(basename $o)-line "$tmp/err"
done
contains extract-onto-dev-msg "$tmp/err" "refusing to write /dev/null: it is a character device, not a regular file"
expect extract-onto-fifo-again 2 env -C "$w" "$mc" inspect --extract-block 0xc -O fifo F.e3d
contains extract-onto-fifo-msg "$tmp/err" "refusing to write fifo: it is a FIFO, not a regular file"
expect extract-onto-dir-again 2 env -C "$w" "$mc" inspect --extract-block 0xc -O dir F.e3d
contains extract-onto-dir-msg "$tmp/err" "refusing to write dir: it is a directory, not a regular file"
# a new file, a replaced one (its mode kept), through a symbolic link (the link kept)
expect extract-new 0 env -C "$w" "$mc" inspect --extract-block 0xc -O out.bin F.e3d
block_sum=$(sum "$w/out.bin")
printf 'old' >"$w/old.bin"
chmod 640 "$w/old.bin"
expect extract-replace 0 env -C "$w" "$mc" inspect --extract-block 0xc -O old.bin F.e3d
unchanged extract-replace-bytes "$w/old.bin" "$block_sum"
[ "$(stat -c %a "$w/old.bin")" = 640 ] && ok || fail "extract-replace: mode $(stat -c %a "$w/old.bin"), not 640"
ln -s old.bin "$w/link.bin"
expect extract-via-link 0 env -C "$w" "$mc" inspect --extract-block 0xc -O link.bin F.e3d
[ -L "$w/link.bin" ] && ok || fail "extract-via-link: the link was replaced"
# a write that fails (the file size limit) leaves the old file whole, no temporary
printf 'old' >"$w/keep.bin"
# (its stderr through a pipe, which the limit does not cover)
expect extract-fails 4 bash -c '(trap "" XFSZ; ulimit -f 0; exec "$0" inspect --extract-block 0xc -O "$1" "$2") 2>&1 | cat >&2
                                exit ${PIPESTATUS[0]}' "$mc" "$w/keep.bin" "$w/F.e3d"
contains extract-fails-msg "$tmp/err" "modelcheck inspect: cannot write $w/keep.bin: File too large"
[ "$(cat "$w/keep.bin")" = old ] && ok || fail "extract-fails: keep.bin was changed"
no_temp extract-temp "$w"
unchanged extract-end-file "$w/F.e3d" "$f_sum"

# ---- inspect on a device or a FIFO: refused at once, as validation refuses it ----
expect inspect-zero 3 "$mc" inspect /dev/zero
one_line inspect-zero-line "$tmp/err"
contains inspect-zero-msg "$tmp/err" "modelcheck inspect: /dev/zero: cannot inspect a character device: not a regular file"
expect validate-zero 3 "$mc" /dev/zero
contains validate-zero-msg "$tmp/err" "modelcheck: /dev/zero: cannot validate a character device: not a regular file"
expect inspect-fifo 3 "$mc" inspect "$w/fifo" # no writer: a blocking open would hang
contains inspect-fifo-msg "$tmp/err" "modelcheck inspect: $w/fifo: cannot inspect a FIFO: not a regular file"
expect inspect-fifo-json 3 "$mc" inspect -o json "$w/fifo"

# ---- certify's reports: never onto the manifest, a case file or a --library ----
# the issue's reproducer: the default corpus (the build's, which is the
# source tree's) and its manifest as --json, from the source directory;
# refused before any case runs
m_sum=$(sum "$src/corpus/manifest.json")
expect certify-manifest 2 env -C "$src" "$mc" certify --reference --json corpus/manifest.json
one_line certify-manifest-line "$tmp/err"
contains certify-manifest-msg "$tmp/err" "modelcheck certify: refusing to write corpus/manifest.json: it is the input "
unchanged certify-manifest-file "$src/corpus/manifest.json" "$m_sum"
# a small corpus of its own: two NLM cases and an AEM one
c=$tmp/corpus
mkdir -p "$c/nlm/valid" "$c/aem/valid"
cp "$src/corpus/nlm/valid/animated_zero_channels.nlm" "$src/corpus/nlm/valid/bone_info_for_missing_node.nlm" "$c/nlm/valid/"
cp "$src/corpus/aem/valid/2025_filler_joint_index.aem" "$c/aem/valid/"
"$py" - "$src/corpus/manifest.json" "$c/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
keep = {"nlm/valid/animated_zero_channels.nlm", "nlm/valid/bone_info_for_missing_node.nlm", "aem/valid/2025_filler_joint_index.aem"}
m["cases"] = [k for k in m["cases"] if k["file"] in keep]
json.dump(m, open(sys.argv[2], "w"), indent=1)
PY
case_file=$c/nlm/valid/animated_zero_channels.nlm
c_sum=$(sum "$case_file") cm_sum=$(sum "$c/manifest.json")
ln "$case_file" "$tmp/hard-case.nlm"
ln -s "$c/manifest.json" "$tmp/sym-manifest.json"
expect certify-case-text 2 "$mc" certify --reference -c "$c" --text "$tmp/hard-case.nlm"
contains certify-case-text-msg "$tmp/err" "refusing to write $tmp/hard-case.nlm: it is the input $case_file (the same file)"
expect certify-manifest-html 2 "$mc" certify --reference -c "$c" --html "$tmp/sym-manifest.json"
expect certify-report 2 "$mc" certify --reference -c "$c" --report "$case_file"
expect certify-junit-dot 2 env -C "$c" "$mc" certify --reference -c . --junit ./nlm/../manifest.json
# a case --format leaves out is still the corpus's
expect certify-filtered 2 "$mc" certify --reference -c "$c" -f aem --json "$case_file"
contains certify-filtered-msg "$tmp/err" "refusing to write $case_file: it is the input"
cp "$case_file" "$tmp/lib.so"
expect certify-library 2 "$mc" certify --library "$tmp/lib.so" -c "$c" --json "$tmp/lib.so"
contains certify-library-msg "$tmp/err" "refusing to write $tmp/lib.so: it is the input $tmp/lib.so (the same file)"
expect certify-dir 2 "$mc" certify --reference -c "$c" --json "$tmp"
contains certify-dir-msg "$tmp/err" "it is a directory, not a regular file"
unchanged certify-case-file "$case_file" "$c_sum"
unchanged certify-own-manifest "$c/manifest.json" "$cm_sum"
# reports that are no input: written, a replaced one keeping its mode; /dev/null still a place
printf 'old' >"$tmp/r.json"
chmod 600 "$tmp/r.json"
expect certify-writes 0 "$mc" certify --reference -c "$c" --json "$tmp/r.json" --text /dev/null
"$py" -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/r.json" && ok || fail "certify-writes: not a JSON report"
[ "$(stat -c %a "$tmp/r.json")" = 600 ] && ok || fail "certify-writes: mode $(stat -c %a "$tmp/r.json"), not 600"
no_temp certify-temp "$tmp"
# /dev/stdout onto a regular file: the shell's file gets the report (no rename beside it)
mkdir "$tmp/so"
expect certify-dev-stdout 0 bash -c 'exec "$0" certify --reference -c "$1" --report /dev/stdout >"$2"' \
    "$mc" "$c" "$tmp/so/r.txt"
contains certify-dev-stdout-text "$tmp/so/r.txt" "certificate: CONFORMING"
no_temp certify-dev-stdout-temp "$tmp/so"

# ---- --write-baseline: never onto a model file or a configuration ----
b=$tmp/baseline
mkdir "$b"
cp "$src/corpus/aem/invalid/weights_sum_0_93.aem" "$b/m.aem"
printf '{}\n' >"$b/cfg.json"
mb_sum=$(sum "$b/m.aem") cfg_sum=$(sum "$b/cfg.json")
expect baseline-model 2 env -C "$b" "$mc" --write-baseline ./m.aem m.aem
one_line baseline-model-line "$tmp/err"
contains baseline-model-msg "$tmp/err" "modelcheck: refusing to write ./m.aem: it is the input m.aem (the same file)"
expect baseline-config 2 env -C "$b" "$mc" --config cfg.json --write-baseline cfg.json m.aem
contains baseline-config-msg "$tmp/err" "refusing to write cfg.json: it is the input "
unchanged baseline-model-file "$b/m.aem" "$mb_sum"
unchanged baseline-config-file "$b/cfg.json" "$cfg_sum"
# nor onto a model met in a walked directory: found as the run meets it,
# the baseline is not written and the model stays as it was
expect baseline-walked 2 env -C "$b" "$mc" --no-config --write-baseline m.aem .
contains baseline-walked-msg "$tmp/err" "modelcheck: refusing to write m.aem: it is the input ./m.aem (a file of the checked tree); no baseline written"
unchanged baseline-walked-file "$b/m.aem" "$mb_sum"
no_temp baseline-walked-temp "$b"
# the --baseline it reads may be the one it rewrites (on purpose)
env -C "$b" "$mc" --no-config --write-baseline base.json m.aem >/dev/null 2>&1
[ -s "$b/base.json" ] && ok || fail "baseline-first: no baseline written"
env -C "$b" "$mc" --no-config --baseline base.json --write-baseline base.json m.aem >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && ok || { fail "baseline-rewrite: exit not 0"; head -3 "$tmp/err"; }
"$py" -c 'import json,sys; json.load(open(sys.argv[1]))' "$b/base.json" && ok || fail "baseline-rewrite: not a JSON report"
no_temp baseline-temp "$b"

# ---- a manifest's control and bidi characters reach no certify report ----
e=$tmp/escorpus
mkdir -p "$e/nlm/valid"
evil=$(printf 'nlm/valid/e\033[2Jvil\342\200\256gnp.nlm')
cp "$case_file" "$e/$evil"
"$py" - "$e/manifest.json" "$evil" <<'PY'
import json, sys
bad = "\x1b[31m\u202e"
case = {"file": sys.argv[2].encode("utf-8", "surrogateescape").decode("utf-8"), "format": "nlm",
        "layout": "v2" + bad, "rule": "NLM_RULE" + bad, "clause": "clause" + bad + ": part",
        "description": "description" + bad, "args": [], "valid": False,
        # a valid file said to be invalid: too lenient, so every report shows it
        "expected": [{"code": "NLM_CODE" + bad, "severity": "error", "count": 1}]}
skipped = dict(case, args=["--max-file-bytes", "10" + bad])
json.dump({"generator": "gen" + bad, "cases": [case, skipped]}, open(sys.argv[1], "w"))
PY
expect names-certify 1 "$mc" certify --reference -c "$e" --json "$tmp/e.json" --text "$tmp/e.txt" \
    --html "$tmp/e.html" --junit "$tmp/e.xml"
cp "$tmp/out" "$tmp/e.stdout"
for kind in e.json e.txt e.html e.xml e.stdout; do
    if LC_ALL=C grep -q "$(printf '\033')" "$tmp/$kind"; then fail "names-$kind: a raw ESC"; else ok; fi
    if LC_ALL=C grep -q "$(printf '\342\200\256')" "$tmp/$kind"; then fail "names-$kind: a raw U+202E"; else ok; fi
done
"$py" - "$tmp/e.json" <<'PY' && ok || fail "names-json: escapes that decode back"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
text = json.dumps(d, ensure_ascii=False)
assert "\x1b" not in text and "\u202e" not in text, "decoded JSON holds a control"
c = d["cases"][0]
assert c["file"] == "nlm/valid/e\\x1B[2Jvil\\u202Egnp.nlm", c["file"]
assert "file_escaped" not in c, c
PY
contains names-text-file "$tmp/e.txt" 'nlm/valid/e\x1B[2Jvil\u202Egnp.nlm'
contains names-html-file "$tmp/e.html" 'nlm/valid/e\x1B[2Jvil\u202Egnp.nlm'

echo "outputs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
