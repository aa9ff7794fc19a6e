/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * tcp_smartt congestion control: state exported to user space.
 *
 * The module fills struct tcp_smartt_info from its get_info callback, so it
 * is returned by getsockopt(TCP_CC_INFO) on a socket whose TCP_CONGESTION
 * is "smartt", and by inet_diag (ss -i) in an INET_DIAG_VEGASINFO
 * attribute. An out-of-tree module cannot add an inet_diag attribute of
 * its own, so, like tcp_westwood and tcp_illinois, it reuses the Vegas one
 * and keeps its first 16 bytes laid out as struct tcpvegas_info:
 * tcpv_enabled is non-zero (TCP_SMARTT_ENABLED), tcpv_rtt and tcpv_minrtt
 * are the averaged and base RTTs in microseconds, the units Vegas uses,
 * and tcpv_rttcnt, which ss does not print, carries the window in bytes.
 * Readers that know the attribute came from smartt (INET_DIAG_CONG says
 * "smartt") read the whole struct.
 *
 * The struct is 20 bytes, the size of union tcp_cc_info (whose largest
 * member is struct tcp_bbr_info): the kernel hands get_info a buffer of
 * exactly that size.
 */
#ifndef _UAPI_TCP_SMARTT_H
#define _UAPI_TCP_SMARTT_H

#include <linux/types.h>

/* tcp_smartt_info.smartt_flags */
#define TCP_SMARTT_ENABLED	(1U << 0)	/* always set (tcpv_enabled) */
#define TCP_SMARTT_FAST_INC	(1U << 1)	/* FastIncrease engaged */
#define TCP_SMARTT_QA_ARMED	(1U << 2)	/* QuickAdapt at window end */
#define TCP_SMARTT_IGNORING	(1U << 3)	/* post-QuickAdapt ignore phase */
#define TCP_SMARTT_ECN		(1U << 4)	/* ECN negotiated */
#define TCP_SMARTT_CE		(1U << 5)	/* receiver: last segment had CE */
#define TCP_SMARTT_NSCC		(1U << 6)	/* the flow runs NSCC (mode=1) */

struct tcp_smartt_info {
	__u32	smartt_flags;		/* TCP_SMARTT_* */
	__u32	smartt_cwnd;		/* window in bytes; 0: no base RTT yet */
	__u32	smartt_avg_rtt;		/* EWMA of RTT samples, us (NSCC: base
					 * RTT + EWMA of queueing delays)
					 */
	__u32	smartt_base_rtt;	/* base RTT, us; 0: not known yet */
	__u16	smartt_quick_adapts;	/* QuickAdapt reductions, wraps */
	__u16	smartt_decreases;	/* multiplicative decreases, wraps */
};

#endif /* _UAPI_TCP_SMARTT_H */
