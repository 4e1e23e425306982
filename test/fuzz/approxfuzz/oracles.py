"""The oracles: judge one case's runs and sandbox changes and return findings
(Finding). Per process: crash, hang, memory blow-up, error printed on
success, several/oversized/multi-line errors, IR dumps, silent failures, odd
exit statuses, raw control characters. Per sandbox: writes outside the output
directory, leftovers of failed runs, *.tmp left by successful ones. Per
successful export: manifest JSON, PTX, ptxas, approx-tune --list and IR
round-trip cross-checks; for manifests, the spec oracle (spec.py)."""

import dataclasses
import os
import re
import signal
from pathlib import Path

from .processes import resolve_tool, run_plain
from .sandbox import LAYOUT, subst, subst_manifest
from .spec import spec_violations, strict_json


@dataclasses.dataclass
class Finding:
    kind: str
    tool: str
    signature: str
    detail: str = ""


def norm(s):
    """Message -> signature text: quoted parts, numbers and paths blanked."""
    s = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", "?", s)
    s = re.sub(r"'[^'\n]*'", "'…'", s)
    s = re.sub(r'"[^"\n]*"', '"…"', s)
    s = re.sub(r"(/[\w.@+-]+)+/?", "PATH", s)
    s = re.sub(r"0x[0-9a-fA-F]+", "H", s)
    s = re.sub(r"\d+", "N", s)
    return re.sub(r"\s+", " ", s).strip()[:160]


CONTROL_RE = re.compile(rb"[\x00-\x08\x0b-\x0d\x0e-\x1f\x7f]")
FRAME_RE = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ (.+?)(?: \(/|$)", re.M)
BORING_FRAME = re.compile(r"llvm::sys::|SignalHandler|__restore_rt|raise|abort|"
                          r"__pthread|__GI_|llvm::report_fatal_error|__libc_start|"
                          r"_start|llvm::llvm_unreachable|__cxa_|std::terminate|"
                          r"__gnu_cxx::__verbose|^\(")


def top_frame(err):
    frames = FRAME_RE.findall(err)
    for f in frames:
        if "approx" in f and not BORING_FRAME.search(f):
            return f.split("(")[0].strip()[:100]
    for f in frames:
        if not BORING_FRAME.search(f) and "+0x" not in f:
            return f.split("(")[0].strip()[:100]
    return ""


def crash_signature(pr):
    err = pr.err.decode("utf-8", "replace")
    m = re.search(r"LLVM ERROR: ([^\n]*)", err)
    if m:
        return "LLVM ERROR: " + norm(m.group(1))
    m = re.search(r"terminate called after throwing an instance of '([^']*)'"
                  r"(?:\s*\n\s*what\(\):\s*([^\n]*))?", err)
    if m:
        return f"uncaught {m.group(1)}: {norm(m.group(2) or '')}"
    if "terminate called" in err:
        return "terminate called: " + norm(err.split("terminate called", 1)[1].split("\n")[0])
    m = re.search(r"Assertion [`'](.*?)' failed", err)
    if m:
        return "assertion: " + norm(m.group(1))
    m = re.search(r"ERROR: AddressSanitizer: ([\w-]+)", err)
    if m:
        return f"ASan {m.group(1)} {top_frame(err)}".strip()
    m = re.search(r"runtime error: ([^\n]*)", err)
    if m:
        return "UBSan: " + norm(m.group(1))
    if pr.rc < 0:
        try:
            name = signal.Signals(-pr.rc).name
        except ValueError:
            name = f"signal {-pr.rc}"
        if name == "SIGXFSZ":
            return "SIGXFSZ: wrote past the file size limit"
        return f"{name} {top_frame(err)}".strip()
    if "Stack dump:" in err or "PLEASE submit a bug report" in err:
        return f"crash handler ran, exit {pr.rc} {top_frame(err)}".strip()
    if pr.rc >= 128:
        return f"exit {pr.rc}"
    return None


def first_error(text):
    for line in text.splitlines():
        m = re.search(r"\berror: (.*)", line)
        if m:
            return m.group(1)
    return ""


def diag_source(msg):
    """Who emitted a diagnostic: an approx pass, the op verifier, or other."""
    m = re.match(r"((?:approx|convert-approx)[\w-]*):", msg)
    if m:
        return m.group(1)
    if msg.startswith("'"):
        return "op verifier"
    if PARSER_MSG.match(msg):
        return "parser"
    return "other: " + " ".join(norm(msg).split()[:3])


PARSER_MSG = re.compile(r"(expected|unexpected|use of undeclared|custom op|redefinition|undefined "
                        r"symbol|integer literal|failed to parse|unknown escape|duplicate key|"
                        r"invalid|unbalanced|reference to an undefined|operation location alias|"
                        r"unknown (type|attribute)|dialect '|floating point value too large|"
                        r"hexadecimal float)")


def msg_prefix(msg):
    """`approx-export: cannot write ...` -> `approx-export`; else first words."""
    m = re.match(r"([\w.-]+):\s", msg)
    if m and len(m.group(1)) <= 40:
        return m.group(1)
    return " ".join(norm(msg).split()[:5])


TUNE_HINT = "(see approx-tune --help)"


DIAG_HEAD_RE = re.compile(r"^(?:.*?:\d+:\d+: |[^:\s]+: )?(error|warning|note|remark): ")


def split_diagnostics(err):
    """MLIR's SourceMgr format: a `file:line:col: error: message` line, then
    the source line it points into and a caret line. Returns (message lines,
    echoed lines): the tool writes the first, the second are the input's own
    bytes shown back."""
    msgs, echoed, after_head = [], [], 0
    for line in err.splitlines():
        if DIAG_HEAD_RE.match(line):
            msgs.append(line)
            after_head = 2
        elif after_head:
            echoed.append(line)
            after_head -= 1
        else:
            msgs.append(line)
    return msgs, echoed


def accept(checks_run, what):
    """An upstream MLIR behaviour the oracles see but that is no finding of
    ours (docs/robustness.md lists them); counted so a summary shows it."""
    if checks_run is not None:
        key = "accepted: " + what
        checks_run[key] = checks_run.get(key, 0) + 1


def judge_proc(tool, pr, case, cfg, root, checks_run=None):
    tname = {"opt": "approx-opt", "tune": "approx-tune", "cc": "approx-cc"}.get(tool, os.path.basename(tool))
    is_tune = tool == "tune" or tname.endswith("tune")
    out = []
    err = pr.err.decode("utf-8", "replace").replace(root, "@ROOT@")
    head = err[:2000]
    if pr.rss_mb > cfg.rss_mb and not pr.timed_out:
        out.append(Finding("memory-blowup", tname,
                           f"{tname}: peak RSS over {cfg.rss_mb} MB ({case.family})",
                           f"{pr.rss_mb:.0f} MB peak RSS, exit {pr.rc}, {pr.secs:.1f} s"))
    if pr.timed_out:
        # Blocked (waiting on a FIFO, say) or busy (computing without end)?
        how = "blocked" if pr.cpu < 0.25 * pr.secs else "busy"
        return out + [Finding("hang", tname,
                              f"{tname}: no exit within {cfg.timeout:g} s, {how} ({case.family})",
                              f"killed after {pr.secs:.1f} s wall, {pr.cpu:.1f} s CPU, "
                              f"{pr.rss_mb:.0f} MB peak RSS")]
    sig = crash_signature(pr)
    if sig:
        if re.search(r"bad_alloc|length_error|^SIG\w+$|^exit \d+$|^Segmentation", sig):
            sig += f" ({case.family})"  # too generic to tell root causes apart alone
        return out + [Finding("crash", tname, sig, head)]
    for stream in ("out", "err"):
        data = getattr(pr, stream)
        m = CONTROL_RE.search(data)
        if m:
            line_start = data.rfind(b"\n", 0, m.start()) + 1
            line = data[line_start:data.find(b"\n", m.start()) % (len(data) + 1)]
            text = line.decode("utf-8", "replace")
            if is_tune:
                where = "line " + (re.findall(r"[A-Za-z]+", text) or ["?"])[0]
            elif "error: " in text:
                where = "in error message from " + diag_source(text.split("error: ", 1)[1])
            elif stream == "err":
                where = "in echoed source line"
            else:
                where = "in output IR"
            out.append(Finding("raw-control-chars", tname, f"{tname} std{stream}: {where}",
                               repr(line[:200])))
    if pr.rc == 0:
        if not is_tune and re.search(r"(?m)\berror: ", err):
            if re.search(r'expected (error|warning|remark|note) ".*" was not produced', err):
                # MLIR 22's driver always builds its diagnostic verifier
                # (at level None): `// expected-*` comments in an ordinary
                # input are echoed as errors; the exit status is unaffected.
                accept(checks_run, "`expected-*` comment reported on success")
                return out
            out.append(Finding("error-on-success", tname,
                               f"{tname}: exit 0 but printed error: {diag_source(first_error(err))}",
                               head))
        return out
    # approx-cc: 2 is a bad command line (approx/Support/Cli.h), 1 the rest.
    ok_codes = (1, 2, 77) if is_tune else (1, 2) if tname == "approx-cc" else (1,)
    if pr.rc not in ok_codes:
        out.append(Finding("odd-exit", tname, f"{tname}: exit {pr.rc}", head))
    if is_tune:
        lines = [l for l in err.splitlines() if l.strip() and l.strip() != TUNE_HINT]
        first = lines[0] if lines else ""
        if not lines:
            out.append(Finding("silent-failure", tname, f"{tname}: exit {pr.rc} with empty stderr"))
        elif pr.err_size > 4096:
            out.append(Finding("oversized-error", tname,
                               f"{tname}: {pr.err_size} B of stderr: {msg_prefix(first.split('error: ')[-1])}",
                               head))
        elif len(lines) > 1:
            out.append(Finding("multi-line-error", tname,
                               f"{tname}: {len(lines) > 2 and '3+' or '2'} lines: {norm(first)[:70]}",
                               "\n".join(lines[:5])))
        return out
    errs = [m.group(1) for m in (re.search(r"\berror: (.*)", l) for l in err.splitlines()) if m]
    nerr = len(errs)
    first = errs[0] if errs else ""
    if re.search(r'expected (error|warning|remark|note) ".*" was not produced', err):
        accept(checks_run, "`expected-*` comment reported on failure")
    msgs, echoed = split_diagnostics(err)
    msg_bytes = sum(len(l) + 1 for l in msgs)
    if "note: see current operation" in err:
        out.append(Finding("module-dump", tname,
                           f"{tname}: error note dumps the IR: {diag_source(first)}",
                           f"{pr.err_size} B of stderr; first error: {first[:200]}"))
    elif msg_bytes > 4096:
        out.append(Finding("oversized-error", tname,
                           f"{tname}: >4 KB of messages: {diag_source(first)}",
                           f"{msg_bytes} B of messages ({pr.err_size} B of stderr); "
                           f"first error: {first[:200]}"))
    elif max((len(l) for l in echoed), default=0) > 2200:
        # approx-opt cuts every stderr line at 2 KiB (StderrFilter.h).
        out.append(Finding("oversized-error", tname,
                           f"{tname}: an echoed source line over 2 KiB",
                           f"{pr.err_size} B of stderr; first error: {first[:200]}"))
    lines = [l for l in err.splitlines() if l.strip()]
    # Several errors are fine when each names its own place (two bad ops,
    # a parser error and the attribute it sits in); the same message at the
    # same place twice is one cause reported twice.
    heads = [l for l in msgs if re.search(r"\berror: ", l)]
    dup = next((l for l in set(heads) if heads.count(l) > 1), None)
    if dup is not None and diag_source(first_error(dup)) == "parser":
        # MLIR 22's parser retries some attribute parses and reports the
        # same error each time (mlir-opt-22 too).
        accept(checks_run, "upstream parser repeats one error")
    elif dup is not None:
        out.append(Finding("multi-error", tname,
                           f"{tname}: one error reported twice: {diag_source(first_error(dup))}",
                           "\n".join(errs[:4])[:600]))
    elif nerr > 1:
        accept(checks_run, "several errors at distinct places")
    if not lines:
        out.append(Finding("silent-failure", tname, f"{tname}: exit {pr.rc} with empty stderr"))
    elif nerr == 0 and len(lines) > 1:
        out.append(Finding("multi-line-error", tname,
                           f"{tname}: {len(lines)} lines, none an error: line: {norm(lines[0])[:70]}",
                           head))
    return out


def within(rel, d):
    return d is not None and (d == "." or rel == d or rel.startswith(d + "/"))


def place_class(rel):
    if rel.startswith("decoy/"):
        return "in decoy/ (through a link)"
    if rel.startswith(LAYOUT["@IN@"]):
        return "in the input dir"
    if rel.startswith(LAYOUT["@CWD@"]):
        return "in the working dir"
    return "elsewhere in the sandbox"


def ext_class(rel):
    base = os.path.basename(rel)
    for e in (".ptx.tmp", ".manifest.json.tmp", ".cubin.tmp", ".ptx", ".manifest.json", ".cubin",
              ".tmp", ".json", ".svg"):
        if base.endswith(e):
            return "*" + e
    return "(other name)"


def judge_files(case, diff, allowed_dir, success, root):
    """Sandbox changes -> findings, one per kind per case (changes listed)."""
    per_kind = {}
    for f in judge_file_changes(case, diff, allowed_dir, success, root):
        per_kind.setdefault(f.kind, []).append(f)
    out = []
    for kind, fs in per_kind.items():
        tname = fs[0].tool
        what = sorted(set(f.signature for f in fs))
        if kind == "write-outside-output-dir" and all("decoy/" in f.signature for f in fs):
            out.append(Finding(kind, tname, f"{tname}: wrote into decoy/ through a planted link",
                               "\n".join(f.detail for f in fs)[:1000]))
            continue
        label = {"write-outside-output-dir": "wrote outside the output dir",
                 "failure-left-files": "failed run left",
                 "failure-removed-files": "failed run removed pre-existing",
                 "success-left-tmp": "successful run left"}[kind]
        out.append(Finding(kind, tname, f"{tname}: {label}: {', '.join(what)} ({case.family})",
                           "\n".join(f.detail for f in fs)[:1000]))
    return out


def judge_file_changes(case, diff, allowed_dir, success, root):
    tname = "approx-tune" if case.target.startswith("tune") else "approx-opt"
    out = []
    named = set()  # files the command line names as outputs (approx-tune --json/--svg)
    for a in case.allowed_files:
        p = subst(a, root)
        named |= {os.path.relpath(os.path.abspath(p), root), os.path.relpath(os.path.realpath(p), root)}
    for rel, what, typ in diff:
        if rel in named:
            if not success:
                out.append(Finding("failure-left-files", tname, f"{what} {typ} {ext_class(rel)}",
                                   f"{what} {typ}: {rel}"))
            continue
        if not within(rel, allowed_dir):
            out.append(Finding("write-outside-output-dir", tname,
                               f"{what} {typ} {ext_class(rel)} {place_class(rel)}",
                               f"{what} {typ}: {rel}"))
        elif not success and what == "removed":
            out.append(Finding("failure-removed-files", tname, f"{typ} {ext_class(rel)}",
                               f"{what} {typ}: {rel}"))
        elif not success:
            out.append(Finding("failure-left-files", tname, f"{what} {typ} {ext_class(rel)}",
                               f"{what} {typ}: {rel}"))
        elif what == "new" and rel.endswith(".tmp"):
            out.append(Finding("success-left-tmp", tname, f"{ext_class(rel)}", rel))
    return out


def judge_outputs(case, cfg, root, allowed_dir, diff, checks_run):
    """Outputs of a successful export: manifest JSON, PTX, cross-checks."""
    out = []
    mans = [rel for rel, what, typ in diff
            if what != "removed" and rel.endswith(".manifest.json") and within(rel, allowed_dir)]
    if not mans:
        return [Finding("success-without-output", "approx-opt",
                        f"approx-opt: exit 0 but no manifest written ({case.family})")]
    for rel in mans:
        p = root / rel
        if p.is_symlink() or not p.is_file():
            out.append(Finding("output-not-regular-file", "approx-opt",
                               "approx-opt: manifest output is not a regular file", rel))
            continue
        try:
            doc = strict_json(p.read_bytes())
        except RecursionError:
            continue
        except ValueError as e:
            out.append(Finding("invalid-manifest-json", "approx-opt",
                               f"approx-opt: exit 0 but manifest is not valid JSON: {norm(str(e))[:60]}",
                               f"{rel}: {e}"))
            continue
        if case.given_ptx:
            continue  # approx-export alone: PTX and kernel list came from the input
        ptx_name = doc.get("ptx") if isinstance(doc, dict) else None
        ptxp = (p.parent / ptx_name) if isinstance(ptx_name, str) else None
        if not ptxp or not ptxp.is_file():
            out.append(Finding("manifest-ptx-missing", "approx-opt",
                               "approx-opt: manifest's ptx does not name the written PTX",
                               f"{rel}: ptx={ptx_name!r}"))
            continue
        ptx = ptxp.read_bytes()
        entries = set(re.findall(rb"\.entry\s+([^\s(]+)\s*\(", ptx))
        for k in doc.get("kernels", []) if isinstance(doc.get("kernels"), list) else []:
            n = k.get("name") if isinstance(k, dict) else None
            if isinstance(n, str) and n.encode() not in entries:
                out.append(Finding("manifest-ptx-mismatch", "approx-opt",
                                   "approx-opt: manifest kernel has no .entry in the PTX",
                                   f"kernel {n[:60]!r}; entries {sorted(entries)[:5]}"))
                break
        if "ptxas" in case.checks and cfg.ptxas:
            out += check_ptxas(cfg, ptxp, doc, checks_run)
        if "tune-list" in case.checks:
            checks_run["tune-list"] = checks_run.get("tune-list", 0) + 1
            r = run_plain([cfg.tune, str(p), "--list"], cfg, cfg.timeout, cwd=str(root))
            if r.returncode != 0:
                line = r.stderr.decode("utf-8", "replace").strip().splitlines()
                line = line[0] if line else f"exit {r.returncode}"
                out.append(Finding("runtime-rejects-compiler-output", "approx-tune",
                                   f"approx-tune --list rejects approx-opt's manifest: {norm(line)[:90]}",
                                   line.replace(str(root), "@ROOT@")[:300]))
    return out


PTXAS_INCONCLUSIVE = re.compile(r"gpu-name|Unsupported \.version|not supported on|"
                                r"Unknown option|unsupported gpu architecture", re.I)


def check_ptxas(cfg, ptxp, doc, checks_run):
    chip = doc.get("chip") if isinstance(doc.get("chip"), str) else "sm_90"
    if not re.fullmatch(r"sm_\d+[a-z]?", chip):
        chip = "sm_90"
    checks_run["ptxas"] = checks_run.get("ptxas", 0) + 1
    r = run_plain([cfg.ptxas, f"-arch={chip}", str(ptxp), "-o", "/dev/null"], cfg, 120)
    if r.returncode == 0:
        return []
    err = (r.stderr + r.stdout).decode("utf-8", "replace")
    if PTXAS_INCONCLUSIVE.search(err):
        checks_run["ptxas-inconclusive"] = checks_run.get("ptxas-inconclusive", 0) + 1
        return []
    line = next((l for l in err.splitlines() if "error" in l or "fatal" in l), err.strip()[:200])
    line = re.sub(r"^ptxas [^,]*, line \d+; ", "", line)
    return [Finding("ptxas-rejects-output", "approx-opt",
                    f"approx-opt: exit 0 but ptxas rejects the PTX: {norm(line)[:90]}",
                    err[:600])]


def check_roundtrip(case, cfg, pr, root, checks_run):
    if pr.out_size == 0 or pr.out_size > len(pr.out):
        return []
    checks_run["roundtrip"] = checks_run.get("roundtrip", 0) + 1
    f = Path(cfg.scratch) / f"rt-{case.index}.mlir"
    f.write_bytes(pr.out)
    try:
        r = run_plain([resolve_tool(cfg, "opt"), str(f), "-o", "/dev/null"], cfg, cfg.timeout)
    finally:
        f.unlink()
    if r.returncode == 0:
        return []
    given = b"".join(v for k, v in case.files.items() if k.endswith(".mlir") and isinstance(v, bytes))
    if b"<<INVALID EMPTY SYMBOL>>" in pr.out and b'@""' in given:
        # MLIR 22 parses @"" and prints it back as text it cannot parse
        # (mlir-opt-22 too); approx-to-ptx refuses such names.
        accept(checks_run, "upstream prints @\"\" as <<INVALID EMPTY SYMBOL>>")
        return []
    first = first_error(r.stderr.decode("utf-8", "replace")) or f"exit {r.returncode}"
    return [Finding("ir-roundtrip", "approx-opt",
                    f"approx-opt: its own output does not re-parse: {norm(first)[:90]}",
                    first[:300])]


def judge_spec(case, cfg, root):
    mpath = None
    for ph, data in case.files.items():
        if ph.endswith("m.manifest.json"):
            mpath = data
    if mpath is None:
        return []
    argv = case.invs[0].args
    tname = "approx-tune"
    try:
        doc = strict_json(subst_manifest("m.manifest.json", mpath, root))
    except RecursionError:
        return []
    except ValueError as e:
        return [Finding("spec-accepts-invalid", tname,
                        "approx-tune: accepts a manifest that is not valid JSON",
                        str(e)[:200])]
    return [Finding("spec-accepts-invalid", tname, f"approx-tune: accepts manifest with {rule}",
                    detail) for rule, detail in spec_violations(doc, argv, cfg.versions)]
