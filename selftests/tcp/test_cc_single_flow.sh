#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A single flow of each of our CCs on a 250 Mbit/s (or tb_port_rate's
# lower) dumbbell bottleneck with RED step ECN marking at 30 KB keeps the queue
# bounded by the marking: p99 backlog below half the 256 KB limit; and
# (claims, see below) reaches >= 0.9 of dctcp's utilisation in the same
# run and >= 90 % of the rate.
# (At 1 Gbit/s the TCG VM itself is the limit: 0.88-0.93 measured for uno
# and smartt, 0.92-0.94 for dctcp, so the test would measure the VM; the
# port runs at a quarter of what the VM forwards where that is less than 250.)
# uno-timeout: 240
. "$(dirname "$0")/../lib/testbed.sh"

MARK_KB=30
LIMIT=$((MARK_KB * 8000 + 4 * TB_MTU))

tb_dumbbell 1 0
tb_port_rate "${RATE:-250}"
RATE=$TB_PORT_MBIT
tb_bottleneck_red $RATE $MARK_KB
tb_qdisc_sampler tor p0 0.5
tb_base_rtts
tb_cc_profile $RATE "$(tb_intra_rtt_us)"

for cc in dctcp uno smartt; do
	tb_receiver_cc "$cc"
	drops0=$(tb_qdisc_counter tor p0 drops)
	tb_flow h1 "$cc" 0 > /dev/null
	TB_RESULT=$cc tb_measure 3 10
	tb_flows_stop
	drops=$(($(tb_qdisc_counter tor p0 drops) - drops0))
	p99=$(jq .backlog_p99_bytes "$OUT_DIR/$cc.json")
	tb_log "$cc: $TB_TOTAL Mbit/s (median second $TB_UTIL_P50 of the rate), p99 backlog $p99 B, drops $drops"
	# dctcp is this run's baseline: what the VM carries now. Ours should
	# reach 0.9 of it and 0.90 of the rate, in the median second
	# (tb_util_p50: a host stall moves the mean). Both are claims on a 2 GHz
	# host (Documentation/testing.rst): paced by TCP's hrtimer where
	# dctcp is not, smartt measured 0.82 and 1.10 of dctcp in two runs
	# (0.54-0.95 of the rate), and uno's one-BDP window cap binds under
	# the VM's loaded RTT (0.41-0.92 of the rate).
	[ "$cc" = dctcp ] && { base=$TB_UTIL_P50; continue; }
	tb_claim "${cc}_over_dctcp" "$(tb_calc "$TB_UTIL_P50 / $base")" ">=" 0.9
	tb_claim "${cc}_utilisation_p50" "$TB_UTIL_P50" ">=" 0.90
	tb_check "${cc}_p99_backlog_bytes" "$p99" "<=" $((LIMIT / 2))
done
tb_exit
