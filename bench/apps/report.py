#!/usr/bin/env python3
"""report.py - tables and figures of the evaluation suite (bench/apps).

Reads run-apps JSON files (one or more, e.g. the two halves of a run) and
prints the markdown tables of docs/benchmarks.md; with --svg-dir, draws
  apps-curves.svg   T(λ)/T(0) and E(λ)/E(λmax) per app (Figure 4 analog)
  apps-speedup.svg  speedup at QoS_ratio 0.8: SFU, SMP, HEU, OMG (Figure 10)
Plain SVG from bench/lib/svgplot.py, no plotting library needed.

  bench/apps/report.py RESULTS.json... [--set hw] [--svg-dir DIR] [--tag T]

With sets hw and hw-base side by side (compile-apps.sh SETS="hw hw-base
..."), a table of the loop passes' effect follows the slot table: ours/hand
in each set, with intervals.

Files of run-apps since issue 30's "Dispersion" (--min-reps, --until-ci)
carry each median's 95% interval and rounds: their tables show the interval
beside T(0), ours/hand and the re-timed HEU/OMG ratio, and a dispersion
table (rounds taken, widest interval, device state per app) follows. Files
that also hold "error_mre" (the paper's mean relative error over every
output element, beside the app's own metric E) get a second table: E and
MRE at λmax and at HEU's λ. Older files print as before.

Without JSON files it is the generator of docs/benchmarks.md's blocks
(bench/lib/docblocks.py; bench/docs-tables.py runs it in CI):

  bench/apps/report.py [--write | --check | --list] [--docs PAGE]

  apps-hw          the per-app table of slot hw, with intervals, and its
                   summary (HW_RUN: bench/results/apps-h200-2026-11-29b/,
                   one JSON per app)
  apps-mre         E and the paper's MRE at λmax and λ_HEU (the same files)
  apps-dispersion  rounds, widest interval and device state per app (the
                   same files)
  apps-slots       hw against hw-base and virtual, and a summary (SLOTS_RUN:
                   bench/results/apps-slots-h200-2026-11-29/, one JSON
                   per app, the three sets side by side)
  apps-loops       ours/hand with hw-base and with hw (the same files)

(The first side-by-side re-timing, apps-retimed-h100-2026-11-26-{a,b}.json,
left the page when apps-hw's "re-timed" column superseded it;
retimed_table() still gives readme-status.py its count of that column.)
"""
import argparse
import glob
import json
import math
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
from svgplot import Figure  # noqa: E402  (bench/lib: the plot module)
import docblocks  # noqa: E402
from runs import run_date  # noqa: E402

RESULTS = os.path.join(ROOT, "bench", "results")
# The 2026-11-29 20:10 UTC run (NVIDIA H200, sets hw, hw-base and virtual
# side by side, the same timing rule): one JSON per app. docs/benchmarks.md's
# apps-slots and apps-loops blocks. (It replaced the 2026-11-26 H100 run
# of the same sets, apps-h100-2026-11-26-{a,b}.json: median of 10, no
# intervals.)
SLOTS_DIR = os.path.join(RESULTS, "apps-slots-h200-2026-11-29")
SLOTS_RUN = sorted(glob.glob(os.path.join(SLOTS_DIR, "apps-*.json")))
# The 2026-11-29 16:11 UTC run (NVIDIA H200, set hw only, issue 30's timing rule:
# 30 to 100 rounds until ±1%): one JSON per app. docs/benchmarks.md's
# apps-hw, apps-mre and apps-dispersion blocks.
HW_DIR = os.path.join(RESULTS, "apps-h200-2026-11-29b")
HW_RUN = sorted(glob.glob(os.path.join(HW_DIR, "apps-*.json")))


def load(paths):
    meta, apps = None, []
    for p in paths:
        with open(p) as f:
            d = json.load(f)
        meta = meta or d
        apps += d["apps"]
    return meta, apps


def load_all(paths):
    """(each file's top level, every app): a run of several calls keeps
    each call's settings and device state."""
    metas, apps = [], []
    for p in paths:
        with open(p) as f:
            metas.append(json.load(f))
        apps += metas[-1]["apps"]
    return metas, apps


def num(x):
    return math.inf if isinstance(x, str) else float(x)


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else 0


def ci(pair, fmt):
    """' [lo, hi]' of a 95% interval from the JSON ("inf" allowed)."""
    lo, hi = (num(x) for x in pair)
    return f" [{lo:{fmt}}, {hi:{fmt}}]"


def tables(meta, apps, main):
    out = []
    # Runs since 2026-11-26 may hold HEU and OMG re-timed side by side.
    retimed = any(a["sets"].get(main, {}).get("heu_omg_retimed") is not None for a in apps)
    ratio_head = "HEU/OMG T (curve / re-timed)" if retimed else "HEU/OMG T"
    out.append("| app | domain | functions | DP | λmax | step | T(0) ms | pure-SFU speedup | hand pure-SFU | ours/hand λ=0 | ours/hand λmax | HEU λ/runs | SMP λ/runs | OMG λ/runs | "
               + ratio_head + " | speedup SMP/HEU/OMG | held-out E(λ_HEU) / bound |")
    out.append("|" + "---|" * 17)
    runs, within, heldOk, heldOwnOk, n = 0, 0, 0, 0, 0
    sfu, heu_sp, smp_sp, omg_sp = [], [], [], []
    for a in apps:
        s = a["sets"].get(main)
        if not s:
            continue
        t = [num(x) for x in s["time_ms"]]
        lmax = s["lambda_max"]
        tu, oh, ho = s["tune"], s["ours_hand"], s["held_out"]
        heu, smp, omg = tu["HEU"], tu["SMP"], tu["OMG"]
        r = heu["time_ms"] / omg["time_ms"]
        # Re-timed side by side (runs since 2026-11-26): the curve's OMG
        # point is a minimum over noisy medians, biased low; judge by this.
        rt = s.get("heu_omg_retimed")
        sp = [t[0] / m["time_ms"] for m in (smp, heu, omg)]
        ok = ho["HEU"] <= heu["bound"]
        own = ho["HEU"] <= ho["ratio_bound"]
        n += 1
        runs += heu["runs"]
        within += (rt if rt is not None else r) <= 1.01
        heldOk += ok
        heldOwnOk += own
        sfu.append(t[0] / t[lmax])
        smp_sp.append(sp[0]); heu_sp.append(sp[1]); omg_sp.append(sp[2])
        # Files with intervals (run-apps since "Dispersion"): the 95%
        # interval beside T(0), beside ours/hand (of the per-round paired
        # ratios; the value stays the ratio of the two medians) and beside
        # the re-timed ratio (per-round ratios pooled over its rounds).
        t0ci = ci(s["time_ms_ci"][0], ".3f") if "time_ms_ci" in s else ""
        ohr = s.get("ours_hand_ratio")
        r0ci = ci((ohr["zero"]["lo"], ohr["zero"]["hi"]), ".3f") if ohr else ""
        rmci = ci((ohr["max"]["lo"], ohr["max"]["hi"]), ".3f") if ohr else ""
        rtci = ci(s["heu_omg_retimed_ci"], ".3f") if rt is not None and "heu_omg_retimed_ci" in s else ""
        out.append(
            f"| {a['abbr'].upper()} | {a['domain']} | {a['functions']} | {'yes' if a['dp'] else ''} | {lmax} | {s['step']} "
            f"| {t[0]:.3f}{t0ci} | {t[0]/t[lmax]:.2f}x | {oh['hand0']/oh['handmax']:.2f}x "
            f"| {oh['ours0']/oh['hand0']:.3f}{r0ci} | {oh['oursmax']/oh['handmax']:.3f}{rmci} "
            f"| {heu['lambda']}/{heu['runs']} | {smp['lambda']}/{smp['runs']} | {omg['lambda']}/{omg['runs']} "
            f"| {r:.3f}{f' / {rt:.3f}' if rt is not None else ''}{rtci} | {sp[0]:.2f}/{sp[1]:.2f}/{sp[2]:.2f} "
            f"| {ho['HEU']:.3g} / {heu['bound']:.3g} {'ok' if ok else '**violated**'} |")
    out.append("")
    out.append(f"Set `{main}`: HEU {runs/n:.2f} runs on average; T(λ_HEU) within 1% of OMG's fastest feasible on {within} of {n} apps"
               f"{' (re-timed side by side where measured)' if retimed else ''}; "
               f"held-out QoS met on {heldOk} of {n} against the tuning bound, {heldOwnOk} of {n} against the held-out input's own "
               f"ratio bound. Geometric mean speedup: pure SFU {geomean(sfu):.2f}x, SMP {geomean(smp_sp):.2f}x, "
               f"HEU {geomean(heu_sp):.2f}x, OMG {geomean(omg_sp):.2f}x.")
    return "\n".join(out)


def set_stats(s):
    """(T(λ) list, E(λmax), E's worst relative change between the two
    launches of each λ, worst rise of T above T(0): a partial split slower
    than none) of one app's set."""
    t = [num(x) for x in s["time_ms"]]
    e = [num(x) for x in s["error"]]
    e2 = [num(x) for x in s["error_repeat"]]
    noise = max((abs(x - y) / max(x, y) for x, y in zip(e, e2) if max(x, y) > 0), default=0)
    return t, e[-1], noise, max(t) / t[0] - 1


def slots_table(apps, sets):
    out = ["| app | " + " | ".join(f"{s}: T(0) ms / pure-SFU / E(λmax) / E run-to-run / monotone T" for s in sets) + " |",
           "|---|" + "---|" * len(sets)]
    for a in apps:
        cells = []
        for name in sets:
            s = a["sets"].get(name)
            if not s:
                cells.append("")
                continue
            t, emax, noise, rise = set_stats(s)
            t0ci = ci(s["time_ms_ci"][0], ".3f") if "time_ms_ci" in s else ""
            cells.append(f"{t[0]:.3f}{t0ci} / {t[0]/t[-1]:.2f}x / {emax:.2g} / {noise:.2g} / "
                         + ("yes" if rise <= 0.02 else f"no (+{100*rise:.0f}%)"))
        out.append(f"| {a['abbr'].upper()} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def slots_summary(apps, main="hw", other="virtual", near=0.02):
    """What the slot table says of `other` against `main`: T(0) within
    `near` (ratio of the medians) or not, the pure-SFU speedups that differ
    by more than 5%, E's worst run-to-run change and the monotone count in
    each set. None when no app has both sets."""
    both = [a for a in apps if main in a["sets"] and other in a["sets"]]
    if not both:
        return None
    close, slow, fast, sfu = 0, [], [], []
    for a in both:
        tm, to = set_stats(a["sets"][main])[0], set_stats(a["sets"][other])[0]
        r = to[0] / tm[0]
        name = a["abbr"].upper()
        if abs(r - 1) <= near:
            close += 1
        else:
            (slow if r > 1 else fast).append(f"{name} {100 * (r - 1):+.1f}%")
        pm, po = tm[0] / tm[-1], to[0] / to[-1]
        if abs(po / pm - 1) > 0.05:
            sfu.append(f"{name} {po:.2f}x against {pm:.2f}x")
    sets = sorted({k for a in apps for k in a["sets"]})
    noise, mono = [], []
    for name in sets:
        st = [(set_stats(a["sets"][name]), a["abbr"].upper()) for a in apps if name in a["sets"]]
        worst = max(st, key=lambda x: x[0][2])
        noise.append(f"`{name}` {worst[0][2]:.2g}" + (f" ({worst[1]})" if worst[0][2] > 0 else ""))
        mono.append(f"`{name}` {sum(x[0][3] <= 0.02 for x in st)} of {len(st)}")
    return (f"T(0), `{other}` against `{main}` (ratio of the medians): within {100 * near:g}% on {close} of "
            f"{len(both)} apps; slower on {', '.join(slow) or 'none'}; faster on {', '.join(fast) or 'none'}. "
            f"Pure-SFU speedup more than 5% apart: {', '.join(sfu) or 'none'}. "
            f"E's largest relative change between two launches of the same λ: {', '.join(noise)}. "
            f"T within 2% of monotone: {', '.join(mono)}.")


def loops_table(apps, base="hw-base", main="hw", goal=1.02):
    """The loop passes' effect (approx-unroll-versioned, approx-hoist-loads:
    set hw against hw-base, compile-apps.sh): per app present in both sets,
    ours/hand at λ = 0 and λmax with the 95% interval of the per-round
    paired ratios where the files have it, and T(0); then how many apps
    stay within `goal` of the hand build at both ends in each set. None
    when no app has both sets."""
    both = [a for a in apps if base in a["sets"] and main in a["sets"]]
    if not both:
        return None

    def ends(s):
        oh, r = s["ours_hand"], s.get("ours_hand_ratio")
        vals = (oh["ours0"] / oh["hand0"], oh["oursmax"] / oh["handmax"])
        cis = [ci((r[k]["lo"], r[k]["hi"]), ".3f") if r else "" for k in ("zero", "max")]
        return vals, f"{vals[0]:.3f}{cis[0]} / {vals[1]:.3f}{cis[1]}"

    def t0(s):
        return f"{num(s['time_ms'][0]):.3f}" + (ci(s["time_ms_ci"][0], ".3f") if "time_ms_ci" in s else "")
    out = [f"| app | {base}: ours/hand λ = 0 / λmax | {main}: ours/hand λ = 0 / λmax "
           f"| T(0) ms, {base} | T(0) ms, {main} |", "|---|---|---|---|---|"]
    within = {base: 0, main: 0}
    for a in both:
        cells = []
        for name in (base, main):
            vals, text = ends(a["sets"][name])
            within[name] += max(vals) <= goal
            cells.append(text)
        out.append(f"| {a['abbr'].upper()} | {cells[0]} | {cells[1]} "
                   f"| {t0(a['sets'][base])} | {t0(a['sets'][main])} |")
    out += ["", f"ours/hand ≤ {goal} at both ends (ratio of the medians): {within[base]} of "
            f"{len(both)} apps with `{base}`, {within[main]} of {len(both)} with `{main}`."]
    return "\n".join(out)


def state_text(st):
    """A device state of the JSON (NVML), or 'no NVML' for null."""
    if not st:
        return "no NVML"
    p = num(st["power_w"])  # "inf": NVML gave no power reading
    return f"{st['sm_mhz']}/{st['mem_mhz']} MHz, {st['temp_c']} C, " + (f"{p:.0f} W" if math.isfinite(p) else "no power")


def dispersion_table(apps, sets):
    """Files with intervals only: per app and set, the rounds each T(λ)
    took and its widest 95% interval (± of the median), and the device
    state at the app's start and end. None for older files."""
    if not any("reps_taken" in s for a in apps for s in a["sets"].values()):
        return None
    out = ["| app | set | rounds per T(λ) min/median/max | widest T(λ) interval | "
           "ours/hand rounds λ=0/λmax | HEU/OMG re-timed rounds | device at start: SM/mem, temp, power | at end |",
           "|---|---|---|---|---|---|---|---|"]
    for a in apps:
        for name in sets:
            s = a["sets"].get(name)
            if not s or "reps_taken" not in s:
                continue
            reps = sorted(s["reps_taken"])
            t = [num(x) for x in s["time_ms"]]
            wide = max((max(m - num(lo), num(hi) - m) / m
                        for m, (lo, hi) in zip(t, s["time_ms_ci"]) if m > 0), default=0)
            ohr = s.get("ours_hand_reps", {})
            out.append(f"| {a['abbr'].upper()} | {name} | {reps[0]}/{reps[len(reps) // 2]}/{reps[-1]} "
                       f"| ±{100 * wide:.2f}% | {ohr.get('zero', '')}/{ohr.get('max', '')} "
                       f"| {'/'.join(str(x) for x in s.get('heu_omg_retimed_reps', []))} "
                       f"| {state_text(a.get('state_start'))} | {state_text(a.get('state_end'))} |")
    return "\n".join(out)


def mre_table(apps, sets):
    """Files with "error_mre" only (run-apps since 2026-11-29): per app and
    set, E (the app's own metric, the one the searches hold to the QoS
    bound) and the paper's MRE (ICS'16, footnote 5: the mean relative error
    over every element of every output, against the same λ = 0 output;
    |out - ref| where ref is 0, inf if an output is not finite) at λmax and
    at HEU's λ on the tuning input. None for older files."""
    if not any("error_mre" in s for a in apps for s in a["sets"].values()):
        return None
    out = ["| app | set | E: the app's own metric | E(λmax) | MRE(λmax) | HEU λ | E(λ_HEU) / bound | MRE(λ_HEU) |",
           "|---|---|---|---|---|---|---|---|"]
    n = same = kept = 0
    ratios, at_max, at_heu = [], [], []
    for a in apps:
        for name in sets:
            s = a["sets"].get(name)
            if not s or "error_mre" not in s:
                continue
            e = [num(x) for x in s["error"]]
            m = [num(x) for x in s["error_mre"]]
            heu = s["tune"]["HEU"]
            lam = heu["lambda"]
            abbr = a["abbr"].upper()
            n += 1
            if e == m:  # the app's own metric is the paper's
                same += 1
            elif e[-1] > 0 and math.isfinite(e[-1]):
                ratios.append(m[-1] / e[-1])
            kept += lam == 0
            at_max.append((m[-1], abbr))
            at_heu.append((m[lam], abbr))
            metric = a.get("metric", "").replace("|", "\\|")  # a cell of its own
            out.append(f"| {abbr} | {name} | {metric} | {e[-1]:.3g} | {m[-1]:.3g} "
                       f"| {lam} | {num(heu['error']):.3g} / {num(heu['bound']):.3g} | {m[lam]:.3g} |")
    out.append("")

    def worst(xs):
        return f"{max(xs)[0]:.3g} ({max(xs)[1]})"

    def two(x):  # 2 significant digits, without an exponent up to 10^6
        return "%.2g" % x if x < 100 else "%.0f" % float("%.2g" % x)

    text = f"MRE equals E on {same} of {n} (their own metric is the mean relative error)"
    if ratios:
        lo, hi = two(min(ratios)), two(max(ratios))
        text += f"; on the other {n - same}, MRE(λmax)/E(λmax) " + (f"from {lo} to {hi}" if lo != hi else f"is {lo}")
    out.append(text + f". Largest MRE at λmax {worst(at_max)}, at λ_HEU {worst(at_heu)}; "
               f"HEU kept λ = 0 (MRE 0) on {kept} of {n}.")
    return "\n".join(out)


def states(metas, apps):
    """Every NVML reading of a run: the start and end of each call (the
    files' top level) and of each app; null readings left out."""
    got = []
    for d in list(metas) + list(apps):
        got += [d[k] for k in ("state_start", "state_end") if d.get(k)]
    return got


def span_text(values, fmt="%g"):
    lo, hi = fmt % min(values), fmt % max(values)
    return lo if lo == hi else f"{lo}-{hi}"


def dispersion_summary(metas, apps, sets):
    """One paragraph under the dispersion table: how the curve's medians
    stopped (at the minimum rounds, later, at the cap) and the device state
    over the run. None for files without intervals."""
    meta = metas[0]
    if "min_reps" not in meta or not any("reps_taken" in s for a in apps for s in a["sets"].values()):
        return None
    lo, hi = meta["min_reps"], meta["max_reps"]
    reps, capped, wide = [], [], []
    for a in apps:
        for name in sets:
            s = a["sets"].get(name)
            if not s or "reps_taken" not in s:
                continue
            reps += s["reps_taken"]
            capped += [f"{a['abbr'].upper()} λ = {l}" for l, r in enumerate(s["reps_taken"]) if r >= hi]
            for l, (m, (a_lo, a_hi)) in enumerate(zip(s["time_ms"], s["time_ms_ci"])):
                m = num(m)
                # as the dispersion table shows it (±, two decimals of a %)
                if m > 0 and round(100 * max(m - num(a_lo), num(a_hi) - m) / m, 2) > 100 * meta.get("until_ci", 0) > 0:
                    wide.append(f"{a['abbr'].upper()} λ = {l}")
    text = (f"{len(reps)} medians of T(λ): {sum(r == lo for r in reps)} stopped at the minimum {lo} rounds, "
            f"{sum(lo < r < hi for r in reps)} later, {len(capped)} at the cap of {hi}"
            + (f" ({', '.join(capped)})" if capped else ""))
    if meta.get("until_ci"):
        text += (f"; {len(wide)} with an interval wider than ±{100 * meta['until_ci']:g}% of the median shown"
                 + (f" ({', '.join(wide)})" if wide else ""))
    st = states(metas, apps)
    if st:
        power = [num(x["power_w"]) for x in st if math.isfinite(num(x["power_w"]))]
        text += (f". Device state over the run ({len(st)} NVML readings, start and end of each call and app): "
                 f"SM clock {span_text([x['sm_mhz'] for x in st])} MHz, memory clock "
                 f"{span_text([x['mem_mhz'] for x in st])} MHz, {span_text([x['temp_c'] for x in st])} C"
                 + (f", {span_text(power, '%.0f')} W" if power else ""))
    return text + "."


def retimed_table(apps, main):
    """HEU's λ against OMG's, T(λ_HEU)/T(λ_OMG) from the curve and re-timed
    side by side (JSON heu_omg_retimed), and the ours/hand ratios of the
    same run: those above 1.02 by name, the largest of the others."""
    out = ["| app | HEU λ / OMG λ | HEU/OMG T, curve | HEU/OMG T, re-timed |", "|---|---|---|---|"]
    n = within = runs = 0
    high, rest = [], []
    for a in apps:
        s = a["sets"].get(main)
        if not s or s.get("heu_omg_retimed") is None:
            continue
        heu, omg = s["tune"]["HEU"], s["tune"]["OMG"]
        rt = s["heu_omg_retimed"]
        n += 1
        runs += heu["runs"]
        within += rt <= 1.01
        out.append(f"| {a['abbr'].upper()} | {heu['lambda']} / {omg['lambda']} "
                   f"| {heu['time_ms'] / omg['time_ms']:.3f} | {rt:.3f} |")
        oh = s["ours_hand"]
        r0, rm = oh["ours0"] / oh["hand0"], oh["oursmax"] / oh["handmax"]
        if max(r0, rm) > 1.02:
            high.append(f"{a['abbr'].upper()} {r0:.3f} / {rm:.3f}")
        else:
            rest.append(max(r0, rm))
    out.append("")
    out.append(f"Within 1% re-timed: {within} of {n}; HEU {runs / n:.2f} runs on average in this run. "
               f"ours/hand in this run (λ = 0 / λmax): {', '.join(high) or 'none above 1.02'}"
               + (f", every other app ≤ {max(rest):.3f}." if rest else "."))
    return "\n".join(out)


def shown(paths):
    """The files of a run as the page names them: 'DIR/apps-*.json' for a
    folder of the run's own, else one name with the parts that differ in
    braces (bench/results/apps-h100-2026-11-26-{a,b}.json)."""
    rel = [os.path.relpath(p, ROOT) for p in paths]
    if len(rel) == 1:
        return rel[0]
    if os.path.dirname(paths[0]) != RESULTS:
        return os.path.dirname(rel[0]) + "/apps-*.json"
    pre = os.path.commonprefix(rel)
    suf = os.path.commonprefix([r[::-1] for r in rel])[::-1]
    return pre + "{" + ",".join(r[len(pre):len(r) - len(suf)] for r in rel) + "}" + suf


def driver_text(meta, folder=None):
    """'580.159.04 (CUDA driver API 13.0)' when the run's folder holds
    nvidia-smi's line (machine.txt), else the JSON's CUDA driver API."""
    api = f"CUDA driver API {meta['driver'] // 1000}.{meta['driver'] % 1000 // 10}"
    smi = os.path.join(folder, "machine.txt") if folder else None
    if smi and os.path.exists(smi):
        lines = open(smi).read().splitlines()
        if len(lines) > 1 and len(lines[1].split(", ")) > 1:
            return f"driver {lines[1].split(', ')[1]} ({api})"
    return api


def source_line(paths, metas, sets, what):
    """Which run a block comes from: files, GPU, date, driver, sets, rounds."""
    meta = metas[0]
    folder = os.path.dirname(paths[0]) if os.path.dirname(paths[0]) != RESULTS else None
    if "min_reps" in meta:
        rule = (f"each median over {meta['min_reps']} to {meta['max_reps']} rounds, until its 95% "
                f"bootstrap interval is within ±{100 * meta['until_ci']:g}%" if meta.get("until_ci")
                else f"each median over {meta['min_reps']} rounds")
    else:
        rule = f"median of {meta['reps']} rounds, no intervals recorded"
    probes = [m["grids"][sets[0]] for m in metas if sets[0] in m["grids"]]
    grids = sorted({g["step"] for g in probes})
    r2 = [g["captured"] for g in probes]
    return (f"{what} from `{shown(paths)}`: {meta['device']}, {run_date(paths[0])}, "
            f"{driver_text(meta, folder)}, set{'s' if len(sets) > 1 else ''} "
            + ", ".join(f"`{x}`" for x in sets) + f"; {rule}; λ grid of `{sets[0]}` (probe) step "
            + "/".join(map(str, grids)) + f" (staircase fit R² {span_text(r2, '%.4f')}"
            + (f", {len(r2)} probes" if len(r2) > 1 else "") + ").")


def doc_blocks():
    """NAME -> text of docs/benchmarks.md's blocks: the 2026-11-29 H200 runs
    of set hw (apps-hw, apps-mre, apps-dispersion) and of sets hw, hw-base
    and virtual side by side (apps-slots, apps-loops)."""
    hw_metas, hw = load_all(HW_RUN)
    slot_metas, apps = load_all(SLOTS_RUN)
    sets = sorted({k for a in apps for k in a["sets"]})
    blocks = {
        "apps-hw": source_line(HW_RUN, hw_metas, ["hw"], "Run") + "\n\n" + tables(None, hw, "hw"),
        "apps-mre": mre_table(hw, ["hw"]),
        "apps-dispersion": dispersion_table(hw, ["hw"]) + "\n\n" + dispersion_summary(hw_metas, hw, ["hw"]),
        "apps-slots": source_line(SLOTS_RUN, slot_metas, sets, "Run") + "\n\n" + slots_table(apps, sets)
        + "\n\n" + slots_summary(apps),
        "apps-loops": loops_table(apps),
    }
    return {name: text + "\n" for name, text in blocks.items()}


def svg_curves(apps, main, path, title):
    """One small panel per app: T(λ)/T(0) and E(λ)/E(λmax), each scaled to
    its panel (5% headroom), against λ."""
    cols, w, h, pad = 6, 170, 120, 28
    rows = (len(apps) + cols - 1) // cols
    fig = Figure(cols * w, rows * h + 40,
                 f"{title}: T(λ)/T(0) (black) and E(λ)/E(λmax) (red) against λ",
                 font_size=10)
    for i, a in enumerate(apps):
        s = a["sets"].get(main)
        if not s:
            continue
        t = [num(x) for x in s["time_ms"]]
        e = [num(x) for x in s["error"]]
        lm = len(t) - 1
        em = max(e[-1], 1e-300)
        x0, y0 = (i % cols) * w + pad, (i // cols) * h + 40
        ax = fig.axes(rect=(x0, y0, w - pad - 8, h - 40), frame="box",
                      title=f"{a['abbr'].upper()} ({a['domain']})",
                      x=dict(lo=0, hi=max(lm, 1), ticks=[0, lm]),
                      y=dict(lo=0, hi=1, ticks=[]))
        for vals, color, scale in ((t, "black", t[0] * 1.05), (e, "#c00", em * 1.05)):
            ax.line(range(len(vals)), [v / scale for v in vals], color=color,
                    width=1.2, clip=True)
    fig.save(path)


def svg_speedup(apps, main, path, title):
    """Speedup over λ = 0 per app and their geometric mean: pure SFU, SMP,
    HEU, OMG."""
    names = [a for a in apps if main in a["sets"]]
    series = [("SFU", "#444"), ("SMP", "#8ab"), ("HEU", "#c63"), ("OMG", "#396")]
    vals = []
    for a in names:
        s = a["sets"][main]
        t = [num(x) for x in s["time_ms"]]
        vals.append([t[0] / t[-1]] + [t[0] / s["tune"][m]["time_ms"] for m in ("SMP", "HEU", "OMG")])
    vals.append([geomean([v[k] for v in vals]) for k in range(4)])
    labels = [a["abbr"].upper() for a in names] + ["GEO"]
    ymax = max(max(v) for v in vals) * 1.1
    fig = Figure(60 + (7 * len(series) + 10) * (len(vals) + 1), 280,
                 f"{title}: speedup over λ = 0 at QoS_ratio 0.8", font_size=10)
    ax = fig.axes(y=dict(lo=0, hi=ymax, grid=True, step=1,
                         fmt=lambda k: "%gx" % k))
    ax.bars(labels, series, vals,
            tooltips=[[f"{g} {n}: {v:.2f}x" for (n, _), v in zip(series, row)]
                      for g, row in zip(labels, vals)])
    fig.save(path)


def main():
    # No JSON named: the docs generator (--write / --check / --list).
    if len(sys.argv) < 2 or sys.argv[1] in ("--write", "--check", "--list", "--docs"):
        return docblocks.main("report.py", "report", os.path.join(ROOT, "docs", "benchmarks.md"),
                              doc_blocks, "bench/results/",
                              names_from_page=True)
    ap = argparse.ArgumentParser()
    ap.add_argument("json", nargs="+")
    ap.add_argument("--set", default="hw", help="the slot set the main table reports")
    ap.add_argument("--svg-dir")
    ap.add_argument("--tag", default="h100")
    args = ap.parse_args()
    metas, apps = load_all(args.json)
    meta = metas[0]
    if "min_reps" in meta:  # run-apps since "Dispersion"
        until = (f" until ±{100 * meta['until_ci']:g}% (at most {meta['max_reps']})"
                 if meta.get("until_ci") else "")
        print(f"# {meta['device']}, driver {meta['driver']}, reps {meta['min_reps']}{until}, QoS_ratio {meta['qos_ratio']}")
        # Several files (calls): the first one's start, the last one's end.
        print(f"device at start: {state_text(meta.get('state_start'))}; at end: {state_text(metas[-1].get('state_end'))}")
    else:
        print(f"# {meta['device']}, driver {meta['driver']}, reps {meta['reps']}, QoS_ratio {meta['qos_ratio']}")
    print("λ grid measured by the probe: " + ", ".join(f"{k} step {v['step']} (staircase fit R² {v['captured']:.4f})" for k, v in meta["grids"].items()))
    print()
    print(tables(meta, apps, args.set))
    sets = sorted({k for a in apps for k in a["sets"]})
    mre = mre_table(apps, sets)
    if mre:
        print()
        print(mre)
    print()
    print(slots_table(apps, sets))
    slots = slots_summary(apps)
    if slots:
        print()
        print(slots)
    loops = loops_table(apps)
    if loops:
        print()
        print(loops)
    disp = dispersion_table(apps, sets)
    if disp:
        print()
        print(disp)
        summary = dispersion_summary(metas, apps, sets)
        if summary:
            print()
            print(summary)
    if args.svg_dir:
        os.makedirs(args.svg_dir, exist_ok=True)
        # The figures name their run: GPU, and the date of the files' names.
        first = os.path.abspath(args.json[0])
        date = re.search(r"\d{4}-\d{2}-\d{2}", os.path.join(os.path.basename(os.path.dirname(first)),
                                                         os.path.basename(first)))
        title = f"{meta['device']}{', ' + date.group(0) if date else ''}, slot {args.set}"
        svg_curves(apps, args.set, os.path.join(args.svg_dir, f"apps-curves-{args.tag}.svg"), title)
        svg_speedup(apps, args.set, os.path.join(args.svg_dir, f"apps-speedup-{args.tag}.svg"), title)
        print(f"\nwrote {args.svg_dir}/apps-curves-{args.tag}.svg, apps-speedup-{args.tag}.svg")


if __name__ == "__main__":
    sys.exit(main())
