#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# N2 (ours): one inter-DC flow (WAN RTT 10 ms) alone at the
# bottleneck. After 50 inter-DC RTTs uno with the phantom queue runs at
# >= 0.85 x C, and nothing is dropped, its line-rate initial window
# included.
# uno-vm: icount
# uno-timeout: 300
# uno-cost: 91
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_eval.sh"

WINDOW=$(ev_pick 5 10)

tb_dumbbell 1 1	# h1 only measures the intra-DC RTT
ev_init N2
warmup=$(tb_calc "50 * $EV_INTER_US / 1e6")
for v in $(ev_variants $(ev_pick "uno" "uno uno-nophantom smartt smartt-nscc dctcp cubic bbr")); do
	ev_begin "$v"
	ev_long_flows "$warmup" "$WINDOW" w1
	ev_end
	[ "$v" = uno ] || continue
	m=$TB_RUN/ev-$v.json
	ev_claim utilisation "$(jq .metrics.utilisation "$m")" ">=" 0.85
	ev_check drops "$(jq .metrics.drops "$m")" "==" 0
done
ev_finish "One inter-DC flow, measured over ${WINDOW} s after 50 inter-DC RTTs." \
	'[{"metric":"utilisation","paper":"no figure (ours: line rate after the start)","ours":">= 0.85 after 50 RTTs"},
	  {"metric":"drops","paper":"none","ours":"0"}]' \
	'[["goodput_mbps","goodput Mbit/s"],["utilisation","utilisation"],
	  ["backlog_p50_bytes","p50 queue B"],["backlog_p99_bytes","p99 queue B"],
	  ["marks","marks"],["drops","drops"],["uno_qa_cuts","uno QA cuts"],
	  ["uno_md_cuts","uno MDs"],["uno_md_phantom","of which phantom-only"],
	  ["uno_reno_flows","uno flows without ECN (Reno)"]]'
