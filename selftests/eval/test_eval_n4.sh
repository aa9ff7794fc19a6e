#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# N4 (uno.md 8.3, the paper's Fig. 8): intra-DC incast, eight flows start
# together into one receiver. Uno: every flow finishes, the last within
# 1.2 x the ideal time (all bytes at C), and the flows share fairly: Jain's
# index of their mean rates >= 0.95.
# uno-timeout: 600
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_eval.sh"

SIZE=$(ev_pick 4000000 16000000)

tb_dumbbell 8 0
ev_init N4
for v in $(ev_variants $(ev_pick "uno" "uno uno-nophantom smartt dctcp cubic bbr")); do
	ev_begin "$v"
	ev_sized_flows $SIZE h1 h2 h3 h4 h5 h6 h7 h8
	ev_end
	[ "$v" = uno ] || continue
	m=$TB_RUN/ev-$v.json
	ev_check flows_completed "$(jq .metrics.flows_completed "$m")" "==" 8
	ev_claim fct_over_ideal "$(jq .metrics.fct_over_ideal "$m")" "<=" 1.2
	ev_check jain "$(jq .metrics.jain "$m")" ">=" 0.95
done
ev_finish "Intra-DC incast: 8 flows of $SIZE B start together." \
	'[{"metric":"fct_over_ideal","paper":"near-ideal FCT (Fig. 8)","ours":"<= 1.2"},
	  {"metric":"jain","paper":"fair shares","ours":">= 0.95"}]' \
	'[["done_ms","done ms"],["ideal_ms","ideal ms"],["fct_over_ideal","last FCT / ideal"],
	  ["jain","Jain"],["backlog_p99_bytes","p99 queue B"],["marks","marks"],["drops","drops"]]'
