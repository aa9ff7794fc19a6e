#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The entropy datapath steers one TCP flow over IPv6 by its flow label
# (issue 14 item 2; the design notes' recommended field): the two-DC
# topology with IPv6 (tb_twodc_ipv6), whose border routers hash the
# addresses, flow label and next header (policy 0), unod in the sender a1
# with [[lb]] tcp-ports = [PORT], and one TCP flow of SIZE bytes to b1
# for each tcp-mode in turn.
#
# Checked: every flow completes with every byte (TCP's, at whatever
# reordering the mode causes); the datapath relabelled every data
# segment it saw (unoctl's counters) and no checksum was touched (the
# label is not in the pseudo-header: InCsumErrors at b1 stays 0). ECMP
# (one label for the flow): one WAN leg carries at least 95 % of its
# packets. SPRAY_RR (the next label per segment, offloads off): every
# leg within 15 % of a quarter; the flow's 4300 segments take 4300
# labels of 4096, whose hash puts 2.7 % of a quarter (one standard
# deviation) more or less on a leg, so the bound is 5.5 of them.
# FLOWLET: completes, its legs reported. ARCANE (arcane.md 3.7, the
# sequence log of kernel/core/arcane_txlog.h): every segment it gave an
# EV is accounted for by the log, ACKed or dropped from a full log (all
# but at most the 64 a log holds); the segments sent from its cache
# reported; every leg within 15 % of a quarter, a claim: no leg marks or
# drops, so nothing steers ARCANE off any EV, and what it recycles keeps
# the legs of the EVs it happened to explore (0.213-0.272 measured).
#
# Then one leg black-holed for TCP (bora's wan$DEAD drops every IPv6 TCP
# segment, neighbour discovery passes, routes unchanged: test_lb_blackhole
# for TCP), one flow of HOLE_SIZE under ARCANE, then under SPRAY_RR. ARCANE
# reuses an EV only once a cumulative ACK covered its segment, and not if
# its data was resent since, so a cached EV never takes the dead leg: only
# explorations do, each with a chance of a quarter. The dead leg's drops
# are at most half of ARCANE's explorations (a quarter of 130-180
# explorations is 33-45, and half is 6-7 standard deviations above that;
# recycling the dead leg's EVs would send it far more), and its flow
# completes. SPRAY_RR sends a quarter
# of its segments into the hole, and TCP backs off on every loss: its flow
# takes more than twice ARCANE's time, or does not complete in five times
# it (a claim).
# uno-vm: icount
# uno-timeout: 300
# uno-cost: 111
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"
. "$(dirname "$0")/lib_lb.sh"

TCP_PORT=5201
SIZE=16777216
HOLE_SIZE=4194304
DEAD=2
TB_IPV6=1

lb_testbed 4
# The black hole's clsact now, before any flow: adding one under traffic
# patches tc's static keys (test_lb_unod). Its filter comes later.
tb_tc bora qdisc add dev "wan$DEAD" clsact || tb_die "clsact on bora:wan$DEAD"
for mode in ecmp spray_rr flowlet arcane; do
	printf '[[lb]]\ndev = "eth0"\ntcp-ports = [%s]\ntcp-mode = "%s"\nnum-ev = 4096\n' \
		$TCP_PORT $mode > "$TB_RUN/tcp-$mode.toml"
done

csum6_errors() {
	tb_exec "$TB_RCV" cat /proc/net/snmp6 | awk '$1 == "Tcp6InCsumErrors" { print $2 }'
}

# counter SHOW NAME: a datapath counter in an 'unoctl -j lb show' file.
counter() { jq ".[0].counters.$2" "$1"; }

# tcp_flow MODE [SIZE [TIMEOUT]]: one flow of SIZE bytes under MODE, timed by unoperf,
# whose server writes a flow's record only once it has read every byte
# (iperf3's report stops counting at its TEST_END, while the tail of the
# data may still be in flight); the legs' shares of its data packets in
# $SHARES, $SHARE_MIN, $SHARE_MAX.
tcp_flow() {
	_size=${2:-$SIZE}
	$UNOPERF server --netns "$(tb_ns "$TB_RCV")" -B :: -p $TCP_PORT --count 1 \
		-j "$OUT_DIR/server-$1.jsonl" 2> "$TB_RUN/server.err" &
	_server=$!
	echo $_server >> "$TB_RUN/pids"
	tb_wait_listen "$TB_RCV" $TCP_PORT
	lb_unoctl -j lb show > "$OUT_DIR/show0-$1.json"
	legs_mark
	_retx0=$(retrans_segs)
	if ! tb_exec a1 $UNOPERF client --dst "[$TB_RCV_ADDR6]:$TCP_PORT" \
		--flow ns=-,size=$_size --timeout "${3:-120}" \
		-j "$OUT_DIR/client-$1.json" 2> "$TB_RUN/client.err"; then
		[ -n "$3" ] || tb_die "$1: unoperf: $(tail -n 3 "$TB_RUN/client.err")"
		kill $_server 2> /dev/null
	fi
	wait $_server
	RETX=$(($(retrans_segs) - _retx0))
	lb_unoctl -j lb show > "$OUT_DIR/show-$1.json"
	BYTES=$(jq -s 'map(.size) | add // 0' "$OUT_DIR/server-$1.jsonl")
	FCT_MS=$(jq '.flows[0].fct_us / 1000' "$OUT_DIR/client-$1.json" 2> /dev/null)
	segs=$(($(counter "$OUT_DIR/show-$1.json" pkts_rewritten) -
		$(counter "$OUT_DIR/show0-$1.json" pkts_rewritten)))
	legs_shares "$segs"
	tb_log "$1: $BYTES bytes in ${FCT_MS:-?} ms, $RETX resent, $segs segments relabelled, legs' shares$SHARES"
	[ -z "$3" ] || return 0
	tb_check "$1:bytes_received" "$BYTES" "==" "$_size"
	# a segment carries at most the MTU less 40 + 20 bytes of headers
	tb_check "$1:relabelled" "$segs" ">=" "$((_size / (TB_MTU - 60)))"
}

# The sender's TCP segments resent (IPv4 and IPv6 share the MIB).
retrans_segs() {
	tb_exec a1 awk '$1 == "Tcp:" { if (!h) { for (i = 2; i <= NF; i++) n[i] = $i; h = 1; next }
		for (i = 2; i <= NF; i++) if (n[i] == "RetransSegs") print $i }' /proc/net/snmp
}

# delta NAME MODE: a counter's change over MODE's flow.
delta() {
	echo $(($(counter "$OUT_DIR/show-$2.json" "$1") - $(counter "$OUT_DIR/show0-$2.json" "$1")))
}

dead_drops() {
	tb_tc bora -s -j filter show dev "wan$DEAD" egress |
		jq '[.[] | .options.actions[]? | .stats.packets // 0] | add // 0'
}

csum0=$(csum6_errors)
cp "$TB_RUN/tcp-ecmp.toml" "$UNOD_CONF"
unod_start "$UNOD_CONF"
tcp_flow ecmp
tb_check ecmp:busiest_leg_share "$SHARE_MAX" ">=" 0.95
unod_reload "$TB_RUN/tcp-spray_rr.toml"
tcp_flow spray_rr
tb_check spray_rr:least_leg_share "$SHARE_MIN" ">=" 0.2125
tb_check spray_rr:most_leg_share "$SHARE_MAX" "<=" 0.2875
unod_reload "$TB_RUN/tcp-flowlet.toml"
tcp_flow flowlet
unod_reload "$TB_RUN/tcp-arcane.toml"
tcp_flow arcane
tb_claim arcane:least_leg_share "$SHARE_MIN" ">=" 0.2125
tb_claim arcane:most_leg_share "$SHARE_MAX" "<=" 0.2875
logged=$(($(delta tx_explore arcane) + $(delta tx_cached arcane)))
tb_check arcane:log_accounts_for_segments \
	"$(($(delta txlog_acked arcane) + $(delta txlog_overwritten arcane)))" ">=" $((logged - 64))
tb_log "arcane: $logged segments logged, $(delta txlog_acked arcane) ACKed," \
	"$(delta txlog_overwritten arcane) overwritten, $(delta txlog_withheld arcane) withheld," \
	"$(delta tx_cached arcane) sent from the cache"
tb_check checksum_errors "$(($(csum6_errors) - csum0))" "==" 0

tb_tc bora filter add dev "wan$DEAD" egress protocol ipv6 u32 match ip6 protocol 6 0xff \
	action drop || tb_die "black hole on bora:wan$DEAD"
d0=$(dead_drops)
tcp_flow hole-arcane $HOLE_SIZE
arcane_drops=$(($(dead_drops) - d0))
explored=$(delta tx_explore hole-arcane)
tb_log "hole-arcane: dead leg dropped $arcane_drops, $explored explorations"
tb_check hole-arcane:dead_drops_within_half_the_explorations "$arcane_drops" "<=" \
	"$((explored / 2))"
arcane_fct=$FCT_MS
unod_reload "$TB_RUN/tcp-spray_rr.toml"
d0=$(dead_drops)
tcp_flow hole-spray_rr $HOLE_SIZE "$(tb_calc "int(5 * $arcane_fct / 1000) + 1")"
tb_log "hole-spray_rr: dead leg dropped $(($(dead_drops) - d0))"
tb_claim hole-spray_rr:unfinished_or_slower \
	"$([ "$BYTES" -lt $HOLE_SIZE ] && echo 1 || tb_calc "$FCT_MS > 2 * $arcane_fct")" "==" 1
tb_exit
