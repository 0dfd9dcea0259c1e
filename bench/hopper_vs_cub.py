#!/usr/bin/env python3
# bench/hopper_vs_cub.py: the tables of docs/results/hopper-vs-cub.md from
# the JSON of `redbench -c conf/hopper-vs-cub.ini` (timing = launch or graph;
# .json or .json.xz). For each dtype and n: CUB's median, the fastest other
# strategy and its speedup over CUB, the fastest strategy that is
# deterministic by construction (last-block, tagged, two-pass, cluster, or
# any strategy on integers) and its speedup, the bandwidth of the fastest as
# a share of the datasheet peak, the same share for the fastest that reads
# in forward order on every call (no `order = alternate`, which starts each
# call on what the call before left in L2), and at n <= 64K its time over
# the launch floor (the `floor` run: a one-thread kernel reading one
# element).
#
#     hopper_vs_cub.py RESULT.json [RESULT.json ...]
#
# Prints Markdown; exits 1 when a file has no `cub` row for some size.
import sys
from collections import defaultdict

from results import load, size_text


def deterministic_by_construction(row):
    params = row.get("params_text") or ""
    return (row["dtype"].startswith("i") or row["run"] == "cluster"
            or "last-block" in params or "two-pass" in params or "tagged" in params)


def forward_order(row):
    return "order=alternate" not in (row.get("params_text") or "")


def strategy(row):
    params = (row.get("params_text") or "").replace("grid=auto ", "")
    return f"{row['run']} {params}".strip()


def table(doc, datasheet_gbs):
    rows = [r for r in doc["results"] if r["status"] == "ok"]
    floor = {r["dtype"]: r["median_ns"] for r in rows if r["run"] == "floor"}
    groups = defaultdict(list)
    for r in rows:
        if r["run"] != "floor":
            groups[(r["dtype"], r["n"])].append(r)
    timing = rows[0].get("timing", "?") if rows else "?"
    out = [f"| dtype | n | CUB (us) | fastest (us) | x CUB | fastest strategy "
           f"| deterministic (us) | x CUB | % of {datasheet_gbs:.0f} GB/s "
           f"| forward order: % | / floor |",
           "|---|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|"]
    missing = 0
    for (dtype, n), group in sorted(groups.items()):
        cub = [r for r in group if r["run"] == "cub"]
        if not cub:
            missing += 1
            continue
        cub_ns = cub[0]["median_ns"]
        others = sorted((r for r in group if r["run"] != "cub"), key=lambda r: r["median_ns"])
        if not others:  # CUB alone at this size (a run of some sections only)
            continue
        best = others[0]
        det = [r for r in others if deterministic_by_construction(r)]
        element = 8 if dtype in ("i64", "f64") else 4
        pct = 100 * element * n / best["median_ns"] / datasheet_gbs
        forward = [r for r in others if forward_order(r)]
        forward_pct = (f"{100 * element * n / forward[0]['median_ns'] / datasheet_gbs:.1f}"
                       if forward else "")
        over_floor = (f"{best['median_ns'] / floor[dtype]:.2f}"
                      if n <= 65536 and dtype in floor else "")
        det_cells = (f"{det[0]['median_ns'] / 1e3:.2f} | {cub_ns / det[0]['median_ns']:.3f}"
                     if det else " | ")
        out.append(f"| {dtype} | {size_text(n)} | {cub_ns / 1e3:.2f} | "
                   f"{best['median_ns'] / 1e3:.2f} | {cub_ns / best['median_ns']:.3f} | "
                   f"`{strategy(best)}` | {det_cells} | {pct:.1f} | {forward_pct} "
                   f"| {over_floor} |")
    floors = ", ".join(f"{d} {ns / 1e3:.2f} us" for d, ns in sorted(floor.items()))
    out.append("")
    out.append(f"timing = {timing}; launch floor: {floors or 'not measured'}")
    return out, missing


def main():
    if len(sys.argv) < 2:
        print(__doc__ or "usage: hopper_vs_cub.py RESULT.json ...", file=sys.stderr)
        return 2
    bad = 0
    for path in sys.argv[1:]:
        doc = load(path)
        device = doc["devices"][0] if doc.get("devices") else {}
        datasheet = {"NVIDIA H100 80GB HBM3": 3350.0, "NVIDIA H200": 4800.0}.get(
            device.get("name"), device.get("peak_gbs") or 1.0)
        print(f"### {path}: {device.get('name', '?')}\n")
        lines, missing = table(doc, datasheet)
        print("\n".join(lines))
        print()
        bad += missing
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
