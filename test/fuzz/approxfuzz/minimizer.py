"""The minimizer (--minimize): shrinks a finding's case while its signature
holds, dropping input lines, option tokens, argv pairs and JSON members, and
saves the smaller reproducer."""

import dataclasses
import json
import re
import shlex
import time

from .cases_opt import opt_string
from .mutate_manifest import json_get, json_paths
from .runner import run_case


def minimize(store, s, cfg):
    case = s["case"]
    key = (s["finding"].kind, s["finding"].tool, s["finding"].signature)
    budget = {"runs": 0}
    t_end = time.monotonic() + cfg.minimize_seconds

    def still(c):
        if budget["runs"] >= cfg.minimize_runs or time.monotonic() > t_end:
            return False
        budget["runs"] += 1
        r = run_case(c, cfg)
        return any((f.kind, f.tool, f.signature) == key for f in r.findings), r

    def try_case(c):
        res = still(c)
        return res if res else (False, None)

    best, best_res = case, s["result"]
    def step_lines():
        nonlocal best, best_res
        # 1. input lines (ddmin-style chunks)
        for ph in [p for p in best.files if p.endswith((".mlir",))]:
            lines = best.files[ph].split(b"\n")
            n = 2
            while len(lines) >= 2 and n <= len(lines):
                chunk = max(1, len(lines) // n)
                reduced = False
                for i in range(0, len(lines), chunk):
                    cand = lines[:i] + lines[i + chunk:]
                    c = dataclasses.replace(best, files={**best.files, ph: b"\n".join(cand)})
                    ok, r = try_case(c)
                    if ok:
                        best, best_res, lines, reduced = c, r, cand, True
                        n = max(n - 1, 2)
                        break
                if not reduced:
                    if chunk == 1:
                        break
                    n = min(len(lines), n * 2)

    def step_json():
        nonlocal best, best_res
        # 2. JSON members of a manifest
        for ph in [p for p in best.files if p.endswith(".manifest.json")]:
            try:
                doc = json.loads(best.files[ph])
            except ValueError:
                continue
            changed = True
            while changed:
                changed = False
                for p in sorted((p for p in json_paths(doc) if p), key=len):
                    cand = json.loads(json.dumps(doc))
                    try:
                        parent = json_get(cand, p[:-1])
                        del parent[p[-1]]
                    except (KeyError, IndexError, TypeError):
                        continue
                    c = dataclasses.replace(best, files={**best.files, ph: json.dumps(cand, indent=1).encode()})
                    ok, r = try_case(c)
                    if ok:
                        best, best_res, doc, changed = c, r, cand, True
                        break

    def step_args():
        nonlocal best, best_res
        # 3. option tokens inside --approx-to-ptx= / {...}, then argv pairs
        for k, inv in enumerate(best.invs):
            for j, a in enumerate(inv.args):
                m = re.match(r"(--approx-to-ptx=)(.*)$", a)
                if not m:
                    continue
                try:
                    toks = shlex.split(m.group(2))
                except ValueError:
                    toks = None
                if not toks:
                    continue
                for t in list(toks):
                    if t.startswith("output-dir="):
                        continue
                    cand = [x for x in toks if x != t]
                    args = inv.args[:j] + [m.group(1) + opt_string(dict(
                        (x.split("=", 1) + [None])[:2] for x in cand))] + inv.args[j + 1:]
                    invs = best.invs[:k] + [dataclasses.replace(inv, args=args)] + best.invs[k + 1:]
                    c = dataclasses.replace(best, invs=invs)
                    ok, r = try_case(c)
                    if ok:
                        best, best_res, toks, inv = c, r, cand, invs[k]
            if inv.tool == "tune":
                i = 1
                while i < len(inv.args):
                    a = inv.args[i]
                    width = 2 if a.startswith("--") and i + 1 < len(inv.args) and not inv.args[i + 1].startswith("--") else 1
                    args = inv.args[:i] + inv.args[i + width:]
                    invs = best.invs[:k] + [dataclasses.replace(inv, args=args)] + best.invs[k + 1:]
                    c = dataclasses.replace(best, invs=invs)
                    ok, r = try_case(c)
                    if ok:
                        best, best_res, inv = c, r, invs[k]
                    else:
                        i += width

    steps = [step_args, step_json, step_lines] if case.target.startswith("tune") else \
        [step_lines, step_args, step_json]
    for step in steps:
        step()
    if best is not case:
        s["result"] = best_res
        store.save(s, minimized=best)
    return budget["runs"]
