#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness check: the two-DC topology with 4 parallel WAN links (20 ms RTT). The idle
# RTT across the WAN matches the netem delay within 10 %, and 16 parallel
# TCP connections are spread by the L4 ECMP hash over at least 3 of the 4
# links (all 16 landing on 2 or fewer has probability ~1e-4).
# uno-timeout: 120
. "$(dirname "$0")/../lib/testbed.sh"

LINKS=4
TB_WAN_RTT=20

tb_twodc $LINKS 1
tb_base_rtts
rtt=$(jq .a1.min_ms "$OUT_DIR/base_rtt.json")
err=$(tb_calc "($rtt - $TB_WAN_RTT) / $TB_WAN_RTT")
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

used=0 total=0
l=1
while [ $l -le $LINKS ]; do
	eval "d=\$(( \$(tx_bytes $l) - tx0_$l ))"
	tb_log "wan$l: $d bytes"
	total=$((total + d))
	eval "d_$l=$d"
	l=$((l + 1))
done
l=1
while [ $l -le $LINKS ]; do
	eval "d=\$d_$l"
	[ "$(tb_calc "$d / $total > 0.05")" = 1 ] && used=$((used + 1))
	l=$((l + 1))
done
tb_check links_carrying_over_5pct "$used" ">=" 3
tb_exit
