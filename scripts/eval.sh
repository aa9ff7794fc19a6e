#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make eval [S="N6 S11.5"]: the evaluation scenarios (selftests/eval) in the
# VM with their full profile, every one for each of its variants; their
# results into build/eval/<scenario>.json; those that have a scenario file
# in userspace/ns3/scenarios in ns-3 too, at the paper's scale and the
# VM's (scripts/sim.sh, build/eval/ns3/); then Documentation/results.md
# and its plots (scripts/eval_report.sh).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
scenarios=${S:-"N1 N2 N3 N4 N5 N6 N8 N9 N16 S11.3 S11.5 S11.6 S11.8 RC1 RC2 LB M1 M2 M3 M4 M5 RX1 RX2 RX3"}

tests=""
for s in $scenarios; do
	t=eval/test_eval_$(echo "$s" | tr 'A-Z.' 'a-z_')
	[ -f "$top/selftests/$t.sh" ] || { echo "eval: no scenario '$s' ($t.sh)" >&2; exit 2; }
	tests="$tests $t"
done

mkdir -p "$top/build/eval"
rc=0
# shellcheck disable=SC2086
UNO_EVAL_PROFILE=full "$top/selftests/vm/run.sh" -o "$top/build/eval-run" $tests || rc=$?
for s in $scenarios; do
	f=$top/build/eval-run/test_eval_$(echo "$s" | tr 'A-Z.' 'a-z_')/$s.json
	if [ -f "$f" ]; then
		cp "$f" "$top/build/eval/"
	else
		echo "eval: $s left no result" >&2
	fi
done
sims=""
for s in $scenarios; do
	[ -f "$top/userspace/ns3/scenarios/$(echo "$s" | tr 'A-Z.' 'a-z_').toml" ] && sims="$sims $s"
done
sim_rc=0
# shellcheck disable=SC2086
[ -z "$sims" ] || "$top/scripts/sim.sh" $sims || sim_rc=$?
"$top/scripts/eval_report.sh"
[ $sim_rc -eq 0 ] || { echo "eval: some ns-3 jobs failed (build/eval/ns3/joblog)" >&2; exit 1; }
# Failed thresholds are results, reported in the table; only a scenario
# that could not run fails make eval.
for s in $scenarios; do
	[ -f "$top/build/eval-run/test_eval_$(echo "$s" | tr 'A-Z.' 'a-z_')/$s.json" ] || exit 1
done
[ $rc -eq 0 ] || echo "eval: some thresholds failed; see Documentation/results.md"
