"""The case generator's entry: the targets with their generators and weights
(TARGETS), and make_case, which builds case `index` from (--seed, index)
alone (negative indices are the pinned cases)."""

import random
import sys

from .cases_cc import gen_cc_source
from .cases_opt import gen_opt_files, gen_opt_ir, gen_opt_options
from .cases_pinned import pinned_cases
from .cases_tune import gen_tune_args, gen_tune_manifest
from .model import Case
from .random_draws import weighted


TARGETS = {
    "opt-ir": (gen_opt_ir, 40), "opt-options": (gen_opt_options, 20),
    "opt-files": (gen_opt_files, 12), "tune-manifest": (gen_tune_manifest, 18),
    "tune-args": (gen_tune_args, 10), "cc-source": (gen_cc_source, 8),
}


def make_case(cfg, corpus, index, target=None):
    if index < 0:
        cases = pinned_cases(corpus, bool(cfg.cc))
        if -index > len(cases):
            sys.exit(f"approx-fuzz: there are {len(cases)} pinned cases (-1 .. -{len(cases)})")
        return cases[-index - 1]
    rng = random.Random(f"approx-fuzz:{cfg.seed}:{index}")
    if target is None:
        target = weighted(rng, [(t, TARGETS[t][1]) for t in cfg.targets])
    case = Case(index=index, target=target, family=target)
    TARGETS[target][0](case, rng, corpus, cfg)
    for inv in case.invs:
        if inv.tool == "tune":
            inv.env.setdefault("CUDA_VISIBLE_DEVICES", "")
    return case
