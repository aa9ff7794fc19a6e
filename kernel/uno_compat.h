/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uno_compat.h: the kernel interfaces our modules use that differ between
 * the kernels they build against. Kbuild tests the headers for each
 * (UNO_HAVE_*): a distribution kernel may carry a later release's change.
 */
#ifndef _UNO_COMPAT_H
#define _UNO_COMPAT_H

#include <net/genetlink.h>
#include <net/tcp.h>
#ifdef UNO_HAVE_NET_GSO_H
#include <net/gso.h>		/* skb_gso_segment(), there from 6.4 */
#endif
#ifdef UNO_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>	/* from 6.12 */
#else
#include <asm/unaligned.h>
#endif

/* __tcp_send_ack() takes the ACK's extra TCP flags from 6.13 (AccECN). */
static inline void uno_send_ack(struct sock *sk, u32 rcv_nxt)
{
#ifdef UNO_HAVE_TCP_SEND_ACK_FLAGS
	__tcp_send_ack(sk, rcv_nxt, 0);
#else
	__tcp_send_ack(sk, rcv_nxt);
#endif
}

/* A dump's request attributes are in a struct genl_info from 6.2. */
static inline struct nlattr **uno_dump_attrs(struct netlink_callback *cb)
{
#ifdef UNO_HAVE_GENL_INFO_DUMP
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

#endif /* _UNO_COMPAT_H */
