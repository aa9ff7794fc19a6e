#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# N3 (Uno Fig. 4, Sec. 3.2): eight long inter-DC flows and a stream of
# small RPCs from an intra-DC neighbour share the receiver's port. The RPCs
# are uniform 4-16 KB, one every 25 us x s (as the authors' htsim ran
# Fig. 4; the paper names Google RPC sizes), s = 100 Gbit/s (Uno Sec. 5.1)
# / C the time scale of this testbed (our scaling), from 2 s after the long
# flows start. With the phantom queue the real queue stays near empty, so
# the RPCs do not wait behind the long flows: uno's mean RPC FCT improves
# >= 1.5 x and its p99 >= 4 x over uno without it (paper: 2 x and 8 x),
# and with it the real backlog has median 0 and p90 <= 2 MTU. The median
# is measured exactly, as the share of the RPCs' span in which the port
# held no packet (its empty_ns counter), at least 0.5. The mean gain is a
# check in make check (three reduced runs in the icount VM: 1.73-1.81 x);
# the other three are claims (ev_claim): the p99 gain measured 1.77-2.15 x
# there (Documentation/testing.rst, "Findings", has why), and host-clock
# runs found a p90 of 24 KB once all eight flows outlived the RPCs and,
# in one of six, a median of 20 KB.
# uno-vm: icount
# uno-timeout: 600
# uno-cost: 259
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_eval.sh"

RPCS=$(ev_pick 200 1000)
GAP_US=$((25 * 100000 / EV_RATE))

tb_dumbbell 1 8
ev_init N3
awk -v n=$RPCS 'BEGIN { srand(4); for (i = 0; i < n; i++) print 4000 + int(rand() * 12001) }' \
	> "$TB_RUN/rpc-sizes"
for v in $(ev_variants $(ev_pick "uno-nophantom uno" \
		"uno uno-nophantom smartt smartt-nscc dctcp cubic bbr")); do
	ev_begin "$v"
	awk -v gap=$GAP_US '{ print (NR - 1) * gap, $1 }' "$TB_RUN/rpc-sizes" |
		while read -r start size; do
			ev_flow_spec h1 intra "$size" "$start"
		done > "$TB_RUN/rpcs"
	# Under TCG the RPCs overrun their schedule: the flows run until
	# tb_flows_stop.
	for i in 1 2 3 4 5 6 7 8; do
		tb_flow "w$i" "$(ev_cc "$v" inter)" 0 > /dev/null
	done
	sleep 2
	tb_rx_sample "$TB_RUN/rx0"
	TB_T0=$TB_RX_T
	ev_unoperf "$TB_RUN/rpcs" 30
	tb_rx_sample "$TB_RUN/rx1"
	TB_T1=$TB_RX_T
	tb_flows_running
	TB_RESULT="N3-$v-long" tb_results
	tb_flows_stop
	EV_W0=$TB_T0 EV_W1=$TB_T1
	ev_metric long_goodput_mbps "$TB_TOTAL"
	ev_metric rpcs_completed "$EV_COMPLETED"
	ev_metric rpc_mean_fct_us "$(jq '[.[] | select(.ok) | .fct_us] | if length > 0 then add / length else null end' \
		"$TB_RUN/flows.json")"
	ev_metric rpc_p99_fct_us "$(jq '[.[] | select(.ok) | .fct_us] | sort |
		if length > 0 then .[((length - 1) * 0.99 | round)] else null end' "$TB_RUN/flows.json")"
	ev_metric backlog_p90_bytes "$(tb_backlog_pct "$EV_QLOG" 90 "$TB_T0" "$TB_T1")"
	ev_end
	tb_check "$v:rpcs_completed" "$EV_COMPLETED" "==" "$RPCS"
done

# The phantom queue's benefit: uno against uno without it.
if [ -f "$TB_RUN/ev-uno.json" ] && [ -f "$TB_RUN/ev-uno-nophantom.json" ]; then
	EV_LABEL=uno
	on=$TB_RUN/ev-uno.json off=$TB_RUN/ev-uno-nophantom.json
	ev_check rpc_mean_fct_gain "$(jq -n --slurpfile a "$off" --slurpfile b "$on" \
		'$a[0].metrics.rpc_mean_fct_us / $b[0].metrics.rpc_mean_fct_us')" ">=" 1.5
	ev_claim rpc_p99_fct_gain "$(jq -n --slurpfile a "$off" --slurpfile b "$on" \
		'$a[0].metrics.rpc_p99_fct_us / $b[0].metrics.rpc_p99_fct_us')" ">=" 4
	ev_claim backlog_empty_fraction "$(jq .metrics.backlog_empty_fraction "$on")" ">=" 0.5
	ev_claim backlog_p90_bytes "$(jq .metrics.backlog_p90_bytes "$on")" "<=" $((2 * TB_MTU))
fi
ev_finish "8 long inter-DC flows + $RPCS RPCs (uniform 4-16 KB, one every $GAP_US us) from an intra-DC host." \
	'[{"metric":"rpc_mean_fct_us","paper":"2 x lower with phantom (Sec. 3.2; htsim logs: 6.24 vs 13.08 us)","ours":">= 1.5 x"},
	  {"metric":"rpc_p99_fct_us","paper":"8 x lower with phantom (Sec. 3.2; htsim logs: 7.5 vs 65.7 us)","ours":">= 4 x"},
	  {"metric":"backlog_p90_bytes","paper":"real queue near empty with phantom","ours":"empty >= half the time (p50 0), p90 <= 2 MTU"}]' \
	'[["rpc_mean_fct_us","RPC mean FCT us"],["rpc_p99_fct_us","RPC p99 FCT us"],
	  ["long_goodput_mbps","long flows Mbit/s"],["backlog_empty_fraction","time empty"],["backlog_p50_bytes","p50 queue B"],
	  ["backlog_p90_bytes","p90 queue B"],["marks","marks"],["drops","drops"]]'
