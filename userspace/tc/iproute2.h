/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of iproute2 6.1's tc plugin interface that our plugins,
 * q_phantom.so and q_ndt.so, use.
 *
 * tc loads q_<kind>.so with dlopen() from $TC_LIB_DIR or its LIBDIR
 * (/usr/lib/x86_64-linux-gnu/tc on Debian) and looks up the symbol
 * <kind>_qdisc_util; the plugin calls back into helpers that the tc binary
 * exports (nm -D /usr/sbin/tc). Debian ships no iproute2 development
 * package, so the declarations below are copied by hand from the iproute2
 * v6.1.0 sources: struct qdisc_util from tc/tc_util.h, enum output_type and
 * the print_color_*() functions from include/json_print.h, enum color_attr
 * from include/color.h, the parsers from include/utils.h and tc/tc_util.h,
 * the attribute helpers from include/libnetlink.h. They are an ABI: the
 * layout of struct qdisc_util and every prototype must match the tc binary,
 * so only add what that binary exports, and check it against the iproute2
 * release it comes from. The static inline helpers are ours (in iproute2
 * they are inline too, so they are not part of the ABI).
 */
#ifndef UNO_IPROUTE2_H
#define UNO_IPROUTE2_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/* tc/tc_util.h */
struct qdisc_util {
	struct qdisc_util *next;
	const char *id;
	int (*parse_qopt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_qopt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*print_xstats)(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats);
	int (*parse_copt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_copt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*has_block)(struct qdisc_util *qu, struct rtattr *opt,
			 __u32 block_idx, bool *p_has);
};

int get_percent_rate64(__u64 *rate, const char *str, const char *dev);

/* include/utils.h */
void incomplete_command(void) __attribute__((noreturn));
void invarg(const char *msg, const char *arg) __attribute__((noreturn));
void duparg(const char *key, const char *arg) __attribute__((noreturn));
bool matches(const char *prefix, const char *string);
int get_u8(__u8 *val, const char *arg, int base);
int get_u32(__u32 *val, const char *arg, int base);
int get_rate64(__u64 *rate, const char *str);	/* bytes per second */
int get_size(unsigned int *size, const char *str);	/* bytes */

#define NEXT_ARG() do { argv++; if (--argc <= 0) incomplete_command(); } while (0)

/* include/libnetlink.h */
int addattr8(struct nlmsghdr *n, int maxlen, int type, __u8 data);
int addattr32(struct nlmsghdr *n, int maxlen, int type, __u32 data);
int addattr64(struct nlmsghdr *n, int maxlen, int type, __u64 data);
struct rtattr *addattr_nest(struct nlmsghdr *n, int maxlen, int type);
int addattr_nest_end(struct nlmsghdr *n, struct rtattr *nest);
int parse_rtattr(struct rtattr *tb[], int max, struct rtattr *rta, int len);

/* include/color.h */
enum color_attr {
	COLOR_IFNAME,
	COLOR_MAC,
	COLOR_INET,
	COLOR_INET6,
	COLOR_OPERSTATE_UP,
	COLOR_OPERSTATE_DOWN,
	COLOR_NONE
};

/* include/json_print.h */
enum output_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = 4,
};

void print_nl(void);
int print_color_string(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, const char *value);
int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int value);
int print_color_lluint(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt,
		       unsigned long long value);
int print_color_float(enum output_type t, enum color_attr color,
		      const char *key, const char *fmt, double value);
int print_color_size(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, __u32 value);

/* tc/tc_util.h: a rate in bytes/s, printed in bit/s (or IEC units). */
void tc_print_rate(enum output_type t, const char *key, const char *fmt,
		   unsigned long long rate);

/* Our own inline helpers, after their iproute2 namesakes. */
static inline void print_string(enum output_type t, const char *key,
				const char *fmt, const char *value)
{
	print_color_string(t, COLOR_NONE, key, fmt, value);
}

static inline void print_uint(enum output_type t, const char *key,
			      const char *fmt, unsigned int value)
{
	print_color_uint(t, COLOR_NONE, key, fmt, value);
}

static inline void print_lluint(enum output_type t, const char *key,
				const char *fmt, unsigned long long value)
{
	print_color_lluint(t, COLOR_NONE, key, fmt, value);
}

static inline void print_float(enum output_type t, const char *key,
			       const char *fmt, double value)
{
	print_color_float(t, COLOR_NONE, key, fmt, value);
}

static inline void print_size(enum output_type t, const char *key,
			      const char *fmt, __u32 value)
{
	print_color_size(t, COLOR_NONE, key, fmt, value);
}

#define parse_rtattr_nested(tb, max, rta) \
	parse_rtattr((tb), (max), RTA_DATA(rta), RTA_PAYLOAD(rta))

static inline __u8 rta_getattr_u8(const struct rtattr *rta)
{
	return *(const __u8 *)RTA_DATA(rta);
}

static inline __u32 rta_getattr_u32(const struct rtattr *rta)
{
	__u32 v;

	memcpy(&v, RTA_DATA(rta), sizeof(v));
	return v;
}

static inline __u64 rta_getattr_u64(const struct rtattr *rta)
{
	__u64 v;

	memcpy(&v, RTA_DATA(rta), sizeof(v));
	return v;
}

#endif /* UNO_IPROUTE2_H */
