#!/usr/bin/env python3
"""sfu-report.py - docs/sfu.md's measured table from the committed run.

    bench/accuracy/sfu-report.py [--write | --check | --list] [--docs docs/sfu.md]

The block between '<!-- report:NAME -->' and '<!-- /report:NAME -->'
(bench/lib/docblocks.py); --check (CI) fails, naming the block, where the
page differs:

  f64-ladder  "f64 refinement ladder": the max ulp error of each rung's SFU
              form over normal inputs (and the correct bits it leaves), from
              the accuracy run the page cites,
              bench/results/accuracy-h200-2026-11-21.json (filled in by
              render-accuracy.py's template code; a rung range shows
              min–max over rungs 2 and 3)
"""
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
import docblocks  # noqa: E402  (bench/lib: generated blocks of a page)
_spec = importlib.util.spec_from_file_location("render_accuracy",
                                               os.path.join(HERE, "render-accuracy.py"))
render = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(render)
RUN = "accuracy-h200-2026-11-21.json"

LADDER = """\
| rung | rcp | rsqrt | div | sqrt |
| --- | --- | --- | --- | --- |
| 0 (the paper's form) | {ue:f64_n0@rcp@sfu@!all} ulp (≈ {b1:f64_n0@rcp@sfu@!all} bits) | {ue:f64_n0@rsqrt@sfu@!all} ulp (≈ {b1:f64_n0@rsqrt@sfu@!all} bits) | {ue:f64_n0@div@sfu@!all} ulp | {ue:f64_n0@sqrt@sfu@!all} ulp |
| 1 | {u:f64_n1@rcp@sfu@!all} ulp (≈ {b1:f64_n1@rcp@sfu@!all} bits) | {u:f64_n1@rsqrt@sfu@!all} ulp (≈ {b1:f64_n1@rsqrt@sfu@!all} bits) | {u:f64_n1@div@sfu@!all} ulp | {u:f64_n1@sqrt@sfu@!all} ulp |
| 2, 3 | {range:f64_n2,f64_n3@rcp@sfu@!all} ulp | {range:f64_n2,f64_n3@rsqrt@sfu@!all} ulp | {range:f64_n2,f64_n3@div@sfu@!all} ulp | {range:f64_n2,f64_n3@sqrt@sfu@!all} ulp |
"""


def fill(template, rows):
    """render-accuracy.py's placeholders, and {range:SEL}: 'min–max' ulp
    over the rows of SEL, one number where they agree."""
    def span(sel):
        lo = render.fill("{u:min-%s}" % sel, rows, {})
        hi = render.fill("{u:%s}" % sel, rows, {})
        return lo if lo == hi else "%s–%s" % (lo, hi)
    template = render.re.sub(r"\{range:([^{}]+)\}", lambda m: span(m.group(1)), template)
    return render.fill(template, rows, {})


def doc_blocks():
    with open(os.path.join(render.RESULTS, RUN)) as f:
        rows = json.load(f)
    return {"f64-ladder": fill(LADDER, rows)}


if __name__ == "__main__":
    docblocks.main("sfu-report.py", "report", os.path.join(ROOT, "docs", "sfu.md"), doc_blocks,
                   "bench/results/" + RUN, names_from_page=True)
