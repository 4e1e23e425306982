#!/usr/bin/env python3
"""table.py corpus.json [--check DOC]: the docs/cuda.md table of a
run-corpus result; with --check, whether DOC holds every row of it verbatim
(exit status 1 and the rows that differ if not), so a number edited by hand
in the docs fails the test suite (test/bench/cuda-corpus.test)."""
import json
import sys


def agreement(a):
    if not a["differ"]:
        return "0"
    ulps = "NaN" if a["max_ulps"] is None else a["max_ulps"]
    text = f"{100 * a['differ'] / a['compared']:.1f}% ({ulps} ulps"
    if "max_abs" in a and a.get("max_reference"):
        text += f"; abs {a['max_abs']:.2g} of {a['max_reference']:.2g}"
    return text + ")"


def interval(r):
    return f"{r['median']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]"


def rows(run):
    yield ("| kernel | λ=0 vs nvcc -O3 | fast-math vs -O3 | λ=max vs -O3 | nvcc -O3 ms "
           "| λ=0 / nvcc -O3 | fast-math ms | λ=max / fast-math "
           "| registers -O3 / fast / ours | rounds |")
    yield "|---|---|---|---|---|---|---|---|---|---|"
    for k in run["kernels"]:
        a, b = k["agreement"], k["builds"]
        yield (f"| {k['id']} | {agreement(a['ours0_vs_nvcc'])} | {agreement(a['fast_vs_nvcc'])} "
               f"| {agreement(a['oursmax_vs_nvcc'])} | {b['nvcc']['ms']['median']:.4f} "
               f"| {interval(k['ratio_ours0_nvcc'])} | {b['fast']['ms']['median']:.4f} "
               f"| {interval(k['ratio_oursmax_fast'])} | {b['nvcc']['registers']} / "
               f"{b['fast']['registers']} / {b['ours0']['registers']} | {k['rounds']} |")


def main():
    args = sys.argv[1:]
    doc = None
    if len(args) == 3 and args[1] == "--check":
        doc = args[2]
        args = args[:1]
    if len(args) != 1:
        sys.exit("usage: table.py corpus.json [--check DOC]")
    try:
        with open(args[0]) as f:
            run = json.load(f)
        table = list(rows(run))
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"table.py: cannot read a run-corpus result from {args[0]}: {e!r}")
    if doc is None:
        print(f"GPU {run['gpu']}, driver API {run['driver_api']}\n")
        print("\n".join(table))
        return
    with open(doc) as f:
        lines = set(f.read().splitlines())
    missing = [r for r in table if r not in lines]
    print(f"{len(table)} rows, {len(missing)} not in {doc}")
    for r in missing:
        print("  " + r)
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
