#!/usr/bin/env python3
"""table.py RESULTDIR [--check DOC]: the docs/tuning.md table of a
bench/tuning/run.sh result (its NAME.json and NAME.log files); with --check,
whether DOC holds every row verbatim (exit status 1 and the rows that
differ if not), so a number edited by hand fails the test suite
(test/bench/tuning.test)."""
import glob
import json
import os
import re
import sys

ORDER = ["image", "image512", "blur", "blur-scheme", "options", "hmm"]


def short(config, reference):
    """The knobs of `config` that differ from `reference`, as KNOB=ID."""
    ref = dict(kv.split("=", 1) for kv in reference.split(","))
    out = [kv for kv in config.split(",") if ref.get(kv.split("=", 1)[0]) != kv.split("=", 1)[1]]
    return ", ".join(out) if out else "(precise)"


def ms(value, ci):
    if ci:
        return f"{value:.4f} [{ci[0]:.4f}, {ci[1]:.4f}]"
    return f"{value:.4f}"


def row(name, j, log):
    ref = j["reference"]
    base, single, pick = j["base_time_ms"], j["single_pick"], j["pick"]
    m = re.search(r"exit (\d+), (\d+) s", log)
    seconds = m.group(2) if m else "?"
    pick_config = pick["config"]
    violates = guard_bad = invocations = fallbacks = 0
    check = kept = 0.0
    for v in j["verification"]:
        first = next(e for e in v["errors"] if e["config"] == pick_config)
        violates += bool(first["violates"])
        g = v["guard"]
        guard_bad += g["violations"]
        invocations += g["invocations"]
        fallbacks += g["fallbacks"]
        check += g["check_ms"]
        kept += g["kept_ms"]
    n = len(j["verification"])
    guard = (f"{guard_bad}/{invocations}, {fallbacks} fallbacks, {100 * check / kept:.0f}%"
             if kept else "-")
    return (f"| {name} | {j.get('kernel') or j.get('program')} | {', '.join(j['knobs'])} | {j['bound']['metric']} "
            f"<= {j['bound']['value']:g} | {ms(base, j.get('base_time_ci95_ms'))} "
            f"| {short(single['config'], ref)}: {ms(single['time_ms'], single.get('time_ci95_ms'))}"
            f" ({single['speedup']:.3f}x) "
            f"| {short(pick_config, ref)}: {ms(pick['time_ms'], pick.get('time_ci95_ms'))}"
            f" ({pick['speedup']:.3f}x) | {single['time_ms'] / pick['time_ms']:.3f} "
            f"| {j['measured']} ({j['budget']}) | {seconds} | {violates}/{n} | {guard} |")


def rows(directory):
    yield ("| run | kernel | knobs searched | bound | precise ms [95%] | best single knob: ms "
           "(speedup) | joint pick: ms (speedup) | single / joint | measured (budget) "
           "| tuning s | pick violates (no guard) | guard: kept outputs violating, "
           "fallbacks, cost |")
    yield "|---|---|---|---|---|---|---|---|---|---|---|---|"
    names = [os.path.basename(p)[:-5] for p in glob.glob(os.path.join(directory, "*.json"))]
    def key(n):
        m = re.match(r"^(.*?)-([0-9.]+(?:e-?[0-9]+)?)$", n)
        app, bound = (m.group(1), float(m.group(2))) if m else (n, 0.0)
        return (ORDER.index(app) if app in ORDER else len(ORDER), app, bound)
    for name in sorted(names, key=key):
        j = json.load(open(os.path.join(directory, name + ".json")))
        log = open(os.path.join(directory, name + ".log")).read()
        yield row(name, j, log)


def main():
    args = sys.argv[1:]
    if len(args) not in (1, 3) or (len(args) == 3 and args[1] != "--check"):
        sys.exit("usage: table.py RESULTDIR [--check DOC]")
    if not glob.glob(os.path.join(args[0], "*.json")):
        sys.exit(f"table.py: cannot read a bench/tuning result from {args[0]} "
                 "(no NAME.json in it)")
    try:
        table = list(rows(args[0]))
    except (OSError, ValueError, KeyError, StopIteration) as e:
        sys.exit(f"table.py: cannot read a bench/tuning result from {args[0]}: "
                 f"{type(e).__name__}: {e}")
    if len(args) == 1:
        print("\n".join(table))
        return 0
    doc = open(args[2]).read().splitlines()
    missing = [r for r in table if r not in doc]
    print(f"{len(table)} rows, {len(missing)} not in {args[2]}")
    for r in missing:
        print(r)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
