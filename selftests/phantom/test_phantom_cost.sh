#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Per-packet cost of the phantom qdisc's enqueue + dequeue against pfifo
# and tbf, in the same VM run: pktgen in queue_xmit mode sends a fixed
# count of 64-byte ECT(0) packets through dev_queue_xmit() to a dummy
# device whose root qdisc is each of them in turn, all at the same shaping
# rate (10 Gbit/s, far above what pktgen reaches, so none of them holds a
# packet back and the cost is the work per packet, not shaping). The
# pktgen thread is busy all along, so its run time over the count is the
# CPU time per packet of the whole path (skb allocation, qdisc, dummy
# xmit); /proc/stat system + softirq time is recorded as a cross-check.
# Three rounds, the median per qdisc. The phantom qdisc runs twice: as
# configured by default (phantom queue on: one more clock read, on enqueue,
# than tbf, plus the counter's division and a random draw) and with
# phantom-size 0. Under TCG the clock is an emulated HPET, whose every read
# costs microseconds, so these figures overstate what a clock read costs
# on hardware with a TSC; the clocksource is recorded.
#
# Asserted: the ratio phantom / pfifo is recorded, above 0 and below 3.
# pfifo's empty-queue bypass skips enqueue and dequeue altogether, so the
# ratio is the whole cost of having a qdisc that queues; tbf does the same
# queueing with its own token arithmetic and is the closer peer (phantom
# adds a phantom counter update with a 64-bit division and the ramp checks
# per packet; a random draw only where a ramp is in between, so not here:
# the queues stay empty). A whole-path ratio of 3 would mean the qdisc
# costs twice as much as allocating, building and freeing the packet: not
# a plumbing cost but a bug.
# uno-timeout: 120
. "$(dirname "$0")/../lib/testbed.sh"

COUNT=${PHANTOM_COST_COUNT:-100000}
ROUNDS=3
PG=/proc/net/pktgen

modprobe pktgen 2>/dev/null || tb_skip "no pktgen"
modprobe dummy 2>/dev/null || tb_skip "no dummy device"
tb_add_ns pg
tb_exec pg $IP link add dum0 type dummy || tb_die "dummy device"
tb_exec pg $IP link set dum0 up
tb_exec pg $IP addr add 10.9.0.1/24 dev dum0

pg() { tb_exec pg sh -c "echo '$2' > $PG/$1" || tb_die "pktgen: $1 $2"; }
pg kpktgend_0 rem_device_all
pg kpktgend_0 "add_device dum0"
pg dum0 "count $COUNT"
pg dum0 "pkt_size 64"
pg dum0 "delay 0"
pg dum0 "tos 02"
pg dum0 "dst 10.9.0.2"
pg dum0 "dst_mac 02:00:00:00:00:02"
pg dum0 "xmit_mode queue_xmit"

# cpu_busy: system + irq + softirq jiffies of all CPUs.
cpu_busy() { awk '/^cpu / { print $4 + $7 + $8 }' /proc/stat; }

# run QDISC-SPEC...: install the qdisc, send COUNT packets, print
# "ns_per_packet busy_ns_per_packet sent".
run() {
	tb_exec pg $TC qdisc replace dev dum0 root "$@" || tb_die "qdisc $*"
	_b0=$(cpu_busy)
	tb_exec pg sh -c "echo start > $PG/pgctrl"
	_b1=$(cpu_busy)
	_res=$(tb_exec pg cat $PG/dum0 | sed -n 's/^Result: OK: \([0-9]*\)(.*) usec, \([0-9]*\) .*/\1 \2/p')
	set -- $_res
	[ $# = 2 ] || tb_die "pktgen gave no result: $(tb_exec pg cat $PG/dum0 | grep Result)"
	_hz=100
	echo "$(tb_calc "$1 * 1000 / $2") $(tb_calc "($_b1 - $_b0) * 1e9 / $_hz / $2") $2"
}

clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)

median3() { printf '%s\n%s\n%s\n' "$1" "$2" "$3" | sort -n | sed -n 2p; }

for r in 1 2 3; do
	for q in pfifo tbf phantom phantom_nopq; do
		case $q in
		pfifo) set -- run pfifo limit 1000 ;;
		tbf) set -- run tbf rate 10gbit burst 1mb limit 1000000 ;;
		phantom) set -- run phantom rate 10gbit ;;
		phantom_nopq) set -- run phantom rate 10gbit phantom-size 0 ;;
		esac
		out=$("$@")
		tb_log "round $r $q: $out"
		eval "${q}_$r=\"$out\""
	done
done

json="{}"
for q in pfifo tbf phantom phantom_nopq; do
	eval "a=\$${q}_1 b=\$${q}_2 c=\$${q}_3"
	ns=$(median3 "${a%% *}" "${b%% *}" "${c%% *}")
	busy=$(median3 "$(echo "$a" | cut -d' ' -f2)" "$(echo "$b" | cut -d' ' -f2)" \
		"$(echo "$c" | cut -d' ' -f2)")
	eval "${q}_ns=$ns"
	json=$(echo "$json" | jq -c --arg q $q --argjson ns "$ns" --argjson busy "$busy" \
		--arg runs "$a; $b; $c" \
		'.[$q] = {ns_per_packet: $ns, busy_ns_per_packet: $busy, runs: $runs}')
done
ratio=$(tb_calc "$phantom_ns / $pfifo_ns")
ratio_tbf=$(tb_calc "$phantom_ns / $tbf_ns")
extra=$(tb_calc "$phantom_ns - $pfifo_ns")
extra_tbf=$(tb_calc "$phantom_ns - $tbf_ns")
tb_log "ns per packet: pfifo $pfifo_ns, tbf $tbf_ns, phantom $phantom_ns, phantom without phantom queue $phantom_nopq_ns"
tb_log "clocksource: $clocksource"
tb_log "phantom / pfifo $ratio (+$extra ns), phantom / tbf $ratio_tbf (+$extra_tbf ns)"
echo "$json" | jq --argjson r "$ratio" --argjson rt "$ratio_tbf" --argjson e "$extra" \
	--argjson et "$extra_tbf" --argjson n "$COUNT" --arg cs "$clocksource" \
	'. + {packets: $n, packet_bytes: 64, clocksource: $cs, ratio_phantom_pfifo: $r, ratio_phantom_tbf: $rt,
	      extra_ns_over_pfifo: $e, extra_ns_over_tbf: $et}' > "$OUT_DIR/results.json"

tb_check ratio_phantom_pfifo "$ratio" ">" 0
tb_check ratio_phantom_pfifo_bound "$ratio" "<" 3
tb_check ratio_phantom_tbf "$ratio_tbf" ">" 0
tb_exit
