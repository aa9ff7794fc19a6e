#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Helpers of the entropy datapath's VM tests, sourced after testbed.sh and
# ../unod/lib_unod.sh: unod and unoctl in a sender namespace (nsenter
# --net, which keeps the bpf filesystem that 'ip netns exec' hides), and
# lb_flow's flows from it to an echo at the receiver; the two-DC testbed
# with LINKS WAN legs, sender a1.

LB_FLOW=${LB_FLOW:-/uno/bin/lb_flow}
PORT=9000
TB_WAN_RTT=2

UNOD_BIN=$UNOD
UNOD_CONF=$TB_RUN/uno.toml

# lb_sender NS: the namespace whose datapath unod and lb_unoctl handle,
# and lb_flow sends from.
lb_sender() {
	LB_SND=$1
	LB_SND_NET=/run/netns/$TB_PREFIX$1
	UNOD="nsenter --net=$LB_SND_NET $UNOD_BIN"
}

lb_unoctl() { nsenter --net="$LB_SND_NET" "$UNOCTL" "$@"; }

# lb_testbed LINKS: the two-DC testbed, sender a1.
lb_testbed() {
	LINKS=$1
	tb_twodc "$LINKS" 1
	lb_sender a1
}

# lb_conf MODE [KEY = VALUE...]: a file of one [[lb]] on the sender's eth0 for
# PORT with 4096 EVs, in $TB_RUN/MODE.toml.
lb_conf() {
	_mode=$1
	shift
	{
		printf '[[lb]]\ndev = "eth0"\nmode = "%s"\nports = [%s]\nnum-ev = 4096\n' \
			"$_mode" $PORT
		for _kv in "$@"; do echo "$_kv"; done
	} > "$TB_RUN/$_mode.toml"
}

# leg_packets L: packets sent on leg L, LEG_NS's device LEG_DEV<L> (the
# two-DC border's WAN links; a test of another fabric sets its own).
LEG_NS=bora
LEG_DEV=wan
leg_packets() {
	tb_ip "$LEG_NS" -s -j link show dev "$LEG_DEV$1" | jq '.[0].stats64.tx.packets'
}

# legs_mark; ...; legs_shares TOTAL: each leg's share of TOTAL packets
# since the mark, in $SHARES, and the least and most in $SHARE_MIN and
# $SHARE_MAX.
legs_mark() {
	_l=1
	while [ "$_l" -le "$LINKS" ]; do
		eval "_p0_$_l=$(leg_packets $_l)"
		_l=$((_l + 1))
	done
}

legs_shares() {
	SHARES=""
	_l=1
	while [ "$_l" -le "$LINKS" ]; do
		eval "_d=\$(( \$(leg_packets $_l) - _p0_$_l ))"
		SHARES="$SHARES $(tb_calc "$_d / $1")"
		_l=$((_l + 1))
	done
	SHARE_MIN=$(echo $SHARES | tr ' ' '\n' | sort -g | head -n 1)
	SHARE_MAX=$(echo $SHARES | tr ' ' '\n' | sort -g | tail -n 1)
}

# flow_start NAME COUNT GAP_US [FLOWS]: COUNT datagrams on each of FLOWS
# flows (1) from the sender to the receiver's echo, GAP_US apart; flow_wait NAME waits for
# them. Their JSON: $OUT_DIR/{send,echo}-NAME.json.
flow_start() {
	tb_exec "$TB_RCV" "$LB_FLOW" echo --listen "$TB_RCV_ADDR:$PORT" --idle-ms 3000 \
		> "$OUT_DIR/echo-$1.json" 2>&1 &
	ECHO_PID=$!
	echo $ECHO_PID >> "$TB_RUN/pids"
	tb_wait_listen "$TB_RCV" $PORT udp
	tb_exec "$LB_SND" "$LB_FLOW" send --to "$TB_RCV_ADDR:$PORT" --src-port 40000 \
		--count "$2" --gap-us "$3" --flows "${4:-1}" \
		> "$OUT_DIR/send-$1.json" 2> "$OUT_DIR/send-$1.err" &
	SEND_PID=$!
	echo $SEND_PID >> "$TB_RUN/pids"
}

flow_wait() {
	wait $SEND_PID || tb_die "$1: lb_flow send: $(cat "$OUT_DIR/send-$1.err")"
	wait $ECHO_PID
}

# flow NAME COUNT GAP_US: one flow, every datagram answered.
flow() {
	flow_start "$1" "$2" "$3"
	flow_wait "$1"
	tb_check "$1:echoed" "$(jq .data "$OUT_DIR/echo-$1.json")" "==" "$2"
	tb_check "$1:acks" "$(jq .acks "$OUT_DIR/send-$1.json")" "==" "$2"
}

# UDP checksum errors at the receiver, which the datapath's rewrites must
# leave at 0.
csum_errors() {
	tb_exec "$TB_RCV" cat /proc/net/snmp | awk '$1 == "Udp:" {
		if (!h) { for (i = 2; i <= NF; i++) n[i] = $i; h = 1; next }
		for (i = 2; i <= NF; i++) if (n[i] == "InCsumErrors") print $i }'
}
