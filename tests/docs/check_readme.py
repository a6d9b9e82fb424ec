"""README facts a new user relies on (issue 26): the package lists name every
package scripts/setup-debian.sh installs, with --minimal for command 1 (no
browser, emscripten or fuzzer: issue 36) and without it for command 2, and
no other; and the pre-commit
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
    # command 1 installs the minimal list, command 2 the rest too (issue 36)
    lists = {k: set(re.search(k + r"=\(([^)]*)\)", setup).group(1).split()) for k in ("minimal", "packages")}
    lists["packages"] |= {"npm"} if "missing+=(npm)" in setup else set()
    heavy = {"chromium", "emscripten", "afl++", "gcc-multilib", "clang", "mono-devel", "xvfb"}
    checks += 1
    if lists["minimal"] & heavy:
        failed += 1
        print(f"FAIL setup-debian.sh --minimal installs {sorted(lists['minimal'] & heavy)}: not what validating needs")
    for key, intro in (("minimal", r"Command 1 installs with apt \(`scripts/setup-debian.sh --minimal`:(.*?)\)"),
                       ("packages", r"Command 2 installs besides \(`scripts/setup-debian.sh`:(.*?)\)")):
        para = re.search(intro, readme, re.S)
        have = set(re.findall(r"[a-z0-9][a-z0-9.+-]+", para.group(1))) if para else set()
        have -= {"and", "for", "the", "toolchain", "tests", "when", "none", "is", "there"}
        checks += 1
        if lists[key] != have:
            failed += 1
            print(f"FAIL README package list of {key}: missing {sorted(lists[key] - have)}, "
                  f"not installed {sorted(have - lists[key])}")
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
