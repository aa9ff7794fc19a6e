#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# HPCC end to end on MLCC's INT (issue 16 item 5; mlcc.md 3.6, 7.16: the
# intra-DC flows' CC, and the HPCC baseline): the receiver echoes the
# records the switch ports stamped in each pure ACK (ACK_E), the sender's
# sockops program runs HPCC's law on each echo into the flow's rate
# record, and bpf_mlcc paces the socket at it.
#
# The dumbbell with one sender: h1's TCP flow to rcv crosses tor:p0, a
# phantom port at 50 Mbit/s in INT mode (the bottleneck). tor delays what
# it sends to h1 by 4 ms (netem): a base RTT of about 4.5 ms, seven
# 4000-byte packets at the port's rate, an intra-DC round trip dilated
# as test_mlcc_ns.sh's near-source one is. unod attaches the sockops
# program ([mlcc] with hpcc-line-mbps 100); HPCC's T is the flow's base
# RTT, which bpf_mlcc keeps in the flow's record.
# h1 sends with TCP timestamps off and computes its TCP checksums in
# software (tx off), so that rcv verifies the port's rewrites.
#
# Two runs on the same port, 6 s each after 3 s of warm-up:
#   cubic     the baseline: it fills the port's buffer. Its socket has no
#             rate record (bpf_mlcc makes them): h1 ignores its echoes.
#   bpf_mlcc  paced at HPCC's rate: eta = 0.95 holds the port near full
#             with no standing queue.
#
# Checked: rcv's data segments carry one record, the port's, at least 99
# % of them; no TCP checksum error at rcv; h1 took or ignored (no record)
# at least 99 % of the echoes rcv wrote, none malformed, none for cubic's
# flow; with bpf_mlcc the port's median backlog under a tenth of cubic's
# and its use at least 0.8 (eta = 0.95, less the VM's pacing error), the
# rate (the median of ten readings) at least 0.7 of the port's, and the
# flow's record gone with its socket.
# uno-timeout: 300
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"
. "$(dirname "$0")/lib_mlcc.sh"

RATE=50
LINE=100
LIMIT=1000000
DELAY_MS=4

tb_dumbbell 1 0

grep -q cgroup2 /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup ||
	tb_die "cannot mount cgroup2"
tb_exec h1 sysctl -qw net.ipv4.tcp_timestamps=0
tb_exec h1 ethtool -K eth0 tx off > /dev/null || tb_die "tx checksum off on h1"
tb_tc tor qdisc add dev h1 root netem delay ${DELAY_MS}ms limit 100000 || tb_die "netem on tor:h1"

set -- $(tb_rtt h1 "$TB_RCV_ADDR" 10)
rtt_us=$(tb_calc "int($1 * 1000 + 0.5)")
tb_log "base RTT (h1-rcv, idle) $rtt_us us"

# The one config plane: unod --once, [mlcc] with HPCC's settings.
printf '[mlcc]\ncgroup = "/sys/fs/cgroup"\nhpcc-line-mbps = %s\n' "$LINE" \
	> "$TB_RUN/unod.toml"
"$UNOD" --once -c "$TB_RUN/unod.toml" 2>> "$OUT_DIR/unod.log" ||
	tb_die "unod --once: $(cat "$OUT_DIR/unod.log")"
tb_check hpcc_line "$($UNOCTL -j mlcc show | jq .hpcc.line_bps)" == $((LINE * 1000000))
$UNOCTL cc bpf register mlcc || tb_die "unoctl cc bpf register mlcc"

counter() { $UNOCTL -j mlcc show | jq ".counters.$1"; }

# record PORT: h1's rate record of its flow to PORT.
record() {
	$UNOCTL -j mlcc show | jq "[.hpcc.flows[] | select(.dst | endswith(\":$1\"))] | max_by(.taken)"
}

tb_qdisc_sampler tor p0 0.2
# run CC: h1's flow with CC over a window, then what rcv received of it,
# the rate for bpf_mlcc, and the echoes written (WRITTEN), taken (TAKEN)
# and ignored for want of a record (NO_FLOW) while it ran.
run() {
	tb_tc tor qdisc del dev p0 root 2>/dev/null
	tb_bottleneck_phantom $RATE limit $LIMIT int on
	_w=$(counter echo_written) _t=$(counter echo_taken) _n=$(counter echo_no_flow)
	tb_flow h1 "$1" 0
	TB_RESULT=$1 tb_measure 3 6
	_port=$(awk '{ p = $5 } END { print p }' "$TB_RUN/flows")
	$UNOCTL -j mlcc show |
		jq "[.flows[] | select(.dst | endswith(\":$_port\"))] | max_by(.segs)" \
		> "$OUT_DIR/rx-$1.json"
	[ "$1" = bpf_mlcc ] && mlcc_rate_median "$1" record "$_port"
	tb_flows_stop
	WRITTEN=$(($(counter echo_written) - _w))
	TAKEN=$(($(counter echo_taken) - _t))
	NO_FLOW=$(($(counter echo_no_flow) - _n))
	tb_log "$1: $TB_TOTAL Mbit/s, backlog p50 $(jq .backlog_p50_bytes "$OUT_DIR/$1.json") B;" \
		"rcv $(jq -c '{segs, opts, nhop}' "$OUT_DIR/rx-$1.json");" \
		"echoes written $WRITTEN, taken $TAKEN, no record $NO_FLOW"
	tb_check "$1:echoes_arrive" "$((TAKEN + NO_FLOW))" ">=" "$(tb_calc "$WRITTEN * 0.99")"
}

csum0=$(mlcc_csum_errors rcv)
run cubic
tb_check cubic:echoes_written "$WRITTEN" ">" 1000
tb_check cubic:none_taken "$TAKEN" == 0
run bpf_mlcc
# iperf3's control connection runs bpf_mlcc too: most, not all, are the
# data flow's
tb_check bpf_mlcc:echoes_taken "$TAKEN" ">=" "$(tb_calc "$WRITTEN * 0.9")"
tb_check bpf_mlcc:flow_took "$(jq .taken "$OUT_DIR/rec-bpf_mlcc.json")" ">" 1000
tb_check bpf_mlcc:commits "$(jq .commits "$OUT_DIR/rec-bpf_mlcc.json")" ">" 100
# T: TCP's min RTT, the idle RTT give or take the VM's jitter
tb_check bpf_mlcc:base_rtt_us "$(jq .base_rtt_us "$OUT_DIR/rec-bpf_mlcc.json")" "<=" \
	"$(tb_calc "$rtt_us * 1.1")"
tb_check bpf_mlcc:base_rtt_us_low "$(jq .base_rtt_us "$OUT_DIR/rec-bpf_mlcc.json")" ">=" \
	"$(tb_calc "$rtt_us * 0.8")"
tb_check bpf_mlcc:echoed_port "$(jq '.hops[0].rate_bps' "$OUT_DIR/rec-bpf_mlcc.json")" \
	== $((RATE * 1000000))
$UNOCTL cc bpf unregister mlcc || tb_die "unoctl cc bpf unregister mlcc"
records() { $UNOCTL -j mlcc show | jq '.hpcc.flows | length'; }
mlcc_check_records_gone records

for cc in cubic bpf_mlcc; do
	rx=$OUT_DIR/rx-$cc.json
	tb_check "$cc:segs" "$(jq .segs "$rx")" ">" 1000
	tb_check "$cc:one_record" "$(jq '.nhop[1] / .segs' "$rx")" ">=" 0.99
done
tb_check checksum_errors "$(($(mlcc_csum_errors rcv) - csum0))" == 0
tb_check echo_malformed "$(counter echo_malformed)" == 0
tb_log "counters: $($UNOCTL -j mlcc show | jq -c .counters)"

p50() { jq .backlog_p50_bytes "$OUT_DIR/$1.json"; }
# cubic's sawtooth in a 1 MB buffer (160 ms) keeps a standing queue, at
# least the path's BDP
bdp=$((RATE * 125000 * rtt_us / 1000000))
tb_check cubic_keeps_a_queue "$(p50 cubic)" ">=" $bdp
tb_check bpf_mlcc:backlog_p50 "$(p50 bpf_mlcc)" "<=" "$(($(p50 cubic) / 10))"
tb_check bpf_mlcc:utilisation "$(jq .utilisation "$OUT_DIR/bpf_mlcc.json")" ">=" 0.8
# The rate from the line rate down to about the port's, and above it by
# what the VM's pacer loses (test_mlcc_ns.sh: TCP's pacing timer fires
# late under TCG); no upper bound, as a VM stall that idles the port for
# a round sends it to the line rate (HPCC's R_c eta / U with U near 0).
tb_check bpf_mlcc:rate "$MLCC_RATE" ">=" $((RATE * 700000))

$UNOCTL mlcc detach || tb_die "unoctl mlcc detach"
tb_check detached "$($UNOCTL -j mlcc show | jq .attached)" == false
tb_exit
