/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * tcp_uno state as reported to user space through inet_diag (ss -i) and
 * getsockopt(TCP_CC_INFO).
 *
 * Out-of-tree code cannot allocate an INET_DIAG_*INFO attribute, so tcp_uno
 * answers the INET_DIAG_VEGASINFO request, as DCTCP and BBR do, and also
 * replies with attribute type INET_DIAG_VEGASINFO, as Illinois and NV do
 * for their own state. A reader that sees INET_DIAG_CONG == "uno" decodes
 * the payload as struct tcp_uno_info. The layout is chosen so that readers
 * that decode it as struct tcpvegas_info (ss, libnl) are not misled:
 *
 *   tcpv_enabled  (offset 0)  uno_flags/uno_qa_cuts: non-zero iff UnoCC runs
 *   tcpv_rtt      (offset 8)  uno_base_rtt_us: a real RTT in us, so the
 *                             "send" rate ss derives from it is Uno's pacing
 *                             rate (cwnd per base RTT)
 *
 * The kernel copies the reply out of a union tcp_cc_info on its stack, so
 * the struct cannot grow past sizeof(union tcp_cc_info), 20 bytes; tcp_uno
 * checks this at build time. Counters are free-running and wrap.
 */
#ifndef _UAPI_LINUX_TCP_UNO_H
#define _UAPI_LINUX_TCP_UNO_H

#include <linux/types.h>

/* uno_flags */
#define TCP_UNO_INFO_ENABLED	0x0001	/* UnoCC runs (else: no ECN, Reno) */
#define TCP_UNO_INFO_INTER	0x0002	/* classified inter-DC */
#define TCP_UNO_INFO_EPOCH_ON	0x0004	/* MD epochs armed */
#define TCP_UNO_INFO_QA_OPEN	0x0008	/* Quick Adapt window open */

/**
 * struct tcp_uno_info - a tcp_uno socket's state (INET_DIAG_VEGASINFO)
 * @uno_flags: TCP_UNO_INFO_*
 * @uno_qa_cuts: Quick Adapt cuts
 * @uno_cwnd: window, bytes (saturates at 2^32 - 1)
 * @uno_base_rtt_us: base RTT the gains derive from, us; 0: no RTT
 *	estimate yet
 * @uno_ecn_ewma: E, the EWMA of the marked fraction per epoch, 65536 =
 *	every byte marked
 * @uno_md_cuts: multiplicative decreases
 * @uno_md_phantom: ... of which phantom-only (gentle)
 */
struct tcp_uno_info {
	__u16	uno_flags;
	__u16	uno_qa_cuts;
	__u32	uno_cwnd;
	__u32	uno_base_rtt_us;
	__u32	uno_ecn_ewma;
	__u16	uno_md_cuts;
	__u16	uno_md_phantom;
};

#endif /* _UAPI_LINUX_TCP_UNO_H */
