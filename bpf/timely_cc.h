/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The configuration of bpf/timely_cc.bpf.c, shared with its loader
 * (userspace/bpf/bpf_cc.cc), which fills it from tcp_timely's parameters
 * (kernel/tcp_timely_params.h: the same names, units and ranges) before
 * the object is loaded. Include timely_core.h first.
 */
#ifndef _UNO_TIMELY_CC_H
#define _UNO_TIMELY_CC_H

struct bpf_timely_conf {
	struct timely_params law;
	u32 cwnd_gain_pct;
	u32 reflex_inter_rtt_us;	/* 0: end to end (reflex_cc.h) */
};

#endif /* _UNO_TIMELY_CC_H */
