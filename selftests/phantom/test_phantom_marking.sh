#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Phantom marking (Uno Sec. 4.1.3) against a constant-rate ECT(0) UDP source
# (iperf3 -u --tos 2, paced by a tbf on the sender: see ph_pacer) through
# the phantom qdisc at 50 Mbit/s (less where ph_port_rate says so, with
# phases as much longer: at 100 a 2 GHz host's TCG VM, capturing every
# packet, delivered 0.73-0.85 of the 1.05 x rate asked), with the
# real-queue ramp off (ecn-min/ecn-max at the limit), a 2 MB phantom queue
# draining at 90 % of the rate and its ramp from 25 % to 75 % (500 KB to
# 1.5 MB):
#
#  * at 0.85 x rate the counter drains faster than it fills: no marks;
#  * at 1.05 x rate it fills at (arrival - 0.9 x rate), 0.15 x rate, so
#    marks begin after the fill time t_fill = phantom-min /
#    (arrival - phantom-rate x rate), about 530 ms, and the CE fraction
#    then rises along the ramp to 1 at about 1.6 s (5.3 bins of BIN
#    whatever the rate; times scale as 50 Mbit/s / rate). (The source is paced
#    at 1.05, not 1.0: under TCG the pacer delivers up to 2 % less than
#    asked, and at 1.0 the counter may not grow at all. The 4 MB limit
#    holds the real queue that this builds over 3 s.) No mark may come
#    before the counter replayed from the observed arrivals reaches
#    phantom-min, nor before the closed form's fill time taken with the
#    arrival rate measured up to it (not over the whole run: under TCG
#    the pacer's rate drifts by several percent within a run, and the
#    mean over 3 s then misplaces the onset by 20 %). Nor may the first
#    mark come later than the replay allows: packets marked independently
#    with their ramp probabilities p leave the first mark past a point
#    with chance exp(-sum of p before it), so the p the replay sums before
#    the first mark must stay under ln 1000. (A bound on the delay itself,
#    50 ms at 100 Mbit/s, failed on a busy CI host with nothing wrong: the
#    source stalled just as the counter touched phantom-min, the replayed
#    ramp stayed near 0 (0.0003 over the next 250 ms), and the first mark
#    came 0.35 s after the replayed onset with 0.1 marks expected before.)
#
# A tcpdump in the bottleneck's namespace gives each packet's arrival time
# at the port and its departure time from the qdisc, with its ECN bits.
# The expected mark probability of each packet is the ramp at the phantom
# level that the observed arrivals produce at its departure (the counter
# replayed from the arrival times), so the comparison does not depend on
# the source keeping a perfectly even pace.
# uno-vm: icount
# uno-timeout: 300
# uno-cost: 97
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_phantom.sh"

LEN=3900			# UDP payload; frame = LEN + 8 + 20 + 14
tb_dumbbell 1 0
ph_port_rate 50 1.05		# RATE (Mbit/s), C (bytes/s)
PQ_SIZE=2000000
PQ_MIN_PCT=25
PQ_MAX_PCT=75
PQ_RATE_PCT=90
BIN=$(tb_calc "10 / $RATE")	# s, for the CE fraction over time: 300 packets

KMIN=$((PQ_SIZE * PQ_MIN_PCT / 100))
KMAX=$((PQ_SIZE * PQ_MAX_PCT / 100))
DRAIN=$((C * PQ_RATE_PCT / 100))


# phase NAME FACTOR SECONDS: a fresh qdisc, FACTOR x rate on the wire for
# SECONDS, captured at the port; leaves the qdisc's counters in
# $TB_RUN/NAME.qdisc.json and the packets in $TB_RUN/NAME.pkts.
phase() {
	ph_udp_phase "$1" "$2" "$3" limit 4000000 ecn-min 4000000 ecn-max 4000000 \
		phantom-rate $PQ_RATE_PCT% phantom-size $PQ_SIZE \
		phantom-min $KMIN phantom-max $KMAX
	tb_check "${1}_packets_lost" "$(awk '{ n[$2]++ } END { print n[0] - n[1] }' \
		"$TB_RUN/$1.pkts")" "==" 0
}

# The counter replayed from the observed arrival times; per departing
# packet the expected mark probability, then per BIN of departure time
# the measured and expected CE fractions, as JSON.
analyse() {
	awk -v drain=$DRAIN -v size=$PQ_SIZE -v kmin=$KMIN -v kmax=$KMAX -v bin=$BIN '
	function level(t) {	# drain the counter up to t
		if (t > last) { pq -= drain * (t - last); if (pq < 0) pq = 0; last = t }
	}
	$2 == 0 {		# arrival: the frame as the qdisc counts it
		if (!na++) { t0 = $1; last = $1 }
		else bytes += $5 + 14
		ta = $1
		level($1); pq += $5 + 14; if (pq > size) pq = size
		next
	}
	{			# departure
		level($1)
		p = (pq - kmin) / (kmax - kmin); p = p < 0 ? 0 : (p > 1 ? 1 : p)
		ce = ($4 % 4 == 3)
		b = int(($1 - t0) / bin)
		cnt[b]++; meas[b] += ce; expd[b] += p
		if (b > maxb) maxb = b
		if (first == "") {	# the chance of no mark so far: exp(-before)
			if (ce) first = $1 - t0
			else before += p
		}
		if (p > 0 && efirst == "") { efirst = $1 - t0; fill_bytes = bytes }
		nd++; marks += ce; emarks += p
	}
	END {
		printf "{\"arrived\":%d,\"departed\":%d,\"ce\":%d,\"expected_ce\":%.1f,", \
			na, nd, marks, emarks
		printf "\"arrival_Bps\":%.0f,\"first_mark_s\":%s,", bytes / (ta - t0), \
			first == "" ? "null" : first
		printf "\"replayed_first_mark_s\":%s,", efirst == "" ? "null" : efirst
		printf "\"expected_marks_before_first\":%.3f,", before
		printf "\"fill_arrival_Bps\":%.0f,\"bins\":[", efirst ? fill_bytes / efirst : 0
		sep = ""
		for (b = 0; b <= maxb; b++) {
			if (!cnt[b]) continue
			printf "%s{\"t\":%.2f,\"packets\":%d,\"ce_fraction\":%.4f,\"expected\":%.4f}", \
				sep, b * bin, cnt[b], meas[b] / cnt[b], expd[b] / cnt[b]
			sep = ","
		}
		print "]}"
	}' "$TB_RUN/$1.pkts" > "$OUT_DIR/$1.json"
}

# Below the drain rate: no marks at all.
phase below 0.85 4
analyse below
q=$TB_RUN/below.qdisc.json
arr=$(jq .arrival_Bps "$OUT_DIR/below.json")
tb_log "0.85 x rate: arrival $(tb_calc "$arr / $C") x rate, phantom peak $(jq .phantom_max_backlog "$q") B"
tb_check below_arrival_fraction "$(tb_calc "$arr / $C")" "<" 0.88
tb_check below_phantom_marks "$(jq .phantom_marks "$q")" "==" 0
tb_check below_ce_marks "$(jq .ce_marks "$q")" "==" 0
tb_check below_ce_on_the_wire "$(jq .ce "$OUT_DIR/below.json")" "==" 0
tb_check below_phantom_peak_bytes "$(jq .phantom_max_backlog "$q")" "<" $KMIN

# Above it: marks after the fill time, then along the ramp. The TCG pacer
# sometimes delivers far less than asked (0.95 x of 1.05 x seen): such a
# run says nothing about the qdisc, so it runs again, up to three times,
# until the counter grows at >= 0.1 x rate (checked below).
for try in 1 2 3; do
	phase above 1.05 3
	analyse above
	arr=$(jq .arrival_Bps "$OUT_DIR/above.json")
	[ "$(tb_calc "($arr - $DRAIN) / $C >= 0.1")" = 1 ] && break
	tb_log "try $try: arrival $(tb_calc "$arr / $C") x rate, too slow to fill; again"
done
q=$TB_RUN/above.qdisc.json
r=$OUT_DIR/above.json
t_fill=$(tb_calc "$KMIN / ($(jq .fill_arrival_Bps "$r") - $DRAIN)")
t_full=$(tb_calc "$KMAX / ($arr - $DRAIN)")
replayed=$(jq .replayed_first_mark_s "$r")
first=$(jq .first_mark_s "$r")
ce=$(jq .ce "$r")
ece=$(jq .expected_ce "$r")
# Bins on the ramp (expected strictly between 0.05 and 0.95), with their
# absolute error; and every bin, to see no marks before the fill time.
# Only bins of at least half the 300 packets a bin holds: the last one,
# cut short by the end of the flow, may hold a dozen (0.20 off, 1.6 sigma,
# with 17 packets).
whole='.bins[] | select(.packets >= 150)'
ramp_err=$(jq "[$whole | select(.expected > 0.05 and .expected < 0.95) |
	(.ce_fraction - .expected) | fabs] | max // 1" "$r")
ramp_bins=$(jq "[$whole | select(.expected > 0.05 and .expected < 0.95)] | length" "$r")
all_err=$(jq "[$whole | (.ce_fraction - .expected) | fabs] | max" "$r")
tb_log "1.05 x rate: arrival $(tb_calc "$arr / $C") x rate; fill time $t_fill s, ramp full at $t_full s"
before=$(jq .expected_marks_before_first "$r")
tb_log "first mark at $first s (replayed: $replayed s, $before marks expected before it); CE $ce, expected $ece"
jq -c '.bins[]' "$r" | sed 's/^/# /'

tb_check above_arrival_growth_fraction "$(tb_calc "($arr - $DRAIN) / $C")" ">=" 0.1
# The first mark no earlier than 10 ms before the replay's onset at
# 100 Mbit/s, the time the counter takes to grow by 19 KB at 0.15 x rate
# (the same bytes at RATE); no later than a one-in-a-thousand chance.
early=$(tb_calc "0.01 * 100 / $RATE")
tb_check first_mark_minus_replayed_s "$(tb_calc "$first - $replayed")" ">=" "-$early"
tb_check first_mark_over_fill_time "$(tb_calc "$first / $t_fill")" ">=" 0.85
tb_check marks_expected_before_first "$before" "<=" 6.9	# ln 1000
tb_check ramp_bins "$ramp_bins" ">=" 4
# A bin holds about 300 packets: the binomial noise of its CE fraction is
# 0.03 at most (p = 0.5), so 0.12 is 4 sigma; the total over the whole run
# has a noise of a few tenths of a percent.
tb_check ramp_max_abs_error "$ramp_err" "<=" 0.12
tb_check all_bins_max_abs_error "$all_err" "<=" 0.12
tb_check ce_total_over_expected "$(tb_calc "$ce / $ece")" ">=" 0.95
tb_check ce_total_over_expected_upper "$(tb_calc "$ce / $ece")" "<=" 1.05
tb_check qdisc_phantom_marks_minus_ce_on_the_wire "$(($(jq .phantom_marks "$q") - ce))" "==" 0
tb_check above_ce_marks_real_ramp "$(jq .ce_marks "$q")" "==" 0

jq -n --slurpfile below "$OUT_DIR/below.json" --slurpfile above "$r" \
	--slurpfile qb "$TB_RUN/below.qdisc.json" --slurpfile qa "$q" \
	--argjson t_fill "$t_fill" --argjson t_full "$t_full" --argjson c "$C" \
	--argjson size $PQ_SIZE --argjson kmin $KMIN --argjson kmax $KMAX \
	--argjson drain $DRAIN \
	'{rate_Bps: $c, phantom_size: $size, phantom_min_bytes: $kmin,
	  phantom_max_bytes: $kmax, drain_Bps: $drain,
	  below: (($below[0] | del(.bins)) + {qdisc: $qb[0]}),
	  above: ($above[0] + {fill_time_s: $t_fill, ramp_full_s: $t_full, qdisc: $qa[0]})}' \
	> "$OUT_DIR/results.json"
tb_exit
