#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# M5 (MLCC's light mix, mlcc.md 5.3 and 5.6, the paper's Figs. 11-14):
# intra-DC traffic at 30 % load and cross-DC at 10 %, WebSearch sizes,
# Poisson arrivals. The paper finds MLCC cutting the intra-DC average FCT
# by 24 % against DCQCN, 30 % against Timely, 36 % against HPCC and 27 %
# against PowerTCP, and the cross-DC one "consistently".
#
# M4's scenario (lib_mlcc_eval.sh's mx_webmix: two DCs, every flow to b1,
# sizes scaled by s_r s_t) at 0.4 of b1's link, 30/40 of the flows
# intra-DC. Variant mlcc alone in the check profile (M4 runs it beside
# dctcp); in the full profile hpcc, dctcp, cubic and uno too. Checked and
# claimed as M4.
# uno-timeout: 2400
. "$(dirname "$0")/lib_mlcc_eval.sh"
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../mlcc/lib_mlcc.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"
. "$(dirname "$0")/lib_eval.sh"

mx_webmix M5 0.4 0.75 mlcc light \
	'MLCC cuts it by 24 % vs DCQCN, 30 % vs Timely, 36 % vs HPCC, 27 % vs PowerTCP (WebSearch, light)' \
	'MLCC cuts it, no number given (light)'
