#!/usr/bin/env python3
"""prepare.py - build the CUDA corpus here, where MLIR is.

For every kernel of bench/cuda-corpus/*.json: take its source from the
upstream checkout the user names (checked against the spec's sha256), build
PTX three ways (nvcc -O3, nvcc -O3 -use_fast_math, approx-cc), count each
build's registers with ptxas, and write what run-corpus needs on a GPU
machine:

  OUT/<id>/{nvcc.ptx, fast.ptx, ours.ptx, ours.manifest.json, spec.txt,
            static.json}

Nothing upstream is committed to this repository: a kernel is named by
repository, commit, path and sha256 (see README.md).

  prepare.py --approx-cc build/bin/approx-cc \\
      --source cuda-samples=/path/to/cuda-samples --source rodinia=/path/to/gpu-rodinia \\
      --out .carry/cuda-corpus [--only ID,...] [--chip sm_90]

A source is a checkout, a bare git directory (files are taken from the
spec's commit with git archive) or a plain directory tree.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BUFFER_TYPES = {"f32", "f64", "i32", "u32", "i64", "u8"}
SCALAR_TYPES = {"f32", "f64", "i32", "u32", "i64", "u64"}
INIT_ARITY = {"zero": 0, "const": 1, "uniform": 2, "iota": 0}
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
NAME_RE = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]{0,1023}$")
MAX_BYTES = 4 << 30  # all buffers of one kernel together


class SpecError(Exception):
    pass


def die(msg):
    print(f"prepare.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def check_init(where, init):
    if (not isinstance(init, list) or not init or init[0] not in INIT_ARITY
            or len(init) != 1 + INIT_ARITY[init[0]]
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                       for v in init[1:])):
        raise SpecError(f"{where}: init must be one of ['zero'], ['const', v], "
                        f"['uniform', lo, hi], ['iota'], not {init!r}")
    if init[0] == "uniform" and not init[1] <= init[2]:
        raise SpecError(f"{where}: uniform range [{init[1]}, {init[2]}] is reversed")


def check_dims(where, dims):
    if (not isinstance(dims, list) or len(dims) != 3
            or not all(isinstance(d, int) and 1 <= d <= 2**31 - 1 for d in dims)):
        raise SpecError(f"{where}: must be three positive integers, not {dims!r}")


def size_of(t):
    return {"f32": 4, "f64": 8, "i32": 4, "u32": 4, "i64": 8, "u64": 8, "u8": 1}[t]


def check_kernel(project, k, seen):
    where = f"{project}: kernel {k.get('id', '?')!r}"
    for field in ("id", "source", "sha256", "kernel", "grid", "block", "args", "why"):
        if field not in k:
            raise SpecError(f"{where}: missing field '{field}'")
    if not ID_RE.match(k["id"]):
        raise SpecError(f"{where}: id must match {ID_RE.pattern}")
    if k["id"] in seen:
        raise SpecError(f"{where}: id also used by {seen[k['id']]}")
    seen[k["id"]] = project
    if not NAME_RE.match(k["kernel"]):
        raise SpecError(f"{where}: kernel {k['kernel']!r} is not a PTX entry name")
    if not re.match(r"^[0-9a-f]{64}$", k["sha256"]):
        raise SpecError(f"{where}: sha256 must be 64 lowercase hex digits")
    for p in [k["source"]] + k.get("include", []):
        if os.path.isabs(p) or ".." in p.split("/"):
            raise SpecError(f"{where}: path {p!r} must stay inside the repository")
    for d in k.get("defines", []):
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*(=[^\s]*)?$", d):
            raise SpecError(f"{where}: bad define {d!r}")
    check_dims(f"{where}: grid", k["grid"])
    check_dims(f"{where}: block", k["block"])
    if k["block"][0] * k["block"][1] * k["block"][2] > 1024:
        raise SpecError(f"{where}: a block of more than 1024 threads")
    shared = k.get("shared", 0)
    if not isinstance(shared, int) or not 0 <= shared <= 227 * 1024:
        raise SpecError(f"{where}: shared must be 0..232448 bytes")
    total, outputs = 0, 0
    for i, a in enumerate(k["args"]):
        aw = f"{where}: arg {i}"
        if "buffer" in a:
            if a["buffer"] not in BUFFER_TYPES:
                raise SpecError(f"{aw}: buffer type {a['buffer']!r} not in {sorted(BUFFER_TYPES)}")
            if not isinstance(a.get("count"), int) or a["count"] < 1:
                raise SpecError(f"{aw}: count must be a positive integer")
            check_init(aw, a.get("init"))
            total += a["count"] * size_of(a["buffer"])
            outputs += bool(a.get("output"))
        elif "scalar" in a:
            if a["scalar"] not in SCALAR_TYPES:
                raise SpecError(f"{aw}: scalar type {a['scalar']!r} not in {sorted(SCALAR_TYPES)}")
            if not isinstance(a.get("value"), (int, float)) or isinstance(a["value"], bool):
                raise SpecError(f"{aw}: scalar needs a numeric value")
        else:
            raise SpecError(f"{aw}: neither 'buffer' nor 'scalar'")
    if not outputs:
        raise SpecError(f"{where}: no buffer is marked output")
    if total > MAX_BYTES:
        raise SpecError(f"{where}: buffers total {total >> 20} MiB, over {MAX_BYTES >> 20} MiB")
    for g in k.get("globals", []):
        if not NAME_RE.match(g.get("name", "")) or g.get("type") not in BUFFER_TYPES \
                or not isinstance(g.get("count"), int) or g["count"] < 1:
            raise SpecError(f"{where}: global {g!r} needs name, type and count")
        check_init(f"{where}: global {g['name']}", g.get("init"))


def load_specs(only):
    projects, seen = [], {}
    for name in sorted(os.listdir(HERE)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(HERE, name)
        try:
            with open(path) as f:
                p = json.load(f)
        except (OSError, ValueError) as e:
            raise SpecError(f"{name}: {e}")
        for field in ("project", "repository", "commit", "licence", "licence_file", "kernels"):
            if field not in p:
                raise SpecError(f"{name}: missing field '{field}'")
        if not re.match(r"^[0-9a-f]{40}$", p["commit"]):
            raise SpecError(f"{name}: commit must be 40 hex digits")
        p["key"] = name[:-len(".json")]
        for k in p["kernels"]:
            check_kernel(name, k, seen)
        if only:
            p["kernels"] = [k for k in p["kernels"] if k["id"] in only]
        projects.append(p)
    unknown = set(only or ()) - set(seen)
    if unknown:
        raise SpecError(f"--only names unknown kernels: {', '.join(sorted(unknown))}")
    return projects


def run(cmd, log):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(log, "a") as f:
        f.write("$ " + " ".join(cmd) + "\n" + r.stdout + "\n")
    return r


def materialise(project, src, scratch):
    """A directory holding the project's files at its commit."""
    if os.path.isdir(os.path.join(src, "objects")) and os.path.isfile(os.path.join(src, "HEAD")):
        paths = sorted({os.path.dirname(k["source"]) or "." for k in project["kernels"]} |
                       {i for k in project["kernels"] for i in k.get("include", [])} |
                       {project["licence_file"]})
        dest = os.path.join(scratch, project["key"])
        os.makedirs(dest)
        listing = subprocess.run(["git", "--git-dir", src, "ls-tree", "-r", "-z", "--name-only",
                                  project["commit"], "--", *paths],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if listing.returncode != 0:
            raise SpecError(f"{project['key']}: {src} has no commit {project['commit'][:12]}")
        # File by file: a mirror may lack large blobs the corpus never reads.
        for name in filter(None, listing.stdout.decode().split("\0")):
            blob = subprocess.run(["git", "--git-dir", src, "cat-file", "blob",
                                   f"{project['commit']}:{name}"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            if blob.returncode != 0:
                continue
            target = os.path.join(dest, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(blob.stdout)
        return dest
    return src


def registers(ptx, chip, entry, log):
    r = run(["ptxas", f"-arch={chip}", "-O3", "-v", ptx, "-o", os.devnull], log)
    if r.returncode != 0:
        return None
    current, regs = None, None
    for line in r.stdout.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = m.group(1)
        m = re.search(r"Used (\d+) registers", line)
        if m and current == entry:
            regs = int(m.group(1))
    return regs


def init_text(init):
    return " ".join(str(v) for v in init)


def write_spec(k, knob, path):
    lines = [f"kernel {k['kernel']}",
             "grid " + " ".join(map(str, k["grid"])),
             "block " + " ".join(map(str, k["block"])),
             f"shared {k.get('shared', 0)}",
             f"knob {knob}" if knob else "knob -"]
    for a in k["args"]:
        if "buffer" in a:
            lines.append(f"buffer {a['buffer']} {a['count']} "
                         f"{'out' if a.get('output') else 'in'} {init_text(a['init'])}")
        else:
            lines.append(f"scalar {a['scalar']} {a['value']!r}")
    for g in k.get("globals", []):
        lines.append(f"global {g['name']} {g['type']} {g['count']} {init_text(g['init'])}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def prepare_kernel(project, root, k, args, outdir):
    kdir = os.path.join(outdir, k["id"])
    os.makedirs(kdir, exist_ok=True)
    log = os.path.join(kdir, "prepare.log")
    open(log, "w").close()
    source = os.path.join(root, k["source"])
    try:
        with open(source, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
    except OSError as e:
        raise SpecError(f"{k['id']}: cannot read {k['source']} in {root}: {e.strerror}")
    if digest != k["sha256"]:
        raise SpecError(f"{k['id']}: {k['source']} has sha256 {digest[:12]}..., the spec "
                        f"says {k['sha256'][:12]}... (another commit of {project['key']}?)")
    inc = [f"-I{os.path.join(root, i)}" for i in k.get("include", [])]
    defs = [f"-D{d}" for d in k.get("defines", [])]
    builds = {}
    for name, extra in (("nvcc", []), ("fast", ["-use_fast_math"])):
        ptx = os.path.join(kdir, f"{name}.ptx")
        r = run([args.nvcc, "-O3", "-std=c++17", f"-arch={args.chip}", "-ptx", *extra,
                 *inc, *defs, source, "-o", ptx], log)
        if r.returncode != 0:
            raise SpecError(f"{k['id']}: nvcc {' '.join(extra) or '-O3'} failed (see {log})")
        builds[name] = ptx
    with tempfile.TemporaryDirectory(dir=kdir) as tmp:
        r = run([args.approx_cc, source, "-o", tmp, "--name", "ours", "--chip", args.chip,
                 *inc, *defs], log)
        if r.returncode != 0:
            last = r.stdout.strip().splitlines()[-1:] or ["(no message)"]
            raise SpecError(f"{k['id']}: approx-cc failed: {last[0]}")
        for f in ("ours.ptx", "ours.manifest.json"):
            shutil.move(os.path.join(tmp, f), os.path.join(kdir, f))
    builds["ours"] = os.path.join(kdir, "ours.ptx")
    for name, ptx in builds.items():
        with open(ptx) as f:
            if not re.search(rf"\.entry\s+{re.escape(k['kernel'])}\s*\(", f.read()):
                raise SpecError(f"{k['id']}: {name}.ptx has no entry {k['kernel']}")
    with open(os.path.join(kdir, "ours.manifest.json")) as f:
        manifest = json.load(f)
    knobs = [kn for kn in manifest.get("knobs", [])
             if k["kernel"] in kn.get("governs", {}).get("kernels", [])
             and kn.get("technique") == "sfu"]
    sites = [s for s in manifest.get("sites", []) if k["kernel"] in s.get("kernels", [])]
    knob = knobs[0]["symbol"] if knobs else None
    write_spec(k, knob, os.path.join(kdir, "spec.txt"))
    static = {"id": k["id"], "project": project["project"], "kernel": k["kernel"],
              "source": f"{project['repository']}/blob/{project['commit']}/{k['source']}",
              "licence": project["licence"], "why": k["why"], "sites": len(sites),
              "knob": knob,
              "registers": {n: registers(p, args.chip, k["kernel"], log)
                            for n, p in builds.items()}}
    with open(os.path.join(kdir, "static.json"), "w") as f:
        json.dump(static, f, indent=1)
    return static


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--approx-cc", required=True)
    ap.add_argument("--source", action="append", default=[], metavar="PROJECT=DIR")
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--chip", default="sm_90")
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    args = ap.parse_args()
    if not re.match(r"^sm_\d{2,3}a?$", args.chip):
        die(f"--chip {args.chip!r} is not sm_XY")
    for tool in (args.approx_cc, args.nvcc):
        if not os.access(tool, os.X_OK):
            die(f"{tool} is not an executable")
    if shutil.which("ptxas") is None and not os.access("/usr/local/cuda/bin/ptxas", os.X_OK):
        die("ptxas is not on PATH (the CUDA toolkit's bin directory)")
    os.environ["PATH"] = os.path.dirname(args.nvcc) + os.pathsep + os.environ["PATH"]
    sources = {}
    for s in args.source:
        key, sep, d = s.partition("=")
        if not sep or not os.path.isdir(d):
            die(f"--source {s!r}: expected PROJECT=DIR with an existing DIR")
        sources[key] = os.path.abspath(d)
    if not os.path.isdir(args.out):
        die(f"--out {args.out!r} is not a directory")
    try:
        projects = load_specs(set(filter(None, args.only.split(","))))
        missing = [p["key"] for p in projects if p["kernels"] and p["key"] not in sources]
        if missing:
            die("no --source for " + ", ".join(
                f"{m} (a checkout of {p['repository']} at {p['commit'][:12]})"
                for m in missing for p in projects if p["key"] == m))
        index, failed = [], []
        with tempfile.TemporaryDirectory() as scratch:
            for p in projects:
                if not p["kernels"]:
                    continue
                root = materialise(p, sources[p["key"]], scratch)
                for k in p["kernels"]:
                    try:
                        st = prepare_kernel(p, root, k, args, args.out)
                        index.append(k["id"])
                        regs = st["registers"]
                        print(f"{k['id']:<28} sites {st['sites']:>3}  registers nvcc {regs['nvcc']}"
                              f" fast {regs['fast']} ours {regs['ours']}")
                    except SpecError as e:
                        failed.append(str(e))
                        print(f"prepare.py: {e}", file=sys.stderr)
        # --only adds to what an earlier run prepared instead of replacing it.
        path = os.path.join(args.out, "index.txt")
        if args.only and os.path.exists(path):
            with open(path) as f:
                earlier = [line.strip() for line in f if line.strip()]
            index = earlier + [i for i in index if i not in earlier]
        with open(path, "w") as f:
            f.write("\n".join(index) + "\n")
        if failed:
            die(f"{len(failed)} of {len(failed) + len(index)} kernels failed")
    except SpecError as e:
        die(str(e))


if __name__ == "__main__":
    main()
