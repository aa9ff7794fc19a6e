#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tcp_swift and tcp_timely, the Reflex study's delay-based baselines, and
# bpf_swift and bpf_timely, their BPF struct_ops hosts registered by
# unoctl with the modules' parameters: three flows of each fill a
# dumbbell's bottleneck
# while the law holds the queue, where cubic, measured on the same port in
# the same run, fills the buffer; unoctl sock show reads the modules'
# state. A store that breaks what must agree (TIMELY's T_low above T_high)
# is refused and changes nothing, by the module and by unoctl; the BPF
# CCs unregistered are gone.
#
# The network is the paper's dilated by S = 1000, as reflex.md 5.3 runs
# the study: 100 Gbit/s and an 8 us RTT become 100 Mbit/s and 8 ms, and
# every time of the laws is multiplied by S. Swift's target is then the
# base RTT + 200 ns x S + 3 hops x 1 us x S = base + 3.2 ms, a queue of
# 40 KB; each flow's window stops at one BDP, so without the target three
# flows would queue two BDPs (200 KB). TIMELY's band is 50-500 ms: it
# holds the RTT above T_low and its gradient keeps it from climbing,
# where cubic fills the 1 MB buffer (80 ms).
#
# In the icount VM (Documentation/testing.rst): on the host's clock
# TIMELY read the VM's scheduling delay as RTT gradient and filled 0.63-
# 0.88 of the link from run to run, 0.63 once on an idle VM; with the
# VM's own clock it filled 0.84 (bpf_timely 0.85).
# uno-vm: icount
# uno-timeout: 600
# uno-cost: 255
. "$(dirname "$0")/../lib/testbed.sh"

RATE=100
LIMIT=1000000
S=1000
TB_HOST_RTT=8

tb_dumbbell 3 0
tb_base_rtts
base_us=$(tb_intra_rtt_us)

tb_need_cc swift
tb_need_cc timely
tb_set_param tcp_swift link_rate_mbps $RATE
tb_set_param tcp_swift base_rtt_ns $((base_us * 1000))
tb_set_param tcp_swift base_delay_ns $((200 * S))
tb_set_param tcp_swift hop_delay_ns $((1000 * S))
tb_set_param tcp_swift inter_rtt_us $((100 * S))
tb_set_param tcp_timely link_rate_mbps $RATE
# T_high first: T_low may never pass it.
tb_set_param tcp_timely t_high_us $((500 * S))
tb_set_param tcp_timely t_low_us $((50 * S))
tb_set_param tcp_timely min_rtt_us $((20 * S))

# Refused by the same check as the module's, before anything is loaded.
$UNOCTL cc bpf register timely t_low_us $((50 * S)) t_high_us $((40 * S)) 2> "$TB_RUN/refused"
tb_check bpf_timely_crossing_band_refused "$(grep -c 'do not agree' "$TB_RUN/refused")" == 1
tb_check bpf_timely_not_registered \
	"$(grep -cw bpf_timely /proc/sys/net/ipv4/tcp_available_congestion_control)" == 0
$UNOCTL cc bpf register swift link_rate_mbps $RATE base_rtt_ns $((base_us * 1000)) \
	base_delay_ns $((200 * S)) hop_delay_ns $((1000 * S)) inter_rtt_us $((100 * S)) ||
	tb_die "unoctl cc bpf register swift"
$UNOCTL cc bpf register timely link_rate_mbps $RATE t_high_us $((500 * S)) \
	t_low_us $((50 * S)) min_rtt_us $((20 * S)) ||
	tb_die "unoctl cc bpf register timely"

echo $((600 * S)) > /sys/module/tcp_timely/parameters/t_low_us 2>/dev/null
tb_check timely_crossing_band_refused "$?" "!=" 0
tb_check timely_t_low_kept "$(cat /sys/module/tcp_timely/parameters/t_low_us)" == $((50 * S))
# unoctl sets a band in either order: T_low first is refused, then taken.
$UNOCTL cc set timely t_low_us $((600 * S)) t_high_us $((1000 * S))
tb_check timely_band_moved_up "$(cat /sys/module/tcp_timely/parameters/t_low_us)" == $((600 * S))
$UNOCTL cc set timely t_high_us $((500 * S)) t_low_us $((50 * S))
tb_check timely_band_moved_back "$(cat /sys/module/tcp_timely/parameters/t_high_us)" == $((500 * S))

tb_qdisc_sampler tor p0 0.2
# run CC: three flows' goodput and the port's backlog over a window, and
# what unoctl reads of the flows.
run() {
	tb_tc tor qdisc del dev p0 root 2>/dev/null
	tb_bottleneck_phantom $RATE limit $LIMIT
	TB_RATE_MBIT=$RATE
	for h in h1 h2 h3; do
		tb_flow $h "$1" 0 > /dev/null
	done
	TB_RESULT=$1 tb_measure 2 5
	tb_exec h1 $UNOCTL -j sock show > "$OUT_DIR/sock-$1.json"
	tb_flows_stop
	tb_log "$1: $TB_TOTAL Mbit/s, backlog p50 $(p50 "$1") B," \
		"p99 $(jq .backlog_p99_bytes "$OUT_DIR/$1.json") B"
}
p50() { jq .backlog_p50_bytes "$OUT_DIR/$1.json"; }
sock() { jq "[.[] | select(.cc == \"$1\") | .$1.$2] | max" "$OUT_DIR/sock-$1.json"; }

# run_timely CC: run CC, and once more if its window missed TIMELY's bound
# while the VM had less than a fifth of its CPU idle in the median second
# (tb_unsaturated's rule: such a VM sets the pace itself). TIMELY reads
# the VM's scheduling delay as RTT gradient and cuts its rate for it: the
# runs that missed the bound (0.66-0.69) had 0.15-0.2 idle, those that met
# it 0.25-0.4. The rate is the same (the dilation fixes it); a window that
# met the bound, or missed it on an idle VM, stands.
run_timely() {
	run "$1"
	[ "$(tb_calc "$(jq .utilisation "$OUT_DIR/$1.json") < 0.7 && $TB_IDLE_P50 < 0.2")" = 1 ] ||
		return 0
	tb_log "$1: the VM had $TB_IDLE_P50 of its CPU idle: again"
	run "$1"
}

for cc in cubic swift bpf_swift; do
	run $cc
done
for cc in timely bpf_timely; do
	run_timely $cc
done
for cc in swift timely; do
	$UNOCTL cc bpf unregister $cc
	tb_check "bpf_${cc}_unregistered" \
		"$(grep -cw "bpf_$cc" /proc/sys/net/ipv4/tcp_available_congestion_control)" == 0
done

tb_check cubic_fills_the_buffer "$(p50 cubic)" ">=" $((LIMIT / 2))
# TIMELY's rate swings (the queue empty half the time, 750 KB at p99): it
# filled 0.82-0.86 of the link in the runs that set these bounds, where
# Swift filled 0.98 (the bound leaves room for a slower host).
for cc in swift bpf_swift; do
	tb_check "${cc}_utilisation" "$(jq .utilisation "$OUT_DIR/$cc.json")" ">=" 0.8
done
for cc in timely bpf_timely; do
	tb_check "${cc}_utilisation" "$(jq .utilisation "$OUT_DIR/$cc.json")" ">=" 0.7
done
tb_check swift_reports_target "$(sock swift target_us)" == $((base_us + 3200))
tb_check timely_reports_rate "$(sock timely rate_kbps)" ">" 0
# Swift: its target queue, twice for the VM's RTT noise; the windows'
# cap alone would leave two BDPs.
for cc in swift bpf_swift; do
	tb_check "${cc}_backlog_p50" "$(p50 $cc)" "<=" $((2 * 3200 * RATE / 8))
done
# TIMELY: well below the full buffer cubic keeps.
for cc in timely bpf_timely; do
	tb_check "${cc}_backlog_p50_vs_cubic" "$(p50 $cc)" "<=" "$(($(p50 cubic) * 3 / 4))"
done
tb_exit
