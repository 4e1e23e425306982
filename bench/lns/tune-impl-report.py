#!/usr/bin/env python3
"""tune-impl-report.py - the tables of bench/lns/tune-impl.sh.

    bench/lns/tune-impl-report.py RAW_DIR MANIFEST [MERGED_JSON]

Reads approx-tune's JSON files RAW_DIR/<kernel>@<qos>.json and the
manifest (which impl each value of @lns_impl selects: the sites' "impl"
and "variant"), and prints per kernel: every variant's time and error (the
first file's measurements), then the impl the tuner chose at each QoS.
With MERGED_JSON, writes every run there ({kernel: {qos: run}}).

Where a point of approx-tune's JSON has a 95% bootstrap interval of its
median ("time_ci95_ms": [lo, hi], the name approx-tune's joint JSON uses),
its time prints as "median [lo, hi]"; with --until-ci (the JSON's
"timing"), a line under each heading says the rule. approx-tune's
single-knob JSON (--method omg) writes no per-point interval as of
2026-11-30: its points are {lambda, time_ms, error}. Older JSON prints as
it always did.
"""
import glob
import json
import os
import sys


def impl_names(manifest):
    names = {}
    for site in manifest.get("sites", []):
        data = site.get("data", {})
        if site.get("knob") == "lns_impl" and "variant" in data:
            names[int(data["variant"])] = data["impl"]
    return names


def time_text(p, key="time_ms"):
    """A point's median time, with its 95% interval where the JSON has one:
    '0.0827' or '0.0827 [0.0825, 0.0830]'."""
    ci = p.get("time_ci95_ms")
    if not ci or ci[0] is None:
        return "%.4f" % p[key]
    return "%.4f [%.4f, %.4f]" % (p[key], ci[0], ci[1])


def rule_text(timing):
    """The timing rule of an approx-tune run with --until-ci, or None."""
    if not timing or not timing.get("until_ci"):
        return None
    return ("timing: %d warm-up, then at least %d timed launches per variant, more until "
            "the median's 95%% interval is within ±%g%% of it, at most %d"
            % (timing.get("warmup", 0), timing["reps"], 100 * timing["until_ci"],
               timing.get("max_reps", 0)))


def main():
    out, manifest_path = sys.argv[1], sys.argv[2]
    with open(manifest_path) as f:
        names = impl_names(json.load(f))
    runs = {}
    for path in sorted(glob.glob(os.path.join(out, "*@*.json"))):
        kernel, qos = os.path.basename(path)[:-5].split("@", 1)
        with open(path) as f:
            runs.setdefault(kernel, []).append((float(qos), json.load(f)))
    if len(sys.argv) > 3:
        with open(sys.argv[3], "w") as f:
            json.dump({k: {str(q): r for q, r in v} for k, v in runs.items()}, f)
    for kernel, items in sorted(runs.items()):
        items.sort(key=lambda kv: kv[0])
        first = items[0][1]
        points = sorted(first["points"], key=lambda p: p["lambda"])
        t0 = next(p["time_ms"] for p in points if p["lambda"] == 0)
        print("## %s on %s\n" % (kernel, first.get("device", {}).get("name", "?")))
        rule = rule_text(first.get("timing"))
        if rule:
            print(rule + "\n")
        print("| value | impl | time ms | speedup over precise | max abs error (log2) |")
        print("| --- | --- | --- | --- | --- |")
        for p in points:
            err = p["error"]
            err = "%.3g" % err if isinstance(err, (int, float)) else str(err)
            print("| %d | %s | %s | %.2fx | %s |" % (
                p["lambda"], names.get(p["lambda"], "?"), time_text(p),
                t0 / p["time_ms"], err))
        print("\n| QoS (max abs error) | chosen | time ms | speedup | error |")
        print("| --- | --- | --- | --- | --- |")
        for qos, run in items:
            r = next(r for r in run["results"] if r["method"] == "OMG")
            print("| %g | %s | %.4f | %.2fx | %.3g |" % (
                qos, names.get(r["lambda"], "?"), r["time_ms"],
                t0 / r["time_ms"], r["error"]))
        print()


if __name__ == "__main__":
    main()
