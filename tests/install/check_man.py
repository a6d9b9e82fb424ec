"""docs/modelcheck.1 in step with the command: every option of
`modelcheck --help`, `modelcheck certify --help`, `modelcheck inspect --help`,
`modelcheck fix --help` and `modelcheck fuzz --help` appears in the man page,
and every option the man page names is in one of them. With groff
installed, the page must also format without a warning.

usage: check_man.py MODELCHECK MANPAGE
"""
import re
import shutil
import subprocess
import sys

from twoway import differences

OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])")


def options(text):
    return set(OPTION.findall(text))


def main():
    mc, page = sys.argv[1:3]
    helps = subprocess.run([mc, "--help"], capture_output=True, text=True, check=True).stdout
    helps += subprocess.run([mc, "certify", "--help"], capture_output=True, text=True, check=True).stdout
    helps += subprocess.run([mc, "inspect", "--help"], capture_output=True, text=True, check=True).stdout
    helps += subprocess.run([mc, "fuzz", "--help"], capture_output=True, text=True, check=True).stdout
    helps += subprocess.run([mc, "fix", "--help"], capture_output=True, text=True, check=True).stdout
    roff = open(page).read()
    text = "\n".join(l for l in roff.splitlines() if not l.startswith('.\\"'))
    text = text.replace("\\-", "-").replace("\\fB", "").replace("\\fR", "").replace("\\fI", "")
    text = re.sub(r'^\.(BR|BI|B|IR|I|TP|PP|nf|fi|br)\b ?', "", text, flags=re.M)
    text = text.replace('" "', " ").replace('"', " ")
    want, have = options(helps), options(text)
    failed = differences(want, have, "{}: in --help, missing from " + page, "{}: in " + page + ", not in --help")
    checks = 2
    if len(want) < 20:
        print(f"FAIL only {len(want)} options found in --help: the extraction is broken")
        failed += 1
    if shutil.which("groff"):
        checks += 1
        p = subprocess.run(["groff", "-man", "-ww", "-z", page], capture_output=True, text=True)
        if p.returncode or p.stderr:
            print(f"FAIL groff: {p.stderr.strip()}")
            failed += 1
    print(f"{checks - (1 if failed else 0)} passed, {1 if failed else 0} failed ({len(want)} options)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
