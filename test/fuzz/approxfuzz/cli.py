"""The command line and campaign driver: options (Config), finding the tools
in the build, deriving the corpus, then --self-test, --case runs, or a
campaign (pinned cases first, then cases by index; serially or with --jobs
workers) ending in the summary."""

import argparse
import concurrent.futures
import dataclasses
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from .cases import TARGETS, make_case
from .cases_pinned import pinned_cases
from .corpus import REPO, Corpus
from .findings import Store
from .minimizer import minimize
from .processes import run_plain
from .report import summary
from .runner import run_case
from .sandbox import rmtree
from .selftest import self_test

DESCRIPTION = "Mutation fuzzer for approx-opt and approx-tune; see docs/robustness.md."


@dataclasses.dataclass
class Config:
    seed: int = 1
    build: str = "build"
    bin_rel: str = "bin/"
    opt: str = ""
    tune: str = ""
    cc: str = ""
    ptxas: str = ""
    libdevice: str = ""
    symbolizer: str = ""
    corpus: list = dataclasses.field(default_factory=list)
    findings: object = None
    scratch: str = ""
    timeout: float = 20.0
    mem_mb: int = 2048
    rss_mb: int = 1024
    fsize_mb: int = 512
    check_rate: float = 0.25
    targets: list = dataclasses.field(default_factory=list)
    versions: tuple = (2, 3)
    tune_dry_run: bool = False
    keep_sandboxes: bool = False
    minimize_runs: int = 150
    minimize_seconds: float = 60.0


def find_tool(*cands):
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return ""


def parse_args(argv):
    ap = argparse.ArgumentParser(description=DESCRIPTION)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="index of the first case")
    ap.add_argument("--seconds", type=float, default=0,
                    help="stop starting cases after this many seconds (0: no limit)")
    ap.add_argument("--build", default=os.environ.get("APPROX_BUILD", str(REPO / "build")),
                    help="build dir holding bin/approx-opt and bin/approx-tune (env APPROX_BUILD)")
    ap.add_argument("--corpus", nargs="+", default=[str(REPO / "examples"), str(REPO / "test")])
    ap.add_argument("--findings", default="approx-fuzz-findings")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per run before it is a hang")
    ap.add_argument("--mem-mb", type=int, default=2048, help="address-space limit per run")
    ap.add_argument("--rss-mb", type=int, default=1024,
                    help="peak resident memory above which a run is a memory blow-up")
    ap.add_argument("--check-rate", type=float, default=0.25,
                    help="share of successful compiles also checked by ptxas / approx-tune --list")
    ap.add_argument("--versions", default="2,3", help="manifest versions a reader may accept")
    ap.add_argument("--ptxas", default="")
    ap.add_argument("--libdevice", default="")
    ap.add_argument("--case", type=int, action="append",
                    help="run only this case index (repeatable); prints it in full")
    ap.add_argument("--pinned", action="store_true",
                    help="first run the fixed regression cases (negative indices)")
    ap.add_argument("--minimize", action="store_true", help="shrink each new finding's reproducer")
    ap.add_argument("--minimize-runs", type=int, default=150, help="runs allowed per minimization")
    ap.add_argument("--minimize-seconds", type=float, default=60, help="time allowed per minimization")
    ap.add_argument("--no-skip-hangs", action="store_true",
                    help="keep running cases of a family that already hung")
    ap.add_argument("--keep-sandboxes", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--json-summary", default="")
    ap.add_argument("--append", action="store_true",
                    help="add to the findings already in --findings (a campaign run in parts)")
    ap.add_argument("--quiet", action="store_true")
    return ap.parse_args(argv)


def build_config(a):
    build = Path(a.build)
    bindir = build / "bin" if (build / "bin").is_dir() else build
    cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    cfg = Config(
        seed=a.seed, build=str(build.resolve()), bin_rel="bin/" if bindir != build else "", opt=str((bindir / "approx-opt").resolve()),
        tune=str((bindir / "approx-tune").resolve()),
        cc=str((bindir / "approx-cc").resolve()) if (bindir / "approx-cc").is_file() else "",
        ptxas=find_tool(a.ptxas, f"{cuda}/bin/ptxas", shutil.which("ptxas") or ""),
        libdevice=a.libdevice or next((p for p in (f"{cuda}/nvvm/libdevice/libdevice.10.bc",)
                                       if os.path.isfile(p)), ""),
        symbolizer=find_tool(shutil.which("llvm-symbolizer") or "",
                             "/usr/lib/llvm-22/bin/llvm-symbolizer"),
        corpus=a.corpus, findings=a.findings or None, timeout=a.timeout, mem_mb=a.mem_mb,
        rss_mb=a.rss_mb,
        check_rate=a.check_rate, targets=[t for t in a.targets.split(",") if t],
        versions=tuple(int(v) for v in a.versions.split(",")), keep_sandboxes=a.keep_sandboxes,
        minimize_runs=a.minimize_runs, minimize_seconds=a.minimize_seconds)
    if not cfg.cc and "cc-source" in cfg.targets:
        cfg.targets.remove("cc-source")  # approx-cc not built (no clang-22)
    for t in cfg.targets:
        if t not in TARGETS:
            sys.exit(f"approx-fuzz: unknown target '{t}' (known: {', '.join(TARGETS)})")
    return cfg


def worker_run(args):
    cfg, corpus, index, skip = args
    case = make_case(cfg, corpus, index)
    if case.family in skip:
        return None, case.family, index
    return run_case(case, cfg), case.family, index


def main(argv=None):
    a = parse_args(argv if argv is not None else sys.argv[1:])
    cfg = build_config(a)
    scratch = tempfile.mkdtemp(prefix="approx-fuzz-")
    cfg.scratch = scratch
    try:
        if a.self_test:
            return self_test(cfg)
        for tool in (cfg.opt, cfg.tune):
            if not os.access(tool, os.X_OK):
                print(f"approx-fuzz: {tool} not found or not executable (--build / APPROX_BUILD)",
                      file=sys.stderr)
                return 2
        help_text = run_plain([cfg.tune, "--help"], cfg, 30).stdout.decode("utf-8", "replace")
        cfg.tune_dry_run = "--dry-run" in help_text
        corpus = Corpus(cfg)
        corpus.derive(cfg, scratch)
        if not corpus.fast:
            print("approx-fuzz: no usable MLIR seeds under --corpus", file=sys.stderr)
            return 2
        say = (lambda *x: None) if a.quiet else print
        say(f"approx-fuzz: seed {cfg.seed}, build {cfg.build}, {len(corpus.mlir)} MLIR seeds, "
            f"{len(corpus.binaries)} gpu.binary seeds, {len(corpus.manifests)} manifests "
            f"({len(corpus.tune_ok)} accepted by approx-tune --list)")
        say(f"  ptxas: {cfg.ptxas or 'not found (PTX not checked)'}; approx-tune --dry-run: "
            f"{'yes' if cfg.tune_dry_run else 'not supported by this build'}; timeout {cfg.timeout:g} s")
        for n in corpus.notes:
            say(f"  note: {n}")
        store = Store(cfg)
        if a.append and cfg.findings:
            store.load(os.path.join(cfg.findings, "summary.json"))
        if a.case:
            for idx in a.case:
                case = make_case(cfg, corpus, idx)
                r = run_case(case, cfg)
                if not a.quiet:
                    print(json.dumps(case.describe(), indent=2, ensure_ascii=True))
                for pr in r.procs:
                    print(f"exit {pr.rc}{' (timeout)' if pr.timed_out else ''} in {pr.secs:.2f} s")
                    print(pr.err[:4000].decode("utf-8", "replace"))
                for f in r.findings:
                    print(f"FINDING {f.kind}: {f.signature}\n  {f.detail[:300]}")
                for s in store.add(r):
                    if a.minimize and s["finding"].kind != "hang":
                        print(f"[{s['id']}] minimized with {minimize(store, s, cfg)} runs")
            return 1 if store.any() else 0
        t0 = time.monotonic()
        stats = {"runs": 0, "by_target": {}, "skipped_hang_family": 0, "checks": {},
                 "stopped_early": False, "exit0": 0}
        hang_families = set()
        pinned = [c.index for c in pinned_cases(corpus, bool(cfg.cc))] if a.pinned else []
        indices = iter(pinned + list(range(a.first, a.first + a.runs)))

        def record(r, family, idx):
            done = stats["runs"] + stats["skipped_hang_family"] + 1
            if done % 100 == 0:
                say(f"  ... {done} cases, {time.monotonic() - t0:.0f} s, {len(store.order)} signatures")
            if idx >= 0:
                stats["next"] = idx + 1
            if r is None:
                stats["skipped_hang_family"] += 1
                return
            stats["runs"] += 1
            t = r.case.target
            stats["by_target"][t] = stats["by_target"].get(t, 0) + 1
            stats["exit0"] += all(p.rc == 0 for p in r.procs)
            for k, v in r.checks_run.items():
                stats["checks"][k] = stats["checks"].get(k, 0) + v
            for f in r.findings:
                if f.kind == "hang" and not a.no_skip_hangs:
                    hang_families.add(family)
            for s in store.add(r):
                f = s["finding"]
                say(f"  [{s['id']}] case {idx} {f.kind}: {f.signature[:110]}")
                if a.minimize and f.kind != "hang":
                    n = minimize(store, s, cfg)
                    say(f"      minimized with {n} runs")

        if a.jobs <= 1:
            for idx in indices:
                if a.seconds and time.monotonic() - t0 > a.seconds:
                    stats["stopped_early"] = True
                    break
                record(*worker_run((cfg, corpus, idx, hang_families)))
        else:
            with concurrent.futures.ProcessPoolExecutor(max_workers=a.jobs) as ex:
                pending = set()
                for idx in indices:
                    while len(pending) >= a.jobs * 2:
                        done, pending = concurrent.futures.wait(
                            pending, return_when=concurrent.futures.FIRST_COMPLETED)
                        for d in done:
                            record(*d.result())
                    if a.seconds and time.monotonic() - t0 > a.seconds:
                        stats["stopped_early"] = True
                        break
                    pending.add(ex.submit(worker_run, (cfg, corpus, idx, frozenset(hang_families))))
                for d in concurrent.futures.as_completed(pending):
                    record(*d.result())
        stats["seconds"] = round(time.monotonic() - t0, 1)
        summary(store, stats, cfg, a, say)
        return 1 if store.any() else 0
    finally:
        rmtree(scratch)
