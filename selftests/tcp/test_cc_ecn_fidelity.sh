#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ECN echo fidelity (uno.md N16): the bottleneck CE-marks every ECT packet
# with a fixed probability p (netem 'loss random p ecn' marks instead of
# dropping); the fraction of delivered segments the sender saw echoed as
# marked (delivered_ce / delivered, from tcp_info) must be p +- 0.02 for
# both our CCs. A latched RFC 3168 echo would report far more.
# uno-timeout: 240
. "$(dirname "$0")/../lib/testbed.sh"

tb_dumbbell 1 0
for p in 5 20; do
	tb_bottleneck netem loss random "$p%" ecn limit 100000
	for cc in uno smartt; do
		tb_receiver_cc "$cc"
		tb_flow h1 "$cc" 12 > /dev/null
		sleep 8
		ce=$(tb_ss_field h1 delivered_ce)
		all=$(tb_ss_field h1 delivered)
		tb_flows_stop
		frac=$(tb_calc "$ce / ($all + 1e-9)")
		tb_log "$cc p=$p%: $ce of $all delivered segments echoed CE ($frac)"
		tb_check "${cc}_p${p}_delivered" "$all" ">" 10000
		err=$(tb_calc "$frac - $p / 100")
		tb_check "${cc}_p${p}_echo_error" "${err#-}" "<=" 0.02
	done
done
tb_exit
