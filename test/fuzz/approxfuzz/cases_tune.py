"""Case generators for approx-tune: mutated manifests read by --list,
--dry-run or a run (tune-manifest), and bad command lines on an accepted
manifest (tune-args)."""

import json
import re

from .model import Inv
from .mutate_manifest import mutate_manifest, raw_json_mutation
from .pools import HOSTILE_NAMES, SPARSE_SIZE
from .random_draws import geometric, weighted
from .sandbox import DECOY_FILE


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
    "--capture-arg": ["k", "k:", ":0", "k:0:vector<4xf32>", "k:99999999", "k:0:f32:x",
                      "\x1b[2J:0", "k:-1", "k:0:"],
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
