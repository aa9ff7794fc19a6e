/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Swift: the delay-target window law as pure integer functions, a host
 * congestion control of the Reflex study (../shared/spec/reflex.md,
 * sections 3.2 and 3.3; Reflex paper section II-B, whose Observation 2
 * quotes the decrease below).
 *
 * Kumar et al., "Swift: Delay is Simple and Effective for Congestion
 * Control in the Datacenter", SIGCOMM 2020, Algorithm 1 (the window),
 * section 3.1 (target delay: base, per-hop scaling, flow scaling) and
 * section 3.5 (windows below one packet, carried by pacing):
 *
 *	target = base_rtt + base_delay + hops x hop_delay + fs(cwnd)
 *	on ACK:  retx_cnt = 0
 *	         delay < target: cwnd += ai x num_acked / cwnd   (cwnd >= 1)
 *	                         cwnd += ai x num_acked          (cwnd < 1)
 *	         else, at most once per RTT:
 *	           cwnd *= max(1 - beta (delay - target) / delay, 1 - max_mdf)
 *	on fast recovery: retx_cnt = 0; once per RTT cwnd *= 1 - max_mdf
 *	on RTO:  retx_cnt++; retx_cnt >= RETX_RESET: cwnd = min_cwnd,
 *	         else once per RTT cwnd *= 1 - max_mdf
 *	then     cwnd = clamp(cwnd, min_cwnd, max_cwnd), and if the window
 *	         went down, t_last_decrease = now
 *	pacing:  cwnd < 1: one packet every rtt / cwnd; else window-limited
 *
 * "Once per RTT" is now - t_last_decrease >= rtt, with rtt the latest
 * sample (the one this ACK brings). The spec's base_rtt (8 us, the
 * intra-DC propagation RTT) is part of every target, so that an inter-DC
 * RTT is far above it, as the Reflex paper describes (spec 3.2, 7.3).
 *
 * Flow scaling (section 3.1): fs(c) = clamp(A / sqrt(c) + B, 0, fs_range)
 * with A = fs_range / (1 / sqrt(fs_min_cwnd) - 1 / sqrt(fs_max_cwnd)) and
 * B = -A / sqrt(fs_max_cwnd), so fs(fs_min_cwnd) = fs_range and
 * fs(fs_max_cwnd) = 0. Substituting A and B,
 *
 *	fs(c) = fs_range (1/sqrt(c) - 1/sqrt(max)) / (1/sqrt(min) - 1/sqrt(max))
 *
 * a ratio in which the scale of 1/sqrt cancels: swift_inv_sqrt() computes
 * it as 2^40 / isqrt(c << 20) for c in micro-packets. Off (fs_range 0) by
 * default (spec 3.2).
 *
 * Who calls what (spec 2.5, 3.3): each ACK, or in Reflex mode each
 * pseudo-ACK, is one swift_on_ack() with its RTT and the packets it
 * covers, an ACK without a sample swift_on_progress(); transport losses
 * call swift_on_fast_recovery() and swift_on_rto(). hops is the flow's,
 * set at swift_init(): 3 intra-DC, 6 inter-DC, 3 for the pseudo-ACK
 * loop. Converting a near-source window
 * into an end-to-end rate (spec 3.3) is the caller's, with
 * swift_pacing_rate().
 *
 * Units: the window is in micro-packets (u64, SWIFT_CWND_ONE = 1 packet),
 * so the spec's 0.001-packet floor, 0.1 and 100-packet scaling bounds and
 * a 10.1-packet window are exact; times are ns (RTT and delay u32, the
 * clock u64); beta and max_mdf are parts per million. Every product is
 * bounded by the limits below. No libc, no floating point and one loop,
 * bounded by a constant (the square root), so the header compiles in a
 * BPF program, the kernel and the C++ tests.
 */
#ifndef _SWIFT_CORE_H
#define _SWIFT_CORE_H

#include "core_types.h"

#define SWIFT_PPM_ONE		1000000U	/* 1.0 in parts per million */
#define SWIFT_CWND_ONE		1000000ULL	/* one packet of window */
/* Largest window, 2^40 micro-packets (1.1 M packets): x ppm < 2^60. */
#define SWIFT_CWND_MAX		BIT_ULL(40)
/* Largest additive increase per RTT, 16.7 packets. */
#define SWIFT_AI_MAX		BIT_ULL(24)
/* Packets one ACK may cover: ai x acked x 10^6 < 2^60. */
#define SWIFT_ACKED_MAX		65535U
/* Longest delay, ns (4.29 s): beta x delay < 2^52. */
#define SWIFT_DELAY_MAX		0xffffffffU
/* Bounds of the target's terms, ns: their sum stays in 32 bits. */
#define SWIFT_BASE_MAX		BIT(30)
#define SWIFT_HOP_DELAY_MAX	BIT(20)
#define SWIFT_HOPS_MAX		255U
#define SWIFT_FS_RANGE_MAX	BIT(30)
#define SWIFT_RETX_RESET_MAX	1000U
/* Highest rate swift_pacing_rate() returns, bytes/s (8.8 Tbit/s). */
#define SWIFT_RATE_MAX		BIT_ULL(40)
/* 1/sqrt(c) = 2^SWIFT_INV_SHIFT / isqrt(c << SWIFT_SQRT_SHIFT), c in upkt */
#define SWIFT_SQRT_SHIFT	20
#define SWIFT_INV_SHIFT		40

/*
 * Defaults (spec 3.2). Of these the Reflex paper gives base_delay and
 * hop_delay (section II-C); the rest are the spec's [default]s. Table I
 * lists Reflex's own parameters only.
 */
#define SWIFT_DEF_BASE_RTT_NS	8000U		/* intra-DC base RTT */
#define SWIFT_DEF_BASE_DELAY_NS	200U		/* paper */
#define SWIFT_DEF_HOP_DELAY_NS	1000U		/* paper */
#define SWIFT_DEF_AI		SWIFT_CWND_ONE	/* 1 packet per RTT */
#define SWIFT_DEF_BETA_PPM	800000U
#define SWIFT_DEF_MAX_MDF_PPM	500000U
#define SWIFT_DEF_MIN_CWND	1000ULL		/* 0.001 packet */
#define SWIFT_DEF_RETX_RESET	5U
#define SWIFT_DEF_FS_MIN_CWND	100000ULL	/* 0.1 packet */
#define SWIFT_DEF_FS_MAX_CWND	100000000ULL	/* 100 packets */

/*
 * The transport hosts' (tcp_swift, bpf_swift): the line rate of the BDP
 * cap (reflex.md 5.1: 100 Gbit/s) and its share, the hops of each class
 * (3.2), and the handshake RTT above which a flow is inter-DC (between
 * 3.2's 8 us and 1012 us).
 */
#define SWIFT_DEF_LINK_MBPS		100000U
#define SWIFT_DEF_MAX_CWND_BDP_PCT	100U
#define SWIFT_DEF_HOPS_INTRA		3U
#define SWIFT_DEF_HOPS_INTER		6U
#define SWIFT_DEF_INTER_RTT_US		100U

/* Configuration, shared by all flows. */
struct swift_params {
	u64 min_cwnd;		/* micro-packets */
	u64 max_cwnd;		/* micro-packets: BDP at line rate */
	u64 ai;			/* additive increase per RTT, upkt */
	u64 fs_min_cwnd;	/* window of the largest fs, upkt */
	u64 fs_max_cwnd;	/* window from which fs is 0, upkt */
	u32 base_rtt_ns;	/* propagation RTT in every target */
	u32 base_delay_ns;	/* Swift's base target delay */
	u32 hop_delay_ns;	/* per switch hop */
	u32 fs_range_ns;	/* flow scaling's largest delay; 0: off */
	u32 beta_ppm;		/* decrease gain */
	u32 max_mdf_ppm;	/* largest decrease per RTT */
	u32 retx_reset;		/* RTOs in a row that reset the window */
};

/* Per-flow state, 32 bytes. */
struct swift_state {
	u64 cwnd;		/* micro-packets, in [min_cwnd, max_cwnd] */
	u64 t_last_dec_ns;	/* when the window last went down */
	u32 rtt_ns;		/* latest RTT sample; 0: none yet */
	u32 retx_cnt;		/* RTOs since the last ACK or recovery */
	u32 hops;		/* switch hops of the measured path */
	u32 flags;		/* SWIFT_F_* */
};

#define SWIFT_F_DECREASED	0x01U	/* t_last_dec_ns is set */

/* Return bits of the event functions. */
#define SWIFT_EV_AI		0x01	/* additive increase */
#define SWIFT_EV_MD		0x02	/* multiplicative decrease applied */
#define SWIFT_EV_MD_HELD	0x04	/* due, but one was taken this RTT */
#define SWIFT_EV_RESET		0x08	/* RETX_RESET: window to min_cwnd */
#define SWIFT_EV_DECREASED	0x10	/* the window went down */

/* The spec's defaults, with the window capped at max_cwnd micro-packets. */
static __always_inline void swift_params_default(struct swift_params *p,
						 u64 max_cwnd)
{
	p->min_cwnd = SWIFT_DEF_MIN_CWND;
	p->max_cwnd = max_cwnd;
	p->ai = SWIFT_DEF_AI;
	p->fs_min_cwnd = SWIFT_DEF_FS_MIN_CWND;
	p->fs_max_cwnd = SWIFT_DEF_FS_MAX_CWND;
	p->base_rtt_ns = SWIFT_DEF_BASE_RTT_NS;
	p->base_delay_ns = SWIFT_DEF_BASE_DELAY_NS;
	p->hop_delay_ns = SWIFT_DEF_HOP_DELAY_NS;
	p->fs_range_ns = 0;
	p->beta_ppm = SWIFT_DEF_BETA_PPM;
	p->max_mdf_ppm = SWIFT_DEF_MAX_MDF_PPM;
	p->retx_reset = SWIFT_DEF_RETX_RESET;
}

/*
 * Are the params usable? 0 < min_cwnd <= max_cwnd <= SWIFT_CWND_MAX;
 * 0 < ai <= SWIFT_AI_MAX; beta and max_mdf in (0, 1] (either 0 and the
 * window never decreases on delay); a target of at least 1 ns (delay
 * divides); retx_reset >= 1; with flow scaling on, 0 < fs_min_cwnd <
 * fs_max_cwnd <= SWIFT_CWND_MAX (A divides by their difference).
 */
static __always_inline bool swift_params_valid(const struct swift_params *p)
{
	return p->min_cwnd && p->min_cwnd <= p->max_cwnd &&
	       p->max_cwnd <= SWIFT_CWND_MAX &&
	       p->ai && p->ai <= SWIFT_AI_MAX &&
	       p->beta_ppm && p->beta_ppm <= SWIFT_PPM_ONE &&
	       p->max_mdf_ppm && p->max_mdf_ppm <= SWIFT_PPM_ONE &&
	       p->base_rtt_ns <= SWIFT_BASE_MAX &&
	       p->base_delay_ns <= SWIFT_BASE_MAX &&
	       p->base_rtt_ns + p->base_delay_ns &&
	       p->hop_delay_ns <= SWIFT_HOP_DELAY_MAX &&
	       p->retx_reset && p->retx_reset <= SWIFT_RETX_RESET_MAX &&
	       p->fs_range_ns <= SWIFT_FS_RANGE_MAX &&
	       (!p->fs_range_ns ||
		(p->fs_min_cwnd && p->fs_min_cwnd < p->fs_max_cwnd &&
		 p->fs_max_cwnd <= SWIFT_CWND_MAX));
}

static __always_inline u64 swift_clamp(u64 cwnd, const struct swift_params *p)
{
	if (cwnd < p->min_cwnd)
		return p->min_cwnd;
	if (cwnd > p->max_cwnd)
		return p->max_cwnd;
	return cwnd;
}

/*
 * A new flow on a path of hops switch hops (capped at SWIFT_HOPS_MAX),
 * with a window of init_cwnd micro-packets, clamped: RDMA starts at line
 * rate, so the caller passes the path's BDP (spec 7.12).
 */
static __always_inline void swift_init(struct swift_state *s,
				       const struct swift_params *p,
				       u32 hops, u64 init_cwnd)
{
	s->cwnd = swift_clamp(init_cwnd, p);
	s->t_last_dec_ns = 0;
	s->rtt_ns = 0;
	s->retx_cnt = 0;
	s->hops = hops > SWIFT_HOPS_MAX ? SWIFT_HOPS_MAX : hops;
	s->flags = 0;
}

/* floor(sqrt(x)), bit by bit: 32 rounds, each one result bit. */
static __always_inline u64 swift_isqrt(u64 x)
{
	u64 r = 0, bit = BIT_ULL(62);
	int i;

	for (i = 0; i < 32; i++) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/*
 * 1/sqrt(c) for a window c in micro-packets, scaled by 2^30 x 10^-3:
 * 2^40 / sqrt(c x 2^20) = 2^30 / sqrt(c). c <= 2^40, so c << 20 < 2^61;
 * the square root is at least 2^10 for c >= 1.
 */
static __always_inline u64 swift_inv_sqrt(u64 c)
{
	return div64_u64(BIT_ULL(SWIFT_INV_SHIFT),
			 swift_isqrt(c << SWIFT_SQRT_SHIFT));
}

/*
 * Flow scaling's share of the target, ns, for a window of cwnd
 * micro-packets: fs_range at and below fs_min_cwnd, 0 at and above
 * fs_max_cwnd, and between them fs_range (1/sqrt(c) - 1/sqrt(max)) /
 * (1/sqrt(min) - 1/sqrt(max)), floored. fs_range <= 2^30 times a scaled
 * inverse square root <= 2^30 stays below 2^61.
 */
static __always_inline u32 swift_fs_delay(const struct swift_params *p,
					  u64 cwnd)
{
	u64 inv_c, inv_lo, inv_hi;

	if (!p->fs_range_ns || cwnd >= p->fs_max_cwnd)
		return 0;
	if (cwnd <= p->fs_min_cwnd)
		return p->fs_range_ns;
	inv_c = swift_inv_sqrt(cwnd);
	inv_lo = swift_inv_sqrt(p->fs_max_cwnd);
	inv_hi = swift_inv_sqrt(p->fs_min_cwnd);
	if (inv_hi <= inv_lo)		/* min and max a rounding apart */
		return 0;
	return (u32)div64_u64((u64)p->fs_range_ns * (inv_c - inv_lo),
			      inv_hi - inv_lo);
}

/*
 * The flow's target delay, ns: base_rtt + base_delay + hops x hop_delay +
 * fs(cwnd). Below 2^30 + 2^30 + 2^28 + 2^30, so in 32 bits.
 */
static __always_inline u32 swift_target(const struct swift_state *s,
					const struct swift_params *p)
{
	return p->base_rtt_ns + p->base_delay_ns + s->hops * p->hop_delay_ns +
	       swift_fs_delay(p, s->cwnd);
}

/*
 * May the window go down now: never yet, or the latest RTT has passed
 * since the last decrease (the clock is u64 ns, differences wrap-safe).
 */
static __always_inline bool swift_can_decrease(const struct swift_state *s,
					       u64 now_ns)
{
	return !(s->flags & SWIFT_F_DECREASED) ||
	       now_ns - s->t_last_dec_ns >= s->rtt_ns;
}

/* cwnd x (1 - dec), dec in ppm <= 10^6, cwnd <= 2^40: floors. */
static __always_inline u64 swift_cut(u64 cwnd, u64 dec)
{
	return div64_u64(cwnd * (SWIFT_PPM_ONE - dec), SWIFT_PPM_ONE);
}

/*
 * Clamp, and start the once-per-RTT interval if the window went down
 * (the spec's "if cwnd decreased"). Returns SWIFT_EV_DECREASED or 0.
 */
static __always_inline u32 swift_finish(struct swift_state *s,
					const struct swift_params *p,
					u64 prev, u64 now_ns)
{
	s->cwnd = swift_clamp(s->cwnd, p);
	if (s->cwnd >= prev)
		return 0;
	s->t_last_dec_ns = now_ns;
	s->flags |= SWIFT_F_DECREASED;
	return SWIFT_EV_DECREASED;
}

/*
 * One ACK (or pseudo-ACK) at now_ns whose RTT sample is rtt_ns (the delay
 * compared with the target; clamped to SWIFT_DELAY_MAX) and which covers
 * num_acked packets (capped at SWIFT_ACKED_MAX; the caller passes at
 * least 1). Returns SWIFT_EV_* bits.
 */
static __always_inline u32 swift_on_ack(struct swift_state *s,
					const struct swift_params *p,
					u64 rtt_ns, u32 num_acked, u64 now_ns)
{
	u32 delay = rtt_ns > SWIFT_DELAY_MAX ? SWIFT_DELAY_MAX : (u32)rtt_ns;
	u64 prev = s->cwnd, acked, dec, floor_dec;
	u32 target, ev;

	acked = num_acked > SWIFT_ACKED_MAX ? SWIFT_ACKED_MAX : num_acked;
	s->retx_cnt = 0;
	s->rtt_ns = delay;
	target = swift_target(s, p);

	if (delay < target) {
		/*
		 * ai per RTT: a window of cwnd packets brings cwnd ACKs
		 * per RTT, each worth ai / cwnd. In micro-packets,
		 * ai x acked x 10^6 / cwnd, below 2^24 x 2^16 x 2^20.
		 * Below one packet an RTT brings one ACK: ai per ACK.
		 */
		if (s->cwnd >= SWIFT_CWND_ONE)
			s->cwnd += div64_u64(p->ai * acked * SWIFT_CWND_ONE,
					     s->cwnd);
		else
			s->cwnd += p->ai * acked;
		ev = SWIFT_EV_AI;
	} else if (swift_can_decrease(s, now_ns)) {
		/*
		 * max(1 - beta (delay - target) / delay, 1 - max_mdf): the
		 * decrease in ppm is min(beta (delay - target) / delay,
		 * max_mdf). delay >= target >= 1; beta x delay < 2^52.
		 */
		dec = div64_u64((u64)p->beta_ppm * (delay - target), delay);
		floor_dec = p->max_mdf_ppm;
		s->cwnd = swift_cut(s->cwnd, dec < floor_dec ? dec : floor_dec);
		ev = SWIFT_EV_MD;
	} else {
		ev = SWIFT_EV_MD_HELD;
	}
	return ev | swift_finish(s, p, prev, now_ns);
}

/*
 * An ACK that brings the law no RTT sample: a Reflex flow's own ACKs,
 * whose samples come from the gateway instead (reflex.md 3.3). It still
 * ends a run of timeouts: retx_reset counts RTOs in a row, with no ACK
 * between (Algorithm 1 zeroes retx_cnt on every ACK). Without it, a
 * Reflex flow counted every RTO of its life, and its fifth set it to
 * min_cwnd, with no sample to raise it: 1448 bytes every 9 s.
 */
static __always_inline void swift_on_progress(struct swift_state *s)
{
	s->retx_cnt = 0;
}

/* Fast recovery (a loss repaired by the transport): 1 - max_mdf per RTT. */
static __always_inline u32 swift_on_fast_recovery(struct swift_state *s,
						  const struct swift_params *p,
						  u64 now_ns)
{
	u64 prev = s->cwnd;
	u32 ev = SWIFT_EV_MD_HELD;

	s->retx_cnt = 0;
	if (swift_can_decrease(s, now_ns)) {
		s->cwnd = swift_cut(s->cwnd, p->max_mdf_ppm);
		ev = SWIFT_EV_MD;
	}
	return ev | swift_finish(s, p, prev, now_ns);
}

/*
 * Retransmission timeout: the retx_reset-th in a row (no ACK or recovery
 * between) resets the window to min_cwnd; an earlier one decreases it
 * like fast recovery, once per RTT.
 */
static __always_inline u32 swift_on_rto(struct swift_state *s,
					const struct swift_params *p,
					u64 now_ns)
{
	u64 prev = s->cwnd;
	u32 ev = SWIFT_EV_MD_HELD;

	if (s->retx_cnt < SWIFT_RETX_RESET_MAX)
		s->retx_cnt++;
	if (s->retx_cnt >= p->retx_reset) {
		s->cwnd = p->min_cwnd;
		ev = SWIFT_EV_RESET;
	} else if (swift_can_decrease(s, now_ns)) {
		s->cwnd = swift_cut(s->cwnd, p->max_mdf_ppm);
		ev = SWIFT_EV_MD;
	}
	return ev | swift_finish(s, p, prev, now_ns);
}

/*
 * Pacing below one packet (section 3.5): one packet every rtt / cwnd, ns
 * (rtt_ns x 10^6 / cwnd, below 2^52). 0 when the window holds a packet or
 * more (window-limited), or before the first RTT sample.
 */
static __always_inline u64 swift_pacing_gap_ns(const struct swift_state *s)
{
	if (s->cwnd >= SWIFT_CWND_ONE || !s->cwnd)
		return 0;
	return div64_u64((u64)s->rtt_ns * SWIFT_CWND_ONE, s->cwnd);
}

/*
 * The rate of the window over rtt_ns, bytes/s, for segments of mss bytes:
 * cwnd x mss / rtt = cwnd [upkt] x mss x 1000 / rtt [ns], capped at
 * SWIFT_RATE_MAX (mss at 65535, rtt at least 1 ns). For sk_pacing_rate
 * below one packet, and for the spec's rate_equivalent (3.3: cwnd_src x
 * MSS / max(RTT_src_last, RTT_src_base), the caller's rtt). cwnd x mss <
 * 2^56; the product with 1000 is split into quotient and remainder so
 * that it stays in 64 bits.
 */
static __always_inline u64 swift_pacing_rate(const struct swift_state *s,
					     u32 mss, u32 rtt_ns)
{
	u64 x = s->cwnd * (mss > 0xffff ? 0xffff : mss), q, r;
	u64 rtt = rtt_ns ? rtt_ns : 1;

	q = div64_u64(x, rtt);
	if (q >= SWIFT_RATE_MAX / 1000)
		return SWIFT_RATE_MAX;
	r = x - q * rtt;
	return q * 1000 + div64_u64(r * 1000, rtt);
}

/*
 * A transport host's BDP cap (reflex.md 3.2: max_cwnd is the BDP of the
 * line rate at the flow's base RTT), micro-packets: pct % of link_mbps x
 * rtt_us / 8 bytes over mss in hundredths of a packet, at most
 * SWIFT_CWND_MAX. A BDP below one packet stays below: pacing carries such
 * a window (swift_pacing_rate), and one packet per base RTT would be
 * above the line rate (3948 B in 38 us is 8.3 x 100 Mbit/s). Its floor is
 * a hundredth of a packet, and one packet while the RTT is unknown (0).
 * The RTT is capped at 10 s, so that every product stays in 64 bits
 * (10^7 x 10^7 / 8 x 10^4 < 2^57).
 */
static __always_inline u64 swift_bdp_cwnd(u32 link_mbps, u32 pct, u32 rtt_us,
					  u32 mss)
{
	u64 bytes, pct_pkts;

	if (rtt_us > 10000000U)
		rtt_us = 10000000U;
	bytes = div_u64((u64)link_mbps * rtt_us, 8);
	pct_pkts = div_u64(bytes * pct, mss ? mss : 1);
	if (pct_pkts >= div64_u64(SWIFT_CWND_MAX, SWIFT_CWND_ONE / 100))
		return SWIFT_CWND_MAX;
	if (!rtt_us)
		return SWIFT_CWND_ONE;
	return (pct_pkts ? pct_pkts : 1) * (SWIFT_CWND_ONE / 100);
}

/*
 * The window in whole segments for the transport (snd_cwnd): at least 1,
 * since below one packet pacing carries the rate.
 */
static __always_inline u32 swift_cwnd_segs(const struct swift_state *s)
{
	u64 segs = div64_u64(s->cwnd, SWIFT_CWND_ONE);

	if (!segs)
		return 1;
	return segs > 0x7fffffffU ? 0x7fffffffU : (u32)segs;
}

#endif /* _SWIFT_CORE_H */
