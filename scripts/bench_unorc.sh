#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench-unorc: UnoRC's goodput on a loss-free veth pair between two
# network namespaces of this host, against iperf3 UDP and TCP (cubic) on
# the same pair for the same time. Needs root. Documentation/benchmarks.rst
# says what is measured.
#
#   scripts/bench_unorc.sh
#
# Environment: BUILD_DIR (default build/userspace) is the CMake build tree,
# configured and unorc built in it if needed; OUT (default
# build/bench/unorc_goodput.json) the result; DURATION (5) seconds per run;
# MTU (1500) of the pair; PAYLOAD (1400) unorc's payload per packet, iperf3
# UDP's datagram being as long as unorc's (PAYLOAD + 40 bytes of header);
# SIZE (1048576) bytes per unorc message, OUTSTANDING (8) messages in
# flight; LINK_MBPS (10000) UnoCC's C; SEND_CPU and RECV_CPU (0 and 1) the
# CPUs of the sending and the receiving process.
#
# unorc sends a first, short run of 16 messages to find its rate, then as
# many messages as fill DURATION at that rate (a loaded host misses it:
# the row says how long the run took); its goodput is its
# send_summary's (message bytes ACKed over the time until the last ACK).
# iperf3's is the rate its server received.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build/userspace}
out=${OUT:-$top/build/bench/unorc_goodput.json}
duration=${DURATION:-5}
mtu=${MTU:-1500}
payload=${PAYLOAD:-1400}
size=${SIZE:-1048576}
outstanding=${OUTSTANDING:-8}
link_mbps=${LINK_MBPS:-10000}
send_cpu=${SEND_CPU:-0}
recv_cpu=${RECV_CPU:-$(( $(nproc) > 1 ? 1 : 0 ))}
bin=$build/bin/unorc

hdr=40			# unorc's packet header (wire.h)
port=7000
tx=unorc-bench-$$-tx
rx=unorc-bench-$$-rx
tx_addr=192.0.2.1	# TEST-NET-1: the namespaces see nothing else
rx_addr=192.0.2.2

die() { echo "bench-unorc: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces)"
for t in ip iperf3 jq taskset cmake column; do
	command -v "$t" >/dev/null || die "no $t (make deps)"
done
# unorc's datagrams must not fragment: IPv4 and UDP take 28 bytes more.
[ $((payload + hdr + 28)) -le "$mtu" ] ||
	die "PAYLOAD $payload does not fit MTU $mtu ($((mtu - hdr - 28)) at most)"

if [ ! -f "$build/CMakeCache.txt" ]; then
	cmake -S "$top/userspace" -B "$build" \
		-DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
fi
cmake --build "$build" --target unorc -j2 >/dev/null

work=$(mktemp -d)
pids=()

cleanup()
{
	local p

	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	ip netns del "$tx" 2>/dev/null || true
	ip netns del "$rx" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Two namespaces joined by one veth pair, nothing else: no qdisc, no loss.
setup()
{
	ip netns add "$tx"
	ip netns add "$rx"
	ip link add "ubt$$" netns "$tx" type veth peer name "ubr$$" netns "$rx"
	ip -n "$tx" addr add "$tx_addr/24" dev "ubt$$"
	ip -n "$rx" addr add "$rx_addr/24" dev "ubr$$"
	ip -n "$tx" link set "ubt$$" mtu "$mtu" up
	ip -n "$rx" link set "ubr$$" mtu "$mtu" up
	ip -n "$tx" link set lo up
	ip -n "$rx" link set lo up
}

# in_tx CMD..., in_rx CMD...: run in a namespace, on its CPU.
in_tx() { ip netns exec "$tx" taskset -c "$send_cpu" "$@"; }
in_rx() { ip netns exec "$rx" taskset -c "$recv_cpu" "$@"; }

# Waits until something in the receiver's namespace listens on @1 (ss
# filter), for up to 5 s.
wait_listen()
{
	local tries=50

	while [ "$tries" -gt 0 ]; do
		[ -n "$(ip netns exec "$rx" ss -Htuln "$1")" ] && return 0
		sleep 0.1
		tries=$((tries - 1))
	done
	die "nothing listens on '$1' in $rx"
}

# unorc_run NAME MESSAGES CODE: one unorc recv/send run, CODE X+Y or
# none; leaves their summaries in $work/NAME.send and $work/NAME.recv.
unorc_run()
{
	local name=$1 messages=$2 code_opts=(--payload "$payload" --no-code)

	[ "$3" = none ] || code_opts=(--payload "$payload" --code "$3")
	in_rx "$bin" recv --listen "$rx_addr:$port" "${code_opts[@]}" \
		--messages "$messages" --idle-ms 2000 --json \
		> "$work/$name.recv.log" 2> "$work/$name.recv.err" &
	pids+=($!)
	wait_listen "sport = :$port"
	if ! in_tx "$bin" send --to "$rx_addr:$port" "${code_opts[@]}" \
		--messages "$messages" --size "$size" \
		--outstanding "$outstanding" --link-mbps "$link_mbps" \
		--timeout-s $((duration * 10 + 10)) --json \
		> "$work/$name.send.log" 2> "$work/$name.send.err"; then
		cat "$work/$name.send.err" >&2
		tail -n 1 "$work/$name.send.log" >&2
		die "unorc send ($name) did not complete"
	fi
	wait "${pids[-1]}" || { cat "$work/$name.recv.err" >&2; die "unorc recv ($name) failed"; }
	unset 'pids[-1]'
	tail -n 1 "$work/$name.send.log" > "$work/$name.send"
	tail -n 1 "$work/$name.recv.log" > "$work/$name.recv"
}

# unorc_bench CODE: a probe of 16 messages for the rate, then DURATION's
# worth of messages; one row.
unorc_bench()
{
	local code=$1 messages

	unorc_run "$code-probe" 16 "$code"
	messages=$(jq --argjson d "$duration" --argjson size "$size" \
		'[16, (.bytes / .elapsed_us * $d * 1e6 / $size | ceil)] | max' \
		"$work/$code-probe.send")
	unorc_run "$code" "$messages" "$code"
	jq -c --slurpfile r "$work/$code.recv" --argjson mtu "$mtu" \
		--argjson cpus "[$send_cpu, $recv_cpu]" \
		--argjson link_mbps "$link_mbps" --argjson outstanding "$outstanding" \
		'{tool: "unorc", mode: .code, payload, mtu: $mtu, cpus: $cpus,
		  messages, size: (.bytes / .messages), link_mbps: $link_mbps,
		  outstanding: $outstanding,
		  seconds: (.elapsed_us / 1e6), goodput_mbps,
		  packets_sent, retransmissions, timeouts, nacks,
		  pps_sent: (.packets_sent / .elapsed_us * 1e6 | round),
		  datagrams_received: $r[0].datagrams,
		  decoded_blocks: $r[0].decoded_blocks,
		  mismatched_bytes: $r[0].mismatched_bytes, base_rtt_us,
		  note: "\(.retransmissions) resent, \(.nacks) NACKs"}' \
		"$work/$code.send" >> "$work/rows"
}

# iperf3_bench MODE CLIENT_OPTION...: one iperf3 run of DURATION; one row.
iperf3_bench()
{
	local mode=$1

	shift
	in_rx iperf3 -s -1 -B "$rx_addr" > "$work/iperf3-$mode.server" 2>&1 &
	pids+=($!)
	wait_listen "sport = :5201"
	in_tx iperf3 -c "$rx_addr" -t "$duration" -J "$@" > "$work/iperf3-$mode.json" ||
		{ cat "$work/iperf3-$mode.json" >&2; die "iperf3 $mode failed"; }
	wait "${pids[-1]}" || true
	unset 'pids[-1]'
	# iperf3 before 3.9 has no sum_received for UDP: its sum is the
	# server's report.
	jq -c --arg mode "$mode" --argjson mtu "$mtu" \
		--argjson cpus "[$send_cpu, $recv_cpu]" \
		'.end as $e | ($e.sum_received // $e.sum) as $r
		 | {tool: "iperf3", mode: $mode, mtu: $mtu, cpus: $cpus,
		    seconds: $r.seconds, goodput_mbps: ($r.bits_per_second / 1e6),
		    sent_mbps: (($e.sum_sent // $e.sum).bits_per_second / 1e6)}
		 + if $mode == "udp" then
			{payload: .start.test_start.blksize, packets: $r.packets,
			 lost_packets: $r.lost_packets, lost_percent: $r.lost_percent,
			 pps_sent: ($r.packets / $r.seconds | round),
			 note: "\($r.lost_percent * 100 | round / 100) % lost"}
		   else
			{congestion: $e.sender_tcp_congestion,
			 retransmits: $e.sum_sent.retransmits,
			 note: "\($e.sum_sent.retransmits) retransmits"}
		   end' "$work/iperf3-$mode.json" >> "$work/rows"
}

setup
mkdir -p "$(dirname "$out")"
: > "$work/rows"
unorc_bench 8+2
unorc_bench none
iperf3_bench udp -u -b 0 -l $((payload + hdr))
iperf3_bench tcp -C cubic

jq -s . "$work/rows" > "$out.tmp" && mv "$out.tmp" "$out"

jq -r '(["sender", "mode", "goodput_Mbit/s", "seconds", ""] | @tsv),
	(.[] | [.tool, .mode, (.goodput_mbps | round), (.seconds * 100 | round / 100),
		.note] | @tsv)' "$out" | column -t -s $'\t'
echo "veth pair, MTU $mtu, unorc payload $payload, CPUs $send_cpu (send) and $recv_cpu (receive); $out"
