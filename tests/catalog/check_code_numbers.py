"""Issue code numbers are ABI (enum mc_code in modelcheck.h): a released code
keeps its number and never disappears; a new code takes the next number at the
end. Compares the compiled numbering (print_codes) with the golden list
code_numbers.txt, which may only grow by appending.

usage: check_code_numbers.py PRINT_CODES GOLDEN
"""
import subprocess
import sys

HOW = ("Numbers come from validator/catalog/mc_code_numbers.def, one MC_NUMBER(NAME) a line: a new code "
       "goes at the END of that file (its catalog entry stays in its section of mc_catalog.def), and its "
       "'NAME NUMBER' line is APPENDED to {golden}. Never edit, reorder or remove a line of either file.")


def parse(lines, what):
    out = {}
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, number = line.split()
        if name in out:
            sys.exit(f"FAIL {what} line {n}: {name} twice")
        out[name] = int(number)
    return out


def main():
    printer, golden_path = sys.argv[1:3]
    with open(golden_path) as f:
        golden = parse(f.readlines(), golden_path)
    built = parse(subprocess.run([printer], capture_output=True, text=True, check=True).stdout.splitlines(),
                  "the build")
    problems = []
    if sorted(golden.values()) != list(range(len(golden))):
        problems.append(f"{golden_path} does not number its codes 0..{len(golden) - 1} once each")
    for name, number in golden.items():
        if name not in built:
            problems.append(f"{name} (number {number}) disappeared: released codes are never removed")
        elif built[name] != number:
            problems.append(f"{name} changed number: {number} released, {built[name]} now")
    new = sorted((number, name) for name, number in built.items() if name not in golden)
    for number, name in new:
        if number < len(golden):
            problems.append(f"new code {name} took number {number}, inside the released range")
    if new and [n for n, _ in new] != list(range(len(golden), len(golden) + len(new))):
        problems.append("new codes do not follow the released ones without a gap")
    for p in problems:
        print(f"FAIL {p}")
    if problems:
        print(HOW.format(golden=golden_path))
        return 1
    for number, name in new:
        print(f"note: {name} {number} is new: append '{name} {number}' to {golden_path} when it is released")
    print(f"{len(golden)} released codes keep their numbers; {len(new)} new")
    return 0


if __name__ == "__main__":
    sys.exit(main())
