#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bad input to the phantom qdisc: every line of a table of bad options is
# refused by tc (non-zero exit) with a message that says what is wrong (the
# kernel's extack: the policy's "integer out of range" for a value outside
# its own range, a message naming the attribute for a rule across values
# or the device; or the tc plugin's own for what it cannot parse), and
# leaves the running qdisc as it was ('tc -j qdisc show' before and after,
# options included). Each line is tried with 'change' and with 'replace';
# a second table of bad creations ('add' on a port without a qdisc) must
# create nothing. Then good changes go through in bytes, and a new qdisc
# takes its defaults: burst two packets of the device MTU, ramps at their
# fractions of the sizes it was given.
# uno-vm: icount
# uno-timeout: 120
# uno-cost: 87
. "$(dirname "$0")/../lib/testbed.sh"

tb_dumbbell 1 0
GOOD="rate 200mbit limit 500kb ecn-min 50kb ecn-max 450kb phantom-rate 95% phantom-size 2mb"
GOOD="$GOOD phantom-min 100kb phantom-max 1400kb trim 64 trim-dscp 0x2e trim-limit 32kb burst 32kb"
GOOD="$GOOD trim-udp valid"
# shellcheck disable=SC2086
tb_exec tor $TC qdisc add dev p0 root handle 1: phantom $GOOD || tb_die "good options refused"

# tc -n enters the namespace itself: 'ip netns exec' also remounts /sys,
# which takes most of a second under TCG, and the tables below run tc
# about 200 times.
TOR="$TC -n $(tb_ns tor)"
show() { $TOR -j qdisc show dev "$1"; }
before=$(show p0)
echo "$before" | jq -e '.[0].kind == "phantom"' > /dev/null || tb_die "no phantom qdisc: $before"

n=0 refused=0 unchanged=0 said=0
results="[]"

# try VERB DEV EXPECTED OPTIONS: run tc, check exit, message and state.
try() {
	_verb=$1 _dev=$2 _expect=$3 _opts=$4
	_before=$(show "$_dev")
	# shellcheck disable=SC2086
	_err=$($TOR qdisc "$_verb" dev "$_dev" root phantom $_opts 2>&1 >/dev/null)
	_rc=$?
	_after=$(show "$_dev")
	n=$((n + 1))
	_ok_rc=0 _ok_msg=0 _ok_state=0
	[ $_rc -ne 0 ] && _ok_rc=1 && refused=$((refused + 1))
	case "$_err" in *"$_expect"*) _ok_msg=1 said=$((said + 1)) ;; esac
	[ "$_before" = "$_after" ] && _ok_state=1 && unchanged=$((unchanged + 1))
	if [ $_ok_rc$_ok_msg$_ok_state != 111 ]; then
		echo "# BAD: tc qdisc $_verb ... phantom $_opts: exit $_rc, said: $_err"
		[ $_ok_state = 1 ] || echo "#   qdisc changed: $_after"
	fi
	results=$(echo "$results" | jq -c --arg v "$_verb" --arg o "$_opts" --arg e "$_err" \
		--argjson rc $_rc --argjson st $_ok_state \
		'. + [{verb: $v, options: $o, exit: $rc, message: $e, unchanged: ($st == 1)}]')
}

# EXPECTED MESSAGE | OPTIONS (for change / replace of the running qdisc)
while IFS='|' read -r expect opts; do
	[ -n "$opts" ] || continue
	try change p0 "$expect" "$opts"
	try replace p0 "$expect" "$opts"
done <<'TABLE'
ecn-min is above ecn-max|ecn-min 60kb ecn-max 40kb
ecn-min is above ecn-max|ecn-min 600kb
ecn-min is above ecn-max|ecn-max 40kb
integer out of range|rate 0
integer out of range|phantom-rate 101%
integer out of range|phantom-rate 0%
phantom-min is above phantom-max|phantom-min 80kb phantom-max 60kb
phantom-min is above phantom-max|phantom-size 1mb phantom-min 2mb
phantom-min is above phantom-max|phantom-max 50kb
trim is shorter than an IPv4 and a TCP header|trim 20
trim-limit cannot hold one trimmed header|trim 64 trim-limit 32
integer out of range|trim-dscp 64
not stale or valid|trim-udp on
int needs a rate an INT record can carry|int on
not on or off|int maybe
xoff is not below limit|xoff 500kb
xoff is not below limit|xoff 600kb
xoff is not below limit|limit 300kb xoff 400kb
invalid size|xoff lots
limit is smaller than one packet of the device MTU|limit 100
burst is smaller than one packet of the device MTU|burst 0
burst is smaller than one packet of the device MTU|burst 3000
integer out of range|burst 65mb
invalid size|burst 5gb
integer out of range|rate 100tbit
invalid rate|rate fast
unknown parameter|frobnicate 1
invalid size|ecn-min 10%
invalid size|phantom-max 60%
invalid size|ecn-max lots
invalid percentage|phantom-rate 90
duplicate|rate 100mbit rate 200mbit
not complete|limit
TABLE

# EXPECTED MESSAGE | OPTIONS (add on h1, which has no qdisc of ours)
while IFS='|' read -r expect opts; do
	[ -n "$expect" ] || continue
	try add h1 "$expect" "$opts"
	tb_check "no_qdisc_created_by_$(echo "$opts" | tr -c 'a-z0-9' '_')" \
		"$(show h1 | jq '[.[] | select(.kind == "phantom")] | length')" "==" 0
done <<'TABLE'
rate is required|limit 1mb
rate is required|
integer out of range|rate 0
burst is smaller than one packet of the device MTU|rate 1gbit burst 100
phantom-min is above phantom-max|rate 1gbit phantom-min 700kb
ecn-min is above ecn-max|rate 1gbit limit 100kb ecn-min 90kb
int needs a rate an INT record can carry|rate 30mbit int on
xoff is not below limit|rate 1gbit limit 100kb xoff 100kb
TABLE

tb_check refused "$refused" "==" $n
tb_check refused_with_the_message "$said" "==" $n
tb_check qdisc_unchanged "$unchanged" "==" $n

# A good change goes through and shows, in bytes; a threshold needs no
# size beside it, and a new size leaves the thresholds as they are.
tb_exec tor $TC qdisc change dev p0 root phantom burst 64kb ecn-min 20kb ||
	tb_die "good change refused"
tb_check burst_after_change "$(show p0 | jq '.[0].options.burst')" "==" 65536
tb_check ecn_min_after_change "$(show p0 | jq '.[0].options.ecn_min')" "==" 20480
tb_check limit_kept "$(show p0 | jq '.[0].options.limit')" "==" 512000
tb_exec tor $TC qdisc change dev p0 root phantom phantom-min 50kb phantom-size 1mb ||
	tb_die "phantom-min alone refused"
tb_check phantom_min_after_change "$(show p0 | jq '.[0].options.phantom_min')" "==" 51200
tb_check phantom_max_kept "$(show p0 | jq '.[0].options.phantom_max')" "==" 1433600
tb_check xoff_off "$(show p0 | jq '.[0].options.xoff')" "==" 0
tb_exec tor $TC qdisc change dev p0 root phantom xoff 400kb || tb_die "xoff refused"
tb_check xoff_after_change "$(show p0 | jq '.[0].options.xoff')" "==" 409600
# A new qdisc: burst 2 MTU; the ramps at 20-80 % of limit and 2-60 % of
# phantom-size, which is limit unless given.
tb_exec tor $TC qdisc add dev h1 root phantom rate 1gbit limit 100kb || tb_die "rate and limit refused"
tb_check default_burst "$(show h1 | jq '.[0].options.burst')" "==" $((2 * (TB_MTU + 14)))
for kv in ecn_min=20480 ecn_max=81920 phantom_size=102400 phantom_min=2048 \
	phantom_max=61440; do
	tb_check "default_${kv%=*}" "$(show h1 | jq ".[0].options.${kv%=*}")" "==" "${kv#*=}"
done
# tc prints sizes as it parses them.
tb_exec tor $TC qdisc show dev p0 > "$OUT_DIR/tc-show.txt"
for word in "burst 64Kb" "ecn-min 20Kb" "phantom-min 50Kb" "phantom-max 1400Kb" "xoff 400Kb"; do
	tb_check "tc_show_$(printf %s "$word" | tr -c 'a-zA-Z0-9' '_')" \
		"$(grep -c " $word " "$OUT_DIR/tc-show.txt")" "==" 1
done

echo "$results" | jq --argjson n $n '{tried: $n, lines: .}' > "$OUT_DIR/results.json"
tb_log "$n bad commands: $refused refused, $said with the expected message, $unchanged left the qdisc as it was"
tb_exit
