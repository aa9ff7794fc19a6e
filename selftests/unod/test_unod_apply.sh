#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# unod applies a configuration: tcp_uno and tcp_smartt parameters (raw
# names and aliases), the default CC and a phantom qdisc. The change is
# visible through unoctl (genl and rtnetlink), through sysfs (the same
# storage), and in what the module does: a flow's window cap follows
# link_rate_mbps x intra_rtt_us, and a running flow sees a change at once.
# uno-timeout: 120
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_unod.sh"

UNOD_CONF=$TB_RUN/uno.toml
unod_dummy ua0

# BDP = 400 Mbit/s x 2 ms = 100000 bytes: the flow's first window.
cat > "$UNOD_CONF" <<CONF
[cc]
default = "uno"

[cc.uno]
link_rate_mbps = 400
intra_rtt_us = 2000
alpha = 0.002

[cc.smartt]
trtt_factor = 2048

[[qdisc]]
dev = "ua0"
rate = "200mbit"
limit = "400kb"
ecn-min = "40kb"
phantom-rate = "90%"
phantom-size = 100000
CONF
$UNOD --check -c "$UNOD_CONF" || tb_die "unod --check refused a good file"
unod_start "$UNOD_CONF"
cat "$UNOD_LOG"

tb_check default_cc "$(grep -c '^uno$' /proc/sys/net/ipv4/tcp_congestion_control)" == 1
tb_check uno_link_rate "$(param uno link_rate_mbps)" == 400
tb_check uno_alpha_alias "$(param uno alpha_ppm)" == 2000
tb_check uno_alpha_sysfs "$(sysfs_param uno alpha_ppm)" == 2000
tb_check smartt_trtt "$(param smartt trtt_factor)" == 2048
tb_check smartt_trtt_sysfs "$(sysfs_param smartt trtt_factor)" == 2048
# An untouched parameter keeps its default.
tb_check uno_pacing_default "$(param uno pacing_pct)" == 100

$UNOCTL -j qdisc show dev ua0 > "$OUT_DIR/qdisc.json"
tb_check qdisc_kind "$(jq '.[0].kind' "$OUT_DIR/qdisc.json")" == '"phantom"'
tb_check qdisc_rate "$(jq '.[0].options.rate' "$OUT_DIR/qdisc.json")" == 25000000
tb_check qdisc_limit "$(jq '.[0].options.limit' "$OUT_DIR/qdisc.json")" == 409600
tb_check qdisc_phantom_rate "$(jq '.[0].options.phantom_rate' "$OUT_DIR/qdisc.json")" == 90
# Thresholds in bytes, as written; one not written follows its size at
# creation (phantom-min: 2 % of phantom-size).
tb_check qdisc_ecn_min "$(jq '.[0].options.ecn_min' "$OUT_DIR/qdisc.json")" == 40960
tb_check qdisc_phantom_min "$(jq '.[0].options.phantom_min' "$OUT_DIR/qdisc.json")" == 2000
tb_check tc_agrees "$($TC qdisc show dev ua0 | grep -c 'phantom.*rate 200Mbit')" == 1
$TC -j qdisc show dev ua0 > "$OUT_DIR/tc-qdisc.json"
for key in limit ecn_min ecn_max phantom_rate phantom_size phantom_min phantom_max; do
	# A key missing from either side (null) fails.
	tc_val=$(jq ".[0].options.$key // -1" "$OUT_DIR/tc-qdisc.json")
	tb_check "tc_agrees_$key" "$tc_val" == "$(jq ".[0].options.$key // -2" "$OUT_DIR/qdisc.json")"
done
$UNOCTL qdisc show dev ua0

# Module behaviour: a uno flow starts with one BDP of window and the base
# RTT floored at intra_rtt_us. (iperf3's idle control connection is not
# the flow: the one that moved the most bytes is.)
tb_dumbbell 1 0
tb_receiver_cc uno
tb_flow h1 uno 8 > /dev/null
sleep 3
tb_exec h1 $UNOCTL -j sock show > "$OUT_DIR/sock-before.json"
tb_exec h1 $UNOCTL sock show
sender='[.[] | select(.state == "ESTAB" and .uno != null and .uno.enabled)] | max_by(.bytes_acked)'
tb_check flow_base_rtt "$(jq "$sender | .uno.base_rtt_us" "$OUT_DIR/sock-before.json")" == 2000
tb_check flow_cwnd_400 "$(jq "$sender | .uno.cwnd_bytes" "$OUT_DIR/sock-before.json")" ">=" 50000
tb_check flow_cwnd_400_cap "$(jq "$sender | .uno.cwnd_bytes" "$OUT_DIR/sock-before.json")" "<=" 100000

# A quarter of the link rate: the running flow's cap follows on its next ACK.
sed -i 's/^link_rate_mbps = 400$/link_rate_mbps = 100/' "$UNOD_CONF"
unod_reload "$UNOD_CONF"
sleep 1
tb_exec h1 $UNOCTL -j sock show > "$OUT_DIR/sock-after.json"
tb_exec h1 $UNOCTL sock show
tb_check uno_link_rate_reloaded "$(param uno link_rate_mbps)" == 100
tb_check flow_cwnd_100_cap "$(jq "$sender | .uno.cwnd_bytes" "$OUT_DIR/sock-after.json")" "<=" 25000

# Let the flow end by itself: killed, its socket would linger as an orphan
# in a deleted namespace, keeping tcp_uno in use for the next test.
tb_wait_flows
unod_drain_orphans
tb_exit
