"""The field facts the catalog relies on ship with the project (issue 26): no
file of the source tree cites the unshipped field-notes document by its name, and
every catalog clause citing docs/formats/PAGE.md, HEADING names a page that
exists and one of its headings.

usage: check_formats.py SOURCE_DIR
"""
import os
import re
import sys

SKIP_DIRS = {".git", "build", "node_modules"}


def main():
    src = sys.argv[1]
    failed = checks = 0
    needle = "FIELD" + "-NOTES"  # this file itself must not match
    hits = []
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith("build")]
        for name in files:
            path = os.path.join(root, name)
            try:
                with open(path, "rb") as f:
                    if needle.encode() in f.read():
                        hits.append(os.path.relpath(path, src))
            except OSError:
                pass
    checks += 1
    if hits:
        failed += 1
        print(f"FAIL {len(hits)} files cite {needle} (cite docs/formats/*.md instead): {', '.join(sorted(hits)[:10])}")
    catalog = open(os.path.join(src, "validator/catalog/mc_catalog.def")).read()
    cites = set(re.findall(r"docs/formats/([a-z0-9]+\.md), ([^:;\"]+)", catalog))
    headings = {}
    for page, heading in sorted(cites):
        checks += 1
        path = os.path.join(src, "docs/formats", page)
        if page not in headings:
            headings[page] = set(re.findall(r"^## (.+)$", open(path).read(), re.M)) if os.path.exists(path) else None
        if headings[page] is None:
            failed += 1
            print(f"FAIL the catalog cites docs/formats/{page}, which does not exist")
        elif heading.strip() not in headings[page]:
            failed += 1
            print(f"FAIL the catalog cites docs/formats/{page}, {heading!r}: no such heading")
    if len(cites) < 40:
        failed += 1
        print(f"FAIL only {len(cites)} citations of docs/formats found in the catalog: the extraction is broken")
    print(f"{checks - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
