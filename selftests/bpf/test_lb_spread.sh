#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The entropy datapath moves one UDP flow's packets over the legs of an
# ECMP fabric (issue 14; arcane.md 5.2): the two-DC topology with 4 WAN
# legs, its border routers hashing the wire's 5-tuple (tb_twodc), and
# lb_flow sending one flow of 8000 datagrams from a1 to an echo at b1,
# the datapath (bpf/lb.bpf.c) attached to a1's uplink for each mode.
#
# Checked, per mode: every datagram reached the echo and every ACK came
# back; no checksum the datapath fixed was wrong at the receiver
# (InCsumErrors); every packet rewritten. ECMP (one EV for the flow):
# one leg carries at least 95 % of the flow. SPRAY (a random EV of 4096
# per packet) and SPRAY_RR (the next EV): every leg carries its 1/4
# within +-15 %. With 4096 EVs the hash's own imbalance over the 4 legs
# is 2.7 % of a quarter (one standard deviation) and SPRAY's sampling of
# 8000 packets adds 1.9 %: the bound is 4.5 of them (one run: SPRAY's
# legs 0.233-0.276 of 4000 packets, SPRAY_RR's 0.241-0.264).
# uno-timeout: 240
. "$(dirname "$0")/../lib/testbed.sh"

LB_FLOW=${LB_FLOW:-/uno/bin/lb_flow}
LINKS=4
COUNT=8000
PORT=9000
TB_WAN_RTT=2

tb_twodc $LINKS 1

leg_packets() {
	tb_exec bora $IP -s -j link show dev "wan$1" | jq '.[0].stats64.tx.packets'
}

csum_errors() {
	tb_exec "$TB_RCV" cat /proc/net/snmp | awk '$1 == "Udp:" {
		if (!h) { for (i = 2; i <= NF; i++) n[i] = $i; h = 1; next }
		for (i = 2; i <= NF; i++) if (n[i] == "InCsumErrors") print $i }'
}

for mode in ecmp spray spray_rr; do
	l=1
	while [ $l -le $LINKS ]; do
		eval "p0_$l=$(leg_packets $l)"
		l=$((l + 1))
	done
	c0=$(csum_errors)
	tb_exec "$TB_RCV" "$LB_FLOW" echo --listen "$TB_RCV_ADDR:$PORT" --idle-ms 3000 \
		> "$OUT_DIR/echo-$mode.json" 2>&1 &
	echo $! >> "$TB_RUN/pids"
	tb_wait_listen "$TB_RCV" $PORT udp
	tb_exec a1 "$LB_FLOW" send --to "$TB_RCV_ADDR:$PORT" --src-port 40000 \
		--count $COUNT --gap-us 200 --dev eth0 --mode $mode --num-ev 4096 \
		> "$OUT_DIR/send-$mode.json" 2> "$OUT_DIR/send-$mode.err" ||
		tb_die "$mode: lb_flow send: $(cat "$OUT_DIR/send-$mode.err")"
	wait
	s=$OUT_DIR/send-$mode.json
	tb_check "$mode:echoed" "$(jq .data "$OUT_DIR/echo-$mode.json")" "==" $COUNT
	tb_check "$mode:acks" "$(jq .acks "$s")" "==" $COUNT
	tb_check "$mode:rewritten" "$(jq .counters.pkts_rewritten "$s")" "==" $COUNT
	tb_check "$mode:checksum_errors" "$(($(csum_errors) - c0))" "==" 0
	shares=""
	l=1
	while [ $l -le $LINKS ]; do
		eval "d=\$(( \$(leg_packets $l) - p0_$l ))"
		shares="$shares $(tb_calc "$d / $COUNT")"
		l=$((l + 1))
	done
	tb_log "$mode: legs' shares$shares, EVs used $(jq '.ev_hist | length' "$s")"
	if [ $mode = ecmp ]; then
		max=$(echo $shares | tr ' ' '\n' | sort -g | tail -n 1)
		tb_check "$mode:busiest_leg_share" "$max" ">=" 0.95
	else
		min=$(echo $shares | tr ' ' '\n' | sort -g | head -n 1)
		max=$(echo $shares | tr ' ' '\n' | sort -g | tail -n 1)
		tb_check "$mode:least_leg_share" "$min" ">=" 0.2125
		tb_check "$mode:most_leg_share" "$max" "<=" 0.2875
	fi
done
tb_exit
