#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: instructions per ACK of the control-law cores on fixed
# deterministic traces (userspace/bench/cc_cost), counted by callgrind.
# Documentation/benchmarks.rst says what the traces are.
#
#   scripts/bench_cost.sh [CORE [TRACE]]
#
# Environment: BUILD_DIR (default build/userspace) is the CMake build tree,
# configured and cc_cost built in it if needed; OUT (default
# build/bench/cc_cost.json) the result; ACKS (default 100000) per trace.
#
# Per run: valgrind --tool=callgrind counting only inside the run's entry
# point (--toggle-collect), so only the per-ACK calls of the core are
# counted, none of the trace generation or replay loop; instructions per
# ACK = Ir / ACKs. The "null" core is an empty entry point: its per-ACK
# count is the measurement's own overhead, included in every other row.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build/userspace}
out=${OUT:-$top/build/bench/cc_cost.json}
acks=${ACKS:-100000}
bin=$build/bin/cc_cost

for t in valgrind cmake jq; do
	command -v "$t" >/dev/null || { echo "bench: no $t (make deps)" >&2; exit 1; }
done

if [ ! -f "$build/CMakeCache.txt" ]; then
	cmake -S "$top/userspace" -B "$build" \
		-DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
fi
cmake --build "$build" --target cc_cost -j2 >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$out")"

"$bin" --list "$@" > "$work/runs"
: > "$work/rows"
while read -r core trace entry; do
	cg=$work/callgrind.out
	valgrind --tool=callgrind --collect-atstart=no \
		--toggle-collect="$entry" --callgrind-out-file="$cg" \
		--log-file="$work/valgrind.log" \
		"$bin" -n "$acks" "$core" "$trace" > "$work/run.json" ||
		{ cat "$work/valgrind.log" >&2; exit 1; }
	ir=$(sed -n 's/^summary: *//p' "$cg")
	[ -n "$ir" ] || { echo "bench: no summary in callgrind output ($core $trace)" >&2; exit 1; }
	jq -c --argjson ir "$ir" \
		'{core, trace, acks, nacks, base_rtt_us, entry, events,
		  instructions: $ir,
		  per_ack: (($ir / .acks * 10 | round) / 10)}' \
		"$work/run.json" >> "$work/rows"
done < "$work/runs"

jq -s . "$work/rows" > "$out.tmp" && mv "$out.tmp" "$out"

# The table: one row per trace, one column per core.
jq -r '
	(reduce .[] as $r ([]; if index($r.core) then . else . + [$r.core] end)) as $cores
	| (reduce .[] as $r ([]; if index($r.trace) then . else . + [$r.trace] end)) as $traces
	| (["trace"] + $cores | @tsv),
	  ($traces[] as $t
	   | [$t] + [$cores[] as $c
		     | (map(select(.core == $c and .trace == $t))[0].per_ack // "-")
		     | tostring]
	   | @tsv)
' "$out" | column -t -s $'\t'
echo "instructions per ACK (callgrind Ir / ACKs, $acks ACKs per trace); $out"
