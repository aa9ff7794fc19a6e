/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Netlink interface of the ndt qdisc (sch_ndt): Reflex's Near-Destination
 * Throttling (reflex.md 2.6) on a destination gateway's port toward its
 * DC, shared by the kernel module and the tc plugin q_ndt.so.
 *
 * TCA_OPTIONS is a nested attribute holding the TCA_NDT_* attributes
 * below, parsed strictly. On creation an absent attribute takes its
 * default (reflex.md 2.2 at paper scale), on change it keeps its current
 * value. Rates are in bytes per second, sizes in bytes, times in
 * nanoseconds, alpha in parts per million (TC_NDT_ONE is 1).
 */
#ifndef _UAPI_LINUX_SCH_NDT_H
#define _UAPI_LINUX_SCH_NDT_H

#include <linux/types.h>

#define TC_NDT_ONE		1000000	/* alpha 1 in parts per million */

enum {
	TCA_NDT_UNSPEC,
	TCA_NDT_PAD,
	TCA_NDT_RATE,		/* u64: the port's rate, bytes/s; required on creation */
	TCA_NDT_LIMIT,		/* u32: both queues together, bytes */
	TCA_NDT_BURST,		/* u32: shaper bucket, bytes sent back to back */
	TCA_NDT_DST_THRESH,	/* u64: RTT_dst above this: CONGESTED, ns */
	TCA_NDT_ALPHA,		/* u32: congested share that pauses C, ppm */
	TCA_NDT_N_THROTTLE,	/* u32: packets of N per packet of C */
	TCA_NDT_MAXPAUSE,	/* u64: longest pause of C, ns */
	TCA_NDT_REARM,		/* u64: no pause this long after a timeout, ns */
	TCA_NDT_ACTIVE,		/* u64: a flow idle this long is not active, ns */
	TCA_NDT_IDLE_GC,	/* u64: a flow idle this long is deleted, ns */
	TCA_NDT_FLOWS,		/* u32: most flows tracked (sizes the hash) */
	__TCA_NDT_MAX
};

#define TCA_NDT_MAX	(__TCA_NDT_MAX - 1)

/* Largest TCA_NDT_BURST (64 MiB); the smallest is one packet of the MTU. */
#define TC_NDT_BURST_MAX	(64U << 20)

/*
 * Largest time (an hour): a pause's end and a rearm's are sums with the
 * clock. The smallest TCA_NDT_MAXPAUSE and TCA_NDT_ACTIVE is 1 ns.
 */
#define TC_NDT_TIME_MAX		3600000000000ULL

/* Smallest TCA_NDT_LIMIT: a GSO packet (64 KiB), which goes in whole. */
#define TC_NDT_LIMIT_MIN	65536U

/* Largest TCA_NDT_FLOWS; the smallest is 1. */
#define TC_NDT_FLOWS_MAX	1048576U	/* 2^20 */

/**
 * struct tc_ndt_xstats - the qdisc's own counters (TCA_XSTATS,
 *	TCA_STATS_APP)
 * @flows: flows tracked now
 * @active: of them active (reflex.md 2.6's n_active)
 * @congested: of the active ones CONGESTED (n_congested)
 * @paused: 1 while the Controlled queue is paused
 * @normal_qlen: packets in the Normal queue now
 * @ctl_qlen: packets in the Controlled queue now
 * @max_backlog: highest backlog of both queues, bytes
 * @ctl_enqueued: packets that went to the Controlled queue
 * @pauses: pauses of the Controlled queue
 * @pause_timeouts: ... of them ended by T_maxpause
 * @samples: RTT_dst samples taken from ACKs
 * @rtt_dst_last_ns: the latest of them
 * @flows_full: data packets of a new flow with the table full (sent
 *	through the Normal queue, untracked)
 * @tail_drops: packets dropped at the limit
 * @paused_ns: time the Controlled queue spent paused
 * @normal_bytes: bytes sent from the Normal queue
 * @ctl_bytes: bytes sent from the Controlled queue
 */
struct tc_ndt_xstats {
	__u32	flows;
	__u32	active;
	__u32	congested;
	__u32	paused;
	__u32	normal_qlen;
	__u32	ctl_qlen;
	__u32	max_backlog;
	__u32	rtt_dst_last_ns;
	__u64	ctl_enqueued;
	__u64	pauses;
	__u64	pause_timeouts;
	__u64	samples;
	__u64	flows_full;
	__u64	tail_drops;
	__u64	paused_ns;
	__u64	normal_bytes;
	__u64	ctl_bytes;
};

/* struct tc_ndt_flow_xstats's @status */
enum {
	TC_NDT_NORMAL,
	TC_NDT_CONGESTED,
};

/**
 * struct tc_ndt_flow_xstats - a tracked flow, one class of the qdisc's
 *	class dump (TCA_XSTATS, TCA_STATS_APP of an RTM_NEWTCLASS); the
 *	class handle's minor is its hash bucket's, which flows may share
 * @idle_ns: since its latest data packet
 * @saddr: the flow's source address, from the WAN (network order)
 * @daddr: its destination in this DC
 * @sport: its source port (network order)
 * @dport: its destination port
 * @normal_pkts: its packets in the Normal queue now
 * @ctl_pkts: its packets in the Controlled queue now
 * @rtt_dst_last_ns: its latest RTT_dst sample; 0: none yet
 * @status: TC_NDT_NORMAL or TC_NDT_CONGESTED (reflex.md 2.6)
 * @active: 1 if counted in the port's active flows
 * @closed: 1 after its FIN or RST, until its last packet has left
 * @pad: zero
 */
struct tc_ndt_flow_xstats {
	__u64	idle_ns;
	__be32	saddr;
	__be32	daddr;
	__be16	sport;
	__be16	dport;
	__u32	normal_pkts;
	__u32	ctl_pkts;
	__u32	rtt_dst_last_ns;
	__u8	status;
	__u8	active;
	__u8	closed;
	__u8	pad[5];
};

#endif /* _UAPI_LINUX_SCH_NDT_H */
