#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The fabrics of arcane.md 4.4, built by testbed.sh, route and spread as
# the datapath needs (issue 14 item 4): the 4 x 4 leaf-spine (one host per
# leaf here; tb_leafspine 4 4 4 is LS44) and the k=4 fat tree (one host
# per edge; tb_fattree is FT4).
#
# Checked on each: every host reaches every other (one ping each from the
# first host). One UDP flow from the first host to the last, its datapath
# attached by unod --once: under SPRAY_RR (4096 datagrams, one on each
# EV) every path of the top tier carries a quarter within 15 % (the
# hash's spread of 4096 distinct EVs is 2.7 % of a quarter, one standard
# deviation, so the bound is 5.5 of them; 2000 EVs, 3.9 %, failed once in
# CI at 0.289), under ECMP one carries at least 95 %. The leaf-spine's
# paths are the first leaf's four uplinks; the fat tree's are its four
# core routers, reached through two tiers that hash each packet in turn:
# each core's quarter shows that the aggregation tier does not repeat the
# edge's choice (polarisation, which would leave two cores idle).
# uno-vm: icount
# uno-timeout: 240
# uno-cost: 129
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"
. "$(dirname "$0")/lib_lb.sh"

COUNT=4096
LINKS=4
lb_conf spray_rr
lb_conf ecmp

# reach FROM HOST...: FROM pings each HOST once.
reach() {
	_from=$1
	shift
	_ok=0 _n=0
	for _h in "$@"; do
		[ "$_h" = "$_from" ] && continue
		_n=$((_n + 1))
		tb_exec "$_from" ping -c 1 -W 2 "$(tb_addr "$_h")" > /dev/null 2>&1 && _ok=$((_ok + 1))
	done
	tb_check "$TOPO:reached" "$_ok" "==" "$_n"
}

# spread: one flow per mode from the sender to the receiver, the legs'
# shares checked.
spread() {
	for mode in spray_rr ecmp; do
		$UNOD --once -c "$TB_RUN/$mode.toml" 2>> "$OUT_DIR/unod.log" ||
			tb_die "$TOPO: unod --once $mode"
		legs_mark
		flow "$TOPO-$mode" $COUNT 200
		legs_shares $COUNT
		tb_log "$TOPO $mode: shares$SHARES"
		if [ $mode = ecmp ]; then
			tb_check "$TOPO:$mode:busiest_leg_share" "$SHARE_MAX" ">=" 0.95
		else
			tb_check "$TOPO:$mode:least_leg_share" "$SHARE_MIN" ">=" 0.2125
			tb_check "$TOPO:$mode:most_leg_share" "$SHARE_MAX" "<=" 0.2875
		fi
	done
	lb_unoctl lb detach dev eth0 || tb_die "$TOPO: unoctl lb detach"
	tb_check "$TOPO:detached" "$(lb_unoctl -j lb show | jq length)" "==" 0
}

TOPO=leafspine
tb_leafspine 4 4 1
reach l1h1 l1h1 l2h1 l3h1 l4h1
lb_sender l1h1
LEG_NS=leaf1
LEG_DEV=s
spread

TOPO=fattree
tb_fattree 1
hosts=""
for p in 1 2 3 4; do
	hosts="$hosts p${p}e1h1 p${p}e2h1"
done
# shellcheck disable=SC2086
reach p1e1h1 $hosts
lb_sender p1e1h1
leg_packets() {
	tb_ip "core$1" -s -j link show dev p4 | jq '.[0].stats64.tx.packets'
}
spread
tb_exit
