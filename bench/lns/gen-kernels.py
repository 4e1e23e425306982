#!/usr/bin/env python3
"""gen-kernels.py - the LNS GPU checks' kernels, compiled to PTX + manifest.

    bench/lns/gen-kernels.py APPROX_OPT OUTDIR

Writes OUTDIR/<name>.mlir and compiles each with approx-to-ptx (here, where
MLIR exists) for bench/lns/lns-bench on the GPU machine:
  probe            approx.texture_fetch at given coordinates on a random
                   float4 table (fixed seed): the filter model's bit check;
  probe3d          the same on a random float4 3-D texture (texture_3d):
                   the check of the 3-D model's rounding
                   (passes/lns/math/FilterModel.h), which texture3 needs;
  acc_<impl>       sb and db over every f32 in [-32, 0] (acc_all) and over
                   the paper's grid of multiples of 2^-f (acc_grid), with
                   the max error against an f64 reference computed in the
                   same kernel, reduced by atomic max on the error's bits;
                   also eval: sb/db of given inputs, for the bit check of
                   the whole evaluation against the CPU model;
  tp_<row>         the paper's Table 1: each thread evaluates sb (or sb and
                   db) of inputs generated in registers, ITERS times;
                   tp_*_versioned is the split versioned around the loop by
                   hand (what loop-level versioning would give); tp_*_branch
                   is the split module compiled as approx-lns-lower alone
                   emits it, one warp-uniform branch per op inside the loop
                   (approx-opt --approx-lns-lower before --approx-to-ptx, so
                   approx-lns-version finds no split op left to version).
"""
import os
import random
import struct
import subprocess
import sys

# (module name, impl attribute) of the accuracy modules: the Figure 3 analog
# sweeps texture2's, texture3's (at most 256 per unit: a 3-D texture is at
# most 16384 wide) and texture1's segment counts.
ACC = [("sfu", "<sfu>"), ("precise", "<precise>"),
       ("horner_s1_d5", "<horner, segments = 1, degree = 5>"),
       ("horner_s4_d3", "<horner, segments = 4, degree = 3>")]
ACC += [("texture2_s%d" % k, "<texture2, segments = %d>" % k) for k in (4, 16, 64, 256, 1024)]
ACC += [("texture3_s%d" % k, "<texture3, segments = %d>" % k) for k in (4, 16, 64, 256)]
ACC += [("texture1_s%d" % k, "<texture1, segments = %d>" % k) for k in (16, 64, 256, 1024)]

# Table 1 rows: (name, impl of element 0, impl of element 1 or None).
SPLIT = "<split, segments = 64, knob = @lambda>"
TP = [("order1", "<texture1, segments = 256>", None),
      ("order2", "<texture2, segments = 64>", None),
      ("order3", "<texture3, segments = 64>", None),
      ("hw", "<sfu>", None),
      ("horner5", "<horner, segments = 1, degree = 5>", None),
      ("precise", "<precise>", None),
      ("split", SPLIT, None),
      ("branch", SPLIT, None),
      ("versioned", "<texture2, segments = 64>", "<sfu>"),
      ("mix", "<texture2, segments = 64>", "<sfu>"),
      ("hw2", "<sfu>", "<sfu>")]


def acc_module(name, impl):
    """sb/db error over every f32 in [-32, 0] and over the 2^-f grid."""
    imp = "#approx.lns_impl%s" % impl
    knob = "  approx.knob @lambda range(0, 64) default(0)\n" if "knob" in impl else ""
    body = """
    %sb = approx.lns.sb %x impl({imp}) : f32
    %db = approx.lns.db %x impl({imp}) : f32
    %xd = arith.extf %x : f32 to f64
    %e = math.exp2 %xd : f64
    %l1 = math.log1p %e : f64
    %sr = arith.mulf %l1, %log2e : f64
    %xl = arith.mulf %xd, %ln2 : f64
    %m1 = math.expm1 %xl : f64
    %nm = arith.negf %m1 : f64
    %dr = math.log2 %nm : f64
    %sbd = arith.extf %sb : f32 to f64
    %dbd = arith.extf %db : f32 to f64
    %es0 = arith.subf %sbd, %sr : f64
    %es = math.absf %es0 : f64
    %ed0 = arith.subf %dbd, %dr : f64
    %ed1 = math.absf %ed0 : f64
    %adr = math.absf %dr : f64
    %scale = arith.maximumf %adr, %one : f64
    %edr = arith.divf %ed1, %scale : f64
    // db(0) = -inf exactly: no error there.
    %both = arith.cmpf oeq, %dbd, %dr : f64
    %ed = arith.select %both, %zero, %edr : f64
    %far = arith.cmpf ole, %x, %m1f : f32
    %edfar = arith.select %far, %ed, %zero : f64
    %ednear = arith.select %far, %zero, %ed : f64
    %n0 = arith.maximumf %a0, %es : f64
    %n1 = arith.maximumf %a1, %edfar : f64
    %n2 = arith.maximumf %a2, %ednear : f64
""".format(imp=imp)
    consts = """
    %log2e = arith.constant 1.4426950408889634 : f64
    %ln2 = arith.constant 0.6931471805599453 : f64
    %one = arith.constant 1.0 : f64
    %zero = arith.constant 0.0 : f64
    %m1f = arith.constant -1.0 : f32
    %tid = gpu.global_id x
    %bd = gpu.block_dim x
    %gd = gpu.grid_dim x
    %stride = arith.muli %bd, %gd : index
"""
    store = """
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %r0f = arith.truncf %r#0 : f64 to f32
    %r1f = arith.truncf %r#1 : f64 to f32
    %r2f = arith.truncf %r#2 : f64 to f32
    %b0 = arith.bitcast %r0f : f32 to i32
    %b1 = arith.bitcast %r1f : f32 to i32
    %b2 = arith.bitcast %r2f : f32 to i32
    %o0 = memref.atomic_rmw maxs %b0, %err[%c0] : (i32, memref<3xi32>) -> i32
    %o1 = memref.atomic_rmw maxs %b1, %err[%c1] : (i32, memref<3xi32>) -> i32
    %o2 = memref.atomic_rmw maxs %b2, %err[%c2] : (i32, memref<3xi32>) -> i32
    gpu.return
"""
    return """// Generated by bench/lns/gen-kernels.py: do not edit.
gpu.module @{name} {{
{knob}  // Every |x| bit pattern in [base, base + count): x = -|x|.
  gpu.func @acc_all(%base: i32, %count: index, %err: memref<3xi32>) kernel {{
{consts}
    %z = arith.constant 0.0 : f64
    %r:3 = scf.for %j = %tid to %count step %stride iter_args(%a0 = %z, %a1 = %z, %a2 = %z) -> (f64, f64, f64) {{
      %ji = arith.index_cast %j : index to i32
      %bits = arith.addi %base, %ji : i32
      %ax = arith.bitcast %bits : i32 to f32
      %x = arith.negf %ax : f32
{body}
      scf.yield %n0, %n1, %n2 : f64, f64, f64
    }}
{store}
  }}
  // x = -i * step for i in [0, count): the 2^-f grid.
  gpu.func @acc_grid(%step: f32, %count: index, %err: memref<3xi32>) kernel {{
{consts}
    %z = arith.constant 0.0 : f64
    %r:3 = scf.for %j = %tid to %count step %stride iter_args(%a0 = %z, %a1 = %z, %a2 = %z) -> (f64, f64, f64) {{
      %ji = arith.index_cast %j : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      %p = arith.mulf %jf, %step : f32
      %x = arith.negf %p : f32
{body}
      scf.yield %n0, %n1, %n2 : f64, f64, f64
    }}
{store}
  }}
  // sb and db of given inputs, for the bit check against the CPU model.
  gpu.func @eval(%in: memref<?xf32>, %sbo: memref<?xf32>, %dbo: memref<?xf32>, %n: index) kernel {{
    %i = gpu.global_id x
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {{
      %x = memref.load %in[%i] : memref<?xf32>
      %sb = approx.lns.sb %x impl({imp}) : f32
      %db = approx.lns.db %x impl({imp}) : f32
      memref.store %sb, %sbo[%i] : memref<?xf32>
      memref.store %db, %dbo[%i] : memref<?xf32>
    }}
    gpu.return
  }}
}}
""".format(name=name, knob=knob, consts=consts, body=body.replace("\n", "\n  "), store=store,
           imp=imp)


def tp_module(name, impl0, impl1, with_db):
    """ITERS evaluations per thread of inputs made in registers."""
    if name.endswith("_versioned"):
        return versioned_module(name, impl0, impl1, with_db)
    knob = "  approx.knob @lambda range(0, 64) default(0)\n" if "knob" in impl0 else ""

    def evals(x, impl, tag):
        s = "      %%s%s = approx.lns.sb %s impl(#approx.lns_impl%s) nonpositive : f32\n" % (tag, x, impl)
        if with_db:
            s += "      %%d%s = approx.lns.db %s impl(#approx.lns_impl%s) nonpositive : f32\n" % (tag, x, impl)
            s += "      %%v%s = arith.addf %%s%s, %%d%s : f32\n" % (tag, tag, tag)
        else:
            s += "      %%v%s = arith.addf %%s%s, %%s%s : f32\n" % (tag, tag, tag)
        return s
    second = ""
    acc = "%n0 = arith.addf %acc, %v0 : f32"
    if impl1:
        second = ("      %y1 = arith.subf %x, %half : f32\n"
                  "      %y = math.absf %y1 : f32\n"
                  "      %x1 = arith.negf %y : f32\n") + evals("%x1", impl1, "1")
        acc = "%n1 = arith.addf %acc, %v0 : f32\n      %n0 = arith.addf %n1, %v1 : f32"
    return """// Generated by bench/lns/gen-kernels.py: do not edit.
gpu.module @{name} {{
{knob}  gpu.func @tp(%out: memref<?xf32>, %iters: index) kernel {{
    %tid = gpu.global_id x
    %ti = arith.index_cast %tid : index to i32
    %tf = arith.uitofp %ti : i32 to f32
    %golden = arith.constant 0.61803398 : f32
    %stepc = arith.constant 0.0123456 : f32
    %c32 = arith.constant -32.0 : f32
    %half = arith.constant 16.0 : f32
    %z = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %u0 = arith.mulf %tf, %golden : f32
    %r = scf.for %j = %c0 to %iters step %c1 iter_args(%acc = %z) -> (f32) {{
      %ji = arith.index_cast %j : index to i32
      %jf = arith.uitofp %ji : i32 to f32
      %u1 = math.fma %jf, %stepc, %u0 : f32
      %fl = math.floor %u1 : f32
      %fr = arith.subf %u1, %fl : f32
      %x = arith.mulf %fr, %c32 : f32
{evals}{second}      {acc}
      scf.yield %n0 : f32
    }}
    memref.store %r, %out[%tid] : memref<?xf32>
    gpu.return
  }}
}}
""".format(name=name, knob=knob, evals=evals("%x", impl0, "0"), second=second, acc=acc)


# Table 1 with dynamic work distribution: each thread takes chunks of
# CHUNK elements from a global counter until the launch's work is done, so
# warps on the slower unit take fewer chunks (the bound 1 + r_TEX/r_SFU
# assumes the work follows each unit's throughput; with a fixed share per
# thread the texture warps finish last). (name, impl)
DYN = [("hw", "<sfu>"), ("order2", "<texture2, segments = 64>"), ("split", SPLIT)]
CHUNK = 64


def dyn_module(name, impl, with_db):
    """Chunks of CHUNK evaluations taken from a counter that only grows: a
    launch of C chunks and T threads adds exactly C + T to it (every thread
    fails one take), so chunk = ticket mod (C + T) needs no reset between
    launches."""
    knob = "  approx.knob @lambda range(0, 64) default(0)\n" if "knob" in impl else ""
    db = ("          %%d = approx.lns.db %%x impl(#approx.lns_impl%s) nonpositive : f32\n"
          "          %%v = arith.addf %%s, %%d : f32\n" % impl) if with_db else \
         "          %v = arith.addf %s, %s : f32\n"
    return """// Generated by bench/lns/gen-kernels.py: do not edit.
gpu.module @{name} {{
{knob}  gpu.func @tp(%out: memref<?xf32>, %counter: memref<1xi64>, %chunks: index) kernel {{
    %tid = gpu.global_id x
    %gx = gpu.grid_dim x
    %bx = gpu.block_dim x
    %nthreads = arith.muli %gx, %bx : index
    %golden = arith.constant 0.61803398 : f32
    %c32 = arith.constant -32.0 : f32
    %z = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cchunk = arith.constant {chunk} : index
    %one = arith.constant 1 : i64
    %period0 = arith.addi %chunks, %nthreads : index
    %period = arith.index_cast %period0 : index to i64
    %nchunks = arith.index_cast %chunks : index to i64
    %r = scf.while (%acc = %z) : (f32) -> f32 {{
      %t = memref.atomic_rmw addi %one, %counter[%c0] : (i64, memref<1xi64>) -> i64
      %chunk = arith.remui %t, %period : i64
      %more = arith.cmpi ult, %chunk, %nchunks : i64
      %ci = arith.index_cast %chunk : i64 to index
      %base = arith.muli %ci, %cchunk : index
      %accn = scf.if %more -> (f32) {{
        %a = scf.for %j = %c0 to %cchunk step %c1 iter_args(%acc1 = %acc) -> (f32) {{
          %k = arith.addi %base, %j : index
          %ki = arith.index_cast %k : index to i32
          %kf = arith.uitofp %ki : i32 to f32
          %u1 = arith.mulf %kf, %golden : f32
          %fl = math.floor %u1 : f32
          %fr = arith.subf %u1, %fl : f32
          %x = arith.mulf %fr, %c32 : f32
          %s = approx.lns.sb %x impl(#approx.lns_impl{impl}) nonpositive : f32
{db}          %n0 = arith.addf %acc1, %v : f32
          scf.yield %n0 : f32
        }}
        scf.yield %a : f32
      }} else {{
        scf.yield %acc : f32
      }}
      scf.condition(%more) %accn : f32
    }} do {{
    ^bb0(%acc2: f32):
      scf.yield %acc2 : f32
    }}
    memref.store %r, %out[%tid] : memref<?xf32>
    gpu.return
  }}
}}
""".format(name=name, knob=knob, chunk=CHUNK, impl=impl, db=db)


def versioned_module(name, tex, sfu, with_db):
    """The split versioned at loop level by hand: warps whose slot id is
    below λ run the whole loop on the texture units, the others on the SFU
    (what approx-lns-lower's per-op branch would give if it versioned the
    enclosing loop, as approx-warp-split does for SFU ops)."""
    def loop(impl):
        db = ("        %%d = approx.lns.db %%x impl(#approx.lns_impl%s) nonpositive : f32\n"
              "        %%v = arith.addf %%s, %%d : f32\n" % impl) if with_db else \
             "        %v = arith.addf %s, %s : f32\n"
        return """      %r = scf.for %j = %c0 to %iters step %c1 iter_args(%acc = %z) -> (f32) {
        %ji = arith.index_cast %j : index to i32
        %jf = arith.uitofp %ji : i32 to f32
        %u1 = math.fma %jf, %stepc, %u0 : f32
        %fl = math.floor %u1 : f32
        %fr = arith.subf %u1, %fl : f32
        %x = arith.mulf %fr, %c32 : f32
        %s = approx.lns.sb %x impl(#approx.lns_impl""" + impl + """) nonpositive : f32
""" + db + """        %n0 = arith.addf %acc, %v : f32
        scf.yield %n0 : f32
      }
      scf.yield %r : f32
"""
    return """// Generated by bench/lns/gen-kernels.py: do not edit.
gpu.module @{name} {{
  approx.knob @lambda range(0, 64) default(0) warp_slot(hw)
  gpu.func @tp(%out: memref<?xf32>, %iters: index) kernel {{
    %tid = gpu.global_id x
    %ti = arith.index_cast %tid : index to i32
    %tf = arith.uitofp %ti : i32 to f32
    %golden = arith.constant 0.61803398 : f32
    %stepc = arith.constant 0.0123456 : f32
    %c32 = arith.constant -32.0 : f32
    %z = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %u0 = arith.mulf %tf, %golden : f32
    %slot = approx.warp_slot hw : i32
    %lambda = approx.knob_value @lambda : i32
    %tex = arith.cmpi ult, %slot, %lambda : i32
    %res = scf.if %tex -> (f32) {{
{tloop}    }} else {{
{sloop}    }}
    memref.store %res, %out[%tid] : memref<?xf32>
    gpu.return
  }}
}}
""".format(name=name, tloop=loop(tex), sloop=loop(sfu))


# approx-opt passes run before --approx-to-ptx, by module name suffix: the
# branch row's split ops lowered per op before the pipeline's
# approx-lns-version could version the loop around them.
PRE_PASSES = {"_branch": ["--approx-lns-lower"]}


def pre_passes(name):
    """The passes that run before approx-to-ptx on module `name`."""
    return next((p for suffix, p in PRE_PASSES.items() if name.endswith(suffix)), [])


def probe_table(count, seed):
    """`count` f32 of varied magnitudes and signs from `seed`, as the hex of
    a dense attribute."""
    rng = random.Random(seed)
    vals = []
    for _ in range(count):
        kind = rng.randrange(4)
        if kind == 0:
            v = rng.uniform(-1, 1)
        elif kind == 1:
            v = rng.uniform(-1, 1) * 2.0 ** rng.randint(-20, 20)
        elif kind == 2:
            v = 1 + rng.uniform(-1e-3, 1e-3)
        else:
            v = rng.uniform(1, 2) * 2.0 ** rng.randint(-5, 5)
        vals.append(struct.unpack("<I", struct.pack("<f", v))[0])
    return "".join("%08X" % struct.unpack(">I", struct.pack("<I", b))[0] for b in vals)


def probe_module_of(name, kind, shape, seed):
    """A fetch kernel over one float4 table of `shape` (outermost first, the
    last dimension the 4 channels): one coordinate array per texture
    dimension, four floats out per fetch."""
    count = 1
    for d in shape:
        count *= d
    axes = "xyz"[:len(shape) - 1]
    coords = "".join("%%c%s: memref<?xf32>, " % a for a in axes)
    loads = "".join("      %%%s = memref.load %%c%s[%%i] : memref<?xf32>\n" % (a, a) for a in axes)
    at = ", ".join("%" + a for a in axes)
    return """// Generated by bench/lns/gen-kernels.py: do not edit.
gpu.module @{name} {{
  approx.resource_knob @table default(0) {kind} filter(linear) address(clamp) tables([dense<"0x{hexdata}"> : tensor<{shape}xf32>])
  gpu.func @fetch({coords}%out: memref<?xf32>, %n: index) kernel {{
    %i = gpu.global_id x
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {{
{loads}      %h = approx.resource_handle @table : i64
      %v = approx.texture_fetch %h[{at}] : vector<4xf32>
      %c4 = arith.constant 4 : index
      %base = arith.muli %i, %c4 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %e0 = vector.extract %v[0] : f32 from vector<4xf32>
      %e1 = vector.extract %v[1] : f32 from vector<4xf32>
      %e2 = vector.extract %v[2] : f32 from vector<4xf32>
      %e3 = vector.extract %v[3] : f32 from vector<4xf32>
      %i0 = arith.addi %base, %c0 : index
      %i1 = arith.addi %base, %c1 : index
      %i2 = arith.addi %base, %c2 : index
      %i3 = arith.addi %base, %c3 : index
      memref.store %e0, %out[%i0] : memref<?xf32>
      memref.store %e1, %out[%i1] : memref<?xf32>
      memref.store %e2, %out[%i2] : memref<?xf32>
      memref.store %e3, %out[%i3] : memref<?xf32>
    }}
    gpu.return
  }}
}}
""".format(name=name, kind=kind, hexdata=probe_table(count, seed),
           shape="x".join(map(str, shape)), coords=coords, loads=loads, at=at)


def probe_module():
    """The 2-D filter probe: a 64 x 64 float4 table (seed 20261122)."""
    return probe_module_of("probe", "texture_2d", (64, 64, 4), 20261122)


def probe3d_module():
    """The 3-D filter probe: a 64 x 4 x 4 float4 table (seed 20261123)."""
    return probe_module_of("probe3d", "texture_3d", (4, 4, 64, 4), 20261123)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen-kernels.py APPROX_OPT OUTDIR")
    opt, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    modules = {"probe": probe_module(), "probe3d": probe3d_module()}
    for name, impl in ACC:
        modules["acc_" + name] = acc_module("acc_" + name, impl)
    for name, i0, i1 in TP:
        modules["tp_sb_" + name] = tp_module("tp_sb_" + name, i0, i1, False)
        modules["tp_sbdb_" + name] = tp_module("tp_sbdb_" + name, i0, i1, True)
    for name, impl in DYN:
        modules["dyn_sb_" + name] = dyn_module("dyn_sb_" + name, impl, False)
        modules["dyn_sbdb_" + name] = dyn_module("dyn_sbdb_" + name, impl, True)
    for name, text in modules.items():
        src = os.path.join(out, name + ".mlir")
        with open(src, "w") as f:
            f.write(text)
        r = subprocess.run([opt, src] + pre_passes(name) +
                           ["--approx-to-ptx=output-dir=%s name=%s" % (out, name),
                            "-o", os.devnull], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("gen-kernels.py: %s: %s" % (name, (r.stderr.strip().splitlines() or ["?"])[0]))
    print("gen-kernels.py: %d modules in %s" % (len(modules), out))


if __name__ == "__main__":
    main()
