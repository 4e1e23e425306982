#!/usr/bin/env python3
"""Generates and compiles the kernels of the correctly rounded rung's GPU check.

Two kernels per function f in exp, exp2, log, log2 (f32), written with math
ops, so that what is measured is what approx-opt emits:
    cr_<f>(x: memref<?xf32>, out: memref<?xf32>, n: index)
        out[i] = f(x[i])                        (the exhaustive check)
    cost_<f>(out: memref<?xf32>, n: index)
        out[i] = sum over k < 64 of f(x_ik)     (throughput: no memory in
                                                 the loop, x_ik from a hash)
compiled three ways:
    cr_correct      correct=exp,exp2,log,log2   every site `correct`
    cost_correct    the same, cost kernels
    cost_tunable    default options             one tunable site each:
                                                lambda 0 precise, 64 SFU
Each manifest is checked for exactly those sites.

usage: cr-kernels.py APPROX_OPT OUTDIR
"""
import json, os, subprocess, sys

FUNCS = ["exp", "exp2", "log", "log2"]

HEAD = """    gpu.func @{name}({args}) kernel {{
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {{
"""
TAIL = """      }}
      gpu.return
    }}
"""


def check_kernel(f):
    body = """        %v = memref.load %x[%i] : memref<?xf32>
        %r = math.{f} %v : f32
        memref.store %r, %out[%i] : memref<?xf32>
""".format(f=f)
    args = "%x: memref<?xf32>, %out: memref<?xf32>, %n: index"
    return HEAD.format(name="cr_" + f, args=args) + body + TAIL.format()


# x_ik: a 24-bit hash h of (i, k) mapped to the arguments that matter:
# exp: [-87, 87); exp2: [-125, 125); log, log2: every positive normal
# binade 2^-100..2^100 (h's top bits pick the exponent, the rest the
# significand).
ARGS = {
    "exp": ("%s = arith.uitofp %h : i32 to f32\n"
            "          %sc = arith.constant 1.03712463e-05 : f32\n"
            "          %lo = arith.constant -87.0 : f32\n"
            "          %x = math.fma %s, %sc, %lo : f32\n"),
    "exp2": ("%s = arith.uitofp %h : i32 to f32\n"
             "          %sc = arith.constant 1.49011612e-05 : f32\n"
             "          %lo = arith.constant -125.0 : f32\n"
             "          %x = math.fma %s, %sc, %lo : f32\n"),
}
LOG_ARG = ("%e = arith.shrui %h, %c16 : i32\n"
           "          %c200 = arith.constant 200 : i32\n"
           "          %er = arith.remui %e, %c200 : i32\n"
           "          %c27 = arith.constant 27 : i32\n"
           "          %eb = arith.addi %er, %c27 : i32\n"
           "          %c23 = arith.constant 23 : i32\n"
           "          %ex = arith.shli %eb, %c23 : i32\n"
           "          %m = arith.andi %h32, %cmask : i32\n"
           "          %bits = arith.ori %ex, %m : i32\n"
           "          %x = arith.bitcast %bits : i32 to f32\n")
ARGS["log"] = ARGS["log2"] = LOG_ARG


def cost_kernel(f):
    body = """        %ii = arith.index_cast %i : index to i32
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c64 = arith.constant 64 : index
        %zero = arith.constant 0.0 : f32
        %gold = arith.constant -1640531535 : i32
        %mix = arith.constant 40503 : i32
        %c16 = arith.constant 16 : i32
        %c8 = arith.constant 8 : i32
        %c24mask = arith.constant 16777215 : i32
        %cmask = arith.constant 8388607 : i32
        %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {{
          %kk = arith.index_cast %k : index to i32
          %a = arith.muli %ii, %gold : i32
          %b = arith.muli %kk, %mix : i32
          %h0 = arith.addi %a, %b : i32
          %hs = arith.shrui %h0, %c16 : i32
          %h32 = arith.xori %h0, %hs : i32
          %h8 = arith.shrui %h32, %c8 : i32
          %h = arith.andi %h8, %c24mask : i32
          {arg}          %r = math.{f} %x : f32
          %acc2 = arith.addf %acc, %r : f32
          scf.yield %acc2 : f32
        }}
        memref.store %sum, %out[%i] : memref<?xf32>
""".format(f=f, arg=ARGS[f])
    args = "%out: memref<?xf32>, %n: index"
    return HEAD.format(name="cost_" + f, args=args) + body + TAIL.format()


def check_manifest(path, prefix, form):
    m = json.load(open(path))
    sites = m.get("sites", [])
    for k in m["kernels"]:
        f = k["name"][len(prefix):]
        ks = [sites[i] for i in k.get("sites", [])]
        if len(ks) != 1 or ks[0].get("form") != form or ks[0].get("op") != f:
            sys.exit("%s: kernel %s is not one %s %s site: %s" %
                     (path, k["name"], form, f, json.dumps(ks)))
    if sorted(k["name"] for k in m["kernels"]) != sorted(
            prefix + f for f in FUNCS):
        sys.exit("%s: unexpected kernels" % path)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    opt, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    correct = "correct=" + ",".join(FUNCS)
    for name, maker, prefix, options, form in [
            ("cr_correct", check_kernel, "cr_", correct, "correct"),
            ("cost_correct", cost_kernel, "cost_", correct, "correct"),
            ("cost_tunable", cost_kernel, "cost_", "", "tunable")]:
        src = ("// generated by bench/accuracy/cr-kernels.py, do not edit\n"
               "module attributes {gpu.container_module} {\n"
               "  gpu.module @kernels {\n" +
               "".join(maker(f) for f in FUNCS) + "  }\n}\n")
        path = os.path.join(outdir, name + ".mlir")
        with open(path, "w") as f:
            f.write(src)
        pipe = "--approx-to-ptx=output-dir=%s name=%s %s" % (outdir, name,
                                                             options)
        subprocess.run([opt, path, pipe, "-o", os.devnull], check=True)
        check_manifest(os.path.join(outdir, name + ".manifest.json"), prefix,
                       form)
        print("built", name, options)


if __name__ == "__main__":
    main()
