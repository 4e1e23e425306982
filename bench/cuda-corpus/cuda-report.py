#!/usr/bin/env python3
"""cuda-report.py - docs/cuda.md's measured tables from the committed runs.

    bench/cuda-corpus/cuda-report.py [--write | --check | --list] [--docs docs/cuda.md]

The blocks between '<!-- report:NAME -->' and '<!-- /report:NAME -->'
(bench/lib/docblocks.py); --check (CI) fails, naming the block, where the
page differs:

  corpus         "Parity with nvcc: the corpus": bench/cuda-corpus/table.py's
                 rendering of bench/results/cuda-corpus-h200-2026-11-28/corpus.json
  table6-parity  "Against nvcc at λ = 0": run-apps' JSON of the Table-6 suite,
                 bench/results/table6-parity-h200-2026-11-28/apps.json (set hw;
                 ours/hand = the interleaved medians' ratio, as run-apps
                 prints it in apps.md)
"""
import json
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
sys.path.insert(0, os.path.join(ROOT, "bench", "cuda-corpus"))
import docblocks  # noqa: E402  (bench/lib: generated blocks of a page)
import table as corpus_table  # noqa: E402  (bench/cuda-corpus/table.py)
RESULTS = os.path.join(ROOT, "bench", "results")
CORPUS = os.path.join(RESULTS, "cuda-corpus-h200-2026-11-28", "corpus.json")
PARITY = os.path.join(RESULTS, "table6-parity-h200-2026-11-28", "apps.json")


def corpus_block():
    with open(CORPUS) as f:
        return "\n".join(corpus_table.rows(json.load(f))) + "\n"


def parity_block():
    with open(PARITY) as f:
        run = json.load(f)
    out = ["| app | λ=0 outputs differing from nvcc | ours/hand time λ=0 | ours/hand time λmax |",
           "|---|---|---|---|"]
    for app in run["apps"]:
        oh = app["sets"]["hw"]["ours_hand"]
        out.append("| %s | %d of %d | %.3f | %.3f |" % (
            app["abbr"], oh["zero_differ"], oh["zero_compared"],
            oh["ours0"] / oh["hand0"], oh["oursmax"] / oh["handmax"]))
    return "\n".join(out) + "\n"


def doc_blocks():
    return {"corpus": corpus_block(), "table6-parity": parity_block()}


if __name__ == "__main__":
    docblocks.main("cuda-report.py", "report", os.path.join(ROOT, "docs", "cuda.md"), doc_blocks,
                   "bench/results/{cuda-corpus,table6-parity}-h200-2026-11-28",
                   names_from_page=True)
