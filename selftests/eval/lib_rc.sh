#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The UnoRC scenarios' runs (RC1, RC2), on top of lib_eval.sh: a unoperf
# flows file, one message per flow, over UnoRC (unoperf --transport unorc)
# or over TCP, with one FCT for both: from handing the message to the
# transport to the moment the sender knows the receiver holds all of it
# (Documentation/unoperf.rst). Every UnoRC message is checked byte for
# byte by the server.
#
# Variants: unorc*, an UnoRC flow per message (UnoCC's window and pacing,
# the uno port of lib_eval.sh; RC_CODE_OPTS says which code); any other,
# a TCP connection per message with that variant's inter-DC CC (ev_cc).

# Every packet as large as the testbed's MTU allows, as TCP's segments
# are: IPv4 20 + UDP 8 + UnoRC's 40-byte header + payload = TB_MTU. With
# unorc's default (1400) a message would take 2.8 x the packets of the
# same message over TCP, and 2.8 x the losses.
RC_PAYLOAD=$((TB_MTU - 68))
RC_TIMEOUT=60			# s, each flow, from its start

# rc_drain_us BYTES: the time the port takes to send BYTES at EV_RATE.
rc_drain_us() {
	echo $(($1 * 8 / EV_RATE))
}

# rc_timers BUFFER_BYTES: UnoRC's timers for a path whose one buffer is
# the port's BUFFER (spec 6.2, 6.3: the artifact sums the drain times of
# the path's buffers; the WAN's netem never queues): RC_EC_WAIT_US, the
# receiver's NACK timer, is the worst-case queueing plus transmission
# along the path (Uno Sec. 4.2): the full buffer drained, plus one block
# of the (8+2) code sent at C (3 us at the paper's 100 Gbit/s, which the
# artifact leaves out; a millisecond at EV_RATE, as long as a 1-BDP
# buffer's drain). RC_RTO_INTRA_US and RC_RTO_INTER_US: each class's
# mean idle RTT plus the drain.
rc_timers() {
	_drain=$(rc_drain_us "$1")
	RC_EC_WAIT_US=$((_drain + $(rc_drain_us $((10 * TB_MTU)))))
	RC_RTO_INTRA_US=$((EV_INTRA_US + _drain))
	RC_RTO_INTER_US=$((EV_INTER_US + _drain))
}

# rc_mib_counters NS...: "RetransSegs TCPTimeouts TCPLossProbes NoPorts
# RcvbufErrors" summed over the namespaces' TCP and UDP MIBs (per
# namespace in /proc/net; the last two are UDP's: datagrams to a port no
# socket holds, and those a full socket buffer dropped).
rc_mib_counters() {
	for _ns in "$@"; do
		tb_exec "$_ns" cat /proc/net/snmp /proc/net/netstat
	done | awk '
		$1 == "Tcp:" || $1 == "TcpExt:" || $1 == "Udp:" {
			if (!hdr[$1]) { for (i = 2; i <= NF; i++) name[$1, i] = $i; hdr[$1] = 1; next }
			for (i = 2; i <= NF; i++) v[name[$1, i]] += $i
			hdr[$1] = 0
		}
		END { printf "%d %d %d %d %d\n", v["RetransSegs"], v["TCPTimeouts"],
			v["TCPLossProbes"], v["NoPorts"], v["RcvbufErrors"] }'
}

# rc_messages FLOWS_FILE RTO_US SENDER_NS...: the current variant's run
# of the unoperf flow specs in FLOWS_FILE (no cc=: it is the variant's)
# to a fresh server at the receiver. UnoRC variants take RC_CODE_OPTS on
# both ends, RC_EC_WAIT_US at the server, RTO_US and EV_INTRA_US (UnoCC's
# RTT_intra; its C is EV_RATE) at the client. Records per message the
# FCT (p50, p99, mean, max, in ms; unoperf's nearest rank), the messages
# completed at the client and at the server, and what repaired the
# losses: UnoRC's resent packets, RTO events, NACKs (TRIMMED ones among
# them), the server's decoded blocks, trims and duplicates, and the
# datagrams its socket dropped for want of buffer (socket_drops), and at
# the senders the replies to a port no socket holds (sender_no_port: a
# sub-flow re-pathed or its flow done) or dropped by a full socket
# buffer (sender_rcvbuf_drops); TCP's retransmitted segments, RTOs and
# tail loss probes (the senders' MIBs).
# The client's output goes to $OUT_DIR/$EV_SCENARIO-$EV_LABEL.unoperf.json,
# the server's to ....server.jsonl; the flows to $TB_RUN/flows.json.
rc_messages() {
	_flows=$1 _rto=$2
	shift 2
	_senders="$*"
	_n=$(grep -c . "$_flows")
	_out="$OUT_DIR/$EV_SCENARIO-$EV_LABEL.unoperf.json"
	_srv="$OUT_DIR/$EV_SCENARIO-$EV_LABEL.server.jsonl"
	ev_next_port
	# shellcheck disable=SC2086
	_mib0=$(rc_mib_counters $_senders)
	case "$EV_VARIANT" in
	unorc*)
		_tr=unorc
		# shellcheck disable=SC2086
		set -- --transport unorc $RC_CODE_OPTS --payload $RC_PAYLOAD
		_srv_opts="$* --ec-wait-us $RC_EC_WAIT_US"
		_cli_opts="$* --rto-us $_rto --intra-rtt-us $EV_INTRA_US"
		;;
	*)
		_tr=tcp
		_srv_opts="--transport tcp"
		_cli_opts="--transport tcp --cc $(ev_cc "$EV_VARIANT" inter)"
		;;
	esac
	# shellcheck disable=SC2086
	$UNOPERF server --netns "$(tb_ns "$TB_RCV")" -p "$EV_PORT" --count "$_n" $_srv_opts \
		-j "$_srv" 2> "$TB_RUN/server.err" &
	_spid=$!
	echo $_spid >> "$TB_RUN/pids"
	if [ $_tr = unorc ]; then
		tb_wait_listen "$TB_RCV" "$EV_PORT" udp
	else
		tb_wait_listen "$TB_RCV" "$EV_PORT"
	fi
	# shellcheck disable=SC2086
	$UNOPERF client --dst "$TB_RCV_ADDR:$EV_PORT" -F "$_flows" --engine loop \
		--rate-mbps $EV_RATE --timeout $RC_TIMEOUT $_cli_opts -j "$_out" \
		2> "$TB_RUN/client.err" ||
		tb_log "$EV_LABEL: unoperf client: $(tail -n 3 "$TB_RUN/client.err")"
	# The server ends once it has every flow (UnoRC: and --linger-ms
	# without a datagram, for late resends' ACKs); a message the client
	# gave up on never comes.
	_tries=50
	while kill -0 $_spid 2>/dev/null && [ $_tries -gt 0 ]; do
		sleep 0.1
		_tries=$((_tries - 1))
	done
	kill $_spid 2>/dev/null
	wait $_spid 2>/dev/null
	[ -s "$_out" ] || echo '{"flows":[],"summary":{}}' > "$_out"
	jq '[.flows[] | {id, class, size, offset_us, ok, start_ns, end_ns, fct_us} +
		(.unorc // {} | with_entries(select(.key | IN("retransmissions", "rto_events",
			"nacks", "trim_nacks"))))]' "$_out" \
		> "$TB_RUN/flows.json" 2>/dev/null || echo '[]' > "$TB_RUN/flows.json"
	jq -r 'def ms: if . == null then null else . / 1000 end;
		([.flows[] | .unorc // empty] as $u | if ($u | length) == 0 then empty else
			"messages_with_rto \([$u[] | select(.rto_events > 0)] | length)",
			"messages_with_block_nack \([$u[] | select(.nacks > .trim_nacks)] | length)"
		 end),
		(.summary | "messages \(.completed // 0)", "failed \(.failed // null)",
		"p50_fct_ms \(.p50_fct_us | ms)", "p99_fct_ms \(.p99_fct_us | ms)",
		"mean_fct_ms \(.mean_fct_us | ms)", "max_fct_ms \(.max_fct_us | ms)",
		(.unorc // empty | "packets_sent \(.packets_sent)", "retransmissions \(.retransmissions)",
			"timeouts \(.timeouts)", "rto_events \(.rto_events)", "nacks \(.nacks)",
			"trim_nacks \(.trim_nacks)"))' "$_out" >> "$TB_RUN/metrics"
	touch "$_srv"
	jq -rs '([.[] | select(.role == "server")] | length) as $n |
		"server_messages \($n)",
		(.[] | select(.role == "server_summary") |
			"mismatched_bytes \(.mismatched_bytes)", "bad_messages \(.bad_flows)",
			"decoded_blocks \(.decoded_blocks)", "server_nacks \(.nacks)",
			"server_trims \(.trims)", "duplicates \(.duplicates)",
			"socket_drops \(.socket_drops // 0)",
			"truncated \(.drops.payload_truncated // 0)")' "$_srv" >> "$TB_RUN/metrics"
	# shellcheck disable=SC2086,SC2046
	set -- $_mib0 $(rc_mib_counters $_senders)
	if [ $_tr = tcp ]; then
		ev_metric retransmissions $(($6 - $1))
		ev_metric rto_events $(($7 - $2))
		ev_metric loss_probes $(($8 - $3))
	else
		ev_metric sender_no_port $(($9 - $4))
		ev_metric sender_rcvbuf_drops $((${10} - $5))
	fi
}

# rc_check_complete N: after ev_end, the current label's hard checks:
# N messages completed at the client and delivered at the server, and for
# UnoRC every byte as sent (the server checks each one against the
# flow's pattern) and no message with a bad header.
rc_check_complete() {
	_m=$TB_RUN/ev-$EV_LABEL.json
	ev_check messages "$(jq .metrics.messages "$_m")" "==" "$1"
	ev_check server_messages "$(jq .metrics.server_messages "$_m")" "==" "$1"
	case "$EV_VARIANT" in
	unorc*)
		# -1: the server left no summary, so no byte was checked.
		ev_check mismatched_bytes "$(jq '.metrics.mismatched_bytes // -1' "$_m")" "==" 0
		ev_check bad_messages "$(jq '.metrics.bad_messages // -1' "$_m")" "==" 0
		;;
	esac
}

# rc_ratio LABEL_A LABEL_B METRIC: A's METRIC over B's, or null.
rc_ratio() {
	_a=$TB_RUN/ev-$1.json _b=$TB_RUN/ev-$2.json
	if [ -f "$_a" ] && [ -f "$_b" ]; then
		jq -n --slurpfile a "$_a" --slurpfile b "$_b" --arg m "$3" \
			'$a[0].metrics[$m] as $x | $b[0].metrics[$m] as $y |
			 if $x == null or $y == null or $y == 0 then null else $x / $y end'
	else
		echo null
	fi
}

# rc_add_metric LABEL NAME VALUE: a metric computed after LABEL's ev_end
# (a comparison with a later variant), into its result.
rc_add_metric() {
	_f=$TB_RUN/ev-$1.json
	[ -f "$_f" ] || return 0
	jq --arg k "$2" --argjson v "$3" '.metrics[$k] = $v' "$_f" > "$_f.tmp" && mv "$_f.tmp" "$_f"
}
