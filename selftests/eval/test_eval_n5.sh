#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# N5 (Uno Fig. 8, Sec. 5.2.1): inter-DC incast, eight flows start
# together into one receiver. Uno: every flow finishes, the last within
# 1.25 x the ideal time (all bytes at C), and the flows share fairly: Jain's
# index of their mean rates >= 0.95.
# uno-vm: icount
# uno-timeout: 600
# uno-cost: 53
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_eval.sh"

tb_dumbbell 1 8	# h1 only measures the intra-DC RTT
ev_incast N5 $(ev_pick 8000000 50000000) 1.25 "Inter-DC incast" w1 w2 w3 w4 w5 w6 w7 w8
