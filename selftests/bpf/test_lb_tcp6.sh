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
# FLOWLET: completes, its legs reported.
# uno-timeout: 180
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"
. "$(dirname "$0")/lib_lb.sh"

TCP_PORT=5201
SIZE=16777216
TB_IPV6=1

lb_testbed 4
for mode in ecmp spray_rr flowlet; do
	printf '[[lb]]\ndev = "eth0"\ntcp-ports = [%s]\ntcp-mode = "%s"\nnum-ev = 4096\n' \
		$TCP_PORT $mode > "$TB_RUN/tcp-$mode.toml"
done

csum6_errors() {
	tb_exec "$TB_RCV" cat /proc/net/snmp6 | awk '$1 == "Tcp6InCsumErrors" { print $2 }'
}

# tcp_flow MODE: one flow of SIZE bytes under MODE, timed by unoperf,
# whose server writes a flow's record only once it has read every byte
# (iperf3's report stops counting at its TEST_END, while the tail of the
# data may still be in flight); the legs' shares of its data packets in
# $SHARES, $SHARE_MIN, $SHARE_MAX.
tcp_flow() {
	$UNOPERF server --netns "$(tb_ns "$TB_RCV")" -B :: -p $TCP_PORT --count 1 \
		-j "$OUT_DIR/server-$1.jsonl" 2> "$TB_RUN/server.err" &
	_server=$!
	echo $_server >> "$TB_RUN/pids"
	tb_wait_listen "$TB_RCV" $TCP_PORT
	lb_unoctl -j lb show > "$OUT_DIR/show0-$1.json"
	legs_mark
	tb_exec a1 $UNOPERF client --dst "[$TB_RCV_ADDR6]:$TCP_PORT" --flow ns=-,size=$SIZE \
		--timeout 120 -j "$OUT_DIR/client-$1.json" 2> "$TB_RUN/client.err" ||
		tb_die "$1: unoperf: $(tail -n 3 "$TB_RUN/client.err")"
	wait $_server
	lb_unoctl -j lb show > "$OUT_DIR/show-$1.json"
	tb_check "$1:bytes_received" "$(jq -s 'map(.size) | add // 0' "$OUT_DIR/server-$1.jsonl")" "==" $SIZE
	segs=$(($(jq '.[0].counters.pkts_rewritten' "$OUT_DIR/show-$1.json") -
		$(jq '.[0].counters.pkts_rewritten' "$OUT_DIR/show0-$1.json")))
	# a segment carries at most the MTU less 40 + 20 bytes of headers
	tb_check "$1:relabelled" "$segs" ">=" "$((SIZE / (TB_MTU - 60)))"
	legs_shares "$segs"
	tb_log "$1: $segs segments relabelled, legs' shares$SHARES"
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
tb_check checksum_errors "$(($(csum6_errors) - csum0))" "==" 0
tb_exit
