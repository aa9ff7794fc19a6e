#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# M1 (MLCC's motivation experiment 1, mlcc.md 5.5, the paper's Fig. 2): a
# cross-DC flow joins an intra-DC flow into the same host. With DCQCN the
# paper finds the cross-DC flow's first window, sent at the line rate for
# a WAN round trip, jumping the receiver DC's queue and taking the
# intra-DC flow's bandwidth; MLCC's credit loop holds that window at
# DCI_r and times it out at the rate the receiver grants.
#
# test_mlcc_credit's experiment, with its plots and baselines, on
# lib_mlcc_eval.sh's two DCs (RTT_NS and RTT_D dilated): b2 -> b1 alone
# for PHASE, then a1 -> b1 from DC A across the 40 ms WAN, both for 3
# PHASE more; b1's link torb:b1 (phantom, 50 Mbit/s, INT) the bottleneck.
# Variants mlcc (the three loops) and, in the full profile, hpcc, dctcp,
# cubic and uno.
#
# Metrics: the port's peak backlog in the second after a1's flow starts
# (the arrival's jump), the intra-DC flow's share of what both carried,
# Jain's index and the port's use over the last 2 PHASE, the port's and
# DCI_r's queues then. Checked for mlcc (test_mlcc_credit's bounds): the
# peak at most B RTT_D, the share at least 0.45, Jain's index at least
# 0.9, DCI_r's counters at 0. Claimed: the port's use at least 0.7.
# In the icount VM, as test_mlcc_credit: in the other, TCG's late pacing
# timers, not the loops, set the split and the use.
# uno-vm: icount
# uno-timeout: 1500
# uno-cost: 108
. "$(dirname "$0")/lib_mlcc_eval.sh"
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../mlcc/lib_mlcc.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"
. "$(dirname "$0")/lib_eval.sh"

PHASE=$(ev_pick 2 4)

mx_init M1
ev_rx_sampler b1


for v in $(ev_variants $(ev_pick mlcc "mlcc hpcc dctcp cubic uno")); do
	mx_begin "$v"
	cc=$(ev_cc "$v")
	read -r t0 _ < /proc/uptime
	tb_flow b2 "$cc" 0 intra
	sleep "$PHASE"
	tb_flow a1 "$cc" 0 inter
	sleep 1
	ev_metric arrival_peak_bytes "$(tb_qdisc_counter torb b1 max_backlog)"
	sleep "$(tb_calc "$PHASE * 3 - 1")"
	read -r t1 _ < /proc/uptime
	[ "$v" = mlcc ] && at borb -j mlcc show > "$OUT_DIR/borb-$v.json"
	tb_flows_stop
	ev_rates "$t0" "$t1" > "$TB_RUN/rates.json"
	w0=$((PHASE * 2))
	ev_intra_share both "$w0" $((PHASE * 4))
	ev_window both "$w0" $((PHASE * 4)) 2
	ev_metric window_from_s "$w0"
	ev_metric window_to_s $((PHASE * 4))
	EV_W0=$(tb_calc "$t0 + $w0") EV_W1=$t1
	mx_dci_metrics
	mx_end
	[ "$v" = mlcc ] || continue
	ev_check arrival_peak "$(ev_result_metric mlcc arrival_peak_bytes)" "<=" \
		$((EV_C / 1000 * MX_RTT_D_US / 1000))
	ev_check intra_share "$(ev_result_metric mlcc intra_share_both)" ">=" 0.45
	ev_check jain "$(ev_result_metric mlcc jain_both)" ">=" 0.9
	ev_claim utilisation "$(ev_result_metric mlcc util_both)" ">=" 0.7
	mx_dcir_counters_zero "$OUT_DIR/borb-mlcc.json"
done
mx_finish
ev_finish "MLCC's motivation experiment 1 (its Fig. 2): an intra-DC flow (b2 to b1) alone for $PHASE s, then a cross-DC flow (a1 to b1 across a 40 ms WAN) beside it; b1's link the bottleneck, DCI_r's port (fq) before it. Variants: mlcc (bpf_mlcc with the three loops), hpcc (bpf_mlcc, HPCC end to end: the paper's HPCC baseline), dctcp, cubic, uno (the port's phantom queue marking)." \
	'[{"metric":"arrival_peak_bytes","paper":"DCQCN: the cross-DC flow'"'"'s arrival jumps the receiver DC'"'"'s queue; MLCC: no longer (Fig. 2)","ours":"mlcc <= B RTT_D"},
	  {"metric":"intra_share_both","paper":"the cross-DC flow takes the intra-DC flow'"'"'s bandwidth (Fig. 2)","ours":"mlcc >= 0.45 (0.9 x the fair 1/2)"},
	  {"metric":"jain_both","paper":"MLCC converges to a fair allocation (Sec. 4.2)","ours":"mlcc >= 0.9"}]' \
	'[["arrival_peak_bytes","b1 port peak at arrival B"],["intra_share_both","intra share (fair 0.5)"],
	  ["jain_both","Jain"],["util_both","use"],["backlog_p50_bytes","b1 port p50 B"],
	  ["backlog_p99_bytes","p99 B"],["dci_backlog_p50_bytes","DCI_r p50 B"],
	  ["dci_backlog_p99_bytes","DCI_r p99 B"],["drops","drops"]]'
