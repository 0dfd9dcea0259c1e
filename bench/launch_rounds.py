#!/usr/bin/env python3
# bench/launch_rounds.py: compares the rounds of bench/launch_rounds.sh and
# bench/timing_rounds.sh. Per size: the median over rounds of each
# program's median (plain loops from the CSV files, redbench from the JSON
# files), and each one's ratio to the plain loop it is checked against
# (launch and the launch_rounds.sh builds against static-R.csv, device
# against blocking-R.csv), with a 95% bootstrap interval (rounds
# resampled). Then, over the rounds of every DIR given, the paired
# comparison: per round, redbench's median over its plain loop's of the
# same round (the two ran back to back), and the median of these ratios
# with a 95% bootstrap interval. Prints Markdown.
#
#     launch_rounds.py DIR [DIR...]
import glob
import os
import random
import re
import statistics
import sys

from results import load as load_results, plain_medians, size_text

ORDER = ["static", "shared", "dlopen", "split", "launch", "blocking", "device"]
# each of redbench's series and the plain loop it is checked against
PAIRS = [("static", "launch"), ("blocking", "device")]


def base_of(name):
    return "blocking" if name == "device" else "static"


def redbench(path):
    return {int(r["n"]): r["median_ns"] for r in load_results(path)["results"]
            if r["status"] == "ok"}


def interval(base, other, rng, draws=4000):
    ratios = []
    for _ in range(draws):
        a = [rng.choice(base) for _ in base]
        b = [rng.choice(other) for _ in other]
        ratios.append(statistics.median(b) / statistics.median(a))
    ratios.sort()
    return ratios[int(0.025 * draws)] - 1, ratios[int(0.975 * draws) - 1] - 1


def load(d):
    """{series: [per-round {n: median_ns}]} over the rounds every series has."""
    files = {}
    for p in glob.glob(f"{d}/*-*.csv") + glob.glob(f"{d}/*-*.json"):
        m = re.fullmatch(r"(.+)-(\d+)\.(csv|json)", os.path.basename(p))
        if m:
            files.setdefault(m.group(1), {})[int(m.group(2))] = p
    rounds = sorted(set.intersection(*(set(v) for v in files.values())))
    series = {name: [(plain_medians if by_round[r].endswith(".csv") else redbench)(by_round[r])
                     for r in rounds] for name, by_round in files.items()}
    return series, len(rounds)


def table(series, rounds):
    names = sorted(series, key=lambda s: (ORDER.index(s) if s in ORDER else len(ORDER), s))
    others = [s for s in names if s not in ("static", "blocking") and base_of(s) in series]
    rng = random.Random(1)
    print(f"{rounds} rounds; per size, the median over rounds of each program's median (us), "
          "and its ratio to its plain loop's with a 95% interval\n")
    head = "| n |" + "".join(f" {s} |" for s in names)
    head += "".join(f" {s} / {base_of(s)} | 95% interval |" for s in others)
    print(head)
    print("|--:" * (head.count("|") - 1) + "|")
    for n in sorted(series[names[0]][0]):
        values = {s: [r[n] for r in series[s] if n in r] for s in names}
        med = {s: statistics.median(v) for s, v in values.items()}
        row = f"| {size_text(n)} |" + "".join(f" {med[s] / 1e3:.2f} |" for s in names)
        for s in others:
            base = base_of(s)
            lo, hi = interval(values[base], values[s], rng)
            row += (f" {100 * (med[s] / med[base] - 1):+.1f}% "
                    f"| {100 * lo:+.1f}% .. {100 * hi:+.1f}% |")
        print(row)


def paired(all_series):
    for base_name, name in PAIRS:
        ratios = {}
        for series in all_series:
            if base_name not in series or name not in series:
                continue
            for base, other in zip(series[base_name], series[name]):
                for n in base:
                    if n in other:
                        ratios.setdefault(n, []).append(other[n] / base[n])
        if not ratios:
            continue
        rng = random.Random(1)
        print(f"\nPaired: per round, redbench {name} / plain loop ({base_name}); "
              "median over rounds\n")
        print("| n | rounds | median ratio | 95% interval |")
        print("|--:|--:|--:|--:|")
        for n, r in sorted(ratios.items()):
            draws = sorted(statistics.median([rng.choice(r) for _ in r]) for _ in range(4000))
            print(f"| {size_text(n)} | {len(r)} | {100 * (statistics.median(r) - 1):+.1f}% "
                  f"| {100 * (draws[100] - 1):+.1f}% .. {100 * (draws[3899] - 1):+.1f}% |")


def main():
    loaded = [load(d) for d in sys.argv[1:]]
    for series, rounds in loaded:
        table(series, rounds)
        print()
    paired([series for series, _ in loaded])


if __name__ == "__main__":
    main()
