/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the control-law headers in kernel/core/ use of the kernel: its
 * fixed-width types, likely(), the 64-bit divisions that link on 32-bit
 * kernels (div_u64() and friends), reciprocal_scale() and
 * smp_load_acquire(). User space, where
 * the unit tests and benchmarks drive the same functions, gets the same
 * names from userspace/include/core_user.h; a BPF program, the few its
 * laws use (no division, no barrier), from bpf/core_bpf.h.
 *
 * A law's per-ACK entry point is __always_inline, so that the path makes no
 * call and saves no register it need not; its once-per-RTT steps (an
 * epoch's end, a Quick Adapt window's end) are noinline, so that the path
 * they branch from keeps few registers live and a short prologue
 * (Documentation/benchmarks.rst).
 */
#ifndef _UNO_CORE_TYPES_H
#define _UNO_CORE_TYPES_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <asm/barrier.h>
#elif defined(__bpf__)
#include "core_bpf.h"
#else
#include "core_user.h"
#endif

#endif /* _UNO_CORE_TYPES_H */
