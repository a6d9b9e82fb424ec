#!/usr/bin/env bash
# `modelcheck fuzz` (cli/fuzz.c, docs/FUZZING.md "Fuzzing your loader when
# it is not C"): a campaign against tests/fuzz/semodel_reader.py, a Python
# reader with a planted crash (an unhandled IndexError) and a planted hang,
# must find both, each site's reproducer must reproduce it (a strict E3D
# reader, tests/fuzz/e3d_reader.py, shows the structural minimisation), and the
# campaign must resume from its findings directory, giving the same inputs
# as one run whatever -j; usage errors exit 2.
# usage: fuzz_test.sh MODELCHECK PYTHON CORPUS
set -u
mc=$1 python=$2 corpus=$3
here=$(cd "$(dirname "$0")" && pwd)
reader=$here/semodel_reader.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL $*"; fail=1; }

# ---- usage errors: one line, exit 2, nothing on standard output ----
usage() { # NAME EXPECTED-LINE ARGS...
    local name=$1 want=$2 rc=0
    shift 2
    "$mc" fuzz "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
    [ $rc -eq 2 ] || die "$name: exit $rc, expected 2"
    [ ! -s "$tmp/out" ] || die "$name: wrote to standard output"
    [ "$(cat "$tmp/err")" = "$want" ] || die "$name: said '$(cat "$tmp/err")', expected '$want'"
}
usage no-loader "modelcheck fuzz: --loader CMD is required (try --help)" --format semodel
usage bad-format "modelcheck fuzz: unknown format 'obj' (aem, semodel, aamf, e3d, nlm) (try --help)" \
    --loader 'true {}' --format obj
usage no-format "modelcheck fuzz: --format FMT is required (aem, semodel, aamf, e3d, nlm) (try --help)" \
    --loader 'true {}'
usage bad-diff "modelcheck fuzz: --diff expects lenient, strict or both, got 'loose' (try --help)" \
    --loader 'true {}' --format semodel --diff loose
usage bad-pattern "modelcheck fuzz: --crash-pattern '(': Unmatched ( or \\( (try --help)" \
    --loader 'true {}' --format semodel --crash-pattern '('
usage stray "modelcheck fuzz: unexpected argument 'x' (try --help)" --loader 'true {}' --format semodel x
usage no-value "modelcheck fuzz: option '--loader' needs a value (try --help)" --format semodel --loader
usage bad-jobs "modelcheck fuzz: --jobs expects a number from 1 to 64, got '0' (try --help)" \
    --loader 'true {}' --format semodel -j 0
usage bad-corpus "modelcheck fuzz: bad corpus: $tmp/nothing: No such file or directory" \
    --loader 'true {}' --format semodel --corpus "$tmp/nothing" --sandbox off
"$mc" fuzz --help > "$tmp/help" || die "--help: exit $?"
grep -q '^usage: modelcheck fuzz --loader CMD --format FMT' "$tmp/help" || die "--help: no usage line"
"$mc" --help > "$tmp/main-help" || die "modelcheck --help: exit $?"
grep -q 'modelcheck fuzz --loader CMD' "$tmp/main-help" || die "modelcheck --help does not name fuzz"

# ---- the campaign: both planted bugs, with a fixed seed ----
loader="$python -S $reader {}"
out=$tmp/findings
rc=0
"$mc" fuzz --loader "$loader" --format semodel --corpus "$corpus" --seed 7 --runs 32 --seconds 150 \
    --timeout 3 -j 2 --findings "$out" --no-progress -o json > "$tmp/report.json" 2> "$tmp/err" || rc=$?
[ $rc -eq 1 ] || { die "campaign: exit $rc, expected 1 (findings)"; cat "$tmp/err"; }
"$python" - "$tmp/report.json" "$python" "$reader" <<'PY' || fail=1
import json, subprocess, sys
report = json.load(open(sys.argv[1]))
python, reader = sys.argv[2], sys.argv[3]
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAIL", what)
        ok = False
check(report["tool"] == "modelcheck fuzz" and report["format"] == "semodel" and report["seed"] == 7, "header")
check(report["executions"] == 32, "executions %r, expected 32 (--runs)" % report["executions"])
for key in ("seconds", "execs_per_second"):
    check(isinstance(report[key], (int, float)) and report[key] > 0, key)
sites = {s["kind"]: s for s in report["sites"]}
check(sorted(sites) == ["crash", "hang"], "kinds %r, expected crash and hang" % sorted(sites))
crash, hang = sites.get("crash"), sites.get("hang")
if crash:
    check(crash["signature"] == "Python IndexError in semodel_reader.py:mesh_kind", "crash signature %r" % crash["signature"])
    check(crash["minimised"] is True, "crash not minimised")
    r = subprocess.run([python, "-S", reader, crash["reproducer"]], capture_output=True, text=True, timeout=30)
    last = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ""
    check(r.returncode == 1 and "Traceback (most recent call last):" in r.stderr and last.startswith("IndexError"),
          "the crash reproducer does not crash the reader: exit %d, %r" % (r.returncode, last))
    # minimised: the header's 29 bytes are all the reader reads
    check(len(open(crash["reproducer"], "rb").read()) <= 29, "crash reproducer not minimised")
if hang:
    check(hang["signature"] == "hang (still running at --timeout)", "hang signature %r" % hang["signature"])
    try:
        subprocess.run([python, "-S", reader, hang["reproducer"]], capture_output=True, timeout=5)
        check(False, "the hang reproducer ended")
    except subprocess.TimeoutExpired:
        pass
for s in report["sites"]:
    check(s["count"] >= 1 and s["reproducer"].startswith(report["findings"] + "/"), "site %r" % s)
sys.exit(0 if ok else 1)
PY
[ -f "$out/state.json" ] || die "no state.json in the findings directory"

# ---- structural minimisation: a strict E3D reader whose crash needs a
# triFaces16 block in a mesh, framed to the byte; the reproducer must come
# down to the version block and the path to it, which no cut of bytes keeps ----
mkdir -p "$tmp/e3dseed/e3d/valid"
cp "$corpus/e3d/valid/cube1_spec.e3d" "$tmp/e3dseed/e3d/valid/"
"$python" - "$corpus/manifest.json" "$tmp/e3dseed/manifest.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["cases"] = [c for c in d["cases"] if c["file"] == "e3d/valid/cube1_spec.e3d"]
json.dump(d, open(sys.argv[2], "w"))
PY
rc=0
"$mc" fuzz --loader "$python -S $here/e3d_reader.py {}" --format e3d --corpus "$tmp/e3dseed" --seed 3 --runs 16 -j 2 \
    --timeout 5 --findings "$tmp/e3d" --no-progress -o json > "$tmp/e3d.json" 2> "$tmp/err" || rc=$?
[ $rc -eq 1 ] || { die "e3d campaign: exit $rc, expected 1 (findings)"; cat "$tmp/err"; }
"$python" - "$tmp/e3d.json" "$python" "$here/e3d_reader.py" <<'PY' || fail=1
import json, subprocess, sys
report = json.load(open(sys.argv[1]))
python, reader = sys.argv[2], sys.argv[3]
crash = [s for s in report["sites"] if s["kind"] == "crash"]
ok = len(crash) == 1 and crash[0]["signature"] == "Python RuntimeError in e3d_reader.py:walk" and crash[0]["minimised"]
if ok:
    tree = subprocess.run([python, "-S", reader, "--tree", crash[0]["reproducer"]], capture_output=True, text=True)
    blocks = tree.stdout.split()
    ok = tree.returncode == 0 and blocks == ["0x0001", "0x1000", "0x1010", "0x1030"]
    if not ok:
        print("FAIL e3d: the minimised reproducer's blocks are %r, expected version, meshes, mesh, triFaces16 (%s)"
              % (blocks, tree.stderr.strip()))
else:
    print("FAIL e3d: sites %s" % json.dumps(report["sites"])[:400])
sys.exit(0 if ok else 1)
PY

# ---- every report against reports/schema/fuzz-report.schema.json: this
# test's campaigns and the published ones (fuzz/external/campaigns-*) ----
"$python" - "$here/../../reports/schema/fuzz-report.schema.json" "$tmp/report.json" "$tmp/e3d.json" \
    "$here"/../../fuzz/external/campaigns-*/*/report.json <<'PY' || fail=1
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
ok = len(sys.argv) > 4
for path in sys.argv[2:]:
    for e in v.iter_errors(json.load(open(path))):
        print("FAIL schema: %s: %s at %s" % (path, e.message, list(e.absolute_path)))
        ok = False
# a report the schema must refuse: the test of the test
bad = json.load(open(sys.argv[2]))
bad["sites"].append({"kind": "segfault", "signature": "", "count": 0, "reproducer": "x", "minimised": True})
if v.is_valid(bad):
    print("FAIL schema: a site of kind 'segfault' and count 0 passes")
    ok = False
sys.exit(0 if ok else 1)
PY

# ---- resumed: the batch after the last, the sites kept ----
rc=0
"$mc" fuzz --loader "$loader" --format semodel --corpus "$corpus" --runs 8 --timeout 3 \
    --findings "$out" --no-progress -o json > "$tmp/again.json" 2> "$tmp/err" || rc=$?
[ $rc -eq 1 ] || die "resumed: exit $rc, expected 1 (the sites found before)"
grep -q "^modelcheck fuzz: resuming .*state.json at input 32$" "$tmp/err" || die "resumed: no resuming line: $(cat "$tmp/err")"
"$python" - "$tmp/report.json" "$tmp/again.json" <<'PY' || fail=1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
ok = b["seed"] == 7 and b["executions"] == a["executions"] + 8  # counted on from the state
ok &= [s["signature"] for s in a["sites"]] == [s["signature"] for s in b["sites"]][:len(a["sites"])]
ok &= all(y["count"] >= x["count"] for x, y in zip(a["sites"], b["sites"]))
if not ok:
    print("FAIL resumed report", json.dumps(b)[:400])
sys.exit(0 if ok else 1)
PY
usage other-seed "modelcheck fuzz: $out/state.json is a campaign of --seed 7, not 8 (use another --findings)" \
    --loader "$loader" --format semodel --corpus "$corpus" --seed 8 --findings "$out"
usage other-format "modelcheck fuzz: $out/state.json is a campaign of semodel, not aem (use another --findings)" \
    --loader "$loader" --format aem --corpus "$corpus" --findings "$out"

# ---- reproducible: the same seed gives the same inputs, whatever -j and resuming ----
logger() { echo "echo \"\$(basename {}) \$(md5sum < {})\" >> $1"; }
"$mc" fuzz --loader "$(logger "$tmp/one.log")" --format aem --corpus "$corpus" --seed 5 --runs 40 \
    --findings "$tmp/one" --sandbox off --no-progress > /dev/null || die "reproducible: one run failed"
"$mc" fuzz --loader "$(logger "$tmp/two.log")" --format aem --corpus "$corpus" --seed 5 --runs 24 -j 2 \
    --findings "$tmp/two" --sandbox off --no-progress > /dev/null || die "reproducible: first half failed"
"$mc" fuzz --loader "$(logger "$tmp/two.log")" --format aem --corpus "$corpus" --runs 16 -j 3 \
    --findings "$tmp/two" --sandbox off --no-progress > /dev/null 2>&1 || die "reproducible: resumed half failed"
[ "$(sort -n "$tmp/one.log")" = "$(sort -n "$tmp/two.log")" ] && [ "$(wc -l < "$tmp/one.log")" = 40 ] ||
    die "reproducible: the inputs of one run of 40 and of 24 + 16 resumed differ"
[ "$(sort -u -k2,2 "$tmp/one.log" | wc -l)" -gt 30 ] || die "reproducible: the inputs are mostly the same"

# ---- no finding: exit 0; text report; --crash-pattern ----
rc=0
"$mc" fuzz --loader 'true {}' --format semodel --corpus "$corpus" --runs 16 --findings "$tmp/none" \
    --no-progress > "$tmp/none.txt" 2> "$tmp/err" || rc=$?
[ $rc -eq 0 ] || die "clean loader: exit $rc"
grep -q '^16 runs in .* 0 site(s)$' "$tmp/none.txt" || die "clean loader: $(cat "$tmp/none.txt")"
rc=0
"$mc" fuzz --loader 'echo "panic: index out of range [3]" >&2; exit 2 #{}' --format semodel --corpus "$corpus" \
    --runs 16 --findings "$tmp/pattern" --crash-pattern 'panic: [a-z ]+' --no-progress --no-minimise -o json \
    > "$tmp/pattern.json" 2> "$tmp/err" || rc=$?
[ $rc -eq 1 ] || die "crash pattern: exit $rc"
"$python" -c '
import json, sys
s = json.load(open(sys.argv[1]))["sites"]
ok = len(s) == 1 and s[0]["kind"] == "crash" and s[0]["count"] == 16 and s[0]["minimised"] is False and \
     s[0]["signature"] == "stderr matched --crash-pattern: panic: index out of range "
sys.exit(0 if ok else print("FAIL crash pattern", s) or 1)' "$tmp/pattern.json" || fail=1

# the HTML report: the same sites in a table, markup escaped
rc=0
"$mc" fuzz --loader 'echo "panic: <b>" >&2; exit 2 #{}' --format semodel --corpus "$corpus" --runs 4 \
    --findings "$tmp/html" --crash-pattern 'panic: .*' --no-progress --no-minimise -o html > "$tmp/r.html" 2> "$tmp/err" || rc=$?
[ $rc -eq 1 ] || die "html: exit $rc"
grep -q '<td>crash</td><td>4</td><td><code>stderr matched --crash-pattern: panic: &lt;b&gt;</code>' "$tmp/r.html" ||
    die "html: no escaped site row"

# ---- --diff lenient: a loader accepting everything contradicts the validator ----
rc=0
"$mc" fuzz --loader 'true {}' --format semodel --corpus "$corpus" --runs 16 --findings "$tmp/diff" \
    --diff lenient --no-progress --no-minimise -o json > "$tmp/diff.json" 2> "$tmp/err" || rc=$?
[ $rc -eq 1 ] || die "diff: exit $rc"
"$python" -c '
import json, sys
s = json.load(open(sys.argv[1]))["sites"]
ok = s and all(x["kind"] == "disagreement" and x["signature"].startswith("lenient: accepted a file with ") for x in s)
sys.exit(0 if ok else print("FAIL diff", s) or 1)' "$tmp/diff.json" || fail=1

# ---- oom: over --max-memory, killed ----
rc=0
"$mc" fuzz --loader "$python -S -c 'import time; b = b\"x\" * (200 << 20); time.sleep(5)' #{}" --format nlm \
    --corpus "$corpus" --runs 2 --max-memory 67108864 --timeout 20 --findings "$tmp/oom" --no-progress \
    -o json > "$tmp/oom.json" 2> "$tmp/err" || rc=$?
[ $rc -eq 1 ] || die "oom: exit $rc"
"$python" -c '
import json, sys
s = json.load(open(sys.argv[1]))["sites"]
ok = len(s) == 1 and s[0]["kind"] == "oom" and s[0]["signature"] == "out of memory (over --max-memory)" and s[0]["count"] == 2
sys.exit(0 if ok else print("FAIL oom", s) or 1)' "$tmp/oom.json" || fail=1

# ---- certify names a Mono crash by its exception, not "SIGABRT (no sanitizer report)" ----
cat > "$tmp/mono.sh" <<'SH'
printf '[ERROR] FATAL UNHANDLED EXCEPTION: System.IndexOutOfRangeException: Index was outside the bounds of the array.\n  at Reader.ReadMesh (System.IO.BinaryReader r) [0x00012] in <8f1c>:0\n' >&2
kill -ABRT $$
SH
rc=0
"$mc" certify --loader "sh $tmp/mono.sh {}" --format semodel --corpus "$corpus" --keep-going -o json \
    > "$tmp/cert.json" 2> "$tmp/err" || rc=$?
[ $rc -eq 1 ] || die "certify: exit $rc: $(cat "$tmp/err")"
"$python" -c '
import json, sys
s = json.load(open(sys.argv[1]))["crash_sites"]
ok = len(s) == 1 and s[0]["site"] == ".NET System.IndexOutOfRangeException in Reader.ReadMesh"
sys.exit(0 if ok else print("FAIL certify crash site", s) or 1)' "$tmp/cert.json" || fail=1

[ $fail -eq 0 ] && echo "fuzz: usage errors, a campaign finding the planted crash and hang, resumed, reproducible, pattern, html, diff, oom, certify's exception site"
exit $fail
