"""Prints, per manifest in DIR, the app and its tunable site functions
(sorted, comma-separated), then 'precise NAME OP' for any site left precise."""
import glob
import json
import os
import sys

for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.manifest.json"))):
    m = json.load(open(path))
    name = os.path.basename(path).split(".")[0]
    tunable = sorted({s["op"] for s in m["sites"] if s["form"] == "tunable"})
    print(name, ",".join(tunable))
    for s in m["sites"]:
        if s["form"] != "tunable":
            print("precise", name, s["op"])
