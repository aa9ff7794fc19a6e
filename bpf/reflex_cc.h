/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A struct_ops CC's side of Reflex (reflex.md 2.5, 3.3): which of its
 * flows take near-source samples, the mailbox they come through
 * (reflex_sk.h) and the record of each flow in rfx_flows. Include
 * tcp_ca.h first.
 *
 * With reflex_inter_rtt_us 0 (the default) the CC is the end-to-end one
 * and none of this runs. Otherwise every flow is recorded, and a flow
 * whose handshake RTT is above it, an inter-DC flow, takes its RTT
 * samples from the gateway's pseudo-ACKs only: it gets a mailbox, and
 * its own ACKs bring the law no sample (2.5 on_real_ack). A flow that
 * never sees near-source congestion then keeps its initial rate (2.5).
 */
#ifndef _UNO_REFLEX_CC_H
#define _UNO_REFLEX_CC_H

#include <linux/bpf.h>
#include <bpf/bpf_endian.h>
#include "reflex_core.h"
#include "reflex_sk.h"

/* A flow's mode */
#define RFX_CC_UNDECIDED	0	/* no handshake RTT yet */
#define RFX_CC_E2E		1	/* samples from its own ACKs */
#define RFX_CC_REFLEX		2	/* samples from pseudo-ACKs only */

/*
 * In the CC's private state. The flow's key is kept from the start: a
 * closing socket gives its port up (inet_num 0), and tcp_disconnect()
 * its addresses, before its CC's release.
 */
struct rfx_cc {
	struct rfx_flow4 key;	/* the data direction, network order */
	u8 mode;		/* RFX_CC_* */
};

/*
 * A map key must be on the stack or in a map for 6.1's verifier, not in
 * the socket (icsk_ca_priv): the helpers below copy it.
 */
static __always_inline struct rfx_flow_info *rfx_cc_info(const struct rfx_cc *rc)
{
	struct rfx_flow4 key = rc->key;

	return bpf_map_lookup_elem(&rfx_flows, &key);
}

/*
 * The flow's mode once its handshake RTT is known (RFX_CC_UNDECIDED
 * before), with its record and, for a Reflex flow, its mailbox made.
 */
static __always_inline void rfx_cc_decide(struct sock *sk, struct rfx_cc *rc,
					  u32 inter_rtt_us)
{
	u32 rtt_us = tcp_min_rtt(tcp_sk(sk));
	struct rfx_flow_info info = {};
	struct rfx_flow4 key;

	rc->mode = RFX_CC_E2E;
	if (!inter_rtt_us)
		return;
	if (rtt_us == ~0U) {
		rc->mode = RFX_CC_UNDECIDED;
		return;
	}
	rc->key.saddr = sk->__sk_common.skc_rcv_saddr;
	rc->key.daddr = sk->__sk_common.skc_daddr;
	rc->key.sport = bpf_htons(sk->__sk_common.skc_num);
	rc->key.dport = sk->__sk_common.skc_dport;
	info.reflex = rtt_us > inter_rtt_us;
	key = rc->key;
	bpf_map_update_elem(&rfx_flows, &key, &info, BPF_ANY);
	if (info.reflex &&
	    bpf_sk_storage_get(&rfx_sk, sk, NULL, BPF_SK_STORAGE_GET_F_CREATE))
		rc->mode = RFX_CC_REFLEX;
}

/*
 * Takes what the mailbox holds into out[], in the order it came: the
 * number of samples, each to be applied as its own.
 */
static __always_inline u32 rfx_cc_take(struct sock *sk,
				       struct rfx_pend out[RFX_PEND_MAX])
{
	struct rfx_sk_state *st = bpf_sk_storage_get(&rfx_sk, sk, NULL, 0);
	u32 n;

	if (!st)
		return 0;
	bpf_spin_lock(&st->lock);
	n = st->pend_n;
	__builtin_memcpy(out, st->pend, sizeof(st->pend));
	st->pend_n = 0;
	st->pend_samples = 0;
	bpf_spin_unlock(&st->lock);
	return n < RFX_PEND_MAX ? n : RFX_PEND_MAX;
}

/*
 * The first cut, at now_ns, on the sample src brought, and the loop it
 * closed: from the gateway's first congested packet of the latest
 * episode (the flow's leaving SILENT) the host accepted, rfx_fb_deliver()'s
 * episode_ns, written under the mailbox's lock that rfx_cc_take() took
 * before, to the coming of the pseudo-ACK that brought the sample.
 * Measured from the flow's first episode instead, an episode the law
 * rightly ignored (TIMELY's first sample only primes its gradient, and a
 * queue that falls by the next is none) would count until the next.
 *
 * The loop ends when the feedback comes, not when the law takes it: the
 * CC takes it before the sender's next transmit (or on its next ACK), so
 * no packet leaves at the old rate in between, however long a sender
 * with nothing to send waits (cut_wait_ns).
 */
static __always_inline void rfx_cc_first_cut(struct rfx_flow_info *info,
					     u64 now_ns,
					     const struct rfx_pend *src)
{
	info->first_cut_ns = now_ns;
	if (!src || now_ns < src->fb_ns)
		return;
	info->cut_wait_ns = now_ns - src->fb_ns;
	if (info->episode_ns && src->fb_ns > info->episode_ns)
		info->loop_ns = src->fb_ns - info->episode_ns;
}

/*
 * Records a sample the law took (src: from the gateway; NULL: its own
 * ACK's), whether it lowered the rate, and the rate the flow now has:
 * the first lowering closes the control loop (issue 15's measure).
 */
static __always_inline void rfx_cc_record(struct sock *sk,
					  const struct rfx_cc *rc,
					  const struct rfx_pend *src,
					  bool cut, u64 rate)
{
	struct rfx_flow_info *info = rfx_cc_info(rc);

	if (!info)
		return;
	if (src)
		info->samples_src++;
	else
		info->samples_e2e++;
	if (cut) {
		info->cuts++;
		if (!info->first_cut_ns)
			rfx_cc_first_cut(info, bpf_ktime_get_ns(), src);
	}
	info->rate_Bps = rate;
	info->cwnd = tcp_sk(sk)->snd_cwnd;
}

/* The socket closes: its record goes; its mailbox goes with it. */
static __always_inline void rfx_cc_release(const struct rfx_cc *rc)
{
	struct rfx_flow4 key = rc->key;

	if (rc->mode != RFX_CC_UNDECIDED)
		bpf_map_delete_elem(&rfx_flows, &key);
}

#endif /* _UNO_REFLEX_CC_H */
