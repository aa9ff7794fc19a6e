/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The configuration of bpf/swift_cc.bpf.c, shared with its loader
 * (userspace/bpf/bpf_cc.cc), which fills it from tcp_swift's parameters
 * (kernel/tcp_swift_params.h: the same names, units and ranges) before
 * the object is loaded. Include swift_core.h first.
 */
#ifndef _UNO_SWIFT_CC_H
#define _UNO_SWIFT_CC_H

struct bpf_swift_conf {
	struct swift_params law;	/* max_cwnd: SWIFT_CWND_MAX */
	u32 link_rate_mbps;
	u32 max_cwnd_bdp_pct;
	u32 hops_intra;
	u32 hops_inter;
	u32 inter_rtt_us;
	u32 reflex_inter_rtt_us;	/* 0: end to end (reflex_cc.h) */
};

#endif /* _UNO_SWIFT_CC_H */
