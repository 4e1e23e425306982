#!/usr/bin/env python3
# approx-fuzz.py - mutation fuzzer for approx-opt and approx-tune (stdlib only).
#
# Feeds both tools bad input of every kind the project promises to survive
# (malformed IR, hostile names, bad options, odd files, hostile manifests and
# command lines) and checks the promise: a one-line message naming the cause,
# a non-zero exit, nothing half-written, no crash, no hang, no write outside
# the output directory. Every case is generated from (--seed, case index)
# alone, runs in a fresh sandbox directory, and is judged by the oracles
# described in docs/robustness.md. Findings are deduplicated by signature and
# saved as self-contained reproducers (files + repro.sh + output).
#
#   approx-fuzz.py --build build --seed 1 --runs 500 --findings out/findings
#   approx-fuzz.py --self-test            # proves every oracle can fire
#   approx-fuzz.py --seed 1 --case 137    # re-runs one case, verbosely
"""Mutation fuzzer for approx-opt and approx-tune; see docs/robustness.md.

A thin entry point: the fuzzer is the package approxfuzz/ next to this file
(approxfuzz/__init__.py lists its modules).
"""

import sys
from pathlib import Path

# The package sits next to this file; also when it is run with -P or loaded
# by path (importlib's spec_from_file_location).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from approxfuzz.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
