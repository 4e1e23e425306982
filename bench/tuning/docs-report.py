#!/usr/bin/env python3
"""docs-report.py - docs/tuning.md's measured tables, as generated blocks
(bench/lib/docblocks.py; bench/docs-tables.py runs it in CI).

  bench/tuning/docs-report.py [--write | --check | --list] [--docs PAGE]

Blocks and the raw files in bench/results/ they are made from:

  results   the joint tuner on the combined applications: table.py's
            rendering of tuning-h200-2026-11-29/final/ (NAME.json, NAME.log)
  two-gpu   the verification on one H200 against two: the JSON's
            verification_wall_ms and the logs' "exit 0, N s" of
            tuning-h200-2026-11-29/final/ and two-gpu/

Standard library only.
"""
import importlib.util
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
import docblocks  # noqa: E402

RUN = os.path.join(ROOT, "bench", "results", "tuning-h200-2026-11-29")


def table_module():
    """bench/tuning/table.py (a script: loaded by path)."""
    spec = importlib.util.spec_from_file_location(
        "tuning_table", os.path.join(ROOT, "bench", "tuning", "table.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def results():
    return "\n".join(table_module().rows(os.path.join(RUN, "final"))) + "\n"


def run_of(directory, name):
    """(the JSON, the run's seconds from its log) of one run."""
    with open(os.path.join(RUN, directory, name + ".json"), encoding="utf-8") as f:
        j = json.load(f)
    with open(os.path.join(RUN, directory, name + ".log"), encoding="utf-8") as f:
        m = re.search(r"exit (\d+), (\d+) s", f.read())
    return j, int(m.group(2))


def two_gpu():
    out = ["| run | verification sets | verification s, device 0 alone "
           "| verification s, devices 0 and 1 | whole run s, one device | whole run s, two devices |",
           "|---|---|---|---|---|---|"]
    names = sorted(os.path.basename(p)[:-5] for p in os.listdir(os.path.join(RUN, "two-gpu"))
                   if p.endswith(".json"))
    for name in sorted(names, key=lambda n: (not n.startswith("image"), n)):
        one, one_s = run_of("final", name)
        two, two_s = run_of("two-gpu", name)
        out.append(f"| {name} | {len(two['verification'])} "
                   f"| {one['verification_wall_ms'] / 1000:.2f} "
                   f"| {two['verification_wall_ms'] / 1000:.2f} | {one_s} | {two_s} |")
    return "\n".join(out) + "\n"


def make_blocks():
    return {"results": results(), "two-gpu": two_gpu()}


if __name__ == "__main__":
    docblocks.main("tuning/docs-report.py", "report", os.path.join(ROOT, "docs", "tuning.md"),
                   make_blocks, "bench/results/tuning-h200-2026-11-29", names_from_page=True)
