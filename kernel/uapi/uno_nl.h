/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The "uno" generic netlink family (module uno_nl): run-time parameters of
 * the tcp_uno and tcp_smartt congestion controls, the same u32 values as
 * their module parameters (/sys/module/tcp_<cc>/parameters/), read and
 * written through the same storage and range checks.
 *
 *   UNO_CMD_PARAM_GET  doit: UNO_A_CC + UNO_A_PARAM, one parameter.
 *                      dump: every parameter of every registered CC, or of
 *                      UNO_A_CC only. Anyone may read.
 *   UNO_CMD_PARAM_SET  UNO_A_CC + UNO_A_PARAM + UNO_A_VALUE. Needs
 *                      CAP_NET_ADMIN in the initial user namespace: the
 *                      parameters are global, not per network namespace.
 *
 * Replies to GET carry UNO_A_CC, UNO_A_PARAM, UNO_A_VALUE, UNO_A_VALUE_MIN,
 * UNO_A_VALUE_MAX, UNO_A_APPLY and UNO_A_DESC. Requests are validated
 * strictly: unknown or reply-only attributes are refused.
 *
 * Errors: -ENOENT for a CC that is not loaded or a parameter it does not
 * have, -EINVAL (with an extack message naming the range) for a value out
 * of range, -EPERM without CAP_NET_ADMIN.
 */
#ifndef _UAPI_LINUX_UNO_NL_H
#define _UAPI_LINUX_UNO_NL_H

#define UNO_GENL_NAME		"uno"
#define UNO_GENL_VERSION	1

/* Longest CC or parameter name, with its NUL. */
#define UNO_NAME_MAX		32

enum {
	UNO_CMD_UNSPEC,
	UNO_CMD_PARAM_GET,
	UNO_CMD_PARAM_SET,
	__UNO_CMD_MAX
};

#define UNO_CMD_MAX	(__UNO_CMD_MAX - 1)

enum {
	UNO_A_UNSPEC,
	UNO_A_CC,	/* string: congestion control, "uno" or "smartt" */
	UNO_A_PARAM,	/* string: parameter, as the module parameter */
	UNO_A_VALUE,	/* u32 */
	UNO_A_VALUE_MIN,	/* u32: smallest accepted value (reply only) */
	UNO_A_VALUE_MAX,	/* u32: largest accepted value (reply only) */
	UNO_A_APPLY,	/* u8: UNO_APPLY_* (reply only) */
	UNO_A_DESC,	/* string: what it is, its default and range (reply only) */
	__UNO_A_MAX
};

#define UNO_A_MAX	(__UNO_A_MAX - 1)

/* When connections see a change of the parameter. */
enum {
	UNO_APPLY_ACK,		/* read on every ACK: running connections too */
	UNO_APPLY_REBASE,	/* when a connection's base RTT or MSS changes */
	UNO_APPLY_NEW,		/* when a connection starts: new ones only */
};

#endif /* _UAPI_LINUX_UNO_NL_H */
