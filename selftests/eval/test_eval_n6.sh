#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# N6 (Uno Fig. 3, Sec. 3.1): four intra-DC and four inter-DC flows
# (WAN RTT 10 ms) start together into one receiver. From 100 inter-DC RTTs
# after the start until the first flow ends (the window for every metric
# but the FCT, the queue's percentiles included), uno's flows share fairly
# whatever their RTT: Jain's index of the flows' rates, each averaged over
# one sampling interval (25 inter-DC RTTs: ss under TCG cannot sample
# every 10), is >= 0.9 on average, and the mean intra-DC rate over the mean
# inter-DC rate lies in [0.75, 1.35]; the last flow ends within 1.25 x the
# ideal time. smartt-nscc's intra:inter lies in [0.67, 1.5].
# In make check the FCT bound is a claim (ev_claim): four reduced runs in
# the icount VM measured 1.14-1.25 x ideal (Jain 0.99, intra:inter
# 1.09-1.18, smartt-nscc's 0.96-1.14). So is smartt-nscc's range: twice
# in reduced runs one of its flows ended early and left a window of 3 or 4
# samples, over which intra:inter measured 1.79 and 1.503 (in the second,
# in CI, that flow ended at 0.47 x the ideal time).
# uno-vm: icount
# uno-timeout: 900
# uno-cost: 132
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_eval.sh"

SIZE=$(ev_pick 20000000 40000000)

tb_dumbbell 4 4
ev_init N6
skip_s=$(tb_calc "100 * $EV_INTER_US / 1e6")
for v in $(ev_variants $(ev_pick "uno smartt-nscc" "uno uno-nophantom smartt smartt-nscc dctcp cubic bbr dctcp+bbr")); do
	ev_begin "$v"
	ev_sized_flows $SIZE h1 h2 h3 h4 w1 w2 w3 w4
	# The window: from skip_s after the start to the first flow's end.
	end_s=$(jq '([.[] | select(.ok) | .end_ns] | min) as $e |
		([.[].start_ns | select(.)] | min) as $s | if $e then ($e - $s) / 1e9 else 0 end' \
		"$TB_RUN/flows.json")
	jq --argjson a "$skip_s" --argjson b "$end_s" "$EV_JAIN"'
		[.[] | {class, r: [.series[] | select(.[0] >= $a and .[0] <= $b) | .[1]]}] as $f |
		($f | map(.r | length) | min // 0) as $n |
		{ jains: [range(0; $n) as $i | [$f[].r[$i]] | jain],
		  intra: ([$f[] | select(.class == "intra") | .r | add / length] | add / length),
		  inter: ([$f[] | select(.class == "inter") | .r | add / length] | add / length) } |
		{ jain_mean: (if (.jains | length) > 0 then .jains | add / length else null end),
		  intra_over_inter: (if .inter > 0 then .intra / .inter else null end),
		  intra_mbps: .intra, inter_mbps: .inter, samples: (.jains | length) }' \
		"$TB_RUN/rates.json" > "$TB_RUN/fair.json" 2>/dev/null ||
		echo '{"jain_mean":null,"intra_over_inter":null,"samples":0}' > "$TB_RUN/fair.json"
	for k in jain_mean intra_over_inter intra_mbps inter_mbps samples; do
		ev_metric $k "$(jq ".$k" "$TB_RUN/fair.json")"
	done
	ev_metric window_from_s "$skip_s"
	ev_metric window_to_s "$end_s"
	ev_metric utilisation "$(ev_window_util "$skip_s" "$end_s")"
	# The queue over the same window, not the line-rate start's overshoot.
	EV_W0=$(tb_calc "$EV_FLOWS_T0 + $skip_s") EV_W1=$(tb_calc "$EV_FLOWS_T0 + $end_s")
	ev_end
	m=$TB_RUN/ev-$v.json
	if [ "$v" = smartt-nscc ]; then
		# NSCC's network-wide target delay (uec.cpp) makes it RTT-fair.
		ev_claim intra_over_inter "$(jq .metrics.intra_over_inter "$m")" ">=" 0.67
		ev_claim intra_over_inter_upper "$(jq .metrics.intra_over_inter "$m")" "<=" 1.5
	fi
	[ "$v" = uno ] || continue
	ev_check flows_completed "$(jq .metrics.flows_completed "$m")" "==" 8
	ev_check window_samples "$(jq .metrics.samples "$m")" ">=" 4
	ev_check jain_mean "$(jq .metrics.jain_mean "$m")" ">=" 0.9
	ev_check intra_over_inter "$(jq .metrics.intra_over_inter "$m")" ">=" 0.75
	ev_check intra_over_inter_upper "$(jq .metrics.intra_over_inter "$m")" "<=" 1.35
	ev_claim fct_over_ideal "$(jq .metrics.fct_over_ideal "$m")" "<=" 1.25
done
ev_finish "4 intra-DC + 4 inter-DC flows of $SIZE B start together into one receiver." \
	'[{"metric":"jain_mean","paper":"converges to fair share fast (Fig. 3); MPRDMA+BBR never fair","ours":">= 0.9"},
	  {"metric":"intra_over_inter","paper":"equal rates","ours":"[0.75, 1.35]; smartt-nscc [0.67, 1.5]"},
	  {"metric":"fct_over_ideal","paper":"near-ideal (Fig. 8)","ours":"<= 1.25"}]' \
	'[["intra_mbps","intra Mbit/s"],["inter_mbps","inter Mbit/s"],["utilisation","utilisation"],["jain_mean","Jain"],
	  ["intra_over_inter","intra/inter"],["fct_over_ideal","last FCT / ideal"],
	  ["backlog_p99_bytes","p99 queue B"],["marks","marks"],["drops","drops"]]'
