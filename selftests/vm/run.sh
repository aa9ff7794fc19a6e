#!/bin/bash
# Run selftests in a qemu VM that boots the Debian kernel our modules are
# built for, print TAP and the closing 'N passed, N failed' line.
#
# usage: run.sh [-s] [-o OUTDIR] [-t SECONDS] [TEST...]
#   TEST      a test's name (test_foo) or a shell glob of names, or the path
#             of any script under selftests/ without .sh (vm/selftest/skip);
#             default: every selftests/*/test_*.sh
#   -s        boot into an interactive shell instead of running tests
#   -o DIR    where artefacts go (default build/selftests)
#   -t SEC    default per-test timeout (default 300; a test may ask for
#             more with a '# uno-timeout: SECONDS' line)
#
# Two kinds of VM, booted one after the other when the tests need both:
# the default one, two vCPUs under TCG, whose clock is the host's; and,
# for the tests that say '# uno-vm: icount', one vCPU whose clock counts
# the instructions it executes (qemu -icount shift=0,sleep=off: 1 ns
# each, and idle time skipped). There every timer fires on time and the
# host's load changes how long a run takes, never what it measures
# (Documentation/testing.rst). QEMU runs every vCPU of an icount VM on
# one thread and never lets a second one run while the first spins, so
# Linux's SMP bring-up hangs: one vCPU.
#
# What an icount VM measures does not depend on the host's load, so its
# tests are dealt into UNO_VM_JOBS shards (default: the host's CPUs, at
# most 4), longest first by each test's '# uno-cost: SECONDS' (its
# seconds on the host there, else its timeout), and one icount VM per
# shard runs at once; the host-clock VM runs alone, after them.
#
# Environment: KVER (kernel release), UNO_VM_ACCEL (tcg, the default, or
# kvm), UNO_VM_MEM (MiB, default 2048), UNO_VM_ICOUNT (auto, the default:
# as each test says; all; none), UNO_VM_JOBS, UNO_VM_CMDLINE (more kernel
# command line, such as slub_debug=FZPU,skbuff_fclone_cache); UNO_EVAL_*
# variables are exported to the tests (selftests/eval/lib_eval.sh).
#
# Exit status: 0 when every test passed or skipped; 1 otherwise.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kver=${KVER:-$("$top/scripts/kver.sh")}
outdir=$top/build/selftests
shell=0
timeout=300

while getopts "so:t:" opt; do
	case $opt in
	s) shell=1 ;;
	o) outdir=$OPTARG ;;
	t) timeout=$OPTARG ;;
	*) sed -n '2,/^set/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

# The icount shards: the host's CPUs, at most 4, unless UNO_VM_JOBS says.
njobs=${UNO_VM_JOBS:-$(nproc)}
[ -n "${UNO_VM_JOBS:-}" ] || [ "$njobs" -le 4 ] || njobs=4
if ! [[ $njobs =~ ^[1-9][0-9]*$ ]]; then
	echo "run.sh: UNO_VM_JOBS must be a positive number of VMs, not '$njobs'" >&2
	exit 2
fi

all_tests() {
	(cd "$top/selftests" && find . -path ./vm -prune -o -name 'test_*.sh' -print |
		sed 's|^\./||; s|\.sh$||' | sort)
}

# Resolve each argument to test paths relative to selftests/.
select_tests() {
	local arg t found
	for arg in "$@"; do
		found=0
		for t in $(all_tests); do
			# shellcheck disable=SC2053
			if [[ $t == $arg || $(basename "$t") == $arg ]]; then
				echo "$t"
				found=1
			fi
		done
		# Any other script under selftests/ when named by its path.
		if [ $found = 0 ] && [ -f "$top/selftests/$arg.sh" ]; then
			echo "$arg"
			found=1
		fi
		[ $found = 1 ] || { echo "run.sh: no test matches '$arg'" >&2; exit 2; }
	done
}

if [ $# -gt 0 ]; then
	tests=$(select_tests "$@")
else
	tests=$(all_tests)
fi

# TCG by default: KVM nested in this workplace's VMs boots the kernel and
# then hangs (and -cpu host dies on an MSR), so it is opt-in. An icount VM
# is TCG whatever UNO_VM_ACCEL says.
#
# Under TCG the guest CPU has no CMPXCHG16B (qemu64 without cx16). Twice
# a guest kernel died right at SLUB's per-CPU fast path, which is that
# instruction (this_cpu_cmpxchg_double), with an EFLAGS no CPU can hold:
# CI's icount VM lost skbuff_fclone_cache's freelist in test_eval_n3
# (EFLAGS 0x3c986696: DF and NT set), and a local run double-faulted in
# test_eval_n5 on the instruction itself (EFLAGS 0x7bdf5a42, the low half
# of RAX, 0x7bdf5a00, with ZF). QEMU 7.2's TCG computes the flags of an
# unlocked CMPXCHG16B in a helper from the condition-code state it was
# given (8.0 inlined the instruction), and an IRET that restores DF or NT
# from such flags corrupts memory. Without cx16 the kernel takes its own
# emulation, interrupts off (this_cpu_cmpxchg16b_emu).
accel() {
	if [ "$1" = icount ]; then
		echo "-accel tcg -icount shift=0,sleep=off -smp 1 -cpu qemu64,-cx16"
		return
	fi
	case "${UNO_VM_ACCEL:-tcg}" in
	kvm) echo "-accel kvm -smp 2" ;;
	*) echo "-accel tcg -smp 2 -cpu qemu64,-cx16" ;;
	esac
}

# clock_of TEST: the VM a test runs in, "icount" or "host".
clock_of() {
	case "${UNO_VM_ICOUNT:-auto}" in
	all) echo icount ;;
	none) echo host ;;
	*) grep -qx '# uno-vm: icount' "$top/selftests/$1.sh" && echo icount || echo host ;;
	esac
}

# Per-run scratch, so that runs from two shells do not share an image.
mkdir -p "$top/build/vm" "$outdir"
work=$(mktemp -d "$top/build/vm/run.XXXXXX")
trap 'rm -rf "$work"' EXIT

# One run at a time on this host: a second one would steal the CPU of the
# first one's host-clock VM and so its measurements. A run from another
# shell waits its turn.
exec 9> "${UNO_VM_LOCK:-/tmp/uno-vm.lock}"
if ! flock -n 9; then
	echo "# waiting for the VM of another run to end" >&2
	flock 9
fi
for t in $tests; do
	rm -rf "${outdir:?}/$(basename "$t")"
done

# number_tap: the TAP lines of one VM's run on stdin, each numbered after
# the $done_tests of the VMs before it, and followed by the seconds it
# took on the host (its own line gives the VM's).
number_tap() {
	local line t0=$SECONDS re='^(not )?ok ([0-9]+) (.*)$'
	while IFS= read -r line; do
		if [[ $line =~ $re ]]; then
			printf '%sok %d %s\n' "${BASH_REMATCH[1]}" $((BASH_REMATCH[2] + done_tests)) \
				"${BASH_REMATCH[3]}"
			echo "# $((SECONDS - t0)) s on the host"
			t0=$SECONDS
		else
			printf '%s\n' "$line"
		fi
	done
}

# header_of TEST KEY: the number on the test's '# uno-KEY: N' line.
header_of() {
	sed -n "s/^# uno-$2: *\([0-9][0-9]*\).*/\1/p" "$top/selftests/$1.sh" | head -n 1
}

# boot_vm CLOCK TEST...: one VM of that clock runs the tests (all of them
# for a shell) from the files in $vm_dir, its console into $console (a new
# $work/console-SHARD-N.log), its artefacts into $outdir.
boot_vm() {
	local clock=$1 budget to t
	shift
	boots=$((boots + 1))
	console=$work/console-$shard-$boots.log
	{
		echo "UNO_TESTS=\"$*\""
		echo "UNO_SHELL=$shell"
		echo "UNO_TIMEOUT=$timeout"
		# The evaluation's settings go through to the tests.
		env | grep -E '^UNO_EVAL_[A-Z_]*=' | sed 's/^\([^=]*\)=\(.*\)$/export \1="\2"/' || true
	} > "$vm_dir/run.conf"
	"$top/selftests/vm/mkinitramfs.sh" "$kver" "$vm_dir/initramfs.cpio" "$vm_dir/run.conf"
	rm -f "$vm_dir/out.img"
	truncate -s 1G "$vm_dir/out.img"
	# shellcheck disable=SC2046
	local qemu=(qemu-system-x86_64 $(accel "$clock") -m "${UNO_VM_MEM:-2048}"
		-nographic -no-reboot
		-kernel "/boot/vmlinuz-$kver" -initrd "$vm_dir/initramfs.cpio"
		-append "console=ttyS0 loglevel=2 panic=-1 oops=panic=0 net.ifnames=0 ${UNO_VM_CMDLINE:-}"
		-drive "file=$vm_dir/out.img,format=raw,if=virtio" -nic none)
	if [ $shell = 1 ]; then
		"${qemu[@]}"
		return
	fi
	# The whole run may take the sum of the timeouts plus boot and slack.
	budget=60
	for t in "$@"; do
		to=$(header_of "$t" timeout)
		budget=$((budget + ${to:-$timeout} + 10))
	done
	set +e
	timeout -s KILL "$budget" "${qemu[@]}" < /dev/null 2>&1 | sed -u 's/\r$//' | tee "$console" |
		sed -un '/UNO-TAP-BEGIN/,/^UNO-TAP-END/{/UNO-TAP-/d; /^TAP version/d; /^1\.\./d; p}' |
		number_tap
	set -e
	tar -xf "$vm_dir/out.img" -C "$outdir" 2>/dev/null || echo "# no artefacts came out of the VM" >&2
}

# result_of TEST: the VM's TAP line for it, if a VM gave one.
result_of() {
	grep -hE "^(not )?ok [0-9]+ - $(basename "$1")( #|$)" "$work"/console-*.log | head -n 1
}

# run_vms CLOCK TEST...: VMs of that clock run the tests. A kernel splat
# ends a VM after its test (init): an oopsed kernel may be corrupt and
# must not fail the tests after it, so a fresh VM runs the rest.
run_vms() {
	local clock=$1 t rest
	shift
	while [ $# -gt 0 ]; do
		boot_vm "$clock" "$@"
		done_tests=$((done_tests + $(grep -cE '^(not )?ok [0-9]+ - ' "$console" || true)))
		grep -qx 'UNO-VM-SPLAT' "$console" || return 0
		rest=
		for t in "$@"; do
			[ -n "$(result_of "$t")" ] || rest="$rest $t"
		done
		# No progress: leave the rest without a result.
		[ "$(echo "$rest" | wc -w)" -lt $# ] || return 0
		[ -z "$rest" ] || echo "# after the splat, a fresh VM for:$rest"
		# shellcheck disable=SC2086
		set -- $rest
	done
}

# shard N TEST...: the tests dealt into at most N shards, one line each:
# longest first, each to the shard that has the least cost so far.
shard() {
	local n=$1 t c
	shift
	for t in "$@"; do
		c=$(header_of "$t" cost)
		[ -n "$c" ] || c=$(header_of "$t" timeout)
		echo "${c:-$timeout} $t"
	done | sort -k1,1nr -k2 | awk -v n="$n" '
	{
		k = 0
		for (i = 1; i < n; i++)
			if (load[i] < load[k])
				k = i
		load[k] += $1
		tests[k] = tests[k] " " $2
	}
	END { for (i = 0; i < n; i++) if (tests[i] != "") print substr(tests[i], 2) }'
}

# run_shard CLOCK NAME FIRST TEST...: the VMs of one shard, their files in
# $work/NAME, their TAP numbered from FIRST + 1.
run_shard() {
	local clock=$1
	shard=$2 done_tests=$3 boots=0 vm_dir=$work/$2
	shift 3
	mkdir -p "$vm_dir"
	run_vms "$clock" "$@"
}

host_tests= icount_tests=
for t in $tests; do
	case $(clock_of "$t") in
	icount) icount_tests="$icount_tests $t" ;;
	*) host_tests="$host_tests $t" ;;
	esac
done

if [ $shell = 1 ]; then
	shard=shell boots=0 vm_dir=$work/shell
	mkdir -p "$vm_dir"
	boot_vm "$([ "${UNO_VM_ICOUNT:-auto}" = all ] && echo icount || echo host)"
	exit
fi

echo "TAP version 13"
echo "1..$(echo $tests | wc -w)"
# The icount shards at once, each printing when all have ended; the
# order they print in is the order the tests are counted in.
# shellcheck disable=SC2086
mapfile -t shards < <(shard "$njobs" $icount_tests)
icount_tests= first=0
for i in "${!shards[@]}"; do
	# shellcheck disable=SC2086
	run_shard icount "icount$i" $first ${shards[i]} > "$work/icount$i.tap" &
	icount_tests="$icount_tests ${shards[i]}"
	first=$((first + $(echo ${shards[i]} | wc -w)))
done
wait
for i in "${!shards[@]}"; do
	cat "$work/icount$i.tap"
done
# shellcheck disable=SC2086
[ -z "$host_tests" ] || run_shard host host $first $host_tests
cat "$work"/console-*.log > "$outdir/console.log"

# Count, and name every test that left no result (VM died or hung).
passed=0 failed=0 skipped=0 n=0
for t in $icount_tests $host_tests; do
	n=$((n + 1))
	line=$(result_of "$t" || true)
	case "$line" in
	"ok "*"# SKIP"*) skipped=$((skipped + 1)) ;;
	"ok "*) passed=$((passed + 1)) ;;
	"not ok "*) failed=$((failed + 1)) ;;
	*)
		echo "not ok $n - $(basename "$t") # no result: VM died or hung"
		failed=$((failed + 1))
		;;
	esac
done
if cat "$work"/console-*.log | grep -qE 'Kernel panic|BUG:|Oops'; then
	echo "# kernel panic or oops on the console:"
	cat "$work"/console-*.log | grep -E -A5 'Kernel panic|BUG:|Oops' | head -n 20 | sed 's/^/# /'
	[ $failed -gt 0 ] || failed=1
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
