#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# unod puts the entropy datapath on a device from [[lb]], changes it in
# place on a reload and takes it off when [[lb]] goes; unoctl shows it
# (issue 14, item 3). unod runs in the two-DC testbed's host a1 through
# nsenter --net, which keeps the bpf filesystem its pins go to.
#
# Checked: after the first start, the programs are on a1's eth0 and a
# SPRAY_RR flow of 2000 datagrams uses 2000 EVs and every WAN leg; after a
# reload to ECMP, the programs are new, the counters and pins the same
# (4000 rewritten) and the flow on one leg; with [[lb]] gone, no filter,
# clsact (unod made it), pin, program or map is left. Then CYCLES
# attach-detach reloads on a clsact that was there before, while a flow
# runs through the device: every datagram is answered, and again nothing
# is left but that clsact (the runner also fails the test on any kernel
# warning).
# uno-timeout: 240
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"

LB_FLOW=${LB_FLOW:-/uno/bin/lb_flow}
CYCLES=${UNO_LB_CYCLES:-100}
LINKS=4
COUNT=2000
PORT=9000
TB_WAN_RTT=2

tb_twodc $LINKS 1
A1_NET=/run/netns/${TB_PREFIX}a1
UNOD="nsenter --net=$A1_NET $UNOD"
a1_unoctl() { nsenter --net="$A1_NET" "$UNOCTL" "$@"; }

UNOD_CONF=$TB_RUN/uno.toml
lb_conf() {
	cat <<CONF
[[lb]]
dev = "eth0"
mode = "$1"
ports = [$PORT]
num-ev = 4096
CONF
}
lb_conf spray_rr > "$TB_RUN/spray_rr.toml"
lb_conf ecmp > "$TB_RUN/ecmp.toml"
: > "$TB_RUN/none.toml"

leg_packets() {
	tb_exec bora $IP -s -j link show dev "wan$1" | jq '.[0].stats64.tx.packets'
}

# flow_start NAME COUNT GAP_US: COUNT datagrams from a1 to b1's echo,
# the datapath (if any) unod's; flow_end NAME COUNT waits for them and
# checks that every one was answered.
flow_start() {
	tb_exec "$TB_RCV" "$LB_FLOW" echo --listen "$TB_RCV_ADDR:$PORT" --idle-ms 3000 \
		> "$OUT_DIR/echo-$1.json" 2>&1 &
	ECHO_PID=$!
	echo $ECHO_PID >> "$TB_RUN/pids"
	tb_wait_listen "$TB_RCV" $PORT udp
	tb_exec a1 "$LB_FLOW" send --to "$TB_RCV_ADDR:$PORT" --src-port 40000 \
		--count "$2" --gap-us "$3" > "$OUT_DIR/send-$1.json" 2> "$OUT_DIR/send-$1.err" &
	SEND_PID=$!
	echo $SEND_PID >> "$TB_RUN/pids"
}

flow_end() {
	wait $SEND_PID || tb_die "$1: lb_flow send: $(cat "$OUT_DIR/send-$1.err")"
	wait $ECHO_PID
	tb_check "$1:echoed" "$(jq .data "$OUT_DIR/echo-$1.json")" "==" "$2"
	tb_check "$1:acks" "$(jq .acks "$OUT_DIR/send-$1.json")" "==" "$2"
}

# flow_shares NAME: one flow of COUNT, and each leg's share of it.
flow_shares() {
	l=1
	while [ $l -le $LINKS ]; do
		eval "p0_$l=$(leg_packets $l)"
		l=$((l + 1))
	done
	flow_start "$1" $COUNT 200
	flow_end "$1" $COUNT
	shares=""
	l=1
	while [ $l -le $LINKS ]; do
		eval "d=\$(( \$(leg_packets $l) - p0_$l ))"
		shares="$shares $(tb_calc "$d / $COUNT")"
		l=$((l + 1))
	done
	tb_log "$1: legs' shares$shares"
	SHARE_MIN=$(echo $shares | tr ' ' '\n' | sort -g | head -n 1)
	SHARE_MAX=$(echo $shares | tr ' ' '\n' | sort -g | tail -n 1)
}

# check_gone NAME CLSACTS: nothing of the datapath is left in the kernel
# or the bpf filesystem, and eth0 has CLSACTS clsact qdiscs.
check_gone() {
	tb_check "$1:filters" "$(tb_exec a1 $TC filter show dev eth0 egress | wc -l)" "==" 0
	tb_check "$1:clsact" "$(tb_exec a1 $TC qdisc show dev eth0 | grep -c clsact)" "==" "$2"
	tb_check "$1:pins" "$(find /sys/fs/bpf/uno 2>/dev/null | wc -l)" "==" 0
	tb_check "$1:lb_show" "$(a1_unoctl -j lb show | jq length)" "==" 0
	# Programs and maps are freed after an RCU grace period.
	_n=50
	while [ $_n -gt 0 ] && bpftool prog show | grep -q ' name lb_'; do
		sleep 0.1
		_n=$((_n - 1))
	done
	tb_check "$1:progs" "$(bpftool prog show | grep -c ' name lb_')" "==" 0
	tb_check "$1:maps" "$(bpftool map show | grep -c ' name lb_')" "==" 0
}

cp "$TB_RUN/spray_rr.toml" "$UNOD_CONF"
unod_start "$UNOD_CONF"
a1_unoctl -j lb show > "$OUT_DIR/show-spray_rr.json"
s=$OUT_DIR/show-spray_rr.json
tb_check spray_rr:mode "$(jq -r '.[0].mode' "$s")" "==" spray_rr
tb_check spray_rr:port "$(jq '.[0].ports[0].port' "$s")" "==" $PORT
tb_check spray_rr:attached "$(jq '.[0].prog.egress > 0 and .[0].prog.ingress > 0' "$s")" "==" true
PROG1=$(jq '.[0].prog.egress' "$s")
flow_shares spray_rr
a1_unoctl -j lb show > "$s"
tb_check spray_rr:rewritten "$(jq '.[0].counters.pkts_rewritten' "$s")" "==" $COUNT
tb_check spray_rr:evs_used "$(jq '.[0].ev_packets | length' "$s")" "==" $COUNT
tb_check spray_rr:least_leg_share "$SHARE_MIN" ">=" 0.2125

cp "$TB_RUN/ecmp.toml" "$UNOD_CONF"
unod_reload "$UNOD_CONF"
a1_unoctl -j lb show > "$OUT_DIR/show-ecmp.json"
s=$OUT_DIR/show-ecmp.json
tb_check ecmp:mode "$(jq -r '.[0].mode' "$s")" "==" ecmp
tb_check ecmp:new_prog "$(jq ".[0].prog.egress != $PROG1" "$s")" "==" true
tb_check ecmp:flows_started_over "$(jq '.[0].flows' "$s")" "==" 0
flow_shares ecmp
a1_unoctl -j lb show > "$s"
tb_check ecmp:counters_kept "$(jq '.[0].counters.pkts_rewritten' "$s")" "==" $((2 * COUNT))
tb_check ecmp:busiest_leg_share "$SHARE_MAX" ">=" 0.95

unod_reload "$TB_RUN/none.toml"
grep -q "lb dev eth0: removed" "$UNOD_LOG" || tb_die "unod did not remove the datapath"
check_gone detach 0

# Attach and detach under a flow that outlasts them: a datagram every
# 500 us, the reloads' time measured by one cycle. The clsact is there
# before unod and stays: creating or deleting one deactivates the
# device's transmit queues for a moment (qdisc_graft(), dev_deactivate()),
# dropping what is sent meanwhile, 49 of 45700 datagrams over 100 cycles
# when unod owned it (Documentation/lb.rst). It is also what keeps tc's
# static keys on: the first and last clsact patch the code every packet
# runs, and under TCG patching it under traffic has left both vCPUs
# re-executing a stale int3 in __netif_receive_skb_core.
tb_exec a1 $TC qdisc add dev eth0 clsact
t0=$(cut -d' ' -f1 /proc/uptime)
unod_reload "$TB_RUN/spray_rr.toml"
unod_reload "$TB_RUN/none.toml"
cycle_ms=$(tb_calc "int(($(cut -d' ' -f1 /proc/uptime) - $t0) * 1000) + 10")
n=$(((CYCLES * cycle_ms * 3 / 2 + 2000) * 2))
tb_log "one attach-detach cycle: $cycle_ms ms; $n datagrams over $CYCLES cycles"
flow_start churn $n 500
sleep 1
c=1
while [ $c -lt "$CYCLES" ]; do
	unod_reload "$TB_RUN/spray_rr.toml"
	unod_reload "$TB_RUN/none.toml"
	c=$((c + 1))
done
tb_check churn:flow_outlasted "$(jq -s length "$OUT_DIR/send-churn.json")" "==" 0
flow_end churn $n
tb_check churn:reloads_applied "$(grep -c 'reload: applied, 0 failed' "$UNOD_LOG")" "==" \
	$((2 * CYCLES + 2))
check_gone churn 1
tb_exit
