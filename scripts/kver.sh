#!/bin/sh
# Print the newest kernel release that has both an installed image in
# /boot and its build headers: the kernel our modules are built for and
# the VM boots.
for img in $(ls -v /boot/vmlinuz-* 2>/dev/null | sort -rV); do
	v=${img#/boot/vmlinuz-}
	if [ -d "/lib/modules/$v/build" ]; then
		echo "$v"
		exit 0
	fi
done
echo "kver: no kernel with both /boot/vmlinuz-* and headers; run 'make deps'" >&2
exit 1
