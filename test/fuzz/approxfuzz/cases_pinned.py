"""Pinned cases: fixed regression cases, one per bug class the project has
met (the first mutation campaign and the findings since). They run first with
--pinned, as negative case indices (--case -3 reruns one); once the bugs are
fixed each must produce no finding."""

import json
import random
import re

from .cases_tune import base_tune_args, manifest_files
from .corpus import k_knob_module
from .model import Case, Inv
from .pools import odd_file_setup
from .sandbox import DECOY_FILE


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
