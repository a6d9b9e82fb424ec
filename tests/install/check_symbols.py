"""libmodelcheck.so exports exactly the functions modelcheck.h declares with
MC_API (issue 15): nothing internal (mc_emit, mc_ctx_begin, the LZMA SDK)
leaks into the ABI, and nothing public is missing.

usage: check_symbols.py LIBMODELCHECK.so MODELCHECK.h [COVERAGE(ON/OFF)]
In a coverage build, the symbols gcc's profiling runtime (libgcov, linked
into every instrumented shared object) exports are not ours, and are left
out.
"""
import re
import subprocess
import sys

from twoway import differences


def main():
    lib, header = sys.argv[1:3]
    coverage = len(sys.argv) > 3 and sys.argv[3] == "ON"
    text = open(header).read()
    public = set(re.findall(r"^MC_API\b[^;(]*?\**\b(mc_\w+)\s*\(", text, re.M))
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True, check=True).stdout
    exported = {line.split()[-1] for line in out.splitlines() if line.strip()}
    exported -= {"_init", "_fini"}
    if coverage:
        exported = {s for s in exported if not s.startswith("__gcov_") and s != "mangle_path"}
    failed = differences(public, exported, "public but not exported: {}", "exported but not public: {}")
    if len(public) < 15:
        print(f"FAIL only {len(public)} MC_API declarations parsed from {header}")
        failed += 1
    print(f"{len(public) - failed if failed < len(public) else 0} passed, {failed} failed "
          f"({len(public)} public functions, {len(exported)} exported symbols)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
