"""MLIR mutations: each takes (rng, lines, ctx), changes the input's lines in
place and returns a note saying what it did (or None when it does not apply).
IR_MUTATIONS weighs them for gen_opt_ir; approx-cc cases reuse the line-level
ones on CUDA source."""

import re

from .pools import BOUNDARY_INTS, BOUNDARY_NUMS, HOSTILE_NAMES


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
