#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# M3 (MLCC's motivation experiment 3, mlcc.md 5.5, the paper's Fig. 4):
# cross-DC flows converge on one host of the receiver's DC. With DCQCN
# the paper finds each flow's rate oscillating and the receiver-side
# queue saw-toothing: it grows until its ECN threshold, the marks reach
# the senders a WAN round trip later, it drains, and again. MLCC's credit
# loop times each flow out of DCI_r at the rate the receiver grants, and
# DQM holds that flow's DCI_r queue near R_fair D_t (3.5; Fig. 9b: 10 MB
# down to 1.5 MB per flow).
#
# lib_mlcc_eval.sh's two DCs and variants: a1..a4 in DC A send to b1 in DC B
# from the same instant, across a 40 ms WAN; b1's link (50 Mbit/s, every
# host's line) is the bottleneck. In the paper eight senders; four here.
# Variants mlcc and dctcp (the ECN law nearest the paper's DCQCN, whose
# Fig. 4 this is); in the full profile hpcc, cubic and uno too.
#
# Metrics over the run's second half: Jain's index of the four flows, the
# port's use, the receiver DC's queues (b1's port and DCI_r's port: p10,
# p50, p90, p99 of the samples), and for mlcc each flow's DCI_r queue
# (Q_c, the median over flows and samples) against R_fair D_t. Checked
# for mlcc: the flows' DCI_r queue at most 3 R_fair D_t (Fig. 9b); b1's
# port's p99 at most B RTT_D (the queue waits at DCI_r, not in the
# receiver's DC). Claimed (failing the full profile only): the flows'
# DCI_r queue at least R_fair D_t / 3, near its target and not merely
# under it; DCI_r's whole queue's p99 at most 3 N R_fair D_t; the port's
# use at least 0.7, test_mlcc_credit's claim; Jain's index at least 0.9.
# uno-timeout: 1500
. "$(dirname "$0")/lib_mlcc_eval.sh"
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../mlcc/lib_mlcc.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"
. "$(dirname "$0")/lib_eval.sh"

RUN_S=$(ev_pick 8 20)

mx_init M3
ev_rx_sampler b1

# pfq_sampler: every 0.25 s and unoctl's time, each flow's DCI_r queue (the connection with
# the most segments to each server port: iperf3's control connection has
# its own) as "t dst q_c rate_bps" lines in $OUT_DIR/pfq.txt, until
# killed.
pfq_sampler() {
	: > "$OUT_DIR/pfq.txt"
	while :; do
		read -r _up _ < /proc/uptime
		at borb -j mlcc show | jq -r --arg t "$_up" '.near_source[] |
			select(.role == "dcir") | .pfqs | group_by(.dst) | .[] |
			max_by(.pkts) | "\($t) \(.dst) \(.q_c) \(.rate_bps)"'
		sleep 0.25
	done >> "$OUT_DIR/pfq.txt" 2> /dev/null &
	echo $! >> "$TB_RUN/pids"
	PFQ_SAMPLER=$!
}


for v in $(ev_variants $(ev_pick "mlcc dctcp" "mlcc hpcc dctcp cubic uno")); do
	mx_begin "$v"
	cc=$(ev_cc "$v")
	read -r t0 _ < /proc/uptime
	for a in $MX_SENDERS; do
		tb_flow $a "$cc" 0 inter
	done
	sleep "$(tb_calc "$RUN_S / 2")"
	[ "$v" = mlcc ] && pfq_sampler
	sleep "$(tb_calc "$RUN_S / 2")"
	read -r t1 _ < /proc/uptime
	[ "$v" = mlcc ] && kill "$PFQ_SAMPLER"
	[ "$v" = mlcc ] && at borb -j mlcc show > "$OUT_DIR/borb-$v.json"
	tb_flows_stop
	ev_rates "$t0" "$t1" > "$TB_RUN/rates.json"
	w0=$(tb_calc "$RUN_S / 2")
	ev_window steady "$w0" "$RUN_S" 4
	ev_metric window_from_s "$w0"
	ev_metric window_to_s "$RUN_S"
	EV_W0=$(tb_calc "$t0 + $w0") EV_W1=$t1
	for p in 10 90; do
		ev_metric backlog_p${p}_bytes "$(tb_backlog_pct "$EV_QLOG" $p "$EV_W0" "$EV_W1")"
	done
	mx_dci_metrics
	if [ "$v" = mlcc ]; then
		awk '{ print $3 }' "$OUT_DIR/pfq.txt" > "$TB_RUN/q_c"
		ev_metric pfq_readings "$(wc -l < "$TB_RUN/q_c")"
		ev_metric pfq_q_c_p50_bytes "$(tb_pct 50 < "$TB_RUN/q_c")"
	fi
	mx_end
	[ "$v" = mlcc ] || continue
	# R_fair D_t, each flow's DCI_r target at a quarter of b1's link
	target=$((EV_C / 4 * MX_DT_US / 1000000))
	ev_check pfq_readings "$(ev_result_metric mlcc pfq_readings)" ">=" 12	# 3 a flow
	ev_check pfq_q_c "$(ev_result_metric mlcc pfq_q_c_p50_bytes)" "<=" $((3 * target))
	ev_claim pfq_q_c_near_target "$(ev_result_metric mlcc pfq_q_c_p50_bytes)" ">=" $((target / 3))
	# claims: the first at 0.66-0.93 of its bound in three runs before
	# hpcc_r_min() and HPCC_STALE, 0.15-0.47 in three since and 1.44 in a
	# fourth; the use 0.47-0.55 (Documentation/mlcc.rst, M3)
	ev_claim dci_backlog_p99 "$(ev_result_metric mlcc dci_backlog_p99_bytes)" "<=" $((3 * 4 * target))
	ev_claim utilisation "$(ev_result_metric mlcc util_steady)" ">=" 0.7
	ev_check port_backlog_p99 "$(ev_result_metric mlcc backlog_p99_bytes)" "<=" \
		$((EV_C / 1000 * MX_RTT_D_US / 1000))
	# a claim: 0.92-0.98 over three runs before those fixes, 0.98-1.0 in
	# three since and 0.61 in a fourth
	ev_claim jain "$(ev_result_metric mlcc jain_steady)" ">=" 0.9
	mx_dcir_counters_zero "$OUT_DIR/borb-mlcc.json"
done
mx_finish
ev_finish "MLCC's motivation experiment 3 (its Fig. 4): four cross-DC flows (a1..a4 across a 40 ms WAN) converge on b1 from the same instant; b1's link the bottleneck, DCI_r's port (fq) before it. Variants: mlcc (bpf_mlcc with the three loops: DCI_s's near-source loop, DCI_r's per-flow queues timed by b1's credits, DQM), hpcc (bpf_mlcc, HPCC end to end: the paper's HPCC baseline), dctcp, cubic, uno (the port's phantom queue marking)." \
	'[{"metric":"pfq_q_c_p50_bytes","paper":"DQM holds each flow'"'"'s DCI_r queue at R_fair x D_t, where DCQCN'"'"'s saw-tooths (Figs. 4, 9b)","ours":"mlcc <= 3 R_fair D_t"},
	  {"metric":"backlog_p99_bytes","paper":"the cross-DC excess waits at DCI_r, not in the receiver DC'"'"'s switches (Sec. 3.4)","ours":"mlcc <= B RTT_D"},
	  {"metric":"jain_steady","paper":"flows settle at the fair rate (Sec. 5.6, Figs. 7, 8)","ours":"mlcc >= 0.9 (a claim)"}]' \
	'[["jain_steady","Jain"],["util_steady","use"],["backlog_p10_bytes","b1 port p10 B"],
	  ["backlog_p50_bytes","p50 B"],["backlog_p90_bytes","p90 B"],["backlog_p99_bytes","p99 B"],
	  ["dci_backlog_p10_bytes","DCI_r p10 B"],["dci_backlog_p50_bytes","DCI_r p50 B"],
	  ["dci_backlog_p90_bytes","DCI_r p90 B"],["pfq_q_c_p50_bytes","Q_c p50 B"],["drops","drops"]]'
