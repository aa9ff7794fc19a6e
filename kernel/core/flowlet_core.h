/* SPDX-License-Identifier: GPL-2.0 */
/*
 * FLOWLET: flowlet switching as a pure integer law, a baseline load
 * balancer of the ARCANE datapath (../shared/spec/arcane.md, section 2.8,
 * mode FLOWLET; the EV terms of sections 2.1 and 2.2). The idea is
 * Kandula et al.'s (FLARE, CCR 2007) and CONGA's: a burst of a flow that
 * follows a gap longer than the path delay difference can take another
 * path without reordering.
 *
 * A flow keeps its entropy value (EV, an index 0..num_ev-1 that the
 * datapath turns into a UDP source port) while its packets come close
 * together. A packet that comes more than gap_ns after the flow's previous
 * one starts a new flowlet, which takes a fresh random EV (it may draw the
 * EV it had). The first packet of a flow always draws. The spec's default
 * gap is one base RTT; the caller configures it.
 *
 * Randomness is the caller's, as for unolb_repath(): one random u32 per
 * packet (bpf_get_prandom_u32() in BPF, taken before the per-flow lock;
 * get_random_u32() in the kernel; a seeded generator in tests), scaled to
 * 0..num_ev-1 without a division as the kernel's reciprocal_scale() does.
 * A packet that does not start a flowlet ignores its draw.
 *
 * Times are u64 nanoseconds on the caller's monotonic clock. The header
 * uses only the names of core_types.h: no libc, no floating point, no
 * division, no allocation and no loop, so it compiles in a BPF program,
 * the kernel and the C++ tests.
 */
#ifndef _FLOWLET_CORE_H
#define _FLOWLET_CORE_H

#include "core_types.h"

#define FLOWLET_MAX_EV	65536U	/* an EV offsets a 16-bit port */

/* Configuration, shared by all flows. */
struct flowlet_params {
	u64 gap_ns;	/* a gap above this starts a flowlet; 1 base RTT */
	u32 num_ev;	/* EVs are 0..num_ev-1: 256 by default */
};

/* Per-flow state, 24 bytes. */
struct flowlet_flow {
	u64 last_ns;	/* the latest packet's time */
	u64 flowlets;	/* flowlets started; 0: no packet yet */
	u32 ev;		/* the current flowlet's EV */
};

/*
 * Are the params usable? num_ev in 1..FLOWLET_MAX_EV, and a gap above 0:
 * a zero gap would redraw on almost every packet, which is spraying, not
 * flowlet switching (the spec's SPRAY mode).
 */
static __always_inline bool flowlet_params_valid(const struct flowlet_params *p)
{
	return p->gap_ns && p->num_ev && p->num_ev <= FLOWLET_MAX_EV;
}

/* A new flow: no packet yet, so its first one draws. */
static __always_inline void flowlet_init(struct flowlet_flow *f)
{
	f->last_ns = 0;
	f->flowlets = 0;
	f->ev = 0;
}

/*
 * The EV of a packet sent at now_ns, r a random u32. A new flowlet (and a
 * draw) when the flow has sent nothing yet or now_ns - last > gap_ns: a gap
 * of exactly gap_ns keeps the EV. A time before the latest one (two CPUs
 * that read the clock before taking the per-flow lock, in the other order)
 * is a gap of 0: it neither redraws nor moves the latest time back.
 */
static __always_inline u32 flowlet_on_packet(struct flowlet_flow *f,
					     const struct flowlet_params *p,
					     u64 now_ns, u32 r)
{
	if (!f->flowlets ||
	    (now_ns > f->last_ns && now_ns - f->last_ns > p->gap_ns)) {
		f->ev = reciprocal_scale(r, p->num_ev);
		f->flowlets++;
	}
	if (now_ns > f->last_ns)
		f->last_ns = now_ns;
	return f->ev;
}

#endif /* _FLOWLET_CORE_H */
