"""The findings store: deduplicates findings by (kind, tool, signature) and
saves each new one as a self-contained reproducer directory (files/,
repro.sh, command.txt, case.json, output.txt); --append continues an earlier
campaign's store."""

import json
import os
import shlex
import shutil
from pathlib import Path

from .oracles import Finding
from .sandbox import DECOY_FILE, DECOY_TEXT, LAYOUT, subst


def shq(s):
    """Shell-quotes `s`; non-printable characters become $'\\xNN'."""
    if all(32 <= ord(c) < 127 for c in s):
        return shlex.quote(s)
    out = []
    for b in s.encode("utf-8", "surrogateescape"):
        if 32 <= b < 127 and b not in (0x27, 0x5C):
            out.append(chr(b))
        else:
            out.append(f"\\x{b:02x}")
    return "$'" + "".join(out) + "'"


def repro_script(case, cfg, fid):
    root = f"/tmp/approx-fuzz-repro/{fid}"
    L = ["#!/usr/bin/env bash",
         f"# Reproducer {fid}: case {case.index} of seed {cfg.seed} ({case.family}).",
         "# Recreates the sandbox under $ROOT and runs the command(s); prints the exit status.",
         "# APPROX_BUILD: the build dir (default: the one the campaign used).",
         "set -u",
         'HERE="$(cd "$(dirname "$0")" && pwd)"',
         f'B="${{APPROX_BUILD:-{cfg.build}}}"',
         f"ROOT={root}",
         'chmod -R u+rwx "$ROOT" 2>/dev/null; rm -rf "$ROOT"',
         " ".join(["mkdir -p"] + [f'"$ROOT/{rel}"' for rel in LAYOUT.values()]),
         f"printf '%s' {shq(DECOY_TEXT.decode())} > \"$ROOT/{DECOY_FILE}\"",
         '[ -d "$HERE/files" ] && cp -R "$HERE/files/." "$ROOT/"',
         # manifests may name sandbox paths through placeholders
         'find "$ROOT" -name "*.manifest.json" -type f -exec sed -i "s#@ROOT@#$ROOT#g" {} +']

    def P(s):
        return shq(subst(s, root))
    for act in case.setup:
        k = act[0]
        if k == "symlink":
            L.append(f"mkdir -p \"$(dirname {P(act[2])})\"; ln -s {P(act[1])} {P(act[2])}")
        elif k == "mkdir":
            L.append(f"mkdir -p {P(act[1])}")
        elif k == "fifo":
            L.append(f"mkfifo {P(act[1])}")
        elif k == "sparse":
            L.append(f"truncate -s {act[2]} {P(act[1])}")
        elif k in ("write", "script"):
            L.append(f"mkdir -p \"$(dirname {P(act[1])})\"; printf '%s' {shq(act[2])} > {P(act[1])}")
            if k == "script":
                L.append(f"chmod 755 {P(act[1])}")
        elif k == "trunc-libdevice":
            L.append(f"head -c 4096 {shq(cfg.libdevice or '/dev/null')} > {P(act[1])}")
        elif k == "copy-input":
            L.append(f"cp {P('@IN@/input.mlir')} {P(act[1])}")
    for act in case.setup:
        if act[0] == "chmod":
            L.append(f"chmod {act[2]:o} {P(act[1])}")
    L.append(f"cd {P('@CWD@')}")
    cmds = []
    for inv in case.invs:
        tool = {"opt": f'"$B/{cfg.bin_rel}approx-opt"', "tune": f'"$B/{cfg.bin_rel}approx-tune"',
                "cc": f'"$B/{cfg.bin_rel}approx-cc"'}.get(inv.tool, shq(inv.tool))
        env = " ".join(f"{k}={shq(v)}" for k, v in inv.env.items())
        cmd = f"{env + ' ' if env else ''}timeout -s KILL {int(cfg.timeout)} {tool} " + \
            " ".join(P(a) for a in inv.args)
        cmds.append(cmd)
    if case.concurrent:
        L += [c + " & " for c in cmds] + ["wait"]
        L.append('echo "(concurrent runs; see ls below)"')
    else:
        for c in cmds:
            L += [c, 'echo "exit status: $?"']
    L.append(f'ls -la {P("@OUT@")}; ls -la {P("@DECOY@")}')
    return "\n".join(L) + "\n", cmds


class Store:
    def __init__(self, cfg):
        self.cfg = cfg
        self.sigs = {}     # key -> dict
        self.order = []
        self.loaded = 0
        if cfg.findings:
            Path(cfg.findings).mkdir(parents=True, exist_ok=True)

    def load(self, path):
        """Continues an earlier campaign's findings (--append): same ids, hits add up."""
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError):
            return
        for f in data.get("findings", []):
            key = (f["kind"], f["tool"], f["signature"])
            self.sigs[key] = {"id": f["id"], "finding": Finding(f["kind"], f["tool"], f["signature"],
                                                                f.get("detail", "")),
                              "hits": f["hits"], "cases": f["cases"], "families": set(f["families"]),
                              "case": None, "result": None}
            self.order.append(key)
        self.loaded = len(self.order)

    def add(self, result):
        new = []
        for f in result.findings:
            key = (f.kind, f.tool, f.signature)
            if key in self.sigs:
                s = self.sigs[key]
                s["hits"] += 1
                s["families"].add(result.case.family)
                if len(s["cases"]) < 10:
                    s["cases"].append(result.case.index)
                continue
            fid = f"{len(self.order) + 1:03d}-{f.kind}"
            s = {"id": fid, "finding": f, "hits": 1, "cases": [result.case.index],
                 "families": {result.case.family}, "case": result.case, "result": result}
            self.sigs[key] = s
            self.order.append(key)
            self.save(s)
            new.append(s)
        return new

    def save(self, s, minimized=None):
        if not self.cfg.findings:
            return
        case = minimized or s["case"]
        res = s["result"]
        d = Path(self.cfg.findings) / s["id"]
        if d.exists():
            shutil.rmtree(d)
        (d / "files").mkdir(parents=True)
        for ph, data in case.files.items():
            rel = subst(ph, "@@").replace("@@/", "", 1)
            p = d / "files" / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
        script, cmds = repro_script(case, self.cfg, s["id"])
        (d / "repro.sh").write_text(script)
        os.chmod(d / "repro.sh", 0o755)
        f = s["finding"]
        (d / "command.txt").write_text("\n".join(cmds) + "\n")
        info = case.describe()
        info.update({"seed": self.cfg.seed, "kind": f.kind, "tool": f.tool,
                     "signature": f.signature, "detail": f.detail,
                     "minimized": minimized is not None,
                     "rerun": f"approx-fuzz.py --seed {self.cfg.seed} --case {case.index}"})
        (d / "case.json").write_text(json.dumps(info, indent=2, ensure_ascii=True) + "\n")
        with open(d / "output.txt", "w", errors="replace") as o:
            o.write(f"{f.kind}: {f.signature}\n{f.detail}\n\n")
            for pr in res.procs:
                o.write(f"$ {' '.join(shq(a) for a in pr.argv)[:2000]}\n")
                o.write(f"exit {pr.rc}{' (killed: timeout)' if pr.timed_out else ''}, {pr.secs:.2f} s "
                        f"({pr.cpu:.2f} s CPU), "
                        f"stdout {pr.out_size} B, stderr {pr.err_size} B\n")
                o.write("--- stderr (first 8 KB) ---\n")
                o.write(pr.err[:8192].decode("utf-8", "replace").replace(res.root, "@ROOT@"))
                o.write("\n--- stdout (first 2 KB) ---\n")
                o.write(pr.out[:2048].decode("utf-8", "replace").replace(res.root, "@ROOT@") + "\n")
            if res.diff:
                o.write("--- sandbox changes ---\n")
                for rel, what, typ in res.diff:
                    o.write(f"{what} {typ} {rel}\n")

    def any(self):
        return bool(self.order)
