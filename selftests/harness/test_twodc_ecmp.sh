#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness check: the two-DC topology with 4 parallel WAN links (20 ms RTT). The WAN
# adds the netem delay to the idle RTT within 10 %: the idle RTT at a 20 ms
# WAN less the same path's at 2 ms is 18 ms within 10 %. The difference
# takes out what the host adds whatever the delay: six hops of forwarding
# and the lateness of netem's timers under TCG (22.0 ms at 20 ms, of which
# 0.7 ms with no delay at all, on a quick host; 2-3x that on a slow one).
# And 16 parallel TCP connections are spread by the L4 ECMP hash over at
# least 3 of the 4 links (all 16 landing on 2 or fewer has probability
# ~1e-4). A link carries a connection if it sends over 100 KB in the 4 s:
# one cubic flow sends its 14 KB initial window every 20 ms RTT and more,
# a link with none sends only neighbour discovery. (Each link's share of
# the bytes says how the flows share the CPU, not the hash.)
# uno-timeout: 120
. "$(dirname "$0")/../lib/testbed.sh"

LINKS=4
TB_WAN_RTT=20

# wan_delays RTT_MS: netem on every WAN link, both ways, for an RTT of RTT_MS.
wan_delays() {
	l=1
	while [ $l -le $LINKS ]; do
		tb_wan_delay bora "wan$l" "$1"
		tb_wan_delay borb "wan$l" "$1"
		l=$((l + 1))
	done
}

# min_rtt: a1's minimum idle RTT to the receiver, in ms.
min_rtt() {
	set -- $(tb_rtt a1 "$TB_RCV_ADDR" 20)
	[ $# -eq 3 ] || tb_die "no RTT from a1 to $TB_RCV_ADDR"
	echo "$1"
}

SHORT_RTT=2
tb_twodc $LINKS 1
wan_delays "$SHORT_RTT"
short=$(min_rtt)
wan_delays "$TB_WAN_RTT"
rtt=$(min_rtt)
tb_log "idle RTT $rtt ms at a $TB_WAN_RTT ms WAN, $short ms at $SHORT_RTT ms"
want=$((TB_WAN_RTT - SHORT_RTT))
err=$(tb_calc "($rtt - $short - $want) / $want")
tb_check wan_rtt_relative_error "${err#-}" "<=" 0.10

tx_bytes() {
	tb_exec bora $IP -s -j link show dev "wan$1" | jq '.[0].stats64.tx.bytes'
}

l=1
while [ $l -le $LINKS ]; do
	eval "tx0_$l=$(tx_bytes $l)"
	l=$((l + 1))
done
tb_exec b1 iperf3 -s -1 -p 5201 > /dev/null 2>&1 &
tb_wait_listen b1 5201
tb_exec a1 iperf3 -c "$TB_RCV_ADDR" -p 5201 -P 16 -t 4 > "$OUT_DIR/iperf3.txt" 2>&1 ||
	tb_die "iperf3 across the WAN failed"

used=0
l=1
while [ $l -le $LINKS ]; do
	eval "d=\$(( \$(tx_bytes $l) - tx0_$l ))"
	tb_log "wan$l: $d bytes"
	[ "$d" -gt 100000 ] && used=$((used + 1))
	l=$((l + 1))
done
tb_check links_carrying_a_connection "$used" ">=" 3
tb_exit
