"""README facts a new user relies on (issue 26): the package list names every
package scripts/setup-debian.sh installs (and no other), and the pre-commit
example's rev is a commit of this repository (there are no release tags yet).

usage: check_readme.py SOURCE_DIR
"""
import re
import subprocess
import sys


def main():
    src = sys.argv[1]
    readme = open(f"{src}/README.md").read()
    setup = open(f"{src}/scripts/setup-debian.sh").read()
    failed = checks = 0
    m = re.search(r"packages=\(([^)]*)\)", setup)
    want = set(m.group(1).split()) | ({"npm"} if "missing+=(npm)" in setup else set())
    para = re.search(r"Both install what they need with apt \(`scripts/setup-debian.sh`:(.*?)\) and", readme, re.S)
    have = set(re.findall(r"[a-z0-9][a-z0-9.+-]+", para.group(1))) if para else set()
    have -= {"and", "for", "the", "toolchain", "tests", "when", "none", "is", "there"}
    checks += 1
    if want != have:
        failed += 1
        print(f"FAIL README package list: missing {sorted(want - have)}, not installed {sorted(have - want)}")
    revs = re.findall(r"^\s*rev:\s*(\S+)", readme, re.M)
    checks += 1
    if len(revs) != 1:
        failed += 1
        print(f"FAIL README: expected one pre-commit rev, found {revs}")
    else:
        git = subprocess.run(["git", "-C", src, "rev-parse", "--is-shallow-repository"], capture_output=True, text=True)
        if git.returncode != 0 or git.stdout.strip() != "false":
            checks -= 1
            print("note: not a full git clone: the rev is not checked")
        elif subprocess.run(["git", "-C", src, "cat-file", "-e", f"{revs[0]}^{{commit}}"],
                            capture_output=True).returncode != 0:
            failed += 1
            print(f"FAIL README pre-commit example: rev {revs[0]} is no commit of this repository")
        elif subprocess.run(["git", "-C", src, "cat-file", "-e", f"{revs[0]}:.pre-commit-hooks.yaml"],
                            capture_output=True).returncode != 0:
            failed += 1
            print(f"FAIL README pre-commit example: rev {revs[0]} has no .pre-commit-hooks.yaml")
    print(f"{checks - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
