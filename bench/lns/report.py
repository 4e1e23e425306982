#!/usr/bin/env python3
"""report.py - the LNS results as tables and the Figure 3 analog (SVG).

    bench/lns/report.py LNS_JSON [SVG_OUT]

LNS_JSON is lns-bench's --json output (bench/lns/run-lns.sh). Prints the
accuracy table and Table 1 as markdown; draws the worst-case error of sb
against the input precision f (the paper's Figure 3) for texture1, texture2
and texture3, with the SFU, precise and Horner levels as flat lines, on a
log scale, to SVG_OUT (default lns-figure3.svg). No plotting library
needed. Rows a run lacks (an older JSON without texture3) are left out.
"""
import json
import math
import sys


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
    w, h, left, bottom, top, right = 640, 400, 70, 50, 20, 150
    fs = [f for s in series.values() for f, _ in s]
    fmin, fmax = min(fs), max(fs)
    ys = [e for s in series.values() for _, e in s] + list(flat.values())
    lo = math.floor(math.log2(min(ys))) - 1
    hi = math.ceil(math.log2(max(ys))) + 1

    def px(f):
        return left + (f - fmin) / (fmax - fmin) * (w - left - right)

    def py(e):
        return top + (hi - math.log2(e)) / (hi - lo) * (h - top - bottom)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">' % (w, h),
           '<rect width="100%" height="100%" fill="white"/>']
    for b in range(lo, hi + 1, 2):
        y = py(2.0 ** b)
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (left, y, w - right, y))
        out.append('<text x="%d" y="%.1f" text-anchor="end">2^%d</text>' % (left - 5, y + 4, b))
    for f in sorted(set(fs)):
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (px(f), h - bottom + 18, f))
    out.append('<text x="%d" y="%d" text-anchor="middle">input precision f (k = 2^(f-8) segments per unit)</text>'
               % ((left + w - right) // 2, h - 10))
    out.append('<text x="15" y="%d" transform="rotate(-90 15 %d)" text-anchor="middle">max |sb error|</text>'
               % (h // 2, h // 2))
    colours = {"texture2": "#c0392b", "texture1": "#2471a3", "texture3": "#1e8449"}
    for i, (kind, pts) in enumerate(sorted(series.items())):
        pts.sort()
        d = " ".join("%.1f,%.1f" % (px(f), py(e)) for f, e in pts)
        c = colours.get(kind, "#333")
        out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>' % (d, c))
        for f, e in pts:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (px(f), py(e), c))
        out.append('<text x="%d" y="%d" fill="%s">%s</text>' % (w - right + 10, top + 15 + 18 * i, c, kind))
    for j, (name, e) in enumerate(sorted(flat.items())):
        y = py(e)
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#777" stroke-dasharray="4 3"/>' % (left, y, w - right, y))
        out.append('<text x="%d" y="%.1f" fill="#555">%s</text>' % (w - right + 10, y + 4, name))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


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
        print("- split lambda %s; limit 1 + r_TEX/r_SFU = %.3f; split speedup %.3f (%.1f%% of the limit)"
              % (t["split_lambda"], t["limit"], t["split_speedup"], 100 * t["split_speedup"] / t["limit"]))


if __name__ == "__main__":
    main()
