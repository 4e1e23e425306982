#!/usr/bin/env python3
"""slots-table.py - the warp-slot comparison of bench/slots.sh.

  bench/slots-table.py DIR                    the table of DIR's JSON files
  bench/slots-table.py [--write | --check | --list] [--docs PAGE]

DIR holds approx-tune's JSON files (--json) NAME-SLOT-REP.json of
bench/slots.sh. The table gives T(0) and T(lambda_max) with the 95%
interval of their median where approx-tune recorded one (time_ci95_ms;
runs before issue 30 have none), the speedup, E(lambda_max), OMG's lambda*
and how much E(lambda) moved between the two sweeps (0 = bit-reproducible).

Without DIR it is the generator of docs/benchmarks.md's block `slots`
(bench/lib/docblocks.py; bench/docs-tables.py runs it in CI) from RUN.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
import docblocks  # noqa: E402

# The 2026-11-29 20:25 UTC run (NVIDIA H200, each lambda under issue 30's
# rule). It replaced the 2026-11-21 run (median of 10, no intervals; its
# files are bench/results/{box_muller,black_scholes}-*-{1,2}.json).
RUN = os.path.join(ROOT, "bench", "results", "slots-h200-2026-11-29")
EXAMPLES = ("box_muller", "black_scholes")
SLOTS = ("hw", "virtual", "software")


def load(out):
    """{(example, slot): [sweep 1, sweep 2]} of the files present."""
    runs = {}
    for example in EXAMPLES:
        for slot in SLOTS:
            for rep in (1, 2):
                path = os.path.join(out, f"{example}-{slot}-{rep}.json")
                if os.path.exists(path):
                    with open(path) as f:
                        runs.setdefault((example, slot), []).append(json.load(f))
    return runs


def e_change(runs):
    """E(lambda)'s largest relative change between the two sweeps, or None
    with one sweep."""
    if len(runs) < 2:
        return None
    other = {p["lambda"]: p for p in runs[1]["points"]}
    worst = 0.0
    for p in runs[0]["points"]:
        e1, e2 = p["error"], other[p["lambda"]]["error"]
        if max(e1, e2) > 0:
            worst = max(worst, abs(e1 - e2) / max(e1, e2))
    return worst


def table(runs):
    out = ["| example | slot | lambda_max | T(0) ms | T(lambda_max) ms | speedup | "
           "E(lambda_max) | OMG lambda* | max rel. change of E between sweeps |",
           "|---|---|---|---|---|---|---|---|---|"]
    for example in EXAMPLES:
        for slot in SLOTS:
            if (example, slot) not in runs:
                out.append(f"| {example} | {slot} | missing | | | | | | |")
                continue
            d = runs[(example, slot)][0]
            pts = {p["lambda"]: p for p in d["points"]}
            lmax = d["lambda_max"]
            t0, tm = pts[0]["time_ms"], pts[lmax]["time_ms"]

            def cell(p):
                ci = p.get("time_ci95_ms")
                return f"{p['time_ms']:.4f}" + (f" [{ci[0]:.4f}, {ci[1]:.4f}]" if ci else "")
            omg = next(r for r in d["results"] if r["method"] == "OMG")
            change = e_change(runs[(example, slot)])
            out.append(f"| {example} | {slot} | {lmax} | {cell(pts[0])} | {cell(pts[lmax])} | "
                       f"{t0 / tm:.2f}x | {pts[lmax]['error']:.3g} | {omg['lambda']} | "
                       + ("n/a" if change is None else f"{change:.3g}") + " |")
    return "\n".join(out)


def summary(runs):
    """T(0) of each slot against hw's (ratio of the medians, and whether
    the two intervals overlap) and which slots repeat E bit for bit."""
    parts = []
    for example in EXAMPLES:
        hw = runs.get((example, "hw"))
        if not hw:
            continue
        h0 = next(p for p in hw[0]["points"] if p["lambda"] == 0)
        cells = []
        for slot in SLOTS[1:]:
            if (example, slot) not in runs:
                continue
            p0 = next(p for p in runs[(example, slot)][0]["points"] if p["lambda"] == 0)
            overlap = ""
            if "time_ci95_ms" in p0 and "time_ci95_ms" in h0:
                a, b = p0["time_ci95_ms"], h0["time_ci95_ms"]
                overlap = ", intervals overlap" if a[0] <= b[1] and b[0] <= a[1] else ", intervals apart"
            cells.append(f"`{slot}` {p0['time_ms'] / h0['time_ms']:.3f}{overlap}")
        parts.append(f"{example} {'; '.join(cells)}")
    exact = [f"{e}/{s}" for (e, s), r in sorted(runs.items()) if e_change(r) == 0]
    moved = [f"{e}/{s} {e_change(r):.0%}" for (e, s), r in sorted(runs.items()) if e_change(r)]
    return (f"T(0) against `hw`'s (ratio of the medians): {'. '.join(parts)}. "
            f"E repeated bit for bit between the two sweeps: {', '.join(exact) or 'none'}; "
            f"moved by up to: {', '.join(moved) or 'none'}.")


def source_line(runs):
    """GPU, driver, date, timing rule and command of the run."""
    d = next(iter(runs.values()))[0]
    t = d["timing"]
    rule = (f"each lambda's median over {t['reps']} to {t['max_reps']} launches, until its 95% "
            f"interval is within ±{100 * t['until_ci']:g}%" if t.get("until_ci")
            else f"median of {t['reps']} launches")
    dates = sorted(r["date"] for rs in runs.values() for r in rs)
    smi = os.path.join(RUN, "machine.txt")
    driver = open(smi).read().splitlines()[1].split(", ")[1] if os.path.exists(smi) else "not logged"
    return (f"Run from `{os.path.relpath(RUN, ROOT)}/`: {d['device']['name']}, driver {driver}, "
            f"{dates[0][:10]} {dates[0][11:16]}-{dates[-1][11:16]} UTC; approx-tune --method omg "
            f"--qos-ratio 0.8, {t['warmup']} warm-ups, {rule}; two sweeps per slot on the same inputs.")


def doc_blocks():
    runs = load(RUN)
    return {"slots": source_line(runs) + "\n\n" + table(runs) + "\n\n" + summary(runs) + "\n"}


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("--"):
        return docblocks.main("slots-table.py", "report", os.path.join(ROOT, "docs", "benchmarks.md"),
                              doc_blocks, os.path.relpath(RUN, ROOT), names_from_page=True)
    if not os.path.isdir(sys.argv[1]):
        print(f"slots-table.py: no such folder: {sys.argv[1]}", file=sys.stderr)
        return 2
    print(table(load(sys.argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
