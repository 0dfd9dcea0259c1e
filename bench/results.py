# bench/results.py: what the bench scripts read and how they name sizes:
# redbench's results files (JSON, or JSON compressed with xz), the plain
# loops' CSV files (a median_ns per n), and sizes written as experiments
# write them (1K, 16M, 1G). The scripts beside it import it.
import csv
import json
import lzma


def load(path):
    """The JSON document of a results file (.json or .json.xz)."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def plain_medians(path):
    """{n: median_ns} of a plain loop's CSV file."""
    with open(path) as f:
        return {int(r["n"]): float(r["median_ns"]) for r in csv.DictReader(f)}


def size_text(n):
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)
