"""Two sets that must be equal (exported symbols and public API, options of
--help and of the man page): one FAIL line per item on either side only."""


def differences(want, have, missing, extra):
    """missing/extra: formats with {} for an item of want not in have, and
    of have not in want. Prints them; returns how many there were."""
    lines = [missing.format(x) for x in sorted(want - have)] + [extra.format(x) for x in sorted(have - want)]
    for line in lines:
        print(f"FAIL {line}")
    return len(lines)
