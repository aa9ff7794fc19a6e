#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What MLCC's tests share, on top of testbed.sh.

# The paper's microseconds dilated as spec 5.7's EMU-A dilates them, on
# tb_twodc: tora delays what it sends to each of DC A's senders by
# MLCC_NS_DELAY_MS (into RTT_NS, the near-source loop's T) and b1 its ACKs
# by MLCC_D_DELAY_MS (into RTT_D, the credit loop's T, and every intra-DC
# RTT to b1). At 50 Mbit/s and 1500-byte packets B RTT_D is then ten
# packets; at the VM's own 0.3 ms it is one, and HPCC's law (U against
# B T) reads one queued packet as a port loaded 0.8 beyond its line.
MLCC_NS_DELAY_MS=4
MLCC_D_DELAY_MS=2

# mlcc_dilate SENDER...: the delays, netem on tora's ports to the senders
# and on b1's eth0 (which carry only ACKs here, so no queue forms in
# netem: 4.3).
mlcc_dilate() {
	for _s in "$@"; do
		tb_tc tora qdisc add dev "$_s" root netem delay ${MLCC_NS_DELAY_MS}ms limit 100000 ||
			tb_die "netem on tora:$_s"
	done
	tb_tc b1 qdisc add dev eth0 root netem delay ${MLCC_D_DELAY_MS}ms limit 100000 ||
		tb_die "netem on b1"
}

# mlcc_csum_errors NS: NS's TCP checksum errors (InCsumErrors), which the
# switch ports' and DCI_s's rewrites must leave at 0.
mlcc_csum_errors() {
	tb_exec "$1" cat /proc/net/snmp | awk '$1 == "Tcp:" {
		if (!h) { for (i = 2; i <= NF; i++) n[i] = $i; h = 1; next }
		for (i = 2; i <= NF; i++) if (n[i] == "InCsumErrors") print $i }'
}

# mlcc_rate_median NAME RECORD_CMD...: ten readings 0.2 s apart of a
# flow's rate record, which RECORD_CMD prints as unoctl's JSON: the last
# in $OUT_DIR/rec-NAME.json, the median of their rates (r_ns_bps) in
# MLCC_RATE, all of them logged. One reading is HPCC's EWMA over a round,
# which a VM stall of that length can reset: the median rides it out.
mlcc_rate_median() {
	_name=$1
	shift
	: > "$OUT_DIR/rate-$_name.txt"
	for _i in 1 2 3 4 5 6 7 8 9 10; do
		"$@" > "$OUT_DIR/rec-$_name.json"
		jq .r_ns_bps "$OUT_DIR/rec-$_name.json" >> "$OUT_DIR/rate-$_name.txt"
		sleep 0.2
	done
	MLCC_RATE=$(sort -n "$OUT_DIR/rate-$_name.txt" | sed -n 5p)
	tb_log "$_name: $(jq -c '{taken, commits, u, base_rtt_us}' "$OUT_DIR/rec-$_name.json"), rate" \
		$(cat "$OUT_DIR/rate-$_name.txt") "median $MLCC_RATE"
}

# mlcc_check_records_gone COUNT_CMD...: bpf_mlcc's rate records, which
# COUNT_CMD counts, all gone once its sockets are: a socket's goes at its
# CC's release, once its last FIN is acked (up to 5 s here).
mlcc_check_records_gone() {
	_tries=50
	while [ "$("$@")" != 0 ] && [ $_tries -gt 0 ]; do
		sleep 0.1
		_tries=$((_tries - 1))
	done
	tb_check bpf_mlcc:records_removed "$("$@")" == 0
}
