"""The self-test (--self-test): every oracle fires on a synthetic misbehaving
tool (fake approx-opt, approx-tune and ptxas scripts), none fires on a
well-behaved one, the spec checker passes the seed manifests, and cases are
deterministic."""

import dataclasses
import json
import os
import sys
import tempfile
from pathlib import Path

from .cases import make_case
from .corpus import Corpus
from .model import Case, Inv
from .runner import run_case
from .sandbox import DECOY_FILE, rmtree
from .spec import spec_violations


FAKE_OPT = r'''#!PYTHON
import os, re, signal, sys, time
mode = os.environ.get("FAKE_MODE", "clean-ok")
args = " ".join(sys.argv[1:])
if len(sys.argv) == 4 and sys.argv[2:] == ["-o", "/dev/null"]:   # round-trip re-parse
    data = open(sys.argv[1]).read()
    if "BADIR" in data:
        print(f"{sys.argv[1]}:1:1: error: custom op 'BADIR' is unknown", file=sys.stderr); sys.exit(1)
    sys.exit(0)
out = (re.search(r"output-dir=(\S+)", args) or [None, "."])[1]
name = (re.search(r"name=(\w+)", args) or [None, "k"])[1]
def write_ok(ptx=".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry kern()\n{\n\tret;\n}\n", kernel="kern", man=None):
    open(f"{out}/{name}.ptx", "w").write(ptx)
    open(f"{out}/{name}.manifest.json", "w").write(man if man is not None else
        '{"format": "approx-manifest", "version": 3, "module": "%s", "ptx": "%s.ptx", "kernels": [{"name": "%s"}]}' % (name, name, kernel))
err = lambda *l: [print(x, file=sys.stderr) for x in l]
if mode == "segv": os.kill(os.getpid(), signal.SIGSEGV)
if mode == "llvm-error": err("LLVM ERROR: Symbol name with unsupported characters"); os.abort()
if mode == "terminate": err("terminate called after throwing an instance of 'std::bad_alloc'", "  what():  std::bad_alloc"); os.abort()
if mode == "assertion": err("approx-opt: X.cpp:1: void f(): Assertion `x && \"y\"' failed."); os.abort()
if mode == "asan": err("==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1"); sys.exit(1)
if mode == "hang": time.sleep(600)
if mode == "multi-error": err("in.mlir:1:1: error: one", "in.mlir:1:1: error: one"); sys.exit(1)
if mode == "dump": err("in.mlir:1:1: error: approx-export: bad", "in.mlir:1:1: note: see current operation: module {}"); sys.exit(1)
if mode == "oversized": err("in.mlir:1:1: error: approx-x: bad " + "x" * 5000); sys.exit(1)
if mode == "silent": sys.exit(1)
if mode == "odd-exit": err("in.mlir:1:1: error: bad"); sys.exit(3)
if mode == "control": err("in.mlir:1:1: error: bad name 'a\x1b[31mb'"); sys.exit(1)
if mode == "leave-files": open(f"{out}/{name}.ptx", "w").write("x"); err("error: approx-export: failed"); sys.exit(1)
if mode == "leave-tmp": write_ok(); open(f"{out}/{name}.ptx.tmp", "w").write("x"); sys.exit(0)
if mode == "write-outside": write_ok(); open(f"{out}/../{name}.ptx", "w").write("x"); sys.exit(0)
if mode == "follow-symlink": write_ok(); open(f"{out}/{name}.ptx.tmp", "w").write("x"); sys.exit(0)
if mode == "bad-ptx": write_ok(ptx="BADPTX\n.visible .entry kern()\n"); sys.exit(0)
if mode == "bad-json": write_ok(man="{bad"); sys.exit(0)
if mode == "mismatch": write_ok(kernel="other"); sys.exit(0)
if mode == "no-output": sys.exit(0)
if mode == "bad-ir": print("module { BADIR }"); sys.exit(0)
if mode == "fsize": signal.signal(signal.SIGXFSZ, signal.SIG_DFL); open(f"{out}/{name}.ptx", "w").write("x" * (3 << 20)); sys.exit(0)
if mode == "reject-list": write_ok(kernel="rejectme"); sys.exit(0)
if mode == "error-ok": err("in.mlir:2:4: error: approx-x: failed"); write_ok(); sys.exit(0)
if mode == "remove-fail": os.unlink(f"{out}/{name}.ptx.tmp"); err("in.mlir:1:1: error: approx-export: failed"); sys.exit(1)
if mode == "memory": b = bytearray(120 << 20); b[::4096] = b"x" * len(b[::4096]); err("in.mlir:1:1: error: x"); sys.exit(1)
if mode == "two-lines": err("cannot open input file", "second line"); sys.exit(1)
if mode == "two-places": err("in.mlir:1:1: error: 'x.y' op bad", "in.mlir:2:1: error: 'x.y' op bad"); sys.exit(1)
if mode == "echo-raw": err("in.mlir:1:1: error: unexpected character", "a\x1b[2Jb", "^"); sys.exit(1)
if mode == "echo-long": err("in.mlir:1:1: error: unexpected character", "b" * 6000, "^"); sys.exit(1)
if mode == "echo-cut": err("in.mlir:1:1: error: unexpected character", "a\\x1b[2J" + "b" * 2000 + "...[4000 more bytes]", "^"); sys.exit(1)
if mode == "annotation-ok": err("in.mlir:1:4: error: expected error \"x\" was not produced", "// expected-error {{x}}", "   ^"); write_ok(); sys.exit(0)
if mode == "clean-fail": err("in.mlir:1:1: error: approx-to-ptx: one clear line"); sys.exit(1)
if "--pass-pipeline" in args: print("module {\n}"); sys.exit(0)
write_ok(); sys.exit(0)
'''
FAKE_TUNE = r'''#!PYTHON
import os, sys
mode = os.environ.get("FAKE_MODE", "clean")
m = sys.argv[1] if len(sys.argv) > 1 else ""
if "rejectme" in (open(m).read() if os.path.isfile(m) else ""):
    print("approx-tune: error: manifest: kernel 'rejectme' is not allowed", file=sys.stderr); sys.exit(2)
if mode == "multi-line": print("approx-tune: bad thing\nmore detail", file=sys.stderr); sys.exit(1)
if mode == "control": print("kernel a\x1b[2Jb"); sys.exit(0)
if mode == "accept-all": print("module m"); sys.exit(0)
if mode == "segv": os.kill(os.getpid(), 11)
if mode == "silent": sys.exit(2)
if mode == "clean-reject": print("approx-tune: manifest: something wrong\n(see approx-tune --help)", file=sys.stderr); sys.exit(1)
print("module m"); sys.exit(0)
'''
FAKE_PTXAS = "#!/bin/sh\nfor a; do f=$a; done\nfor a; do case $a in *.ptx) f=$a;; esac; done\n" \
    "if grep -q BADPTX \"$f\"; then echo \"ptxas $f, line 1; fatal   : Parsing error near 'BADPTX': syntax error\" >&2; exit 255; fi\nexit 0\n"


def self_test(cfg):
    tmp = Path(tempfile.mkdtemp(prefix="approx-fuzz-selftest-"))
    try:
        for name, text in (("approx-opt", FAKE_OPT), ("approx-tune", FAKE_TUNE)):
            (tmp / name).write_text(text.replace("#!PYTHON", "#!" + sys.executable))
            os.chmod(tmp / name, 0o755)
        (tmp / "ptxas").write_text(FAKE_PTXAS)
        os.chmod(tmp / "ptxas", 0o755)
        scfg = dataclasses.replace(cfg, opt=str(tmp / "approx-opt"), tune=str(tmp / "approx-tune"),
                                   ptxas=str(tmp / "ptxas"), timeout=2.0, fsize_mb=1, rss_mb=80,
                                   scratch=str(tmp), findings=None, keep_sandboxes=False)
        opt_run = ["@IN@/input.mlir", "--approx-to-ptx=output-dir=@OUT@ name=k", "-o", "/dev/null"]

        def opt_case(mode, **kw):
            c = Case(index=0, target="opt-options", family=f"selftest:{mode}",
                     files={"@IN@/input.mlir": b"module {}\n"}, outdir="@OUT@",
                     expect_export=True, checks={"ptxas", "tune-list"})
            c.invs = [Inv("opt", list(opt_run), {"FAKE_MODE": mode})]
            for k, v in kw.items():
                setattr(c, k, v)
            return c

        def tune_case(mode, doc=None, args=("--list",), spec=True):
            c = Case(index=0, target="tune-manifest", family=f"selftest:{mode}")
            d = doc or {"format": "approx-manifest", "version": 3, "module": "m",
                        "ptx": "m.ptx", "kernels": []}
            c.files = {"@IN@/m.manifest.json": json.dumps(d).encode(), "@IN@/m.ptx": b"x"}
            c.invs = [Inv("tune", ["@IN@/m.manifest.json", *args], {"FAKE_MODE": mode})]
            c.spec_mode = spec
            return c

        plan = [
            ("crash: signal", opt_case("segv"), "crash", "SIGSEGV"),
            ("crash: LLVM ERROR", opt_case("llvm-error"), "crash", "LLVM ERROR"),
            ("crash: terminate", opt_case("terminate"), "crash", "uncaught std::bad_alloc"),
            ("crash: assertion", opt_case("assertion"), "crash", "assertion"),
            ("crash: AddressSanitizer", opt_case("asan"), "crash", "ASan"),
            ("crash: file size limit", opt_case("fsize"), "crash", "SIGXFSZ"),
            ("hang", opt_case("hang"), "hang", ""),
            ("approx-opt: two error: lines", opt_case("multi-error"), "multi-error", ""),
            ("approx-opt: module dump note", opt_case("dump"), "module-dump", "approx-export"),
            ("approx-opt: stderr > 4 KB", opt_case("oversized"), "oversized-error", ""),
            ("approx-opt: failure with empty stderr", opt_case("silent"), "silent-failure", ""),
            ("approx-opt: two lines, no error:", opt_case("two-lines"), "multi-line-error", ""),
            ("peak RSS over the limit", opt_case("memory"), "memory-blowup", ""),
            ("approx-opt: undocumented exit status", opt_case("odd-exit"), "odd-exit", "exit 3"),
            ("raw control characters", opt_case("control"), "raw-control-chars", ""),
            ("raw control characters, echoed line", opt_case("echo-raw"), "raw-control-chars", "echoed"),
            ("echoed source line over 2 KiB", opt_case("echo-long"), "oversized-error", "echoed"),
            ("failure leaves files", opt_case("leave-files"), "failure-left-files", "*.ptx"),
            ("failure removes a planted file", opt_case("remove-fail", setup=[
                ("write", "@OUT@/k.ptx.tmp", "planted")]), "failure-removed-files", ""),
            ("approx-opt: error: printed, exit 0", opt_case("error-ok"), "error-on-success", ""),
            ("success leaves *.tmp", opt_case("leave-tmp"), "success-left-tmp", ""),
            ("write outside output dir", opt_case("write-outside"), "write-outside-output-dir", ""),
            ("planted symlink followed", opt_case("follow-symlink", setup=[
                ("symlink", "@ROOT@/" + DECOY_FILE, "@OUT@/k.ptx.tmp")]),
             "write-outside-output-dir", "decoy"),
            ("exit 0, ptxas rejects PTX", opt_case("bad-ptx"), "ptxas-rejects-output", "Parsing error"),
            ("exit 0, manifest not JSON", opt_case("bad-json"), "invalid-manifest-json", ""),
            ("manifest/PTX mismatch", opt_case("mismatch"), "manifest-ptx-mismatch", ""),
            ("exit 0, nothing written", opt_case("no-output"), "success-without-output", ""),
            ("runtime rejects compiler output", opt_case("reject-list"),
             "runtime-rejects-compiler-output", "rejectme"),
            ("output IR does not re-parse", opt_case("bad-ir", outdir=None, expect_export=False,
                                                     checks={"roundtrip"}, invs=[Inv("opt", [
                                                         "@IN@/input.mlir", "--pass-pipeline=x"],
                                                         {"FAKE_MODE": "bad-ir"})]),
             "ir-roundtrip", "BADIR"),
            ("approx-tune: two stderr lines", tune_case("multi-line"), "multi-line-error", ""),
            ("approx-tune: empty stderr", tune_case("silent"), "silent-failure", ""),
            ("approx-tune: raw control characters", tune_case("control"), "raw-control-chars", "stdout"),
            ("approx-tune: crash", tune_case("segv"), "crash", "SIGSEGV"),
            ("spec: version 4294967297 accepted", tune_case("accept-all", {
                "format": "approx-manifest", "version": 4294967297, "module": "m", "ptx": "m.ptx",
                "kernels": []}), "spec-accepts-invalid", "version-unsupported"),
            ("spec: ../ path accepted", tune_case("accept-all", {
                "format": "approx-manifest", "version": 3, "module": "m",
                "ptx": "../../etc/passwd", "kernels": []}), "spec-accepts-invalid", "outside"),
            ("spec: hostile kernel name accepted", tune_case("accept-all", {
                "format": "approx-manifest", "version": 3, "module": "m", "ptx": "m.ptx",
                "kernels": [{"name": "a\x1bb"}]}), "spec-accepts-invalid", "kernel-name"),
            ("spec: float integer accepted", tune_case("accept-all", {
                "format": "approx-manifest", "version": 3, "module": "m", "ptx": "m.ptx",
                "knobs": [{"name": "k", "min": 0, "max": 64.5, "default": 0}],
                "kernels": []}), "spec-accepts-invalid", "integer-field"),
        ]
        clean = [
            ("clean approx-opt failure", opt_case("clean-fail")),
            ("clean approx-opt success", opt_case("clean-ok")),
            ("upstream: errors at two places", opt_case("two-places")),
            ("echoed source line, escaped and cut", opt_case("echo-cut")),
            ("upstream: `expected-*` comment, exit 0", opt_case("annotation-ok")),
            ("clean pass output", opt_case("clean-ok", outdir=None, expect_export=False,
                                           checks={"roundtrip"}, invs=[Inv("opt", [
                                               "@IN@/input.mlir", "--pass-pipeline=x"])])),
            ("clean approx-tune refusal", tune_case("clean-reject")),
            ("clean approx-tune --list", tune_case("clean")),
            ("planted symlink, clean tool", opt_case("clean-ok", setup=[
                ("symlink", "@ROOT@/" + DECOY_FILE, "@OUT@/other.tmp")])),
        ]
        failed = 0
        print(f"{'oracle':45} result")
        for label, case, kind, needle in plan:
            r = run_case(case, scfg)
            hit = [f for f in r.findings if f.kind == kind and needle in (f.signature + f.detail)]
            ok = bool(hit)
            failed += not ok
            print(f"{label:45} {'fires' if ok else 'DID NOT FIRE'}"
                  + ("" if ok else f"  (got: {[(f.kind, f.signature) for f in r.findings]})"))
        for label, case in clean:
            r = run_case(case, scfg)
            ok = not r.findings
            failed += not ok
            print(f"{label:45} {'quiet' if ok else 'FALSE ALARM'}"
                  + ("" if ok else f"  (got: {[(f.kind, f.signature) for f in r.findings]})"))
        # The spec checker passes the seeds and the documented example.
        corpus = Corpus(cfg)
        bad = [(n, spec_violations(d, [], cfg.versions)) for n, d, _ in corpus.manifests]
        bad = [(n, v) for n, v in bad if v]
        print(f"{'spec checker passes the seed manifests':45} "
              f"{'yes' if not bad else 'NO: ' + str(bad)[:200]} ({len(corpus.manifests)} seeds)")
        failed += bool(bad)
        # Determinism: the same (seed, index) gives the same case.
        if corpus.fast:
            a = make_case(cfg, corpus, 7).describe()
            b = make_case(cfg, corpus, 7).describe()
            print(f"{'cases are deterministic':45} {'yes' if a == b else 'NO'}")
            failed += a != b
        print(f"self-test: {'PASS' if not failed else f'FAIL ({failed})'}")
        return 1 if failed else 0
    finally:
        rmtree(tmp)
