#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Documentation/results.md and its plots from the scenario results in
# build/eval/*.json (selftests/eval/lib_eval.sh, ev_finish).
#
# usage: eval_report.sh [EVAL_DIR [DOC_DIR]]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
eval_dir=${1:-$top/build/eval}
doc=${2:-$top/Documentation}
plots=$doc/results
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$plots"

# The scenarios in the order of the specs.
ORDER="N1 N2 N3 N4 N5 N6 N8 N9 N16 S11.3 S11.5 S11.6 S11.8 RC1 RC2 LB M1 M2 M3 M4 M5 RX1 RX2 RX3"

# table FILE: the scenario's table: a row per variant, its columns, and
# its checks; and where the run recorded it (lib_eval.sh's
# ev_cpu_metrics), the seconds the VM had no CPU to spare.
table() {
	jq -r '
		def fmt: if . == null then "-" elif type == "number" then
			(if . == (. | floor) and (. | fabs) < 1e15 then tostring
			 elif (. | fabs) >= 100 then (. | round | tostring)
			 else ((. * 1000 | round) / 1000 | tostring) end)
			else tostring end;
		(.columns + (if [.variants[].metrics.vm_busy_s] | any(. != null)
			then [["vm_busy_s", "VM busy s"]] else [] end)) as $c |
		"| variant | CC intra / inter | " + ($c | map(.[1]) | join(" | ")) + " | checks |",
		"|---|---|" + ($c | map("---:") | join("|")) + "|---|",
		(.variants | to_entries[] | .value as $v |
			"| " + .key + " | " + $v.cc.intra +
			(if $v.cc.inter != $v.cc.intra then " / " + $v.cc.inter else "" end) + " | " +
			($c | map(.[0] as $k | $v.metrics[$k] | fmt) | join(" | ")) + " | " +
			(if ($v.checks | length) == 0 then "" else
				([$v.checks[] | select(.pass | not) |
				  "FAIL " + .name + " = " + (.value | fmt) + " (" + .op + " " +
				  (.threshold | fmt) + ")"] |
				 if length == 0 then "pass (\($v.checks | length))" else join("; ") end)
			 end) + " |")' "$1"
}

# compare SCENARIO FILE: its claims' metrics side by side, for every
# variant: the paper's figure, ns-3 at the paper's scale and at the VM's
# (build/eval/ns3/SCENARIO-{paper,vm}.json, scripts/sim.sh), the VM's.
compare() {
	local s=$1 f=$2 paper=$eval_dir/ns3/$1-paper.json vm=$eval_dir/ns3/$1-vm.json
	[ -f "$paper" ] || [ -f "$vm" ] || return 0
	echo null > "$tmp/null.json"
	[ -f "$paper" ] || paper=$tmp/null.json
	[ -f "$vm" ] || vm=$tmp/null.json
	echo "The same cores in ns-3 (\`userspace/ns3\`, \`Documentation/ns3.rst\`): the paper's"
	echo "figure, ns-3 at the paper's scale, ns-3 at the VM's scale and the VM."
	echo
	jq -n -r --slurpfile e "$f" --slurpfile p "$paper" --slurpfile q "$vm" '
		def fmt: if . == null then "-" elif type == "number" then
			(if . == (. | floor) then tostring else ((. * 1000 | round) / 1000 | tostring) end)
			else tostring end;
		$e[0] as $e | $p[0] as $p | $q[0] as $q |
		(($e.variants | keys_unsorted) + ($p.variants // {} | keys_unsorted) +
		 ($q.variants // {} | keys_unsorted) |
		 reduce .[] as $x ([]; if index([$x]) then . else . + [$x] end)) as $vs |
		"| variant | metric | paper | ns-3, paper scale | ns-3, VM scale | VM |",
		"|---|---|---|---:|---:|---:|",
		($vs[] as $v | $e.claims[] | .metric as $m |
			[$p.variants[$v].metrics[$m], $q.variants[$v].metrics[$m],
			 $e.variants[$v].metrics[$m]] as $r |
			select($r | any(. != null)) |
			"| \($v) | \($m) | \(.paper) | " + ($r | map(fmt) | join(" | ")) + " |")'
	echo
	case $s in
	N4 | N5 | N6 | S11.3 | S11.5 | N8 | N9)
		for f in "$eval_dir/ns3/$s-paper.json" "$eval_dir/ns3/$s-vm.json"; do
			[ -f "$f" ] || continue
			echo "ns-3, $(jq -r '.profile | ltrimstr("ns3-")' "$f") scale:"
			echo
			case $s in
			N8 | N9) plot_fct "$f" "$(basename "$f" .json | tr . _)" ;;
			*) plot_rates "$f" "$(basename "$f" .json | tr . _)" ;;
			esac
			echo
		done ;;
	esac
}

claims() {
	jq -r '.claims[] | "* `\(.metric)`: paper: \(.paper); our bound: \(.ours)."' "$1"
}

# plot_rates FILE NAME: per-flow throughput over time, a panel per variant,
# all on one scale: intra-DC flows in blues, inter-DC flows in reds, the
# fair share C / flows dashed, the measurement window (window_from_s,
# window_to_s, when the scenario has one) between grey lines.
plot_rates() {
	local f=$1 name=$2 vs n i=0 cmds="" rate
	vs=$(jq -r '.variants | to_entries[] | select((.value.rates | length) > 0) | .key' "$f")
	[ -n "$vs" ] || return 0
	n=$(echo "$vs" | wc -l)
	rate=$(jq .rate_mbps "$f")
	for v in $vs; do
		i=$((i + 1))
		jq -r --arg v "$v" '.variants[$v].rates[] | "# \(.ns) \(.class)", (.series[] | "\(.[0]) \(.[1])"), "", ""' \
			"$f" > "$tmp/$name-$i.dat"
		local k=0 parts="" ns cls color nflows win
		nflows=$(jq --arg v "$v" '.variants[$v].rates | length' "$f")
		while read -r ns cls; do
			case $cls in
			inter) color=$(echo "#b2182b #d6604d #f4a582 #ef3b2c #99000d" | cut -d' ' -f$((k % 5 + 1))) ;;
			*) color=$(echo "#2166ac #4393c3 #92c5de #08519c #6baed6" | cut -d' ' -f$((k % 5 + 1))) ;;
			esac
			parts="$parts${parts:+, }'$tmp/$name-$i.dat' index $k with lines lw 1.5 lc rgb '$color' title '$ns ($cls)'"
			k=$((k + 1))
		done <<-EOF
		$(jq -r --arg v "$v" '.variants[$v].rates[] | "\(.ns) \(.class)"' "$f")
		EOF
		win=$(jq -r --arg v "$v" '.variants[$v].metrics | select(.window_from_s != null and .window_to_s != null) |
			"set arrow 1 from \(.window_from_s), graph 0 to \(.window_from_s), graph 1 nohead lc rgb \"#888888\"; " +
			"set arrow 2 from \(.window_to_s), graph 0 to \(.window_to_s), graph 1 nohead lc rgb \"#888888\""' "$f")
		cmds="$cmds
unset arrow
$win
set title '$v'
plot $parts, $rate / $nflows with lines dt 2 lc rgb '#333333' title 'fair share'"
	done
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 900,$((220 * n)) font ',9'
	set output '$plots/$name-rates.png'
	set multiplot layout $n,1
	set xlabel 'time (s)'
	set ylabel 'Mbit/s'
	set yrange [0:$rate]
	set key outside right
	$cmds
	unset multiplot
	EOF
	echo "![per-flow throughput]($(basename "$plots")/$name-rates.png)"
}

# queue_lines FILE NAME FIELD: gnuplot's plot arguments for each variant's
# queue series FIELD ([t, bytes] pairs), a line per variant in KB.
queue_lines() {
	local f=$1 name=$2 field=$3 parts="" i=0
	for v in $(jq -r '.variants | keys[]' "$f"); do
		jq -r --arg v "$v" --arg k "$field" '.variants[$v][$k] // [] | .[] | "\(.[0]) \(.[1] / 1000)"' \
			"$f" > "$tmp/$name-$field$i.dat"
		parts="$parts${parts:+, }'$tmp/$name-$field$i.dat' with lines title '$v'"
		i=$((i + 1))
	done
	echo "$parts"
}

# plot_queue FILE NAME: the real queue over time, a line per variant.
plot_queue() {
	local f=$1 name=$2
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 900,400 font ',9'
	set output '$plots/$name-queue.png'
	set xlabel 'time (s)'
	set ylabel 'real queue (KB)'
	plot $(queue_lines "$f" "$name" queue)
	EOF
	echo "![real queue over time]($(basename "$plots")/$name-queue.png)"
}

# plot_dci_queue FILE NAME: the receiver DC's two queues over time, a line
# per variant: the bottleneck port's (queue) above, DCI_r's port's
# (dci_queue) below.
plot_dci_queue() {
	local f=$1 name=$2
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 900,600 font ',9'
	set output '$plots/$name-queue.png'
	set multiplot layout 2,1
	set xlabel 'time (s)'
	set ylabel 'KB'
	set key outside right
	set title "the receiver's port (torb:b1)"
	plot $(queue_lines "$f" "$name" queue)
	set title "DCI_r's port (borb:down0)"
	plot $(queue_lines "$f" "$name" dci_queue)
	unset multiplot
	EOF
	echo "![the receiver DC's queues over time]($(basename "$plots")/$name-queue.png)"
}

# plot_fct FILE NAME: FCT CDFs and p99 slowdown per size bucket per variant.
plot_fct() {
	local f=$1 name=$2 parts="" bars="" i=0
	for v in $(jq -r '.variants | keys[]' "$f"); do
		jq -r --arg v "$v" '[.variants[$v].flows[] | select(.ok) | .fct_us] | sort |
			length as $n | to_entries[] | "\(.value / 1000) \((.key + 1) / $n)"' \
			"$f" > "$tmp/$name-c$i.dat"
		jq -r --arg v "$v" '.variants[$v].metrics.p99_slowdown_by_size // [] | .[] |
			"\"\(.bucket)\" \(.p99_slowdown)"' "$f" > "$tmp/$name-b$i.dat"
		parts="$parts${parts:+, }'$tmp/$name-c$i.dat' with lines title '$v'"
		bars="$bars${bars:+, }'$tmp/$name-b$i.dat' using 2:xtic(1) with linespoints title '$v'"
		i=$((i + 1))
	done
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 900,700 font ',9'
	set output '$plots/$name-fct.png'
	set multiplot layout 2,1
	set logscale x
	set xlabel 'FCT (ms)'
	set ylabel 'CDF'
	set key bottom right
	plot $parts
	unset logscale x
	set logscale y
	set xlabel 'flow size'
	set ylabel 'p99 slowdown'
	set key top left
	plot $bars
	unset multiplot
	EOF
	echo "![FCT CDF and p99 slowdown by size]($(basename "$plots")/$name-fct.png)"
}

# plot_loss FILE NAME: message FCT against the loss rate, a line per
# variant (results labelled VARIANT@LOSS%, with the metric loss_pct): the
# p99 above, the p50 below, in ms on a log scale, the loss rates evenly
# spaced.
plot_loss() {
	local f=$1 name=$2 p99="" p50="" i=0 n xtics v
	n=$(jq '[.variants[].metrics.loss_pct // empty] | unique | length' "$f")
	[ "$n" -gt 0 ] || return 0
	xtics=$(jq -r '[.variants[].metrics.loss_pct // empty] | unique | to_entries |
		map("\"\(.value)\" \(.key)") | join(", ")' "$f")
	for v in $(jq -r '[.variants | keys_unsorted[] | split("@")[0]] |
		reduce .[] as $x ([]; if index($x) then . else . + [$x] end) | .[]' "$f"); do
		jq -r --arg v "$v" '([.variants[].metrics.loss_pct // empty] | unique) as $l |
			.variants | to_entries[] | select(.key | startswith($v + "@")) | .value.metrics |
			select(.loss_pct != null) | .loss_pct as $x |
			"\($l | index($x)) \(.p99_fct_ms // "NaN") \(.p50_fct_ms // "NaN")"' "$f" |
			sort -n > "$tmp/$name-l$i.dat"
		p99="$p99${p99:+, }'$tmp/$name-l$i.dat' using 1:2 with linespoints title '$v'"
		p50="$p50${p50:+, }'$tmp/$name-l$i.dat' using 1:3 with linespoints title '$v'"
		i=$((i + 1))
	done
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 900,700 font ',9'
	set output '$plots/$name-loss.png'
	set multiplot layout 2,1
	set xtics ($xtics)
	set xrange [-0.5:$n - 0.5]
	set logscale y
	set xlabel 'loss rate (%)'
	set key outside right
	set ylabel 'p99 FCT (ms)'
	plot $p99
	set ylabel 'p50 FCT (ms)'
	plot $p50
	unset multiplot
	EOF
	echo "![message FCT against the loss rate]($(basename "$plots")/$name-loss.png)"
}

# plot_lb FILE NAME: the messages' FCT CDF, a panel per fabric, a line
# per load balancer (results labelled FABRIC-LB); a message that did not
# finish is at the right edge, at its timeout.
plot_lb() {
	local f=$1 name=$2 n cmds="" fab parts i
	n=$(jq '[.variants[].metrics.fabric] | unique | length' "$f")
	for fab in $(jq -r '[.variants[].metrics.fabric] | unique[]' "$f"); do
		parts="" i=0
		for v in $(jq -r --arg f "$fab" '.variants | to_entries[] |
				select(.value.metrics.fabric == $f) | .key' "$f"); do
			jq -r --arg v "$v" '.variants[$v] | .metrics.max_fct_ms as $t |
				[.flows[] | if .ok then .fct_us / 1000 else $t end] | sort |
				length as $n | to_entries[] | "\(.value) \((.key + 1) / $n)"' \
				"$f" > "$tmp/$name-$fab-$i.dat"
			parts="$parts${parts:+, }'$tmp/$name-$fab-$i.dat' with steps title '${v#"$fab"-}'"
			i=$((i + 1))
		done
		cmds="$cmds
set title '$fab'
plot $parts"
	done
	gnuplot <<-EOF
	set terminal pngcairo noenhanced size 900,$((260 * n)) font ',9'
	set output '$plots/$name-fct.png'
	set multiplot layout $n,1
	set logscale x
	set xlabel 'FCT (ms)'
	set ylabel 'CDF'
	set key outside right
	$cmds
	unset multiplot
	EOF
	echo "![message FCT CDF per fabric]($(basename "$plots")/$name-fct.png)"
}

{
	cat <<-'EOF'
	# Evaluation results

	Generated by `make eval` (`scripts/eval.sh`, `scripts/eval_report.sh`)
	from `build/eval/<scenario>.json`; do not edit. Every scenario but LB
	(the load balancers on a leaf-spine fabric, in the VM of the other
	datapath tests: its own section says how) runs in the
	icount VM (qemu TCG, one vCPU, a clock of its own instructions:
	`Documentation/testing.rst`) on the dumbbell of `selftests/lib/testbed.sh`:
	intra-DC senders one hop from the ToR, inter-DC senders behind a WAN
	link with netem delay; the bottleneck is the ToR's port to the receiver,
	the phantom qdisc shaping to the rate below with a 1 MB real queue. Each
	variant is a congestion control with its port: `uno` with the phantom
	queue marking (no real-queue marking), every other variant with
	RED-style marking on the real queue (30-90 KB ramp). `dctcp+bbr` is the
	paper's MPRDMA+BBR baseline with Linux stand-ins. M1 to M5, MLCC's,
	run on the two DCs of `tb_twodc` instead, M2's bottleneck the sender
	rack's uplink, the others' the receiver's link (M3 to M5 in the VM
	of the other datapath tests, not the icount VM), with variants of
	their own (their descriptions say which). RX1 to RX3, Reflex's at
	70, 50 and 30 % load, run on two DCs dilated a thousand times with
	three bottlenecks, the sender rack's uplink and two receivers' links
	(`selftests/eval/lib_reflex_eval.sh`), in that VM too.
	How the scenarios
	map to the papers and why the rates are what they are:
	`Documentation/testing.rst`, which also has the findings: where uno
	and smartt beat the baselines, where not, and why (its sections
	"Findings" and, for the host-clock VM before it, "History"). A
	check that fails is reported as measured: the thresholds are the
	specs' and are not tuned to pass.

	EOF
	if cat "$eval_dir"/*.json 2>/dev/null | jq -e -s 'any(.profile == "check")' > /dev/null; then
		printf '**Some tables below come from reduced runs (profile `check`: shorter,\n'
		printf 'fewer variants, as make vmtest runs them), not from make eval: see each\n'
		printf "scenario's profile line.**\n\n"
	fi
	for s in $ORDER; do
		f=$eval_dir/$s.json
		[ -f "$f" ] || continue
		name=$(echo "$s" | tr . _)
		jq -r '"## \(.scenario)\n\n\(.description)\n\nRate \(.rate_mbps) Mbit/s, intra-DC RTT \(.intra_rtt_us) us, inter-DC RTT \(.inter_rtt_us) us, buffer \(.buffer_bytes) B, phantom queue \(.phantom_size_bytes) B; profile `\(.profile)`.\n"' "$f"
		table "$f"
		echo
		claims "$f"
		echo
		compare "$s" "$f"
		case $s in
		N4 | N5 | N6 | S11.3 | S11.5 | S11.6) plot_rates "$f" "$name" ;;
		M2) plot_rates "$f" "$name" && plot_queue "$f" "$name" ;;
		M1 | M3) plot_rates "$f" "$name" && plot_dci_queue "$f" "$name" ;;
		N3) plot_queue "$f" "$name" ;;
		N9 | M4 | M5 | RX1 | RX2 | RX3) plot_fct "$f" "$name" ;;
		RC1) plot_loss "$f" "$name" ;;
		LB) plot_lb "$f" "$name" ;;
		esac
		echo
	done
} > "$tmp/results.md"
mv "$tmp/results.md" "$doc/results.md"
echo "eval_report: wrote $doc/results.md and $plots/"
