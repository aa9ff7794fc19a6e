#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A silently black-holed leg (arcane.md 4.3 H5/H6, the design notes'
# failure test): the two-DC topology with 4 WAN legs, one of which drops
# every data packet (a tc filter on the sending border router's end,
# routes unchanged), and lb_flow's flows from a1 to an echo at b1 through
# the datapath unod attaches, for each mode in turn. The leg carries the
# ACKs: the echo has no datapath, so each flow's ACKs take the one leg
# the hash gives its reverse tuple, and a leg dead both ways would lose
# every ACK of a flow in a quarter of the runs, whatever the sender did. Nothing is resent, so a
# flow's lost datagrams are those the legs' hash put on the dead one.
#
# ECMP, 16 flows: each flow's EV is its path for its whole life, so each
# flow is answered entirely or not at all, and the dead leg drops what
# the stalled flows sent; some stall (a claim: each
# lands on the dead leg with a chance of about 1/4, so all 16 miss it in
# 1 % of runs). SPRAY, one flow of 4000: a random EV per packet, so a
# quarter of them are lost, within 15 % (the bound of test_lb_unod).
# ARCANE, one flow of 4000: an EV is reused only after an ACK echoed it,
# so a packet sent from the cache never takes the dead leg; only its
# explorations do, each as likely as a SPRAY packet to. So the dead leg's
# drops are at most its explorations (exact), and in the flow's second
# half it loses at most what its explorations would if every one of them
# were sent there: 2 x explorations / COUNT of SPRAY's second-half loss
# (its first BDP_PKTS packets all explore, so fewer are).
# uno-vm: icount
# uno-timeout: 180
# uno-cost: 38
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"
. "$(dirname "$0")/lib_lb.sh"

DEAD=2
COUNT=4000
ECMP_FLOWS=16
ECMP_COUNT=250

lb_testbed 4
# The black hole, before any flow (adding a clsact under traffic patches
# tc's static keys; see test_lb_unod). It drops IPv4 and lets ARP by, so
# that the routers' neighbour entries stay valid and every datagram sent
# to the leg is dropped, and counted, by the filter, not queued and
# dropped unresolved in the neighbour layer.
tb_tc bora qdisc add dev "wan$DEAD" clsact || tb_die "clsact on bora:wan$DEAD"
tb_tc bora filter add dev "wan$DEAD" egress protocol ip u32 match u32 0 0 \
	action drop || tb_die "black hole on bora:wan$DEAD"
dead_drops() {
	tb_tc bora -s -j filter show dev "wan$DEAD" egress |
		jq '[.[] | .options.actions[]? | .stats.packets // 0] | add // 0'
}
lb_conf ecmp
lb_conf spray
lb_conf arcane

cp "$TB_RUN/ecmp.toml" "$UNOD_CONF"
unod_start "$UNOD_CONF"
d0=$(dead_drops)
flow_start ecmp $ECMP_COUNT 100 $ECMP_FLOWS
flow_wait ecmp
s=$OUT_DIR/send-ecmp.json
tb_check ecmp:all_or_nothing \
	"$(jq "[.flows[] | select(.acks != 0 and .acks != $ECMP_COUNT)] | length" "$s")" "==" 0
stalled=$(jq '[.flows[] | select(.acks == 0)] | length' "$s")
tb_check ecmp:dead_leg_drops "$(($(dead_drops) - d0))" "==" $((stalled * ECMP_COUNT))
tb_claim ecmp:flows_stalled "$stalled" ">=" 1
tb_log "ecmp: $stalled of $ECMP_FLOWS flows stalled"

# mode_flow MODE: one flow of COUNT; its losses, overall and in its second
# half, in $LOST and $LOST_LAST, and the dead leg's drops in $DROPS.
mode_flow() {
	unod_reload "$TB_RUN/$1.toml"
	_d0=$(dead_drops)
	flow_start "$1" $COUNT 200
	flow_wait "$1"
	DROPS=$(($(dead_drops) - _d0))
	s=$OUT_DIR/send-$1.json
	LOST=$(jq "1 - .acks / $COUNT" "$s")
	LOST_LAST=$(jq ".flows[0] | 1 - .acks_last_half / ($COUNT / 2)" "$s")
	lb_unoctl -j lb show > "$OUT_DIR/show-$1.json"
	tb_log "$1: lost $LOST, in the second half $LOST_LAST; dead leg dropped $DROPS"
}

mode_flow spray
tb_check spray:lost "$LOST" ">=" 0.2125
tb_check spray:lost_most "$LOST" "<=" 0.2875
tb_check spray:dead_leg_drops "$DROPS" "==" "$(jq "$COUNT - .acks" "$OUT_DIR/send-spray.json")"
SPRAY_LOST_LAST=$LOST_LAST

mode_flow arcane
explored=$(jq '.[0].counters.tx_explore' "$OUT_DIR/show-arcane.json")
tb_log "arcane: $explored explorations of $COUNT"
tb_check arcane:dead_drops_within_explorations "$DROPS" "<=" "$explored"
tb_check arcane:lost_last_half "$LOST_LAST" "<=" \
	"$(tb_calc "2 * $explored / $COUNT * $SPRAY_LOST_LAST")"
tb_exit
