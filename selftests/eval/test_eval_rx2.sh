#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# RX2 (issue 15; reflex.md 5.2, the paper's Figs. 6-7): RX1's WebSearch
# mix at 50 % load (lib_reflex_eval.sh's rx_lower_load). The paper finds
# no PFC pause at all with Reflex at 30 and 50 %, hundreds without (R11,
# TIMELY; Swift "similar"), and Reflex's cut of the mean normalised FCT
# smaller than at 70 % (TIMELY's slightly negative at 30 %: R12).
# uno-timeout: 1800
. "$(dirname "$0")/lib_reflex_eval.sh"
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"
. "$(dirname "$0")/lib_eval.sh"

rx_lower_load RX2 0.5
