/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the control-law headers in kernel/core/ share: the kernel's
 * fixed-width types, and 64-bit divisions that link on 32-bit kernels
 * (div_u64() and friends) yet compile unchanged in user space, where the
 * unit tests drive the same functions.
 */
#ifndef _UNO_CORE_TYPES_H
#define _UNO_CORE_TYPES_H

#ifdef __KERNEL__
#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/math64.h>
#include <asm/barrier.h>
#else
#include <stdint.h>
#include <sys/cdefs.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#endif

/*
 * A law's once-per-RTT steps (an epoch's end, a Quick Adapt window's end)
 * stay out of line, so that the per-ACK path they branch from keeps few
 * registers live and a short prologue.
 */
#ifdef __KERNEL__
#define CORE_SLOWPATH noinline __maybe_unused
#else
#define CORE_SLOWPATH __attribute__((__noinline__, __unused__))
#endif

/*
 * A law's per-ACK entry point, inlined into its caller even where the
 * compiler would keep it out of line, so that the path makes no call and
 * saves no register it need not (Documentation/benchmarks.rst); and the
 * branch hints of that path.
 */
#define CORE_FASTPATH		__always_inline	/* the kernel's, glibc's */
#ifdef __KERNEL__
#define core_likely(x)		likely(x)
#define core_unlikely(x)	unlikely(x)
#else
#define core_likely(x)		__builtin_expect(!!(x), 1)
#define core_unlikely(x)	__builtin_expect(!!(x), 0)
#endif

/* @a / @b for a 32-bit divisor; the caller guarantees @b != 0. */
static inline u64 core_div_u32(u64 a, u32 b)
{
#ifdef __KERNEL__
	return div_u64(a, b);
#else
	return a / b;
#endif
}

/* @a / @b and @a % @b for a 32-bit divisor; @b != 0. */
static inline u64 core_div_u32_rem(u64 a, u32 b, u32 *rem)
{
#ifdef __KERNEL__
	return div_u64_rem(a, b, rem);
#else
	*rem = (u32)(a % b);
	return a / b;
#endif
}

/* @a / @b for a 64-bit divisor; @b != 0. */
static inline u64 core_div_u64(u64 a, u64 b)
{
#ifdef __KERNEL__
	return div64_u64(a, b);
#else
	return a / b;
#endif
}

/*
 * A parameter set's generation (uno_nl.h): its writer stores a value,
 * then the generation with release semantics; reading the generation with
 * acquire semantics orders every later read of the values after it, so a
 * flow that sees a new generation derives from the new values.
 */
static inline u32 core_read_gen(const u32 *gen)
{
#ifdef __KERNEL__
	/* Pairs with the smp_store_release() in uno_nl_param_store(). */
	return smp_load_acquire(gen);
#else
	return __atomic_load_n(gen, __ATOMIC_ACQUIRE);
#endif
}

#endif /* _UNO_CORE_TYPES_H */
