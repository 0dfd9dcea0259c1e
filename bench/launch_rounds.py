#!/usr/bin/env python3
# bench/launch_rounds.py: compares the rounds of bench/launch_rounds.sh. Per
# size: the median over rounds of each program's median, and the ratio of
# redbench's to each plain loop's with a 95% bootstrap interval (rounds
# resampled). Prints Markdown.
#
#     launch_rounds.py DIR
import csv
import glob
import json
import os
import random
import statistics
import sys


def size_text(n):
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


def plain(path):
    with open(path) as f:
        return {int(r["n"]): float(r["median_ns"]) for r in csv.DictReader(f)}


def redbench(path):
    with open(path) as f:
        return {int(r["n"]): r["median_ns"] for r in json.load(f)["results"]
                if r["status"] == "ok"}


def interval(base, other, rng, draws=4000):
    ratios = []
    for _ in range(draws):
        a = [rng.choice(base) for _ in base]
        b = [rng.choice(other) for _ in other]
        ratios.append(statistics.median(b) / statistics.median(a))
    ratios.sort()
    return ratios[int(0.025 * draws)] - 1, ratios[int(0.975 * draws) - 1] - 1


def main():
    d = sys.argv[1]
    rounds = sorted(int(os.path.basename(p)[7:-4]) for p in glob.glob(f"{d}/static-*.csv"))
    series = {"static": [], "shared": [], "launch": []}
    for r in rounds:
        series["static"].append(plain(f"{d}/static-{r}.csv"))
        series["shared"].append(plain(f"{d}/shared-{r}.csv"))
        series["launch"].append(redbench(f"{d}/launch-{r}.json"))
    rng = random.Random(1)
    print(f"{len(rounds)} rounds\n")
    print("| n | plain, static runtime (us) | plain, shared runtime (us) | redbench launch (us) "
          "| redbench / static | 95% interval | redbench / shared | 95% interval |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|")
    for n in sorted(series["static"][0]):
        st = [s[n] for s in series["static"]]
        sh = [s[n] for s in series["shared"]]
        rb = [s[n] for s in series["launch"] if n in s]
        m = [statistics.median(x) for x in (st, sh, rb)]
        lo1, hi1 = interval(st, rb, rng)
        lo2, hi2 = interval(sh, rb, rng)
        print(f"| {size_text(n)} | {m[0] / 1e3:.2f} | {m[1] / 1e3:.2f} | {m[2] / 1e3:.2f} "
              f"| {100 * (m[2] / m[0] - 1):+.1f}% | {100 * lo1:+.1f}% .. {100 * hi1:+.1f}% "
              f"| {100 * (m[2] / m[1] - 1):+.1f}% | {100 * lo2:+.1f}% .. {100 * hi2:+.1f}% |")


if __name__ == "__main__":
    main()
