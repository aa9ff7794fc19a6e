#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every retransmission timeout reaches the law, the backed-off ones of an
# episode too: Linux sends CA_EVENT_LOSS only with the first, and the
# modules take each as it enters TCP_CA_Loss (.set_state). One flow from
# h1, held by its application to RATE (no mark, no loss: no Quick Adapt,
# no ignore phase), then black-holed at the ToR for BLACKOUT s: no ACK
# comes back, so only timeouts move the law's window, each by one MSS
# (uno with rto_cwnd_cut=1, uno_on_timeout(); smartt and its NSCC mode,
# smartt_on_timeout() and nscc_on_timeout()), or not at all (uno by
# default: loss is not its signal). Between two snapshots of
# the socket, each one dump (unoctl sock show: the law's window and
# tcpi_backoff, the timeouts in a row), the first after the first
# timeout, the window fell by exactly the timeouts between them times the
# MSS. (Before the modules took .set_state, it fell by nothing.)
# uno-vm: icount
# uno-timeout: 180
# uno-cost: 45
. "$(dirname "$0")/../lib/testbed.sh"

RATE=20M
# The icount VM's idle RTT is some 40 us, where the laws' BDP at 1 Gbit/s
# is under a segment: a 2 ms line on the receiver's egress gives it 60.
TB_HOST_RTT=2
BLACKOUT=3.5
PORT=5300

tb_dumbbell 1 0
# A port far faster than the flow (the laws' BDP, 1 Gbit/s x the idle
# RTT, is then tens of segments: the timeouts stay above the window's
# floor).
tb_bottleneck_red 1000 30
tb_base_rtts
tb_cc_profile 1000 "$(tb_intra_rtt_us)"
# The black hole's clsact before any flow (adding one under traffic
# patches tc's static keys; see test_lb_unod); its filter drops h1's IPv4
# and lets ARP by.
tb_tc tor qdisc add dev h1 clsact || tb_die "clsact on tor:h1"
black_hole() {
	tb_tc tor filter "$1" dev h1 ingress pref 1 protocol ip u32 match u32 0 0 \
		action drop || tb_die "black hole $1"
}

# snapshot CC N: the data connection's (the one with the most acked) law's
# window and backoff, as "WINDOW BACKOFF"; the dump in sock-PORT-N.json.
snapshot() {
	_f=$OUT_DIR/sock-$PORT-$2.json
	tb_exec h1 "$UNOCTL" -j sock show > "$_f"
	jq -r --arg cc "$1" '[.[] | select(.cc == $cc)] | max_by(.bytes_acked // 0) |
		"\(.uno.cwnd_bytes // .smartt.cwnd_bytes) \(.rto_backoff // 0)"' "$_f"
}
# law PORT: the law of the flow to PORT, from its first snapshot.
law() {
	jq -r 'max_by(.bytes_acked // 0) | if .smartt.nscc then "nscc" else .cc end' \
		"$OUT_DIR/sock-$1-1.json"
}

# run NAME CC CUT: one flow of CC, black-holed; each timeout takes CUT MSS.
run() {
	PORT=$((PORT + 1))
	cc=$2 cut=$3
	tb_ns_cc h1 $cc
	tb_receiver_cc $cc
	tb_exec rcv iperf3 -s -1 -p $PORT > /dev/null 2>&1 &
	echo $! >> "$TB_RUN/pids"
	tb_wait_listen rcv $PORT
	tb_exec h1 iperf3 -c "$TB_RCV_ADDR" -p $PORT -t 30 -b $RATE > /dev/null 2>&1 &
	client=$!
	echo $client >> "$TB_RUN/pids"
	sleep 2
	mss=$(tb_ss_field h1 mss)
	black_hole add
	sleep 0.5
	set -- "$1" $(snapshot $cc 1)
	sleep $BLACKOUT
	set -- "$@" $(snapshot $cc 2)
	kill $client
	ss -N "$(tb_ns h1)" -K -t dport = ":$PORT" > /dev/null 2>&1
	black_hole del
	tb_log "$1: window $2 B, backoff $3; after ${BLACKOUT} s, $4 B, backoff $5; mss $mss"
	tb_check "$1:runs_${1%-*}" "$(law $PORT | grep -cx "${1%-*}")" == 1
	# CA_EVENT_LOSS would come with the first timeout only: the first
	# snapshot is after it, so each timeout between the two is a later one.
	tb_check "$1:first_timeout_before" "$3" ">=" 1
	tb_check "$1:timeouts_between" "$(($5 - $3))" ">=" 1
	tb_check "$1:cut_per_timeout" "$(($2 - $4))" == "$((($5 - $3) * mss * cut))"
}

run uno-nocut uno 0
tb_set_param tcp_uno rto_cwnd_cut 1
run uno uno 1
run smartt smartt 1
tb_set_param tcp_smartt mode 1
# NSCC's QuickAdapt fires on any ACK delayed past 4 x its target (the
# network RTT, here the intra-DC RTT) while the flow delivers under 1/8 of
# its ceiling, as this 20 Mbit/s flow always does, and sets the window to
# what was delivered: a TCG stall did so once in CI and left 64 B, below
# one cut. The law on timeouts is the subject here, so NSCC's target is
# a network RTT of 100 ms: only a stall of 0.4 s adapts.
tb_set_param tcp_smartt nscc_net_rtt_us 100000
run nscc smartt 1
tb_exit
