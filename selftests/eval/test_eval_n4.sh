#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# N4 (Uno Fig. 8, Sec. 5.2.1): intra-DC incast, eight flows start
# together into one receiver. Uno: every flow finishes, the last within
# 1.2 x the ideal time (all bytes at C), and the flows share fairly: Jain's
# index of their mean rates >= 0.95.
# uno-vm: icount
# uno-timeout: 600
# uno-cost: 37
. "$(dirname "$0")/../lib/testbed.sh"
. "$(dirname "$0")/lib_eval.sh"

tb_dumbbell 8 0
ev_incast N4 $(ev_pick 4000000 16000000) 1.2 "Intra-DC incast" h1 h2 h3 h4 h5 h6 h7 h8
