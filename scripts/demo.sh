#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: the mixed incast of the Uno paper's Fig. 3 (scenario N6,
# selftests/eval/test_eval_n6.sh, its full-profile flows of 40 MB): 4
# intra-DC and 4 inter-DC flows (WAN RTT 10 ms) into one receiver, for
# cubic, dctcp, uno with the phantom queue and smartt in NSCC mode, in the
# VM; then a table and a plot of per-flow throughput. Every number of the
# table but the FCT comes from one window common to all flows, from 100
# inter-DC RTTs after the start to the first flow's end, sampled every
# 100 ms.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/demo
rm -rf "$out"
mkdir -p "$out/eval"
UNO_EVAL_PROFILE=full UNO_EVAL_RX_DT=0.1 UNO_EVAL_VARIANTS="cubic dctcp uno smartt-nscc" \
	"$top/selftests/vm/run.sh" -o "$out" eval/test_eval_n6 > "$out/run.log" 2>&1 || true
res=$out/test_eval_n6/N6.json
[ -f "$res" ] || { cat "$out/run.log"; exit 1; }
cp "$res" "$out/eval/"
"$top/scripts/eval_report.sh" "$out/eval" "$out" > /dev/null

jq -r '"\n4 intra-DC + 4 inter-DC flows of \(.variants | to_entries[0].value.flows[0].size / 1e6) MB -> 1 receiver, \(.rate_mbps) Mbit/s; RTT intra \(.intra_rtt_us) us, inter \(.inter_rtt_us) us\n"' "$res"
printf '%-12s %10s %10s %6s %6s %8s %10s %9s\n' CC "intra Mb/s" "inter Mb/s" Jain util samples "p99 q KB" "FCT/ideal"
jq -r '.variants | to_entries[] | .key as $k | .value.metrics |
	[$k, .intra_mbps, .inter_mbps, .jain_mean, .utilisation, .samples,
	 .backlog_p99_bytes / 1000, .fct_over_ideal] | map(. // 0) | @tsv' "$res" |
	awk -F'\t' '{ printf "%-12s %10.1f %10.1f %6.3f %6.3f %8d %10.1f %9.2f\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
# A window's bytes cannot exceed the port's rate: above 1 the measurement
# is wrong, whatever it says.
if jq -e '[.variants[].metrics.utilisation // 0] | any(. > 1)' "$res" > /dev/null; then
	echo "demo: a utilisation above 1 is a measurement error" >&2
	exit 1
fi
jq -r '.variants | to_entries[] | select(.value.metrics.samples < 20) |
	"demo: \(.key) has \(.value.metrics.samples) samples in its window, fewer than 20"' "$res" >&2
printf '\nintra/inter Mb/s: mean rate of a flow of the class; Jain: of the 8 flows'"'"' rates,\n'
printf 'averaged over the samples; util: bytes received in the window / (window x C);\n'
printf 'p99 q: the real queue at the bottleneck in the window; FCT/ideal: the last flow.\n'
printf 'Per-flow throughput plot: %s\n' "$out/results/N6-rates.png"
printf 'All results: %s\n' "$res"
