#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/sim.sh spreads a sweep over two worker pools reached as remote
# workers are (userspace/ns3/local-pools.sshlogin): N2 at the VM's scale,
# shortened, every variant a job; both pools ran jobs, every job ended
# well, and the one result holds every variant with its cost.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$top/scripts/sim.sh" -S userspace/ns3/local-pools.sshlogin -p vm -o "$out" N2 \
	-- --warmup-inter-rtts 5 --window-inter-rtts 10
f=$out/N2-vm.json
variants=$("${BUILD_DIR:?}/bin/uno-sim" "$top/userspace/ns3/scenarios/n2.toml" --list | grep -c '^variant ')
test "$(jq '.variants | length' "$f")" -eq "$variants"
test "$(jq '[.variants[] | select(.cost.events > 0 and .metrics.goodput_mbps > 0)] | length' "$f")" -eq "$variants"
for pool in pool-a pool-b; do
	awk -F'\t' -v p="$pool" 'NR > 1 && $2 ~ p && $7 == 0 { n++ } END { exit !n }' "$out/joblog" ||
		{ echo "no job ran on $pool"; cat "$out/joblog"; exit 1; }
done
echo "ok: $variants jobs over two pools"
