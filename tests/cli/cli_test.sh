#!/usr/bin/env bash
# CLI behaviour: every exit code, every bad input, output formats.
# usage: cli_test.sh MODELCHECK MC_CORPUSGEN
set -uo pipefail
mc=$1 gen=$2
. "$(dirname "$0")/common.sh"

"$gen" "$tmp/corpus" || { echo "cannot generate corpus"; exit 1; }
valid=$tmp/corpus/aem/valid/skinned_animated.aem
static=$tmp/corpus/aem/valid/static_exporter_unskinned.aem
weights=$tmp/corpus/aem/invalid/weights_sum_0_93.aem

# exit 0 / 1 and the compiler-style line
expect valid 0 "$mc" "$valid"
contains valid-status "$tmp/out" "$valid: aem (aem1): valid: 0 errors, 0 warnings"
expect invalid 1 "$mc" "$weights"
contains invalid-line "$tmp/out" "$weights:0x23c: error: AEM_WEIGHT_SUM: vertex 5: weights sum to 0.930000 (expected 1 +- 4e-07) [/vertices/5/weights]"
expect quiet-valid 0 "$mc" -q "$valid"
[ ! -s "$tmp/out" ] && ok || fail "quiet printed for a valid file"

# warnings, --werror, overrides
expect warnings-pass 0 "$mc" "$static"
expect werror 1 "$mc" --werror "$static"
# --werror is part of the verdict (issue 26): the text, the JSON and the summary say it
contains werror-status "$tmp/out" "$static: aem (aem1): invalid (warnings as errors): 0 errors, 8 warnings"
contains werror-summary "$tmp/out" "1 file checked: 0 valid, 1 invalid"
expect werror-json 1 "$mc" --werror --output json "$static"
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["settings"]["werror"] is True and d["files"][0]["valid"] is False and d["summary"]["invalid"] == 1, d["summary"]' "$tmp/out" && ok || fail "werror-json: valid does not follow the exit code"
expect no-werror-json 0 "$mc" --output json "$static"
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["settings"]["werror"] is False and d["files"][0]["valid"] is True' "$tmp/out" && ok || fail "no-werror-json"
expect werror-ignored 0 "$mc" --werror --ignore AEM_UNSKINNED_VERTEX "$static"
expect severity-error 1 "$mc" --severity AEM_UNSKINNED_VERTEX=error "$static"
expect max-issues 0 "$mc" -n 2 "$static"
contains max-issues-note "$tmp/out" "note: AEM_UNSKINNED_VERTEX: 6 more occurrences not shown (8 in all, first at 0x60)"
# --max-issues 0: a kept error still reads as an error, counted in words
expect max-issues-0 1 "$mc" -n 0 "$weights"
contains max-issues-0-line "$tmp/out" "$weights:0x23c: error: AEM_WEIGHT_SUM: The bone weights of a skinned vertex do not sum to 1 (1 occurrence, none shown)"
lacks max-issues-0-note "$tmp/out" "note:"
# --min-severity (issue 26): output only; counts exact; the summary names what was hidden
expect min-severity 0 "$mc" --min-severity error "$static"
lacks min-severity-hidden "$tmp/out" "AEM_UNSKINNED_VERTEX"
contains min-severity-status "$tmp/out" "$static: aem (aem1): valid: 0 errors, 8 warnings"
contains min-severity-summary "$tmp/out" "0 errors, 8 warnings, 0 infos, 0 hints; not shown: 8 warnings (--min-severity warning shows them)"
expect min-severity-werror 1 "$mc" --min-severity error --werror "$static"
expect min-severity-warning 0 "$mc" --min-severity warning "$static"
contains min-severity-warning-shown "$tmp/out" "warning: AEM_UNSKINNED_VERTEX"
lacks min-severity-warning-note "$tmp/out" "not shown:"
expect min-severity-bad 2 "$mc" --min-severity ignore "$static"; one_line min-severity-bad "$tmp/err"
# colour (issue 26): never on a pipe unless asked; NO_COLOR wins over auto only
esc=$(printf '\033')
expect color-auto-pipe 1 "$mc" "$weights"
lacks color-auto-pipe-plain "$tmp/out" "$esc["
expect color-always 1 env NO_COLOR=1 "$mc" --color always "$weights"
contains color-always-error "$tmp/out" "$esc[1;31merror$esc[0m: $esc[1mAEM_WEIGHT_SUM$esc[0m"
expect color-never 1 "$mc" --color never "$weights"
lacks color-never-plain "$tmp/out" "$esc["
if command -v script >/dev/null; then
    script -qec "\"$mc\" \"$weights\"" /dev/null >"$tmp/tty" </dev/null
    contains color-tty "$tmp/tty" "$esc[1;31merror"
    NO_COLOR=1 script -qec "\"$mc\" \"$weights\"" /dev/null >"$tmp/tty" </dev/null
    lacks color-tty-no-color "$tmp/tty" "$esc["
else
    ok; ok # util-linux's script is missing: no terminal to test with
fi
expect color-bad 2 "$mc" --color sometimes "$weights"; one_line color-bad "$tmp/err"
# --concise: no decoded offset, no path
expect concise 1 env -C "$(dirname "$weights")" "$mc" --concise "$(basename "$weights")"
contains concise-line "$tmp/out" "weights_sum_0_93.aem:0x23c: error: AEM_WEIGHT_SUM: vertex 5: weights sum to 0.930000 (expected 1 +- 4e-07)"
grep -qx "weights_sum_0_93.aem: aem (aem1): invalid: 1 error" "$tmp/out" && ok || fail "concise: the status line names only the counts that occur"
# every line of a file fits 120 columns: long messages are cut at a word
# ("..."), never the place (file, offset, severity, code; issue 36)
expect concise-corpus 1 env -C "$tmp" "$mc" --concise corpus
# (a line whose place alone is longer has no message: it ends with ": ")
long=$(grep -v '^modelcheck: ' "$tmp/out" | awk 'length($0) > 120 && !/: $/' | head -3)
[ -z "$long" ] && ok || fail "concise: lines over 120 columns: $long"
grep -q '^corpus/aamf/invalid/legacy_amf_bytes_after_last_chunk.aamf:0x1578: error: AAMF_AMF_LAYOUT: bone block 4 (1608 [a-z ]*\.\.\.$' "$tmp/out" && ok ||
    fail "concise: a long message cut at a word: $(grep -m1 legacy_amf_bytes_after "$tmp/out")"
expect concise-long-place 1 env -C "$tmp" "$mc" --concise "$weights"
contains concise-long-place-line "$tmp/out" "$weights:0x23c: error: AEM_WEIGHT_SUM: "
lacks concise-no-path "$tmp/out" "[/vertices/5/weights]"
# --quiet: a passing file with warnings prints nothing at all
expect quiet-warnings 0 "$mc" -q "$static"
[ ! -s "$tmp/out" ] && ok || fail "quiet printed the issues of a passing file"

# every refused option names itself
expect bad-short-group 2 "$mc" -Zq "$valid";          contains bad-short-group-msg "$tmp/err" "unknown option '-Z' (try --help)"
expect bad-after-value 2 "$mc" --output json -Z "$valid"; contains bad-after-value-msg "$tmp/err" "unknown option '-Z'"
expect bad-long-value 2 "$mc" --bogus=3 "$valid";     contains bad-long-value-msg "$tmp/err" "unknown option '--bogus'"
expect bad-format-once 2 "$mc" --format bogus "$valid"; lacks bad-format-once-msg "$tmp/err" "(see --help)"
expect long-no-value 2 "$mc" "$valid" --format;       contains long-no-value-msg "$tmp/err" "option '--format' needs a value"
expect certify-bad-short 2 "$mc" certify -Zq;         contains certify-bad-short-msg "$tmp/err" "unknown option '-Z'"
# a value given to a long option that takes none: named as typed, not by its
# short letter (or by a '-' for those with none)
for arg in --quiet=yes --werror=1 --help=1 --no-sha256=1 --skip-unrecognized=x --no-config=1 --list-codes=x --qui=1; do
    expect "no-value$arg" 2 "$mc" "$arg" "$valid"
    contains "no-value$arg-msg" "$tmp/err" "modelcheck: option '${arg%%=*}' takes no value (try --help)"
    one_line "no-value$arg-line" "$tmp/err"
done
expect certify-no-value 2 "$mc" certify --timings=1
contains certify-no-value-msg "$tmp/err" "modelcheck certify: option '--timings' takes no value (try --help)"
# a short option refused in a group right after a long option with its value
expect bad-group-after-long 2 "$mc" --output=json -qZ "$valid"; contains bad-group-after-long-msg "$tmp/err" "unknown option '-Z'"
expect bad-group-mid-after-long 2 "$mc" --output=json -Zq "$valid"; contains bad-group-mid-after-long-msg "$tmp/err" "unknown option '-Z'"
expect short-no-value 2 "$mc" "$valid" -qj;           contains short-no-value-msg "$tmp/err" "option '-j' needs a value"
# one hint a line
expect code-one-hint 2 "$mc" --severity FOO=error "$valid"
contains code-one-hint-msg "$tmp/err" "modelcheck: unknown issue code 'FOO' (see --list-codes)"
lacks code-one-hint-help "$tmp/err" "(try --help)"
expect ignore-one-hint 2 "$mc" --ignore FOO "$valid"; lacks ignore-one-hint-help "$tmp/err" "(try --help)"

# usage errors: exit 2, one line on stderr
expect no-path 2 "$mc";                               one_line no-path "$tmp/err"
expect bad-option 2 "$mc" --bogus "$valid";           one_line bad-option "$tmp/err"
expect bad-format 2 "$mc" --format obj "$valid";      one_line bad-format "$tmp/err"
expect bad-output 2 "$mc" --output xml "$valid";      one_line bad-output "$tmp/err"
expect bad-severity 2 "$mc" --severity AEM_WEIGHT_SUM=fatal "$valid"; one_line bad-severity "$tmp/err"
expect bad-code 2 "$mc" --ignore AEM_NOPE "$valid";   one_line bad-code "$tmp/err"
expect bad-count 2 "$mc" --max-issues ten "$valid";   one_line bad-count "$tmp/err"
expect missing-value 2 "$mc" "$valid" --format;       one_line missing-value "$tmp/err"
expect no-equals 2 "$mc" --severity AEM_WEIGHT_SUM "$valid"; one_line no-equals "$tmp/err"

# unreadable inputs: exit 3, one clear line
expect missing 3 "$mc" "$tmp/nope.aem"
one_line missing "$tmp/err"
contains missing-msg "$tmp/err" "modelcheck: $tmp/nope.aem: cannot open: No such file or directory"
expect device 3 "$mc" /dev/null
contains device-msg "$tmp/err" "not a regular file"
if [ "$(id -u)" -ne 0 ]; then
    cp "$valid" "$tmp/locked.aem"; chmod 000 "$tmp/locked.aem"
    expect unreadable 3 "$mc" "$tmp/locked.aem"
    contains unreadable-msg "$tmp/err" "Permission denied"
else
    ok # root reads every file: permission denial cannot be staged
fi
expect highest-wins 3 "$mc" "$weights" "$tmp/nope.aem"

# files that are not models, or barely
: >"$tmp/empty.aem"
expect empty 1 "$mc" "$tmp/empty.aem"
contains empty-msg "$tmp/out" "error: FILE_EMPTY: file is empty (0 bytes)"
printf 'AEM\001' >"$tmp/four.aem"
expect four-bytes 1 "$mc" "$tmp/four.aem"
contains four-msg "$tmp/out" "AEM_TRUNCATED: file is 4 bytes; the header alone needs 40"
{ printf 'AEM\001\377\377\377\377'; head -c 92 /dev/zero; } >"$tmp/huge.aem"
limit=""
ldd "$mc" 2>/dev/null | grep libasan >/dev/null || limit="ulimit -v 65536;" # no large allocation
expect four-billion 1 bash -c "$limit exec \"\$0\" \"\$1\"" "$mc" "$tmp/huge.aem"
# neither AEM layout fits; the 2025 one's arithmetic is the nearer (52 + 2^32 x 88 against
# 40 + 2^32 x 92 bytes), so the error is in its terms and names aem1's (docs/formats/aem2025.md)
contains four-billion-msg "$tmp/out" "file ends inside the vertices section (4294967295 x 88 bytes from 0x34)"
contains four-billion-aem1 "$tmp/out" "(as aem1 they imply 395136991180 bytes)"
[ "$(grep -c ': error: ' "$tmp/out")" -eq 1 ] && ok || fail "four-billion: more than one error"
echo "just text" >"$tmp/notes.txt"
expect unrecognised 1 "$mc" "$tmp/notes.txt"
contains unrecognised-msg "$tmp/out" "FILE_UNRECOGNIZED: content matches no supported format (tried: AEM, SEModel, E3D, NLM, AAMF/SAMF)"

# directories: recursion, skipping, no models
mkdir -p "$tmp/assets/sub" "$tmp/nomodels/deeper"
cp "$valid" "$tmp/assets/sub/a.aem"; cp "$tmp/notes.txt" "$tmp/assets/readme.txt"; : >"$tmp/assets/empty"
expect dir 0 "$mc" "$tmp/assets"
contains dir-summary "$tmp/out" "1 file checked: 1 valid, 0 invalid, 0 unreadable; 2 skipped"
echo "x" >"$tmp/nomodels/deeper/x.txt"
expect no-models 0 "$mc" "$tmp/nomodels"
contains no-models-msg "$tmp/err" "modelcheck: $tmp/nomodels: no model files found (1 skipped)"
expect corpus-dir 1 "$mc" "$tmp/corpus"

# standard input
expect stdin 1 bash -c 'exec "$0" - <"$1"' "$mc" "$weights"
contains stdin-line "$tmp/out" "-:0x23c: error: AEM_WEIGHT_SUM"
# --werror: github annotations of warnings are errors (issue 36)
expect github-werror 1 "$mc" -o github --werror "$static"
contains github-werror-line "$tmp/out" "::error file="
lacks github-werror-no-warning "$tmp/out" "::warning"
# --stdin-filename NAME (issue 36): NAME in the reports; the configuration
# found from NAME's directory, its exclude and overrides matched against NAME
mkdir -p "$tmp/sf/.git" "$tmp/sf/legacy" "$tmp/sf/vendor"
echo '{"exclude": ["vendor"], "overrides": [{"files": "legacy/*.aem", "ignore": ["AEM_WEIGHT_SUM"]}]}' >"$tmp/sf/.modelcheck.json"
expect stdin-name 1 bash -c 'exec "$0" --stdin-filename assets/w.aem - <"$1"' "$mc" "$weights"
contains stdin-name-line "$tmp/out" "assets/w.aem:0x23c: error: AEM_WEIGHT_SUM"
expect stdin-name-json 1 bash -c 'exec "$0" -o json --stdin-filename assets/w.aem <"$1"' "$mc" "$weights"
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [f["path"] for f in d["files"]] == ["assets/w.aem"], d["files"]' "$tmp/out" && ok || fail "stdin-filename: the JSON path"
expect stdin-name-override 0 bash -c 'cd "$2" && exec "$0" --stdin-filename legacy/w.aem <"$1"' "$mc" "$weights" "$tmp/sf"
contains stdin-name-override-line "$tmp/out" "legacy/w.aem: aem (aem1): valid"
expect stdin-name-excluded 0 bash -c 'exec "$0" --stdin-filename "$2/vendor/w.aem" - <"$1"' "$mc" "$weights" "$tmp/sf"
contains stdin-name-excluded-line "$tmp/out" "1 skipped (0 unrecognised, 1 excluded by configuration)"
expect stdin-name-empty 2 "$mc" --stdin-filename "" -; one_line stdin-name-empty "$tmp/err"

# JSON: parseable, deterministic, and the input is never modified
before=$(sha256sum "$weights")
expect json 1 "$mc" --output json "$weights" "$valid"
cp "$tmp/out" "$tmp/json1"
/usr/bin/python3 - "$tmp/json1" <<'PY' && ok || fail "json content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["summary"]["files"] == 2 and d["summary"]["invalid"] == 1, d["summary"]
f = d["files"][0]
assert f["format"] == "aem" and f["layout"] == "aem1" and not f["valid"]
i = f["issues"][0]
assert i["code"] == "AEM_WEIGHT_SUM" and i["count"] == 1 and i["instances"][0]["offset"] == 572
assert i["instances"][0]["path"] == "/vertices/5/weights"
PY
"$mc" --output json "$weights" "$valid" >"$tmp/json2"
cmp -s "$tmp/json1" "$tmp/json2" && ok || fail "json output differs between runs"
[ "$before" = "$(sha256sum "$weights")" ] && ok || fail "input file modified"

# SARIF 2.1.0: same exit code, the instance at its offset and path, the rule's severity overridden
expect sarif 1 "$mc" --output sarif --severity AEM_WEIGHT_SUM=warning --werror "$weights" "$valid"
/usr/bin/python3 - "$tmp/out" "$weights" <<'PY' && ok || fail "sarif content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == "2.1.0", d["version"]
r = d["runs"][0]
assert [a["location"]["uri"] for a in r["artifacts"]] == ["file://" + sys.argv[2], r["artifacts"][1]["location"]["uri"]]
assert r["artifacts"][0]["length"] == 1936 and not r["artifacts"][0]["properties"]["valid"]  # a warning, with --werror
assert r["artifacts"][1]["properties"]["valid"] and r["properties"]["settings"]["werror"] is True
x, = r["results"]
# --werror raises the warning's level (issue 36); properties keep our severity
assert x["ruleId"] == "AEM_WEIGHT_SUM" and x["level"] == "error" and x["properties"]["severity"] == "warning", x
loc = x["locations"][0]
assert loc["physicalLocation"]["region"]["byteOffset"] == 572
assert loc["physicalLocation"]["artifactLocation"]["index"] == 0
assert loc["logicalLocations"][0]["fullyQualifiedName"] == "/vertices/5/weights"
assert x["partialFingerprints"] == {"modelcheckPath/v1": "AEM_WEIGHT_SUM:/vertices/5/weights"}, x
rule, = r["tool"]["driver"]["rules"]
assert rule["id"] == "AEM_WEIGHT_SUM" and rule["defaultConfiguration"]["level"] == "error"
assert r["invocations"][0] == {"executionSuccessful": True, "exitCode": 1}
PY
# run from the root directory, the one working directory getcwd ends in '/'
expect sarif-github-at-root 0 env -C / "$mc" --output sarif-github "$valid"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["runs"][0]
assert r["invocations"][0]["workingDirectory"] == {"uri": "file:///"}, r["invocations"]' "$tmp/out" &&
    ok || fail "sarif-github-root-uri: workingDirectory of a run from / is not file:///"
expect sarif-bad-output 2 "$mc" --output yaml "$valid"
contains sarif-bad-output-msg "$tmp/err" "unknown output 'yaml' (text, json, sarif, sarif-github, github or junit)"

# --output github (issue 26): one workflow command per instance, the file
# relative to $GITHUB_WORKSPACE, '%' ',' ':' escaped where GitHub needs it
expect github 3 env GITHUB_WORKSPACE="$tmp" "$mc" --output github -n 2 "$weights" "$static" "$tmp/nope.aem"
contains github-error "$tmp/out" "::error file=corpus/aem/invalid/weights_sum_0_93.aem,title=AEM_WEIGHT_SUM::vertex 5: weights sum to 0.930000 (expected 1 +- 4e-07) (AEM_WEIGHT_SUM at 0x23c, /vertices/5/weights)"
contains github-warning "$tmp/out" "::warning file=corpus/aem/valid/static_exporter_unskinned.aem,title=AEM_UNSKINNED_VERTEX::vertex 0: no bone"
contains github-fold "$tmp/out" "::warning file=corpus/aem/valid/static_exporter_unskinned.aem,title=AEM_UNSKINNED_VERTEX::6 more occurrences not shown (8 in all, first at 0x60)"
contains github-unreadable "$tmp/out" "::error file=nope.aem,title=IO_OPEN_FAILED::cannot open: No such file or directory"
[ "$(grep -c '^::' "$tmp/out")" -eq 5 ] && ok || fail "github: $(grep -c '^::' "$tmp/out") annotations, expected 5"
expect github-min-severity 1 "$mc" --output github --min-severity error "$weights" "$static"
lacks github-min-severity-hidden "$tmp/out" "::warning"
mkdir -p "$tmp/odd"; cp "$weights" "$tmp/odd/a,b:100%.aem"
expect github-escape 1 env -C "$tmp" "$mc" --output github "odd/a,b:100%.aem"
contains github-escape-file "$tmp/out" "::error file=odd/a%2Cb%3A100%25.aem,title=AEM_WEIGHT_SUM::"
# --output junit: a test case per file, failures and errors counted
expect junit 3 "$mc" --output junit --werror "$weights" "$static" "$valid" "$tmp/nope.aem"
/usr/bin/python3 - "$tmp/out" <<'PY' && ok || fail "junit content"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites" and root.get("tests") == "4" and root.get("failures") == "2" and root.get("errors") == "1", root.attrib
cases = root.find("testsuite").findall("testcase")
assert [c.find("failure") is not None for c in cases] == [True, True, False, False]
f = cases[0].find("failure")
assert f.get("type") == "AEM_WEIGHT_SUM" and f.get("message") == "invalid: 1 error, 0 warnings", f.attrib
assert "0x23c: error: AEM_WEIGHT_SUM" in f.text
assert cases[1].find("failure").get("message") == "invalid: 0 errors, 8 warnings (warnings as errors)"
assert cases[3].find("error").get("type") == "IO_OPEN_FAILED"
PY

# --baseline / --write-baseline (issue 26): accepted issues are not reported
# and do not fail; a new issue does; a moved file keeps its baseline (SHA-256)
mkdir -p "$tmp/adopt"; cp -r "$tmp/corpus/aem" "$tmp/adopt/assets"
expect write-baseline 1 env -C "$tmp/adopt" "$mc" --write-baseline base.json -n 3 assets
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["summary"]["invalid"] > 30 and "baselined" not in d["summary"], d["summary"]' "$tmp/adopt/base.json" && ok || fail "write-baseline: not the run's JSON report"
# every issue of the baseline run is known: as many as its summary counts
known=$(/usr/bin/python3 -c 'import json,sys; print(sum(json.load(open(sys.argv[1]))["summary"]["counts"].values()))' "$tmp/adopt/base.json")
expect baseline-clean 0 env -C "$tmp/adopt" "$mc" --baseline base.json -n 3 assets
contains baseline-summary "$tmp/out" "0 errors, 0 warnings, 0 infos, 0 hints; $known known (in the baseline) not reported"
mv "$tmp/adopt/assets/invalid/weights_sum_0_93.aem" "$tmp/adopt/assets/invalid/renamed.aem"
expect baseline-moved 0 env -C "$tmp/adopt" "$mc" --baseline base.json -n 3 assets
cp "$tmp/corpus/aem/invalid/index_out_of_range.aem" "$tmp/adopt/assets/valid/skinned_animated.aem"
expect baseline-new 1 env -C "$tmp/adopt" "$mc" --baseline base.json -n 3 assets
contains baseline-new-line "$tmp/out" "assets/valid/skinned_animated.aem:0x318: error: AEM_INDEX_RANGE: index 8 (expected < vertex count 8) [/indices/4]"
[ "$(grep -c ': error: ' "$tmp/out")" -eq 1 ] && ok || fail "baseline-new: known errors reported again"
expect baseline-new-json 1 env -C "$tmp/adopt" "$mc" --baseline base.json -n 3 -o json assets
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["summary"]["counts"]["error"] == 1 and d["summary"]["baselined"] == int(sys.argv[2]), d["summary"]' "$tmp/out" "$known" && ok || fail "baseline json summary"
# occurrences beyond the kept instances are matched by count
expect baseline-count-write 0 "$mc" -n 1 --write-baseline "$tmp/static.json" "$static"
expect baseline-count 0 "$mc" -n 1 --baseline "$tmp/static.json" "$static"
contains baseline-count-summary "$tmp/out" "; 8 known (in the baseline) not reported"
# the run's own baseline (and --config file) in the walked tree is no model
# file skipped (issue 36)
expect baseline-in-tree-write 1 env -C "$tmp/adopt" "$mc" --write-baseline assets/base.json -n 3 assets
skipped=$(sed -n 's/^modelcheck: .*; \([0-9]*\) skipped (unrecognised).*/\1 skipped/p' "$tmp/out")
expect baseline-in-tree 0 env -C "$tmp/adopt" "$mc" --baseline assets/base.json -n 3 assets
contains baseline-in-tree-skipped "$tmp/out" "; $skipped (unrecognised)"
rm "$tmp/adopt/assets/base.json"
echo '{}' >"$tmp/adopt/assets/mc.json"
expect config-in-tree 1 env -C "$tmp/adopt" "$mc" --config assets/mc.json assets
contains config-in-tree-skipped "$tmp/out" "; $skipped (unrecognised)"
rm "$tmp/adopt/assets/mc.json"
echo '{"files": 3}' >"$tmp/bad-baseline.json"
expect baseline-bad 2 "$mc" --baseline "$tmp/bad-baseline.json" "$static"; one_line baseline-bad "$tmp/err"
contains baseline-bad-msg "$tmp/err" "modelcheck: $tmp/bad-baseline.json: not a modelcheck JSON report (no \"files\" array)"

# messages (issue 26, point 8): what was found, and why it is wrong
c=$tmp/corpus
expect msg-forced-format 1 "$mc" -f aem "$c/nlm/valid/wireframe_line_list.nlm"
contains msg-forced-format-text "$tmp/out" "AEM_BAD_MAGIC: magic bytes are"
contains msg-forced-format-detect "$tmp/out" "(expected \"AEM\": 41 45 4d); detection says nlm: check without -f aem [/header/magic]"
expect msg-parent-forward 1 "$mc" "$c/aem/invalid/bone_parent_forward.aem"
contains msg-parent-forward-text "$tmp/out" "bone 1: parent 2 (expected -1 or bone 0: parents come before their children; bone count 3)"
expect msg-parent-self 1 "$mc" "$c/aem/invalid/bone_parent_self.aem"
contains msg-parent-self-text "$tmp/out" "bone 1: parent 1 (expected -1 or bone 0: a bone cannot be its own parent; bone count 3)"
expect msg-duplicate-range 0 "$mc" "$c/e3d/valid/faces_materials_repeated.e3d"
contains msg-duplicate-range-text "$tmp/out" "triangles [0, 12) are listed twice: a duplicate of an earlier facesMaterials range"
expect msg-draft 0 "$mc" "$c/semodel/valid/collision_block_draft.semodel"
contains msg-draft-text "$tmp/out" "the 2017 draft leaves its layout undefined (a TODO in the spec), so the bytes after the meshes are not checked"
lacks msg-draft-bare-todo "$tmp/out" "(TODO)"

# informational options
expect version 0 "$mc" --version
contains version-text "$tmp/out" "modelcheck 0."
expect help 0 "$mc" --help
contains help-text "$tmp/out" "Exit codes: 0 valid, 1 errors found, 2 usage error or bad config file, 3 unreadable file or directory,"
expect list-codes 0 "$mc" --list-codes
contains list-codes-text "$tmp/out" "AEM_WEIGHT_SUM"
expect list-codes-json 0 "$mc" --list-codes --output json
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert any(c["code"]=="IO_OPEN_FAILED" and c["origin"]=="tool" and c["kind"]=="IO" for c in d) and all(c["kind"] for c in d)' "$tmp/out" && ok || fail "list-codes json"
expect markdown-needs-list 2 "$mc" --output markdown "$valid"
# explain and --list-codes CODE... (issue 26): rule, clause, why, what to do, an example
expect explain 0 "$mc" explain AEM_WEIGHT_SUM
contains explain-rule "$tmp/out" "  Rule:          The bone weights of a skinned vertex do not sum to 1."
contains explain-why "$tmp/out" "  Why it matters: AEM readers use the weights as stored"
contains explain-what "$tmp/out" "  What to do:    Normalise the skin weights"
contains explain-example "$tmp/out" "  Example:       corpus/aem/invalid/weights_sum_0_93.aem:0x23c: error: AEM_WEIGHT_SUM: vertex 5: weights sum to 0.930000"
expect explain-unknown 2 "$mc" explain AEM_NOPE; one_line explain-unknown "$tmp/err"
expect explain-none 2 "$mc" explain; one_line explain-none "$tmp/err"
# issue 36: any case; the nearest code suggested; the cited document named
expect explain-case 0 "$mc" explain aem_weight_sum
contains explain-case-code "$tmp/out" "AEM_WEIGHT_SUM (error, content check"
expect explain-near 2 "$mc" explain AEM_WIEGHT_SUM; one_line explain-near "$tmp/err"
contains explain-near-msg "$tmp/err" "modelcheck: unknown issue code 'AEM_WIEGHT_SUM' (did you mean AEM_WEIGHT_SUM?)"
expect explain-prefix 2 "$mc" explain weight_sum
contains explain-prefix-msg "$tmp/err" "(did you mean AEM_WEIGHT_SUM?)"
expect ignore-near 2 "$mc" --ignore AEM_WEIGHT_SUMS "$static"
contains ignore-near-msg "$tmp/err" "(did you mean AEM_WEIGHT_SUM?)"
expect explain-doc 0 "$mc" explain E3D_LZMA_BAD_PROPERTIES
doc=$(sed -n 's/^  Document: *//p' "$tmp/out")
[ -f "$doc" ] && [ "${doc%/docs/formats/e3d.md}" != "$doc" ] && ok || fail "explain-doc: names '$doc', not an existing docs/formats/e3d.md"
expect list-codes-case 0 "$mc" --list-codes --output json nlm_weight_sum
contains list-codes-case-json "$tmp/out" '"code":	"NLM_WEIGHT_SUM"'

expect explain-help 0 "$mc" explain --help; contains explain-help-text "$tmp/out" "usage: modelcheck explain CODE..."
expect list-codes-args 0 "$mc" --list-codes NLM_WEIGHT_SUM IO_OPEN_FAILED
[ "$(grep -c '^  Rule:' "$tmp/out")" -eq 2 ] && ok || fail "list-codes CODE...: not two codes explained"
lacks list-codes-args-only "$tmp/out" "AEM_WEIGHT_SUM"
expect list-codes-args-json 0 "$mc" --list-codes --output json E3D_FACES_MATERIALS_OVERLAP
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [c["code"] for c in d] == ["E3D_FACES_MATERIALS_OVERLAP"] and d[0]["why"] and d[0]["what_to_do"], d' "$tmp/out" && ok || fail "list-codes CODE --output json"

# tolerance options: each one changes the verdict it governs; bad values are usage errors
normal=$tmp/corpus/aem/invalid/normal_length_0_9.aem
rotation=$tmp/corpus/aem/invalid/rotation_key_not_unit.aem
expect weight-tolerance 0 "$mc" --weight-tolerance 0.1 "$weights"
expect unit-tolerance-default 1 "$mc" "$normal"
expect unit-tolerance 0 "$mc" --unit-tolerance 0.2 "$normal"
expect quaternion-tolerance-default 1 "$mc" "$rotation"
expect quaternion-tolerance 0 "$mc" --quaternion-tolerance 0.6 "$rotation"
expect bad-tolerance-text 2 "$mc" --unit-tolerance abc "$valid"; one_line bad-tolerance-text "$tmp/err"
contains bad-tolerance-msg "$tmp/err" "modelcheck: bad tolerance 'abc' (try --help)"
expect bad-tolerance-empty 2 "$mc" --weight-tolerance "" "$valid"; one_line bad-tolerance-empty "$tmp/err"
expect bad-tolerance-negative 2 "$mc" --quaternion-tolerance -1 "$valid"; one_line bad-tolerance-negative "$tmp/err"
expect bad-tolerance-huge 2 "$mc" --unit-tolerance 1e31 "$valid"
expect bad-tolerance-nan 2 "$mc" --weight-tolerance nan "$valid"
expect bad-tolerance-suffix 2 "$mc" --quaternion-tolerance 0.5x "$valid"

# --no-sha256: the JSON report carries a null hash
expect no-sha256 0 "$mc" --no-sha256 --output json "$valid"
/usr/bin/python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["files"][0]; assert f["sha256"] is None, f["sha256"]' "$tmp/out" && ok || fail "no-sha256: sha256 not null"
expect with-sha256 0 "$mc" --output json "$valid"
/usr/bin/python3 -c 'import json,sys,hashlib; f=json.load(open(sys.argv[1]))["files"][0]; assert f["sha256"] == hashlib.sha256(open(sys.argv[2],"rb").read()).hexdigest()' "$tmp/out" "$valid" && ok || fail "sha256 of the file"
# a file of 1 MiB or more is hashed on a second thread: the same digest
head -c 2500000 /dev/urandom >"$tmp/big.bin"
expect sha256-threaded 1 "$mc" --output json "$tmp/big.bin"
/usr/bin/python3 -c 'import json,sys,hashlib; f=json.load(open(sys.argv[1]))["files"][0]; assert f["sha256"] == hashlib.sha256(open(sys.argv[2],"rb").read()).hexdigest()' "$tmp/out" "$tmp/big.bin" && ok || fail "sha256 of a large file"

# -j: the same bytes on stdout and stderr and the same exit code, whatever N
for kind in text json sarif; do
    "$mc" -j 1 --output $kind "$tmp/corpus" "$valid" "$tmp/nope.aem" "$weights" >"$tmp/j1.out" 2>"$tmp/j1.err"; want=$?
    for n in 2 3 16; do
        "$mc" -j $n --output $kind "$tmp/corpus" "$valid" "$tmp/nope.aem" "$weights" >"$tmp/jn.out" 2>"$tmp/jn.err"; got=$?
        if [ "$got" -eq "$want" ] && cmp -s "$tmp/j1.out" "$tmp/jn.out" && cmp -s "$tmp/j1.err" "$tmp/jn.err"; then ok
        else fail "-j $n --output $kind differs from -j 1 (exit $got, expected $want)"; fi
    done
done
[ "$want" -eq 3 ] && ok || fail "-j run: exit $want, expected 3 (a missing file)"
# two "-" in a -j run: the first reads standard input, the second finds it empty
"$mc" -j 1 - "$valid" - <"$weights" >"$tmp/j1.out" 2>&1
"$mc" -j 4 - "$valid" - <"$weights" >"$tmp/jn.out" 2>&1
cmp -s "$tmp/j1.out" "$tmp/jn.out" && ok || fail "-j 4 with two '-' differs from -j 1"
contains stdin-twice "$tmp/jn.out" "-: aem (aem1): invalid"
expect jobs-zero 2 "$mc" -j 0 "$valid";               one_line jobs-zero "$tmp/err"
expect jobs-word 2 "$mc" --jobs many "$valid";        one_line jobs-word "$tmp/err"
expect jobs-long 0 "$mc" --jobs 2 "$valid"

# standard input: closed, and too large for the memory at hand
expect stdin-closed 3 bash -c 'exec "$0" - <&-' "$mc"
one_line stdin-closed "$tmp/err"
contains stdin-closed-msg "$tmp/err" "modelcheck: -: cannot read standard input: Bad file descriptor"
if [ -z "$limit" ]; then
    ok # ASan reserves its shadow memory: an address-space limit cannot be set
else
    expect stdin-no-memory 3 bash -c 'ulimit -v 65536; head -c 100000000 /dev/zero | "$0" -' "$mc"
    contains stdin-no-memory-msg "$tmp/err" "modelcheck: -: cannot read: Cannot allocate memory"
    contains stdin-no-memory-summary "$tmp/out" "1 file checked: 0 valid, 0 invalid, 1 unreadable; 0 skipped"
    # the JSON lists what its summary counts (issue 29: "files": [] with a summary of 1)
    expect stdin-no-memory-json 3 bash -c 'ulimit -v 65536; head -c 100000000 /dev/zero | "$0" -o json -' "$mc"
    /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d["files"]; assert len(f) == 1 and f[0]["path"] == "-" and not f[0]["readable"] and f[0]["issues"][0]["code"] == "IO_READ_FAILED" and d["summary"]["unreadable"] == 1, d' "$tmp/out" && ok || fail "stdin-no-memory-json: the file is not listed"
fi

# a directory that cannot be listed is named on stderr while the rest of the
# tree is still checked (as root: without the capabilities that bypass file
# permissions, still uid 0 so the coverage data can be written)
mkdir -p "$tmp/walk/locked"; cp "$valid" "$tmp/walk/a.aem"; chmod 000 "$tmp/walk/locked"
as=()
drop=(setpriv --bounding-set -dac_override,-dac_read_search)
[ "$(id -u)" -eq 0 ] && "${drop[@]}" true 2>/dev/null && as=("${drop[@]}")
if [ "$(id -u)" -ne 0 ] || [ ${#as[@]} -gt 0 ]; then
    expect locked-dir 3 ${as[@]+"${as[@]}"} "$mc" "$tmp/walk"
    contains locked-dir-msg "$tmp/err" "modelcheck: $tmp/walk/locked: cannot list directory: Permission denied"
    # every count has its entries: the directory is a file entry of its own
    contains locked-dir-rest "$tmp/out" "2 files checked: 1 valid, 0 invalid, 1 unreadable; 0 skipped"
    expect locked-dir-json 3 ${as[@]+"${as[@]}"} "$mc" --output json "$tmp/walk"
    contains locked-dir-entry "$tmp/out" "\"path\":	\"$tmp/walk/locked\""
else
    ok; ok; ok; ok; ok # root that cannot drop its capabilities reads every directory
fi
chmod 700 "$tmp/walk/locked"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
