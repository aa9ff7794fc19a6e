#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One intra-DC and one inter-DC flow (WAN RTT 10 ms, >= 10x the intra RTT)
# share a 300 Mbit/s bottleneck (RED step ECN at 30 KB; at 1 Gbit/s the
# two flows and netem are CPU-bound near 300 Mbit/s in the TCG VM and the
# queue never builds), for uno, smartt,
# dctcp, cubic and bbr in the same run. Records each CC's intra:inter
# throughput ratio and Jain index into $OUT_DIR/summary.json (the figures
# the evaluation compares); asserts only that each measurement is valid:
# both flows move data and the total stays within the link.
# uno-timeout: 300
. "$(dirname "$0")/../lib/testbed.sh"

RATE=${RATE:-300}
CCS="uno smartt dctcp cubic bbr"

tb_dumbbell 1 1
tb_bottleneck_red $RATE 30
tb_base_rtts
tb_cc_profile $RATE "$(tb_intra_rtt_us)"
tb_qdisc_sampler tor p0 0.5

for cc in $CCS; do
	tb_receiver_cc "$cc"
	tb_flow h1 "$cc" 0 > /dev/null
	tb_flow w1 "$cc" 0 > /dev/null
	# Validity needs no long window (the evaluation's N6 measures
	# the ratio over its own): 3 s to settle, 6 s measured.
	TB_RESULT=$cc tb_measure 3 6
	tb_flows_stop
	set -- $(jq -r '.flows[] | .goodput_mbps' "$OUT_DIR/$cc.json")
	tb_log "$cc: intra $1 inter $2 Mbit/s, Jain $TB_JAIN"
	tb_check "${cc}_intra_mbps" "$1" ">" 0
	tb_check "${cc}_inter_mbps" "$2" ">" 0
	tb_check "${cc}_total_over_rate" "$(tb_calc "$TB_TOTAL / $RATE")" "<=" 1.02
done

for cc in $CCS; do
	jq --arg cc "$cc" '{ ($cc): { jain: .jain, utilisation: .utilisation,
		intra_inter_ratio: (.flows[0].goodput_mbps / (.flows[1].goodput_mbps + 1e-9)) } }' \
		"$OUT_DIR/$cc.json"
done | jq -s add > "$OUT_DIR/summary.json"
cat "$OUT_DIR/summary.json"
tb_exit
