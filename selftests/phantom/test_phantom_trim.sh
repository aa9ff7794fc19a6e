#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Trimming (SMaRTT Sec. III-D; the DSCP is ours): the phantom qdisc at
# 50 Mbit/s (less where ph_port_rate says so, with phases as much longer)
# with a 200 KB real queue and trim 64, marking off, fed by a paced ECT(0)
# UDP source. (At 100 Mbit/s a 2 GHz host's TCG VM, capturing every
# packet, sent about 1.03 x the rate where 1.5 x was asked, and the queue
# seldom filled.)
#
#  * at 0.5 x rate the queue never fills: nothing is trimmed or dropped;
#  * at 1.5 x rate it fills, and each packet that does not fit is cut to
#    64 bytes of IP, tagged DSCP 0x3e and sent ahead of the queued data.
#
# A tcpdump in the bottleneck's namespace sees every packet arrive at the
# port and leave the qdisc. From it: trims happen only when the real queue
# is full (its backlog, replayed from the capture, plus the packet exceeds
# the limit); a trimmed header leaves before the data packets that arrived
# before it and were still queued (it overtakes about a full queue, limit /
# frame = 50 packets) and spends far less time in the qdisc than they do;
# trimmed headers carry the DSCP and the length they should; and the
# qdisc's xstats count what the wire shows. The port's virtual PFC, X_off
# half the queue, counts as many pauses as the replayed backlog makes:
# rises above X_off, each after a fall to X_on, two packets of the MTU
# below.
# uno-vm: icount
# uno-timeout: 240
# uno-cost: 120
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_phantom.sh"

LEN=3900
tb_dumbbell 1 0
ph_port_rate 50 1.5		# RATE (Mbit/s), C (bytes/s)
LIMIT=200000
TRIM=64
DSCP=62				# 0x3e, the default trim-dscp
FRAME=$((LEN + 42))
FULL_PKTS=$((LIMIT / FRAME))
XOFF=$((LIMIT / 2))
XON=$((XOFF - 2 * (TB_MTU + 14)))	# psched_mtu(): MTU and Ethernet header


# phase NAME FACTOR SECONDS: as in test_phantom_marking.sh.
phase() {
	ph_udp_phase "$1" "$2" "$3" limit $LIMIT ecn-min $LIMIT ecn-max $LIMIT phantom-size 0 \
		trim $TRIM xoff $XOFF
}

# Per capture: packets trimmed on the wire, how full the real queue was
# when each arrived, the pauses its backlog made, how many queued data
# packets each overtook, and the time trimmed headers and data spent in
# the qdisc; as JSON.
analyse() {
	awk -v limit=$LIMIT -v dscp=$DSCP -v trim=$TRIM -v xoff=$XOFF -v xon=$XON '
	{ t[NR] = $1; dir[NR] = $2; sq[NR] = $3
	  if ($2 == 0) tin[$3] = $1
	  else { tout[$3] = $1; tos[$3] = $4; len[$3] = $5; outlen[$3] = $5 }
	  if ($2 == 0) inlen[$3] = $5
	  if ($3 > maxs) maxs = $3 }
	# phantom_xoff_update(): a pause when the backlog rises above xoff,
	# another only after it fell to xon
	function pfc(q) {
		if (paused) { if (q <= xon) paused = 0 }
		else if (q > xoff) { paused = 1; pauses++ }
	}
	# The median of a[1..n], from an even sample of at most 501 of them
	# (an insertion sort: busybox awk has none, and TCG is slow).
	function median(a, n,   i, j, v, m, b, step) {
		step = n > 501 ? n / 501 : 1
		for (i = 1; i <= n; i += step) b[++m] = a[int(i)]
		for (i = 2; i <= m; i++) {
			v = b[i]
			for (j = i - 1; j >= 1 && b[j] > v; j--) b[j + 1] = b[j]
			b[j + 1] = v
		}
		return m ? b[int((m + 1) / 2)] : 0
	}
	END {
		for (s in tout) {
			if (int(tos[s] / 4) == dscp) {
				trimmed[s] = 1; nt++
				if (len[s] != trim) badlen++
				if (tos[s] % 4 != 2) badecn++
			}
		}
		# Replay the real queue: data bytes in it at each arrival.
		minfill = 1e9; backlog = 0
		for (i = 1; i <= NR; i++) {
			s = sq[i]
			if (!(s in tout)) continue	# lost: never left
			if (dir[i] == 0) {
				if (s in trimmed) {
					f = (backlog + inlen[s] + 14) / limit
					if (f < minfill) minfill = f
				} else {
					backlog += inlen[s] + 14
					pfc(backlog)
				}
			} else if (!(s in trimmed)) {
				backlog -= outlen[s] + 14
				pfc(backlog)
			}
		}
		# Data packets in sequence order: FIFO, so their departure
		# times increase too.
		nd = 0
		for (s = 0; s <= maxs; s++)
			if ((s in tout) && !(s in trimmed)) { nd++; ds[nd] = s; dt[nd] = tout[s]
				dsj[nd] = tout[s] - tin[s] }
		k = 0
		for (s = 0; s <= maxs; s++) {
			if (!(s in trimmed)) continue
			# data with seq < s: lo; of those, left at or before tout[s]: hi
			lo = 0; a = 1; b = nd
			while (a <= b) { m = int((a + b) / 2); if (ds[m] < s) { lo = m; a = m + 1 } else b = m - 1 }
			hi = 0; a = 1; b = lo
			while (a <= b) { m = int((a + b) / 2); if (dt[m] <= tout[s]) { hi = m; a = m + 1 } else b = m - 1 }
			k++; over[k] = lo - hi; tsj[k] = tout[s] - tin[s]
		}
		mo = median(over, k); mt = median(tsj, k); md = median(dsj, nd)
		printf "{\"data_packets\":%d,\"trimmed_on_wire\":%d,\"bad_trim_length\":%d,", nd, nt, badlen
		printf "\"bad_trim_ecn\":%d,\"min_queue_fill_at_trim\":%s,", badecn, nt ? minfill : "null"
		printf "\"xoff_pauses\":%d,", pauses
		printf "\"median_overtaken\":%d,\"median_trim_sojourn_s\":%.6f,", mo, mt
		printf "\"median_data_sojourn_s\":%.6f}\n", md
	}' "$TB_RUN/$1.pkts" > "$OUT_DIR/$1.json"
}

phase below 0.5 3
analyse below
q=$TB_RUN/below.qdisc.json
tb_log "0.5 x rate: $(jq -c '{trimmed, tail_drops, drops, max_backlog}' "$q")"
tb_check below_trimmed "$(jq .trimmed "$q")" "==" 0
tb_check below_trimmed_on_wire "$(jq .trimmed_on_wire "$OUT_DIR/below.json")" "==" 0
tb_check below_drops "$(jq .drops "$q")" "==" 0
tb_check below_max_backlog "$(jq .max_backlog "$q")" "<" $LIMIT
tb_check below_xoff_events "$(jq .xoff_events "$q")" "==" "$(jq .xoff_pauses "$OUT_DIR/below.json")"

phase full 1.5 3
analyse full
q=$TB_RUN/full.qdisc.json
r=$OUT_DIR/full.json
tb_log "1.5 x rate: $(jq -c '{trimmed, trim_drops, tail_drops, drops, max_backlog}' "$q")"
tb_log "wire: $(cat "$r")"
trimmed=$(jq .trimmed "$q")
tb_check full_trimmed "$trimmed" ">" 1000
tb_check trimmed_xstats_minus_wire "$((trimmed - $(jq .trimmed_on_wire "$r")))" "==" 0
tb_check full_tail_drops "$(jq .tail_drops "$q")" "==" 0
tb_check full_trim_drops "$(jq .trim_drops "$q")" "==" 0
tb_check full_max_backlog "$(jq .max_backlog "$q")" ">" $((LIMIT - FRAME))
tb_check full_max_backlog_limit "$(jq .max_backlog "$q")" "<=" $LIMIT
tb_log "virtual PFC: $(jq .xoff_events "$q") pauses, $(jq .xoff_pauses "$r") on the wire"
tb_check full_xoff_events "$(jq .xoff_events "$q")" ">=" 1
tb_check xoff_events_minus_wire "$(($(jq .xoff_events "$q") - $(jq .xoff_pauses "$r")))" "==" 0
# The capture sees packets arrive in the order the qdisc enqueues them
# (ph_udp), so the replayed backlog is the qdisc's own: a packet is
# trimmed only if it would take the queue past the limit.
tb_check min_queue_fill_at_trim "$(jq .min_queue_fill_at_trim "$r")" ">" 1
tb_check trim_ip_length_not_64 "$(jq .bad_trim_length "$r")" "==" 0
tb_check trim_ecn_not_ect0 "$(jq .bad_trim_ecn "$r")" "==" 0
tb_check median_data_overtaken "$(jq .median_overtaken "$r")" ">=" $((FULL_PKTS * 8 / 10))
tb_check trim_over_data_sojourn "$(tb_calc "$(jq .median_trim_sojourn_s "$r") / \
	$(jq .median_data_sojourn_s "$r")")" "<" 0.1

jq -n --slurpfile below "$OUT_DIR/below.json" --slurpfile full "$r" \
	--slurpfile qb "$TB_RUN/below.qdisc.json" --slurpfile qf "$q" \
	--argjson limit $LIMIT --argjson trim $TRIM --argjson full_pkts $FULL_PKTS \
	'{limit: $limit, trim: $trim, queue_full_packets: $full_pkts,
	  below: ($below[0] + {qdisc: $qb[0]}), full: ($full[0] + {qdisc: $qf[0]})}' \
	> "$OUT_DIR/results.json"
tb_exit
