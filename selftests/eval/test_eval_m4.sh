#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# M4 (MLCC's heavy mix, mlcc.md 5.3 and 5.6, the paper's Fig. 11): intra-DC
# traffic at 50 % load and cross-DC at 20 %, WebSearch sizes, Poisson
# arrivals. The paper finds MLCC cutting the intra-DC average FCT by 28 %
# against DCQCN, 46 % against HPCC, and the cross-DC one by 5-12 %.
#
# lib_mlcc_eval.sh's two DCs and variants, the flows all to b1 (unoperf sends
# to one destination, so both classes meet at b1's link, where the
# paper's go to random hosts of each DC): intra-DC from b2..b4, cross-DC
# from a1..a4 across the 40 ms WAN; 0.7 of b1's link offered, 50/70 of
# the flows intra-DC (one CDF for both, so flows and bytes split alike).
# Sizes scale by s_r s_t (mlcc.md 5.7: s_r = 50 Mbit/s / 25 Gbit/s, s_t =
# RTT_C / 6.04 ms; about 0.016 here, a WebSearch flow 26 KB on average and
# 472 KB at most, 1.6 RTT_C BDPs as in the paper). Hadoop's sizes so
# scaled (1.9 KB on average) would ask 2300 connections a second of the
# VM: not run. Variants mlcc and dctcp (the ECN law nearest DCQCN); in the
# full profile hpcc, cubic and uno too.
#
# Checked for mlcc: every flow completes, DCI_r's queues are all freed
# with their flows, and none of its error counters moved. Claimed
# (failing the full profile only): mlcc's intra-DC mean FCT at most 0.8 of
# the best baseline's (the paper's 20 % of issue 16), its cross-DC mean
# FCT at most the best baseline's.
# uno-timeout: 2400
. "$(dirname "$0")/lib_mlcc_eval.sh"
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/../mlcc/lib_mlcc.sh"
. "$(dirname "$0")/../unod/lib_unod.sh"
. "$(dirname "$0")/lib_eval.sh"

mx_webmix M4 0.7 0.714 "mlcc dctcp" heavy \
	'MLCC cuts it by 28 % vs DCQCN, 33 % vs Timely, 46 % vs HPCC, 39 % vs PowerTCP (WebSearch, heavy)' \
	'MLCC cuts it by 12 %, 41 %, 5 %, 4 %'
