#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# RC2 (SMaRTT Sec. III-D and Fig. 7, its spec's 11.4; issue 13): UnoRC's
# trim reaction in an incast. Eight UnoRC senders each send one message
# of one intra-DC BDP at once into the receiver's port, ROUNDS times,
# 400 ms apart; first from the intra-DC senders (no code: per-packet ACKs
# and the RTO), then from the inter-DC ones (the (8+2) code), each an
# UnoRC flow of its own (unoperf --transport unorc). The port is the
# SMaRTT paper's switch: a buffer of one intra-DC BDP, ECN from 20 % to
# 80 % of it, the phantom queue off; for variant unorc-trim it trims what
# the full buffer cannot take to its IPv4, UDP and UnoRC headers (trim 68
# trim-udp valid: a valid datagram with the trim DSCP, sent ahead of the
# data), which the receiver NACKs at once and the sender resends at once;
# for unorc-drop it drops it (tail drop), and the code, the NACK timer
# and the RTO repair. Both variants in the same run, the same messages.
#
# Checked: every message complete and byte-exact; the trimming port
# trimmed, the receiver took the headers as trims (none dropped as
# truncated) and the senders got TRIMMED NACKs; the tail-drop port
# dropped and trimmed nothing. Claimed (hard in the full profile), per
# class: with trimming the median incast completes no later, and the p99
# message FCT is no higher; for the intra-DC incast, whose losses only the
# RTO repairs without trimming, the median incast completes sooner by one
# RTO +- 50 % (SMaRTT's 11.4: S <= 1 BDP; its RTO is 7 base RTTs, six of
# them the queues of its multi-hop paths, where ours, the base RTT plus
# the drain of this path's one buffer, is two).
#
# UnoRC's timers follow the spec (6.2, 6.3) as in RC1, for this buffer:
# ec_wait the buffer's drain plus one block at C, the RTO each class's
# mean idle RTT plus the drain. The shaper's bucket holds two packets,
# where the evaluation's other ports hold 16 (Documentation/testing.rst):
# a full bucket after each round's idle would let 16 packets, more than
# this buffer, pass the port at once.
# uno-vm: icount
# uno-timeout: 300
# uno-cost: 132
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_eval.sh"
. "$(dirname "$0")/lib_rc.sh"

N=8
ROUNDS=$(ev_pick 5 30)
GAP_US=400000
TRIM=68				# IPv4 20 + UDP 8 + UnoRC 40: the whole header

tb_dumbbell $N $N
ev_init RC2
BDP=$((EV_C / 1000 * EV_INTRA_US / 1000))
LIMIT=$BDP
[ "$LIMIT" -ge $((2 * TB_MTU)) ] || LIMIT=$((2 * TB_MTU))
SIZE=$BDP
rc_timers "$LIMIT"
tb_log "BDP $BDP B, buffer $LIMIT B, ec_wait $RC_EC_WAIT_US us, RTO $RC_RTO_INTRA_US / $RC_RTO_INTER_US us"
RC_CODE_OPTS="--inter-prefix 10.3.0.0/16"

rc2_port() {
	$TC -n "$(tb_ns "$TB_BOTTLENECK_NS")" qdisc del dev "$TB_BOTTLENECK_DEV" root 2>/dev/null
	set -- limit $LIMIT ecn-min $((LIMIT / 5)) ecn-max $((LIMIT * 4 / 5)) phantom-size 0 \
		burst $((2 * TB_MTU))
	case "$EV_VARIANT" in
	unorc-trim) tb_bottleneck_phantom $EV_RATE "$@" trim $TRIM trim-udp valid ;;
	*) tb_bottleneck_phantom $EV_RATE "$@" ;;
	esac
}
EV_PORT_FN=rc2_port

for cls in intra inter; do
	case $cls in
	intra) p=h rto=$RC_RTO_INTRA_US rtt=$EV_INTRA_US ;;
	*) p=w rto=$RC_RTO_INTER_US rtt=$EV_INTER_US ;;
	esac
	senders=$(i=1; while [ $i -le $N ]; do printf '%s%d ' $p $i; i=$((i + 1)); done)
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		for s in $senders; do
			echo "ns=$(tb_ns "$s"),size=$SIZE,start=$((r * GAP_US)),class=$cls,base_rtt=$rtt"
		done
		r=$((r + 1))
	done > "$TB_RUN/messages"
	ideal=$(tb_calc "$N * $SIZE * 8 / ($EV_RATE * 1000) + $rtt / 1000")
	for v in $(ev_variants unorc-trim unorc-drop); do
		ev_begin "$v" "$v@$cls"
		# shellcheck disable=SC2086
		rc_messages "$TB_RUN/messages" "$rto" $senders
		# Each round's incast: from its first message's start to its
		# last message's end.
		jq -r --argjson ideal "$ideal" '
			def pct($p): sort | if length > 0 then .[(length * $p | ceil) - 1] else null end;
			[group_by(.offset_us)[] | select(all(.ok)) |
			 (map(.end_ns) | max) - (map(.start_ns) | min) | . / 1e6] |
			"rounds_complete \(length)", "done_ms_p50 \(pct(0.5))",
			"done_ms_max \(max)", "ideal_ms \($ideal)",
			"done_over_ideal \(if length > 0 then pct(0.5) / $ideal else null end)"' \
			"$TB_RUN/flows.json" >> "$TB_RUN/metrics"
		ev_metric port_tail_drops "$(tb_qdisc_counter tor p0 tail_drops)"
		ev_metric port_trim_drops "$(tb_qdisc_counter tor p0 trim_drops)"
		ev_end
		rc_check_complete $((N * ROUNDS))
		m=$TB_RUN/ev-$EV_LABEL.json
		if [ "$v" = unorc-trim ]; then
			ev_check port_trims "$(jq .metrics.trims "$m")" ">" 0
			ev_check server_trims "$(jq .metrics.server_trims "$m")" ">" 0
			ev_check trim_nacks "$(jq .metrics.trim_nacks "$m")" ">" 0
			ev_check truncated "$(jq .metrics.truncated "$m")" "==" 0
		else
			ev_check port_trims "$(jq .metrics.trims "$m")" "==" 0
			ev_check port_drops "$(jq .metrics.drops "$m")" ">" 0
		fi
	done
	t=unorc-trim@$cls d=unorc-drop@$cls
	if [ ! -f "$TB_RUN/ev-$t.json" ] || [ ! -f "$TB_RUN/ev-$d.json" ]; then
		continue
	fi
	rc_add_metric "$t" done_gain_over_drop "$(rc_ratio "$d" "$t" done_ms_p50)"
	rc_add_metric "$t" p99_gain_over_drop "$(rc_ratio "$d" "$t" p99_fct_ms)"
	gap=$(jq -n --slurpfile t "$TB_RUN/ev-$t.json" --slurpfile d "$TB_RUN/ev-$d.json" \
		--argjson rto "$rto" '$t[0].metrics.done_ms_p50 as $a | $d[0].metrics.done_ms_p50 as $b |
		if $a == null or $b == null then null else ($b - $a) / ($rto / 1000) end')
	rc_add_metric "$t" done_gap_over_rto "$gap"
	EV_LABEL=$t
	m=$TB_RUN/ev-$t.json
	ev_claim done_gain_over_drop "$(jq .metrics.done_gain_over_drop "$m")" ">=" 1
	ev_claim p99_gain_over_drop "$(jq .metrics.p99_gain_over_drop "$m")" ">=" 1
	if [ $cls = intra ]; then
		ev_claim done_gap_over_rto "$gap" ">=" 0.5
		ev_claim done_gap_over_rto_max "$gap" "<=" 1.5
	fi
done
# The setting ev_finish records: this scenario's port.
EV_LIMIT=$LIMIT EV_PQ_SIZE=0
ev_finish "$N-to-1 incasts of UnoRC messages of $SIZE B (one intra-DC BDP), intra-DC (no code) and inter-DC (8+2), $ROUNDS rounds $((GAP_US / 1000)) ms apart, into a $LIMIT B buffer with trimming and with tail drop." \
	'[{"metric":"done_ms_p50","paper":"SMaRTT (Sec. III-D, Fig. 7): a trim is NACKed within 1/2-1 base RTT where a timeout takes about 7; incasts of messages up to a BDP finish about one RTO sooner","ours":"trim no later than tail drop (median incast, p99 FCT); intra-DC: sooner by 0.5-1.5 RTO"}]' \
	'[["messages","messages"],["done_ms_p50","incast done ms (median)"],["done_ms_max","max"],
	  ["ideal_ms","ideal ms"],["done_over_ideal","median / ideal"],["p50_fct_ms","p50 FCT ms"],
	  ["p99_fct_ms","p99 FCT ms"],["mean_fct_ms","mean FCT ms"],
	  ["done_gain_over_drop","incast gain over drop"],["done_gap_over_rto","gap / RTO"],
	  ["trims","port trims"],["drops","port drops"],["trim_nacks","TRIMMED NACKs"],
	  ["nacks","NACKs"],["retransmissions","resent packets"],["rto_events","RTO events"],
	  ["decoded_blocks","blocks decoded"],["duplicates","duplicates"],["socket_drops","server socket drops"],
	  ["sender_no_port","replies to a port left"],
	  ["mismatched_bytes","bytes wrong"]]'
