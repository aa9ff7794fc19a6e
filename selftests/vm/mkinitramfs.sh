#!/bin/bash
# Build the test VM's initramfs (an uncompressed newc cpio) from the manifest.
#
# usage: mkinitramfs.sh KVER OUTPUT [RUN_CONF]
#
# RUN_CONF, if given, is installed as /uno/run.conf: the tests to run and
# the run's settings, read by /init.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kver=$1
out=$2
run_conf=${3:-}
manifest="$top/selftests/vm/manifest"
moddir="/lib/modules/$kver"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

die() { echo "mkinitramfs: $*" >&2; exit 1; }

# Copy a host file to the same path in the image, keeping symlinks resolvable.
copy_host_file() {
	local f=$1
	[ -e "$root$f" ] && return
	mkdir -p "$root$(dirname "$f")"
	cp -L "$f" "$root$f"
}

add_bin() {
	local bin=$1 lib
	[ -x "$bin" ] || die "host binary $bin not found (run 'make deps')"
	copy_host_file "$bin"
	for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
		copy_host_file "$lib"
	done
}

add_kmod() {
	local ko
	for ko in $(modprobe -S "$kver" --show-depends "$1" | awk '$1 == "insmod" { print $2 }'); do
		copy_host_file "$ko"
	done
}

add_glob() {
	local pattern=$1 dst=${2//@KVER@/$kver} f lib
	mkdir -p "$root$dst"
	for f in $top/$pattern; do
		[ -e "$f" ] || continue
		cp -a "$f" "$root$dst/"
		# A dynamically linked project binary brings its libraries.
		[ -x "$f" ] && ldd "$f" > /dev/null 2>&1 || continue
		for lib in $(ldd "$f" | grep -o '/[^ ]*'); do
			copy_host_file "$lib"
		done
	done
}

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,out,mnt,etc,uno}
cp /bin/busybox "$root/bin/busybox"
for applet in $("$root/bin/busybox" --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
# The kernel's request_module() runs /sbin/modprobe: autoload veth, qdiscs.
ln -s ../bin/busybox "$root/sbin/modprobe"

while read -r kind a b; do
	case "$kind" in
	''|'#'*) continue ;;
	bin) add_bin "$a" ;;
	kmod) add_kmod "$a" ;;
	glob) add_glob "$a" "$b" ;;
	tree) mkdir -p "$root$b" && cp -a "$top/$a/." "$root$b/" ;;
	*) die "manifest: unknown entry '$kind'" ;;
	esac
done < "$manifest"

# modules.dep for busybox modprobe; our modules sit in extra/.
cp "$moddir/modules.order" "$moddir/modules.builtin" "$moddir/modules.builtin.modinfo" \
	"$root$moddir/" 2>/dev/null || true
depmod -b "$root" "$kver"

echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/nonexistent:/bin/sh" >> "$root/etc/passwd"
# tcpdump drops its privileges to this user after opening the capture.
echo "tcpdump:x:104:110::/nonexistent:/bin/false" >> "$root/etc/passwd"
printf 'root:x:0:\ntcpdump:x:110:\nnogroup:x:65534:\n' > "$root/etc/group"
printf '127.0.0.1 localhost\n' > "$root/etc/hosts"
cp "$top/selftests/vm/init" "$root/init"
chmod 755 "$root/init"
[ -n "$run_conf" ] && cp "$run_conf" "$root/uno/run.conf"

# Tests run commands as an unprivileged user too: whatever the build's
# umask, every file is readable and every directory searchable.
chmod -R go+rX "$root"

(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
