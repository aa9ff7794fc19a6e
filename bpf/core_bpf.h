/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's names that the control laws in kernel/core/ use, for a BPF
 * program: kernel/core/core_types.h includes this when clang targets BPF,
 * as it includes userspace/include/core_user.h in user space. Only the
 * UAPI types and libbpf's helpers header: a tc program needs no vmlinux.h.
 */
#ifndef _UNO_CORE_BPF_H
#define _UNO_CORE_BPF_H

#include <linux/types.h>
#include <bpf/bpf_helpers.h>	/* __always_inline */

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;
typedef _Bool bool;
#define true	1
#define false	0

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define BIT(nr)		(1UL << (nr))
#define BIT_ULL(nr)	(1ULL << (nr))

/* <linux/math64.h>: BPF divides 64-bit unsigned values natively. */
static __always_inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static __always_inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

/* <linux/math.h>: val scaled to 0..ep_ro-1 without a division. */
static __always_inline u32 reciprocal_scale(u32 val, u32 ep_ro)
{
	return (u32)(((u64)val * ep_ro) >> 32);
}

#endif /* _UNO_CORE_BPF_H */
