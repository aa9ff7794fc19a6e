#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What MLCC's tests share, on top of testbed.sh.

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
