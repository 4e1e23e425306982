#!/usr/bin/env python3
"""check-svgplot.py - bench/lib/svgplot.py, alone and through the report
scripts that draw with it, on recorded results. No GPU needed.

    python3 check-svgplot.py SRC_ROOT

Checks that every document parses as XML and holds what it must: the
series (polylines), points, tooltips and labels, log-scale ticks, bars,
reference lines, the legend; that text is escaped; that non-finite values
and non-positive values on a log axis are left out, never written as "nan"
or "inf".
"""
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
bad = []


def expect(cond, what):
    if not cond:
        bad.append(what)


def parse(text, what):
    try:
        return ET.fromstring(text)
    except ET.ParseError as e:
        bad.append(f"{what}: not XML: {e}")
        return ET.fromstring("<svg xmlns='http://www.w3.org/2000/svg'/>")


def texts(root):
    return [t.text or "" for t in root.iter(SVG + "text")]


def module(src):
    sys.path.insert(0, os.path.join(src, "bench", "lib"))
    from svgplot import Figure

    # Lines and points, log y, a reference line, ringed marker, legend.
    fig = Figure(640, 420, "k <&> \"q\"")
    ax = fig.axes(xlabel="time (ms)", ylabel="error (log)", yscale="log10")
    ax.line([1, 2, 3, 4], [1e-3, 1e-2, float("nan"), 1e-1], color="#c33",
            label="front", radius=4, tooltips=["a", "b", "c", "d<e"],
            labels=["A", "", "C", "D"])
    ax.scatter([1.5, 2.5, float("inf")], [0.0, 5e-3, 1e-2], color="#69c",
               radius=2.5, label="others")
    ax.hline(0.05, dash="4 3", label="QoS")
    ax.ring(2, 1e-2, radius=8, label="pick")
    svg = fig.svg()
    root = parse(svg, "lines")
    polylines = list(root.iter(SVG + "polyline"))
    expect(len(polylines) == 1, f"lines: {len(polylines)} polylines, expected 1")
    expect(len(polylines[0].get("points").split()) == 3 if polylines else False,
           "lines: the NaN point is not left out of the polyline")
    circles = list(root.iter(SVG + "circle"))
    # 3 finite front points + 1 other (0 is not on a log axis, inf not
    # finite) + the ring + the legend's dot.
    expect(len(circles) == 6, f"lines: {len(circles)} circles, expected 6")
    tips = [t.text for t in root.iter(SVG + "title")]
    expect(tips == ["a", "b", "d<e"], f"lines: tooltips {tips}")
    t = texts(root)
    for want in ["k <&> \"q\"", "time (ms)", "error (log)", "1e-3", "1e-2",
                 "1e-1", "QoS", "pick", "front", "others", "A", "D"]:
        expect(want in t, f"lines: no text {want!r}")
    expect("C" not in t, "lines: the NaN point's label is drawn")
    expect(not re.search(r"\bnan\b|\binf\b", svg, re.I), "lines: nan or inf written")
    expect("k &lt;&amp;&gt; &quot;q&quot;" in svg, "lines: the title is not escaped")

    # Two y axes, explicit ticks and formats, log2.
    fig = Figure(400, 300)
    ax = fig.axes(x=dict(lo=0, hi=64, ticks=[0, 32, 64]),
                  y=dict(scale="log2", lo=2.0 ** -20, hi=2.0 ** -10, step=2),
                  y2=dict(lo=0, hi=1, color="#c0392b", label="E"))
    ax.line([0, 64], [2.0 ** -15, 2.0 ** -12])
    ax.line([0, 64], [0.2, 0.9], color="#c0392b", right=True)
    ax.vline(48, dash="6,4", label="λmax=48")
    root = parse(fig.svg(), "axes")
    t = texts(root)
    for want in ["0", "32", "64", "2^-20", "2^-10", "2^-14", "E", "λmax=48"]:
        expect(want in t, f"axes: no text {want!r}")
    expect("2^-13" not in t, "axes: log2 step 2 drew an odd power")

    # A nice axis (a top of 1, not 0.97), as in the C++ twin's test; a
    # hostile title with a control character XML forbids: still XML, the
    # text kept as text, the character dropped.
    fig = Figure(400, 300, "a\x01</text><script>x</script>")
    ax = fig.axes(y=dict(lo=0, nice=True))
    ax.line([0, 10], [0, 0.97])
    root = parse(fig.svg(), "nice")
    t = texts(root)
    expect("1" in t and "0.8" in t and "1.2" not in t, f"nice: ticks {t}")
    expect("a</text><script>x</script>" in t, "nice: the title is not text")
    expect(not list(root.iter(SVG + "script")), "nice: a script element")

    # Grouped bars: one rect with a <title> per value, none for a missing one.
    fig = Figure(480, 300, "bars")
    ax = fig.axes(y=dict(lo=0, hi=3, grid=True))
    ax.bars(["g1", "g2"], [("a", "#999"), ("b", "#c33")], [[1, 2], [None, 3]],
            tooltips=[["g1 a", "g1 b"], [None, "g2 b"]], rotate=-45)
    ax.legend("top")
    root = parse(fig.svg(), "bars")
    bars = [r for r in root.iter(SVG + "rect") if r.find(SVG + "title") is not None]
    expect(len(bars) == 3, f"bars: {len(bars)} bars, expected 3")
    expect(["g1", "g2", "a", "b"] == [x for x in texts(root) if x in ("g1", "g2", "a", "b")],
           f"bars: group or legend labels {texts(root)}")


def reports(src):
    with tempfile.TemporaryDirectory() as tmp:
        res = os.path.join(src, "bench", "results")
        # The evaluation suite: a panel per app, two curves each; four bars
        # per app and for the geometric mean.
        p = subprocess.run([sys.executable, os.path.join(src, "bench/apps/report.py"),
                            os.path.join(res, "apps-h100-2026-11-26-a.json"),
                            os.path.join(res, "apps-h100-2026-11-26-b.json"),
                            "--svg-dir", tmp, "--tag", "t"], capture_output=True, text=True)
        expect(p.returncode == 0, f"apps report: exit {p.returncode}: {p.stderr[-500:]}")
        if p.returncode == 0:
            root = parse(open(os.path.join(tmp, "apps-curves-t.svg")).read(), "apps curves")
            n = len(list(root.iter(SVG + "polyline")))
            expect(n == 36, f"apps curves: {n} polylines, expected 36 (18 apps x 2)")
            expect("BIF (Image processing)" in texts(root), "apps curves: no panel title")
            root = parse(open(os.path.join(tmp, "apps-speedup-t.svg")).read(), "apps speedup")
            bars = [r for r in root.iter(SVG + "rect") if r.find(SVG + "title") is not None]
            expect(len(bars) == 76, f"apps speedup: {len(bars)} bars, expected 76 (19 x 4)")
            expect("GEO" in texts(root) and "HEU" in texts(root), "apps speedup: labels")
        # The LNS Figure 3: three table series, four flat levels.
        svg = os.path.join(tmp, "lns.svg")
        p = subprocess.run([sys.executable, os.path.join(src, "bench/lns/report.py"),
                            os.path.join(res, "lns-h100-2026-11-26.json"), svg],
                           capture_output=True, text=True)
        expect(p.returncode == 0, f"lns report: exit {p.returncode}: {p.stderr[-500:]}")
        if p.returncode == 0:
            root = parse(open(svg).read(), "lns")
            n = len(list(root.iter(SVG + "polyline")))
            expect(n == 3, f"lns: {n} polylines, expected 3")
            dashed = [l for l in root.iter(SVG + "line") if l.get("stroke-dasharray")]
            expect(len(dashed) == 4, f"lns: {len(dashed)} flat levels, expected 4")
            for want in ["texture1", "texture2", "texture3", "sfu", "2^-24"]:
                expect(want in texts(root), f"lns: no text {want!r}")


def main():
    src = sys.argv[1]
    module(src)
    reports(src)
    if bad:
        print("\n".join("FAIL: " + b for b in bad))
        return 1
    print("svgplot: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
