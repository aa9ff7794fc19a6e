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
# Environment: KVER (kernel release), UNO_VM_ACCEL (tcg, the default, or
# kvm), UNO_VM_MEM (MiB, default 2048); UNO_EVAL_* variables are exported
# to the tests (selftests/eval/lib_eval.sh).
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
# then hangs (and -cpu host dies on an MSR), so it is opt-in.
accel() {
	case "${UNO_VM_ACCEL:-tcg}" in
	kvm) echo "-accel kvm" ;;
	*) echo "-accel tcg" ;;
	esac
}

# Per-run scratch, so that runs from two shells do not share an image.
mkdir -p "$top/build/vm" "$outdir"
work=$(mktemp -d "$top/build/vm/run.XXXXXX")
trap 'rm -rf "$work"' EXIT

# One VM at a time on this host: a second one would steal the first one's
# CPU and so its measurements. A run from another shell waits its turn.
exec 9> "${UNO_VM_LOCK:-/tmp/uno-vm.lock}"
if ! flock -n 9; then
	echo "# waiting for the VM of another run to end" >&2
	flock 9
fi
for t in $tests; do
	rm -rf "${outdir:?}/$(basename "$t")"
done
{
	echo "UNO_TESTS=\"$(echo $tests)\""
	echo "UNO_SHELL=$shell"
	echo "UNO_TIMEOUT=$timeout"
	# The evaluation's settings go through to the tests.
	env | grep -E '^UNO_EVAL_[A-Z_]*=' | sed 's/^\([^=]*\)=\(.*\)$/export \1="\2"/' || true
} > "$work/run.conf"
"$top/selftests/vm/mkinitramfs.sh" "$kver" "$work/initramfs.cpio" "$work/run.conf"
rm -f "$work/out.img"
truncate -s 1G "$work/out.img"

qemu=(qemu-system-x86_64 $(accel) -m "${UNO_VM_MEM:-2048}" -smp 2 -nographic -no-reboot
	-kernel "/boot/vmlinuz-$kver" -initrd "$work/initramfs.cpio"
	-append "console=ttyS0 loglevel=2 panic=-1 oops=panic=0 net.ifnames=0"
	-drive "file=$work/out.img,format=raw,if=virtio" -nic none)

if [ $shell = 1 ]; then
	"${qemu[@]}"
	exit
fi

# The whole run may take the sum of the timeouts plus boot and slack.
budget=60
for t in $tests; do
	to=$(sed -n 's/^# uno-timeout: *\([0-9][0-9]*\).*/\1/p' "$top/selftests/$t.sh" | head -n 1)
	budget=$((budget + ${to:-$timeout} + 10))
done

console=$work/console.log
set +e
timeout -s KILL "$budget" "${qemu[@]}" < /dev/null 2>&1 | sed -u 's/\r$//' | tee "$console" |
	sed -un '/UNO-TAP-BEGIN/,/^UNO-TAP-END/{/UNO-TAP-/d; p}'
set -e

tar -xf "$work/out.img" -C "$outdir" 2>/dev/null || echo "# no artefacts came out of the VM" >&2
cp "$console" "$outdir/console.log"

# Count, and name every test that left no result (VM died or hung).
passed=0 failed=0 skipped=0 n=0
for t in $tests; do
	n=$((n + 1))
	line=$(grep -E "^(not )?ok $n - " "$console" | head -n 1 || true)
	case "$line" in
	"ok $n - "*"# SKIP"*) skipped=$((skipped + 1)) ;;
	"ok $n - "*) passed=$((passed + 1)) ;;
	"not ok $n - "*) failed=$((failed + 1)) ;;
	*)
		echo "not ok $n - $(basename "$t") # no result: VM died or hung"
		failed=$((failed + 1))
		;;
	esac
done
if grep -qE 'Kernel panic|BUG:|Oops' "$console"; then
	echo "# kernel panic or oops on the console:"
	grep -E -A5 'Kernel panic|BUG:|Oops' "$console" | head -n 20 | sed 's/^/# /'
	[ $failed -gt 0 ] || failed=1
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
