#!/bin/bash
# Self-test of the VM runner: run tests that fail in each way the runner
# must catch (exit code, kernel splat in dmesg, timeout), a skip, and a test
# that checks the cleanup after a timeout; the run must fail, each test
# must get the verdict it deserves, and the tests after a splat must run in
# a fresh VM. Then three of them in two icount shards, which must print
# and count as one run, and a shard count of 0, which must be refused.
# Prints TAP and 'N passed, N failed'.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/vm-selftest
log=$out/run.log
mkdir -p "$out"

"$top/selftests/vm/run.sh" -o "$out" vm/selftest/{fail_exit,fail_splat,fail_timeout,pass_clean,skip} \
	> "$log" 2>&1
rc=$?

n=0 passed=0 failed=0
# check NAME COMMAND...: one TAP line, ok if COMMAND succeeds; on a
# failure, $log after it.
check() {
	_name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $_name"
		passed=$((passed + 1))
	else
		echo "not ok $n - $_name"
		sed 's/^/# /' "$log"
		failed=$((failed + 1))
	fi
}
# expect NAME REGEX: ok if a line of $log matches.
expect() { check "$1" grep -qE "$2" "$log"; }

# The icount VMs in two shards: dealt by cost (these have none, so by the
# default timeout, then by name), one VM each at once, their TAP printed
# in shard order and numbered through; and a shard count that is no
# number refused before any VM boots.
shards=$out/shards.log
UNO_VM_ICOUNT=all UNO_VM_JOBS=2 "$top/selftests/vm/run.sh" -o "$out/shards" \
	vm/selftest/{pass_clean,skip,fail_exit} > "$shards" 2>&1
UNO_VM_JOBS=0 "$top/selftests/vm/run.sh" -o "$out/shards" vm/selftest/pass_clean \
	> "$out/jobs0.log" 2>&1
jobs0_rc=$?

echo "1..13"
check "the run fails (exit $rc)" [ $rc -ne 0 ]
expect "a failing exit code fails its test" '^not ok 1 - fail_exit # exit 1$'
expect "a WARNING in dmesg fails its test" '^not ok 2 - fail_splat # kernel splat in dmesg$'
expect "a splat ends the VM, a fresh one runs the rest" \
	'^# after the splat, a fresh VM for: vm/selftest/fail_timeout vm/selftest/pass_clean vm/selftest/skip$'
expect "a hung test is killed at its timeout" '^not ok 3 - fail_timeout # timeout after 5s$'
expect "the next test finds the VM clean" '^ok 4 - pass_clean'
expect "exit 4 is a skip" '^ok 5 - skip # SKIP'
expect "the closing line counts them" '^1 passed, 3 failed, 1 skipped$'
log=$shards
expect "icount shards: the first shard's tests first" '^not ok 1 - fail_exit # exit 1$'
expect "icount shards: numbered through the second shard" '^ok 3 - pass_clean'
expect "icount shards: counted once each" '^1 passed, 1 failed, 1 skipped$'
log=$out/jobs0.log
check "a shard count of 0 is refused (exit $jobs0_rc)" [ $jobs0_rc = 2 ]
expect "a shard count of 0: the message says why" "UNO_VM_JOBS must be a positive number"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
