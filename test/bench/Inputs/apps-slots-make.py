"""Writes argv[2]: run-apps' JSON argv[1] (apps-dispersion.json) with a
virtual set beside each app's hw: the first app's T(λ) 5% slower at every
λ, the others' the same as hw; E repeated bit for bit (error_repeat ==
error), as slot=virtual gives it."""
import copy
import json
import sys

with open(sys.argv[1]) as f:
    d = json.load(f)
for i, a in enumerate(d["apps"]):
    v = copy.deepcopy(a["sets"]["hw"])
    if i == 0:
        v["time_ms"] = [t * 1.05 for t in v["time_ms"]]
    v["error_repeat"] = list(v["error"])
    a["sets"]["virtual"] = v
with open(sys.argv[2], "w") as f:
    json.dump(d, f)
