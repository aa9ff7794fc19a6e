// SPDX-License-Identifier: GPL-2.0
/*
 * uno_nl: the "uno" generic netlink family, get and set the run-time
 * parameters of tcp_uno and tcp_smartt without reloading them.
 *
 * The CC modules own their parameters (storage, range, description) and
 * register a table of them here at init; they depend on this module through
 * uno_nl_register(), so "modprobe tcp_uno" loads it first. The module
 * parameter ops live here too, so that /sys/module/tcp_<cc>/parameters/ and
 * netlink read the same u32 and refuse the same values.
 *
 * Locking: uno_nl_lock protects the list of registered CCs, and
 * serialises every store of a parameter (sysfs or netlink), so that two
 * writers cannot lose a bump of the parameters' generation (uno_nl_cc.gen).
 * A CC unregisters (under the lock) before its module's memory goes, so
 * whoever holds the lock may touch any registered table; no module
 * reference is needed. Dumps take the lock per skb and notice a CC coming or going
 * between two skbs through the generation number (NLM_F_DUMP_INTR).
 *
 * Extack messages must outlive the request: the ack is built after the
 * doit returns and the lock is dropped, when the CC may be unloading. The
 * "value out of range" messages are therefore kept here, one per range,
 * until this module goes (after genl_unregister_family() has waited for
 * every request in flight).
 *
 * See Documentation/unod.rst.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "uno_nl.h"

static DEFINE_MUTEX(uno_nl_lock);
static LIST_HEAD(uno_nl_ccs);
static unsigned int uno_nl_gen = 1;	/* 0 is not a valid dump seq */

/* Range messages, never freed before module exit (see above). */
struct uno_nl_msg {
	struct list_head list;
	u32 min;
	u32 max;
	char text[48];
};

static LIST_HEAD(uno_nl_msgs);

static const char *uno_nl_range_msg(u32 min, u32 max)
{
	struct uno_nl_msg *m;

	list_for_each_entry(m, &uno_nl_msgs, list)
		if (m->min == min && m->max == max)
			return m->text;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	m->min = min;
	m->max = max;
	snprintf(m->text, sizeof(m->text), "value out of range %u..%u",
		 min, max);
	list_add(&m->list, &uno_nl_msgs);
	return m->text;
}

static struct uno_nl_param *uno_nl_find_param(struct uno_nl_cc *cc,
					      const char *name)
{
	unsigned int i;

	for (i = 0; i < cc->n_params; i++)
		if (!strcmp(cc->params[i].name, name))
			return &cc->params[i];
	return NULL;
}

/*
 * Called with uno_nl_lock held, which serialises the generation's
 * read-modify-write between sysfs and netlink writers.
 */
static int uno_nl_param_store(struct uno_nl_cc *cc, struct uno_nl_param *p,
			      u32 v)
{
	lockdep_assert_held(&uno_nl_lock);
	if (v < p->min || v > p->max)
		return -EINVAL;
	WRITE_ONCE(*p->val, v);
	if (cc->gen) {
		/* After the value: pairs with the laws' smp_load_acquire(). */
		smp_store_release(cc->gen, *cc->gen + 1);
	}
	return 0;
}

/*
 * A module parameter's CC is kp->arg, its entry the one of its name. This
 * runs before module_init for the values given to insmod, when the CC is
 * not registered yet: its table is.
 */
static struct uno_nl_param *uno_nl_kparam(const struct kernel_param *kp)
{
	return uno_nl_find_param(kp->arg, kp->name);
}

static int uno_nl_param_set(const char *val, const struct kernel_param *kp)
{
	struct uno_nl_param *p = uno_nl_kparam(kp);
	u32 v;
	int err;

	if (WARN_ON_ONCE(!p))
		return -ENOENT;
	if (kstrtou32(val, 0, &v))
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

/*
 * The module parameter ops of every registered parameter: sysfs writes
 * take the netlink path's lock and range check.
 */
const struct kernel_param_ops uno_nl_param_ops = {
	.set = uno_nl_param_set,
	.get = uno_nl_param_get,
};
EXPORT_SYMBOL_GPL(uno_nl_param_ops);

static struct uno_nl_cc *uno_nl_find_cc(const char *name)
{
	struct uno_nl_cc *cc;

	list_for_each_entry(cc, &uno_nl_ccs, list)
		if (!strcmp(cc->name, name))
			return cc;
	return NULL;
}

/**
 * uno_nl_register - serve a congestion control's parameters over netlink
 * @cc: its name, parameter table and generation counter; must stay valid
 *	until uno_nl_unregister()
 *
 * Called from the CC's module_init, before it registers its
 * tcp_congestion_ops.
 *
 * Return: 0, -EEXIST if a CC of that name is registered, or -ENOMEM.
 */
int uno_nl_register(struct uno_nl_cc *cc)
{
	unsigned int i;
	int err = 0;

	mutex_lock(&uno_nl_lock);
	if (uno_nl_find_cc(cc->name)) {
		err = -EEXIST;
		goto out;
	}
	for (i = 0; i < cc->n_params; i++) {
		struct uno_nl_param *p = &cc->params[i];

		p->range_msg = uno_nl_range_msg(p->min, p->max);
		if (!p->range_msg) {
			err = -ENOMEM;
			goto out;
		}
	}
	list_add_tail(&cc->list, &uno_nl_ccs);
	uno_nl_gen++;
out:
	mutex_unlock(&uno_nl_lock);
	return err;
}
EXPORT_SYMBOL_GPL(uno_nl_register);

/**
 * uno_nl_unregister - stop serving a congestion control's parameters
 * @cc: as given to uno_nl_register()
 *
 * Called from the CC's module_exit; once it returns, no request touches
 * @cc's table.
 */
void uno_nl_unregister(struct uno_nl_cc *cc)
{
	mutex_lock(&uno_nl_lock);
	list_del(&cc->list);
	uno_nl_gen++;
	mutex_unlock(&uno_nl_lock);
}
EXPORT_SYMBOL_GPL(uno_nl_unregister);

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
	    nla_put_u32(skb, UNO_A_VALUE_MIN, p->min) ||
	    nla_put_u32(skb, UNO_A_VALUE_MAX, p->max) ||
	    nla_put_u8(skb, UNO_A_APPLY, p->apply) ||
	    nla_put_string(skb, UNO_A_DESC, p->desc)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * The CC and parameter a request names. Called with uno_nl_lock held;
 * on failure the extack says which attribute is wrong.
 */
static struct uno_nl_param *uno_nl_lookup(struct genl_info *info,
					  struct uno_nl_cc **ccp)
{
	struct nlattr **tb = info->attrs;
	struct uno_nl_param *p;
	struct uno_nl_cc *cc;

	if (GENL_REQ_ATTR_CHECK(info, UNO_A_CC) ||
	    GENL_REQ_ATTR_CHECK(info, UNO_A_PARAM))
		return ERR_PTR(-EINVAL);
	cc = uno_nl_find_cc(nla_data(tb[UNO_A_CC]));
	if (!cc) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[UNO_A_CC],
				    "congestion control not loaded or without parameters");
		return ERR_PTR(-ENOENT);
	}
	p = uno_nl_find_param(cc, nla_data(tb[UNO_A_PARAM]));
	if (!p) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[UNO_A_PARAM],
				    "no such parameter");
		return ERR_PTR(-ENOENT);
	}
	*ccp = cc;
	return p;
}

static int uno_nl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct uno_nl_param *p;
	struct uno_nl_cc *cc;
	struct sk_buff *msg;
	int err;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	mutex_lock(&uno_nl_lock);
	p = uno_nl_lookup(info, &cc);
	if (IS_ERR(p))
		err = PTR_ERR(p);
	else
		err = uno_nl_fill(msg, info->snd_portid, info->snd_seq, 0,
				  cc, p);
	mutex_unlock(&uno_nl_lock);

	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/*
 * cb->args[0]: index of the CC, cb->args[1]: of its next parameter. A CC
 * filter (UNO_A_CC) restricts the dump to one CC, and is no error when
 * that CC is not loaded: the dump is empty.
 */
static int uno_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	const struct nlattr *filter = info->attrs[UNO_A_CC];
	unsigned int ci = 0, pi;
	struct uno_nl_cc *cc;
	int err = 0;

	mutex_lock(&uno_nl_lock);
	cb->seq = uno_nl_gen;
	list_for_each_entry(cc, &uno_nl_ccs, list) {
		if (ci++ < cb->args[0])
			continue;
		if (filter && strcmp(cc->name, nla_data(filter)))
			continue;
		for (pi = cb->args[1]; pi < cc->n_params; pi++) {
			err = uno_nl_fill(skb, NETLINK_CB(cb->skb).portid,
					  cb->nlh->nlmsg_seq, NLM_F_MULTI,
					  cc, &cc->params[pi]);
			if (err)
				break;
			nl_dump_check_consistent(cb, nlmsg_hdr(skb));
		}
		if (err) {
			cb->args[1] = pi;
			break;
		}
		cb->args[0] = ci;
		cb->args[1] = 0;
	}
	mutex_unlock(&uno_nl_lock);

	/* A full skb ends this round; the next call resumes at args. */
	return err == -EMSGSIZE ? skb->len : err;
}

/* NL_SET_ERR_MSG_ATTR() with a message that is not a literal. */
static void uno_nl_range_err(struct netlink_ext_ack *extack,
			     const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	extack->bad_attr = attr;
}

static int uno_nl_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *val = info->attrs[UNO_A_VALUE];
	struct uno_nl_param *p;
	struct uno_nl_cc *cc;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, UNO_A_VALUE))
		return -EINVAL;

	mutex_lock(&uno_nl_lock);
	p = uno_nl_lookup(info, &cc);
	if (IS_ERR(p)) {
		err = PTR_ERR(p);
	} else {
		err = uno_nl_param_store(cc, p, nla_get_u32(val));
		if (err)
			uno_nl_range_err(info->extack, val, p->range_msg);
	}
	mutex_unlock(&uno_nl_lock);
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
	.name		= UNO_GENL_NAME,
	.version	= UNO_GENL_VERSION,
	.maxattr	= UNO_A_MAX,
	.policy		= uno_nl_policy,
	/* the parameters are global; CAP_NET_ADMIN is checked in init_user_ns */
	.netnsok	= true,
	.module		= THIS_MODULE,
	.ops		= uno_nl_ops,
	.n_ops		= ARRAY_SIZE(uno_nl_ops),
	/* strict validation and no reserved header bits for every command */
	.resv_start_op	= UNO_CMD_PARAM_GET,
};

static int __init uno_nl_init(void)
{
	return genl_register_family(&uno_nl_family);
}

static void __exit uno_nl_exit(void)
{
	struct uno_nl_msg *m, *tmp;

	/* Waits for every request in flight, and their acks. */
	genl_unregister_family(&uno_nl_family);
	list_for_each_entry_safe(m, tmp, &uno_nl_msgs, list)
		kfree(m);
}

module_init(uno_nl_init);
module_exit(uno_nl_exit);

MODULE_AUTHOR("Uno for Linux developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Generic netlink family \"uno\": run-time parameters of tcp_uno and tcp_smartt");
MODULE_ALIAS_GENL_FAMILY(UNO_GENL_NAME);
