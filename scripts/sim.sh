#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make sim: the scenarios of userspace/ns3/scenarios in ns-3 (uno-sim),
# every profile, variant and seed a job, the jobs spread by GNU parallel
# over this machine's cores or over the workers of an sshloginfile; then
# one result per scenario and profile, in the evaluation's JSON, into
# build/eval/ns3/<scenario>-<profile>.json (scripts/eval_report.sh sets
# them beside the VM's).
#
# usage: sim.sh [-S SSHLOGINFILE] [-j JOBS] [-s SEEDS] [-p "PROFILES"]
#               [-o DIR] [SCENARIO...]
#   SCENARIO  a file's name without .toml, or its scenario's (N2: n2.toml;
#             default: all of them)
#   -S FILE   GNU parallel's sshloginfile: its workers run the jobs (each
#             needs this repository, built, at the same path: a shared
#             file system); userspace/ns3/local-pools.sshlogin is two
#             worker pools on this machine, through scripts/sim-local-ssh
#   -j JOBS   jobs at once on each worker (default: its cores)
#   -s SEEDS  runs of each job, seeds 1..SEEDS (default 1); a result of
#             seed N > 1 is the variant VARIANT@sN
#   -p LIST   profiles (default: each file's)
#   -o DIR    where the results go (default build/eval/ns3)
#   --        what follows goes to every uno-sim (--window-inter-rtts 10)
# The joblog, build/eval/ns3/joblog, says which worker ran what, and
# each job's cost is in its result (cost: wall_s, sim_s, events).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${BUILD_DIR:-$top/build/userspace}/bin/uno-sim
dir=$top/userspace/ns3/scenarios
out=$top/build/eval/ns3
sshloginfile="" jobs="" seeds=1 profiles=""

while getopts "S:j:s:p:o:" opt; do
	case $opt in
	S) sshloginfile=$OPTARG ;;
	j) jobs=$OPTARG ;;
	s) seeds=$OPTARG ;;
	p) profiles=$OPTARG ;;
	o) out=$OPTARG ;;
	*) sed -n '3,/^set/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
scenarios=() extra=()
while [ $# -gt 0 ]; do
	[ "$1" = -- ] && { shift; extra=("$@"); break; }
	scenarios+=("$1")
	shift
done
[ ${#scenarios[@]} -gt 0 ] || mapfile -t scenarios < <(cd "$dir" && ls -- *.toml | sed 's/\.toml$//')
[ -x "$bin" ] || { echo "sim: no $bin (make all)" >&2; exit 2; }
[[ $seeds =~ ^[1-9][0-9]*$ ]] || { echo "sim: -s needs a count" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# The jobs: FILE PROFILE VARIANT SEED, one a line.
for s in "${scenarios[@]}"; do
	f=$dir/$(echo "$s" | tr 'A-Z.' 'a-z_').toml
	[ -f "$f" ] || { echo "sim: no scenario '$s' ($f)" >&2; exit 2; }
	list=$("$bin" "$f" --list) || exit 2
	ps=${profiles:-$(echo "$list" | sed -n 's/^profile //p')}
	for p in $ps; do
		echo "$list" | grep -qx "profile $p" || { echo "sim: $s has no profile '$p'" >&2; exit 2; }
		for v in $(echo "$list" | sed -n 's/^variant //p'); do
			for seed in $(seq 1 "$seeds"); do
				echo "$f $p $v $seed"
			done
		done
	done
done > "$tmp/jobs"

args=(--colsep ' ' --joblog "$out/joblog" --halt never)
[ -n "$jobs" ] && args+=(-j "$jobs")
[ -n "$sshloginfile" ] && args+=(--sshloginfile "$sshloginfile")
echo "sim: $(wc -l < "$tmp/jobs") jobs${sshloginfile:+ on the workers of $sshloginfile}" >&2
# From the top: the sshloginfile's commands may be relative to it.
cd "$top"
# Each job's JSON comes back on its standard output, whole (--group).
rc=0
parallel -q "${args[@]}" "$bin" {1} -p {2} -v {3} -s {4} "${extra[@]}" \
	< "$tmp/jobs" > "$tmp/results" || rc=$?

# One file per scenario and profile: the variants of all its jobs; the
# files of an earlier sweep over the same go first.
while read -r f p _; do
	rm -f "$out/$("$bin" "$f" --list | sed -n 's/^name //p')-$p.json"
done < <(sort -u -k1,2 "$tmp/jobs")
jq -s -c 'group_by([.scenario, .profile])[] |
	.[0] + { variants: (map(.variants | to_entries[] | .value as $r |
		{ key: (if $r.seed == 1 then .key else "\(.key)@s\($r.seed)" end), value: $r }) |
		from_entries) }' "$tmp/results" |
while IFS= read -r doc; do
	name=$(echo "$doc" | jq -r '"\(.scenario)-\(.profile | ltrimstr("ns3-"))"')
	echo "$doc" | jq . > "$out/$name.json"
	echo "sim: wrote $out/$name.json" >&2
done || rc=$?
# A worker that runs nothing exits 0 too: every job must have answered.
answered=$(jq -s length "$tmp/results" 2>/dev/null) || answered=0
[ "$answered" -eq "$(wc -l < "$tmp/jobs")" ] ||
	{ echo "sim: $answered of $(wc -l < "$tmp/jobs") jobs gave a result" >&2; rc=1; }
[ $rc -eq 0 ] || { echo "sim: jobs failed (joblog: $out/joblog)" >&2; exit 1; }
