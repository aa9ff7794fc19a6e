/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PLB: Protective Load Balancing as a pure integer law, a baseline load
 * balancer of the ARCANE datapath (../shared/spec/arcane.md, section 2.8,
 * mode PLB; the EV terms of sections 2.1 and 2.2).
 *
 * Qureshi et al., "PLB: Congestion Signals are Simple and Effective for
 * Network Load Balancing", SIGCOMM 2022, and its Linux code, 6.2's
 * net/ipv4/tcp_plb.c (tcp_plb_update_state(), tcp_plb_check_rehash()),
 * whose defaults the spec takes: cong_thresh 128/256, idle_rehash_rounds 3,
 * rehash_rounds 12.
 *
 * A flow keeps one entropy value (EV, an index 0..num_ev-1 that the
 * datapath turns into a UDP source port). It counts ACKs and CE-marked
 * ACKs in rounds of round_acks ACKs (the spec's BDP_PKTS; Linux's round is
 * an RTT). A round is congested if its CE fraction is at least
 * cong_thresh / 256: ce * 256 >= cong_thresh * acks, which is exactly
 * Linux's floor(ce * 256 / acks) >= cong_thresh, without the division.
 * A congested round adds one to a count of consecutive congested rounds
 * (saturating at rehash_rounds, as Linux's does), a clean one clears it.
 * At the end of each round the flow draws a new EV if the count has
 * reached rehash_rounds, or idle_rehash_rounds while the flow is idle (no
 * packets in flight, which the caller tells; 0 turns the idle rule off,
 * as in Linux); a rehash clears the count. The new EV is a fresh random
 * one, as Linux's sk_rethink_txhash(), so it may be the old one.
 *
 * Left out: Linux's pause after an RTO (suspend_rto_sec), since the spec
 * has no RTO rule for PLB. ACKs of packets sent on an EV before a rehash
 * count in the round they arrive in, as in Linux.
 *
 * Randomness is the caller's, as for unolb_repath(): one random u32 per
 * call (bpf_get_prandom_u32() in BPF, taken before the per-flow lock;
 * get_random_u32() in the kernel; a seeded generator in tests), scaled to
 * 0..num_ev-1 without a division as the kernel's reciprocal_scale() does;
 * an ACK that does not rehash ignores its draw. The header uses only the
 * names of core_types.h: no libc, no floating point, no division, no
 * allocation and no loop, so it compiles in a BPF program, the kernel and
 * the C++ tests.
 */
#ifndef _PLB_CORE_H
#define _PLB_CORE_H

#include "core_types.h"

#define PLB_MAX_EV			65536U	/* an EV offsets a 16-bit port */
#define PLB_SCALE			256U	/* cong_thresh's unit: 1/256 */
#define PLB_MAX_ROUNDS			31U	/* Linux's tcp_plb_max_rounds */
#define PLB_DEF_CONG_THRESH		128U	/* 0.5 */
#define PLB_DEF_IDLE_REHASH_ROUNDS	3U
#define PLB_DEF_REHASH_ROUNDS		12U

/* Configuration, shared by all flows. */
struct plb_params {
	u32 num_ev;		/* EVs are 0..num_ev-1: 256 by default */
	u32 round_acks;		/* ACKs per round: BDP_PKTS */
	u32 cong_thresh;	/* congested: CE fraction >= this / 256 */
	u32 idle_rehash_rounds;	/* rehash if idle after this many; 0: never */
	u32 rehash_rounds;	/* rehash regardless after this many */
};

/* Per-flow state, 20 bytes. */
struct plb_flow {
	u32 ev;			/* the flow's EV */
	u32 acks;		/* ACKs in this round so far */
	u32 ce;			/* ... of them CE-marked */
	u32 cong_rounds;	/* consecutive congested rounds */
	u32 rehashes;		/* EVs drawn after the first */
};

/* The spec's defaults for num_ev EVs and rounds of round_acks ACKs. */
static __always_inline void plb_params_default(struct plb_params *p,
					       u32 num_ev, u32 round_acks)
{
	p->num_ev = num_ev;
	p->round_acks = round_acks;
	p->cong_thresh = PLB_DEF_CONG_THRESH;
	p->idle_rehash_rounds = PLB_DEF_IDLE_REHASH_ROUNDS;
	p->rehash_rounds = PLB_DEF_REHASH_ROUNDS;
}

/*
 * Are the params usable? num_ev in 1..PLB_MAX_EV, round_acks at least 1,
 * cong_thresh in 0..256 and idle_rehash_rounds in 0..31, as Linux's
 * sysctls, and rehash_rounds in 1..31: Linux takes 0 too, but then rehashes
 * at the end of every round, congested or not, which balances nothing.
 */
static __always_inline bool plb_params_valid(const struct plb_params *p)
{
	return p->num_ev && p->num_ev <= PLB_MAX_EV && p->round_acks &&
	       p->cong_thresh <= PLB_SCALE &&
	       p->idle_rehash_rounds <= PLB_MAX_ROUNDS &&
	       p->rehash_rounds && p->rehash_rounds <= PLB_MAX_ROUNDS;
}

/* A new flow: its EV from the draw r, and an empty first round. */
static __always_inline void plb_init(struct plb_flow *f,
				     const struct plb_params *p, u32 r)
{
	f->ev = reciprocal_scale(r, p->num_ev);
	f->acks = 0;
	f->ce = 0;
	f->cong_rounds = 0;
	f->rehashes = 0;
}

/*
 * An ACK, CE-marked if ce; idle if the flow has no packet in flight after
 * it; r a random u32. The ACK that completes a round of round_acks ACKs
 * judges it (tcp_plb_update_state()), then decides on a rehash
 * (tcp_plb_check_rehash()) and starts the next round. Returns true if the
 * flow drew a new EV (f->ev), which may equal the old one.
 */
static __always_inline bool plb_on_ack(struct plb_flow *f,
				       const struct plb_params *p,
				       bool ce, bool idle, u32 r)
{
	bool cong;

	f->acks++;
	if (ce)
		f->ce++;
	if (f->acks < p->round_acks)
		return false;

	cong = (u64)f->ce * PLB_SCALE >= (u64)p->cong_thresh * f->acks;
	f->acks = 0;
	f->ce = 0;
	if (!cong)
		f->cong_rounds = 0;
	else if (f->cong_rounds < p->rehash_rounds)
		f->cong_rounds++;

	if (f->cong_rounds < p->rehash_rounds &&
	    !(idle && p->idle_rehash_rounds &&
	      f->cong_rounds >= p->idle_rehash_rounds))
		return false;
	f->ev = reciprocal_scale(r, p->num_ev);
	f->cong_rounds = 0;
	f->rehashes++;
	return true;
}

#endif /* _PLB_CORE_H */
