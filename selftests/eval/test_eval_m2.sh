#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# M2 (MLCC's motivation experiment 2, mlcc.md 5.5, the paper's Fig. 3):
# congestion in the sender's DC. Two intra-DC flows share their rack's
# uplink; cross-DC flows from the same rack join one after another. With
# DCQCN or PowerTCP, the paper finds, the intra-DC flows lose bandwidth as
# each cross-DC flow joins: the long-RTT flows react a WAN round trip
# late, and the short-RTT ones back off first and drain the queue. MLCC's
# near-source loop gives the cross-DC flows their own DC's feedback at
# intra-DC speed (DCI_s's Switch-INT), so they no longer take the
# intra-DC flows' share.
#
# The two DCs of testbed.sh (tb_twodc), EMU-A's times (mlcc.md 5.7: WAN
# RTT 60 ms): a1..a4 in the sender's rack, whose ToR's uplink tora:up0 is
# the bottleneck, a phantom port at EV_RATE (250 Mbit/s, EMU-A's host
# link) with INT; c1, DC A's intra-DC receiver, one hop past it (behind
# bora, the spine and DCI_s); b1 in DC B. a1 and a2 send to c1 from 0,
# a3 to b1 from PHASE, a4 from 2 PHASE, until 4 PHASE. Every host's link
# is R_line = EV_RATE, so each flow alone could take the port.
#
# Variants, a CC with its port (the RED-style ramp of lib_eval.sh's other
# variants, uno's phantom queue marking for uno, INT for all):
#   mlcc   bpf_mlcc everywhere: the cross-DC flows on the near-source
#          loop (DCI_s at bora, the sender role at each a*), the intra-DC
#          ones on HPCC end to end (the receiver's echo, spec 3.6). The
#          credit loop (L2, L3) is not built: this experiment's
#          congestion is in the sender's DC, where it does not act.
#   hpcc   bpf_mlcc on HPCC end to end for every flow (no DCI_s): the
#          paper's HPCC baseline, each flow's T its own base RTT.
#   dctcp cubic uno swift timely
#          their Linux CCs, for the record: swift and timely the Reflex
#          issue's modules, at the papers' constants with this network's
#          line rate and intra-DC RTT (Swift's base_rtt), the receivers
#          ACKing every segment (quickack, as Swift wants; tcp_swift_timely.rst).
#
# Metrics over windows of each phase's second half: the intra-DC flows'
# share of what the port carried (fair: 1 before PHASE, 2/3 with a3,
# 1/2 with both), Jain's index of the four flows and the port's use once
# all run, the port's queue then (p50, p99). Checked in both profiles
# (mlcc.md 5.5, the paper's Fig. 3 against Fig. 12): with mlcc, the
# intra-DC flows keep at least 0.9 of their fair share, and Jain's index
# is at least 0.9.
# uno-vm: icount
# uno-timeout: 1500
# uno-cost: 230
EV_RATE=250
TB_WAN_RTT=60
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"
. "$(dirname "$0")/lib_eval.sh"

PHASE=$(ev_pick 2 5)
GW=10.10.0.254
C1=10.110.1.1

EV_PORT_FN=ev_int_port

tb_twodc 1 4
tb_add_ns c1
tb_link bora c1 10.110.1.254/24 c1 eth0 $C1/24
tb_ip c1 route add default via 10.110.1.254
TB_BOTTLENECK_NS=tora
TB_BOTTLENECK_DEV=up0

# ev_init's, for two receivers: the base RTTs, the CC modules' profile,
# the queue sampler.
EV_SCENARIO=M2
: > "$TB_RUN/ev_variants"
set -- $(tb_rtt a1 $C1 20)
EV_INTRA_US=$(tb_calc "int($2 * 1000)")
set -- $(tb_rtt a1 10.200.1.1 20)
EV_INTER_US=$(tb_calc "int($2 * 1000)")
set -- $(tb_rtt a1 $GW 20)
rtt_ns_us=$(tb_calc "int($1 * 1000 + 0.5)")
tb_log "RTT a1-c1 $EV_INTRA_US us, a1-b1 $EV_INTER_US us, a1-bora (RTT_NS) $rtt_ns_us us"
EV_PQ_SIZE=$((EV_C / 1000 * EV_INTER_US / 1000))
tb_cc_profile $EV_RATE "$EV_INTRA_US"
for _cc in dctcp cubic swift timely; do
	tb_need_cc $_cc
done
tb_set_param tcp_swift link_rate_mbps $EV_RATE
tb_set_param tcp_swift base_rtt_ns $((EV_INTRA_US * 1000))
tb_set_param tcp_timely link_rate_mbps $EV_RATE
tb_qdisc_sampler tora up0 "$EV_QDISC_DT"
tb_cpu_sampler 1
EV_QLOG="$OUT_DIR/qdisc-tora-up0.jsonl"

# MLCC: every sender without TCP timestamps (the data option's room),
# the cgroup program with HPCC end to end and DCI_s from the one config
# plane, bpf_mlcc registered.
grep -q cgroup2 /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup ||
	tb_die "cannot mount cgroup2"
for a in a1 a2 a3 a4; do
	tb_exec $a sysctl -qw net.ipv4.tcp_timestamps=0
done
printf '[mlcc]\ncgroup = "/sys/fs/cgroup"\nhpcc-line-mbps = %s\n' $EV_RATE > "$TB_RUN/mlcc.toml"
"$UNOD" --once -c "$TB_RUN/mlcc.toml" 2>> "$OUT_DIR/unod.log" ||
	tb_die "unod --once: $(cat "$OUT_DIR/unod.log")"
$UNOCTL cc bpf register mlcc || tb_die "unoctl cc bpf register mlcc"
tb_need_cc bpf_mlcc

# The near-source loop's roles: DCI_s at bora, the sender at each a*.
m2_near_source() {
	if [ "$1" = on ]; then
		at bora mlcc dci lan down0 wan wan1 || tb_die "unoctl mlcc dci"
		for a in a1 a2 a3 a4; do
			at $a mlcc sender dev eth0 dci $GW line-mbps $EV_RATE \
				rtt-ns-us "$rtt_ns_us" || tb_die "unoctl mlcc sender at $a"
		done
	else
		at bora mlcc detach dci
		for a in a1 a2 a3 a4; do
			at $a mlcc detach sender
		done
	fi
}

# m2_quickack 0|1: the receivers' ACK per segment, for the delay laws.
m2_quickack() {
	tb_ip c1 route change default via 10.110.1.254 quickack "$1" || tb_die "quickack on c1"
	tb_ip b1 route change default via 10.200.1.254 quickack "$1" || tb_die "quickack on b1"
}

ev_rx_sampler c1 b1

for v in $(ev_variants $(ev_pick "mlcc hpcc" "mlcc hpcc dctcp cubic uno swift timely")); do
	case $v in
	mlcc) m2_near_source on ;;
	*) m2_near_source off ;;
	esac
	case $v in
	swift | timely) m2_quickack 1 ;;
	*) m2_quickack 0 ;;
	esac
	ev_begin "$v"
	cc=$(ev_cc "$v")
	tb_ns_cc b1 "$cc"
	TB_RCV=c1 TB_RCV_ADDR=$C1
	tb_receiver_cc "$cc"
	tb_flow a1 "$cc" 0 intra
	tb_flow a2 "$cc" 0 intra
	read -r t0 _ < /proc/uptime
	sleep "$PHASE"
	TB_RCV=b1 TB_RCV_ADDR=10.200.1.1
	tb_flow a3 "$cc" 0 inter
	sleep "$PHASE"
	tb_flow a4 "$cc" 0 inter
	sleep $((PHASE * 2))
	read -r t1 _ < /proc/uptime
	tb_flows_stop
	ev_rates "$t0" "$t1" > "$TB_RUN/rates.json"
	# the intra-DC share, Jain's index and the port's use in each phase's
	# second half
	set -- alone "$(tb_calc "$PHASE / 2")" "$PHASE" 2 \
		one "$(tb_calc "$PHASE * 1.5")" "$((PHASE * 2))" 3 \
		both "$(tb_calc "$PHASE * 2.5")" "$((PHASE * 4))" 4
	while [ $# -gt 0 ]; do
		ev_intra_share "$1" "$2" "$3"
		ev_window "$@"
		shift 4
	done
	ev_metric window_from_s "$(tb_calc "$PHASE * 2.5")"
	ev_metric window_to_s $((PHASE * 4))
	EV_W0=$(tb_calc "$t0 + $PHASE * 2.5") EV_W1=$t1
	ev_end
	[ "$v" = mlcc ] || continue
	m=$TB_RUN/ev-$v.json
	ev_check intra_share "$(jq .metrics.intra_share_both "$m")" ">=" 0.45
	ev_check jain "$(jq .metrics.jain_both "$m")" ">=" 0.9
done
TB_RCV=c1
ev_finish "MLCC's motivation experiment 2 (its Fig. 3): two intra-DC flows on their rack's uplink (a1, a2 to c1), cross-DC flows joining every ${PHASE} s (a3, a4 to b1 across a 60 ms WAN); congestion in the sender's DC. Variants: mlcc (bpf_mlcc, the near-source loop for the cross-DC flows, HPCC end to end for the intra-DC ones), hpcc (bpf_mlcc, HPCC end to end for every flow: the paper's HPCC baseline), dctcp, cubic, uno (the port's phantom queue marking), swift and timely (the Reflex modules, receivers on quickack)." \
	'[{"metric":"intra_share_both","paper":"DCQCN, PowerTCP: the intra-DC flows lose bandwidth as each cross-DC flow joins; MLCC: no longer (Figs. 3, 12)","ours":"mlcc >= 0.45 (0.9 x the fair 1/2)"},
	  {"metric":"jain_both","paper":"MLCC converges to a fair allocation (Sec. 4.2)","ours":"mlcc >= 0.9"}]' \
	'[["util_alone","use, intra alone"],["intra_share_one","intra share, +1 cross (fair 0.667)"],
	  ["intra_share_both","intra share, +2 cross (fair 0.5)"],["jain_both","Jain, all four"],
	  ["util_both","use, all four"],["backlog_p50_bytes","p50 queue B"],
	  ["backlog_p99_bytes","p99 queue B"],["drops","drops"]]'
