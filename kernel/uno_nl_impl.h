/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uno_nl_impl.h: a congestion control's generic netlink family, named
 * after its module (tcp_uno, tcp_smartt), that gets and sets its run-time
 * parameters without reloading it; and the ops of its module parameters,
 * so that /sys/module/<module>/parameters/ and netlink read the same u32
 * and refuse the same values. As <net/fq_impl.h>, the implementation is
 * in a header that one file of each module includes: each CC module
 * carries its own family and loads on its own.
 *
 * The parameters are global, as module parameters are, not per network
 * namespace: the family is served in the initial namespace only.
 *
 * Locking: uno_nl_lock serialises every store of a parameter (sysfs or
 * netlink), so that two writers cannot lose a bump of the parameters'
 * generation (uno_nl_cc.gen). The table is the module's own and lives as
 * long as the family: genl_unregister_family() waits for every request in
 * flight and their acks, and a dump holds a reference to the module.
 *
 * See Documentation/unod.rst.
 */
#ifndef _UNO_NL_IMPL_H
#define _UNO_NL_IMPL_H

#include <linux/module.h>
#include <linux/mutex.h>
#include <net/genetlink.h>
#include <net/tcp.h>

#include "uno_compat.h"
#include "uno_nl.h"

static DEFINE_MUTEX(uno_nl_lock);
static struct uno_nl_cc *uno_nl_cc;	/* this module's, once registered */

static struct uno_nl_param *uno_nl_find_param(struct uno_nl_cc *cc,
					      const char *name)
{
	unsigned int i;

	for (i = 0; i < cc->n_params; i++)
		if (!strcmp(cc->params[i].name, name))
			return &cc->params[i];
	return NULL;
}

static bool uno_nl_in_range(const struct uno_nl_param *p, u32 v)
{
	return v >= p->policy.range->min && v <= p->policy.range->max;
}

/*
 * Called with uno_nl_lock held, which serialises the generation's
 * read-modify-write between sysfs and netlink writers, and the check of
 * values that must agree (uno_nl_cc.valid) with the store.
 */
static int uno_nl_param_store(struct uno_nl_cc *cc, struct uno_nl_param *p,
			      u32 v)
{
	lockdep_assert_held(&uno_nl_lock);
	/*
	 * Values given to insmod are stored before module_init, in the
	 * command line's order: those are checked together there.
	 */
	if (uno_nl_cc && cc->valid && !cc->valid(p->val, v))
		return -EINVAL;
	WRITE_ONCE(*p->val, v);
	if (cc->gen) {
		/* 0 never: it is a zeroed flow's (smartt_params_gen()). */
		u32 gen = *cc->gen + 1 ? *cc->gen + 1 : 1;

		/* After the value: pairs with the laws' smp_load_acquire(). */
		smp_store_release(cc->gen, gen);
	}
	return 0;
}

/*
 * A module parameter's CC is kp->arg, its entry the one of its name. This
 * also runs before module_init, for the values given to insmod.
 */
static struct uno_nl_param *uno_nl_kparam(const struct kernel_param *kp)
{
	return uno_nl_find_param(kp->arg, kp->name);
}

static int uno_nl_param_set(const char *val, const struct kernel_param *kp)
{
	struct uno_nl_param *p = uno_nl_kparam(kp);
	int err;
	u32 v;

	if (WARN_ON_ONCE(!p))
		return -ENOENT;
	if (kstrtou32(val, 0, &v) || !uno_nl_in_range(p, v))
		return -EINVAL;
	mutex_lock(&uno_nl_lock);
	err = uno_nl_param_store(kp->arg, p, v);
	mutex_unlock(&uno_nl_lock);
	return err;
}

static int uno_nl_param_get(char *buffer, const struct kernel_param *kp)
{
	const struct uno_nl_param *p = uno_nl_kparam(kp);

	if (WARN_ON_ONCE(!p))
		return -ENOENT;
	return sysfs_emit(buffer, "%u\n", READ_ONCE(*p->val));
}

/* The ops of every module parameter UNO_NL_MODULE_PARAM() declares. */
static const struct kernel_param_ops uno_nl_param_ops = {
	.set = uno_nl_param_set,
	.get = uno_nl_param_get,
};

static struct genl_family uno_nl_family;

static int uno_nl_fill(struct sk_buff *skb, u32 portid, u32 seq, int flags,
		       const struct uno_nl_cc *cc, const struct uno_nl_param *p)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &uno_nl_family, flags,
			  UNO_CMD_PARAM_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, UNO_A_CC, cc->name) ||
	    nla_put_string(skb, UNO_A_PARAM, p->name) ||
	    nla_put_u32(skb, UNO_A_VALUE, READ_ONCE(*p->val)) ||
	    nla_put_u32(skb, UNO_A_VALUE_MIN, p->policy.range->min) ||
	    nla_put_u32(skb, UNO_A_VALUE_MAX, p->policy.range->max) ||
	    nla_put_u8(skb, UNO_A_APPLY, p->apply) ||
	    nla_put_string(skb, UNO_A_DESC, p->desc)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* A request may name the CC (UNO_A_CC): it must be this family's. */
static bool uno_nl_cc_matches(struct nlattr *attr)
{
	return !attr || !strcmp(nla_data(attr), uno_nl_cc->name);
}

/* The parameter a request names; on failure the extack says which. */
static struct uno_nl_param *uno_nl_lookup(struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct uno_nl_param *p;

	if (GENL_REQ_ATTR_CHECK(info, UNO_A_PARAM))
		return ERR_PTR(-EINVAL);
	if (!uno_nl_cc_matches(tb[UNO_A_CC])) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[UNO_A_CC],
				    "not the congestion control of this family");
		return ERR_PTR(-ENOENT);
	}
	p = uno_nl_find_param(uno_nl_cc, nla_data(tb[UNO_A_PARAM]));
	if (!p) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[UNO_A_PARAM],
				    "no such parameter");
		return ERR_PTR(-ENOENT);
	}
	return p;
}

static int uno_nl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct uno_nl_param *p = uno_nl_lookup(info);
	struct sk_buff *msg;
	int err;

	if (IS_ERR(p))
		return PTR_ERR(p);
	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = uno_nl_fill(msg, info->snd_portid, info->snd_seq, 0, uno_nl_cc, p);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/*
 * cb->args[0]: index of the next parameter. A dump filtered on another CC
 * (UNO_A_CC) is empty, not an error.
 */
static int uno_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int i;
	int err = 0;

	if (!uno_nl_cc_matches(uno_dump_attrs(cb)[UNO_A_CC]))
		return 0;
	for (i = cb->args[0]; i < uno_nl_cc->n_params; i++) {
		err = uno_nl_fill(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, NLM_F_MULTI, uno_nl_cc,
				  &uno_nl_cc->params[i]);
		if (err)
			break;
	}
	cb->args[0] = i;
	/* A full skb ends this round; the next call resumes at args[0]. */
	return err == -EMSGSIZE ? skb->len : err;
}

static int uno_nl_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *val = info->attrs[UNO_A_VALUE];
	struct uno_nl_param *p;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, UNO_A_VALUE))
		return -EINVAL;
	p = uno_nl_lookup(info);
	if (IS_ERR(p))
		return PTR_ERR(p);
	/* The range goes back as the policy of the value (NLMSGERR_ATTR_POLICY). */
	if (!uno_nl_in_range(p, nla_get_u32(val))) {
		NL_SET_ERR_MSG_ATTR_POL(info->extack, val, &p->policy,
					"value out of range");
		return -EINVAL;
	}
	mutex_lock(&uno_nl_lock);
	err = uno_nl_param_store(uno_nl_cc, p, nla_get_u32(val));
	mutex_unlock(&uno_nl_lock);
	if (err)
		NL_SET_ERR_MSG_ATTR(info->extack, val,
				    "value does not agree with the other parameters");
	return err;
}

static const struct nla_policy uno_nl_policy[UNO_A_MAX + 1] = {
	[UNO_A_CC]	= { .type = NLA_NUL_STRING, .len = UNO_NAME_MAX - 1 },
	[UNO_A_PARAM]	= { .type = NLA_NUL_STRING, .len = UNO_NAME_MAX - 1 },
	[UNO_A_VALUE]	= { .type = NLA_U32 },
	/* the rest are for replies: refused in requests */
	[UNO_A_VALUE_MIN] = { .type = NLA_REJECT },
	[UNO_A_VALUE_MAX] = { .type = NLA_REJECT },
	[UNO_A_APPLY]	= { .type = NLA_REJECT },
	[UNO_A_DESC]	= { .type = NLA_REJECT },
};

static const struct genl_ops uno_nl_ops[] = {
	{
		.cmd	= UNO_CMD_PARAM_GET,
		.doit	= uno_nl_get_doit,
		.dumpit	= uno_nl_get_dumpit,
	},
	{
		.cmd	= UNO_CMD_PARAM_SET,
		.doit	= uno_nl_set_doit,
		.flags	= GENL_ADMIN_PERM,
	},
};

static struct genl_family uno_nl_family __ro_after_init = {
	.name		= KBUILD_MODNAME,
	.version	= UNO_GENL_VERSION,
	.maxattr	= UNO_A_MAX,
	.policy		= uno_nl_policy,
	/* the parameters are global: served in the initial namespace only */
	.netnsok	= false,
	.module		= THIS_MODULE,
	.ops		= uno_nl_ops,
	.n_ops		= ARRAY_SIZE(uno_nl_ops),
	/* strict validation and no reserved header bits for every command */
	.resv_start_op	= UNO_CMD_PARAM_GET,
};

/**
 * uno_nl_register - serve a congestion control's parameters over netlink
 * @cc: its name, parameter table and generation counter
 *
 * Called by uno_nl_register_cc(), before the CC's tcp_congestion_ops
 * are registered.
 *
 * Return: 0, or what genl_register_family() returned.
 */
static int __init uno_nl_register(struct uno_nl_cc *cc)
{
	uno_nl_cc = cc;
	return genl_register_family(&uno_nl_family);
}

/**
 * uno_nl_unregister - stop serving a congestion control's parameters
 *
 * Called by uno_nl_unregister_cc(); once it returns, no request touches
 * the table.
 */
static void uno_nl_unregister(void)
{
	genl_unregister_family(&uno_nl_family);
}

/**
 * uno_nl_register_cc - register a congestion control and its family
 * @cc: its name, parameter table and generation counter
 * @ops: the tcp_congestion_ops
 *
 * The module_init of a CC module: the values given to insmod checked
 * together, then the family, so that the parameters can be read as soon
 * as the CC can be chosen.
 *
 * Return: 0, or the error of either registration (neither is left).
 */
static int __init uno_nl_register_cc(struct uno_nl_cc *cc,
				     struct tcp_congestion_ops *ops)
{
	int err;

	if (cc->valid && !cc->valid(NULL, 0)) {
		pr_err("%s: the parameters given do not agree with each other\n",
		       KBUILD_MODNAME);
		return -EINVAL;
	}
	err = uno_nl_register(cc);
	if (err)
		return err;
	err = tcp_register_congestion_control(ops);
	if (err)
		uno_nl_unregister();
	return err;
}

/**
 * uno_nl_unregister_cc - unregister what uno_nl_register_cc() registered
 * @ops: the tcp_congestion_ops
 */
static void uno_nl_unregister_cc(struct tcp_congestion_ops *ops)
{
	tcp_unregister_congestion_control(ops);
	uno_nl_unregister();
}

#endif /* _UNO_NL_IMPL_H */
