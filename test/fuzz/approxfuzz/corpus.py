"""The seed corpus: MLIR files split at `// -----`, CUDA sources, manifests
(and the docs/manifest.md example), plus seeds derived by running today's
approx-opt (gpu.binary modules, manifests, PTX); and the synthetic k-knob
module."""

import json
import os
import re
from pathlib import Path

from .model import Seed
from .processes import run_plain
from .spec import spec_violations, strict_json


REPO = Path(__file__).resolve().parents[3]


class Corpus:
    """Seeds: MLIR files split at `// -----`, manifests, derived seeds."""

    def __init__(self, cfg):
        self.mlir, self.fast, self.binaries = [], [], []
        self.manifests = []       # (name, doc dict, ptx bytes)
        self.tune_ok = []         # manifests today's approx-tune --list accepts
        self.notes = []
        for d in cfg.corpus:
            for p in sorted(Path(d).rglob("*.mlir")):
                text = p.read_text(errors="replace")
                rel = os.path.relpath(p, REPO) if str(p).startswith(str(REPO)) else str(p)
                # expected-* comments make MLIR 22's driver verify diagnostics
                # (even without -verify-diagnostics); mut_misc adds one on purpose.
                text = re.sub(r"(?m)^.*//\s*expected-(error|warning|note|remark).*\n", "", text)
                for i, chunk in enumerate(re.split(r"^// -{5}.*$", text, flags=re.M)):
                    if re.search(r"^\s*[^/\s]", chunk, re.M):
                        self.mlir.append(Seed(f"{rel}#{i}", chunk))
        fast_names = ("box_muller.mlir#0", "black_scholes.mlir#0", "iterated_map.mlir#0",
                      "coulomb_f64.mlir#0", "all-functions.mlir#0", "static-shapes.mlir#0")
        self.fast = [s for s in self.mlir if s.name.endswith(fast_names)]
        if not self.fast:
            self.fast = [s for s in self.mlir if "kernel" in s.text and "gpu.module" in s.text][:6]
        self.mlir.append(Seed("synthetic:k-knobs", k_knob_module(2)))
        self.cuda = []
        for d in cfg.corpus:
            for p in sorted(Path(d).rglob("*.cu")):
                if "gpu" in p.parts:  # host programs, not device code
                    continue
                rel = os.path.relpath(p, REPO) if str(p).startswith(str(REPO)) else str(p)
                self.cuda.append(Seed(rel, p.read_text(errors="replace")))
        for d in cfg.corpus:
            for p in sorted(Path(d).rglob("*.manifest.json")):
                # Deliberately invalid manifests (the corpus tools' own test
                # inputs) are bad seeds: their breakage is the point.
                if p.name.startswith("broken"):
                    continue
                try:
                    doc = strict_json(p.read_bytes())
                except ValueError:
                    continue
                ptx = p.parent / doc.get("ptx", "") if isinstance(doc.get("ptx"), str) else None
                data = ptx.read_bytes() if ptx and ptx.is_file() else b"// no ptx\n"
                self.manifests.append((str(p.name), doc, data))
        spec = REPO / "docs" / "manifest.md"
        if spec.is_file():
            m = re.search(r"```json\n(.*?)```", spec.read_text(), re.S)
            if m:
                try:
                    doc = json.loads(m.group(1))
                except ValueError:
                    doc = None
                if isinstance(doc, dict):
                    # The example abbreviates "sites"; keep the kernel's indices in range.
                    n = len(doc.get("sites", []))
                    for k in doc.get("kernels", []):
                        if isinstance(k.get("sites"), list) and any(i >= n for i in k["sites"]):
                            self.notes.append("docs/manifest.md example: kernel sites "
                                              f"{k['sites']} index past the {n} site(s) listed; "
                                              "trimmed for the seed")
                            k["sites"] = [i for i in k["sites"] if i < n]
                    self.manifests.append(("docs/manifest.md example", doc, b"// doc\n"))

    def derive(self, cfg, scratch):
        """Runs today's approx-opt on the fast seeds for gpu.binary modules,
        manifests and PTX (seeds for approx-export and approx-tune)."""
        d = Path(scratch) / "derived"
        d.mkdir(parents=True, exist_ok=True)
        for s in self.fast:
            stem = re.sub(r"\W", "_", s.name.split("/")[-1].split(".")[0])
            src = d / f"{stem}.mlir"
            src.write_text(s.text)
            r = run_plain([cfg.opt, str(src), "--approx-to-ptx=export=false",
                           "-o", str(d / f"{stem}.bin.mlir")], cfg, 120)
            if r.returncode == 0:
                self.binaries.append(Seed(f"derived:{stem}.bin", (d / f"{stem}.bin.mlir").read_text()))
            r = run_plain([cfg.opt, str(src), f"--approx-to-ptx=output-dir={d} name={stem}",
                           "-o", "/dev/null"], cfg, 120)
            man = d / f"{stem}.manifest.json"
            if r.returncode == 0 and man.is_file():
                try:
                    self.manifests.append((f"derived:{stem}", strict_json(man.read_bytes()),
                                           (d / f"{stem}.ptx").read_bytes()))
                except ValueError:
                    self.notes.append(f"derived manifest {man.name} is not valid JSON")
            else:
                self.notes.append(f"could not derive seeds from {s.name}")
        # Seeds the validator must pass unmutated; seeds today's runtime reads.
        kept = []
        for name, doc, ptx in self.manifests:
            bad = spec_violations(doc, [], cfg.versions)
            if bad and not name.startswith("docs/"):
                self.notes.append(f"seed manifest {name} breaks the spec checker "
                                  f"({bad[0][0]}); dropped")
                continue
            kept.append((name, doc, ptx))
            mpath = d / "check.manifest.json"
            mpath.write_text(json.dumps(doc))
            if isinstance(doc.get("ptx"), str) and "/" not in doc["ptx"]:
                (d / doc["ptx"]).write_bytes(ptx)
            r = run_plain([cfg.tune, str(mpath), "--list"], cfg, 30)
            if r.returncode == 0:
                self.tune_ok.append((name, doc, ptx))
        self.manifests = kept
        if not self.tune_ok:
            self.notes.append("approx-tune --list accepts none of the seed manifests: "
                              "tune-args cases start from a rejected manifest")
            self.tune_ok = self.manifests[:]


def k_knob_module(k, ops=("exp", "sin", "cos", "log", "sqrt", "rsqrt")):
    """A loop with k tunable ops, each on its own knob: 2^k versions."""
    lines = ["module attributes {gpu.container_module} {", "  gpu.module @kk {"]
    lines += [f"    approx.knob @k{i} range(0, 64) default(0)" for i in range(k)]
    lines += ["    gpu.func @kern(%a: memref<?xf32>, %n: index) kernel {",
              "      %c0 = arith.constant 0 : index",
              "      %c1 = arith.constant 1 : index",
              "      scf.for %i = %c0 to %n step %c1 {",
              "        %x = memref.load %a[%i] : memref<?xf32>"]
    prev = "%x"
    for i in range(k):
        lines.append(f"        %y{i} = approx.{ops[i % len(ops)]} {prev} knob(@k{i}) : f32")
        prev = f"%y{i}"
    lines += [f"        memref.store {prev}, %a[%i] : memref<?xf32>", "      }",
              "      gpu.return", "    }", "  }", "}"]
    return "\n".join(lines) + "\n"
