#!/usr/bin/env python3
"""Prints the warp-slot comparison table from bench/slots.sh's JSON files
(approx-tune --json): T(0) and T(lambda_max) with the 95% interval of their
median where approx-tune recorded one (time_ci95_ms; runs before issue 30
have none)."""
import json
import os
import sys

out = sys.argv[1]
print("| example | slot | lambda_max | T(0) ms | T(lambda_max) ms | speedup | "
      "E(lambda_max) | OMG lambda* | max rel. change of E between sweeps |")
print("|---|---|---|---|---|---|---|---|---|")
for example in ("box_muller", "black_scholes"):
    for slot in ("hw", "virtual", "software"):
        runs = []
        for rep in (1, 2):
            path = os.path.join(out, f"{example}-{slot}-{rep}.json")
            if os.path.exists(path):
                with open(path) as f:
                    runs.append(json.load(f))
        if not runs:
            print(f"| {example} | {slot} | missing | | | | | | |")
            continue
        d = runs[0]
        pts = {p["lambda"]: p for p in d["points"]}
        lmax = d["lambda_max"]
        t0, tm = pts[0]["time_ms"], pts[lmax]["time_ms"]

        def cell(p):
            ci = p.get("time_ci95_ms")
            return f"{p['time_ms']:.4f}" + (f" [{ci[0]:.4f}, {ci[1]:.4f}]" if ci else "")
        em = pts[lmax]["error"]
        omg = next(r for r in d["results"] if r["method"] == "OMG")
        change = "n/a"
        if len(runs) == 2:
            other = {p["lambda"]: p for p in runs[1]["points"]}
            worst = 0.0
            for l, p in pts.items():
                e1, e2 = p["error"], other[l]["error"]
                if max(e1, e2) > 0:
                    worst = max(worst, abs(e1 - e2) / max(e1, e2))
            change = f"{worst:.3g}"
        print(f"| {example} | {slot} | {lmax} | {cell(pts[0])} | {cell(pts[lmax])} | "
              f"{t0 / tm:.2f}x | {em:.3g} | {omg['lambda']} | {change} |")
