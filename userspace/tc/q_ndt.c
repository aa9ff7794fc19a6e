// SPDX-License-Identifier: GPL-2.0
/*
 * q_ndt.c	tc plugin of the ndt qdisc (kernel/sch_ndt.c): Reflex's
 *		Near-Destination Throttling on a destination gateway's port.
 *
 * Built as q_ndt.so beside q_phantom.so and loaded the same way. It turns
 * the command line into TCA_NDT_* attributes and prints them, and the
 * statistics, back in the same syntax. It checks syntax only: ranges and
 * consistency (idle-gc >= active, ...) are the kernel's to check, and its
 * extack message is what tc prints.
 */

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "ndt_units.h"
#include "plugin.h"
#include "uapi/sch_ndt.h"

#define NDT_MAXLEN	1024

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... ndt rate RATE [ limit BYTES ] [ burst BYTES ]\n"
		"		[ dst-thresh TIME ] [ alpha FRACTION ] [ n-throttle N ]\n"
		"		[ maxpause TIME ] [ rearm TIME ] [ active TIME ]\n"
		"		[ idle-gc TIME ] [ flows N ]\n"
		"rate is the port's rate, limit the bytes both queues hold, burst\n"
		"the bytes it may send back to back (as tbf's burst). A flow whose\n"
		"RTT_dst exceeds dst-thresh is congested; with more than alpha\n"
		"(\"0.7\" or \"70%%\") of the active flows congested, the Controlled\n"
		"queue pauses, for maxpause at most, and not again for rearm after\n"
		"a pause that timed out. Both queues backlogged, it sends 1 packet\n"
		"of the Controlled queue per n-throttle of the Normal one. A flow\n"
		"idle for active is not active, for idle-gc is forgotten; flows is\n"
		"the most tracked at once. TIME: 250ns, 10us, 1.5ms, 1s.\n");
}

/* How an option's value is written, and sent. */
enum ndt_unit { NDT_BYTES, NDT_COUNT, NDT_TIME, NDT_ALPHA };

static const char *const ndt_invalid[] = {
	[NDT_BYTES] = "invalid size",
	[NDT_COUNT] = "invalid number",
	[NDT_TIME] = "invalid time",
	[NDT_ALPHA] = "invalid fraction",
};

/* An option but rate: its attribute, its unit, and the value if given. */
struct ndt_opt {
	const char *key;
	int type;
	enum ndt_unit unit;
	bool have;
	__u64 val;
};

#define NDT_OPT(k, t, u)	{ .key = (k), .type = (t), .unit = (u) }

static int parse_val(struct ndt_opt *o, const char *arg)
{
	unsigned int size;
	uint32_t u32;
	uint64_t ns;

	switch (o->unit) {
	case NDT_BYTES:
		if (get_size(&size, arg))
			return -1;
		o->val = size;
		return 0;
	case NDT_COUNT:
		if (get_u32(&u32, arg, 0))
			return -1;
		o->val = u32;
		return 0;
	case NDT_TIME:
		if (ndt_time_ns(arg, &ns))
			return -1;
		o->val = ns;
		return 0;
	case NDT_ALPHA:
		if (ndt_alpha_ppm(arg, &u32))
			return -1;
		o->val = u32;
		return 0;
	}
	return -1;
}

static struct ndt_opt *find_opt(struct ndt_opt *opts, size_t n,
				const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(key, opts[i].key) == 0)
			return &opts[i];
	return NULL;
}

static int put_opt(struct nlmsghdr *n, const struct ndt_opt *o)
{
	if (!o->have)
		return 0;
	/* The times are the uapi's u64s; every other option is a u32. */
	if (o->unit == NDT_TIME)
		return addattr64(n, NDT_MAXLEN, o->type, o->val);
	return addattr32(n, NDT_MAXLEN, o->type, (__u32)o->val);
}

static int ndt_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			 struct nlmsghdr *n, const char *dev)
{
	struct ndt_opt opts[] = {
		NDT_OPT("limit", TCA_NDT_LIMIT, NDT_BYTES),
		NDT_OPT("burst", TCA_NDT_BURST, NDT_BYTES),
		NDT_OPT("dst-thresh", TCA_NDT_DST_THRESH, NDT_TIME),
		NDT_OPT("alpha", TCA_NDT_ALPHA, NDT_ALPHA),
		NDT_OPT("n-throttle", TCA_NDT_N_THROTTLE, NDT_COUNT),
		NDT_OPT("maxpause", TCA_NDT_MAXPAUSE, NDT_TIME),
		NDT_OPT("rearm", TCA_NDT_REARM, NDT_TIME),
		NDT_OPT("active", TCA_NDT_ACTIVE, NDT_TIME),
		NDT_OPT("idle-gc", TCA_NDT_IDLE_GC, NDT_TIME),
		NDT_OPT("flows", TCA_NDT_FLOWS, NDT_COUNT),
	};
	const size_t nopts = sizeof(opts) / sizeof(opts[0]);
	bool have_rate = false;
	struct rtattr *tail;
	struct ndt_opt *o;
	__u64 rate = 0;
	size_t i;

	(void)qu;
	while (argc > 0) {
		o = find_opt(opts, nopts, *argv);
		if (o) {
			NEXT_ARG();
			if (o->have)
				duparg(o->key, *argv);
			o->have = true;
			if (parse_val(o, *argv))
				invarg(ndt_invalid[o->unit], *argv);
		} else if (strcmp(*argv, "rate") == 0) {
			NEXT_ARG();
			plugin_get_rate(&rate, &have_rate, *argv, dev);
		} else if (strcmp(*argv, "help") == 0) {
			explain();
			return -1;
		} else {
			fprintf(stderr, "ndt: unknown parameter \"%s\"\n", *argv);
			explain();
			return -1;
		}
		argc--;
		argv++;
	}

	tail = addattr_nest(n, NDT_MAXLEN, TCA_OPTIONS | NLA_F_NESTED);
	if (have_rate && addattr64(n, NDT_MAXLEN, TCA_NDT_RATE, rate))
		return -1;
	for (i = 0; i < nopts; i++)
		if (put_opt(n, &opts[i]))
			return -1;
	addattr_nest_end(n, tail);
	return 0;
}

static void print_count(struct rtattr **tb, int type, const char *key,
			const char *fmt)
{
	const struct rtattr *a = attr_of(tb, type, sizeof(__u32));

	if (a)
		print_uint(PRINT_ANY, key, fmt, rta_getattr_u32(a));
}

/* A time, in ns in JSON (as the wire), in tc's syntax on the terminal. */
static void print_time(struct rtattr **tb, int type, const char *key,
		       const char *fmt)
{
	const struct rtattr *a = attr_of(tb, type, sizeof(__u64));
	char buf[NDT_TIME_LEN];

	if (!a)
		return;
	print_lluint(PRINT_JSON, key, NULL, rta_getattr_u64(a));
	print_string(PRINT_FP, NULL, fmt,
		     ndt_time_text(rta_getattr_u64(a), buf, sizeof(buf)));
}

static int ndt_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_NDT_MAX + 1];
	const struct rtattr *a;

	(void)qu;
	(void)f;
	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_NDT_MAX, opt);

	print_rate_attr(tb, TCA_NDT_RATE);
	print_bytes(tb, TCA_NDT_LIMIT, "limit", "limit %s ");
	print_bytes(tb, TCA_NDT_BURST, "burst", "burst %s ");
	print_time(tb, TCA_NDT_DST_THRESH, "dst_thresh", "dst-thresh %s ");
	/* A fraction, as it is given (JSON: a number, a fraction too). */
	a = attr_of(tb, TCA_NDT_ALPHA, sizeof(__u32));
	if (a)
		print_float(PRINT_ANY, "alpha", "alpha %g ",
			    ndt_alpha_frac(rta_getattr_u32(a)));
	print_count(tb, TCA_NDT_N_THROTTLE, "n_throttle", "n-throttle %u ");
	print_time(tb, TCA_NDT_MAXPAUSE, "maxpause", "maxpause %s ");
	print_time(tb, TCA_NDT_REARM, "rearm", "rearm %s ");
	print_time(tb, TCA_NDT_ACTIVE, "active", "active %s ");
	print_time(tb, TCA_NDT_IDLE_GC, "idle_gc", "idle-gc %s ");
	print_count(tb, TCA_NDT_FLOWS, "flows", "flows %u ");
	return 0;
}

/* A class of the qdisc's class dump: one tracked flow. */
static void ndt_print_flow(const struct tc_ndt_flow_xstats *fl)
{
	char src[INET_ADDRSTRLEN], dst[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &fl->saddr, src, sizeof(src));
	inet_ntop(AF_INET, &fl->daddr, dst, sizeof(dst));
	print_string(PRINT_ANY, "src", "  flow %s", src);
	print_uint(PRINT_ANY, "sport", ":%u", ntohs(fl->sport));
	print_string(PRINT_ANY, "dst", " > %s", dst);
	print_uint(PRINT_ANY, "dport", ":%u", ntohs(fl->dport));
	print_string(PRINT_ANY, "status", " %s",
		     fl->status == TC_NDT_CONGESTED ? "congested" : "normal");
	print_uint(PRINT_ANY, "active", " active %u", fl->active);
	print_uint(PRINT_ANY, "closed", " closed %u", fl->closed);
	print_nl();
	print_uint(PRINT_ANY, "normal_pkts", "  normal-pkts %u", fl->normal_pkts);
	print_uint(PRINT_ANY, "ctl_pkts", " ctl-pkts %u", fl->ctl_pkts);
	print_uint(PRINT_ANY, "rtt_dst_last_ns", " rtt-dst-last-ns %u",
		   fl->rtt_dst_last_ns);
	print_lluint(PRINT_ANY, "idle_ns", " idle-ns %llu", fl->idle_ns);
}

static int ndt_print_xstats(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats)
{
	struct tc_ndt_flow_xstats fl;
	struct tc_ndt_xstats st;

	(void)qu;
	(void)f;
	if (!xstats)
		return 0;
	if (RTA_PAYLOAD(xstats) == sizeof(fl)) {
		memcpy(&fl, RTA_DATA(xstats), sizeof(fl));
		ndt_print_flow(&fl);
		return 0;
	}
	if (get_xstats(&st, sizeof(st), xstats))
		return -1;

	print_uint(PRINT_ANY, "flows", "  flows %u", st.flows);
	print_uint(PRINT_ANY, "active", " active %u", st.active);
	print_uint(PRINT_ANY, "congested", " congested %u", st.congested);
	print_uint(PRINT_ANY, "paused", " paused %u", st.paused);
	print_uint(PRINT_ANY, "normal_qlen", " normal-qlen %u",
		   st.normal_qlen);
	print_uint(PRINT_ANY, "ctl_qlen", " ctl-qlen %u", st.ctl_qlen);
	print_size(PRINT_ANY, "max_backlog", " max-backlog %s",
		   st.max_backlog);
	print_uint(PRINT_ANY, "rtt_dst_last_ns", " rtt-dst-last-ns %u",
		   st.rtt_dst_last_ns);
	print_nl();
	print_lluint(PRINT_ANY, "ctl_enqueued", "  ctl-enqueued %llu",
		     st.ctl_enqueued);
	print_lluint(PRINT_ANY, "pauses", " pauses %llu", st.pauses);
	print_lluint(PRINT_ANY, "pause_timeouts", " pause-timeouts %llu",
		     st.pause_timeouts);
	print_lluint(PRINT_ANY, "samples", " samples %llu", st.samples);
	print_lluint(PRINT_ANY, "flows_full", " flows-full %llu",
		     st.flows_full);
	print_lluint(PRINT_ANY, "tail_drops", " tail-drops %llu",
		     st.tail_drops);
	print_lluint(PRINT_ANY, "paused_ns", " paused-ns %llu", st.paused_ns);
	print_nl();
	print_lluint(PRINT_ANY, "normal_bytes", "  normal-bytes %llu",
		     st.normal_bytes);
	print_lluint(PRINT_ANY, "ctl_bytes", " ctl-bytes %llu", st.ctl_bytes);
	return 0;
}

struct qdisc_util ndt_qdisc_util = {
	.id		= "ndt",
	.parse_qopt	= ndt_parse_opt,
	.print_qopt	= ndt_print_opt,
	.print_xstats	= ndt_print_xstats,
};
