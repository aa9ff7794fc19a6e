#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tcp_uno and tcp_smartt as modules: load, selection by the netns default
# (sysctl) and by TCP_CONGESTION (iperf3 -C), ECN negotiated on the wire
# (ECN-setup SYN and SYN-ACK, ECT data), the fallback when the peer refuses
# ECN (silent: a peer must not write to the kernel log), rmmod refused
# while a socket uses the CC and clean afterwards, and a bad module
# parameter refused with the old value kept.
# uno-timeout: 180
. "$(dirname "$0")/../lib/testbed.sh"

# A parameter and a value out of its range, per CC.
bad_param() {
	case $1 in
	uno) echo "ewma_gain_q16 0" ;;
	smartt) echo "trtt_factor 1000" ;;
	esac
}

# noecn_cc CC: what a CC's socket runs once the peer refused ECN.
noecn_cc() {
	case $1 in
	uno) echo uno-reno ;;
	smartt) echo smartt-noecn ;;
	esac
}

# cc_uses NS CC: how many of NS's established connections run CC.
cc_uses() {
	tb_exec "$1" ss -Htin state established | awk -v cc="$2" '/^[ \t]/ && $1 == cc { n++ } END { print n + 0 }'
}

tb_dumbbell 1 1
tb_base_rtts

for cc in uno smartt; do
	modprobe "tcp_$cc" || tb_die "modprobe tcp_$cc"
	tb_check "${cc}_available" "$(grep -cw "$cc" /proc/sys/net/ipv4/tcp_available_congestion_control)" == 1

	# By the namespace default; the capture shows the ECN handshake.
	tb_exec rcv timeout 20 tcpdump -i eth0 -n -v -c 40 -w "$OUT_DIR/$cc.pcap" \
		'tcp and host 10.1.1.1' 2>/dev/null &
	dump=$!
	sleep 1
	tb_receiver_cc "$cc"
	tb_flow h1 "$cc" 4 > /dev/null
	sleep 2
	tb_check "${cc}_sender_by_sysctl" "$(cc_uses h1 "$cc")" ">=" 1
	tb_check "${cc}_receiver_by_sysctl" "$(cc_uses rcv "$cc")" ">=" 1
	ref=$(awk '$1 == "tcp_'"$cc"'" { print $3 }' /proc/modules)
	rmmod "tcp_$cc" 2>/dev/null
	tb_check "${cc}_rmmod_refused_in_use" "$(grep -c "^tcp_$cc " /proc/modules)" == 1
	tb_log "tcp_$cc refcount with a flow open: $ref"
	tb_flows_stop
	wait $dump
	tcpdump -n -v -r "$OUT_DIR/$cc.pcap" > "$OUT_DIR/$cc.pcap.txt" 2>/dev/null
	tb_check "${cc}_ecn_setup_syn" "$(grep -c 'Flags \[SEW\]' "$OUT_DIR/$cc.pcap.txt")" ">=" 1
	tb_check "${cc}_ecn_setup_synack" "$(grep -c 'Flags \[S\.E\]' "$OUT_DIR/$cc.pcap.txt")" ">=" 1
	tb_check "${cc}_ect_data" "$(grep -c 'ECT(0)' "$OUT_DIR/$cc.pcap.txt")" ">=" 1

	# By TCP_CONGESTION, set before connect(), from a namespace whose
	# default is cubic. (iperf3 -C sets it after connect(): the SYN then
	# asks for no ECN and the connection falls back, see noecn_cc.)
	tb_exec w1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
	$UNOPERF server --netns "$(tb_ns rcv)" -p 5300 --count 1 -j "$OUT_DIR/$cc-server.json" \
		2> /dev/null &
	tb_wait_listen rcv 5300
	$UNOPERF client --dst "$TB_RCV_ADDR:5300" --flow "ns=$(tb_ns w1),size=20m,cc=$cc" \
		-j "$OUT_DIR/$cc-sockopt.json" || tb_die "unoperf flow with cc=$cc failed"
	tb_check "${cc}_by_sockopt" "$(jq -r '.flows[0].cc' "$OUT_DIR/$cc-sockopt.json" | grep -cx "$cc")" == 1
	wait

	# A receiver that refuses ECN: the sender falls back to the CC's
	# variant without ECN, and the peer writes nothing to the log.
	tb_exec rcv sysctl -qw net.ipv4.tcp_ecn=0
	tb_receiver_cc cubic
	logged=$(dmesg | wc -l)
	tb_flow h1 "$cc" 4 > /dev/null
	sleep 2
	tb_check "${cc}_falls_back_without_ecn" "$(cc_uses h1 "$(noecn_cc "$cc")")" ">=" 1
	tb_flows_stop
	tb_check "${cc}_fallback_logs_nothing" \
		"$(dmesg | tail -n +$((logged + 1)) | grep -ci -e "$cc" -e ecn)" == 0
	tb_exec rcv sysctl -qw net.ipv4.tcp_ecn=2

	# A bad parameter is refused and the old value stays.
	set -- $(bad_param "$cc")
	p=/sys/module/tcp_$cc/parameters/$1
	old=$(cat "$p")
	echo "$2" > "$p" 2>/dev/null
	tb_check "${cc}_bad_param_refused" "$?" "!=" 0
	tb_check "${cc}_param_kept" "$(cat "$p")" == "$old"

	# Nothing uses it now (a namespace's default CC holds a reference
	# too): rmmod succeeds and leaves no trace.
	for ns in $(cat "$TB_RUN/namespaces"); do
		tb_exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=cubic
	done
	sleep 1
	rmmod "tcp_$cc"
	tb_check "${cc}_rmmod_after_close" "$(grep -c "^tcp_$cc " /proc/modules)" == 0
	tb_check "${cc}_gone_from_available" \
		"$(grep -cw "$cc" /proc/sys/net/ipv4/tcp_available_congestion_control)" == 0
done
tb_exit
