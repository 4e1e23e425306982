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
texture3) are left out. Where the JSON has them (lns-bench since issue 30,
"Dispersion"), each median's 95% bootstrap interval is printed beside it in
brackets, with the rounds taken and the device's state (clocks,
temperature, power) at the start and end of each section; an older JSON
prints as it always did.

    bench/lns/report.py [--write | --check] [--docs docs/lns.md]

gives docs/lns.md's measured tables from the committed runs in
bench/results/lns-*.json: the blocks between '<!-- report:NAME -->' and
'<!-- /report:NAME -->' (bench/lib/docblocks.py); --check (CI) fails,
naming the table, where the page differs.
"""
import json
import math
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
import docblocks  # noqa: E402  (bench/lib: generated blocks of a page)
from svgplot import Figure  # noqa: E402  (bench/lib: the plot module)
RESULTS = os.path.join(ROOT, "bench", "results")


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

def ci_text(ci, fmt):
    """A median's 95% interval from lns-bench's "ci" fields, ' [lo, hi]';
    '' where the JSON has none (older runs)."""
    if not ci:
        return ""
    return " [%s, %s]" % tuple(fmt % float(v) for v in ci)


def state_text(s):
    """One device reading of lns-bench's "device_state" (null: none)."""
    if not s:
        return "no reading"
    power = "- W" if s.get("power_w") is None else "%.0f W" % s["power_w"]
    return "SM %s MHz, memory %s MHz, %s C, %s" % (
        s["sm_mhz"], s["mem_mhz"], s["temp_c"], power)


# --- docs/lns.md's tables (docblocks mode) ---------------------------------

def load(name):
    with open(os.path.join(RESULTS, name)) as f:
        return json.load(f)


def module_label(module):
    """texture2_s64 -> 'texture2, 64/unit'; horner_s1_d5 -> 'horner, 1/unit,
    degree 5'."""
    parts = module.split("_")
    if len(parts) == 1:
        return module
    label = "%s, %s/unit" % (parts[0], parts[1][1:])
    return label + (", degree %s" % parts[2][1:] if len(parts) > 2 else "")


def accuracy_block(first, later):
    """The accuracy table: the rows of `first` (2026-11-22), then those only
    `later` (2026-11-26: texture3) has, dated, in `later`'s order."""
    old = {r["module"]: r for r in first["accuracy"]}
    out = ["| impl | f | grid sb | grid db (x ≤ -1) | grid db (near 0) | all-f32 sb "
           "| all-f32 db (x ≤ -1) | all-f32 db (near 0) |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in later["accuracy"]:
        label = module_label(r["module"])
        if r["module"] in old:
            r = old[r["module"]]
        else:
            label += " (2026-11-26)"
        # lns-bench writes inf/nan as strings (JSON has neither).
        vals = " | ".join("inf" if math.isinf(float(v)) else "%.2e" % float(v)
                          for v in r["grid"] + r["all"])
        out.append("| %s | %d | %s |" % (label, r["f"], vals))
    return "\n".join(out) + "\n"


TABLE1_ROWS = [  # (label, run, field): run 0 = 2026-11-22, 1 = -26, 2 = -26 versioned
    ("order-1 (texture1, 256/unit)", 0, "order1"),
    ("order-2 (texture2, 64/unit)", 0, "order2"),
    ("order-3 (texture3, 64/unit; 2026-11-26)", 1, "order3"),
    ("HW transcendentals (SFU)", 0, "hw"),
    ("Horner degree 5 (1/unit)", 0, "horner5"),
    ("precise (libdevice)", 0, "precise"),
    ("order-2 + HW, warp split, one branch per op (best λ)", 0, "split"),
    ("order-2 + HW, split versioned around the loop by hand (best λ)", 0, "versioned"),
    ("order-2 + HW, split as the pipeline emits it now (approx-lns-version; 2026-11-26)",
     2, "split"),
    ("order-2 + HW in each thread (paper's method, 2 elements)", 0, "mix"),
    ("2× HW (2 elements, the ILP baseline)", 0, "hw2"),
]


def table1_block(runs):
    """Table 1: ps per element and the ratio to the same run's SFU row."""
    out = ["| row | sb: ps | ratio | sb + db: ps | ratio |", "| --- | --- | --- | --- | --- |"]
    for label, run, field in TABLE1_ROWS:
        cells = []
        for what in ("sb", "sbdb"):
            t = runs[run]["throughput"][what]
            lam = " (λ=%d)" % t[field + "_lambda"] if field + "_lambda" in t else ""
            cells.append("%.2f%s | %.3f" % (t[field], lam, t[field] / t["hw"]))
        out.append("| %s | %s |" % (label, " | ".join(cells)))
    return "\n".join(out) + "\n"


def dynamic_block(data):
    """Dynamic work distribution: the split's S against the bound B."""
    out = ["| | SFU | texture2 | split (best λ) | split / SFU (S) | bound B = 1 + r_TEX/r_SFU "
           "| share of the available gain (S−1)/(B−1) | S/B (the SFU alone: 1/B) |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for what, label in (("sb", "sb"), ("sbdb", "sb + db")):
        t = data["dynamic"][what]
        s, b = t["split_speedup"], t["limit"]
        out.append("| %s | %.3f | %.3f | %.3f (λ = %d) | %.3fx | %.3f | %.1f%% | %.1f%% (%.1f%%) |"
                   % (label, t["hw"], t["order2"], t["split"], t["split_lambda"], s, b,
                      100 * (s - 1) / (b - 1), 100 * s / b, 100 / b))
    return "\n".join(out) + "\n"


def short_e(v, digits=1):
    """3.7e-4, as the docs write small numbers (0 stays 0)."""
    if v == 0:
        return "0"
    m, e = ("%.*e" % (digits, v)).split("e")
    return "%se%d" % (m, int(e))


def hmm_block(first, later):
    """The HMM example: every variant of `first` (2026-11-22), the split's
    λ sweep of both runs on one row each."""
    out = ["| variant | ms | max abs err (log2) | vs f32 model with exact sb |",
           "| --- | --- | --- | --- |"]

    def split_row(run, label):
        vs = [v for v in run["hmm"]["variants"] if v["kernel"] == "hmm_lns_split"]
        errs = [v["max_abs_err_log2"] for v in vs]
        out.append("| LNS split, λ = %s, %s | %s | %.4f-%.4f | %s |" % (
            " / ".join(str(v["lambda"]) for v in vs), label,
            " / ".join("%.2f" % v["time_ms"] for v in vs), min(errs), max(errs),
            " / ".join(short_e(v["max_abs_vs_model"]) for v in vs)))

    for v in first["hmm"]["variants"]:
        k = v["kernel"]
        if k == "hmm_lns_split":
            if v["lambda"] == 0:
                split_row(first, "one branch per op (2026-11-22)")
                split_row(later, "versioned by approx-lns-version (2026-11-26)")
            continue
        if k == "hmm_f32_logsumexp":
            label = "f32 logsumexp, %s (λ = %d)" % (
                "precise" if v["lambda"] == 0 else "SFU", v["lambda"])
        else:  # 'lns texture2 (64 seg/unit)' -> 'LNS texture2 (64/unit)'
            label = "LNS" + v["variant"][3:].replace(" seg/unit", "/unit")
        model = v["max_abs_vs_model"]  # None: no model (f32 kernels)
        out.append("| %s | %.2f | %.4f |%s |" % (
            label, v["time_ms"], v["max_abs_err_log2"], "" if model is None else " " + short_e(model)))
    return "\n".join(out) + "\n"


# The variant knob's values: the lns-impls list of scripts/gpu-prepare.sh
# (the manifest that names them is not committed; bench/lns/tune-impl.sh).
LNS_IMPLS = ["precise", "sfu", "horner", "texture1", "texture2", "texture3"]
TUNE_KERNELS = ["logaddexp", "logsumexp16", "logsubexp"]


def tune_blocks(runs):
    """The tuner's runs ({kernel: {qos: run}}): every variant's time and
    error (the first QoS's measurements), and the impl chosen per QoS (with
    the speedup over precise where the choice changes)."""
    qs = sorted(runs[TUNE_KERNELS[0]], key=float)
    var = ["| kernel | " + " | ".join(LNS_IMPLS) + " |", "|" + " --- |" * (len(LNS_IMPLS) + 1)]
    pick = ["| kernel | " + " | ".join(short_e(float(q), 0) for q in qs) + " |",
            "|" + " --- |" * (len(qs) + 1)]
    for kernel in TUNE_KERNELS:
        points = {p["lambda"]: p for p in runs[kernel][qs[0]]["points"]}
        t0 = points[0]["time_ms"]
        var.append("| %s: ms (error) | %s |" % (kernel, " | ".join(
            "%.4f (%s)" % (points[i]["time_ms"], short_e(points[i]["error"]))
            for i in range(len(LNS_IMPLS)))))
        cells, last = [], "precise"
        for q in qs:
            r = next(r for r in runs[kernel][q]["results"] if r["method"] == "OMG")
            name = LNS_IMPLS[r["lambda"]]
            cells.append(name if name == last else "%s (%.2fx)" % (name, t0 / r["time_ms"]))
            last = name
        pick.append("| %s | %s |" % (kernel, " | ".join(cells)))
    return {"tune-impl": "\n".join(var) + "\n", "tune-choice": "\n".join(pick) + "\n"}


def doc_blocks():
    r22 = load("lns-h100-2026-11-22.json")
    r26 = load("lns-h100-2026-11-26.json")
    ver = load("lns-h100-2026-11-26-versioned.json")
    blocks = {
        "accuracy": accuracy_block(r22, r26),
        "table1": table1_block([r22, r26, ver]),
        "dynamic": dynamic_block(load("lns-dynamic-h100-2026-11-26.json")),
        "hmm": hmm_block(load("lns-examples-h100-2026-11-22.json"),
                         load("lns-examples-h100-2026-11-26.json")),
    }
    blocks.update(tune_blocks(load("lns-tune-impl-h100-2026-11-26.json")))
    return blocks


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("--"):
        return docblocks.main("report.py", "report", os.path.join(ROOT, "docs", "lns.md"),
                              doc_blocks, "bench/results/lns-*.json", names_from_page=True)
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
        ci = t.get("ci", {})
        print("\n## %s: ps per element (ratio to the SFU row)\n" % label)
        if "rounds" in t:
            print("- %d interleaved rounds; 95%% intervals of the medians in brackets" % t["rounds"])
        for row in ("order1", "order2", "order3", "hw", "horner5", "precise", "split", "mix", "hw2"):
            if row in t:
                print("- %s: %.2f%s (%.3f)" % (row, t[row], ci_text(ci.get(row), "%.2f"), t[row] / hw))
        print("- split lambda %s; limit B = 1 + r_TEX/r_SFU = %.3f; split speedup S = %.3f: %s"
              % (t["split_lambda"], t["limit"], t["split_speedup"],
                 share_text(t["split_speedup"], t["limit"])))
        if "versioned_speedup" in t:
            print("- versioned by hand: S = %.3f: %s"
                  % (t["versioned_speedup"], share_text(t["versioned_speedup"], t["limit"])))
    # Dynamic work distribution (lns-bench --only dynamic).
    for what, t in sorted(data.get("dynamic", {}).items()):
        ci = t.get("ci", {})
        print("\n## dynamic distribution, %s: SFU %.3f%s ps, texture2 %.3f%s ps, split %.3f%s ps (lambda %s)"
              % (what, t["hw"], ci_text(ci.get("hw"), "%.3f"), t["order2"],
                 ci_text(ci.get("order2"), "%.3f"), t["split"], ci_text(ci.get("split"), "%.3f"),
                 t["split_lambda"]))
        print("- limit B = %.3f; split speedup S = %.3f: %s"
              % (t["limit"], t["split_speedup"], share_text(t["split_speedup"], t["limit"])))
        if "rounds" in t:
            print("- %d interleaved rounds; 95%% intervals of the medians in brackets" % t["rounds"])
    # The device's state around each section (lns-bench since issue 30).
    if "device_state" in data:
        print("\n## device state (NVML)\n")
        if data.get("nvml"):
            print("- no readings: %s" % data["nvml"])
        for section, st in data["device_state"].items():
            print("- %s: start %s; end %s" % (section, state_text(st["start"]), state_text(st["end"])))


if __name__ == "__main__":
    main()
