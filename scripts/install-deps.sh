#!/bin/sh
# Install, with apt-get, everything the build, the VM tests and the demo need.
# Idempotent and silent when all packages are already present.
set -eu

PACKAGES="
build-essential cmake pkg-config kmod cpio
linux-headers-amd64 linux-image-amd64
qemu-system-x86 busybox-static
iproute2 iperf3 ethtool tcpdump iputils-ping jq
clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev
libmnl-dev libgtest-dev googletest libisal-dev libclang-rt-dev
nlohmann-json3-dev libcli11-dev libtomlplusplus-dev libns3-dev
gnuplot-nox python3-docutils valgrind sparse linux-source-6.1 parallel
"

missing=""
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	"install ok installed") ;;
	*) missing="$missing $p" ;;
	esac
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing (run as root)" >&2
	exit 1
fi

echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
