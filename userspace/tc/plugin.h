/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What our tc plugins (q_phantom.c, q_ndt.c) share on top of iproute2's
 * helpers: the rate option, which both qdiscs take as tbf does, and the
 * reading of the attributes and the xstats that the kernel dumps.
 */
#ifndef UNO_TC_PLUGIN_H
#define UNO_TC_PLUGIN_H

#include <string.h>

#include "iproute2.h"

/* "rate RATE" (or a percentage of dev's speed), given once. */
static inline void plugin_get_rate(__u64 *rate, bool *have, const char *arg,
				   const char *dev)
{
	if (*have)
		duparg("rate", arg);
	*have = true;
	if (strchr(arg, '%')) {
		if (get_percent_rate64(rate, arg, dev))
			invarg("invalid rate", arg);
	} else if (get_rate64(rate, arg)) {
		invarg("invalid rate", arg);
	}
}

/* tb[type], if it holds len bytes at least; a shorter one is none. */
static inline const struct rtattr *attr_of(struct rtattr **tb, int type,
					   size_t len)
{
	return tb[type] && RTA_PAYLOAD(tb[type]) >= len ? tb[type] : NULL;
}

/* A u64 rate in bytes/s, as tc prints rates, under the key "rate". */
static inline void print_rate_attr(struct rtattr **tb, int type)
{
	const struct rtattr *a = attr_of(tb, type, sizeof(__u64));

	if (a)
		tc_print_rate(PRINT_ANY, "rate", "rate %s ", rta_getattr_u64(a));
}

/* A u32 of bytes, as tc prints sizes. */
static inline void print_bytes(struct rtattr **tb, int type, const char *key,
			       const char *fmt)
{
	const struct rtattr *a = attr_of(tb, type, sizeof(__u32));

	if (a)
		print_size(PRINT_ANY, key, fmt, rta_getattr_u32(a));
}

/*
 * The qdisc's struct of xstats, len bytes, into st: -1 if the kernel sent
 * fewer (print_xstats then fails, as tc's own plugins do).
 */
static inline int get_xstats(void *st, size_t len, const struct rtattr *xstats)
{
	if (RTA_PAYLOAD(xstats) < len)
		return -1;
	memcpy(st, RTA_DATA(xstats), len);
	return 0;
}

#endif /* UNO_TC_PLUGIN_H */
