#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The entropy datapath's programs (bpf/lb.bpf.c) in the reference kernel:
# lb_prog_test loads their libbpf skeleton, so 6.1's verifier must accept
# both programs and their maps (a spin-locked flow table among them), and
# runs them on synthetic frames with BPF_PROG_TEST_RUN: every mode's EVs,
# checksums and untouched bytes, and every frame they must pass unharmed
# (userspace/bpf/lb_prog_test.cc). On the host the same binary is a unit
# test; here no test may be skipped.
# uno-timeout: 120
. "$(dirname "$0")/../lib/testbed.sh"

LB_PROG_TEST=${LB_PROG_TEST:-/uno/bin/lb_prog_test}

"$LB_PROG_TEST" > "$OUT_DIR/lb_prog_test.log" 2>&1
rc=$?
tb_log "$(grep -E '^\[ *(PASSED|FAILED|SKIPPED) *\]' "$OUT_DIR/lb_prog_test.log" | tr '\n' ' ')"
tb_check lb_prog_test_exit "$rc" "==" 0
tb_check lb_prog_tests_passed "$(grep -c '^\[       OK \]' "$OUT_DIR/lb_prog_test.log")" ">" 0
tb_check lb_prog_tests_skipped "$(grep -c '^\[  SKIPPED \]' "$OUT_DIR/lb_prog_test.log")" "==" 0
tb_exit
