#!/usr/bin/env python3
"""Prints a short summary of an approx manifest (versions 2 and 3): kernels, knobs,
sites, and ptxas register use of its PTX where ptxas is found."""
import json
import os
import re
import shutil
import subprocess
import sys


def main(path):
    with open(path) as f:
        m = json.load(f)
    ptx = os.path.join(os.path.dirname(path), m["ptx"])
    print(f"module {m['module']} (manifest v{m['version']}): {ptx} for {m['chip']}")
    for k in m.get("knobs", []):
        slot = f", warp slot '{k['warp_slot']}'" if "warp_slot" in k else ""
        print(f"  knob {k['name']} ({k['kind']}): [{k['min']}, {k['max']}], default {k['default']}{slot}")
    for k in m["kernels"]:
        print(f"  kernel {k['name']}: {len(k['args'])} args -> {len(k['params'])} PTX params, knobs {k['knobs']}")
    sites = m.get("sites", [])
    tunable = [s for s in sites if s["form"] == "tunable"]
    print(f"  sites: {len(sites)} ({len(tunable)} tunable)")
    for s in sites:
        knob = f" knob {s['knob']}" if "knob" in s else ""
        why = f" ({s['reason']})" if "reason" in s else ""
        print(f"    {s['function']}: {s['op']} {s['type']} [{s['form']}]{knob} at {s['loc']}{why}")
    cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    ptxas = shutil.which("ptxas") or os.path.join(cuda, "bin", "ptxas")
    if not os.access(ptxas, os.X_OK):
        print("  ptxas: not found (set CUDA_PATH); register use not shown")
        return 0
    r = subprocess.run([ptxas, "-v", f"-arch={m['chip']}", ptx, "-o", os.devnull],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(f"  ptxas failed: {r.stderr.strip()}")
        return 1
    kernel = None
    for line in r.stderr.splitlines():
        e = re.search(r"Compiling entry function '(\w+)'", line)
        if e:
            kernel = e.group(1)
        u = re.search(r"Used (\d+) registers", line)
        if u and kernel:
            print(f"  ptxas: {kernel} uses {u.group(1)} registers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
