"""Writes bench/slots.sh's twelve approx-tune JSON files, made up, into
argv[1]: every point of hw and software has time_ci95_ms, virtual's have
none (a run before issue 30); hw's second sweep moves E by 10%."""
import json
import sys

for ex in ("box_muller", "black_scholes"):
    for slot in ("hw", "virtual", "software"):
        for rep in (1, 2):
            lmax = 8 if slot == "software" else 64
            scale = 1.1e-6 if (slot, rep) == ("hw", 2) else 1e-6
            pts = [{"lambda": l, "time_ms": 1.0 - 0.003 * l, "error": scale * l}
                   for l in range(lmax + 1)]
            if slot != "virtual":
                for p in pts:
                    p["time_ci95_ms"] = [p["time_ms"] - 0.01, p["time_ms"] + 0.01]
            with open(f"{sys.argv[1]}/{ex}-{slot}-{rep}.json", "w") as f:
                json.dump({"lambda_max": lmax, "points": pts,
                           "results": [{"method": "OMG", "lambda": lmax - 2}]}, f)
