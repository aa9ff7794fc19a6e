/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UnoLB: Uno's sub-flow load balancing as pure integer functions.
 *
 * Bonato, Abdous et al., "Uno: A One-Stop Solution for Inter- and
 * Intra-Data Center Congestion Control and Reliable Connectivity", SC '25,
 * section 4.2 and Algorithm 2, and the authors' simulator (spcl/Uno_SC25,
 * htsim, sim/lcp.cpp). The user-space transport compiles
 * this header, and so will the kernel and a BPF program, so it uses only
 * the names of core_types.h: no libc, no floating point, no division, no
 * allocation, and loops bounded by a constant, as the BPF verifier wants.
 *
 * In one sentence: a flow sprays its packets round robin over S sub-flows,
 * each with an entropy of its own (a UDP source port, an IPv6 flow label:
 * what the network's ECMP hash picks a path by), and on a block NACK or a
 * retransmission timeout gives every sub-flow that has gone silent a new
 * entropy, at most once per base RTT each.
 *
 * Entropies are the values the wire carries: the caller gives each
 * sub-flow's first one and a range [ent_base, ent_base + ent_span) that
 * fresh ones are drawn from (16384 source ports from 49152, or
 * 2^20 - 1 flow labels from 1), so a sub-flow that copies another's entropy
 * takes that one's path, whatever the caller's first entropies were.
 *
 * Randomness is the caller's: unolb_repath() takes one random u32 per
 * sub-flow (bpf_get_prandom_u32() in BPF, get_random_u32() in the kernel,
 * a seeded generator in tests), and sub-flow i's draw is used for
 * sub-flow i alone. So the law holds no generator state, a test names the
 * outcome for each sub-flow directly, and BPF needs no function pointer.
 *
 * Times are u64 nanoseconds on the caller's monotonic clock.
 */
#ifndef _UNOLB_CORE_H
#define _UNOLB_CORE_H

#include "core_types.h"

#define UNOLB_MAX_SUBFLOWS	16	/* S: n = 10 in the paper */

/*
 * What a re-path gives a silent sub-flow (Uno Sec. 4.2; the artifact).
 * REDRAW: a fresh random entropy; the artifact's active code and the
 * default. COPY_GOOD: the entropy of a random sub-flow that got an ACK
 * within the last half base RTT, so as not to hop onto another bad path;
 * the paper's wording, and a fresh entropy if no sub-flow is good.
 * OFF: sub-flows keep their first entropies (a static spray).
 */
enum unolb_mode {
	UNOLB_REPATH_OFF,
	UNOLB_REPATH_REDRAW,
	UNOLB_REPATH_COPY_GOOD,
};

/* Per-flow state, 344 bytes: S entropies and two times each. */
struct unolb_flow {
	u32 ent[UNOLB_MAX_SUBFLOWS];		/* sub-flow's entropy */
	u64 last_ack_ns[UNOLB_MAX_SUBFLOWS];	/* its latest ACK */
	u64 last_reroute_ns[UNOLB_MAX_SUBFLOWS];/* its latest re-path */
	u32 ent_base;				/* fresh entropies: from */
	u32 ent_span;				/* ... this many values */
	u32 next;				/* the next packet's sub-flow */
	u32 nr;					/* S, 1..UNOLB_MAX_SUBFLOWS */
	u32 mode;				/* enum unolb_mode */
};

/*
 * Time from t to now; 0 if t is later (an ACK stamped after the re-path
 * that reads it). Keeps a clock that stepped back from reading as silence.
 */
static __always_inline u64 unolb_age(u64 now_ns, u64 t_ns)
{
	return now_ns > t_ns ? now_ns - t_ns : 0;
}

/*
 * Has sub-flow i had no ACK for more than half a base RTT? For an integer
 * age, age > base / 2 holds exactly when age > floor(base / 2), so the
 * shift loses nothing (the artifact compares with base_rtt * 0.5).
 */
static __always_inline bool unolb_silent(const struct unolb_flow *f, u32 i,
					 u64 now_ns, u64 base_rtt_ns)
{
	return unolb_age(now_ns, f->last_ack_ns[i]) > base_rtt_ns >> 1;
}

/*
 * Sets up a flow of nr sub-flows at now_ns, sub-flow i with entropy
 * ent[i]. Every sub-flow starts with its last ACK and last re-path at
 * now_ns, as the artifact's LcpSrc::startflow() does: at the start nothing
 * has gone silent yet, and the first re-path can come one base RTT in.
 * Returns false, and sets nothing, on nr outside 1..UNOLB_MAX_SUBFLOWS, an
 * unknown mode, or a range that is empty or passes 2^32.
 * (__always_inline: a BPF call takes at most five arguments.)
 */
static __always_inline bool unolb_init(struct unolb_flow *f, u32 nr, u32 mode,
				       u64 now_ns, const u32 *ent,
				       u32 ent_base, u32 ent_span)
{
	u32 i;

	if (!nr || nr > UNOLB_MAX_SUBFLOWS || mode > UNOLB_REPATH_COPY_GOOD ||
	    !ent_span || ent_span - 1 > 0xffffffffU - ent_base)
		return false;
	for (i = 0; i < UNOLB_MAX_SUBFLOWS; i++) {
		f->ent[i] = i < nr ? ent[i] : 0;
		f->last_ack_ns[i] = now_ns;
		f->last_reroute_ns[i] = now_ns;
	}
	f->ent_base = ent_base;
	f->ent_span = ent_span;
	f->next = 0;
	f->nr = nr;
	f->mode = mode;
	return true;
}

/*
 * The sub-flow of the next packet, new, parity or resent alike: round
 * robin (Algorithm 2: pkt.entropy = ent[idx]; idx = (idx + 1) mod S), so
 * a block of n = S packets covers every sub-flow. Its entropy is
 * f->ent[] of the index returned.
 */
static __always_inline u32 unolb_next_subflow(struct unolb_flow *f)
{
	u32 i = f->next;

	f->next = i + 1 < f->nr ? i + 1 : 0;
	return i;
}

/*
 * An ACK echoed sub-flow i at now_ns (last_ack[subflow] = now;
 * the artifact's LcpSrc::processAck()). The index comes from the network:
 * one out of range is ignored.
 */
static __always_inline void unolb_on_ack(struct unolb_flow *f, u32 i,
					 u64 now_ns)
{
	if (i < f->nr && i < UNOLB_MAX_SUBFLOWS)
		f->last_ack_ns[i] = now_ns;
}

/* A fresh entropy from the flow's range. */
static __always_inline u32 unolb_fresh(const struct unolb_flow *f, u32 r)
{
	return f->ent_base + reciprocal_scale(r, f->ent_span);
}

/*
 * The re-path rule (Uno Sec. 4.2; the artifact's LcpSrc), on a block NACK for a block not yet
 * complete or a retransmission timeout (the artifact's
 * LcpSrc::processParityNack() and retransmit_packet(); ECN never
 * triggers it, unlike PLB's). Every sub-flow i with
 *
 *	now - last_reroute[i] > base_rtt  and  now - last_ack[i] > base_rtt / 2
 *
 * has gone silent and was not moved within the last base RTT: it gets a
 * new entropy by the flow's mode, from its own draw rnd[i], and
 * last_reroute[i] = now. The good sub-flows COPY_GOOD copies from (an ACK
 * within base_rtt / 2) are those of the moment of the trigger: a sub-flow
 * moved now is not one of them, and it copies the entropy a good one
 * had then.
 *
 * rnd holds at least nr values. Returns the bit mask of the sub-flows
 * whose entropy changed: a sub-flow re-pathed onto the entropy it had
 * (a draw that repeats it, a copy of a sub-flow on the same path) is
 * still rate-limited but has no bit.
 */
static __always_inline u32 unolb_repath(struct unolb_flow *f, u64 now_ns,
					u64 base_rtt_ns, const u32 *rnd)
{
	u32 good[UNOLB_MAX_SUBFLOWS];
	u32 i, e, nr_good = 0, moved = 0;

	if (f->mode == UNOLB_REPATH_OFF)
		return 0;
	for (i = 0; i < UNOLB_MAX_SUBFLOWS && i < f->nr; i++)
		if (!unolb_silent(f, i, now_ns, base_rtt_ns))
			good[nr_good++] = f->ent[i];
	for (i = 0; i < UNOLB_MAX_SUBFLOWS && i < f->nr; i++) {
		if (unolb_age(now_ns, f->last_reroute_ns[i]) <= base_rtt_ns ||
		    !unolb_silent(f, i, now_ns, base_rtt_ns))
			continue;
		if (f->mode == UNOLB_REPATH_COPY_GOOD && nr_good)
			e = good[reciprocal_scale(rnd[i], nr_good)];
		else
			e = unolb_fresh(f, rnd[i]);
		f->last_reroute_ns[i] = now_ns;
		if (e != f->ent[i])
			moved |= 1U << i;
		f->ent[i] = e;
	}
	return moved;
}

#endif /* _UNOLB_CORE_H */
