#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The demo (make demo): 4 intra-DC and 4 inter-DC long flows into one
# receiver over a 200 Mbit/s bottleneck (RED step ECN at 24 KB, WAN RTT
# 10 ms, MTU 4000), once per congestion control that this kernel has;
# per-CC results in $OUT_DIR/cc-<cc>.json.
# uno-timeout: 600
. "$(dirname "$0")/../lib/testbed.sh"

RATE=200
WARMUP=3
WINDOW=12
CCS=${DEMO_CCS:-"cubic dctcp bbr uno smartt"}

tb_dumbbell 4 4
tb_bottleneck_red $RATE 24
tb_base_rtts
tb_cc_profile $RATE "$(tb_intra_rtt_us)"
tb_qdisc_sampler tor p0 0.5

for cc in $CCS; do
	grep -qw "$cc" /proc/sys/net/ipv4/tcp_available_congestion_control ||
		modprobe "tcp_$cc" 2>/dev/null || { tb_log "$cc: not available, left out"; continue; }
	tb_receiver_cc "$cc"
	for ns in $(tb_senders); do
		tb_flow "$ns" "$cc" $((WARMUP + WINDOW + 5)) > /dev/null
	done
	TB_RESULT=cc-$cc tb_measure $WARMUP $WINDOW
	tb_flows_stop
	tb_log "$cc: total $TB_TOTAL Mbit/s, Jain $TB_JAIN"
done
