#!/usr/bin/env python3
"""table.py corpus.json: the docs/cuda.md table of a run-corpus result."""
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


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: table.py corpus.json")
    with open(sys.argv[1]) as f:
        run = json.load(f)
    print(f"GPU {run['gpu']}, driver API {run['driver_api']}\n")
    print("| kernel | λ=0 vs nvcc -O3 | fast-math vs -O3 | λ=max vs -O3 | nvcc -O3 ms "
          "| λ=0 / nvcc -O3 | fast-math ms | λ=max / fast-math "
          "| registers -O3 / fast / ours | rounds |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for k in run["kernels"]:
        a, b = k["agreement"], k["builds"]
        print(f"| {k['id']} | {agreement(a['ours0_vs_nvcc'])} | {agreement(a['fast_vs_nvcc'])} "
              f"| {agreement(a['oursmax_vs_nvcc'])} | {b['nvcc']['ms']['median']:.4f} "
              f"| {interval(k['ratio_ours0_nvcc'])} | {b['fast']['ms']['median']:.4f} "
              f"| {interval(k['ratio_oursmax_fast'])} | {b['nvcc']['registers']} / "
              f"{b['fast']['registers']} / {b['ours0']['registers']} | {k['rounds']} |")


if __name__ == "__main__":
    main()
