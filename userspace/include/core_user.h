/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's names that the control laws in kernel/core/ use, over libc
 * and the compiler's builtins, so that the unit tests and benchmarks drive
 * the very functions the modules run. kernel/core/core_types.h includes
 * this outside the kernel. A file includes the core headers after every
 * system and library header: noinline, likely() and BIT() are names those
 * may use for something else.
 */
#ifndef _UNO_CORE_USER_H
#define _UNO_CORE_USER_H

#include <stdint.h>
#include <sys/cdefs.h>		/* glibc's __always_inline */
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

/* Not every includer calls every out-of-line step of a law. */
#define noinline	__attribute__((__noinline__, __unused__))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define BIT(nr)		(1UL << (nr))
#define BIT_ULL(nr)	(1ULL << (nr))

#define smp_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)

/* <linux/math64.h>: the divisor is never 0. */
static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = (u32)(dividend % divisor);
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

/* <linux/math.h>: val scaled to 0..ep_ro-1 without a division. */
static inline u32 reciprocal_scale(u32 val, u32 ep_ro)
{
	return (u32)(((u64)val * ep_ro) >> 32);
}

#endif /* _UNO_CORE_USER_H */
