#!/usr/bin/env python3
# bench/launch_vs_plain.py: compares redbench's `timing = launch` medians of
# a CUB sum with those of the plain event-timed loop (plain_cub_sum), size by
# size, and prints a Markdown table. With a second redbench JSON (timing =
# graph) its time per call is shown beside them.
#
#     launch_vs_plain.py PLAIN.csv LAUNCH.json [GRAPH.json] [--tolerance 0.03]
#
# Exits 1 when a launch median differs from the plain one by more than the
# tolerance (3% by default), or when a size is missing on either side.
import argparse
import sys

from results import load, plain_medians, size_text


def redbench_rows(path):
    doc = load(path)
    rows = {}
    for r in doc["results"]:
        if r["op"] == "sum" and r["dtype"] == "f32":
            rows[int(r["n"])] = r
    return doc, rows


def us(ns):
    return f"{ns / 1000:.2f}"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("plain")
    p.add_argument("launch")
    p.add_argument("graph", nargs="?")
    p.add_argument("--tolerance", type=float, default=0.03)
    a = p.parse_args()

    plain = plain_medians(a.plain)
    _, launch = redbench_rows(a.launch)
    graph = redbench_rows(a.graph)[1] if a.graph else {}
    bad = 0
    head = "| n | plain loop (us) | redbench launch (us) | difference | within"
    head += f" {a.tolerance:.0%} |"
    rule = "|--:|--:|--:|--:|---|"
    if graph:
        head += " redbench graph, per call (us) | launch / graph |"
        rule += "--:|--:|"
    print(head)
    print(rule)
    for n in sorted(set(plain) | set(launch)):
        if n not in plain or n not in launch or launch[n]["median_ns"] is None:
            print(f"| {size_text(n)} | missing on one side | | | no |")
            bad += 1
            continue
        lm, pm = launch[n]["median_ns"], plain[n]
        diff = (lm - pm) / pm
        good = abs(diff) <= a.tolerance
        bad += not good
        line = f"| {size_text(n)} | {us(pm)} | {us(lm)} | {diff:+.1%} | {'yes' if good else 'NO'} |"
        if graph:
            g = graph.get(n)
            if g and g["median_ns"]:
                line += f" {us(g['median_ns'])} | {lm / g['median_ns']:.2f} |"
            else:
                line += f" {g['status'] + ': ' + g['reason'] if g else 'missing'} | |"
        print(line)
    print()
    print(f"{len(plain)} sizes, {bad} outside {a.tolerance:.0%}" if bad else
          f"every size agrees within {a.tolerance:.0%}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
