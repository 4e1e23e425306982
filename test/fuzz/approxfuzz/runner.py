"""Running a case: materialize its sandbox, run its processes (one after
another, or concurrently) under the limits, snapshot the sandbox before and
after, and judge everything with the oracles (Result)."""

import dataclasses
import os
import tempfile
import time
from pathlib import Path

from .model import Case
from .oracles import check_roundtrip, judge_files, judge_outputs, judge_proc, judge_spec
from .processes import MAX_ARG_CHARS, finish, resolve_tool, start, tool_env
from .sandbox import diff_snapshots, materialize, rmtree, snapshot, subst


@dataclasses.dataclass
class Result:
    case: Case
    procs: list
    findings: list
    secs: float
    checks_run: dict
    root: str = ""
    diff: list = dataclasses.field(default_factory=list)


def run_case(case, cfg):
    t_case = time.monotonic()
    root = Path(tempfile.mkdtemp(prefix=f"c{case.index}-", dir=cfg.scratch))
    checks_run = {}
    try:
        try:
            materialize(case, root, cfg)
        except OSError:
            return Result(case, [], [], time.monotonic() - t_case, {"setup-error": 1}, str(root))
        allowed_dir = None
        if case.outdir is not None:
            od = subst(case.outdir, root)
            od = os.path.join(subst("@CWD@", root), od) if not od.startswith("/") else od
            real = os.path.realpath(od)
            if os.path.isdir(real) and (real + "/").startswith(str(root) + "/"):
                allowed_dir = os.path.relpath(real, root)
        before = snapshot(root)
        cwd = subst("@CWD@", root)
        procs, started = [], []
        deadline = time.monotonic() + cfg.timeout
        for k, inv in enumerate(case.invs):
            argv = [resolve_tool(cfg, inv.tool)] + [subst(a, root)[:MAX_ARG_CHARS] for a in inv.args]
            io_base = f"{cfg.scratch}/io-{case.index}-{k}"
            keep_out = 16 << 20 if "roundtrip" in case.checks else 1 << 20
            t0 = time.monotonic()
            h = start(argv, cwd, tool_env(cfg, inv.env), io_base, cfg)
            if case.concurrent:
                started.append((h, io_base, argv, t0, keep_out))
            else:
                procs.append(finish(*h, io_base, argv, t0, time.monotonic() + cfg.timeout, keep_out))
        for h, io_base, argv, t0, keep_out in started:
            procs.append(finish(*h, io_base, argv, t0, deadline, keep_out))
        after = snapshot(root)
        findings = []
        for inv, pr in zip(case.invs, procs):
            findings += judge_proc(inv.tool, pr, case, cfg, str(root), checks_run)
        diff = diff_snapshots(before, after)
        ok = [pr.rc == 0 and not pr.timed_out for pr in procs]
        # A run we killed, or that crashed, cannot clean up: report that, not its leftovers.
        died = any(f.kind in ("hang", "crash") for f in findings)
        findings += [f for f in judge_files(case, diff, allowed_dir, any(ok), root)
                     if not (died and f.kind in ("failure-left-files", "failure-removed-files"))]
        if any(ok) and case.expect_export and allowed_dir is not None:
            findings += judge_outputs(case, cfg, root, allowed_dir, diff, checks_run)
        if ok and all(ok) and "roundtrip" in case.checks and case.outdir is None:
            findings += check_roundtrip(case, cfg, procs[0], root, checks_run)
        if case.spec_mode and procs and procs[0].rc == 0 and not procs[0].timed_out:
            findings += judge_spec(case, cfg, root)
        findings = [dataclasses.replace(f, detail=f.detail.replace(str(root), "@ROOT@"))
                    for f in findings]
        return Result(case, procs, dedupe_in_case(findings), time.monotonic() - t_case,
                      checks_run, str(root), diff)
    finally:
        if not cfg.keep_sandboxes:
            rmtree(root)


def dedupe_in_case(findings):
    seen, out = set(), []
    for f in findings:
        key = (f.kind, f.tool, f.signature)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out
