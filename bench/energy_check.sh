#!/bin/sh
# bench/energy_check.sh RESULTS.json: for each row with energy, the
# consistency of its energy per call with its average power x its time per
# call (energy_j / (power_w x median_ns x 1e-9)), which graph timing (calls
# back to back) makes 1 within a few percent; "ok" within 5%, else "CHECK".
# Also J/GB, power, the SM clock's range, the energy source and whether
# the row was throttled. Needs jq.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 RESULTS.json" >&2; exit 2; }
jq -r '
  ["run", "params", "n", "median_us", "J/GB", "W", "SM MHz", "source", "ratio", "verdict", "throttled"],
  (.results[] | select(.energy_j != null and .power_w != null and .median_ns != null) |
   (.energy_j / (.power_w * .median_ns * 1e-9)) as $r |
   [.run, .params_text, (.n|tostring), ((.median_ns/1e3*100|round)/100|tostring),
    ((.j_per_gb*1000|round)/1000|tostring), ((.power_w*10|round)/10|tostring),
    "\(.sm_clock_min_mhz)-\(.sm_clock_max_mhz)", .energy_source,
    ((($r*1000)|round)/1000|tostring), (if ($r - 1 | fabs) <= 0.05 then "ok" else "CHECK" end),
    (.throttle_reasons // "" | if . == "" then "no" else . end)])
  | @tsv' "$1" | if command -v column >/dev/null 2>&1; then column -t -s "$(printf '\t')"; else cat; fi
