/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * tcp_timely congestion control: state exported to user space, as
 * tcp_swift's (uapi/tcp_swift.h): an INET_DIAG_VEGASINFO attribute whose
 * first 16 bytes are a struct tcpvegas_info (tcpv_enabled non-zero,
 * tcpv_rtt the latest RTT sample in microseconds; tcpv_rttcnt and
 * tcpv_minrtt carry the rate and the RTT difference), 20 bytes in all.
 */
#ifndef _UAPI_LINUX_TCP_TIMELY_H
#define _UAPI_LINUX_TCP_TIMELY_H

#include <linux/types.h>

/* tcp_timely_info.timely_flags */
#define TCP_TIMELY_ENABLED	0x0001	/* always set (tcpv_enabled) */

/**
 * struct tcp_timely_info - a tcp_timely socket's state (INET_DIAG_VEGASINFO)
 * @timely_flags: TCP_TIMELY_*
 * @timely_rate: the law's rate, kbit/s, saturating
 * @timely_rtt: the latest RTT sample, us; 0: none yet
 * @timely_rtt_diff: the EWMA of RTT differences, ns, saturating
 * @timely_inc_stage: increases in a row (HAI after hai_thresh)
 * @timely_decreases: multiplicative decreases, wraps
 */
struct tcp_timely_info {
	__u32	timely_flags;
	__u32	timely_rate;
	__u32	timely_rtt;
	__s32	timely_rtt_diff;
	__u16	timely_inc_stage;
	__u16	timely_decreases;
};

#endif /* _UAPI_LINUX_TCP_TIMELY_H */
