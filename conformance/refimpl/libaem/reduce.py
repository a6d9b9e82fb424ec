#!/usr/bin/python3
"""Reduces an AEM crash reproducer while keeping its crash site
(scripts/refimpls.sh reduce and triage; docs/REFERENCE-LOADERS.md, Fuzzing).

  reduce.py FUZZ_BINARY CRASH_SITE_TOOL IN OUT [SECONDS]

libFuzzer's -minimize_crash keeps any crash, and libaem crashes almost
everywhere: on these inputs it drifts to another site within a few steps, or
cuts into the 40-byte header, where the counts come from memory the failed
fread left as it was (ASan's malloc fill). This reducer works on the format
instead (aem.md: the header's nine counts, then the sections in order): it
drops bytes after the last section, then elements of each section (halves
first, then ever smaller runs), decrementing the section's count, and keeps
a step only when the input still crashes at the same site. The header is
never cut. OUT is written only when the result replays to the site three
times; the exit status is 0 then, 1 otherwise.

The site is what scripts/refimpls.sh's triage takes: the fuzz binary replays
the input (leak detection on, UBSan stacks, the campaign's limits) and the
crash-site tool names the report. MCC_LIBAEM_TEXTURE_CHECK passes through.
"""
import os
import struct
import subprocess
import sys
import time

HEADER = 40
ELEMENT_SIZES = [92, 4, 128, 12, 12, 80, 136, 24, 20]  # vertex .. keyframe


def site_of(binary, tool, path):
    # the caller's ASAN_OPTIONS (refimpls.sh passes the ones its own replays
    # use, so both find the same sites); leaks count when it gives none
    env = dict(os.environ, UBSAN_OPTIONS="print_stacktrace=1")
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
    try:
        run = subprocess.run([binary, "-timeout=5", "-rss_limit_mb=6144", "-malloc_limit_mb=4200", path],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
        report = run.stdout
    except subprocess.TimeoutExpired as e:
        report = e.stdout or b""
    return subprocess.run([tool], input=report, stdout=subprocess.PIPE).stdout.decode().strip()


def split(data):
    """The header's counts, each section's bytes (as far as the file holds
    them) and what follows the last section."""
    counts = list(struct.unpack_from("<9I", data, 4))
    sections, off = [], HEADER
    for count, size in zip(counts, ELEMENT_SIZES):
        take = min(count * size, len(data) - off)
        sections.append(data[off:off + take])
        off += take
    return counts, sections, data[off:]


def join(head, counts, sections, tail):
    return head[:4] + struct.pack("<9I", *counts) + b"".join(sections) + tail


class Reducer:
    def __init__(self, binary, tool, scratch, site, deadline):
        self.binary, self.tool, self.scratch = binary, tool, scratch
        self.site, self.deadline, self.runs = site, deadline, 0

    def keeps_site(self, data):
        with open(self.scratch, "wb") as f:
            f.write(data)
        self.runs += 1
        return site_of(self.binary, self.tool, self.scratch) == self.site

    def in_time(self):
        return time.monotonic() < self.deadline

    def drop_elements(self, data, index):
        """Runs of section `index`'s elements, halves first."""
        size = ELEMENT_SIZES[index]
        have = len(split(data)[1][index]) // size
        run = max(1, have // 2)
        while run >= 1 and self.in_time():
            at = 0
            while at + run <= have and self.in_time():
                counts, sections, tail = split(data)
                counts[index] -= run
                sections[index] = sections[index][:at * size] + sections[index][(at + run) * size:]
                candidate = join(data, counts, sections, tail)
                if self.keeps_site(candidate):
                    data, have = candidate, have - run
                else:
                    at += run
            run //= 2
        return data

    def reduce(self, data):
        before = None
        while before != data and self.in_time():
            before = data
            counts, sections, tail = split(data)
            if tail and self.keeps_site(join(data, counts, sections, b"")):
                data = join(data, counts, sections, b"")
            for index in range(len(ELEMENT_SIZES)):
                data = self.drop_elements(data, index)
        return data


def main():
    if len(sys.argv) not in (5, 6):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    binary, tool, src, dst = sys.argv[1:5]
    seconds = float(sys.argv[5]) if len(sys.argv) == 6 else 60.0
    with open(src, "rb") as f:
        data = f.read()
    before = len(data)
    scratch = dst + ".try"
    site = site_of(binary, tool, src)
    if not site or len(data) < HEADER:
        print(f"reduce.py: {src}: {'no crash' if not site else 'shorter than the header'}", file=sys.stderr)
        return 1
    reducer = Reducer(binary, tool, scratch, site, time.monotonic() + seconds)
    data = reducer.reduce(data)
    stable = all(reducer.keeps_site(data) for _ in range(3))
    os.remove(scratch)
    if not stable:
        print(f"reduce.py: {src}: the reduced input does not replay to '{site}' every time", file=sys.stderr)
        return 1
    with open(dst, "wb") as f:
        f.write(data)
    print(f"{site}\t{before}\t{len(data)}\t{reducer.runs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
