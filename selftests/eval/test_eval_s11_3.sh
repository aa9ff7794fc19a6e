#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# S11.3 (SMaRTT Figs. 12 and 16a, Sec. IV-A and V-A): N-to-1 incast,
# N = 8, of large messages (64 x BDP, BDP = C x the intra-DC base RTT) and
# of small ones (1 x BDP). SMaRTT: large, the last flow completes within
# 1.10 x the ideal (all bytes at C plus one base RTT) and the FCTs spread
# by <= 10 % of it; small, within 2.0 x the ideal.
# uno-vm: icount
# uno-timeout: 600
# uno-cost: 45
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_eval.sh"

tb_dumbbell 8 0
ev_init S11.3
BDP=$((EV_C / 1000 * EV_INTRA_US / 1000))
for v in $(ev_variants $(ev_pick "smartt" "uno uno-nophantom smartt smartt-nscc dctcp cubic bbr")); do
	ev_begin "$v"
	ev_sized_flows $((BDP * 64)) h1 h2 h3 h4 h5 h6 h7 h8
	for f in metrics flows.json rates.json; do mv "$TB_RUN/$f" "$TB_RUN/large-$f"; done
	ev_sized_flows $BDP h1 h2 h3 h4 h5 h6 h7 h8
	sed 's/^/small_/' "$TB_RUN/metrics" >> "$TB_RUN/large-metrics"
	# The report keeps the large messages' flows and rates.
	for f in metrics flows.json rates.json; do mv "$TB_RUN/large-$f" "$TB_RUN/$f"; done
	ev_end
	[ "$v" = smartt ] || continue
	m=$TB_RUN/ev-$v.json
	ev_check flows_completed "$(jq .metrics.flows_completed "$m")" "==" 8
	ev_claim fct_over_ideal "$(jq .metrics.fct_over_ideal "$m")" "<=" 1.1
	ev_claim fct_spread "$(jq .metrics.fct_spread "$m")" "<=" 0.1
	ev_claim small_fct_over_ideal "$(jq .metrics.small_fct_over_ideal "$m")" "<=" 2.0
done
ev_finish "8-to-1 incast of $((BDP * 64)) B (64 BDP) and of $BDP B (1 BDP) messages." \
	'[{"metric":"fct_over_ideal","paper":"near-optimal for large messages","ours":"<= 1.10"},
	  {"metric":"fct_spread","paper":"fair","ours":"<= 0.10"},
	  {"metric":"small_fct_over_ideal","paper":"the hard zone below a BDP","ours":"<= 2.0"}]' \
	'[["fct_over_ideal","64 BDP: last FCT / ideal"],["fct_spread","64 BDP: spread"],["jain","Jain"],
	  ["small_fct_over_ideal","1 BDP: last FCT / ideal"],["backlog_p99_bytes","p99 queue B"],
	  ["marks","marks"],["drops","drops"]]'
