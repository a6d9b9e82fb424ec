#!/usr/bin/env python3
"""ctest exporter_certify: `modelcheck certify --exporter` gives each toy
exporter (tests/exporters/toy_export.c) exactly the verdict it deserves.

usage: exporter_certify.py MODELCHECK TOY_EXPORT CERT_SCHEMA SCENES_SCHEMA SCENES_JSON
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import jsonschema

mc, toy, cert_schema_path, scenes_schema_path, scenes_json = sys.argv[1:6]
cert_schema = json.load(open(cert_schema_path))
failures = []
passed = 0
tmp = tempfile.mkdtemp(prefix="mcx-test-")


def check(cond, what):
    global passed
    if cond:
        passed += 1
    else:
        failures.append(what)
        print("FAIL:", what)


def certify(fmt, bug=None, extra=(), command=None, name="run", cwd=None):
    """Runs certify (in cwd); returns (exit code, JSON document, stdout and stderr)."""
    cmd = command or f"{toy} --format {fmt}{' --bug ' + bug if bug else ''} {{in}} {{out}}"
    out = os.path.join(tmp, name + ".json")
    args = [mc, "certify", "--exporter", cmd, "--format", fmt, "-j", "2", "-t", "20",
            "--json", out, "--output", "text", *extra]
    p = subprocess.run(args, capture_output=True, text=True, cwd=cwd)
    doc = json.load(open(out)) if os.path.exists(out) else None
    if doc is not None:
        try:
            jsonschema.validate(doc, cert_schema)
        except jsonschema.ValidationError as e:
            check(False, f"{name}: JSON certificate breaks the schema: {e.message}")
    return p.returncode, doc, p.stdout + p.stderr


def verdicts(doc):
    return {c["scene"]: c for c in doc["cases"]}


# The scenes manifest follows its schema.
jsonschema.validate(json.load(open(scenes_json)), json.load(open(scenes_schema_path)))
passed += 1

# 1. The correct exporters: everything conforming or correctly refused.
expected_refusals = {"aem": {"empty"}, "aamf": {"empty", "many_vertices", "far_coordinates", "bones_300"},
                     "nlm": {"empty", "bones_255", "bones_256", "bones_300", "chain_128"}, "semodel": {"empty"},
                     "e3d": {"empty", "bones_256", "bones_300", "chain_128"}}
correct = {}  # format -> the correct toy's cases, by scene
for fmt, refused in expected_refusals.items():
    junit = os.path.join(tmp, fmt + ".xml")
    html = os.path.join(tmp, fmt + ".html")
    rc, doc, out = certify(fmt, extra=("--junit", junit, "--html", html), name="correct-" + fmt)
    check(rc == 0, f"correct {fmt}: exit {rc}, expected 0\n{out}")
    cases = correct[fmt] = verdicts(doc)
    check(len(cases) == 25, f"correct {fmt}: {len(cases)} cases")
    for scene, c in cases.items():
        want = "refused" if scene in refused else "conforming"
        check(c["verdict"] == want, f"correct {fmt} {scene}: {c['verdict']} ({c['detail']}), expected {want}")
    check(doc["total"]["score"] == 100.0 and doc["total"]["conforming"], f"correct {fmt}: score {doc['total']}")
    suite = ET.parse(junit).getroot().find("testsuite")
    check(suite.get("failures") == "0" and suite.get("tests") == "25", f"correct {fmt}: JUnit {suite.attrib}")
    check("Exporter certificate (%s): <span class=\"ok\">conforming" % fmt in open(html).read(), f"correct {fmt}: HTML")

# SEModel's 2017 draft layout (binary16 normals and weights) is graded with
# half precision: the correct exporter is 100% in it too (skin_unnormalised's
# 2/3 is 0.6665 in binary16), and bones swapped are still unfaithful.
draft = f"{toy} --format semodel --layout draft {{in}} {{out}}"
rc, doc, out = certify("semodel", command=draft, name="correct-semodel-draft")
check(rc == 0 and doc["total"]["score"] == 100.0, f"semodel draft: exit {rc}, {doc['total']}\n{out}")
for scene, c in verdicts(doc).items():
    want = "refused" if scene == "empty" else "conforming"
    check(c["verdict"] == want, f"semodel draft {scene}: {c['verdict']} ({c['detail']}), expected {want}")
check("SEMODEL_DRAFT_BLOCK_UNDEFINED" in verdicts(doc)["skin_unnormalised"]["warnings"],
      "semodel draft: the output is in the draft layout")
rc, doc, _ = certify("semodel", extra=("--scene", "joints_reversed"), name="draft-joint-index",
                     command=f"{toy} --format semodel --layout draft --bug joint-index {{in}} {{out}}")
check(verdicts(doc)["joints_reversed"]["verdict"] == "unfaithful", "semodel draft joint-index: unfaithful")

# 2. -j does not change the report.
rc1, d1, _ = certify("aamf", extra=("-j", "1"), name="j1")
rc2, d2, _ = certify("aamf", name="j2")
check(d1 == d2, "aamf: -j 1 and -j 2 certificates differ")

# 3. The broken variants: (format, bug, scene, verdict, code or finding in the case, extra options).
bugs = [
    ("aamf", "truncate-weights", "skin_1_to_4", "invalid_output", "SAMF_WEIGHT_SUM_TRUNCATED@", ()),
    ("aem", "line-range", "lines_points", "invalid_output", "AEM_MESH_RANGE@", ()),
    ("aem", "minus-one", "cube", "conforming", "AEM_MATERIAL_TEXTURE_MINUS_ONE", ()),
    ("aem", "minus-one", "cube", "invalid_output", "AEM_MATERIAL_TEXTURE_MINUS_ONE", ("--werror",)),
    ("aem", "source-order", "joints_reversed", "invalid_output", "AEM_BONE_PARENT_FORWARD@", ()),
    ("aamf", "source-order", "joints_reversed", "invalid_output", "AAMF_BONE_PARENT_FORWARD@", ()),
    ("aem", "unterminated", "names", "invalid_output", "AEM_STRING_UNTERMINATED@", ()),
    ("aem", "drop-influences", "skin_8", "invalid_output", "AEM_WEIGHT_SUM@", ()),
    ("aem", "joint-index", "joints_reversed", "unfaithful", "skin weights changed at 6 vertices", ()),
    ("aamf", "joint-index", "joints_reversed", "unfaithful", "skin weights changed at 6 vertices", ()),
    ("nlm", "joint-index", "joints_reversed", "unfaithful", "expected root=1, found tip=1", ()),
    ("semodel", "joint-index", "joints_reversed", "unfaithful", "expected root=1, found tip=1", ()),
    ("semodel", "source-order", "joints_reversed", "invalid_output", "SEMODEL_BONE_PARENT_FORWARD@", ()),
    ("nlm", "source-order", "joints_reversed", "conforming", "", ()),  # NLM nodes carry the hierarchy
    ("nlm", "drop-influences", "skin_8", "invalid_output", "NLM_WEIGHT_SUM@", ()),
    ("semodel", "drop-influences", "skin_8", "invalid_output", "SEMODEL_WEIGHT_SUM@", ()),
    ("e3d", "joint-index", "joints_reversed", "unfaithful", "expected root=1, found tip=1", ()),
    ("e3d", "truncate-weights", "skin_8", "invalid_output", "E3D_", ()),
    ("aamf", "crash-256", "bones_256", "crash", "SIGABRT", ()),
    ("aamf", "crash-256", "bones_255", "conforming", "", ()),
    ("aem", "hang-empty", "empty", "hang", "killed", ("-t", "2")),
    ("aem", "no-output", "triangle", "no_output", "no output", ()),
    ("aem", None, "cube", "crash", "SIGXFSZ", ("--max-output-bytes", "600")),
    # red and blue swapped: 5 of the quad's 6 triangle corners (not the green one); the first is red, found blue
    ("semodel", "swap-rb", "vertex_colors", "unfaithful",
     "vertex colours changed at 5 triangle corners (first scene triangle 0 corner 0 at (0 0 0): "
     "expected RGBA (1 0 0 1), found (0 0 1 1))", ()),
    ("e3d", "swap-rb", "vertex_colors", "unfaithful", "expected RGBA (1 0 0 1), found (0 0 1 1)", ()),
    ("nlm", "swap-rb", "vertex_colors", "unfaithful", "expected RGB (1 0 0), found (0 0 1)", ()),
    ("aem", "swap-rb", "vertex_colors", "conforming", "", ()),  # AEM keeps no vertex colours
]
for i, (fmt, bug, scene, want, mark, extra) in enumerate(bugs):
    rc, doc, out = certify(fmt, bug, ("--scene", scene, *extra), name=f"bug{i}")
    c = verdicts(doc)[scene]
    text = json.dumps(c)
    check(c["verdict"] == want, f"{bug} ({fmt}) on {scene}: {c['verdict']} ({c['detail']}), expected {want}")
    check(mark in text, f"{bug} ({fmt}) on {scene}: '{mark}' not named in {text[:400]}")
    check(rc == (0 if want in ("conforming", "refused") else 1), f"{bug} ({fmt}) on {scene}: exit {rc}")
    if bug == "minus-one":
        continue
    if want in ("invalid_output",):
        check(c["errors"] and c["findings"], f"{bug}: errors and findings listed")

# Animation poses in formats without a frame rate (SAMF, E3D): compared at
# 0, 37%, 62% and 100% of the output's first-to-last key span. The correct
# toy passes on every animated scene (step and cubic samplers, channels of
# different key counts, a zero-length animation, SAMF's 4.12 matrices)...
# (the full runs of section 1 hold those cases; named here so that a scene
# dropped from the set is noticed)
animated = {"skin_1_to_4", "chain_128", "joints_reversed", "two_skins", "interpolation", "animations", "names"}
for fmt in ("aamf", "e3d"):
    for scene in sorted(animated):
        c = correct[fmt].get(scene)
        want = "refused" if scene in expected_refusals[fmt] else "conforming"
        check(c is not None and c["verdict"] == want, f"correct {fmt} poses {scene}: {c and c['verdict']}, expected {want}")
# ...and one whose keyframes are all the rest pose, or in reverse order, is
# unfaithful exactly where a sample shows it, naming the animation and bone.
# The waves of the other scenes are palindromes (0, 30, 0 degrees): reversed
# they are the same animation, and faithful.
frozen = {"skin_1_to_4": "animation 'bend' at 37% of its length (0.37 s; frame 11.1 of 0..30): bone 'bone2'",
          "chain_128": "animation 'curl' at 37% of its length (0.74 s; frame 22.2 of 0..60): bone 'link64'",
          "joints_reversed": "animation 'swing' at 37% of its length (0.37 s; frame 11.1 of 0..30): bone 'tip'",
          "two_skins": "animation 'both' at 37% of its length (0.37 s; frame 11.1 of 0..30): bone 'left1'",
          "interpolation": "animation 'three_samplers' at 37% of its length (0.37 s; frame 11.1 of 0..30): bone 'bone0'",
          "animations": "animation 'pose' at 0% of its length (0 s; frame 0 of 0..0): bone 'bone1'",
          "names": "animation 'cccccccccccccccccccccccccccccccccccccccc...' at 37% of its length"}
pose_bugs = [("aamf", "anim-rest", frozen),
             ("e3d", "anim-rest", {s: f for s, f in frozen.items() if s != "chain_128"}),
             ("aamf", "anim-reversed", {"interpolation": "animation 'three_samplers' at 0% of its length (0 s; "
                                                         "frame 0 of 0..30): bone 'bone1'"}),
             ("e3d", "anim-reversed", {"interpolation": "animation 'three_samplers' at 0% of its length (0 s; "
                                                        "frame 0 of 0..30): bone 'bone2'"})]
for fmt, bug, unfaithful in pose_bugs:
    rc, doc, out = certify(fmt, bug, name=f"{fmt}-{bug}")
    check(rc == 1, f"{bug} ({fmt}): exit {rc}")
    for scene, c in verdicts(doc).items():
        want = ("unfaithful" if scene in unfaithful else "refused" if scene in expected_refusals[fmt] else "conforming")
        check(c["verdict"] == want, f"{bug} ({fmt}) on {scene}: {c['verdict']} ({c['detail']}), expected {want}")
        if scene in unfaithful:
            check(any(x.startswith(unfaithful[scene]) and " posed differently (largest matrix difference " in x
                      for x in c["findings"]), f"{bug} ({fmt}) on {scene}: findings {c['findings']}")

# A looping export (toy --loop: N frames over [0, T), frame i at i * T / N,
# the runtime wrapping from frame N - 1 to frame 0, as game exporters write
# them) is as correct as an inclusive one (N frames over [0, T]): certify
# judges each animation under both readings and is 100% conforming on it.
# Read inclusively only, skin_1_to_4, chain_128 (SAMF; E3D refuses it),
# joints_reversed, two_skins, interpolation, animations and names were
# "posed differently". interpolation does not end where it starts: a loop
# cannot hold its end pose, so its 100% sample is not compared as a loop.
for fmt in ("aamf", "e3d"):
    loop_html = os.path.join(tmp, f"{fmt}-loop.html")
    rc, doc, out = certify(fmt, command=f"{toy} --format {fmt} --loop {{in}} {{out}}", name=f"{fmt}-loop",
                           extra=("--html", loop_html))
    check(rc == 0 and doc["total"]["score"] == 100.0, f"{fmt} --loop: exit {rc}, {doc and doc['total']}\n{out}")
    for scene, c in verdicts(doc).items():
        want = "refused" if scene in expected_refusals[fmt] else "conforming"
        check(c["verdict"] == want, f"{fmt} --loop {scene}: {c['verdict']} ({c['detail']}), expected {want}")
    # the certificate says which reading it accepted: loops are named, inclusive frames not
    check(verdicts(doc)["skin_1_to_4"]["detail"] == "valid and faithful; animation 'bend' read as a loop "
          "(last frame wrapping to the first)", f"{fmt} --loop: detail {verdicts(doc)['skin_1_to_4']['detail']}")
    check("2 animations read as loops (last frame wrapping to the first; first 'walk')"
          in verdicts(doc)["animations"]["detail"], f"{fmt} --loop: detail {verdicts(doc)['animations']['detail']}")
    looping = {s for s, c in verdicts(doc).items() if " read as a loop" in c["detail"] or " read as loops" in c["detail"]}
    # named once, in the run's conventions line (no geometric convention here)
    check(doc["conventions"]["looping_cases"] == len(looping) > 0 and doc["conventions"]["loop"] == "looping" and
          f"\nconventions: animations looping, the last frame wrapping to the first ({len(looping)} cases; a runtime "
          "that does not wrap plays them one frame short)\ncertificate (" in out and out.count("animations looping") == 1,
          f"{fmt} --loop: the loop convention named once: {doc['conventions']}\n{out[-500:]}")
    page = open(loop_html).read()
    check(page.count("animations looping") == 1 and
          f'<p class="conventions">conventions: animations looping, the last frame wrapping to the first '
          f'({len(looping)} cases; a runtime that does not wrap plays them one frame short)</p>' in page,
          f"{fmt} --loop: the HTML certificate names the loop convention once")
    check(not any("read as a loop" in c["detail"] for c in correct[fmt].values()),
          f"{fmt}: the inclusive toy's frames are read as loops")
    # Frozen or reversed, it is unfaithful under both readings, and the
    # finding names both. Reversed, even the palindromic waves are: frame 0
    # of the reversed loop shows the pose one frame before the end.
    for bug in ("anim-rest", "anim-reversed"):
        unfaithful = {s for s in frozen if s not in expected_refusals[fmt]}
        rc, doc, out = certify(fmt, command=f"{toy} --format {fmt} --loop --bug {bug} {{in}} {{out}}",
                               name=f"{fmt}-loop-{bug}")
        check(rc == 1, f"{fmt} --loop --bug {bug}: exit {rc}")
        for scene, c in verdicts(doc).items():
            want = ("unfaithful" if scene in unfaithful else "refused" if scene in expected_refusals[fmt]
                    else "conforming")
            check(c["verdict"] == want, f"{fmt} --loop --bug {bug} on {scene}: {c['verdict']} ({c['detail']}), "
                  f"expected {want}")
            if scene in unfaithful:
                check(any(" posed differently (largest matrix difference " in x and "; read as a loop (frame " in x
                          for x in c["findings"]), f"{fmt} --loop --bug {bug} on {scene}: findings {c['findings']}")

# The reading of the frames is a convention of the run, held for every
# scene like the geometric ones: an exporter that loops the clips of some
# scenes and ends the others' on the end pose (--bug loop-some: the scenes
# of several animations written the other way) is unfaithful in the odd ones
# out, the first finding saying why and each animation's that the other
# reading matches; the run's reading is the one most scenes need (5 scenes
# of one animation in SAMF, 4 in E3D, which refuses chain_128: not one of
# them is the same under both readings in E3D's --loop-less run).
for fmt in ("aamf", "e3d"):
    for loop, run_reading in (("", "end"), (" --loop", "looping")):
        rc, doc, out = certify(fmt, command=f"{toy} --format {fmt}{loop} --bug loop-some {{in}} {{out}}",
                               name=f"{fmt}-loop-some{loop}")
        v = verdicts(doc)
        odd = {s for s, c in v.items() if c["verdict"] not in ("conforming", "refused")}
        check(rc == 1 and odd == {"animations", "names"} and doc["conventions"]["loop"] == run_reading,
              f"{fmt}{loop} loop-some: exit {rc}, odd {sorted(odd)}, {doc['conventions']}")
        first = v["names"]["findings"][0] if v["names"]["findings"] else ""
        if run_reading == "end":
            check(first.startswith("animation frames written as a loop (the last frame wrapping to the first), where "
                                   "the run's other scenes end on the last frame (") and
                  first.endswith(" scenes): one reading holds for every scene") and
                  all(f.endswith("; it matches read as a loop (the last frame wrapping to the first)")
                      for f in v["names"]["findings"][1:]) and v["names"]["finding_count"] == 6,
                  f"{fmt} loop-some: names findings {v['names']['findings']}")
            check("animations looping" not in out, f"{fmt} loop-some: no loop convention named: {out[-400:]}")
        else:
            check(first.startswith("animation frames written with the last frame at the end of the clip, where the "
                                   "run's other scenes loop (the last frame wrapping to the first: ") and
                  all(" read as a loop at " in f and f.endswith("; it matches with its last frame at the end of the clip")
                      for f in v["names"]["findings"][1:]),
                  f"{fmt} --loop loop-some: names findings {v['names']['findings']}")
            check(out.count("\nconventions: animations looping, the last frame wrapping to the first (") == 1,
                  f"{fmt} --loop loop-some: the run's reading named: {out[-400:]}")
# --convention loop=yes|no demands a reading: the inclusive toy fails loop=yes
# where the readings differ, the looping one loop=no, and each passes its own.
for fmt in ("aamf", "e3d"):
    for loop, demand, bad in (("", "loop=yes", {"skin_1_to_4", "joints_reversed", "two_skins", "interpolation",
                                                "animations", "names"}),
                              (" --loop", "loop=no", {"skin_1_to_4", "chain_128", "joints_reversed", "two_skins",
                                                      "interpolation", "animations", "names"}),
                              (" --loop", "loop=yes", set()), ("", "loop=no", set())):
        bad = bad - expected_refusals[fmt]
        rc, doc, out = certify(fmt, command=f"{toy} --format {fmt}{loop} {{in}} {{out}}", extra=("--convention", demand),
                               name=f"{fmt}-demand{loop}-{demand}")
        v = verdicts(doc)
        got = {s for s, c in v.items() if c["verdict"] not in ("conforming", "refused")}
        check(rc == (1 if bad else 0) and got == bad and doc["conventions"]["demanded"] and
              doc["conventions"]["loop"] == ("looping" if demand == "loop=yes" else "end"),
              f"{fmt}{loop} --convention {demand}: exit {rc}, unfaithful {sorted(got)}, expected {sorted(bad)}")
        other = ("; it matches with its last frame at the end of the clip" if demand == "loop=yes"
                 else "; it matches read as a loop (the last frame wrapping to the first)")
        check(all(f.endswith(other) for s in got for f in v[s]["findings"]), f"{fmt}{loop} {demand}: findings")
        if demand == "loop=yes" and not bad:
            check("\nconventions (demanded): animations looping, the last frame wrapping to the first (" in out,
                  f"{fmt} --loop loop=yes: named as demanded: {out[-300:]}")

# A zero-length animation (animations' 'pose'): AEM and NLM cannot store one
# (their specs want a duration > 0: AEM_ANIMATION_DURATION,
# NLM_ANIMATION_DURATION), so for AEM the scene is lossy (scenes.json) and an
# output without it conforms, naming what the format keeps; SAMF and E3D store
# it (one frame), so dropping it there is a loss.
scene_doc = {s["name"]: s for s in json.load(open(scenes_json))["scenes"]}
check(scene_doc["animations"]["formats"]["aem"] == {
    "fit": "lossy", "note": "a zero-length animation cannot be stored (its duration must be > 0)"} and
      scene_doc["animations"]["formats"]["aamf"]["fit"] == "fits" and
      scene_doc["animations"]["formats"]["e3d"]["fit"] == "fits", f"scenes.json animations: {scene_doc['animations']}")
check(correct["aem"]["animations"]["detail"].startswith(
    "valid and faithful to what the format keeps (a zero-length animation cannot be stored (its duration must be > 0))"),
      f"aem animations: {correct['aem']['animations']['detail']}")
for fmt, want, finding in (("aamf", "unfaithful", "animation 'pose' lost"), ("e3d", "unfaithful", "animation 'pose' lost"),
                           ("aem", "conforming", None)):
    rc, doc, out = certify(fmt, "drop-still", ("--scene", "animations"), name=f"drop-still-{fmt}")
    c = verdicts(doc)["animations"]
    check(c["verdict"] == want and (finding is None or c["findings"] == ["2 animations (expected 3)", finding]),
          f"drop-still ({fmt}): {c['verdict']} {c['findings']}")

# JUnit and HTML of failing runs: a crash with its stderr tail, an invalid
# output with its findings, skipped scenes; each well-formed and naming them.
for name, fmt, bug, extra, want in (("rep-crash", "aamf", "crash-256", (), "crash"),
                                    ("rep-invalid", "aem", "drop-influences", (), "invalid_output"),
                                    ("rep-skip", "aem", None, ("--scene-format", "obj"), "skipped")):
    junit, html = os.path.join(tmp, name + ".xml"), os.path.join(tmp, name + ".html")
    rc, doc, _ = certify(fmt, bug, ("--junit", junit, "--html", html, *extra), name=name)
    bad = [c for c in doc["cases"] if c["verdict"] == want]
    check(bad, f"{name}: a case with verdict {want}")
    suite = ET.parse(junit).getroot().find("testsuite")
    tag = "skipped" if want == "skipped" else "failure"
    named = {tc.get("name") for tc in suite.iter("testcase") if tc.find(tag) is not None}
    check(named == {c["scene"] for c in bad}, f"{name}: JUnit {tag} elements {sorted(named)}")
    page = open(html).read()
    check(all(c["scene"] in page for c in bad) and page.rstrip().endswith("</html>"), f"{name}: HTML names the cases")

# Validator warnings on a conforming output are named in every report, not
# only in JSON: text, JUnit (system-out) and HTML.
junit, html = os.path.join(tmp, "warned.xml"), os.path.join(tmp, "warned.html")
rc, doc, out = certify("aem", "minus-one", ("--scene", "cube", "--junit", junit, "--html", html), name="warned")
line = next((l for l in out.splitlines() if l.startswith("conforming     cube: ")), "")
check(rc == 0 and "AEM_MATERIAL_TEXTURE_MINUS_ONE at 0x" in line and " warnings: " in line,
      f"minus-one: the text report names the warning on the conforming case: {out}")
check("1 conforming case with validator warnings" in out, f"minus-one: the text summary counts it: {out}")
tc = ET.parse(junit).getroot().find("testsuite").find("testcase")
so = tc.find("system-out")
check(tc.find("failure") is None and so is not None and "AEM_MATERIAL_TEXTURE_MINUS_ONE at 0x" in so.text,
      f"minus-one: JUnit passes the case and names the warning in system-out: {ET.tostring(tc)}")
page = open(html).read()
check("Conforming cases with validator warnings" in page and "AEM_MATERIAL_TEXTURE_MINUS_ONE at 0x" in page,
      "minus-one: the HTML page names the warning")
check(verdicts(doc)["cube"]["detail"].startswith("valid and faithful; 2 warnings: "),
      f"minus-one: detail {verdicts(doc)['cube']['detail']}")

# Reports do not depend on the temporary directories: an exporter that prints
# its paths (also resolved, through a TMPDIR that is a link, and so much that
# the runner's 4 KiB tail starts inside one) gives byte-identical reports.
real_tmp = os.path.join(tmp, "real-tmp")
os.makedirs(real_tmp)
os.symlink(real_tmp, os.path.join(tmp, "link-tmp"))
noisy = ('echo "reading {in} writing {out} in $(pwd -P)" >&2; '
         'i=0; while [ $i -lt 60 ]; do echo "$i {in}" >&2; i=$((i+1)); done; '
         'echo "cannot convert {in} to {out} in $(pwd -P)" >&2; exit 3')
runs = []
for k in (1, 2):
    files = {kind: os.path.join(tmp, f"noisy{k}.{kind}") for kind in ("json", "xml", "html", "txt")}
    p = subprocess.run([mc, "certify", "--exporter", noisy, "--format", "aem", "--scene", "triangle",
                        "--json", files["json"], "--junit", files["xml"], "--html", files["html"],
                        "--text", files["txt"]], capture_output=True, text=True,
                       env={**os.environ, "TMPDIR": os.path.join(tmp, "link-tmp")})
    check(p.returncode == 1, f"noisy run {k}: exit {p.returncode}: {p.stderr}")
    runs.append({kind: open(f, "rb").read() for kind, f in files.items()})
for kind in ("json", "xml", "html", "txt"):
    check(runs[0][kind] == runs[1][kind], f"noisy: the two {kind} reports differ")
    check(b"mc-certify-" not in runs[0][kind] and real_tmp.encode() not in runs[0][kind],
          f"noisy: the {kind} report names a temporary path")
case = json.loads(runs[0]["json"])["cases"][0]
# (the placeholders are replaced by shell-quoted paths, which echo "..." prints with their quotes)
check(case["detail"] == "refused a scene the format can hold (exit 3): cannot convert '{dir}/triangle.gltf' to "
      "'{dir}/triangle.aem' in {dir}", f"noisy: detail {case['detail']}")
check(case["stderr_tail"].startswith("...\n") and "\n59 '{dir}/triangle.gltf'\n" in case["stderr_tail"],
      f"noisy: the cut tail starts at a whole line: {case['stderr_tail'][:120]}")

# The correct exporter has no -1 sentinel warning.
rc, doc, _ = certify("aem", extra=("--scene", "cube"), name="cube")
check("AEM_MATERIAL_TEXTURE_MINUS_ONE" not in verdicts(doc)["cube"]["warnings"], "correct aem writes 255, not -1")

# 4. Refusals: a non-zero exit is correct only where the format cannot hold the scene.
for scene, want in (("triangle", "failed"), ("empty", "refused"), ("far_coordinates", "failed")):
    rc, doc, _ = certify("aem", extra=("--scene", scene), command="false {in} {out}", name="false-" + scene)
    check(verdicts(doc)[scene]["verdict"] == want, f"'false' on {scene}: {verdicts(doc)[scene]['verdict']}, expected {want}")
rc, doc, _ = certify("aamf", extra=("--scene", "far_coordinates"), command="false {in} {out}", name="false-far")
check(verdicts(doc)["far_coordinates"]["verdict"] == "refused", "aamf far_coordinates refusal is correct")
# A refusal that says why is credited only when it names the format's reason
# (docs/CERTIFY.md, Verdicts: the words of each reason, as whole words in any
# case, camelCase split). Wrong reasons whose letters merely contain such a
# word are not (they were, when words were matched anywhere: "convert" holds
# "vert", "pipeline" "line", "pointer" "point", "orange" "range", "filename"
# "name"); the format's reason in other words is.
refusals = [
    ("aamf", "many_vertices", "toy: cannot convert this scene", "failed"),
    ("aamf", "lines_points", "error in the export pipeline", "failed"),
    ("aamf", "lines_points", "null pointer dereference avoided", "failed"),
    ("aamf", "far_coordinates", "no orange materials, sorry", "failed"),
    ("aamf", "bones_300", "skinned meshes are not supported", "failed"),
    ("aem", "names", "filename too long", "failed"),
    ("aem", "animations", "cannot export animation pose", "failed"),
    ("aamf", "many_vertices", "mesh exceeds the 65536 limit of 16-bit indices", "refused"),
    ("aamf", "lines_points", "Line segments are not supported", "refused"),
    ("aamf", "bones_300", "TooManyJointsError: 300 > 256", "refused"),
    ("aamf", "far_coordinates", "positions out of range for 4.12", "refused"),
    ("aem", "animations", "zero-length animation pose cannot be stored", "refused"),
    ("aem", "animations", "animation pose: duration 0", "refused"),
    ("e3d", "chain_128", "skeleton hierarchy too deep", "refused"),
    ("nlm", "empty", "ValueError: scene has no meshes", "refused"),
    ("nlm", "skin_8", "Weights beyond 4 per vertex", "refused"),
]
for i, (fmt, scene, said, want) in enumerate(refusals):
    rc, doc, _ = certify(fmt, extra=("--scene", scene), command=f"echo '{said}' >&2; exit 1 # {{in}} {{out}}",
                         name=f"reason{i}")
    c = verdicts(doc)[scene]
    check(c["verdict"] == want and (want == "refused" or c["detail"].startswith(
        f"refused for another reason than the format's ({c['fit_note']}): it said: {said}")),
          f"refusal '{said}' of {scene} ({fmt}): {c['verdict']} ({c['detail']}), expected {want}")

# 5. Scene forms, --output-name, {stem}, {dir}.
for form in ("glb", "gltf-separate"):
    rc, doc, out = certify("aem", extra=("--scene-format", form, "--scene", "textures"), name="form-" + form)
    check(rc == 0 and verdicts(doc)["textures"]["verdict"] == "conforming", f"{form}: {out}")
rc, doc, _ = certify("aem", extra=("--scene-format", "obj", "--scene", "skin_1_to_4"), name="obj-skin")
check(verdicts(doc)["skin_1_to_4"]["verdict"] == "skipped", "obj: a skinned scene is skipped")
rc, doc, _ = certify("aem", extra=("--scene-format", "obj", "--scene", "cube"),
                     command=": {out}; case {in} in *.obj) test -f {in} && exit 3;; esac", name="obj-cube")
check(verdicts(doc)["cube"]["exit_code"] == 3, "obj: the exporter is handed cube.obj")
rc, doc, out = certify("aem", extra=("--scene", "triangle", "--output-name", "out_{stem}.aem"),
                       command=f"cd {{dir}} && {toy} --format aem {{in}} out_{{stem}}.aem", name="output-name")
check(rc == 0 and verdicts(doc)["triangle"]["verdict"] == "conforming", f"--output-name: {out}")

# 6. Relative paths, as a new user writes them: the program (./toy_export)
# and an interpreter's script (python3 py_export_nlm.py) are made absolute;
# the reports show the command as given.
toy_dir, toy_name = os.path.split(toy)
rc, doc, out = certify("aem", extra=("--scene", "cube"), command=f"./{toy_name} --format aem {{in}} {{out}}",
                       name="relative-program", cwd=toy_dir)
check(rc == 0 and verdicts(doc)["cube"]["verdict"] == "conforming", f"./toy_export: exit {rc}\n{out}")
check(doc["exporter"]["command"] == f"./{toy_name} --format aem {{in}} {{out}}", "the report shows the command as given")
for command, word, advice in ((f"{toy_name} --format aem {{in}} {{out}}", toy_name, f"write ./{toy_name}"),
                              (f"./{toy_name} --format aem {toy_name} {{in}} {{out}}", toy_name,
                               f"write {{cwd}}/{toy_name} for that file, or {{dir}}/{toy_name}")):
    p = subprocess.run([mc, "certify", "--exporter", command, "--format", "aem"], capture_output=True, text=True,
                       cwd=toy_dir)
    check(p.returncode == 2 and f"'{word}'" in p.stderr and advice in p.stderr and p.stderr.count("\n") == 1,
          f"relative '{command}': exit {p.returncode}: {p.stderr}")

# A Python exporter (tests/exporters/py_export_nlm.py: static meshes to NLM)
# named by a relative path, paying Python's start-up per case, choosing its
# own output name beside its input (--output-name).
here = os.path.dirname(os.path.abspath(__file__))
py_cmd = "python3 py_export_nlm.py {in}"
rc, doc, out = certify("nlm", extra=("--output-name", "{stem}.nlm"), command=py_cmd, name="python", cwd=here)
check(doc is not None and doc["exporter"]["command"] == py_cmd, f"python: {out}")
static = {"triangle", "cube", "materials", "textures", "vertex_colors", "non_indexed", "index_widths",
          "many_vertices", "instances", "degenerate", "far_coordinates"}
skinned_fits = {"skin_1_to_4", "skin_unnormalised", "joints_reversed", "two_skins", "interpolation"}
# Its refusals of the skinned scenes NLM cannot hold (255 bones and more,
# more animations) say "static meshes only": not the format's reason, so
# they are not credited (a refusal for another reason); only `empty` is.
for scene, c in (verdicts(doc) if doc else {}).items():
    want = ("conforming" if scene in static else "unfaithful" if scene == "lines_points"
            else "refused" if scene == "empty" else "failed")
    check(c["verdict"] == want, f"python {scene}: {c['verdict']} ({c['detail']}), expected {want}")
    if want == "failed":
        check("py_export_nlm: refused: this exporter writes static meshes only" in c["detail"],
              f"python {scene}: the refusal names its reason: {c['detail']}")
        check(("refused for another reason than the format's" in c["detail"]) == (scene not in skinned_fits),
              f"python {scene}: {c['detail']}")
if doc:
    check("line segments lost" in verdicts(doc)["lines_points"]["detail"], "python: the dropped lines are named")
    check(rc == 1, f"python: exit {rc}")

# 8. Conventions (docs/CERTIFY.md, "Conventions"): a bottom-left UV origin,
# a Z-up scene, centimetres or clockwise faces applied to the whole model
# are named, not counted as losses; the same transform must hold in every
# scene; a spec that fixes the axes (E3D: y up) keeps them unfaithful.
def all_conforming(doc, fmt):
    return {s: c["verdict"] for s, c in verdicts(doc).items()
            if c["verdict"] != ("refused" if s in expected_refusals[fmt] else "conforming")}


for fmt, bug, named, key, value in (
        ("aem", "flip-v", "UV origin bottom-left: V flipped at all 36 vertices", "uv_origin", "bottom-left"),
        ("aem", "z-up", "Z-up: (x, y, z) -> (x, -z, y)", "up", "z"),
        ("aem", "cm", "scale 100 (metres to centimetres)", "scale", 100),
        ("aem", "cw", "winding clockwise (every triangle's corners reversed)", "winding", "cw"),
        ("semodel", "z-up", "Z-up: (x, y, z) -> (x, -z, y)", "up", "z"),
        ("nlm", "cm", "scale 100 (metres to centimetres)", "scale", 100)):
    rc, doc, out = certify(fmt, bug, name=f"conv-{fmt}-{bug}")
    check(rc == 0 and not all_conforming(doc, fmt), f"{bug} ({fmt}): exit {rc}, {all_conforming(doc, fmt)}\n{out}")
    cube = verdicts(doc)["cube"]
    check(f"under the exporter's convention ({named}" in cube["detail"] and named in (cube["convention"] or ""),
          f"{bug} ({fmt}): cube detail {cube['detail']}")
    conv = doc["conventions"]
    # a case counts (and names the convention) only where it needed it: a
    # V flip says nothing of a scene without UVs (an AEM output still has a
    # UV layer: the spring-2024 exporter's triangle was counted)
    named_cases = {s for s, c in verdicts(doc).items() if c["convention"]}
    check(conv[key] == value and not conv["demanded"] and conv["cases"] == len(named_cases) > 0,
          f"{bug} ({fmt}): conventions {conv}, named in {sorted(named_cases)}")
    if bug == "flip-v":
        check(named_cases == {"cube", "materials", "textures", "vertex_colors"},
              f"flip-v: the convention named in {sorted(named_cases)}, expected the four scenes with UVs")
        triangle = verdicts(doc)["triangle"]
        check(triangle["convention"] is None and "convention" not in triangle["detail"],
              f"flip-v: triangle (no UVs) {triangle['detail']}")
    else:
        check(conv["cases"] >= 20, f"{bug} ({fmt}): only {conv['cases']} cases need the convention")
    check(f"\nconventions: {named[:20]}" in out, f"{bug} ({fmt}): the text report names the conventions: {out[-600:]}")
    # exactly: the case's detail (before any validator warning), the run's
    # conventions line with the cases that needed them, the certificate line
    check(cube["detail"].split("; 1 warning")[0] == f"valid and faithful under the exporter's convention ({named})",
          f"{bug} ({fmt}): cube detail {cube['detail']}")
    # (the run's line counts no vertices: they differ from scene to scene)
    run_line = "UV origin bottom-left (V flipped: v' = 1 - v)" if bug == "flip-v" else named
    n = 25 - len(expected_refusals[fmt])
    lines = (f"\nconventions: {run_line} ({conv['cases']} cases faithful only under them)\n"
             f"certificate ({fmt} exporter): CONFORMING, 100.0% ({n} conforming, {25 - n} correctly refused, of 25)\n")
    check(lines in out and conv["cases"] == (4 if bug == "flip-v" else n),
          f"{bug} ({fmt}): the closing lines are not\n{lines}in\n{out[-500:]}")
rc, doc, _ = certify("aem", name="conv-none")
check(doc["conventions"]["text"] == "" and doc["conventions"]["cases"] == 0 and
      all(c["convention"] is None for c in doc["cases"]), f"correct aem: no convention {doc['conventions']}")
# only glTF mesh 0 flipped: one-mesh scenes look flipped, so the run's
# convention is the flip, and materials (its other meshes not flipped) loses UVs
rc, doc, out = certify("aem", "flip-v-some", name="conv-some")
bad = {s: c for s, c in verdicts(doc).items() if c["verdict"] not in ("conforming", "refused")}
check(rc == 1 and list(bad) == ["materials"] and bad["materials"]["verdict"] == "unfaithful" and
      any(f.startswith("UVs changed at 12 vertices") for f in bad["materials"]["findings"]),
      f"flip-v-some: {[(s, c['verdict'], c['findings']) for s, c in bad.items()]}")
check("\nunfaithful     materials: unfaithful: 1 lost or changed fact(s):\n"
      "    UVs changed at 12 vertices (first at (2 0 0.5): expected (0 1), found (0 0))\n" in out and
      "\nconventions: UV origin bottom-left (V flipped: v' = 1 - v) (3 cases faithful only under them)\n"
      "certificate (aem exporter): NOT CONFORMING, 96.0% (23 conforming, 1 correctly refused, of 25)\n" in out,
      f"flip-v-some: the text report's lines: {out}")
# a real loss under a convention still fails, named under the run's convention
# (found in the other scenes): the weights, not the triangles
rc, doc, _ = certify("aem", "z-up,joint-index", name="conv-loss")
c = verdicts(doc)["joints_reversed"]
check(rc == 1 and c["verdict"] == "unfaithful" and doc["conventions"]["up"] == "z" and
      any(f.startswith("skin weights changed at 6 vertices") for f in c["findings"]) and
      not any("triangles lost" in f for f in c["findings"]), f"z-up with joint-index: {c['verdict']} {c['findings']}")
# demanded: a departure fails
rc, doc, _ = certify("aem", "flip-v", ("--convention", "uv=top-left"), name="conv-demand")
bad = {s for s, c in verdicts(doc).items() if c["verdict"] == "unfaithful"}
check(rc == 1 and bad == {"cube", "materials", "textures", "vertex_colors"} and doc["conventions"]["demanded"],
      f"--convention uv=top-left on flip-v: unfaithful {sorted(bad)}")
rc, doc, _ = certify("aem", "flip-v", ("--convention", "uv=bottom-left,up=y"), name="conv-demand-ok")
check(rc == 0 and doc["conventions"]["uv_origin"] == "bottom-left", f"--convention uv=bottom-left: exit {rc}")
# E3D fixes y up (its spec's coordinate system): Z-up is a change there
rc, doc, _ = certify("e3d", "z-up", ("--scene", "cube"), name="conv-e3d")
c = verdicts(doc)["cube"]
check(rc == 1 and c["verdict"] == "unfaithful" and "where the spec fixes the axes (e3d.adoc, Coordinate system" in
      c["findings"][0], f"e3d z-up: {c['verdict']} {c['findings']}")
for bad_arg in ("uv=middle", "up=w", "scale=0", "colour=red", "uv"):
    p = subprocess.run([mc, "certify", "--exporter", "true {in} {out}", "--format", "aem", "--convention", bad_arg],
                       capture_output=True, text=True)
    check(p.returncode == 2 and "--convention" in p.stderr and p.stderr.count("\n") == 1,
          f"--convention {bad_arg}: exit {p.returncode}: {p.stderr}")

# 9. Scope: a static-only exporter declares it (--scope static); the
# skinned and animated scenes are listed as out of scope, not run, not
# scored. Without it, they fail: the fitting ones refused, the others
# refused for another reason than the format's.
static_scenes = static | {"lines_points", "empty"}
rc, doc, out = certify("nlm", "static-only", ("--scope", "static"), name="scope-static")
v = {s: c["verdict"] for s, c in verdicts(doc).items()}
check(rc == 0 and doc["total"]["score"] == 100.0 and doc["settings"]["scope"] == "static",
      f"static-only --scope static: exit {rc}, {doc['total']}\n{out}")
check({s for s, x in v.items() if x == "out_of_scope"} == set(v) - static_scenes and
      doc["total"]["verdicts"]["out_of_scope"] == 12 and doc["total"]["verdicts"]["conforming"] == 12,
      f"static-only --scope static: {v}")
check("out of scope (--scope static), not run, not scored: skin_1_to_4, skin_8," in out and "(12 scenes)" in out,
      f"static-only: the text report lists the out-of-scope scenes: {out}")
check("(12 conforming, 1 correctly refused, of 13)" in out, f"static-only: scored on 13: {out[-300:]}")
check("\nout of scope (--scope static), not run, not scored: skin_1_to_4, skin_8, skin_unnormalised, bones_255, "
      "bones_256, bones_300, chain_128, joints_reversed, two_skins, interpolation, animations, names (12 scenes)\n"
      in out and "\ncertificate (nlm exporter): CONFORMING, 100.0% (12 conforming, 1 correctly refused, of 13)\n" in out,
      f"static-only --scope static: the text report's lines: {out}")
rc, doc, out = certify("nlm", "static-only", name="scope-all")
v = verdicts(doc)
check(rc == 1 and v["bones_255"]["verdict"] == "failed" and
      v["bones_255"]["detail"].startswith("refused for another reason than the format's (more bones than the format "
                                           "addresses): it said: toy_export: refused: this exporter writes static"),
      f"static-only without scope: bones_255 {v['bones_255']['detail']}")
check(v["skin_1_to_4"]["verdict"] == "failed" and v["empty"]["verdict"] == "refused", "static-only: skin_1_to_4, empty")
# the correct NLM exporter's refusals name the format's reasons and stay credited (section 1);
# a group name scopes too, and a wrong word is a usage error
rc, doc, _ = certify("aem", extra=("--scope", "skinned,names"), name="scope-groups")
v = {s: c["verdict"] for s, c in verdicts(doc).items()}
check(rc == 0 and v["skin_8"] == "conforming" and v["skin_1_to_4"] == "out_of_scope" and v["names"] == "conforming"
      and v["cube"] == "conforming", f"--scope skinned,names: {v}")
p = subprocess.run([mc, "certify", "--exporter", "true {in} {out}", "--format", "aem", "--scope", "statics"],
                   capture_output=True, text=True)
check(p.returncode == 2 and "'statics'" in p.stderr and p.stderr.count("\n") == 1, f"--scope statics: {p.stderr}")

# 10. The text report: each unfaithful finding once, the group table within 100 columns.
rc, doc, out = certify("aem", "flip-v-some", name="text-once")
check(out.count("UVs changed at 12 vertices") == 1, f"text: the finding is printed once: {out}")
check("unfaithful     materials: unfaithful: 1 lost or changed fact(s):\n" in out, f"text: head line: {out}")
check(max(len(l) for l in out.splitlines() if not l.startswith(("conforming ", "refused ", "    ", "modelcheck certify:")))
      <= 100, "text: a line of the table or legend is over 100 columns")
table = out[out.index("\ngroup "):]
check(max(len(l) for l in table.splitlines()) <= 100, f"text: the group table is wider than 100 columns:\n{table}")

# 11. Progress and the sanity stop. On a terminal (a pty here) certify draws
# a progress line on stderr, redrawn in place (\r, erase to the end of the
# line), cleared at the end; nothing of it when stderr is not a terminal,
# or with --no-progress; --progress forces it.
import pty
import time


def on_pty(args):
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(mc, [mc, *args])
    data = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), data.decode("utf-8", "replace")


base = ["certify", "--exporter", f"{toy} --format aem {{in}} {{out}}", "--format", "aem", "-j", "2",
        "-o", "json", "--report", os.path.join(tmp, "pty.json")]
rc, seen = on_pty(base)
lines = [l for l in seen.split("\r") if l.startswith("certify: ")]
check(rc == 0 and len(lines) >= 25 and lines[-1].startswith("certify: 25/25, ") and seen.endswith("\r\x1b[K"),
      f"progress on a pty: exit {rc}, {len(lines)} redraws, ends {seen[-80:]!r}")
check(any("; running " in l for l in lines) and any(", 24 written, 1 refused" in l or "1 refused" in l
                                                     for l in lines), f"progress: counts and the running case: {lines[-3:]}")
check(all(len(l.split("\x1b[K")[0]) <= 100 for l in lines), "progress: a line is longer than the terminal")
rc, seen = on_pty(base + ["--no-progress"])
check(rc == 0 and "certify: " not in seen, f"--no-progress on a pty: {seen[:200]!r}")
p = subprocess.run([mc, *base], capture_output=True, text=True)
check(p.returncode == 0 and p.stderr == "", f"no terminal, no progress: {p.stderr[:200]!r}")
p = subprocess.run([mc, *base, "--progress"], capture_output=True)
check(p.returncode == 0 and p.stderr.count(b"\rcertify: ") >= 25, f"--progress without a terminal: {p.stderr[:200]!r}")

# A broken command stops after 5 cases with one message and the usage exit
# code: not found (127), every output missing, a loader that never reads.
for args, what in (
        (["--exporter", "no_such_exporter {in} {out}", "--format", "aem"], "could not be run"),
        (["--exporter", "true {in} {out}", "--format", "aem"], "exited 0 without writing its output"),
        # (SEModel: the first five scenes fit it, so each refusal fails)
        (["--exporter", "echo cannot > /dev/null; exit 3 # {in} {out}", "--format", "semodel"], "exited 3"),
        (["--loader", "no_such_loader {}", "--format", "aem"], "exited 127"),
        # a loader rejecting everything unread (a mistyped script name: python3
        # exits 2) is stopped too, though it conforms on the invalid cases
        (["--loader", "exit 1 # {}", "--format", "semodel"], "exited 1")):
    t0 = time.monotonic()
    p = subprocess.run([mc, "certify", *args, "-o", "json", "--report", os.path.join(tmp, "stop.json")],
                       capture_output=True, text=True)
    check(p.returncode == 2 and re.match(r"modelcheck certify: stopped after the first \d+ cases, which all "
                                         r"ended the same way without reading their input \(", p.stderr)
          and what in p.stderr and p.stderr.count("\n") == 1 and "--keep-going" in p.stderr,
          f"sanity stop ({args[1]}): exit {p.returncode}: {p.stderr}")
    # the report is written all the same, the cases not run said so
    doc = json.load(open(os.path.join(tmp, "stop.json")))
    check(doc["total"]["verdicts"]["error"] > 0 and "not run: certify stopped early" in json.dumps(doc),
          f"sanity stop ({args[1]}): no partial report: {doc['total']}")
    check(time.monotonic() - t0 < 20, f"sanity stop ({args[1]}): took {time.monotonic() - t0:.1f} s")
p = subprocess.run([mc, "certify", "--exporter", "true {in} {out}", "--format", "aem", "--keep-going",
                    "-o", "json", "--report", os.path.join(tmp, "going.json")], capture_output=True, text=True)
doc = json.load(open(os.path.join(tmp, "going.json")))
check(p.returncode == 1 and doc["total"]["verdicts"]["no_output"] == 25, f"--keep-going: {p.returncode} {doc['total']}")
# an exporter that reads its input and fails alike is graded, not stopped
p = subprocess.run([mc, "certify", "--exporter", "cat {in} > /dev/null; exit 3 # {out}", "--format", "semodel",
                    "-o", "json", "--report", os.path.join(tmp, "reads.json")], capture_output=True, text=True)
check(p.returncode == 1 and "stopped" not in p.stderr, f"an exporter that reads: exit {p.returncode}: {p.stderr}")

# 12. Leaks and the ASan runtime. A LeakSanitizer report at exit is a leak,
# counted apart from crashes (an exporter that wrote a good file and leaked).
leaky = (f"{toy} --format aem {{in}} {{out}} && "
         "{ echo '==1==ERROR: LeakSanitizer: detected memory leaks' >&2; exit 23; }")
rc, doc, out = certify("aem", extra=("--scene", "cube"), command=leaky, name="leak")
c = verdicts(doc)["cube"]
check(rc == 1 and c["verdict"] == "leak" and doc["total"]["verdicts"]["leak"] == 1 and
      doc["total"]["verdicts"]["crash"] == 0 and c["detail"].startswith("leaked memory: LeakSanitizer report (exit 23)"),
      f"leak: {c['verdict']} {c['detail']}")
check("leak" in out.split("\ngroup ")[1].splitlines()[0], f"leak: a column of the text table: {out[-400:]}")
p = subprocess.run([mc, "certify", "--loader", "echo '==1==ERROR: LeakSanitizer: detected memory leaks' >&2; "
                    "exit 23 # {}", "--format", "aem", "--keep-going", "-o", "json"], capture_output=True, text=True)
ldoc = json.loads(p.stdout) if p.stdout.startswith("{") else {}
check(p.returncode == 1 and ldoc.get("total", {}).get("verdicts", {}).get("leak", 0) > 50 and
      ldoc["total"]["verdicts"]["crash"] == 0, f"loader leak: exit {p.returncode}: {p.stderr[:300]}")
# A loader (or exporter) built with ASan in a process without its runtime
# first: the ASan runtime refuses to start; certify says so in plain words,
# with the fix, after the first case, exit 2.
asan_lib = os.path.join(tmp, "libasan_toy.so")
src = os.path.join(tmp, "asan_toy.c")
open(src, "w").write("int asan_toy(void) { return 1; }\n")
if subprocess.run(["gcc", "-shared", "-fPIC", "-fsanitize=address", "-o", asan_lib, src]).returncode == 0:
    py = f"python3 -c 'import ctypes; ctypes.CDLL(\"{asan_lib}\")'"
    for args in (["--loader", py + " {}", "--format", "aem"], ["--exporter", py + " {in} {out}", "--format", "aem"]):
        p = subprocess.run([mc, "certify", *args, "--keep-going", "-o", "json"], capture_output=True, text=True)
        check(p.returncode == 2 and p.stderr.count("\n") == 1 and "the ASan runtime was not the first library" in p.stderr
              and "LD_PRELOAD" in p.stderr and "Certifying an ASan-built loader" in p.stderr,
              f"ASan runtime not first ({args[0]}): exit {p.returncode}: {p.stderr}")
else:
    print("note: gcc -fsanitize=address unavailable: the ASan-runtime check was not run")

# 7. Usage errors.
for args, what in (([], "no --format"), (["--format", "aem", "--exporter", "x {in}"], "no {out}, no --output-name"),
                   (["--format", "aem", "--scene", "nope"], "unknown scene"),
                   (["--format", "aem", "--scene-format", "fbx"], "unknown scene format")):
    base = [] if "--exporter" in args else ["--exporter", "true {in} {out}"]
    p = subprocess.run([mc, "certify", *base, *args], capture_output=True, text=True)
    check(p.returncode == 2 and p.stderr.count("\n") == 1, f"usage error ({what}): exit {p.returncode}: {p.stderr}")

# 8. AEM's current upstream layout (2025: toy --layout 2025), certified with
# --format aem like aem1 (the output's layout is told by its structure). The
# correct toy is 100% even with --werror: joint names kept (the 128- and
# 300-byte ones cut to 127 bytes), base colour textures at their size with
# their MIP chain, from a data: URI, a glb buffer view or a file beside.
aem2025 = f"{toy} --format aem --layout 2025 {{in}} {{out}}"
rc, doc, out = certify("aem", command=aem2025, extra=("--werror",), name="correct-aem2025")
check(rc == 0 and doc["total"]["score"] == 100.0, f"aem 2025: exit {rc}, {doc and doc['total']}\n{out}")
for scene, c in verdicts(doc).items():
    want = "refused" if scene == "empty" else "conforming"
    check(c["verdict"] == want, f"aem 2025 {scene}: {c['verdict']} ({c['detail']}), expected {want}")
for form in ("glb", "gltf-separate"):
    rc, doc, out = certify("aem", command=aem2025, extra=("--werror", "--scene", "textures", "--scene-format", form),
                           name=f"aem2025-{form}")
    check(rc == 0 and verdicts(doc)["textures"]["verdict"] == "conforming", f"aem 2025 textures as {form}: exit {rc}\n{out}")
bugs2025 = [
    ("filler-index", "skin_1_to_4", "conforming", "AEM2025_FILLER_JOINT_INDEX", ()),
    ("filler-index", "skin_1_to_4", "invalid_output", "AEM2025_FILLER_JOINT_INDEX", ("--werror",)),
    ("weight-sum", "skin_1_to_4", "invalid_output", "AEM2025_WEIGHT_SUM@0x7c", ()),
    ("name-garbage", "joints_reversed", "invalid_output", "AEM2025_NAME_TRAILING_BYTES", ("--werror",)),
    ("texture-size", "textures", "unfaithful",
     "material 'embedded_texture': base colour texture of 1x1 lost (the output has 2x2)", ()),
    ("mip-chain", "textures", "invalid_output", "AEM2025_TEXTURE_DATA_RANGE@", ()),
    ("anim-rest", "skin_1_to_4", "unfaithful", "animation 'bend' at 0.37 s: bone 'bone2' posed differently", ()),
    ("joint-index", "joints_reversed", "unfaithful", "skin weights changed at 6 vertices", ()),
    # parents after children are allowed (an info, not a warning): the reference loader orders them
    ("source-order", "joints_reversed", "conforming", "", ("--werror",)),
]
for i, (bug, scene, want, mark, extra) in enumerate(bugs2025):
    rc, doc, out = certify("aem", extra=("--scene", scene, *extra), name=f"aem2025-bug{i}",
                           command=f"{toy} --format aem --layout 2025 --bug {bug} {{in}} {{out}}")
    c = verdicts(doc)[scene]
    text = json.dumps(c)
    check(c["verdict"] == want, f"{bug} (aem 2025) on {scene}: {c['verdict']} ({c['detail']}), expected {want}")
    check(mark in text, f"{bug} (aem 2025) on {scene}: '{mark}' not named in {text[:400]}")
    check(rc == (0 if want == "conforming" else 1), f"{bug} (aem 2025) on {scene}: exit {rc}")

# The pictures colour a skinned case's triangles by the bone weighing most
# on them, one colour per scene bone in both rows: a joint slip shows as
# another colour (the output row's colours differ from the scene's), a
# faithful output (--pictures draws it too) has the scene's colours.
def colours_by_row(html_path):
    """{row: {triangle: fill}} of the first picture's front view (a triangle: its sorted corners)."""
    page = open(html_path).read()
    svg = page[page.index('<figure class="picture">'):]
    svg = svg[:svg.index("</figure>")]
    rows = {}
    for row, y in ((0, 18), (1, 18 + 170)):
        g = svg[svg.index(f'<g transform="translate(80 {y})">'):]
        g = g[:g.index("</g>")]
        rows[row] = {}
        for m in re.finditer(r'<path fill="(hsl\([^"]*\))"[^>]* d="([^"]*)"', g):
            for tri in m.group(2).split("Z"):
                corners = tuple(sorted(re.findall(r"[\d.]+ [\d.]+", tri)))
                if corners:
                    rows[row][corners] = m.group(1)
    return rows
pic_ok, pic_bad = os.path.join(tmp, "pic-ok.html"), os.path.join(tmp, "pic-bad.html")
rc, doc, _ = certify("aem", extra=("--scene", "joints_reversed", "--pictures", "--html", pic_ok), name="pic-ok")
ok_rows = colours_by_row(pic_ok)
check(rc == 0 and len(set(ok_rows[0].values())) >= 2 and ok_rows[0] == ok_rows[1],
      f"pictures, faithful: the rows' bone colours differ or are missing: {ok_rows}")
rc, doc, _ = certify("aem", "joint-index", ("--scene", "joints_reversed", "--html", pic_bad), name="pic-bad")
bad_rows = colours_by_row(pic_bad)
check(rc == 1 and bad_rows[0] == ok_rows[0] and bad_rows[0].keys() == bad_rows[1].keys() and bad_rows[0] != bad_rows[1],
      f"pictures, joint-index: the output row's bone colours should differ from the scene's: {bad_rows}")
check("triangles coloured by the bone weighing most on them" in open(pic_bad).read(), "pictures: the caption says so")

print(f"{passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
