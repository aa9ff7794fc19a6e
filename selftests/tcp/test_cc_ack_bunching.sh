#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Quick Adapt under ACK bunching. One inter-DC flow (WAN RTT 10 ms) through
# uno's port (the phantom queue), first with a quiet ACK path, then with
# the receiver's ACKs held and released together every SLOT_MS (netem
# slot on its egress): the bunching a stalled host, interrupt moderation
# or a VM's vCPU makes, here deterministic. A Quick Adapt window that ends
# on the first ACK of a bunch reads a delivered window as an incast; uno
# measures over two periods (qa_window_pct=200) and asks for half the
# window's bytes marked (qa_mark_pct=50) so that it does not.
# Bunched, uno's Quick Adapt never cuts, and uno does at least as well as
# dctcp in the same run (2.84-2.99 x in four runs in the icount VM). It
# should keep >= 0.9 x its quiet utilisation: a claim (ev_claim, failing
# only the full profile), measured at 0.76-0.78, as the held ACKs inflate
# uno's RTT samples and its MDs count as full rather than phantom-only
# (Documentation/testing.rst, "Findings").
# uno-vm: icount
# uno-timeout: 420
# uno-cost: 146
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../eval/lib_eval.sh"

SLOT_MS=${SLOT_MS:-4}
WINDOW=$(ev_pick 3 15)

tb_dumbbell 1 1	# h1 only measures the intra-DC RTT
ev_init ACKBUNCH
warmup=$(tb_calc "50 * $EV_INTER_US / 1e6")

# run PHASE VARIANT: the flow of VARIANT, measured, as VARIANT-PHASE.
run() {
	ev_begin "$2" "$2-$1"
	[ "$1" = quiet ] || tb_host_delay slot "${SLOT_MS}ms" "${SLOT_MS}ms"
	ev_long_flows "$warmup" "$WINDOW" w1
	tb_host_delay
	ev_end
}

util() { jq .metrics.utilisation "$TB_RUN/ev-$1.json"; }

# dctcp's quiet run is for the full profile's table: no check reads it.
for v in $(ev_pick uno "uno dctcp"); do
	run quiet $v
done
for v in uno dctcp; do
	run bunched $v
done

EV_LABEL=uno-bunched
ev_check qa_cuts "$(jq .metrics.uno_qa_cuts "$TB_RUN/ev-uno-bunched.json")" "==" 0
ev_claim bunched_over_quiet "$(tb_calc "$(util uno-bunched) / $(util uno-quiet)")" ">=" 0.9
ev_check bunched_over_dctcp "$(tb_calc "$(util uno-bunched) / $(util dctcp-bunched)")" ">=" 1
ev_finish "One inter-DC flow, ACKs released every $SLOT_MS ms (netem slot) or not, ${WINDOW} s." \
	'[{"metric":"utilisation","paper":"(TCP port) no Quick Adapt cut from bunched ACKs","ours":"bunched >= 0.9 x quiet, >= dctcp"}]' \
	'[["utilisation","utilisation"],["uno_qa_cuts","uno QA cuts"],["uno_md_cuts","uno MDs"],
	  ["backlog_p99_bytes","p99 queue B"],["marks","marks"]]'
