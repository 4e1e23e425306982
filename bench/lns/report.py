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
                        [--branch-run JSON] [--examples-run JSON] [--tune-run JSON]

gives docs/lns.md's measured tables from the committed runs in
bench/results/lns-*: the blocks between '<!-- report:NAME -->' and
'<!-- /report:NAME -->' (bench/lib/docblocks.py); --check (CI) fails,
naming the table, where the page differs; --list names the blocks. The
bit checks, accuracy, Table 1, the dynamic distribution, the captured
shares and the device's state come from RUN (lns-h200-2026-11-29/, with
intervals); the split with one branch per op (BRANCH_RUN), the HMM
example and the matrix-vector product (EXAMPLES_RUN, EXAMPLES_VERSIONED_RUN)
and the tuner's choice (TUNE_RUN) from a later call on the same GPU model
(lns-h200-2026-11-29b/, with intervals), each block saying its GPU, date
and timing rule under the table where its JSON has them. Each of those
blocks prints 95% intervals where its JSON has them: a lns-bench run with
the `branch` row (gen-kernels.py's tp_*_branch) gives the branch block
from that run, medians with intervals, and compares that run's other
Table 1 rows with RUN's; lns-examples --until-ci writes "time_ci_ms" per
variant; approx-tune's points "time_ci95_ms". Older runs without them
(the H100's) print as they did.
--branch-run, --examples-run (one run, no separate versioned one) and --tune-run
read those blocks from another JSON instead (a new run before the
constants name it; the tests' made-up runs).
"""
import json
import math
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
import docblocks  # noqa: E402  (bench/lib: generated blocks of a page)
from runs import run_date  # noqa: E402
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


# The run docs/lns.md's measured tables come from (issue 30: medians with
# 95% intervals and the device's state): lns-bench on one H200, every
# section, `bash bench/lns/run-lns.sh .carry/lns --min-reps 30 --until-ci
# 0.01 --max-reps 200` (bench/rerun-dispersion.sh lns, tree 6569733).
RUN_DIR = "lns-h200-2026-11-29"
RUN = RUN_DIR + "/lns.json"
RUN_TREE = "6569733"  # the commit whose tree the run built (not in the JSON)
# The runs of the page's other blocks. BRANCH_RUN: the split with one
# warp-uniform branch per op (what approx-lns-lower alone emits; the
# pipeline versions the loop instead), from a lns-bench run with the
# `branch` row (gen-kernels.py's tp_*_branch): lns-bench --only throughput
# on one H200 the afternoon of RUN's day (tree 7222454), with intervals; an
# older JSON without that row (lns-h100-2026-11-22.json) prints the H100's
# split of 2026-11-22 without intervals. FIGURE_RUN: the run the accuracy
# figure is drawn from (2026-11-26).
BRANCH_RUN = "lns-h200-2026-11-29b/lns.json"
FIGURE_RUN = "lns-h100-2026-11-26.json"
# The examples (examples/lns/run-lns-examples.sh): EXAMPLES_RUN's variants,
# its split labelled one branch per op while EXAMPLES_VERSIONED_RUN names
# the later run whose split row was versioned (the H100 runs of 2026-11-22
# and -26); with EXAMPLES_VERSIONED_RUN None, EXAMPLES_RUN alone, its split
# versioned by approx-lns-version (every run since 2026-11-26): the H200
# run of 2026-11-29 (lns-examples --until-ci, intervals).
EXAMPLES_RUN = "lns-h200-2026-11-29b/lns-examples.json"
EXAMPLES_VERSIONED_RUN = None
# The tuner's impl choice (bench/lns/tune-impl.sh's merged JSON), the same
# H200 call (approx-tune --until-ci: per-point intervals).
TUNE_RUN = "lns-h200-2026-11-29b/tune-impl.json"


def machine(run_dir):
    """{date, gpu, driver, sm, mem} from a run folder's machine.txt
    (bench/rerun-dispersion.sh: the UTC date, then nvidia-smi's name,
    driver_version, clocks.max.sm, clocks.max.memory)."""
    with open(os.path.join(RESULTS, run_dir, "machine.txt")) as f:
        lines = [l.strip() for l in f if l.strip()]
    gpu, driver, sm, mem = [c.strip() for c in lines[1].split(",")]
    return dict(date=lines[0], gpu=gpu, driver=driver, sm=sm, mem=mem)


def acc_values(r):
    """An accuracy row's values as the page prints them (lns-bench writes
    inf/nan as strings: JSON has neither)."""
    return " | ".join("inf" if math.isinf(float(v)) else "%.2e" % float(v)
                      for v in r["grid"] + r["all"])


def accuracy_block(run, figure_run):
    """The accuracy table of `run`, then whether every value equals that of
    `figure_run`, the run the page's figure is drawn from."""
    out = ["| impl | f | grid sb | grid db (x ≤ -1) | grid db (near 0) | all-f32 sb "
           "| all-f32 db (x ≤ -1) | all-f32 db (near 0) |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in run["accuracy"]:
        out.append("| %s | %d | %s |" % (module_label(r["module"]), r["f"], acc_values(r)))
    fig = {r["module"]: acc_values(r) for r in figure_run["accuracy"]}
    differ = [r["module"] for r in run["accuracy"] if fig.get(r["module"]) != acc_values(r)]
    out += ["", "Every value above equals, digit for digit, the %s run's (`%s`), from which "
            "the figure below is drawn." % (figure_run["gpu"], FIGURE_RUN) if not differ else
            "These differ from the figure's run (`%s`): %s." % (FIGURE_RUN, ", ".join(differ))]
    return "\n".join(out) + "\n"


def bitexact_block(run):
    """The bit checks of `run`: every evaluation kernel's sb and db against
    the CPU evaluators, then the 2-D filter probe (gating) and the 3-D one
    (reported)."""
    out = ["| kernel | inputs | sb: differ | db (x ≤ -1): differ "
           "| db near 0: max relative difference (lg2.approx) |",
           "| --- | --- | --- | --- | --- |"]
    for key, r in run.items():
        if key.startswith("acc_") and isinstance(r, dict):
            out.append("| %s | {:,} | %d | %d | %.2g |".format(r["inputs"]) % (
                module_label(key[4:]), r["sb_mismatches"], r["db_mismatches"],
                r["db_near_rel_diff"]))
    f, f3 = run["filter"], run["filter3d"]
    out += ["",
            "- 2-D filter probe (gating): {:,} fetches × 4 channels, **{:,} differ**.".format(
                f["fetches"], f["mismatches"]),
            "- 3-D filter probe (reported, not gating): {:,} fetches × 4 channels, {:,} differ "
            "({:.2f}%; on the diagonal a = b = c {} of {}); channels: {:,} by 1-4 ulps, {:,} by "
            "more; max |diff| {:.2f}% of the largest texel.".format(
                f3["fetches"], f3["mismatches"], 100 * f3["mismatches"] / f3["fetches"],
                f3["diagonal_mismatches"], f3["diagonal"], f3["channels_within_4_ulps"],
                f3["channels_beyond"], 100 * f3["max_diff_over_max_texel"])]
    return "\n".join(out) + "\n"


def rel_ci(value, ci):
    """A median's 95% interval relative to it: '−0.04% / +0.14%'."""
    if not ci:
        return "—"
    return "−%.2f%% / +%.2f%%" % (100 * (1 - ci[0] / value), 100 * (ci[1] / value - 1))


TABLE1_ROWS = [  # (label, lns-bench's field)
    ("order-1 (texture1, 256/unit)", "order1"),
    ("order-2 (texture2, 64/unit)", "order2"),
    ("order-3 (texture3, 64/unit)", "order3"),
    ("HW transcendentals (SFU)", "hw"),
    ("Horner degree 5 (1/unit)", "horner5"),
    ("precise (libdevice)", "precise"),
    ("order-2 + HW, warp split as the pipeline emits it (approx-lns-version; best λ)", "split"),
    ("order-2 + HW, split versioned around the loop by hand (best λ)", "versioned"),
    ("order-2 + HW in each thread (paper's method, 2 elements)", "mix"),
    ("2× HW (2 elements, the ILP baseline)", "hw2"),
]


def widest(t, fields):
    """The widest of `fields`' intervals relative to their medians: (%, field)."""
    return max((100 * max(1 - t["ci"][k][0] / t[k], t["ci"][k][1] / t[k] - 1), k)
               for k in fields if k in t.get("ci", {}))


def table1_block(run):
    """Table 1 of `run`: ps per element, its 95% interval relative to the
    median, the ratio to the SFU row; rounds and the widest interval."""
    out = ["| row | sb: ps | 95% interval | ratio | sb + db: ps | 95% interval | ratio |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for label, field in TABLE1_ROWS:
        cells = []
        for what in ("sb", "sbdb"):
            t = run["throughput"][what]
            lam = " (λ=%d)" % t[field + "_lambda"] if field + "_lambda" in t else ""
            cells.append("%.2f%s | %s | %.3f" % (t[field], lam, rel_ci(t[field], t["ci"].get(field)),
                                                 t[field] / t["hw"]))
        out.append("| %s | %s |" % (label, " | ".join(cells)))
    sb, sbdb = run["throughput"]["sb"], run["throughput"]["sbdb"]
    fields = [f for _, f in TABLE1_ROWS]
    (w1, k1), (w2, k2) = widest(sb, fields), widest(sbdb, fields)
    out += ["", "Medians of %d interleaved rounds (sb) and %d (sb + db); the widest interval "
            "±%.2f%% (`%s`, sb) and ±%.2f%% (`%s`, sb + db); ratios are of the medians; the "
            "λ sweeps' intervals are in the JSON (`sweep_ci`, `versioned_sweep_ci`)."
            % (sb["rounds"], sbdb["rounds"], w1, k1, w2, k2)]
    return "\n".join(out) + "\n"


def table1_branch_block(old, path=BRANCH_RUN, ref=None):
    """The split with one warp-uniform branch per op (what approx-lns-lower
    alone emits; the pipeline now versions the loop) and the SFU row of
    the same run. From a lns-bench run with the `branch` row (gen-kernels.py's
    tp_*_branch modules): its medians with their 95% intervals, beside the
    split as the pipeline emits it; else the older run's split (compiled
    before approx-lns-version existed), without intervals."""
    if "branch" in old["throughput"]["sb"]:
        return table1_branch_run_block(old, path, ref)
    out = ["| row (%s, %s, medians of 5 rounds, no interval) | sb: ps | ratio "
           "| sb + db: ps | ratio |" % (old["gpu"], run_date(path)),
           "| --- | --- | --- | --- | --- |"]
    for label, field in (("SFU alone", "hw"),
                         ("order-2 + HW, warp split, one branch per op (best λ)", "split")):
        cells = []
        for what in ("sb", "sbdb"):
            t = old["throughput"][what]
            lam = " (λ=%d)" % t[field + "_lambda"] if field + "_lambda" in t else ""
            cells.append("%.2f%s | %.3f" % (t[field], lam, t[field] / t["hw"]))
        out.append("| %s | %s |" % (label, " | ".join(cells)))
    return "\n".join(out) + "\n"


def table1_branch_run_block(run, path, ref=None):
    """table1_branch_block from a run with the `branch` row: the SFU, the
    split with one branch per op and the split as the pipeline emits it,
    each median with its 95% interval and ratio to the SFU; the header
    says the GPU, the date, the rounds and that intervals are given. Where
    the run says its timing rule (lns-bench's "timing"), a note under the
    table gives the rule and the call (the run folder's machine.txt), and,
    with `ref` (the page's Table 1 run), how the run's other Table 1 rows
    compare with ref's (branch_compare_text)."""
    sb, sbdb = run["throughput"]["sb"], run["throughput"]["sbdb"]
    rounds = ("%d interleaved rounds" % sb["rounds"] if sb.get("rounds") == sbdb.get("rounds")
              else "%s (sb) and %s (sb + db) interleaved rounds"
              % (sb.get("rounds", "?"), sbdb.get("rounds", "?")))
    out = ["| row (%s, %s, medians of %s, 95%% intervals) | sb: ps | ratio "
           "| sb + db: ps | ratio |" % (run["gpu"], run_date(path), rounds),
           "| --- | --- | --- | --- | --- |"]
    for label, field, lam in (("SFU alone", "hw", None),
                              ("order-2 + HW, warp split, one branch per op (best λ)", "branch",
                               "branch_lambda"),
                              ("order-2 + HW, warp split as the pipeline emits it "
                               "(approx-lns-version; best λ)", "split", "split_lambda")):
        cells = []
        for t in (sb, sbdb):
            cells.append("%.2f%s%s | %.3f" % (
                t[field], ci_text(t.get("ci", {}).get(field), "%.2f"),
                " (λ=%d)" % t[lam] if lam else "", t[field] / t["hw"]))
        out.append("| %s | %s |" % (label, " | ".join(cells)))
    tm = run.get("timing")
    if tm:
        mdir = os.path.join(RESULTS, os.path.dirname(path))
        call = ""
        if os.path.isfile(os.path.join(mdir, "machine.txt")):
            m = machine(os.path.dirname(path))
            call = "; the call started %s, driver %s" % (m["date"], m["driver"])
        out += ["", "lns-bench `--only throughput --min-reps %d --until-ci %g --max-reps %d` "
                "(`%s`%s): each row and each λ of the sweeps (`branch_sweep`, "
                "`branch_sweep_ci`) timed once per round as the median of %d launches after "
                "%d warm-up, at least %d rounds, more until every median's 95%% interval "
                "is within ±%g%% of it, at most %d; interval: %s."
                % (tm["min_reps"], tm["until_ci"], tm["max_reps"], os.path.basename(
                    os.path.dirname(path)) + "/" + os.path.basename(path), call,
                   tm["launches_per_sample"], tm["warmup_launches"], tm["min_reps"],
                   100 * tm["until_ci"], tm["max_reps"], tm["interval"])]
        if ref is not None:
            out += ["", branch_compare_text(run, ref)]
    return "\n".join(out) + "\n"


def signed_pct(v):
    """+0.16%, −0.10% (the page's minus sign)."""
    return ("+%.2f%%" % v) if v >= 0 else ("−%.2f%%" % -v)


def branch_compare_text(run, ref, ref_path=RUN):
    """The rows `run` shares with `ref`'s Table 1 (the same kernels, timed
    in another call): per sb and sb + db, the range of the differences of
    the medians and the rows whose 95% intervals do not overlap; then the
    split's best λ and captured share in both runs, and whether run's share
    lies within ref's range at the ends of its intervals."""
    fields = [f for _, f in TABLE1_ROWS]
    rows, split = [], []
    for what, label in (("sb", "sb"), ("sbdb", "sb + db")):
        t, r = run["throughput"][what], ref["throughput"][what]
        both = [f for f in fields if f in t and f in r]
        d = [100 * (t[f] / r[f] - 1) for f in both]
        apart = [f for f in both if f in t.get("ci", {}) and f in r.get("ci", {})
                 and (t["ci"][f][1] < r["ci"][f][0] or r["ci"][f][1] < t["ci"][f][0])]
        rows.append("%s %s to %s (%s)" % (
            label, signed_pct(min(d)), signed_pct(max(d)),
            "every 95% interval overlapping the other's" if not apart else
            "the intervals of %d of %d rows apart: %s"
            % (len(apart), len(both), ", ".join("`%s`" % f for f in apart))))
        s_t = (t["split_speedup"] - 1) / (t["limit"] - 1)
        s_r = (r["split_speedup"] - 1) / (r["limit"] - 1)
        rng = share_range(r, "split")
        split.append("%s λ = %d (there %d), %.1f%% (there %.1f%%%s)" % (
            label, t["split_lambda"], r["split_lambda"], 100 * s_t, 100 * s_r,
            "" if rng is None else ", %.1f%% to %.1f%% at its intervals' ends: %s" % (
                100 * rng[0], 100 * rng[1],
                "inside" if rng[0] <= s_t <= rng[1] else "outside")))
    when = ""
    ref_dir = os.path.dirname(ref_path)
    if ref_dir and os.path.isfile(os.path.join(RESULTS, ref_dir, "machine.txt")):
        when = "the call of %s, " % machine(ref_dir)["date"]
    return ("This call's other Table 1 rows (the same kernels) differ from Table 1 above "
            "(%s`%s`), medians, by: %s. The split as the pipeline emits it, best λ and captured share "
            "(S−1)/(B−1): %s." % (when, ref_path, "; ".join(rows), "; ".join(split)))


def dynamic_block(run):
    """Dynamic work distribution: the SFU, texture2 and the best split, each
    median with its 95% interval, and the rounds."""
    out = ["| | SFU: ps | texture2: ps | split (best λ): ps | rounds |",
           "| --- | --- | --- | --- | --- |"]
    for what, label in (("sb", "sb"), ("sbdb", "sb + db")):
        t = run["dynamic"][what]
        ci = t.get("ci", {})
        out.append("| %s | %.3f%s | %.3f%s | %.3f%s (λ = %d) | %s |" % (
            label, t["hw"], ci_text(ci.get("hw"), "%.3f"), t["order2"],
            ci_text(ci.get("order2"), "%.3f"), t["split"], ci_text(ci.get("split"), "%.3f"),
            t["split_lambda"], t.get("rounds", "—")))
    return "\n".join(out) + "\n"


def share_range(t, field):
    """The captured share (S-1)/(B-1) at the ends of the medians' 95%
    intervals (the SFU's, texture2's and the split's), lowest and highest:
    a bound from the intervals, not itself an interval. None without them."""
    ci = t.get("ci", {})
    if not all(k in ci for k in ("hw", "order2", field)):
        return None
    s_lo, s_hi = ci["hw"][0] / ci[field][1], ci["hw"][1] / ci[field][0]
    b_lo, b_hi = 1 + ci["hw"][0] / ci["order2"][1], 1 + ci["hw"][1] / ci["order2"][0]
    return (s_lo - 1) / (b_hi - 1), (s_hi - 1) / (b_lo - 1)


def captured_share_block(run):
    """Every split of `run` against its bound B = 1 + r_TEX/r_SFU: the
    speedup S over the SFU, the captured share (S-1)/(B-1) with its range
    over the intervals' ends, S/B and the SFU alone's 1/B."""
    out = ["| split | λ | S = SFU / split | B = 1 + r_TEX/r_SFU "
           "| captured share (S−1)/(B−1) | at the intervals' ends | S/B (the SFU alone: 1/B) |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    rows = []
    for what, label in (("sb", "sb"), ("sbdb", "sb + db")):
        t = run["throughput"][what]
        rows.append(("Table 1, %s, as the pipeline emits it" % label, t, "split",
                     t["split_speedup"], t["split_lambda"]))
        rows.append(("Table 1, %s, versioned by hand" % label, t, "versioned",
                     t["versioned_speedup"], t["versioned_lambda"]))
    for what, label in (("sb", "sb"), ("sbdb", "sb + db")):
        t = run["dynamic"][what]
        rows.append(("dynamic distribution, %s" % label, t, "split", t["split_speedup"],
                     t["split_lambda"]))
    for label, t, field, s, lam in rows:
        b = t["limit"]
        rng = share_range(t, field)
        out.append("| %s | %d | %.3fx | %.3f | **%.1f%%** | %s | %.1f%% (%.1f%%) |" % (
            label, lam, s, b, 100 * (s - 1) / (b - 1),
            "—" if rng is None else "%.1f%% to %.1f%%" % (100 * rng[0], 100 * rng[1]),
            100 * s / b, 100 / b))
    return "\n".join(out) + "\n"


SECTIONS = [("bitexact", "bit checks"), ("accuracy", "accuracy"),
            ("throughput", "Table 1"), ("dynamic", "dynamic distribution")]


def device_block(run, run_dir):
    """The GPU, driver, date and clocks of the run (machine.txt), the timing
    rule (lns-bench's "timing") and NVML's readings at the start and end of
    each section ("device_state")."""
    m = machine(run_dir)
    tm = run["timing"]
    out = ["- %s, driver %s, %s (nvidia-smi at the call's start: max clocks SM %s, "
           "memory %s); tree %s; `bash bench/lns/run-lns.sh .carry/lns --min-reps %d "
           "--until-ci %g --max-reps %d` (bench/rerun-dispersion.sh lns)."
           % (m["gpu"], m["driver"], m["date"], m["sm"], m["mem"], RUN_TREE, tm["min_reps"],
              tm["until_ci"], tm["max_reps"]),
           "- Timing: every median over at least %d interleaved rounds of %d timed launches "
           "(after %d warm-up launches), more (checked every %d, at most %d) until each "
           "median's 95%% interval is within ±%g%% of it; interval: %s."
           % (tm["min_reps"], tm["launches_per_sample"], tm["warmup_launches"],
              tm["check_every"], tm["max_reps"], 100 * tm["until_ci"], tm["interval"]),
           "", "| section | SM MHz | memory MHz | °C | W | energy |",
           "| --- | --- | --- | --- | --- | --- |"]
    if run.get("nvml"):
        return "\n".join(out[:2] + ["- NVML: no readings (%s)." % run["nvml"]]) + "\n"
    for key, label in SECTIONS:
        st = run["device_state"].get(key)
        if not st:
            continue
        a, b = st["start"], st["end"]

        def pair(k, fmt="%s"):
            x, y = fmt % a[k], fmt % b[k]
            return x if x == y else "%s → %s" % (x, y)
        out.append("| %s | %s | %s | %s | %s | {:,.0f} J |".format(
            b["energy_j"] - a["energy_j"]) % (label, pair("sm_mhz"), pair("mem_mhz"),
                                              pair("temp_c"), pair("power_w", "%.0f")))
    out += ["", "(NVML at the start → end of each section; energy: the counter's difference "
            "over the section.)"]
    return "\n".join(out) + "\n"


def short_e(v, digits=1):
    """3.7e-4, as the docs write small numbers (0 stays 0)."""
    if v == 0:
        return "0"
    m, e = ("%.*e" % (digits, v)).split("e")
    return "%se%d" % (m, int(e))


def ms_text(v, fmt="%.2f"):
    """An example variant's median time, with its 95% interval where
    lns-examples --until-ci gave one ("time_ci_ms"): '2.58 [2.57, 2.59]'."""
    return fmt % v["time_ms"] + ci_text(v.get("time_ci_ms"), fmt)


VERSION_DATE = "2026-11-26"  # approx-lns-version in the pipeline from this day


def result_name(path):
    """A run's file as the page names it: relative to bench/results."""
    rel = os.path.relpath(os.path.join(RESULTS, path), RESULTS)
    return os.path.basename(path) if rel.startswith("..") else rel


def examples_timing_text(run, section, path=None):
    """The line under an examples table: the GPU, the run's date and file,
    the seed and the timing rule of lns-examples' JSON ("reps", "warmup",
    "until_ci", "max_reps"), with the launches the variants of `section`
    took."""
    where = ""
    if path:
        where = ", %s (`%s`)" % (run_date(path), result_name(path))
    rule = "%d launches after %d warm-up, no interval" % (run["reps"], run["warmup"])
    if run.get("until_ci"):
        n = sorted({v["launches"] for v in run[section]["variants"] if "launches" in v})
        took = ("" if not n else " (every variant took %d)" % n[0] if len(n) == 1
                else " (the variants took %d to %d)" % (n[0], n[-1]))
        rule = ("at least %d launches after %d warm-up, more until its 95%% interval is "
                "within ±%g%% of it, at most %d%s; in brackets the interval: %s"
                % (run["reps"], run["warmup"], 100 * run["until_ci"], run["max_reps"], took,
                   run.get("interval", "95% bootstrap of the median")))
    return "%s%s, seed %s: each time the median of %s." % (run["device"], where, run["seed"], rule)


def hmm_block(first, later=None, date=None, path=None):
    """The HMM example: every variant of `first`, the split's λ sweep on
    one row. With `later` (the 2026-11-22 and -26 runs), `first`'s split
    is the one branch per op and `later`'s the versioned one, a row each;
    without it, `first`'s split (a run of `date`) is versioned by
    approx-lns-version, or one branch per op before VERSION_DATE. Times
    print with their 95% intervals where the JSON has them."""
    out = ["| variant | ms | max abs err (log2) | vs f32 model with exact sb |",
           "| --- | --- | --- | --- |"]

    def split_row(run, label):
        vs = [v for v in run["hmm"]["variants"] if v["kernel"] == "hmm_lns_split"]
        errs = [v["max_abs_err_log2"] for v in vs]
        out.append("| LNS split, λ = %s, %s | %s | %.4f-%.4f | %s |" % (
            " / ".join(str(v["lambda"]) for v in vs), label,
            " / ".join(ms_text(v) for v in vs), min(errs), max(errs),
            " / ".join(short_e(v["max_abs_vs_model"]) for v in vs)))

    for v in first["hmm"]["variants"]:
        k = v["kernel"]
        if k == "hmm_lns_split":
            if v["lambda"] == 0:
                if later is None:
                    # approx-lns-version came in on 2026-11-26 (61f0649):
                    # the split of an earlier run branched per op.
                    split_row(first, ("one branch per op" if date and date < VERSION_DATE
                                      else "versioned by approx-lns-version")
                              + (" (%s)" % date if date else ""))
                else:
                    split_row(first, "one branch per op (2026-11-22)")
                    split_row(later, "versioned by approx-lns-version (2026-11-26)")
            continue
        if k == "hmm_f32_logsumexp":
            label = "f32 logsumexp, %s (λ = %d)" % (
                "precise" if v["lambda"] == 0 else "SFU", v["lambda"])
        else:  # 'lns texture2 (64 seg/unit)' -> 'LNS texture2 (64/unit)'
            label = "LNS" + v["variant"][3:].replace(" seg/unit", "/unit")
        model = v["max_abs_vs_model"]  # None: no model (f32 kernels)
        out.append("| %s | %s | %.4f |%s |" % (
            label, ms_text(v), v["max_abs_err_log2"], "" if model is None else " " + short_e(model)))
    if later is None:
        out += ["", examples_timing_text(first, "hmm", path)]
    return "\n".join(out) + "\n"


def dot_block(run, path=None):
    """The LNS matrix-vector product of `run` (lns-examples' "dot"): every
    variant's median time (with its 95% interval where the JSON has one)
    and max error relative to sum_c |A[r][c] x[c]|. The page quotes these
    in prose; a '<!-- report:lns-dot -->' block there takes this table."""
    out = ["| variant | ms | max error / Σ\\|a x\\| | vs f32 model with exact sb/db |",
           "| --- | --- | --- | --- |"]
    for v in run["dot"]["variants"]:
        if v["kernel"] == "dot_f32":
            label = "f32 fma"
        elif v["kernel"] == "dot_lns_split":
            label = "LNS split, λ = %d" % v["lambda"]
        else:
            label = "LNS" + v["variant"][3:].replace(" seg/unit", "/unit")
        model = v.get("max_vs_model_over_abs_sum")
        out.append("| %s | %s | %s |%s |" % (
            label, ms_text(v, "%.3f"), short_e(v["max_err_over_abs_sum"]),
            "" if model is None else " " + short_e(model)))
    out += ["", examples_timing_text(run, "dot", path)]
    return "\n".join(out) + "\n"


# The variant knob's values: the lns-impls list of scripts/gpu-prepare.sh
# (the manifest that names them is not committed; bench/lns/tune-impl.sh).
LNS_IMPLS = ["precise", "sfu", "horner", "texture1", "texture2", "texture3"]
TUNE_KERNELS = ["logaddexp", "logsumexp16", "logsubexp"]


def tune_timing_text(runs, path=None):
    """The line under the tuner's variant table: the GPU, the calls' first
    and last dates, the file and approx-tune's timing rule ("timing")."""
    calls = [r for qs in runs.values() for r in qs.values()]
    first = calls[0]
    dates = sorted(r["date"] for r in calls if r.get("date"))
    when = (" %s to %s" % (dates[0], dates[-1]) if len(dates) > 1 and dates[0] != dates[-1]
            else " %s" % dates[0] if dates else "")
    where = " (`%s`)" % result_name(path) if path else ""
    tm = first.get("timing", {})
    if tm.get("until_ci"):
        rule = ("at least %d timed launches after %d warm-up, more until its 95%% interval is "
                "within ±%g%% of it, at most %d; in brackets the interval (approx-tune's "
                "`time_ci95_ms`)" % (tm["reps"], tm["warmup"], 100 * tm["until_ci"],
                                      tm["max_reps"]))
    else:
        rule = "%s timed launches after %s warm-up, no interval" % (
            tm.get("reps", "?"), tm.get("warmup", "?"))
    return ("%s, approx-tune's calls%s%s: each variant's time the %s of %s. The times and "
            "errors above are the calls at QoS %s; every call times every variant anew."
            % (first["device"]["name"], when, where, tm.get("statistic", "median"), rule,
               short_e(float(sorted(runs[TUNE_KERNELS[0]], key=float)[0]), 0)))


def tune_blocks(runs, path=None):
    """The tuner's runs ({kernel: {qos: run}}): every variant's time and
    error (the first QoS's measurements; each time with its 95% interval
    where approx-tune's point has one, "time_ci95_ms"), and the impl chosen
    per QoS (with the speedup over precise where the choice changes)."""
    qs = sorted(runs[TUNE_KERNELS[0]], key=float)
    var = ["| kernel | " + " | ".join(LNS_IMPLS) + " |", "|" + " --- |" * (len(LNS_IMPLS) + 1)]
    pick = ["| kernel | " + " | ".join(short_e(float(q), 0) for q in qs) + " |",
            "|" + " --- |" * (len(qs) + 1)]
    for kernel in TUNE_KERNELS:
        points = {p["lambda"]: p for p in runs[kernel][qs[0]]["points"]}
        t0 = points[0]["time_ms"]
        var.append("| %s: ms (error) | %s |" % (kernel, " | ".join(
            "%.4f%s (%s)" % (points[i]["time_ms"],
                             ci_text(points[i].get("time_ci95_ms"), "%.4f"),
                             short_e(points[i]["error"]))
            for i in range(len(LNS_IMPLS)))))
        cells, last = [], "precise"
        for q in qs:
            r = next(r for r in runs[kernel][q]["results"] if r["method"] == "OMG")
            name = LNS_IMPLS[r["lambda"]]
            cells.append(name if name == last else "%s (%.2fx)" % (name, t0 / r["time_ms"]))
            last = name
        pick.append("| %s | %s |" % (kernel, " | ".join(cells)))
    var += ["", tune_timing_text(runs, path)]
    return {"tune-impl": "\n".join(var) + "\n", "tune-choice": "\n".join(pick) + "\n"}


def doc_blocks():
    run = load(RUN)
    blocks = {
        "lns-device": device_block(run, RUN_DIR),
        "bitexact": bitexact_block(run),
        "accuracy": accuracy_block(run, load(FIGURE_RUN)),
        "table1": table1_block(run),
        "table1-branch-per-op": table1_branch_block(load(BRANCH_RUN), BRANCH_RUN,
                                                    run if BRANCH_RUN != RUN else None),
        "dynamic": dynamic_block(run),
        "captured-share": captured_share_block(run),
        "hmm": hmm_block(load(EXAMPLES_RUN),
                         load(EXAMPLES_VERSIONED_RUN) if EXAMPLES_VERSIONED_RUN else None,
                         run_date(EXAMPLES_RUN), EXAMPLES_RUN),
        "lns-dot": dot_block(load(EXAMPLES_VERSIONED_RUN or EXAMPLES_RUN),
                             EXAMPLES_VERSIONED_RUN or EXAMPLES_RUN),
    }
    blocks.update(tune_blocks(load(TUNE_RUN), TUNE_RUN))
    return blocks


# The options that read a block's run from another JSON: the global each
# one sets (--examples-run: one run, so no separate versioned run).
RUN_OPTIONS = {"--branch-run": "BRANCH_RUN", "--examples-run": "EXAMPLES_RUN",
               "--tune-run": "TUNE_RUN"}


def run_options():
    """Takes RUN_OPTIONS off the command line, setting their globals; the
    rest is docblocks' command line. A file that is not there: one line,
    exit 2."""
    global EXAMPLES_VERSIONED_RUN
    for var, path in docblocks.take_path_options("report.py", RUN_OPTIONS, "file").items():
        globals()[var] = os.path.abspath(path)
        if var == "EXAMPLES_RUN":
            EXAMPLES_VERSIONED_RUN = None


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("--"):
        run_options()
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
        for row in ("order1", "order2", "order3", "hw", "horner5", "precise", "split",
                    "versioned", "branch", "mix", "hw2"):
            if row in t:
                print("- %s: %.2f%s (%.3f)" % (row, t[row], ci_text(ci.get(row), "%.2f"), t[row] / hw))
        print("- split lambda %s; limit B = 1 + r_TEX/r_SFU = %.3f; split speedup S = %.3f: %s"
              % (t["split_lambda"], t["limit"], t["split_speedup"],
                 share_text(t["split_speedup"], t["limit"])))
        if "versioned_speedup" in t:
            print("- versioned by hand: S = %.3f: %s"
                  % (t["versioned_speedup"], share_text(t["versioned_speedup"], t["limit"])))
        if "branch_speedup" in t:
            print("- one branch per op (approx-lns-lower alone), lambda %s: S = %.3f: %s"
                  % (t["branch_lambda"], t["branch_speedup"],
                     share_text(t["branch_speedup"], t["limit"])))
        for field in ("split", "versioned", "branch"):
            rng = share_range(t, field)
            if rng:
                print("- %s: captured share at the ends of the 95%% intervals: %.1f%% to %.1f%%"
                      % (field, 100 * rng[0], 100 * rng[1]))
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
        rng = share_range(t, "split")
        if rng:
            print("- captured share at the ends of the 95%% intervals: %.1f%% to %.1f%%"
                  % (100 * rng[0], 100 * rng[1]))
    # The device's state around each section (lns-bench since issue 30).
    if "device_state" in data:
        print("\n## device state (NVML)\n")
        if data.get("nvml"):
            print("- no readings: %s" % data["nvml"])
        for section, st in data["device_state"].items():
            print("- %s: start %s; end %s" % (section, state_text(st["start"]), state_text(st["end"])))


if __name__ == "__main__":
    main()
