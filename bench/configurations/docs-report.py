#!/usr/bin/env python3
"""docs-report.py - docs/configurations.md's measured tables, as generated
blocks (bench/lib/docblocks.py; bench/docs-tables.py runs it in CI).

  bench/configurations/docs-report.py [--write | --check | --list] [--docs PAGE]

Blocks and the raw files in bench/results/ they are made from:

  gemver-space      the cross product against one configuration built on
                    demand (configurations-2026-11-28-objects/gemver-space.json,
                    bench/configurations/gemver-space.sh)
  gemver-first-run  GEMVER's first run end to end on the H200, per build
                    (v3-h200-2026-11-28/gemver-objects/gemver/BUILD-K.txt,
                    the raw runs of bench/configurations/gemver-gpu.sh, and
                    its build-times.txt); medians and ranges as gemver-gpu.sh
                    prints them
  v3-bench          approx-bench before and after v3
                    (v3-h200-2026-11-28/bench.md: compare-bench.sh's table and
                    after/before lines; the before runs' own files did not
                    come back)
  v3-apps           the Table-6 suite before and after v3
                    (v3-h200-2026-11-28/apps/apps-{before,after}-*.json,
                    through bench/configurations/compare-apps.py's reading)

Standard library only.
"""
import glob
import importlib.util
import json
import os
import re
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
import docblocks  # noqa: E402

RESULTS = os.path.join(ROOT, "bench", "results")
V3 = os.path.join(RESULTS, "v3-h200-2026-11-28")

# What each gemver-gpu.sh build is (its directory under .carry/v3/gemver).
BUILDS = {
    "all": "cross product (`precision-all=f32,f16,bf16`)",
    "default": "on demand: the default configuration (9 build knobs)",
    "mixed": "on demand: f16 `A`, bf16 `w`",
    "plain": "plain f64 build, no knobs",
}


def gemver_space():
    with open(os.path.join(RESULTS, "configurations-2026-11-28-objects", "gemver-space.json"),
              encoding="utf-8") as f:
        j = json.load(f)
    c, d = j["cross_product"], j["on_demand"]
    hits = d["hit_seconds"]
    return "\n".join([
        "| path | kernels in the PTX | PTX bytes | manifest bytes | time s |",
        "|---|---|---|---|---|",
        f"| `precision-all=f32,f16,bf16` (cross product, one build) | {c['kernels']:,} "
        f"| {c['ptx_bytes']:,} | {c['manifest_bytes']:,} | {c['seconds']:.3f} |",
        f"| approx-build, first configuration ({d['build_knobs']} build knobs) | {d['kernels']} "
        f"| {d['ptx_bytes']:,} | {d['manifest_bytes']:,} | {d['first_seconds']:.3f} |",
        f"| approx-build, another configuration | {d['kernels']} | | | {d['other_seconds']:.3f} |",
        f"| approx-build, cache hit (median of {len(hits)}: "
        f"{' '.join(f'{h:.3f}' for h in hits)}) | | | | {statistics.median(hits):.3f} |",
    ]) + "\n"


def gemver_first_run():
    """gemver-gpu.sh's table, from its raw runs (KEY VALUE lines)."""
    d = os.path.join(V3, "gemver-objects")
    runs = {}
    for path in sorted(glob.glob(os.path.join(d, "gemver", "*-*.txt"))):
        build = os.path.basename(path).rsplit("-", 1)[0]
        with open(path, encoding="utf-8") as f:
            v = dict(l.split() for l in f if len(l.split()) == 2)
        if "total_ms" in v:
            runs.setdefault(build, []).append(v)
    with open(os.path.join(d, "build-times.txt"), encoding="utf-8") as f:
        build_s = {k[:-len("_build_s")]: float(x) for k, x in (l.split() for l in f if l.strip())}

    def col(vals, key):
        x = [float(v[key]) for v in vals]
        return f"{statistics.median(x):.0f} ({min(x):.0f}-{max(x):.0f})"

    out = ["| build | runs | kernels in the PTX | PTX bytes | manifest bytes "
           "| JIT load ms (median, range) | first run end to end ms (median, range) "
           "| approx-build s (no GPU) |",
           "|---|---|---|---|---|---|---|---|"]
    for b in sorted(runs):
        vals, v = runs[b], runs[b][0]
        out.append(f"| {b}: {BUILDS.get(b, '')} | {len(vals)} | {int(v['kernels_in_ptx']):,} "
                   f"| {int(v['ptx_bytes']):,} | {int(v['manifest_bytes']):,} "
                   f"| {col(vals, 'load_jit_ms')} | {col(vals, 'total_ms')} "
                   f"| {f'{build_s[b]:.3f}' if b in build_s else '-'} |")
    return "\n".join(out) + "\n"


def v3_bench():
    """compare-bench.sh's bench.md: its per-run table and after/before lines."""
    with open(os.path.join(V3, "bench.md"), encoding="utf-8") as f:
        text = f.read()
    med = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[1] in ("before", "after"):
            med[(cells[0], cells[1], "0")] = cells[3]
            med[(cells[0], cells[1], "max")] = cells[5]
    out = ["| example | ours/hand at | before (median of 3) | after (median of 3) "
           "| after/before of the medians |",
           "|---|---|---|---|---|"]
    for m in re.finditer(r"^(\S+) at (0|max): after/before of the medians ([0-9.]+) \(([-+][0-9.]+%)\)$",
                         text, re.M):
        ex, at, r, pct = m.groups()
        at_name = "λ = 0" if at == "0" else "λmax"
        out.append(f"| {ex} | {at_name} | {med[(ex, 'before', at)]} | {med[(ex, 'after', at)]} "
                   f"| {r} ({pct}) |")
    return "\n".join(out) + "\n"


def v3_apps():
    """compare-apps.py's table of the Table-6 suite, set hw."""
    spec = importlib.util.spec_from_file_location(
        "compare_apps", os.path.join(ROOT, "bench", "configurations", "compare-apps.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    apps = os.path.join(V3, "apps")
    before = mod.load(sorted(glob.glob(os.path.join(apps, "apps-before-*.json"))), "hw")
    after = mod.load(sorted(glob.glob(os.path.join(apps, "apps-after-*.json"))), "hw")
    out = mod.table(before, after, "hw")
    return "\n".join(out) + "\n"


def make_blocks():
    return {"gemver-space": gemver_space(), "gemver-first-run": gemver_first_run(),
            "v3-bench": v3_bench(), "v3-apps": v3_apps()}


if __name__ == "__main__":
    docblocks.main("configurations/docs-report.py", "report", os.path.join(ROOT, "docs", "configurations.md"),
                   make_blocks, "bench/results/{configurations-2026-11-28-objects,v3-h200-2026-11-28}",
                   names_from_page=True)
