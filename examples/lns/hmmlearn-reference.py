#!/usr/bin/env python3
"""hmmlearn-reference.py - check lns-examples' HMM reference against hmmlearn.

lns-examples --write-model DIR writes the synthetic HMM (A.csv, B.csv,
pi.csv: probabilities, %.17g), its sequences (obs.csv, one per line) and the
natural-log likelihood of each sequence from its CPU reference (loglik.csv:
the scaled forward algorithm in long double). This script scores every
sequence with hmmlearn's CategoricalHMM, an independent implementation (its
log-space forward in C, double), and compares: the GPU examples' errors are
measured against that reference, so it must be right to far better than
they are (f32: 1e-5 relative at best).

Exit 0 when max |hmmlearn - C++| / |C++| <= 1e-6 over all sequences, 1 when
above, 2 on bad input. Needs numpy and hmmlearn (pip install hmmlearn); CPU
only.

  examples/lns/hmmlearn-reference.py DIR [--tolerance 1e-6] [--implementation log|scaling]
"""
import argparse
import json
import os
import sys

import numpy as np


def die(msg, code=2):
    print(f"hmmlearn-reference: {msg}", file=sys.stderr)
    sys.exit(code)


def load(d, name, ndmin=2):
    path = os.path.join(d, name)
    try:
        return np.loadtxt(path, delimiter=",", ndmin=ndmin, dtype=np.float64)
    except (OSError, ValueError) as e:
        die(f"cannot read {path}: {e}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", help="directory written by lns-examples --write-model")
    ap.add_argument("--tolerance", type=float, default=1e-6,
                    help="largest accepted |difference| / |log-likelihood|")
    ap.add_argument("--implementation", choices=["log", "scaling"], default="log",
                    help="hmmlearn's forward implementation")
    args = ap.parse_args()
    try:
        from hmmlearn import hmm
        import hmmlearn
    except ImportError:
        die("hmmlearn is not installed (pip install hmmlearn)")

    a, b, pi = load(args.dir, "A.csv"), load(args.dir, "B.csv"), load(args.dir, "pi.csv")[0]
    obs = load(args.dir, "obs.csv")
    ref = load(args.dir, "loglik.csv", ndmin=1)
    n, m = b.shape
    if a.shape != (n, n) or pi.shape != (n,) or len(ref) != len(obs):
        die(f"inconsistent shapes: A {a.shape}, B {b.shape}, pi {pi.shape}, "
            f"obs {obs.shape}, loglik {ref.shape}")
    if not np.array_equal(obs, np.round(obs)) or obs.min() < 0 or obs.max() >= m:
        die(f"observations must be integers in [0, {m})")
    meta = {}
    try:
        with open(os.path.join(args.dir, "meta.json")) as f:
            meta = json.load(f)
    except (OSError, ValueError):
        pass

    model = hmm.CategoricalHMM(n_components=n, n_features=m,
                               implementation=args.implementation,
                               init_params="", params="")
    model.startprob_, model.transmat_, model.emissionprob_ = pi, a, b
    seqs = obs.astype(np.int64)
    ours = np.array([model.score(s.reshape(-1, 1)) for s in seqs])

    diff = np.abs(ours - ref)
    rel = diff / np.abs(ref)
    worst = int(np.argmax(rel))
    print(f"model: N={n} states, M={m} symbols, {len(seqs)} sequences of "
          f"{seqs.shape[1]} steps, seed {meta.get('seed', '?')}; "
          f"hmmlearn {hmmlearn.__version__} ({args.implementation})")
    print(f"log-likelihood (nats): mean {ref.mean():.6f}, range "
          f"[{ref.min():.6f}, {ref.max():.6f}]")
    print(f"hmmlearn vs lns-examples CPU reference: max abs diff {diff.max():.3e} nats, "
          f"mean {diff.mean():.3e}, max rel {rel.max():.3e} (sequence {worst}: "
          f"{ours[worst]:.17g} vs {ref[worst]:.17g})")
    if not rel.max() <= args.tolerance:
        print(f"hmmlearn-reference: FAIL: max relative difference {rel.max():.3e} "
              f"above {args.tolerance:g}", file=sys.stderr)
        return 1
    print(f"OK: within {args.tolerance:g} relative")
    return 0


if __name__ == "__main__":
    sys.exit(main())
