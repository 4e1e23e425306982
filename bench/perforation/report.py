#!/usr/bin/env python3
"""report.py - Pareto fronts of the perforation benchmark.

    python3 bench/perforation/report.py perforation.json OUT_DIR

Reads perforation-bench's JSON; prints a summary (per example and size:
the direct kernel's bandwidth, the accurate tiling against it, the fastest
input- and output-perforated versions), then for every example and size the
Pareto front (speedup over the baseline, median error over the input set;
a version is on the front when no other is both faster and at most as
wrong) and the fastest version under each quality bound, and draws
OUT_DIR/pareto-NAME.svg (error against speedup at the largest size, the
front joined). Standard library only: it also runs on the GPU machine.
"""
import json
import math
import os
import statistics
import sys

BOUNDS = [0.01, 0.05, 0.10]  # QoS: primary error at most 1%, 5%, 10%


def primary(version, metric):
    vals = [e["mre"] if metric == "mre" else e["mean_error"]
            for e in version["errors"]]
    vals = [v for v in vals if v is not None]
    if not vals:
        return 0.0 if version["scheme"] == "" else math.inf
    return statistics.median(vals)


def pareto(points):
    """points: (speedup, error, label); the non-dominated ones, by speedup."""
    front = []
    for p in points:
        dominated = any(q[0] >= p[0] and q[1] <= p[1] and (q[0] > p[0] or q[1] < p[1])
                        for q in points)
        if not dominated:
            front.append(p)
    return sorted(front)


def svg(path, title, points, front):
    W, H, L, B = 640, 420, 70, 50
    xs = [p[0] for p in points]
    ys = [max(p[1], 1e-6) for p in points]
    x0, x1 = min(xs + [1.0]) * 0.95, max(xs) * 1.05
    y0, y1 = math.log10(min(ys)) - 0.2, math.log10(max(ys)) + 0.2

    def X(v):
        return L + (v - x0) / (x1 - x0) * (W - L - 20)

    def Y(v):
        return H - B - (math.log10(max(v, 1e-6)) - y0) / (y1 - y0) * (H - B - 30)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="18" text-anchor="middle" font-size="13">{title}</text>',
           f'<line x1="{L}" y1="{H - B}" x2="{W - 20}" y2="{H - B}" stroke="black"/>',
           f'<line x1="{L}" y1="{H - B}" x2="{L}" y2="30" stroke="black"/>',
           f'<text x="{W / 2}" y="{H - 12}" text-anchor="middle">speedup over the baseline</text>',
           f'<text x="16" y="{H / 2}" transform="rotate(-90 16 {H / 2})" '
           f'text-anchor="middle">median error (log)</text>']
    for k in range(6):
        v = x0 + (x1 - x0) * k / 5
        out.append(f'<text x="{X(v)}" y="{H - B + 15}" text-anchor="middle">{v:.2f}</text>')
    for e in range(math.floor(y0), math.ceil(y1) + 1):
        if y0 <= e <= y1:
            out.append(f'<text x="{L - 5}" y="{Y(10 ** e) + 4}" text-anchor="end">1e{e}</text>')
    out.append('<polyline fill="none" stroke="#c33" stroke-width="1.5" points="' +
               " ".join(f"{X(p[0]):.1f},{Y(p[1]):.1f}" for p in front) + '"/>')
    for p in points:
        on = p in front
        out.append(f'<circle cx="{X(p[0]):.1f}" cy="{Y(p[1]):.1f}" r="{4 if on else 2.5}" '
                   f'fill="{"#c33" if on else "#69c"}"><title>{p[2]}</title></circle>')
        if on:
            out.append(f'<text x="{X(p[0]) + 6:.1f}" y="{Y(p[1]) - 4:.1f}">{p[2]}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out))


def summary(data):
    """One row per example and size: the baselines' bandwidth, and the best
    input- and output-perforated versions (speedup over the baseline, the
    primary error's median over the input set)."""
    copy = data["copy_gbs"]
    print(f"| example | size | direct GB/s (% of copy) | best accurate tiling / direct "
          f"| best input perforation | best output perforation |")
    print("|---|---|---|---|---|---|")
    for ex in data["examples"]:
        vs = ex["versions"]
        nin = 2 if ex["name"] == "hotspot" else 1
        for size in sorted(vs[0]["ms"], key=int):
            n = int(size)
            direct = vs[0]["ms"][size]
            gbs = (nin + 1) * n * n * 4 / direct / 1e6
            acc = min((v for v in vs if v["scheme"] == "accurate"),
                      key=lambda v: v["ms"][size])
            base = min(direct, acc["ms"][size])

            def best(pred):
                c = [v for v in vs if pred(v)]
                if not c:
                    return "none"
                v = min(c, key=lambda v: v["ms"][size])
                return (f"{v['label']}: {base / v['ms'][size]:.2f}x, "
                        f"{100 * primary(v, ex['metric']):.2f}%")

            print(f"| {ex['name']} | {n}^2 | {gbs:.0f} ({100 * gbs / copy:.0f}%) "
                  f"| {direct / acc['ms'][size]:.2f} ({acc['label']}) "
                  f"| {best(lambda v: v['scheme'] not in ('', 'accurate') and not v['label'].startswith('out:'))} "
                  f"| {best(lambda v: v['label'].startswith('out:'))} |")
    print()


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: report.py perforation.json OUT_DIR")
    with open(sys.argv[1]) as f:
        data = json.load(f)
    os.makedirs(sys.argv[2], exist_ok=True)
    summary(data)
    for ex in data["examples"]:
        name, metric = ex["name"], ex["metric"]
        versions = ex["versions"]
        sizes = sorted(versions[0]["ms"], key=int)
        for size in sizes:
            direct = versions[0]["ms"][size]
            acc = min((v["ms"][size] for v in versions if v["scheme"] == "accurate"),
                      default=math.inf)
            base = min(direct, acc)
            points = [(base / v["ms"][size], primary(v, metric), v["label"])
                      for v in versions]
            front = pareto(points)
            print(f"{name} {size}^2 (baseline {base:.4f} ms, {metric}): Pareto front")
            for p in front:
                print(f"  {p[2]:<22} {p[0]:6.3f}x  {100 * p[1]:8.4f}%")
            outs = [p for p in points if p[2].startswith("out:")]
            ins = [p for p in points if not p[2].startswith("out:") and p[2] != "direct"]
            beaten = [o for o in outs
                      if any(i[0] >= o[0] and i[1] <= o[1] for i in ins)]
            print(f"  output perforation dominated by input perforation: "
                  f"{len(beaten)} of {len(outs)} points" +
                  ("" if len(beaten) == len(outs) else
                   " (not: " + ", ".join(o[2] for o in outs if o not in beaten) + ")"))
            for bound in BOUNDS:
                ok = [p for p in points if p[1] <= bound]
                best = max(ok) if ok else None
                print(f"  fastest with {metric} <= {100 * bound:g}%: " +
                      (f"{best[2]} at {best[0]:.3f}x ({100 * best[1]:.3f}%)" if best else "none"))
            if size == sizes[-1]:
                svg(os.path.join(sys.argv[2], f"pareto-{name}.svg"),
                    f"{name}, {size}x{size}: error vs speedup", points, front)
        print()


if __name__ == "__main__":
    main()
