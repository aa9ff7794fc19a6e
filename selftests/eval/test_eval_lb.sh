#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# LB (arcane.md 4.3 H1, H3, H4, H6, H7 and 5.3 P1-P3; uno.md 5's UnoLB;
# issue 14): a permutation of messages across the leaf-spine fabric LS44
# (tb_leafspine 4 4 H), one UnoRC message per host, each to a host of
# another leaf, under each load balancer in turn, the transport and its
# congestion control (UnoCC) the same for all, as the paper holds
# FASTFLOW constant:
#
#   ecmp spray arcane (and spray_rr flowlet plb, full profile)
#          the entropy datapath (bpf/lb.bpf.c) on every sender's uplink,
#          attached by unod --once from an [[lb]] table; UnoRC opens each
#          packet with the ARC1 shim (shim = "arc1"), one sub-flow, no
#          re-path of its own
#   unolb  no datapath: UnoRC's own UnoLB, 8 sub-flows on ports of their
#          own, re-pathed on an RTO (uno.md 5.1)
#
# Fabrics: "ls44", 1:1, every leaf's uplinks carry what its hosts send
# (H hosts at HOST_MBIT, 4 uplinks at HOST_MBIT * H / 4); "os8", 8:1
# (arcane.md's LS44-OS8), uplinks an eighth of that; "fail", the 1:1
# fabric with the leaf1-spine1 link
# silently black-holed on both ends (tc drops on leaf1:s1 and spine1:l1
# egress, routes unchanged: arcane.md 4.4). Every router port is the
# phantom qdisc at its link's rate marking CE above 2 MTUs of queue (the
# larger of that and 0.2 x base RTT at the rate, arcane.md 4.4's T_ce);
# each host's own port shapes without marking.
#
# The black hole drops data packets only: a receiver's ACKs are not
# steered (arcane.md 3.3), so a flow whose ACKs the hash sent into the
# hole would stall under every load balancer alike; the failure measured
# is the data's path, which is the load balancer's to choose.
#
# Metrics per variant: the messages' FCT (mean, p99, max; a message not
# done within 20 x its ideal FCT counts as that and as unfinished),
# UnoRC's retransmissions and RTO events, the packets the hole dropped,
# and the per-packet RTTs (p50, p99 of every ACK's sample, the senders'
# histograms merged). Claims (hard in the full profile): H1/H3 ARCANE's
# mean and max FCT <= 0.95 x spraying's on 1:1 and 8:1; H2/H5 its p99
# RTT no higher than spraying's there; H4 ECMP's max >= 1.3 x
# ARCANE's on 8:1; H6 spraying's max >= 1.5 x ARCANE's with the failure;
# H7 some ECMP message unfinished with it. make check runs the failure
# only, ARCANE and UnoLB only, and checks that every message completes
# (within 60 s) and that the hole was on the paths (it dropped some of
# ARCANE's explorations); make eval checks that too, within the timeout.
# uno-timeout: 2700
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_eval.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"

UNORC=${UNORC:-/uno/bin/unorc}
PORT=9000			# the receivers' first port of PORTS, one per run
PORTS=16
SPORT=40000
SPINES=4
LEAVES=4
H=$(ev_pick 2 4)
HOST_MBIT=10
SIZE=$(ev_pick 500000 1000000)
REPS=$(ev_pick 1 3)
FABRICS=$(ev_pick "fail" "ls44 os8 fail")
MODES=$(ev_pick "arcane unolb" "ecmp spray spray_rr flowlet plb arcane unolb")
PAYLOAD=$((TB_MTU - 68 - 28))		# IPv4, UDP, UnoRC's header, the shim
LIMIT=65536				# bytes per router port

tb_leafspine $SPINES $LEAVES $H
HOSTS=""
l=1
while [ $l -le $LEAVES ]; do
	i=1
	while [ $i -le $H ]; do
		HOSTS="$HOSTS l${l}h$i"
		i=$((i + 1))
	done
	l=$((l + 1))
done

# The idle base RTT across the fabric, before any shaper.
BASE_RTT_US=$(tb_rtt l1h1 "$(tb_addr "l${LEAVES}h1")" 20 | awk '{ printf "%d", $2 * 1000 }')
[ -n "$BASE_RTT_US" ] || tb_die "no base RTT"
tb_log "base RTT $BASE_RTT_US us"

# port NS DEV KBIT MARK: the phantom qdisc at KBIT; MARK: CE above K.
port() {
	_k=$(($3 * BASE_RTT_US / 40000))
	[ $_k -ge $((2 * TB_MTU)) ] || _k=$((2 * TB_MTU))
	[ "$4" = mark ] || _k=$LIMIT
	tb_tc "$1" qdisc replace dev "$2" root phantom rate "${3}kbit" limit $LIMIT \
		ecn-min $_k ecn-max $_k phantom-size 0 burst $((2 * TB_MTU)) ||
		tb_die "phantom on $1:$2"
}

# rates UP_KBIT: every port of the fabric, uplinks at UP_KBIT.
rates() {
	for _h in $HOSTS; do
		port "$_h" eth0 $((HOST_MBIT * 1000)) nomark
	done
	_l=1
	while [ $_l -le $LEAVES ]; do
		_i=1
		while [ $_i -le $H ]; do
			port "leaf$_l" "h$_i" $((HOST_MBIT * 1000)) mark
			_i=$((_i + 1))
		done
		_s=1
		while [ $_s -le $SPINES ]; do
			port "leaf$_l" "s$_s" "$1" mark
			port "spine$_s" "l$_l" "$1" mark
			_s=$((_s + 1))
		done
		_l=$((_l + 1))
	done
}

# The black hole: data packets (IP length 256 and up) dropped on both
# ends of leaf1-spine1; ARP and the small replies pass. Added before any
# run: adding a clsact under traffic patches tc's static keys (test_lb_unod).
hole() {
	for _end in "leaf1 s1" "spine1 l1"; do
		# shellcheck disable=SC2086
		set -- $_end
		tb_tc "$1" qdisc add dev "$2" clsact || tb_die "clsact on $1:$2"
		tb_tc "$1" filter add dev "$2" egress prio 1 protocol ip u32 \
			match u16 0 0xff00 at 2 action ok || tb_die "hole on $1:$2"
		tb_tc "$1" filter add dev "$2" egress prio 2 protocol ip u32 \
			match u32 0 0 action drop || tb_die "hole on $1:$2"
	done
}

hole_drops() {
	for _end in "leaf1 s1" "spine1 l1"; do
		# shellcheck disable=SC2086
		set -- $_end
		tb_tc "$1" -s -j filter show dev "$2" egress prio 2 |
			jq '[.[] | .options.actions[]? | .stats.packets // 0] | add // 0'
	done | awk '{ s += $1 } END { print s + 0 }'
}

# perm SEED: "SENDER RECEIVER" lines: leaf l's hosts send to leaf d(l)'s,
# d a derangement of the leaves and each leaf's hosts matched at random,
# so that no message stays within its leaf.
perm() {
	awk -v seed="$1" -v L=$LEAVES -v H="$H" 'BEGIN {
		srand(seed)
		do {
			for (l = 1; l <= L; l++) d[l] = l
			for (l = L; l > 1; l--) { j = int(rand() * l) + 1; t = d[l]; d[l] = d[j]; d[j] = t }
			ok = 1
			for (l = 1; l <= L; l++) if (d[l] == l) ok = 0
		} while (!ok)
		for (l = 1; l <= L; l++) {
			for (i = 1; i <= H; i++) p[i] = i
			for (i = H; i > 1; i--) { j = int(rand() * i) + 1; t = p[i]; p[i] = p[j]; p[j] = t }
			for (i = 1; i <= H; i++) printf "l%dh%d l%dh%d\n", l, i, d[l], p[i]
		}
	}'
}

# attach MODE: every host's datapath in MODE, or none for unolb.
attach() {
	for _h in $HOSTS; do
		if [ "$1" = unolb ]; then
			nsenter --net="/run/netns/$(tb_ns "$_h")" "$UNOCTL" lb detach dev eth0 \
				> /dev/null 2>&1
			continue
		fi
		printf '[[lb]]\ndev = "eth0"\nmode = "%s"\nports = [%s]\nrequire-shim = true\n' \
			"$1" "$(awk -v a=$PORT -v n=$PORTS \
			'BEGIN { for (i = 0; i < n; i++) printf "%s%d", i ? ", " : "", a + i }')" \
			> "$TB_RUN/lb-$1.toml"
		nsenter --net="/run/netns/$(tb_ns "$_h")" "$UNOD" --once -c "$TB_RUN/lb-$1.toml" \
			2>> "$OUT_DIR/unod.log" || tb_die "unod --once $1 in $_h"
	done
}

# run FABRIC MODE REP: one permutation (seed REP) under MODE; each
# sender's output in $OUT_DIR/lb-FABRIC-MODE-REP-SENDER.json.
run() {
	_tag=lb-$1-$2-$3
	# A port of its own: a receiver of the last run must not hold it.
	_port=$((PORT + ${RUNS:=0} % PORTS))
	RUNS=$((RUNS + 1))
	case $2 in
	unolb) _opts="--subflows 8 --repath redraw" ;;
	*) _opts="--subflows 1 --repath off --shim arc1" ;;
	esac
	perm "$3" > "$TB_RUN/perm"
	_rpids=""
	while read -r _s _r; do
		tb_exec "$_r" "$UNORC" recv --listen "$(tb_addr "$_r"):$_port" --code none \
			--payload $PAYLOAD --messages 1 --linger-ms 100 --idle-ms $((TIMEOUT_S * 1000)) \
			--json > "$OUT_DIR/$_tag-$_r.recv.json" 2>&1 &
		_rpids="$_rpids $!"
		echo $! >> "$TB_RUN/pids"
	done < "$TB_RUN/perm"
	while read -r _s _r; do
		tb_wait_listen "$_r" $_port udp
	done < "$TB_RUN/perm"
	# Every sender starts at the same moment, 1 s from now.
	read -r _t0 _ < /proc/uptime
	_at=$(tb_calc "$_t0 + 1")
	_spids=""
	while read -r _s _r; do
		# shellcheck disable=SC2086
		tb_exec "$_s" sh -c 'read -r up _ < /proc/uptime
			sleep "$(awk "BEGIN { d = $0 - $up; print d > 0 ? d : 0 }")"
			exec "$@"' "$_at" "$UNORC" send --to "$(tb_addr "$_r"):$_port" \
			--code none --payload $PAYLOAD --messages 1 --size $SIZE \
			--source-port $SPORT --rto-us $RTO_US --link-mbps $HOST_MBIT \
			--intra-rtt-us "$BASE_RTT_US" --timeout-s $TIMEOUT_S $_opts --json \
			> "$OUT_DIR/$_tag-$_s.json" 2> "$OUT_DIR/$_tag-$_s.err" &
		_spids="$_spids $!"
		echo $! >> "$TB_RUN/pids"
	done < "$TB_RUN/perm"
	for _p in $_spids; do
		wait "$_p"
	done
	for _p in $_rpids; do
		kill "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
}

# fabric NAME: its rates and timers: the uplinks' rate, the ideal FCT
# (SIZE at each sender's share of its leaf's uplinks, or of its own link)
# and the timeout of 20 x that (arcane.md 5.2 F7), the RTO (UnoRC spec
# 6.3: the base RTT plus the drain of the path's four ports, full).
fabric() {
	_host=$((HOST_MBIT * 1000))
	case $1 in
	os8) _up=$((_host * H / SPINES / 8)) ;;
	*) _up=$((_host * H / SPINES)) ;;
	esac
	rates $_up
	_share=$((_up * SPINES / H))
	IDEAL_MS=$(tb_calc "$SIZE * 8 / $_share + $BASE_RTT_US / 1000")
	TIMEOUT_S=$(awk "BEGIN { printf \"%d\", $IDEAL_MS * 20 / 1000 + 1 }")
	# make check asks only that every message completes.
	[ "$EV_PROFILE" = full ] || TIMEOUT_S=60
	RTO_US=$((BASE_RTT_US + LIMIT * 8000 * 2 / _host + LIMIT * 8000 * 2 / _up))
	tb_log "$1: uplinks $_up kbit/s, ideal FCT $IDEAL_MS ms, timeout $TIMEOUT_S s, RTO $RTO_US us"
}

# result FABRIC MODE HOLE_DROPS MESSAGES: the variant FABRIC-MODE's
# metrics over its REPS runs.
result() {
	_lab=$1-$2
	EV_LABEL=$_lab
	echo "$_lab" >> "$TB_RUN/ev_variants"
	_glob="$OUT_DIR/lb-$1-$2-*"
	# shellcheck disable=SC2086
	cat $_glob.json 2>/dev/null | grep '"send_summary"' |
		jq -s --argjson t "$((TIMEOUT_S * 1000))" --arg v "$_lab" --arg f "$1" \
		--arg m "$2" --argjson ideal "$IDEAL_MS" --argjson drops "$3" \
		--argjson n "$4" '
		def pct(p): sort | .[((length - 1) * p | round)];
		# A merged histogram (bucket -> samples, rtt_hist.h) sorted by
		# bucket, and its q-quantile by nearest rank.
		def buckets: to_entries | map({ us: (.key | tonumber), n: .value }) | sort_by(.us);
		def hist_q(q): (map(.n) | add // 0) as $tot | (q * $tot | ceil) as $rank |
			if $tot == 0 then null else
			reduce .[] as $b ({ seen: 0, at: null };
				if .at == null then .seen += $b.n |
					(if .seen >= $rank then .at = $b.us else . end)
				else . end) | .at end;
		([.[] | .rtt_us_hist // {} | to_entries[]] | group_by(.key) |
		 map({ key: .[0].key, value: (map(.value) | add) }) | from_entries |
		 buckets) as $rtt |
		[.[] | if .complete then .fct_us.max / 1000 else $t end] as $fct |
		{ variant: $v, cc: { intra: "unorc", inter: "unorc" },
		  metrics: { fabric: $f, lb: $m, messages: $n,
			finished: ([.[] | select(.complete)] | length),
			unfinished: ($n - ([.[] | select(.complete)] | length)),
			ideal_fct_ms: $ideal,
			mean_fct_ms: (if ($fct | length) > 0 then ($fct | add / length) else null end),
			p99_fct_ms: ($fct | pct(0.99)), max_fct_ms: ($fct | max),
			retransmissions: ([.[] | .retransmissions] | add),
			rto_events: ([.[] | .rto_events] | add),
			repath_events: ([.[] | .repath_events] | add),
			hole_drops: $drops,
			rtt_p50_us: ($rtt | hist_q(0.5)), rtt_p99_us: ($rtt | hist_q(0.99)) },
		  flows: [.[] | { to, ok: .complete, fct_us: .fct_us.max, retransmissions,
			rto_events, source_ports }] }' > "$TB_RUN/ev-$_lab.json" ||
		tb_die "no result for $_lab"
	jq -c .metrics "$TB_RUN/ev-$_lab.json" | sed "s|^|# $_lab: |"
}

# metric LABEL NAME
metric() {
	jq ".metrics.$2" "$TB_RUN/ev-$1.json" 2>/dev/null || echo null
}

# ratio A B NAME: A's NAME over B's.
ratio() {
	_a=$(metric "$1" "$3") _b=$(metric "$2" "$3")
	if [ "$_a" = null ] || [ "$_b" = null ] || [ "$_b" = 0 ]; then
		echo null
	else
		tb_calc "$_a / $_b"
	fi
}

EV_SCENARIO=LB
: > "$TB_RUN/ev_variants"
for f in $FABRICS; do
	fabric "$f"
	[ "$f" = fail ] && hole
	for m in $MODES; do
		attach "$m"
		d0=0
		[ "$f" = fail ] && d0=$(hole_drops)
		rep=1
		while [ $rep -le "$REPS" ]; do
			run "$f" "$m" $rep
			rep=$((rep + 1))
		done
		d=0
		[ "$f" = fail ] && d=$(($(hole_drops) - d0))
		result "$f" "$m" $d $((REPS * LEAVES * H))
	done
done

# The claims, each in the row of the variant it is about, and there as a
# metric.
claim() {
	EV_LABEL=$1
	_v=$2
	shift 2
	if [ "$_v" = null ]; then
		tb_log "$EV_LABEL: $1: not measured"
		return
	fi
	ev_claim "$1" "$_v" "$2" "$3"
	_f=$TB_RUN/ev-$EV_LABEL.json
	jq --arg k "$1" --argjson v "$_v" '.metrics[$k] = $v' "$_f" > "$_f.tmp" && mv "$_f.tmp" "$_f"
}
for f in ls44 os8; do
	[ -f "$TB_RUN/ev-$f-arcane.json" ] || continue
	claim "$f-arcane" "$(ratio "$f-arcane" "$f-spray" mean_fct_ms)" mean_fct_over_spray "<=" 0.95
	claim "$f-arcane" "$(ratio "$f-arcane" "$f-spray" max_fct_ms)" max_fct_over_spray "<=" 0.95
	# H2 (1:1), H5 (8:1): spraying's transient collisions raise its
	# per-packet RTTs above ARCANE's.
	claim "$f-arcane" "$(ratio "$f-arcane" "$f-spray" rtt_p99_us)" rtt_p99_over_spray "<=" 1
done
[ -f "$TB_RUN/ev-os8-ecmp.json" ] &&
	claim os8-ecmp "$(ratio os8-ecmp os8-arcane max_fct_ms)" max_fct_over_arcane ">=" 1.3
if [ -f "$TB_RUN/ev-fail-arcane.json" ]; then
	claim fail-spray "$(ratio fail-spray fail-arcane max_fct_ms)" max_fct_over_arcane ">=" 1.5
	claim fail-ecmp "$(metric fail-ecmp unfinished)" unfinished ">=" 1
	EV_LABEL=fail-arcane
	ev_check unfinished "$(metric fail-arcane unfinished)" "==" 0
	claim fail-arcane "$(ratio fail-arcane fail-spray hole_drops)" hole_drops_over_spray "<=" 0.2
	EV_LABEL=fail-unolb
	ev_check unfinished "$(metric fail-unolb unfinished)" "==" 0
	# The hole was on the paths: ARCANE's explorations met it.
	EV_LABEL=fail-arcane
	ev_check hole_drops "$(metric fail-arcane hole_drops)" ">" 0
fi

EV_RATE=$HOST_MBIT EV_INTRA_US=$BASE_RTT_US EV_INTER_US=0 EV_LIMIT=$LIMIT EV_PQ_SIZE=0
ev_finish "LS44 (4 spines, 4 leaves, $H hosts each) at $HOST_MBIT Mbit/s per host: a permutation of $SIZE-byte UnoRC messages across leaves, $REPS run(s) per load balancer" \
	'[{"metric":"ls44-arcane mean_fct_over_spray","paper":"0.90 (H1)","ours":"<= 0.95, and max_fct_over_spray"},
	  {"metric":"os8-arcane mean_fct_over_spray","paper":"0.90 (H3)","ours":"<= 0.95, and max_fct_over_spray"},
	  {"metric":"os8-ecmp max_fct_over_arcane","paper":"1.5 (H4)","ours":">= 1.3"},
	  {"metric":"fail-spray max_fct_over_arcane","paper":"2 (H6)","ours":">= 1.5"},
	  {"metric":"fail-ecmp unfinished","paper":"some never finish (H7)","ours":">= 1 in 20 x the ideal FCT"},
	  {"metric":"fail-arcane and fail-unolb unfinished","paper":"all finish (H7; Uno 5)","ours":"0 (a check in every profile)"},
	  {"metric":"ls44-arcane, os8-arcane rtt_p99_over_spray","paper":"lower, tighter RTTs than spraying (H2, H5; figures only)","ours":"<= 1"}]' \
	'[["mean_fct_ms","mean FCT ms"],["p99_fct_ms","p99 FCT ms"],["max_fct_ms","max FCT ms"],
	  ["ideal_fct_ms","ideal ms"],["unfinished","unfinished"],["retransmissions","resent"],
	  ["rto_events","RTO events"],["hole_drops","hole drops"],
	  ["rtt_p50_us","RTT p50 us"],["rtt_p99_us","RTT p99 us"],
	  ["mean_fct_over_spray","mean / spray"],["max_fct_over_spray","max / spray"],
	  ["max_fct_over_arcane","max / arcane"],["rtt_p99_over_spray","RTT p99 / spray"]]'
