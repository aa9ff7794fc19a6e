// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_swift: Swift (core/swift_core.h) as a BPF struct_ops congestion
 * control, the host on which Reflex's near-source samples will reach the
 * law (reflex.md 4.4 H1 c, design notes 2). With end-to-end samples, as
 * here, it is tcp_swift (Documentation/tcp_swift_timely.rst) on a kernel
 * that loads no modules: the same law and the same parameters, which the
 * loader writes into conf before the object is loaded.
 *
 * One object for every kernel (tcp_ca.h): the window is applied on each
 * ACK in pkts_acked, which brings the RTT sample, and again in
 * cong_avoid; the pacing rate of a window below one packet in
 * min_tso_segs, after tcp_update_pacing_rate() has rewritten it. Where it
 * differs from tcp_swift: pkts_acked counts the segments cumulatively
 * acknowledged (an ACK of SACKed data only brings no sample), PRR sets
 * the window in recovery (towards the law's, set_state), and a segment
 * sent outside tcp_write_xmit() (a retransmission on an ACK) leaves at
 * TCP's own pacing rate.
 */
#include "tcp_ca.h"
#include "swift_core.h"
#include "swift_cc.h"
#include "reflex_cc.h"

char _license[] SEC("license") = "GPL";

/* tcp_swift's defaults; the loader writes the parameters it is given. */
const volatile struct bpf_swift_conf conf = {
	.law = {
		.min_cwnd = SWIFT_DEF_MIN_CWND,
		.max_cwnd = SWIFT_CWND_MAX,
		.ai = SWIFT_DEF_AI,
		.fs_min_cwnd = SWIFT_DEF_FS_MIN_CWND,
		.fs_max_cwnd = SWIFT_DEF_FS_MAX_CWND,
		.base_rtt_ns = SWIFT_DEF_BASE_RTT_NS,
		.base_delay_ns = SWIFT_DEF_BASE_DELAY_NS,
		.hop_delay_ns = SWIFT_DEF_HOP_DELAY_NS,
		.beta_ppm = SWIFT_DEF_BETA_PPM,
		.max_mdf_ppm = SWIFT_DEF_MAX_MDF_PPM,
		.retx_reset = SWIFT_DEF_RETX_RESET,
	},
	.link_rate_mbps = SWIFT_DEF_LINK_MBPS,
	.max_cwnd_bdp_pct = SWIFT_DEF_MAX_CWND_BDP_PCT,
	.hops_intra = SWIFT_DEF_HOPS_INTRA,
	.hops_inter = SWIFT_DEF_HOPS_INTER,
	.inter_rtt_us = SWIFT_DEF_INTER_RTT_US,
};

/* In icsk_ca_priv, as tcp_swift's, and the flow's Reflex mode. */
struct bpf_swift {
	struct swift_state core;
	u64 max_cwnd;
	u8 rtt_known;
	struct rfx_cc rfx;
};

static __always_inline void bpf_swift_params(const struct bpf_swift *ca,
					     struct swift_params *p)
{
	*p = conf.law;
	p->max_cwnd = ca->max_cwnd > p->min_cwnd ? ca->max_cwnd : p->min_cwnd;
}

/*
 * A Reflex flow's window describes the near-source loop, so it is paced
 * as a rate, cwnd x MSS / max(RTT_src, base RTT), and its window in
 * flight is what that rate needs over the end-to-end RTT, or the law's
 * if larger (reflex.md 3.3, swift_reflex_window = rate_equivalent).
 */
static __always_inline u64 bpf_swift_reflex_rate(struct sock *sk,
						 const struct bpf_swift *ca)
{
	u32 rtt = ca->core.rtt_ns > conf.law.base_rtt_ns ?
		  ca->core.rtt_ns : conf.law.base_rtt_ns;

	return swift_pacing_rate(&ca->core, tcp_sk(sk)->mss_cache, rtt ? rtt : 1);
}

/*
 * The window TCP keeps, segments: the law's, or a Reflex flow's rate over
 * its end-to-end RTT if larger, within the clamp. It is also what
 * recovery aims at (set_state) and undo restores: a loss must not shrink
 * a Reflex flow to its near-source window (3.3 rejects that, strict).
 */
static __always_inline u32 bpf_swift_window(struct sock *sk,
					    const struct bpf_swift *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u64 segs = swift_cwnd_segs(&ca->core), flight;
	u32 clamp = tp->snd_cwnd_clamp;
	u32 mss = tp->mss_cache ? tp->mss_cache : 1;
	u64 srtt_us = tp->srtt_us >> 3;

	if (ca->rfx.mode == RFX_CC_REFLEX) {
		/* the rate below 2^40 bytes/s, the RTT capped at 10 s (2^24 us) */
		if (srtt_us > 10 * USEC_PER_SEC)
			srtt_us = 10 * USEC_PER_SEC;
		flight = bpf_swift_reflex_rate(sk, ca) * srtt_us / USEC_PER_SEC / mss;
		if (flight > segs)
			segs = flight;
	}
	return segs < clamp ? (u32)segs : (clamp ? clamp : 1);
}

static __always_inline void bpf_swift_apply_cwnd(struct sock *sk,
						 const struct bpf_swift *ca)
{
	tcp_sk(sk)->snd_cwnd = bpf_swift_window(sk, ca);
}

static __always_inline void bpf_swift_apply_pacing(struct sock *sk,
						   const struct bpf_swift *ca)
{
	unsigned long rate = sk->sk_max_pacing_rate;
	u64 r = 0;

	if (ca->rfx.mode == RFX_CC_REFLEX)
		r = bpf_swift_reflex_rate(sk, ca);
	else if (ca->core.cwnd < SWIFT_CWND_ONE && ca->core.rtt_ns)
		r = swift_pacing_rate(&ca->core, tcp_sk(sk)->mss_cache,
				      ca->core.rtt_ns);
	if (r && r < rate)
		rate = r;
	sk->sk_pacing_rate = rate;
}

static __always_inline u64 bpf_swift_now_ns(const struct sock *sk)
{
	return tcp_sk(sk)->tcp_mstamp * NSEC_PER_USEC;
}

/*
 * As tcp_swift_start(): on the base RTT, or again at the first sample. A
 * Reflex flow's law runs the near-source loop, an intra-DC one: its hops
 * and its BDP are the base RTT's.
 */
static __always_inline void bpf_swift_start(struct sock *sk,
					    struct bpf_swift *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 rtt_us = tcp_min_rtt(tp);
	struct swift_params p;
	u32 hops;

	ca->rtt_known = rtt_us != ~0U;
	if (!ca->rtt_known)
		rtt_us = 0;
	hops = rtt_us > conf.inter_rtt_us ? conf.hops_inter : conf.hops_intra;
	rfx_cc_decide(sk, &ca->rfx, conf.reflex_inter_rtt_us);
	if (ca->rfx.mode == RFX_CC_REFLEX) {
		rtt_us = conf.law.base_rtt_ns / 1000;
		hops = conf.hops_intra;
	}
	ca->max_cwnd = swift_bdp_cwnd(conf.link_rate_mbps, conf.max_cwnd_bdp_pct,
				      rtt_us, tp->mss_cache);
	bpf_swift_params(ca, &p);
	swift_init(&ca->core, &p, hops, ca->max_cwnd);
}

/*
 * An RTT sample into the law, recorded if Reflex is on; src is the
 * near-source sample it is, NULL for an ACK's.
 */
static __always_inline void bpf_swift_sample(struct sock *sk,
					     struct bpf_swift *ca, u64 rtt_ns,
					     u32 acked,
					     const struct rfx_pend *src)
{
	u64 before = ca->core.cwnd;
	struct swift_params p;

	bpf_swift_params(ca, &p);
	swift_on_ack(&ca->core, &p, rtt_ns, acked, bpf_swift_now_ns(sk));
	if (conf.reflex_inter_rtt_us)
		rfx_cc_record(sk, &ca->rfx, src, ca->core.cwnd < before,
			      src ? bpf_swift_reflex_rate(sk, ca) : sk->sk_pacing_rate);
}

SEC("struct_ops/bpf_swift_init")
void BPF_PROG(bpf_swift_init, struct sock *sk)
{
	struct bpf_swift *ca = inet_csk_ca(sk);

	bpf_swift_start(sk, ca);
	tcp_sk(sk)->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	if (sk->sk_pacing_status == SK_PACING_NONE)
		sk->sk_pacing_status = SK_PACING_NEEDED;
	bpf_swift_apply_cwnd(sk, ca);
	bpf_swift_apply_pacing(sk, ca);
}

/*
 * A Reflex flow's near-source samples, each as an ACK of the packets it
 * covered at its RTT_src (reflex.md 3.3): before each transmit and on
 * each ACK, whichever comes first after the pseudo-ACK.
 */
static __always_inline void bpf_swift_take_src(struct sock *sk,
					       struct bpf_swift *ca)
{
	struct rfx_pend src[RFX_PEND_MAX];
	u32 i, n;

	if (ca->rfx.mode != RFX_CC_REFLEX)
		return;
	n = rfx_cc_take(sk, src);
	for (i = 0; i < n; i++)
		bpf_swift_sample(sk, ca, src[i].rtt_ns, src[i].acked, &src[i]);
	if (n)
		bpf_swift_apply_cwnd(sk, ca);
}

/*
 * Every ACK that acknowledges data, with its RTT sample; a Reflex flow's
 * bring none (reflex_cc.h), but end a run of RTOs as any ACK does.
 */
SEC("struct_ops/bpf_swift_pkts_acked")
void BPF_PROG(bpf_swift_pkts_acked, struct sock *sk,
	      const struct ack_sample *sample)
{
	struct bpf_swift *ca = inet_csk_ca(sk);
	s32 rtt_us = sample->rtt_us;
	u32 acked = sample->pkts_acked;

	bpf_swift_take_src(sk, ca);
	if (rtt_us <= 0 || !acked)
		return;
	if (!ca->rtt_known)
		bpf_swift_start(sk, ca);
	if (ca->rfx.mode != RFX_CC_REFLEX)
		bpf_swift_sample(sk, ca, (u64)rtt_us * NSEC_PER_USEC, acked, NULL);
	else
		swift_on_progress(&ca->core);
	bpf_swift_apply_cwnd(sk, ca);
}

SEC("struct_ops/bpf_swift_cong_avoid")
void BPF_PROG(bpf_swift_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	bpf_swift_apply_cwnd(sk, inet_csk_ca(sk));
}

/* Before each transmit: the rate tcp_update_pacing_rate() overwrote. */
SEC("struct_ops/bpf_swift_min_tso_segs")
u32 BPF_PROG(bpf_swift_min_tso_segs, struct sock *sk)
{
	struct bpf_swift *ca = inet_csk_ca(sk);

	bpf_swift_take_src(sk, ca);
	bpf_swift_apply_pacing(sk, ca);
	return 2;	/* the kernel's default, sysctl_tcp_min_tso_segs */
}

/*
 * Fast recovery and every RTO, as tcp_swift_set_state(). In recovery,
 * without cong_control, TCP's PRR sets the window on each ACK, towards
 * snd_ssthresh: the law's window after its cut is that target, until
 * the flow is Open again.
 */
SEC("struct_ops/bpf_swift_set_state")
void BPF_PROG(bpf_swift_set_state, struct sock *sk, u8 new_state)
{
	struct bpf_swift *ca = inet_csk_ca(sk);
	u64 now = bpf_swift_now_ns(sk);
	struct swift_params p;

	bpf_swift_params(ca, &p);
	if (new_state == TCP_CA_Recovery) {
		swift_on_fast_recovery(&ca->core, &p, now);
		tcp_sk(sk)->snd_ssthresh = bpf_swift_window(sk, ca);
	} else if (new_state == TCP_CA_Loss) {
		swift_on_rto(&ca->core, &p, now);
	} else if (new_state == TCP_CA_Open) {
		tcp_sk(sk)->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	}
}

SEC("struct_ops/bpf_swift_ssthresh")
u32 BPF_PROG(bpf_swift_ssthresh, struct sock *sk)
{
	return TCP_INFINITE_SSTHRESH;
}

SEC("struct_ops/bpf_swift_undo_cwnd")
u32 BPF_PROG(bpf_swift_undo_cwnd, struct sock *sk)
{
	return bpf_swift_window(sk, inet_csk_ca(sk));
}

SEC("struct_ops/bpf_swift_release")
void BPF_PROG(bpf_swift_release, struct sock *sk)
{
	const struct bpf_swift *ca = inet_csk_ca(sk);

	if (conf.reflex_inter_rtt_us)
		rfx_cc_release(&ca->rfx);
}

SEC(".struct_ops")
struct tcp_congestion_ops bpf_swift = {
	.init		= (void *)bpf_swift_init,
	.pkts_acked	= (void *)bpf_swift_pkts_acked,
	.cong_avoid	= (void *)bpf_swift_cong_avoid,
	.min_tso_segs	= (void *)bpf_swift_min_tso_segs,
	.set_state	= (void *)bpf_swift_set_state,
	.ssthresh	= (void *)bpf_swift_ssthresh,
	.undo_cwnd	= (void *)bpf_swift_undo_cwnd,
	.release	= (void *)bpf_swift_release,
	.name		= "bpf_swift",
};
