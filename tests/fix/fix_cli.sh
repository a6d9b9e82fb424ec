#!/usr/bin/env bash
# modelcheck fix as a user runs it (issue 35): outputs and refusals, the
# input untouched, --in-place keeping the mode, idempotence, exit codes
# (an error without a fix stays reported, exit 1), safe and unsafe fixes,
# --select/--ignore, inspect's counts unchanged, the JSON and SARIF edits.
# usage: fix_cli.sh MODELCHECK SOURCE_DIR PYTHON
mc=$(realpath "$1") src=$(realpath "$2") py=$3
. "$(dirname "$0")/../cli/common.sh"
c=$src/corpus
filler=$c/aem/valid/2025_filler_joint_index.aem
w254=$c/aamf/invalid/samf_writer_weight_sum_254.aamf
stale=$c/aamf/valid/samf_writer_stale_unused_indices.aamf
unfixable=$c/aem/invalid/2025_minus_one_slot_weight_0_1.aem
sum() { sha256sum <"$1"; }

# -o: written, the input untouched, the output valid and fixed
before=$(sum "$filler")
expect o-valid 0 "$mc" fix -o "$tmp/f.aem" "$filler"
[ "$(sum "$filler")" = "$before" ] && ok || fail "input modified by fix -o"
contains o-summary "$tmp/out" "2025_filler_joint_index.aem: 8 edits, written to $tmp/f.aem"
expect o-result 0 "$mc" --no-config "$tmp/f.aem"
lacks o-fixed "$tmp/out" AEM2025_FILLER_JOINT_INDEX
# idempotent: fixing the output changes nothing, and -o still writes
expect again 0 "$mc" fix -o "$tmp/g.aem" "$tmp/f.aem"
contains again-none "$tmp/out" ": 0 edits, written to"
cmp -s "$tmp/f.aem" "$tmp/g.aem" && ok || fail "fixing a fixed file changed it"
# the counts are the same, and inspect's tree has the same nodes (names,
# kinds, offsets, sizes, counts)
"$mc" --no-config -o json "$filler" >"$tmp/a.json"; "$mc" --no-config -o json "$tmp/f.aem" >"$tmp/b.json"
"$mc" inspect -o json "$filler" >"$tmp/ia.json"; "$mc" inspect -o json "$tmp/f.aem" >"$tmp/ib.json"
"$py" - "$tmp/a.json" "$tmp/b.json" "$tmp/ia.json" "$tmp/ib.json" <<'PY' && ok || fail "counts or inspect's tree differ after fix"
import json, sys
a, b = (json.load(open(p))["files"][0]["info"] for p in sys.argv[1:3])
def skeleton(n):
    return [n["name"], n["kind"], n["offset"], n["size"], n.get("count")] + [skeleton(c) for c in n.get("children", [])]
ta, tb = (skeleton(json.load(open(p))["files"][0]["structure"]) for p in sys.argv[3:5])
sys.exit(0 if a == b and a["vertices"] == 8 and ta == tb and len(ta) > 5 else 1)
PY

# refusals: the input itself (also through a link), a directory, a FIFO, a device
cp "$filler" "$tmp/in.aem"; ln -s "$tmp/in.aem" "$tmp/link.aem"; mkdir "$tmp/dir"; mkfifo "$tmp/fifo"
for out in "$tmp/in.aem" "$tmp/link.aem" "$tmp/dir" "$tmp/fifo" /dev/null; do
    expect "refuse-$(basename "$out")" 2 "$mc" fix -o "$out" "$tmp/in.aem"
    one_line "refuse-$(basename "$out")-line" "$tmp/err"
done
cmp -s "$filler" "$tmp/in.aem" && ok || fail "a refused output touched the input"
# usage
expect no-mode 2 "$mc" fix "$filler"
expect two-modes 2 "$mc" fix --in-place -o "$tmp/x" "$filler"
expect o-two-files 2 "$mc" fix -o "$tmp/x" "$filler" "$stale"
expect in-place-stdin 2 "$mc" fix --in-place -
expect unknown-code 2 "$mc" fix --select NO_SUCH_CODE --dry-run "$filler"
expect bad-report 2 "$mc" fix --output-format xml --dry-run "$filler"
expect unreadable 3 "$mc" fix --dry-run "$tmp/missing.aem"
expect not-regular 3 "$mc" fix --dry-run "$tmp/fifo"
expect unreadable-json 3 "$mc" fix --dry-run --output-format json "$tmp/missing.aem"
"$py" -c 'import json, sys; f = json.load(open(sys.argv[1]))["files"]; sys.exit(not (len(f) == 1 and f[0]["readable"] is False and f[0]["issues"][0]["code"] == "IO_OPEN_FAILED"))' "$tmp/out" && ok || fail "an unreadable file in fix's JSON"
expect help 0 "$mc" fix --help
contains help-text "$tmp/out" "--unsafe-fixes"
# an output that cannot be written: exit 4, nothing left behind
mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
if [ ! -w "$tmp/ro" ]; then
    expect unwritable 4 "$mc" fix -o "$tmp/ro/x.aem" "$filler"
    [ -z "$(ls -A "$tmp/ro")" ] && ok || fail "a failed output left a file"
fi

# --in-place: the mode kept, the file fixed; an unchanged file not rewritten
cp "$filler" "$tmp/ip.aem"; chmod 640 "$tmp/ip.aem"
expect in-place 0 "$mc" fix --in-place "$tmp/ip.aem"
[ "$(stat -c %a "$tmp/ip.aem")" = 640 ] && ok || fail "--in-place changed the mode to $(stat -c %a "$tmp/ip.aem")"
cmp -s "$tmp/ip.aem" "$tmp/f.aem" && ok || fail "--in-place differs from -o"
ino=$(stat -c %i "$tmp/ip.aem")
expect in-place-again 0 "$mc" fix --in-place "$tmp/ip.aem"
[ "$(stat -c %i "$tmp/ip.aem")" = "$ino" ] && ok || fail "--in-place rewrote a file it did not change"
contains in-place-none "$tmp/out" ": 0 edits"

# an error without a fix: exit 1, still reported
expect unfixable 1 "$mc" fix -o "$tmp/u.aem" "$unfixable"
contains unfixable-reported "$tmp/out" "error: AEM2025_UNUSED_SLOT_WEIGHT"
[ -f "$tmp/u.aem" ] && ok || fail "-o did not write the output of an unfixable file"
# --exit-zero (the pre-commit hook): the error still reported, exit 0;
# --quiet: nothing for a clean file
expect exit-zero 0 "$mc" fix --dry-run --exit-zero "$unfixable"
contains exit-zero-reported "$tmp/out" "error: AEM2025_UNUSED_SLOT_WEIGHT"
expect quiet 0 "$mc" fix --dry-run --quiet "$c/aem/valid/skinned_animated.aem"
[ ! -s "$tmp/out" ] && ok || fail "--quiet printed for a clean file: $(head -2 "$tmp/out")"
# unsafe fixes: withheld by default (exit 1, said so), applied with --unsafe-fixes
expect unsafe-withheld 1 "$mc" fix --dry-run "$w254"
contains unsafe-said "$tmp/out" "0 edits; 21 issues with an unsafe fix left (--unsafe-fixes)"
contains unsafe-reported "$tmp/out" "SAMF_WEIGHT_SUM_TRUNCATED"
expect unsafe-applied 0 "$mc" fix --unsafe-fixes --diff "$w254"
contains unsafe-diff "$tmp/out" "@0x89c /skin_weights/1/weights: (127, 127, 0, 0) -> (128, 127, 0, 0)  (SAMF_WEIGHT_SUM_TRUNCATED, unsafe; 7f -> 80)"
# --select / --ignore
expect ignore 0 "$mc" fix --dry-run --ignore SAMF_SKIN_UNUSED_SLOT_INDEX "$stale"
contains ignore-none "$tmp/out" ": 0 edits"
expect select-other 0 "$mc" fix --dry-run --select AEM2025_ "$stale"
contains select-other-none "$tmp/out" ": 0 edits"
expect select-family 0 "$mc" fix --dry-run --select SAMF_ "$stale"
contains select-family-edits "$tmp/out" ": 22 edits"

# JSON: the edits with their bytes; SARIF: fixes with byte replacements
expect json 0 "$mc" fix --dry-run --output-format json "$filler"
"$py" - "$tmp/out" <<'PY' && ok || fail "JSON edits"
import json, sys
f = json.load(open(sys.argv[1]))["files"][0]
fx = f["fix"]
e = fx["edits"]
assert len(e) == 8 and fx["written"] is False and fx["output"] is None, fx
assert e[0] == {"offset": 116, "size": 8, "code": "AEM2025_FILLER_JOINT_INDEX", "fix": "safe",
                "path": "/vertices/0/joint_indices", "old": "(1, 0, 0, 0)", "new": "(1, 0, -1, -1)",
                "old_bytes": "0000000000000000", "new_bytes": "ffffffffffffffff"}, e[0]
assert fx["codes"] == [{"code": "AEM2025_FILLER_JOINT_INDEX", "fix": "safe", "before": 1, "after": 0, "edits": 8}], fx["codes"]
assert f["issues"] == [] and f["valid"] is True
PY
expect sarif 0 "$mc" fix --dry-run --output-format sarif "$filler"
"$py" - "$tmp/out" <<'PY' && ok || fail "SARIF fixes"
import base64, json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
res = [r for r in run["results"] if r["ruleId"] == "AEM2025_FILLER_JOINT_INDEX"]
assert len(res) == 1, res
reps = res[0]["fixes"][0]["artifactChanges"][0]["replacements"]
assert len(reps) == 8
assert reps[0]["deletedRegion"] == {"byteOffset": 116, "byteLength": 8}
assert base64.b64decode(reps[0]["insertedContent"]["binary"]) == b"\xff" * 8
PY
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
