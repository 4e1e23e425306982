"""host_convert.py - docs/precision.md's tables of host-convert-bench's JSON
(bench/precision/host-convert-bench.cpp --json): every cell's GB/s with
the 95% interval of its median call (memcpy's rows first: the ceiling),
the cost of the overflow statistics, and a summary line of what the table
says. scaling-report.py makes the
page's blocks with these."""
import json

SIZES = {64 << 10: "64 KiB", 1 << 20: "1 MiB", 16 << 20: "16 MiB", 256 << 20: "256 MiB"}


def load(path):
    with open(path, encoding="utf-8") as f:
        d = json.load(f)
    d["by"] = {(c["from"], c["to"], c["isa"], c["threads"], c["bytes"]): c for c in d["cells"]}
    return d


def size_name(b):
    return SIZES.get(b, f"{b >> 10} KiB")


def cell(c):
    lo, hi = c["gbps_ci95"]
    return f"{c['gbps']:.2f} [{lo:.2f}, {hi:.2f}]"


MEMCPY = "memcpy"


def rows(d, memcpy=True):
    """The rows in the bench's order: (from, to, isa, threads); memcpy's
    rows (from == "memcpy") unless memcpy=False."""
    seen = []
    for c in d["cells"]:
        if c["from"] == MEMCPY and not memcpy:
            continue
        k = (c["from"], c["to"], c["isa"], c["threads"])
        if k not in seen:
            seen.append(k)
    return seen


def source_line(d, cmd):
    reps = [c["reps"] for c in d["cells"]]
    wide = sum(1 for c in d["cells"] if c["gbps_ci95"][1] / c["gbps"] - 1 > d["until_ci"]
               or 1 - c["gbps_ci95"][0] / c["gbps"] > d["until_ci"])
    return (f"{d['cpu']}, {d['logical_cores']} logical cores, {d['date'][:10]} {d['date'][11:16]} UTC; "
            f"`{cmd}`. GB/s = (source + destination bytes) / the median call, with the 95% "
            f"bootstrap interval of the median; {d['warmup']} warm-up calls, then "
            f"{d['min_reps']} to {d['max_reps']} timed calls until that interval is within "
            f"±{100 * d['until_ci']:g}% ({len(reps)} cells: {min(reps)}-{max(reps)} calls, "
            f"{sum(r >= d['max_reps'] for r in reps)} at the cap, {wide} wider than ±{100 * d['until_ci']:g}%).")


def table(d):
    sizes = sorted({c["bytes"] for c in d["cells"]})
    out = ["| pair | isa | threads | " + " | ".join(size_name(b) for b in sizes) + " |",
           "|---|---|---|" + "---:|" * len(sizes)]
    for f, t, isa, th in rows(d):
        out.append(f"| {'memcpy | -' if f == MEMCPY else f'{f} -> {t} | {isa}'} | {th} | "
                   + " | ".join(cell(d["by"][(f, t, isa, th, b)]) for b in sizes) + " |")
    return "\n".join(out)


def span(xs, fmt="{:.1f}"):
    return fmt.format(min(xs)) + "-" + fmt.format(max(xs))


def summary(d):
    """AVX2 against scalar, AVX2 in cache and from DRAM, two threads
    against one; the medians' ratios."""
    by, sizes = d["by"], sorted({c["bytes"] for c in d["cells"]})
    small = [b for b in sizes if b <= 1 << 20]
    large = [b for b in sizes if b >= 16 << 20]
    pairs = {(f, t) for f, t, _, _ in rows(d, memcpy=False)}
    ths = sorted({th for _, _, _, th in rows(d, memcpy=False)})
    g = lambda f, t, isa, th, b: by[(f, t, isa, th, b)]["gbps"]  # noqa: E731
    speed = [g(f, t, "avx2", th, b) / g(f, t, "scalar", th, b)
             for f, t in pairs for th in ths for b in sizes]
    one = ths[0]
    parts = [f"AVX2 against scalar: {span(speed)}x",
             f"AVX2 on {one} thread {span([g(f, t, 'avx2', one, b) for f, t in pairs for b in small], '{:.0f}')} "
             f"GB/s at {', '.join(size_name(b) for b in small)} and "
             f"{span([g(f, t, 'avx2', one, b) for f, t in pairs for b in sizes[-1:]], '{:.0f}')} GB/s "
             f"at {size_name(sizes[-1])}"]
    if len(ths) > 1:
        two = ths[1]
        r = lambda bs: [g(f, t, "avx2", two, b) / g(f, t, "avx2", one, b) for f, t in pairs for b in bs]  # noqa: E731
        parts.append(f"AVX2 on {two} threads against {one}: {span(r(small), '{:.2f}')}x up to "
                     f"{size_name(small[-1])}, {span(r(large), '{:.2f}')}x from {size_name(large[0])}")
    big = sizes[-1]
    for th in ths:
        if (MEMCPY, MEMCPY, MEMCPY, th, big) in by:
            ceil = by[(MEMCPY, MEMCPY, MEMCPY, th, big)]["gbps"]
            share = [100 * g(f, t, "avx2", th, big) / ceil for f, t in pairs]
            parts.append(f"AVX2 at {size_name(big)} on {th} thread{'s' if th > 1 else ''}: "
                         f"{span(share, '{:.0f}')}% of memcpy's {ceil:.1f} GB/s")
    return "Medians' ratios: " + "; ".join(parts) + "."


def stats_table(with_stats, without):
    """Each pair of `without` (a --no-stats run), GB/s without and with the
    statistics (`with_stats`' cells of the same isa, threads and size), and
    what the statistics cost."""
    keys = [k for k in without["by"] if k[0] != MEMCPY]
    sizes = sorted({k[4] for k in keys})
    isa, th = keys[0][2], keys[0][3]
    out = [f"| pair, {isa}, {th} thread{'s' if th > 1 else ''} | "
           + " | ".join(f"{size_name(b)} no stats | {size_name(b)} stats" for b in sizes) + " |",
           "|---|" + "---:|" * (2 * len(sizes))]
    cost = {b: [] for b in sizes}
    for f, t, i, n in rows(without, memcpy=False):
        cells = []
        for b in sizes:
            a, s = without["by"][(f, t, i, n, b)], with_stats["by"][(f, t, i, n, b)]
            cells += [cell(a), cell(s)]
            cost[b].append(1 - s["gbps"] / a["gbps"])
        out.append(f"| {f} -> {t} | " + " | ".join(cells) + " |")
    out += ["", "The statistics cost " + ", ".join(
        f"{span([100 * x for x in cost[b]], '{:.0f}')}% at {size_name(b)}" for b in sizes)
        + " of the throughput (ratio of the medians)."]
    return "\n".join(out)
