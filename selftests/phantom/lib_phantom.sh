#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Helpers of the phantom qdisc tests, on top of testbed.sh (sourced first).

# ph_udp NS PORT RATE_BPS SECONDS LEN [IPERF3_OPTION...]: an iperf3 UDP
# flow from NS to the receiver, in the background ($PH_UDP_PID); its JSON
# goes to $OUT_DIR/udp-PORT.json. The server leaves after one test.
#
# The client runs on CPU 0, so that its packets take one path through the
# kernel: sent, paced (the pacer's watchdog fires on the CPU that armed
# it), received and forwarded at the bottleneck all on CPU 0, one at a
# time. A capture then sees them arrive in the order the qdisc enqueues
# them. Unpinned, a packet is received on whichever CPU sent it, and one
# CPU can take the next few packets into the qdisc while the other still
# holds one it has captured: a trim's replayed backlog (test_phantom_trim)
# came out 2.7 packets short of the limit the qdisc had found full.
ph_udp() {
	_ns=$1 _port=$2 _bps=$3 _secs=$4 _len=$5
	shift 5
	tb_exec "$TB_RCV" iperf3 -s -1 -p "$_port" > "$TB_RUN/udp-server-$_port.log" 2>&1 &
	tb_wait_listen "$TB_RCV" "$_port"
	tb_exec "$_ns" iperf3 -c "$TB_RCV_ADDR" -p "$_port" -u -b "$_bps" -l "$_len" \
		-t "$_secs" -A 0 -J "$@" > "$OUT_DIR/udp-$_port.json" 2>&1 &
	PH_UDP_PID=$!
}

# ph_pacer NS RATE_MBIT: a tbf on NS's eth0 that paces what NS sends to
# RATE on the wire, with a bucket of 25 ms at that rate (at least 16
# packets). iperf3 alone is no constant-rate source under qemu TCG: after
# the VM stalls it catches up with a burst of up to a megabyte; a token
# bucket catches up no more than its size. A host that stalls the VM for
# longer than the bucket lasts costs the source link time for good: with
# 16 packets, 12 ms at 42 Mbit/s, a busy host's pacer delivered 0.93-0.98
# of the rate asked. The limit lets the socket's send buffer, not the
# queue, hold iperf3 back.
ph_pacer() {
	_burst=$(awk -v r="$2" 'BEGIN { printf "%d", r * 125000 * 0.025 }')
	[ "$_burst" -ge $((16 * TB_MTU)) ] || _burst=$((16 * TB_MTU))
	tb_exec "$1" $TC qdisc replace dev eth0 root tbf rate "${2}mbit" \
		burst "$_burst" limit 4000000 || tb_die "pacer on $1"
}

# ph_capture_start NS NAME FILTER: tcpdump on every interface of NS,
# headers only, into $TB_RUN/NAME.pcap. On the bottleneck's namespace it
# sees each packet twice: arriving ("In", on the sender's link) and leaving
# the qdisc ("Out" on p0, as the qdisc hands it to the device, with the
# marks and trims it got). ph_capture_stop NAME ends it and prints how
# many packets the kernel dropped (0 when tcpdump kept up).
ph_capture_start() {
	# Not through tb_exec: a function put in the background is a subshell,
	# and killing it would leave tcpdump writing on (into the next capture
	# of the same name, whose file it shares).
	$IP netns exec "$(tb_ns "$1")" tcpdump -Z root -i any -n -s 80 -B 16384 -U \
		-w "$TB_RUN/$2.pcap" "$3" 2> "$TB_RUN/$2.tcpdump" &
	PH_CAP_PID=$!
	_n=50
	while [ $_n -gt 0 ] && ! grep -qs listening "$TB_RUN/$2.tcpdump"; do
		sleep 0.1
		_n=$((_n - 1))
	done
}

ph_capture_stop() {
	# The kernel hands tcpdump a block of packets when it is full or 1 s
	# after its first packet: wait for the last one.
	sleep 1.5
	# SIGTERM: a background job of a script ignores SIGINT.
	kill -TERM "$PH_CAP_PID" 2>/dev/null
	wait "$PH_CAP_PID" 2>/dev/null
	cp "$TB_RUN/$1.pcap" "$OUT_DIR/" 2>/dev/null
	sed -n 's/^\([0-9]*\) packets* dropped by kernel.*/\1/p' "$TB_RUN/$1.tcpdump"
}

# ph_packets NAME: one line per iperf3 UDP datagram of the capture (not
# its 32-byte connect packet), in capture order: "t dir seq tos iplen",
# t in seconds from the first packet, dir 0 arriving ("In") or 1 leaving
# ("Out"), seq iperf3's packet counter (the 32 bits after its timestamp,
# right after the UDP header; a trimmed header keeps them).
ph_packets() {
	tcpdump -Z root -r "$TB_RUN/$1.pcap" -tt -n -v -x 2>/dev/null | awk '
	function hex(s,   i, n) {
		n = 0
		for (i = 1; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	function flush() {
		if (have && len >= 40) {
			if (base == "")
				base = sec
			printf "%.6f %d %d %d %d\n", (sec - base) + usec / 1e6, dir, seq, tos, len
		}
		have = 0
	}
	/^[0-9]+\.[0-9]+ .* (In|Out) +IP / {
		flush()
		split($1, t, ".")
		# no leading zero: busybox awk would read "042549" as octal
		sub(/^0+/, "", t[2])
		sec = t[1]; usec = t[2] + 0
		dir = / Out +IP / ? 1 : 0
		match($0, /tos 0x[0-9a-f]+/)
		tos = hex(substr($0, RSTART + 6, RLENGTH - 6))
		match($0, /length [0-9]+\)/)
		len = substr($0, RSTART + 7, RLENGTH - 8) + 0
		have = 1; seq = 0
		next
	}
	$1 == "0x0020:" { seq = hex($4 $5) }
	END { flush() }'
}

# ph_stop_ns NS: end every process in a namespace (servers, captures).
ph_stop_ns() {
	$IP netns pids "$(tb_ns "$1")" 2>/dev/null | xargs -r kill 2>/dev/null
	sleep 0.2
}

# ph_udp_phase NAME LOAD SECONDS QDISC_OPTION...: one constant-rate phase:
# a fresh phantom qdisc with the options at the bottleneck, an ECT(0) UDP
# flow from h1 paced to LOAD x $RATE for SECONDS x $PH_SCALE (whole
# seconds, rounded up), captured at the bottleneck. Leaves the qdisc's
# final stats in $TB_RUN/NAME.qdisc.json and the packets (ph_packets) in
# $TB_RUN/NAME.pkts. Uses the test's RATE (Mbit/s), C (bytes/s) and LEN
# (UDP payload bytes).
ph_udp_phase() {
	_name=$1 _load=$2 _secs=$(tb_calc "int($3 * ${PH_SCALE:-1} + 0.999)")
	shift 3
	$TC -n "$(tb_ns tor)" qdisc del dev p0 root 2>/dev/null
	tb_bottleneck_phantom $RATE "$@"
	ph_pacer h1 "$(tb_calc "$_load * $RATE")"
	ph_capture_start tor "$_name" "udp and dst port 5301"
	# iperf3 above the pacer's rate, so that the pacer sets the pace.
	ph_udp h1 5301 "$(tb_calc "1.2 * $_load * $C * 8")" "$_secs" $LEN --tos 2
	wait "$PH_UDP_PID"
	sleep 1
	tb_exec tor $TC -s -j qdisc show dev p0 | jq '.[0]' > "$TB_RUN/$_name.qdisc.json"
	_dropped=$(ph_capture_stop "$_name")
	ph_stop_ns rcv
	ph_packets "$_name" > "$TB_RUN/$_name.pkts"
	tb_check "${_name}_capture_drops" "${_dropped:-0}" "==" 0
	tb_check "${_name}_packets_arrived" "$(awk '$2 == 0' "$TB_RUN/$_name.pkts" | wc -l)" ">" 1000
}

# ph_port_rate MAX LOAD: set RATE (Mbit/s) and C (bytes/s), the port rate
# of a test that offers up to LOAD x RATE of LEN-byte UDP datagrams, and
# PH_SCALE = MAX / RATE, by which ph_udp_phase lengthens each phase so that
# it holds the same packets at any rate. RATE is MAX where the VM carries
# 1.25 x LOAD x MAX of this very workload (the paced flow through the
# phantom qdisc, every packet captured twice), else the largest whole
# 10 Mbit/s of which it carries 1.25 x LOAD. tb_port_rate's probe, one
# TCP flow of 64 KB GSO segments, says little of it: with a busy host that
# probe read 355 Mbit/s and the VM then carried 44 Mbit/s of this, so the
# 1.5 x 50 Mbit/s the trim test offered filled the queue 123 times in 3 s
# instead of some 2000. Skips below 20 Mbit/s.
ph_port_rate() {
	RATE=$1 C=$(($1 * 125000)) PH_SCALE=1
	ph_udp_phase probe "$(tb_calc "1.25 * $2")" 2 limit 4000000
	_carried=$(awk '$2 == 0 { if (!n++) t0 = $1; else b += $5 + 14; t = $1 }
		END { print (n > 1 ? int(b * 8 / (t - t0) / 1e6) : 0) }' "$TB_RUN/probe.pkts")
	RATE=$(awk -v max="$1" -v c="$_carried" -v l="$2" \
		'BEGIN { r = int(c / (1.25 * l) / 10) * 10; print r < max ? r : max }')
	[ "$RATE" -ge 20 ] ||
		tb_skip "the VM carries $_carried Mbit/s of paced UDP with every packet captured"
	C=$((RATE * 125000))
	PH_SCALE=$(tb_calc "$1 / $RATE")
	tb_log "port rate $RATE Mbit/s: the VM carried $_carried Mbit/s of UDP, $(tb_calc "1.25 * $2") x $1 offered"
}
