#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Reflex's programs (bpf/reflex.bpf.c) in the reference kernel:
# reflex_prog_test loads their libbpf skeleton, so 6.1's verifier must
# accept the four programs and their maps (spin-locked flow entries and
# socket storage among them), and runs them on synthetic frames with
# BPF_PROG_TEST_RUN: the stamp, NSF's machine and its pseudo-ACK byte by
# byte, and the sender's acceptance against a real socket's mailbox,
# with stale, implausible, forged, malformed and truncated feedback
# changing nothing (userspace/bpf/reflex_prog_test.cc). On the host the
# same binary is a unit test; here no test may be skipped.
#
# In the icount VM: the stamp's test compares the program's clock with
# its own to a 64 ns unit (k = 6, a 4.2 ms wrap), and in the host-clock
# VM, whose two vCPUs' TSCs the kernel finds unsynchronised, the
# program's was 1.4-1.7 ms behind in two runs of four.
# uno-vm: icount
# uno-timeout: 120
# uno-cost: 3
. "$(dirname "$0")/../lib/testbed.sh"

tb_gtest reflex_prog_test "${REFLEX_PROG_TEST:-/uno/bin/reflex_prog_test}"
tb_exit
