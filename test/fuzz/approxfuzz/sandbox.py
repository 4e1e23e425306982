"""The sandbox a case runs in: its layout, placeholders, setup and snapshots.

Every case runs in a fresh ROOT. The output directory sits five levels down,
so names with up to four `..` still land inside ROOT where the snapshot sees
them; generated paths never leave ROOT (the harness may run as root, and must
never aim a hostile path at the real file system). Cases name sandbox paths
through placeholders (@ROOT@, @OUT@, @IN@, @CWD@, @DECOY@, @TOOLS@) that
`subst` turns into real paths once ROOT exists.
"""

import hashlib
import os
import shutil
import stat
from pathlib import Path


LAYOUT = {
    "@OUT@": "a/b/c/d/out",
    "@IN@": "a/b/c/d/in",
    "@CWD@": "a/b/c/d/cwd",
    "@DECOY@": "decoy",
    "@TOOLS@": "tools",
}
DECOY_FILE = "decoy/victim.txt"
DECOY_TEXT = b"decoy: a tool run must never change this file\n"


def subst_manifest(ph, data, root):
    """Manifests may name sandbox paths (absolute `ptx`): placeholders in them too."""
    if ph.endswith(".manifest.json") and b"@" in data:
        return subst(data.decode("utf-8", "surrogateescape"), root).encode("utf-8", "surrogateescape")
    return data


def subst(s, root):
    """Replaces the layout placeholders in `s` by paths under `root`."""
    for ph, rel in LAYOUT.items():
        s = s.replace(ph, f"{root}/{rel}")
    return s.replace("@ROOT@", str(root))


def materialize(case, root, cfg):
    for rel in LAYOUT.values():
        (root / rel).mkdir(parents=True, exist_ok=True)
    (root / DECOY_FILE).write_bytes(DECOY_TEXT)
    for ph, data in case.files.items():
        p = Path(subst(ph, root))
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(subst_manifest(ph, data, root))
    for act in case.setup:
        kind, path = act[0], subst(act[1], root)
        if kind == "symlink":
            target, link = subst(act[1], root), subst(act[2], root)
            Path(link).parent.mkdir(parents=True, exist_ok=True)
            if not os.path.lexists(link):
                os.symlink(target, link)
        elif kind == "mkdir":
            os.makedirs(path, exist_ok=True)
        elif kind == "fifo":
            if not os.path.lexists(path):
                os.mkfifo(path)
        elif kind == "sparse":
            with open(path, "wb") as f:
                f.truncate(act[2])
        elif kind == "write":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_text(act[2])
        elif kind == "script":
            Path(path).write_text(act[2])
            os.chmod(path, 0o755)
        elif kind == "trunc-libdevice":
            data = Path(cfg.libdevice).read_bytes()[:4096] if cfg.libdevice else b"BC\xc0\xde"
            Path(path).write_bytes(data)
        elif kind == "copy-input":
            Path(path).write_bytes(case.files["@IN@/input.mlir"])
    for act in case.setup:
        if act[0] == "chmod":
            os.chmod(subst(act[1], root), act[2])


def snapshot(root):
    snap = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            rel = os.path.relpath(p, root)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            if stat.S_ISLNK(st.st_mode):
                snap[rel] = ("link", os.readlink(p))
            elif stat.S_ISREG(st.st_mode):
                if st.st_size <= (4 << 20):
                    try:
                        with open(p, "rb") as f:
                            h = hashlib.sha1(f.read()).hexdigest()
                    except OSError:
                        h = f"unreadable:{st.st_mtime_ns}"
                else:
                    h = f"big:{st.st_mtime_ns}"
                snap[rel] = ("file", st.st_size, stat.S_IMODE(st.st_mode), h)
            elif stat.S_ISDIR(st.st_mode):
                snap[rel] = ("dir", stat.S_IMODE(st.st_mode))
            elif stat.S_ISFIFO(st.st_mode):
                snap[rel] = ("fifo",)
            else:
                snap[rel] = ("other",)
    return snap


def diff_snapshots(before, after):
    out = []
    for rel in sorted(set(before) | set(after)):
        b, a = before.get(rel), after.get(rel)
        if b == a:
            continue
        if b and a and b[0] == "dir" and a[0] == "dir":
            continue  # a directory's own entry: mode only, and we never chmod
        out.append((rel, "new" if b is None else "removed" if a is None else "changed",
                    (a or b)[0]))
    return out


def rmtree(root):
    def onerror(func, path, exc):
        try:
            os.chmod(os.path.dirname(path), 0o755)
            os.chmod(path, 0o755)
            func(path)
        except OSError:
            pass
    shutil.rmtree(root, onerror=onerror)
