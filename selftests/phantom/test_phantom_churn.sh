#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Churn: 1000 cycles of add (or replace), change and delete of the phantom
# qdisc on the bottleneck port, with a dump each cycle, while a TCP flow
# runs through it; the options vary (rates, small limits that make it
# trim and drop under the flow, phantom queue on and off, bursts). The
# cycles come in batches of 100 (tc -batch, so that 4000 commands fit in
# the time); between batches a phantom qdisc with a small limit carries
# the flow for 0.3 s, so that packets are queued, marked and trimmed when
# it is deleted. Every command must succeed, the flow must keep going and
# pass through those qdiscs, and afterwards
# 'rmmod sch_phantom' must succeed with a clean dmesg (the runner also
# fails the test on any WARNING, BUG or Oops).
# uno-timeout: 150
. "$(dirname "$0")/../lib/testbed.sh"

CYCLES=1000
CHUNK=100

tb_dumbbell 1 0
modprobe sch_phantom || tb_skip "no sch_phantom module"
dmesg -c > /dev/null

# One batch of CHUNK cycles, options varying with the cycle number.
batch() {
	_c=$1
	_end=$(($1 + CHUNK))
	while [ $_c -lt $_end ]; do
		_rate=$(echo "50 100 200 500 1000" | cut -d' ' -f$((_c % 5 + 1)))
		case $((_c % 4)) in
		0) _o="limit 20kb trim 64" ;;
		1) _o="limit 100kb phantom-size 0 ecn-min 10kb ecn-max 10kb" ;;
		2) _o="phantom-size 300kb phantom-min 0 phantom-max 3kb burst 8kb" ;;
		3) _o="limit 8100 trim 64 trim-limit 4100 ecn-min 8100 ecn-max 8100" ;;
		esac
		if [ $((_c % 2)) = 0 ]; then _verb=add; else _verb=replace; fi
		echo "qdisc $_verb dev p0 root handle 1: phantom rate ${_rate}mbit $_o"
		echo "qdisc change dev p0 root phantom rate $((_rate * 2))mbit limit $((_c % 7 * 10 + 10))kb"
		echo "qdisc show dev p0"
		echo "qdisc del dev p0 root"
		_c=$((_c + 1))
	done
}

tb_flow h1 cubic 0 > /dev/null
sleep 2
tb_rx_sample "$TB_RUN/rx0"
t0=$TB_RX_T
failed=0 c=0 sent=0 trimmed=0
while [ $c -lt $CYCLES ]; do
	batch $c > "$TB_RUN/batch"
	tb_exec tor $TC -s -force -batch "$TB_RUN/batch" > /dev/null 2> "$TB_RUN/batch.err"
	_f=$(grep -c "Command failed" "$TB_RUN/batch.err")
	[ "$_f" = 0 ] || head -n 4 "$TB_RUN/batch.err" | sed 's/^/# /'
	failed=$((failed + _f))
	c=$((c + CHUNK))
	tb_exec tor $TC qdisc add dev p0 root phantom rate 500mbit limit 20kb trim 64 ||
		failed=$((failed + 1))
	sleep 0.3
	_q=$(tb_exec tor $TC -s -j qdisc show dev p0)
	sent=$((sent + $(echo "$_q" | jq '.[0].packets')))
	trimmed=$((trimmed + $(echo "$_q" | jq '.[0].trimmed')))
	tb_exec tor $TC qdisc del dev p0 root || failed=$((failed + 1))
done
tb_rx_sample "$TB_RUN/rx1"
t1=$TB_RX_T
tb_flows_running
rx0=$(awk '{ print $2 }' "$TB_RUN/rx0")
rx1=$(awk '{ print $2 }' "$TB_RUN/rx1")
goodput=$(tb_calc "(${rx1:-0} - ${rx0:-0}) * 8 / ($t1 - $t0) / 1e6")
tb_flows_stop
tb_log "$CYCLES cycles in $(tb_calc "$t1 - $t0") s, $failed commands failed, flow at $goodput Mbit/s"
tb_log "between batches: $sent packets through the phantom qdisc, $trimmed trimmed"

left=$(tb_exec tor $TC -j qdisc show dev p0 | jq '[.[] | select(.kind == "phantom")] | length')
rmmod sch_phantom
rm_rc=$?
grep -q '^sch_phantom ' /proc/modules && loaded=1 || loaded=0
splats=$(dmesg | grep -cE 'WARNING:|BUG:|Oops|Call Trace|general protection')

tb_check commands_failed "$failed" "==" 0
tb_check flow_goodput_during_churn_mbit "$goodput" ">" 1
tb_check packets_through_phantom "$sent" ">" 1000
tb_check packets_trimmed "$trimmed" ">" 0
tb_check phantom_qdiscs_left "$left" "==" 0
tb_check rmmod_exit "$rm_rc" "==" 0
tb_check module_still_loaded "$loaded" "==" 0
tb_check dmesg_splats "$splats" "==" 0
jq -n --argjson cycles $CYCLES --argjson failed $failed --argjson s "$(tb_calc "$t1 - $t0")" \
	--argjson g "$goodput" --argjson rm $rm_rc --argjson splats "$splats" \
	--argjson sent $sent --argjson trimmed $trimmed \
	'{cycles: $cycles, commands_failed: $failed, seconds: $s, flow_goodput_mbps: $g,
	  packets_between_batches: $sent, trimmed_between_batches: $trimmed,
	  rmmod_exit: $rm, dmesg_splats: $splats}' > "$OUT_DIR/results.json"
tb_exit
