#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The CC modules' genl families: anyone may read, only CAP_NET_ADMIN may
# set (GENL_ADMIN_PERM): an unprivileged unoctl cc set fails with EPERM and
# changes nothing. The kernel range check answers with an extack message
# and the range as the value's policy, netlink and sysfs agree on values
# and ranges, and the global parameters are not served in another network
# namespace.
# uno-timeout: 60
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_unod.sh"

SETPRIV=/usr/bin/setpriv
[ -x $SETPRIV ] || tb_skip "no setpriv"
nobody() { $SETPRIV --reuid=65534 --regid=65534 --clear-groups "$@"; }

modprobe tcp_uno || tb_die "modprobe tcp_uno"
modprobe tcp_smartt || tb_die "modprobe tcp_smartt"

# Only in the initial namespace: the parameters are global.
tb_add_ns other
tb_exec other $UNOCTL cc show uno > "$OUT_DIR/netns.txt" 2>&1
tb_check netns_exit "$?" == 1
cat "$OUT_DIR/netns.txt"
tb_check netns_not_served "$(grep -c "served in the initial network namespace only" "$OUT_DIR/netns.txt")" == 1

# Reading needs no privilege; a dump can be of one CC.
tb_check nobody_reads "$(nobody $UNOCTL -j cc show | jq length)" == 51
tb_check dump_one_cc "$(nobody $UNOCTL -j cc show smartt | jq '[.[] | select(.cc == "smartt")] | length')" == 29

for cc_param in "uno alpha_ppm" "smartt trtt_factor"; do
	set -- $cc_param
	old=$(param "$1" "$2")
	nobody $UNOCTL cc set "$1" "$2" 2048 2> "$OUT_DIR/eperm-$1.txt"
	tb_check "${1}_nobody_exit" "$?" == 1
	cat "$OUT_DIR/eperm-$1.txt"
	tb_check "${1}_nobody_eperm" "$(grep -c 'Operation not permitted' "$OUT_DIR/eperm-$1.txt")" == 1
	tb_check "${1}_nobody_unchanged" "$(param "$1" "$2")" == "$old"
done

# Root may; sysfs sees it, and the other way round.
$UNOCTL cc set uno alpha_ppm 2048 || tb_die "root cc set"
tb_check root_set "$(sysfs_param uno alpha_ppm)" == 2048
echo 777 > /sys/module/tcp_uno/parameters/alpha_ppm
tb_check sysfs_set_seen "$(param uno alpha_ppm)" == 777

# The kernel's range check, not unoctl's (-f): EINVAL with the range.
$UNOCTL cc set -f uno alpha_ppm 0 2> "$OUT_DIR/range.txt"
tb_check range_exit "$?" == 1
cat "$OUT_DIR/range.txt"
tb_check range_extack "$(grep -c 'value out of range 1..100000 (Invalid argument)' "$OUT_DIR/range.txt")" == 1
tb_check range_unchanged "$(param uno alpha_ppm)" == 777
echo 0 > /sys/module/tcp_uno/parameters/alpha_ppm 2> /dev/null
tb_check sysfs_range_too "$(sysfs_param uno alpha_ppm)" == 777

# Unknown names: ENOENT from the kernel.
$UNOCTL cc set -f uno no_such 1 2> "$OUT_DIR/enoent.txt"
tb_check enoent_exit "$?" == 1
tb_check enoent_msg "$(grep -c 'no such parameter' "$OUT_DIR/enoent.txt")" == 1

# A CC without parameters of ours is refused before any request: the
# kernel's own tcp_metrics family must not receive a forced set (its
# command 2 deletes cache entries).
$UNOCTL cc set -f metrics addr 1 2> "$OUT_DIR/metrics.txt"
tb_check metrics_exit "$?" == 1
cat "$OUT_DIR/metrics.txt"
tb_check metrics_unknown "$(grep -c "unknown congestion control 'metrics'" "$OUT_DIR/metrics.txt")" == 1

# Every parameter's range is the same in sysfs: the bounds pass, one
# beyond fails. (Restores each value.)
$UNOCTL -j cc show > "$OUT_DIR/params.json"
bad=0
for row in $(jq -r '.[] | "\(.cc):\(.param):\(.min):\(.max):\(.value)"' "$OUT_DIR/params.json"); do
	IFS=: read -r cc p min max val <<ROW
$row
ROW
	f=/sys/module/tcp_$cc/parameters/$p
	echo "$max" > "$f" 2>/dev/null || { echo "max of $cc $p refused"; bad=$((bad + 1)); }
	echo "$min" > "$f" 2>/dev/null || { echo "min of $cc $p refused"; bad=$((bad + 1)); }
	[ "$max" -lt 4294967295 ] && echo $((max + 1)) > "$f" 2>/dev/null &&
		{ echo "max+1 of $cc $p accepted"; bad=$((bad + 1)); }
	[ "$min" -gt 0 ] && echo $((min - 1)) > "$f" 2>/dev/null &&
		{ echo "min-1 of $cc $p accepted"; bad=$((bad + 1)); }
	echo "$val" > "$f"
done
tb_check sysfs_ranges_match "$bad" == 0
tb_exit
