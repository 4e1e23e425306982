#!/usr/bin/env python3
"""report.py - docs/hrcs.md's measured tables, from bench/results.

Every figure of docs/hrcs.md that was measured comes from a file of
bench/results/hrcs-*/ (written by bench/hrcs/run-hrcs.sh, approx-hrcs-verify
and bench/accuracy/cr-check.sh) through this script. The tables sit in
docs/hrcs.md between '<!-- report:NAME -->' and '<!-- /report:NAME -->'.

  bench/hrcs/report.py [--write | --check | --list] [--docs docs/hrcs.md]
                       [--table1-run DIR] [--scale-run DIR]

--write replaces the tables in the docs; --check (CI) fails, naming the
table, when a table in the docs differs from what the results give; with
neither, the tables are printed. The blocks of repeated runs
(speed-repeated, table1-repeated, scale-repeated) are made when their
results directory (SPEED_RUN, TABLE1_RUN, SCALE_RUN) exists; --table1-run
DIR and --scale-run DIR read table1-repeated's and scale-repeated's runs
from DIR instead of TABLE1_RUN and SCALE_RUN (the tests point them at
made-up ones).
"""
import glob
import gzip
import json
import math
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
import docblocks  # noqa: E402  (bench/lib: generated blocks of a page)
RESULTS = os.path.join(ROOT, "bench", "results")
GPU_DIR = os.path.join(RESULTS, "hrcs-h200-2026-11-28")
FUNCTIONS = ["exp", "exp2", "log", "log2", "sin", "cos"]
SETTINGS = [(s, a) for s in (1, 2, 8, 16) for a in ("lefevre", "regular")]


def load_json(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def stats(run):
    return load_json(os.path.join(GPU_DIR, run, "stats.json"))


def wall(run):
    return log_wall(os.path.join(GPU_DIR, run))


def log_wall(d):
    """The process's wall time that run-hrcs.sh appended to run dir d's log."""
    for line in open(os.path.join(d, "log")):
        if line.startswith("wall_seconds"):
            return float(line.split()[1])
    raise ValueError(f"{d}: no wall_seconds")


def fmt_int(n):
    return f"{n:,}"


def verify_table(paths, backend):
    """Function x eps rows, found/true for each split x algorithm, over the
    binades that ran every setting; binades that ran fewer (a reduced
    matrix) get a second table, one row per setting they ran."""
    cells = []
    seen = {}
    for p in paths:
        for c in load_json(p)["cells"]:
            # A cell run twice (overlapping result files) would count twice.
            key = (c["function"], c["domain"], int(round(c["eps_log2"])),
                   c["split"], c["algorithm"])
            if key in seen:
                sys.exit(f"report.py: {key} is in both {seen[key]} and {p}")
            seen[key] = p
            cells.append(c)
    if not cells:
        return f"(no {backend} results)\n"
    ran = defaultdict(set)
    for c in cells:
        ran[(c["function"], c["domain"])].add(
            (int(round(c["eps_log2"])), c["split"], c["algorithm"]))
    full_size = max(len(v) for v in ran.values())
    by = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0]))
    reduced = defaultdict(lambda: [set(), 0, 0, 0, 0])
    binades = defaultdict(set)
    sampled = defaultdict(set)
    for c in cells:
        eps = int(round(c["eps_log2"]))
        if len(ran[(c["function"], c["domain"])]) < full_size:
            r = reduced[(c["function"], -eps, c["split"], c["algorithm"])]
            r[0].add(c["domain"])
            for i, k in enumerate(("true", "found", "missed", "false")):
                r[i + 1] += c[k]
            continue
        s = by[(c["function"], eps)][(c["split"], c["algorithm"])]
        s[0] += c["true"]
        s[1] += c["found"]
        s[2] += c["missed"]
        s[3] += c["false"]
        binades[c["function"]].add(c["domain"])
        if c["sampled"]:
            sampled[(c["function"], eps)].add(c["domain"])
    head = ("| function | eps | binades (dense, sampled) | true cases | "
            + " | ".join(f"found, split {s} {a}" for s, a in SETTINGS)
            + " | missed | false |")
    out = [head, "|" + " --- |" * (6 + len(SETTINGS))]
    for fn in FUNCTIONS:
        for k in (12, 16, 20, 24):
            row = by.get((fn, -k))
            if not row:
                continue
            true = max(v[0] for v in row.values())
            found = [row.get(st, [0, 0, 0, 0])[1] for st in SETTINGS]
            missed = sum(v[2] for v in row.values())
            false = sum(v[3] for v in row.values())
            out.append(
                f"| {fn} | 2^-{k} | {len(binades[fn])} ({len(sampled[(fn, -k)])}) "
                f"| {fmt_int(true)} | "
                + " | ".join(fmt_int(f) for f in found)
                + f" | {missed} | {false} |")
    if reduced:
        out += ["", f"Binades run on a reduced matrix ({backend}):", "",
                "| function | binades | eps | split | algorithm | true cases "
                "| found | missed | false |",
                "|" + " --- |" * 9]
        for (fn, k, split, alg), r in sorted(
                reduced.items(),
                key=lambda kv: (FUNCTIONS.index(kv[0][0]),) + kv[0][1:]):
            out.append(f"| {fn} | {len(r[0])} | 2^-{k} | {split} | {alg} | "
                       f"{fmt_int(r[1])} | {fmt_int(r[2])} | {r[3]} | {r[4]} |")
    total = len(cells)
    miss = sum(c["missed"] for c in cells)
    false = sum(c["false"] for c in cells)
    out.append("")
    out.append(f"{fmt_int(total)} comparisons ({backend}), {miss} missed, "
               f"{false} false.")
    return "\n".join(out) + "\n"


def gpu_verify():
    # Top-level files, and the shards of bench/hrcs/verify-shards.sh.
    paths = glob.glob(os.path.join(GPU_DIR, "verify-*.json.gz")) + glob.glob(
        os.path.join(GPU_DIR, "verify-*", "*.json.gz"))
    return verify_table(sorted(paths),
                        "GPU backend")


def scale_table(one_run, rows):
    one = stats(one_run)
    out = ["| exp over [1, 2), p 53, q 54, eps 2^-32 | search time | wall | speedup | "
           "phase 1 / 2 / 3 (GPU) | phase-1 intervals | cases |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, run in rows:
        s = stats(run)
        sec = s["seconds"]
        out.append(
            f"| {name} | {sec['total']:.1f} s | {wall(run):.1f} s | "
            f"{one['seconds']['total'] / sec['total']:.2f}x | "
            f"{sec['phase1']:.1f} / {sec['phase2']:.1f} / {sec['phase3']:.1f} s | "
            f"{fmt_int(s['phase1_intervals'])} | {fmt_int(s['cases'])} |")
    return "\n".join(out) + "\n"


def scale():
    return scale_table("run-c/binade-1gpu", [
        ("1 H200", "run-c/binade-1gpu"),
        ("2 H200, one process (`--devices 0,1`)", "run-c/binade-2gpu"),
        ("2 H200, two MPI ranks (`approx-hrcs-mpi`)", "run-c/binade-mpi")])


def scale4():
    # run-d's 4-GPU files did not come back; run-e re-ran them on the same
    # machine two minutes later (run-d.log keeps run-d's totals).
    return scale_table("run-d/binade-1gpu", [
        ("1 H200", "run-d/binade-1gpu"),
        ("4 H200, one process (`--devices 0,1,2,3`)", "run-e/binade-4gpu"),
        ("4 H200, four MPI ranks (`approx-hrcs-mpi`)", "run-e/binade-mpi")])


def speed():
    base = stats("run-c/speed-cpu-1")["seconds"]["total"]
    base_wall = wall("run-c/speed-cpu-1")
    out = ["| exp over [1, 1+2^-10), p 53, q 54, eps 2^-32 (2^42 arguments) "
           "| search time | wall (process) | rate | speedup (search / wall) | cases |",
           "| --- | --- | --- | --- | --- | --- |"]
    for name, run in (("1 core", "run-c/speed-cpu-1"),
                      ("32 cores", "run-c/speed-cpu-32"),
                      ("1 H200 (32 cores plan and confirm)", "run-c/speed-gpu-32")):
        s = stats(run)
        t = s["seconds"]["total"]
        out.append(
            f"| {name} | {t:.3f} s | {wall(run):.2f} s | "
            f"{s['arguments'] / t:.2e} args/s | {base / t:.0f}x / "
            f"{base_wall / wall(run):.0f}x | {fmt_int(s['cases'])} |")
    return "\n".join(out) + "\n"


# Runs that run-hrcs.sh repeated (SPEED_REPEATS, REPEATS): a configuration's
# first run in <run>, the next ones in <run>-r2, <run>-r3, ...


def repeated_runs(run_dir, name):
    """The run dirs of configuration `name` under run_dir, first run first."""
    pat = re.compile(re.escape(name) + r"(?:-r(\d+))?")
    runs = sorted((int(m.group(1) or 1), os.path.join(run_dir, d))
                  for d in os.listdir(run_dir) for m in [pat.fullmatch(d)]
                  if m and os.path.isdir(os.path.join(run_dir, d)))
    if not runs:
        sys.exit(f"report.py: {run_dir}: no run {name}")
    return [d for _, d in runs]


def run_stats(d):
    path = os.path.join(d, "stats.json")
    if not os.path.exists(path):
        sys.exit(f"report.py: {d}: no stats.json (the run failed?)")
    return load_json(path)


def run_sha256(d):
    """The sha256 of run dir d's cases file; None if it kept none."""
    path = os.path.join(d, "cases.sha256")
    return open(path).read().strip() if os.path.exists(path) else None


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else 0.5 * (xs[n // 2 - 1] + xs[n // 2])


def gpu_state_line(dirs):
    """The GPU's SM and memory clocks that run-hrcs.sh logged before and
    after each run of dirs (state_before, state_after): every value seen."""
    states = []
    for d in dirs:
        for line in open(os.path.join(d, "log")):
            if line.startswith("state_"):
                when, state = line.split(None, 1)
                states.append((when, [x.strip() for x in state.split(",")]))

    def key(x):
        try:
            return (0, float(x.split()[0]), x)
        except (ValueError, IndexError):
            return (1, 0.0, x)  # not a number: nvidia-smi's message

    def seen(when, k):
        vals = {v[k] for w, v in states if w == when and len(v) > k}
        return "/".join(sorted(vals, key=key)) or "-"
    if not states:
        return "GPU state: not logged."
    return (f"GPU state (nvidia-smi, clocks not locked): before each run SM "
            f"{seen('state_before', 0)}, memory {seen('state_before', 1)}; after it SM "
            f"{seen('state_after', 0)}, memory {seen('state_after', 1)}.")


def time_range(xs, digits):
    return f"{median(xs):.{digits}f} s [{min(xs):.{digits}f}, {max(xs):.{digits}f}]"


# The speed section repeated (SPEED_REPEATS, issue 30's "Dispersion"): one
# H200 with 16 cores, 2026-11-29.
SPEED_RUN = os.path.join(RESULTS, "hrcs-h200-2026-11-29")


def speed_repeated():
    """Each configuration's runs: median search time and wall with their
    range (min-max of the runs; too few runs for a bootstrap interval), the
    rate and speedup of the medians, and the GPU's state around the runs."""
    env = open(os.path.join(SPEED_RUN, "env.txt")).read().split("\n")
    cores = next(int(l.split()[1]) for l in env if l.startswith("cores "))
    out = ["| exp over [1, 1+2^-10), p 53, q 54, eps 2^-32 (2^42 arguments) | runs "
           "| search time, median [min, max] | wall (process), median [min, max] "
           "| rate (median) | speedup (search / wall, medians) | cases |",
           "| --- | --- | --- | --- | --- | --- | --- |"]

    def runs(cfg):
        dirs = repeated_runs(SPEED_RUN, f"speed-{cfg}")
        st = [run_stats(d) for d in dirs]
        return ([s["seconds"]["total"] for s in st], [log_wall(d) for d in dirs],
                {s["cases"] for s in st}, st[0]["arguments"], dirs)
    base = runs("cpu-1")
    every = []
    for name, cfg in (("1 core", "cpu-1"), (f"{cores} cores", f"cpu-{cores}"),
                      (f"1 H200 ({cores} cores plan and confirm)", f"gpu-{cores}")):
        search, walls, cases, args, dirs = runs(cfg)
        t, w = median(search), median(walls)
        out.append(
            f"| {name} | {len(search)} | {time_range(search, 3)} "
            f"| {time_range(walls, 2)} | {args / t:.2e} args/s "
            f"| {median(base[0]) / t:.0f}x / {median(base[1]) / w:.0f}x "
            f"| {', '.join(fmt_int(c) for c in sorted(cases))} |")
        every += dirs
    shas = {run_sha256(d) for d in every}
    out.append("")
    same = "Every run found the same cases" if len(shas) == 1 else "The runs found DIFFERENT cases"
    out.append(f"{same} ({len(shas)} distinct sha256 over {len(every)} runs). "
               f"{gpu_state_line(every)}")
    return "\n".join(out) + "\n"


# run-hrcs.sh's table1 section: (arguments p, boundaries q, algorithm).
TABLE1_CONFIGS = (("53", "54", "lefevre"), ("53", "54", "regular"),
                  ("53", "53", "regular"), ("53", "64", "regular"),
                  ("64", "64", "lefevre"), ("64", "64", "regular"))
TABLE1_COUNTS = (("phase1_intervals", "phase 1"), ("phase2_intervals", "phase 2"),
                 ("phase3_subintervals", "phase 3"), ("cases", "cases"))


def algorithm_name(a):
    return "Lefèvre" if a == "lefevre" else a


def table1():
    out = ["| arguments p | boundaries q | algorithm | phase 1 (intervals) | phase 2 "
           "| phase 3 (sub-intervals) | cases | GPU search time |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for p, q, a in TABLE1_CONFIGS:
        s = stats(f"run-b/table1-p{p}-q{q}-{a}")
        out.append(
            f"| {p} | {q} | {algorithm_name(a)} | "
            f"{fmt_int(s['phase1_intervals'])} | {fmt_int(s['phase2_intervals'])} | "
            f"{fmt_int(s['phase3_subintervals'])} | {fmt_int(s['cases'])} | "
            f"{s['seconds']['total']:.2f} s |")
    return "\n".join(out) + "\n"


# The table1 section repeated (REPEATS): made when this directory exists
# (or from --table1-run DIR).
TABLE1_RUN = os.path.join(RESULTS, "hrcs-h200-2026-11-29b")


def table1_repeated():
    """Table 1 with each configuration's runs: the counts of the first run
    (a line names any run whose counts or cases differ), median search time
    and wall with their range (min-max of the runs), the distinct cases
    files per configuration, and the GPU's state around the runs."""
    out = ["| arguments p | boundaries q | algorithm | runs | phase 1 (intervals) | phase 2 "
           "| phase 3 (sub-intervals) | cases | GPU search time, median [min, max] "
           "| wall (process), median [min, max] |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    every, differ, distinct = [], [], []
    for p, q, a in TABLE1_CONFIGS:
        dirs = repeated_runs(TABLE1_RUN, f"table1-p{p}-q{q}-{a}")
        st = [run_stats(d) for d in dirs]
        first = st[0]
        label = f"p {p} q {q} {algorithm_name(a)}"
        for d, s in zip(dirs[1:], st[1:]):
            diff = [f"{what} {fmt_int(s[k])}" for k, what in TABLE1_COUNTS
                    if s[k] != first[k]]
            if diff:
                differ.append(f"{os.path.basename(d)} ({', '.join(diff)})")
        shas = [run_sha256(d) for d in dirs]
        kept = {x for x in shas if x is not None}
        n = shas.count(None)
        missing = f" ({n} run{'s' if n > 1 else ''} without one)" if n else ""
        distinct.append(f"{label} {len(kept)}{missing}")
        search = [s["seconds"]["total"] for s in st]
        out.append(
            f"| {p} | {q} | {algorithm_name(a)} | {len(dirs)} | "
            f"{fmt_int(first['phase1_intervals'])} | {fmt_int(first['phase2_intervals'])} | "
            f"{fmt_int(first['phase3_subintervals'])} | {fmt_int(first['cases'])} | "
            f"{time_range(search, 3)} | {time_range([log_wall(d) for d in dirs], 2)} |")
        every += dirs
    out.append("")
    if differ:
        out.append("Counts or cases that DIFFER from the configuration's first run "
                   "(shown above): " + "; ".join(differ) + ".")
    else:
        out.append("Every run's phase-1, 2 and 3 counts and cases are its "
                   "configuration's first run's (shown above).")
    out.append("Distinct sha256 of the cases file per configuration (1: every run "
               "found the same cases): " + ", ".join(distinct) + ".")
    out.append(gpu_state_line(every))
    return "\n".join(out) + "\n"


# run-hrcs.sh's binade, twogpu, allgpu and mpi sections repeated (REPEATS)
# in one call on a node of 2 or more GPUs: made when this directory exists
# (or from --scale-run DIR).
SCALE_RUN = os.path.join(RESULTS, "hrcs-h200x2-2026-11-29")
SCALE_CONFIG = re.compile(r"binade-(\d+gpu|mpi)(?:-r\d+)?")


def gpu_model(run_dir):
    """The GPU's name in run_dir's env.txt (run-hrcs.sh env, 'NVIDIA '
    dropped) when every GPU listed has the same one, else None."""
    path = os.path.join(run_dir, "env.txt")
    if not os.path.exists(path):
        return None
    names = {m.group(1).strip() for line in open(path)
             for m in [re.match(r"\d+, ([^,\n]+)", line)] if m}
    return names.pop().removeprefix("NVIDIA ") if len(names) == 1 else None


def gpus(n, model):
    return f"{n} {model}" if model else f"{n} GPU{'s' if n != 1 else ''}"


def mpi_ranks(d, s):
    """The MPI processes of run dir d: stats.json's, else its log's."""
    if "processes" in s:
        return s["processes"]
    for line in open(os.path.join(d, "log")):
        m = re.match(r"\s*(\d+) MPI processes", line)
        if m:
            return int(m.group(1))
    return None


def scale_repeated(run_dir=None):
    """The scale tables with each configuration's runs (in run_dir, default
    SCALE_RUN): median search time,
    wall and phases with their range (min-max of the runs), the speedup of
    the medians over one GPU's, the cases compared over every run, and the
    GPU's state around the runs."""
    run_dir = run_dir or SCALE_RUN
    configs = {m.group(1) for d in os.listdir(run_dir)
               for m in [SCALE_CONFIG.fullmatch(d)]
               if m and os.path.isdir(os.path.join(run_dir, d))}
    if not configs:
        sys.exit(f"report.py: {run_dir}: no binade runs")
    model = gpu_model(run_dir)
    runs = {}
    for c in configs:
        dirs = repeated_runs(run_dir, f"binade-{c}")
        runs[c] = (dirs, [run_stats(d) for d in dirs])

    def median_total(c):
        return median([s["seconds"]["total"] for s in runs[c][1]])
    out = ["| exp over [1, 2), p 53, q 54, eps 2^-32 | runs | search time, median [min, max] "
           "| wall, median [min, max] | speedup (search, medians) "
           "| phase 1 / 2 / 3 (GPU), medians | phase-1 intervals | cases |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    every = []
    # One process on 1, 2, ... GPUs, then MPI.
    for c in sorted(configs, key=lambda c: (c == "mpi", int(c[:-3]) if c != "mpi" else 0)):
        dirs, st = runs[c]
        if c == "mpi":
            ranks = sorted({r for d, s in zip(dirs, st) for r in [mpi_ranks(d, s)]
                            if r is not None})
            # One rank per GPU (run-hrcs.sh mpi).
            n = "/".join(map(str, ranks)) or "?"
            head = gpus(ranks[0], model) if len(ranks) == 1 else f"{n} {model or 'GPUs'}"
            label = f"{head}, {n} MPI ranks (`approx-hrcs-mpi`)"
        else:
            n = int(c[:-3])
            label = gpus(n, model) + ("" if n == 1 else ", one process (`--devices "
                                      + ",".join(map(str, range(n))) + "`)")
        total = [s["seconds"]["total"] for s in st]
        speedup = (f"{median_total('1gpu') / median(total):.2f}x" if "1gpu" in runs
                   else "—")
        phases = " / ".join(f"{median([s['seconds'][k] for s in st]):.1f}"
                            for k in ("phase1", "phase2", "phase3"))
        out.append(
            f"| {label} | {len(dirs)} | {time_range(total, 1)} "
            f"| {time_range([log_wall(d) for d in dirs], 1)} | {speedup} | {phases} s "
            f"| {', '.join(sorted({fmt_int(s['phase1_intervals']) for s in st}))} "
            f"| {', '.join(sorted({fmt_int(s['cases']) for s in st}))} |")
        every += dirs
    shas = [run_sha256(d) for d in every]
    out.append("")
    if len(set(shas)) == 1:
        out.append(f"Every run found the same cases (1 distinct sha256 over {len(every)} runs).")
    else:
        other = [os.path.basename(d) for d, x in zip(every, shas) if x != shas[0]]
        out.append(f"The runs found DIFFERENT cases ({len(set(shas))} distinct sha256 over "
                   f"{len(every)} runs; not {os.path.basename(every[0])}'s: "
                   f"{', '.join(other)}).")
    out.append(gpu_state_line(every))
    return "\n".join(out) + "\n"


def multi():
    s = stats("run-b/multi-whole")
    cm = open(os.path.join(GPU_DIR, "run-b", "multi-whole", "coremath.txt")).read()
    m = re.search(r"(\d+) CORE-MATH cases in .*?, (\d+) within .*?, (\d+) found, "
                  r"(\d+) missing", cm)
    intr = open(os.path.join(GPU_DIR, "run-b", "multi-resumed",
                             "log-interrupted")).read()
    units = re.search(r"checkpoint: (\d+) units done", intr).group(1)
    same = (open(os.path.join(GPU_DIR, "run-b", "multi-whole", "cases.sha256")).read()
            == open(os.path.join(GPU_DIR, "run-b", "multi-resumed", "cases.sha256")).read())
    out = ["| exp over [2^-16, 2^-8) (8 binades), p 53, q 54, eps 2^-43 | value |",
           "| --- | --- |",
           f"| arguments | {fmt_int(s['arguments'])} |",
           f"| units | {fmt_int(s['units'])} |",
           f"| search time, uninterrupted run (1 H200) | {s['seconds']['total']:.1f} s |",
           f"| cases | {fmt_int(s['cases'])} |",
           f"| interrupted after 4 s, then `--resume` | stopped with {fmt_int(int(units))} "
           f"units done; the resumed .wc is {'byte for byte the uninterrupted one' if same else 'DIFFERENT'} |",
           f"| CORE-MATH binary64 exp cases in the domain | {m.group(1)} |",
           f"| of them within eps (mpmath, 400 bits) | {m.group(2)} |",
           f"| found by the search | {m.group(3)} ({m.group(4)} missing) |"]
    return "\n".join(out) + "\n"


# The multi-binade run repeated (three times, one H200, 2026-11-29):
# multi-K/ holds run K's multi-whole/ and multi-resumed/.
MULTI_RUN = os.path.join(RESULTS, "hrcs-h200-2026-11-29c")


def multi_repeated():
    """multi()'s run again, MULTI_RUN's runs: search and wall time as median
    [min, max], and per run the checkpoint, the resumed file and the
    CORE-MATH check; the cases against run-b's."""
    runs = repeated_runs(MULTI_RUN, "multi")
    whole = [os.path.join(d, "multi-whole") for d in runs]
    st = [run_stats(d) for d in whole]
    secs = [x["seconds"]["total"] for x in st]
    walls = [log_wall(d) for d in whole]
    units, resumed, found = [], 0, []
    for d in runs:
        intr = open(os.path.join(d, "multi-resumed", "log-interrupted")).read()
        units.append(int(re.search(r"checkpoint: (\d+) units done", intr).group(1)))
        resumed += run_sha256(os.path.join(d, "multi-whole")) == run_sha256(os.path.join(d, "multi-resumed"))
        cm = open(os.path.join(d, "multi-whole", "coremath.txt")).read()
        m = re.search(r"(\d+) CORE-MATH cases in .*?, (\d+) within .*?, (\d+) found, (\d+) missing", cm)
        found.append((int(m.group(2)), int(m.group(3)), int(m.group(4))))
    shas = {run_sha256(d) for d in whole}
    first = run_sha256(os.path.join(GPU_DIR, "run-b", "multi-whole"))
    n = len(runs)
    out = [f"| exp over [2^-16, 2^-8) (8 binades), p 53, q 54, eps 2^-43, {n} runs | value |",
           "| --- | --- |",
           f"| search time, uninterrupted run (1 H200), median [min, max] | {time_range(secs, 1)} |",
           f"| wall (process), median [min, max] | {time_range(walls, 1)} |",
           f"| cases | {' / '.join(fmt_int(x['cases']) for x in st)}; {len(shas)} distinct sha256, "
           f"{'the' if shas == {first} else 'NOT the'} 2026-11-28 run's |",
           f"| interrupted after 4 s, then `--resume` | stopped with {', '.join(fmt_int(u) for u in units)} "
           f"units done; the resumed .wc is the uninterrupted one's in {resumed} of {n} |",
           f"| CORE-MATH binary64 exp cases within eps, found by the search | "
           + ", ".join(f"{f} of {w} ({miss} missing)" for w, f, miss in found) + " |"]
    return "\n".join(out) + "\n"


def agree():
    segs = [l.split() for l in open(os.path.join(GPU_DIR, "run-b", "segments.txt"))]
    out = ["| # | function | segment (2^22 arguments, p 53, q 54, eps 2^-18) | cases | CPU == GPU |",
           "| --- | --- | --- | --- | --- |"]
    for i, (fn, lo, hi) in enumerate(segs, 1):
        d = os.path.join(GPU_DIR, "run-b")
        cpu = open(os.path.join(d, f"agree-{i}-cpu", "cases.sha256")).read()
        gpu = open(os.path.join(d, f"agree-{i}-gpu", "cases.sha256")).read()
        n = open(os.path.join(d, f"agree-{i}-gpu", "cases.count")).read().strip()
        out.append(f"| {i} | {fn} | [{lo}, {hi}) | {n} | {'yes' if cpu == gpu else 'NO'} |")
    return "\n".join(out) + "\n"


def crcheck():
    log = open(os.path.join(GPU_DIR, "cr-check.log")).read()
    rows = re.findall(r"^\| (exp2?|log2?) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) "
                      r"\| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+)× \|$", log, re.M)
    out = ["| f32 | inputs | decided by MPFR | misrounded | MPFR sample | misrounded in sample "
           "| SFU Geval/s | precise Geval/s | correct Geval/s | correct / precise time |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        fn, inputs, _, mpfr, mis, sample, mis2, sfu, prec, cor, ratio = r
        out.append(f"| {fn} | {fmt_int(int(inputs))} | {fmt_int(int(mpfr))} | **{mis}** | "
                   f"{fmt_int(int(sample))} | {mis2} | {sfu} | {prec} | {cor} | {ratio}x |")
    return "\n".join(out) + "\n"


def algorithm():
    """The exploration that chose the default algorithm and N."""
    d = os.path.join(GPU_DIR, "explore-algorithm")
    out = ["| algorithm | N | split | phase-1 intervals | phase 1 | phase 2 "
           "| cases | search time |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    rows = []
    for path in glob.glob(os.path.join(d, "tune-*.txt")):
        alg, nb, sp = os.path.basename(path)[5:-4].split("-")
        t = open(path).read()
        p1 = re.search(r"1 intervals\s+(\d+)\s+([\d.]+)", t)
        p2 = re.search(r"2 intervals\s+(\d+)\s+([\d.]+)", t)
        hr = re.search(r"HR cases: (\d+) \(total ([\d.]+) s\)", t)
        n = "2^14 (rule of the time)" if nb == "0" else f"2^{nb}"
        rows.append((float(hr.group(2)),
                     f"| {alg} | {n} | {sp} | {fmt_int(int(p1.group(1)))} | "
                     f"{p1.group(2)} s | {p2.group(2)} s | {fmt_int(int(hr.group(1)))} | "
                     f"{hr.group(2)} s |"))
    out += [r for _, r in sorted(rows)]
    return "\n".join(out) + "\n"


TABLES = {"algorithm": algorithm, "gpu-verify": gpu_verify, "scale": scale, "scale4": scale4,
          "scale-repeated": scale_repeated,
          "speed": speed, "speed-repeated": speed_repeated, "table1": table1,
          "table1-repeated": table1_repeated,
          # The one-GPU binade repeated in the table1 run's call.
          "binade-repeated": lambda: scale_repeated(TABLE1_RUN),
          "multi": multi, "multi-repeated": multi_repeated, "agree": agree,
          "crcheck": crcheck}
# Blocks made only when their results directory exists.
OPTIONAL = {"speed-repeated": lambda: SPEED_RUN, "table1-repeated": lambda: TABLE1_RUN,
            "binade-repeated": lambda: os.path.join(TABLE1_RUN, "binade-1gpu"),
            "scale-repeated": lambda: SCALE_RUN, "multi-repeated": lambda: MULTI_RUN}
# The options that read a block's runs from another directory: the global
# each one sets.
RUN_OPTIONS = {"--table1-run": "TABLE1_RUN", "--scale-run": "SCALE_RUN", "--multi-run": "MULTI_RUN"}


if __name__ == "__main__":
    # RUN_OPTIONS are this script's; the rest is docblocks' command line.
    globals().update(docblocks.take_path_options("report.py", RUN_OPTIONS, "dir"))
    docblocks.main("report.py", "report", os.path.join(ROOT, "docs", "hrcs.md"),
                   lambda: {name: fn() for name, fn in TABLES.items()
                            if name not in OPTIONAL or os.path.isdir(OPTIONAL[name]())},
                   "bench/results")
