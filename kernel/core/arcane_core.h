/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ARCANE: the per-flow entropy (EV) law, faithful mode, as pure integer
 * functions.
 *
 * Bonato, Kabbani, Ghalayini, Dohadwala, Papamichael, De Sensi and Hoefler,
 * "ARCANE: Adaptive Routing with Caching and Network Exploration", its
 * pseudo-code listing (ONSEND, ONRECV, get_earliest_entropy), as the
 * project's spec restates it: ../shared/spec/arcane.md sections 2.2
 * (state), 2.3 (normative pseudo-code), 2.4 (rules R1-R11), 2.5 and 2.6
 * (worked example). A BPF program, the kernel and the C++ unit tests
 * compile this header, so it uses only the names of core_types.h: no libc,
 * no floating point, no division or modulo by a non-constant, no
 * allocation, and only a loop bounded by a constant, as the BPF verifier
 * wants.
 *
 * In a few sentences: the switches run plain ECMP, and the sender steers
 * each packet by its entropy value, an index 0..num_ev-1 that becomes the
 * UDP source port ev_base + ev on the wire. Each flow keeps a small FIFO
 * ring of EVs that proved good: the receiver echoed them in an ACK without
 * a CE mark. A good echo buys its EV exactly one more packet, oldest
 * first; a CE-marked ACK, a NACK (trim) or a loss buys nothing, so an EV
 * on a congested or dead path drops out of circulation within about an
 * RTT. When the ring is empty, and for every packet of the flow's first
 * bandwidth-delay product, the sender explores: the next EV of a round
 * robin over 0..num_ev-1.
 *
 * The state is that of the spec's struct arc_flow (section 3.4) without
 * its bpf_spin_lock: the BPF program keeps this struct in a map value next
 * to the lock and calls these functions with the lock held; they call no
 * helper. The caller owns the parameters, which must pass
 * arcane_params_valid(). A change of num_ev or cache_size under a live
 * flow is safe (no index leaves the ring, no EV returned is num_ev or
 * more) but not exact; a flow that is re-initialised starts over (R11).
 */
#ifndef _ARCANE_CORE_H
#define _ARCANE_CORE_H

#include "core_types.h"

/* Ring capacity of the implementation (spec 2.2 [C]); a power of two. */
#define ARCANE_MAX_CACHE	16
#define ARCANE_RING_MASK	(ARCANE_MAX_CACHE - 1)
/* Largest EV space (spec 3.4: num_ev 1..4096). */
#define ARCANE_MAX_NUM_EV	4096

#define ARCANE_DEFAULT_NUM_EV		256	/* NUM_EV [P] */
#define ARCANE_DEFAULT_CACHE_SIZE	8	/* CACHE_SIZE [P] */
#define ARCANE_DEFAULT_EV_BASE		49152	/* EV_BASE [C] */

/*
 * Feedback kinds: the shim header's type values (spec 3.3), so that the
 * ingress program passes shim.type as it is.
 */
#define ARCANE_FB_ACK		2
#define ARCANE_FB_NACK		3

/* Per-flow state (spec 2.2, 3.4), 104 bytes. */
struct arcane_flow {
	u16 ring[ARCANE_MAX_CACHE];	/* FIFO of good EVs, may repeat */
	u8 head;			/* the oldest entry's slot */
	u8 count;			/* entries, 0..cache_size */
	u16 next_ev;			/* exploration cursor */
	u16 explored;			/* exploration draws, up to num_ev */
	u32 sent;			/* packets handled, saturating */
	u64 tx_explore;			/* packets given an explored EV */
	u64 tx_cached;			/* ... a cached EV */
	u64 fb_good;			/* clean ACKs, EV cached */
	u64 fb_ce;			/* CE-marked ACKs */
	u64 fb_nack;			/* NACKs (trimmed packets) */
	u64 fb_ignored;			/* malformed echoes (R10) */
	u64 cache_overwrites;		/* good EVs pushed on a full ring */
};

/* Global parameters (spec 2.2), written by the daemon. */
struct arcane_params {
	u16 num_ev;		/* NUM_EV, 1..ARCANE_MAX_NUM_EV */
	u8 cache_size;		/* CACHE_SIZE, 1..ARCANE_MAX_CACHE */
	u32 bdp_pkts;		/* BDP_PKTS: initial all-explore phase */
};

/*
 * Are the parameters ones the law runs on? bdp_pkts may be anything: 0
 * means no initial phase.
 */
static __always_inline bool arcane_params_valid(const struct arcane_params *p)
{
	return p->num_ev >= 1 && p->num_ev <= ARCANE_MAX_NUM_EV &&
	       p->cache_size >= 1 && p->cache_size <= ARCANE_MAX_CACHE;
}

/*
 * A new flow (spec 2.3 "state per flow"; R11): cursor at EV 0, nothing
 * explored, nothing sent, an empty ring, all counters 0.
 */
static __always_inline void arcane_init(struct arcane_flow *f)
{
	u32 i;

	for (i = 0; i < ARCANE_MAX_CACHE; i++)
		f->ring[i] = 0;
	f->head = 0;
	f->count = 0;
	f->next_ev = 0;
	f->explored = 0;
	f->sent = 0;
	f->tx_explore = 0;
	f->tx_cached = 0;
	f->fb_good = 0;
	f->fb_ce = 0;
	f->fb_nack = 0;
	f->fb_ignored = 0;
	f->cache_overwrites = 0;
}

/* The ring slot after slot i: (i + 1) mod cache_size, by a compare. */
static __always_inline u8 arcane_ring_next(u8 i, const struct arcane_params *p)
{
	return i + 1 < p->cache_size ? i + 1 : 0;
}

/*
 * explore(): the cursor's EV, and the cursor moves on (R5: round robin
 * from 0, wrapping modulo num_ev, bad EVs not skipped). explored counts
 * the draws and saturates at num_ev: the paper's "not all entropies
 * tried" of the initial phase (R6).
 */
static __always_inline u16 arcane_explore(struct arcane_flow *f,
					  const struct arcane_params *p)
{
	u16 ev = f->next_ev;

	/* A cursor past the end is one num_ev shrank under: wrap it. */
	if (ev >= p->num_ev)
		ev = 0;
	f->next_ev = ev + 1 < p->num_ev ? ev + 1 : 0;
	if (f->explored < p->num_ev)
		f->explored++;
	f->tx_explore++;
	return ev;
}

/*
 * cache_push(): append a good EV as the newest entry (R4). The slot
 * indices are below cache_size <= ARCANE_MAX_CACHE already; the mask only
 * shows the BPF verifier that they stay in the ring.
 */
static __always_inline void arcane_cache_push(struct arcane_flow *f,
					      const struct arcane_params *p,
					      u16 ev)
{
	u32 i;

	if (f->count >= p->cache_size) {
		/*
		 * Full: the circular buffer overwrites its oldest entry, which
		 * the next oldest replaces as head (R4 [C]). The good EV lost
		 * is counted; with CACHE_SIZE 1 this is the paper's "remember
		 * only the last good EV" (spec 2.6 step 7).
		 */
		f->ring[f->head & ARCANE_RING_MASK] = ev;
		f->head = arcane_ring_next(f->head, p);
		f->cache_overwrites++;
		return;
	}
	/* Room: the slot after the newest, (head + count) mod cache_size. */
	i = f->head + f->count;
	if (i >= p->cache_size)
		i -= p->cache_size;
	f->ring[i & ARCANE_RING_MASK] = ev;
	f->count++;
}

/*
 * cache_pop_oldest(), on a ring that is not empty: takes the oldest entry
 * out (R2: consume on use; R3: oldest first). Returns false for an entry
 * of num_ev or more, cached before num_ev shrank: it is dropped, and the
 * caller explores instead. With fixed parameters it always returns true.
 */
static __always_inline bool arcane_cache_pop(struct arcane_flow *f,
					     const struct arcane_params *p,
					     u16 *ev)
{
	*ev = f->ring[f->head & ARCANE_RING_MASK];
	f->head = arcane_ring_next(f->head, p);
	f->count--;
	return *ev < p->num_ev;
}

/*
 * on_data_packet_send(): the EV, 0..num_ev-1, of the flow's next data
 * packet, new or retransmitted alike (R9: a retransmission takes the same
 * path as any packet, so a lost packet's EV, consumed when it was sent,
 * comes back only if an earlier clean ACK cached it too). The wire port
 * is ev_base + the EV.
 */
static __always_inline u16 arcane_next_ev(struct arcane_flow *f,
					  const struct arcane_params *p)
{
	u16 ev;

	if (f->sent < p->bdp_pkts && f->explored < p->num_ev) {
		/*
		 * R6, initial phase: nothing is known of the paths yet, so the
		 * first min(bdp_pkts, num_ev) packets each probe a distinct
		 * EV, 0, 1, 2, ..., whatever the ring holds. sent counts the
		 * packets handled here, not sequence numbers, so a late
		 * retransmission of an early packet does not re-enter it.
		 */
		ev = arcane_explore(f, p);
	} else if (f->count && arcane_cache_pop(f, p, &ev)) {
		/*
		 * R2, R3: a known-good EV, the oldest; each clean ACK pays
		 * for exactly one more packet on its EV.
		 */
		f->tx_cached++;
	} else {
		/*
		 * R7: nothing known-good (every recent echo was CE, a NACK
		 * or lost, or the window grew): try the next EV (R5).
		 */
		ev = arcane_explore(f, p);
	}
	/* F.sent = min(F.sent + 1, 2^32 - 1) */
	if (f->sent != 0xffffffffU)
		f->sent++;
	return ev;
}

/*
 * on_feedback(): an ACK or NACK echoed ev; ce is the echoed CE bit. kind
 * is ARCANE_FB_ACK or ARCANE_FB_NACK; anything else, like an EV of num_ev
 * or more, is a malformed echo (R10): ignored, and counted.
 */
static __always_inline void arcane_on_feedback(struct arcane_flow *f,
					       const struct arcane_params *p,
					       u32 kind, u32 ev, bool ce)
{
	if (ev >= p->num_ev ||
	    (kind != ARCANE_FB_ACK && kind != ARCANE_FB_NACK)) {
		/* R10: not an EV this flow could have sent. */
		f->fb_ignored++;
		return;
	}
	if (kind == ARCANE_FB_NACK) {
		/*
		 * A trimmed packet: treated as CE (spec 2.5 [C]), the EV is
		 * not stored, whatever the CE echo says, and a later send
		 * explores instead of reusing it.
		 */
		f->fb_nack++;
		return;
	}
	if (ce) {
		/*
		 * The packet was CE-marked on its path: the EV is not
		 * recycled (spec 2.5 [P]), so load leaves the hot link.
		 */
		f->fb_ce++;
		return;
	}
	/* A clean ACK: the path looked good, recycle its EV once (R2). */
	arcane_cache_push(f, p, (u16)ev);
	f->fb_good++;
}

#endif /* _ARCANE_CORE_H */
