#!/usr/bin/env python3
"""examples-report.py - docs/benchmarks.md's tables of the three examples
(box_muller, black_scholes, coulomb_f64; bench/run-bench.sh), as generated
blocks (bench/lib/docblocks.py; bench/docs-tables.py runs it in CI).

  bench/examples-report.py [--write | --check | --list] [--docs PAGE]

Blocks, all from examples-h200-2026-11-29c/bench.json (approx-bench
--plain --cuda --json), in bench/results/:

  examples-baselines     ours against nvcc -O3 and -O3 -use_fast_math of the
                         same code without the split, and examples/cuda/
                         box_muller.cu through approx-cc against nvcc's
                         builds of it, interleaved, with 95% intervals
  examples-hand          ours against the hand-written Listing-3 split in
                         the same rounds, at λ = 0 and at full SFU
  examples-tuners        the tuners at QoS_ratio 0.8, HEU's λ re-timed
                         side by side with OMG's

The earlier runs' tables (bench-h200-2026-11-2*, tune-*-h200) left the
page when this run superseded them; their raw files keep them.

ours/hand is read against the SFU issue's ≤ 1.02 from its interval; a
T(HEU λ)/T(OMG λ) of the sweep above 1.01 is bold. Standard library only.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
import docblocks  # noqa: E402
from intervals import verdict  # noqa: E402

RESULTS = os.path.join(ROOT, "bench", "results")


def load(name):
    with open(os.path.join(RESULTS, name), encoding="utf-8") as f:
        return json.load(f)


def tuner_ratio(r):
    return f"**{r:.3f}**" if round(r, 3) > 1.01 else f"{r:.3f}"


def time_at(trace, lam):
    """T of λ in an approx-bench tuner trace ([λ, T ms, E] points)."""
    return next(t for l, t, _ in trace if l == lam)


# The run of the examples against the compilers a user would pick, the
# hand-written split and the tuners' re-timed picks.
BASELINES_RUN = "examples-h200-2026-11-29c"
# The SFU issue's target for ours against the hand-written split.
HAND_TARGET = 1.02


def series_cell(r, k):
    """A series of approx-bench's rounds: median ms [95% interval]."""
    ms, ci = r["plain_ms"][k], r["plain_ci"][k]
    return f"{ms:.4f} [{ci[0]:.4f}, {ci[1]:.4f}]"


def ratio_cell(x):
    """A paired ratio: median [95% interval]."""
    return f"{x['median']:.3f} [{x['lo']:.3f}, {x['hi']:.3f}]"


def run_rows(key=None):
    """approx-bench's rows of BASELINES_RUN, those holding `key` if given
    (the columns a table needs: --plain's, the hand split's)."""
    rows = load(os.path.join(BASELINES_RUN, "bench.json"))
    return [r for r in rows if key is None or key in r]


def baselines_table():
    out = ["| example | rounds | ours λ = 0 ms | nvcc -O3 ms | ours λ = 0 / -O3 | -O3 vs ours λ = 0 (MRE) "
           "| ours λmax ms | -use_fast_math ms | ours λmax / fast math | E fast math | E ours λmax |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in run_rows("plain_ms"):
        o0, om = r["ours0_vs_o3"], r["oursmax_vs_fast"]
        out.append(f"| {r['example']} | {r['plain_rounds']} | {series_cell(r, 'ours0')} "
                   f"| {series_cell(r, 'o3')} | {ratio_cell(o0)}: {verdict(o0)} "
                   f"| {r['o3_vs_ours0_mre']:.2g} | {series_cell(r, 'oursmax')} "
                   f"| {series_cell(r, 'fast')} | {ratio_cell(om)}: {verdict(om)} "
                   f"| {r['fast_emax']:.3g} | {r['ours_emax']:.3g} |")
    return out


def hand_target(q):
    """ours/hand against the ≤ HAND_TARGET target, read from the interval."""
    if q["hi"] <= HAND_TARGET:
        return "met"
    if q["lo"] > HAND_TARGET:
        return f"**missed** (by {100 * (q['median'] - HAND_TARGET):.1f} points)"
    return f"at the limit (the interval holds {HAND_TARGET})"


def hand_table():
    """Ours against the Listing-3 split, paired rounds: at λ = 0 (both
    precise) and at full SFU (ours at λmax, the split with every warp slot
    of the SM, its `hand_lambda_max`)."""
    out = ["| example | rounds | ours λ = 0 ms | hand λ = 0 ms | ours / hand at λ = 0 | ≤ 1.02 "
           "| ours λmax ms | hand, all slots ms | ours / hand at full SFU | ≤ 1.02 |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in run_rows("ours0_vs_hand0"):
        a, b = r["ours0_vs_hand0"], r["oursmax_vs_handmax"]
        out.append(f"| {r['example']} | {r['plain_rounds']} | {series_cell(r, 'ours0')} "
                   f"| {series_cell(r, 'hand0')} | {ratio_cell(a)} | {hand_target(a)} "
                   f"| {series_cell(r, 'oursmax')} (λ = {r['lambda_max']}) "
                   f"| {series_cell(r, 'handmax')} (λ = {r['hand_lambda_max']}) "
                   f"| {ratio_cell(b)} | {hand_target(b)} |")
    return out


def tuners_retimed_table():
    """The tuners at QoS_ratio 0.8 over approx-bench's evaluator, the λ grid
    HEU and SMP searched, and T(HEU λ)/T(OMG λ) from the sweep and re-timed
    side by side."""
    out = ["| example | λ step | QoS bound | HEU λ / runs | SMP λ / runs | OMG fastest λ / max "
           "feasible λ / runs | T(HEU λ)/T(OMG λ), sweep | re-timed side by side |",
           "|---|---|---|---|---|---|---|---|"]
    runs = []
    for r in run_rows():
        heu, smp, omg = r["heu"], r["smp"], r["omg"]
        runs.append(heu["runs"])
        sweep = time_at(heu["trace"], heu["lambda"]) / time_at(omg["trace"], omg["lambda"])
        q = r.get("heu_omg_retimed")
        retimed = "same λ" if q is None else f"{ratio_cell(q)}, {q['rounds']} rounds"
        # The grid HEU and SMP searched: every λ before approx-bench measured it.
        out.append(f"| {r['example']} | {r.get('lambda_step', 1)} | {r['qos_bound']:.3g} "
                   f"| {heu['lambda']} / {heu['runs']} "
                   f"| {smp['lambda']} / {smp['runs']} | {omg['lambda']} / {omg['max_feasible']} "
                   f"/ {omg['runs']} | {tuner_ratio(sweep)} | {retimed} |")
    out += ["", f"HEU runs on average: {sum(runs) / len(runs):.2f} over {len(runs)} examples."]
    return out


def doc_blocks():
    blocks = {"examples-baselines": baselines_table(), "examples-hand": hand_table(),
              "examples-tuners": tuners_retimed_table()}
    return {name: "\n".join(lines) + "\n" for name, lines in blocks.items()}


def main():
    docblocks.main("examples-report.py", "report", os.path.join(ROOT, "docs", "benchmarks.md"),
                   doc_blocks, f"bench/results/{BASELINES_RUN}", names_from_page=True)


if __name__ == "__main__":
    main()
