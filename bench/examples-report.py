#!/usr/bin/env python3
"""examples-report.py - docs/benchmarks.md's tables of the three examples
(box_muller, black_scholes, coulomb_f64; bench/run-bench.sh), as generated
blocks (bench/lib/docblocks.py; bench/docs-tables.py runs it in CI).

  bench/examples-report.py [--write | --check | --list] [--docs PAGE]

Blocks and the raw files in bench/results/ they are made from:

  examples-v2            Foundation v2 re-run, ours against hand-written
  examples-v2-tuners     and its tuners (bench-h200-2026-11-22.log: the
                         approx-bench tables as printed; no JSON came back)
  examples-fmad          ours against hand-written with FMA contraction
  examples-fmad-tuners   and its tuners (bench-h200-2026-11-21-fmad.json)
  examples-first         the first run, before FMA contraction
  examples-first-tuners  and its tuners (bench-h200-2026-11-21.json)
  examples-tune          approx-tune on the examples (tune-*-h200.json)
  examples-baselines     ours against nvcc -O3 and -O3 -use_fast_math of the
                         same code without the split, and examples/cuda/
                         box_muller.cu through approx-cc against nvcc's
                         builds of it, interleaved, with 95% intervals
                         (examples-h200-2026-11-29b/bench.json)

A ratio ours/hand above 1.02 (the target of the SFU issue) is marked
"(missed)"; a T(HEU λ)/T(OMG λ) above 1.01 is bold. Standard library only.
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
import docblocks  # noqa: E402
from intervals import verdict  # noqa: E402

RESULTS = os.path.join(ROOT, "bench", "results")
EXAMPLES = ("box_muller", "black_scholes", "coulomb_f64")

# What each example moves or computes per launch (bench/approx-bench.cu's
# inputs): not measured, used to state the first run's bandwidth.
WORKLOAD = {
    "box_muller": dict(what="16M floats in place, 16 per thread", kind="memory-streaming",
                       bytes=2 * 4 * (1 << 24)),                 # read + written
    "black_scholes": dict(what="16M options", kind="memory-streaming",
                          bytes=5 * 4 * (1 << 24)),              # 3 in, 2 out
    "coulomb_f64": dict(what="262,144 points × 2,048 atoms", kind="compute-bound",
                        rsqrt=(1 << 18) * 2048),                 # one per pair
}


def load(name):
    with open(os.path.join(RESULTS, name), encoding="utf-8") as f:
        return json.load(f)


def ratio(r):
    """An ours/hand ratio, bold, '(missed)' above the 1.02 target."""
    return f"**{r:.3f}**" + (" (missed)" if round(r, 3) > 1.02 else "")


def tuner_ratio(r):
    return f"**{r:.3f}**" if round(r, 3) > 1.01 else f"{r:.3f}"


def time_at(trace, lam):
    """T of λ in an approx-bench tuner trace ([λ, T ms, E] points)."""
    return next(t for l, t, _ in trace if l == lam)


def bench_rows(name):
    """approx-bench's JSON (--json): per example its times at λ = 0 and λmax,
    ours and hand-written, and the three tuners."""
    rows = []
    for e in load(name):
        heu, smp, omg = e["heu"], e["smp"], e["omg"]
        rows.append(dict(
            example=e["example"], lmax=e["lambda_max"],
            ours0=e["ours_t0"], hand0=e["hand_t0"], oursm=e["ours_tmax"], handm=e["hand_tmax"],
            qos=e["qos_bound"], heu=(heu["lambda"], heu["runs"]), smp=(smp["lambda"], smp["runs"]),
            omg=(omg["lambda"], omg["max_feasible"], omg["runs"]),
            heu_omg=time_at(heu["trace"], heu["lambda"]) / time_at(omg["trace"], omg["lambda"])))
    return rows


def ours_hand_table(rows, described=False):
    out = ["| example | kind | λmax | ours T(0) ms | hand T(0) ms | **ours/hand at 0** | ours T(λmax) ms "
           "| hand T(λmax) ms | **ours/hand at λmax** | SFU speedup ours | SFU speedup hand |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        w = WORKLOAD[r["example"]]
        name, kind = r["example"], w["kind"]
        if described:
            name += f" ({w['what']})"
            if "bytes" in w:
                kind += (f": {w['bytes'] // 10**6} MB moved, "
                         f"{w['bytes'] / (r['oursm'] * 1e-3) / 1e12:.1f} TB/s at λmax")
            else:
                mant, exp = f"{w['rsqrt']:.1e}".split("e")
                kind += f": {mant}e{int(exp)} f64 rsqrt per launch"
        out.append(f"| {name} | {kind} | {r['lmax']} | {r['ours0']:.4f} | {r['hand0']:.4f} "
                   f"| {ratio(r['ours0'] / r['hand0'])} | {r['oursm']:.4f} | {r['handm']:.4f} "
                   f"| {ratio(r['oursm'] / r['handm'])} | {r['ours0'] / r['oursm']:.2f}x "
                   f"| {r['hand0'] / r['handm']:.2f}x |")
    return out


def tuners_table(rows):
    out = ["| example | QoS bound | HEU λ | **HEU runs** | SMP λ | SMP runs | OMG fastest λ "
           "| OMG max feasible λ | OMG runs | T(HEU λ)/T(OMG λ) |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['example']} | {r['qos']:.3g} | {r['heu'][0]} | {r['heu'][1]} | {r['smp'][0]} "
                   f"| {r['smp'][1]} | {r['omg'][0]} | {r['omg'][1]} | {r['omg'][2]} "
                   f"| {tuner_ratio(r['heu_omg'])} |")
    return out


def log_tables(name):
    """The two markdown tables approx-bench printed into a gpu-check log
    (ours against hand-written, tuners): lists of rows of cells."""
    with open(os.path.join(RESULTS, name), encoding="utf-8") as f:
        text = f.read()
    text = text[text.index("=== approx-bench"):]
    tables, cur = [], None
    for line in text.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cur is None:
                cur = []
                tables.append((cells, cur))     # header
            elif not re.fullmatch(r"-+", cells[0]):
                cur.append(dict(zip(tables[-1][0], cells)))
        else:
            cur = None
        if len(tables) == 2 and cur is None:
            break
    return tables[0][1], tables[1][1]


def v2_tables():
    ours, tune = log_tables("bench-h200-2026-11-22.log")
    a = ["| example | ours T(0) ms | hand T(0) ms | **ours/hand at 0** | ours T(λmax) ms | hand T(λmax) ms "
         "| **ours/hand at λmax** | SFU speedup ours / hand |",
         "|---|---|---|---|---|---|---|---|"]
    for r in ours:
        a.append(f"| {r['example']} | {r['ours T(0) ms']} | {r['hand T(0) ms']} "
                 f"| {ratio(float(r['ours/hand at 0']))} | {r['ours T(max) ms']} | {r['hand T(max) ms']} "
                 f"| {ratio(float(r['ours/hand at max']))} "
                 f"| {r['SFU speedup ours']} / {r['SFU speedup hand']} |")
    b = ["| example | QoS bound | HEU λ / runs | SMP λ / runs | OMG fastest λ / max feasible λ / runs "
         "| T(HEU λ)/T(OMG λ) |",
         "|---|---|---|---|---|---|"]
    for r in tune:
        b.append(f"| {r['example']} | {r['QoS bound']} | {r['HEU lambda']} / {r['HEU runs']} "
                 f"| {r['SMP lambda']} / {r['SMP runs']} | {r['OMG lambda (fastest)']} "
                 f"/ {r['OMG max feasible lambda']} / {r['OMG runs']} "
                 f"| {tuner_ratio(float(r['HEU T / OMG T']))} |")
    return a, b


def tune_table():
    """approx-tune --method all on each example (its --json)."""
    out = ["| example | λmax | T(0) ms | T(λmax) ms | HEU λ / runs | SMP λ / runs "
           "| OMG λ / runs (max feasible) | speedup at HEU λ |",
           "|---|---|---|---|---|---|---|---|"]
    for ex in EXAMPLES:
        d = load(f"tune-{ex}-h200.json")
        pts = {p["lambda"]: p for p in d["points"]}
        lmax = d["lambda_max"]
        m = {r["method"]: r for r in d["results"]}
        heu, smp, omg = m["HEU"], m["SMP"], m["OMG"]
        out.append(f"| {ex} | {lmax} | {pts[0]['time_ms']:.4f} | {pts[lmax]['time_ms']:.4f} "
                   f"| {heu['lambda']} / {heu['runs']} | {smp['lambda']} / {smp['runs']} "
                   f"| {omg['lambda']} / {omg['runs']} ({omg['max_feasible_lambda']}) "
                   f"| {heu['speedup']:.2f}x |")
    return out


# The run of the examples against the compilers a user would pick.
BASELINES_RUN = "examples-h200-2026-11-29b"


def baselines_table():
    rows = load(os.path.join(BASELINES_RUN, "bench.json"))
    out = ["| example | rounds | ours λ = 0 ms | nvcc -O3 ms | ours λ = 0 / -O3 | -O3 vs ours λ = 0 (MRE) "
           "| ours λmax ms | -use_fast_math ms | ours λmax / fast math | E fast math | E ours λmax |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "plain_ms" not in r:
            continue
        ms, ci = r["plain_ms"], r["plain_ci"]

        def t(k):
            return f"{ms[k]:.4f} [{ci[k][0]:.4f}, {ci[k][1]:.4f}]"

        def q(x):
            return f"{x['median']:.3f} [{x['lo']:.3f}, {x['hi']:.3f}]: {verdict(x)}"
        out.append(f"| {r['example']} | {r['plain_rounds']} | {t('ours0')} | {t('o3')} "
                   f"| {q(r['ours0_vs_o3'])} | {r['o3_vs_ours0_mre']:.2g} | {t('oursmax')} "
                   f"| {t('fast')} | {q(r['oursmax_vs_fast'])} | {r['fast_emax']:.3g} "
                   f"| {r['ours_emax']:.3g} |")
    return out


def doc_blocks():
    fmad = bench_rows("bench-h200-2026-11-21-fmad.json")
    first = bench_rows("bench-h200-2026-11-21.json")
    v2, v2_tune = v2_tables()
    blocks = {
        "examples-v2": v2,
        "examples-v2-tuners": v2_tune,
        "examples-fmad": ours_hand_table(fmad),
        "examples-fmad-tuners": tuners_table(fmad),
        "examples-first": ours_hand_table(first, described=True),
        "examples-first-tuners": tuners_table(first),
        "examples-tune": tune_table(),
    }
    if os.path.exists(os.path.join(RESULTS, BASELINES_RUN, "bench.json")):
        blocks["examples-baselines"] = baselines_table()
    return {name: "\n".join(lines) + "\n" for name, lines in blocks.items()}


def main():
    docblocks.main("examples-report.py", "report", os.path.join(ROOT, "docs", "benchmarks.md"),
                   doc_blocks, "bench/results/{bench,tune}-*h200*", names_from_page=True)


if __name__ == "__main__":
    main()
