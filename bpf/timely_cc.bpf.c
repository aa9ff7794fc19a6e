// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_timely: TIMELY (core/timely_core.h) as a BPF struct_ops congestion
 * control, as bpf_swift is Swift's (swift_cc.bpf.c): tcp_timely
 * (Documentation/tcp_swift_timely.rst) on a kernel that loads no modules,
 * with the module's parameters, which the loader writes into conf before
 * the object is loaded.
 *
 * One object for every kernel (tcp_ca.h): one RTT sample per RTT of data
 * in pkts_acked (the ACK that covers what was sent at the previous
 * update), the window that does not bind there and in cong_avoid, and the
 * law's rate as the pacing rate in min_tso_segs, after
 * tcp_update_pacing_rate() has rewritten it. Where it differs from
 * tcp_timely: a segment sent outside tcp_write_xmit() (a retransmission
 * on an ACK) leaves at TCP's own pacing rate.
 */
#include "tcp_ca.h"
#include "timely_core.h"
#include "timely_cc.h"
#include "reflex_cc.h"

char _license[] SEC("license") = "GPL";

#define BPF_TIMELY_DEF_LINE	(TIMELY_DEF_LINK_MBPS * 125000ULL)	/* B/s */

/* tcp_timely's defaults; the loader writes the parameters it is given. */
const volatile struct bpf_timely_conf conf = {
	.law = {
		.max_rate = BPF_TIMELY_DEF_LINE,
		.min_rate = BPF_TIMELY_DEF_LINE / TIMELY_DEF_MIN_DIV,
		.add_step = BPF_TIMELY_DEF_LINE / TIMELY_DEF_ADD_DIV,
		.hai_step = BPF_TIMELY_DEF_LINE / TIMELY_DEF_ADD_DIV *
			    TIMELY_DEF_HAI_MULT,
		.t_low_ns = TIMELY_DEF_T_LOW_NS,
		.t_high_ns = TIMELY_DEF_T_HIGH_NS,
		.min_rtt_ns = TIMELY_DEF_MIN_RTT_NS,
		.beta_ppm = TIMELY_DEF_BETA_PPM,
		.ewma_ppm = TIMELY_DEF_EWMA_PPM,
		.hai_thresh = TIMELY_DEF_HAI_THRESH,
		.hai_mode = TIMELY_HAI_ANY,
	},
	.cwnd_gain_pct = TIMELY_DEF_CWND_GAIN_PCT,
};

/* In icsk_ca_priv, as tcp_timely's, and the flow's Reflex mode. */
struct bpf_timely {
	struct timely_state core;
	u32 next_seq;
	struct rfx_cc rfx;
};

/*
 * cwnd_gain_pct of rate x RTT, in segments, at least TCP's initial
 * window: the smoothed RTT, or the handshake's, capped at 60 s so that
 * rate / 1000 (< 2^30) times it stays in 64 bits.
 */
static __always_inline void bpf_timely_apply_cwnd(struct sock *sk,
						  const struct bpf_timely *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 rtt_us = tp->srtt_us >> 3, min_rtt = tcp_min_rtt(tp);
	u32 mss = tp->mss_cache ? tp->mss_cache : 1;
	u32 clamp = tp->snd_cwnd_clamp ? tp->snd_cwnd_clamp : 1;
	u64 bytes, segs;

	if (clamp > TCP_INFINITE_SSTHRESH)	/* snd_cwnd stays an int */
		clamp = TCP_INFINITE_SSTHRESH;
	if (min_rtt != ~0U && min_rtt > rtt_us)
		rtt_us = min_rtt;
	if (rtt_us > 60 * USEC_PER_SEC)
		rtt_us = 60 * USEC_PER_SEC;
	bytes = ca->core.rate / 1000 * rtt_us / 1000 * conf.cwnd_gain_pct / 100;
	segs = bytes / mss;
	if (segs < TCP_INIT_CWND)
		segs = TCP_INIT_CWND;
	tp->snd_cwnd = segs < clamp ? (u32)segs : clamp;
}

SEC("struct_ops/bpf_timely_init")
void BPF_PROG(bpf_timely_init, struct sock *sk)
{
	struct bpf_timely *ca = inet_csk_ca(sk);
	struct timely_params p = conf.law;

	timely_init(&ca->core, &p);
	ca->next_seq = tcp_sk(sk)->snd_nxt;
	rfx_cc_decide(sk, &ca->rfx, conf.reflex_inter_rtt_us);
	tcp_sk(sk)->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	if (sk->sk_pacing_status == SK_PACING_NONE)
		sk->sk_pacing_status = SK_PACING_NEEDED;
	bpf_timely_apply_cwnd(sk, ca);
	if (ca->core.rate < sk->sk_max_pacing_rate)
		sk->sk_pacing_rate = ca->core.rate;
}

/*
 * An RTT sample into the law, recorded if Reflex is on; src is the
 * near-source sample it is, NULL for an end-to-end one.
 */
static __always_inline void bpf_timely_sample(struct sock *sk,
					      struct bpf_timely *ca, u64 rtt_ns,
					      const struct rfx_pend *src)
{
	struct timely_params p = conf.law;
	u64 before = ca->core.rate;

	timely_on_rtt_sample(&ca->core, &p, rtt_ns);
	if (conf.reflex_inter_rtt_us)
		rfx_cc_record(sk, &ca->rfx, src, ca->core.rate < before, ca->core.rate);
}

/*
 * A Reflex flow's near-source samples, each a TIMELY sample (reflex.md
 * 3.3): before each transmit and on each ACK, whichever comes first
 * after the pseudo-ACK.
 */
static __always_inline void bpf_timely_take_src(struct sock *sk,
						struct bpf_timely *ca)
{
	struct rfx_pend src[RFX_PEND_MAX];
	u32 i, n;

	if (ca->rfx.mode != RFX_CC_REFLEX)
		return;
	n = rfx_cc_take(sk, src);
	for (i = 0; i < n; i++)
		bpf_timely_sample(sk, ca, src[i].rtt_ns, &src[i]);
	if (n)
		bpf_timely_apply_cwnd(sk, ca);
}

/*
 * One sample per RTT of data: TIMELY's completion event. A Reflex flow's
 * own ACKs bring none (reflex_cc.h).
 */
SEC("struct_ops/bpf_timely_pkts_acked")
void BPF_PROG(bpf_timely_pkts_acked, struct sock *sk,
	      const struct ack_sample *sample)
{
	struct bpf_timely *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	s32 rtt_us = sample->rtt_us;

	if (ca->rfx.mode == RFX_CC_UNDECIDED)
		rfx_cc_decide(sk, &ca->rfx, conf.reflex_inter_rtt_us);
	bpf_timely_take_src(sk, ca);
	if (ca->rfx.mode == RFX_CC_E2E && rtt_us > 0 &&
	    !before(tp->snd_una, ca->next_seq)) {
		ca->next_seq = tp->snd_nxt;
		bpf_timely_sample(sk, ca, (u64)rtt_us * NSEC_PER_USEC, NULL);
	}
	bpf_timely_apply_cwnd(sk, ca);
}

SEC("struct_ops/bpf_timely_cong_avoid")
void BPF_PROG(bpf_timely_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	bpf_timely_apply_cwnd(sk, inet_csk_ca(sk));
}

/* Before each transmit: the rate tcp_update_pacing_rate() overwrote. */
SEC("struct_ops/bpf_timely_min_tso_segs")
u32 BPF_PROG(bpf_timely_min_tso_segs, struct sock *sk)
{
	struct bpf_timely *ca = inet_csk_ca(sk);
	unsigned long rate = sk->sk_max_pacing_rate;

	bpf_timely_take_src(sk, ca);
	sk->sk_pacing_rate = ca->core.rate < rate ? ca->core.rate : rate;
	return 2;	/* the kernel's default, sysctl_tcp_min_tso_segs */
}

/* Every RTO: halve the rate, floor R_min, as tcp_timely_set_state(). */
SEC("struct_ops/bpf_timely_set_state")
void BPF_PROG(bpf_timely_set_state, struct sock *sk, u8 new_state)
{
	struct bpf_timely *ca = inet_csk_ca(sk);
	struct timely_params p = conf.law;

	if (new_state != TCP_CA_Loss)
		return;
	timely_on_rto(&ca->core, &p);
	ca->next_seq = tcp_sk(sk)->snd_nxt;
}

SEC("struct_ops/bpf_timely_ssthresh")
u32 BPF_PROG(bpf_timely_ssthresh, struct sock *sk)
{
	return TCP_INFINITE_SSTHRESH;
}

SEC("struct_ops/bpf_timely_undo_cwnd")
u32 BPF_PROG(bpf_timely_undo_cwnd, struct sock *sk)
{
	return tcp_sk(sk)->snd_cwnd;
}

SEC("struct_ops/bpf_timely_release")
void BPF_PROG(bpf_timely_release, struct sock *sk)
{
	const struct bpf_timely *ca = inet_csk_ca(sk);

	if (conf.reflex_inter_rtt_us)
		rfx_cc_release(&ca->rfx);
}

SEC(".struct_ops")
struct tcp_congestion_ops bpf_timely = {
	.init		= (void *)bpf_timely_init,
	.pkts_acked	= (void *)bpf_timely_pkts_acked,
	.cong_avoid	= (void *)bpf_timely_cong_avoid,
	.min_tso_segs	= (void *)bpf_timely_min_tso_segs,
	.set_state	= (void *)bpf_timely_set_state,
	.ssthresh	= (void *)bpf_timely_ssthresh,
	.undo_cwnd	= (void *)bpf_timely_undo_cwnd,
	.release	= (void *)bpf_timely_release,
	.name		= "bpf_timely",
};
