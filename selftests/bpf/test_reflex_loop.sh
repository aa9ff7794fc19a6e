#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Reflex shortens an inter-DC sender's control loop from the WAN RTT to
# the gateway RTT (issue 15; reflex.md 2.3-2.5, 3.3): the time from the
# gateway's first sight of congestion in the source DC to the sender's
# first rate cut, measured on one clock (the namespaces share
# CLOCK_MONOTONIC) by the programs themselves.
#
# Two DCs (tb_twodc), a 40 ms WAN, a 100 Mbit/s port from DC A's ToR to
# its border router bora. a1 sends 50 Mbit/s to b1, a load the port
# carries without a queue; after a second the port drops to 10 Mbit/s
# for half a second, as if cross traffic of higher priority took the
# rest, and a1's queue grows by 4 ms every ms. The step is the port's
# rate, not a second sender's burst: a UDP sender under TCG sends in
# bursts and pauses, and a queue that falls between two samples is no
# congestion to TIMELY (measured: 5.98 then 3.60 ms, its cut 10 ms
# later). The ToR stamps a1's segments (unoctl reflex stamp); bora runs
# NSF on its WAN port, T_src above 5 ms being congestion, records each
# flow's first congested packet (first_pack_ns) and puts the time of an
# episode's first in the pseudo-ACK that opens it; a1's host role
# records the first pseudo-ACK it accepts (first_fb_ns) and its CC the
# first rate cut (first_cut_ns) and the loop it closed (loop_ns: from
# the first congested packet of the episode that brought it, as a VM
# stall can hold one packet 5 ms before the step, to the pseudo-ACK
# whose sample made the cut). The CC takes samples before a1's next
# transmit or on its next ACK, each as its own, so no packet leaves at
# the old rate in between; a1, its window some 50 Mbit/s x the WAN RTT,
# sends for part of each RTT only, and samples that come in the rest
# wait for the next (cut_wait_ns, logged: 2.6-8.7 ms, as the step's
# phase falls). Taken as one, the latest of them, three pseudo-ACKs made
# one TIMELY sample that only primed its gradient, and its loop was up
# to 28.5 ms by the step's phase (CI: 11.9). Swift's target leaves each loop's
# first cut to the congestion the gateway saw. Near the source it is
# 1 ms below the threshold: the first pseudo-ACK of an episode brings a
# sample above it, as Table I's 5 us threshold is above Swift's 3.2 us.
# End to end it is 20 ms: a queue the gateway has flagged some 4 ms
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
#           target. TIMELY's first sample only sets its previous RTT
#           (reflex.md 3.1), so the second pseudo-ACK cuts: its loop is
#           Swift's and the gap between two of a1's packets at the
#           gateway, at least T_interval (1 ms) and a packet time at
#           10 Mbit/s (1.2 ms).
#
# Checked: each variant's loop against the WAN RTT, the reflex and timely
# loops under a quarter of the e2e one, and that each flow took samples from its own
# loop only, with no pseudo-ACK implausible. Some may be stale: the
# gateway's clones are built on the CPU that forwarded their packet, and
# two CPUs can send two pseudo-ACKs in the other order. The stamp's k = 13
# (8.2 us units, wrap 537 ms) holds the 80 ms a full buffer adds.
#
# In the icount VM: a reflex loop is a few of a1's packet gaps at the
# gateway, and the host-clock VM's stalls on a busy host are as long.
# There the loops are 0.01-0.1 (Swift) and 3.2 ms (TIMELY), e2e's 56 ms,
# and a1-bora's base RTT 38 us.
# uno-vm: icount
# uno-timeout: 400
# uno-cost: 154
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"

RATE=100
TB_WAN_RTT=40
K=13
THRESH_NS=5000000
INTERVAL_NS=1000000
STEP_RATE=10
A1_MBIT=50

tb_twodc 1
TB_BOTTLENECK_NS=tora
TB_BOTTLENECK_DEV=up0
# 80 ms at the step's rate
tb_bottleneck_phantom $RATE limit $((STEP_RATE * 125000 * 80 / 1000))

# The receiver ACKs at once (reflex.md 4.5): a delayed ACK would add up
# to 40 ms to an end-to-end sample, a cut with no queue anywhere.
tb_ip b1 route change default via 10.200.1.254 quickack 1 || tb_die "quickack on b1"

gw_addr=10.10.0.254
set -- $(tb_rtt a1 $gw_addr 10)
intra_us=$(tb_calc "int($1 * 1000)")
set -- $(tb_rtt a1 "$TB_RCV_ADDR" 10)
inter_us=$(tb_calc "int($1 * 1000)")
tb_log "base RTT a1-bora $intra_us us, a1-b1 $inter_us us"

at tora reflex stamp dev a1 k $K || tb_die "reflex stamp"
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

# port_rate MBIT: the port's new rate; its queue stays. Through a tc
# already running (step_tc): a process started under TCG at the step
# stalls the VM for some ms, and a packet it holds 5 ms is congestion
# to the gateway, an episode that TIMELY rightly does not cut for (its
# next sample falls) and that its loop would be measured from.
# tc -force goes on after a refused change, so that it reads to the end
# (the shell dies writing into a FIFO with no reader) and step_done says.
port_rate() { echo "qdisc change dev up0 root phantom rate ${1}mbit" >&3; }

# step_tc: a tc for tora on fd 3, reading the commands port_rate writes.
step_tc() {
	rm -f "$TB_RUN/step"
	mkfifo "$TB_RUN/step" || tb_die "mkfifo"
	tb_tc tora -force -batch - < "$TB_RUN/step" > "$TB_RUN/step.log" 2>&1 &
	_step_tc=$!
	echo $_step_tc >> "$TB_RUN/pids"
	exec 3> "$TB_RUN/step"
}

# step_done: the tc gone, every change taken.
step_done() {
	exec 3>&-
	wait $_step_tc || tb_die "port step: $(cat "$TB_RUN/step.log")"
}

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
	tb_wait_listen b1 "$_port"
	tb_exec a1 iperf3 -c "$TB_RCV_ADDR" -p "$_port" -C "bpf_$_cc" -b ${A1_MBIT}M -t 30 \
		> "$OUT_DIR/$_v-a1.log" 2>&1 &
	_a1=$!
	echo $_a1 >> "$TB_RUN/pids"
	step_tc
	sleep 1
	port_rate $STEP_RATE
	sleep 0.5
	port_rate $RATE
	step_done
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
# loop VARIANT: ms from the gateway's first congested packet to the
# sample that cut: end to end, of the flow to the cut, on the ACK that
# brought the sample; with Reflex, of the episode the cut came from to
# its pseudo-ACK's coming (loop_ns; the pseudo-ACK that opens an episode
# carries the gateway's clock), which a spurious episode before the step
# does not stretch.
loop() {
	if [ "$1" = e2e ]; then
		tb_calc "($(field "$1" host first_cut_ns) - $(field "$1" gw first_pack_ns)) / 1e6"
	else
		tb_calc "$(field "$1" host loop_ns) / 1e6"
	fi
}
# fb_delay VARIANT: when a1 accepted its first pseudo-ACK, counted from
# the flow's first congested packet (none end to end).
fb_delay() {
	_fb=$(field "$1" host first_fb_ns)
	[ "$_fb" -gt 0 ] || { echo never; return; }
	echo "after $(tb_calc "($_fb - $(field "$1" gw first_pack_ns)) / 1e6") ms"
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
		"the first pseudo-ACK taken $(fb_delay $v)," \
		"the cut's sample waited $(tb_calc "$(field $v host cut_wait_ns) / 1e6") ms," \
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
