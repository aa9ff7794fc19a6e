#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Testbed library: topologies of network namespaces joined by veth pairs,
# bottleneck qdiscs, WAN delay, traffic and measurements. Sourced by every
# selftest and by the evaluation; POSIX sh (busybox in the VM).
#
# Topologies (DESIGN.md §4):
#
#   dumbbell N M   h1..hN ──┐
#                           tor ══ p0 (bottleneck) ══ rcv
#   w1..wM ── bor ~~WAN~~ ──┘
#
#   twodc L        a1..aN ── tora ── bora ≋≋ L WAN links ≋≋ borb ── torb ── b1..bN
#
# Intra-DC senders hK sit one hop from the ToR; inter-DC senders wK sit
# behind the remote border 'bor' and a WAN link with netem delay on both
# directions (half the WAN RTT each way). Results go to $OUT_DIR.
#
# Settings (environment, before building a topology):
#   TB_MTU      MTU of every link (default 4000: see DESIGN.md §3)
#   TB_WAN_RTT  WAN round-trip delay in ms added by netem (default 10)
#   TB_HOST_RTT round-trip delay in ms added by netem on the receiver's
#               link (dumbbell), the intra-DC hops' propagation lumped
#               into one (default 0: the VM's own)
#   TB_PREFIX   namespace name prefix (default "uno-")
#   TB_PACING   how senders pace: tcp, fq or off (tb_pacing; default tcp,
#               or UNO_EVAL_PACING)

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

TB_MTU=${TB_MTU:-4000}
TB_WAN_RTT=${TB_WAN_RTT:-10}
TB_HOST_RTT=${TB_HOST_RTT:-0}
TB_PREFIX=${TB_PREFIX:-uno-}
TB_PACING=${TB_PACING:-${UNO_EVAL_PACING:-tcp}}
OUT_DIR=${OUT_DIR:-$(pwd)/out}
TB_RUN=${TB_RUN:-/tmp/testbed.$$}

IP=/usr/sbin/ip
TC=/usr/sbin/tc
UNOPERF=${UNOPERF:-/uno/bin/unoperf}
UNOCTL=${UNOCTL:-/uno/bin/unoctl}
mkdir -p "$OUT_DIR" "$TB_RUN"
: > "$TB_RUN/flows"
: > "$TB_RUN/namespaces"
: > "$TB_RUN/pids"

tb_log() { echo "# $*"; }
tb_die() { echo "FAIL: $*"; exit $KSFT_FAIL; }
tb_skip() { echo "SKIP: $*"; exit $KSFT_SKIP; }

# Float helpers on top of awk: tb_calc 'expr' prints the value.
tb_calc() { awk "BEGIN { printf \"%.6g\n\", ($1) }"; }

# tb_check NAME VALUE OP LIMIT: assert a measured value against a threshold,
# print it either way, and record it in $OUT_DIR/checks.
tb_check() {
	if awk "BEGIN { exit !($2 $3 $4) }"; then
		echo "ok: $1 = $2 ($3 $4)"
		echo "$1 $2 $3 $4 pass" >> "$OUT_DIR/checks"
	else
		echo "FAIL: $1 = $2, expected $3 $4"
		echo "$1 $2 $3 $4 fail" >> "$OUT_DIR/checks"
		TB_FAILED=1
	fi
}

# tb_claim NAME VALUE OP LIMIT: a bound this host's VM is measured to
# miss (Documentation/testing.rst says by how much and why): recorded in
# $OUT_DIR/checks as tb_check records it, pass or fail, and printed as
# "short:" when missed, without failing the test.
tb_claim() {
	if awk "BEGIN { exit !($2 $3 $4) }"; then
		echo "ok: $1 = $2 ($3 $4)"
		echo "$1 $2 $3 $4 pass" >> "$OUT_DIR/checks"
	else
		echo "short: $1 = $2, the bound is $3 $4"
		echo "$1 $2 $3 $4 fail" >> "$OUT_DIR/checks"
	fi
}

# Exit with the ksft code the checks so far call for.
tb_exit() {
	[ "${TB_FAILED:-0}" = 1 ] && exit $KSFT_FAIL
	exit $KSFT_PASS
}

tb_ns() { echo "$TB_PREFIX$1"; }
tb_exec() { _ns=$1; shift; $IP netns exec "$TB_PREFIX$_ns" "$@"; }
# ip and tc in a namespace: 'ip netns exec' also makes a mount namespace
# and mounts a /sys for every command, which under TCG costs more than
# the command; ip -n and tc -n only enter the network namespace.
tb_ip() { _ns=$1; shift; $IP -n "$TB_PREFIX$_ns" "$@"; }
tb_tc() { _ns=$1; shift; $TC -n "$TB_PREFIX$_ns" "$@"; }

tb_add_ns() {
	$IP netns add "$TB_PREFIX$1" || tb_die "cannot create namespace $1"
	echo "$1" >> "$TB_RUN/namespaces"
	tb_ip "$1" link set lo up
	# A killed flow's orphan socket outlives its namespace and holds its
	# CC module until it gives up its FIN: after one retry, not eight.
	tb_exec "$1" sysctl -qw net.ipv4.ip_forward=1 net.ipv4.tcp_no_metrics_save=1 \
		net.ipv4.tcp_orphan_retries=1
}

# tb_rx_by_flow: every namespace's devices take each flow's packets on
# one CPU, chosen by its hash (RPS over all CPUs), so that the testbed
# keeps each flow in order, for a test that asserts order. Without it a
# veth hands a packet to the backlog of the CPU that sends it, and a
# shaped qdisc sends from whichever CPU its timer or an enqueue ran on:
# the two vCPUs' backlogs then deliver a flow out of order (TCP counted
# it behind a FIFO port, test_ndt).
tb_rx_by_flow() {
	_cpus=$(printf '%x' $(((1 << $(grep -c '^cpu[0-9]' /proc/stat)) - 1)))
	while read -r _ns; do
		tb_exec "$_ns" sh -c 'for f in /sys/class/net/*/queues/rx-*/rps_cpus; do
			echo "$1" > "$f" || exit 1; done' sh "$_cpus" || tb_die "RPS in $_ns"
	done < "$TB_RUN/namespaces"
}

# Per-packet ECN and ACK accounting: no segmentation or receive offloads,
# and no GSO in software either: TCP builds GSO packets of up to 1 ms at
# its pacing rate whatever the device offers (sk_setup_caps() adds
# NETIF_F_GSO_SOFTWARE) and paces each as one, and the device's software
# segmentation then sends their segments at once, a burst a veth, which
# has no line rate, delivers at once too. One segment per packet, each
# paced: as the papers' hosts pace (the authors' htsim paces every
# packet at cwnd / base RTT). DEV is in this namespace: the features and
# the limit stay with it when it moves.
tb_no_offload() {
	ethtool -K "$1" tso off gso off gro off >/dev/null 2>&1 || true
	$IP link set dev "$1" gso_max_segs 1 || tb_die "gso_max_segs on $1"
}

# tb_link NS1 DEV1 ADDR1/LEN NS2 DEV2 ADDR2/LEN: a veth pair made here,
# where its offloads are turned off without entering a namespace, then
# moved and renamed.
tb_link() {
	TB_NLINKS=$((${TB_NLINKS:-0} + 1))
	_va=tbv$TB_NLINKS.a _vb=tbv$TB_NLINKS.b
	$IP link add "$_va" mtu "$TB_MTU" type veth peer name "$_vb" mtu "$TB_MTU" ||
		tb_die "cannot create veth $1:$2 - $4:$5"
	tb_no_offload "$_va"
	tb_no_offload "$_vb"
	$IP link set "$_va" netns "$TB_PREFIX$1" name "$2" || tb_die "veth to $1:$2"
	$IP link set "$_vb" netns "$TB_PREFIX$4" name "$5" || tb_die "veth to $4:$5"
	tb_ip "$1" link set "$2" up
	tb_ip "$4" link set "$5" up
	tb_ip "$1" addr add "$3" dev "$2"
	tb_ip "$4" addr add "$6" dev "$5"
}

# tb_delay NS DEV MS [NETEM_ARGS...]: netem delay MS on this end's egress,
# and NETEM_ARGS ("loss 1%", "slot 4ms 4ms"); the queue limit leaves room
# for a 10 Gbit/s x RTT window so netem never drops.
tb_delay() {
	_dns=$1 _ddev=$2 _dms=$3
	shift 3
	tb_tc "$_dns" qdisc replace dev "$_ddev" root netem delay "${_dms}ms" limit 1000000 "$@" ||
		tb_die "netem on $_dns:$_ddev"
}

# tb_wan_delay NS DEV RTT_MS: half the WAN RTT on this end's egress.
tb_wan_delay() {
	tb_delay "$1" "$2" "$(tb_calc "$3 / 2")"
}

# tb_wan_loss PCT: random loss, PCT % of the packets each on its own
# (netem), on the dumbbell's WAN toward the ToR (bor:wan0): the inter-DC
# senders' data. Its half of TB_WAN_RTT stays as tb_wan_delay set it, and
# the other way, the receiver's ACKs, stays loss-free. 0: no loss.
tb_wan_loss() {
	_loss=
	[ "$(tb_calc "$1 > 0")" = 1 ] && _loss="loss $1%"
	# shellcheck disable=SC2086
	tb_delay bor wan0 "$(tb_calc "$TB_WAN_RTT / 2")" $_loss
}

# tb_host_delay [NETEM_ARGS...]: TB_HOST_RTT on the receiver's egress, the
# ACKs' way, so that the bottleneck stays the ToR's port; NETEM_ARGS add to
# it ("slot 4ms 4ms"). Without either, no qdisc.
tb_host_delay() {
	if [ "$TB_HOST_RTT" = 0 ] && [ $# -eq 0 ]; then
		tb_tc rcv qdisc del dev eth0 root 2>/dev/null
		return 0
	fi
	tb_delay rcv eth0 "$TB_HOST_RTT" "$@"
}

# tb_dumbbell N M: N intra-DC and M inter-DC senders, one receiver 'rcv'
# (10.0.0.1) behind the ToR port p0, which is the bottleneck.
tb_dumbbell() {
	TB_TOPO=dumbbell
	TB_N_INTRA=$1
	TB_N_INTER=$2
	TB_RCV=rcv
	TB_RCV_ADDR=10.0.0.1
	tb_add_ns tor
	tb_add_ns rcv
	tb_link tor p0 10.0.0.254/24 rcv eth0 10.0.0.1/24
	tb_ip rcv route add default via 10.0.0.254
	[ "$TB_HOST_RTT" = 0 ] || tb_host_delay

	_i=1
	while [ $_i -le "$1" ]; do
		tb_add_ns "h$_i"
		tb_link tor "h$_i" "10.1.$_i.254/24" "h$_i" eth0 "10.1.$_i.1/24"
		tb_ip "h$_i" route add default via "10.1.$_i.254"
		_i=$((_i + 1))
	done

	[ "$2" -gt 0 ] || return 0
	tb_add_ns bor
	tb_link tor wan0 10.2.0.254/24 bor wan0 10.2.0.1/24
	tb_ip tor route add 10.3.0.0/16 via 10.2.0.1
	tb_ip bor route add default via 10.2.0.254
	tb_wan_delay tor wan0 "$TB_WAN_RTT"
	tb_wan_delay bor wan0 "$TB_WAN_RTT"
	_i=1
	while [ $_i -le "$2" ]; do
		tb_add_ns "w$_i"
		tb_link bor "w$_i" "10.3.$_i.254/24" "w$_i" eth0 "10.3.$_i.1/24"
		tb_ip "w$_i" route add default via "10.3.$_i.254"
		_i=$((_i + 1))
	done
}

# tb_addr6 NS DEV ADDR/LEN: an IPv6 address, usable at once (no DAD).
tb_addr6() {
	tb_ip "$1" -6 addr add "$3" dev "$2" nodad || tb_die "address $3 on $1:$2"
}

# tb_twodc_ipv6 L N: IPv6 beside tb_twodc's IPv4, fd00:X:: where it has
# 10.X., the border routers spreading over the L WAN links by flow label
# (net.ipv6.fib_multipath_hash_policy=0, set by tb_twodc). TB_RCV_ADDR6:
# the receiver's address.
tb_twodc_ipv6() {
	for _ns in tora bora borb torb; do
		tb_exec "$_ns" sysctl -qw net.ipv6.conf.all.forwarding=1
	done
	tb_addr6 tora up0 fd00:10::1/64
	tb_addr6 bora down0 fd00:10::fe/64
	tb_addr6 torb up0 fd00:20::1/64
	tb_addr6 borb down0 fd00:20::fe/64
	_nexthops_a="" _nexthops_b=""
	_l=1
	while [ $_l -le "$1" ]; do
		tb_addr6 bora "wan$_l" "fd00:30:$_l::1/64"
		tb_addr6 borb "wan$_l" "fd00:30:$_l::2/64"
		_nexthops_a="$_nexthops_a nexthop via fd00:30:$_l::2 dev wan$_l"
		_nexthops_b="$_nexthops_b nexthop via fd00:30:$_l::1 dev wan$_l"
		_l=$((_l + 1))
	done
	# shellcheck disable=SC2086
	tb_ip bora -6 route add fd00:200::/32 $_nexthops_a
	# shellcheck disable=SC2086
	tb_ip borb -6 route add fd00:100::/32 $_nexthops_b
	tb_ip bora -6 route add fd00:100::/32 via fd00:10::1
	tb_ip borb -6 route add fd00:200::/32 via fd00:20::1
	tb_ip tora -6 route add default via fd00:10::fe
	tb_ip torb -6 route add default via fd00:20::fe
	_i=1
	while [ $_i -le "$2" ]; do
		tb_addr6 tora "a$_i" "fd00:100:$_i::fe/64"
		tb_addr6 "a$_i" eth0 "fd00:100:$_i::1/64"
		tb_addr6 torb "b$_i" "fd00:200:$_i::fe/64"
		tb_addr6 "b$_i" eth0 "fd00:200:$_i::1/64"
		tb_ip "a$_i" -6 route add default via "fd00:100:$_i::fe"
		tb_ip "b$_i" -6 route add default via "fd00:200:$_i::fe"
		_i=$((_i + 1))
	done
	TB_RCV_ADDR6=fd00:200:1::1
}

# tb_twodc L [N]: two datacenters, each a ToR and a border router, joined
# by L parallel WAN links with netem delay; the border routes across them
# with ECMP on the wire's 5-tuple. N senders a1..aN in DC A, N receivers
# b1..bN in DC B (default 1). With TB_IPV6=1, IPv6 too (tb_twodc_ipv6).
tb_twodc() {
	TB_TOPO=twodc
	_links=$1
	_n=${2:-1}
	for _ns in tora bora borb torb; do
		tb_add_ns "$_ns"
	done
	tb_link tora up0 10.10.0.1/24 bora down0 10.10.0.254/24
	tb_link torb up0 10.20.0.1/24 borb down0 10.20.0.254/24
	_nexthops_a="" _nexthops_b=""
	_l=1
	while [ $_l -le "$_links" ]; do
		tb_link bora "wan$_l" "10.30.$_l.1/24" borb "wan$_l" "10.30.$_l.2/24"
		tb_wan_delay bora "wan$_l" "$TB_WAN_RTT"
		tb_wan_delay borb "wan$_l" "$TB_WAN_RTT"
		_nexthops_a="$_nexthops_a nexthop via 10.30.$_l.2 dev wan$_l"
		_nexthops_b="$_nexthops_b nexthop via 10.30.$_l.1 dev wan$_l"
		_l=$((_l + 1))
	done
	# The routers hash the wire, as a fabric's do: IPv4 on the 5-tuple
	# (policy 3, fields 0x37: addresses, protocol, ports), IPv6 on the
	# addresses, flow label and next header (policy 0). Policy 1 returns
	# the skb's own L4 hash when it has one, and veth keeps the sender's
	# socket hash across namespaces, so the routers would follow the
	# sender's hash, not the wire: a rewritten port would not move a
	# packet, and TCP would re-path on every RTO, as no IPv4 fabric does
	# (Documentation/testing.rst, tb_twodc).
	for _ns in bora borb; do
		tb_exec "$_ns" sysctl -qw net.ipv4.fib_multipath_hash_policy=3 \
			net.ipv4.fib_multipath_hash_fields=0x37 \
			net.ipv6.fib_multipath_hash_policy=0
	done
	# shellcheck disable=SC2086
	tb_ip bora route add 10.200.0.0/16 $_nexthops_a
	# shellcheck disable=SC2086
	tb_ip borb route add 10.100.0.0/16 $_nexthops_b
	tb_ip bora route add 10.100.0.0/16 via 10.10.0.1
	tb_ip borb route add 10.200.0.0/16 via 10.20.0.1
	tb_ip tora route add default via 10.10.0.254
	tb_ip torb route add default via 10.20.0.254
	_i=1
	while [ $_i -le "$_n" ]; do
		tb_add_ns "a$_i"
		tb_add_ns "b$_i"
		tb_link tora "a$_i" "10.100.$_i.254/24" "a$_i" eth0 "10.100.$_i.1/24"
		tb_link torb "b$_i" "10.200.$_i.254/24" "b$_i" eth0 "10.200.$_i.1/24"
		tb_ip "a$_i" route add default via "10.100.$_i.254"
		tb_ip "b$_i" route add default via "10.200.$_i.254"
		_i=$((_i + 1))
	done
	TB_RCV=b1
	TB_RCV_ADDR=10.200.1.1
	if [ "${TB_IPV6:-0}" = 1 ]; then
		tb_twodc_ipv6 "$_links" "$_n"
	fi
}

# tb_router NS FIELDS: a fabric router hashing the wire (policy 3, the
# IPv4 fields FIELDS; IPv6 on the addresses and flow label), with no
# reverse-path filter, as its paths are asymmetric (arcane.md 4.4).
tb_router() {
	tb_exec "$1" sysctl -qw net.ipv4.fib_multipath_hash_policy=3 \
		net.ipv4.fib_multipath_hash_fields="$2" \
		net.ipv6.fib_multipath_hash_policy=0 \
		net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
}

# tb_leafspine S L H: one datacenter, L leaves under S spines (arcane.md
# 4.4, LS44 is 4 4 4), H hosts per leaf: host i of leaf l is "l<l>h<i>",
# 10.<10+l>.<i>.1 on its eth0, its leaf's port h<i>. Leaf l reaches spine
# s on its port s<s> (10.<40+l>.<s>.1, the spine's port l<l> .2); a leaf
# spreads what leaves it over every spine by the 5-tuple (fields 0x37),
# a spine routes each leaf's 10.<10+l>/16 down to it. TB_RCV is the last
# leaf's first host.
tb_leafspine() {
	TB_TOPO=leafspine
	_s=1
	while [ $_s -le "$1" ]; do
		tb_add_ns "spine$_s"
		_s=$((_s + 1))
	done
	_l=1
	while [ $_l -le "$2" ]; do
		tb_add_ns "leaf$_l"
		tb_router "leaf$_l" 0x37
		_nexthops=""
		_s=1
		while [ $_s -le "$1" ]; do
			tb_link "leaf$_l" "s$_s" "10.$((40 + _l)).$_s.1/24" \
				"spine$_s" "l$_l" "10.$((40 + _l)).$_s.2/24"
			tb_ip "spine$_s" route add "10.$((10 + _l)).0.0/16" \
				via "10.$((40 + _l)).$_s.1"
			_nexthops="$_nexthops nexthop via 10.$((40 + _l)).$_s.2 dev s$_s"
			_s=$((_s + 1))
		done
		# shellcheck disable=SC2086
		tb_ip "leaf$_l" route add default $_nexthops
		tb_fabric_hosts "leaf$_l" "l${_l}h" "10.$((10 + _l))" "$3"
		_l=$((_l + 1))
	done
	TB_RCV=l${2}h1
	TB_RCV_ADDR=10.$((10 + $2)).1.1
}

# tb_fabric_hosts ROUTER NAME NET H: H hosts NAME1..NAMEH under ROUTER,
# host i at NET.i.1 on its eth0, ROUTER's port h<i> at NET.i.254.
tb_fabric_hosts() {
	_i=1
	while [ $_i -le "$4" ]; do
		tb_add_ns "$2$_i"
		tb_link "$1" "h$_i" "$3.$_i.254/24" "$2$_i" eth0 "$3.$_i.1/24"
		tb_ip "$2$_i" route add default via "$3.$_i.254"
		_i=$((_i + 1))
	done
}

# tb_fattree [H]: the k=4 fat tree of arcane.md 4.4 (FT4): 4 pods of 2
# edge and 2 aggregation routers, 4 core routers, H hosts per edge (2,
# the fat tree's; fewer for a test of the fabric alone). Host i of
# edge e in pod p is "p<p>e<e>h<i>", 10.<100+10p+e>.<i>.1. Edge (p,e)
# reaches agg (p,a) on its port a<a> (10.<50+10p+e>.<a>.1; the agg's port
# e<e> .2); agg (p,a) reaches core c = 2(a-1)+j, j = 1, 2, on its port
# c<c> (10.<150+10p+a>.<c>.1; the core's port p<p> .2). Edges spread up
# over their aggs, aggs over their cores. 6.1 has no per-namespace hash
# seed (fib_multipath_hash_seed is 6.11), so the two tiers would hash a
# flow alike and each agg would send all it gets from an edge to one
# core (polarisation); the aggs hash without the protocol (0x33) to
# decorrelate them, as arcane.md 4.4 advises. TB_RCV is the last pod's
# last edge's first host.
tb_fattree() {
	TB_TOPO=fattree
	_h=${1:-2}
	for _c in 1 2 3 4; do
		tb_add_ns "core$_c"
	done
	for _p in 1 2 3 4; do
		for _a in 1 2; do
			tb_add_ns "agg$_p$_a"
			tb_router "agg$_p$_a" 0x33
			_nexthops=""
			for _j in 1 2; do
				_c=$((2 * (_a - 1) + _j))
				_net=10.$((150 + 10 * _p + _a)).$_c
				tb_link "agg$_p$_a" "c$_c" "$_net.1/24" "core$_c" "p$_p" "$_net.2/24"
				_nexthops="$_nexthops nexthop via $_net.2 dev c$_c"
			done
			# shellcheck disable=SC2086
			tb_ip "agg$_p$_a" route add default $_nexthops
		done
		for _e in 1 2; do
			tb_add_ns "edge$_p$_e"
			tb_router "edge$_p$_e" 0x37
			_nexthops=""
			for _a in 1 2; do
				_net=10.$((50 + 10 * _p + _e)).$_a
				tb_link "edge$_p$_e" "a$_a" "$_net.1/24" "agg$_p$_a" "e$_e" "$_net.2/24"
				tb_ip "agg$_p$_a" route add "10.$((100 + 10 * _p + _e)).0.0/16" \
					via "$_net.1"
				_nexthops="$_nexthops nexthop via $_net.2 dev a$_a"
			done
			# shellcheck disable=SC2086
			tb_ip "edge$_p$_e" route add default $_nexthops
			tb_fabric_hosts "edge$_p$_e" "p${_p}e${_e}h" "10.$((100 + 10 * _p + _e))" "$_h"
			# Each core reaches the edge through its agg in the pod.
			for _c in 1 2 3 4; do
				_a=$(((_c + 1) / 2))
				tb_ip "core$_c" route add "10.$((100 + 10 * _p + _e)).0.0/16" \
					via "10.$((150 + 10 * _p + _a)).$_c.1"
			done
		done
	done
	TB_RCV=p4e2h1
	TB_RCV_ADDR=10.142.1.1
}

# The address of a namespace's eth0.
tb_addr() {
	tb_ip "$1" -4 -o addr show dev eth0 | awk '{ sub("/.*", "", $4); print $4 }'
}

# tb_bottleneck QDISC-SPEC...: the root qdisc of the bottleneck port.
tb_bottleneck() {
	# shellcheck disable=SC2086
	tb_tc $TB_BOTTLENECK_NS qdisc replace dev "$TB_BOTTLENECK_DEV" root "$@" ||
		tb_die "bottleneck qdisc '$*' refused"
}

# Shaper burst: 16 packets, so that the shaper's timer fires every 16
# packets rather than every packet (HTB, or a one-packet TBF bucket, cannot
# keep 1 Gbit/s under TCG: 480 and 850 Mbit/s measured, against 930).
tb_burst() { echo $((16 * TB_MTU)); }

# tb_stall_burst RATE_MBIT: a shaper burst of 50 ms of link time at RATE,
# at least tb_burst, for a shaper whose rate a test asserts. A watchdog
# that fires later than burst / rate loses link time for good, and a host
# whose hypervisor steals CPU stalls the VM for that long: the sampler's
# 'sleep 1' came back up to 220 ms late, a phantom port with 8 ms lost 4.3 %
# of 70 Mbit/s, and a TBF port with 16 packets (7 ms) ran 0.87 busy at
# 70 Mbit/s with a fifth of the VM's CPU idle. A full bucket adds at most
# 50 ms of link time to a window: 0.5 % of 10 s.
tb_stall_burst() {
	_b=$(($1 * 6250))	# RATE x 10^6 / 8 bytes/s x 0.05 s
	[ "$_b" -ge "$(tb_burst)" ] || _b=$(tb_burst)
	echo "$_b"
}

# tb_bottleneck_red RATE_MBIT MARK_KB: the baseline switch port: TBF shaping
# to RATE (burst tb_stall_burst) and a RED child that CE-marks ECT packets once the queue exceeds
# MARK_KB (a DCTCP-style step: min = threshold, max one packet above,
# probability 1, the fastest averaging RED allows). Non-ECT packets over the
# threshold are dropped, as RED does.
tb_bottleneck_red() {
	_k=$(($2 * 1000))
	_limit=$((_k * 8 + 4 * TB_MTU))
	# A fresh pair, counters at 0, where a test measures again.
	tb_tc $TB_BOTTLENECK_NS qdisc del dev "$TB_BOTTLENECK_DEV" root 2>/dev/null
	tb_bottleneck handle 1: tbf rate "${1}mbit" burst "$(tb_stall_burst "$1")" limit "$_limit"
	tb_tc $TB_BOTTLENECK_NS qdisc add dev "$TB_BOTTLENECK_DEV" parent 1:1 handle 10: \
		red limit "$_limit" min "$_k" max "$((_k + TB_MTU))" avpkt "$TB_MTU" \
		burst "$((_k / TB_MTU + 1))" probability 1.0 ecn bandwidth "${1}mbit" ||
		tb_die "red"
	TB_RATE_MBIT=$1
}

# tb_bottleneck_phantom RATE_MBIT [OPTION...]: the phantom qdisc (our
# switch port) shaping to RATE with the shaper burst above, unless the
# options give their own 'burst'; the other options go to tc as they are.
tb_bottleneck_phantom() {
	_rate=$1
	shift
	case " $* " in
	*" burst "*) tb_bottleneck phantom rate "${_rate}mbit" "$@" ;;
	*) tb_bottleneck phantom rate "${_rate}mbit" burst "$(tb_burst)" "$@" ;;
	esac
	TB_RATE_MBIT=$_rate
}

TB_BOTTLENECK_NS=tor
TB_BOTTLENECK_DEV=p0

# tb_rtt NS DST COUNT: ping DST from NS; prints "min avg max" in ms.
tb_rtt() {
	tb_exec "$1" ping -q -c "${3:-20}" -i 0.05 "$2" 2>/dev/null |
		awk -F'[/ =]+' '/^rtt|^round-trip/ { print $6, $7, $8 }'
}

# tb_base_rtts: the idle RTT of every sender to the receiver, into
# $OUT_DIR/base_rtt.json as { "h1": {"min_ms":…, "avg_ms":…}, … }.
tb_base_rtts() {
	_json="{}"
	for _ns in $(tb_senders); do
		set -- $(tb_rtt "$_ns" "$TB_RCV_ADDR" 20)
		[ $# -eq 3 ] || tb_die "no RTT from $_ns to $TB_RCV_ADDR"
		_json=$(echo "$_json" | jq -c --arg ns "$_ns" --argjson min "$1" --argjson avg "$2" \
			'.[$ns] = {min_ms: $min, avg_ms: $avg}')
	done
	echo "$_json" > "$OUT_DIR/base_rtt.json"
}

tb_senders() {
	case "$TB_TOPO" in
	dumbbell)
		_i=1
		while [ $_i -le "$TB_N_INTRA" ]; do echo "h$_i"; _i=$((_i + 1)); done
		_i=1
		while [ $_i -le "$TB_N_INTER" ]; do echo "w$_i"; _i=$((_i + 1)); done
		;;
	twodc) ls "/run/netns" | sed -n "s/^$TB_PREFIX\(a[0-9]*\)$/\1/p" ;;
	esac
}

# Load the module of a CC that is not built in or loaded yet, and allow it
# as a namespace's default (outside init_net only allowed CCs may be).
tb_need_cc() {
	_avail=/proc/sys/net/ipv4/tcp_available_congestion_control
	_allowed=/proc/sys/net/ipv4/tcp_allowed_congestion_control
	grep -qw "$1" $_avail || modprobe "tcp_$1" 2>/dev/null ||
		tb_skip "congestion control '$1' not available"
	grep -qw "$1" $_allowed || echo "$(cat $_allowed) $1" > $_allowed
}

# tb_cc_profile RATE_MBIT INTRA_RTT_US: configure our CC modules for this
# network, as an operator would (their defaults are the papers' 100 Gbit/s
# and 14 us): the line rate BDPs are computed from, and the intra-DC base
# RTT, which is also the floor of every learned base RTT. In the TCG VM the
# min RTT of a loaded path swings from 40 us to several ms with host
# scheduling, so tests pass the mean idle RTT (tb_base_rtts); that noise is
# also uno's delay floor, the RTT excess it still counts as "no physical
# queue" (20 us suits real veth hosts, not an emulated one). The senders
# pace as TB_PACING says (tb_pacing). Loads the modules.
tb_cc_profile() {
	tb_need_cc uno
	tb_need_cc smartt
	tb_set_param tcp_uno link_rate_mbps "$1"
	tb_set_param tcp_uno intra_rtt_us "$2"
	tb_set_param tcp_uno delay_floor_us "$2"
	tb_set_param tcp_smartt link_rate_mbps "$1"
	tb_set_param tcp_smartt base_rtt_floor_us "$2"
	tb_pacing
	# Experiments: module parameters from UNO_EVAL_PARAMS, applied last
	# ("tcp_uno.qa_window_pct=100 tcp_smartt.mode=1").
	for _kv in $UNO_EVAL_PARAMS; do
		_mod=${_kv%%.*} _kv=${_kv#*.}
		tb_set_param "$_mod" "${_kv%%=*}" "${_kv#*=}"
	done
}

# tb_pacing: how the senders pace, TB_PACING:
#   tcp  (default) TCP's internal pacing, an hrtimer per socket and
#        burst, for the CCs that ask for it (uno, smartt, bbr);
#   fq   fq on every sender's egress enforces the departure times TCP
#        stamps from sk_pacing_rate (EDT), for every CC (Linux sets a
#        rate of 1.2-2 x cwnd / srtt for cubic and dctcp too);
#   off  uno and smartt set no pacing rate and keep windows of whole
#        segments; their windows alone clock the flows.
# Measured in the TCG VM (Documentation/testing.rst): uno's one intra-DC
# flow (N1) ran at 0.73 x C paced by TCP, 0.56 by fq, 0.78 unpaced; its
# one inter-DC flow (N2) at 0.43, 0.28 and 0.30.
tb_pacing() {
	case "$TB_PACING" in
	fq)
		for _ns in $(tb_senders); do
			tb_tc "$_ns" qdisc replace dev eth0 root fq ||
				tb_die "fq on $_ns"
		done ;;
	tcp) ;;
	off)	# and windows of whole segments, as nothing else enforces less
		tb_set_param tcp_uno pacing_pct 0
		tb_set_param tcp_uno min_cwnd_bytes 0
		tb_set_param tcp_smartt pacing_gain 0
		tb_set_param tcp_smartt min_cwnd_bytes 0 ;;
	*) tb_die "TB_PACING '$TB_PACING': fq, tcp or off" ;;
	esac
}

# tb_intra_rtt_us: the mean idle intra-DC RTT tb_base_rtts measured, in us.
tb_intra_rtt_us() {
	jq '[to_entries[] | select(.key | test("^h")) | .value.avg_ms] | add / length * 1000 | floor' \
		"$OUT_DIR/base_rtt.json"
}

tb_set_param() {
	echo "$3" > "/sys/module/$1/parameters/$2" || tb_die "$1: cannot set $2=$3"
}

# tb_ns_cc NS CC: the default CC of a namespace's new sockets. A flow gets
# its CC this way rather than only by TCP_CONGESTION after socket(): a
# socket born with an ECN CC sends an ECN-setup SYN, whatever net.ipv4.tcp_ecn.
tb_ns_cc() {
	tb_need_cc "$2"
	tb_exec "$1" sysctl -qw net.ipv4.tcp_congestion_control="$2" ||
		tb_die "cannot make $2 the default CC of $1"
}

# tb_qdisc_sampler NS DEV INTERVAL_S: sample 'tc -s -j qdisc' every
# INTERVAL into $OUT_DIR/qdisc-NS-DEV.jsonl, one {"t": uptime, "q": [...]}
# per line, until tb_cleanup.
tb_qdisc_sampler() {
	_f="$OUT_DIR/qdisc-$1-$2.jsonl"
	(
		while :; do
			read -r _up _ < /proc/uptime
			printf '{"t":%s,"q":%s}\n' "$_up" "$(tb_tc "$1" -s -j qdisc show dev "$2")"
			sleep "$3"
		done
	) >> "$_f" 2>/dev/null &
	echo $! >> "$TB_RUN/pids"
}

# tb_cpu_sampler INTERVAL_S: every INTERVAL, the VM's CPU time so far
# (/proc/stat's first line, in USER_HZ: user nice system idle iowait irq
# softirq steal) after /proc/uptime, as lines of $OUT_DIR/cpu.txt, until
# tb_cleanup. It reads with shell builtins: a sleep is all it costs.
tb_cpu_sampler() {
	(
		while read -r _up _ < /proc/uptime && read -r _ _cpu < /proc/stat; do
			echo "$_up $_cpu"
			sleep "$1"
		done
	) >> "$OUT_DIR/cpu.txt" 2>/dev/null &
	echo $! >> "$TB_RUN/pids"
}

# tb_pct PCT: the PCT-th percentile (nearest rank) of the numbers on
# stdin, one a line; 0 if there are none.
tb_pct() {
	sort -n | awk -v p="$1" '{ v[NR] = $1 }
		END { if (NR == 0) { print 0; exit }
		      i = int((NR - 1) * p / 100 + 0.5) + 1; print v[i] }'
}

# tb_backlog_pct FILE PCT [T0 T1]: the PCT-th percentile of the root
# qdisc's byte backlog over the samples in FILE taken between T0 and T1.
tb_backlog_pct() {
	jq -r --argjson t0 "${3:-0}" --argjson t1 "${4:-1e12}" \
		'select(.t >= $t0 and .t <= $t1) | .q[] | select(.root == true) | .backlog' "$1" |
		tb_pct "$2"
}

# tb_empty_fraction FILE [T0 T1]: the share of the time between the first
# and the last sample in FILE taken between T0 and T1 in which the root
# phantom qdisc held no packet, from its empty_ns counter (exact, where
# tb_backlog_pct samples: the backlog's median is 0 iff this is >= 0.5);
# null for a qdisc without the counter or fewer than two samples.
tb_empty_fraction() {
	jq -s --argjson t0 "${2:-0}" --argjson t1 "${3:-1e12}" '
		[.[] | select(.t >= $t0 and .t <= $t1) | .t as $t |
		 .q[] | select(.root == true and .empty_ns != null) |
		 { t: $t, e: .empty_ns }] |
		if length < 2 or .[-1].t <= .[0].t then null
		else ((.[-1].e - .[0].e) / 1e9 / (.[-1].t - .[0].t) * 1000 | round) / 1000
		end' "$1"
}

# tb_qdisc_counter NS DEV FIELD: a root qdisc counter (drops, bytes, …)
# now; summed over the child qdiscs for "marked" (RED's ECN marks, or the
# phantom qdisc's ce_marks + phantom_marks). The phantom qdisc's own
# counters (ce_marks, phantom_marks, trimmed, trim_drops, tail_drops,
# max_backlog, phantom_backlog, phantom_max_backlog, trim_backlog) are
# fields of the root qdisc like bytes and drops.
tb_qdisc_counter() {
	_q=$(tb_tc "$1" -s -j qdisc show dev "$2")
	case "$3" in
	marked) echo "$_q" |
		jq '[.[] | (.marked // 0) + (.ce_marks // 0) + (.phantom_marks // 0)] | add' ;;
	*) echo "$_q" | jq --arg f "$3" '.[] | select(.root == true) | .[$f] // 0' ;;
	esac
}

# tb_ss_field NS FIELD...: the largest value of each numeric 'ss -ti' field
# (delivered_ce, bytes_retrans, cwnd, ...) over NS's TCP connections, on
# one line and from one reading, so that a ratio of two fields of a running
# flow compares counts of the same instant.
tb_ss_field() {
	_ns=$1
	shift
	ss -N "$TB_PREFIX$_ns" -Htin state established |
		awk -v fields="$*" 'BEGIN { n = split(fields, f, " ") }
			{ for (i = 1; i <= NF; i++) for (j = 1; j <= n; j++)
				if (index($i, f[j] ":") == 1) {
					v = substr($i, length(f[j]) + 2) + 0
					if (v > m[j]) m[j] = v } }
			END { for (j = 1; j <= n; j++)
				printf "%.15g%s", m[j], j < n ? " " : "\n" }'
}

# tb_flow NS CC DURATION_S [CLASS]: start a long iperf3 flow from NS to the
# receiver with congestion control CC (NS's default CC, and iperf3 -C so the
# receiving socket runs it too); DURATION_S 0 runs it until tb_flows_stop,
# which is what a flow measured over a window wants: on a slow TCG host
# starting the flows and sampling them stretch the test by many seconds.
# Each flow has its own server port (5200 + id), which keys it in the
# measurements.
tb_flow() {
	if grep -q " $1 " "$TB_RUN/flows" && ! grep -q " $1 $2 " "$TB_RUN/flows"; then
		tb_die "one CC per sender namespace: $1 already runs another"
	fi
	tb_ns_cc "$1" "$2"
	# Ids (and so ports) are never reused within a test, even after
	# tb_flows_stop: an old server may still hold its port.
	_id=$(($(cat "$TB_RUN/nflows" 2>/dev/null || echo 0) + 1))
	echo "$_id" > "$TB_RUN/nflows"
	_port=$((5200 + _id))
	_class=${4:-$(case "$1" in w* | a*) echo inter ;; *) echo intra ;; esac)}
	tb_exec "$TB_RCV" iperf3 -s -1 -p "$_port" > "$TB_RUN/server-$_id.log" 2>&1 &
	_server=$!
	echo $_server >> "$TB_RUN/pids"
	tb_wait_listen "$TB_RCV" "$_port"
	tb_exec "$1" iperf3 -c "$TB_RCV_ADDR" -p "$_port" -t "$3" -C "$2" -J \
		> "$OUT_DIR/iperf3-$_id.json" 2>&1 &
	echo $! >> "$TB_RUN/pids"
	echo "$_id $1 $2 $_class $_port $! $_server" >> "$TB_RUN/flows"
}

# tb_host_mbps: set TB_HOST_MBPS to what this VM forwards from the first
# sender to the receiver with no shaper at all: one cubic flow for 3 s,
# the first second omitted. Under TCG the VM's CPU, not the link, sets
# this (0.1 to 1 Gbit/s seen on 2 GHz hosts, less while the host is
# busy), so a test that asserts a shaped rate first checks that the VM
# can carry it.
tb_host_mbps() {
	_src=$(tb_senders | head -n 1)
	tb_exec "$TB_RCV" iperf3 -s -1 -p 5199 > /dev/null 2>&1 &
	tb_wait_listen "$TB_RCV" 5199
	TB_HOST_MBPS=$(tb_exec "$_src" iperf3 -c "$TB_RCV_ADDR" -p 5199 -t 3 -O 1 -C cubic -J |
		jq '.end.sum_received.bits_per_second / 1e6 | floor')
	[ -n "$TB_HOST_MBPS" ] || tb_die "cannot measure what the VM forwards"
}

# tb_port_rate MBPS: set TB_PORT_MBIT, the bottleneck rate a test runs at:
# MBPS where the VM forwards at least four times that unshaped
# (tb_host_mbps), else a quarter of what it forwards, in whole 10 Mbit/s,
# so that the shaper and not the VM's CPU is the bottleneck. (At half,
# dctcp carried 0.66 of the port: the sampler, the shaper's timer and the
# RED queue cost the VM more than the probe's flow does, and the probe
# varies by 20 % from run to run.) Skips below 20 Mbit/s: such a host
# measures nothing. Call it after building the topology and before the
# bottleneck qdisc.
tb_port_rate() {
	tb_host_mbps
	TB_PORT_MBIT=$(awk -v n="$1" -v h="$TB_HOST_MBPS" \
		'BEGIN { r = int(h / 40) * 10; print (r < n ? r : n) }')
	[ "$TB_PORT_MBIT" -ge 20 ] || tb_skip "the VM forwards $TB_HOST_MBPS Mbit/s unshaped"
	tb_log "port rate $TB_PORT_MBIT Mbit/s: the VM forwards $TB_HOST_MBPS Mbit/s unshaped"
}

# tb_gtest NAME BIN: a GoogleTest binary (a BPF object's tests run in this
# kernel), its output in $OUT_DIR/NAME.log: it must pass, with at least
# one test run and none skipped.
tb_gtest() {
	"$2" > "$OUT_DIR/$1.log" 2>&1
	_rc=$?
	tb_log "$(grep -E '^\[ *(PASSED|FAILED|SKIPPED) *\]' "$OUT_DIR/$1.log" | tr '\n' ' ')"
	tb_check "$1_exit" "$_rc" "==" 0
	tb_check "$1_tests_passed" "$(grep -c '^\[       OK \]' "$OUT_DIR/$1.log")" ">" 0
	tb_check "$1_tests_skipped" "$(grep -c '^\[  SKIPPED \]' "$OUT_DIR/$1.log")" "==" 0
}

# tb_wait_listen NS PORT [udp]: wait until a TCP socket listens on PORT in
# NS, or with udp a UDP socket is bound to it.
tb_wait_listen() {
	_proto=${3:-tcp}
	_flag=-Htln
	[ "$_proto" = udp ] && _flag=-Huln
	_tries=50
	while [ $_tries -gt 0 ]; do
		ss -N "$TB_PREFIX$1" $_flag "sport = :$2" | grep -q . && return 0
		sleep 0.1
		_tries=$((_tries - 1))
	done
	tb_die "nothing listens on $_proto $1:$2"
}

# tb_rcv_sockets: the receiver's established TCP sockets (ss -Htin),
# after a line "@ T": T the time of the reading, the midpoint of two
# /proc/uptime reads around ss inside the namespace. Entering the
# namespace and parsing the output take up to a second each on a busy TCG
# host, and a reading stamped after them misplaced an 8 s window enough to
# put a 10 Mbit/s flow's goodput 6.5 % below what the qdisc's own counter
# showed on the wire.
tb_rcv_sockets() {
	tb_exec "$TB_RCV" sh -c 'read -r a _ < /proc/uptime; s=$(ss -Htin state established)
		read -r b _ < /proc/uptime; echo "@ $a $b"; printf "%s\n" "$s"' |
		awk 'NR == 1 { printf "@ %.3f\n", ($2 + $3) / 2; next } { print }'
}

# tb_rx_sample FILE: "port bytes_received" of every established
# connection at the receiver, one per line, into FILE; and TB_RX_T, the
# time of that reading (tb_rcv_sockets).
tb_rx_sample() {
	tb_rcv_sockets > "$TB_RUN/ss"
	TB_RX_T=$(awk '$1 == "@" { print $2 }' "$TB_RUN/ss")
	[ -n "$TB_RX_T" ] || tb_die "cannot read the receiver's sockets"
	awk '$1 == "@" { next }
	     /^[^ \t]/ { n = split($3, a, ":"); port = a[n]; next }
	     { for (i = 1; i <= NF; i++) if ($i ~ /^bytes_received:/) {
		split($i, b, ":"); if (b[2] > rx[port]) rx[port] = b[2] } }
	     END { for (p in rx) print p, rx[p] }' "$TB_RUN/ss" > "$1"
}

# tb_receiver_cc CC: the receiver's default CC. ECN CCs echo CE per segment
# only when the receiving socket runs one of them (DCTCP's receiver logic).
tb_receiver_cc() {
	tb_ns_cc "$TB_RCV" "$1"
}

# tb_measure WARMUP_S WINDOW_S: wait WARMUP, then measure every flow's
# goodput over one common WINDOW from the receiver's byte counters (not
# each flow's own lifetime, so late starters cannot inflate the total).
# Writes $OUT_DIR/$TB_RESULT.json (default results.json) and sets TB_JAIN,
# TB_UTIL, TB_UTIL_P50 (tb_util_p50), TB_IDLE_P50 (the VM's idle CPU in
# the median second) and TB_TOTAL.
tb_measure() {
	tb_window "$1" "$2"
	tb_results
}

# tb_window WARMUP WINDOW: the receiver's byte counts at the start and the
# end of the window (TB_T0, TB_T1), and the bottleneck port's every second
# in between (tb_port_sampler), for tb_results.
tb_window() {
	sleep "$1"
	tb_rx_sample "$TB_RUN/rx0"
	TB_T0=$TB_RX_T
	tb_port_sampler_start
	read -r _now _ < /proc/uptime
	sleep "$(tb_calc "$TB_T0 + $2 - $_now > 0 ? $TB_T0 + $2 - $_now : 0")"
	# Before the reading, which costs the TCG VM 0.5-0.8 s of CPU
	# (entering the namespace, ss) that the sampler would count against
	# the flows.
	tb_port_sampler_stop
	tb_rx_sample "$TB_RUN/rx1"
	TB_T1=$TB_RX_T
	tb_flows_running
}

# tb_port_sampler_start: every second until tb_port_sampler_stop, the
# bytes the bottleneck port has sent (its device's tx_bytes: the frames
# its shaper's rate counts) and the VM's CPU idle time (summed over its
# CPUs), read between two /proc/uptime reads, as "t0 t1 idle0 idle1 bytes"
# lines in $TB_RUN/port_series. One shell in the bottleneck's namespace
# reads them with builtins: a per-second 'ss' in the receiver's namespace
# costs the TCG VM several processes each second, CPU the flows then lack.
tb_port_sampler_start() {
	tb_exec "$TB_BOTTLENECK_NS" sh -c '
		f=/sys/class/net/$1/statistics/tx_bytes
		while read -r a i < /proc/uptime && read -r n < "$f" &&
		      read -r b j < /proc/uptime; do
			echo "$a $b $i $j $n"
			sleep 1
		done' sh "$TB_BOTTLENECK_DEV" > "$TB_RUN/port_series" 2>/dev/null &
	TB_PORT_SAMPLER=$!
	echo $! >> "$TB_RUN/pids"
}

tb_port_sampler_stop() {
	kill "$TB_PORT_SAMPLER" 2>/dev/null
	wait "$TB_PORT_SAMPLER" 2>/dev/null
}

# tb_flows_running: die unless every flow's iperf3 client still runs. A
# flow that ended within a window leaves only its control connection on
# its port, and its goodput would read as zero or negative.
tb_flows_running() {
	while read -r _id _ns _cc _ _port _pid _; do
		kill -0 "$_pid" 2>/dev/null ||
			tb_die "flow $_id ($_ns, $_cc, port $_port) ended before its window did"
	done < "$TB_RUN/flows"
}

# tb_port_intervals: per interval between two of tb_port_sampler's
# readings, "utilisation idle late": the bytes the port sent over what its
# rate allows, the VM's idle CPU as a fraction of all its CPUs, and how
# much later than asked, in seconds, the sampler's 'sleep 1' returned.
tb_port_intervals() {
	awk -v rate="${TB_RATE_MBIT:-0}" -v ncpu="$(grep -c '^cpu[0-9]' /proc/stat)" '
		{ t = ($1 + $2) / 2; i = ($3 + $4) / 2 }
		NR > 1 && t > pt && rate > 0 {
			print ($5 - pn) * 8 / (t - pt) / 1e6 / rate, (i - pi) / (t - pt) / ncpu,
				$1 - pb - 1 }
		{ pt = t; pi = i; pn = $5; pb = $2 }' "$TB_RUN/port_series"
}

# tb_util_p50: the median over tb_window's one-second intervals of the
# port's utilisation (tb_port_intervals), or null. A host that stalls the
# VM for a second or two (other tenants of a shared host: a 2 GHz host's
# VM carried 0.77 of a port in one run and 0.98 ten minutes later) moves
# the mean, not the median.
tb_util_p50() {
	tb_port_intervals | sort -g | awk '{ u[NR] = $1 }
		END { if (!NR) { print "null"; exit }
		      print (NR % 2) ? u[(NR + 1) / 2] : (u[NR / 2] + u[NR / 2 + 1]) / 2 }'
}

# tb_json_column N: column N of the lines on stdin, as a JSON array.
tb_json_column() {
	awk -v c="$1" '{ printf "%s%.3f", (NR > 1 ? "," : "["), $c }
		END { print (NR ? "]" : "[]") }'
}

# tb_port_mbps: what the bottleneck port sent from tb_port_sampler's first
# reading to its last, in Mbit/s. Its stamps are good to the 10 ms of
# /proc/uptime; a tc or ss reading's, to the second or so it takes to run
# on a busy TCG host.
tb_port_mbps() {
	awk '{ t = ($1 + $2) / 2 } NR == 1 { t0 = t; n0 = $5 } { t1 = t; n1 = $5 }
		END { print (t1 > t0 ? (n1 - n0) * 8 / (t1 - t0) / 1e6 : "null") }' \
		"$TB_RUN/port_series"
}

tb_results() {
	_res="$OUT_DIR/${TB_RESULT:-results}.json"
	_flows=$(awk -v t0="$TB_T0" -v t1="$TB_T1" -v rx0="$TB_RUN/rx0" -v rx1="$TB_RUN/rx1" '
		BEGIN {
			while ((getline l < rx0) > 0) { split(l, a, " "); b0[a[1]] = a[2] }
			while ((getline l < rx1) > 0) { split(l, a, " "); b1[a[1]] = a[2] }
		}
		{
			p = $5; d = (p in b1) ? b1[p] - ((p in b0) ? b0[p] : 0) : 0
			mbps = d * 8 / (t1 - t0) / 1e6
			printf "%s{\"id\":%d,\"ns\":\"%s\",\"cc\":\"%s\",\"class\":\"%s\",\"port\":%d,\"goodput_mbps\":%.3f}",
				(NR > 1 ? "," : ""), $1, $2, $3, $4, p, mbps
		}' "$TB_RUN/flows")
	_q="$OUT_DIR/qdisc-$TB_BOTTLENECK_NS-$TB_BOTTLENECK_DEV.jsonl"
	# The series is this window's only (a test that reads its own rx0
	# and rx1 has none).
	_up50=null _idle="[]" _late="[]" _port=null
	if [ -s "$TB_RUN/port_series" ]; then
		_up50=$(tb_util_p50)
		_idle=$(tb_port_intervals | tb_json_column 2)
		_late=$(tb_port_intervals | tb_json_column 3)
		_port=$(tb_port_mbps)
	fi
	rm -f "$TB_RUN/port_series"
	_p50=0 _p99=0
	if [ -s "$_q" ]; then
		_p50=$(tb_backlog_pct "$_q" 50 "$TB_T0" "$TB_T1")
		_p99=$(tb_backlog_pct "$_q" 99 "$TB_T0" "$TB_T1")
	fi
	echo "[$_flows]" | jq --argjson rate "${TB_RATE_MBIT:-0}" \
		--argjson window "$(tb_calc "$TB_T1 - $TB_T0")" \
		--argjson p50 "$_p50" --argjson p99 "$_p99" \
		--argjson util_p50 "$_up50" --argjson idle "$_idle" \
		--argjson late "$_late" --argjson port "$_port" '
		def jain: if length == 0 or (map(. * .) | add) == 0 then 0 else
			(add * add) / (length * (map(. * .) | add)) end;
		{ flows: .,
		  window_s: $window,
		  bottleneck_mbps: $rate,
		  total_mbps: (map(.goodput_mbps) | add),
		  utilisation: (if $rate > 0 then (map(.goodput_mbps) | add) / $rate else null end),
		  utilisation_p50: $util_p50,
		  port_mbps: $port,
		  cpu_idle: $idle,
		  sampler_late_s: $late,
		  jain: (map(.goodput_mbps) | jain),
		  backlog_p50_bytes: $p50,
		  backlog_p99_bytes: $p99 }' > "$_res" || tb_die "cannot write $_res"
	TB_JAIN=$(jq .jain "$_res")
	TB_UTIL=$(jq .utilisation "$_res")
	TB_UTIL_P50=$(jq .utilisation_p50 "$_res")
	TB_TOTAL=$(jq .total_mbps "$_res")
	TB_IDLE_P50=$(jq '.cpu_idle | sort | if length > 0 then .[length / 2 | floor] else 1 end' "$_res")
}

# tb_unsaturated MEASURE...: run MEASURE (a command that sets the
# bottleneck up at TB_PORT_MBIT, runs flows, measures them with
# tb_results and succeeds when its bound was met), and again at half the
# rate, up to twice, while it fails in a window that measured the host:
# one where the VM had less than a fifth of its CPU idle in the median
# second (a VM that busy sets the pace itself; runs that met their bound
# here had 0.20-0.35 idle, and with two CPU hogs beside the VM, or a
# 100 Hz cyclictest inside it, dctcp filled 0.65-0.89 of the port with
# 0.10-0.16 idle), or one MEASURE marks TB_STALLED=1 (the phantom qdisc
# counted link time lost to a host that stalled it, or left idle by a
# sender the host starved). The bound is the same at every rate; a run
# that met it, or missed it undisturbed, stands.
tb_unsaturated() {
	_tries=3
	while :; do
		TB_STALLED=0
		"$@" && return 0
		_tries=$((_tries - 1))
		[ "$TB_STALLED" = 1 ] || [ "$(tb_calc "$TB_IDLE_P50 < 0.2")" = 1 ] || return 0
		[ $_tries -gt 0 ] || { tb_log "the host stayed in the way (idle $TB_IDLE_P50)"; return 0; }
		TB_PORT_MBIT=$((TB_PORT_MBIT / 20 * 10))
		[ "$TB_PORT_MBIT" -ge 20 ] ||
			tb_skip "the host is in the way (idle $TB_IDLE_P50) even at 20 Mbit/s"
		tb_log "the VM had $TB_IDLE_P50 of its CPU idle (the port busy $TB_UTIL_P50 of the median second, stalled $TB_STALLED): again at $TB_PORT_MBIT Mbit/s"
	done
}

# tb_flows_stop: end every flow now (after tb_measure has what it needs)
# and forget them, so the next tb_measure sees only flows started after.
tb_flows_stop() {
	awk '{ print $6, $7 }' "$TB_RUN/flows" | xargs -r kill 2>/dev/null
	tb_wait_flows
	# A client killed mid-flow leaves an orphan socket that goes on
	# sending what its buffer held (megabytes) into whatever runs next:
	# abort it (RST) instead.
	while read -r _ _ns _ _ _port _; do
		ss -N "$TB_PREFIX$_ns" -K -t dport = ":$_port" > /dev/null 2>&1
	done < "$TB_RUN/flows"
	: > "$TB_RUN/flows"
}

# tb_wait_flows: wait for every iperf3 client to end.
tb_wait_flows() {
	awk '{ print $6 }' "$TB_RUN/flows" | while read -r _pid; do
		while kill -0 "$_pid" 2>/dev/null; do sleep 0.2; done
	done
}

tb_cleanup() {
	[ -f "$TB_RUN/pids" ] && kill $(cat "$TB_RUN/pids") 2>/dev/null
	if [ -f "$TB_RUN/namespaces" ]; then
		while read -r _ns; do
			$IP netns pids "$TB_PREFIX$_ns" 2>/dev/null | xargs -r kill 2>/dev/null
			# The entropy datapath's pins outlive their namespace, whose
			# inode the next one may get (Documentation/unod.rst).
			_ino=$(stat -L -c %i "/run/netns/$TB_PREFIX$_ns" 2>/dev/null) &&
				rm -rf "/sys/fs/bpf/uno/$_ino"
			$IP netns del "$TB_PREFIX$_ns" 2>/dev/null
		done < "$TB_RUN/namespaces"
	fi
	# MLCC's sockops program is the machine's: its link's pin holds it.
	rm -rf /sys/fs/bpf/uno/mlcc /sys/fs/bpf/uno/mlcc-new
	rm -rf "$TB_RUN"
}

trap tb_cleanup EXIT
trap 'exit $KSFT_FAIL' INT TERM
