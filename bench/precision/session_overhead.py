#!/usr/bin/env python3
"""session_overhead.py OUT: the tables of bench/precision/session-overhead.sh
from its OUT directory (BUILD-MODE-ROUND.log, run-app's output): per build
and mode the median program time with its 95% bootstrap interval, the
kernels' and copies' medians and the rest per launch; then AFTER / BEFORE
per mode, the median of per-round ratios of the rounds' medians with its
interval. scaling-report.py renders the same text into docs/precision.md.
Standard library only.
"""
import os
import random
import re
import statistics
import sys

LINE = re.compile(r"run \d+: total_ms=(\S+) alloc_ms=\S+ h2d_ms=(\S+) kernels_ms=(\S+) "
                  r"d2h_ms=(\S+) launches=(\d+)")
LOG = re.compile(r"(before|after)-(plain|control)-(\d+)\.log")


def runs(out_dir, build, mode, r):
    """(total, h2d, kernels, d2h, launches) of each program of one call."""
    path = os.path.join(out_dir, f"{build}-{mode}-{r}.log")
    if not os.path.exists(path):
        return []
    return [tuple(float(x) for x in m.groups()) for m in LINE.finditer(open(path).read())]


def interval(xs, n=2000):
    """95% percentile-bootstrap interval of the median (fixed seed)."""
    rng = random.Random(1)
    b = sorted(statistics.median([rng.choice(xs) for _ in xs]) for _ in range(n))
    return b[int(0.025 * n)], b[int(0.975 * n) - 1]


def tables(out_dir):
    rounds = max((int(m.group(3)) for f in os.listdir(out_dir) for m in [LOG.fullmatch(f)] if m),
                 default=0)
    out = ["| build | mode | programs | total ms [95% interval] | kernels ms | copies ms "
           "| rest per launch (us) |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    per_round = {}
    for build in ("before", "after"):
        for mode in ("plain", "control"):
            calls = [runs(out_dir, build, mode, r) for r in range(1, rounds + 1)]
            per_round[build, mode] = [statistics.median(t[0] for t in c) if c else None
                                      for c in calls]
            every = [t for c in calls for t in c]
            if not every:
                out.append(f"| {build} | {mode} | 0 | failed | | | |")
                continue
            tot = [t[0] for t in every]
            lo, hi = interval(tot)
            ker = statistics.median(t[2] for t in every)
            cop = statistics.median(t[1] + t[3] for t in every)
            rest = (statistics.median(tot) - ker - cop) / every[0][4] * 1e3
            out.append(f"| {build} | {mode} | {len(tot)} | {statistics.median(tot):.2f} "
                       f"[{lo:.2f}, {hi:.2f}] | {ker:.2f} | {cop:.2f} | {rest:.1f} |")
    out += ["", "| mode | after / before (per-round medians) [95% interval] | rounds |",
            "| --- | --- | --- |"]
    for mode in ("plain", "control"):
        ratios = [a / b for a, b in zip(per_round["after", mode], per_round["before", mode])
                  if a is not None and b is not None]
        if not ratios:
            out.append(f"| {mode} | no rounds | 0 |")
            continue
        lo, hi = interval(ratios)
        out.append(f"| {mode} | {statistics.median(ratios):.3f} [{lo:.3f}, {hi:.3f}] "
                   f"| {len(ratios)} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: session_overhead.py OUT_DIR (session-overhead.sh's OUT)")
    sys.stdout.write(tables(sys.argv[1]))
