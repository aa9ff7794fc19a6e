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
#ifndef _UAPI_LINUX_TCP_SMARTT_H
#define _UAPI_LINUX_TCP_SMARTT_H

#include <linux/types.h>

/* tcp_smartt_info.smartt_flags */
#define TCP_SMARTT_ENABLED	0x0001	/* always set (tcpv_enabled) */
#define TCP_SMARTT_FAST_INC	0x0002	/* FastIncrease engaged */
#define TCP_SMARTT_QA_ARMED	0x0004	/* QuickAdapt at window end */
#define TCP_SMARTT_IGNORING	0x0008	/* post-QuickAdapt ignore phase */
#define TCP_SMARTT_ECN		0x0010	/* ECN negotiated */
#define TCP_SMARTT_CE		0x0020	/* receiver: last segment had CE */
#define TCP_SMARTT_NSCC		0x0040	/* the flow runs NSCC (mode=1) */

/**
 * struct tcp_smartt_info - a tcp_smartt socket's state (INET_DIAG_VEGASINFO)
 * @smartt_flags: TCP_SMARTT_*
 * @smartt_cwnd: window, bytes; 0: no base RTT yet
 * @smartt_avg_rtt: EWMA of the RTT samples, us (NSCC: base RTT + EWMA of
 *	the queueing delays)
 * @smartt_base_rtt: base RTT, us; 0: not known yet
 * @smartt_quick_adapts: QuickAdapt reductions, wraps
 * @smartt_decreases: multiplicative decreases, wraps
 */
struct tcp_smartt_info {
	__u32	smartt_flags;
	__u32	smartt_cwnd;
	__u32	smartt_avg_rtt;
	__u32	smartt_base_rtt;
	__u16	smartt_quick_adapts;
	__u16	smartt_decreases;
};

#endif /* _UAPI_LINUX_TCP_SMARTT_H */
