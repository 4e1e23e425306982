"""Case generator for approx-cc (cc-source): CUDA sources with snippets
added, lines mutated or broken code inserted, and bad flags."""

from .cases_opt import add_checks, opt_string
from .model import Inv, Seed
from .mutate_mlir import mut_bytes, mut_delete, mut_duplicate, mut_number, mut_swap, mut_truncate
from .pools import HOSTILE_NAMES, OPT_BAD, OPT_BENIGN
from .random_draws import geometric, weighted


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
# Output directories whose names would change the pipeline if spliced into
# pass-option text (issue 31): the outputs must land in them, nowhere else.
HOSTILE_DIRS = ["x output-dir=@IN@", "my out", "a}b", "a{b", "a,b", "name=evil",
                "x chip=sm_1", "'q'", '"q"', "a\\b", "-o"]


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
    elif rng.random() < 0.25:
        # A hostile output directory, made beforehand.
        sub = "@OUT@/" + rng.choice(HOSTILE_DIRS)
        case.setup.append(("mkdir", sub))
        args = ["@IN@/input.cu", "-o", sub]
        case.family = "cc-source:hostile-dir"
        case.notes.append(f"output directory {sub!r}")
    elif rng.random() < 0.2:
        # Two runs at once writing the same names (with the header): each
        # file set must be one run's.
        args += ["--emit-header"]
        case.concurrent = True
        case.family = "cc-source:concurrent"
    elif rng.random() < 0.5:
        args += ["--name", "k"]
    outdir = next((args[i + 1] for i in range(len(args) - 1) if args[i] == "-o"), "@OUT@")
    case.outdir = outdir
    case.expect_export = outdir == "@OUT@" or case.family == "cc-source:hostile-dir"
    add_checks(case, rng, cfg, force=True)
    case.checks.discard("roundtrip")
    case.invs.append(Inv("cc", args))
    if case.concurrent:
        case.invs.append(Inv("cc", args + ["--approx-options", "knob=mu"]))
