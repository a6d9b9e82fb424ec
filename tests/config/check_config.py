"""The project configuration file (.modelcheck.json, issue 15): examples valid
against reports/schema/config.schema.json and accepted by modelcheck; bad
files refused by both, each problem on its exact line, exit 2, nothing
validated; discovery upwards to the repository root; per-path overrides;
command line over file; exclusion; the report's settings.config.

usage: check_config.py MODELCHECK SCHEMA EXAMPLES_DIR CORPUS
"""
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

import jsonschema

failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print(f"FAIL {what}")


def run(mc, args, cwd):
    p = subprocess.run([mc] + args, cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


# (config text, lines modelcheck must print (after "modelcheck: FILE: "),
#  whether the schema alone can tell it is bad)
BAD = [
    ('{"severity": {"NOPE": "warning"}}',
     ["severity.NOPE: unknown issue code 'NOPE' (see modelcheck --list-codes)"], False),
    ('{"severity": {"AEM_UNSKINNED_VERTEX": "loud"}}',
     ['severity.AEM_UNSKINNED_VERTEX: expected one of "error", "warning", "info", "hint", "ignore"'], True),
    ('{"ignore": ["FILE_EMPTY", 3]}', ["ignore[1]: expected an issue code (a string)"], True),
    ('{"max_issues": -1}', ["max_issues: expected an integer from 0 to 1000000"], True),
    ('{"max_issues": 1.5}', ["max_issues: expected an integer from 0 to 1000000"], True),
    ('{"max_file_bytes": 0}', ["max_file_bytes: expected an integer from 1 to 9007199254740992"], True),
    ('{"tolerances": {"unit": "1"}}', ["tolerances.unit: expected a number from 0 to 1e30"], True),
    ('{"tolerances": {"normal": 1}}', ["tolerances.normal: unknown key (expected weight_sum, unit or quaternion)"], True),
    ('{"colour": true}', ["colour: unknown key (expected severity, ignore, tolerances, max_issues, max_file_bytes, "
                          "exclude, overrides or $schema)"], True),
    ('{"exclude": 5}', ["exclude: expected a glob or an array of globs"], True),
    ('{"exclude": ["a/**b", "/abs", "x[", "dir/", "a/../b", ""]}',
     ["exclude[0]: '**' must be a whole path segment",
      "exclude[1]: absolute glob (globs are relative to the config file's directory)",
      "exclude[2]: unclosed '['",
      "exclude[4]: '.' or '..' segment",
      "exclude[5]: empty glob"], None),
    # "dir/" is a directory in exclude (as in .gitignore), not in overrides
    ('{"overrides": [{"files": "dir/", "ignore": ["AEM_WEIGHT_SUM"]}]}',
     ["overrides[0].files: glob ends with '/' (write dir/** for everything under dir)"], None),
    ('{"overrides": [{"severity": {}}, 3, {"files": "*.aem", "format": "aem"}]}',
     ['overrides[0]: missing "files"',
      'overrides[1]: expected an object with "files" and severity, ignore, tolerances or max_issues',
      "overrides[2].format: unknown key (expected files, severity, ignore, tolerances or max_issues)"], True),
    ('{"overrides": [{"files": "*.aem", "severity": {"AEM_NOPE": "info"}}]}',
     ["overrides[0].severity.AEM_NOPE: unknown issue code 'AEM_NOPE' (see modelcheck --list-codes)"], False),
    ('{"max_issues": 3,\n "severity": {,}}', ["invalid JSON near line 2, column 16"], True),
    ('[]', ["expected a JSON object at the top level"], True),
    # duplicate keys (cJSON keeps both): refused, each repeat named by its path,
    # and nothing else is read; the schema cannot see them (json.loads keeps the last)
    ('{"max_issues": 3, "max_issues": 4}', ["max_issues: duplicate key (each key may appear once in an object)"],
     False),
    ('{"severity": {"AEM_UNSKINNED_VERTEX": "info", "FILE_EMPTY": "info", "AEM_UNSKINNED_VERTEX": "error"},'
     ' "overrides": [{"files": "*.aem"}, {"files": "a/*.aem", "ignore": [], "files": "b/*.aem"}],'
     ' "colour": 1, "colour": 2}',
     ["severity.AEM_UNSKINNED_VERTEX: duplicate key (each key may appear once in an object)",
      "overrides[1].files: duplicate key (each key may appear once in an object)",
      "colour: duplicate key (each key may appear once in an object)"], None),
]


def main():
    mc, schema_path, examples, corpus = map(os.path.abspath, sys.argv[1:5])
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    ok_aem = os.path.join(corpus, "aem", "valid", "skinned_animated.aem")
    v2_aem = os.path.join(corpus, "aem", "invalid", "version_2.aem")
    warn_aem = os.path.join(corpus, "aem", "valid", "static_exporter_unskinned.aem")

    with tempfile.TemporaryDirectory() as tmp:
        # examples: valid against the schema and accepted by modelcheck
        for ex in sorted(glob.glob(os.path.join(examples, "*.json"))):
            with open(ex) as f:
                errs = list(validator.iter_errors(json.load(f)))
            check(not errs, f"example {os.path.basename(ex)} against the schema: {[e.message for e in errs]}")
            rc, _, err = run(mc, ["--config", ex, ok_aem], tmp)
            check(rc == 0 and err == "", f"example {os.path.basename(ex)}: exit {rc}, {err!r}")
        # bad files: exact lines, exit 2, no report at all
        bad = os.path.join(tmp, "bad.json")
        for text, lines, schema_knows in BAD:
            with open(bad, "w") as f:
                f.write(text)
            rc, out, err = run(mc, ["--config", bad, "-o", "json", ok_aem], tmp)
            want = "".join(f"modelcheck: {bad}: {line}\n" for line in lines)
            check(rc == 2 and out == "" and err == want, f"bad config {text!r}: exit {rc}, stdout {out[:60]!r}, "
                                                        f"stderr {err!r}, expected {want!r}")
            try:
                doc = json.loads(text)
            except json.JSONDecodeError:
                continue
            caught = not validator.is_valid(doc)
            if schema_knows is not None:
                check(caught == schema_knows, f"schema on {text!r}: caught={caught}, expected {schema_knows}")
        rc, _, err = run(mc, ["--config", os.path.join(tmp, "none.json"), ok_aem], tmp)
        check(rc == 2 and "none.json: cannot open: No such file or directory" in err, f"missing --config: {rc} {err!r}")

        # a repository: the file is found from a subdirectory, not above the root
        repo = os.path.join(tmp, "outer", "repo")
        os.makedirs(os.path.join(repo, ".git"))
        os.makedirs(os.path.join(repo, "legacy", "v1"))
        os.makedirs(os.path.join(repo, "assets"))
        os.makedirs(os.path.join(repo, "vendor"))
        shutil.copy(v2_aem, os.path.join(repo, "legacy", "v1", "old.aem"))
        shutil.copy(v2_aem, os.path.join(repo, "assets", "new.aem"))
        shutil.copy(v2_aem, os.path.join(repo, "vendor", "theirs.aem"))
        shutil.copy(warn_aem, os.path.join(repo, "assets", "warn.aem"))
        with open(os.path.join(tmp, "outer", ".modelcheck.json"), "w") as f:
            f.write('{"nonsense": 1}')  # above the repository root: never read
        rc, _, err = run(mc, ["legacy/v1/old.aem"], repo)
        check(rc == 1 and err == "", f"no config in the repository: exit {rc} {err!r}")
        cfg = os.path.join(repo, ".modelcheck.json")
        shutil.copy(os.path.join(examples, "readme.json"), cfg)
        with open(cfg, "rb") as f:
            sha = hashlib.sha256(f.read()).hexdigest()
        sub = os.path.join(repo, "legacy")
        rc, out, err = run(mc, ["-o", "json", "v1/old.aem", "../assets/new.aem", "../assets/warn.aem",
                                "../vendor/theirs.aem"], sub)
        doc = json.loads(out) if out else {}
        sev = {f["path"]: [(i["code"], i["severity"]) for i in f["issues"]] for f in doc.get("files", [])}
        check(rc == 1, f"repository run: exit {rc}, expected 1 (assets/new.aem is still an error)")
        check(sev.get("v1/old.aem") == [("AEM_UNSUPPORTED_VERSION", "warning")],
              f"per-path override downgrades legacy/**/*.aem: {sev.get('v1/old.aem')}")
        check(sev.get("../assets/new.aem") == [("AEM_UNSUPPORTED_VERSION", "error")],
              f"override does not reach assets/: {sev.get('../assets/new.aem')}")
        check(sev.get("../assets/warn.aem") == [("AEM_UNSKINNED_VERTEX", "info")],
              f"top-level severity: {sev.get('../assets/warn.aem')}")
        check("../vendor/theirs.aem" not in sev and doc.get("summary", {}).get("skipped") == 1,
              f"vendor/** excluded and counted as skipped: {sorted(sev)}, {doc.get('summary')}")
        check(doc.get("settings", {}).get("config") == {"path": cfg, "sha256": sha},
              f"settings.config: {doc.get('settings', {}).get('config')}")
        # the command line wins, over the top level and over a per-path override
        rc, out, _ = run(mc, ["-o", "json", "-s", "AEM_UNSUPPORTED_VERSION=error", "-s", "AEM_UNSKINNED_VERTEX=hint",
                              "legacy/v1/old.aem", "assets/warn.aem"], repo)
        sev = {f["path"]: [(i["code"], i["severity"]) for i in f["issues"]] for f in json.loads(out)["files"]}
        check(rc == 1 and sev == {"legacy/v1/old.aem": [("AEM_UNSUPPORTED_VERSION", "error")],
                                  "assets/warn.aem": [("AEM_UNSKINNED_VERTEX", "hint")]},
              f"command line over the file: exit {rc}, {sev}")
        # --no-config; a directory walk applies the same overrides
        rc, out, _ = run(mc, ["--no-config", "-o", "json", "legacy/v1/old.aem"], repo)
        check(rc == 1 and json.loads(out)["settings"]["config"] is None, f"--no-config: exit {rc}")
        rc, out, _ = run(mc, ["-o", "json", "legacy"], repo)
        check(rc == 0 and json.loads(out)["files"][0]["issues"][0]["severity"] == "warning",
              f"walk of legacy/ with the override: exit {rc}")
        # globs: segment wildcards, basename globs, and a glob with many "**"
        # against a deep path (linear time: this returns at once)
        globs = os.path.join(tmp, "globs")
        deep = os.path.join("deep", *(["a"] * 40))
        for rel in ["one/b/x.aem", "one/b/c/x.aem", "z/y.skip.aem", os.path.join(deep, "x.aem")]:
            os.makedirs(os.path.join(globs, os.path.dirname(rel)), exist_ok=True)
            shutil.copy(ok_aem, os.path.join(globs, rel))
        os.makedirs(os.path.join(globs, ".git"))
        with open(os.path.join(globs, ".modelcheck.json"), "w") as f:
            json.dump({"exclude": ["deep/" + "**/a/" * 8 + "nomatch.aem", "*.skip.aem", "one/*/x.aem"]}, f)
        rc, out, err = run(mc, ["-o", "json", "."], globs)
        doc = json.loads(out) if out else {"files": [], "summary": {}}
        seen = sorted(f["path"] for f in doc["files"])
        check(rc == 0 and seen == sorted(["./one/b/c/x.aem", "./" + os.path.join(deep, "x.aem")])
              and doc["summary"].get("skipped") == 2, f"glob exclusions: exit {rc}, {seen}, {err!r}")
        # issue 36: exclude matches directories as .gitignore does: a name
        # without '/' at any depth and all below it, "name/" directories only,
        # "a/b" from the configuration's directory
        gi = os.path.join(tmp, "gitignore")
        for rel in ["src/vendor/deep/x.aem", "vendor/y.aem", "keep/vendor.aem", "lib/gen/z.aem", "x/lib/gen/w.aem",
                    "out.aem", "build/out.aem", "keep/build/b.aem"]:
            os.makedirs(os.path.join(gi, os.path.dirname(rel)), exist_ok=True)
            shutil.copy(ok_aem, os.path.join(gi, rel))
        os.makedirs(os.path.join(gi, ".git"))
        with open(os.path.join(gi, ".modelcheck.json"), "w") as f:
            json.dump({"exclude": ["vendor", "vendor.aem/", "lib/gen", "build/", "out.aem/"]}, f)
        rc, out, err = run(mc, ["-o", "json", "."], gi)
        doc = json.loads(out) if out else {"files": [], "summary": {}}
        seen = sorted(f["path"] for f in doc["files"])
        check(rc == 0 and seen == ["./keep/vendor.aem", "./out.aem", "./x/lib/gen/w.aem"]
              and doc["summary"].get("skipped") == 5, f"gitignore-like exclusions: exit {rc}, {seen}, {err!r}")
        rc, out, err = run(mc, ["src/vendor/deep/x.aem"], gi)
        check(rc == 0 and "1 skipped" in out and "1 excluded" in out, f"a file named under an excluded directory: {out!r}")
        # issue 26: each file's nearest configuration, whatever the working
        # directory; several in one run; the summary names them
        nested = os.path.join(repo, "legacy", ".modelcheck.json")
        with open(nested, "w") as f:
            json.dump({"severity": {"AEM_UNSUPPORTED_VERSION": "info"}}, f)
        rc, out, err = run(mc, ["-o", "json", os.path.join(repo, "legacy"), os.path.join(repo, "assets", "warn.aem")],
                           tmp)
        sev = {os.path.relpath(f["path"], repo): [(i["code"], i["severity"]) for i in f["issues"]]
               for f in json.loads(out)["files"]} if out else {}
        check(rc == 0 and sev == {"legacy/v1/old.aem": [("AEM_UNSUPPORTED_VERSION", "info")],
                                  "assets/warn.aem": [("AEM_UNSKINNED_VERTEX", "info")]},
              f"per-file discovery from outside the repository: exit {rc}, {sev}, {err!r}")
        rc, out, _ = run(mc, [os.path.join(repo, "assets", "warn.aem"), os.path.join(repo, "legacy")], tmp)
        check(rc == 0 and out.splitlines()[-1].endswith(f"; config: {cfg}, {nested}"),
              f"summary names the configurations: {out.splitlines()[-1:]}")
        rc, out, err = run(mc, ["--show-config", "legacy/v1/old.aem", "-s", "AEM_WEIGHT_SUM=warning"], repo)
        check(rc == 0 and f"config: {nested} (sha256 " in out
              and f"severity.AEM_UNSUPPORTED_VERSION: info ({nested}: top level; catalog default error)" in out
              and "severity.AEM_WEIGHT_SUM: warning (command line; catalog default error)" in out
              and "max_issues: 10 (default)" in out, f"--show-config nested: exit {rc}, {out!r}, {err!r}")
        rc, out, _ = run(mc, ["--show-config", "legacy/v1/old.aem", "--config", cfg], repo)
        check(rc == 0 and f"severity.AEM_UNSUPPORTED_VERSION: warning ({cfg}: overrides[0]; catalog default error)"
              in out and "excluded: no" in out, f"--show-config override: {out!r}")
        rc, out, _ = run(mc, ["--show-config", "vendor/theirs.aem"], repo)
        check(rc == 0 and "excluded: yes" in out, f"--show-config excluded: {out!r}")
        # a bad configuration met only inside a walked directory: its files
        # are skipped (not checked with half of it), the rest is, exit 2
        with open(nested, "w") as f:
            f.write('{"ignore": ["NOT_A_CODE"]}')
        rc, out, err = run(mc, ["-o", "json", "."], repo)
        doc = json.loads(out) if out else {"files": []}
        paths = sorted(f["path"] for f in doc["files"])
        check(rc == 2 and paths == ["./assets/new.aem", "./assets/warn.aem"]
              and err == f"modelcheck: {nested}: ignore[0]: unknown issue code 'NOT_A_CODE' "
                         "(see modelcheck --list-codes)\n",
              f"bad nested config in a walk: exit {rc}, {paths}, {err!r}")
        os.remove(nested)
        # a bad file in the repository stops every run before any file is validated
        with open(cfg, "w") as f:
            f.write('{"ignore": ["NOT_A_CODE"]}')
        rc, out, err = run(mc, ["assets/warn.aem"], repo)
        check(rc == 2 and out == "" and err == f"modelcheck: {cfg}: ignore[0]: unknown issue code 'NOT_A_CODE' "
                                               "(see modelcheck --list-codes)\n",
              f"bad discovered config: exit {rc}, {out!r}, {err!r}")
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
