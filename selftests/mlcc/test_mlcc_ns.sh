#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# MLCC's near-source loop (issue 16 item 3; mlcc.md 3.3, 3.6, 4.1): DCI_s
# returns the records DC A's switch ports stamped to the sender as a
# Switch-INT and clears them before the WAN; the sender's host program
# runs HPCC's law on them into the flow's R_NS, and bpf_mlcc paces the
# socket at it.
#
# The two-DC topology with one 10 ms WAN link: a1's TCP flow to b1
# crosses tora:up0, a phantom port at 50 Mbit/s in INT mode (the
# bottleneck), then bora (DCI_s on its WAN port wan1 and its LAN port
# down0, from unod's [mlcc.dci]), the WAN, and torb:b1, a phantom port at
# 100 Mbit/s in INT mode. a1's side is unoctl mlcc sender, with R_line
# 100 Mbit/s. tora delays what it sends to a1 by 4 ms (netem): a
# near-source round trip RTT_NS of 4.5 ms, seven 4000-byte packets at the
# port's rate, the paper's intra-DC microseconds dilated as spec 5.7's
# EMU-A dilates them (some twenty packets). a1 computes its TCP checksums
# in software (tx off), so that b1 verifies the ports' and DCI_s's
# rewrites.
#
# Two runs on the same port, 6 s each after 3 s of warm-up:
#   cubic     the baseline: it fills the port's buffer. Its flow has no
#             near-source record (bpf_mlcc makes them), and a1 drops its
#             Switch-INTs.
#   bpf_mlcc  paced at R_NS: HPCC's eta = 0.95 holds the port near full
#             with no standing queue.
#
# Checked: b1's data segments carry one record only, torb's, at least 99
# % of them (DC A's was cleared); no TCP checksum error at b1; bora
# answered and cleared every segment with records that it forwarded; a1
# got at least 99 % of bora's Switch-INTs, took none for cubic's flow and
# one for at least 99 % of bpf_mlcc's segments, whose records go with
# their sockets; with bpf_mlcc the port's median backlog under a tenth of
# cubic's and its use at least 0.8 (eta = 0.95, less the pacing error of
# the host-clock VM the bound was set in), R_NS (the median of ten
# readings) at least 0.7 of the port's rate.
#
# In the icount VM, where it measured use 0.935 and R_NS 46.7 Mbit/s
# (eta x the port's 50). In the other, TCP's pacing timer fired late
# under TCG, so a socket paced at R sent less (43.5 Mbit/s at a median
# R_NS of 58), and on a busy host much less: CI measured use 0.74 with
# R_NS at the line rate.
# uno-vm: icount
# uno-timeout: 300
# uno-cost: 163
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"
. "$(dirname "$0")/lib_mlcc.sh"

RATE=50
LINE=100
LIMIT=1000000
TB_WAN_RTT=10
NS_DELAY_MS=4
GW=10.10.0.254

tb_twodc 1
TB_BOTTLENECK_NS=tora
TB_BOTTLENECK_DEV=up0

grep -q cgroup2 /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup ||
	tb_die "cannot mount cgroup2"
tb_exec a1 sysctl -qw net.ipv4.tcp_timestamps=0
tb_exec a1 ethtool -K eth0 tx off > /dev/null || tb_die "tx checksum off on a1"
tb_tc tora qdisc add dev a1 root netem delay ${NS_DELAY_MS}ms limit 100000 || tb_die "netem on tora:a1"
tb_tc torb qdisc add dev b1 root phantom rate ${LINE}mbit limit $LIMIT int on ||
	tb_die "phantom on torb:b1"

set -- $(tb_rtt a1 $GW 10)
rtt_ns_us=$(tb_calc "int($1 * 1000 + 0.5)")
tb_log "RTT_NS (a1-bora, idle) $rtt_ns_us us"

$UNOCTL mlcc attach cgroup /sys/fs/cgroup remote 10.200.0.0/16 rtt-d-us 10000 ||
	tb_die "unoctl mlcc attach"
# DCI_s from the one config plane: unod --once in bora, [mlcc.dci]
printf '[mlcc.dci]\nlan = "down0"\nwan = ["wan1"]\n' > "$TB_RUN/bora.toml"
nsenter --net="/run/netns/$(tb_ns bora)" "$UNOD" --once -c "$TB_RUN/bora.toml" \
	2>> "$OUT_DIR/unod.log" || tb_die "unod --once in bora: $(cat "$OUT_DIR/unod.log")"
tb_check dci_from_unod "$(at bora -j mlcc show | jq -r '.near_source[0].addr' | grep -c "^$GW$")" == 1
at a1 mlcc sender dev eth0 dci $GW line-mbps $LINE rtt-ns-us "$rtt_ns_us" ||
	tb_die "unoctl mlcc sender"
$UNOCTL cc bpf register mlcc || tb_die "unoctl cc bpf register mlcc"
tb_check sender_rtt_ns_us "$(at a1 -j mlcc show | jq '.near_source[] | select(.role == "sender") | .rtt_ns_us')" \
	== "$rtt_ns_us"

# counter NS ROLE NAME: a near-source role's counter in NS.
counter() {
	at "$1" -j mlcc show | jq ".near_source[] | select(.role == \"$2\") | .counters.$3"
}

# record PORT: a1's near-source record of its flow to PORT.
record() {
	at a1 -j mlcc show | jq "[.near_source[] | select(.role == \"sender\") | .flows[] |
		select(.dst | endswith(\":$1\"))] | max_by(.taken)"
}

tb_qdisc_sampler tora up0 0.2
# run CC: a1's flow with CC over a window, then what b1 received of it
# (the cgroup's record, machine-wide), R_NS for bpf_mlcc, and the port's
# backlog; a1's Switch-INTs taken while it ran in TAKEN.
run() {
	tb_tc tora qdisc del dev up0 root 2>/dev/null
	tb_bottleneck_phantom $RATE limit $LIMIT int on
	_taken=$(counter a1 sender swint_taken)
	tb_flow a1 "$1" 0
	TB_RESULT=$1 tb_measure 3 6
	_port=$(awk '{ p = $5 } END { print p }' "$TB_RUN/flows")
	$UNOCTL -j mlcc show |
		jq "[.flows[] | select(.dst | endswith(\":$_port\"))] | max_by(.segs)" \
		> "$OUT_DIR/rx-$1.json"
	[ "$1" = bpf_mlcc ] && mlcc_rate_median "$1" record "$_port"
	tb_flows_stop
	TAKEN=$(($(counter a1 sender swint_taken) - _taken))
	tb_log "$1: $TB_TOTAL Mbit/s, backlog p50 $(jq .backlog_p50_bytes "$OUT_DIR/$1.json") B;" \
		"b1 $(jq -c '{segs, opts, nhop}' "$OUT_DIR/rx-$1.json"); a1 took $TAKEN Switch-INTs"
}

csum0=$(mlcc_csum_errors b1)
run cubic
tb_check cubic:no_record_taken "$TAKEN" == 0
run bpf_mlcc
tb_check bpf_mlcc:taken "$TAKEN" ">=" "$(jq '.segs * 0.99' "$OUT_DIR/rx-bpf_mlcc.json")"
$UNOCTL cc bpf unregister mlcc || tb_die "unoctl cc bpf unregister mlcc"
# records: how many near-source records there are, machine-wide
records() { at a1 -j mlcc show | jq '[.near_source[] | select(.role == "sender") | .flows[]] | length'; }
mlcc_check_records_gone records

for cc in cubic bpf_mlcc; do
	rx=$OUT_DIR/rx-$cc.json
	tb_check "$cc:segs" "$(jq .segs "$rx")" ">" 1000
	tb_check "$cc:one_record" "$(jq '.nhop[1] / .segs' "$rx")" ">=" 0.99
	tb_check "$cc:record_is_torb" "$(jq '.hops[0].rate_bps' "$rx")" "==" $((LINE * 1000000))
done
tb_check checksum_errors "$(($(mlcc_csum_errors b1) - csum0))" == 0

data=$(counter bora dci dci_data)
tb_log "bora: $(at bora -j mlcc show | jq -c '.near_source[] | select(.role == "dci") | .counters')"
tb_log "a1: $(at a1 -j mlcc show | jq -c '.near_source[] | select(.role == "sender") | .counters')"
tb_check dci_forwarded_records "$data" ">=" "$(jq -s 'map(.segs) | add' "$OUT_DIR"/rx-*.json)"
tb_check dci_cleared_all "$(counter bora dci dci_cleared)" == "$data"
tb_check dci_answered_all "$(counter bora dci swint_built)" == "$data"
# every one reached a1: taken (bpf_mlcc's), or dropped (cubic's: no record)
tb_check sender_got "$(($(counter a1 sender swint_taken) + $(counter a1 sender swint_no_flow)))" \
	">=" "$(tb_calc "$data * 0.99")"
tb_check sender_malformed "$(counter a1 sender swint_malformed)" == 0

p50() { jq .backlog_p50_bytes "$OUT_DIR/$1.json"; }
# cubic's sawtooth in a 1 MB buffer (160 ms) keeps a standing queue, at
# least the path's BDP (0.35-0.83 MB in the runs that set these bounds)
bdp=$((RATE * 125000 * (TB_WAN_RTT * 1000 + rtt_ns_us) / 1000000))
tb_check cubic_keeps_a_queue "$(p50 cubic)" ">=" $bdp
tb_check bpf_mlcc:backlog_p50 "$(p50 bpf_mlcc)" "<=" "$(($(p50 cubic) / 10))"
tb_check bpf_mlcc:utilisation "$(jq .utilisation "$OUT_DIR/bpf_mlcc.json")" ">=" 0.8
# R_NS from the line rate down to about the port's (above it by what a
# late pacer loses, in the host-clock VM: 30 of 100 Mbit/s at 1500-byte
# packets, hence this test's 4000). No upper bound: a stall that leaves
# the port idle for a round drives U near 0, and HPCC's multiplicative
# step (R_c eta / U) to the line rate (4 of 10 readings in one run there),
# whence the next round's U brings it down.
tb_check bpf_mlcc:r_ns "$MLCC_RATE" ">=" $((RATE * 700000))

at bora mlcc detach dci || tb_die "unoctl mlcc detach dci"
at a1 mlcc detach sender || tb_die "unoctl mlcc detach sender"
tb_check detached "$(at a1 -j mlcc show | jq '.near_source | length')" == 0
tb_check detached_filters "$(tb_tc bora filter show dev wan1 egress | grep -c bpf)" == 0
$UNOCTL mlcc detach || tb_die "unoctl mlcc detach"
tb_exit
