#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The entropy datapath's programs (bpf/lb.bpf.c) in the reference kernel:
# lb_prog_test loads their libbpf skeleton, so 6.1's verifier must accept
# both programs and their maps (a spin-locked flow table among them), and
# runs them on synthetic frames with BPF_PROG_TEST_RUN: every mode's EVs,
# checksums and untouched bytes, and every frame they must pass unharmed
# (userspace/bpf/lb_prog_test.cc). On the host the same binary is a unit
# test; here no test may be skipped.
# uno-vm: icount
# uno-timeout: 120
# uno-cost: 4
. "$(dirname "$0")/../lib/testbed.sh"

tb_gtest lb_prog_test "${LB_PROG_TEST:-/uno/bin/lb_prog_test}"
tb_exit
