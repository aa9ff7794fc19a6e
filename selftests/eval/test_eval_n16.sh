#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# N16 (ours): ECN echo fidelity. The bottleneck CE-marks every ECT
# packet with a fixed probability p (netem 'loss random p ecn' marks
# instead of dropping); the fraction of delivered segments the sender saw
# echoed as marked (delivered_ce / delivered, from tcp_info) must be
# p +- 0.02 for both our CCs. A latched RFC 3168 echo would report far
# more. dctcp, whose receiver logic ours share, runs for the record.
# The tolerance needs a sample: 10000 segments make 0.02 five standard
# deviations of the binomial fraction at p = 20 %, so each flow runs until
# it has delivered that many (at least SECS, at most MAX_SECS): how long
# that takes depends on the host, which TCG slows by 2-3x from run to run
# (uno at p = 20 %: 2000 segments a second on a quiet host, 290 on CI's).
# uno-vm: icount
# uno-timeout: 600
# uno-cost: 117
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_eval.sh"

SECS=$(ev_pick 2 10)
SAMPLE=10000
MAX_SECS=60

# The port: netem marking with probability $P, no shaping.
n16_port() {
	tb_bottleneck netem loss random "$P%" ecn limit 100000
}
EV_PORT_FN=n16_port

tb_dumbbell 1 0
ev_init N16
for v in $(ev_variants uno smartt dctcp); do
	for P in 5 20; do
		ev_begin "$v"
		tb_flow h1 "$v" 0 > /dev/null
		read -r t0 _ < /proc/uptime
		sleep "$SECS"
		while [ "$(tb_ss_field h1 delivered)" -le $SAMPLE ] &&
		      [ "$(tb_calc "$(cut -d' ' -f1 /proc/uptime) - $t0 < $MAX_SECS")" = 1 ]; do
			sleep 1
		done
		# One reading: a second ss would see more segments delivered
		# than the first saw marked, and bias the fraction low.
		read -r ce all <<-EOF
		$(tb_ss_field h1 delivered_ce delivered)
		EOF
		read -r t1 _ < /proc/uptime
		t=$(tb_calc "$t1 - $t0")
		tb_flows_stop
		echo "delivered_p$P $all" >> "$TB_RUN/m-$v"
		echo "seconds_p$P $t" >> "$TB_RUN/m-$v"
		echo "echoed_fraction_p$P $(tb_calc "$ce / ($all + 1e-9)")" >> "$TB_RUN/m-$v"
		err=$(tb_calc "$ce / ($all + 1e-9) - $P / 100")
		echo "echo_error_p$P ${err#-}" >> "$TB_RUN/m-$v"
	done
	mv "$TB_RUN/m-$v" "$TB_RUN/metrics"
	ev_end
	[ "$v" = dctcp ] && continue
	m=$TB_RUN/ev-$v.json
	for P in 5 20; do
		ev_check "delivered_p$P" "$(jq ".metrics.delivered_p$P" "$m")" ">" $SAMPLE
		ev_check "echo_error_p$P" "$(jq ".metrics.echo_error_p$P" "$m")" "<=" 0.02
	done
done
ev_finish "One intra-DC flow through a port that CE-marks with probability p = 5 % and 20 %." \
	'[{"metric":"echo_error_p5","paper":"the fraction of ECN-marked packets (Uno Sec. 4.1.1)","ours":"|echoed - p| <= 0.02"}]' \
	'[["echoed_fraction_p5","echoed, p = 5 %"],["echoed_fraction_p20","echoed, p = 20 %"],
	  ["delivered_p20","segments, p = 20 %"]]'
