/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Netlink interface of the phantom qdisc (sch_phantom), shared by the kernel
 * module and the tc plugin q_phantom.so.
 *
 * TCA_OPTIONS is a nested attribute (NLA_F_NESTED set) holding the
 * TCA_PHANTOM_* attributes below; it is parsed strictly. On creation an
 * absent attribute takes its default, on change it keeps its current value.
 * Sizes and the ramps' thresholds are in bytes, the shaping rate in bytes
 * per second; the phantom drain rate, a fraction of that rate, is in parts
 * per million (TC_PHANTOM_ONE is 100 %). A ramp marks nothing up to its
 * min, everything from its max; ECN_MIN == ECN_MAX == LIMIT turns the
 * real-queue ramp off, PQ_SIZE 0 the phantom queue.
 */
#ifndef _UAPI_LINUX_SCH_PHANTOM_H
#define _UAPI_LINUX_SCH_PHANTOM_H

#include <linux/types.h>

#define TC_PHANTOM_ONE		1000000	/* 100 % in parts per million */

enum {
	TCA_PHANTOM_UNSPEC,
	TCA_PHANTOM_PAD,
	TCA_PHANTOM_RATE,	/* u64: shaping rate, bytes/s; required on creation */
	TCA_PHANTOM_LIMIT,	/* u32: real queue capacity, bytes */
	TCA_PHANTOM_ECN_MIN,	/* u32: real-queue ramp start, bytes */
	TCA_PHANTOM_ECN_MAX,	/* u32: real-queue ramp end, bytes */
	TCA_PHANTOM_PQ_RATE,	/* u32: phantom drain rate, ppm of RATE */
	TCA_PHANTOM_PQ_SIZE,	/* u32: phantom capacity, bytes; 0: off */
	TCA_PHANTOM_PQ_MIN,	/* u32: phantom ramp start, bytes */
	TCA_PHANTOM_PQ_MAX,	/* u32: phantom ramp end, bytes */
	TCA_PHANTOM_TRIM,	/* u32: bytes kept from the network header; 0: off */
	TCA_PHANTOM_TRIM_DSCP,	/* u8: DSCP of trimmed headers */
	TCA_PHANTOM_TRIM_LIMIT,	/* u32: trimmed-header band capacity, bytes */
	TCA_PHANTOM_BURST,	/* u32: shaper bucket, bytes sent back to back */
	TCA_PHANTOM_TRIM_VALID,	/* u8: 1: trimmed UDP datagrams leave valid */
	TCA_PHANTOM_INT,	/* u8: 1: MLCC INT records at dequeue */
	TCA_PHANTOM_XOFF,	/* u32: virtual PFC's X_off, bytes; 0: off */
	__TCA_PHANTOM_MAX
};

#define TCA_PHANTOM_MAX	(__TCA_PHANTOM_MAX - 1)

/* Smallest non-zero TCA_PHANTOM_TRIM: an IPv4 header and a TCP header. */
#define TC_PHANTOM_TRIM_MIN	40

/* Largest TCA_PHANTOM_BURST (64 MiB); the smallest is one packet of the MTU. */
#define TC_PHANTOM_BURST_MAX	(64U << 20)

/**
 * struct tc_phantom_xstats - the qdisc's own counters (TCA_XSTATS,
 *	TCA_STATS_APP)
 * @ce_marks: CE set by the real-queue ramp
 * @phantom_marks: CE set by the phantom ramp alone
 * @trimmed: packets cut to their headers and queued
 * @trim_drops: trimmed headers dropped: header band full
 * @tail_drops: real queue full, packet not trimmed: dropped
 * @max_backlog: highest real-queue backlog, bytes
 * @phantom_backlog: phantom occupancy now, bytes
 * @phantom_max_backlog: highest phantom occupancy, bytes
 * @trim_backlog: bytes in the trimmed-header band now
 * @stall_ns: link time lost while packets waited, ns
 * @idle_ns: link time unused with nothing queued, ns
 * @empty_ns: time the qdisc held no packet, ns
 * @int_stamped: MLCC INT records pushed into data options
 * @int_full: data options that had no free record slot
 * @xoff_events: pauses a lossless port would have sent (virtual PFC: the
 *	backlog rose above TCA_PHANTOM_XOFF, and had fallen to two packets
 *	below it since the last)
 */
struct tc_phantom_xstats {
	__u64	ce_marks;
	__u64	phantom_marks;
	__u64	trimmed;
	__u64	trim_drops;
	__u64	tail_drops;
	__u32	max_backlog;
	__u32	phantom_backlog;
	__u32	phantom_max_backlog;
	__u32	trim_backlog;
	__u64	stall_ns;
	__u64	idle_ns;
	__u64	empty_ns;
	__u64	int_stamped;
	__u64	int_full;
	__u64	xoff_events;
};

#endif /* _UAPI_LINUX_SCH_PHANTOM_H */
