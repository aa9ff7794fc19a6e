/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Netlink interface of the phantom qdisc (sch_phantom), shared by the kernel
 * module and the tc plugin q_phantom.so.
 *
 * TCA_OPTIONS is a nested attribute (NLA_F_NESTED set) holding the
 * TCA_PHANTOM_* attributes below; it is parsed strictly. On creation an
 * absent attribute takes its default, on change it keeps its current value.
 * Fractions are in parts per million (TC_PHANTOM_ONE is 100 %).
 */
#ifndef _UAPI_SCH_PHANTOM_H
#define _UAPI_SCH_PHANTOM_H

#include <linux/types.h>

#define TC_PHANTOM_ONE		1000000	/* 100 % in parts per million */

enum {
	TCA_PHANTOM_UNSPEC,
	TCA_PHANTOM_PAD,
	TCA_PHANTOM_RATE,	/* u64: shaping rate, bytes/s; required on creation */
	TCA_PHANTOM_LIMIT,	/* u32: real queue capacity, bytes */
	TCA_PHANTOM_ECN_MIN,	/* u32: real-queue ramp start, ppm of LIMIT */
	TCA_PHANTOM_ECN_MAX,	/* u32: real-queue ramp end, ppm of LIMIT */
	TCA_PHANTOM_PQ_RATE,	/* u32: phantom drain rate, ppm of RATE */
	TCA_PHANTOM_PQ_SIZE,	/* u32: phantom capacity, bytes; 0: off */
	TCA_PHANTOM_PQ_MIN,	/* u32: phantom ramp start, ppm of PQ_SIZE */
	TCA_PHANTOM_PQ_MAX,	/* u32: phantom ramp end, ppm of PQ_SIZE */
	TCA_PHANTOM_TRIM,	/* u32: bytes kept from the network header; 0: off */
	TCA_PHANTOM_TRIM_DSCP,	/* u8: DSCP of trimmed headers */
	TCA_PHANTOM_TRIM_LIMIT,	/* u32: trimmed-header band capacity, bytes */
	TCA_PHANTOM_BURST,	/* u32: shaper bucket, bytes sent back to back */
	__TCA_PHANTOM_MAX
};

#define TCA_PHANTOM_MAX	(__TCA_PHANTOM_MAX - 1)

/* Smallest non-zero TCA_PHANTOM_TRIM: an IPv4 header and a TCP header. */
#define TC_PHANTOM_TRIM_MIN	40

/* Largest TCA_PHANTOM_BURST (64 MiB); the smallest is one packet of the MTU. */
#define TC_PHANTOM_BURST_MAX	(64U << 20)

/* TCA_XSTATS / TCA_STATS_APP */
struct tc_phantom_xstats {
	__u64	ce_marks;	/* CE set by the real-queue ramp */
	__u64	phantom_marks;	/* CE set by the phantom ramp alone */
	__u64	trimmed;	/* packets cut to their headers and queued */
	__u64	trim_drops;	/* trimmed headers dropped: header band full */
	__u64	tail_drops;	/* real queue full, packet not trimmed: dropped */
	__u32	max_backlog;	/* highest real-queue backlog, bytes */
	__u32	phantom_backlog;	/* phantom occupancy now, bytes */
	__u32	phantom_max_backlog;	/* highest phantom occupancy, bytes */
	__u32	trim_backlog;	/* bytes in the trimmed-header band now */
	__u64	stall_ns;	/* link time lost while packets waited, ns */
	__u64	idle_ns;	/* link time unused with nothing queued, ns */
};

#endif /* _UAPI_SCH_PHANTOM_H */
