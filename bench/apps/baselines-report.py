#!/usr/bin/env python3
"""baselines-report.py - the Table-6 suite against nvcc -O3 and nvcc -O3
-use_fast_math (bench/apps/run-baselines.sh), as docs/benchmarks.md's and
README.md's generated blocks (bench/lib/docblocks.py).

  baselines-report.py [--write | --check] [--docs PAGE] [--readme PAGE]

The blocks come from the raw run named in RUN below (its README.md says
date, GPU, driver, commit and command). Every ratio is the median of
per-round ratios (paired, interleaved samples) with its 95% bootstrap
interval; a ratio whose interval lies wholly above 1 is a miss, and the
tables say by how much.
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
import docblocks  # noqa: E402
import intervals  # noqa: E402

RUN = os.path.join(ROOT, "bench", "results", "sfu-baselines-h200-2026-11-29b")


def load(run=RUN):
    with open(os.path.join(run, "baselines.json"), encoding="utf-8") as f:
        return json.load(f)


def ci(r, digits=3):
    return f"{r['median']:.{digits}f} [{r['lo']:.{digits}f}, {r['hi']:.{digits}f}]"


def verdict(r):
    return intervals.verdict(r, bold_slower=True)


def ms(s):
    return f"{s['median']:.4g} [{s['lo']:.4g}, {s['hi']:.4g}]"


def ulp(a):
    u = a["max_ulp"]
    u = "inf" if u == "inf" else f"{float(u):.3g}"
    return f"{a['differ']:,}/{a['compared']:,} ({u})"


def err(x):
    return "inf" if x == "inf" else f"{float(x):.3g}"


def energy(e):
    """Per build: the median of its batches, and their range."""
    cells = []
    for k in ("o3", "ours0", "fast", "oursmax"):
        v = sorted(float(x) for x in e[k])
        if not v:
            return "n/a"
        mid = len(v) // 2
        m = v[mid] if len(v) % 2 else (v[mid - 1] + v[mid]) / 2
        cells.append(f"{m:.3g} ({v[0]:.3g}–{v[-1]:.3g})")
    return " / ".join(cells)


def clocks(a):
    s, e = a.get("state_start"), a.get("state_end")
    if not s or not e:
        return "n/a"
    return (f"{s['sm_mhz']}→{e['sm_mhz']} / {s['mem_mhz']} MHz, "
            f"{s['temp_c']}→{e['temp_c']} °C")


def kernel_table(d):
    out = ["| app | functions | λmax | nvcc -O3 ms | ours λ=0 / -O3 | ours λ=0 against -O3 "
           "| -use_fast_math ms | ours λmax / fast | ours λmax against fast | rounds |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for a in d["apps"]:
        k, r = a["kernel_ms"], a["ratios"]
        out.append(f"| {a['abbr'].upper()} | {a['functions']} | {a['lambda_max']} "
                   f"| {ms(k['o3'])} | {ci(r['kernel_ours0_o3'])} "
                   f"| {verdict(r['kernel_ours0_o3'])} | {ms(k['fast'])} "
                   f"| {ci(r['kernel_oursmax_fast'])} | {verdict(r['kernel_oursmax_fast'])} "
                   f"| {k['o3']['reps']} |")
    return "\n".join(out) + "\n"


def app_table(d):
    out = ["| app | app time -O3 ms | ours λ=0 / -O3, app | app time fast ms "
           "| ours λmax / fast, app | -O3 / ours λmax, app | energy J/run: -O3 / ours λ=0 "
           "/ fast / ours λmax | rounds | SM / memory clock, temperature (start→end) |",
           "|---|---|---|---|---|---|---|---|---|"]
    for a in d["apps"]:
        t, r = a["app_ms"], a["ratios"]
        gain = t["o3"]["median"] / t["oursmax"]["median"]
        out.append(f"| {a['abbr'].upper()} | {ms(t['o3'])} | {ci(r['app_ours0_o3'])} "
                   f"| {ms(t['fast'])} | {ci(r['app_oursmax_fast'])} | {gain:.3f}x "
                   f"| {energy(a['energy_j'])} | {t['o3']['reps']} | {clocks(a)} |")
    return "\n".join(out) + "\n"


def agreement_table(d):
    # The paper's mean relative error beside the app's metric, where the run
    # measured it (runs after 2026-11-29).
    mre = all("mre_vs_o3" in a for a in d["apps"])
    out = ["| app | metric | λ=0 vs -O3: differ (max ulp) | λmax vs fast: differ (max ulp) "
           "| E(fast) vs -O3 | E(ours λmax) vs -O3 |"
           + (" MRE(fast) | MRE(ours λmax) |" if mre else ""),
           "|---|---|---|---|---|---|" + ("---|---|" if mre else "")]
    for a in d["apps"]:
        g, e = a["agreement"], a["error_vs_o3"]
        row = (f"| {a['abbr'].upper()} | {a['metric']} | {ulp(g['ours0_o3'])} "
               f"| {ulp(g['oursmax_fast'])} | {err(e['fast'])} | {err(e['oursmax'])} |")
        if mre:
            row += f" {err(a['mre_vs_o3']['fast'])} | {err(a['mre_vs_o3']['oursmax'])} |"
        out.append(row)
    return "\n".join(out) + "\n"


def counts(d, key):
    """(slower, faster, same) over the apps for ratio `key`."""
    s = f = same = 0
    for a in d["apps"]:
        r = a["ratios"][key]
        if r["lo"] > 1:
            s += 1
        elif r["hi"] < 1:
            f += 1
        else:
            same += 1
    return s, f, same


def worst(d, key):
    a = max(d["apps"], key=lambda a: a["ratios"][key]["median"])
    return a["abbr"].upper(), a["ratios"][key]["median"]


def summary(d):
    n = len(d["apps"])
    lines = []
    for key, what in (("kernel_ours0_o3", "ours at λ = 0 against nvcc -O3, kernel"),
                      ("kernel_oursmax_fast", "ours at λmax against nvcc -O3 -use_fast_math, kernel"),
                      ("app_ours0_o3", "ours at λ = 0 against nvcc -O3, application"),
                      ("app_oursmax_fast", "ours at λmax against -use_fast_math, application")):
        s, f, same = counts(d, key)
        w, r = worst(d, key)
        lines.append(f"- {what}: slower on {s} of {n} apps, faster on {f}, "
                     f"indistinguishable on {same} (95% intervals); worst {w}, {r:.3f}x nvcc's time.")
    gains = sorted(a["app_ms"]["o3"]["median"] / a["app_ms"]["oursmax"]["median"]
                   for a in d["apps"])
    kg = sorted(a["kernel_ms"]["o3"]["median"] / a["kernel_ms"]["oursmax"]["median"]
                for a in d["apps"])
    lines.append(f"- Pure SFU (ours at λmax) over nvcc -O3: kernel {kg[0]:.2f}x to "
                 f"{kg[-1]:.2f}x (median {kg[len(kg) // 2]:.2f}x); application, "
                 f"transfers included, {gains[0]:.2f}x to {gains[-1]:.2f}x "
                 f"(median {gains[len(gains) // 2]:.2f}x).")
    return "\n".join(lines) + "\n"


# The re-measurement after the two fixes of 2026-11-29 (docs/benchmarks.md,
# "Re-measured after two fixes of ours"): the morning runs (before) and the
# afternoon runs (after) of run-apps and run-baselines, and the static PTX
# comparison that names the apps whose PTX the unroll fix left unchanged.
RESULTS = os.path.join(ROOT, "bench", "results")
FIX_APPS = (os.path.join(RESULTS, "apps-h200-2026-11-29"), os.path.join(RESULTS, "apps-h200-2026-11-29b"))
FIX_BASELINES = (os.path.join(RESULTS, "sfu-baselines-h200-2026-11-29"), RUN)
FIX_PTX = os.path.join(RESULTS, "apps-unroll-fix-sm90-2026-11-29.md")


def unchanged_ptx(path=FIX_PTX):
    """The apps the static comparison lists as byte-identical after the fix."""
    text = open(path, encoding="utf-8").read()
    m = re.search(r"((?:[A-Z0-9]{3}, )+[A-Z0-9]{3}) and ([A-Z0-9]{3}) come out byte-identical", text)
    if not m:
        sys.exit(f"baselines-report.py: {path}: no 'X, Y and Z come out byte-identical' sentence")
    return m.group(1).split(", ") + [m.group(2)]


def ours_hand(folder):
    """ABBR -> (ours/hand at λ = 0, at λmax) of set hw in run-apps' JSON
    files: the ratio of the medians and the interval of the paired ratios,
    as docs/benchmarks.md's per-app table gives them."""
    out = {}
    for name in sorted(os.listdir(folder)):
        if not (name.startswith("apps-") and name.endswith(".json")):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            for a in json.load(f)["apps"]:
                hw = a["sets"]["hw"]
                oh, r = hw["ours_hand"], hw["ours_hand_ratio"]
                out[a["abbr"].upper()] = tuple(
                    {"median": oh[f"ours{e}"] / oh[f"hand{e}"], "lo": r[k]["lo"], "hi": r[k]["hi"]}
                    for e, k in (("0", "zero"), ("max", "max")))
    return out


def fixes_table():
    same = unchanged_ptx()
    before, after = (ours_hand(d) for d in FIX_APPS)
    nv = [{a["abbr"].upper(): a["ratios"] for a in load(d)["apps"]} for d in FIX_BASELINES]
    rows = ["| app | ours/hand λ = 0 | ours/hand λmax | ours λ = 0 / nvcc -O3 | ours λmax / -use_fast_math |",
            "|---|---|---|---|---|"]
    moved = {"kernel_ours0_o3": [], "kernel_oursmax_fast": []}
    for app in sorted(after):
        cells = [f"{ci(before[app][k])} → {ci(after[app][k])}" for k in (0, 1)]
        for k in moved:
            b, a = nv[0][app][k], nv[1][app][k]
            cells.append(f"{ci(b)} → {ci(a)}")
            if app in same:
                moved[k].append(a["median"] / b["median"] - 1)
        if app not in same:
            rows.append(f"| {app} | " + " | ".join(cells) + " |")
    span = {k: f"{100 * min(v):+.1f}% to {100 * max(v):+.1f}%" for k, v in moved.items()}
    rows += ["", f"On the {len(same)} apps whose PTX the unroll fix left byte-identical "
             f"({', '.join(same)}), ours λ = 0 / -O3 moved by {span['kernel_ours0_o3']} and ours "
             f"λmax / -use_fast_math by {span['kernel_oursmax_fast']} (ratio of the two runs' medians)."]
    return "\n".join(rows) + "\n"


def blocks():
    d = load()
    return {"sfu-baselines-summary": summary(d), "sfu-baselines-kernel": kernel_table(d),
            "sfu-baselines-app": app_table(d), "sfu-baselines-agreement": agreement_table(d),
            "sfu-fixes": fixes_table()}


if __name__ == "__main__":
    docblocks.main("baselines-report.py", "report",
                   os.path.join(ROOT, "docs", "benchmarks.md"), blocks, "bench/results",
                   names_from_page=True)
