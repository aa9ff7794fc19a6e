/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The generic netlink family of each of our congestion control modules,
 * named after the module (UNO_GENL_NAME_PREFIX and the CC: "tcp_uno",
 * "tcp_smartt"): its run-time parameters, the same u32 values as its
 * module parameters (/sys/module/tcp_<cc>/parameters/), read and written
 * through the same storage and range checks. The parameters are global,
 * so the families are served in the initial network namespace only.
 *
 *   UNO_CMD_PARAM_GET  doit: UNO_A_PARAM, one parameter.
 *                      dump: every parameter. Anyone may read.
 *   UNO_CMD_PARAM_SET  UNO_A_PARAM + UNO_A_VALUE. Needs CAP_NET_ADMIN.
 *
 * A request may carry UNO_A_CC; it must then name the family's CC.
 * Replies to GET carry UNO_A_CC, UNO_A_PARAM, UNO_A_VALUE, UNO_A_VALUE_MIN,
 * UNO_A_VALUE_MAX, UNO_A_APPLY and UNO_A_DESC. Requests are validated
 * strictly: unknown or reply-only attributes are refused.
 *
 * Errors: -ENOENT for a parameter the CC does not have (or another CC),
 * -EINVAL for a value out of range, with the range in the extack as the
 * value's policy (NLMSGERR_ATTR_POLICY), -EPERM without CAP_NET_ADMIN.
 */
#ifndef _UAPI_LINUX_UNO_NL_H
#define _UAPI_LINUX_UNO_NL_H

#define UNO_GENL_NAME_PREFIX	"tcp_"
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
