#!/usr/bin/env python3
"""Writes lut3.manifest.json (generated, do not edit it: edit this script).

The manifest of lut3.ptx (hand-written): kernel lut3_fetch(out, xs, ys, zs,
n), four abi "bare" memref<32xf32> and an i32, reading the resource knob
`lut3` through the module global lut3_tex. The knob is a "texture_3d",
linear (trilinear), clamp, unnormalised coordinates, with two tables:

  value 0: 2 x 2 x 2, 1 channel, corner values chosen so that every partial
           sum of the trilinear blend is exact in f32 (multiples of 1/8):
           v(x, y, z) = CORNERS[x + 2y + 4z]; their mean is 0.4375;
  value 1: 3 x 2 x 4, 2 channels, v(x, y, z, c) = 100z + 10y + x + c/2, so
           any mix-up of the axes or of the channel interleave shows.

TABLE data is little-endian f32, x fastest, then y, then z, each texel's
channels side by side (docs/manifest.md). Run: python3 gen.py
"""
import base64
import json
import os
import struct

CORNERS = [0.0, 0.125, 0.375, 0.875, 0.25, 0.75, 0.625, 0.5]


def table(w, h, d, c, values):
    assert len(values) == w * h * d * c
    data = struct.pack("<%df" % len(values), *values)
    return {"width": w, "height": h, "depth": d, "channels": c,
            "element": "f32", "data": base64.b64encode(data).decode()}


def ramp(w, h, d, c):
    return [100.0 * z + 10.0 * y + x + 0.5 * k
            for z in range(d) for y in range(h) for x in range(w)
            for k in range(c)]


def bare(i, access):
    return {"kind": "memref", "element": "f32", "rank": 1, "shape": [32],
            "abi": "bare", "access": access, "first_param": i,
            "num_params": 1}


manifest = {
    "format": "approx-manifest",
    "version": 2,
    "producer": "test/runtime/data/texture3d/gen.py (generated, do not edit)",
    "module": "lut3",
    "ptx": "lut3.ptx",
    "knobs": [{
        "name": "lut3", "kind": "resource", "symbol": "lut3_tex",
        "type": "i64", "path": "global", "min": 0, "max": 1, "default": 0,
        "resource": {
            "type": "texture_3d", "filter": "linear", "address": "clamp",
            "normalized_coords": False,
            "options": [table(2, 2, 2, 1, CORNERS),
                        table(3, 2, 4, 2, ramp(3, 2, 4, 2))]}}],
    "kernels": [{
        "name": "lut3_fetch",
        "knobs": ["lut3"],
        "args": [bare(0, "write"), bare(1, "read"), bare(2, "read"),
                 bare(3, "read"),
                 {"kind": "scalar", "type": "i32", "first_param": 4,
                  "num_params": 1}],
        "params": [{"arg": i, "field": "aligned", "type": "ptr", "size": 8}
                   for i in range(4)] +
                  [{"arg": 4, "field": "value", "type": "i32", "size": 4}]}],
}

out = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                   "lut3.manifest.json")
with open(out, "w") as f:
    json.dump(manifest, f, indent=1)
    f.write("\n")
