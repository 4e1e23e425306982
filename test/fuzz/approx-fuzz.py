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
"""Mutation fuzzer for approx-opt and approx-tune; see docs/robustness.md."""

import argparse
import concurrent.futures
import dataclasses
import hashlib
import json
import os
import random
import re
import resource
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# ----------------------------------------------------------------------------
# Sandbox layout. Every case runs in a fresh ROOT. The output directory sits
# five levels down, so names with up to four `..` still land inside ROOT where
# the snapshot sees them; generated paths never leave ROOT (the harness may run
# as root, and must never aim a hostile path at the real file system).
# ----------------------------------------------------------------------------
LAYOUT = {
    "@OUT@": "a/b/c/d/out",
    "@IN@": "a/b/c/d/in",
    "@CWD@": "a/b/c/d/cwd",
    "@DECOY@": "decoy",
    "@TOOLS@": "tools",
}
DECOY_FILE = "decoy/victim.txt"
DECOY_TEXT = b"decoy: a tool run must never change this file\n"
MAX_DOTDOT = 4


def subst_manifest(ph, data, root):
    """Manifests may name sandbox paths (absolute `ptx`): placeholders in them too."""
    if ph.endswith(".manifest.json") and b"@" in data:
        return subst(data.decode("utf-8", "surrogateescape"), root).encode("utf-8", "surrogateescape")
    return data


def subst(s, root):
    """Replaces the layout placeholders in `s` by paths under `root`."""
    for ph, rel in LAYOUT.items():
        s = s.replace(ph, f"{root}/{rel}")
    return s.replace("@ROOT@", str(root))


# ----------------------------------------------------------------------------
# Value pools.
# ----------------------------------------------------------------------------
HOSTILE_NAMES = [
    "a-b", "a/b", "a%b", "a@b", "a b", 'a"b', "a'b", "a.b", "1abc", "",
    "\u03bb", "a\u202eb", "a\x1b[31mb", "a\nb", "a\tb", "a\rb", "$a", "_a",
    "%a", "a$b", "llvm.x", "ret", "reg", ".entry", "a{b", "a}b", "a,b", "a=b",
    "a;b", "a\\b", "a\x01b", "a\x7fb", "\u00e9\U0001F600", "-", "--help",
    "a" * 1024, "a" * 1025, "n" * 300, "z" * 100000, "con", "lambda",
    "box_muller_gpu", "..", "../x", "a:b", "a*b",
]
BOUNDARY_INTS = [
    "0", "-1", "1", "2", "3", "4", "63", "64", "65", "127", "128", "255",
    "1024", "65535", "65536", "2147483647", "2147483648", "-2147483648",
    "-2147483649", "4294967295", "4294967296", "4294967297",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "18446744073709551615", "18446744073709551616",
    "340282366920938463463374607431768211456",
]
BOUNDARY_NUMS = BOUNDARY_INTS + ["1.0e309", "-0.0", "1.5", "0x7FC00000",
                                 "0xFFFFFFFFFFFFFFFF", "nan", "1e-400"]
TYPES = [
    "f16", "bf16", "f32", "f64", "index", "i1", "i8", "i32", "i64",
    "vector<4xf32>", "vector<2x2xf16>", "vector<3xf64>", "vector<[4]xf32>",
    "vector<1048576xf32>", "tf32", "f8E4M3FN", "complex<f32>", "none",
    "memref<?xf32>", "tensor<4xf32>", "!llvm.ptr", "i4096",
]
TYPE_RE = re.compile(
    r"(?:(?<=[^\w.])|(?<=[\d?]x)|^)(bf16|f16|f32|f64|index|i1|i8|i16|i32|i64)"
    r"(?![\w.])")
NUM_RE = re.compile(r"(?<![\w%@#.$])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])")
SYMDEF_RE = re.compile(
    r"(?:gpu\.func|func\.func(?:\s+private)?|gpu\.module|approx\.knob|"
    r"llvm\.func|memref\.global(?:\s+\"?\w+\"?)?|gpu\.binary)\s+@([\w$.]+)")
APPROX_OP_RE = re.compile(
    r"^(\s*)(%[\w.$-]+) = approx\.(\w+) ([^\n]*?)knob\(@([\w$.]+)\)([^\n]*?):"
    r" ([^\n]+)$")
KNOB_DECL_RE = re.compile(r"^(\s*)approx\.knob @([\w$.]+) (range\([^)]*\)[^\n]*)$")
ATTRS = [
    "approx.sites = [42]", "approx.sites = 42", "approx.sites = [{}]",
    'approx.sites = [{op = 7, type = 1}]', 'approx.sites = ["x"]',
    "approx.sites = [[1, 2]]", "approx.sites = [{kernels = 1}]",
    "approx.slot = 7", 'approx.slot = "bogus"', "approx.slot = unit",
    "approx.manifest = 1", "approx.manifest = {kernels = 3}",
    "approx.manifest = {kernels = {knobs = [1], kernels = [2], sites = 3}}",
    "approx.manifest = []", "gpu.container_module",
]
SPECIAL_CHARS = list('{}()[]<>@%#"\'\\:;,=!^$') + ["\x00", "\xff", "\x1b",
                                                    "\u2028", "\n"]

# approx-to-ptx options: benign values, and values that must be refused or
# survived. Values with placeholders get their sandbox files from ODD_FILES.
OPT_BENIGN = {
    "slot": ["hw", "virtual", "software"],
    "f64-demote": ["true", "false"],
    "range-reduction": ["true", "false"],
    "newton-steps": ["0", "1", "2", "3"],
    "fmad": ["true", "false"],
    "functions": ["sin,exp", "log", "div,rcp", "sqrt,rsqrt", "pow,cos"],
    "correct": ["exp,log", "exp2", "log2,exp", "exp,exp2,log,log2"],
    "knob": ["lambda", "tune", "k_1", "$k"],
    "knob-max": ["64", "32", "1"],
    "O": ["0", "1", "2", "3"],
    "chip": ["sm_90", "sm_80"],
    "unroll-versioned": ["0", "2", "4", "64"],
    "unroll-ptxas": ["true", "false"],
    "hoist-loads": ["true", "false"],
}
OPT_BAD = {
    "knob": HOSTILE_NAMES,
    "name": HOSTILE_NAMES + ["../../x", "../../../../x", "@ROOT@/abs", ".",
                             "x.ptx", ".hidden", "sub/x", "@DECOY@/victim"],
    "kernels": ["nope", ",,", "box_muller_gpu,box_muller_gpu", "a-b", "",
                ",".join(["k"] * 5000), "\x1b[2J", "*"],
    "functions": ["tan", "SIN", "", ",", "sin,sin", "sin,,exp", "all", "x" * 5000],
    "correct": ["sin", "EXP", "", ",", "exp,,log", "pow", "x" * 5000],
    "knob-max": ["-1", "0", "abc", "1e3", "0x10", "", "1.5"] + BOUNDARY_INTS,
    "newton-steps": ["-1", "4", "4294967296", "abc", "", "3.0"],
    "slot": ["HW", "", "lane", "hw,virtual", "\x1b[1m"],
    "chip": ["sm_20", "sm_1", "sm_999", "gfx90a", "", "sm_90 ", "sm_90a",
             "sm_100", "sm_52", "native", "-O3", "sm_" + "9" * 40],
    "O": ["-1", "4", "99999999999", "x", ""],
    "libdevice": ["@ROOT@/missing.bc", "@IN@", "/dev/null", "/dev/zero",
                  "@IN@/empty.bc", "@IN@/text.bc", "@IN@/trunc.bc",
                  "@IN@/fifo.bc", "@IN@/sparse.bc", "@IN@/loop.bc"],
    "output-dir": ["@ROOT@/missing", "@IN@/file.txt", "@OUT@/../outlink",
                   "@OUT@/../dangling", "@OUT@/../filelink", "", "/dev/null",
                   "@OUT@/" + "d" * 300, "@IN@/fifo.bc"],
    "cubin": ["true", "yes", "2"],
    "export": ["false", "maybe", ""],
    "f64-demote": ["maybe", "", "2"],
    "bare-ptr": ["true", "maybe"],
    "unroll-versioned": ["1", "65", "-1", "4294967296", "x", ""],
    "unroll-ptxas": ["maybe", "2"],
    "hoist-loads": ["maybe", ""],
    "fmad": ["no", "-1"],
    "ptxas": ["@ROOT@/missing-ptxas", "@IN@", "@TOOLS@/ptxas-false",
              "@TOOLS@/ptxas-true", "@TOOLS@/ptxas-junk", "@TOOLS@/ptxas-loud",
              "@TOOLS@/ptxas-segv", "@DECOY@/victim.txt", "/bin/false"],
}
PTXAS_FAKES = {
    "ptxas-false": "#!/bin/sh\necho 'ptxas fatal   : fake failure' >&2\nexit 1\n",
    "ptxas-true": "#!/bin/sh\nexit 0\n",
    "ptxas-junk": ('#!/bin/sh\nwhile [ $# -gt 0 ]; do\n  if [ "$1" = -o ]; then'
                   ' shift; printf junk > "$1"; fi\n  shift\ndone\nexit 0\n'),
    "ptxas-loud": ("#!/bin/sh\ni=0\nwhile [ $i -lt 2000 ]; do echo 'ptxas "
                   "warning: noise noise noise noise noise' >&2; i=$((i+1)); "
                   "done\nexit 1\n"),
    "ptxas-segv": "#!/bin/sh\nkill -SEGV $$\n",
}
SPARSE_SIZE = 1 << 40  # 1 TiB, allocated lazily: costs nothing unless read


def odd_file_setup(value):
    """Sandbox setup actions that make an odd-file option value exist."""
    acts = []
    if "@IN@/empty.bc" in value:
        acts.append(("write", "@IN@/empty.bc", ""))
    if "@IN@/text.bc" in value:
        acts.append(("write", "@IN@/text.bc", "this is not bitcode\n"))
    if "@IN@/trunc.bc" in value:
        acts.append(("trunc-libdevice", "@IN@/trunc.bc"))
    if "@IN@/fifo.bc" in value:
        acts.append(("fifo", "@IN@/fifo.bc"))
    if "@IN@/sparse.bc" in value:
        acts.append(("sparse", "@IN@/sparse.bc", SPARSE_SIZE))
    if "@IN@/loop.bc" in value:
        acts.append(("symlink", "@IN@/loop.bc", "@IN@/loop.bc"))
    if "@IN@/file.txt" in value:
        acts.append(("write", "@IN@/file.txt", "a file, not a directory\n"))
    if "outlink" in value:
        acts.append(("symlink", "@OUT@", "@OUT@/../outlink"))
    if "dangling" in value:
        acts.append(("symlink", "@ROOT@/nowhere", "@OUT@/../dangling"))
    if "filelink" in value:
        acts.append(("symlink", "@ROOT@/" + DECOY_FILE, "@OUT@/../filelink"))
    for fake, text in PTXAS_FAKES.items():
        if f"@TOOLS@/{fake}" in value:
            acts.append(("script", f"@TOOLS@/{fake}", text))
    return acts


# ----------------------------------------------------------------------------
# Small helpers.
# ----------------------------------------------------------------------------
def norm(s):
    """Message -> signature text: quoted parts, numbers and paths blanked."""
    s = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", "?", s)
    s = re.sub(r"'[^'\n]*'", "'…'", s)
    s = re.sub(r'"[^"\n]*"', '"…"', s)
    s = re.sub(r"(/[\w.@+-]+)+/?", "PATH", s)
    s = re.sub(r"0x[0-9a-fA-F]+", "H", s)
    s = re.sub(r"\d+", "N", s)
    return re.sub(r"\s+", " ", s).strip()[:160]


def shq(s):
    """Shell-quotes `s`; non-printable characters become $'\\xNN'."""
    if all(32 <= ord(c) < 127 for c in s):
        return shlex.quote(s)
    out = []
    for b in s.encode("utf-8", "surrogateescape"):
        if 32 <= b < 127 and b not in (0x27, 0x5C):
            out.append(chr(b))
        else:
            out.append(f"\\x{b:02x}")
    return "$'" + "".join(out) + "'"


def mlir_string(s, rng=None):
    """`s` as the body of an MLIR string literal (escapes as the lexer reads)."""
    out = []
    for ch in s:
        b = ch.encode("utf-8")
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        elif ord(ch) >= 128 and rng is not None and rng.random() < 0.5:
            out.append(ch)
        else:
            out.extend(f"\\{x:02X}" for x in b)
    return "".join(out)


def geometric(rng, p=0.5, cap=6):
    n = 1
    while n < cap and rng.random() < p:
        n += 1
    return n


def strict_json(data):
    """Parses bytes as RFC 8259 JSON (no NaN/Infinity); raises ValueError."""
    def bad_constant(c):
        raise ValueError(f"non-standard constant {c}")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    text = data.decode("utf-8")  # UnicodeDecodeError is a ValueError
    return json.loads(text, parse_constant=bad_constant)


PTX_IDENT = re.compile(r"^(?:[A-Za-z][A-Za-z0-9_$]*|[_$%][A-Za-z0-9_$]+)$")
INT64 = (-(1 << 63), (1 << 63) - 1)
KNOB_TYPES = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}


def is_int(v):
    return type(v) is int and INT64[0] <= v <= INT64[1]


VALUE_ID = re.compile(r"^[A-Za-z0-9_.:+-]{1,256}$")


def space_violations(doc, knobs):
    """Version 3's knob space (docs/manifest.schema.json): every knob has a
    domain of a known kind, one value per index with unique ids, and the
    configuration gives every build knob one of its values."""
    out = []
    ids = {}
    for i, kn in enumerate(knobs):
        if not isinstance(kn, dict):
            continue
        d = kn.get("domain")
        if not isinstance(d, dict):
            out.append(("knob-domain-missing", f"knobs[{i}]"))
            continue
        kind = d.get("kind")
        if kind not in ("ordinal", "categorical", "storage"):
            out.append(("knob-domain-kind-unknown", repr(kind)[:40]))
            continue
        if kind == "ordinal":
            continue
        vals = d.get("values")
        lo, hi = kn.get("min"), kn.get("max")
        if not isinstance(vals, list):
            out.append(("knob-domain-values-not-array", f"knobs[{i}]"))
            continue
        if is_int(lo) and is_int(hi) and lo <= hi and len(vals) != hi - lo + 1:
            out.append(("knob-domain-values-count", f"knobs[{i}]: {len(vals)} for [{lo},{hi}]"))
        seen = [v.get("id") for v in vals if isinstance(v, dict)]
        if len(seen) != len(vals) or any(not isinstance(x, str) or not VALUE_ID.match(x) for x in seen):
            out.append(("knob-value-id-invalid", f"knobs[{i}]"))
        elif len(set(seen)) != len(seen):
            out.append(("knob-value-id-twice", f"knobs[{i}]"))
        if isinstance(kn.get("name"), str):
            ids[kn["name"]] = (kn.get("kind"), set(x for x in seen if isinstance(x, str)))
    config = doc.get("configuration", {})
    if not isinstance(config, dict):
        out.append(("configuration-not-object", repr(config)[:40]))
        config = {}
    for name, v in config.items():
        kind, values = ids.get(name, (None, set()))
        if kind != "build" or v not in values:
            out.append(("configuration-outside-space", f"{name}={v!r}"[:80]))
    for name, (kind, _) in ids.items():
        if kind == "build" and name not in config:
            out.append(("configuration-missing-build-knob", name))
    return out


def spec_violations(doc, argv, versions):
    """Rules of docs/manifest.md a reader must enforce; [(rule, detail)].

    Only rules that are plain in the spec and shared by the versions the
    runtime may read (`versions`); a manifest breaking any of them must be
    refused by `approx-tune --list` / `--dry-run`.
    """
    out = []
    if not isinstance(doc, dict):
        return [("top-level-not-object", type(doc).__name__)]
    if doc.get("format") != "approx-manifest":
        out.append(("format-not-approx-manifest", repr(doc.get("format"))[:60]))
    v = doc.get("version", None)
    if "version" not in doc:
        out.append(("version-missing", ""))
    elif not is_int(v):
        out.append(("version-not-int64", repr(v)[:60]))
    elif v not in versions:
        out.append(("version-unsupported", repr(v)))
    if not isinstance(doc.get("module"), str):
        out.append(("module-missing-or-not-string", repr(doc.get("module"))[:60]))
    if not isinstance(doc.get("kernels"), list):
        out.append(("kernels-missing-or-not-array", ""))
    paths = [k for k in ("ptx", "cubin") if k in doc]
    if not any(isinstance(doc.get(k), str) for k in paths):
        out.append(("no-ptx-or-cubin-string", ""))
    allow = "--allow-outside-paths" in argv
    for k in paths:
        p = doc[k]
        if not isinstance(p, str):
            out.append((f"{k}-not-string", repr(p)[:60]))
        elif not allow and (p.startswith("/") or ".." in p.split("/")):
            out.append((f"{k}-path-outside-manifest-dir", p[:80]))

    def ints(where, obj, keys):
        for key in keys:
            if isinstance(obj, dict) and key in obj and not is_int(obj[key]):
                out.append(("integer-field-invalid", f"{where}.{key}={obj[key]!r}"[:90]))

    knobs = doc.get("knobs", [])
    if isinstance(knobs, list):
        for i, kn in enumerate(knobs):
            if not isinstance(kn, dict):
                continue
            name = kn.get("name")
            if isinstance(name, str) and (not PTX_IDENT.match(name) or len(name) > 1024):
                out.append(("knob-name-not-ptx-identifier", repr(name)[:60]))
            ints(f"knobs[{i}]", kn, ("min", "max", "default"))
            lo, hi, de = kn.get("min"), kn.get("max"), kn.get("default")
            if all(is_int(x) for x in (lo, hi, de)):
                if lo > hi:
                    out.append(("knob-min-above-max", f"{lo}>{hi}"))
                elif not lo <= de <= hi:
                    out.append(("knob-default-outside-range", f"{de} not in [{lo},{hi}]"))
                bits = KNOB_TYPES.get(kn.get("type"))
                if bits and any(not -(1 << (bits - 1)) <= x < (1 << (bits - 1))
                                for x in (lo, hi, de)):
                    out.append(("knob-value-does-not-fit-type",
                                f"{kn.get('type')} [{lo},{hi}] default {de}"))
    if doc.get("version") == 3 and isinstance(knobs, list):
        out += space_violations(doc, knobs)
    kernels = doc.get("kernels", [])
    nsites = len(doc["sites"]) if isinstance(doc.get("sites"), list) else None
    if isinstance(kernels, list):
        for i, k in enumerate(kernels):
            if not isinstance(k, dict):
                continue
            name = k.get("name")
            if isinstance(name, str) and (not PTX_IDENT.match(name) or len(name) > 1024):
                out.append(("kernel-name-not-ptx-identifier", repr(name)[:60]))
            for j, a in enumerate(k.get("args", []) if isinstance(k.get("args"), list) else []):
                ints(f"kernels[{i}].args[{j}]", a,
                     ("first_param", "num_params", "rank", "address_space"))
                if isinstance(a, dict) and isinstance(a.get("shape"), list):
                    for d in a["shape"]:
                        if not is_int(d) or d < -1:
                            out.append(("shape-entry-invalid", repr(d)[:40]))
            for j, p in enumerate(k.get("params", []) if isinstance(k.get("params"), list) else []):
                ints(f"kernels[{i}].params[{j}]", p, ("arg", "size"))
            sites = k.get("sites")
            if isinstance(sites, list) and nsites is not None:
                for s in sites:
                    if not is_int(s) or not 0 <= s < nsites:
                        out.append(("kernel-site-index-invalid", repr(s)[:40]))
    return out


# ----------------------------------------------------------------------------
# Cases.
# ----------------------------------------------------------------------------
@dataclasses.dataclass
class Inv:
    """One process to run: tool is 'opt', 'tune' or an absolute path."""
    tool: str
    args: list
    env: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class Case:
    index: int
    target: str
    family: str
    notes: list = dataclasses.field(default_factory=list)
    files: dict = dataclasses.field(default_factory=dict)   # ph-path -> bytes
    setup: list = dataclasses.field(default_factory=list)   # actions
    invs: list = dataclasses.field(default_factory=list)
    concurrent: bool = False
    outdir: object = None      # ph-path of the dir the tool may write; None: no writes
    allowed_files: list = dataclasses.field(default_factory=list)  # tune outputs
    expect_export: bool = False
    checks: set = dataclasses.field(default_factory=set)
    given_ptx: bool = False    # PTX came from the input (approx-export alone)
    spec_mode: bool = False    # tune: judge acceptance against the spec

    def describe(self):
        return {"index": self.index, "target": self.target, "family": self.family,
                "notes": self.notes, "setup": [list(map(str, a)) for a in self.setup],
                "invocations": [{"tool": i.tool, "args": i.args, "env": i.env}
                                for i in self.invs],
                "concurrent": self.concurrent, "outdir": self.outdir,
                "checks": sorted(self.checks)}


@dataclasses.dataclass
class Seed:
    name: str
    text: str


class Corpus:
    """Seeds: MLIR files split at `// -----`, manifests, derived seeds."""

    def __init__(self, cfg):
        self.mlir, self.fast, self.binaries = [], [], []
        self.manifests = []       # (name, doc dict, ptx bytes)
        self.tune_ok = []         # manifests today's approx-tune --list accepts
        self.notes = []
        for d in cfg.corpus:
            for p in sorted(Path(d).rglob("*.mlir")):
                text = p.read_text(errors="replace")
                rel = os.path.relpath(p, REPO) if str(p).startswith(str(REPO)) else str(p)
                # expected-* comments make MLIR 22's driver verify diagnostics
                # (even without -verify-diagnostics); mut_misc adds one on purpose.
                text = re.sub(r"(?m)^.*//\s*expected-(error|warning|note|remark).*\n", "", text)
                for i, chunk in enumerate(re.split(r"^// -{5}.*$", text, flags=re.M)):
                    if re.search(r"^\s*[^/\s]", chunk, re.M):
                        self.mlir.append(Seed(f"{rel}#{i}", chunk))
        fast_names = ("box_muller.mlir#0", "black_scholes.mlir#0", "iterated_map.mlir#0",
                      "coulomb_f64.mlir#0", "all-functions.mlir#0", "static-shapes.mlir#0")
        self.fast = [s for s in self.mlir if s.name.endswith(fast_names)]
        if not self.fast:
            self.fast = [s for s in self.mlir if "kernel" in s.text and "gpu.module" in s.text][:6]
        self.mlir.append(Seed("synthetic:k-knobs", k_knob_module(2)))
        self.cuda = []
        for d in cfg.corpus:
            for p in sorted(Path(d).rglob("*.cu")):
                if "gpu" in p.parts:  # host programs, not device code
                    continue
                rel = os.path.relpath(p, REPO) if str(p).startswith(str(REPO)) else str(p)
                self.cuda.append(Seed(rel, p.read_text(errors="replace")))
        for d in cfg.corpus:
            for p in sorted(Path(d).rglob("*.manifest.json")):
                # Deliberately invalid manifests (the corpus tools' own test
                # inputs) are bad seeds: their breakage is the point.
                if p.name.startswith("broken"):
                    continue
                try:
                    doc = strict_json(p.read_bytes())
                except ValueError:
                    continue
                ptx = p.parent / doc.get("ptx", "") if isinstance(doc.get("ptx"), str) else None
                data = ptx.read_bytes() if ptx and ptx.is_file() else b"// no ptx\n"
                self.manifests.append((str(p.name), doc, data))
        spec = REPO / "docs" / "manifest.md"
        if spec.is_file():
            m = re.search(r"```json\n(.*?)```", spec.read_text(), re.S)
            if m:
                try:
                    doc = json.loads(m.group(1))
                except ValueError:
                    doc = None
                if isinstance(doc, dict):
                    # The example abbreviates "sites"; keep the kernel's indices in range.
                    n = len(doc.get("sites", []))
                    for k in doc.get("kernels", []):
                        if isinstance(k.get("sites"), list) and any(i >= n for i in k["sites"]):
                            self.notes.append("docs/manifest.md example: kernel sites "
                                              f"{k['sites']} index past the {n} site(s) listed; "
                                              "trimmed for the seed")
                            k["sites"] = [i for i in k["sites"] if i < n]
                    self.manifests.append(("docs/manifest.md example", doc, b"// doc\n"))

    def derive(self, cfg, scratch):
        """Runs today's approx-opt on the fast seeds for gpu.binary modules,
        manifests and PTX (seeds for approx-export and approx-tune)."""
        d = Path(scratch) / "derived"
        d.mkdir(parents=True, exist_ok=True)
        for s in self.fast:
            stem = re.sub(r"\W", "_", s.name.split("/")[-1].split(".")[0])
            src = d / f"{stem}.mlir"
            src.write_text(s.text)
            r = run_plain([cfg.opt, str(src), "--approx-to-ptx=export=false",
                           "-o", str(d / f"{stem}.bin.mlir")], cfg, 120)
            if r.returncode == 0:
                self.binaries.append(Seed(f"derived:{stem}.bin", (d / f"{stem}.bin.mlir").read_text()))
            r = run_plain([cfg.opt, str(src), f"--approx-to-ptx=output-dir={d} name={stem}",
                           "-o", "/dev/null"], cfg, 120)
            man = d / f"{stem}.manifest.json"
            if r.returncode == 0 and man.is_file():
                try:
                    self.manifests.append((f"derived:{stem}", strict_json(man.read_bytes()),
                                           (d / f"{stem}.ptx").read_bytes()))
                except ValueError:
                    self.notes.append(f"derived manifest {man.name} is not valid JSON")
            else:
                self.notes.append(f"could not derive seeds from {s.name}")
        # Seeds the validator must pass unmutated; seeds today's runtime reads.
        kept = []
        for name, doc, ptx in self.manifests:
            bad = spec_violations(doc, [], cfg.versions)
            if bad and not name.startswith("docs/"):
                self.notes.append(f"seed manifest {name} breaks the spec checker "
                                  f"({bad[0][0]}); dropped")
                continue
            kept.append((name, doc, ptx))
            mpath = d / "check.manifest.json"
            mpath.write_text(json.dumps(doc))
            if isinstance(doc.get("ptx"), str) and "/" not in doc["ptx"]:
                (d / doc["ptx"]).write_bytes(ptx)
            r = run_plain([cfg.tune, str(mpath), "--list"], cfg, 30)
            if r.returncode == 0:
                self.tune_ok.append((name, doc, ptx))
        self.manifests = kept
        if not self.tune_ok:
            self.notes.append("approx-tune --list accepts none of the seed manifests: "
                              "tune-args cases start from a rejected manifest")
            self.tune_ok = self.manifests[:]


def k_knob_module(k, ops=("exp", "sin", "cos", "log", "sqrt", "rsqrt")):
    """A loop with k tunable ops, each on its own knob: 2^k versions."""
    lines = ["module attributes {gpu.container_module} {", "  gpu.module @kk {"]
    lines += [f"    approx.knob @k{i} range(0, 64) default(0)" for i in range(k)]
    lines += ["    gpu.func @kern(%a: memref<?xf32>, %n: index) kernel {",
              "      %c0 = arith.constant 0 : index",
              "      %c1 = arith.constant 1 : index",
              "      scf.for %i = %c0 to %n step %c1 {",
              "        %x = memref.load %a[%i] : memref<?xf32>"]
    prev = "%x"
    for i in range(k):
        lines.append(f"        %y{i} = approx.{ops[i % len(ops)]} {prev} knob(@k{i}) : f32")
        prev = f"%y{i}"
    lines += [f"        memref.store {prev}, %a[%i] : memref<?xf32>", "      }",
              "      gpu.return", "    }", "  }", "}"]
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------
# MLIR mutations: each takes (rng, lines, ctx) and returns a note or None.
# ----------------------------------------------------------------------------
def _pick_line(rng, lines, pred=lambda l: True):
    idx = [i for i, l in enumerate(lines) if pred(l)]
    return rng.choice(idx) if idx else None


def mut_delete(rng, lines, ctx):
    i = _pick_line(rng, lines, lambda l: l.strip())
    if i is None:
        return None
    del lines[i]
    return f"delete line {i + 1}"


def mut_duplicate(rng, lines, ctx):
    i = _pick_line(rng, lines, lambda l: l.strip())
    if i is None:
        return None
    lines.insert(i, lines[i])
    return f"duplicate line {i + 1}"


def mut_swap(rng, lines, ctx):
    if len(lines) < 2:
        return None
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return f"swap lines {i + 1},{j + 1}"


def mut_move(rng, lines, ctx):
    if len(lines) < 2:
        return None
    i = rng.randrange(len(lines))
    l = lines.pop(i)
    j = rng.randrange(len(lines) + 1)
    lines.insert(j, l)
    return f"move line {i + 1} to {j + 1}"


def mut_number(rng, lines, ctx):
    i = _pick_line(rng, lines, lambda l: NUM_RE.search(l) and not l.lstrip().startswith("//"))
    if i is None:
        return None
    ms = list(NUM_RE.finditer(lines[i]))
    m = rng.choice(ms)
    v = rng.choice(BOUNDARY_NUMS)
    lines[i] = lines[i][:m.start()] + v + lines[i][m.end():]
    return f"line {i + 1}: number {m.group()} -> {v}"


def mut_type(rng, lines, ctx):
    new = rng.choice(TYPES)
    if rng.random() < 0.5:
        old = rng.choice(["f32", "f64", "index", "i32", "i64", "f16"])
        pat = re.compile(TYPE_RE.pattern.replace(
            "(bf16|f16|f32|f64|index|i1|i8|i16|i32|i64)", f"({old})"))
        n = 0
        for k, l in enumerate(lines):
            if not l.lstrip().startswith("//"):
                lines[k], c = pat.subn(new, l)
                n += c
        return f"every {old} -> {new} ({n}x)" if n else None
    i = _pick_line(rng, lines, lambda l: TYPE_RE.search(l) and not l.lstrip().startswith("//"))
    if i is None:
        return None
    ms = list(TYPE_RE.finditer(lines[i]))
    m = rng.choice(ms)
    lines[i] = lines[i][:m.start(1)] + new + lines[i][m.end(1):]
    return f"line {i + 1}: type {m.group(1)} -> {new}"


def mut_rename_symbol(rng, lines, ctx):
    text = "\n".join(lines)
    names = sorted(set(SYMDEF_RE.findall(text)))
    if not names:
        return None
    old = rng.choice(names)
    new = rng.choice(HOSTILE_NAMES)
    quoted = f'@"{mlir_string(new, rng)}"'
    if rng.random() < 0.15:
        quoted = "@" + new.replace("\n", " ")  # raw: the parser must refuse it
    pat = re.compile(r"@" + re.escape(old) + r"(?![\w$.])")
    for k, l in enumerate(lines):
        lines[k] = pat.sub(lambda m: quoted, l)
    ctx["hostile"] = True
    return f"rename @{old} -> {quoted[:60]!r}"


def mut_string_literal(rng, lines, ctx):
    i = _pick_line(rng, lines, lambda l: '"' in l and not l.lstrip().startswith("//"))
    if i is None:
        return None
    ms = list(re.finditer(r'"(?:[^"\\]|\\.)*"', lines[i]))
    if not ms:
        return None
    m = rng.choice(ms)
    new = rng.choice(HOSTILE_NAMES + ["../../x", "/abs/x", "ptr", "memref", "f128",
                                      "param", "texture_2d", "global", "variant"])
    lines[i] = lines[i][:m.start()] + '"' + mlir_string(new, rng) + '"' + lines[i][m.end():]
    ctx["hostile"] = True
    return f"line {i + 1}: string {m.group()[:30]!r} -> {new[:30]!r}"


def mut_attr(rng, lines, ctx):
    attr = rng.choice(ATTRS)
    cands = [i for i, l in enumerate(lines)
             if re.match(r"\s*(gpu\.module @|module\b)", l)]
    if not cands:
        lines.insert(0, f"module attributes {{{attr}}} {{")
        lines.append("}")
        return f"wrap in module with {attr}"
    i = rng.choice(cands)
    l = lines[i]
    if "attributes {" in l:
        lines[i] = l.replace("attributes {", f"attributes {{{attr}, ", 1)
    else:
        lines[i] = re.sub(r"\{\s*$", f"attributes {{{attr}}} {{", l, count=1)
    return f"line {i + 1}: add {attr}"


def _body_ranges(lines):
    """(start, end) line ranges inside function bodies, brace-balanced."""
    out = []
    for i, l in enumerate(lines):
        if re.search(r"\b(gpu|func)\.func\b.*\{\s*$", l):
            depth = 0
            for j in range(i + 1, len(lines)):
                depth += lines[j].count("{") - lines[j].count("}")
                if depth < 0:
                    out.append((i + 1, j))
                    break
    return out


def _balanced_span(rng, lines, lo, hi):
    for _ in range(10):
        a = rng.randrange(lo, hi) if hi > lo else lo
        b = rng.randrange(a, hi + 1)
        depth, ok = 0, True
        for l in lines[a:b]:
            depth += l.count("{") - l.count("}")
            if depth < 0:
                ok = False
        if ok and depth == 0 and b > a and not any("return" in l for l in lines[a:b]):
            return a, b
    return None


def mut_nest(rng, lines, ctx):
    ranges = _body_ranges(lines)
    if not ranges:
        return None
    lo, hi = rng.choice(ranges)
    span = _balanced_span(rng, lines, lo, hi)
    if not span:
        return None
    a, b = span
    u = ctx.setdefault("uniq", [0])
    u[0] += 1
    n = u[0]
    kind = rng.choice(["for", "if", "region", "deep"])
    if kind == "for":
        pre = [f"%fzc0_{n} = arith.constant 0 : index", f"%fzc1_{n} = arith.constant 1 : index",
               f"scf.for %fzi_{n} = %fzc0_{n} to %fzc1_{n} step %fzc1_{n} {{"]
        post = ["}"]
    elif kind == "if":
        pre = [f"%fzt_{n} = arith.constant true", f"scf.if %fzt_{n} {{"]
        post = ["}"]
    else:
        depth = rng.choice([2, 16, 200, 2000]) if kind == "deep" else 1
        pre = ["scf.execute_region {"] * depth
        post = ["scf.yield", "}"] * depth
        post = [x for pair in zip(["scf.yield"] * depth, ["}"] * depth) for x in pair]
    lines[b:b] = post
    lines[a:a] = pre
    return f"nest lines {a + 1}-{b} in {kind}" + (f" x{len(pre)}" if kind == "deep" else "")


def mut_grow_k(rng, lines, ctx):
    ops = [i for i, l in enumerate(lines) if APPROX_OP_RE.match(l)]
    decls = [i for i, l in enumerate(lines) if KNOB_DECL_RE.match(l)]
    if not ops or not decls:
        return None
    i = rng.choice(ops)
    ind, res, op, pre, knob, post, ty = APPROX_OP_RE.match(lines[i]).groups()
    m = rng.choice([1, 1, 2, 3, 4, 6, 8, 11])
    d = decls[0]
    dind, _, rng_txt = KNOB_DECL_RE.match(lines[d]).groups()
    u = ctx.setdefault("uniq", [0])
    u[0] += 1
    base = f"fzk{u[0]}_"
    lines[i] = lines[i].replace(res + " =", f"{res}_fz0 =", 1)
    prev, clones = f"{res}_fz0", []
    for c in range(m):
        out = res if c == m - 1 else f"{res}_fz{c + 1}"
        clones.append(f"{ind}{out} = approx.exp {prev} knob(@{base}{c}) : {ty}")
        prev = out
    lines[i + 1:i + 1] = clones
    lines[d + 1:d + 1] = [f"{dind}approx.knob @{base}{c} {rng_txt}" for c in range(m)]
    ctx["k_grown"] = ctx.get("k_grown", 1) + m
    return f"line {i + 1}: {m} more knobs chained after {res}"


def mut_splice(rng, lines, ctx):
    other = rng.choice(ctx["seeds"]).text.splitlines()
    if not other:
        return None
    a = rng.randrange(len(other))
    b = min(len(other), a + rng.randint(1, 8))
    j = rng.randrange(len(lines) + 1)
    lines[j:j] = other[a:b]
    return f"splice {b - a} lines at {j + 1}"


def mut_token(rng, lines, ctx):
    i = _pick_line(rng, lines, lambda l: l.strip())
    if i is None:
        return None
    l = lines[i]
    kind = rng.choice(["char", "del-token", "dup-token", "insert"])
    if kind == "char" and l:
        p = rng.randrange(len(l))
        c = rng.choice(SPECIAL_CHARS)
        lines[i] = l[:p] + c + l[p + 1:]
        return f"line {i + 1}: char {p} -> {c!r}"
    toks = l.split(" ")
    if len(toks) < 2:
        return None
    t = rng.randrange(len(toks))
    if kind == "del-token":
        del toks[t]
    elif kind == "dup-token":
        toks.insert(t, toks[t])
    else:
        toks.insert(t, rng.choice(["{", "}", "(", ")", "<", ">", ":", "=", "%x", "@x",
                                   "^bb0:", "#x", "!x", "loc(#loc)", "{-#", "#-}"]))
    lines[i] = " ".join(toks)
    return f"line {i + 1}: token {kind}"


def mut_truncate(rng, lines, ctx):
    text = "\n".join(lines)
    if len(text) < 2:
        return None
    p = rng.randrange(len(text))
    lines[:] = text[:p].split("\n")
    return f"truncate at byte {p}"


def mut_dup_module(rng, lines, ctx):
    i = _pick_line(rng, lines, lambda l: re.match(r"\s*gpu\.module @", l))
    if i is None:
        return None
    depth, j = 0, i
    for j in range(i, len(lines)):
        depth += lines[j].count("{") - lines[j].count("}")
        if depth <= 0 and j > i:
            break
    block = lines[i:j + 1]
    if rng.random() < 0.5:
        block = [re.sub(r"gpu\.module @([\w$.]+)", r"gpu.module @\1_2", block[0], 1)] + block[1:]
        note = "renamed"
    else:
        note = "same name"
    lines[j + 1:j + 1] = block
    return f"duplicate gpu.module at line {i + 1} ({note})"


def mut_misc(rng, lines, ctx):
    kind = rng.choice(["container", "kernel", "long-comment", "huge-constant", "loc",
                       "annotation"])
    if kind == "annotation":
        i = rng.randrange(len(lines) + 1)
        lines.insert(i, "// expected-error @+1 {{fuzz}}")
        return f"line {i + 1}: an expected-error comment"
    text = "\n".join(lines)
    if kind == "container" and "gpu.container_module" in text:
        lines[:] = text.replace("gpu.container_module", "", 1).replace("attributes {}", "").split("\n")
        return "drop gpu.container_module"
    if kind == "kernel":
        i = _pick_line(rng, lines, lambda l: "gpu.func" in l)
        if i is None:
            return None
        lines[i] = lines[i].replace(") kernel", ")", 1) if ") kernel" in lines[i] \
            else lines[i].replace(") {", ") kernel {", 1)
        return f"line {i + 1}: toggle kernel"
    if kind == "long-comment":
        lines.insert(rng.randrange(len(lines) + 1), "// " + "x" * rng.choice([70000, 2_000_000]))
        return "very long comment line"
    if kind == "huge-constant":
        i = _pick_line(rng, lines, lambda l: "arith.constant" in l and ": f32" in l)
        if i is None:
            return None
        ind = re.match(r"\s*", lines[i]).group()
        lines.insert(i, f"{ind}%fzbig = arith.constant dense<1.0> : vector<{rng.choice(['65536', '16777216'])}xf32>")
        return f"line {i + 1}: huge dense constant"
    i = _pick_line(rng, lines, lambda l: re.search(r"\S", l) and "{" not in l and "}" not in l)
    if i is None:
        return None
    lines[i] = lines[i] + f' loc("{mlir_string(rng.choice(HOSTILE_NAMES)[:200])}":{rng.choice(BOUNDARY_INTS)}:0)'
    return f"line {i + 1}: hostile loc"


def mut_bytes(rng, lines, ctx):
    i = _pick_line(rng, lines, lambda l: True)
    if i is None:
        return None
    # \udcXX are raw bytes 0xXX once encoded with surrogateescape: invalid UTF-8.
    junk = "".join(rng.choice(["\x00", "\x01", "\x1b", "\x7f", "\udcff", "\udcfe", "\udc80",
                               "\u2028", "\ufeff"]) for _ in range(rng.randint(1, 4)))
    p = rng.randrange(len(lines[i]) + 1)
    lines[i] = lines[i][:p] + junk + lines[i][p:]
    return f"line {i + 1}: insert raw bytes {junk!r}"


IR_MUTATIONS = [
    (mut_delete, 6), (mut_duplicate, 5), (mut_swap, 3), (mut_move, 2), (mut_number, 8),
    (mut_type, 8), (mut_rename_symbol, 8), (mut_string_literal, 4), (mut_attr, 6),
    (mut_nest, 5), (mut_grow_k, 3), (mut_splice, 3), (mut_token, 6), (mut_truncate, 2),
    (mut_dup_module, 2), (mut_misc, 3), (mut_bytes, 2),
]


def weighted(rng, items):
    total = sum(w for _, w in items)
    x = rng.uniform(0, total)
    for item, w in items:
        x -= w
        if x <= 0:
            return item
    return items[-1][0]


# ----------------------------------------------------------------------------
# Case generators.
# ----------------------------------------------------------------------------
def opt_string(opts, rng=None, quote_all=False):
    """key=value pairs as the pass-option parser reads them."""
    parts = []
    for k, v in opts.items():
        if v is None:
            parts.append(k)
            continue
        needs = any(c in v for c in " {}'\"") or v == ""
        style = rng.choice(["raw", "dq", "sq", "brace"]) if rng and needs else ("dq" if needs or quote_all else "raw")
        if style == "dq":
            v = '"' + v + '"'
        elif style == "sq":
            v = "'" + v + "'"
        elif style == "brace":
            v = "{" + v + "}"
        parts.append(f"{k}={v}")
    return " ".join(parts)


def add_checks(case, rng, cfg, force=False):
    if force or rng.random() < cfg.check_rate:
        case.checks |= {"ptxas", "tune-list", "roundtrip"}


def gen_opt_ir(case, rng, corpus, cfg):
    mode = weighted(rng, [("pipeline", 10), ("from-math", 3), ("warp-split", 3),
                          ("to-nvvm", 2), ("record", 2), ("chain", 2), ("lns-expand", 2), ("lns-lower", 2),
                          ("perforation-lower", 2), ("perforation-raise", 2),
                          ("perforation-output", 2), ("precision-variants", 2),
                          ("export", 3 if corpus.binaries else 0)])
    if mode == "export":
        seed = rng.choice(corpus.binaries)
    elif rng.random() < 0.05:
        k = rng.choice([1, 2, 3, 4, 5, 2, 3, 4, 6, 7, 8, 10, 12])
        seed = Seed(f"synthetic:k-knobs(k={k})", k_knob_module(k))
        case.notes.append(f"k-knob module, k={k}")
    else:
        seed = rng.choice(corpus.mlir)
    lines = seed.text.split("\n")
    ctx = {"seeds": corpus.mlir}
    case.notes.insert(0, f"seed {seed.name}")
    n = geometric(rng, 0.45, 5)
    for _ in range(n):
        for _try in range(4):
            mut = weighted(rng, IR_MUTATIONS)
            note = mut(rng, lines, ctx)
            if note:
                case.notes.append(note)
                break
    text = "\n".join(lines)
    case.files["@IN@/input.mlir"] = text.encode("utf-8", "surrogateescape")
    name = rng.choice(["k", "out", "fz"])
    if mode == "pipeline":
        opts = {"output-dir": "@OUT@", "name": name}
        for key in rng.sample(sorted(OPT_BENIGN), rng.randint(0, 3)):
            opts[key] = rng.choice(OPT_BENIGN[key])
        args = ["@IN@/input.mlir", f"--approx-to-ptx={opt_string(opts)}", "-o", "/dev/null"]
        case.outdir, case.expect_export = "@OUT@", True
        add_checks(case, rng, cfg, force=ctx.get("hostile") or ctx.get("k_grown"))
    else:
        pipes = {
            "from-math": "builtin.module(gpu.module(approx-from-math{%s}))",
            "warp-split": "builtin.module(gpu.module(approx-warp-split{%s}))",
            "to-nvvm": "builtin.module(gpu.module(convert-approx-to-nvvm))",
            "record": "builtin.module(approx-record-manifest{%s})",
            "chain": ("builtin.module(gpu.module(approx-from-math,approx-warp-split),"
                      "approx-record-manifest,gpu.module(convert-approx-to-nvvm))"),
            "export": "builtin.module(approx-export{%s})",
            "lns-expand": "builtin.module(approx-lns-expand)",
            "lns-lower": "builtin.module(gpu.module(approx-lns-lower))",
            "perforation-lower": "builtin.module(gpu.module(approx-perforation-lower))",
            "perforation-raise": ("builtin.module(gpu.module(approx-perforation-raise{%s},"
                                  "approx-perforation-lower))"),
            "perforation-output": ("builtin.module(gpu.module(approx-perforation-output{%s},"
                                   "approx-perforation-lower))"),
            "precision-variants": "builtin.module(gpu.module(approx-precision-variants{%s}))",
        }
        opts = {}
        if mode == "from-math":
            for key in rng.sample(["knob", "functions", "correct", "newton-steps",
                                   "f64-demote", "range-reduction", "knob-max"],
                                  rng.randint(0, 2)):
                opts[key] = rng.choice(OPT_BAD.get(key, []) + OPT_BENIGN.get(key, []))
        elif mode == "warp-split":
            opts["slot"] = rng.choice(OPT_BENIGN["slot"] + OPT_BAD["slot"][:2])
        elif mode == "perforation-raise":
            if rng.random() < 0.5:
                opts["schemes"] = rng.choice(["accurate", "accurate,rows1:nn",
                                              "stencil:linear,accurate", "rows0:nn",
                                              "center1", "accurate,accurate"])
            if rng.random() < 0.3:
                opts["block-shapes"] = rng.choice(["32x8,64x4", "16x16", "0x4", "32x8,32x8"])
        elif mode == "perforation-output":
            if rng.random() < 0.5:
                opts["schemes"] = rng.choice(["accurate", "accurate,rows1,center2",
                                              "cols3,accurate", "rows1:nn", "stencil:nn",
                                              "rows1,rows1", "center0"])
            if rng.random() < 0.2:
                opts["knob"] = rng.choice(["k2", "1bad", "perforation_output"])
        elif mode == "precision-variants":
            # Valid and broken configurations; most seeds' kernels have 1-3
            # memref arguments, so some counts fit and some do not.
            entries = ["keep", "f64", "f32", "f16", "bf16", "i32", "f12", ""]
            n_args = rng.randint(1, 4)
            configs = [":".join(rng.choice(entries[:5] if rng.random() < 0.8 else entries)
                                for _ in range(n_args))
                       for _ in range(rng.randint(1, 3))]
            if rng.random() < 0.1:
                configs.append(configs[0])
            if rng.random() < 0.3:
                # types= (every combination per kernel): valid lists, a
                # duplicate, a non-float, an empty entry; a small cap so
                # some kernels exceed it; sometimes with configs (refused).
                types = rng.choice(["f32", "f32,f16,bf16", "bf16,f16",
                                    "f16,f16", "f32,i32", "f32,,f16", "f64"])
                opts["types"] = types
                if rng.random() < 0.3:
                    opts["max-variants"] = str(rng.choice([1, 2, 8, 1024]))
                if rng.random() < 0.1:
                    opts["configs"] = ",".join(configs)
            else:
                opts["configs"] = ",".join(configs)
            if rng.random() < 0.2:
                opts["knob"] = rng.choice(["precision", "1bad", "p_2"])
        elif mode == "record" and rng.random() < 0.3:
            opts["bare-ptr"] = "true"
        elif mode == "export":
            opts = {"output-dir": "@OUT@", "name": name}
            case.outdir, case.expect_export, case.given_ptx = "@OUT@", True, True
        pipe = pipes[mode]
        if "%s" in pipe:
            pipe = pipe % opt_string(opts)
        args = ["@IN@/input.mlir", f"--pass-pipeline={pipe}"]
        if rng.random() < cfg.check_rate:
            case.checks.add("roundtrip")
    case.family = f"opt-ir:{mode}"
    case.invs.append(Inv("opt", args))


def gen_opt_options(case, rng, corpus, cfg):
    seed = rng.choice(corpus.fast)
    case.files["@IN@/input.mlir"] = seed.text.encode()
    case.notes.append(f"seed {seed.name}")
    name = rng.choice(["k", "out", "fz"])
    opts = {"output-dir": "@OUT@", "name": name}
    for key in rng.sample(sorted(OPT_BENIGN), rng.randint(0, 2)):
        opts[key] = rng.choice(OPT_BENIGN[key])
    keys = rng.sample(sorted(OPT_BAD), geometric(rng, 0.35, 3))
    if "ptxas" in keys and corpus.binaries and rng.random() < 0.7:
        # ptxas= belongs to approx-export: run it alone on a gpu.binary module.
        seed = rng.choice(corpus.binaries)
        case.files["@IN@/input.mlir"] = seed.text.encode()
        eopts = {"output-dir": "@OUT@", "name": name, "cubin": "true",
                 "ptxas": rng.choice(OPT_BAD["ptxas"])}
        case.setup += odd_file_setup(eopts["ptxas"])
        case.family = "opt-options:ptxas"
        case.notes.append(f"approx-export ptxas={eopts['ptxas']}")
        case.invs.append(Inv("opt", ["@IN@/input.mlir", "--pass-pipeline=builtin.module("
                                     f"approx-export{{{opt_string(eopts)}}})", "-o", "/dev/null"]))
        case.outdir, case.expect_export, case.given_ptx = "@OUT@", True, True
        return
    for key in keys:
        v = rng.choice(OPT_BAD[key])
        opts[key] = v
        case.setup += odd_file_setup(v)
        case.notes.append(f"{key}={v[:60]!r}" + (f" (len {len(v)})" if len(v) > 60 else ""))
    if "ptxas" in opts or "cubin" in opts:
        opts.setdefault("cubin", "true")
    case.family = "opt-options:" + keys[0]
    s = opt_string(opts, rng)
    if rng.random() < 0.12:
        s, note = option_syntax_mutation(rng, s)
        case.notes.append(note)
        case.family = "opt-options:syntax"
    if rng.random() < 0.25:
        args = ["@IN@/input.mlir", f"--pass-pipeline=builtin.module(approx-to-ptx{{{s}}})",
                "-o", "/dev/null"]
    else:
        args = ["@IN@/input.mlir", f"--approx-to-ptx={s}", "-o", "/dev/null"]
    od = opts.get("output-dir") if "output-dir=" in s else None
    case.outdir = od if od else "@CWD@"  # the pipeline's default is "."
    case.expect_export = "export" not in opts and od not in ("/dev/null",)
    add_checks(case, rng, cfg, force=bool({"knob", "name", "kernels", "chip"} & set(keys)))
    case.invs.append(Inv("opt", args))


def option_syntax_mutation(rng, s):
    kind = rng.choice(["unbalanced-dq", "unbalanced-brace", "dup-key", "trailing-eq",
                       "lone-eq", "spaces", "empty", "nul-ish"])
    if kind == "unbalanced-dq":
        return s + ' knob="abc', kind
    if kind == "unbalanced-brace":
        return s + " knob={abc", kind
    if kind == "dup-key":
        return s + " name=second name=third", kind
    if kind == "trailing-eq":
        return s + " knob=", kind
    if kind == "lone-eq":
        return s + " =x", kind
    if kind == "spaces":
        return "   " + s.replace(" ", "    ") + "   ", kind
    if kind == "empty":
        return "", kind
    return s + " knob=\\", kind


FILE_SCENARIOS = [
    ("symlink-tmp", 4), ("symlink-tmp-dangling", 3), ("symlink-final", 3),
    ("dir-at-final", 4), ("dir-at-tmp", 2), ("fifo-at-tmp", 1), ("fifo-at-final", 1),
    ("preexisting-then-fail", 3), ("readonly-out", 1), ("concurrent", 2),
    ("odd-input", 4),
]


def gen_opt_files(case, rng, corpus, cfg):
    seed = rng.choice(corpus.fast[:2] or corpus.fast)
    case.files["@IN@/input.mlir"] = seed.text.encode()
    case.notes.append(f"seed {seed.name}")
    name = rng.choice(["k", "fz"])
    opts = {"output-dir": "@OUT@", "name": name}
    cubin = rng.random() < 0.2
    if cubin:
        opts["cubin"] = "true"
    exts = [".ptx", ".manifest.json"] + ([".cubin"] if cubin else [])
    scen = [weighted(rng, FILE_SCENARIOS)]
    if rng.random() < 0.1:
        scen.append(weighted(rng, [s for s in FILE_SCENARIOS if s[0] not in
                                   ("concurrent", "odd-input", "readonly-out")]))
    input_path = "@IN@/input.mlir"
    out = "@OUT@"
    family = None
    planted = set()
    for sc in scen:
        free = [e for e in exts if e not in planted]
        if not free or (sc == "preexisting-then-fail" and planted):
            continue
        ext = rng.choice(free)
        planted.add(ext)
        if sc == "preexisting-then-fail":
            planted |= set(exts)
        victim = f"{out}/{name}{ext}"
        if sc == "symlink-tmp":
            case.setup.append(("symlink", "@ROOT@/" + DECOY_FILE, victim + ".tmp"))
        elif sc == "symlink-tmp-dangling":
            case.setup.append(("symlink", "@DECOY@/created-through-link", victim + ".tmp"))
        elif sc == "symlink-final":
            case.setup.append(("symlink", "@ROOT@/" + DECOY_FILE, victim))
        elif sc == "dir-at-final":
            case.setup.append(("mkdir", victim))
            if rng.random() < 0.5:
                case.setup.append(("write", victim + "/keep", "keep\n"))
        elif sc == "dir-at-tmp":
            case.setup.append(("mkdir", victim + ".tmp"))
        elif sc == "fifo-at-tmp":
            case.setup.append(("fifo", victim + ".tmp"))
        elif sc == "fifo-at-final":
            case.setup.append(("fifo", victim))
        elif sc == "preexisting-then-fail":
            for e in exts:
                case.setup.append(("write", f"{out}/{name}{e}", f"old output {e}\n"))
            opts[rng.choice(["chip", "functions", "slot"])] = rng.choice(["sm_1", "tan", "lane"])
        elif sc == "readonly-out":
            if os.geteuid() == 0:
                sc = "readonly-out(skipped: root ignores permissions)"
            else:
                case.setup.append(("chmod", out, 0o555))
        elif sc == "concurrent":
            other = corpus.fast[1] if len(corpus.fast) > 1 else corpus.fast[0]
            case.files["@IN@/other.mlir"] = other.text.encode()
            case.concurrent = True
            case.notes.append(f"second run on {other.name}")
        elif sc == "odd-input":
            kind = rng.choice(["dir", "devnull", "devzero", "fifo", "sparse", "loop",
                               "missing", "nul-bytes", "empty", "input-is-output"])
            input_path = {"dir": "@IN@", "devnull": "/dev/null", "devzero": "/dev/zero",
                          "fifo": "@IN@/fifo.mlir", "sparse": "@IN@/sparse.mlir",
                          "loop": "@IN@/loop.mlir", "missing": "@IN@/missing.mlir",
                          "nul-bytes": "@IN@/nul.mlir", "empty": "@IN@/empty.mlir",
                          "input-is-output": f"{out}/{name}.ptx"}[kind]
            if kind == "fifo":
                case.setup.append(("fifo", input_path))
            elif kind == "sparse":
                case.setup.append(("sparse", input_path, SPARSE_SIZE))
            elif kind == "loop":
                case.setup.append(("symlink", input_path, input_path))
            elif kind == "nul-bytes":
                case.files[input_path] = seed.text.encode().replace(b"\n", b"\n\x00", 3)
            elif kind == "empty":
                case.files[input_path] = b""
            elif kind == "input-is-output":
                case.setup.append(("copy-input", input_path))
            sc = f"odd-input:{kind}"
        case.notes.append(f"scenario {sc} ({ext})")
        family = (family + "+" if family else "") + sc.split("(")[0]
    case.family = "opt-files:" + family
    s = opt_string(opts)
    case.invs.append(Inv("opt", [input_path, f"--approx-to-ptx={s}", "-o", "/dev/null"]))
    if case.concurrent:
        case.invs.append(Inv("opt", ["@IN@/other.mlir", f"--approx-to-ptx={s}", "-o", "/dev/null"]))
    case.outdir, case.expect_export = out, True
    add_checks(case, rng, cfg)


# ---- approx-tune -----------------------------------------------------------
def json_paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from json_paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from json_paths(v, path + (i,))


def json_get(node, path):
    for p in path:
        node = node[p]
    return node


def json_set(doc, path, value):
    if not path:
        return value
    json_get(doc, path[:-1])[path[-1]] = value
    return doc


HUGE_INTS = [(1 << 63) - 1, 1 << 63, (1 << 64) - 1, 1 << 64, -(1 << 63), -(1 << 63) - 1,
             4294967297, 4294967296, 2147483648, -2147483649, 10 ** 30, -1, 0, 1, 65536]
PATH_VALUES = ["../outside.ptx", "../../etc/passwd", "@ROOT@/a/b/c/outside.ptx",
               "sub/../../outside.ptx", "/dev/zero", "./m.ptx", "", ".", "..",
               "fifo.ptx", "dir.ptx", "zero.ptx", "sparse.ptx", "missing.ptx",
               "a" * 5000 + ".ptx", "m.ptx\u0000x"]


def random_json_value(rng):
    kind = rng.choice(["int", "int", "float", "str", "path", "bool", "null", "list",
                       "dict", "hostile"])
    if kind == "int":
        return rng.choice(HUGE_INTS)
    if kind == "float":
        return rng.choice([1.5, 1e308, -0.0, 2.0, 0.5, 1e-320])
    if kind == "str":
        return rng.choice(["", "x", "i32", "f32", "memref", "scalar", "global", "param",
                           "hw", "descriptor", "bare", "readwrite", "ptr", "vector<4xf32>",
                           "vector<0xf32>", "f128", "i1"])
    if kind == "path":
        return rng.choice(PATH_VALUES)
    if kind == "bool":
        return rng.choice([True, False])
    if kind == "null":
        return None
    if kind == "list":
        return rng.choice([[], [1], ["x"], [None], [[]]])
    if kind == "dict":
        return rng.choice([{}, {"name": "x"}, {"kind": "memref"}])
    return rng.choice(HOSTILE_NAMES)


def mutate_space(rng, doc, notes):
    """Version 3's typed knob space: domains, payloads, constraints,
    governs and the configuration, broken the ways a hand edit or a buggy
    producer would."""
    knobs = [k for k in doc.get("knobs", []) if isinstance(k, dict)] \
        if isinstance(doc.get("knobs"), list) else []
    if not knobs:
        doc["configuration"] = {"fz_nope": "f16"}
        notes.append("configuration names a knob that does not exist")
        return
    kn = rng.choice(knobs)
    d = kn.get("domain") if isinstance(kn.get("domain"), dict) else None
    vals = d.get("values") if d and isinstance(d.get("values"), list) else []
    what = rng.choice(["kind", "drop-value", "dup-id", "bad-id", "payload-type",
                       "payload-field", "payload-extra", "constraint-knob",
                       "constraint-cycle", "governs", "config-value",
                       "config-not-build", "no-domain", "build-kind"])
    name = kn.get("name", "?")
    if what == "kind" and d is not None:
        d["kind"] = rng.choice(["fuzzy", "", 3, None, "ORDINAL"])
    elif what == "drop-value" and vals:
        vals.pop()
    elif what == "dup-id" and len(vals) > 1 and isinstance(vals[0], dict):
        vals[-1] = json.loads(json.dumps(vals[0]))
    elif what == "bad-id" and vals and isinstance(vals[0], dict):
        vals[0]["id"] = rng.choice(["rows 1", "", "a" * 300, "\x1b", 7, None])
    elif what in ("payload-type", "payload-field", "payload-extra") and vals \
            and isinstance(vals[0], dict) and isinstance(vals[0].get("payload"), dict):
        pl = vals[0]["payload"]
        if what == "payload-type":
            pl["type"] = rng.choice(["recipe", "", None, "block_shape", "storage"])
        elif what == "payload-field":
            keys = [k for k in pl if k != "type"] or ["type"]
            pl[rng.choice(keys)] = random_json_value(rng)
        else:
            pl["fz_extra"] = 1
    elif what == "constraint-knob":
        kn["constraints"] = [{"when": [vals[0]["id"] if vals and isinstance(vals[0], dict)
                                       and isinstance(vals[0].get("id"), str) else "0"],
                              "require": {"knob": rng.choice(["fz_nope", name]),
                                          "values": ["fz_value"]}}]
    elif what == "constraint-cycle" and len(knobs) > 1:
        a, b = knobs[0], knobs[1]
        def first(k):
            vs = k.get("domain", {}).get("values") if isinstance(k.get("domain"), dict) else None
            return vs[0]["id"] if vs and isinstance(vs[0], dict) and isinstance(vs[0].get("id"), str) \
                else str(k.get("min", 0))
        a["constraints"] = [{"when": [first(a)], "require": {"knob": b.get("name"), "values": [first(b)]}}]
        b["constraints"] = [{"when": [first(b)], "require": {"knob": a.get("name"), "values": [first(a)]}}]
    elif what == "governs":
        kn["governs"] = {"kernels": [rng.choice(["fz_other", "", "a\x1bb"])],
                         "sites": [rng.choice([10 ** 6, -1, 0])]}
    elif what == "config-value":
        doc["configuration"] = {name: rng.choice(["f8", "", "fz", 3])}
    elif what == "config-not-build":
        doc["configuration"] = {name: vals[0].get("id") if vals and isinstance(vals[0], dict) else "0"}
        if kn.get("kind") == "build":
            kn["kind"] = "global"
    elif what == "no-domain":
        kn.pop("domain", None)
    elif what == "build-kind":
        kn["kind"] = "build"
    notes.append(f"space: {what} on knob {str(name)[:40]!r}")


def mutate_manifest(rng, doc, notes):
    kind = weighted(rng, [("set", 8), ("delete", 3), ("dup-elem", 2), ("extra-key", 1),
                          ("version", 3), ("path", 4), ("name", 4), ("knob-range", 3),
                          ("blowup", 1), ("int-field", 4), ("space", 5)])
    paths = [p for p in json_paths(doc) if p]
    if kind == "space":
        mutate_space(rng, doc, notes)
    elif kind == "version":
        v = rng.choice([0, 1, 2, 3, -1, 4294967297, 4294967298, 18446744073709551617,
                        "2", 2.0, 1.0, True, None, 1 << 63])
        doc["version"] = v
        notes.append(f"version -> {v!r}")
    elif kind == "path":
        key = rng.choice(["ptx", "ptx", "cubin"])
        v = rng.choice(PATH_VALUES)
        doc[key] = v
        notes.append(f"{key} -> {v[:60]!r}")
    elif kind == "name":
        where = rng.choice(["knobs", "kernels", "module", "kernel-knob-ref", "site-knob"])
        v = rng.choice(HOSTILE_NAMES)
        if where == "module":
            doc["module"] = v
        elif isinstance(doc.get(where), list) and doc[where] and isinstance(doc[where][0], dict):
            doc[where][0]["name"] = v
            if where == "knobs" and rng.random() < 0.5:
                for k in doc.get("kernels", []):
                    if isinstance(k, dict) and isinstance(k.get("knobs"), list) and k["knobs"]:
                        k["knobs"][0] = v
        elif where == "kernel-knob-ref" and doc.get("kernels"):
            k = doc["kernels"][0]
            if isinstance(k, dict):
                k["knobs"] = [v]
        elif where == "site-knob" and doc.get("sites"):
            if isinstance(doc["sites"][0], dict):
                doc["sites"][0]["knob"] = v
        notes.append(f"{where} name -> {v[:40]!r}" + (f" (len {len(v)})" if len(v) > 40 else ""))
    elif kind == "knob-range" and isinstance(doc.get("knobs"), list) and doc["knobs"]:
        kn = doc["knobs"][0]
        if isinstance(kn, dict):
            key = rng.choice(["min", "max", "default", "type"])
            v = rng.choice(HUGE_INTS + ["i8", "i16", "u32", 1.5]) if key != "type" else \
                rng.choice(["i8", "i16", "i64", "u32", "f32", ""])
            kn[key] = v
            notes.append(f"knobs[0].{key} -> {v!r}")
    elif kind == "int-field":
        ints = [p for p in paths if type(json_get(doc, p)) is int]
        if ints:
            p = rng.choice(ints)
            v = rng.choice(HUGE_INTS + [1.5, 2.0, "3", True, None])
            json_set(doc, p, v)
            notes.append(f"{'/'.join(map(str, p))} -> {v!r}")
    elif kind == "blowup" and isinstance(doc.get("kernels"), list) and doc["kernels"] \
            and not any("grown to" in n for n in notes):  # one per case: copies share members
        # Grow to n entries (not by n: a second blow-up must not multiply).
        what = rng.choice(["kernels", "params", "shape", "knobs"])
        n = rng.choice([1000, 5000] if what == "kernels" else [1000, 20000])

        def grow(lst):
            return (lst * (n // len(lst) + 1))[:n]
        if what == "kernels":
            doc["kernels"] = grow(doc["kernels"])
        elif what == "knobs" and doc.get("knobs"):
            doc["knobs"] = grow(doc["knobs"])
        elif isinstance(doc["kernels"][0], dict):
            k = doc["kernels"][0]
            if what == "params" and k.get("params"):
                k["params"] = grow(k["params"])
            elif what == "shape" and k.get("args") and isinstance(k["args"][0], dict):
                k["args"][0]["shape"] = [-1] * n
                k["args"][0]["rank"] = n
        notes.append(f"{what} grown to {n}")
    elif kind == "delete" and paths:
        p = rng.choice(paths)
        parent = json_get(doc, p[:-1])
        del parent[p[-1]]
        notes.append(f"delete {'/'.join(map(str, p))}")
    elif kind == "dup-elem":
        lists = [p for p in paths if isinstance(json_get(doc, p), list) and json_get(doc, p)]
        if lists:
            p = rng.choice(lists)
            lst = json_get(doc, p)
            lst.append(json.loads(json.dumps(lst[0])))
            notes.append(f"duplicate first element of {'/'.join(map(str, p))}")
    elif kind == "extra-key":
        dicts = [p for p in [()] + paths if isinstance(json_get(doc, p), dict)]
        p = rng.choice(dicts)
        json_get(doc, p)["fz_unknown"] = random_json_value(rng)
        notes.append(f"extra key in /{'/'.join(map(str, p))}")
    elif paths:
        p = rng.choice(paths)
        v = random_json_value(rng)
        json_set(doc, p, v)
        notes.append(f"{'/'.join(map(str, p))} -> {str(v)[:40]!r}")
    return doc


def raw_json_mutation(rng, text, notes):
    kind = rng.choice(["truncate", "garbage", "bom", "nan", "dup-key", "trailing", "deep",
                       "comment", "bad-utf8", "leading-zero", "huge-number", "ws"])
    notes.append(f"raw: {kind}")
    if kind == "truncate":
        return text[:rng.randrange(max(1, len(text)))].encode()
    if kind == "garbage":
        p = rng.randrange(len(text) + 1)
        return (text[:p] + rng.choice(["\x00", "}", "]", ",", ":", "\x1b", "@"]) + text[p:]).encode()
    if kind == "bom":
        return b"\xef\xbb\xbf" + text.encode()
    if kind == "nan":
        return re.sub(r'"version": \d+', '"version": Infinity', text.replace('"max": 64', '"max": NaN', 1), count=1).encode()
    if kind == "dup-key":
        return text.replace("{", '{"version": 4294967297, ', 1).encode()
    if kind == "trailing":
        return (text + "\n{}garbage").encode()
    if kind == "deep":
        d = rng.choice([1000, 100000, 1000000])
        return text.replace("{", '{"fz_deep": ' + "[" * d + "]" * d + ", ", 1).encode()
    if kind == "comment":
        return ("// comment\n" + text).encode()
    if kind == "bad-utf8":
        return text.replace('"module": "', '"module": "\xff\xfe', 1).encode("latin-1", "replace")
    if kind == "leading-zero":
        return re.sub(r'"version": (\d+)', r'"version": 0\1', text, count=1).encode()
    if kind == "huge-number":
        return re.sub(r'"version": (\d+)', lambda m: '"version": ' + m.group(1) + "0" * 400, text, count=1).encode()
    return (" " * 10_000_000 + text).encode()


def manifest_files(case, doc_ptx_name, ptx):
    """The PTX next to the manifest plus the odd files PATH_VALUES names."""
    case.files["@IN@/m.ptx"] = ptx
    if doc_ptx_name and isinstance(doc_ptx_name, str) and "/" not in doc_ptx_name \
            and doc_ptx_name not in ("", ".", "..", "fifo.ptx", "dir.ptx", "zero.ptx", "sparse.ptx",
                                     "missing.ptx") and "\x00" not in doc_ptx_name and len(doc_ptx_name) < 255:
        case.files[f"@IN@/{doc_ptx_name}"] = ptx
    case.files["@ROOT@/a/b/c/d/outside.ptx"] = ptx
    case.files["@ROOT@/a/b/c/outside.ptx"] = ptx
    case.setup += [("fifo", "@IN@/fifo.ptx"), ("mkdir", "@IN@/dir.ptx"),
                   ("symlink", "/dev/zero", "@IN@/zero.ptx"),
                   ("sparse", "@IN@/sparse.ptx", SPARSE_SIZE)]


def gen_tune_manifest(case, rng, corpus, cfg):
    name, doc, ptx = rng.choice(corpus.manifests)
    doc = json.loads(json.dumps(doc))
    case.notes.append(f"seed manifest {name}")
    raw = None
    odd = None
    r = rng.random()
    if r < 0.12:
        odd = rng.choice(["dir", "devzero", "fifo", "sparse", "empty", "loop", "devnull"])
        case.notes.append(f"manifest path is odd: {odd}")
    else:
        for _ in range(geometric(rng, 0.4, 4)):
            doc = mutate_manifest(rng, doc, case.notes)
        if r > 0.85:
            raw = raw_json_mutation(rng, json.dumps(doc, indent=2), case.notes)
    data = raw if raw is not None else json.dumps(doc, indent=2, ensure_ascii=rng.random() < 0.5).encode(
        "utf-8", "surrogatepass")
    manifest_files(case, doc.get("ptx") if isinstance(doc, dict) else None, ptx)
    mpath = "@IN@/m.manifest.json"
    if odd is None:
        case.files[mpath] = data
    else:
        mpath = {"dir": "@IN@/dir.ptx", "devzero": "/dev/zero", "fifo": "@IN@/fifo.ptx",
                 "sparse": "@IN@/sparse.ptx", "empty": "@IN@/empty.manifest.json",
                 "loop": "@IN@/loop.manifest.json", "devnull": "/dev/null"}[odd]
        if odd == "empty":
            case.files[mpath] = b""
        elif odd == "loop":
            case.setup.append(("symlink", mpath, mpath))
    modes = [("--list", 6)] + ([("--dry-run", 4)] if cfg.tune_dry_run else []) + [("run", 2)]
    mode = weighted(rng, modes)
    args = [mpath]
    if mode == "--list":
        args.append("--list")
    else:
        args += base_tune_args(rng, doc if isinstance(doc, dict) else {})
        if mode == "--dry-run":
            args.append("--dry-run")
    if rng.random() < 0.1:
        args.append("--allow-outside-paths")
    first = case.notes[1].split()[0] if len(case.notes) > 1 else "seed"
    case.family = "tune-manifest:" + (odd or re.sub(r"\d+", "N", first))
    case.spec_mode = mode in ("--list", "--dry-run") and odd is None
    if case.spec_mode:
        case.checks.add("spec")
    case.invs.append(Inv("tune", args))
    case.notes.append(f"mode {mode}")


def base_tune_args(rng, doc):
    """A command line that fits the manifest's first kernel."""
    args = ["--size", "1024", "--quiet"]
    kernels = doc.get("kernels") if isinstance(doc.get("kernels"), list) else []
    k = kernels[0] if kernels and isinstance(kernels[0], dict) else {}
    for i, a in enumerate(k.get("args", []) if isinstance(k.get("args"), list) else []):
        if not isinstance(a, dict):
            continue
        if a.get("kind") == "memref":
            acc = a.get("access", "readwrite")
            if acc == "readwrite":
                args += ["--inout", f"{i}=uniform:0.1:1"]
            elif acc == "read":
                args += ["--input", f"{i}=uniform:0.1:1"]
        elif a.get("kind") == "scalar":
            args += ["--scalar", f"{i}=" + rng.choice(["16", "size", "2"])]
    return args


TUNE_ARG_BAD = {
    "--size": ["0", "-1", "1", "2147483648", "4294967296", str(1 << 62),
               "9223372036854775807", "9223372036854775808", "18446744073709551616",
               "abc", "1e6", "0x10", " 5", "", "1k", "nan"],
    "--shape": ["0=0", "0=-1x2", "0=4294967296x4294967296", "0=" + "x".join(["2"] * 40),
                "99=4", "-1=4", "9223372036854775808=4", "0=x", "0=2x", "0=", "=4",
                "0=9223372036854775807"],
    "--input": ["0=uniform:1:0", "0=uniform:nan:inf", "0=normal:0:-1", "0=linspace:1:1",
                "0=file:@IN@", "0=file:/dev/zero", "0=file:/dev/null", "0=file:@IN@/fifo.bin",
                "0=file:@IN@/sparse.bin", "0=file:@IN@/missing.bin", "0=file:@IN@/small.bin",
                "0=file:@IN@/exact.bin", "0=file:/etc", "0=file:", "0=bogus:1:2",
                "0=uniform:1", "0=uniform:1:2:3", "99=uniform:0:1", "-1=uniform:0:1",
                "0=file:@IN@/loop.bin", "1=uniform:0:1"],
    "--scalar": ["1=99999999999999999999", "1=nan", "1=-0", "1=1e400", "1=", "99=1",
                 "1=size", "1=-9223372036854775809", "0=1", "1=0x10", "1=abc"],
    "--block": ["0", "1025", "4294967296", "1,2,3,4", "0,0,0", "-1", "a", "", "1024,1024,1024"],
    "--grid": ["0", "2147483648", "-1", "auto", "1,1,1,1", "4294967296,1,1", ""],
    "--shared": ["4294967296", "-1", "99999999999999999999", "x"],
    "--kernel": HOSTILE_NAMES[:30] + ["nope"],
    "--knob": ["nope", "\x1b[2J", "", "lambda"],
    "--device": ["-1", "99", str(1 << 40), "x"],
    "--method": ["bogus", "", "HEU", "all"],
    "--qos": ["-1", "nan", "inf", "x", "1e999"],
    "--qos-ratio": ["2", "-1", "nan", "0", "inf"],
    "--metric": ["bogus", ""],
    "--lambda-max": ["-1", str(1 << 40), "x", "9223372036854775808"],
    "--warmup": ["-1", str(1 << 40), "x"],
    "--reps": ["0", "-1", str(1 << 40), "x"],
    "--seed": ["-1", str(1 << 64), "x"],
    "--image": ["@IN@", "@IN@/fifo.bin", "/dev/zero", "@IN@/sparse.bin", "@IN@/missing.ptx",
                "/dev/null"],
    "--json": ["@IN@", "@OUT@/r.json", "@ROOT@/missing/r.json", "@OUT@/link.json"],
    "--svg": ["@IN@", "@OUT@/r.svg", "@OUT@/link.svg"],
}


def gen_tune_args(case, rng, corpus, cfg):
    name, doc, ptx = rng.choice(corpus.tune_ok)
    case.notes.append(f"seed manifest {name}")
    manifest_files(case, doc.get("ptx"), ptx)
    case.files["@IN@/m.manifest.json"] = json.dumps(doc, indent=2).encode()
    base = base_tune_args(rng, doc)
    args = ["@IN@/m.manifest.json"] + base
    elem = 4
    case.files["@IN@/small.bin"] = b"\0" * 12
    case.files["@IN@/exact.bin"] = bytes(rng.randrange(256) for _ in range(1024 * elem))
    case.setup += [("fifo", "@IN@/fifo.bin"), ("sparse", "@IN@/sparse.bin", SPARSE_SIZE),
                   ("symlink", "@IN@/loop.bin", "@IN@/loop.bin"),
                   ("symlink", "@ROOT@/" + DECOY_FILE, "@OUT@/link.json"),
                   ("symlink", "@ROOT@/" + DECOY_FILE, "@OUT@/link.svg")]
    keys = rng.sample(sorted(TUNE_ARG_BAD), geometric(rng, 0.4, 3))
    for key in keys:
        v = rng.choice(TUNE_ARG_BAD[key])
        if key in ("--input", "--inout") and rng.random() < 0.5:
            key = "--inout"
        args += [key, v]
        case.notes.append(f"{key} {v[:60]!r}")
        if key in ("--json", "--svg"):
            case.allowed_files.append(v)
    kind = rng.random()
    if kind < 0.08:
        args.append(rng.choice(["--size", "--kernel", "--input", "--bogus", "--", "extra.json"]))
        case.notes.append(f"trailing {args[-1]}")
    if cfg.tune_dry_run and rng.random() < 0.5:
        args.append("--dry-run")
        case.notes.append("--dry-run")
    case.family = "tune-args:" + keys[0]
    case.invs.append(Inv("tune", args))

# CUDA snippets approx-cc must compile or refuse in one line.
CUDA_SNIPPETS = [
    '__global__ void s1(float *p) { p[threadIdx.x] = expf(p[threadIdx.x]); }',
    'extern "C" __global__ void s2(double *p) { p[0] = sin(p[0]) / cos(p[1]); }',
    'struct S { float a, b; };\n__global__ void s3(S s, float *o) { o[0] = logf(s.a); }',
    '__global__ void s4(float *p) { __shared__ float t[64]; t[threadIdx.x % 64] = p[0];'
    ' __syncthreads(); if (threadIdx.x < 32) p[threadIdx.x] = powf(t[threadIdx.x], 2.5f); }',
    '__global__ void __launch_bounds__(1024, 2) s5(float *p) { p[0] = tanhf(p[0]); }',
    '__global__ void __launch_bounds__(4096) s6(float *p) { p[0] = exp2f(p[0]); }',
    '__device__ float rec(float x, int n) { return n ? rec(sqrtf(x), n - 1) : x; }\n'
    '__global__ void s7(float *p, int n) { p[0] = rec(p[0], n); }',
    '__global__ void s8(float *p) { printf("%f\\n", p[0]); p[0] = __expf(p[0]); }',
    '__global__ void s9(float *p) { __shared__ float big[1 << 20]; big[threadIdx.x] = p[0];'
    ' p[1] = big[p[2] > 0]; }',
    '__global__ void s10(float *p) { asm volatile("exit;"); p[0] = rsqrtf(p[0]); }',
    '__global__ void s11(float4 *p) { float4 v = p[0]; v.x = __fdividef(v.x, v.y);'
    ' v.z = erff(v.w); p[0] = v; }',
    '__global__ void s12(float *p) { for (int i = 0; i < 1000000; ++i) p[i] = log10f(p[i]); }',
    '#include <cooperative_groups.h>\n__global__ void s13(float *p) {'
    ' cooperative_groups::this_thread_block().sync(); p[0] = expf(p[0]); }',
    '__global__ void s14(__half *p) { p[0] = hexp(p[0]); }',
    'template <typename T> __global__ void s15(T *p) { p[0] = exp(p[0]); }\n'
    'template __global__ void s15<float>(float *);\ntemplate __global__ void s15<double>(double *);',
    '__global__ void s16(float *p, int n) { if (n > 3) return; p[0] = sinf(p[0]); }',
    '__global__ void s17() {}',
    '__global__ void s19(float *p, float q[4]) { p[0] = q[0]; }',
    '__global__ void s20(long double *p) { p[0] = expl(p[0]); }',
]
CUDA_BROKEN = ['__global__ void s18(float *p) { p[0] = expf(p[0]) +; }', '#error refused',
               '__global__ int s21() { return 1; }', '\x00\x01\x02', '#include "/etc/passwd"',
               '#include "/dev/zero"']
CC_FLAGS_BAD = [
    ["--name", "@HOSTILE@"], ["--chip", "sm_1"], ["--chip", "sm_999"], ["--chip", "gfx90a"],
    ["--clang", "/bin/false"], ["--clang", "@IN@/input.cu"], ["--clang", "/nonexistent/clang"],
    ["--cuda-path", "/nonexistent"], ["--cuda-path", "@IN@"], ["-D", "X=\x01"], ["-D", "expf=logf"],
    ["-I", "/dev/null"], ["--approx-options", "@OPTS@"], ["--emit-raised"],
    ["-o", "@IN@/input.cu"], ["-o", "/dev/null"], ["-o", "@OUT@/missing"],
]


def gen_cc_source(case, rng, corpus, cfg):
    seed = rng.choice(corpus.cuda or [Seed("synthetic:cuda", CUDA_SNIPPETS[0])])
    text = seed.text
    case.notes.append(f"seed {seed.name}")
    lines = text.split("\n")
    mode = weighted(rng, [("snippets", 6), ("lines", 3), ("broken", 1)])
    if mode == "snippets":
        # Distinct snippets (the same one twice is a redefinition clang rejects).
        for sn in rng.sample(CUDA_SNIPPETS, geometric(rng, 0.5, 3)):
            lines.insert(rng.randint(0, len(lines)), sn)
            case.notes.append(f"snippet {sn[:50]!r}")
    elif mode == "lines":
        for _ in range(geometric(rng, 0.5, 2)):
            what = rng.choice(["delete", "duplicate", "swap", "number", "bytes", "truncate"])
            fn = {"delete": mut_delete, "duplicate": mut_duplicate, "swap": mut_swap,
                  "number": mut_number, "bytes": mut_bytes, "truncate": mut_truncate}[what]
            case.notes.append(f"{what}: {str(fn(rng, lines, {}))[:60]}")
    else:
        sn = rng.choice(CUDA_BROKEN)
        lines.insert(rng.randint(0, len(lines)), sn)
        case.notes.append(f"broken {sn[:50]!r}")
    case.files["@IN@/input.cu"] = "\n".join(lines).encode("utf-8", "surrogateescape")
    args = ["@IN@/input.cu", "-o", "@OUT@"]
    name = "input"
    case.family = "cc-source"
    if rng.random() < 0.4:
        flags = list(rng.choice(CC_FLAGS_BAD))
        if "@HOSTILE@" in flags:
            name = rng.choice(HOSTILE_NAMES)
            flags = [name if f == "@HOSTILE@" else f for f in flags]
        if "@OPTS@" in flags:
            opts = {}
            for key in rng.sample(sorted(OPT_BENIGN), rng.randint(1, 2)):
                opts[key] = rng.choice(OPT_BENIGN[key])
            if rng.random() < 0.5:
                key = rng.choice(["knob", "kernels", "functions", "correct",
                                  "knob-max", "newton-steps"])
                opts[key] = rng.choice(OPT_BAD[key])
            flags = [opt_string(opts) if f == "@OPTS@" else f for f in flags]
        if flags[0] == "-o":
            args = ["@IN@/input.cu"]
        args += flags
        case.family = "cc-source:" + flags[0]
        case.notes.append("flags " + " ".join(flags)[:80])
    elif rng.random() < 0.5:
        args += ["--name", "k"]
    outdir = next((args[i + 1] for i in range(len(args) - 1) if args[i] == "-o"), "@OUT@")
    case.outdir, case.expect_export = outdir, outdir == "@OUT@"
    add_checks(case, rng, cfg, force=True)
    case.checks.discard("roundtrip")
    case.invs.append(Inv("cc", args))


TARGETS = {
    "opt-ir": (gen_opt_ir, 40), "opt-options": (gen_opt_options, 20),
    "opt-files": (gen_opt_files, 12), "tune-manifest": (gen_tune_manifest, 18),
    "tune-args": (gen_tune_args, 10), "cc-source": (gen_cc_source, 8),
}


# ---- pinned cases ----------------------------------------------------------
# Fixed regression cases, one per bug class the project has met (the first
# mutation campaign and today's findings). They run first with --pinned, as
# negative case indices (--case -3 reruns one); once the bugs are fixed each
# must produce no finding.
def pinned_cases(corpus, cfg_has_cc=False):
    by_name = {s.name.split("/")[-1]: s for s in corpus.fast}
    bm = by_name.get("box_muller.mlir#0") or corpus.fast[0]
    binary = next((b for b in corpus.binaries if "box_muller" in b.name),
                  corpus.binaries[0] if corpus.binaries else None)
    mname, mdoc, mptx = next((m for m in corpus.tune_ok if "box_muller" in m[0]), corpus.tune_ok[0])
    out = []

    def opt(name, opts="", text=None, setup=(), args=None, checks=("ptxas", "tune-list"),
            outdir="@OUT@", export=True, files=None, given_ptx=False):
        c = Case(index=0, target="opt-options", family=f"pinned:{name}", notes=[f"pinned {name}"])
        c.files["@IN@/input.mlir"] = (text if text is not None else bm.text).encode("utf-8", "surrogateescape")
        c.files.update(files or {})
        c.setup = list(setup)
        c.invs = [Inv("opt", args or ["@IN@/input.mlir",
                                      f"--approx-to-ptx=output-dir=@OUT@ name=k {opts}".strip(),
                                      "-o", "/dev/null"])]
        c.outdir, c.expect_export, c.checks, c.given_ptx = outdir, export, set(checks), given_ptx
        out.append(c)
        return c

    def tune(name, args, doc=None, raw=None, spec=False, setup=()):
        c = Case(index=0, target="tune-manifest", family=f"pinned:{name}", notes=[f"pinned {name}"])
        d = json.loads(json.dumps(doc if doc is not None else mdoc))
        manifest_files(c, d.get("ptx"), mptx)
        c.files["@IN@/m.manifest.json"] = raw if raw is not None else json.dumps(d, indent=2).encode()
        c.setup += list(setup)
        c.invs = [Inv("tune", list(args), {"CUDA_VISIBLE_DEVICES": ""})]
        c.spec_mode = spec
        out.append(c)
        return c

    def with_doc(**kw):
        d = json.loads(json.dumps(mdoc))
        for k, v in kw.items():
            d[k] = v
        return d
    run_args = ["@IN@/m.manifest.json"] + base_tune_args(random.Random(0), mdoc)

    opt("knob-with-dash", "knob=a-b")
    opt("knob-with-dot", "knob=a.b")
    opt("knob-leading-digit", "knob=1abc")
    opt("knob-with-escape", "knob=\"a\x1b[31mb\"")
    opt("kernel-name-with-dash", text=bm.text.replace("@box_muller_gpu", '@"box-muller"'))
    opt("sites-not-dictionaries", text=bm.text.replace("gpu.module @kernels {",
                                                       "gpu.module @kernels attributes {approx.sites = [42]} {"))
    opt("twelve-knobs-in-one-loop", text=k_knob_module(12))
    opt("name-dotdot", "name=../x")
    opt("name-absolute", "name=@ROOT@/abs")
    opt("symlink-at-ptx-tmp", setup=[("symlink", "@ROOT@/" + DECOY_FILE, "@OUT@/k.ptx.tmp")])
    opt("dangling-symlink-at-manifest-tmp",
        setup=[("symlink", "@DECOY@/created", "@OUT@/k.manifest.json.tmp")])
    opt("dir-at-manifest", setup=[("mkdir", "@OUT@/k.manifest.json")])
    opt("fifo-at-ptx-tmp", setup=[("fifo", "@OUT@/k.ptx.tmp")])
    opt("old-outputs-then-failure", "chip=sm_1",
        setup=[("write", "@OUT@/k.ptx", "old\n"), ("write", "@OUT@/k.manifest.json", "{}\n")])
    opt("output-dir-is-file", args=["@IN@/input.mlir", "--approx-to-ptx=output-dir=@IN@/input.mlir name=k",
                                    "-o", "/dev/null"], outdir="@IN@/input.mlir")
    opt("pass-error-dumps-module", args=["@IN@/input.mlir", "--pass-pipeline=builtin.module("
                                         "approx-export{output-dir=@OUT@ name=k})", "-o", "/dev/null"])
    opt("libdevice-devzero", "libdevice=/dev/zero")
    opt("libdevice-text-file", "libdevice=@IN@/text.bc", setup=odd_file_setup("@IN@/text.bc"))
    opt("input-devzero", args=["/dev/zero", "--approx-to-ptx=output-dir=@OUT@ name=k", "-o", "/dev/null"])
    ss = by_name.get("static-shapes.mlir#0")
    if ss:
        opt("bare-ptr-manifest", "bare-ptr=true", text=ss.text, checks=("tune-list",))
    opt("expected-error-comment", text="// expected-error @+1 {{nothing}}\n" + bm.text)
    c = opt("concurrent-same-name")
    c.concurrent = True
    other = by_name.get("black_scholes.mlir#0") or corpus.fast[-1]
    c.files["@IN@/other.mlir"] = other.text.encode()
    c.invs.append(Inv("opt", ["@IN@/other.mlir", "--approx-to-ptx=output-dir=@OUT@ name=k", "-o", "/dev/null"]))
    if binary:
        opt("ptxas-fails", text=binary.text, setup=odd_file_setup("@TOOLS@/ptxas-false"), given_ptx=True,
            args=["@IN@/input.mlir", "--pass-pipeline=builtin.module(approx-export{output-dir=@OUT@ "
                  "name=k cubin=true ptxas=@TOOLS@/ptxas-false})", "-o", "/dev/null"])
        opt("ptxas-writes-no-cubin", text=binary.text, setup=odd_file_setup("@TOOLS@/ptxas-true"),
            given_ptx=True,
            args=["@IN@/input.mlir", "--pass-pipeline=builtin.module(approx-export{output-dir=@OUT@ "
                  "name=k cubin=true ptxas=@TOOLS@/ptxas-true})", "-o", "/dev/null"])
    # Found by the first long campaign on the v2 build (docs/robustness.md).
    opt("functions-5000-long", "functions=" + "x" * 5000)
    opt("unresolved-extern-call", text="gpu.module @kernels {\n"
        "  func.func private @opaque(f32) -> f32\n"
        "  gpu.func @k(%x: f32, %out: memref<4xf32>) kernel {\n"
        "    %e = math.exp %x : f32\n"
        "    %o = func.call @opaque(%e) : (f32) -> f32\n"
        "    gpu.return\n  }\n}\n")
    opt("control-char-in-upstream-message", text='func.func @"a\\01b"() { return }\n'
        'func.func @"a\\01b"() { return }\n')
    opt("scalable-vector", text="gpu.module @m {\n"
        "  func.func @f(%x: vector<[4]xf32>) -> vector<[4]xf32> {\n"
        "    %0 = math.sqrt %x fastmath<afn> : vector<[4]xf32>\n"
        "    return %0 : vector<[4]xf32>\n  }\n}\n")
    opt("stale-approx-sites", text="gpu.module @m attributes {approx.sites = [#approx.site<technique = \"sfu\", "
        "function = \"k\", op = \"sin\", type = f32, knob = @lambda, form = tunable, loc = \"x\">]} {\n"
        "  approx.knob @lambda range(0, 64) default(0)\n"
        "  gpu.func @k(%x: f32) kernel {\n    gpu.return\n  }\n}\n")
    deep = 200
    opt("verifier-prints-deep-nest", text="func.func @f() {\n"
        + "".join("  " * i + '"scf.execute_region"() ({\n' for i in range(deep))
        + "  " * deep + '"scf.yield"() : () -> ()\n'
        + "".join("  " * i + "}) : () -> ()\n" + ("  " * i + '"scf.yield"() : () -> ()\n' if i else "")
                  for i in reversed(range(deep))) + "}\n")
    opt("escape-in-echoed-long-line", text="func.func @f() {\x1b[2J" + "y" * 5000 + "\n")
    # Found by the fourth long campaign (docs/robustness.md).
    if binary and re.search(r"approx\.manifest = \{[\w\"]+ = \{", binary.text):
        opt("manifest-record-inf", given_ptx=True,
            text=re.sub(r"(approx\.manifest = \{[\w\"]+ = \{)", r"\1bogus = 1.0e309, ", binary.text, count=1),
            args=["@IN@/input.mlir", "--pass-pipeline=builtin.module(approx-export{output-dir=@OUT@ name=k})",
                  "-o", "/dev/null"])
    opt("known-block-size-zero", text="gpu.module @kernels {\n"
        "  gpu.func @k(%x: f32, %out: memref<4xf32>) kernel\n"
        "      attributes {known_block_size = array<i32: 128, 0, 1>} {\n"
        "    %e = math.exp %x : f32\n    %c0 = arith.constant 0 : index\n"
        "    memref.store %e, %out[%c0] : memref<4xf32>\n"
        "    gpu.return\n  }\n}\n")
    # Found by the fifth long campaign (docs/robustness.md).
    opt("libdevice-declared-as-func", text="gpu.module @links {\n"
        "  func.func private @__nv_sinf(f32) -> f32\n"
        "  gpu.func @k(%x: f32, %out: memref<4xf32>) kernel {\n"
        "    %a = func.call @__nv_sinf(%x) : (f32) -> f32\n    %c0 = arith.constant 0 : index\n"
        "    memref.store %a, %out[%c0] : memref<4xf32>\n"
        "    gpu.return\n  }\n}\n")
    opt("million-element-vector", text="gpu.module @four {\n"
        "  gpu.func @four(%a: memref<?xvector<1048576xf32>>, %n: index) kernel {\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %v0 = memref.load %a[%c0] : memref<?xvector<1048576xf32>>\n"
        "    %v1 = math.exp %v0 : vector<1048576xf32>\n"
        "    %v2 = math.exp %v1 : vector<1048576xf32>\n"
        "    memref.store %v2, %a[%c0] : memref<?xvector<1048576xf32>>\n"
        "    gpu.return\n  }\n}\n")
    opt("call-to-fake-intrinsic", text="gpu.module @kernels {\n"
        "  llvm.func @\"llvm.x\"(f32) -> f32\n"
        "  gpu.func @k(%x: f32, %out: memref<4xf32>) kernel {\n"
        "    %a = llvm.call @\"llvm.x\"(%x) : (f32) -> f32\n    %c0 = arith.constant 0 : index\n"
        "    memref.store %a, %out[%c0] : memref<4xf32>\n"
        "    gpu.return\n  }\n}\n")
    # Found by the sixth long campaign (docs/robustness.md).
    opt("site-with-undeclared-knob", text="gpu.module @m attributes {approx.sites = [#approx.site<"
        "technique = \"sfu\", function = \"k\", op = \"exp\", type = f32, knob = @lambda, "
        "form = tunable, loc = \"x\">]} {\n}\n")
    # Found by the approx-cc target's first campaigns.
    for cname, src in [("cc-static-shared-4mib", "__global__ void s9(float *p) { __shared__ float big[1 << 20];"
                        " big[threadIdx.x] = expf(p[0]); p[1] = big[p[2] > 0]; }\n"),
                       ("cc-printf-format-global", "#include <cstdio>\n__global__ void s8(float *p) {"
                        " printf(\"%f\\n\", p[0]); p[1] = expf(p[0]); }\n"),
                       ("cc-emit-raised-on-failure", 'extern "C" __device__ int lambda = 0;\n'
                        "__global__ void k(float *p) { p[0] = expf(p[0]) * lambda; }\n"),
                       ("cc-device-used-global", "__device__ __attribute__((used)) float t[4] = {1, 2, 3, 4};\n"
                        "__global__ void k(float *p) { p[0] = expf(p[0] * t[threadIdx.x % 4]); }\n")]:
        if not cfg_has_cc:
            break
        c = Case(index=0, target="cc-source", family=f"pinned:{cname}", notes=[f"pinned {cname}"])
        c.files["@IN@/input.cu"] = src.encode()
        c.invs = [Inv("cc", ["@IN@/input.cu", "-o", "@OUT@", "--emit-raised"])]
        c.outdir, c.expect_export, c.checks = "@OUT@", True, {"ptxas", "tune-list"}
        out.append(c)
    # Found by the seventh long campaign: nlohmann echoes all it read.
    tune("json-unterminated-80k-string", ["@IN@/m.manifest.json", "--list"],
         raw=b'{ "format": "' + b"z" * 80000)
    tune("cubin-outside-on-ptx-run", ["@IN@/m.manifest.json", "--list"],
         with_doc(cubin="../x.cubin"), spec=True)
    tune("size-int64-max", run_args + ["--size", "9223372036854775807"])
    tune("file-input-is-etc", run_args + ["--inout", "0=file:/etc"])
    tune("file-input-devzero", run_args + ["--inout", "0=file:/dev/zero"])
    tune("file-input-fifo", run_args + ["--inout", "0=file:@IN@/fifo.ptx"])
    tune("list-devzero", ["/dev/zero", "--list"])
    tune("list-fifo", ["@IN@/fifo.ptx", "--list"])
    tune("list-sparse-1tib", ["@IN@/sparse.ptx", "--list"])
    tune("ptx-etc-passwd", ["@IN@/m.manifest.json", "--list"], with_doc(ptx="../../etc/passwd"), spec=True)
    tune("ptx-absolute", ["@IN@/m.manifest.json", "--list"],
         with_doc(ptx="@ROOT@/a/b/c/outside.ptx"), spec=True)
    tune("version-2-pow-32-plus-1", ["@IN@/m.manifest.json", "--list"], with_doc(version=4294967297), spec=True)
    tune("version-float", ["@IN@/m.manifest.json", "--list"], with_doc(version=float(mdoc.get("version", 1))),
         spec=True)
    d = json.loads(json.dumps(mdoc))
    if d.get("kernels"):
        d["kernels"][0]["name"] = "a\x1b[31mb"
    tune("kernel-name-escape-sequence", ["@IN@/m.manifest.json", "--list"], d, spec=True)
    d = json.loads(json.dumps(mdoc))
    if d.get("knobs"):
        d["knobs"][0]["max"] = 64.5
    tune("knob-max-float", ["@IN@/m.manifest.json", "--list"], d, spec=True)
    for i, c in enumerate(out):
        c.index = -(i + 1)
    return out


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


# ----------------------------------------------------------------------------
# Running a case.
# ----------------------------------------------------------------------------
@dataclasses.dataclass
class Proc:
    argv: list
    rc: int = 0
    timed_out: bool = False
    secs: float = 0.0
    out: bytes = b""
    out_size: int = 0
    err: bytes = b""
    err_size: int = 0
    cpu: float = 0.0
    rss_mb: float = 0.0


def limits(cfg):
    def apply():
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if cfg.mem_mb:
            resource.setrlimit(resource.RLIMIT_AS, (cfg.mem_mb << 20, cfg.mem_mb << 20))
        resource.setrlimit(resource.RLIMIT_FSIZE, (cfg.fsize_mb << 20, cfg.fsize_mb << 20))
    return apply


def tool_env(cfg, extra):
    env = dict(os.environ)
    env["LC_ALL"] = "C"
    if cfg.symbolizer:
        env["LLVM_SYMBOLIZER_PATH"] = cfg.symbolizer
    env.update(extra)
    return env


def run_plain(argv, cfg, timeout, cwd=None, env=None):
    """Runs a helper command (ptxas, a check); kills its whole group on timeout."""
    p = subprocess.Popen(argv, cwd=cwd, env=env or tool_env(cfg, {}), stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                         preexec_fn=limits(cfg))
    try:
        out, err = p.communicate(timeout=timeout)
        return subprocess.CompletedProcess(argv, p.returncode, out, err)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return subprocess.CompletedProcess(argv, -999, out, err)


# Linux refuses a single exec argument over 32 pages (MAX_ARG_STRLEN) with
# E2BIG before the tool runs; a mutated option that long is cut to fit.
MAX_ARG_CHARS = 100_000


def start(argv, cwd, env, io_base, cfg):
    fo = open(f"{io_base}.out", "wb")
    fe = open(f"{io_base}.err", "wb")
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=fo,
                         stderr=fe, start_new_session=True, preexec_fn=limits(cfg))
    return p, fo, fe


def finish(p, fo, fe, io_base, argv, t0, deadline, keep_out):
    pr = Proc(argv=argv)
    # os.wait4, not Popen.wait: it also returns this child's CPU time and peak RSS.
    ru, nap = None, 0.001
    while ru is None:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            ru = usage
        elif time.monotonic() > deadline:
            pr.timed_out = True
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            pid, status, ru = os.wait4(p.pid, 0)
        else:
            time.sleep(nap)
            nap = min(nap * 2, 0.05)
    p.returncode = os.waitstatus_to_exitcode(status)
    pr.cpu = ru.ru_utime + ru.ru_stime
    pr.rss_mb = ru.ru_maxrss / 1024
    pr.secs = time.monotonic() - t0
    pr.rc = p.returncode
    fo.close()
    fe.close()
    for stream, cap in (("out", keep_out), ("err", 1 << 20)):
        path = f"{io_base}.{stream}"
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            data = f.read(cap)
        os.unlink(path)
        setattr(pr, stream, data)
        setattr(pr, f"{stream}_size", size)
    return pr


def snapshot(root):
    snap = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            rel = os.path.relpath(p, root)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            if stat.S_ISLNK(st.st_mode):
                snap[rel] = ("link", os.readlink(p))
            elif stat.S_ISREG(st.st_mode):
                if st.st_size <= (4 << 20):
                    try:
                        with open(p, "rb") as f:
                            h = hashlib.sha1(f.read()).hexdigest()
                    except OSError:
                        h = f"unreadable:{st.st_mtime_ns}"
                else:
                    h = f"big:{st.st_mtime_ns}"
                snap[rel] = ("file", st.st_size, stat.S_IMODE(st.st_mode), h)
            elif stat.S_ISDIR(st.st_mode):
                snap[rel] = ("dir", stat.S_IMODE(st.st_mode))
            elif stat.S_ISFIFO(st.st_mode):
                snap[rel] = ("fifo",)
            else:
                snap[rel] = ("other",)
    return snap


def materialize(case, root, cfg):
    for rel in LAYOUT.values():
        (root / rel).mkdir(parents=True, exist_ok=True)
    (root / DECOY_FILE).write_bytes(DECOY_TEXT)
    for ph, data in case.files.items():
        p = Path(subst(ph, root))
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(subst_manifest(ph, data, root))
    for act in case.setup:
        kind, path = act[0], subst(act[1], root)
        if kind == "symlink":
            target, link = subst(act[1], root), subst(act[2], root)
            Path(link).parent.mkdir(parents=True, exist_ok=True)
            if not os.path.lexists(link):
                os.symlink(target, link)
        elif kind == "mkdir":
            os.makedirs(path, exist_ok=True)
        elif kind == "fifo":
            if not os.path.lexists(path):
                os.mkfifo(path)
        elif kind == "sparse":
            with open(path, "wb") as f:
                f.truncate(act[2])
        elif kind == "write":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_text(act[2])
        elif kind == "script":
            Path(path).write_text(act[2])
            os.chmod(path, 0o755)
        elif kind == "trunc-libdevice":
            data = Path(cfg.libdevice).read_bytes()[:4096] if cfg.libdevice else b"BC\xc0\xde"
            Path(path).write_bytes(data)
        elif kind == "copy-input":
            Path(path).write_bytes(case.files["@IN@/input.mlir"])
    for act in case.setup:
        if act[0] == "chmod":
            os.chmod(subst(act[1], root), act[2])


def rmtree(root):
    def onerror(func, path, exc):
        try:
            os.chmod(os.path.dirname(path), 0o755)
            os.chmod(path, 0o755)
            func(path)
        except OSError:
            pass
    shutil.rmtree(root, onerror=onerror)


@dataclasses.dataclass
class Finding:
    kind: str
    tool: str
    signature: str
    detail: str = ""


@dataclasses.dataclass
class Result:
    case: Case
    procs: list
    findings: list
    secs: float
    checks_run: dict
    root: str = ""
    diff: list = dataclasses.field(default_factory=list)


def resolve_tool(cfg, tool):
    return {"opt": cfg.opt, "tune": cfg.tune, "cc": cfg.cc}.get(tool, tool)


def run_case(case, cfg):
    t_case = time.monotonic()
    root = Path(tempfile.mkdtemp(prefix=f"c{case.index}-", dir=cfg.scratch))
    checks_run = {}
    try:
        try:
            materialize(case, root, cfg)
        except OSError as e:
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


# ----------------------------------------------------------------------------
# Oracles.
# ----------------------------------------------------------------------------
CONTROL_RE = re.compile(rb"[\x00-\x08\x0b-\x0d\x0e-\x1f\x7f]")
FRAME_RE = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ (.+?)(?: \(/|$)", re.M)
BORING_FRAME = re.compile(r"llvm::sys::|SignalHandler|__restore_rt|raise|abort|"
                          r"__pthread|__GI_|llvm::report_fatal_error|__libc_start|"
                          r"_start|llvm::llvm_unreachable|__cxa_|std::terminate|"
                          r"__gnu_cxx::__verbose|^\(")


def top_frame(err):
    frames = FRAME_RE.findall(err)
    for f in frames:
        if "approx" in f and not BORING_FRAME.search(f):
            return f.split("(")[0].strip()[:100]
    for f in frames:
        if not BORING_FRAME.search(f) and "+0x" not in f:
            return f.split("(")[0].strip()[:100]
    return ""


def crash_signature(pr):
    err = pr.err.decode("utf-8", "replace")
    m = re.search(r"LLVM ERROR: ([^\n]*)", err)
    if m:
        return "LLVM ERROR: " + norm(m.group(1))
    m = re.search(r"terminate called after throwing an instance of '([^']*)'"
                  r"(?:\s*\n\s*what\(\):\s*([^\n]*))?", err)
    if m:
        return f"uncaught {m.group(1)}: {norm(m.group(2) or '')}"
    if "terminate called" in err:
        return "terminate called: " + norm(err.split("terminate called", 1)[1].split("\n")[0])
    m = re.search(r"Assertion [`'](.*?)' failed", err)
    if m:
        return "assertion: " + norm(m.group(1))
    m = re.search(r"ERROR: AddressSanitizer: ([\w-]+)", err)
    if m:
        return f"ASan {m.group(1)} {top_frame(err)}".strip()
    m = re.search(r"runtime error: ([^\n]*)", err)
    if m:
        return "UBSan: " + norm(m.group(1))
    if pr.rc < 0:
        try:
            name = signal.Signals(-pr.rc).name
        except ValueError:
            name = f"signal {-pr.rc}"
        if name == "SIGXFSZ":
            return "SIGXFSZ: wrote past the file size limit"
        return f"{name} {top_frame(err)}".strip()
    if "Stack dump:" in err or "PLEASE submit a bug report" in err:
        return f"crash handler ran, exit {pr.rc} {top_frame(err)}".strip()
    if pr.rc >= 128:
        return f"exit {pr.rc}"
    return None


def first_error(text):
    for line in text.splitlines():
        m = re.search(r"\berror: (.*)", line)
        if m:
            return m.group(1)
    return ""


def diag_source(msg):
    """Who emitted a diagnostic: an approx pass, the op verifier, or other."""
    m = re.match(r"((?:approx|convert-approx)[\w-]*):", msg)
    if m:
        return m.group(1)
    if msg.startswith("'"):
        return "op verifier"
    if PARSER_MSG.match(msg):
        return "parser"
    return "other: " + " ".join(norm(msg).split()[:3])


PARSER_MSG = re.compile(r"(expected|unexpected|use of undeclared|custom op|redefinition|undefined "
                        r"symbol|integer literal|failed to parse|unknown escape|duplicate key|"
                        r"invalid|unbalanced|reference to an undefined|operation location alias|"
                        r"unknown (type|attribute)|dialect '|floating point value too large|"
                        r"hexadecimal float)")


def msg_prefix(msg):
    """`approx-export: cannot write ...` -> `approx-export`; else first words."""
    m = re.match(r"([\w.-]+):\s", msg)
    if m and len(m.group(1)) <= 40:
        return m.group(1)
    return " ".join(norm(msg).split()[:5])


TUNE_HINT = "(see approx-tune --help)"


DIAG_HEAD_RE = re.compile(r"^(?:.*?:\d+:\d+: |[^:\s]+: )?(error|warning|note|remark): ")


def split_diagnostics(err):
    """MLIR's SourceMgr format: a `file:line:col: error: message` line, then
    the source line it points into and a caret line. Returns (message lines,
    echoed lines): the tool writes the first, the second are the input's own
    bytes shown back."""
    msgs, echoed, after_head = [], [], 0
    for line in err.splitlines():
        if DIAG_HEAD_RE.match(line):
            msgs.append(line)
            after_head = 2
        elif after_head:
            echoed.append(line)
            after_head -= 1
        else:
            msgs.append(line)
    return msgs, echoed


def accept(checks_run, what):
    """An upstream MLIR behaviour the oracles see but that is no finding of
    ours (docs/robustness.md lists them); counted so a summary shows it."""
    if checks_run is not None:
        key = "accepted: " + what
        checks_run[key] = checks_run.get(key, 0) + 1


def judge_proc(tool, pr, case, cfg, root, checks_run=None):
    tname = {"opt": "approx-opt", "tune": "approx-tune", "cc": "approx-cc"}.get(tool, os.path.basename(tool))
    is_tune = tool == "tune" or tname.endswith("tune")
    out = []
    err = pr.err.decode("utf-8", "replace").replace(root, "@ROOT@")
    head = err[:2000]
    if pr.rss_mb > cfg.rss_mb and not pr.timed_out:
        out.append(Finding("memory-blowup", tname,
                           f"{tname}: peak RSS over {cfg.rss_mb} MB ({case.family})",
                           f"{pr.rss_mb:.0f} MB peak RSS, exit {pr.rc}, {pr.secs:.1f} s"))
    if pr.timed_out:
        # Blocked (waiting on a FIFO, say) or busy (computing without end)?
        how = "blocked" if pr.cpu < 0.25 * pr.secs else "busy"
        return out + [Finding("hang", tname,
                              f"{tname}: no exit within {cfg.timeout:g} s, {how} ({case.family})",
                              f"killed after {pr.secs:.1f} s wall, {pr.cpu:.1f} s CPU, "
                              f"{pr.rss_mb:.0f} MB peak RSS")]
    sig = crash_signature(pr)
    if sig:
        if re.search(r"bad_alloc|length_error|^SIG\w+$|^exit \d+$|^Segmentation", sig):
            sig += f" ({case.family})"  # too generic to tell root causes apart alone
        return out + [Finding("crash", tname, sig, head)]
    for stream in ("out", "err"):
        data = getattr(pr, stream)
        m = CONTROL_RE.search(data)
        if m:
            line_start = data.rfind(b"\n", 0, m.start()) + 1
            line = data[line_start:data.find(b"\n", m.start()) % (len(data) + 1)]
            text = line.decode("utf-8", "replace")
            if is_tune:
                where = "line " + (re.findall(r"[A-Za-z]+", text) or ["?"])[0]
            elif "error: " in text:
                where = "in error message from " + diag_source(text.split("error: ", 1)[1])
            elif stream == "err":
                where = "in echoed source line"
            else:
                where = "in output IR"
            out.append(Finding("raw-control-chars", tname, f"{tname} std{stream}: {where}",
                               repr(line[:200])))
    if pr.rc == 0:
        if not is_tune and re.search(r"(?m)\berror: ", err):
            if re.search(r'expected (error|warning|remark|note) ".*" was not produced', err):
                # MLIR 22's driver always builds its diagnostic verifier
                # (at level None): `// expected-*` comments in an ordinary
                # input are echoed as errors; the exit status is unaffected.
                accept(checks_run, "`expected-*` comment reported on success")
                return out
            out.append(Finding("error-on-success", tname,
                               f"{tname}: exit 0 but printed error: {diag_source(first_error(err))}",
                               head))
        return out
    # approx-cc: 2 is a bad command line (approx/Support/Cli.h), 1 the rest.
    ok_codes = (1, 2, 77) if is_tune else (1, 2) if tname == "approx-cc" else (1,)
    if pr.rc not in ok_codes:
        out.append(Finding("odd-exit", tname, f"{tname}: exit {pr.rc}", head))
    if is_tune:
        lines = [l for l in err.splitlines() if l.strip() and l.strip() != TUNE_HINT]
        first = lines[0] if lines else ""
        if not lines:
            out.append(Finding("silent-failure", tname, f"{tname}: exit {pr.rc} with empty stderr"))
        elif pr.err_size > 4096:
            out.append(Finding("oversized-error", tname,
                               f"{tname}: {pr.err_size} B of stderr: {msg_prefix(first.split('error: ')[-1])}",
                               head))
        elif len(lines) > 1:
            out.append(Finding("multi-line-error", tname,
                               f"{tname}: {len(lines) > 2 and '3+' or '2'} lines: {norm(first)[:70]}",
                               "\n".join(lines[:5])))
        return out
    errs = [m.group(1) for m in (re.search(r"\berror: (.*)", l) for l in err.splitlines()) if m]
    nerr = len(errs)
    first = errs[0] if errs else ""
    if re.search(r'expected (error|warning|remark|note) ".*" was not produced', err):
        accept(checks_run, "`expected-*` comment reported on failure")
    msgs, echoed = split_diagnostics(err)
    msg_bytes = sum(len(l) + 1 for l in msgs)
    if "note: see current operation" in err:
        out.append(Finding("module-dump", tname,
                           f"{tname}: error note dumps the IR: {diag_source(first)}",
                           f"{pr.err_size} B of stderr; first error: {first[:200]}"))
    elif msg_bytes > 4096:
        out.append(Finding("oversized-error", tname,
                           f"{tname}: >4 KB of messages: {diag_source(first)}",
                           f"{msg_bytes} B of messages ({pr.err_size} B of stderr); "
                           f"first error: {first[:200]}"))
    elif max((len(l) for l in echoed), default=0) > 2200:
        # approx-opt cuts every stderr line at 2 KiB (StderrFilter.h).
        out.append(Finding("oversized-error", tname,
                           f"{tname}: an echoed source line over 2 KiB",
                           f"{pr.err_size} B of stderr; first error: {first[:200]}"))
    lines = [l for l in err.splitlines() if l.strip()]
    # Several errors are fine when each names its own place (two bad ops,
    # a parser error and the attribute it sits in); the same message at the
    # same place twice is one cause reported twice.
    heads = [l for l in msgs if re.search(r"\berror: ", l)]
    dup = next((l for l in set(heads) if heads.count(l) > 1), None)
    if dup is not None and diag_source(first_error(dup)) == "parser":
        # MLIR 22's parser retries some attribute parses and reports the
        # same error each time (mlir-opt-22 too).
        accept(checks_run, "upstream parser repeats one error")
    elif dup is not None:
        out.append(Finding("multi-error", tname,
                           f"{tname}: one error reported twice: {diag_source(first_error(dup))}",
                           "\n".join(errs[:4])[:600]))
    elif nerr > 1:
        accept(checks_run, "several errors at distinct places")
    if not lines:
        out.append(Finding("silent-failure", tname, f"{tname}: exit {pr.rc} with empty stderr"))
    elif nerr == 0 and len(lines) > 1:
        out.append(Finding("multi-line-error", tname,
                           f"{tname}: {len(lines)} lines, none an error: line: {norm(lines[0])[:70]}",
                           head))
    return out




def diff_snapshots(before, after):
    out = []
    for rel in sorted(set(before) | set(after)):
        b, a = before.get(rel), after.get(rel)
        if b == a:
            continue
        if b and a and b[0] == "dir" and a[0] == "dir":
            continue  # a directory's own entry: mode only, and we never chmod
        out.append((rel, "new" if b is None else "removed" if a is None else "changed",
                    (a or b)[0]))
    return out


def within(rel, d):
    return d is not None and (d == "." or rel == d or rel.startswith(d + "/"))


def place_class(rel):
    if rel.startswith("decoy/"):
        return "in decoy/ (through a link)"
    if rel.startswith(LAYOUT["@IN@"]):
        return "in the input dir"
    if rel.startswith(LAYOUT["@CWD@"]):
        return "in the working dir"
    return "elsewhere in the sandbox"


def ext_class(rel):
    base = os.path.basename(rel)
    for e in (".ptx.tmp", ".manifest.json.tmp", ".cubin.tmp", ".ptx", ".manifest.json", ".cubin",
              ".tmp", ".json", ".svg"):
        if base.endswith(e):
            return "*" + e
    return "(other name)"


def judge_files(case, diff, allowed_dir, success, root):
    """Sandbox changes -> findings, one per kind per case (changes listed)."""
    per_kind = {}
    for f in judge_file_changes(case, diff, allowed_dir, success, root):
        per_kind.setdefault(f.kind, []).append(f)
    out = []
    for kind, fs in per_kind.items():
        tname = fs[0].tool
        what = sorted(set(f.signature for f in fs))
        if kind == "write-outside-output-dir" and all("decoy/" in f.signature for f in fs):
            out.append(Finding(kind, tname, f"{tname}: wrote into decoy/ through a planted link",
                               "\n".join(f.detail for f in fs)[:1000]))
            continue
        label = {"write-outside-output-dir": "wrote outside the output dir",
                 "failure-left-files": "failed run left",
                 "failure-removed-files": "failed run removed pre-existing",
                 "success-left-tmp": "successful run left"}[kind]
        out.append(Finding(kind, tname, f"{tname}: {label}: {', '.join(what)} ({case.family})",
                           "\n".join(f.detail for f in fs)[:1000]))
    return out


def judge_file_changes(case, diff, allowed_dir, success, root):
    tname = "approx-tune" if case.target.startswith("tune") else "approx-opt"
    out = []
    named = set()  # files the command line names as outputs (approx-tune --json/--svg)
    for a in case.allowed_files:
        p = subst(a, root)
        named |= {os.path.relpath(os.path.abspath(p), root), os.path.relpath(os.path.realpath(p), root)}
    for rel, what, typ in diff:
        if rel in named:
            if not success:
                out.append(Finding("failure-left-files", tname, f"{what} {typ} {ext_class(rel)}",
                                   f"{what} {typ}: {rel}"))
            continue
        if not within(rel, allowed_dir):
            out.append(Finding("write-outside-output-dir", tname,
                               f"{what} {typ} {ext_class(rel)} {place_class(rel)}",
                               f"{what} {typ}: {rel}"))
        elif not success and what == "removed":
            out.append(Finding("failure-removed-files", tname, f"{typ} {ext_class(rel)}",
                               f"{what} {typ}: {rel}"))
        elif not success:
            out.append(Finding("failure-left-files", tname, f"{what} {typ} {ext_class(rel)}",
                               f"{what} {typ}: {rel}"))
        elif what == "new" and rel.endswith(".tmp"):
            out.append(Finding("success-left-tmp", tname, f"{ext_class(rel)}", rel))
    return out


def judge_outputs(case, cfg, root, allowed_dir, diff, checks_run):
    """Outputs of a successful export: manifest JSON, PTX, cross-checks."""
    out = []
    d = root / allowed_dir
    mans = [rel for rel, what, typ in diff
            if what != "removed" and rel.endswith(".manifest.json") and within(rel, allowed_dir)]
    if not mans:
        return [Finding("success-without-output", "approx-opt",
                        f"approx-opt: exit 0 but no manifest written ({case.family})")]
    for rel in mans:
        p = root / rel
        if p.is_symlink() or not p.is_file():
            out.append(Finding("output-not-regular-file", "approx-opt",
                               "approx-opt: manifest output is not a regular file", rel))
            continue
        try:
            doc = strict_json(p.read_bytes())
        except RecursionError:
            continue
        except ValueError as e:
            out.append(Finding("invalid-manifest-json", "approx-opt",
                               f"approx-opt: exit 0 but manifest is not valid JSON: {norm(str(e))[:60]}",
                               f"{rel}: {e}"))
            continue
        if case.given_ptx:
            continue  # approx-export alone: PTX and kernel list came from the input
        ptx_name = doc.get("ptx") if isinstance(doc, dict) else None
        ptxp = (p.parent / ptx_name) if isinstance(ptx_name, str) else None
        if not ptxp or not ptxp.is_file():
            out.append(Finding("manifest-ptx-missing", "approx-opt",
                               "approx-opt: manifest's ptx does not name the written PTX",
                               f"{rel}: ptx={ptx_name!r}"))
            continue
        ptx = ptxp.read_bytes()
        entries = set(re.findall(rb"\.entry\s+([^\s(]+)\s*\(", ptx))
        for k in doc.get("kernels", []) if isinstance(doc.get("kernels"), list) else []:
            n = k.get("name") if isinstance(k, dict) else None
            if isinstance(n, str) and n.encode() not in entries:
                out.append(Finding("manifest-ptx-mismatch", "approx-opt",
                                   "approx-opt: manifest kernel has no .entry in the PTX",
                                   f"kernel {n[:60]!r}; entries {sorted(entries)[:5]}"))
                break
        if "ptxas" in case.checks and cfg.ptxas:
            out += check_ptxas(cfg, ptxp, doc, checks_run)
        if "tune-list" in case.checks:
            checks_run["tune-list"] = checks_run.get("tune-list", 0) + 1
            r = run_plain([cfg.tune, str(p), "--list"], cfg, cfg.timeout, cwd=str(root))
            if r.returncode != 0:
                line = r.stderr.decode("utf-8", "replace").strip().splitlines()
                line = line[0] if line else f"exit {r.returncode}"
                out.append(Finding("runtime-rejects-compiler-output", "approx-tune",
                                   f"approx-tune --list rejects approx-opt's manifest: {norm(line)[:90]}",
                                   line.replace(str(root), "@ROOT@")[:300]))
    return out


PTXAS_INCONCLUSIVE = re.compile(r"gpu-name|Unsupported \.version|not supported on|"
                                r"Unknown option|unsupported gpu architecture", re.I)


def check_ptxas(cfg, ptxp, doc, checks_run):
    chip = doc.get("chip") if isinstance(doc.get("chip"), str) else "sm_90"
    if not re.fullmatch(r"sm_\d+[a-z]?", chip):
        chip = "sm_90"
    checks_run["ptxas"] = checks_run.get("ptxas", 0) + 1
    r = run_plain([cfg.ptxas, f"-arch={chip}", str(ptxp), "-o", "/dev/null"], cfg, 120)
    if r.returncode == 0:
        return []
    err = (r.stderr + r.stdout).decode("utf-8", "replace")
    if PTXAS_INCONCLUSIVE.search(err):
        checks_run["ptxas-inconclusive"] = checks_run.get("ptxas-inconclusive", 0) + 1
        return []
    line = next((l for l in err.splitlines() if "error" in l or "fatal" in l), err.strip()[:200])
    line = re.sub(r"^ptxas [^,]*, line \d+; ", "", line)
    return [Finding("ptxas-rejects-output", "approx-opt",
                    f"approx-opt: exit 0 but ptxas rejects the PTX: {norm(line)[:90]}",
                    err[:600])]


def check_roundtrip(case, cfg, pr, root, checks_run):
    if pr.out_size == 0 or pr.out_size > len(pr.out):
        return []
    checks_run["roundtrip"] = checks_run.get("roundtrip", 0) + 1
    f = Path(cfg.scratch) / f"rt-{case.index}.mlir"
    f.write_bytes(pr.out)
    try:
        r = run_plain([resolve_tool(cfg, "opt"), str(f), "-o", "/dev/null"], cfg, cfg.timeout)
    finally:
        f.unlink()
    if r.returncode == 0:
        return []
    given = b"".join(v for k, v in case.files.items() if k.endswith(".mlir") and isinstance(v, bytes))
    if b"<<INVALID EMPTY SYMBOL>>" in pr.out and b'@""' in given:
        # MLIR 22 parses @"" and prints it back as text it cannot parse
        # (mlir-opt-22 too); approx-to-ptx refuses such names.
        accept(checks_run, "upstream prints @\"\" as <<INVALID EMPTY SYMBOL>>")
        return []
    first = first_error(r.stderr.decode("utf-8", "replace")) or f"exit {r.returncode}"
    return [Finding("ir-roundtrip", "approx-opt",
                    f"approx-opt: its own output does not re-parse: {norm(first)[:90]}",
                    first[:300])]


def judge_spec(case, cfg, root):
    mpath = None
    for ph, data in case.files.items():
        if ph.endswith("m.manifest.json"):
            mpath = data
    if mpath is None:
        return []
    argv = case.invs[0].args
    tname = "approx-tune"
    try:
        doc = strict_json(subst_manifest("m.manifest.json", mpath, root))
    except RecursionError:
        return []
    except ValueError as e:
        return [Finding("spec-accepts-invalid", tname,
                        "approx-tune: accepts a manifest that is not valid JSON",
                        str(e)[:200])]
    return [Finding("spec-accepts-invalid", tname, f"approx-tune: accepts manifest with {rule}",
                    detail) for rule, detail in spec_violations(doc, argv, cfg.versions)]


# ----------------------------------------------------------------------------
# Findings store and reproducers.
# ----------------------------------------------------------------------------
def repro_script(case, cfg, fid):
    root = f"/tmp/approx-fuzz-repro/{fid}"
    L = ["#!/usr/bin/env bash",
         f"# Reproducer {fid}: case {case.index} of seed {cfg.seed} ({case.family}).",
         "# Recreates the sandbox under $ROOT and runs the command(s); prints the exit status.",
         "# APPROX_BUILD: the build dir (default: the one the campaign used).",
         "set -u",
         'HERE="$(cd "$(dirname "$0")" && pwd)"',
         f'B="${{APPROX_BUILD:-{cfg.build}}}"',
         f"ROOT={root}",
         'chmod -R u+rwx "$ROOT" 2>/dev/null; rm -rf "$ROOT"',
         " ".join(["mkdir -p"] + [f'"$ROOT/{rel}"' for rel in LAYOUT.values()]),
         f"printf '%s' {shq(DECOY_TEXT.decode())} > \"$ROOT/{DECOY_FILE}\"",
         '[ -d "$HERE/files" ] && cp -R "$HERE/files/." "$ROOT/"',
         # manifests may name sandbox paths through placeholders
         'find "$ROOT" -name "*.manifest.json" -type f -exec sed -i "s#@ROOT@#$ROOT#g" {} +']

    def P(s):
        return shq(subst(s, root))
    for act in case.setup:
        k = act[0]
        if k == "symlink":
            L.append(f"mkdir -p \"$(dirname {P(act[2])})\"; ln -s {P(act[1])} {P(act[2])}")
        elif k == "mkdir":
            L.append(f"mkdir -p {P(act[1])}")
        elif k == "fifo":
            L.append(f"mkfifo {P(act[1])}")
        elif k == "sparse":
            L.append(f"truncate -s {act[2]} {P(act[1])}")
        elif k in ("write", "script"):
            L.append(f"mkdir -p \"$(dirname {P(act[1])})\"; printf '%s' {shq(act[2])} > {P(act[1])}")
            if k == "script":
                L.append(f"chmod 755 {P(act[1])}")
        elif k == "trunc-libdevice":
            L.append(f"head -c 4096 {shq(cfg.libdevice or '/dev/null')} > {P(act[1])}")
        elif k == "copy-input":
            L.append(f"cp {P('@IN@/input.mlir')} {P(act[1])}")
    for act in case.setup:
        if act[0] == "chmod":
            L.append(f"chmod {act[2]:o} {P(act[1])}")
    L.append(f"cd {P('@CWD@')}")
    cmds = []
    for inv in case.invs:
        tool = {"opt": f'"$B/{cfg.bin_rel}approx-opt"', "tune": f'"$B/{cfg.bin_rel}approx-tune"',
                "cc": f'"$B/{cfg.bin_rel}approx-cc"'}.get(inv.tool, shq(inv.tool))
        env = " ".join(f"{k}={shq(v)}" for k, v in inv.env.items())
        cmd = f"{env + ' ' if env else ''}timeout -s KILL {int(cfg.timeout)} {tool} " + \
            " ".join(P(a) for a in inv.args)
        cmds.append(cmd)
    if case.concurrent:
        L += [c + " & " for c in cmds] + ["wait"]
        L.append('echo "(concurrent runs; see ls below)"')
    else:
        for c in cmds:
            L += [c, 'echo "exit status: $?"']
    L.append(f'ls -la {P("@OUT@")}; ls -la {P("@DECOY@")}')
    return "\n".join(L) + "\n", cmds


class Store:
    def __init__(self, cfg):
        self.cfg = cfg
        self.sigs = {}     # key -> dict
        self.order = []
        self.loaded = 0
        if cfg.findings:
            Path(cfg.findings).mkdir(parents=True, exist_ok=True)

    def load(self, path):
        """Continues an earlier campaign's findings (--append): same ids, hits add up."""
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError):
            return
        for f in data.get("findings", []):
            key = (f["kind"], f["tool"], f["signature"])
            self.sigs[key] = {"id": f["id"], "finding": Finding(f["kind"], f["tool"], f["signature"],
                                                                f.get("detail", "")),
                              "hits": f["hits"], "cases": f["cases"], "families": set(f["families"]),
                              "case": None, "result": None}
            self.order.append(key)
        self.loaded = len(self.order)

    def add(self, result):
        new = []
        for f in result.findings:
            key = (f.kind, f.tool, f.signature)
            if key in self.sigs:
                s = self.sigs[key]
                s["hits"] += 1
                s["families"].add(result.case.family)
                if len(s["cases"]) < 10:
                    s["cases"].append(result.case.index)
                continue
            fid = f"{len(self.order) + 1:03d}-{f.kind}"
            s = {"id": fid, "finding": f, "hits": 1, "cases": [result.case.index],
                 "families": {result.case.family}, "case": result.case, "result": result}
            self.sigs[key] = s
            self.order.append(key)
            self.save(s)
            new.append(s)
        return new

    def save(self, s, minimized=None):
        if not self.cfg.findings:
            return
        case = minimized or s["case"]
        res = s["result"]
        d = Path(self.cfg.findings) / s["id"]
        if d.exists():
            shutil.rmtree(d)
        (d / "files").mkdir(parents=True)
        for ph, data in case.files.items():
            rel = subst(ph, "@@").replace("@@/", "", 1)
            p = d / "files" / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
        script, cmds = repro_script(case, self.cfg, s["id"])
        (d / "repro.sh").write_text(script)
        os.chmod(d / "repro.sh", 0o755)
        f = s["finding"]
        (d / "command.txt").write_text("\n".join(cmds) + "\n")
        info = case.describe()
        info.update({"seed": self.cfg.seed, "kind": f.kind, "tool": f.tool,
                     "signature": f.signature, "detail": f.detail,
                     "minimized": minimized is not None,
                     "rerun": f"approx-fuzz.py --seed {self.cfg.seed} --case {case.index}"})
        (d / "case.json").write_text(json.dumps(info, indent=2, ensure_ascii=True) + "\n")
        with open(d / "output.txt", "w", errors="replace") as o:
            o.write(f"{f.kind}: {f.signature}\n{f.detail}\n\n")
            for pr in res.procs:
                o.write(f"$ {' '.join(shq(a) for a in pr.argv)[:2000]}\n")
                o.write(f"exit {pr.rc}{' (killed: timeout)' if pr.timed_out else ''}, {pr.secs:.2f} s "
                        f"({pr.cpu:.2f} s CPU), "
                        f"stdout {pr.out_size} B, stderr {pr.err_size} B\n")
                o.write("--- stderr (first 8 KB) ---\n")
                o.write(pr.err[:8192].decode("utf-8", "replace").replace(res.root, "@ROOT@"))
                o.write("\n--- stdout (first 2 KB) ---\n")
                o.write(pr.out[:2048].decode("utf-8", "replace").replace(res.root, "@ROOT@") + "\n")
            if res.diff:
                o.write("--- sandbox changes ---\n")
                for rel, what, typ in res.diff:
                    o.write(f"{what} {typ} {rel}\n")

    def any(self):
        return bool(self.order)


# ----------------------------------------------------------------------------
# Minimizer: keeps the finding's signature while dropping input lines, option
# tokens, argv pairs and JSON members.
# ----------------------------------------------------------------------------
def minimize(store, s, cfg):
    case = s["case"]
    key = (s["finding"].kind, s["finding"].tool, s["finding"].signature)
    budget = {"runs": 0}
    t_end = time.monotonic() + cfg.minimize_seconds

    def still(c):
        if budget["runs"] >= cfg.minimize_runs or time.monotonic() > t_end:
            return False
        budget["runs"] += 1
        r = run_case(c, cfg)
        return any((f.kind, f.tool, f.signature) == key for f in r.findings), r

    def try_case(c):
        res = still(c)
        return res if res else (False, None)

    best, best_res = case, s["result"]
    def step_lines():
        nonlocal best, best_res
        # 1. input lines (ddmin-style chunks)
        for ph in [p for p in best.files if p.endswith((".mlir",))]:
            lines = best.files[ph].split(b"\n")
            n = 2
            while len(lines) >= 2 and n <= len(lines):
                chunk = max(1, len(lines) // n)
                reduced = False
                for i in range(0, len(lines), chunk):
                    cand = lines[:i] + lines[i + chunk:]
                    c = dataclasses.replace(best, files={**best.files, ph: b"\n".join(cand)})
                    ok, r = try_case(c)
                    if ok:
                        best, best_res, lines, reduced = c, r, cand, True
                        n = max(n - 1, 2)
                        break
                if not reduced:
                    if chunk == 1:
                        break
                    n = min(len(lines), n * 2)

    def step_json():
        nonlocal best, best_res
        # 2. JSON members of a manifest
        for ph in [p for p in best.files if p.endswith(".manifest.json")]:
            try:
                doc = json.loads(best.files[ph])
            except ValueError:
                continue
            changed = True
            while changed:
                changed = False
                for p in sorted((p for p in json_paths(doc) if p), key=len):
                    cand = json.loads(json.dumps(doc))
                    try:
                        parent = json_get(cand, p[:-1])
                        del parent[p[-1]]
                    except (KeyError, IndexError, TypeError):
                        continue
                    c = dataclasses.replace(best, files={**best.files, ph: json.dumps(cand, indent=1).encode()})
                    ok, r = try_case(c)
                    if ok:
                        best, best_res, doc, changed = c, r, cand, True
                        break

    def step_args():
        nonlocal best, best_res
        # 3. option tokens inside --approx-to-ptx= / {...}, then argv pairs
        for k, inv in enumerate(best.invs):
            for j, a in enumerate(inv.args):
                m = re.match(r"(--approx-to-ptx=)(.*)$", a)
                if not m:
                    continue
                try:
                    toks = shlex.split(m.group(2))
                except ValueError:
                    toks = None
                if not toks:
                    continue
                for t in list(toks):
                    if t.startswith("output-dir="):
                        continue
                    cand = [x for x in toks if x != t]
                    args = inv.args[:j] + [m.group(1) + opt_string(dict(
                        (x.split("=", 1) + [None])[:2] for x in cand))] + inv.args[j + 1:]
                    invs = best.invs[:k] + [dataclasses.replace(inv, args=args)] + best.invs[k + 1:]
                    c = dataclasses.replace(best, invs=invs)
                    ok, r = try_case(c)
                    if ok:
                        best, best_res, toks, inv = c, r, cand, invs[k]
            if inv.tool == "tune":
                i = 1
                while i < len(inv.args):
                    a = inv.args[i]
                    width = 2 if a.startswith("--") and i + 1 < len(inv.args) and not inv.args[i + 1].startswith("--") else 1
                    args = inv.args[:i] + inv.args[i + width:]
                    invs = best.invs[:k] + [dataclasses.replace(inv, args=args)] + best.invs[k + 1:]
                    c = dataclasses.replace(best, invs=invs)
                    ok, r = try_case(c)
                    if ok:
                        best, best_res, inv = c, r, invs[k]
                    else:
                        i += width

    steps = [step_args, step_json, step_lines] if case.target.startswith("tune") else \
        [step_lines, step_args, step_json]
    for step in steps:
        step()
    if best is not case:
        s["result"] = best_res
        store.save(s, minimized=best)
    return budget["runs"]


# ----------------------------------------------------------------------------
# Self-test: every oracle fires on a synthetic bad tool, and a well-behaved
# tool yields nothing.
# ----------------------------------------------------------------------------
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


# ----------------------------------------------------------------------------
# Campaign driver.
# ----------------------------------------------------------------------------
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
    ap = argparse.ArgumentParser(description=__doc__)
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


KIND_ORDER = ["crash", "hang", "memory-blowup", "error-on-success", "multi-error", "multi-line-error", "module-dump", "oversized-error",
              "silent-failure", "odd-exit", "raw-control-chars", "write-outside-output-dir",
              "failure-left-files", "failure-removed-files", "success-left-tmp", "output-not-regular-file",
              "success-without-output", "invalid-manifest-json", "manifest-ptx-missing",
              "manifest-ptx-mismatch", "ptxas-rejects-output", "runtime-rejects-compiler-output",
              "ir-roundtrip", "spec-accepts-invalid"]


def summary(store, stats, cfg, a, say):
    print(f"\napprox-fuzz summary: seed {cfg.seed}, cases {a.first}..{a.first + a.runs - 1}, "
          f"{stats['runs']} runs in {stats['seconds']} s"
          + (f" (stopped by --seconds {a.seconds:g}; continue with --first {stats.get('next', a.first)})"
             if stats["stopped_early"] else "")
          + (f", {stats['skipped_hang_family']} cases skipped (family already hung)"
             if stats["skipped_hang_family"] else ""))
    print("  runs by target: " + ", ".join(f"{t} {n}" for t, n in sorted(stats["by_target"].items())))
    print(f"  exit 0: {stats['exit0']}; extra checks: " +
          (", ".join(f"{k} {v}" for k, v in sorted(stats["checks"].items())) or "none"))
    by_kind = {}
    for key in store.order:
        s = store.sigs[key]
        d = by_kind.setdefault(s["finding"].kind, [0, 0])
        d[0] += 1
        d[1] += s["hits"]
    print(f"\n  {'oracle':34} {'signatures':>10} {'hits':>6}")
    for k in KIND_ORDER:
        n, h = by_kind.get(k, (0, 0))
        print(f"  {k:34} {n:>10} {h:>6}")
    if store.order:
        print("\n  findings (one per signature; reproducers in "
              f"{os.path.abspath(cfg.findings) if cfg.findings else '(not saved)'}):")
        for key in sorted(store.order, key=lambda k: (KIND_ORDER.index(k[0]) if k[0] in KIND_ORDER else 99,
                                                      store.sigs[k]["id"])):
            s = store.sigs[key]
            print(f"  {s['id']:32} hits {s['hits']:>4}  {s['finding'].signature[:120]}")
    if store.loaded:
        print(f"  ({store.loaded} signatures came from the earlier parts of this campaign, --append)")
    if a.json_summary or cfg.findings:
        data = {"seed": cfg.seed, "build": cfg.build, **stats,
                "findings": [{"id": store.sigs[k]["id"], "kind": k[0], "tool": k[1], "signature": k[2],
                              "hits": store.sigs[k]["hits"], "cases": store.sigs[k]["cases"],
                              "families": sorted(store.sigs[k]["families"]),
                              "detail": store.sigs[k]["finding"].detail[:500]}
                             for k in store.order]}
        path = a.json_summary or os.path.join(cfg.findings, "summary.json")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=True) + "\n")
    print(f"\napprox-fuzz: {'FOUND ' + str(len(store.order)) + ' signature(s)' if store.order else 'nothing found'}")


if __name__ == "__main__":
    sys.exit(main())
