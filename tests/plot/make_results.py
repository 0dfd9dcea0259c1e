#!/usr/bin/env python3
# tests/plot/make_results.py: a large results file for plot's tests and its
# bench, made from a small one that a run wrote (TEMPLATE): its document is
# kept as it is but for its rows, which are ROWS copies of its first ok row,
# each with another run, parameters and n (so that they form many runs and
# configurations, as a long sweep does), or, with --names FILE, with the
# run names and parameter values read from FILE (one per line, as JSON
# strings; the plugins' names too with --plugin-names), to try hostile
# names.
#
#   make_results.py TEMPLATE ROWS OUT [--runs R] [--sizes S] [--names FILE]
#                   [--gbs VALUE] [--same-n] [--full] [--plugin-names]
#
# --runs R: the rows are spread over R runs (default 50); --sizes S: over S
# sizes n = 1K * 2^k (default 16); --same-n: every row at one n;
# --gbs VALUE: every row's bandwidth (its median the template's); --full:
# every field of the template's row, not only those plot reads.
import json
import sys

# The fields of a row kept by default (what plot reads), as in a lean file
# of about 200 bytes a row; --full keeps every field of the template's row
# but its samples.
LEAN = ("run", "plugin", "params", "params_text", "op", "dtype", "n", "distribution",
        "device", "status", "median_ns", "bandwidth_gbs")


def main(argv):
    args = {"--runs": "50", "--sizes": "16", "--names": None, "--gbs": None}
    flags = set()
    pos = []
    k = 0
    while k < len(argv):
        a = argv[k]
        if a in args:
            args[a] = argv[k + 1]
            k += 2
        elif a in ("--same-n", "--full", "--plugin-names"):
            flags.add(a)
            k += 1
        else:
            pos.append(a)
            k += 1
    if len(pos) != 3:
        sys.exit(__doc__ or "usage: make_results.py TEMPLATE ROWS OUT")
    template, rows, out = pos[0], int(pos[1]), pos[2]
    with open(template) as f:
        doc = json.load(f)
    base = next(r for r in doc["results"] if r.get("status") == "ok" and r.get("median_ns"))
    if "--full" in flags:
        base = {k: v for k, v in base.items() if k not in ("samples_ns", "rounds")}
    else:
        base = {k: v for k, v in base.items() if k in LEAN}
    names = None
    if args["--names"]:
        with open(args["--names"]) as f:
            names = [json.loads(line) for line in f if line.strip()]
    runs, sizes = int(args["--runs"]), int(args["--sizes"])
    head = dict(doc)
    head["results"] = []
    text = json.dumps(head, indent=1)
    cut = text.rindex('"results": []')
    with open(out, "w") as f:
        f.write(text[:cut] + '"results": [\n')
        for i in range(rows):
            r = dict(base)
            run = i % runs
            j = i // runs
            n = 1024 << (0 if "--same-n" in flags else j % sizes)
            lanes = (j // sizes) + 1
            if names:
                word = names[i % len(names)]
                value = names[(i // len(names)) % len(names)]
                r["run"] = word
                r["plugin"] = word if "--plugin-names" in flags else base["plugin"]
                threads = 1 + i // (len(names) * len(names)) % 3
                r["params"] = {"lanes": value, "threads": threads}
                r["params_text"] = "lanes=%s threads=%d" % (value, threads)
            else:
                r["run"] = "run%d" % run
                r["params"] = {"lanes": lanes, "threads": 1 + run % 4}
                r["params_text"] = "lanes=%d threads=%d" % (lanes, 1 + run % 4)
            r["n"] = n
            gbs = float(args["--gbs"]) if args["--gbs"] else 1.0 + (i * 7919 % 1000) / 10.0
            ns = base["median_ns"] if args["--gbs"] else n * 4 / gbs
            r["median_ns"] = ns
            r["bandwidth_gbs"] = gbs
            f.write(json.dumps(r))
            f.write(",\n" if i + 1 < rows else "\n")
        f.write("]" + text[cut + len('"results": []'):] + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
