"""runs.py - what a raw result's path says about its run, for the reports.

Result folders and files under bench/results are named with their date
(e.g. apps-h200-2026-11-29/apps-bif.json, lns-h100-2026-11-26.json).
"""
import re


def run_date(path):
    """The run's date, 2026-11-29, from the last date in `path`."""
    return re.findall(r"\d{4}-\d{2}-\d{2}", str(path))[-1]
