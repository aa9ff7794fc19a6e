#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# M4 (MLCC's heavy mix, mlcc.md 5.3 and 5.6, the paper's Fig. 11): intra-DC
# traffic at 50 % load and cross-DC at 20 %, WebSearch sizes, Poisson
# arrivals. The paper finds MLCC cutting the intra-DC average FCT by 28 %
# against DCQCN, 46 % against HPCC, and the cross-DC one by 5-12 %.
#
# lib_mlcc_eval.sh's two DCs and variants, the flows all to b1 (unoperf sends
# to one destination, so both classes meet at b1's link, where the
# paper's go to random hosts of each DC): intra-DC from b2..b4, cross-DC
# from a1..a4 across the 40 ms WAN; 0.7 of b1's link offered, 50/70 of
# the flows intra-DC (one CDF for both, so flows and bytes split alike).
# Sizes scale by s_r s_t (mlcc.md 5.7: s_r = 50 Mbit/s / 25 Gbit/s, s_t =
# RTT_C / 6.04 ms; about 0.016 here, a WebSearch flow 26 KB on average and
# 472 KB at most, 1.6 RTT_C BDPs as in the paper). Hadoop's sizes so
# scaled (1.9 KB on average) would ask 2300 connections a second of the
# VM: not run. Variants mlcc and dctcp (the ECN law nearest DCQCN); in the
# full profile hpcc, cubic and uno too.
#
# Checked for mlcc: every flow completes, DCI_r's queues are all freed
# with their flows, and none of its error counters moved. Claimed
# (failing the full profile only): mlcc's intra-DC mean FCT at most 0.8 of
# the best baseline's (the paper's 20 % of issue 16), its cross-DC mean
# FCT at most the best baseline's.
# uno-timeout: 2400
. "$(dirname "$0")/lib_mlcc_eval.sh"
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../mlcc/lib_mlcc.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"
. "$(dirname "$0")/lib_eval.sh"

# 2 s of arrivals, some 360 flows: over 6 s (1082 flows) the VM fell
# behind, every variant's FCTs grew with its place in the run (dctcp's
# intra-DC mean from 15-22 ms to 964 ms) and cubic's flows timed out
DURATION_MS=2000
LOAD=0.7
INTRA_FRACTION=0.714	# 50 / 70

mx_init M4
SIZE_SCALE=$(tb_calc "$EV_RATE / 25000 * $EV_INTER_US / $MX_PAPER_RTT_C_US")
tb_log "sizes x $SIZE_SCALE"
EV_MIX_INTRA=$MX_INTRA_SENDERS
EV_MIX_INTER=$MX_SENDERS
EV_MIX_CDF_INTRA=$(dirname "$0")/data/WebSearch_distribution.txt
EV_MIX_CDF_INTER=$EV_MIX_CDF_INTRA

# m4_dcir_drained: DCI_r's state into $OUT_DIR/borb-mlcc.json once its
# queues are gone, or after 5 s: the last flows' FINs may still be
# crossing the WAN when unoperf ends.
m4_dcir_drained() {
	_tries=50
	while at borb -j mlcc show > "$OUT_DIR/borb-mlcc.json" &&
		[ "$(jq '.near_source[] | select(.role == "dcir") | .pfqs | length' \
			"$OUT_DIR/borb-mlcc.json")" != 0 ] && [ $_tries -gt 0 ]; do
		sleep 0.1
		_tries=$((_tries - 1))
	done
}

VARIANTS=$(ev_variants $(ev_pick "mlcc dctcp" "mlcc hpcc dctcp cubic uno"))
for v in $VARIANTS; do
	mx_begin "$v"
	ev_mix $LOAD "$DURATION_MS" 1 --intra-fraction $INTRA_FRACTION \
		--size-scale "$SIZE_SCALE"
	[ "$v" = mlcc ] && m4_dcir_drained
	mx_dci_metrics
	mx_end
done

# m4_metric VARIANT NAME: a variant's metric.
m4_metric() { jq ".metrics.$2" "$TB_RUN/ev-$1.json"; }
# m4_best NAME: the least of the baselines' metric NAME.
m4_best() {
	for b in $VARIANTS; do
		[ "$b" = mlcc ] || m4_metric "$b" "$1"
	done | sort -g | head -n 1
}

EV_LABEL=mlcc
if [ -f "$TB_RUN/ev-mlcc.json" ]; then
	ev_check failed_flows "$(m4_metric mlcc failed)" == 0
	ev_check pfq_freed "$(jq '.near_source[] | select(.role == "dcir") | .pfqs | length' \
		"$OUT_DIR/borb-mlcc.json")" == 0
	mx_dcir_counters_zero "$OUT_DIR/borb-mlcc.json"
	for c in intra inter; do
		best=$(m4_best ${c}_mean_fct_us)
		[ -n "$best" ] || continue
		tb_log "$c-DC mean FCT: mlcc $(m4_metric mlcc ${c}_mean_fct_us) us," \
			"the best baseline's $best us"
		ev_claim ${c}_mean_fct_over_best "$(tb_calc "$(m4_metric mlcc ${c}_mean_fct_us) / $best")" \
			"<=" "$([ $c = intra ] && echo 0.8 || echo 1)"
	done
fi
mx_finish
ev_finish "MLCC's heavy mix (its Fig. 11): WebSearch sizes x $SIZE_SCALE (s_r s_t), Poisson arrivals offering $LOAD of b1's link for $DURATION_MS ms, $INTRA_FRACTION of the flows intra-DC (b2..b4), the rest cross-DC (a1..a4, 40 ms WAN), all to b1. Variants: mlcc (bpf_mlcc with the three loops), hpcc (bpf_mlcc, HPCC end to end), dctcp, cubic, uno (the port's phantom queue marking)." \
	'[{"metric":"intra_mean_fct_us","paper":"MLCC cuts it by 28 % vs DCQCN, 33 % vs Timely, 46 % vs HPCC, 39 % vs PowerTCP (WebSearch, heavy)","ours":"mlcc <= 0.8 x the best baseline"},
	  {"metric":"inter_mean_fct_us","paper":"MLCC cuts it by 12 %, 41 %, 5 %, 4 %","ours":"mlcc <= the best baseline"}]' \
	'[["flows","flows"],["failed","failed"],["intra_mean_fct_us","intra mean FCT us"],
	  ["intra_p99_fct_us","intra p99 FCT us"],["inter_mean_fct_us","cross mean FCT us"],
	  ["inter_p99_fct_us","cross p99 FCT us"],["p99_slowdown","p99 slowdown"],
	  ["backlog_p99_bytes","b1 port p99 B"],["dci_backlog_p99_bytes","DCI_r p99 B"],["drops","drops"]]'
