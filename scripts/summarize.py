#!/usr/bin/env python3
"""Prints a short summary of an approx manifest: kernels, knobs, approximation
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
    print(f"module {m['module']}: {ptx} for {m['chip']}, warp slot '{m['slot']}'")
    for k in m["knobs"]:
        print(f"  knob {k['name']}: {k['type']} in [{k['min']}, {k['max']}], default {k['default']}")
    for k in m["kernels"]:
        print(f"  kernel {k['name']}: {len(k['args'])} args -> {len(k['params'])} PTX params, knobs {k['knobs']}")
    sfu = [s for s in m["sites"] if s["sfu_form"]]
    print(f"  approximation sites: {len(m['sites'])} ({len(sfu)} with an SFU form)")
    for s in m["sites"]:
        form = "SFU/precise" if s["sfu_form"] else "precise only"
        print(f"    {s['function']}: {s['op']} {s['type']} [{form}] knob {s['knob']} at {s['loc']}")
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
