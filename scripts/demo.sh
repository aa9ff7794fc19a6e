#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: the mixed incast of the Uno paper's Fig. 3 (scenario N6,
# selftests/eval/test_eval_n6.sh): 4 intra-DC and 4 inter-DC flows (WAN
# RTT 10 ms) into one receiver, for cubic, dctcp and uno with the phantom
# queue, in the VM; then a table and a plot of per-flow throughput.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/demo
rm -rf "$out"
mkdir -p "$out/eval"
UNO_EVAL_VARIANTS="cubic dctcp uno" "$top/selftests/vm/run.sh" -o "$out" eval/test_eval_n6 \
	> "$out/run.log" 2>&1 || true
res=$out/test_eval_n6/N6.json
[ -f "$res" ] || { cat "$out/run.log"; exit 1; }
cp "$res" "$out/eval/"
"$top/scripts/eval_report.sh" "$out/eval" "$out" > /dev/null

jq -r '"\n4 intra-DC + 4 inter-DC flows of \(.variants | to_entries[0].value.flows[0].size / 1e6) MB -> 1 receiver, \(.rate_mbps) Mbit/s; RTT intra \(.intra_rtt_us) us, inter \(.inter_rtt_us) us\n"' "$res"
printf '%-8s %12s %12s %8s %8s %12s %14s\n' CC "intra Mb/s" "inter Mb/s" Jain util "p99 queue KB" "last FCT/ideal"
jq -r '.rate_mbps as $r | .variants | to_entries[] | .key as $k | .value.metrics |
	[$k, .intra_mbps, .inter_mbps, .jain_mean, ((.intra_mbps + .inter_mbps) * 4 / $r),
	 .backlog_p99_bytes / 1000, .fct_over_ideal] | map(. // 0) | @tsv' "$res" |
	awk -F'\t' '{ printf "%-8s %12.1f %12.1f %8.3f %8.3f %12.1f %14.2f\n", $1, $2, $3, $4, $5, $6, $7 }'
printf '\nJain and rates: mean over the samples from 100 inter-DC RTTs after the start\n'
printf 'to the first flow'"'"'s end. Per-flow throughput plot: %s\n' "$out/results/N6-rates.png"
printf 'All results: %s\n' "$res"
