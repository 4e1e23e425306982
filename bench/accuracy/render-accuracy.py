#!/usr/bin/env python3
"""Renders approx-accuracy's JSON as docs/accuracy.md's tables.

    render-accuracy.py RESULTS.json HEADER.md > docs/accuracy.md

prints HEADER.md (the hand-written part: date, GPU, driver, command,
notes) and below it the per-module tables of RESULTS.json, each between
'<!-- report:acc-MODULE -->' markers.

    render-accuracy.py [--write | --check | --list] [--docs docs/accuracy.md]

gives docs/accuracy.md's measured tables from the committed raw files
(bench/lib/docblocks.py): the per-module tables (acc-f32 ... acc-bf16) and
the summaries "What holds, what does not" (holds, holds-v2) from
bench/results/accuracy-h200-2026-11-22.json, and the ladder of exp, exp2,
log, log2 (ladder) from that and bench/results/cr-check-h100-2026-11-22.txt.
The summaries are templates whose numbers are filled in from those files;
--check (CI) fails, naming the block, where the page differs.
"""
import json
import math
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "lib"))
import docblocks  # noqa: E402  (bench/lib: generated blocks of a page)
RESULTS = os.path.join(ROOT, "bench", "results")
ACCURACY_JSON = "accuracy-h200-2026-11-22.json"
CR_CHECK = "cr-check-h100-2026-11-22.txt"

# Documented bounds. Sources: CUDA C++ Programming Guide, "Mathematical
# Functions" appendix (standard functions and intrinsics); PTX ISA for the
# approx instructions; docs/pipeline.md (this project) for the f64 ladder.
DOC = {
    ("f32", "precise", "sin"): "2 ulp (sinf)",
    ("f32", "precise", "cos"): "2 ulp (cosf)",
    ("f32", "precise", "exp"): "2 ulp (expf)",
    ("f32", "precise", "log"): "1 ulp (logf)",
    ("f32", "precise", "rcp"): "0 ulp (1/x, -prec-div=true)",
    ("f32", "precise", "sqrt"): "0 ulp (sqrtf, -prec-sqrt=true)",
    ("f32", "precise", "rsqrt"): "none stated (sqrt.rn then rcp.rn)",
    ("f32", "precise", "div"): "0 ulp (x/y, -prec-div=true)",
    ("f32", "precise", "pow"): "4 ulp (powf)",
    ("f32", "precise", "tan"): "4 ulp (tanf)",
    ("f32", "precise", "exp2"): "2 ulp (exp2f = ex2.approx.f32)",
    ("f32", "precise", "log2"): "1 ulp (log2f)",
    ("f32", "precise", "log10"): "2 ulp (log10f)",
    ("f32", "precise", "tanh"): "2 ulp (tanhf)",
    ("f32", "sfu", "sin"): "abs 2^-21.41 on [-pi, pi] (__sinf); PTX ISA: abs 2^-20.5",
    ("f32", "sfu", "cos"): "abs 2^-21.41 on [-pi, pi] (__cosf); PTX ISA: abs 2^-20.5",
    ("f32", "sfu", "exp"): "2 + floor(abs(1.173 x)) ulp (__expf)",
    ("f32", "sfu", "log"): "abs 2^-21.41 on [0.5, 2], else 3 ulp (__logf)",
    ("f32", "sfu", "rcp"): "not checked here",
    ("f32", "sfu", "sqrt"): "not checked here",
    ("f32", "sfu", "rsqrt"): "2 ulp (rsqrtf = rsqrt.approx.ftz.f32)",
    ("f32", "sfu", "div"): "2 ulp for abs(y) in [2^-126, 2^126] (__fdividef)",
    ("f32", "sfu", "pow"): "none (lg2/mul/ex2: grows with abs(y log2 x))",
    ("f32", "sfu", "tan"): "none stated (__tanf: __sinf over __cosf, fast divide)",
    ("f32", "sfu", "exp2"): "2 ulp (exp2f = ex2.approx.f32; this form is .ftz)",
    ("f32", "sfu", "log2"): "abs 2^-22 on [0.5, 2], else 2 ulp (__log2f)",
    ("f32", "sfu", "log10"): "abs 2^-24 on [0.5, 2], else 3 ulp (__log10f)",
    ("f32", "sfu", "tanh"): "relative ~2^-11 (PTX ISA, tanh.approx.f32)",
    ("f64", "precise", "rcp"): "0 ulp (IEEE rcp.rn)",
    ("f64", "precise", "div"): "0 ulp (IEEE div.rn)",
    ("f64", "precise", "sqrt"): "0 ulp (IEEE sqrt.rn)",
    ("f64", "precise", "rsqrt"): "none stated (sqrt.rn then rcp.rn)",
    ("f64", "precise", "sin"): "2 ulp (sin)",
    ("f64", "precise", "cos"): "2 ulp (cos)",
    ("f64", "precise", "exp"): "1 ulp (exp)",
    ("f64", "precise", "log"): "1 ulp (log)",
    ("f64", "precise", "pow"): "2 ulp (pow)",
}
# f16/bf16: the precise forms compute in f32 (libdevice f32, div.rn,
# sqrt.rn, ...) and round; the SFU forms are native (ex2, tanh) or the f32
# SFU form between conversions, as the manifest's sfu_form says.
HALF_PRECISE = {
    ("f16", "div"): "f32 rcp.approx + one fma correction (NVPTX's f16 "
                    "fdiv), rounded",
}
LADDER = {0: "predicted ~22 bits", 1: "predicted ~44 bits",
          2: "predicted a few ulp", 3: "predicted a few ulp"}


PRECISION = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53}


def half_doc(r):
    """The documented column of an f16/bf16 row."""
    ty, form, op = r["type"], r["form"], r["op"]
    sfu = r.get("sfu_form", "")
    if form == "precise":
        return HALF_PRECISE.get((ty, op), "in f32, rounded; f32: " +
                                DOC.get(("f32", "precise", op), "-"))
    if sfu and "(in f32)" not in sfu:
        return "native `%s`: none stated here" % sfu
    return "in f32, rounded; f32 form: " + DOC.get(("f32", "sfu", op), "-")


def bits(ulps, p):
    """Correct significand bits implied by a max ulp error (p: precision)."""
    if ulps == 0:
        return "all"
    return "%.1f" % (p - 1 - math.log2(ulps))


def fmt_ulp(u):
    return "%d" % u if u < 1e7 else "%.3g" % u


GROUPS = [
    ("f32, exhaustive (div, pow: 2^30 pairs)", "acc_f32"),
    ("f32 {ops} with `range-reduction`", "acc_f32_rr"),
    ("f64 ladder, `newton-steps=0` (the paper's forms)", "acc_f64_n0"),
    ("f64 ladder, `newton-steps=1`", "acc_f64_n1"),
    ("f64 ladder, `newton-steps=2`", "acc_f64_n2"),
    ("f64 ladder, `newton-steps=3`", "acc_f64_n3"),
    ("f64 with `f64-demote` (f32 SFU form on a demoted argument)",
     "acc_f64_demote"),
    ("f16, exhaustive (div, pow: all 2^32 pairs)", "acc_f16"),
    ("bf16, exhaustive (div, pow: all 2^32 pairs)", "acc_bf16"),
]


def block_name(mod):
    """acc_f64_n0 -> acc-f64-n0: the block of a module's table."""
    return mod.replace("_", "-")


def group_table(rows, title, mod):
    """The table of one module (heading included), or None if the run
    has none of its rows (a run with --modules, or from before)."""
    if not any(r["module"] == mod for r in rows):
        return None
    ops = []
    for r in rows:
        if r["module"] == mod and r["op"] not in ops:
            ops.append(r["op"])
    out = ["### %s" % title.format(ops="/".join(ops)), "",
           "| op | form | domain | inputs | max ulp | bits | max abs err |"
           " worst input (max ulp) | non-finite mismatches | ambiguous |"
           " documented |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["module"] != mod:
            continue
        p = PRECISION[r["type"]]
        doc = DOC.get((r["type"], r["form"], r["op"]), "")
        if r["type"] in ("f16", "bf16"):
            doc = half_doc(r)
        if r["type"] == "f64" and r["form"] == "sfu":
            if mod.startswith("acc_f64_n"):
                doc = "docs/pipeline.md: " + LADDER[int(mod[-1])]
            else:
                doc = "f32 SFU form plus argument rounding (pipeline.md)"
        worst = r["worst"] if r["max_ulp"] > 0 else "-"
        out.append("| %s | %s | %s | %d | %s | %s | %.3g | %s | %d | %d | %s |"
                   % (r["op"], r["form"], r["domain"], r["inputs"],
                      fmt_ulp(r["max_ulp"]), bits(r["max_ulp"], p),
                      r["max_abs"], worst, r["nonfinite_mismatches"],
                      r["ambiguous"], doc))
    return "\n".join(out) + "\n"


# --- the summaries: templates filled in from the raw files -----------------
#
# {FMT:MOD@OP@FORM@DOMAIN} is the max (FMT 'min-...': the min) over the rows
# of module acc_MOD that match: each field is '*' (any), 'a,b' (one of) or
# '!a,b' (none of); DOMAIN is exact (f16/bf16: without '(normal: in f32)'),
# '*', or '!all' (not 'all finite ...', i.e. the documented domains). FMT: u (ulp, 8,821), ue (ulp, 8.9e9), a / a2
# (abs error, 3 / 2 digits), l2 / l1 (log2 of the abs error: 2^-21.46),
# rb (relative error from ulp: 2^-bits), b1 (correct bits, 19.9; min-:
# the fewest, at the max ulp), xN / yN (the
# worst input's x / y, N digits; one row only), ex24 (percent the abs error
# exceeds 2^-24). {cr:OP@COLUMN} is a cell of the cr-check table: COLUMN is
# SFU, precise, correct (Geval/s, rounded) or ratio (correct / precise time).

HOLDS = """\
| form | measured (documented domain) | documented | verdict |
|---|---|---|---|
| f32 precise sin/cos/exp/log | {u:f32@sin@precise@!all} / {u:f32@cos@precise@!all} / {u:f32@exp@precise@result normal} / {u:f32@log@precise@!all} ulp (cos: {u:f32@cos@precise@all finite x} ulp over all finite x) | 2 / 2 / 2 / 1 ulp | holds |
| f32 precise rcp, sqrt, div | {u:f32@rcp,sqrt,div@precise@*} ulp | 0 ulp | holds |
| f32 precise pow | {u:f32@pow@precise@*} ulp (2^30 pairs) | 4 ulp | holds |
| f32 precise rsqrt (sqrt.rn, rcp.rn) | {u:f32@rsqrt@precise@!all} ulp | – | – |
| f32 SFU sin, abs(x) ≤ π | abs {a:f32@sin@sfu@abs(x) <= pi} = 2^-{l2:f32@sin@sfu@abs(x) <= pi} | 2^-21.41 (`__sinf`), 2^-20.5 (PTX ISA) | holds |
| f32 SFU cos, abs(x) ≤ π | abs {a:f32@cos@sfu@abs(x) <= pi} = **2^-{l2:f32@cos@sfu@abs(x) <= pi}** at x = {x8:f32@cos@sfu@abs(x) <= pi} | 2^-21.41 (`__cosf`), 2^-20.5 (PTX ISA) | **exceeds the CUDA Math API's `__cosf` figure** (same instruction, cos.approx.ftz.f32); within the PTX ISA bound the dialect docs cite |
| f32 SFU exp | ulp − floor(1.173·abs(x)) ≤ {u:f32@exp@sfu@result normal; ulp - floor(1.173 abs(x))} | 2 + floor(1.173·abs(x)) ulp (`__expf`) | holds, exhaustively |
| f32 SFU log | abs {a:f32@log@sfu@x in [0.5, 2]} = 2^-{l2:f32@log@sfu@x in [0.5, 2]} on [0.5, 2]; {u:f32@log@sfu@normal x outside [0.5, 2]} ulp elsewhere | 2^-21.41 / 3 ulp (`__logf`) | holds |
| f32 SFU rsqrt | {u:f32@rsqrt@sfu@!all} ulp | 2 ulp (`rsqrtf`) | holds |
| f32 SFU div (x normal, abs(y) in [2^-126, 2^126]) | {u:f32@div@sfu@!all} ulp | 2 ulp (`__fdividef`) | holds |
| f32 SFU rcp, sqrt | {u:f32@rcp@sfu@!all} ulp, {u:f32@sqrt@sfu@!all} ulp | not checked here | – |
| f32 SFU pow (x, result normal) | {u:f32@pow@sfu@!all} ulp (y ≈ {y2:f32@pow@sfu@!all}, x ≈ {x2:f32@pow@sfu@!all}) | – | error grows with abs(y·log2 x), as for `__powf` |
| f32 SFU sin/cos with `range-reduction`, abs(x) ≤ 2^16·π | abs {a2:f32_rr@sin,cos@sfu@!all} = 2^-{l1:f32_rr@sin,cos@sfu@!all} | – | the reduced argument carries the f32 rounding of x − k·2π |
| f64 SFU rung 0 (`newton-steps=0`) rcp / div / sqrt / rsqrt | {ue:f64_n0@rcp@sfu@!all} / {ue:f64_n0@div@sfu@!all} / {ue:f64_n0@sqrt@sfu@!all} / {ue:f64_n0@rsqrt@sfu@!all} ulp ≈ **{b1:min-f64_n0@*@sfu@!all}–{b1:f64_n0@*@sfu@!all} bits** | docs/pipeline.md predicts ≈ 22 bits | **prediction too optimistic**: the paper's f64 forms are good to ~19 bits on sm_90 |
| f64 rung 1 rcp / rsqrt | {u:f64_n1@rcp@sfu@!all} / {u:f64_n1@rsqrt@sfu@!all} ulp ≈ **{b1:min-f64_n1@rcp,rsqrt@sfu@!all}–{b1:f64_n1@rcp,rsqrt@sfu@!all} bits** | predicted ≈ 44 bits | **prediction too optimistic** |
| f64 rung 1 div / sqrt (with the residual correction) | {u:f64_n1@div,sqrt@sfu@!all} ulp | – | better than the ladder predicts |
| f64 rung 2 and 3, all four ops | {u:min-f64_n2,f64_n3@*@sfu@!all}–{u:f64_n2,f64_n3@*@sfu@!all} ulp | "a few ulp" | holds |
| f64 precise rcp / div / sqrt | {u:f64_n0,f64_n1,f64_n2,f64_n3@rcp,div,sqrt@precise@*} ulp | 0 (IEEE) | holds |
| f64 precise sin/cos/exp/log/pow (libdevice) | {u:f64_demote@*@precise@*} ulp each | 2/2/1/1/2 ulp | holds |
| f64 `f64-demote` sin/cos, abs(x) ≤ π | abs {a:f64_demote@sin@sfu@!all} / {a:f64_demote@cos@sfu@!all} | f32 form + argument rounding | as documented |
"""

HOLDS_V2 = """\
| form | measured (documented domain) | documented | verdict |
|---|---|---|---|
| f32 precise tan / exp2 / log2 / log10 / tanh | {u:f32@tan@precise@!all} / {u:f32@exp2@precise@!all} / {u:f32@log2@precise@!all} / {u:f32@log10@precise@!all} / {u:f32@tanh@precise@*} ulp (tan: {u:f32@tan@precise@all finite x} ulp over all finite x) | 4 / 2 / 1 / 2 / 2 ulp | holds |
| f32 SFU exp2 (`ex2.approx.ftz.f32`), result normal | {u:f32@exp2@sfu@result normal} ulp | 2 ulp | holds; subnormal results are flushed (`.ftz`) |
| f32 SFU log2 | abs {a:f32@log2@sfu@x in [0.5, 2]} = 2^-{l2:f32@log2@sfu@x in [0.5, 2]} on [0.5, 2]; {u:f32@log2@sfu@normal x outside [0.5, 2]} ulp elsewhere | 2^-22 / 2 ulp (`__log2f`) | holds |
| f32 SFU log10 (`lg2.approx`, then × log10 2) | abs {a:f32@log10@sfu@x in [0.5, 2]} = **2^-{l2:f32@log10@sfu@x in [0.5, 2]}** on [0.5, 2]; {u:f32@log10@sfu@normal x outside [0.5, 2]} ulp elsewhere | 2^-24 / 3 ulp (`__log10f`) | **exceeds the absolute figure by {ex24:f32@log10@sfu@x in [0.5, 2]}%** on [0.5, 2] (the same two instructions `__log10f` compiles to); holds elsewhere |
| f32 SFU tanh (`tanh.approx.f32`) | {u:f32@tanh@sfu@*} ulp, relative ≈ {rb:f32@tanh@sfu@*} | relative ≈ 2^-11 | holds |
| f32 SFU tan (`sin.approx` / `cos.approx`, `div.approx`) | abs {a:f32@tan@sfu@abs(x) <= pi/4} on abs(x) ≤ π/4, {a:f32@tan@sfu@abs(x) <= pi, abs(tan x) <= 1} on abs(x) ≤ π where abs(tan x) ≤ 1 | none stated | an absolute-error form like sin: near 0 the relative error is unbounded ({ue:f32@tan@sfu@abs(x) <= pi/4} ulp at x = {x3:f32@tan@sfu@abs(x) <= pi/4}, as for sin), and near the poles anything goes |
| f32 SFU tan with `range-reduction`, abs(x) ≤ 2^16·π, abs(tan x) ≤ 1 | abs {a:f32_rr@tan@sfu@!all} | – | the reduced argument's rounding, as for sin/cos |
| f16 precise, every function | ≤ {u:f16@*@precise@*} ulp | computed in f32, rounded | holds |
| f16 SFU native `ex2.approx.f16`, `tanh.approx.f16` | {u:f16@exp2@sfu@*} ulp, {u:f16@tanh@sfu@*} ulp (all finite x) | none stated | – |
| f16 SFU via f32 | ≤ {u:f16@!exp2,tanh@sfu@!all} ulp in each domain (sin and tan {u:f16@sin,tan@sfu@!all}, pow {u:f16@pow@sfu@!all}, the rest ≤ {u:f16@!exp2,tanh,sin,tan,pow@sfu@!all}); div, rcp, sqrt, rsqrt exact | the f32 form's error, then rounding | f16's 11 bits hide most of the f32 forms' error |
| bf16 precise, every function | ≤ {u:bf16@*@precise@*} ulp ({u:bf16@!pow@precise@*} for all but pow) | computed in f32, rounded | holds |
| bf16 SFU native `ex2.approx.ftz.bf16`, `tanh.approx.bf16` | {u:bf16@exp2@sfu@result normal} ulp (exp2: result normal), {u:bf16@tanh@sfu@*} ulp | none stated | – |
| bf16 SFU via f32 | {u:min-bf16@!exp2,tanh,sin,tan,div@sfu@!all}–{u:bf16@!exp2,tanh,sin,tan,div@sfu@!all} ulp in each domain, except: sin and tan near 0 ({u:bf16@sin,tan@sfu@!all} ulp at x = {x3:bf16@sin@sfu@!all}: bf16 keeps f32's range, so the absolute-error forms show), and div at **{u:bf16@div@sfu@!all} ulp** | the f32 form's error, then rounding | the div case is a quotient just above 2^-126 (x = {x3:bf16@div@sfu@!all}, y = {y3:bf16@div@sfu@!all}) that `div.approx.ftz` flushes to 0: {u:bf16@div@sfu@!all} bf16 ulp from the smallest normal. The f32 div row's 2^30 random pairs never met such a quotient; bf16's exhaustive pairs did, so `__fdividef`'s "2 ulp for abs(y) in [2^-126, 2^126]" does not hold for quotients at the underflow boundary |
"""

LADDER_TABLE = """\
| f32 | SFU: Geval/s, error | precise: Geval/s, error | correct: Geval/s, error | correct / precise time |
|---|---|---|---|---|
| exp | {cr:exp@SFU}; ulp − floor(1.173·abs(x)) ≤ {u:f32@exp@sfu@result normal; ulp - floor(1.173 abs(x))} | {cr:exp@precise}; {u:f32@exp@precise@all finite x} ulp | {cr:exp@correct}; correctly rounded | {cr:exp@ratio} |
| exp2 | {cr:exp2@SFU}; {u:f32@exp2@sfu@result normal} ulp (result normal) | {cr:exp2@precise}; {u:f32@exp2@precise@all finite x} ulp | {cr:exp2@correct}; correctly rounded | {cr:exp2@ratio} |
| log | {cr:log@SFU}; abs 2^-{l2:f32@log@sfu@x in [0.5, 2]} on [0.5, 2], {u:f32@log@sfu@normal x outside [0.5, 2]} ulp elsewhere | {cr:log@precise}; {u:f32@log@precise@all finite x} ulp | {cr:log@correct}; correctly rounded | {cr:log@ratio} |
| log2 | {cr:log2@SFU}; abs 2^-{l2:f32@log2@sfu@x in [0.5, 2]} on [0.5, 2], {u:f32@log2@sfu@normal x outside [0.5, 2]} ulp elsewhere | {cr:log2@precise}; {u:f32@log2@precise@all finite x} ulp | {cr:log2@correct}; correctly rounded | {cr:log2@ratio} |

SFU is {crspan:SFU/precise} faster than precise, correct {crspan:correct/precise} slower. Use
`correct=exp,log` (approx-to-ptx) or `form(correct)` on an op.
"""


def short_num(v, digits):
    """%.Ng without the exponent's '+' and leading zeros, with a minus sign
    (−): 3.47449e-07 -> 3.47e-7."""
    t = "%.*g" % (digits, v)
    t = re.sub(r"e([+-])0*(\d)", lambda m: "e" + ("-" if m.group(1) == "-" else "") + m.group(2), t)
    return t.replace("-", "−", 1) if t.startswith("-") else t


def worst_value(r, var):
    """The worst input's x or y (the first number after 'x=' / 'y=')."""
    m = re.search(r"\b%s=(\S+)" % var, r["worst"])
    if not m:
        raise ValueError("%s: no %s in the worst input '%s'" % (r["op"], var, r["worst"]))
    return float(m.group(1))


def select(rows, sel):
    """The rows of 'MOD@OP@FORM@DOMAIN' (see the comment above HOLDS)."""
    mod, op, form, domain = sel.split("@")

    def field(spec, value):
        if spec == "*":
            return True
        if spec.startswith("!"):
            return value not in spec[1:].split(",")
        return value in spec.split(",")

    def dom(spec, value):
        if spec == "*":
            return True
        if spec == "!all":
            return not value.startswith("all finite")
        return value.replace(" (normal: in f32)", "") == spec

    out = [r for r in rows if field(mod, r["module"][4:]) and field(op, r["op"])
           and field(form, r["form"]) and dom(domain, r["domain"])]
    if not out:
        raise ValueError("no row matches '%s'" % sel)
    return out


def cr_table(path):
    """cr-check's table: function -> {SFU, precise, correct, ratio}."""
    out = {}
    for line in open(path, encoding="utf-8"):
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        if len(c) == 11 and c[0] in ("exp", "exp2", "log", "log2"):
            out[c[0]] = {"SFU": float(c[7]), "precise": float(c[8]),
                         "correct": float(c[9]), "ratio": c[10]}
    return out


def fill(template, rows, cr):
    """The template with each placeholder replaced (see above HOLDS)."""
    def one(m):
        fmt, sel = m.group(1), m.group(2)
        if fmt == "cr":
            op, col = sel.split("@")
            v = cr[op][col]
            return v if col == "ratio" else "%.0f" % v
        if fmt == "crspan":
            a, b = sel.split("/")
            q = [cr[op][a] / cr[op][b] if a == "SFU" else cr[op][b] / cr[op][a] for op in cr]
            return "%.1f–%.1f×" % (min(q), max(q))
        low = sel.startswith("min-")
        sel_rows = select(rows, sel[4:] if low else sel)
        if fmt[0] in "xy":
            if len(sel_rows) != 1:
                raise ValueError("'%s' matches %d rows, not one" % (sel, len(sel_rows)))
            return short_num(worst_value(sel_rows[0], fmt[0]), int(fmt[1:]))
        key = "max_abs" if fmt in ("a", "a2", "l2", "l1", "ex24") else "max_ulp"
        # Fewer bits at more ulp: a range of bits is from the max ulp.
        pick = min if low != fmt.startswith("b") else max
        r = pick(sel_rows, key=lambda r: r[key])
        v = r[key]
        if fmt == "u":
            return "{:,}".format(v)
        if fmt == "ue":
            return short_num(v, 2) if v >= 1e7 else "{:,}".format(v)
        if fmt == "a":
            return short_num(v, 3)
        if fmt == "a2":
            return short_num(v, 2)
        if fmt == "l2":
            return "%.2f" % -math.log2(v)
        if fmt == "l1":
            return "%.1f" % -math.log2(v)
        if fmt == "ex24":
            return "%.0f" % (100 * (v / 2.0 ** -24 - 1))
        p = PRECISION[r["type"]]
        b = p - 1 - math.log2(v) if v else p - 1
        if fmt == "rb":
            return "2^-%.1f" % b
        if fmt == "b1":
            return "%.1f" % b
        raise ValueError("unknown format '%s'" % fmt)
    return re.sub(r"\{([a-z0-9]+):([^{}]+)\}", one, template)


def doc_blocks():
    rows = json.load(open(os.path.join(RESULTS, ACCURACY_JSON)))
    cr = cr_table(os.path.join(RESULTS, CR_CHECK))
    blocks = {"holds": fill(HOLDS, rows, cr), "holds-v2": fill(HOLDS_V2, rows, cr),
              "ladder": fill(LADDER_TABLE, rows, cr)}
    for title, mod in GROUPS:
        t = group_table(rows, title, mod)
        if t is not None:
            blocks[block_name(mod)] = t
    return blocks


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("--"):
        return docblocks.main("render-accuracy.py", "report",
                              os.path.join(ROOT, "docs", "accuracy.md"), doc_blocks,
                              "bench/results/%s" % ACCURACY_JSON, names_from_page=True)
    rows = json.load(open(sys.argv[1]))
    sys.stdout.write(open(sys.argv[2]).read())
    print("\n<!-- generated by bench/accuracy/render-accuracy.py from "
          "%s: do not edit below -->\n" % sys.argv[1].split("/")[-1])
    for title, mod in GROUPS:
        t = group_table(rows, title, mod)
        if t is not None:
            name = block_name(mod)
            print("<!-- report:%s -->\n%s<!-- /report:%s -->\n" % (name, t, name))


if __name__ == "__main__":
    main()
