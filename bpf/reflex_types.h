/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The values of Reflex's maps that hold a lock, for the programs and for
 * user space, which reads them (the loader, the tests). Include
 * core_types.h and reflex_core.h first.
 */
#ifndef _UNO_REFLEX_TYPES_H
#define _UNO_REFLEX_TYPES_H

#include <linux/bpf.h>	/* struct bpf_spin_lock */

/* A pseudo-ACK NSF decided on, until its clone is built. */
struct nsf_answer {
	struct nsf_pack pack;
	u64 pack_ns;		/* when it was decided */
	u32 data_seq;		/* its data packet's sequence number */
	__be16 echo_ts16;	/* and stamp, as it carried them */
};

/*
 * The answers of a flow still to be built: a clone waits in the LAN
 * port's backlog, and the flow may answer again (T_interval later)
 * before it is built. Each clone's mark names its answer's fb_seq.
 */
#define NSF_ANSWER_RING	4

/* A gateway's flow (nsf_flows): NSF's machine and its latest answers. */
struct nsf_entry {
	struct bpf_spin_lock lock;
	struct nsf_flow flow;
	struct nsf_answer ring[NSF_ANSWER_RING];	/* by fb_seq */
	u64 first_pack_ns;	/* the flow's first answer (diagnostics) */
};

/* The answer of fb_seq (the latest: the flow's fb_seq). */
static inline struct nsf_answer *nsf_answer_of(struct nsf_entry *e, u32 fb_seq)
{
	return &e->ring[fb_seq % NSF_ANSWER_RING];
}

/* A near-source sample the host accepted and the CC has not applied. */
struct rfx_pend {
	u64 rtt_ns;	/* RTT_src */
	u64 fb_ns;	/* when its pseudo-ACK came */
	u32 acked;	/* the packets it covered (reflex.md 3.3: num_acked) */
	u32 rsvd;
};

/*
 * The samples a mailbox holds for the CC, each applied as its own
 * (reflex.md 3.3: each pseudo-ACK a sample): a sender with nothing to
 * send takes none for up to an RTT, and TIMELY's first sample only
 * primes its gradient. Beyond these, a sample folds into the last.
 */
#define RFX_PEND_MAX	4

/*
 * A socket's mailbox (rfx_sk): the samples the host accepted and the CC
 * has not applied yet, pend_n of them in pend[], in the order they came;
 * pend_samples counts them all, folded ones too. rfx_fb writes and the
 * CC drains under the lock; last_fb_seq is reflex_accept()'s, the
 * flow's newest pseudo-ACK.
 */
struct rfx_sk_state {
	struct bpf_spin_lock lock;
	u32 last_fb_seq;
	u32 pend_samples;
	u32 pend_n;
	struct rfx_pend pend[RFX_PEND_MAX];
};

#endif /* _UNO_REFLEX_TYPES_H */
