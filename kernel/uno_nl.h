/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uno_nl: the run-time parameters of our congestion controls, served by
 * module parameters and by a generic netlink family per CC module
 * (uapi/uno_nl.h), both with one range check: uno_nl_impl.h, which the
 * CC's module includes.
 *
 * A CC describes each parameter once, in a list of
 * TCP_FOO_PARAM(name, description, storage, min, max, apply) lines
 * (tcp_foo_params.h), and includes it, as <linux/bpf_types.h> is, once for
 * its table and once each for the module parameters and their
 * descriptions:
 *
 *	static struct uno_nl_param tcp_foo_params[] = {
 *	#define TCP_FOO_PARAM UNO_NL_PARAM
 *	#include "tcp_foo_params.h"
 *	#undef TCP_FOO_PARAM
 *	};
 *	static struct uno_nl_cc tcp_foo_nl = { ... };
 *
 *	#define TCP_FOO_PARAM(...) UNO_NL_MODULE_PARAM(tcp_foo_nl, __VA_ARGS__);
 *	#include "tcp_foo_params.h"
 *	#undef TCP_FOO_PARAM
 *	#define TCP_FOO_PARAM(...) UNO_NL_PARM_DESC(__VA_ARGS__);
 *	...
 *
 * It includes uno_nl_impl.h before the module parameters (they use its
 * ops), and registers its tcp_congestion_ops and the family together with
 * uno_nl_register_cc() from module_init, uno_nl_unregister_cc() from
 * module_exit. sysfs and netlink writes both go through
 * uno_nl_param_store(), so they accept the same values.
 *
 * A CC whose flows cache values derived from its parameters points
 * uno_nl_cc.gen at a counter in its parameters: every store bumps it
 * (release) after the value, so a flow that reads a new generation
 * (smp_load_acquire()) then reads the new values, and recomputes.
 */
#ifndef _UNO_NL_H
#define _UNO_NL_H

#include <linux/moduleparam.h>
#include <linux/stringify.h>
#include <linux/types.h>
#include <net/netlink.h>

#include "uapi/uno_nl.h"

struct uno_nl_param {
	const char *name;
	const char *desc;
	u32 *val;
	struct nla_policy policy;	/* NLA_U32 and the values accepted */
	u8 apply;			/* UNO_APPLY_* */
};

struct uno_nl_cc {
	const char *name;		/* the tcp_congestion_ops name */
	struct uno_nl_param *params;
	unsigned int n_params;
	u32 *gen;			/* bumped by every store, or NULL */
	/*
	 * Or NULL: would the parameters be usable with *slot = v? For
	 * values that must agree with each other; a store it refuses
	 * fails with -EINVAL and changes nothing.
	 */
	bool (*valid)(const u32 *slot, u32 v);
};

/*
 * An entry of a CC's table; modinfo and netlink show the range too. The
 * range is a netlink policy, which an extack can carry back.
 */
#define UNO_NL_PARAM(_name, _desc, _val, _min, _max, _apply)		\
	{								\
		.name = #_name,						\
		.desc = _desc " [" __stringify(_min) ".." __stringify(_max) "]", \
		.val = &(_val),						\
		.policy = NLA_POLICY_FULL_RANGE(NLA_U32,		\
			(&(struct netlink_range_validation){ _min, _max })), \
		.apply = _apply,					\
	},

/* The module parameter of the table entry _name of CC _cc. */
#define UNO_NL_MODULE_PARAM(_cc, _name, ...)				\
	module_param_cb(_name, &uno_nl_param_ops, &(_cc), 0644)

/* Its description, as UNO_NL_PARAM's. */
#define UNO_NL_PARM_DESC(_name, _desc, _val, _min, _max, _apply)	\
	MODULE_PARM_DESC(_name, _desc " [" __stringify(_min) ".." __stringify(_max) "]")

#endif /* _UNO_NL_H */
