/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The phantom qdisc's own unit, in one place for its tc plugin
 * (q_phantom.c) and for libuno (unoctl, unod): phantom-rate is a
 * percentage of rate on a command line and in a file, and parts per
 * million of it on the wire (TCA_PHANTOM_PQ_RATE, TC_PHANTOM_ONE = 100 %).
 * Sizes and rates are tc's own: the plugin parses them with iproute2's
 * get_size() and get_rate64(), which libuno's parse_size() and
 * parse_rate() follow.
 */
#ifndef _UNO_PHANTOM_UNITS_H
#define _UNO_PHANTOM_UNITS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uapi/sch_phantom.h"

/* "90%" or "2.5%" to ppm of rate; above 100 % is the kernel's call. */
static inline int phantom_rate_ppm(const char *arg, uint32_t *ppm)
{
	const double per_pct = TC_PHANTOM_ONE / 100.0;
	char *end;
	double pct = strtod(arg, &end);

	if (end == arg || strcmp(end, "%") || !(pct >= 0) ||
	    pct * per_pct > (double)UINT32_MAX)
		return -1;
	*ppm = (uint32_t)(pct * per_pct + 0.5);
	return 0;
}

/* ppm of rate in percent, as tc and unoctl print it. */
static inline double phantom_rate_pct(uint32_t ppm)
{
	return ppm / (TC_PHANTOM_ONE / 100.0);
}

#endif /* _UNO_PHANTOM_UNITS_H */
