#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Reflex shortens an inter-DC sender's control loop from the WAN RTT to
# the gateway RTT (issue 15; reflex.md 2.3-2.5, 3.3): the time from the
# gateway's first sight of congestion in the source DC to the sender's
# first rate cut, measured on one clock (the namespaces share
# CLOCK_MONOTONIC) by the programs themselves.
#
# Two DCs (tb_twodc, 2 senders), a 40 ms WAN, a 100 Mbit/s port from
# DC A's ToR to its border router bora. a1 sends 50 Mbit/s to b1 with
# bpf_swift, a load the port carries without a queue; after a second a2
# adds a step of 300 Mbit/s of UDP toward b2 through the same port for
# 0.5 s, and the port's queue grows by 6 ms every 2.4 ms. The ToR stamps
# the hosts' segments (unoctl reflex stamp); bora runs NSF on its WAN
# port, T_src above 5 ms being congestion, and records each flow's first
# congested packet (first_pack_ns); a1's host role and bpf_swift record
# its first rate cut (first_cut_ns). Swift's target leaves each loop's
# first cut to the congestion the gateway saw. Near the source it is
# 1 ms below the threshold: the first pseudo-ACK of an episode brings a
# sample above it, as Table I's 5 us threshold is above Swift's 3.2 us.
# End to end it is 20 ms: a queue the gateway has flagged some 6 ms
# before, and more than the VM's stalls (a TCG vCPU that stalls some ms
# delays the WAN's netem: a 6 ms target cut end to end 150 ms before any
# queue in DC A). The gateway is unod's, from [reflex.gateway].
#
#   e2e     the baseline: bpf_swift takes end-to-end samples only (a
#           flow is inter-DC above a 4 s handshake RTT: none is), its
#           base the WAN RTT; bora answers all the same, and a1 drops
#           each pseudo-ACK, its socket taking none. Its loop: a WAN RTT
#           at least.
#   reflex  bora answers; a1's flow takes near-source samples only, its
#           base the a1-bora RTT. Its loop: the pseudo-ACK's way back
#           through the ToR and the next transmit.
#   timely  the same with bpf_timely: min_rtt the a1-bora RTT, t_low
#           twice that, t_high 1 ms below the threshold as Swift's
#           target; a sample above t_high cuts at once (its end-to-end
#           loop is a WAN RTT as Swift's).
#
# Checked: each variant's loop against the WAN RTT, the reflex and timely
# loops under a quarter of the e2e one, and that each flow took samples from its own
# loop only, with no pseudo-ACK implausible. Some may be stale: the
# gateway's clones are built on the CPU that forwarded their packet, and
# two CPUs can send two pseudo-ACKs in the other order. The stamp's k = 13
# (8.2 us units, wrap 537 ms) holds the 80 ms a full buffer adds.
# uno-timeout: 240
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"

RATE=100
TB_WAN_RTT=40
K=13
THRESH_NS=5000000
INTERVAL_NS=1000000
A1_MBIT=50
A2_MBIT=300

tb_twodc 1 2
TB_BOTTLENECK_NS=tora
TB_BOTTLENECK_DEV=up0
tb_bottleneck_phantom $RATE limit 1000000

at() { _ns=$1; shift; nsenter --net="/run/netns/$(tb_ns "$_ns")" "$UNOCTL" "$@"; }

# Receivers ACK at once (reflex.md 4.5): a delayed ACK would add up to
# 40 ms to an end-to-end sample, a cut with no queue anywhere.
for i in 1 2; do
	tb_ip b$i route change default via 10.200.$i.254 quickack 1 || tb_die "quickack on b$i"
done

gw_addr=10.10.0.254
set -- $(tb_rtt a1 $gw_addr 10)
intra_us=$(tb_calc "int($1 * 1000)")
set -- $(tb_rtt a1 "$TB_RCV_ADDR" 10)
inter_us=$(tb_calc "int($1 * 1000)")
tb_log "base RTT a1-bora $intra_us us, a1-b1 $inter_us us"

at tora reflex stamp dev a1 dev a2 k $K || tb_die "reflex stamp"
at a1 reflex host dev eth0 gateway $gw_addr k $K || tb_die "reflex host"

# The gateway from the one config plane: unod in bora, [reflex.gateway].
UNOD="nsenter --net=/run/netns/$(tb_ns bora) $UNOD"
UNOD_CONF=$TB_RUN/uno.toml
gw_conf() {
	printf '[reflex.gateway]\nlan = "down0"\nwan = ["wan1"]\nprefixes = ["10.100.0.0/16"]\n'
	printf 'k = %s\n' $K
	printf 't-src-thresh-ns = %s\nt-interval-ns = %s\n' $THRESH_NS $INTERVAL_NS
	printf '%s\n' "$@"
}
gw_conf > "$UNOD_CONF"
unod_start "$UNOD_CONF"
# A bad setting, from unod or unoctl, is refused and changes nothing.
gw_settings() { at bora -j reflex show | jq -c '.[] | select(.role == "gateway") | del(.counters, .flows)'; }
gw_settings > "$TB_RUN/gw-before"
tb_check gateway_from_unod "$(jq .t_src_thresh_ns "$TB_RUN/gw-before")" == $THRESH_NS
tb_check gateway_prefixes \
	"$(jq '.prefixes == ["10.100.0.0/16"]' "$TB_RUN/gw-before" | grep -c true)" == 1
gw_conf "n-cool = 0" > "$TB_RUN/bad.toml"
unod_reload "$TB_RUN/bad.toml"
tb_check unod_refused "$(grep -c 'reflex.gateway.n-cool: expected an integer, 1..255' "$UNOD_LOG")" == 1
at bora reflex gateway lan down0 wan wan1 k $K t_idle_gc_ns 1000 2> "$TB_RUN/refused"
tb_check unoctl_refused "$(grep -c 't_idle_gc_ns must be above' "$TB_RUN/refused")" == 1
gw_settings > "$TB_RUN/gw-after"
tb_check bad_settings_changed_nothing "$(cmp -s "$TB_RUN/gw-before" "$TB_RUN/gw-after"; echo $?)" == 0

# run VARIANT CC PORT PARAM...: bpf_CC (swift or timely) registered with
# PARAM..., the flows, then each side's record into
# $OUT_DIR/VARIANT-{gw,host}.json.
run() {
	_v=$1 _cc=$2 _port=$3
	shift 3
	$UNOCTL cc bpf register "$_cc" link_rate_mbps $RATE "$@" ||
		tb_die "$_v: cc bpf register $_cc"
	echo "$_port" > "$OUT_DIR/$_v.port"
	tb_exec b1 iperf3 -s -1 -p "$_port" > /dev/null 2>&1 &
	echo $! >> "$TB_RUN/pids"
	tb_exec b2 iperf3 -s -1 -p $((_port + 1)) > /dev/null 2>&1 &
	echo $! >> "$TB_RUN/pids"
	tb_wait_listen b1 "$_port"
	tb_wait_listen b2 $((_port + 1))
	tb_exec a1 iperf3 -c "$TB_RCV_ADDR" -p "$_port" -C "bpf_$_cc" -b ${A1_MBIT}M -t 30 \
		> "$OUT_DIR/$_v-a1.log" 2>&1 &
	_a1=$!
	echo $_a1 >> "$TB_RUN/pids"
	sleep 1
	# half a second's worth (iperf3 -t takes whole seconds)
	tb_exec a2 iperf3 -u -c 10.200.2.1 -p $((_port + 1)) -b ${A2_MBIT}M -l 3900 \
		-n $((A2_MBIT * 1000000 / 16)) > /dev/null 2>&1
	# while a1's flow runs: its record goes when its socket closes
	kill -0 $_a1 2>/dev/null || tb_die "$_v: a1's flow ended early"
	at bora -j reflex show > "$OUT_DIR/$_v-gw.json"
	at a1 -j reflex show > "$OUT_DIR/$_v-host.json"
	# done: the client killed, its socket aborted rather than drained
	kill $_a1
	wait $_a1 2>/dev/null
	ss -N "$(tb_ns a1)" -K -t dport = ":$_port" > /dev/null 2>&1
	$UNOCTL cc bpf unregister "$_cc"
}

# flows VARIANT SIDE: the records of that side's role, as a JSON array.
flows() {
	_role=$([ "$2" = gw ] && echo gateway || echo host)
	jq -c "[.[] | select(.role == \"$_role\") | .flows[]]" "$OUT_DIR/$1-$2.json"
}
# field VARIANT SIDE FIELD: of a1's data connection to b1's server (iperf3's
# control connection takes few samples), as the host and the gateway
# record it.
field() {
	_dst="$TB_RCV_ADDR:$(cat "$OUT_DIR/$1.port")"
	_src=$(flows "$1" host | jq -r "map(select(.dst == \"$_dst\"))
		| max_by(.samples_src + .samples_e2e) | .src")
	flows "$1" "$2" | jq "map(select(.src == \"$_src\" and .dst == \"$_dst\"))
		| .[0].$3 // 0"
}
counter() {
	jq "[.[] | select(.role == \"host\") | .counters.$2 // 0] | add // 0" "$OUT_DIR/$1-host.json"
}
# loop VARIANT: ms from the gateway's first congested packet to the cut.
loop() {
	tb_calc "($(field "$1" host first_cut_ns) - $(field "$1" gw first_pack_ns)) / 1e6"
}

run e2e swift 5401 base_rtt_ns $((inter_us * 1000)) base_delay_ns 20000000 \
	hop_delay_ns 1000 reflex_inter_rtt_us 4000000
run reflex swift 5403 base_rtt_ns $((intra_us * 1000)) base_delay_ns $((THRESH_NS - 1000000)) \
	hop_delay_ns 1000 reflex_inter_rtt_us $((inter_us / 2))
run timely timely 5405 min_rtt_us "$intra_us" t_low_us $((intra_us * 2)) \
	t_high_us $(((THRESH_NS - 1000000) / 1000)) reflex_inter_rtt_us $((inter_us / 2))

for v in e2e reflex timely; do
	tb_check "${v}_congestion_seen" "$(field $v gw first_pack_ns)" ">" 0
	tb_check "${v}_cut" "$(field $v host first_cut_ns)" ">" 0
	tb_log "$v: loop $(loop $v) ms, $(field $v host cuts) cuts," \
		"$(field $v host samples_src) near-source and $(field $v host samples_e2e) end-to-end samples," \
		"pseudo-ACKs $(counter $v fb_accepted) accepted, $(counter $v fb_stale) stale"
done
tb_check e2e_loop_ms "$(loop e2e)" ">=" "$(tb_calc "$inter_us / 1000 * 0.8")"
tb_check e2e_no_src_samples "$(field e2e host samples_src)" == 0
tb_check e2e_fb_no_flow "$(counter e2e fb_no_flow)" ">" 0
for v in reflex timely; do
	tb_check ${v}_loop_ms "$(loop $v)" ">" 0
	tb_check ${v}_loop_below_wan_rtt_4 "$(loop $v)" "<" "$(tb_calc "$TB_WAN_RTT / 4")"
	tb_check ${v}_loop_quarter_of_e2e "$(loop $v)" "<" "$(tb_calc "$(loop e2e) / 4")"
	tb_check ${v}_src_samples "$(field $v host samples_src)" ">" 0
	tb_check ${v}_no_e2e_samples "$(field $v host samples_e2e)" == 0
	tb_check ${v}_fb_accepted "$(counter $v fb_accepted)" ">" 0
	tb_check ${v}_fb_bad_rtt "$(counter $v fb_bad_rtt)" == 0
done
tb_exit
