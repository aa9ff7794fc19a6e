// SPDX-License-Identifier: GPL-2.0
/*
 * q_phantom.c	tc plugin of the phantom qdisc (kernel/sch_phantom.c).
 *
 * Built as q_phantom.so and loaded by iproute2's tc from $TC_LIB_DIR or its
 * library directory. It turns the command line into TCA_PHANTOM_*
 * attributes and prints them, and the statistics, back. It checks syntax
 * only: ranges and consistency are the kernel's to check, and its extack
 * message is what tc prints.
 */

#include <stdlib.h>
#include <string.h>

#include "phantom_units.h"
#include "plugin.h"
#include "uapi/sch_phantom.h"

#define PHANTOM_MAXLEN	1024

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... phantom rate RATE [ limit BYTES ]\n"
		"		[ ecn-min BYTES ] [ ecn-max BYTES ]\n"
		"		[ phantom-rate PERCENT%% ] [ phantom-size BYTES ]\n"
		"		[ phantom-min BYTES ] [ phantom-max BYTES ]\n"
		"		[ trim off|BYTES ] [ trim-dscp DSCP ] [ trim-limit BYTES ]\n"
		"		[ trim-udp stale|valid ] [ burst BYTES ] [ int on|off ]\n"
		"		[ xoff BYTES ]\n"
		"rate is the shaping rate, burst the bytes it may send back to back\n"
		"(as tbf's burst), phantom-rate the phantom queue's drain rate in\n"
		"percent of rate. ecn-* mark over the real backlog, phantom-* over\n"
		"the phantom occupancy, as red's min and max. trim-udp valid fixes a\n"
		"trimmed UDP datagram's length and checksum, so that sockets read it.\n"
		"int on pushes the port's MLCC INT record into each TCP segment that\n"
		"carries the MLCC data option, at dequeue. xoff counts the pauses a\n"
		"lossless port would send when its backlog rises above BYTES\n"
		"(virtual PFC).\n");
}

static void get_bytes(__u32 *val, bool *have, const char *key, const char *arg)
{
	if (*have)
		duparg(key, arg);
	*have = true;
	if (get_size(val, arg))
		invarg("invalid size", arg);
}

static int phantom_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			     struct nlmsghdr *n, const char *dev)
{
	bool have_rate = false, have_limit = false, have_pq_rate = false;
	bool have_pq_size = false, have_trim = false, have_dscp = false;
	bool have_trim_limit = false, have_burst = false, have_valid = false;
	bool have_int = false, have_xoff = false;
	bool have_ecn_min = false, have_ecn_max = false;
	bool have_pq_min = false, have_pq_max = false;
	__u32 limit = 0, pq_rate = 0, pq_size = 0, trim = 0, trim_limit = 0;
	__u32 ecn_min = 0, ecn_max = 0, pq_min = 0, pq_max = 0;
	__u32 burst = 0, xoff = 0;
	struct rtattr *tail;
	__u64 rate = 0;
	__u8 dscp = 0, valid = 0, int_stamp = 0;

	(void)qu;
	while (argc > 0) {
		if (strcmp(*argv, "rate") == 0) {
			NEXT_ARG();
			plugin_get_rate(&rate, &have_rate, *argv, dev);
		} else if (strcmp(*argv, "limit") == 0) {
			NEXT_ARG();
			get_bytes(&limit, &have_limit, "limit", *argv);
		} else if (strcmp(*argv, "ecn-min") == 0) {
			NEXT_ARG();
			get_bytes(&ecn_min, &have_ecn_min, "ecn-min", *argv);
		} else if (strcmp(*argv, "ecn-max") == 0) {
			NEXT_ARG();
			get_bytes(&ecn_max, &have_ecn_max, "ecn-max", *argv);
		} else if (strcmp(*argv, "phantom-rate") == 0) {
			NEXT_ARG();
			if (have_pq_rate)
				duparg("phantom-rate", *argv);
			have_pq_rate = true;
			if (phantom_rate_ppm(*argv, &pq_rate))
				invarg("invalid percentage", *argv);
		} else if (strcmp(*argv, "phantom-size") == 0) {
			NEXT_ARG();
			get_bytes(&pq_size, &have_pq_size, "phantom-size", *argv);
		} else if (strcmp(*argv, "phantom-min") == 0) {
			NEXT_ARG();
			get_bytes(&pq_min, &have_pq_min, "phantom-min", *argv);
		} else if (strcmp(*argv, "phantom-max") == 0) {
			NEXT_ARG();
			get_bytes(&pq_max, &have_pq_max, "phantom-max", *argv);
		} else if (strcmp(*argv, "trim") == 0) {
			NEXT_ARG();
			if (strcmp(*argv, "off") == 0) {
				if (have_trim)
					duparg("trim", *argv);
				have_trim = true;
				trim = 0;
			} else {
				get_bytes(&trim, &have_trim, "trim", *argv);
			}
		} else if (strcmp(*argv, "trim-dscp") == 0) {
			NEXT_ARG();
			if (have_dscp)
				duparg("trim-dscp", *argv);
			have_dscp = true;
			if (get_u8(&dscp, *argv, 0))
				invarg("invalid DSCP", *argv);
		} else if (strcmp(*argv, "trim-limit") == 0) {
			NEXT_ARG();
			get_bytes(&trim_limit, &have_trim_limit, "trim-limit",
				  *argv);
		} else if (strcmp(*argv, "trim-udp") == 0) {
			NEXT_ARG();
			if (have_valid)
				duparg("trim-udp", *argv);
			have_valid = true;
			if (strcmp(*argv, "valid") == 0)
				valid = 1;
			else if (strcmp(*argv, "stale") != 0)
				invarg("not stale or valid", *argv);
		} else if (strcmp(*argv, "burst") == 0) {
			NEXT_ARG();
			get_bytes(&burst, &have_burst, "burst", *argv);
		} else if (strcmp(*argv, "xoff") == 0) {
			NEXT_ARG();
			get_bytes(&xoff, &have_xoff, "xoff", *argv);
		} else if (strcmp(*argv, "int") == 0) {
			NEXT_ARG();
			if (have_int)
				duparg("int", *argv);
			have_int = true;
			if (strcmp(*argv, "on") == 0)
				int_stamp = 1;
			else if (strcmp(*argv, "off") != 0)
				invarg("not on or off", *argv);
		} else if (strcmp(*argv, "help") == 0) {
			explain();
			return -1;
		} else {
			fprintf(stderr, "phantom: unknown parameter \"%s\"\n",
				*argv);
			explain();
			return -1;
		}
		argc--;
		argv++;
	}

	tail = addattr_nest(n, PHANTOM_MAXLEN, TCA_OPTIONS | NLA_F_NESTED);
	if ((have_rate &&
	     addattr64(n, PHANTOM_MAXLEN, TCA_PHANTOM_RATE, rate)) ||
	    (have_limit &&
	     addattr32(n, PHANTOM_MAXLEN, TCA_PHANTOM_LIMIT, limit)) ||
	    (have_ecn_min &&
	     addattr32(n, PHANTOM_MAXLEN, TCA_PHANTOM_ECN_MIN, ecn_min)) ||
	    (have_ecn_max &&
	     addattr32(n, PHANTOM_MAXLEN, TCA_PHANTOM_ECN_MAX, ecn_max)) ||
	    (have_pq_rate &&
	     addattr32(n, PHANTOM_MAXLEN, TCA_PHANTOM_PQ_RATE, pq_rate)) ||
	    (have_pq_size &&
	     addattr32(n, PHANTOM_MAXLEN, TCA_PHANTOM_PQ_SIZE, pq_size)) ||
	    (have_pq_min &&
	     addattr32(n, PHANTOM_MAXLEN, TCA_PHANTOM_PQ_MIN, pq_min)) ||
	    (have_pq_max &&
	     addattr32(n, PHANTOM_MAXLEN, TCA_PHANTOM_PQ_MAX, pq_max)) ||
	    (have_trim &&
	     addattr32(n, PHANTOM_MAXLEN, TCA_PHANTOM_TRIM, trim)) ||
	    (have_dscp &&
	     addattr8(n, PHANTOM_MAXLEN, TCA_PHANTOM_TRIM_DSCP, dscp)) ||
	    (have_trim_limit &&
	     addattr32(n, PHANTOM_MAXLEN, TCA_PHANTOM_TRIM_LIMIT, trim_limit)) ||
	    (have_burst &&
	     addattr32(n, PHANTOM_MAXLEN, TCA_PHANTOM_BURST, burst)) ||
	    (have_valid &&
	     addattr8(n, PHANTOM_MAXLEN, TCA_PHANTOM_TRIM_VALID, valid)) ||
	    (have_int &&
	     addattr8(n, PHANTOM_MAXLEN, TCA_PHANTOM_INT, int_stamp)) ||
	    (have_xoff &&
	     addattr32(n, PHANTOM_MAXLEN, TCA_PHANTOM_XOFF, xoff)))
		return -1;
	addattr_nest_end(n, tail);
	return 0;
}

/* A fraction, printed in percent (JSON: a number, in percent too). */
static void print_ppm(struct rtattr **tb, int type, const char *key,
		      const char *fmt)
{
	const struct rtattr *a = attr_of(tb, type, sizeof(__u32));

	if (a)
		print_float(PRINT_ANY, key, fmt,
			    phantom_rate_pct(rta_getattr_u32(a)));
}

static int phantom_print_opt(struct qdisc_util *qu, FILE *f,
			     struct rtattr *opt)
{
	struct rtattr *tb[TCA_PHANTOM_MAX + 1];
	const struct rtattr *a;

	(void)qu;
	(void)f;
	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_PHANTOM_MAX, opt);

	print_rate_attr(tb, TCA_PHANTOM_RATE);
	print_bytes(tb, TCA_PHANTOM_LIMIT, "limit", "limit %s ");
	print_bytes(tb, TCA_PHANTOM_ECN_MIN, "ecn_min", "ecn-min %s ");
	print_bytes(tb, TCA_PHANTOM_ECN_MAX, "ecn_max", "ecn-max %s ");
	print_ppm(tb, TCA_PHANTOM_PQ_RATE, "phantom_rate", "phantom-rate %g%% ");
	print_bytes(tb, TCA_PHANTOM_PQ_SIZE, "phantom_size", "phantom-size %s ");
	print_bytes(tb, TCA_PHANTOM_PQ_MIN, "phantom_min", "phantom-min %s ");
	print_bytes(tb, TCA_PHANTOM_PQ_MAX, "phantom_max", "phantom-max %s ");

	a = attr_of(tb, TCA_PHANTOM_TRIM, sizeof(__u32));
	if (a) {
		__u32 trim = rta_getattr_u32(a);

		print_uint(PRINT_JSON, "trim", NULL, trim);
		if (trim)
			print_uint(PRINT_FP, NULL, "trim %u ", trim);
		else
			print_string(PRINT_FP, NULL, "trim %s ", "off");
	}
	a = attr_of(tb, TCA_PHANTOM_TRIM_DSCP, sizeof(__u8));
	if (a) {
		print_uint(PRINT_JSON, "trim_dscp", NULL, rta_getattr_u8(a));
		print_uint(PRINT_FP, NULL, "trim-dscp %#x ", rta_getattr_u8(a));
	}
	print_bytes(tb, TCA_PHANTOM_TRIM_LIMIT, "trim_limit", "trim-limit %s ");
	a = attr_of(tb, TCA_PHANTOM_TRIM_VALID, sizeof(__u8));
	if (a)
		print_string(PRINT_ANY, "trim_udp", "trim-udp %s ",
			     rta_getattr_u8(a) ? "valid" : "stale");
	print_bytes(tb, TCA_PHANTOM_BURST, "burst", "burst %s ");
	a = attr_of(tb, TCA_PHANTOM_INT, sizeof(__u8));
	if (a) {
		print_string(PRINT_JSON, "int", NULL,
			     rta_getattr_u8(a) ? "on" : "off");
		if (rta_getattr_u8(a))
			print_string(PRINT_FP, NULL, "int %s ", "on");
	}
	a = attr_of(tb, TCA_PHANTOM_XOFF, sizeof(__u32));
	if (a) {	/* 0, off, in JSON only */
		print_uint(PRINT_JSON, "xoff", NULL, rta_getattr_u32(a));
		if (rta_getattr_u32(a))
			print_size(PRINT_FP, NULL, "xoff %s ", rta_getattr_u32(a));
	}
	return 0;
}

static int phantom_print_xstats(struct qdisc_util *qu, FILE *f,
				struct rtattr *xstats)
{
	struct tc_phantom_xstats st;

	(void)qu;
	(void)f;
	if (!xstats)
		return 0;
	if (get_xstats(&st, sizeof(st), xstats))
		return -1;

	print_lluint(PRINT_ANY, "ce_marks", "  ce-marks %llu", st.ce_marks);
	print_lluint(PRINT_ANY, "phantom_marks", " phantom-marks %llu",
		     st.phantom_marks);
	print_lluint(PRINT_ANY, "trimmed", " trimmed %llu", st.trimmed);
	print_lluint(PRINT_ANY, "trim_drops", " trim-drops %llu",
		     st.trim_drops);
	print_lluint(PRINT_ANY, "tail_drops", " tail-drops %llu",
		     st.tail_drops);
	print_lluint(PRINT_ANY, "stall_ns", " stall-ns %llu", st.stall_ns);
	print_lluint(PRINT_ANY, "idle_ns", " idle-ns %llu", st.idle_ns);
	print_lluint(PRINT_ANY, "empty_ns", " empty-ns %llu", st.empty_ns);
	print_nl();
	print_size(PRINT_ANY, "max_backlog", "  max-backlog %s",
		   st.max_backlog);
	print_size(PRINT_ANY, "phantom_backlog", " phantom-backlog %s",
		   st.phantom_backlog);
	print_size(PRINT_ANY, "phantom_max_backlog", " phantom-max-backlog %s",
		   st.phantom_max_backlog);
	print_size(PRINT_ANY, "trim_backlog", " trim-backlog %s",
		   st.trim_backlog);
	print_lluint(PRINT_ANY, "int_stamped", " int-stamped %llu",
		     st.int_stamped);
	print_lluint(PRINT_ANY, "int_full", " int-full %llu", st.int_full);
	print_lluint(PRINT_ANY, "xoff_events", " xoff-events %llu",
		     st.xoff_events);
	return 0;
}

struct qdisc_util phantom_qdisc_util = {
	.id		= "phantom",
	.parse_qopt	= phantom_parse_opt,
	.print_qopt	= phantom_print_opt,
	.print_xstats	= phantom_print_xstats,
};
