#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# MLCC's near-source loop (bpf/mlcc_ns.bpf.c) in the reference kernel:
# mlcc_ns_prog_test loads its libbpf skeleton, so 6.1's verifier must
# accept the three programs and their maps (spin-locked flow entries and
# a bpf_loop over the TCP options among them), and runs them on synthetic
# frames with BPF_PROG_TEST_RUN: the DCI's cleared records and TCP
# checksum at even and odd offsets, its Switch-INT byte by byte, and the
# sender's R_NS in a flow's entry as bpf_mlcc makes it, with forged,
# malformed and truncated frames changing nothing
# (userspace/bpf/mlcc_ns_prog_test.cc). On the host the same binary is a
# unit test; here no test may be skipped.
# uno-vm: icount
# uno-timeout: 120
# uno-cost: 4
. "$(dirname "$0")/../lib/testbed.sh"

tb_gtest mlcc_ns_prog_test "${MLCC_NS_PROG_TEST:-/uno/bin/mlcc_ns_prog_test}"
tb_exit
