#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# MLCC's INT (issue 16 item 2; mlcc.md 3.3, 3.8, T9): switch ports stamp
# their hop record at dequeue into the TCP option the sender reserves, and
# the receiver's HPCC measurement reads the load from the records.
#
# The two-DC topology with one WAN link: a1's TCP flow to b1 crosses
# tora:up0, a phantom port at 50 Mbit/s (the bottleneck), then the WAN,
# then torb:b1, one at 100 Mbit/s; both in INT mode. unod puts them there
# ([[qdisc]] int = true, unod --once in each ToR's namespace) and
# attaches the sockops program to the root cgroup ([mlcc]): a1's socket
# to DC B's prefix writes the data option in each data segment, b1's
# reads it. a1 sends
# with TCP timestamps off (the option's 36 bytes then fit) and computes
# its checksums in software, so that b1 verifies the ports' updates.
#
# Checked, with the flow saturating the bottleneck and then paced at 20
# Mbit/s: at least 99 % of b1's data segments carry the option, and as
# many two records, the first port's first with its rate (T9's 99 %);
# no TCP checksum error at b1; the ports' int-stamped counters cover the
# segments. HPCC's U on the records (T = 10 ms) reads the bottleneck's use
# (the median of ten readings):
# at least 0.9 saturated (u_tx = 1, plus the queue), and under 0.7 paced
# at 20 of 50 Mbit/s (0.4; the 100 Mbit/s port reads 0.2).
# uno-vm: icount
# uno-timeout: 180
# uno-cost: 95
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"
. "$(dirname "$0")/lib_mlcc.sh"

TB_WAN_RTT=2
tb_twodc 1
PORT=5300
RTT_D_US=10000

grep -q cgroup2 /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup ||
	tb_die "cannot mount cgroup2"

# unod_once NS DEV RATE [TOML]: unod --once in NS (nsenter --net keeps
# the bpf and cgroup filesystems that 'ip netns exec' hides): DEV's
# phantom port at RATE with INT, and TOML's other tables.
unod_once() {
	printf '[[qdisc]]\ndev = "%s"\nrate = "%s"\nlimit = 100000\nint = true\n%s' \
		"$2" "$3" "$4" > "$TB_RUN/$1.toml"
	nsenter --net="/run/netns/$TB_PREFIX$1" "$UNOD" --once -c "$TB_RUN/$1.toml" \
		2>> "$OUT_DIR/unod.log" || tb_die "unod --once in $1: $(cat "$OUT_DIR/unod.log")"
	tb_check "$1:$2:int" "$(tb_tc "$1" -j qdisc show dev "$2" | jq -r '.[0].options.int')" \
		"==" on
}

unod_once tora up0 50mbit "
[mlcc]
cgroup = \"/sys/fs/cgroup\"
remote = \"10.200.0.0/16\"
rtt-d-us = $RTT_D_US
"
unod_once torb b1 100mbit
tb_check "mlcc:rtt_d_us" "$($UNOCTL -j mlcc show | jq .rtt_d_us)" "==" $RTT_D_US
tb_exec a1 sysctl -qw net.ipv4.tcp_timestamps=0
tb_exec a1 ethtool -K eth0 tx off > /dev/null || tb_die "tx checksum off on a1"

# show: unoctl mlcc show's record of the data connection to PORT (the
# one of iperf3's two with the most segments).
show() {
	$UNOCTL -j mlcc show |
		jq "[.flows[] | select(.dst | endswith(\":$PORT\"))] | max_by(.segs)"
}

# phase NAME IPERF_ARGS...: an 8 s flow; U, the median of ten readings
# 0.2 s apart from 2 s on (one reading is the EWMA of the last 10 ms:
# at 20 Mbit/s, six records, and a VM stall of that length resets it).
phase() {
	_name=$1
	shift
	PORT=$((PORT + 1))
	tb_exec b1 iperf3 -s -1 -p $PORT > /dev/null 2>&1 &
	echo $! >> "$TB_RUN/pids"
	tb_wait_listen b1 $PORT
	tb_exec a1 iperf3 -c "$TB_RCV_ADDR" -p $PORT -t 8 -C cubic -J "$@" \
		> "$OUT_DIR/iperf3-$_name.json" 2>&1 &
	_client=$!
	sleep 2
	: > "$OUT_DIR/u-$_name.txt"
	for _i in 1 2 3 4 5 6 7 8 9 10; do
		show | jq .u >> "$OUT_DIR/u-$_name.txt"
		sleep 0.2
	done
	wait $_client || tb_die "$_name: iperf3"
	U=$(sort -g "$OUT_DIR/u-$_name.txt" | sed -n 5p)
	show > "$OUT_DIR/flow-$_name-end.json"
	tb_log "$_name: counters $($UNOCTL -j mlcc show | jq -c .counters)"
	_f=$OUT_DIR/flow-$_name-end.json
	tb_log "$_name: $(jq -c '{segs, opts, nhop, overflow, hops}' "$_f")"
	tb_log "$_name: U" $(cat "$OUT_DIR/u-$_name.txt") "median $U," \
		"$(jq '.end.sum_received.bits_per_second / 1e6' "$OUT_DIR/iperf3-$_name.json") Mbit/s"
	tb_check "$_name:segs" "$(jq .segs "$_f")" ">" 1000
	tb_check "$_name:with_option" "$(jq '.opts / .segs' "$_f")" ">=" 0.99
	tb_check "$_name:two_records" "$(jq '.nhop[2] / .segs' "$_f")" ">=" 0.99
	tb_check "$_name:first_port_rate" "$(jq '.hops[0].rate_bps' "$_f")" "==" 50000000
	tb_check "$_name:second_port_rate" "$(jq '.hops[1].rate_bps' "$_f")" "==" 100000000
}

csum0=$(mlcc_csum_errors b1)
phase saturated
tb_check "saturated:u" "$U" ">=" 0.9
phase paced --fq-rate 20M
tb_check "paced:u" "$U" "<" 0.7
tb_check "paced:u_read" "$U" ">" 0.2

tb_check "checksum_errors" "$(($(mlcc_csum_errors b1) - csum0))" "==" 0
stamped=$(tb_qdisc_counter tora up0 int_stamped)
segs=$($UNOCTL -j mlcc show | jq '[.flows[].segs] | add')
tb_log "tora:up0 stamped $stamped, b1 received $segs data segments"
tb_check "stamped_covers_received" "$stamped" ">=" "$segs"
# One option per segment: the testbed's devices send no GSO (tb_link).
tb_check "written" "$($UNOCTL -j mlcc show | jq '.counters.opt_written')" ">=" "$segs"
# Attached again with another setting: the new one in place, the old gone.
$UNOCTL mlcc attach cgroup /sys/fs/cgroup rtt-d-us 500 || tb_die "unoctl mlcc attach"
tb_check "reattached:rtt_d_us" "$($UNOCTL -j mlcc show | jq .rtt_d_us)" "==" 500
tb_check "reattached:links" "$(bpftool -j link show | jq '[.[] | select(.type == "cgroup")] | length')" \
	"==" 1
$UNOCTL mlcc detach || tb_die "unoctl mlcc detach"
tb_check "detached:links" "$(bpftool -j link show | jq '[.[] | select(.type == "cgroup")] | length')" \
	"==" 0
tb_check "detached" "$($UNOCTL -j mlcc show | jq .attached)" "==" false
tb_exit
