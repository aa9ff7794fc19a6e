/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * tcp_swift congestion control: state exported to user space, by
 * getsockopt(TCP_CC_INFO) and by inet_diag (ss -i) in an
 * INET_DIAG_VEGASINFO attribute, which an out-of-tree module reuses as
 * tcp_smartt does (uapi/tcp_smartt.h): the first 16 bytes are laid out as
 * struct tcpvegas_info, with tcpv_enabled non-zero and tcpv_rtt the
 * latest RTT sample in microseconds (tcpv_rttcnt and tcpv_minrtt carry
 * the window and the target). Readers that know the attribute came
 * from swift (INET_DIAG_CONG) read the whole struct, 20 bytes, the size
 * of union tcp_cc_info.
 */
#ifndef _UAPI_LINUX_TCP_SWIFT_H
#define _UAPI_LINUX_TCP_SWIFT_H

#include <linux/types.h>

/* tcp_swift_info.swift_flags */
#define TCP_SWIFT_ENABLED	0x0001	/* always set (tcpv_enabled) */
#define TCP_SWIFT_INTER		0x0002	/* inter-DC: hops_inter hops */
#define TCP_SWIFT_PACED		0x0004	/* window below one packet */

/**
 * struct tcp_swift_info - a tcp_swift socket's state (INET_DIAG_VEGASINFO)
 * @swift_flags: TCP_SWIFT_*
 * @swift_cwnd: window, thousandths of a packet (0.001 is Swift's floor)
 * @swift_rtt: latest RTT sample, us; 0: none yet
 * @swift_target: the flow's target delay, us
 * @swift_hops: switch hops in the target
 * @swift_retx: RTOs in a row
 * @swift_decreases: multiplicative decreases, wraps
 */
struct tcp_swift_info {
	__u32	swift_flags;
	__u32	swift_cwnd;
	__u32	swift_rtt;
	__u32	swift_target;
	__u8	swift_hops;
	__u8	swift_retx;
	__u16	swift_decreases;
};

#endif /* _UAPI_LINUX_TCP_SWIFT_H */
