#!/bin/bash
# make demo: the dumbbell demo in the VM (selftests/eval/demo.sh), then a
# table of its results.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/demo
"$top/selftests/vm/run.sh" -o "$out" eval/demo > "$out.log" 2>&1 || {
	cat "$out.log"
	exit 1
}

printf '\n4 intra-DC + 4 inter-DC flows -> 1 receiver, 200 Mbit/s, WAN RTT 10 ms\n\n'
printf '%-8s %12s %12s %8s %8s %12s\n' CC "intra Mb/s" "inter Mb/s" Jain util "p99 queue KB"
for f in "$out"/demo/cc-*.json; do
	cc=$(basename "$f" .json)
	cc=${cc#cc-}
	jq -r --arg cc "$cc" '
		def class($c): [.flows[] | select(.class == $c) | .goodput_mbps] | add // 0;
		[$cc, class("intra"), class("inter"), .jain, .utilisation,
		 .backlog_p99_bytes / 1000] | @tsv' "$f" |
		awk -F'\t' '{ printf "%-8s %12.1f %12.1f %8.3f %8.3f %12.1f\n", $1, $2, $3, $4, $5, $6 }'
done
printf '\nper-flow results: %s/demo/cc-<cc>.json\n' "$out"
