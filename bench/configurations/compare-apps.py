#!/usr/bin/env python3
"""compare-apps.py --before F.json... --after F.json... [--set hw]: the Table-6
suite before and after a change, from run-apps' JSON (one or more files per
side, e.g. the two halves of the suite). Per app: the pure-SFU speedup
T(0)/T(lambda_max) and the HEU pick's speedup T(0)/T(lambda_HEU) on each side,
and after/before. Prints a Markdown table and the largest move; exits 1 when
an app is on one side only."""
import argparse
import json
import sys


def load(paths, set_name):
    apps = {}
    for path in paths:
        with open(path) as f:
            for app in json.load(f)["apps"]:
                s = app["sets"].get(set_name)
                if s is None:
                    sys.exit(f"compare-apps.py: {path}: app {app['abbr']} has no set '{set_name}'")
                if app["abbr"] in apps:
                    sys.exit(f"compare-apps.py: {path}: app {app['abbr']} is in two files of one side")
                t = s["time_ms"]
                apps[app["abbr"]] = {
                    "sfu": t[0] / t[-1],
                    "heu": t[0] / s["tune"]["HEU"]["time_ms"],
                    "t0": t[0],
                }
    return apps


def table(before, after, set_name):
    """The Markdown table and the largest move, as lines."""
    out = ["| app | T(0) ms before | after | SFU speedup before | after | after/before "
           "| HEU speedup before | after | after/before |",
           "|---|---|---|---|---|---|---|---|---|"]
    worst = (0.0, "")
    for abbr in sorted(before):
        b, n = before[abbr], after[abbr]
        rs, rh = n["sfu"] / b["sfu"], n["heu"] / b["heu"]
        for r, what in ((rs, "SFU"), (rh, "HEU")):
            if abs(r - 1) > abs(worst[0]):
                worst = (r - 1, f"{abbr} {what}")
        out.append(f"| {abbr} | {b['t0']:.4f} | {n['t0']:.4f} | {b['sfu']:.3f}x | {n['sfu']:.3f}x "
                   f"| {rs:.3f} | {b['heu']:.3f}x | {n['heu']:.3f}x | {rh:.3f} |")
    out.append("")
    out.append(f"Largest move: {worst[0] * 100:+.1f}% ({worst[1]}), {len(before)} apps, "
               f"set {set_name}.")
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--before", nargs="+", required=True)
    p.add_argument("--after", nargs="+", required=True)
    p.add_argument("--set", default="hw")
    a = p.parse_args()
    before, after = load(a.before, a.set), load(a.after, a.set)
    if before.keys() != after.keys():
        sys.exit("compare-apps.py: the two sides hold different apps: "
                 f"{sorted(before.keys() ^ after.keys())}")
    print("\n".join(table(before, after, a.set)))


if __name__ == "__main__":
    main()
