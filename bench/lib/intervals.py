"""intervals.py - reading a paired ratio's 95% interval, for the reports.

A ratio (ours / theirs) is a dict with "median", "lo" and "hi": the median
of per-round paired ratios and its 95% bootstrap interval (bench/Repeat.cuh).
"""


def verdict(r, bold_slower=False):
    """Slower / faster / same, from the ratio's interval (ours / theirs)."""
    if r["lo"] > 1:
        text = f"slower by {100 * (r['median'] - 1):.1f}%"
        return f"**{text}**" if bold_slower else text
    if r["hi"] < 1:
        return f"faster by {100 * (1 - r['median']):.1f}%"
    return "same (interval holds 1)"
