/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uno_nl: the run-time parameters of our congestion controls, served by the
 * "uno" generic netlink family (uapi/uno_nl.h) and by module parameters.
 *
 * A CC describes each parameter once, in a list macro expanded with
 * UNO_NL_DEFINE_PARAM (a struct uno_nl_param and the module parameter that
 * points to it) and with UNO_NL_PARAM_REF (the table it registers):
 *
 *	#define TCP_FOO_PARAMS(P)					\
 *		P(gain, foo_params.gain, 1, 100, UNO_APPLY_ACK, "gain, %")
 *	TCP_FOO_PARAMS(UNO_NL_DEFINE_PARAM)
 *	static struct uno_nl_param *tcp_foo_params[] = {
 *		TCP_FOO_PARAMS(UNO_NL_PARAM_REF)
 *	};
 *
 * and registers the table from module_init, unregisters it from
 * module_exit. sysfs and netlink writes both go through
 * uno_nl_param_store(), so they accept the same values.
 *
 * A CC whose flows cache values derived from its parameters points
 * uno_nl_cc.gen at a counter in its parameters: every store bumps it
 * (release) after the value, so a flow that reads a new generation
 * (core_read_gen(), acquire) then reads the new values, and recomputes.
 */
#ifndef _UNO_NL_H
#define _UNO_NL_H

#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/stringify.h>
#include <linux/types.h>

#include "uapi/uno_nl.h"

struct uno_nl_param {
	const char *name;
	const char *desc;
	u32 *val;
	u32 min;
	u32 max;
	u8 apply;			/* UNO_APPLY_* */
	const char *range_msg;		/* extack text, set by uno_nl */
	u32 *gen;			/* the CC's gen, set by uno_nl */
};

struct uno_nl_cc {
	const char *name;		/* the tcp_congestion_ops name */
	struct uno_nl_param **params;
	unsigned int n_params;
	u32 *gen;			/* bumped by every store, or NULL */
	struct list_head list;		/* private to uno_nl */
};

extern const struct kernel_param_ops uno_nl_param_ops;

int uno_nl_register(struct uno_nl_cc *cc);
void uno_nl_unregister(struct uno_nl_cc *cc);

/* The range goes into the description, as modinfo shows it. */
#define UNO_NL_DESC(_desc, _min, _max)					\
	_desc " [" __stringify(_min) ".." __stringify(_max) "]"

#define UNO_NL_DEFINE_PARAM(_name, _val, _min, _max, _apply, _desc)	\
	static struct uno_nl_param uno_nl_param_##_name = {		\
		.name = #_name,						\
		.desc = UNO_NL_DESC(_desc, _min, _max),			\
		.val = &(_val),						\
		.min = _min,						\
		.max = _max,						\
		.apply = _apply,					\
	};								\
	module_param_cb(_name, &uno_nl_param_ops, &uno_nl_param_##_name, 0644); \
	MODULE_PARM_DESC(_name, UNO_NL_DESC(_desc, _min, _max));

#define UNO_NL_PARAM_REF(_name, ...)	&uno_nl_param_##_name,

#endif /* _UNO_NL_H */
