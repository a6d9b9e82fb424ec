#!/usr/bin/env bash
# The environment around the files (issue 18): FIFOs, files that change while
# they are read, output that cannot be written, hostile file names, deep
# trees, large standard input, reports over many files.
# usage: harden_test.sh MODELCHECK MC_CORPUSGEN PYTHON
set -uo pipefail
mc=$1 gen=$2 py=$3
. "$(dirname "$0")/common.sh"
MC_TEST_TIMEOUT=10 # FIFOs: a hang is the bug

asan=0 # (grep -q under pipefail would fail the pipe when ldd gets SIGPIPE)
case "$(ldd "$mc" 2>/dev/null)" in *libasan*) asan=1 ;; esac

"$gen" "$tmp/corpus" >/dev/null || { echo "cannot generate corpus"; exit 1; }
valid=$tmp/corpus/aem/valid/skinned_animated.aem
weights=$tmp/corpus/aem/invalid/weights_sum_0_93.aem

# ---- 1. FIFOs: IO_NOT_REGULAR at once, named or met in a walk ----
mkdir "$tmp/fifo"
cp "$valid" "$tmp/fifo/a.aem"
mkfifo "$tmp/fifo/b.pipe"
expect fifo-named 3 "$mc" "$tmp/fifo/b.pipe"
contains fifo-named-code "$tmp/err" "cannot validate a FIFO"
expect fifo-walk 3 "$mc" "$tmp/fifo"
contains fifo-walk-other "$tmp/out" "$tmp/fifo/a.aem: aem (aem1): valid"
expect fifo-json 3 "$mc" --output json "$tmp/fifo"
contains fifo-json-code "$tmp/out" '"IO_NOT_REGULAR"'

# ---- 2. a file truncated while it is read: reported, never SIGBUS ----
# (the deterministic test is unit guard/*: a hook truncates between mapping
# and reading; this is the race as a user meets it, a second process cutting
# the file while the digest reads it)
mkdir "$tmp/race"
cp "$valid" "$tmp/race/a.aem"; cp "$valid" "$tmp/race/z.aem"
{ printf 'AEM\001'; head -c 67108860 /dev/zero; } >"$tmp/race/m.aem"
( sleep 0.05; truncate -s 100 "$tmp/race/m.aem" ) &
timeout -s KILL 60 "$mc" -j 1 --output json "$tmp/race" >"$tmp/out" 2>"$tmp/err"
got=$?
wait
case $got in
    1|3) ok ;; # 3: cut while read; 1: cut before it was opened (a 100-byte AEM)
    *) fail "race: exit $got (135 is SIGBUS)"; head -3 "$tmp/err" ;;
esac
"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [f["valid"] for f in d["files"]][::2] == [True, True], d["files"]' "$tmp/out" \
    && ok || fail "race: the other files' reports are not intact"
# the cut may land under the mapping or after the reads, before the size is
# checked again: both are "changed while it was being read" (which one is timing)
[ "$got" -ne 3 ] || contains race-msg "$tmp/err" "m.aem: file changed while it was being read ("

# ---- 3. output that cannot be written: one line, exit 4, never a silent 0 ----
for kind in text json sarif; do
    expect full-$kind 4 bash -c '"$0" --output "$1" "$2" >/dev/full' "$mc" $kind "$valid"
    one_line full-$kind-msg "$tmp/err"
    contains full-$kind-why "$tmp/err" "modelcheck: cannot write standard output: No space left on device"
    expect closed-$kind 4 bash -c '"$0" --output "$1" "$2" >&-' "$mc" $kind "$valid"
    contains closed-$kind-why "$tmp/err" "modelcheck: cannot write standard output: Bad file descriptor"
done
expect full-invalid 4 bash -c '"$0" "$1" >/dev/full' "$mc" "$weights" # 4 wins over 1
expect full-help 4 bash -c '"$0" --help >/dev/full' "$mc"
# certify runs every NLM case, each in a child that takes 40-80 ms to exit
# under ASan (its leak check): some 8 s a run, too close to the FIFOs' 10 s
MC_TEST_TIMEOUT=60
expect full-certify 4 "$mc" certify --reference -f nlm -c "$tmp/corpus" --json /dev/full
contains full-certify-why "$tmp/err" "modelcheck certify: cannot write /dev/full: No space left on device"
expect certify-no-dir 4 "$mc" certify --reference -f nlm -c "$tmp/corpus" --report "$tmp/no/such/dir.txt"
contains certify-no-dir-why "$tmp/err" "cannot write $tmp/no/such/dir.txt: No such file or directory"
for kind in text json junit html; do # certify's report on standard output: one line too
    expect certify-full-$kind 4 bash -c '"$0" certify --reference -f nlm -c "$1" -o "$2" >/dev/full' "$mc" "$tmp/corpus" $kind
    one_line certify-full-$kind-msg "$tmp/err"
    contains certify-full-$kind-why "$tmp/err" "modelcheck certify: cannot write standard output: No space left on device"
    expect certify-closed-$kind 4 bash -c '"$0" certify --reference -f nlm -c "$1" -o "$2" >&-' "$mc" "$tmp/corpus" $kind
    one_line certify-closed-$kind-msg "$tmp/err"
    contains certify-closed-$kind-why "$tmp/err" "modelcheck certify: cannot write standard output: Bad file descriptor"
done
expect certify-help-full 4 bash -c '"$0" certify --help >/dev/full' "$mc"
MC_TEST_TIMEOUT=10
one_line certify-help-full-msg "$tmp/err"
# a reader that stops early: SIGPIPE, as for any Unix tool (README); the
# report over the corpus is far larger than a pipe's buffer
expect closed-pipe 141 bash -c '"$0" --output json "$1" | head -c 1 >/dev/null; exit "${PIPESTATUS[0]}"' "$mc" "$tmp/corpus"

# ---- 4, 7. hostile file names: JSON stays UTF-8 and exact, text is quoted ----
names=$tmp/names
mkdir "$names"
cp "$valid" "$names/$(printf 'new\nline.aem')"
cp "$weights" "$names/$(printf 'esc\033[2Jape.aem')"
cp "$valid" "$names/$(printf 'caf\351.aem')"      # Latin-1, not UTF-8
cp "$valid" "$names/$(printf 'caf\303\251.aem')" # UTF-8
cp "$valid" "$names/100%.aem"
expect names-text 1 "$mc" "$names"
contains names-newline "$tmp/out" "\"$names/new\\nline.aem\": aem (aem1): valid"
contains names-escape "$tmp/out" "\"$names/esc\\x1B[2Jape.aem\":0x23c: error: AEM_WEIGHT_SUM"
contains names-latin1 "$tmp/out" "\"$names/caf\\xE9.aem\": aem (aem1): valid"
contains names-utf8 "$tmp/out" "$names/$(printf 'caf\303\251.aem'): aem (aem1): valid"
contains names-percent "$tmp/out" "$names/100%.aem: aem (aem1): valid"
[ "$(wc -l <"$tmp/out")" -eq 7 ] && ok || fail "names-text: $(wc -l <"$tmp/out") lines, expected 7 (5 files, 1 issue, summary)"
if LC_ALL=C grep -q "$(printf '\033')" "$tmp/out" "$tmp/err"; then fail "names: an escape byte reached the terminal"; else ok; fi
expect names-stderr 3 "$mc" "$names/$(printf 'gone\033[2J.aem')"
contains names-stderr-quoted "$tmp/err" "modelcheck: \"$names/gone\\x1B[2J.aem\": cannot open"
# a quote or a backslash alone is quoted too (git's rule): a name that is
# literally the quoted form of another does not print like it; a bidi control
# is escaped as its code point
look=$tmp/lookalike
mkdir "$look"
cp "$valid" "$look/\"evil\\x1B[2J.aem\""
cp "$valid" "$look/$(printf 'a\342\200\256mea.aem')" # U+202E RIGHT-TO-LEFT OVERRIDE
expect names-lookalike 0 "$mc" "$look"
contains names-lookalike-quote "$tmp/out" "\"$look/\\\"evil\\\\x1B[2J.aem\\\"\": aem (aem1): valid"
contains names-lookalike-bidi "$tmp/out" "\"$look/a\\u202Emea.aem\": aem (aem1): valid"
if LC_ALL=C grep -q "$(printf '\342\200\256')" "$tmp/out"; then fail "names: a bidi control reached the terminal"; else ok; fi
for kind in json sarif; do
    expect names-$kind 1 "$mc" --output $kind "$names"
    cp "$tmp/out" "$tmp/names.$kind"
done
"$py" - "$tmp/names.json" "$tmp/names.sarif" "$names" <<'PY' && ok || fail "names: JSON paths"
import json, sys
from urllib.parse import unquote_to_bytes
report = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))  # strict UTF-8
sarif = json.loads(open(sys.argv[2], "rb").read().decode("utf-8"))
base = sys.argv[3].encode()
got = sorted(unquote_to_bytes(f["path"]) if f.get("path_escaped") else f["path"].encode()
             for f in report["files"])
want = sorted(base + b"/" + n for n in [b"new\nline.aem", b"esc\x1b[2Jape.aem", b"caf\xe9.aem",
                                        "caf\u00e9.aem".encode(), b"100%.aem"])
assert got == want, (got, want)
escaped = [f["path"] for f in report["files"] if f.get("path_escaped")]
assert escaped == [sys.argv[3] + "/caf%E9.aem"], escaped
assert [f for f in report["files"] if f["path"].endswith("100%.aem")], "a valid name was changed"
uris = sorted(unquote_to_bytes(a["location"]["uri"].removeprefix("file://"))
              for a in sarif["runs"][0]["artifacts"])
assert uris == want, uris
PY
# certificates: a corpus directory whose name is not UTF-8
cp -r "$tmp/corpus" "$tmp/$(printf 'corpus\377')"
expect names-certify 0 "$mc" certify --reference -f nlm -c "$tmp/$(printf 'corpus\377')" --json "$tmp/cert.json"
"$py" -c 'import json,sys; d=json.loads(open(sys.argv[1],"rb").read().decode("utf-8")); c=d["corpus"]; assert c["dir"].endswith("/corpus%FF") and c["dir_escaped"] is True, c' "$tmp/cert.json" && ok || fail "names-certify: corpus dir"
# certify's text report and its stderr quote the corpus directory and the
# loader or exporter command; JSON keeps them exact
escdir=$tmp/$(printf 'corpus\033[2J')
cp -r "$tmp/corpus" "$escdir"
expect certify-dir-text 0 "$mc" certify --reference -f nlm -c "$escdir" --json "$tmp/cert.json"
contains certify-dir-quoted "$tmp/out" "reference loader 'built-in reference loaders', corpus \"$tmp/corpus\\x1B[2J\" ("
"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["corpus"]["dir"] == sys.argv[2], d["corpus"]' "$tmp/cert.json" "$escdir" \
    && ok || fail "certify-dir-json: not exact"
expect certify-dir-stderr 2 "$mc" certify --reference -c "$escdir/nope"
contains certify-dir-stderr-quoted "$tmp/err" "modelcheck certify: bad corpus: \"$tmp/corpus\\x1B[2J/nope\": No such file or directory"
expect certify-loader-text 1 "$mc" certify --keep-going --loader "$(printf 'true \033[2J')" -f nlm -c "$tmp/corpus"
contains certify-loader-quoted "$tmp/out" "modelcheck certify: command loader \"true \\x1B[2J\", corpus $tmp/corpus ("
expect certify-library-stderr 2 "$mc" certify --library "$tmp/$(printf 'lib\033[2J.so')"
contains certify-library-quoted "$tmp/err" "modelcheck certify: cannot load \"$tmp/lib\\x1B[2J.so\": "
expect certify-exporter-text 1 "$mc" certify --exporter "$(printf 'false \033[2J {in} {out}')" --format aem --scene cube
contains certify-exporter-quoted "$tmp/out" "modelcheck certify: exporter \"false \\x1B[2J {in} {out}\" to aem"
expect certify-scene-stderr 2 "$mc" certify --exporter 'false {in} {out}' --format aem --scene "$(printf 'no\033[2J')"
contains certify-scene-quoted "$tmp/err" "no scene named '\"no\\x1B[2J\"'"
if LC_ALL=C grep -q "$(printf '\033')" "$tmp/out" "$tmp/err"; then fail "certify: an escape byte reached the terminal"; else ok; fi

# ---- 5. no silent depth limit: a bad file 100 directories down is found ----
deep=$tmp/deep
d=$deep
for i in $(seq 1 100); do d=$d/d; done
mkdir -p "$d"
cp "$weights" "$d/bad.aem"
cp "$valid" "$deep/good.aem"
expect deep-walk 1 "$mc" "$deep"
contains deep-found "$tmp/out" "$d/bad.aem:0x23c: error: AEM_WEIGHT_SUM"
contains deep-summary "$tmp/out" "2 files checked: 1 valid, 1 invalid"
# order: depth first, by name, as before (d/... before good.aem)
[ "$(grep -c ': aem (aem1)' "$tmp/out")" -eq 2 ] && [ "$(grep ': aem (aem1)' "$tmp/out" | head -1 | grep -c bad.aem)" -eq 1 ] \
    && ok || fail "deep-order: not depth first by name"

# ---- 6. standard input: never more than the limit in memory, a true message ----
expect stdin-large 1 bash -c 'head -c 5000 /dev/zero | "$0" --max-file-bytes 1000 -' "$mc"
contains stdin-large-msg "$tmp/out" "FILE_TOO_LARGE: standard input is longer than the limit of 1000 bytes (reading stopped at byte 1001)"
if [ "$asan" -eq 1 ]; then
    ok # ASan's allocator keeps freed blocks and its own shadow: no bound on memory to assert
else
    # a 32 MiB limit in a 64 MiB address space: reading one doubling past the
    # limit (64 MiB) runs out of memory, reading to the limit does not
    expect stdin-bounded 1 bash -c 'ulimit -v 65536; head -c 100000000 /dev/zero | "$0" --max-file-bytes 33554432 -' "$mc"
fi

echo "harden: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
