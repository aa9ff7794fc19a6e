#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# S11.8 (SMaRTT Fig. 6, Sec. III-C): RTT fairness. Two long flows with
# base RTTs of 1 ms and 3 ms (netem on each sender's link) share the
# bottleneck. SMaRTT, whose fair increase scales with the BDP, keeps their
# throughput ratio in [0.67, 1.5].
# uno-vm: icount
# uno-timeout: 600
# uno-cost: 136
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_eval.sh"

# make check, where both bounds are claims, measures over 4 s.
WINDOW=$(ev_pick 4 15)

tb_dumbbell 2 0
ev_init S11.8
# Delay on each sender's egress, up to 1 and 3 ms of RTT.
for i in 1 2; do
	d=$(tb_calc "($i * 2 - 1) - $EV_INTRA_US / 1000")
	[ "$(tb_calc "$d < 0.05")" = 1 ] && d=0.05
	tb_exec "h$i" $TC qdisc replace dev eth0 root netem delay "${d}ms" limit 100000 ||
		tb_die "netem on h$i"
done
tb_base_rtts
for v in $(ev_variants $(ev_pick "smartt" "uno uno-nophantom smartt smartt-nscc dctcp cubic bbr")); do
	ev_begin "$v"
	ev_long_flows 2 "$WINDOW" h1 h2
	ev_metric rtt_1ms_over_3ms "$(jq '.[0].goodput_mbps / (.[1].goodput_mbps + 1e-9)' "$TB_RUN/flows.json")"
	ev_end
	[ "$v" = smartt ] || continue
	m=$TB_RUN/ev-$v.json
	ev_claim rtt_1ms_over_3ms "$(jq .metrics.rtt_1ms_over_3ms "$m")" ">=" 0.67
	ev_claim rtt_1ms_over_3ms_upper "$(jq .metrics.rtt_1ms_over_3ms "$m")" "<=" 1.5
done
ev_finish "Two intra-DC flows with base RTTs of 1 and 3 ms, measured over ${WINDOW} s." \
	'[{"metric":"rtt_1ms_over_3ms","paper":"BDP-scaled increase keeps RTT fairness (Fig. 6)","ours":"[0.67, 1.5]"}]' \
	'[["rtt_1ms_over_3ms","1 ms / 3 ms rate"],["goodput_mbps","total Mbit/s"],["jain","Jain"],
	  ["backlog_p99_bytes","p99 queue B"],["drops","drops"]]'
