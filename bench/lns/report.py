#!/usr/bin/env python3
"""report.py - the LNS results as tables and the Figure 3 analog (SVG).

    bench/lns/report.py LNS_JSON [SVG_OUT]

LNS_JSON is lns-bench's --json output (bench/lns/run-lns.sh). Prints the
accuracy table and Table 1 as markdown, each split's speedup S against the
limit B as the captured share of the available gain (S-1)/(B-1) (S/B
beside it: it scores the SFU alone at 1/B); draws the worst-case error of sb
against the input precision f (the paper's Figure 3) for texture1, texture2
and texture3, with the SFU, precise and Horner levels as flat lines, on a
log scale, to SVG_OUT (default lns-figure3.svg), with bench/lib/svgplot.py
(no plotting library needed). Rows a run lacks (an older JSON without
texture3) are left out.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from svgplot import Figure  # noqa: E402  (bench/lib: the plot module)


def svg_figure3(acc, path):
    series = {}
    flat = {}
    for row in acc:
        name = row["module"]
        if name.startswith("texture"):
            kind = name.split("_")[0]
            series.setdefault(kind, []).append((row["f"], float(row["grid"][0])))
        else:
            flat[name] = float(row["grid"][0])
    fs = [f for s in series.values() for f, _ in s]
    ys = [e for s in series.values() for _, e in s] + list(flat.values())
    lo = math.floor(math.log2(min(ys))) - 1
    hi = math.ceil(math.log2(max(ys))) + 1
    fig = Figure(640, 400, font_size=12)
    ax = fig.axes(rect=(70, 20, 640 - 70 - 150, 400 - 20 - 60),
                  xlabel="input precision f (k = 2^(f-8) segments per unit)",
                  ylabel="max |sb error|",
                  x=dict(lo=min(fs), hi=max(fs), ticks=sorted(set(fs)),
                         fmt=lambda f: "%d" % f),
                  y=dict(scale="log2", lo=2.0 ** lo, hi=2.0 ** hi, grid=True,
                         ticks=[2.0 ** b for b in range(lo, hi + 1, 2)]))
    colours = {"texture2": "#c0392b", "texture1": "#2471a3", "texture3": "#1e8449"}
    for kind, pts in sorted(series.items()):
        pts.sort()
        ax.line([f for f, _ in pts], [e for _, e in pts], color=colours.get(kind, "#333"),
                radius=3, label=kind)
    for name, e in sorted(flat.items()):
        ax.hline(e, color="#777", dash="4 3", label=name, anchor="outside")
    ax.legend("right")
    fig.save(path)


def share_text(s, b):
    """The split's captured share of the gain the texture units can add,
    (S-1)/(B-1), with S/B beside it: S/B scores the SFU alone (S = 1) at
    1/B, so it flatters a split that gains little."""
    return "%.1f%% of the available gain (S-1)/(B-1); S/B %.1f%% (the SFU alone: %.1f%%)" % (
        100 * (s - 1) / (b - 1), 100 * s / b, 100 / b)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: report.py LNS_JSON [SVG_OUT]")
    with open(sys.argv[1]) as f:
        data = json.load(f)
    print("# LNS on %s\n" % data.get("gpu", "?"))
    acc = data.get("accuracy", [])
    if acc:
        print("| module | f | grid sb | grid db (x<=-1) | grid db (near 0) | all-f32 sb | all-f32 db (x<=-1) | all-f32 db (near 0) |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for r in acc:
            # lns-bench writes inf/nan as strings (JSON has neither).
            print("| %s | %d | %s |" % (r["module"], r["f"], " | ".join("%.3g" % float(v) for v in r["grid"] + r["all"])))
        svg_figure3(acc, sys.argv[2] if len(sys.argv) > 2 else "lns-figure3.svg")
    for what, label in (("sb", "sb alone"), ("sbdb", "sb and db")):
        t = data.get("throughput", {}).get(what)
        if not t:
            continue
        hw = t["hw"]
        print("\n## %s: ps per element (ratio to the SFU row)\n" % label)
        for row in ("order1", "order2", "order3", "hw", "horner5", "precise", "split", "mix", "hw2"):
            if row in t:
                print("- %s: %.2f (%.3f)" % (row, t[row], t[row] / hw))
        print("- split lambda %s; limit B = 1 + r_TEX/r_SFU = %.3f; split speedup S = %.3f: %s"
              % (t["split_lambda"], t["limit"], t["split_speedup"],
                 share_text(t["split_speedup"], t["limit"])))
        if "versioned_speedup" in t:
            print("- versioned by hand: S = %.3f: %s"
                  % (t["versioned_speedup"], share_text(t["versioned_speedup"], t["limit"])))
    # Dynamic work distribution (lns-bench --only dynamic).
    for what, t in sorted(data.get("dynamic", {}).items()):
        print("\n## dynamic distribution, %s: SFU %.3f ps, texture2 %.3f ps, split %.3f ps (lambda %s)"
              % (what, t["hw"], t["order2"], t["split"], t["split_lambda"]))
        print("- limit B = %.3f; split speedup S = %.3f: %s"
              % (t["limit"], t["split_speedup"], share_text(t["split_speedup"], t["limit"])))


if __name__ == "__main__":
    main()
