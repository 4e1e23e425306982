#!/usr/bin/env python3
"""report.py - tables and Pareto fronts of the perforation benchmark.

    python3 bench/perforation/report.py perforation.json[.gz] OUT_DIR

Reads perforation-bench's JSON (gzipped where the name ends in .gz, as the
committed runs keep it) and prints:
  - a summary (per example and size: the direct kernel's bandwidth, the
    accurate tiling against it, the fastest input- and output-perforated
    versions with their median error at that size);
  - for every example and size, every version's time, speedup over the
    baseline (the faster of the direct kernel and the best accurate tiling),
    primary error as median [min, max] over that size's input set, achieved
    DRAM bandwidth (the bytes the version must move / its time), byte-ratio
    bound and the fraction of it reached (speedup / bound);
  - for every example, the median error by input set ("native": the
    photographs at their own size; N^2: mirror-tiled to N x N, patterns and
    HotSpot chips generated at N x N);
  - for every example and size, the Pareto front (speedup, median error; a
    version is on it when no other is both faster and at most as wrong) and
    the fastest version under each quality bound;
and draws OUT_DIR/pareto-NAME-N.svg for every size N (error against
speedup, the front joined) and OUT_DIR/pareto-NAME.svg (the largest size).

Errors at a size come from the JSON's "errors_by_size" (benches from
2026-11-26 on); older JSON has only "errors" (the native set), used for
every size. Times: "ms" is each version's median; where the JSON also has
"ms_ci95" (issue 30, "Dispersion"), a time is printed with its 95%
interval, "1.2340 [1.2300, 1.2390]", and a speedup a/b with the interval
from the two intervals' ends, [a_lo / b_hi, a_hi / b_lo] (conservative:
not a bootstrap of the ratio); the rule that repeated the launches
("timing") and the GPU's state around each size's timing ("device_state",
NVML) are printed first. JSON without them prints as before. An output left unwritten (NaN) or not finite counts as an
infinite error. Standard library only: it also runs on the GPU machine.

    python3 bench/perforation/report.py [--write | --check] [--docs docs/perforation.md]

gives docs/perforation.md's measured tables from the committed runs in
bench/results/perforation-*/: the blocks between '<!-- report:NAME -->'
and '<!-- /report:NAME -->' (bench/lib/docblocks.py); --check (CI) fails,
naming the table, where the page differs. The headline blocks (NAME
ending in the run's date) come from LATEST: the run's GPU, driver, date,
timing rule and how far each size got to it, then the summary, the best
shape per scheme, the Pareto fronts and the errors at each size, every
time and speedup with its 95% interval; the older runs' blocks are named
by their run's letter.

"Input perforation" is a raised version whose scheme skips loads: a
stencil on a window without halo (inversion's 1 x 1) loads the whole tile
("loaded_fraction" 1), is the accurate tiling again, and is left out.
"""
import gzip
import json
import math
import os
import re
import statistics
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
import docblocks  # noqa: E402  (bench/lib: generated blocks of a page)
from svgplot import Figure  # noqa: E402  (bench/lib: the plot module)
RESULTS = os.path.join(ROOT, "bench", "results")

BOUNDS = [0.01, 0.05, 0.10]  # QoS: primary error at most 1%, 5%, 10%


def n_inputs(ex):
    return 2 if ex["name"] == "hotspot" else 1


def errors_at(version, size):
    """The per-input error records of `version` at `size` ("native" or a
    size string), falling back to the native set."""
    by = version.get("errors_by_size")
    if size != "native" and by and size in by:
        return by[size]
    return version["errors"]


def error_values(version, metric, size):
    vals = []
    for e in errors_at(version, size):
        if e.get("unwritten") or e.get("nonfinite"):
            vals.append(math.inf)
            continue
        v = e["mre"] if metric == "mre" else e["mean_error"]
        if v is not None:
            vals.append(v)
    return vals


def primary(version, metric, size="native"):
    """Median primary error over the input set at `size` (0 for the direct
    kernel, the reference)."""
    vals = error_values(version, metric, size)
    if not vals:
        return 0.0 if version["scheme"] == "" else math.inf
    return statistics.median(vals)


def spread(version, metric, size):
    """(median, min, max) of the primary error at `size`."""
    vals = error_values(version, metric, size)
    if not vals:
        z = 0.0 if version["scheme"] == "" else math.inf
        return z, z, z
    return statistics.median(vals), min(vals), max(vals)


def pct(v, digits=3):
    if math.isinf(v):
        return "inf"
    return f"{100 * v:.{digits}g}%"


def moved_bytes(ex, version, n):
    r = n_inputs(ex) * n * n * 4.0
    w = n * n * 4.0
    return r * (1 - version["dram_skip"]) + w, (r + w) / (r * (1 - version["dram_skip"]) + w)


def baseline(vs, size):
    direct = vs[0]["ms"][size]
    acc = [v for v in vs if v["scheme"] == "accurate"]
    best = min(acc, key=lambda v: v["ms"][size]) if acc else None
    base = min(direct, best["ms"][size]) if best else direct
    return direct, best, base


def baseline_version(vs, size):
    """The version whose time is baseline()'s base."""
    _, best, base = baseline(vs, size)
    return vs[0] if best is None or vs[0]["ms"][size] == base else best


def ms_interval(version, size):
    """(lo, hi): the 95% interval of the median time at `size`; None where
    the JSON has none (runs before issue 30's "Dispersion")."""
    ci = (version.get("ms_ci95") or {}).get(size)
    if not ci or ci[0] is None or ci[1] is None:
        return None
    return ci[0], ci[1]


def ratio_interval(num, den, size):
    """The interval of num's time / den's time at `size` from the two
    intervals' ends (conservative); None where either has none."""
    a, b = ms_interval(num, size), ms_interval(den, size)
    if a is None or b is None or b[0] <= 0 or b[1] <= 0:
        return None
    return a[0] / b[1], a[1] / b[0]


def ci_text(ci, digits):
    """' [lo, hi]' with `digits` decimals, or '' for no interval."""
    return "" if ci is None else f" [{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def ms_text(version, size, digits=4):
    """The median time with `digits` decimals; where the JSON has its
    interval, with it, both to at least 4 significant digits (the interval
    of a time of a few microseconds is narrower than 0.0001 ms)."""
    t = version["ms"][size]
    ci = ms_interval(version, size)
    if ci is None:
        return f"{t:.{digits}f}"
    if t > 0 and math.isfinite(t):
        digits = max(digits, 3 - math.floor(math.log10(t)))
    return f"{t:.{digits}f}" + ci_text(ci, digits)


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
    """Error (log) against speedup: every version a dot (its label as the
    tooltip), the front joined and labelled."""
    finite = [p for p in points if not math.isinf(p[1])]
    xs = [p[0] for p in finite] or [1.0]
    ys = [max(p[1], 1e-6) for p in finite] or [1e-6]
    fig = Figure(640, 420, title)
    ax = fig.axes(xlabel="speedup over the baseline", ylabel="median error (log)",
                  x=dict(lo=min(xs + [1.0]) * 0.95, hi=max(xs) * 1.05),
                  y=dict(scale="log10", lo=10 ** (math.log10(min(ys)) - 0.2),
                         hi=10 ** (math.log10(max(ys)) + 0.2)))
    shown = [p for p in front if not math.isinf(p[1])]
    ax.line([p[0] for p in shown], [max(p[1], 1e-6) for p in shown],
            color="#c33", width=1.5, label="Pareto front")
    rest = [p for p in finite if p not in front]
    ax.scatter([p[0] for p in rest], [max(p[1], 1e-6) for p in rest],
               color="#69c", radius=2.5, tooltips=[p[2] for p in rest],
               label="other versions")
    ax.scatter([p[0] for p in shown], [max(p[1], 1e-6) for p in shown],
               color="#c33", radius=4, tooltips=[p[2] for p in shown],
               labels=[p[2] for p in shown])
    fig.save(path)


def skips_loads(v):
    """Whether the version loads less than the whole tile: not so for a
    `stencil` on a window without halo (inversion's 1 x 1), which the
    newer benches label stencil:nn and which is the accurate tiling again
    (files without "loaded_fraction": as their scheme says)."""
    lf = v.get("loaded_fraction")
    return lf is None or lf < 1


def is_input(v):
    """An input perforation: a raised kernel whose scheme skips loads."""
    return (v["scheme"] not in ("", "accurate") and not v["label"].startswith("out:")
            and skips_loads(v))


def is_output(v):
    """An output perforation (Paraprox): of the plain kernel ("out:SCHEME
    32x8") or of a tiled one ("out:SCHEME tiled SHAPE", runs since
    2026-11-29's tiled output perforation)."""
    return v["label"].startswith("out:")


def fastest(ex, size, pred):
    """(version, speedup over the baseline, its interval or None, median
    error) of the fastest version of `ex` at `size` that `pred` accepts,
    whatever its error; None where there is none (summary's cells)."""
    vs = ex["versions"]
    c = [v for v in vs if pred(v)]
    if not c:
        return None
    v = min(c, key=lambda v: v["ms"][size])
    _, _, base = baseline(vs, size)
    return (v, base / v["ms"][size], ratio_interval(baseline_version(vs, size), v, size),
            primary(v, ex["metric"], size))


def best_cell(ex, size, pred, prefix=""):
    """'LABEL: speedup [interval], error' of the fastest version `pred`
    accepts (its label without `prefix`), or 'none'."""
    f = fastest(ex, size, pred)
    if f is None:
        return "none"
    v, sp, ci, err = f
    return f"{v['label'][len(prefix):]}: {sp:.2f}x{ci_text(ci, 2)}, {pct(err, 3)}"


def summary(data):
    """One row per example and size: the baselines' bandwidth, and the best
    input- and output-perforated versions (speedup over the baseline, the
    primary error's median over that size's input set)."""
    copy = data["copy_gbs"]
    out = ["| example | size | direct GB/s (% of copy) | best accurate tiling / direct "
           "| best input perforation | best output perforation |",
           "|---|---|---|---|---|---|"]
    for ex in data["examples"]:
        vs = ex["versions"]
        for size in sorted(vs[0]["ms"], key=int):
            n = int(size)
            direct, acc, base = baseline(vs, size)
            gbs = (n_inputs(ex) + 1) * n * n * 4 / direct / 1e6

            accs = (f"{direct / acc['ms'][size]:.2f}{ci_text(ratio_interval(vs[0], acc, size), 2)} "
                    f"({acc['label']})" if acc else "none")
            out.append(
                f"| {ex['name']} | {n}^2 | {gbs:.0f} ({100 * gbs / copy:.0f}%) "
                f"| {accs} "
                f"| {best_cell(ex, size, is_input)} "
                f"| {best_cell(ex, size, is_output)} |")
    return "\n".join(out) + "\n"


def size_tables(data):
    """Every version of every example at every size."""
    copy = data["copy_gbs"]
    for ex in data["examples"]:
        vs, metric = ex["versions"], ex["metric"]
        by = ex.get("inputs_by_size", {})
        for size in sorted(vs[0]["ms"], key=int):
            n = int(size)
            direct, acc, base = baseline(vs, size)
            bv = baseline_version(vs, size)
            names = by.get(size, ex["inputs"])
            where = (f"{len(names)} inputs at {n}^2" if size in by
                     else f"{len(names)} inputs of the native set")
            print(f"### {ex['name']}, {n}^2 (baseline {ms_text(bv, size)} ms; "
                  f"{metric} over {where})")
            print()
            print(f"| version | ms | speedup | {metric} median [min, max] | GB/s (% of copy) "
                  f"| bound | % of bound |")
            print("|---|---|---|---|---|---|---|")
            for v in vs:
                t = v["ms"][size]
                moved, bound = moved_bytes(ex, v, n)
                gbs = moved / t / 1e6
                med, lo, hi = spread(v, metric, size)
                err = "0 (reference)" if v["scheme"] == "" else f"{pct(med)} [{pct(lo)}, {pct(hi)}]"
                print(f"| {v['label']} | {ms_text(v, size)} "
                      f"| {base / t:.3f}x{ci_text(ratio_interval(bv, v, size), 3)} | {err} "
                      f"| {gbs:.0f} ({100 * gbs / copy:.0f}%) | {bound:.3f} "
                      f"| {100 * base / t / bound:.0f}% |")
            print()


def set_tables(data):
    """Median [max] error by input set: how the error depends on the size."""
    sets = data.get("error_sets")
    if not sets:
        return
    for ex in data["examples"]:
        metric = ex["metric"]
        heads = ["native" if s == "native" else f"{s}^2" for s in sets]
        print(f"### {ex['name']}: {metric} median [max] by input set")
        print()
        print("| version | " + " | ".join(heads) + " |")
        print("|---|" + "---|" * len(sets))
        for v in ex["versions"]:
            if v["scheme"] == "":
                continue
            cells = []
            for s in sets:
                med, _, hi = spread(v, metric, s)
                cells.append(f"{pct(med)} [{pct(hi)}]")
            print(f"| {v['label']} | " + " | ".join(cells) + " |")
        print()

# --- docs/perforation.md's tables (docblocks mode) -------------------------

NAMES = {"gaussian3_plain": "Gaussian", "sobel3": "Sobel 3x3", "sobel5": "Sobel 5x5",
         "median3": "median", "inversion": "inversion", "hotspot": "HotSpot"}
# Kernels whose accurate tiling stays short of the copy's bandwidth on its
# arithmetic (docs/perforation.md, "What the numbers say").
COMPUTE_BOUND = {"sobel5", "median3"}
SCHEMES = ["rows1:nn", "rows2:nn", "stencil:nn"]


def read_json(path):
    """perforation-bench's JSON at `path`, gzipped where the name ends in
    .gz (the committed runs keep it so)."""
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return json.load(f)


def load(path):
    """A run's perforation.json under bench/results (gzipped in the larger
    runs: PATH.gz is read where it exists)."""
    path = os.path.join(RESULTS, path)
    return read_json(path + ".gz" if os.path.exists(path + ".gz") else path)


def shape(v):
    return v["label"].split(" ")[-1]


def best_accurate_cell(ex, data, size):
    """'shape, ms, GB/s (% of the copy)' of the fastest accurate tiling."""
    _, acc, _ = baseline(ex["versions"], size)
    gbs = acc["gbs"][size]
    note = ", compute-bound" if ex["name"] in COMPUTE_BOUND else ""
    return (f"{shape(acc)}, {ms_text(acc, size, 3)} ms, "
            f"{gbs:.0f} ({100 * gbs / data['copy_gbs']:.0f}%{note})")


def scheme_cells(ex, size, err=lambda e: f"{100 * e:.2f}%"):
    """Per scheme of SCHEMES, its fastest shape at `size`: 'shape: speedup
    [interval], % of the byte-ratio bound, median error' (`err` writes the
    error: two decimals of a percent in the older blocks)."""
    vs = ex["versions"]
    _, _, base = baseline(vs, size)
    bv = baseline_version(vs, size)
    cells = []
    for scheme in SCHEMES:
        c = [v for v in vs if v["scheme"] == scheme and skips_loads(v)]
        if not c:  # no halo: stencil loads the whole tile, as accurate
            cells.append("(= accurate)")
            continue
        v = min(c, key=lambda v: v["ms"][size])
        t = v["ms"][size]
        _, bound = moved_bytes(ex, v, int(size))
        cells.append(f"{shape(v)}: {base / t:.2f}x{ci_text(ratio_interval(bv, v, size), 2)}, "
                     f"{100 * base / t / bound:.0f}%, "
                     f"{err(primary(v, ex['metric'], size))}")
    return cells


def best_table(runs, size="16384"):
    """At `size`, per example and GPU: the best accurate tiling, with the
    scalar fetch where the run has one, then the fastest shape of each
    perforated scheme: speedup over the baseline, % of the byte-ratio
    bound, median error. runs: (GPU, data, scalar data or None)."""
    scalar = any(r[2] for r in runs)
    out = ["| example | GPU | accurate: shape, ms, GB/s (% of copy) | "
           + ("accurate, scalar fetch: GB/s (% of copy) | " if scalar else "")
           + " | ".join(SCHEMES) + " |",
           "|---|---|---|" + ("---|" if scalar else "") + "---|" * len(SCHEMES)]
    for name in NAMES:
        for gpu, data, sdata in runs:
            ex = next(e for e in data["examples"] if e["name"] == name)
            cells = [NAMES[name], gpu, best_accurate_cell(ex, data, size)]
            if scalar:
                sex = next(e for e in sdata["examples"] if e["name"] == name)
                _, acc, _ = baseline(sex["versions"], size)
                cells.append(f"{acc['gbs'][size]:.0f} "
                             f"({100 * acc['gbs'][size] / sdata['copy_gbs']:.0f}%)")
            cells += scheme_cells(ex, size)
            out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def errors_table(data, size="16384"):
    """Median [max] error per size of the versions on the Pareto front at
    `size` (the baselines left out) and of the fastest output perforation,
    with the median SSIM at `size`."""
    sets = data["error_sets"]
    out = ["| example (metric) | version | "
           + " | ".join(s if s == "native" else f"{s}^2" for s in sets)
           + f" | SSIM at {size}^2 (median) |",
           "|---|---|" + "---|" * (len(sets) + 1)]
    for ex in data["examples"]:
        vs, metric = ex["versions"], ex["metric"]
        _, _, base = baseline(vs, size)
        front = {p[2] for p in pareto([(base / v["ms"][size], primary(v, metric, size), v["label"])
                                       for v in vs])}
        outs = [v for v in vs if v["label"].startswith("out:")]
        fastest_out = min(outs, key=lambda v: v["ms"][size])["label"] if outs else None
        for v in vs:
            if v["scheme"] in ("", "accurate") or (
                    v["label"] not in front and v["label"] != fastest_out):
                continue
            # The bench's own statistics (perforation.md's), where the run
            # has them: the JSON's per-input values are rounded.
            st = v.get("error_stats", {})
            cells = []
            for s in sets:
                med, _, hi = ((st[s]["median"], None, st[s]["max"]) if s in st
                              else spread(v, metric, s))
                cells.append(f"{pct(med)} [{pct(hi)}]")
            ssim = st[size].get("ssim_median")
            out.append(f"| {ex['name']} ({metric}) | {v['label']} | " + " | ".join(cells)
                       + f" | {'-' if ssim is None else f'{ssim:.4f}'} |")
    return "\n".join(out) + "\n"


# Block shapes of the front door's runs: perforate-blocks= of
# scripts/gpu-prepare.sh (the tuner's JSON gives only the block).
FRONT_DOOR_SHAPES = {(32, 8): "32x8", (16, 16): "16x16r3", (64, 4): "64x4r2"}


def tune_cuda_table(run_dir, kernels):
    """approx-perforation-tune's pick per kernel against its best accurate
    tiling."""
    out = ["| kernel | best accurate tiling | pick | speedup over it | mean error |",
           "|---|---|---|---|---|"]
    for k in kernels:
        with open(os.path.join(RESULTS, run_dir, f"tune-cuda-{k}-4096.json")) as f:
            t = json.load(f)
        pts = t["points"]
        acc = min((p for p in pts if p["scheme"] == "accurate"), key=lambda p: p["ms"])
        pick = next(p for p in pts if f"{p['scheme']} {FRONT_DOOR_SHAPES[tuple(p['block'])]}"
                    == t["pick"])
        out.append(f"| {k} | {FRONT_DOOR_SHAPES[tuple(acc['block'])]}, {acc['ms']:.4f} ms "
                   f"| {t['pick']}, {pick['ms']:.4f} ms | {acc['ms'] / pick['ms']:.2f}x "
                   f"| {100 * pick['error']:.2g}% |")
    return "\n".join(out) + "\n"


# The run docs/perforation.md's headline tables come from (issue 30: the
# paper's 1024^2 and 2048^2 beside 16384^2, every time with its interval).
LATEST = "perforation-h200-2026-11-29"
# Output perforation of the tiled kernels (every block shape), measured
# after LATEST at the paper's sizes.
TILED_OUTPUT = "perforation-h200-2026-11-29-tiled-output"
# The same versions at 16384^2, the size TILED_OUTPUT's call had no device
# time for.
TILED_OUTPUT_16384 = "perforation-h200-2026-11-29-tiled-output-16384"


def is_tiled_output(v):
    return v["label"].startswith("out:") and " tiled " in v["label"]


def is_plain_output(v):
    return v["label"].startswith("out:") and " tiled " not in v["label"]


def tiled_output_table(data):
    """Per example and size: the best accurate tiling (the baseline), the
    fastest output perforation of the plain kernel and of a tiled one
    (speedup over the baseline with its interval, the primary error's
    median), and whether every tiled version's errors equal the plain
    output's of the same scheme on every input (they must: the responsible
    thread computes the exact value either way)."""
    out = ["| example | size | best accurate tiling / direct | fastest output perforation, plain "
           "kernel (32x8) | fastest output perforation, tiled | tiled errors = plain errors |",
           "|---|---|---|---|---|---|"]
    same_all, count = 0, 0
    for ex in data["examples"]:
        vs = ex["versions"]
        plain = {v["scheme"]: v for v in vs if is_plain_output(v)}
        tiled = [v for v in vs if is_tiled_output(v)]
        same = sum(1 for v in tiled
                   if json.dumps([v["errors"], v["errors_by_size"]], sort_keys=True)
                   == json.dumps([plain[v["scheme"]]["errors"],
                                  plain[v["scheme"]]["errors_by_size"]], sort_keys=True))
        same_all += same
        count += len(tiled)
        for size in sorted(vs[0]["ms"], key=int):
            direct, acc, _ = baseline(vs, size)
            out.append(f"| {ex['name']} | {size}^2 "
                       f"| {direct / acc['ms'][size]:.2f}{ci_text(ratio_interval(vs[0], acc, size), 2)} "
                       f"({acc['label']}) | {best_cell(ex, size, is_plain_output, 'out:')} "
                       f"| {best_cell(ex, size, is_tiled_output, 'out:')} "
                       f"| {same} of {len(tiled)} |")
    out.append("")
    out.append(f"{count} tiled output versions (every scheme but accurate x every block shape); "
               f"{same_all} of them give exactly the plain output's errors, on every input and "
               f"size.")
    return "\n".join(out) + "\n"


def gpu_line(run_dir):
    """(GPU, driver) from a run's gpu.txt (nvidia-smi's name,
    driver_version, ...)."""
    with open(os.path.join(RESULTS, run_dir, "gpu.txt")) as f:
        name, driver = [c.strip() for c in f.readline().split(",")[:2]]
    return name, driver


def run_table(run_dir):
    """The run's GPU, driver, date and DRAM ceiling, its timing rule, and
    per size: launches per version, how many versions stopped at the most
    launches, how many medians' intervals stayed wider than the rule's
    +-R (the bench's test: lo >= m(1-R) and hi <= m(1+R)), the widest, and
    NVML's readings at the start and end of the size's timing."""
    data = load(run_dir + "/perforation.json")
    name, driver = gpu_line(run_dir)
    date = re.search(r"\d{4}-\d{2}-\d{2}", run_dir).group(0)
    t = data["timing"]
    r = t["until_ci"]
    out = [f"{name}, driver {driver}, {date}; DRAM ceiling (1 GiB device-to-device copy, "
           f"read + write) {data['copy_gbs']} GB/s. Timing: {t['warmup']} warm-ups, then "
           f"at least {t['min_reps']} timed launches, more in batches of {t['batch_reps']} "
           f"until the median's 95% interval is within ±{100 * r:g}% of it, at most "
           f"{t['max_reps']}; the interval is the {t['interval']}.",
           "",
           f"| size | launches per version | versions at {t['max_reps']} launches "
           f"| intervals wider than ±{100 * r:g}% | widest | GPU at the start of the timing "
           "| at its end |",
           "|---|---|---|---|---|---|---|"]
    vs = [v for ex in data["examples"] for v in ex["versions"]]
    for size in sorted(data["device_state"], key=int):
        reps = [v["reps"][size] for v in vs]
        wide = [v for v in vs if v["ms_ci95"][size][0] < v["ms"][size] * (1 - r)
                or v["ms_ci95"][size][1] > v["ms"][size] * (1 + r)]
        widest = max(max(v["ms"][size] - v["ms_ci95"][size][0],
                         v["ms_ci95"][size][1] - v["ms"][size]) / v["ms"][size] for v in vs)
        st = data["device_state"][size] or {}
        out.append(f"| {size}^2 | {min(reps)}-{max(reps)} "
                   f"| {sum(x >= t['max_reps'] for x in reps)} of {len(vs)} "
                   f"| {len(wide)} of {len(vs)} | ±{100 * widest:.1f}% "
                   f"| {state_text(st.get('start'))} | {state_text(st.get('end'))} |")
    return "\n".join(out) + "\n"


def best_sizes_table(data):
    """best_table for one run at each of its sizes: per example and size,
    the best accurate tiling (time with its interval) and the fastest shape
    of each perforated scheme (speedup [interval], % of the byte-ratio
    bound, median error at that size)."""
    out = ["| example | size | accurate: shape, ms [95% interval], GB/s (% of copy) | "
           + " | ".join(SCHEMES) + " |",
           "|---|---|---|" + "---|" * len(SCHEMES)]
    for name in NAMES:
        ex = next(e for e in data["examples"] if e["name"] == name)
        for size in sorted(ex["versions"][0]["ms"], key=int):
            cells = [NAMES[name], f"{size}^2", best_accurate_cell(ex, data, size)]
            out.append("| " + " | ".join(cells + scheme_cells(ex, size, pct)) + " |")
    return "\n".join(out) + "\n"


def fronts_table(data):
    """Per example and size: the Pareto front (speedup over the baseline
    [interval], median error at that size), and how many output-perforation
    points some input perforation is at least as fast and as exact as."""
    out = ["| example | size | Pareto front: version speedup [95% interval], median error "
           "| output perforation dominated |",
           "|---|---|---|---|"]
    for name in NAMES:
        ex = next(e for e in data["examples"] if e["name"] == name)
        vs, metric = ex["versions"], ex["metric"]
        for size in sorted(vs[0]["ms"], key=int):
            _, _, base = baseline(vs, size)
            bv = baseline_version(vs, size)
            by = {v["label"]: v for v in vs}
            points = [(base / v["ms"][size], primary(v, metric, size), v["label"]) for v in vs]
            front = "; ".join(
                f"{p[2]} {p[0]:.3f}x{ci_text(ratio_interval(bv, by[p[2]], size), 3)}, {pct(p[1])}"
                for p in pareto(points))
            outs = [p for p in points if is_output(by[p[2]])]
            ins = [p for p in points if is_input(by[p[2]]) or by[p[2]]["scheme"] == "accurate"]
            beaten = [o for o in outs if any(i[0] >= o[0] and i[1] <= o[1] for i in ins)]
            out.append(f"| {NAMES[name]} | {size}^2 | {front} | {len(beaten)} of {len(outs)} |")
    return "\n".join(out) + "\n"


def doc_blocks():
    h100g = "perforation-h100-2026-11-26-g/"
    h200g = "perforation-h200-2026-11-26-g/"
    d = load("perforation-h100-2026-11-25-d/perforation.json")
    latest = load(LATEST + "/perforation.json")
    tiled = load(TILED_OUTPUT + "/perforation.json")
    tiled_16384 = load(TILED_OUTPUT_16384 + "/perforation.json")
    return {
        "run-tiled-output": run_table(TILED_OUTPUT),
        "tiled-output": tiled_output_table(tiled),
        "run-tiled-output-16384": run_table(TILED_OUTPUT_16384),
        "tiled-output-16384": tiled_output_table(tiled_16384),
        "run-2026-11-29": run_table(LATEST),
        "summary-2026-11-29": summary(latest),
        "best-2026-11-29": best_sizes_table(latest),
        "fronts-2026-11-29": fronts_table(latest),
        "errors-2026-11-29": errors_table(latest),
        "best-g": best_table([
            ("H100", load(h100g + "perforation.json"), load(h100g + "scalar-16384/perforation.json")),
            ("H200", load(h200g + "perforation.json"), load(h200g + "scalar-16384/perforation.json"))]),
        "best-f-e": best_table([
            ("H100", load("perforation-h100-2026-11-25-f/perforation.json"), None),
            ("H200", load("perforation-h200-2026-11-25-e/perforation.json"), None)]),
        "summary-d": summary(d),
        "best-d": best_table([("H100", d, None)]),
        "errors-d": errors_table(d),
        "tune-cuda": tune_cuda_table("perforation-h100-2026-11-25-d", ["gaussian3", "sobel3"]),
    }


def state_text(s):
    """One NVML reading (device_state's start or end); '-' for none."""
    if not s:
        return "-"
    power = "-" if s.get("power_w") is None else f"{s['power_w']:.1f}"
    return f"SM {s['sm_mhz']} MHz, memory {s['mem_mhz']} MHz, {s['temp_c']} C, {power} W"


def timing_text(data):
    """The repetition rule and the GPU's state around each size's timing,
    where the JSON has them ('' for older JSON)."""
    out = []
    t = data.get("timing")
    if t:
        rule = (f"at least {t['min_reps']}, until the 95% interval of the median is "
                f"within +-{100 * t['until_ci']:g}% of it, at most {t['max_reps']}"
                if t.get("until_ci") else f"{t['min_reps']}, no --until-ci")
        reps = [r for ex in data["examples"] for v in ex["versions"]
                for r in (v.get("reps") or {}).values() if r is not None]
        took = f"; took {min(reps)} to {max(reps)}" if reps else ""
        out += [f"timing: {t['warmup']} warm-ups, then timed launches: {rule}{took}; "
                f"times are medians [95% interval]", ""]
    if "device_state" in data:
        if data.get("nvml"):
            out.append(f"GPU state: no NVML readings ({data['nvml']})")
        for size in sorted(data["device_state"], key=int):
            st = data["device_state"][size] or {}
            out.append(f"GPU state at {size}^2 timing: start {state_text(st.get('start'))}; "
                       f"end {state_text(st.get('end'))}")
        out.append("")
    return "".join(line + "\n" for line in out)


def timing_lines(data):
    print(timing_text(data), end="")


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("--"):
        return docblocks.main("report.py", "report", os.path.join(ROOT, "docs", "perforation.md"),
                              doc_blocks, "bench/results/perforation-*", names_from_page=True)
    if len(sys.argv) != 3:
        sys.exit("usage: report.py perforation.json[.gz] OUT_DIR")
    data = read_json(sys.argv[1])
    os.makedirs(sys.argv[2], exist_ok=True)
    if "phases_s" in data:
        print("run time by phase: " + ", ".join(
            f"{k} {v:.1f} s" for k, v in data["phases_s"].items()))
        print()
    if "photo_tiling" in data:
        print(f"photographs: {data['photo_tiling']}; SSIM: {data.get('ssim', '?')}")
        print()
    timing_lines(data)
    print(summary(data))
    size_tables(data)
    set_tables(data)
    for ex in data["examples"]:
        name, metric = ex["name"], ex["metric"]
        versions = ex["versions"]
        sizes = sorted(versions[0]["ms"], key=int)
        by_label = {v["label"]: v for v in versions}
        for size in sizes:
            _, _, base = baseline(versions, size)
            bv = baseline_version(versions, size)

            def sp_ci(label):
                return ci_text(ratio_interval(bv, by_label[label], size), 3)
            points = [(base / v["ms"][size], primary(v, metric, size), v["label"])
                      for v in versions]
            front = pareto(points)
            print(f"{name} {size}^2 (baseline {ms_text(bv, size)} ms, {metric}): Pareto front")
            for p in front:
                ci = sp_ci(p[2])
                print(f"  {p[2]:<22} {p[0]:6.3f}x  {100 * p[1]:8.4f}%"
                      + (f"  speedup{ci}" if ci else ""))
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
                      (f"{best[2]} at {best[0]:.3f}x{sp_ci(best[2])} ({100 * best[1]:.3f}%)"
                       if best else "none"))
            title = f"{name}, {size}x{size}: error vs speedup"
            svg(os.path.join(sys.argv[2], f"pareto-{name}-{size}.svg"), title, points, front)
            if size == sizes[-1]:
                svg(os.path.join(sys.argv[2], f"pareto-{name}.svg"), title, points, front)
        print()


if __name__ == "__main__":
    main()
