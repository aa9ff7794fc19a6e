#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Reflex's evaluation (reflex.md 5, the paper's Figs. 6-8), on top of
# lib_eval.sh: E-micro's two DCs (reflex.md 5.3) on tb_twodc 1 4, time-
# dilated by S = 1000 at C = 50 Mbit/s (bytes x S / (100 Gbit/s / C) =
# x 0.5, so every flow keeps its size in BDPs, every time the S = 1000
# column of 5.3):
#
#   DC A  a1..a4 on the ToR tora, whose uplink tora:up0 is the near-source
#         port; a0 behind the border router bora (E-micro's leaf A2), so
#         that A's intra-DC flows a* -> a0 share up0 with the inter-DC
#         ones a* -> b1, which bora's WAN port wan1 carries alone (NSF).
#   DC B  b3, b4 -> b1, b2 intra-DC, and a* -> b1, b2 across the WAN,
#         meet at the receivers' links torb:b1 and torb:b2, the
#         near-destination ports; borb:down0, the border router's port
#         toward DC B, is where NDT holds inter-DC flows. Two receivers,
#         not one: with every inter-DC flow to one host, a queue there
#         makes them all CONGESTED, above alpha, and NDT pauses whenever
#         b1's link queues (measured: C paused 65 s of 80), where the
#         paper's flows go to 31 hosts and a pause needs most of them.
#
# The three ports are the phantom qdisc at C with a 4 MB queue (5.3's DC
# switch port), the RED-style ramp for dctcp, the phantom queue for uno,
# each counting the pauses a lossless port would send (virtual PFC, X_off
# 1 MB: 5.3's PFC substitute).
# The delays: each host's access line 2 us x S each way, as netem of 4 ms
# on the one link end that carries only its ACKs or only its data (tora's
# ports to a1..a4, torb's to b3, b4, a0's, b1's and b2's eth0), so an
# intra-DC RTT is 8 ms; the WAN 502 us x S each way, an inter-DC RTT of
# 1012 ms.
#
# Variants: swift and timely (bpf_swift and bpf_timely end to end, the
# paper's baselines), swift-reflex and timely-reflex (NSF at bora, the
# stamp at tora, the host role at a1..a4, NDT at borb:down0), swift-nsf,
# timely-nsf, swift-ndt and timely-ndt (the ablations of Fig. 8), dctcp
# and uno.

TB_MTU=1500
EV_RATE=50
RX_LIMIT=4000000		# reflex.md 5.3: 4 MB per DC switch port
RX_XOFF=1000000			# reflex.md 5.3: virtual PFC's X_off
RX_S=1000			# time dilation, reflex.md 5.3's default column
TB_WAN_RTT=1004			# 2 x 502 us x S
RX_ACCESS_MS=4			# a host's access line, 2 x 2 us x S
RX_SIZE_SCALE=0.5		# S / (100 Gbit/s / C): bytes kept in BDPs
RX_K=16				# reflex.md 5.3: the IP-ID unit at S = 1000
RX_A_SENDERS="a1 a2 a3 a4"
RX_B_SENDERS="b3 b4"
RX_B_RCVS="b1 b2"
RX_GW_A=10.10.0.254
RX_A0_ADDR=10.110.1.1
RX_NDT_MBIT=$((8 * EV_RATE))	# 5.3: the spine-gateway link, 8 C
EV_PORT_FN=rx_ports
EV_CC_FN=rx_ev_cc

# rx_ns X: X ns of the paper's time, dilated.
rx_ns() { echo $(($1 * RX_S)); }

# rx_rtt_us NS DST: the idle RTT, ping's minimum, in us, after one ping
# that resolves the neighbours on the way (across the WAN a second: the
# pings sent meanwhile wait for it).
rx_rtt_us() {
	tb_exec "$1" ping -q -c 1 -W 5 "$2" > /dev/null 2>&1
	set -- $(tb_rtt "$1" "$2" 10)
	awk -v ms="$1" 'BEGIN { printf "%d\n", ms * 1000 + 0.5 }'
}

# rx_init SCENARIO: the topology, its delays and ports' samplers, the base
# RTTs and the thresholds that follow from them (5.3's allowance rule).
rx_init() {
	tb_twodc 1 4
	tb_add_ns a0
	tb_link bora h0 10.110.1.254/24 a0 eth0 $RX_A0_ADDR/24
	tb_ip a0 route add default via 10.110.1.254
	# A WAN BDP is 6.3 MB at C: the senders' buffers grow to their CC's
	# first window (tcp_sndbuf_expand), the receivers' hold it from the
	# start (rx_initrwnd).
	for _h in a0 $RX_A_SENDERS $RX_B_RCVS $RX_B_SENDERS; do
		tb_exec "$_h" sysctl -qw net.ipv4.tcp_rmem="4096 16777216 33554432" \
			net.ipv4.tcp_wmem="4096 16384 33554432" || tb_die "buffers of $_h"
	done
	for _h in $RX_A_SENDERS; do
		tb_delay tora "$_h" $RX_ACCESS_MS
	done
	for _h in $RX_B_SENDERS; do
		tb_delay torb "$_h" $RX_ACCESS_MS
	done
	for _h in a0 $RX_B_RCVS; do
		tb_delay "$_h" eth0 $RX_ACCESS_MS
	done
	TB_BOTTLENECK_NS=torb
	TB_BOTTLENECK_DEV=b1

	EV_SCENARIO=$1
	EV_LIMIT=$RX_LIMIT	# after lib_eval.sh's 1 MB
	: > "$TB_RUN/ev_variants"
	RX_INTRA_A_US=$(rx_rtt_us a1 $RX_A0_ADDR)
	EV_INTRA_US=$(rx_rtt_us b3 "$TB_RCV_ADDR")
	EV_INTER_US=$(rx_rtt_us a1 "$TB_RCV_ADDR")
	RX_RTT_DST_US=$(rx_rtt_us borb "$TB_RCV_ADDR")
	# T_src runs from tora's ingress to bora's WAN port: one hop
	RX_T_SRC_US=$(($(rx_rtt_us tora $RX_GW_A) / 2))
	# 5.3's allowance rule: 1.75 and 3.7 us x S over the measured bases
	RX_T_SRC_THRESH_NS=$((RX_T_SRC_US * 1000 + 1750 * RX_S))
	RX_T_DST_THRESH_NS=$((RX_RTT_DST_US * 1000 + 3700 * RX_S))
	tb_log "idle RTTs: a1-a0 $RX_INTRA_A_US us, b3-b1 $EV_INTRA_US us," \
		"a1-b1 $EV_INTER_US us, borb-b1 $RX_RTT_DST_US us, T_src $RX_T_SRC_US us;" \
		"T_src_thresh $RX_T_SRC_THRESH_NS ns, T_dst_thresh $RX_T_DST_THRESH_NS ns"
	rx_initrwnd
	EV_PQ_SIZE=$((EV_C / 1000 * EV_INTER_US / 1000))
	tb_cc_profile $EV_RATE "$EV_INTRA_US"
	tb_need_cc dctcp
	tb_qdisc_sampler torb b1 "$EV_QDISC_DT"
	EV_QLOG="$OUT_DIR/qdisc-torb-b1.jsonl"
	tb_qdisc_sampler torb b2 "$EV_QDISC_DT"
	tb_qdisc_sampler tora up0 "$EV_QDISC_DT"
	tb_cpu_sampler 1
	RX_SRC_QLOG="$OUT_DIR/qdisc-tora-up0.jsonl"
}

# rx_initrwnd: the receivers' first window a WAN BDP at C, as reflex.md
# 7.12 has it ("receivers with matching initrwnd"): Swift and TIMELY
# start at the line rate, RDMA-style, with a BDP in flight. Linux's ten
# segments would hold an inter-DC flow to slow start for the first RTTs
# whatever its CC, and never send the line-rate first RTT the paper finds
# intra-DC flows paying for.
rx_initrwnd() {
	_segs=$((EV_C / 1000 * EV_INTER_US / 1000 / (TB_MTU - 52) + 1))
	for _h in a0 $RX_B_RCVS; do
		_gw=$(tb_ip "$_h" route show default | awk '{ print $3 }')
		tb_ip "$_h" route change default via "$_gw" initrwnd $_segs ||
			tb_die "initrwnd on $_h"
	done
	tb_log "receivers' initrwnd $_segs segments"
}

# rx_port NS DEV VARIANT: one of the three ports, fresh.
rx_port() {
	tb_tc "$1" qdisc del dev "$2" root 2> /dev/null
	case $3 in
	uno) set -- "$1" "$2" ecn-min $EV_LIMIT ecn-max $EV_LIMIT phantom-rate 90% \
		phantom-size $EV_PQ_SIZE phantom-min $((EV_PQ_SIZE * 2 / 100)) \
		phantom-max $((EV_PQ_SIZE * 60 / 100)) ;;
	*) set -- "$1" "$2" ecn-min $EV_KMIN ecn-max $EV_KMAX phantom-size 0 ;;
	esac
	_ns=$1 _dev=$2
	shift 2
	tb_tc "$_ns" qdisc add dev "$_dev" root phantom rate ${EV_RATE}mbit \
		burst "$(tb_burst)" limit $EV_LIMIT xoff $RX_XOFF "$@" ||
		tb_die "phantom on $_ns:$_dev"
}

# rx_ports VARIANT: the three ports (lib_eval.sh's EV_PORT_FN).
rx_ports() {
	rx_port tora up0 "$1"
	for _b in $RX_B_RCVS; do
		rx_port torb "$_b" "$1"
	done
}

# rx_ev_cc VARIANT: lib_eval.sh's EV_CC_FN: the BPF hosts of Swift and
# TIMELY, which take pseudo-ACKs (M2's swift and timely are the modules).
rx_ev_cc() {
	case $1 in
	swift* | timely*) echo "bpf_$(rx_cc "$1")" ;;
	*) return 1 ;;
	esac
}

# rx_cc VARIANT: swift, timely, or none of Reflex's laws.
rx_cc() {
	case $1 in
	swift*) echo swift ;;
	timely*) echo timely ;;
	esac
}

# rx_register VARIANT: bpf_swift or bpf_timely with the paper's
# parameters, dilated (reflex.md 3.1, 3.2, 5.3); Reflex mode above half
# the inter-DC RTT for the variants that take pseudo-ACKs.
rx_register() {
	_inter=0
	case $1 in
	*-reflex | *-nsf) _inter=$((EV_INTER_US / 2)) ;;
	esac
	case $(rx_cc "$1") in
	swift) $UNOCTL cc bpf register swift link_rate_mbps $EV_RATE \
		base_rtt_ns $((EV_INTRA_US * 1000)) base_delay_ns "$(rx_ns 200)" \
		hop_delay_ns "$(rx_ns 1000)" inter_rtt_us $((EV_INTER_US / 2)) \
		reflex_inter_rtt_us $_inter || tb_die "cc bpf register swift" ;;
	timely) $UNOCTL cc bpf register timely link_rate_mbps $EV_RATE \
		min_rtt_us $((20 * RX_S)) t_low_us $((50 * RX_S)) t_high_us $((500 * RX_S)) \
		reflex_inter_rtt_us $_inter || tb_die "cc bpf register timely" ;;
	*) return 0 ;;
	esac
	tb_need_cc "bpf_$(rx_cc "$1")"
}

# rx_roles_off: every Reflex role and the ndt qdisc taken off.
rx_roles_off() {
	at tora reflex detach stamp 2> /dev/null
	at bora reflex detach gateway 2> /dev/null
	for _a in $RX_A_SENDERS; do
		at "$_a" reflex detach host 2> /dev/null
	done
	tb_tc borb qdisc del dev down0 root 2> /dev/null
	return 0
}

# rx_roles VARIANT: NSF (the stamp at tora, the gateway at bora, the host
# role at a1..a4) for the variants that take pseudo-ACKs, NDT at
# borb:down0 for those that throttle; T_interval the CC's (5.3), T_idle_gc
# as long as the setting holds (u32 ns: 4.3 s, the paper's 10 ms x S
# being 10 s), T_maxpause 500 us x S.
rx_roles() {
	rx_roles_off
	case $1 in
	*-reflex | *-nsf)
		_interval=$(rx_ns "$([ "$(rx_cc "$1")" = swift ] && echo 3000 || echo 5000)")
		_devs=$(for _a in $RX_A_SENDERS; do printf 'dev %s ' "$_a"; done)
		# shellcheck disable=SC2086
		at tora reflex stamp $_devs k $RX_K || tb_die "reflex stamp at tora"
		at bora reflex gateway lan down0 wan wan1 prefix 10.100.0.0/16 k $RX_K \
			t_src_thresh_ns $RX_T_SRC_THRESH_NS t_interval_ns "$_interval" \
			t_idle_gc_ns 4000000000 || tb_die "reflex gateway at bora"
		for _a in $RX_A_SENDERS; do
			at "$_a" reflex host dev eth0 gateway $RX_GW_A k $RX_K ||
				tb_die "reflex host at $_a"
		done ;;
	esac
	case $1 in
	*-reflex | *-ndt)
		tb_tc borb qdisc add dev down0 root ndt rate ${RX_NDT_MBIT}mbit \
			dst-thresh $((RX_T_DST_THRESH_NS / 1000))us \
			maxpause $((500 * RX_S / 1000))ms || tb_die "ndt on borb:down0" ;;
	esac
}

# rx_begin VARIANT: its CC, roles and receivers, then ev_begin (the ports).
rx_begin() {
	rx_register "$1"
	rx_roles "$1"
	_rcv_cc=$(ev_cc "$1" intra)
	case $_rcv_cc in
	bpf_*) _rcv_cc=cubic ;;	# the receivers send only ACKs
	esac
	ev_begin "$1"
	for _h in a0 $RX_B_RCVS; do
		tb_ns_cc "$_h" "$_rcv_cc"
	done
}

# rx_client NAME CLASS SENDERS RCV ADDR SEED RTT_US LOAD MS: one of the
# mix's unoperf clients, in the background, to a server of its own at RCV;
# its output in $OUT_DIR/$EV_SCENARIO-$EV_LABEL-NAME.unoperf.json.
rx_client() {
	_name=$1 _cls=$2 _senders=$3 _rcv=$4 _addr=$5 _seed=$6 _rtt=$7 _load=$8 _ms=$9
	_cdf=$(dirname "$0")/data/WebSearch_distribution.txt
	_ns=$(for _n in $_senders; do printf '%s,' "$(tb_ns "$_n")"; done)
	set -- --cdf-intra "$_cdf" --cdf-inter "$_cdf" --load "$_load" --duration-ms "$_ms" \
		--seed "$_seed" --rate-mbps $EV_RATE --senders "$_cls=${_ns%,}" \
		--intra-fraction "$([ "$_cls" = intra ] && echo 1 || echo 0)" \
		--size-scale $RX_SIZE_SCALE --cc-$_cls "$(ev_cc "$EV_VARIANT" "$_cls")" \
		--base-rtt-us-$_cls "$_rtt" --connect-ahead-ms $((2 * TB_WAN_RTT + 500))
	$UNOPERF client --dry-run "$@" > "$TB_RUN/plan-$_name.json" ||
		tb_die "unoperf cannot plan $_name"
	ev_next_port
	$UNOPERF server --netns "$(tb_ns "$_rcv")" -p $EV_PORT \
		--count "$(jq '.flows | length' "$TB_RUN/plan-$_name.json")" \
		-j "$TB_RUN/server-$EV_PORT.jsonl" 2> "$TB_RUN/server-$EV_PORT.err" &
	echo $! >> "$TB_RUN/pids"
	echo $! >> "$TB_RUN/rx-servers"
	tb_wait_listen "$_rcv" $EV_PORT
	_out=$OUT_DIR/$EV_SCENARIO-$EV_LABEL-$_name.unoperf.json
	$UNOPERF client --dst "$_addr:$EV_PORT" --timeout "$RX_TIMEOUT_S" -j "$_out" "$@" \
		2> "$TB_RUN/client-$_name.err" &
	echo "$! $_out" >> "$TB_RUN/rx-clients"
}

# rx_flows OUT...: the clients' flows as $TB_RUN/flows.json ({class, size,
# ok, censored, fct_us, slowdown}). A client stops every flow when one
# times out (RX_TIMEOUT_S after its start): a flow that had not ended then
# is censored, its FCT the time it had run, a lower bound, so that a
# baseline whose inter-DC flows starve is not measured on its survivors.
rx_flows() {
	jq -s '[.[] | select(.flows) | .timeout_s as $to |
		([.flows[] | select(.ok | not) | select((.error // "") | test("timed out")) |
		  .sched_ns + $to * 1e9] | min) as $stop |
		.flows[] | (.ok | not) as $cut |
		(if .ok then .fct_us
		 elif $stop != null and .start_ns != null then ($stop - .start_ns) / 1000
		 else null end) as $fct |
		{ class, size, ok, censored: ($cut and $fct != null), fct_us: $fct,
		  slowdown: (if $fct != null then $fct / .ideal_us else null end) }]' "$@" \
		> "$TB_RUN/flows.json" 2> /dev/null || echo '[]' > "$TB_RUN/flows.json"
}

# rx_nfct_metrics: the normalised FCTs (reflex.md 5.3: FCT / ideal) of
# every flow with one, censored ones included, as metrics: mean overall,
# intra-DC and inter-DC, p99 of each class and of the inter-DC flows above
# 10 MB (x RX_SIZE_SCALE), and p99 by size for the report's plot.
rx_nfct_metrics() {
	jq -r --argjson big "$(tb_calc "10000000 * $RX_SIZE_SCALE")" '
		def pct($p): sort | if length > 0 then .[((length - 1) * $p | round)] else null end;
		def mean: if length > 0 then add / length else null end;
		[.[] | select(.slowdown != null)] as $f |
		{ flows: length, completed: ([.[] | select(.ok)] | length),
		  censored: ([.[] | select(.censored)] | length),
		  failed: ([.[] | select(.ok | not)] | length),
		  mean_nfct: ($f | map(.slowdown) | mean),
		  intra_mean_nfct: ([$f[] | select(.class == "intra") | .slowdown] | mean),
		  inter_mean_nfct: ([$f[] | select(.class == "inter") | .slowdown] | mean),
		  intra_p99_nfct: ([$f[] | select(.class == "intra") | .slowdown] | pct(0.99)),
		  inter_p99_nfct: ([$f[] | select(.class == "inter") | .slowdown] | pct(0.99)),
		  inter_large_flows: ([$f[] | select(.class == "inter" and .size > $big)] | length),
		  inter_large_p99_nfct: ([$f[] | select(.class == "inter" and .size > $big) |
			.slowdown] | pct(0.99)),
		  inter_censored: ([.[] | select(.censored and .class == "inter")] | length),
		  p99_slowdown_by_size: ($f | group_by(.size | if . < 100000 then 0
			elif . < 1000000 then 1 elif . < $big then 2 else 3 end) |
			map({ bucket: (.[0].size | if . < 100000 then "<100K" elif . < 1000000
				then "100K-1M" elif . < $big then "1M-\($big / 1e6)M"
				else ">\($big / 1e6)M" end),
			      flows: length, p99_slowdown: (map(.slowdown) | pct(0.99)) })) } |
		to_entries[] | "\(.key) \(.value | tojson)"' "$TB_RUN/flows.json" >> "$TB_RUN/metrics"
}

# rx_reflex_metrics: the source port's queue, drops and pauses, b2's queue
# (ev_end has b1's), the receivers' ports' pauses, NSF's and the hosts'
# counters, NDT's, as metrics (0 where the role is off).
rx_reflex_metrics() {
	read -r _now _ < /proc/uptime
	ev_metric src_backlog_p99_bytes "$(tb_backlog_pct "$RX_SRC_QLOG" 99 "$EV_T0" "$_now")"
	ev_metric src_drops "$(tb_tc tora -s -j qdisc show dev up0 |
		jq '[.[] | select(.root == true) | .drops] | add // 0')"
	ev_metric b2_backlog_p99_bytes "$(tb_backlog_pct "$OUT_DIR/qdisc-torb-b2.jsonl" 99 \
		"$EV_T0" "$_now")"
	_src=$(tb_qdisc_counter tora up0 xoff_events)
	_dst=$(($(tb_qdisc_counter torb b1 xoff_events) + $(tb_qdisc_counter torb b2 xoff_events)))
	ev_metric vpfc_src "$_src"
	ev_metric vpfc_dst "$_dst"
	ev_metric vpfc $((_src + _dst))
	at bora -j reflex show > "$OUT_DIR/$EV_LABEL-gw.json"
	for _c in nsf_episodes nsf_built; do
		ev_metric $_c "$(jq "[.[] | select(.role == \"gateway\") | .counters.$_c // 0] |
			add // 0" "$OUT_DIR/$EV_LABEL-gw.json")"
	done
	for _a in $RX_A_SENDERS; do
		at "$_a" -j reflex show
	done | jq -s 'add' > "$OUT_DIR/$EV_LABEL-hosts.json"
	for _c in fb_accepted fb_stale fb_bad_rtt fb_no_flow fb_malformed fb_foreign; do
		ev_metric $_c "$(jq "[.[] | select(.role == \"host\") | .counters.$_c // 0] |
			add // 0" "$OUT_DIR/$EV_LABEL-hosts.json")"
	done
	tb_tc borb -s -j qdisc show dev down0 | jq '.[] | select(.root == true)' \
		> "$OUT_DIR/$EV_LABEL-ndt.json"
	for _c in pauses pause_timeouts ctl_enqueued paused_ns tail_drops; do
		ev_metric ndt_$_c "$(jq "(.xstats.$_c // .$_c // 0)" "$OUT_DIR/$EV_LABEL-ndt.json")"
	done
}

# rx_mix_run LOAD MS SEED: one run of the mix, its clients' outputs
# appended to $TB_RUN/rx-outs. Of up0, half A's intra-DC flows (a1..a4 ->
# a0) and half the inter-DC ones, these to b1 and b2 alike; of b1's and
# b2's links, the inter-DC share and B's intra-DC flows (b3, b4) the rest.
# Each client its own seed, 10 SEED + 1..5.
rx_mix_run() {
	_quarter=$(tb_calc "$1 / 4")
	_seed=$((10 * $3 + 1))
	: > "$TB_RUN/rx-servers"
	: > "$TB_RUN/rx-clients"
	rm -f "$TB_RUN"/client-*.err
	rx_client a-intra-$3 intra "$RX_A_SENDERS" a0 $RX_A0_ADDR $_seed "$RX_INTRA_A_US" \
		"$(tb_calc "$1 / 2")" "$2"
	for _b in $RX_B_RCVS; do
		_addr=10.200.${_b#b}.1
		rx_client a-inter-$_b-$3 inter "$RX_A_SENDERS" "$_b" "$_addr" $((_seed + 1)) \
			"$EV_INTER_US" "$_quarter" "$2"
		rx_client b-intra-$_b-$3 intra "$RX_B_SENDERS" "$_b" "$_addr" $((_seed + 2)) \
			"$EV_INTRA_US" "$(tb_calc "$1 * 3 / 4")" "$2"
		_seed=$((_seed + 2))
	done
	while read -r _pid _out; do
		wait "$_pid"
		echo "$_out" >> "$TB_RUN/rx-outs"
	done < "$TB_RUN/rx-clients"
	while read -r _pid; do
		kill "$_pid" 2> /dev/null
		wait "$_pid" 2> /dev/null
	done < "$TB_RUN/rx-servers"
	for _f in "$TB_RUN"/client-*.err; do
		[ -s "$_f" ] && tb_log "$(basename "$_f"): $(tail -n 2 "$_f")"
	done
}

# rx_mix LOAD MS SEED...: the WebSearch mix of reflex.md 5.3 for the
# current variant, Poisson arrivals for MS ms offering LOAD of each port,
# once per SEED (the same in every variant), the flows of all of them
# pooled into the variant's metrics.
rx_mix() {
	_load=$1 _ms=$2
	shift 2
	: > "$TB_RUN/rx-outs"
	for _s in "$@"; do
		rx_mix_run "$_load" "$_ms" "$_s"
	done
	# shellcheck disable=SC2046
	rx_flows $(cat "$TB_RUN/rx-outs")
	rx_nfct_metrics
	rx_reflex_metrics
}

# rx_cut REFLEX BASE NAME: 1 - REFLEX's metric NAME / BASE's, the cut
# Reflex makes; empty unless both ran and have it.
rx_cut() {
	[ -f "$TB_RUN/ev-$1.json" ] && [ -f "$TB_RUN/ev-$2.json" ] || return 0
	jq -n --argjson r "$(ev_result_metric "$1" "$3")" --argjson b "$(ev_result_metric "$2" "$3")" \
		'if $r != null and $b != null and $b > 0 then 1 - $r / $b else empty end'
}

# rx_end VARIANT: ev_end, then its BPF CC unregistered.
rx_end() {
	ev_end
	[ -z "$(rx_cc "$1")" ] || $UNOCTL cc bpf unregister "$(rx_cc "$1")" ||
		tb_die "cc bpf unregister $(rx_cc "$1")"
}

# rx_metric_now NAME: the current variant's metric NAME, before ev_end.
rx_metric_now() { awk -v n="$1" '$1 == n { v = $2 } END { print v }' "$TB_RUN/metrics"; }

# rx_websearch LOAD VARIANT...: each variant through the mix at LOAD for
# RX_MS ms, once per seed of RX_SEEDS, then the roles off. Checked for
# each variant that takes pseudo-ACKs: none implausible, malformed or
# foreign; with NSF alone, every flow completed. Claimed: that some came
# (a check run's few flows may queue no 1.75 ms at up0), and every flow
# completed with NDT too: NDT's resumed queue overflows a receiver's port
# (no PFC holds it back), and a TIMELY Reflex flow that each RTO halved
# takes no sample to rise again (Documentation/reflex.rst).
rx_websearch() {
	_ws_load=$1
	shift
	for _v in "$@"; do
		rx_begin "$_v"
		# shellcheck disable=SC2086
		rx_mix "$_ws_load" "$RX_MS" $RX_SEEDS
		case $_v in
		*-reflex | *-nsf)
			ev_claim fb_accepted "$(rx_metric_now fb_accepted)" ">" 0
			for _c in fb_bad_rtt fb_malformed fb_foreign; do
				ev_check $_c "$(rx_metric_now $_c)" == 0
			done ;;
		esac
		case $_v in
		*-nsf) ev_check failed "$(rx_metric_now failed)" == 0 ;;
		*-reflex) ev_claim failed "$(rx_metric_now failed)" == 0 ;;
		esac
		rx_end "$_v"
	done
	rx_roles_off
}

# rx_claim_vpfc CC: the DC ports' virtual PFC pauses at most half CC's
# with Reflex (reflex.md 5.3, R10, R11), and fewer with NDT alone (A3):
# none where CC had none.
rx_claim_vpfc() {
	[ -f "$TB_RUN/ev-$1.json" ] || return 0
	_base=$(ev_result_metric "$1" vpfc)
	if [ -f "$TB_RUN/ev-$1-reflex.json" ]; then
		EV_LABEL=$1-reflex
		ev_claim vpfc "$(ev_result_metric "$1-reflex" vpfc)" "<=" "$(tb_calc "$_base / 2")"
	fi
	if [ -f "$TB_RUN/ev-$1-ndt.json" ]; then
		EV_LABEL=$1-ndt
		ev_claim vpfc "$(ev_result_metric "$1-ndt" vpfc)" \
			"$([ "$_base" -gt 0 ] && echo "<" || echo "<=")" "$_base"
	fi
}

# rx_claim_baseline CC: the paper's finding about its baselines (reflex.md
# 5.2, M1, its Fig. 1): CC's inter-DC flows have a lower mean normalised
# FCT than its intra-DC ones, at every load.
rx_claim_baseline() {
	[ -f "$TB_RUN/ev-$1.json" ] || return 0
	_inter=$(ev_result_metric "$1" inter_mean_nfct)
	_intra=$(ev_result_metric "$1" intra_mean_nfct)
	[ "$_inter" != null ] && [ "$_intra" != null ] || return 0
	EV_LABEL=$1
	ev_claim inter_mean_nfct "$_inter" "<" "$_intra"
}

# rx_lower_load NAME LOAD: scenario NAME, RX1's mix at a lower LOAD (RX2,
# RX3): swift-reflex for 3 s in the check profile; swift, swift-reflex,
# timely and timely-reflex, RX1's 20 s three times over, in the full one.
# Claimed: the baselines' M1, the virtual PFC cut (R11).
rx_lower_load() {
	rx_init "$1"
	RX_TIMEOUT_S=$(ev_pick 30 40)
	RX_MS=$(ev_pick 3000 20000)
	RX_SEEDS=$(ev_pick 1 "1 2 3")
	# shellcheck disable=SC2046
	rx_websearch "$2" $(ev_variants $(ev_pick swift-reflex \
		"swift swift-reflex timely timely-reflex"))
	for _cc in swift timely; do
		rx_claim_baseline $_cc
		rx_claim_vpfc $_cc
		_cut=$(rx_cut $_cc-reflex $_cc mean_nfct)
		[ -z "$_cut" ] || tb_log "$_cc: Reflex cuts the mean normalised FCT by $_cut"
	done
	rx_finish "$2" \
		'[{"metric":"vpfc","paper":"TIMELY: no PFC pause with Reflex at 30 and 50 %, hundreds without (R11)","ours":"at most half (none where the baseline had none)"},
		  {"metric":"mean_nfct","paper":"Reflex cuts it, less than at 70 %; TIMELY slightly worse at 30 % (R12)","ours":"reported"},
		  {"metric":"inter_mean_nfct","paper":"Swift, TIMELY: below the intra-DC mean at every load (Fig. 1)","ours":"below the intra-DC mean"}]'
}

# rx_finish LOAD CLAIMS_JSON: ev_finish with the mix's description and
# table.
rx_finish() {
	ev_finish "Reflex's WebSearch mix at $1 load (reflex.md 5.3, the paper's Fig. 6): two DCs dilated x $RX_S at $EV_RATE Mbit/s (sizes x $RX_SIZE_SCALE, intra-DC RTT 8 ms, inter-DC 1012 ms), Poisson arrivals for $RX_MS ms, seeds $RX_SEEDS pooled: DC A's a1..a4 to a0 (intra-DC) and to b1 and b2 (inter-DC) across tora's uplink, half each; DC B's b3, b4 to b1 and b2 (intra-DC), a quarter of each receiver's link inter-DC; $1 of each of the three ports. Normalised FCT = FCT / (size x 8 / C + base RTT); flows cut short at ${RX_TIMEOUT_S} s count at that time. Variants: swift and timely (bpf_swift, bpf_timely end to end), with Reflex (-reflex: NSF at bora, NDT at borb), NSF only (-nsf), NDT only (-ndt); dctcp, uno. Virtual PFC: pauses a lossless port would have sent, X_off 1 MB, X_on 2 MTU below (5.3), up0 (src) and b1, b2 (dst)." \
		"$2" \
		'[["flows","flows"],["censored","cut short"],["mean_nfct","mean nFCT"],
		  ["intra_mean_nfct","intra mean"],["inter_mean_nfct","inter mean"],
		  ["intra_p99_nfct","intra p99"],["inter_large_p99_nfct","inter >5MB p99"],
		  ["src_backlog_p99_bytes","up0 p99 B"],["backlog_p99_bytes","b1 p99 B"],
		  ["vpfc_src","vPFC src"],["vpfc_dst","vPFC dst"],
		  ["fb_accepted","pseudo-ACKs"],["ndt_pauses","NDT pauses"],["drops","b1 drops"]]'
}
