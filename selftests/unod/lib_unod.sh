#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Helpers of the unod/unoctl VM tests; sourced after testbed.sh.

UNOCTL=${UNOCTL:-/uno/bin/unoctl}
UNOD=${UNOD:-/uno/bin/unod}
UNOD_LOG=$OUT_DIR/unod.log

# at NS ARGS...: unoctl ARGS in namespace NS (a per-namespace role's
# settings and counters).
at() {
	_ns=$1
	shift
	nsenter --net="/run/netns/$(tb_ns "$_ns")" "$UNOCTL" "$@"
}

# param CC NAME: the value the CC module's genl family reports.
param() {
	$UNOCTL -j cc show "$1" "$2" | jq -r '.[0].value'
}

# sysfs_param CC NAME: the value of the module parameter.
sysfs_param() {
	cat "/sys/module/tcp_$1/parameters/$2"
}

# unod_start CONF: run unod on CONF in the background, log to $UNOD_LOG,
# and wait for its first application.
unod_start() {
	: > "$UNOD_LOG"
	$UNOD -c "$1" 2>> "$UNOD_LOG" &
	UNOD_PID=$!
	echo $UNOD_PID >> "$TB_RUN/pids"
	unod_wait_log "applied $1" 1
}

# unod_wait_log PATTERN COUNT: wait until PATTERN is in $UNOD_LOG COUNT
# times (10 s at most).
unod_wait_log() {
	_n=100
	while [ $_n -gt 0 ]; do
		[ "$(grep -c "$1" "$UNOD_LOG")" -ge "$2" ] && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	cat "$UNOD_LOG"
	tb_die "unod never logged '$1' $2 times"
}

# unod_reload CONF_SRC: install CONF_SRC as the config and SIGHUP unod;
# wait for the reload to be logged.
unod_reload() {
	[ "$1" = "$UNOD_CONF" ] || cp "$1" "$UNOD_CONF"
	_before=$(grep -c "reload" "$UNOD_LOG")
	kill -HUP "$UNOD_PID"
	unod_wait_log "reload" $((_before + 1))
}

# unod_dummy NAME...: dummy devices in the initial namespace, up, removed
# when the test ends (the VM runner only deletes namespaces).
unod_dummy() {
	for _d in "$@"; do
		$IP link del "$_d" 2>/dev/null
		$IP link add "$_d" type dummy || tb_die "dummy device $_d"
		$IP link set "$_d" up
		UNOD_DUMMIES="$UNOD_DUMMIES $_d"
	done
	trap 'for _d in $UNOD_DUMMIES; do $IP link del "$_d" 2>/dev/null; done; tb_cleanup' EXIT
}

# unod_drain_orphans: wait (5 s at most) for closed TCP sockets still
# delivering their data, which hold their CC module.
unod_drain_orphans() {
	_n=50
	while [ $_n -gt 0 ] && ! grep -q 'orphan 0 ' /proc/net/sockstat; do
		sleep 0.1
		_n=$((_n - 1))
	done
}
