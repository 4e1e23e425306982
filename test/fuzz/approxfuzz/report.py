"""The campaign summary: runs by target, extra checks, signatures and hits
per oracle, the findings list, and summary.json (or --json-summary)."""

import json
import os
from pathlib import Path


KIND_ORDER = ["crash", "hang", "memory-blowup", "error-on-success", "multi-error", "multi-line-error", "module-dump", "oversized-error",
              "silent-failure", "odd-exit", "raw-control-chars", "write-outside-output-dir",
              "failure-left-files", "failure-removed-files", "success-left-tmp", "output-not-regular-file",
              "success-without-output", "invalid-manifest-json", "manifest-ptx-missing",
              "manifest-ptx-mismatch", "ptxas-rejects-output", "runtime-rejects-compiler-output",
              "ir-roundtrip", "spec-accepts-invalid"]


def summary(store, stats, cfg, a, say):
    print(f"\napprox-fuzz summary: seed {cfg.seed}, cases {a.first}..{a.first + a.runs - 1}, "
          f"{stats['runs']} runs in {stats['seconds']} s"
          + (f" (stopped by --seconds {a.seconds:g}; continue with --first {stats.get('next', a.first)})"
             if stats["stopped_early"] else "")
          + (f", {stats['skipped_hang_family']} cases skipped (family already hung)"
             if stats["skipped_hang_family"] else ""))
    print("  runs by target: " + ", ".join(f"{t} {n}" for t, n in sorted(stats["by_target"].items())))
    print(f"  exit 0: {stats['exit0']}; extra checks: " +
          (", ".join(f"{k} {v}" for k, v in sorted(stats["checks"].items())) or "none"))
    by_kind = {}
    for key in store.order:
        s = store.sigs[key]
        d = by_kind.setdefault(s["finding"].kind, [0, 0])
        d[0] += 1
        d[1] += s["hits"]
    print(f"\n  {'oracle':34} {'signatures':>10} {'hits':>6}")
    for k in KIND_ORDER:
        n, h = by_kind.get(k, (0, 0))
        print(f"  {k:34} {n:>10} {h:>6}")
    if store.order:
        print("\n  findings (one per signature; reproducers in "
              f"{os.path.abspath(cfg.findings) if cfg.findings else '(not saved)'}):")
        for key in sorted(store.order, key=lambda k: (KIND_ORDER.index(k[0]) if k[0] in KIND_ORDER else 99,
                                                      store.sigs[k]["id"])):
            s = store.sigs[key]
            print(f"  {s['id']:32} hits {s['hits']:>4}  {s['finding'].signature[:120]}")
    if store.loaded:
        print(f"  ({store.loaded} signatures came from the earlier parts of this campaign, --append)")
    if a.json_summary or cfg.findings:
        data = {"seed": cfg.seed, "build": cfg.build, **stats,
                "findings": [{"id": store.sigs[k]["id"], "kind": k[0], "tool": k[1], "signature": k[2],
                              "hits": store.sigs[k]["hits"], "cases": store.sigs[k]["cases"],
                              "families": sorted(store.sigs[k]["families"]),
                              "detail": store.sigs[k]["finding"].detail[:500]}
                             for k in store.order]}
        path = a.json_summary or os.path.join(cfg.findings, "summary.json")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=True) + "\n")
    print(f"\napprox-fuzz: {'FOUND ' + str(len(store.order)) + ' signature(s)' if store.order else 'nothing found'}")
