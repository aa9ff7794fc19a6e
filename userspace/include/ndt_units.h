/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ndt qdisc's own units, in one place for its tc plugin (q_ndt.c) and
 * for libuno (unoctl, unod), so that a value means the same on a command
 * line and in a file: times in tc's syntax ("10ms", "500us", "1s",
 * "250ns") and nanoseconds on the wire; alpha a fraction ("0.7") or a
 * percentage ("70%") and parts per million on the wire (TCA_NDT_ALPHA,
 * TC_NDT_ONE is 1). Sizes and rates are tc's own, as for phantom
 * (phantom_units.h).
 */
#ifndef _UNO_NDT_UNITS_H
#define _UNO_NDT_UNITS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "uapi/sch_ndt.h"

/* The longest ndt_time_text(): 20 digits, a unit and the NUL. */
#define NDT_TIME_LEN	24

/* A fraction to ppm of TC_NDT_ONE; above 1 is the kernel's call. */
static inline int ndt_fraction_ppm(double v, uint32_t *ppm)
{
	if (!(v >= 0) || v * TC_NDT_ONE + 0.5 >= 0x1p32)
		return -1;
	*ppm = (uint32_t)(v * TC_NDT_ONE + 0.5);
	return 0;
}

/* "0.7" or "70%" to ppm. */
static inline int ndt_alpha_ppm(const char *arg, uint32_t *ppm)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg)
		return -1;
	if (end[0] == '%' && !end[1])
		v /= 100;
	else if (*end)
		return -1;
	return ndt_fraction_ppm(v, ppm);
}

/* ppm as the fraction tc and unoctl print. */
static inline double ndt_alpha_frac(uint32_t ppm)
{
	return ppm / (double)TC_NDT_ONE;
}

/*
 * A time in ns, in the syntax of iproute2's get_time64(): a number and a
 * unit, s, ms, us or ns (or sec, msec, usec, nsec, each also with an s),
 * in any case; a bare number is ns. Unlike get_time64(), a negative time
 * or one past 64 bits is an error, and the result is rounded to the ns
 * ("0.29us" is 290, not 289).
 */
static inline int ndt_time_ns(const char *arg, uint64_t *ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {
		{ "", 1 },	   { "ns", 1 },	     { "nsec", 1 },    { "nsecs", 1 },
		{ "us", 1e3 },	   { "usec", 1e3 },  { "usecs", 1e3 }, { "ms", 1e6 },
		{ "msec", 1e6 },   { "msecs", 1e6 }, { "s", 1e9 },     { "sec", 1e9 },
		{ "secs", 1e9 },
	};
	char *end;
	double t = strtod(arg, &end);
	size_t i;

	if (end == arg || !(t >= 0))
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		double v = t * units[i].ns + 0.5;

		if (strcasecmp(end, units[i].unit))
			continue;
		if (v >= 0x1p64)
			return -1;
		*ns = (uint64_t)v;
		return 0;
	}
	return -1;
}

/*
 * ns as tc's syntax writes it, in the largest unit that keeps it exact
 * ("10us", "1500us", "250ns"), so that it reads back the same.
 */
static inline char *ndt_time_text(uint64_t ns, char *buf, size_t len)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = { { "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 } };
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (ns && ns % units[i].ns == 0) {
			snprintf(buf, len, "%llu%s",
				 (unsigned long long)(ns / units[i].ns),
				 units[i].unit);
			return buf;
		}
	snprintf(buf, len, "%lluns", (unsigned long long)ns);
	return buf;
}

#endif /* _UNO_NDT_UNITS_H */
