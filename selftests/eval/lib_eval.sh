#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The evaluation's scenarios (N*, after the Uno paper, and S11.*, after
# SMaRTT's: Documentation/testing.rst, "The evaluation", names the figure
# each follows), on top of testbed.sh. A scenario runs its workload once
# per variant, a congestion control with its switch port:
#
#   uno            tcp_uno, the phantom queue marking (the paper's port:
#                  drain 90 %, Uno Sec. 4.1.3; as in the authors' htsim,
#                  phantom-size = inter-DC BDP, ramp 2-60 %, no
#                  real-queue marking)
#   uno-nophantom  tcp_uno, RED-style marking on the real queue
#   smartt dctcp cubic bbr
#                  that CC, RED-style marking on the real queue
#   smartt-nscc    tcp_smartt in Ultra Ethernet NSCC mode (mode=1), RED-
#                  style marking on the real queue
#   dctcp+bbr      dctcp intra-DC and bbr inter-DC: the paper's
#                  MPRDMA+BBR baseline (Uno Sec. 5.1) with our Linux
#                  stand-ins
#   unorc*         UnoRC messages over UDP, run by UnoCC (lib_rc.sh), on
#                  uno's port
#
# Every port is the phantom qdisc shaping to EV_RATE with a 1 MB real queue
# (the paper's buffer: 1 MiB per port in Uno Sec. 5.1, 10^6 B in the
# authors' htsim); "RED-style" is its real-queue ramp from EV_KMIN to
# EV_KMAX. Non-ECT packets (cubic's, bbr's) are dropped only when the queue
# is full.
#
# Profiles (UNO_EVAL_PROFILE): "check", the reduced runs make check
# asserts, and "full", the runs of make eval. Results: every variant's
# metrics and checks go into $OUT_DIR/$EV_SCENARIO.json (ev_finish), the
# file make eval collects into build/eval/.

EV_PROFILE=${UNO_EVAL_PROFILE:-check}
# The intra-DC hops' propagation (Documentation/testing.rst, "The
# evaluation"): about 1 ms of intra-DC RTT, a BDP of 9 packets at EV_RATE.
TB_HOST_RTT=${UNO_EVAL_HOST_RTT:-1}
EV_RATE=${EV_RATE:-300}			# Mbit/s: see Documentation/testing.rst
EV_LIMIT=1000000			# bytes
EV_KMIN=${UNO_EVAL_KMIN:-30000}
EV_KMAX=${UNO_EVAL_KMAX:-90000}
EV_QDISC_DT=${UNO_EVAL_QDISC_DT:-0.5}		# s between queue samples
EV_RX_DT=${UNO_EVAL_RX_DT:-0.25}		# s between per-flow byte samples
EV_C=$((EV_RATE * 125000))		# bytes/s

# ev_pick CHECK FULL: the value for this profile.
ev_pick() {
	[ "$EV_PROFILE" = full ] && echo "$2" || echo "$1"
}

# ev_variants DEFAULT...: the variants to run, UNO_EVAL_VARIANTS if set.
ev_variants() {
	echo "${UNO_EVAL_VARIANTS:-$*}"
}

# ev_cc VARIANT [CLASS]: the congestion control a flow of CLASS runs; a
# scenario with variants of its own names its function in EV_CC_FN, which
# prints the CC and succeeds for those.
ev_cc() {
	[ -n "$EV_CC_FN" ] && $EV_CC_FN "$@" && return
	case "$1" in
	uno-*) echo uno ;;
	unorc*) echo uno ;;	# UnoRC's UnoCC (lib_rc.sh), not a TCP CC
	smartt-*) echo smartt ;;
	dctcp+bbr) [ "$2" = inter ] && echo bbr || echo dctcp ;;
	mlcc | hpcc) echo bpf_mlcc ;;	# MLCC's loops, HPCC end to end (M2, M3)
	*) echo "$1" ;;
	esac
}

# ev_init SCENARIO: after the topology: base RTTs, the CC modules' network
# profile, the queue sampler, every variant's CC loaded and allowed.
ev_init() {
	EV_SCENARIO=$1
	: > "$TB_RUN/ev_variants"
	tb_base_rtts
	EV_INTRA_US=$(tb_intra_rtt_us)
	EV_INTER_US=$(jq '[to_entries[] | select(.key | test("^w")) | .value.avg_ms] |
		if length > 0 then add / length * 1000 | floor else 0 end' "$OUT_DIR/base_rtt.json")
	tb_cc_profile $EV_RATE "$EV_INTRA_US"
	# NSCC's target queueing delay is 0.75 x the network's largest
	# unloaded RTT, one for every flow (uec.cpp, initNsccParams()).
	tb_set_param tcp_smartt nscc_net_rtt_us \
		"$(( EV_INTER_US > EV_INTRA_US ? EV_INTER_US : EV_INTRA_US ))"
	for _cc in uno smartt dctcp cubic bbr; do
		tb_need_cc $_cc
	done
	# The phantom queue holds one inter-DC BDP (Uno Sec. 2.3 sizes it to
	# match that BDP, and the authors' htsim to exactly one); without
	# inter-DC senders, that of the WAN RTT the testbed would have.
	_rtt_us=$EV_INTER_US
	[ "$_rtt_us" -gt 0 ] || _rtt_us=$((EV_INTRA_US + TB_WAN_RTT * 1000))
	EV_PQ_SIZE=$((EV_C / 1000 * _rtt_us / 1000))
	tb_qdisc_sampler "$TB_BOTTLENECK_NS" "$TB_BOTTLENECK_DEV" "$EV_QDISC_DT"
	tb_cpu_sampler 1
	EV_QLOG="$OUT_DIR/qdisc-$TB_BOTTLENECK_NS-$TB_BOTTLENECK_DEV.jsonl"
}

# ev_port VARIANT: a fresh bottleneck qdisc (zeroed counters) for VARIANT;
# a scenario with a port of its own names its function in EV_PORT_FN.
ev_port() {
	if [ -n "$EV_PORT_FN" ]; then
		$EV_PORT_FN "$1"
		return
	fi
	$TC -n "$(tb_ns "$TB_BOTTLENECK_NS")" qdisc del dev "$TB_BOTTLENECK_DEV" root 2>/dev/null
	case "$1" in
	uno | unorc*) tb_bottleneck_phantom $EV_RATE limit $EV_LIMIT ecn-min $EV_LIMIT \
		ecn-max $EV_LIMIT phantom-rate 90% phantom-size $EV_PQ_SIZE \
		phantom-min $((EV_PQ_SIZE * 2 / 100)) \
		phantom-max $((EV_PQ_SIZE * 60 / 100)) ;;
	*) tb_bottleneck_phantom $EV_RATE limit $EV_LIMIT ecn-min $EV_KMIN ecn-max $EV_KMAX \
		phantom-size 0 ;;
	esac
}

# ev_int_port VARIANT: the MLCC scenarios' bottleneck (EV_PORT_FN): the
# phantom qdisc with INT on every packet, uno's phantom queue marking for
# uno, the RED-style ramp for every other variant.
ev_int_port() {
	$TC -n "$(tb_ns "$TB_BOTTLENECK_NS")" qdisc del dev "$TB_BOTTLENECK_DEV" root 2>/dev/null
	case "$1" in
	uno) tb_bottleneck_phantom $EV_RATE limit $EV_LIMIT ecn-min $EV_LIMIT \
		ecn-max $EV_LIMIT phantom-rate 90% phantom-size $EV_PQ_SIZE \
		phantom-min $((EV_PQ_SIZE * 2 / 100)) \
		phantom-max $((EV_PQ_SIZE * 60 / 100)) int on ;;
	*) tb_bottleneck_phantom $EV_RATE limit $EV_LIMIT ecn-min $EV_KMIN ecn-max $EV_KMAX \
		phantom-size 0 int on ;;
	esac
}

# ev_begin VARIANT [LABEL]: its port, the receiver's CC (an ECN CC echoes
# CE per segment only when the receiving socket runs it), and the start
# time. LABEL (default VARIANT) names the result, for a scenario that runs
# a variant more than once (a sweep).
ev_begin() {
	EV_VARIANT=$1
	EV_LABEL=${2:-$1}
	echo "$EV_LABEL" >> "$TB_RUN/ev_variants"
	ev_port "$1"
	case "$1" in
	smartt) tb_set_param tcp_smartt mode 0 ;;
	smartt-nscc) tb_set_param tcp_smartt mode 1 ;;
	esac
	tb_receiver_cc "$(ev_cc "$1" intra)"
	read -r EV_T0 _ < /proc/uptime
	EV_CPU0=$(head -n 1 /proc/stat)
	: > "$TB_RUN/metrics"
}

# ev_metric NAME VALUE: a number measured for the current variant.
ev_metric() {
	echo "$1 $2" >> "$TB_RUN/metrics"
}

# ev_result_metric VARIANT NAME: a finished variant's metric NAME (ev_end).
ev_result_metric() { jq ".metrics.$2" "$TB_RUN/ev-$1.json"; }

# ev_check NAME VALUE OP THRESHOLD: a pass criterion of the current variant.
ev_check() {
	tb_check "$EV_LABEL:$1" "$2" "$3" "$4"
}

# ev_claim NAME VALUE OP THRESHOLD: a criterion recorded as ev_check does,
# pass or fail, that fails the test only in the full profile: in make
# check's reduced runs it is one where we measured ourselves short of the
# paper, or too close to the threshold for the VM's noise
# (Documentation/results.md has the full runs).
ev_claim() {
	if [ "$EV_PROFILE" = full ]; then
		ev_check "$@"
	else
		tb_claim "$EV_LABEL:$1" "$2" "$3" "$4"
	fi
}

# ev_cpu_metrics: where the VM's CPUs went since ev_begin, as shares of
# all their time (/proc/stat's first line, whose guest time is in user
# already): user (the tools: unoperf, tc, jq), system, softirq (the
# packets' path through every namespace) and idle; and from
# tb_cpu_sampler's series, the seconds in which they were busy, idle
# under 5 % of the time. A host-clock VM with no CPU to spare paces,
# forwards and ACKs late, and its ports idle while its flows crawl: an
# FCT of the emulator, not of the law.
ev_cpu_metrics() {
	echo "$EV_CPU0
$(head -n 1 /proc/stat)" | awk '
		{ u[NR] = $2 + $3; s[NR] = $4 + $7; q[NR] = $8; i[NR] = $5 + $6
		  t[NR] = 0; for (f = 2; f <= 9; f++) t[NR] += $f }
		END {
			d = t[2] - t[1]
			if (d <= 0) d = 1
			printf "vm_user_fraction %.3f\nvm_system_fraction %.3f\n", (u[2] - u[1]) / d, (s[2] - s[1]) / d
			printf "vm_softirq_fraction %.3f\nvm_idle_fraction %.3f\n", (q[2] - q[1]) / d, (i[2] - i[1]) / d
		}' >> "$TB_RUN/metrics"
	[ -s "$OUT_DIR/cpu.txt" ] || return 0
	awk -v t0="$EV_T0" -v t1="$EV_T1" '
		$1 < t0 || $1 > t1 { next }
		{ t = 0; for (f = 2; f <= 9; f++) t += $f; i = $5 + $6 }
		seen && t > pt && (i - pi) / (t - pt) < 0.05 { busy += $1 - pu }
		{ seen = 1; pu = $1; pt = t; pi = i }
		END { printf "vm_busy_s %.1f\n", busy }' "$OUT_DIR/cpu.txt" >> "$TB_RUN/metrics"
}

# ev_end: the port's counters and queue percentiles since ev_begin (or
# over [EV_W0, EV_W1] for the queue when set), into the variant's result
# $TB_RUN/ev-VARIANT.json with every ev_metric and any $TB_RUN/flows.json.
ev_end() {
	read -r EV_T1 _ < /proc/uptime
	ev_cpu_metrics
	sleep "$EV_QDISC_DT"
	_q=$(tb_exec "$TB_BOTTLENECK_NS" $TC -s -j qdisc show dev "$TB_BOTTLENECK_DEV")
	_w0=${EV_W0:-$EV_T0} _w1=${EV_W1:-$EV_T1}
	_p50=$(tb_backlog_pct "$EV_QLOG" 50 "$_w0" "$_w1")
	_p99=$(tb_backlog_pct "$EV_QLOG" 99 "$_w0" "$_w1")
	_empty=$(tb_empty_fraction "$EV_QLOG" "$_w0" "$_w1")
	_m=$(awk '{ printf "%s\"%s\":%s", (NR > 1 ? "," : ""), $1, $2 }' "$TB_RUN/metrics")
	[ -s "$TB_RUN/flows.json" ] || echo '[]' > "$TB_RUN/flows.json"
	[ -s "$TB_RUN/rates.json" ] || echo '[]' > "$TB_RUN/rates.json"
	# The queue over time: [t - T0, real backlog, phantom backlog].
	jq -c --argjson t0 "$EV_T0" --argjson t1 "$EV_T1" 'select(.t >= $t0 and .t <= $t1) |
		.t as $t | .q[] | select(.root == true) |
		[(($t - $t0) * 1000 | round) / 1000, .backlog, (.phantom_backlog // 0)]' \
		"$EV_QLOG" | jq -s . > "$TB_RUN/queue.json"
	echo "$_q" | jq --arg v "$EV_LABEL" --argjson m "{$_m}" \
		--argjson p50 "$_p50" --argjson p99 "$_p99" --argjson empty "$_empty" \
		--argjson t0 "$EV_T0" --argjson t1 "$EV_T1" \
		--arg cci "$(ev_cc "$EV_VARIANT" intra)" --arg cce "$(ev_cc "$EV_VARIANT" inter)" \
		--slurpfile flows "$TB_RUN/flows.json" --slurpfile rates "$TB_RUN/rates.json" \
		--slurpfile queue "$TB_RUN/queue.json" '
		(.[] | select(.root == true)) as $r |
		{ variant: $v, cc: { intra: $cci, inter: $cce }, t0: $t0, t1: $t1,
		  metrics: ($m + { backlog_p50_bytes: $p50, backlog_p99_bytes: $p99,
			backlog_empty_fraction: $empty,
			drops: $r.drops, marks: (($r.ce_marks // 0) + ($r.phantom_marks // 0)),
			phantom_marks: ($r.phantom_marks // 0),
			trims: ($r.trimmed // 0), sent_bytes: $r.bytes,
			stalled_fraction: (($r.stall_ns // 0) / 1e9 / ($t1 - $t0)) }),
		  flows: $flows[0], rates: $rates[0], queue: $queue[0] }' \
		> "$TB_RUN/ev-$EV_LABEL.json" || tb_die "cannot write the result of $EV_LABEL"
	rm -f "$TB_RUN/flows.json" "$TB_RUN/rates.json"
	unset EV_W0 EV_W1
	jq -c '.metrics' "$TB_RUN/ev-$EV_LABEL.json" | sed "s/^/# $EV_LABEL: /"
}

# ev_finish DESCRIPTION CLAIMS_JSON COLUMNS_JSON: the scenario's result,
# $OUT_DIR/$EV_SCENARIO.json: the setting, every variant, its checks; the
# papers' claims (an array of {metric, paper, ours}) and the table columns
# (an array of [metric, label]) for the report. Then exit as tb_exit.
ev_finish() {
	_v=$(awk '!seen[$0]++ { printf "\"$TB_RUN/ev-%s.json\" ", $0 }' "$TB_RUN/ev_variants")
	[ -f "$OUT_DIR/checks" ] || : > "$OUT_DIR/checks"
	_checks=$(awk '{ printf "%s{\"name\":\"%s\",\"value\":%s,\"op\":\"%s\",\"threshold\":%s,\"pass\":%s}",
		(NR > 1 ? "," : ""), $1, ($2 == "" ? "null" : $2), $3, $4, ($5 == "pass" ? "true" : "false") }' \
		"$OUT_DIR/checks")
	eval "jq -s '.' $_v" | jq --arg s "$EV_SCENARIO" --arg d "$1" --arg p "$EV_PROFILE" \
		--argjson claims "$2" --argjson cols "$3" --argjson checks "[$_checks]" \
		--argjson rate $EV_RATE --argjson intra "$EV_INTRA_US" --argjson inter "$EV_INTER_US" \
		--argjson limit $EV_LIMIT --argjson pq "$EV_PQ_SIZE" '
		{ scenario: $s, description: $d, profile: $p, rate_mbps: $rate,
		  intra_rtt_us: $intra, inter_rtt_us: $inter, buffer_bytes: $limit,
		  phantom_size_bytes: $pq, claims: $claims, columns: $cols,
		  variants: (map(. as $x | { key: .variant, value: ($x + { checks:
			[$checks[] | select(.name | startswith($x.variant + ":")) |
			 .name |= ltrimstr($x.variant + ":")] }) }) | from_entries) }' \
		> "$OUT_DIR/$EV_SCENARIO.json" || tb_die "cannot write $EV_SCENARIO.json"
	tb_exit
}

# ev_rx_sampler [NS...]: every EV_RX_DT, the bytes received on each
# connection of the receivers NS (default the receiver), as "t
# peer_addr:port bytes NS" lines in $TB_RUN/rx.log (t: tb_rcv_sockets),
# until the test ends.
ev_rx_sampler() {
	[ -z "$EV_RX_ON" ] || return 0
	EV_RX_ON=1
	_rcvs=${*:-$TB_RCV}
	(
		while :; do
			for _r in $_rcvs; do
				TB_RCV=$_r tb_rcv_sockets |
					awk -v r="$_r" '$1 == "@" { t = $2; next }
					/^[^ \t]/ {
						# iperf3 listens on ::, its peers are v4-mapped
						peer = $4; gsub(/\[::ffff:|\]/, "", peer); next }
					{ for (i = 1; i <= NF; i++) if ($i ~ /^bytes_received:/) {
						split($i, b, ":"); print t, peer, b[2], r } }'
			done
			sleep "$EV_RX_DT"
		done
	) >> "$TB_RUN/rx.log" 2>/dev/null &
	echo $! >> "$TB_RUN/pids"
}

# ev_rates T0 T1: the rate (Mbit/s) of each connection that received at
# least 1 MB, between consecutive samples in [T0, T1], as JSON: [{ns, class, peer, series: [[t - T0, mbps]...]}].
# The sender's name and class from its address: the dumbbell's h* and w*,
# the two DCs' a* and b*, an a* inter-DC when its receiver is in DC B
# (b*).
ev_rates() {
	awk -v t0="$1" -v t1="$2" '$1 >= t0 && $1 <= t1 {
		if (!($2 in first)) first[$2] = $3
		total[$2] = $3 - first[$2]
		if ($2 in last && $1 > lt[$2]) {
			r = ($3 - last[$2]) * 8 / ($1 - lt[$2]) / 1e6
			s[$2] = s[$2] sprintf("%s[%.3f,%.3f]", s[$2] == "" ? "" : ",", $1 - t0, r)
		}
		last[$2] = $3; lt[$2] = $1; rcv[$2] = $4
	}
	END {
		n = 0
		printf "["
		for (p in s) {
			# iperf3 control connections carry a few bytes.
			if (total[p] < 1000000) continue
			split(p, a, ":"); split(a[1], o, ".")
			ns = o[2] == 1 ? "h" o[3] : o[2] == 3 ? "w" o[3] : o[2] == 100 ? "a" o[3] :
			     o[2] == 200 ? "b" o[3] : a[1]
			# across the WAN: from a WAN host, or from DC A into DC B
			cls = o[2] == 3 || (o[2] == 100 && rcv[p] ~ /^b/) ? "inter" : "intra"
			printf "%s{\"ns\":\"%s\",\"class\":\"%s\",\"peer\":\"%s\",\"series\":[%s]}",
				n++ ? "," : "", ns, cls, p, s[p]
		}
		print "]"
	}' "$TB_RUN/rx.log" | jq 'sort_by(.ns)'
}

# ev_jain: Jain's index of the numbers on stdin (a JSON array).
EV_JAIN='def jain: if length == 0 then 0 else (add * add) / (length * (map(. * .) | add)) end;'

# EV_MEANS: jq's means($a; $b), each flow of $TB_RUN/rates.json (ev_rates)
# as {class, r}, r the mean of its samples in ]$a, $b] s; the flows that
# carried nothing there left out.
EV_MEANS='def means($a; $b): map({class, r: ([.series[] | select(.[0] > $a and .[0] <= $b) |
	.[1]] | if length == 0 then 0 else add / length end)}) | map(select(.r > 0));'

# ev_window NAME A B N: over ]A, B] s of $TB_RUN/rates.json, the metrics
# jain_NAME (Jain's index of the N flows that should run: a flow starved
# below ev_rates' 1 MB has no series and counts at 0) and util_NAME (what
# they carried over EV_RATE).
ev_window() {
	jq --argjson a "$2" --argjson b "$3" --argjson n "$4" --argjson c $EV_RATE \
		"$EV_JAIN$EV_MEANS"'means($a; $b) | map(.r) as $r |
		"\(($r + [range($r | length; $n) | 0]) | jain) \(($r | add // 0) / $c)"' \
		"$TB_RUN/rates.json" -r > "$TB_RUN/w"
	read -r _jain _util < "$TB_RUN/w"
	ev_metric "jain_$1" "$_jain"
	ev_metric "util_$1" "$_util"
}

# ev_intra_share NAME A B: over ]A, B] s of $TB_RUN/rates.json, the
# intra-DC flows' part of what all carried, as the metric
# intra_share_NAME.
ev_intra_share() {
	ev_metric "intra_share_$1" "$(jq --argjson a "$2" --argjson b "$3" "$EV_MEANS"'
		means($a; $b) | (map(.r) | add // 0) as $sum |
		if $sum > 0 then (map(select(.class == "intra") | .r) | add // 0) / $sum
		else 0 end' "$TB_RUN/rates.json")"
}


# ev_unoperf_server PORT COUNT: a unoperf server at the receiver for COUNT
# flows, its JSON lines in $TB_RUN/server-PORT.jsonl.
ev_unoperf_server() {
	$UNOPERF server --netns "$(tb_ns "$TB_RCV")" -p "$1" --count "$2" \
		-j "$TB_RUN/server-$1.jsonl" 2> "$TB_RUN/server-$1.err" &
	EV_SERVER_PID=$!
	echo $EV_SERVER_PID >> "$TB_RUN/pids"
	tb_wait_listen "$TB_RCV" "$1"
}

# ev_next_port: a server port never used before in this test.
ev_next_port() {
	EV_PORT=$((${EV_PORT:-5600} + 1))
}

# ev_unoperf FILE TIMEOUT_S: the flows of a unoperf flows file (one spec per
# line) to a fresh server; their records in $TB_RUN/flows.json, the
# client's whole output in $OUT_DIR/$EV_SCENARIO-$EV_VARIANT.unoperf.json.
# Sets EV_COMPLETED (flows that finished) and EV_FLOWS (all of them).
ev_unoperf() {
	ev_next_port
	EV_FLOWS=$(grep -c . "$1")
	ev_unoperf_server $EV_PORT "$EV_FLOWS"
	_out="$OUT_DIR/$EV_SCENARIO-$EV_LABEL.unoperf.json"
	$UNOPERF client --dst "$TB_RCV_ADDR:$EV_PORT" -F "$1" --rate-mbps $EV_RATE \
		--timeout "$2" -j "$_out" 2> "$TB_RUN/client.err" ||
		{ tb_log "unoperf client: $(tail -n 3 "$TB_RUN/client.err")"; }
	kill "$EV_SERVER_PID" 2>/dev/null
	wait "$EV_SERVER_PID" 2>/dev/null
	jq '.flows // []' "$_out" > "$TB_RUN/flows.json" 2>/dev/null || echo '[]' > "$TB_RUN/flows.json"
	EV_COMPLETED=$(jq '[.[] | select(.ok)] | length' "$TB_RUN/flows.json")
}

# ev_flow_spec NS CLASS SIZE START_US: one unoperf flow spec of the current
# variant, with the base RTT of its class for the slowdown.
ev_flow_spec() {
	_rtt=$EV_INTRA_US
	[ "$2" = inter ] && _rtt=$EV_INTER_US
	echo "ns=$(tb_ns "$1"),size=$3,cc=$(ev_cc "$EV_VARIANT" "$2"),start=$4,class=$2,base_rtt=$_rtt"
}

# ev_long_flows WARMUP_S WINDOW_S NS...: one iperf3 flow from each NS with
# its class's CC of the current variant, measured over one common window
# after WARMUP (tb_measure); the queue percentiles are taken over that
# window. Records goodput, utilisation and Jain's index.
ev_long_flows() {
	_warm=$1 _win=$2
	shift 2
	for _ns in "$@"; do
		_cls=intra
		case $_ns in w*) _cls=inter ;; esac
		tb_flow "$_ns" "$(ev_cc "$EV_VARIANT" $_cls)" 0 > /dev/null
	done
	tb_window "$_warm" "$_win"
	ev_uno_events "$@"
	TB_RESULT="$EV_SCENARIO-$EV_VARIANT" tb_results
	EV_W0=$TB_T0 EV_W1=$TB_T1
	tb_flows_stop
	jq '.flows' "$OUT_DIR/$EV_SCENARIO-$EV_VARIANT.json" > "$TB_RUN/flows.json"
	ev_metric goodput_mbps "$TB_TOTAL"
	ev_metric utilisation "$TB_UTIL"
	ev_metric jain "$TB_JAIN"
}

# ev_uno_events NS...: what uno's control law did on the running flows
# from NS, from its inet_diag counters (unoctl sock show): Quick Adapt
# cuts, multiplicative decreases and how many of them were phantom-only
# (gentle), and how many flows fell back to Reno ("uno-reno": the
# connection did not negotiate ECN). Their causes are what a utilisation
# alone cannot tell apart. Diagnostics, not checks: a failed read is
# logged and skipped.
ev_uno_events() {
	for _ns in "$@"; do
		tb_exec "$_ns" "$UNOCTL" -j sock show || { echo "# unoctl failed in $_ns" >&2; return 0; }
	done > "$TB_RUN/uno-socks.json"
	jq -rs '[.[][]] as $s | [$s[] | select(.cc == "uno") | .uno] as $u |
		([$s[] | select(.cc == "uno-reno" and .bytes_acked > 65536)] | length) as $reno |
		if ($u | length) + $reno == 0 then empty else
		"uno_qa_cuts \($u | map(.qa_cuts) | add // 0)\n" +
		"uno_md_cuts \($u | map(.md_cuts) | add // 0)\n" +
		"uno_md_phantom \($u | map(.md_phantom) | add // 0)\nuno_reno_flows \($reno)" end' \
		"$TB_RUN/uno-socks.json" >> "$TB_RUN/metrics" ||
		echo "# cannot parse unoctl sock show" >&2
}

# ev_sized_flows SIZE NS...: one flow of SIZE bytes from each NS, all
# started at one instant (unoperf), with each connection's rate over time
# (ev_rx_sampler, started here once). Records the incast's completion
# time against its ideal (all bytes at C, plus one base RTT of the slowest
# class: our formula, the papers give none), the spread of the FCTs, Jain's
# index of the flows' mean rates (size / FCT), and the flows and rates for
# the report.
ev_sized_flows() {
	_size=$1
	shift
	ev_rx_sampler
	_rtt=$EV_INTRA_US
	for _ns in "$@"; do
		_cls=intra
		case $_ns in w*) _cls=inter; _rtt=$EV_INTER_US ;; esac
		ev_flow_spec "$_ns" $_cls "$_size" 0
	done > "$TB_RUN/specs"
	read -r _t0 _ < /proc/uptime
	EV_FLOWS_T0=$_t0
	ev_unoperf "$TB_RUN/specs" 120
	read -r _t1 _ < /proc/uptime
	ev_rates "$_t0" "$_t1" > "$TB_RUN/rates.json"
	_f=$TB_RUN/flows.json
	EV_IDEAL_MS=$(tb_calc "$# * $_size * 8 / ($EV_RATE * 1000) + $_rtt / 1000")
	ev_metric flows_completed "$EV_COMPLETED"
	ev_metric ideal_ms "$EV_IDEAL_MS"
	ev_metric done_ms "$(jq '[.[] | select(.ok) | .end_ns] as $e |
		if ($e | length) > 0 then (($e | max) - ([.[].start_ns | select(.)] | min)) / 1e6
		else null end' "$_f")"
	ev_metric fct_over_ideal "$(jq --argjson i "$EV_IDEAL_MS" '[.[] | select(.ok) | .fct_us] |
		if length > 0 then max / 1000 / $i else null end' "$_f")"
	ev_metric fct_spread "$(jq --argjson i "$EV_IDEAL_MS" '[.[] | select(.ok) | .fct_us] |
		if length > 0 then (max - min) / 1000 / $i else null end' "$_f")"
	ev_metric jain "$(jq "$EV_JAIN"' [.[] | select(.ok) | .size / .fct_us] | jain' "$_f")"
}

# ev_window_util FROM_S TO_S: the port's utilisation by the flows of
# ev_sized_flows between FROM and TO seconds after they started: the bytes
# every connection received between the first and the last sample of
# ev_rx_sampler in that window, over the time between those samples. One
# common window for all flows; a flow that ends inside it counts until its
# last sample.
ev_window_util() {
	awk -v a="$(tb_calc "$EV_FLOWS_T0 + $1")" -v b="$(tb_calc "$EV_FLOWS_T0 + $2")" \
		-v rate=$EV_RATE '$1 >= a && $1 <= b {
		if (!($2 in first)) first[$2] = $3
		last[$2] = $3
		if (t0 == "" || $1 < t0) t0 = $1
		if ($1 > t1) t1 = $1
	}
	END {
		for (p in first) bytes += last[p] - first[p]
		print (t1 > t0) ? bytes * 8 / (t1 - t0) / 1e6 / rate : "null"
	}' "$TB_RUN/rx.log"
}

# ev_by_time: the rates of ev_rates regrouped by sample time, on stdout as
# [{t, r: {ns: mbps}}], for the phase analyses.
EV_BY_TIME='[.[] | .ns as $n | .series[] | {t: .[0], ns: $n, r: .[1]}] | group_by(.t) |
	map({t: .[0].t, r: (map({key: .ns, value: .r}) | from_entries)})'

# ev_mix LOAD DURATION_MS SEED [ARG...]: the realistic mix (Uno Sec. 5.1):
# Poisson arrivals offering LOAD x C for DURATION, 80 % of the flows
# intra-DC with AliStorage2019 sizes, 20 % inter-DC with WebSearch sizes
# (as the matrices of the authors' artifact; the paper names web search
# sizes for intra-DC and Alibaba WAN sizes for inter-DC), spread
# round-robin over the h* and w* senders; unoperf's generator, with ARGs
# after its own. A scenario of its own sets the senders in EV_MIX_INTRA
# and EV_MIX_INTER (names, space-separated) and the sizes in
# EV_MIX_CDF_INTRA and EV_MIX_CDF_INTER (files). Records FCT and slowdown
# statistics per class and overall, and the p99 slowdown per size bucket
# for the report.
ev_mix() {
	_data=$(dirname "$0")/data
	_intra=$(for n in ${EV_MIX_INTRA:-$(tb_senders | grep '^h')}; do printf '%s,' "$(tb_ns "$n")"; done)
	_inter=$(for n in ${EV_MIX_INTER:-$(tb_senders | grep '^w')}; do printf '%s,' "$(tb_ns "$n")"; done)
	_load=$1 _ms=$2 _seed=$3
	shift 3
	set -- --cdf-intra "${EV_MIX_CDF_INTRA:-$_data/AliStorage2019.txt}" \
		--cdf-inter "${EV_MIX_CDF_INTER:-$_data/WebSearch_distribution.txt}" \
		--load "$_load" --duration-ms "$_ms" --seed "$_seed" --rate-mbps $EV_RATE \
		--senders "intra=${_intra%,}" --senders "inter=${_inter%,}" \
		--cc-intra "$(ev_cc "$EV_VARIANT" intra)" --cc-inter "$(ev_cc "$EV_VARIANT" inter)" \
		--base-rtt-us-intra "$EV_INTRA_US" --base-rtt-us-inter "$EV_INTER_US" "$@"
	$UNOPERF client --dry-run "$@" > "$TB_RUN/plan.json" || tb_die "unoperf cannot plan the mix"
	ev_next_port
	ev_unoperf_server $EV_PORT "$(jq '.flows | length' "$TB_RUN/plan.json")"
	_out="$OUT_DIR/$EV_SCENARIO-$EV_LABEL.unoperf.json"
	$UNOPERF client --dst "$TB_RCV_ADDR:$EV_PORT" --timeout 60 -j "$_out" "$@" \
		2> "$TB_RUN/client.err" || tb_log "unoperf client: $(tail -n 3 "$TB_RUN/client.err")"
	kill "$EV_SERVER_PID" 2>/dev/null
	wait "$EV_SERVER_PID" 2>/dev/null
	jq '[.flows[] | {class, size, ok, fct_us, slowdown}]' "$_out" > "$TB_RUN/flows.json" ||
		echo '[]' > "$TB_RUN/flows.json"
	jq -r '
		def pct($p): sort | if length > 0 then .[((length - 1) * $p | round)] else null end;
		def mean: if length > 0 then add / length else null end;
		def stats($pre): [.[] | select(.ok)] |
			{ ($pre + "flows"): length,
			  ($pre + "mean_fct_us"): (map(.fct_us) | mean),
			  ($pre + "p99_fct_us"): (map(.fct_us) | pct(0.99)),
			  ($pre + "p99_slowdown"): (map(.slowdown) | pct(0.99)) };
		(stats("") + ([.[] | select(.class == "intra")] | stats("intra_")) +
		 ([.[] | select(.class == "inter")] | stats("inter_")) +
		 { failed: ([.[] | select(.ok | not)] | length),
		   p99_slowdown_by_size: ([.[] | select(.ok)] |
			group_by(.size | if . < 10000 then 0 elif . < 100000 then 1
				elif . < 1000000 then 2 elif . < 10000000 then 3 else 4 end) |
			map({ bucket: (.[0].size | if . < 10000 then "<10K" elif . < 100000 then "10K-100K"
				elif . < 1000000 then "100K-1M" elif . < 10000000 then "1M-10M" else ">10M" end),
			      flows: length, p99_slowdown: (map(.slowdown) | pct(0.99)) })) }) |
		to_entries[] | "\(.key) \(.value | tojson)"' "$TB_RUN/flows.json" >> "$TB_RUN/metrics"
}

# ev_incast NAME SIZE FCT_BOUND DESCRIPTION NS...: the incast scenarios N4
# and N5: one flow of SIZE bytes from each NS, all started together, per
# variant; uno must complete every flow, and (claims, see ev_claim: both
# vary from run to run under TCG, Jain 0.70-0.9999 for N5) share fairly,
# Jain >= 0.95, and end within FCT_BOUND x the ideal.
ev_incast() {
	_name=$1 _size=$2 _bound=$3 _desc=$4
	shift 4
	ev_init "$_name"
	for _v in $(ev_variants $(ev_pick "uno" "uno uno-nophantom smartt smartt-nscc dctcp cubic bbr")); do
		ev_begin "$_v"
		ev_sized_flows "$_size" "$@"
		ev_end
		[ "$_v" = uno ] || continue
		_m=$TB_RUN/ev-$_v.json
		ev_check flows_completed "$(jq .metrics.flows_completed "$_m")" "==" $#
		ev_claim fct_over_ideal "$(jq .metrics.fct_over_ideal "$_m")" "<=" "$_bound"
		ev_claim jain "$(jq .metrics.jain "$_m")" ">=" 0.95
	done
	ev_finish "$_desc: $# flows of $_size B start together." \
		"[{\"metric\":\"fct_over_ideal\",\"paper\":\"near-ideal FCT (Fig. 8)\",\"ours\":\"<= $_bound\"},
		  {\"metric\":\"jain\",\"paper\":\"fair shares\",\"ours\":\">= 0.95\"}]" \
		'[["done_ms","done ms"],["ideal_ms","ideal ms"],["fct_over_ideal","last FCT / ideal"],
		  ["jain","Jain"],["backlog_p99_bytes","p99 queue B"],["marks","marks"],["drops","drops"]]'
}
