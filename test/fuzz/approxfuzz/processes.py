"""Running a tool: resource limits (no core, address space, file size), the
environment, start and finish of a sandboxed run with its CPU time and peak
RSS (Proc), and run_plain for helper commands (ptxas, checks)."""

import dataclasses
import os
import resource
import signal
import subprocess
import time


@dataclasses.dataclass
class Proc:
    argv: list
    rc: int = 0
    timed_out: bool = False
    secs: float = 0.0
    out: bytes = b""
    out_size: int = 0
    err: bytes = b""
    err_size: int = 0
    cpu: float = 0.0
    rss_mb: float = 0.0


def limits(cfg):
    def apply():
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if cfg.mem_mb:
            resource.setrlimit(resource.RLIMIT_AS, (cfg.mem_mb << 20, cfg.mem_mb << 20))
        resource.setrlimit(resource.RLIMIT_FSIZE, (cfg.fsize_mb << 20, cfg.fsize_mb << 20))
    return apply


def tool_env(cfg, extra):
    env = dict(os.environ)
    env["LC_ALL"] = "C"
    if cfg.symbolizer:
        env["LLVM_SYMBOLIZER_PATH"] = cfg.symbolizer
    env.update(extra)
    return env


def run_plain(argv, cfg, timeout, cwd=None, env=None):
    """Runs a helper command (ptxas, a check); kills its whole group on timeout."""
    p = subprocess.Popen(argv, cwd=cwd, env=env or tool_env(cfg, {}), stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                         preexec_fn=limits(cfg))
    try:
        out, err = p.communicate(timeout=timeout)
        return subprocess.CompletedProcess(argv, p.returncode, out, err)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return subprocess.CompletedProcess(argv, -999, out, err)


# Linux refuses a single exec argument over 32 pages (MAX_ARG_STRLEN) with
# E2BIG before the tool runs; a mutated option that long is cut to fit.
MAX_ARG_CHARS = 100_000


def start(argv, cwd, env, io_base, cfg):
    fo = open(f"{io_base}.out", "wb")
    fe = open(f"{io_base}.err", "wb")
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=fo,
                         stderr=fe, start_new_session=True, preexec_fn=limits(cfg))
    return p, fo, fe


def finish(p, fo, fe, io_base, argv, t0, deadline, keep_out):
    pr = Proc(argv=argv)
    # os.wait4, not Popen.wait: it also returns this child's CPU time and peak RSS.
    ru, nap = None, 0.001
    while ru is None:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            ru = usage
        elif time.monotonic() > deadline:
            pr.timed_out = True
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            pid, status, ru = os.wait4(p.pid, 0)
        else:
            time.sleep(nap)
            nap = min(nap * 2, 0.05)
    p.returncode = os.waitstatus_to_exitcode(status)
    pr.cpu = ru.ru_utime + ru.ru_stime
    pr.rss_mb = ru.ru_maxrss / 1024
    pr.secs = time.monotonic() - t0
    pr.rc = p.returncode
    fo.close()
    fe.close()
    for stream, cap in (("out", keep_out), ("err", 1 << 20)):
        path = f"{io_base}.{stream}"
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            data = f.read(cap)
        os.unlink(path)
        setattr(pr, stream, data)
        setattr(pr, f"{stream}_size", size)
    return pr


def resolve_tool(cfg, tool):
    return {"opt": cfg.opt, "tune": cfg.tune, "cc": cfg.cc}.get(tool, tool)
