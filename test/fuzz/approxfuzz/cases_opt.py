"""Case generators for approx-opt: mutated IR through the pipeline or single
passes (opt-ir), bad approx-to-ptx options (opt-options), and hostile output
directories and odd input files (opt-files)."""

import os

from .corpus import k_knob_module
from .model import Inv, Seed
from .mutate_mlir import IR_MUTATIONS
from .pools import OPT_BAD, OPT_BENIGN, SPARSE_SIZE, odd_file_setup
from .random_draws import geometric, weighted
from .sandbox import DECOY_FILE


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
