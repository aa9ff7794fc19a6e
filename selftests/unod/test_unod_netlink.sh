#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Malformed and truncated requests to tcp_uno's genl family are refused
# with the right errno (uno_nl_fuzz), thousands of mutated requests leave
# no kernel warning (the runner checks dmesg), the CC modules can be
# unloaded and loaded while dumps run, and each loads on its own.
# uno-timeout: 120
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_unod.sh"

# An earlier test's namespaces may hold tcp_uno for a while after their
# deletion: a killed flow leaves an orphan socket that retransmits its FIN
# (once: the testbed sets tcp_orphan_retries) before it lets go.
n=300
while grep -qE '^tcp_(uno|smartt) ' /proc/modules && [ $n -gt 0 ]; do
	# One at a time: busybox rmmod stops at the first that is not loaded.
	rmmod tcp_uno 2>/dev/null
	rmmod tcp_smartt 2>/dev/null
	sleep 0.1
	n=$((n - 1))
done
grep -qE '^tcp_(uno|smartt) ' /proc/modules && tb_die "tcp_uno or tcp_smartt stays in use"
modprobe tcp_uno || tb_die "modprobe tcp_uno"
modprobe tcp_smartt || tb_die "modprobe tcp_smartt"

/uno/bin/uno_nl_fuzz 3000 > "$OUT_DIR/fuzz.txt" 2>&1
rc=$?
cat "$OUT_DIR/fuzz.txt"
tb_check fuzz "$rc" == 0

# Module churn under dumps: each dump sees 0, 22, 29 or 51 parameters and
# never fails for any other reason than the family going away.
(
	while :; do
		$UNOCTL -j cc show 2>/dev/null | jq length
	done
) > "$OUT_DIR/dump-counts.txt" &
dumper=$!
i=0
while [ $i -lt 20 ] || [ "$(wc -l < "$OUT_DIR/dump-counts.txt")" -lt 5 ]; do
	# One at a time: busybox rmmod stops at the first that is not loaded.
	rmmod tcp_uno 2>/dev/null
	rmmod tcp_smartt 2>/dev/null
	modprobe tcp_uno
	modprobe tcp_smartt
	i=$((i + 1))
	[ $i -lt 1000 ] || tb_die "no dump completed"
done
kill $dumper
wait $dumper 2>/dev/null
tb_check dumps_ran "$(wc -l < "$OUT_DIR/dump-counts.txt")" ">=" 5
tb_check dump_counts "$(grep -cvE '^(0|22|29|51)$' "$OUT_DIR/dump-counts.txt")" == 0
tb_check still_loaded "$($UNOCTL -j cc show | jq length)" == 51

# insmod, which loads no dependency: tcp_uno needs none, and serves its
# parameters while tcp_smartt is out.
rmmod tcp_uno
rmmod tcp_smartt
insmod "$(modinfo -n tcp_uno)" || tb_die "insmod tcp_uno"
tb_check insmod_alone "$(grep -c '^tcp_uno ' /proc/modules)" == 1
tb_check insmod_alone_params "$($UNOCTL -j cc show | jq length)" == 22
$UNOCTL cc show smartt > "$OUT_DIR/smartt-out.txt" 2>&1
tb_check smartt_out_exit "$?" == 1
tb_check smartt_out_msg "$(grep -c "congestion control 'smartt' is not loaded" "$OUT_DIR/smartt-out.txt")" == 1
rmmod tcp_uno
tb_exit
