#!/usr/bin/env python3
# hrcs-fuzz.py - random command lines and damaged checkpoints for approx-hrcs
# (stdlib only; CI runs a fixed-seed campaign through ctest: hrcs.fuzz).
#
# Oracles, for every run:
#   - no signal (crash) and no hang (the domains generated are small);
#   - exit 0, or a non-zero exit with exactly one line on stderr naming
#     the tool;
#   - nothing written outside the run's own output directory;
#   - exit 0 leaves <f>.wc and stats.json, each case line a hex float.
# Usage: hrcs-fuzz.py BIN [--seed S] [--runs N] [--seconds T]
import argparse, os, random, shutil, subprocess, sys, tempfile, time

FUNCS = ["exp", "exp2", "log", "log2", "sin", "cos"]
JUNK = ["", "nan", "inf", "-inf", "0", "-0", "1e999", "0x1p-100000", "abc",
        "1,2,3", "0x", "--", "\x7f", "%s%n", "1" * 400, "-1", "2", "0.5",
        "0x1.fffffffffffffp1023", "4e-320"]

def hexf(x):
    return float(x).hex()

def small_domain(rng, p):
    # a segment of at most 2^14 arguments of a random binade (bounds are
    # doubles: past 53 bits a unit of the width is 2^(p-53) arguments)
    e = rng.randint(-30, 9)
    width = rng.choice([1, 2, 16, 1000, 1 << 14])
    if p > 53:
        width = max(1, width >> (p - 53))
    start = rng.randrange(0, max(1, (1 << min(p - 1, 52)) - width))
    scale = 2.0 ** (e - min(p - 1, 52))
    lo = (2 ** min(p - 1, 52) + start) * scale
    hi = lo + width * scale
    if rng.random() < 0.2:
        lo, hi = -hi, -lo
    return f"{hexf(lo)},{hexf(hi)}"

def gen_args(rng):
    def pick(good, bad, p_bad=0.08):
        return rng.choice(bad) if rng.random() < p_bad else rng.choice(good)
    p = pick([24, 24, 53, 53, 11, 64, 2, 3], [0, 65, -1])
    args = ["--function", pick(FUNCS, ["tan", "EXP", ""])]
    args += ["--domain", small_domain(rng, max(p, 2)) if rng.random() < 0.92
             else rng.choice(JUNK)]
    args += ["--arg-precision", str(p)]
    if rng.random() < 0.5:
        args += ["--precision", str(pick([p + 1, p, 25, 54, 113], [114, 1]))]
    args += ["--epsilon", pick(["0x1p-10", "0x1p-20", "0x1p-40", "0x1p-4",
                                "0.25", "0x1p-100"],
                               ["0.3", "0x1p-101"] + JUNK[:6])]
    for opt, good, bad in [
            ("--algorithm", ["lefevre", "regular", "auto"], ["x"]),
            ("--interval-bits", ["0", "2", "4", "30"], ["31", "-3", "z"]),
            ("--split", ["1", "8", "1024"], ["3", "0", "2048"]),
            ("--packet-bits", ["-1", "0", "5", "30"], ["31"]),
            ("--division-threshold", ["0", "3", "16"], ["17", "64"]),
            ("--emin", ["0", "-126", "-1022"], ["100001"]),
            ("--threads", ["1", "2"], ["0", "1025"])]:
        if rng.random() < 0.3:
            args += [opt, pick(good, bad, 0.1)]
    if rng.random() < 0.05:
        args += [rng.choice(["--bogus", "--backend", "-o"])]
    return args

def check_wc(path):
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            float.fromhex(line.split()[0])

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=90)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    root = tempfile.mkdtemp(prefix="hrcs-fuzz-")
    fails = 0
    ok_runs = 0
    t0 = time.time()
    n = 0
    try:
        for n in range(a.runs):
            if time.time() - t0 > a.seconds:
                break
            run = os.path.join(root, f"run{n}")
            os.mkdir(run)
            out = os.path.join(run, "out")
            args = gen_args(rng) + ["--quiet", "-o", out]
            # Sometimes: a damaged or foreign checkpoint, then --resume.
            if rng.random() < 0.15:
                os.mkdir(out)
                with open(os.path.join(out, "hrcs.state"), "w") as f:
                    f.write(rng.choice([
                        "", "approx-hrcs state 1\n", "garbage\n\x00\x01",
                        "approx-hrcs state 1\nfunction=exp\n1 2 3\n",
                        "approx-hrcs state 1\n" + "x" * 10000 + "\n"]))
                if rng.random() < 0.5:
                    with open(os.path.join(out, "cases.partial"), "w") as f:
                        f.write("0x1p+0\n" * rng.randint(0, 3))
                args.append("--resume")
            before = set(os.listdir(run))
            try:
                r = subprocess.run([a.bin] + args, capture_output=True,
                                   timeout=30, text=True, errors="replace")
            except subprocess.TimeoutExpired:
                print("HANG:", " ".join(args)); fails += 1; continue
            why = None
            ok_runs += r.returncode == 0
            if r.returncode < 0:
                why = f"signal {-r.returncode}"
            elif r.returncode != 0:
                lines = r.stderr.strip("\n").split("\n")
                if len(lines) != 1 or not lines[0].startswith("approx-hrcs: "):
                    why = f"stderr not one line: {r.stderr[:300]!r}"
            else:
                fn = args[args.index("--function") + 1]
                try:
                    check_wc(os.path.join(out, fn + ".wc"))
                    if not os.path.exists(os.path.join(out, "stats.json")):
                        why = "no stats.json"
                except Exception as e:
                    why = f"bad .wc: {e}"
            extra = set(os.listdir(run)) - before - {"out"}
            if extra:
                why = f"wrote outside its output directory: {extra}"
            if why:
                fails += 1
                print("FINDING:", why, "\n   ", a.bin, " ".join(
                    "'" + x + "'" for x in args))
            shutil.rmtree(run, ignore_errors=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"hrcs-fuzz: {n + 1} runs ({ok_runs} searches ran to the end), "
          f"{fails} findings")
    return 1 if fails else 0

if __name__ == "__main__":
    sys.exit(main())
