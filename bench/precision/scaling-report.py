#!/usr/bin/env python3
"""scaling-report.py - tables, goals and a bar chart of the precision-scaling
benchmark (issue 10; bench/precision/run-scaling.sh).

    python3 bench/precision/scaling-report.py OUT_DIR [--db FILE] [--svg FILE]
    python3 bench/precision/scaling-report.py [--write | --check | --list] [--docs PAGE]

The second form (bench/lib/docblocks.py; CI: bench/docs-tables.py) makes
the generated blocks of docs/precision.md (default) and README.md from the
committed runs in bench/results (doc_blocks() at the end names them).

Reads every approx-scale report OUT_DIR/scale-*.json (approx-scale -o, one
per app x input set x size, every TOQ and strategy in it), the system
database (--db, default OUT_DIR/precision-db.json) and, when present,
OUT_DIR/run.json (run-scaling.sh: date, command, seconds, skipped work of
each invocation into OUT_DIR), and
prints markdown:

  (a) per app x input x TOQ: the whole-program speedup over the f64 profile
      of in-kernel scaling, PFP, PreScaler as published and ours (measured:
      the chosen configuration's run; "*" below the TOQ on its own input),
      trials spent / bound (#MObj x (1 + #types)) for ours and PreScaler,
      ours' predicted vs measured time and the error, whether the TOQ holds
      on the held-out input (Random: another seed; Image: another
      photograph; Default: none, said so);
  (b) per TOQ and strategy: the arithmetic mean of the speedups (the
      headline, as in the paper), the geometric mean, the mean |prediction
      error|;
  (c) ours at TOQ 0.9: storage type and methods per object;
  (d) the goals, met or missed, with their numbers;
  (e) the machine (database: GPU, driver, PCIe link, CPU) and the run;
  (f) where the reports have it (approx-scale's "pinned_f64", issue 30):
      the staging control, the f64 program moved through the scaled
      trials' pinned staging by the same host threads (a staged copy),
      measured as a trial; per app x input x TOQ each strategy's speedup
      over it, and the split of its speedup over the pageable f64 profile
      into staging (pageable f64 / pinned f64) times precision (pinned f64
      / pick); means per TOQ and strategy. Reports without it (before
      2026-12) are listed as such;
  (g) where the reports have them (approx-scale --until-ci, issue 30):
      every measured configuration's median with its 95% bootstrap
      interval, the runs taken and the GPU's energy per run (NVML), and how
      many intervals are within +-1%.

and writes a bar chart of the speedups at TOQ 0.9 (four strategies per app
and input) to --svg (default OUT_DIR/speedup-toq0.9.svg) with
bench/lib/svgplot.py: no matplotlib.

Byte-ratio goal (d, second line):
  T64(o)  the object's measured f64 transfer time: the sum of its profile
          events (CUDA events around each copy);
  Ts(o)   the object's measured transfer time in the scaled run, conversions
          included (verified.object_transfer_seconds, h2d + d2h: wall time
          of each TransferEngine call); reports without it (before
          2026-11-26) estimate it as below;
  rest    the f64 run's time that is neither a kernel nor a transfer
          (allocation, host work): profile total - kernels - sum T64, taken
          as unchanged by scaling;
  N       the scaled run's measured non-kernel time: verified total -
          verified kernel time (the transfers with their conversions);
  Ts(o)   (estimate) N - rest - sum over the other objects p of T64(p) x
          storage bytes(p) / declared bytes(p): the others are credited with
          their own bound, so any shortfall is charged to o (conservative);
  bound   declared bytes / storage bytes (f64 -> f16: 4);
  reached (T64(o) / Ts(o)) / bound.
An object counts (its transfers dominate) when T64(o) >= 25% of the f64
total and the app's transfers (sum T64) >= 50% of it, and ours stores it
narrower than declared; and its narrowed copy is bandwidth-bound: its
storage bytes are at least the size from which the database's pinned
copies (both directions) reach 90% of their peak rate (H100, PCIe 5: 4
MiB). Below it a copy is latency-bound (fixed costs of the copy, its
events and the conversion's thread wake-ups), time is not proportional to
bytes, and the byte-ratio bound does not apply: such objects are listed
apart, with their numbers, and not counted. The goal is met when every such object (every TOQ)
reaches >= 80%; Ts(o) <= 0 counts as reached (shown as ">100%").

Standard library only: it also runs on the GPU machine.
"""
import argparse
import glob
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from svgplot import Figure  # noqa: E402  (bench/lib: the plot module)

STRATEGIES = ["in-kernel", "pfp", "prescaler", "ours"]
LABELS = {"in-kernel": "in-kernel", "pfp": "PFP", "prescaler": "PreScaler",
          "ours": "ours"}
COLOURS = {"in-kernel": "#999999", "pfp": "#6699cc", "prescaler": "#e69f00",
           "ours": "#cc3333"}
BYTES = {"f64": 8, "f32": 4, "f16": 2, "bf16": 2}
HEADLINE_TOQ = 0.9
GOAL_SPEEDUP = 1.5
GOAL_BOUND = 0.80
DOMINANT_OBJECT = 0.25
DOMINANT_APP = 0.50
BANDWIDTH_FRACTION = 0.90  # of the pinned copy's peak: bandwidth-bound from there
BANDWIDTH_FLOOR = 0        # bytes; set from the database in main()


def bandwidth_floor(db_path):
    """The smallest size from which every pinned-copy table of the database
    reaches BANDWIDTH_FRACTION of its peak rate (0 when unreadable)."""
    try:
        with open(db_path) as f:
            db = json.load(f)
        floor = 0
        for t in db.get("transfer", []):
            if t.get("memory") != "pinned" or not t.get("points"):
                continue
            peak = max(p["gbps"] for p in t["points"])
            floor = max(floor, min(p["bytes"] for p in t["points"]
                                   if p["gbps"] >= BANDWIDTH_FRACTION * peak))
        return floor
    except (OSError, ValueError, KeyError):
        return 0
INPUT_ORDER = {"default": 0, "image": 1, "random": 2}


def report_order(r):
    """The tables' order of reports: by app, input set, size."""
    return r["app"], INPUT_ORDER.get(r["input"], 9), r.get("size", "")


def load_reports(out_dir):
    reports = []
    for path in sorted(glob.glob(os.path.join(out_dir, "scale-*.json"))):
        try:
            with open(path) as f:
                r = json.load(f)
        except (OSError, ValueError) as e:
            print(f"scaling-report: skipping {path}: {e}", file=sys.stderr)
            continue
        r["_file"] = os.path.basename(path)
        r["_dir"] = out_dir
        reports.append(r)
    reports.sort(key=report_order)
    return reports


def same_toq(a, b):
    return abs(a - b) < 1e-9


def entry(report, strategy, toq):
    """The strategy's entry at `toq` (reports of one TOQ have no per-entry
    "toq": the report's own)."""
    for s in report["strategies"]:
        if s["strategy"] == strategy and same_toq(s.get("toq", report["toq"]), toq):
            return s
    return None


def toqs_of(report):
    qs = report.get("toqs") or [report["toq"]]
    return [float(q) for q in qs]


def ours_entries(reports):
    """(report, "APP/INPUT/TOQ" label, ours' entry) at every TOQ of every
    report that has one."""
    for r in reports:
        app, inp = row_label(r)
        for q in toqs_of(r):
            s = entry(r, "ours", q)
            if s is not None:
                yield r, f"{app}/{inp}/{q:g}", s


def row_label(r):
    size = "" if r.get("size", "paper") == "paper" else f" ({r['size']})"
    return f"{r['app']}{size}", r["input"]


def fmt_speedup(s):
    if s is None:
        return "—"
    mark = "" if s["verified"]["pass"] else "*"
    return f"{s['speedup']:.2f}x{mark}"


def pred_error(s):
    meas = s["verified"]["total_seconds"]
    return (s["predicted_seconds"] - meas) / meas


def holdout_cell(report, s):
    if s is None:
        return "—"
    if report["input"] == "default":
        return "n/a (one input)"
    h = s.get("holdout")
    if h is None:
        return "not run"
    what = f"seed {h['seed']}" if "seed" in h else os.path.basename(h.get("image", "?"))
    verdict = "holds" if h["pass"] else "VIOLATED"
    extra = ", overflow" if h.get("overflow") else ""
    return f"{verdict} ({what}: q={h['quality']:.4f}{extra})"


def table_rows(reports):
    print("## (a) Speedup over f64 per app, input set and TOQ")
    print()
    print("Measured whole-program speedup of the chosen configuration over the "
          "f64 profile (\"*\": below the TOQ on its own input). Trials: spent "
          "/ bound (#MObj x (1 + #types)). Prediction: ours.")
    print()
    print("| app | input | TOQ | f64 ms | in-kernel | PFP | PreScaler | ours "
          "| trials ours | trials PreScaler | ours predicted / measured ms (err) "
          "| held-out (ours) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in reports:
        app, inp = row_label(r)
        f64 = r["profile"]["total_seconds"] * 1e3
        for q in toqs_of(r):
            cells = [fmt_speedup(entry(r, k, q)) for k in STRATEGIES]
            ours, ps = entry(r, "ours", q), entry(r, "prescaler", q)

            def trials(s):
                return "—" if s is None else f"{len(s['trials'])}/{s['trial_bound']}"
            if ours:
                pm = (f"{ours['predicted_seconds'] * 1e3:.3f} / "
                      f"{ours['verified']['total_seconds'] * 1e3:.3f} "
                      f"({100 * pred_error(ours):+.1f}%)")
            else:
                pm = "—"
            print(f"| {app} | {inp} | {q:g} | {f64:.3f} | " + " | ".join(cells) +
                  f" | {trials(ours)} | {trials(ps)} | {pm} | {holdout_cell(r, ours)} |")
    print()


def speedups(reports, strategy, toq):
    out = []
    for r in reports:
        s = entry(r, strategy, toq)
        if s is not None:
            out.append(s)
    return out


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def table_means(reports):
    print("## (b) Averages per TOQ and strategy")
    print()
    print("Over every app x input set at that TOQ. Headline: the arithmetic "
          "mean of the speedups (the paper's average); the geometric mean "
          "beside it.")
    print()
    print("| TOQ | strategy | n | arithmetic mean (headline) | geometric mean "
          "| min | max | below TOQ | mean \\|prediction error\\| |")
    print("|---|---|---|---|---|---|---|---|---|")
    qs = sorted({q for r in reports for q in toqs_of(r)})
    for q in qs:
        for k in STRATEGIES:
            es = speedups(reports, k, q)
            if not es:
                continue
            sp = [e["speedup"] for e in es]
            below = sum(1 for e in es if not e["verified"]["pass"])
            err = statistics.mean(abs(pred_error(e)) for e in es)
            print(f"| {q:g} | {LABELS[k]} | {len(sp)} | {statistics.mean(sp):.3f}x "
                  f"| {geomean(sp):.3f}x | {min(sp):.2f}x | {max(sp):.2f}x "
                  f"| {below} | {100 * err:.1f}% |")
    print()


def table_choices(reports):
    print(f"## (c) Ours at TOQ {HEADLINE_TOQ:g}: storage types and methods")
    print()
    print("| app | input | object | declared | storage | h2d | d2h |")
    print("|---|---|---|---|---|---|---|")
    for r in reports:
        s = entry(r, "ours", HEADLINE_TOQ)
        if s is None:
            continue
        app, inp = row_label(r)
        for o in s["objects"]:
            print(f"| {app} | {inp} | {o['name']} | {o['declared']} | {o['storage']} "
                  f"| {o['h2d']} | {o['d2h']} |")
    print()


def byte_ratio(report, s):
    """(object, storage, T64 ms, Ts ms, bound, reached, bandwidth-bound) for
    each dominant narrowed object of `s`, by the module docstring's
    definition."""
    prof = report["profile"]
    elements = {o["name"]: o["elements"] for o in prof["objects"]}
    total = prof["total_seconds"]
    kernels = sum(k["seconds"] for k in prof["kernels"])
    t64 = {o["name"]: sum(e["seconds"] for e in o["events"]) for o in prof["objects"]}
    moved = sum(t64.values())
    rest = total - kernels - moved
    kern = s["verified"].get("kernel_seconds", -1)
    if kern is None or kern < 0 or moved < DOMINANT_APP * total:
        return []
    nonkernel = s["verified"]["total_seconds"] - kern
    chosen = {o["name"]: o for o in s["objects"]}

    def ratio(name):  # storage bytes / declared bytes
        o = chosen.get(name)
        if o is None:
            return 1.0
        return BYTES[o["storage"]] / BYTES[o["declared"]]
    out = []
    for name, t in t64.items():
        o = chosen.get(name)
        if o is None or t < DOMINANT_OBJECT * total or ratio(name) >= 1.0:
            continue
        measured = s["verified"].get("object_transfer_seconds", {}).get(name)
        if measured is not None:  # approx-scale times each object's transfers
            ts = measured.get("h2d", 0.0) + measured.get("d2h", 0.0)
        else:  # older reports: charge the run's whole shortfall to the object
            others = sum(t64[p] * ratio(p) for p in t64 if p != name)
            ts = nonkernel - rest - others
        bound = 1.0 / ratio(name)
        reached = math.inf if ts <= 0 else (t / ts) / bound
        wide = elements.get(name, 0) * BYTES[o["storage"]] >= BANDWIDTH_FLOOR
        out.append((name, o["storage"], t * 1e3, ts * 1e3, bound, reached, wide))
    return out


def goals(reports):
    print("## (d) Goals")
    print()
    lines = []
    # 1. Average speedup of ours at the headline TOQ.
    es = speedups(reports, "ours", HEADLINE_TOQ)
    if es:
        sp = [e["speedup"] for e in es]
        am = statistics.mean(sp)
        ok = am >= GOAL_SPEEDUP
        lines.append(f"- [{'met' if ok else 'missed'}] average whole-program speedup "
                     f">= {GOAL_SPEEDUP}x at TOQ {HEADLINE_TOQ:g} (ours): "
                     f"arithmetic mean {am:.3f}x over {len(sp)} app x input runs "
                     f"(geometric mean {geomean(sp):.3f}x)")
    else:
        lines.append(f"- [not evaluated] average speedup >= {GOAL_SPEEDUP}x at TOQ "
                     f"{HEADLINE_TOQ:g}: no report of ours at that TOQ")
    # 2. Byte-ratio bound of the transfer-bound objects.
    objs, small = [], []
    for r, label, s in ours_entries(reports):
        for (name, st, t64, ts, bound, reached, wide) in byte_ratio(r, s):
            (objs if wide else small).append(
                (f"{label}/{name}", st, t64, ts, bound, reached))
    def show(o):
        pct = ">100%" if math.isinf(o[5]) else f"{100 * o[5]:.0f}%"
        return (f"{o[0]} ({o[1]}: {o[2]:.3f} -> {o[3]:.3f} ms, bound {o[4]:g}x, "
                f"{pct})")
    if objs:
        bad = [o for o in objs if o[5] < GOAL_BOUND]
        lines.append(f"- [{'met' if not bad else 'missed'}] transfer-bound objects at "
                     f">= {100 * GOAL_BOUND:.0f}% of their byte-ratio bound: "
                     f"{len(objs) - len(bad)} of {len(objs)}" +
                     ("" if not bad else "; below: " + ", ".join(o[0] for o in bad)))
        for o in objs:
            lines.append(f"  - {show(o)}")
    else:
        lines.append("- [not evaluated] transfer-bound objects at >= "
                     f"{100 * GOAL_BOUND:.0f}% of their byte-ratio bound: no object "
                     "whose transfers dominate was narrowed by ours")
    if small:
        lines.append(f"  - not counted, latency-bound (narrowed copy below "
                     f"{BANDWIDTH_FLOOR / 2**20:g} MiB, where pinned copies reach "
                     f"{100 * BANDWIDTH_FRACTION:.0f}% of their peak): " +
                     "; ".join(show(o) for o in small))
    # 3. Trials within the bound, every strategy.
    runs, over = 0, []
    for r in reports:
        app, inp = row_label(r)
        for s in r["strategies"]:
            runs += 1
            if len(s["trials"]) > s["trial_bound"]:
                over.append(f"{app}/{inp}/{s.get('toq', r['toq']):g}/{s['strategy']} "
                            f"({len(s['trials'])} > {s['trial_bound']})")
    if runs:
        lines.append(f"- [{'met' if not over else 'missed'}] trials <= bound "
                     f"(#MObj x (1 + #types)): {runs - len(over)} of {runs} searches" +
                     ("" if not over else "; over: " + "; ".join(over)))
    # 4. The TOQ on the held-out input (ours, every TOQ).
    held, failed, none = 0, [], 0
    for _, label, s in ours_entries(reports):
        if "holdout" not in s:
            none += 1
            continue
        held += 1
        if not s["holdout"]["pass"]:
            failed.append(f"{label} (q={s['holdout']['quality']:.4f})")
    tail = (f"; {none} without a held-out input (the default set has one input; "
            "or none was given)" if none else "")
    if held:
        lines.append(f"- [{'met' if not failed else 'missed'}] TOQ holds on the held-out "
                     f"input (ours): {held - len(failed)} of {held}" +
                     ("" if not failed else "; violated: " + "; ".join(failed)) + tail)
    else:
        lines.append("- [not evaluated] TOQ holds on the held-out input: no held-out "
                     "run" + tail)
    print("\n".join(lines))
    print()


def machine(out_dir, db_path, reports):
    print("## (e) Machine and run")
    print()
    try:
        with open(db_path) as f:
            db = json.load(f)
        g, c = db["machine"]["gpu"], db["machine"]["cpu"]
        print(f"- GPU: {g['name']} (driver {g['driver']}), PCIe gen {g['pcie_gen']} "
              f"x{g['pcie_width']}")
        print(f"- CPU: {c['model']}, {c['logical_cores']} logical cores, SIMD {c['simd']}")
        print(f"- system database: {db_path}, recorded {db.get('created', '?')}")
    except (OSError, ValueError, KeyError) as e:
        print(f"- system database: unreadable ({db_path}: {e})")
    devices = sorted({r.get("device", "?") for r in reports})
    print(f"- device in the reports: {', '.join(devices) or 'none'}")
    meta_path = os.path.join(out_dir, "run.json")
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
        # One invocation (older files) or several into the same OUT_DIR.
        runs = meta["runs"] if "runs" in meta else [meta]
        for i, run in enumerate(runs):
            tag = f" (invocation {i + 1} of {len(runs)})" if len(runs) > 1 else ""
            print(f"- date{tag}: {run.get('date', '?')}")
            print(f"- command: `{run.get('command', '?')}`")
            if "seconds" in run:
                print(f"- run time: {run['seconds']} s (budget {run.get('budget', '?')} s)")
            for key, what in (("skipped", "skipped"), ("failed", "failed")):
                if run.get(key):
                    print(f"- {what}: " + "; ".join(run[key]))
    trials = sum(r.get("trials_run", 0) for r in reports)
    print(f"- {len(reports)} reports, {trials} distinct configurations run")
    print()


def control(report):
    """The report's staging control ("pinned_f64") when it was measured: its
    entry, else None (older reports have none; a failed one has "error")."""
    c = report.get("pinned_f64")
    if c is None or c.get("total_seconds") is None:
        return None
    return c


def over_pinned(report, s):
    """(vs pageable, vs pinned, staging, precision) of a strategy entry, from
    its fields or, where a report lacks them, its times."""
    c = control(report)
    pick = s["verified"]["total_seconds"]
    base = report["profile"]["total_seconds"]
    pinned = c["total_seconds"]
    return (s.get("speedup", base / pick),
            s.get("speedup_pinned_f64", pinned / pick),
            s.get("gain_staging", base / pinned),
            s.get("gain_precision", pinned / pick))


def table_control(reports):
    with_control = [r for r in reports if control(r) is not None]
    if not with_control and not any("pinned_f64" in r for r in reports):
        return  # no report has the control: older runs
    print("## (f) The staging control: pageable f64, pinned f64 and the picks")
    print()
    print("Pinned f64: every object in its declared type, every transfer a "
          "staged copy (the host threads copy it through the trials' pinned "
          "staging, then across the bus), measured as a trial. Each cell: "
          "speedup over pinned f64 (= the precision part); staging = pageable "
          "f64 / pinned f64, so speedup over f64 (a) = staging x precision.")
    print()
    print("| app | input | TOQ | f64 ms | pinned f64 ms | staging | in-kernel "
          "| PFP | PreScaler | ours | ours: vs f64 = staging x precision |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    missing = []
    for r in reports:
        app, inp = row_label(r)
        c = control(r)
        if c is None:
            err = (r.get("pinned_f64") or {}).get("error")
            missing.append(f"{app}/{inp}" + (f" (not measured: {err})" if err
                                              else " (no control in the report)"))
            continue
        f64 = r["profile"]["total_seconds"] * 1e3
        pinned = c["total_seconds"] * 1e3
        for q in toqs_of(r):
            cells = []
            for k in STRATEGIES:
                e = entry(r, k, q)
                cells.append("—" if e is None else f"{over_pinned(r, e)[1]:.2f}x")
            ours = entry(r, "ours", q)
            split = "—"
            if ours is not None:
                sp, _, st, pr = over_pinned(r, ours)
                split = f"{sp:.2f}x = {st:.2f}x x {pr:.2f}x"
            print(f"| {app} | {inp} | {q:g} | {f64:.3f} | {pinned:.3f} "
                  f"| {f64 / pinned:.2f}x | " + " | ".join(cells) + f" | {split} |")
    print()
    if with_control:
        print("Means over the app x input runs with the control (geometric "
              "means multiply: speedup = staging x precision).")
        print()
        print("| TOQ | strategy | n | vs f64 (arith. / geom.) | vs pinned f64 "
              "(arith. / geom.) | staging (geom.) | precision (geom.) |")
        print("|---|---|---|---|---|---|---|")
        qs = sorted({q for r in with_control for q in toqs_of(r)})
        for q in qs:
            for k in STRATEGIES:
                rows = [over_pinned(r, e) for r in with_control
                        for e in [entry(r, k, q)] if e is not None]
                if not rows:
                    continue
                sp, vp, st, pr = (list(col) for col in zip(*rows))
                print(f"| {q:g} | {LABELS[k]} | {len(rows)} "
                      f"| {statistics.mean(sp):.3f}x / {geomean(sp):.3f}x "
                      f"| {statistics.mean(vp):.3f}x / {geomean(vp):.3f}x "
                      f"| {geomean(st):.3f}x | {geomean(pr):.3f}x |")
        print()
    if missing:
        print("Without the control: " + "; ".join(missing))
        print()


def fmt_time(seconds):
    """A median's milliseconds: three decimals below 2 ms, one from 100 ms,
    else two."""
    ms = seconds * 1e3
    return f"{ms:.3f}" if ms < 2 else f"{ms:.1f}" if ms >= 100 else f"{ms:.2f}"


# Below this many runs a bootstrap "interval" of the median is about the
# runs' range (of two runs, exactly), not an interval: such medians are
# shown with their range and counted apart (apps run with SLOW_APPS stop
# there when the range is already within the ±1% rule).
FEW_RUNS = 5


def few_runs(runs):
    """True for a median of 2 to FEW_RUNS - 1 runs (see FEW_RUNS)."""
    return runs is not None and 1 < runs < FEW_RUNS


def ci_cell(seconds, ci, runs):
    """'35.07 [34.66, 35.26]': a median in ms and its 95% interval; one run
    has none ('1 run'); a few runs show their range ('2 runs: a-b');
    older reports have neither ('—' for the interval)."""
    if runs is not None and runs <= 1:
        return f"{fmt_time(seconds)} (1 run)"
    if not ci:
        return fmt_time(seconds)
    if few_runs(runs):
        return f"{fmt_time(seconds)} ({runs} runs: {fmt_time(ci[0])}-{fmt_time(ci[1])})"
    return f"{fmt_time(seconds)} [{fmt_time(ci[0])}, {fmt_time(ci[1])}]"


def half_width(seconds, ci):
    """The 95% interval's larger side relative to its median (None: none)."""
    if not ci or seconds <= 0:
        return None
    return max(1 - ci[0] / seconds, ci[1] / seconds - 1)


def energy_cell(joules, seconds):
    """GPU energy per run (J) and what it implies over the median time (W):
    '13.50 J (979 W)'; '0 J' where the counter did not advance; '—' where
    there is no reading."""
    if joules is None or (isinstance(joules, float) and math.isnan(joules)):
        return "—"
    if joules == 0:
        return "0 J"
    return f"{joules:.2f} J ({joules / seconds:.0f} W)"


def measurements(report):
    """(label, seconds, interval, runs, energy J per run) of every measured
    configuration of a report with dispersion fields: the f64 profile, the
    pinned f64 control, each strategy's pick per TOQ."""
    out = [("f64 profile", report["profile"]["total_seconds"],
            report.get("profile_seconds_ci"), report.get("profile_runs"),
            report.get("profile_energy_j_per_run"))]
    c = control(report)
    if c is not None:
        out.append(("pinned f64", c["total_seconds"], c.get("total_seconds_ci"), c.get("runs"),
                    c.get("energy_j_per_run")))
    for q in toqs_of(report):
        for k in STRATEGIES:
            e = entry(report, k, q)
            if e is None:
                continue
            v = e["verified"]
            out.append((f"{LABELS[k]} {q:g}", v["total_seconds"], v.get("total_seconds_ci"),
                        v.get("runs"), v.get("energy_j_per_run")))
    return out


def table_dispersion(reports):
    """(g): each measured configuration's median, 95% interval, runs and
    GPU energy per run, where the reports have them (approx-scale
    --until-ci, issue 30)."""
    have = [r for r in reports if "profile_seconds_ci" in r]
    if not have:
        return  # older reports: no interval
    print("## (g) Dispersion and energy")
    print()
    print("Medians in ms with their 95% bootstrap interval and the runs taken "
          "(approx-scale --until-ci: repeated until the interval is within the "
          "rule or the run limit); GPU energy per run: NVML's counter over the "
          "measurement's runs, per run, and that over the median time (W); 0 J: "
          "the counter did not advance.")
    print()
    print("| app | input | configuration | ms [95% interval] | runs | GPU energy per run |")
    print("|---|---|---|---|---|---|")
    widths, few = [], 0
    for r in have:
        app, inp = row_label(r)
        for label, sec, ci, runs, joules in measurements(r):
            w = half_width(sec, ci) if (runs or 0) >= FEW_RUNS else None
            few += few_runs(runs) and ci is not None
            if w is not None:
                widths.append((w, f"{app}/{inp} {label}"))
            print(f"| {app} | {inp} | {label} | {ci_cell(sec, ci, runs)} | "
                  f"{runs if runs is not None else '—'} | {energy_cell(joules, sec)} |")
    print()
    if widths:
        within = sum(1 for w, _ in widths if w <= 0.01 + 1e-12)
        w, where = max(widths)
        print(f"{within} of {len(widths)} intervals within ±1% of their median; the widest "
              f"±{100 * w:.1f}% ({where})." +
              (f" {few} medians of fewer than {FEW_RUNS} runs show their runs' range instead."
               if few else ""))
        print()


def svg_bars(path, reports, toq):
    """Speedups at `toq`: one group of bars per app x input, one bar per
    strategy (its value as the tooltip); the dashed line is f64's 1x."""
    groups = []
    for r in reports:
        vals = [entry(r, k, toq) for k in STRATEGIES]
        if any(v is not None for v in vals):
            app, inp = row_label(r)
            groups.append((f"{app} {inp[:3]}", vals))
    top = max([v["speedup"] for _, vs in groups for v in vs if v] + [1.0]) * 1.1
    step = 0.5 if top <= 4 else 1.0 if top <= 10 else 5.0
    fig = Figure(max(480, 90 + 64 * len(groups)), 380,
                 f"Whole-program speedup over f64, TOQ {toq:g}")
    ax = fig.axes(rect=(60, 54, max(480, 90 + 64 * len(groups)) - 80, 380 - 54 - 90),
                  ylabel="speedup (x)", y=dict(lo=0, hi=top, step=step, grid=True))
    tips = []
    for label, vals in groups:
        tips.append([None if e is None else
                     f"{label} {LABELS[k]}: {e['speedup']:.3f}x"
                     + ("" if e["verified"]["pass"] else " (below the TOQ)")
                     for k, e in zip(STRATEGIES, vals)])
    ax.bars([g for g, _ in groups], [(LABELS[k], COLOURS[k]) for k in STRATEGIES],
            [[None if e is None else e["speedup"] for e in vals] for _, vals in groups],
            tooltips=tips, rotate=-45)
    ax.hline(1.0, color="black", dash="4,3")
    ax.legend("top")
    fig.save(path)
    return len(groups)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out_dir")
    ap.add_argument("--db", help="system database (default OUT_DIR/precision-db.json)")
    ap.add_argument("--svg", help="bar chart (default OUT_DIR/speedup-toq0.9.svg)")
    a = ap.parse_args()
    reports = load_reports(a.out_dir)
    global BANDWIDTH_FLOOR
    BANDWIDTH_FLOOR = bandwidth_floor(a.db or os.path.join(a.out_dir, "precision-db.json"))
    if not reports:
        sys.exit(f"scaling-report: no scale-*.json in {a.out_dir}")
    print("# Precision scaling: in-kernel, PFP, PreScaler and ours (issue 10)")
    print()
    table_rows(reports)
    table_means(reports)
    table_choices(reports)
    goals(reports)
    machine(a.out_dir, a.db or os.path.join(a.out_dir, "precision-db.json"), reports)
    table_control(reports)
    table_dispersion(reports)
    svg = a.svg or os.path.join(a.out_dir, f"speedup-toq{HEADLINE_TOQ:g}.svg")
    n = svg_bars(svg, reports, HEADLINE_TOQ)
    print(f"bar chart: {svg} ({n} app x input groups)")


# docs/precision.md's generated blocks (bench/docs-tables.py, issue 30):
# every measured table of the page, made from the committed raw files.
RESULTS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "bench", "results")
# The staging control (2026-11-29, H200).
CONTROL_RUN = os.path.join(RESULTS, "precision-control-h200-2026-11-29")
# "Results (2026-11-26, H100, second run)": paper/ and 16x/ (approx-scale's
# reports), diag/ (the mgpu example's approx-scale --exec report).
SECOND_RUN = os.path.join(RESULTS, "precision-scaling-h100-2026-11-26b")
EXEC_REPORT = os.path.join(SECOND_RUN, "diag", "mgpu-exec.scale.json")
# "Throughput on the lent GPU machine's host": host-convert-bench's table.
HOST_CONVERT = os.path.join(RESULTS, "precision-host-convert-h100-host-2026-11-25.md")
# "Throughput on this machine" (the 2-core CI-like VM): host-convert-bench
# --json under issue 30's rule, with and without the statistics.
HOST_CONVERT_VM = os.path.join(RESULTS, "precision-host-convert-vm-2026-11-29")
DOC_SOURCES = ("bench/results/precision-scaling-h200-2026-11-29{b,-default,-image,-16x,-16x-mvt}, "
               "precision-session-overhead-h200-2026-11-29, precision-control-h200-2026-11-29, "
               "precision-scaling-h100-2026-11-26b/{paper,16x,diag}, "
               "precision-host-convert-h100-host-2026-11-25.md, precision-host-convert-vm-2026-11-29")
# The docs' order of the input sets within a cell ("random / default / image").
DOC_INPUTS = ["random", "default", "image"]
# The rows and columns of the host conversion table the page shows (AVX2
# path): pairs, then (threads, size) per column.
HOST_PAIRS = ["f64 -> f32", "f64 -> f16", "f64 -> bf16", "f32 -> f16", "f16 -> f32"]
HOST_COLUMNS = [(1, "256 MiB"), (4, "256 MiB"), (16, "64 MiB"), (16, "256 MiB"),
                (16, "1 MiB")]


def load_run(out_dir):
    """The reports of `out_dir` and its database's bandwidth floor (the
    goals' byte-ratio test needs it; main() sets it the same way).
    `out_dir` may be a tuple of folders, calls that each ran some of the
    apps: their reports are merged (an app in two of them is an error)
    and the floor is the largest of their databases'."""
    if isinstance(out_dir, str):
        return load_reports(out_dir), bandwidth_floor(os.path.join(out_dir, "precision-db.json"))
    reports, owner = [], {}
    for d in out_dir:
        rs = load_reports(d)
        for app in sorted({r["app"] for r in rs}):
            if app in owner:
                sys.exit(f"scaling-report.py: {app} is in two of the merged runs, "
                         f"{owner[app]} and {d}: each app must come from one folder")
            owner[app] = d
        reports += rs
    reports.sort(key=report_order)
    return reports, max(bandwidth_floor(os.path.join(d, "precision-db.json")) for d in out_dir)


def fmt_ms(seconds):
    """f64 times in the condensed tables: one decimal, two below 2 ms."""
    ms = seconds * 1e3
    return f"{ms:.2f}" if ms < 2 else f"{ms:.1f}"


def doc_rows(reports, toq):
    """Per app at `toq`: the f64 time, the four strategies' speedups and
    ours' trials, the input sets of one app in one cell (DOC_INPUTS order;
    "*": below the TOQ on its own input)."""
    apps = {}
    one_size = len({r.get("size", "paper") for r in reports}) == 1  # the page names it
    for r in reports:
        apps.setdefault(r["app"] if one_size else row_label(r)[0], {})[r["input"]] = r
    out = ["| app | f64 ms | in-kernel | PFP | PreScaler | ours | trials ours / bound |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for app in sorted(apps):
        runs = [apps[app][i] for i in sorted(apps[app], key=lambda i: (
            DOC_INPUTS.index(i) if i in DOC_INPUTS else 9, i))]
        cells = [" / ".join(fmt_ms(r["profile"]["total_seconds"]) for r in runs)]
        for k in STRATEGIES:
            es = [entry(r, k, toq) for r in runs]
            cells.append("—" if any(e is None for e in es) else " / ".join(
                f"{e['speedup']:.2f}" + ("" if e["verified"]["pass"] else "*")
                for e in es) + "x")
        ours = [entry(r, "ours", toq) for r in runs]
        if any(e is None for e in ours):
            cells.append("—")
        else:
            spent = [len(e["trials"]) for e in ours]
            bounds = {e["trial_bound"] for e in ours}
            if len(bounds) == 1:
                spent = sorted(set(spent)) if len(set(spent)) == 1 else spent
                cells.append(", ".join(map(str, spent)) + f" / {bounds.pop()}")
            else:
                cells.append(", ".join(f"{len(e['trials'])}/{e['trial_bound']}"
                                       for e in ours))
        out.append(f"| {app} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def doc_means(reports):
    """Per TOQ: each strategy's arithmetic / geometric mean speedup (ours
    bold: the headline) and ours' mean |prediction error| (PreScaler's)."""
    qs = sorted({q for r in reports for q in toqs_of(r)})
    out = ["| TOQ | runs | in-kernel | PFP | PreScaler | ours "
           "| ours' mean \\|prediction error\\| |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for q in qs:
        cells, n = [], set()
        for k in STRATEGIES:
            sp = [e["speedup"] for e in speedups(reports, k, q)]
            n.add(len(sp))
            am = f"**{statistics.mean(sp):.3f}x**" if k == "ours" else \
                f"{statistics.mean(sp):.3f}x"
            cells.append(f"{am} / {geomean(sp):.3f}x")

        def err(k):
            return 100 * statistics.mean(abs(pred_error(e)) for e in speedups(reports, k, q))
        runs = n.pop() if len(n) == 1 else "/".join(
            str(len(speedups(reports, k, q))) for k in STRATEGIES)
        out.append(f"| {q:g} | {runs} | " + " | ".join(cells) +
                   f" | {err('ours'):.1f}% (PreScaler {err('prescaler'):.1f}%) |")
    return "\n".join(out) + "\n"


def goal_numbers(reports, floor):
    """The numbers of goals() (d) for `reports` under bandwidth floor
    `floor`: ours' mean at the headline TOQ and its run count; the counted
    byte-ratio objects (label, reached), the latency-bound ones; the
    searches and those over their bound; the held-out runs and those
    violated."""
    global BANDWIDTH_FLOOR
    saved, BANDWIDTH_FLOOR = BANDWIDTH_FLOOR, floor
    try:
        sp = [e["speedup"] for e in speedups(reports, "ours", HEADLINE_TOQ)]
        objs, small = [], []
        for r, label, s in ours_entries(reports):
            for (name, st, _, _, _, reached, wide) in byte_ratio(r, s):
                (objs if wide else small).append((f"{label}/{name}", st, reached))
    finally:
        BANDWIDTH_FLOOR = saved
    searches = [(s, r) for r in reports for s in r["strategies"]]
    over = [s for s, _ in searches if len(s["trials"]) > s["trial_bound"]]
    held = [s for _, _, s in ours_entries(reports) if "holdout" in s]
    return dict(mean=statistics.mean(sp), runs=len(sp),
                apps=len({r["app"] for r in reports}),
                inputs=len({r["input"] for r in reports}),
                objs=objs, below=[o for o in objs if o[2] < GOAL_BOUND], small=small,
                searches=len(searches), over=len(over), held=len(held),
                violated=len([s for s in held if not s["holdout"]["pass"]]))


def doc_goals(paper, big):
    """The goals of the paper-size run and the 16x run, one line each."""
    p, b = goal_numbers(*paper), goal_numbers(*big)

    def met(ok):
        return "**met**" if ok else "**missed**"

    def pct(x):
        return ">100%" if math.isinf(x) else f"{100 * x:.0f}%"

    def lowest(g):
        if not g["objs"]:
            return ""
        o = min(g["objs"], key=lambda o: o[2])
        return f" (the lowest {pct(o[2])}: {o[0]}, {o[1]})"

    def small(g, where):
        if not g["small"]:
            return f"none {where}"
        names = sorted({o[0].split("/")[0] + "'s " + o[0].split("/")[-1] for o in g["small"]})
        return f"{len(g['small'])} {where} ({', '.join(names)})"
    lines = [
        f"- average >= {GOAL_SPEEDUP}x at TOQ {HEADLINE_TOQ:g} (ours): "
        f"{met(p['mean'] >= GOAL_SPEEDUP and b['mean'] >= GOAL_SPEEDUP)}, "
        f"{p['mean']:.3f}x over the {p['runs']} paper-size runs of {p['apps']} apps and "
        f"{p['inputs']} input sets ({b['mean']:.3f}x over {b['runs']} runs, "
        f"{b['apps']} apps, at 16x);",
        f"- transfer-bound objects at >= {100 * GOAL_BOUND:.0f}% of their byte-ratio bound: "
        f"{met(not p['below'] and not b['below'])}, "
        f"{len(p['objs']) - len(p['below'])} of {len(p['objs'])} at paper size{lowest(p)} and "
        f"{len(b['objs']) - len(b['below'])} of {len(b['objs'])} at 16x{lowest(b)}; "
        f"latency-bound, not counted: {small(p, 'at paper size')}, {small(b, 'at 16x')};",
        f"- trials <= #MObj x (1 + #types): {met(not p['over'] and not b['over'])}, "
        f"{p['searches'] - p['over']} of {p['searches']} searches "
        f"({b['searches'] - b['over']} of {b['searches']} at 16x);",
        f"- the TOQ holds on a held-out input (ours): "
        f"{met(not p['violated'] and not b['violated'])}, "
        f"{p['held'] - p['violated']} of {p['held']} "
        f"({b['held'] - b['violated']} of {b['held']} at 16x).",
    ]
    return "\n".join(lines) + "\n"


def method_cell(o):
    """An object of a choice: its storage type and the methods that move
    it (a direction without transfers left out)."""
    moves = [f"{d} {o[d]}" for d in ("h2d", "d2h") if o.get(d) not in (None, "none")]
    return f"{o['name']} {o['storage']}" + (f" ({', '.join(moves)})" if moves else "")


def doc_exec(path):
    """approx-scale --exec's report: per strategy its choice, trials,
    measured and predicted time, speedup and quality at the first TOQ (the
    others listed where they chose differently)."""
    with open(path) as f:
        r = json.load(f)
    qs = [float(q) for q in r.get("toqs") or [r["toq"]]]

    def key(s):
        return (json.dumps(s["objects"], sort_keys=True), s["verified"]["total_seconds"])
    same = all(key(entry(r, k, q)) == key(entry(r, k, qs[0]))
               for k in STRATEGIES for q in qs if entry(r, k, qs[0]) and entry(r, k, q))
    head = (f"strategy (TOQ {qs[0]:g}; " + ", ".join(f"{q:g}" for q in qs[1:]) +
            " chose the same)") if same and len(qs) > 1 else "strategy, TOQ"
    out = [f"| {head} | objects: storage (methods) | trials / bound | measured "
           "| speedup | predicted | quality |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for k in ["ours", "prescaler", "pfp", "in-kernel"]:
        for q in (qs[:1] if same else qs):
            s = entry(r, k, q)
            if s is None:
                continue
            name = LABELS[k] if same else f"{LABELS[k]}, {q:g}"
            out.append(f"| {name} | " + "; ".join(method_cell(o) for o in s["objects"]) +
                       f" | {len(s['trials'])} / {s['trial_bound']} "
                       f"| {s['verified']['total_seconds'] * 1e3:.2f} ms "
                       f"| {s['speedup']:.2f}x{'' if s['verified']['pass'] else '*'} "
                       f"| {s['predicted_seconds'] * 1e3:.2f} ms "
                       f"| {s['verified']['quality']:.4f} |")
    return "\n".join(out) + "\n"


def doc_host_convert(path):
    """A few AVX2 rows of host-convert-bench's table (GB/s): HOST_PAIRS x
    HOST_COLUMNS."""
    with open(path, encoding="utf-8") as f:
        lines = [l.strip() for l in f if l.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    gbps = {}
    for l in lines[2:]:
        c = [x.strip() for x in l.strip("|").split("|")]
        for size, v in zip(head[3:], c[3:]):
            gbps[(c[0], c[1], int(c[2]), size)] = v
    out = ["| pair | " + " | ".join(
        f"{t} thread{'s' if t > 1 else ''}, {size}" for t, size in HOST_COLUMNS) + " |",
           "|---|" + "---:|" * len(HOST_COLUMNS)]
    for pair in HOST_PAIRS:
        out.append(f"| {pair} | " + " | ".join(
            gbps[(pair, "avx2", t, size)] for t, size in HOST_COLUMNS) + " |")
    return "\n".join(out) + "\n"


# The headline run (issue 30): the 14 apps on Random at the paper's size,
# TOQ 0.9, the f64 profile, every pick and the pinned-f64 control re-timed
# until +-1% or 30 runs, with NVML energy; one H200, 2026-11-29
# (bench/rerun-dispersion.sh precision; its README.md).
H200_RUN = os.path.join(RESULTS, "precision-scaling-h200-2026-11-29b")
H200_TREE = "ac4eef8"  # the commit whose tree the run built (not in its files)
# The scaled session's cost per launch before and after commit bfbc5f1
# (bench/precision/session-overhead.sh; its tables: session_overhead.py).
SESSION_OVERHEAD_RUN = os.path.join(RESULTS, "precision-session-overhead-h200-2026-11-29")
# The same on the Default and Image input sets, each in its own call right
# after it (bench/rerun-dispersion.sh precision with PRECISION_INPUTS), from
# the same tree.
H200_INPUT_RUNS = {
    "default": os.path.join(RESULTS, "precision-scaling-h200-2026-11-29-default"),
    "image": os.path.join(RESULTS, "precision-scaling-h200-2026-11-29-image")}
# The 16x size on Random with the control, in later calls of the same day
# (bench/rerun-dispersion.sh precision with PRECISION_SIZES=16x; the second
# with PRECISION_APPS, the apps the first did not reach): the apps each
# call's time covered, merged (load_run; an app in two folders is an error).
H200_16X_RUNS = (os.path.join(RESULTS, "precision-scaling-h200-2026-11-29-16x"),
                 os.path.join(RESULTS, "precision-scaling-h200-2026-11-29-16x-mvt"),
                 os.path.join(RESULTS, "precision-scaling-h200-2026-11-29-16x-gesummv"),
                 os.path.join(RESULTS, "precision-scaling-h200-2026-11-29-16x-rest"))
# Their approx-scale and approx-inspect were built from these commits' trees,
# in the same order (the PolyBench PTX is ac4eef8's bundle, as in H200_RUN).
H200_16X_TREES = ("8adbcc5", "dbdd1cc", "12e5577", "12e5577")


def with_control(reports, toq=HEADLINE_TOQ):
    """(report, strategy -> entry at `toq`) of the reports with the control."""
    return [(r, {k: entry(r, k, toq) for k in STRATEGIES}) for r in reports
            if control(r) is not None]


def factor_range(report, e):
    """(staging lo, hi, precision lo, hi) at the ends of the 95% intervals
    of the f64 profile, the control and the pick; None without intervals
    (or with one run)."""
    c = control(report)
    p_ci, c_ci = report.get("profile_seconds_ci"), c.get("total_seconds_ci")
    e_ci = e["verified"].get("total_seconds_ci")
    if not (p_ci and c_ci and e_ci) or min(report.get("profile_runs") or 0, c.get("runs") or 0,
                                           e["verified"].get("runs") or 0) <= 1:
        return None
    return p_ci[0] / c_ci[1], p_ci[1] / c_ci[0], c_ci[0] / e_ci[1], c_ci[1] / e_ci[0]


def doc_h200_speedups(reports, toq=HEADLINE_TOQ):
    """Per app: each strategy's speedup over the pageable f64 program and
    over the pinned f64 control ('a / b'), ours' trials."""
    out = ["| app | in-kernel | PFP | PreScaler | ours | trials ours / bound |",
           "| --- | --- | --- | --- | --- | --- |"]
    for r, es in sorted(with_control(reports, toq), key=lambda x: x[0]["app"]):
        cells = []
        for k in STRATEGIES:
            e = es[k]
            if e is None:
                cells.append("—")
                continue
            sp, vp, _, _ = over_pinned(r, e)
            cells.append(f"{sp:.2f}x / {vp:.2f}x" + ("" if e["verified"]["pass"] else "*"))
        o = es["ours"]
        out.append(f"| {r['app']} | " + " | ".join(cells) + " | " +
                   ("—" if o is None else f"{len(o['trials'])} / {o['trial_bound']}") + " |")
    return "\n".join(out) + "\n"


def doc_h200_split(reports, toq=HEADLINE_TOQ):
    """Per app: the pageable f64 profile, the pinned f64 control and ours'
    pick as medians with 95% intervals (runs), and ours' speedup split into
    staging x precision, each factor with its range at the intervals'
    ends."""
    out = ["| app | f64 (pageable) ms | pinned f64 ms | ours ms | runs | staging | precision "
           "| ours over f64 |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r, es in sorted(with_control(reports, toq), key=lambda x: x[0]["app"]):
        e = es["ours"]
        if e is None:
            continue
        c, v = control(r), e["verified"]
        sp, _, st, pr = over_pinned(r, e)
        rng = factor_range(r, e)
        st_c = f"{st:.2f}x" + ("" if rng is None else f" ({rng[0]:.2f}-{rng[1]:.2f})")
        pr_c = f"{pr:.2f}x" + ("" if rng is None else f" ({rng[2]:.2f}-{rng[3]:.2f})")
        runs = " / ".join(str(n) if n is not None else "—" for n in
                          (r.get("profile_runs"), c.get("runs"), v.get("runs")))
        out.append(f"| {r['app']} | "
                   f"{ci_cell(r['profile']['total_seconds'], r.get('profile_seconds_ci'), r.get('profile_runs'))} | "
                   f"{ci_cell(c['total_seconds'], c.get('total_seconds_ci'), c.get('runs'))} | "
                   f"{ci_cell(v['total_seconds'], v.get('total_seconds_ci'), v.get('runs'))} | "
                   f"{runs} | {st_c} | {pr_c} | {sp:.2f}x |")
    widths, one, few = [], set(), {}
    for r in reports:
        for label, sec, ci, runs, _ in measurements(r):
            if (runs or 0) <= 1:
                one.add(r["app"])
            elif few_runs(runs):
                few.setdefault(r["app"], []).append(runs)
            elif half_width(sec, ci) is not None:
                widths.append((half_width(sec, ci), f"{r['app']} {label}"))
    within = sum(1 for w, _ in widths if w <= 0.01 + 1e-12)
    within2 = sum(1 for w, _ in widths if w <= 0.02 + 1e-12)
    w, where = max(widths)
    out += ["", f"Runs: f64 / pinned f64 / ours. Staging = pageable f64 / pinned f64, precision = "
            f"pinned f64 / ours, in brackets at the ends of the three intervals (of the runs' "
            f"ranges where a median has fewer than {FEW_RUNS} runs). Of the "
            f"{len(widths)} medians of {FEW_RUNS} runs or more (every strategy's pick, the "
            f"control, the profile), {within} have a 95% interval within ±1% and {within2} "
            f"within ±2%; the others stopped at the run limit, the widest at ±{100 * w:.1f}% "
            f"({where})."]
    if few:
        n = sum(len(v) for v in few.values())
        lo, hi = min(min(v) for v in few.values()), max(max(v) for v in few.values())
        out[-1] += (f" {n} medians of {lo if lo == hi else f'{lo} to {hi}'} runs, shown with "
                    f"their range, not an interval: {', '.join(sorted(few))}.")
    out[-1] += f" One run each, no interval: {', '.join(sorted(one)) or 'none'}."
    return "\n".join(out) + "\n"


def summary_numbers(reports, toq=HEADLINE_TOQ, strategy="ours"):
    """Geometric means and ranges over the reports with the control:
    speedup over pageable f64 (sp), over pinned f64 (vp), staging (st),
    each as (geomean, min, min's app, max, max's app), and n."""
    rows = [(r["app"], over_pinned(r, es[strategy])) for r, es in with_control(reports, toq)
            if es[strategy] is not None]

    def stat(i):
        vals = [(x[i], app) for app, x in rows]
        lo, hi = min(vals), max(vals)
        return geomean([v for v, _ in vals]), lo[0], lo[1], hi[0], hi[1], \
            statistics.mean(v for v, _ in vals)
    return dict(n=len(rows), sp=stat(0), vp=stat(1), st=stat(2))


def doc_h200_means(reports, toq=HEADLINE_TOQ):
    """Per strategy: speedup over pageable f64 and over pinned f64
    (arithmetic / geometric mean, range); then staging."""
    out = [f"| strategy (TOQ {toq:g}) | runs | over pageable f64: arith. / geom. | range "
           "| over pinned f64 (precision): arith. / geom. | range |",
           "| --- | --- | --- | --- | --- | --- |"]
    for k in STRATEGIES:
        s = summary_numbers(reports, toq, k)
        if not s["n"]:
            continue
        sp, vp = s["sp"], s["vp"]
        bold = (lambda x: f"**{x}**") if k == "ours" else (lambda x: x)
        out.append(f"| {LABELS[k]} | {s['n']} | {sp[5]:.3f}x / {bold(f'{sp[0]:.3f}x')} "
                   f"| {sp[1]:.2f}x ({sp[2]}) to {sp[3]:.2f}x ({sp[4]}) "
                   f"| {vp[5]:.3f}x / {bold(f'{vp[0]:.3f}x')} "
                   f"| {vp[1]:.2f}x ({vp[2]}) to {vp[3]:.2f}x ({vp[4]}) |")
    s = summary_numbers(reports, toq)
    st = s["st"]
    out += ["", f"- Staging (pageable f64 / pinned f64, the same for every strategy): geometric "
            f"mean {st[0]:.3f}x over {s['n']} apps, {st[1]:.2f}x ({st[2]}) to {st[3]:.2f}x "
            f"({st[4]}); ours over pageable f64 = staging x precision: {s['sp'][0]:.3f}x = "
            f"{st[0]:.3f}x x {s['vp'][0]:.3f}x (geometric means multiply)."]
    return "\n".join(out) + "\n"


def doc_h200_energy(reports, toq=HEADLINE_TOQ):
    """Per app: the GPU's energy per run of the f64 profile, the pinned
    f64 control and ours' pick (and over each median time, W), and ours
    against the control; the geometric mean of that ratio where both
    counters advanced."""
    out = ["| app | f64 profile | pinned f64 | ours | ours / pinned f64 |",
           "| --- | --- | --- | --- | --- |"]
    ratios = []
    for r, es in sorted(with_control(reports, toq), key=lambda x: x[0]["app"]):
        e = es["ours"]
        if e is None:
            continue
        c, v = control(r), e["verified"]
        jc, jo = c.get("energy_j_per_run"), v.get("energy_j_per_run")
        ratio = "—"
        if jc and jo:
            ratios.append((jo / jc, r["app"]))
            ratio = f"{jo / jc:.2f}"
        out.append(f"| {r['app']} | "
                   f"{energy_cell(r.get('profile_energy_j_per_run'), r['profile']['total_seconds'])} | "
                   f"{energy_cell(jc, c['total_seconds'])} | {energy_cell(jo, v['total_seconds'])} "
                   f"| {ratio} |")
    if ratios:
        lo, hi = min(ratios), max(ratios)
        out += ["", f"Ours / pinned f64, GPU energy per run: geometric mean "
                f"{geomean([x for x, _ in ratios]):.2f} over the {len(ratios)} apps where both "
                f"readings exist and the counter advanced, {lo[0]:.2f} ({lo[1]}) to {hi[0]:.2f} "
                f"({hi[1]})."]
    return "\n".join(out) + "\n"


def doc_h200_goals(run, toq=HEADLINE_TOQ):
    """The goals as one run measured them (goal_numbers)."""
    g = goal_numbers(*run)

    def pct(x):
        return ">100%" if math.isinf(x) else f"{100 * x:.0f}%"
    low = min(g["objs"], key=lambda o: o[2]) if g["objs"] else None
    small = sorted({o[0].split("/")[0] + "'s " + o[0].split("/")[-1] for o in g["small"]})
    lines = [
        f"- average >= {GOAL_SPEEDUP}x at TOQ {toq:g} (ours, over the pageable f64 program): "
        f"{'**met**' if g['mean'] >= GOAL_SPEEDUP else '**missed**'}, {g['mean']:.3f}x "
        f"(arithmetic) over {g['runs']} runs of {g['apps']} apps;",
        f"- transfer-bound objects at >= {100 * GOAL_BOUND:.0f}% of their byte-ratio bound: "
        f"{'**met**' if not g['below'] else '**missed**'}, {len(g['objs']) - len(g['below'])} of "
        f"{len(g['objs'])}" + (f" (the lowest {pct(low[2])}: {low[0]}, {low[1]})" if low else "")
        + (f"; latency-bound, not counted: {len(g['small'])} ({', '.join(small)})" if small else "")
        + ";",
        f"- trials <= #MObj x (1 + #types): {'**met**' if not g['over'] else '**missed**'}, "
        f"{g['searches'] - g['over']} of {g['searches']} searches;",
        "- the TOQ on a held-out input: " + (
            f"{'**met**' if not g['violated'] else '**missed**'}, {g['held'] - g['violated']} of "
            f"{g['held']}." if g["held"] else "not run (HOLDOUT=0)."),
    ]
    return "\n".join(lines) + "\n"


def slow_apps(reports):
    """(apps, most runs): the apps run with run-scaling.sh's SLOW_APPS (one
    run per trial, --reps 1), sorted, and the most runs any of their
    measurements took (0 when there are none)."""
    slow = [r for r in reports if r.get("reps") == 1]
    most = max((n for r in slow for _, _, _, n, _ in measurements(r) if n), default=0)
    return sorted(r["app"] for r in slow), most


def doc_h200_run(out_dir, reports, tree=None):
    """The machine and the run: the database's GPU, driver, link and CPU,
    machine.txt's date and clocks, run.json's command and time, the
    reports' timing options. `out_dir` may be a tuple of folders (load_run
    merges their reports), `tree` then a tuple of their trees: each
    folder's lines, headed by its name and apps, then the timing line."""
    if isinstance(out_dir, str):
        lines = run_lines(out_dir, tree)
    else:
        lines = []
        for d, t in zip(out_dir, tree or (None,) * len(out_dir), strict=True):
            apps = sorted({r["app"] for r in reports if r.get("_dir") == d})
            head = run_lines(d, t)
            head[0] = f"- `{os.path.basename(d)}/` ({', '.join(apps)}): {head[0][2:]}"
            lines += head
    reps = sorted({(r.get("warmups"), r.get("reps")) for r in reports})
    lines.append("- Timing: the search's trials are one untimed run and the median of --reps; "
                 "the f64 profile, each pick and the control are then timed on until the 95% "
                 "bootstrap interval of their median is within ±1% or 30 runs (`--until-ci 0.01 "
                 "--max-reps 30`); (warm-ups, reps) per report: " +
                 ", ".join(f"({w}, {n})" for w, n in reps) + ".")
    slow, most = slow_apps(reports)
    if slow:
        lines[-1] += (f" Run with run-scaling.sh's SLOW_APPS (`--warmups 0 --reps 1`, timed on "
                      f"to at most SLOW_MAX_REPS runs; run.json's command), to fit the device "
                      f"time: {', '.join(slow)}; their trials are single runs and their profile, "
                      f"control and picks " +
                      ("single runs too." if most == 1 else f"medians of at most {most} runs."))
    return "\n".join(lines) + "\n"


def run_lines(out_dir, tree=None):
    """doc_h200_run's lines of one folder: machine, database, each run."""
    with open(os.path.join(out_dir, "precision-db.json")) as f:
        db = json.load(f)
    g, c = db["machine"]["gpu"], db["machine"]["cpu"]
    with open(os.path.join(out_dir, "run.json")) as f:
        runs = json.load(f)["runs"]
    with open(os.path.join(out_dir, "machine.txt")) as f:
        lines = [l.strip() for l in f if l.strip()]
    _, _, sm, mem = [x.strip() for x in lines[1].split(",")]
    lines = [
        f"- {g['name']}, driver {g['driver']}, PCIe gen {g['pcie_gen']} x{g['pcie_width']}; "
        f"{c['model']}, {c['logical_cores']} logical cores ({c['simd']}); nvidia-smi when "
        f"rerun-dispersion.sh started ({lines[0]}): max clocks SM {sm}, memory {mem}; "
        f"tree {tree or H200_TREE}.",
        f"- Database: `approx-inspect --quick`, recorded {db.get('created', '?')}.",
    ]
    for run in runs:
        lines.append(f"- Finished {run['date']} after {run['seconds']} s (budget "
                     f"{run['budget']} s); skipped: {'; '.join(run['skipped']) or 'none'}; failed: "
                     f"{'; '.join(run['failed']) or 'none'}. Command (run.json): "
                     f"`{run['command'].strip()}`.")
    return lines


def doc_h200_summary(reports, toq=HEADLINE_TOQ):
    """One line for README: ours' speedup over the pageable f64 program,
    split into staging x precision, with ranges (geometric means)."""
    s = summary_numbers(reports, toq)
    sp, vp, st = s["sp"], s["vp"], s["st"]
    return (f"- Precision scaling, ours at TOQ {toq:g} over the {s['n']} PolyBench apps (Random, "
            f"paper size): {sp[0]:.2f}x over the f64 program as written (pageable copies; "
            f"{sp[1]:.2f}x to {sp[3]:.2f}x) = staging {st[0]:.2f}x (f64 through the same pinned "
            f"staging, {st[1]:.2f}x to {st[3]:.2f}x) x precision {vp[0]:.2f}x ({vp[1]:.2f}x to "
            f"{vp[3]:.2f}x); geometric means.\n")


def doc_blocks():
    import contextlib
    import io
    reports = load_reports(CONTROL_RUN)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        table_control(reports)
    # The block is the tables: the section heading and its explanation are
    # the page's own prose.
    text = buf.getvalue()
    text = text[text.index("| app |"):].rstrip("\n") + "\n"
    # README's one line: ours at the headline TOQ, split.
    rows = [over_pinned(r, e) for r in reports if control(r) is not None
            for e in [entry(r, "ours", HEADLINE_TOQ)] if e is not None]
    sp, _, st, pr = (list(c) for c in zip(*rows))
    line = (f"- Precision scaling, ours at TOQ {HEADLINE_TOQ:g} over {len(rows)} runs: "
            f"{geomean(sp):.2f}x over the f64 program as written (pageable copies) = "
            f"staging {geomean(st):.2f}x (f64 through the same pinned staging, "
            f"{min(st):.2f}x to {max(st):.2f}x) x precision {geomean(pr):.2f}x "
            f"({min(pr):.2f}x to {max(pr):.2f}x); geometric means.\n")
    blocks = {"staging-control": text, "staging-control-summary": line}
    # The second H100 run (README's status row quotes results-paper-means
    # and results-16x-means at TOQ 0.9).
    paper = load_run(os.path.join(SECOND_RUN, "paper"))
    big = load_run(os.path.join(SECOND_RUN, "16x"))
    blocks["results-paper-rows"] = doc_rows(paper[0], HEADLINE_TOQ)
    blocks["results-paper-means"] = doc_means(paper[0])
    blocks["results-16x-rows"] = doc_rows(big[0], HEADLINE_TOQ)
    blocks["results-16x-means"] = doc_means(big[0])
    blocks["results-goals"] = doc_goals(paper, big)
    blocks["results-exec"] = doc_exec(EXEC_REPORT)
    blocks["host-convert-h100-host"] = doc_host_convert(HOST_CONVERT)
    # The 14-app H200 run with the control, intervals and energy.
    h200 = load_run(H200_RUN)
    blocks["h200-run"] = doc_h200_run(H200_RUN, h200[0])
    blocks["h200-speedups"] = doc_h200_speedups(h200[0])
    blocks["h200-split"] = doc_h200_split(h200[0])
    blocks["h200-means"] = doc_h200_means(h200[0])
    blocks["h200-energy"] = doc_h200_energy(h200[0])
    blocks["h200-goals"] = doc_h200_goals(h200)
    blocks["h200-summary"] = doc_h200_summary(h200[0])
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import session_overhead
    import host_convert
    blocks["session-overhead"] = session_overhead.tables(SESSION_OVERHEAD_RUN)
    vm = host_convert.load(os.path.join(HOST_CONVERT_VM, "stats.json"))
    blocks["host-convert-vm"] = (
        host_convert.source_line(vm, "bench/precision/run.sh build-rt --max-reps 100 --json stats.json")
        + "\n\n" + host_convert.table(vm) + "\n\n" + host_convert.summary(vm) + "\n")
    blocks["host-convert-vm-stats"] = host_convert.stats_table(
        vm, host_convert.load(os.path.join(HOST_CONVERT_VM, "no-stats.json"))) + "\n"
    for inputs, out_dir in H200_INPUT_RUNS.items():
        run = load_run(out_dir)
        blocks[f"h200-{inputs}-run"] = doc_h200_run(out_dir, run[0])
        blocks[f"h200-{inputs}-split"] = doc_h200_split(run[0])
        blocks[f"h200-{inputs}-means"] = doc_h200_means(run[0])
        blocks[f"h200-{inputs}-goals"] = doc_h200_goals(run)
    run = load_run(H200_16X_RUNS)
    blocks["h200-16x-run"] = doc_h200_run(H200_16X_RUNS, run[0], H200_16X_TREES)
    blocks["h200-16x-split"] = doc_h200_split(run[0])
    blocks["h200-16x-means"] = doc_h200_means(run[0])
    return blocks


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] in ("--write", "--check", "--list", "--docs"):
        sys.path.insert(0, os.path.join(RESULTS, "..", "lib"))
        import docblocks
        docblocks.main("scaling-report.py", "report",
                       os.path.join(RESULTS, "..", "..", "docs", "precision.md"),
                       doc_blocks, DOC_SOURCES, names_from_page=True)
        sys.exit(0)
    main()
