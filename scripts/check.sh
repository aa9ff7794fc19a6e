#!/bin/bash
# make check: install what is missing, build everything, run the unit tests
# (CTest), sparse and checkpatch over the modules, the VM runner's
# self-test and the VM tests, and close with one 'N passed, N failed,
# N skipped' line over all of them.
#
# usage: check.sh [TEST...]   (VM tests to run; default: every test but
#                             the evaluation's, and the scenarios below)
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

# The evaluation's scenarios (selftests/eval) run in full in make eval.
# make check runs the reduced form of two headline ones, uno's lone flow
# over a near-empty queue (N1) and SMaRTT's incast (S11.3), and gives the
# rest of its time to each mechanism's own tests: every scenario reduced
# takes some 45 minutes more on a 2-core host (make vmtest T='eval/*').
check_scenarios="N1 S11.3"

vm_tests=("$@")
if [ $# -eq 0 ]; then
	mapfile -t vm_tests < <(cd selftests && find . -path ./vm -prune -o -path ./eval -prune -o \
		-name 'test_*.sh' -print | sed 's|^\./||; s|\.sh$||' | sort)
	for s in $check_scenarios; do
		vm_tests+=("eval/test_eval_$(echo "$s" | tr 'A-Z.' 'a-z_')")
	done
fi
log=build/check
mkdir -p "$log"

passed=0 failed=0 skipped=0

# phase NAME: its heading, with the time make check has taken so far.
phase() {
	printf '== %s (at %d:%02d)\n' "$1" $((SECONDS / 60)) $((SECONDS % 60))
}

# Add the counts of a runner's 'N passed, N failed[, N skipped]' line.
count() {
	local line
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	if [ -z "$line" ]; then
		echo "check: $2 printed no result line" >&2
		failed=$((failed + 1))
		return
	fi
	set -- $(echo "$line" | grep -oE '[0-9]+')
	passed=$((passed + $1))
	failed=$((failed + $2))
	skipped=$((skipped + ${3:-0}))
}

scripts/install-deps.sh || exit 1
phase "build"
# Without debug info (userspace/CMakeLists.txt: Release).
if ! make --no-print-directory all CMAKE_BUILD_TYPE=Release > "$log/build.log" 2>&1; then
	cat "$log/build.log"
	echo "0 passed, 1 failed"
	exit 1
fi

rm -f "$log"/*.count "$log"/*.rc
# sparse, checkpatch and the VM runner's self-test run while the unit
# tests do (none of them measures time, and each leaves a core idle part
# of the time), each into its log.
static_checks="sparse checkpatch"
for check in $static_checks; do
	{ make --no-print-directory "$check" > "$log/$check.log" 2>&1; echo $? > "$log/$check.rc"; } &
done
selftests/vm/selftest.sh > "$log/vm-selftest.log" 2>&1 &
phase "unit tests"
ctest --test-dir build/userspace -j2 --output-on-failure 2>&1 | tee "$log/ctest.log"
total=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\1 \2/p' "$log/ctest.log")
if [ -n "$total" ]; then
	read -r ctest_failed ctest_total <<< "$total"
	echo "$((ctest_total - ctest_failed)) passed, $ctest_failed failed" > "$log/ctest.count"
elif grep -q "No tests were found" "$log/ctest.log"; then
	echo "0 passed, 0 failed" > "$log/ctest.count"
fi
count "$log/ctest.count" ctest

phase "static checks"
wait
for check in $static_checks; do
	cat "$log/$check.log"
	if [ "$(cat "$log/$check.rc")" = 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done

phase "VM runner self-test"
cat "$log/vm-selftest.log"
count "$log/vm-selftest.log" "VM runner self-test"

phase "VM tests"
selftests/vm/run.sh "${vm_tests[@]}" 2>&1 | tee "$log/vm.log"
count "$log/vm.log" "VM tests"

phase "end"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
