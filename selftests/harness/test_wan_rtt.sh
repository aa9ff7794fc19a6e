#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness check (b): the measured idle RTT of an inter-DC sender, less the
# intra-DC sender's (the hosts' own share, up to 2 ms on a slow TCG host),
# matches the WAN delay netem adds (20 ms round trip) within 10 %, and
# netem sits on the WAN link only: the intra-DC RTT stays far below it.
# uno-vm: icount
# uno-timeout: 60
# uno-cost: 8
. "$(dirname "$0")/../lib/testbed.sh"

TB_WAN_RTT=20
tb_dumbbell 1 1
tb_base_rtts

inter=$(jq .w1.min_ms "$OUT_DIR/base_rtt.json")
intra=$(jq .h1.min_ms "$OUT_DIR/base_rtt.json")
err=$(tb_calc "($inter - $intra - $TB_WAN_RTT) / $TB_WAN_RTT")
err=${err#-}
tb_log "inter-DC min RTT $inter ms, intra-DC min RTT $intra ms, WAN RTT $TB_WAN_RTT ms"

tb_check inter_rtt_relative_error "$err" "<=" 0.10
tb_check intra_rtt_ms "$intra" "<" "$(tb_calc "$TB_WAN_RTT / 10")"
tb_exit
