#!/usr/bin/env python3
"""docs-tables.py - regenerate or check every generated table of the docs.

    bench/docs-tables.py [--write | --check] [--root DIR]

Each measured table of docs/*.md and README.md sits between
'<!-- report:NAME -->' and '<!-- /report:NAME -->' and is made from the raw
files in bench/results/ by its suite's generator (bench/lib/docblocks.py
gives each the same command line). This runs every generator of GENERATORS
on its page: --write replaces the blocks, --check (CI) prints each block
that differs and exits 1; both also fail when a page names a
`bench/results/...` path this tree lacks (a figure without its raw file, or
a stale folder name). --root DIR reads the pages from DIR (a copy of
the tree's docs/ and README.md) instead of the tree: the tests edit such a
copy to show that a hand-edited number fails. Standard library only; the
generators read only committed files (no GPU).
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# (generator and its arguments, page it writes): one line per suite. A
# generator takes [--write | --check] --docs PAGE and updates the blocks
# that the page marks.
GENERATORS = [
    (["bench/hrcs/report.py"], "docs/hrcs.md"),
    (["bench/lns/report.py"], "docs/lns.md"),
    (["bench/perforation/report.py"], "docs/perforation.md"),
    (["bench/apps/baselines-report.py"], "docs/benchmarks.md"),
    (["bench/apps/report.py"], "docs/benchmarks.md"),
    (["bench/examples-report.py"], "docs/benchmarks.md"),
    (["bench/slots-table.py"], "docs/benchmarks.md"),
    (["bench/accuracy/render-accuracy.py"], "docs/accuracy.md"),
    (["bench/cuda-corpus/cuda-report.py"], "docs/cuda.md"),
    (["bench/apps/sass-report.py"], "docs/sfu-apps-sass.md"),
    (["bench/accuracy/sfu-report.py"], "docs/sfu.md"),
    (["bench/tuning/docs-report.py"], "docs/tuning.md"),
    (["bench/configurations/docs-report.py"], "docs/configurations.md"),
    (["bench/readme-status.py"], "README.md"),
    (["bench/apps/baselines-report.py"], "README.md"),
    (["bench/precision/scaling-report.py"], "docs/precision.md"),
    (["bench/precision/scaling-report.py"], "README.md"),
]


def pages(root):
    """README.md and docs/*.md under `root`, relative to it."""
    docs = os.path.join(root, "docs")
    names = sorted(f for f in os.listdir(docs) if f.endswith(".md")) if os.path.isdir(docs) else []
    return (["README.md"] if os.path.exists(os.path.join(root, "README.md")) else []) + \
        [os.path.join("docs", f) for f in names]


def missing_results(path):
    """The bench/results/ paths the page at `path` names that this tree
    lacks. A path cut by a pattern (`apps-*.json`, `{a,b}`) is checked up to
    its last complete folder."""
    text = open(path, encoding="utf-8").read()
    missing = []
    for m in re.finditer(r"bench/results/([A-Za-z0-9._/-]*)", text):
        rel = m.group(1)
        if text[m.end():m.end() + 1] in ("*", "{"):
            rel = rel[:rel.rfind("/") + 1]
        rel = rel.rstrip(".,-")
        if rel and not os.path.exists(os.path.join(ROOT, "bench", "results", rel)):
            missing.append(rel)
    return list(dict.fromkeys(missing))


def main():
    ap = argparse.ArgumentParser(prog="docs-tables.py")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", action="store_true")
    g.add_argument("--check", action="store_true")
    ap.add_argument("--root", default=ROOT,
                    help="where docs/ and README.md are (default: this tree)")
    a = ap.parse_args()
    failed = []
    for command, page in GENERATORS:
        path = os.path.join(a.root, page)
        if not os.path.exists(path):
            print(f"docs-tables.py: {page}: no such page under {a.root}", file=sys.stderr)
            failed.append(page)
            continue
        # The generators always read the results of this tree.
        run = subprocess.run([sys.executable, os.path.join(ROOT, command[0])] + command[1:]
                             + ["--write" if a.write else "--check", "--docs", path])
        if run.returncode != 0:
            failed.append(page)
    # Every block a page marks is made by one of the page's generators (a
    # generator updates only the marked blocks it knows).
    made = {}
    for command, page in GENERATORS:
        names = subprocess.run([sys.executable, os.path.join(ROOT, command[0])] + command[1:]
                               + ["--list"], capture_output=True, text=True).stdout.split()
        made.setdefault(page, set()).update(names)
    for page, names in made.items():
        path = os.path.join(a.root, page)
        if not os.path.exists(path):
            continue
        marked = re.findall(r"<!-- report:([A-Za-z0-9-]+) -->", open(path, encoding="utf-8").read())
        for name in sorted(set(marked) - names):
            print(f"docs-tables.py: {page}: no generator makes block '{name}'", file=sys.stderr)
            failed.append(page)
    # Every raw result a page names is committed (a figure without its raw
    # file, or a stale folder name, fails here).
    for page in pages(a.root):
        for name in missing_results(os.path.join(a.root, page)):
            print(f"docs-tables.py: {page}: names bench/results/{name}, which does not exist",
                  file=sys.stderr)
            failed.append(page)
    if failed:
        print("docs-tables.py: failed on %s (the messages above; "
              "--write rewrites the tables from bench/results)" % ", ".join(dict.fromkeys(failed)),
              file=sys.stderr)
        sys.exit(1)
    if a.check:
        print(f"docs-tables.py: the generated tables of {len({p for _, p in GENERATORS})} pages "
              "match bench/results")


if __name__ == "__main__":
    main()
