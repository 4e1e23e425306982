#!/usr/bin/env python3
"""Writes, for each of our manifests in OURS, a manifest for upstream's PTX of
the same gpu.module in UPSTREAM: the same kernels and launch ABI, without knobs
or sites (upstream's PTX has no knob global). Used by compare-upstream.sh.

Usage: upstream-manifests.py OURS UPSTREAM"""
import glob
import json
import os
import sys


def main(ours, upstream):
    paths = glob.glob(os.path.join(ours, '*.manifest.json'))
    if not paths:
        sys.exit('no manifest under ' + ours)
    for path in paths:
        m = json.load(open(path))
        module = m['gpu_module']
        if not os.path.exists(os.path.join(upstream, module + '.ptx')):
            sys.exit('no upstream PTX for gpu.module ' + module)
        m['module'], m['ptx'] = module, module + '.ptx'
        m.pop('cubin', None)
        m['knobs'], m['sites'] = [], []
        for k in m['kernels']:
            k['knobs'], k['sites'] = [], []
            k['params'] = [p for p in k['params'] if p.get('field') != 'knob']
        with open(os.path.join(upstream, module + '.manifest.json'), 'w') as f:
            json.dump(m, f, indent=1)


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
