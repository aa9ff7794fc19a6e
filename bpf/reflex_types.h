/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The values of Reflex's maps that hold a lock, for the programs and for
 * user space, which reads them (the loader, the tests). Include
 * core_types.h and reflex_core.h first.
 */
#ifndef _UNO_REFLEX_TYPES_H
#define _UNO_REFLEX_TYPES_H

#include <linux/bpf.h>	/* struct bpf_spin_lock */

/* A gateway's flow (nsf_flows): NSF's machine and its latest answer. */
struct nsf_entry {
	struct bpf_spin_lock lock;
	struct nsf_flow flow;
	struct nsf_pack pack;	/* the latest pseudo-ACK, for nsf_build */
	u64 pack_ns;		/* when it was decided */
	u32 data_seq;		/* its data packet's sequence number */
	__be16 echo_ts16;	/* and stamp, as it carried them */
	u64 first_pack_ns;	/* the flow's first one (diagnostics) */
};

/*
 * A socket's mailbox (rfx_sk): the samples the host accepted and the CC
 * has not applied yet, the latest RTT_src and the packets all of them
 * covered (reflex.md 3.3: Swift's num_acked). rfx_fb writes and the CC
 * drains under the lock; last_fb_seq is reflex_accept()'s, the flow's
 * newest pseudo-ACK.
 */
struct rfx_sk_state {
	struct bpf_spin_lock lock;
	u32 last_fb_seq;
	u32 pend_samples;
	u32 pend_acked;
	u64 pend_rtt_ns;
};

#endif /* _UNO_REFLEX_TYPES_H */
