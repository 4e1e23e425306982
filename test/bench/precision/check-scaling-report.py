#!/usr/bin/env python3
"""check-scaling-report.py - runs bench/precision/scaling-report.py on the
fake approx-scale reports of Inputs/ (hand-written in approx-scale's -o
schema: ATAX random at three TOQs with a held-out seed, the pinned f64
control and, for the profile, the control and two picks, approx-scale
--until-ci's intervals, runs and energy; 2DCONV image in the one-TOQ
format with a held-out photograph and no control (an older report), GEMM
default without a held-out input and a control that failed) and checks
its tables, goal lines and bar chart; that load_run merges the reports
of several folders and refuses an app found in two; and that a median of
a few runs shows its range, not an interval. No GPU needed.

    python3 check-scaling-report.py SRC_ROOT
"""
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

EXPECT = [
    # (a) one row per app x input x TOQ, four speedups, trials, prediction.
    r"\| 2DCONV \| image \| 0\.9 \| 30\.000 \| 1\.88x \| 2\.07x \| 2\.07x \| 2\.31x "
    r"\| 3/10 \| 2/10 \| 12\.100 / 13\.000 \(-6\.9%\) \| holds \(astronaut\.npy: q=0\.9990\) \|",
    r"\| ATAX \| random \| 0\.99 \| 20\.000 \| 1\.27x \| 1\.33x \| 1\.32x \| 1\.38x "
    r"\| 4/20 \| 3/20 \| 14\.000 / 14\.500 \(-3\.4%\) \| VIOLATED \(seed 2: q=0\.9893\) \|",
    r"\| GEMM \| default \| 0\.9 \| .* \| n/a \(one input\) \|",
    # (b) means: arithmetic (headline) and geometric.
    r"\| 0\.9 \| ours \| 3 \| 1\.738x \| 1\.658x \| 1\.09x \| 2\.31x \| 0 \| 5\.3% \|",
    r"\| 0\.99 \| PreScaler \| 1 \| 1\.316x \|",
    # (c) ours' choices at TOQ 0.9.
    r"\| 2DCONV \| image \| B \| f64 \| f16 \| none \| pipelined\(device,chunk=4194304\) \|",
    r"\| GEMM \| default \| C \| f64 \| f64 \| copy \| copy \|",
    # (d) goals.
    r"- \[met\] average whole-program speedup >= 1\.5x at TOQ 0\.9 \(ours\): "
    r"arithmetic mean 1\.738x over 3 app x input runs \(geometric mean 1\.658x\)",
    r"- \[missed\] transfer-bound objects at >= 80% of their byte-ratio bound: 3 of 5; "
    r"below: 2DCONV/image/0\.9/A, 2DCONV/image/0\.9/B$",
    r"  - ATAX/random/0\.9/A \(f16: 12\.000 -> 3\.100 ms, bound 4x, 97%\)",
    r"  - ATAX/random/0\.99/A \(f32: 12\.000 -> 6\.500 ms, bound 2x, 92%\)",
    # measured per object (verified.object_transfer_seconds), not estimated
    r"  - ATAX/random/0\.95/A \(f16: 12\.000 -> 3\.500 ms, bound 4x, 86%\)",
    r"- \[met\] trials <= bound \(#MObj x \(1 \+ #types\)\): 20 of 20 searches",
    r"- \[missed\] TOQ holds on the held-out input \(ours\): 3 of 4; violated: "
    r"ATAX/random/0\.99 \(q=0\.9893\); 1 without a held-out input",
    # (e) machine and run.
    r"- GPU: NVIDIA H100 PCIe \(driver 550\.54\.15\), PCIe gen 5 x16",
    r"- skipped: CORR image \(budget\)",
    # run.json: each invocation into the same directory.
    r"- date \(invocation 2 of 2\): 2026-11-26T10:08:00Z",
    r"- failed: covar random paper \(timeout after 60 s\)",
    r"- 3 reports, 18 distinct configurations run",
    # (f) the pinned f64 control: per row, speedup over it, and the split.
    r"\| ATAX \| random \| 0\.9 \| 20\.000 \| 12\.500 \| 1\.60x \| 1\.03x \| 1\.00x "
    r"\| 1\.06x \| 1\.14x \| 1\.82x = 1\.60x x 1\.14x \|",
    r"\| ATAX \| random \| 0\.99 \| 20\.000 \| 12\.500 \| 1\.60x \| 0\.79x .* "
    r"\| 1\.38x = 1\.60x x 0\.86x \|",
    r"\| 0\.9 \| ours \| 1 \| 1\.818x / 1\.818x \| 1\.136x / 1\.136x \| 1\.600x "
    r"\| 1\.136x \|",
    r"Without the control: 2DCONV/image \(no control in the report\); GEMM/default "
    r"\(not measured: object 'A': pinned staging buffer of 2 MiB: .*\)$",
    # (g) approx-scale --until-ci's intervals, runs and GPU energy per run
    # (ATAX: the profile, the control and two picks have them): one run has
    # no interval, a counter that did not advance reads 0 J.
    r"^## \(g\) Dispersion and energy$",
    r"\| ATAX \| random \| f64 profile \| 20\.00 \[19\.80, 20\.30\] \| 30 \| 2\.60 J \(130 W\) \|",
    r"\| ATAX \| random \| pinned f64 \| 12\.50 \[12\.40, 12\.60\] \| 12 \| 1\.50 J \(120 W\) \|",
    r"\| ATAX \| random \| ours 0\.9 \| 11\.00 \[10\.90, 11\.20\] \| 20 \| 0 J \|",
    r"\| ATAX \| random \| PreScaler 0\.9 \| 11\.80 \(1 run\) \| 1 \| — \|",
    r"\| ATAX \| random \| PFP 0\.9 \| 12\.50 \| — \| — \|",
    r"^1 of 3 intervals within ±1% of their median; the widest ±1\.8% "
    r"\(ATAX/random ours 0\.9\)\.$",
]
ABSENT = [r"\| GEMM \| default \| 0\.9 .*VIOLATED", r"Traceback",
          # no control rows for the reports without one
          r"\| (2DCONV|GEMM) \| \w+ \| 0\.9 \| [\d.]+ \| [\d.]+ \| [\d.]+x \| "
          r"[\d.]+x \| [\d.]+x \| [\d.]+x \| [\d.]+x \| [\d.]+x ="]


def check_merge(src, tmp):
    """load_run over a tuple of folders (calls that each ran some apps)
    merges their reports; an app in two of them is refused, naming both."""
    spec = importlib.util.spec_from_file_location(
        "scaling_report", os.path.join(src, "bench/precision/scaling-report.py"))
    s = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(s)
    inputs = os.path.join(src, "test/bench/precision/Inputs")
    dirs = {}
    for name, files in (("one", ["scale-atax-random-paper.json", "scale-gemm-default-paper.json"]),
                        ("two", ["scale-2dconv-image-paper.json"]),
                        ("again", ["scale-atax-random-paper.json"])):
        dirs[name] = os.path.join(tmp, name)
        os.mkdir(dirs[name])
        for f in files:
            shutil.copy(os.path.join(inputs, f), dirs[name])
    bad = []
    reports, _ = s.load_run((dirs["one"], dirs["two"]))
    got = [(r["app"], os.path.basename(r["_dir"])) for r in reports]
    if got != [("2DCONV", "two"), ("ATAX", "one"), ("GEMM", "one")]:
        bad.append(f"merge: {got}")
    try:
        s.load_run((dirs["one"], dirs["again"]))
        bad.append("merge: ATAX in two folders was not refused")
    except SystemExit as e:
        if not re.fullmatch(r"scaling-report\.py: ATAX is in two of the merged runs, "
                            r"\S+/one and \S+/again: each app must come from one folder",
                            str(e.code)):
            bad.append(f"merge: the refusal reads {e.code!r}")
    return bad


def check_few_runs(src):
    """A median of fewer than FEW_RUNS runs (SLOW_APPS stop at 2 when the
    two agree within the rule) shows its runs' range, not an interval, in
    the split table, and the note counts it apart from the intervals."""
    spec = importlib.util.spec_from_file_location(
        "scaling_report", os.path.join(src, "bench/precision/scaling-report.py"))
    s = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(s)
    bad = []
    cell = s.ci_cell(0.011, [0.0109, 0.0112], 2)
    if cell != "11.00 (2 runs: 10.90-11.20)":
        bad.append(f"few runs: ci_cell gives {cell!r}")
    if s.ci_cell(0.011, [0.0109, 0.0112], s.FEW_RUNS) != "11.00 [10.90, 11.20]":
        bad.append("few runs: a median of FEW_RUNS runs lost its interval")
    with open(os.path.join(src, "test/bench/precision/Inputs",
                           "scale-atax-random-paper.json")) as f:
        r = json.load(f)
    s.entry(r, "ours", s.HEADLINE_TOQ)["verified"]["runs"] = 2
    split = s.doc_h200_split([r])
    if not re.search(r"^\| ATAX \| 20\.00 \[19\.80, 20\.30\] \| 12\.50 \[12\.40, 12\.60\] "
                     r"\| 11\.00 \(2 runs: 10\.90-11\.20\) \| 30 / 12 / 2 \|", split, re.M):
        bad.append(f"few runs: split row:\n{split}")
    if not re.search(r"Of the 2 medians of 5 runs or more .* 1 medians of 2 runs, shown with "
                     r"their range, not an interval: ATAX\.", split):
        bad.append(f"few runs: split note:\n{split}")
    return bad


def main():
    src = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        svg = os.path.join(tmp, "bars.svg")
        p = subprocess.run(
            [sys.executable, os.path.join(src, "bench/precision/scaling-report.py"),
             os.path.join(src, "test/bench/precision/Inputs"),
             "--db", os.path.join(src, "test/runtime/data/precision/h100-pcie5-xeon16.json"),
             "--svg", svg], capture_output=True, text=True)
        out = p.stdout + p.stderr
        bad = [] if p.returncode == 0 else [f"exit status {p.returncode}"]
        for e in EXPECT:
            if not re.search(e, out, re.M):
                bad.append("missing: " + e)
        for e in ABSENT:
            if re.search(e, out, re.M):
                bad.append("present: " + e)
        # The chart: well-formed, 3 groups x 4 strategies, one bar each.
        try:
            root = ET.parse(svg).getroot()
            bars = [r for r in root.iter("{http://www.w3.org/2000/svg}rect")
                    if r.find("{http://www.w3.org/2000/svg}title") is not None]
            if len(bars) != 12:
                bad.append(f"svg: {len(bars)} bars, expected 12")
        except (OSError, ET.ParseError) as e:
            bad.append(f"svg: {e}")
        # Only reports older than the control: no section (f), no error.
        old = os.path.join(tmp, "old")
        os.mkdir(old)
        shutil.copy(os.path.join(src, "test/bench/precision/Inputs",
                                 "scale-2dconv-image-paper.json"), old)
        q = subprocess.run(
            [sys.executable, os.path.join(src, "bench/precision/scaling-report.py"),
             old, "--svg", os.path.join(tmp, "old.svg")],
            capture_output=True, text=True)
        if (q.returncode != 0 or "## (f)" in q.stdout or "## (g)" in q.stdout
                or "Traceback" in q.stderr):
            bad.append(f"old reports: exit {q.returncode}, section (f) or (g) or a "
                       f"traceback:\n{q.stdout}{q.stderr}")
        bad += check_merge(src, tmp)
        bad += check_few_runs(src)
    if bad:
        print(out)
        print("\n".join(bad))
        sys.exit(1)
    print(f"scaling-report: {len(EXPECT)} lines checked, svg ok, old reports ok, merge ok, "
          "few runs ok")


if __name__ == "__main__":
    main()
