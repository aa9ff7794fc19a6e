/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UnoCC: the Uno congestion-control law as pure integer functions.
 *
 * Bonato, Abdous et al., "Uno: A One-Stop Solution for Inter- and
 * Intra-Data Center Congestion Control and Reliable Connectivity", SC '25,
 * Algorithm 1 and section 4.1. The same header is compiled into the tcp_uno
 * module, into the user-space transport and into its unit tests, so it uses
 * no kernel API beyond linux/types.h and linux/math64.h, no floating point,
 * and only 64-bit integer arithmetic whose bounds are stated next to it.
 *
 * In one sentence: a window-based, ECN-driven AIMD whose increase (alpha)
 * and decrease (4K / (K + BDP)) gains are scaled by the flow's own BDP, but
 * whose decrease decisions are taken once per "epoch" whose length is the
 * intra-DC RTT for every flow, plus Quick Adapt, which cuts the window to
 * what was actually delivered when less than half a window was acked in an
 * RTT.
 *
 * Units: windows and byte counts are bytes, times are microseconds on a u32
 * clock that may wrap (all comparisons are wrap-safe), fractions are Q16
 * (UNO_FX_ONE == 1.0) except the MD multiplier, which is Q32 so that the
 * 0.004 % cuts of a 100 ms, 400 Gbit/s flow keep five significant digits.
 * The window itself keeps UNO_CWND_SHIFT fractional bits, so that additive
 * increases of a fraction of a byte per ACK are not lost.
 */
#ifndef _UNO_CORE_H
#define _UNO_CORE_H

#include "core_types.h"

#define UNO_FX_SHIFT		16
#define UNO_FX_ONE		BIT(UNO_FX_SHIFT)
#define UNO_CWND_SHIFT		8
#define UNO_RTT_NONE		0xffffffffU	/* "no min RTT yet" */

/*
 * Bounds that make the arithmetic below overflow-free. A BDP of 2^36 bytes
 * (64 GiB) is 1.6 Tbit/s over 330 ms; windows stay below 2^40 bytes.
 */
#define UNO_BDP_MAX		BIT_ULL(36)
#define UNO_AI_ACKED_MAX	BIT(23)		/* bytes per ACK used for AI */
#define UNO_PERIOD_MAX		BIT(30)		/* us, keeps u32 compares valid */
#define UNO_ARM_MAX		0x7fffffffU	/* bytes, u32 sequence space */
#define UNO_SEGS_MAX		0x7fffffffU	/* Linux snd_cwnd is int-sized */

/* Algorithm constants that are not tunables. */
#define UNO_K_INTRA_DIV		7	/* K = BDP_intra / 7 (paper, Table 2) */
#define UNO_INTER_RTT_MULT	8	/* inter if base RTT > 8 x RTT_intra */
#define UNO_TREND_E_MAX		58982	/* 0.9 in Q16: trend rule ceiling */
#define UNO_REBASE_PCT		5	/* adopt a new base RTT if > 5 % off */

/*
 * Tunables: default and valid range of every field of struct uno_params.
 * The overflow bounds above assume values inside these ranges.
 */
#define UNO_LINK_RATE_MBPS_DEF	100000		/* C: 100 Gbit/s, paper */
#define UNO_LINK_RATE_MBPS_MIN	1
#define UNO_LINK_RATE_MBPS_MAX	10000000
#define UNO_INTRA_RTT_US_DEF	14		/* RTT_intra, paper */
#define UNO_INTRA_RTT_US_MIN	1
#define UNO_INTRA_RTT_US_MAX	1000000
#define UNO_INTER_RTT_US_DEF	0		/* 0: 8 x intra_rtt_us */
#define UNO_INTER_RTT_US_MAX	10000000
#define UNO_ALPHA_PPM_DEF	1000		/* alpha = 0.1 % of BDP */
#define UNO_ALPHA_PPM_MIN	1
#define UNO_ALPHA_PPM_MAX	100000
#define UNO_MD_K_BYTES_DEF	0		/* 0: BDP_intra / 7 */
#define UNO_MD_K_BYTES_MAX	1073741824
#define UNO_EWMA_GAIN_DEF	32768		/* g = 0.5 */
#define UNO_EWMA_GAIN_MIN	1
#define UNO_EWMA_GAIN_MAX	65536
#define UNO_BETA_QA_PCT_DEF	50
#define UNO_QA_CUT_PCT_DEF	96
#define UNO_QA_CUT_PCT_MIN	1
#define UNO_QA_PERIOD_PCT_DEF	105
#define UNO_QA_PERIOD_PCT_MIN	100
#define UNO_QA_PERIOD_PCT_MAX	1000
#define UNO_QA_WINDOW_PCT_DEF	200
#define UNO_QA_WINDOW_PCT_MIN	100
#define UNO_QA_WINDOW_PCT_MAX	1000
#define UNO_QA_MARK_PCT_DEF	50
#define UNO_PH_SCALE_PCT_DEF	30
#define UNO_PH_TOL_PERMILLE_DEF	55
#define UNO_PH_TOL_PERMILLE_MAX	1000
#define UNO_DELAY_FLOOR_US_DEF	20
#define UNO_DELAY_FLOOR_US_MAX	1000000
#define UNO_CWND_PCT_DEF	100
#define UNO_CWND_PCT_MIN	1
#define UNO_CWND_PCT_MAX	1000
#define UNO_MIN_CWND_SEGS_DEF	2
#define UNO_MIN_CWND_SEGS_MIN	1
#define UNO_MIN_CWND_SEGS_MAX	1000
#define UNO_MIN_CWND_BYTES_DEF	64		/* the smallest Ethernet frame */
#define UNO_MIN_CWND_BYTES_MAX	1048576

/*
 * Global configuration, shared by all flows (module parameters in the
 * kernel). Read on every call, so a change applies to running flows at
 * their next ACK: what a flow caches from it (uno_state.cap) it
 * recomputes when gen, which every write bumps, has moved. Every constant
 * of UnoCC is here: those of Uno Sec. 4.1 and Table 2 and, where the paper
 * is silent, the authors' simulator's (htsim) or ours.
 */
struct uno_params {
	u32 link_rate_mbps;		/* C, Mbit/s: BDP_f = C x base_rtt_f */
	u32 intra_rtt_us;		/* RTT_intra: K and epoch length */
	u32 inter_rtt_threshold_us;	/* inter-DC if base RTT above; 0=auto */
	u32 alpha_ppm;			/* AI per RTT, ppm of BDP_f */
	u32 md_k_bytes;			/* K of MD gain 4K/(K+BDP_f); 0=auto */
	u32 ewma_gain_q16;		/* g of the marked-fraction EWMA E */
	u32 beta_qa_pct;		/* QA when acked < beta x cwnd; 0=off */
	u32 qa_cut_pct;			/* cwnd after QA = cut x acked */
	u32 qa_period_pct;		/* QA period P = pct x base RTT */
	u32 qa_window_pct;		/* QA measures over pct x P, scaled */
	u32 phantom_md_scale_pct;	/* MD scale when only phantom queues */
	u32 phantom_delay_tol_permille;	/* "no delay": rtt <= base(1+tol)+fl */
	u32 delay_floor_us;		/* fl above: host RTT noise */
	u32 init_cwnd_bdp_pct;		/* initial window, % of BDP_f */
	u32 max_cwnd_bdp_pct;		/* window cap, % of BDP_f */
	u32 min_cwnd_segs;		/* snd_cwnd floor, segments */
	u32 min_cwnd_bytes;		/* window floor, bytes; 0: segs x mss */
	u32 trend_rule;			/* no MD while E is falling (artifact) */
	u32 phantom_md_cumulative;	/* paper: scale *= 0.3 per epoch */
	u32 rto_cwnd_cut;		/* cut cwnd by the timed-out bytes */
	u32 qa_mark_pct;		/* QA only if >= pct of its bytes marked */
	u32 gen;			/* bumped by every write (uno_nl.h) */
};

#define UNO_PARAMS_INIT {						\
	.link_rate_mbps = UNO_LINK_RATE_MBPS_DEF,			\
	.intra_rtt_us = UNO_INTRA_RTT_US_DEF,				\
	.inter_rtt_threshold_us = UNO_INTER_RTT_US_DEF,			\
	.alpha_ppm = UNO_ALPHA_PPM_DEF,					\
	.md_k_bytes = UNO_MD_K_BYTES_DEF,				\
	.ewma_gain_q16 = UNO_EWMA_GAIN_DEF,				\
	.beta_qa_pct = UNO_BETA_QA_PCT_DEF,				\
	.qa_cut_pct = UNO_QA_CUT_PCT_DEF,				\
	.qa_period_pct = UNO_QA_PERIOD_PCT_DEF,				\
	.qa_window_pct = UNO_QA_WINDOW_PCT_DEF,				\
	.phantom_md_scale_pct = UNO_PH_SCALE_PCT_DEF,			\
	.phantom_delay_tol_permille = UNO_PH_TOL_PERMILLE_DEF,		\
	.delay_floor_us = UNO_DELAY_FLOOR_US_DEF,			\
	.init_cwnd_bdp_pct = UNO_CWND_PCT_DEF,				\
	.max_cwnd_bdp_pct = UNO_CWND_PCT_DEF,				\
	.min_cwnd_segs = UNO_MIN_CWND_SEGS_DEF,				\
	.min_cwnd_bytes = UNO_MIN_CWND_BYTES_DEF,			\
	.trend_rule = 1,						\
	.phantom_md_cumulative = 0,					\
	.rto_cwnd_cut = 0,						\
	.qa_mark_pct = UNO_QA_MARK_PCT_DEF,				\
	.gen = 0,							\
}

/* uno_state.flags */
#define UNO_F_EP_ON		0x01U	/* epoch (MD) machinery armed */
#define UNO_F_QA_ON		0x02U	/* QA measurement window open */
#define UNO_F_QA_APPLIM		0x04U	/* app-limited inside that window */

/*
 * Per-flow state, 88 bytes. base_rtt_us == 0 means "not started": no RTT
 * estimate yet, window at its floor. An all-zero struct is such a state.
 */
struct uno_state {
	u64 cwnd;		/* window, bytes << UNO_CWND_SHIFT */
	u64 ep_acked;		/* bytes acked in the current epoch */
	u64 ep_marked;		/* ... of which ECN-echoed */
	u64 qa_acked;		/* bytes acked in the QA window */
	u64 qa_marked;		/* ... of which ECN-echoed */
	u64 cap;		/* uno_cap() of base_rtt_us, cap_gen */
	u32 base_rtt_us;	/* base RTT the constants derive from */
	u32 ecn_ewma;		/* E, Q16 */
	u32 prev_ecn_ewma;	/* E at the previous epoch end, Q16 */
	u32 md_scale;		/* Q16, phantom_md_cumulative only */
	u32 ep_end_ts;		/* ACK of a packet sent >= this ends epoch */
	u32 ep_arm_seq;		/* sent-bytes mark that re-arms epochs */
	u32 qa_end_ts;		/* QA on: window end; off: reopen mark */
	u32 flags;		/* UNO_F_* */
	u32 cap_gen;		/* uno_params.gen that cap derives from */
};

/* What the transport knows on each ACK. */
struct uno_ack {
	u32 now_us;		/* arrival time of the ACK */
	u32 acked;		/* bytes newly delivered (cum. + SACK) */
	s32 rtt_us;		/* RTT of the newest acked packet; <0: none */
	u32 min_rtt_us;		/* windowed min RTT, or UNO_RTT_NONE */
	u32 srtt_us;		/* smoothed RTT, 0 if none */
	u32 sent;		/* bytes ever sent incl. rexmits, mod 2^32 */
	u32 mss;		/* current segment size */
	bool ece;		/* the ACK echoes a CE mark */
	bool app_limited;	/* the sender was not window-limited */
};

/* uno_on_ack() return bits */
#define UNO_EV_EPOCH		0x01	/* an epoch ended, E was updated */
#define UNO_EV_MD		0x02	/* multiplicative decrease applied */
#define UNO_EV_MD_PHANTOM	0x04	/* ... with the phantom-only scale */
#define UNO_EV_TREND		0x08	/* MD skipped: E falling, extra AI */
#define UNO_EV_QA		0x10	/* Quick Adapt cut the window */

static inline u64 uno_min(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u64 uno_max(u64 a, u64 b)
{
	return a > b ? a : b;
}

/* Is time (or sequence) a at or after b? Valid while they are < 2^31 apart. */
static inline bool uno_after_eq(u32 a, u32 b)
{
	return (s32)(a - b) >= 0;
}

/*
 * floor(x * f / 2^32), for any x and f <= 2^32, without a 128-bit product:
 * split x into 32-bit halves; each partial product is < 2^64.
 */
static inline u64 uno_mul_q32(u64 x, u64 f)
{
	return (x >> 32) * f + (((x & 0xffffffffULL) * f) >> 32);
}

/* BDP_f = C x RTT in bytes: Mbit/s x us = bit, <= 2^24 x 2^32 / 8. */
static inline u64 uno_bdp(const struct uno_params *p, u32 rtt_us)
{
	return uno_min(((u64)p->link_rate_mbps * rtt_us) >> 3, UNO_BDP_MAX);
}

/*
 * Flow class from the base RTT (our rule: the paper's simulator takes it
 * from its topology; lists of remote-DC prefixes are not implemented here).
 */
static inline bool uno_is_inter(const struct uno_params *p, u32 base_rtt_us)
{
	u32 thr = p->inter_rtt_threshold_us;

	if (!thr)
		thr = UNO_INTER_RTT_MULT * p->intra_rtt_us;
	return base_rtt_us > thr;
}

/*
 * MD gain 4K / (K + BDP_f) in Q32 (paper 4.1.1): 0.49 for an intra flow
 * (K = BDP_intra / 7 gives exactly 0.5), 0.0044 for a 128x longer flow.
 * K is capped to 32 bits so K << 32 fits; K + BDP is 0 only if both are.
 */
static inline u64 uno_md_gain_q32(const struct uno_params *p, u64 bdp)
{
	u64 k = p->md_k_bytes;

	if (!k)
		k = div_u64(uno_bdp(p, p->intra_rtt_us), UNO_K_INTRA_DIV);
	k = uno_min(k, 0xffffffffULL);
	if (!(k + bdp))
		return 0;
	return div64_u64(k << 32, k + bdp) << 2;
}

/*
 * Epoch length: the closing packet's RTT, scaled for inter-DC flows by
 * BDP_intra / BDP_f = RTT_intra / base_rtt_f, so that every flow takes an
 * MD decision about once per intra-DC RTT (paper 4.1.1; artifact rule).
 * At least 1 us so that a 0 us sample cannot end an epoch on every ACK.
 */
static inline u32 uno_epoch_period(const struct uno_params *p,
				   u32 base_rtt_us, u32 rtt_us)
{
	u64 period = rtt_us;

	if (uno_is_inter(p, base_rtt_us))
		period = div_u64(period * p->intra_rtt_us, base_rtt_us);
	return (u32)uno_max(uno_min(period, UNO_PERIOD_MAX), 1);
}

/*
 * Quick Adapt's period P, qa_period_pct of the base RTT (the paper's "every
 * RTT"; 1.05 x base RTT in the artifact), rounded up to whole us.
 */
static inline u32 uno_qa_period(const struct uno_params *p, u32 base_rtt_us)
{
	u64 period = div_u64((u64)base_rtt_us * p->qa_period_pct + 99, 100);

	return (u32)uno_min(period, UNO_PERIOD_MAX);
}

/* The RTT QA's window follows: the smoothed RTT, never below the base RTT. */
static inline u32 uno_qa_rtt(const struct uno_state *s, const struct uno_ack *a)
{
	return (u32)uno_max(s->base_rtt_us, a->srtt_us);
}

/*
 * QA's measurement window W = qa_window_pct % of the period of the flow's
 * current RTT. The paper counts the bytes acked in one period. Where ACKs
 * arrive in bunches (a host that stalls, interrupt moderation, a VM's
 * vCPU) one period can miss a bunch that belongs to it and read as an
 * incast; a longer window averages the bunching out. What QA compares and
 * cuts to is still the delivery in one period: uno_qa_acked() scales the
 * window's bytes to P.
 */
static inline u32 uno_qa_window(const struct uno_params *p,
				const struct uno_state *s,
				const struct uno_ack *a)
{
	u64 w = div_u64((u64)uno_qa_period(p, uno_qa_rtt(s, a)) *
			p->qa_window_pct + 99, 100);

	return (u32)uno_min(w, UNO_PERIOD_MAX);
}

/*
 * The bytes acked in the window, scaled to one period of the base RTT:
 * qa_acked x P / W = qa_acked x base / rtt x 100 / qa_window_pct, in Q32
 * (base <= rtt and qa_window_pct >= 100, so the factor is <= 1.0). With
 * srtt at the base RTT and qa_window_pct = 100 it is qa_acked exactly, the
 * paper's law; with a queue (srtt above base) the longer window sees the
 * same delivery rate, so the law still reads it per base-RTT period.
 */
static inline u64 uno_qa_acked(const struct uno_params *p,
			       const struct uno_state *s,
			       const struct uno_ack *a)
{
	u64 f = div64_u64((u64)s->base_rtt_us << 32, uno_qa_rtt(s, a));

	f = div_u64(f * 100, p->qa_window_pct);
	return uno_mul_q32(s->qa_acked, f);
}

/*
 * The floor of Uno's own window: min_cwnd_bytes, or min_cwnd_segs segments
 * if that is 0. TCP cannot send less than a segment per RTT, but a flow's
 * fair share can be less (a 0.6 ms intra-DC flow among eight at 300 Mbit/s
 * has 0.75 of a 4 KB segment): the window may go below one segment, and
 * the pacing rate cwnd / base RTT (uno_pacing_rate()) carries the smaller
 * rate while snd_cwnd stays at min_cwnd_segs (uno_cwnd_segs()). This is
 * Swift's cwnd < 1 (Kumar et al., SIGCOMM '20, section 3.5) applied to
 * Uno; the paper's simulator has no floor below a packet.
 */
static inline u64 uno_min_cwnd(const struct uno_params *p, u32 mss)
{
	if (p->min_cwnd_bytes)
		return p->min_cwnd_bytes;
	return (u64)p->min_cwnd_segs * (mss ? mss : 1);
}

/* Window cap in q8, max_cwnd_bdp_pct of BDP_f, before the floor. */
static inline u64 uno_cap(const struct uno_params *p, u64 bdp)
{
	return div_u64(bdp * p->max_cwnd_bdp_pct, 100) << UNO_CWND_SHIFT;
}

/* The parameters' generation, bumped by every write (uno_nl.h). */
static inline u32 uno_params_gen(const struct uno_params *p)
{
	/*
	 * Pairs with uno_nl_param_store()'s smp_store_release() after the
	 * value: what is read after a new generation is the new values.
	 */
	return smp_load_acquire(&p->gen);
}

/*
 * The cap derives from the base RTT and the parameters alone, so a flow
 * keeps it and recomputes it when either changes: four multiplications
 * less on every ACK (Documentation/benchmarks.rst).
 */
static inline void uno_cache_cap(struct uno_state *s,
				 const struct uno_params *p)
{
	s->cap_gen = uno_params_gen(p);
	s->cap = uno_cap(p, uno_bdp(p, s->base_rtt_us));
}

/*
 * Window cap in q8, never below the floor @lo (q8): a tiny BDP must not
 * stall a flow.
 */
static inline u64 uno_max_cwnd(const struct uno_params *p, u64 bdp, u64 lo)
{
	return uno_max(uno_cap(p, bdp), lo);
}

static inline u64 uno_cwnd_bytes(const struct uno_state *s)
{
	return s->cwnd >> UNO_CWND_SHIFT;
}

/*
 * Window in segments for snd_cwnd: max(min_cwnd_segs, ceil(cwnd / mss)).
 * Rounded up: the pacing rate (one byte window per base RTT) holds the
 * flow to the byte window, and snd_cwnd only has to let the fraction of a
 * segment out. Rounded down, a window of 2.9 segments, a 60 Mbit/s port's
 * intra-DC BDP at MTU 4000, would keep 2 in flight and the flow at 69 % of
 * its window. Below min_cwnd_segs segments only the pacing rate holds the
 * flow to its window, so a sub-segment window needs pacing on.
 */
static inline u32 uno_cwnd_segs(const struct uno_state *s,
				const struct uno_params *p, u32 mss)
{
	u32 seg = mss ? mss : 1;
	u64 segs = div_u64(uno_cwnd_bytes(s) + seg - 1, seg);

	segs = uno_max(segs, p->min_cwnd_segs);
	return (u32)uno_min(segs, UNO_SEGS_MAX);
}

/*
 * Pacing rate in bytes per second: one window per base RTT, as the
 * authors' simulator paces (the paper only says the NIC paces, Uno
 * Sec. 6). 0 while there is no RTT estimate. cwnd < 2^40, so
 * cwnd x 10^6 < 2^60.
 */
static inline u64 uno_pacing_rate(const struct uno_state *s)
{
	if (!s->base_rtt_us)
		return 0;
	return div_u64(uno_cwnd_bytes(s) * 1000000, s->base_rtt_us);
}

static inline void uno_clamp(struct uno_state *s, const struct uno_params *p,
			     u64 bdp, u32 mss)
{
	u64 lo = uno_min_cwnd(p, mss) << UNO_CWND_SHIFT;

	s->cwnd = uno_min(uno_max(s->cwnd, lo), uno_max_cwnd(p, bdp, lo));
}

/*
 * Additive increase cwnd += alpha x bytes / cwnd (paper Alg. 1 line 3):
 * alpha per window of ACKs, whatever the ACK size. alpha = BDP x ppm / 10^6
 * keeps UNO_CWND_SHIFT fractional bits (BDP x ppm << 8 < 2^61). Counting at
 * most one window, and at most UNO_AI_ACKED_MAX bytes, per call bounds the
 * step to alpha and the product to alpha_q8 x 2^23 < 2^64.
 */
static inline void uno_ai(struct uno_state *s, const struct uno_params *p,
			  u64 bytes)
{
	u64 bdp = uno_bdp(p, s->base_rtt_us);
	u64 alpha = div_u64((bdp * p->alpha_ppm) << UNO_CWND_SHIFT,
			    1000000);
	u64 cwnd = uno_max(uno_cwnd_bytes(s), 1);

	bytes = uno_min(uno_min(bytes, cwnd), UNO_AI_ACKED_MAX);
	s->cwnd += div64_u64(alpha * bytes, cwnd);
}

/*
 * Multiplicative decrease cwnd *= 1 - E x 4K/(K + BDP_f) x scale (Alg. 1
 * line 14). The scale is phantom_md_scale when the epoch-closing RTT shows
 * no physical queueing: the marks then came from a phantom queue, which
 * drains slower than the link and so over-signals. The paper compounds the
 * scale over consecutive phantom-only epochs; the artifact and our default
 * apply it fixed. The cut is capped at the whole window; the caller clamps.
 */
static inline bool uno_md(struct uno_state *s, const struct uno_params *p,
			  u64 bdp, u32 rtt_us)
{
	u64 thr = (u64)s->base_rtt_us * (1000 + p->phantom_delay_tol_permille) +
		  (u64)p->delay_floor_us * 1000;
	bool phantom = (u64)rtt_us * 1000 <= thr;
	u32 scale = phantom ? p->phantom_md_scale_pct * UNO_FX_ONE / 100 :
			      UNO_FX_ONE;
	u64 md;

	if (p->phantom_md_cumulative) {
		s->md_scale = phantom ? (u32)(((u64)s->md_scale *
					       p->phantom_md_scale_pct) / 100) :
					UNO_FX_ONE;
		scale = s->md_scale;
	}
	/* gain < 2^34, E and scale <= 2^16: products < 2^50 */
	md = (uno_md_gain_q32(p, bdp) * s->ecn_ewma) >> UNO_FX_SHIFT;
	md = uno_min((md * scale) >> UNO_FX_SHIFT, 1ULL << 32);
	s->cwnd -= uno_mul_q32(s->cwnd, md);
	return phantom;
}

/*
 * Epoch end (Alg. 1 ONEPOCH): fold this epoch's marked fraction into E
 * with gain g, then, if anything was marked, decrease the window -- unless
 * the artifact's trend rule sees E receding, in which case the flow gets an
 * extra AI for the epoch's bytes instead.
 */
static noinline u32 uno_epoch_end(struct uno_state *s, const struct uno_params *p,
				  u32 rtt_us, u32 tx_us)
{
	u32 g = p->ewma_gain_q16, period, next, ev = UNO_EV_EPOCH;
	u64 frac = 0;

	/* marked <= acked < 2^48 bytes per epoch, so frac <= 1.0 in Q16 */
	if (s->ep_acked)
		frac = div64_u64(s->ep_marked << UNO_FX_SHIFT, s->ep_acked);
	s->ecn_ewma = (u32)(((u64)(UNO_FX_ONE - g) * s->ecn_ewma +
			     (u64)g * frac) >> UNO_FX_SHIFT);

	if (s->ep_marked) {
		if (p->trend_rule && s->prev_ecn_ewma &&
		    s->ecn_ewma <= UNO_TREND_E_MAX &&
		    s->ecn_ewma < s->prev_ecn_ewma) {
			uno_ai(s, p, s->ep_acked);
			ev |= UNO_EV_TREND;
		} else if (uno_md(s, p, uno_bdp(p, s->base_rtt_us), rtt_us)) {
			ev |= UNO_EV_MD | UNO_EV_MD_PHANTOM;
		} else {
			ev |= UNO_EV_MD;
		}
	}
	s->prev_ecn_ewma = s->ecn_ewma;

	/*
	 * The paper advances T_epoch by one period (Uno Sec. 4.1.1). If that
	 * is not past the closing packet's send time (ACKs lagging, or after
	 * idle), the next ACK would end a near-empty epoch, so restart the
	 * grid from the closing packet instead: our guard, the paper is
	 * silent. (A plain max(end + period, tx + period) would always equal
	 * tx + period, because an epoch only ends once tx >= end; this keeps
	 * the paper's grid and the idle guard.)
	 */
	period = uno_epoch_period(p, s->base_rtt_us, rtt_us);
	next = s->ep_end_ts + period;
	if (uno_after_eq(tx_us, next))
		next = tx_us + period;
	s->ep_end_ts = next;
	s->ep_acked = 0;
	s->ep_marked = 0;
	return ev;
}

/*
 * QA window start: on the ACK of the first packet sent after the previous
 * window ended (or after a cut), a window of uno_qa_window() opens.
 */
static noinline void uno_qa_open(struct uno_state *s,
				 const struct uno_params *p,
				 const struct uno_ack *a)
{
	s->flags |= UNO_F_QA_ON;
	s->flags &= ~UNO_F_QA_APPLIM;
	s->qa_end_ts = a->now_us + uno_qa_window(p, s, a);
	s->qa_acked = 0;
	s->qa_marked = 0;
}

/*
 * QA window end (Alg. 1 ONQA): if less than beta x cwnd was acked in about
 * one RTT the network is extremely congested (incast, new flows); jump to
 * what was delivered (per period, uno_qa_acked()), then stay away from MD
 * and QA for about one RTT: epochs re-arm after one new window has been
 * sent, and QA re-opens on the ACK of the first packet sent after the cut.
 * An application-limited window proves nothing about the network and
 * never cuts (our guard: the paper is silent).
 *
 * TCP port: at least qa_mark_pct of the window's bytes must also have
 * been ECN-echoed. A host that stalls for a few ms (a busy receiver,
 * stretch ACKs, a VM's vCPU) thins the ACK stream as much as an incast
 * does, and the packets it then releases at once can draw a few marks
 * from a near-empty queue; an incast's queue is far past every marking
 * threshold, so nearly all of its bytes come back marked.
 */
static inline bool uno_qa_fires(const struct uno_state *s,
				const struct uno_params *p,
				const struct uno_ack *a, u64 *acked)
{
	if ((s->flags & UNO_F_QA_APPLIM) ||
	    s->qa_marked * 100 < s->qa_acked * p->qa_mark_pct)
		return false;
	*acked = uno_qa_acked(p, s, a);
	return *acked * 100 < uno_cwnd_bytes(s) * p->beta_qa_pct;
}

static noinline u32 uno_qa_end(struct uno_state *s, const struct uno_params *p,
			       const struct uno_ack *a)
{
	u64 acked, cwnd;
	u32 ev = 0;

	if (uno_qa_fires(s, p, a, &acked)) {
		cwnd = uno_max(div_u64(acked * p->qa_cut_pct, 100),
			       uno_min_cwnd(p, a->mss));
		s->cwnd = cwnd << UNO_CWND_SHIFT;
		s->flags &= ~(UNO_F_EP_ON | UNO_F_QA_ON);
		s->ep_arm_seq = a->sent + (u32)uno_min(cwnd, UNO_ARM_MAX);
		s->ep_acked = 0;
		s->ep_marked = 0;
		s->qa_end_ts = a->now_us;
		ev = UNO_EV_QA;
	} else {
		s->qa_end_ts = a->now_us + uno_qa_window(p, s, a);
	}
	s->qa_acked = 0;
	s->qa_marked = 0;
	s->flags &= ~UNO_F_QA_APPLIM;
	return ev;
}

/*
 * Flow start: no slow start, the window is one BDP (line rate, paced, as
 * the authors' simulator htsim starts; the paper gives no initial window);
 * epochs arm once that window has been sent, QA opens on the ACK of the
 * first packet sent from now on. base_rtt_us == 0 sets up a flow without
 * an RTT estimate: its window stays at the floor until the first ACK that
 * brings one starts it for real.
 */
static inline void uno_start(struct uno_state *s, const struct uno_params *p,
			     u32 base_rtt_us, u32 mss, u32 now_us, u32 sent)
{
	u64 bdp = uno_bdp(p, base_rtt_us);

	s->cwnd = div_u64(bdp * p->init_cwnd_bdp_pct, 100) << UNO_CWND_SHIFT;
	uno_clamp(s, p, bdp, mss);
	s->ep_acked = 0;
	s->ep_marked = 0;
	s->qa_acked = 0;
	s->qa_marked = 0;
	s->base_rtt_us = base_rtt_us;
	s->ecn_ewma = 0;
	s->prev_ecn_ewma = 0;
	s->md_scale = UNO_FX_ONE;
	s->ep_end_ts = now_us;
	s->ep_arm_seq = sent + (u32)uno_min(uno_cwnd_bytes(s), UNO_ARM_MAX);
	s->qa_end_ts = now_us;
	s->flags = 0;
	uno_cache_cap(s, p);
}

/*
 * A flow's base RTT is its min RTT, but never below the configured intra-DC
 * base RTT: no path in the network is shorter, so a lower sample is host
 * timing noise (an ACK that caught the receiver idle, interrupt
 * coalescing, an emulated host), and a BDP computed from it would cap the
 * window far below the path's real BDP.
 */
static inline u32 uno_base_rtt(const struct uno_params *p, u32 min_rtt_us)
{
	return uno_max(min_rtt_us, p->intra_rtt_us ? p->intra_rtt_us : 1);
}

/*
 * Reset a flow. min_rtt_us is the handshake RTT, or UNO_RTT_NONE if the
 * handshake gave none (SYN retransmitted).
 */
static inline void uno_init(struct uno_state *s, const struct uno_params *p,
			    u32 mss, u32 min_rtt_us, u32 now_us, u32 sent)
{
	u32 base = min_rtt_us == UNO_RTT_NONE ? 0 : uno_base_rtt(p, min_rtt_us);

	uno_start(s, p, base, mss, now_us, sent);
}

/*
 * Track the transport's windowed min RTT as the base RTT. BDP, alpha, the
 * MD gain, the epoch scaling, the cap and the QA period all derive from it
 * on use; the 5 % hysteresis keeps them steady against RTT jitter.
 * Returns false while the flow has no RTT estimate.
 */
static inline bool uno_update_base(struct uno_state *s,
				   const struct uno_params *p,
				   const struct uno_ack *a)
{
	u32 rtt = a->min_rtt_us, base = s->base_rtt_us, diff;

	if (rtt == UNO_RTT_NONE)
		return base != 0;
	rtt = uno_base_rtt(p, rtt);
	if (rtt == base)
		return true;
	if (!base) {
		uno_start(s, p, rtt, a->mss, a->now_us, a->sent);
		return true;
	}
	diff = rtt > base ? rtt - base : base - rtt;
	if ((u64)diff * 100 > (u64)base * UNO_REBASE_PCT) {
		s->base_rtt_us = rtt;
		uno_cache_cap(s, p);
	}
	return true;
}

/* Epoch and QA byte accounting (Uno Sec. 4.1.1 and 4.1.2). */
static inline void uno_count(struct uno_state *s, const struct uno_ack *a)
{
	u64 acked = a->acked, marked = a->ece ? acked : 0;

	if (s->flags & UNO_F_EP_ON) {
		s->ep_acked += acked;
		s->ep_marked += marked;
	}
	if (s->flags & UNO_F_QA_ON) {
		s->qa_acked += acked;
		s->qa_marked += marked;
		if (a->app_limited)
			s->flags |= UNO_F_QA_APPLIM;
	}
}

/* The window's floor in q8: the flow's own, whatever its cap. */
static inline u64 uno_lo(const struct uno_params *p, const struct uno_ack *a)
{
	return uno_min_cwnd(p, a->mss) << UNO_CWND_SHIFT;
}

/* Does the ACK close the current epoch (sent at or after ep_end_ts)? */
static inline bool uno_ep_ends(const struct uno_state *s,
			       const struct uno_ack *a)
{
	return (s->flags & UNO_F_EP_ON) && a->rtt_us >= 0 &&
	       uno_after_eq(a->now_us - a->rtt_us, s->ep_end_ts);
}

/*
 * One ACK in full (Uno Algorithm 1): (1) epoch and QA byte accounting,
 * (2) the QA state machine, (3) AI unless ECN-echoed, (4) epoch end, when
 * the ACK is for a packet sent at or after ep_end_ts. Decisions that need
 * the send time of the acked packet (now - rtt) are skipped when the ACK
 * carries no RTT sample (retransmissions, Karn). Returns UNO_EV_* bits.
 */
static noinline u32 uno_on_ack_slow(struct uno_state *s,
				    const struct uno_params *p,
				    const struct uno_ack *a)
{
	bool ep_end;
	u64 lo, hi;
	u32 ev = 0;

	if (!uno_update_base(s, p, a))
		return 0;
	if (s->cap_gen != uno_params_gen(p))
		uno_cache_cap(s, p);

	/* One window sent since start or QA: MD decisions may resume. */
	if (!(s->flags & UNO_F_EP_ON) && uno_after_eq(a->sent, s->ep_arm_seq)) {
		s->flags |= UNO_F_EP_ON;
		s->ep_end_ts = a->now_us;
		s->ep_acked = 0;
		s->ep_marked = 0;
	}

	uno_count(s, a);
	if (s->flags & UNO_F_QA_ON) {
		if (uno_after_eq(a->now_us, s->qa_end_ts))
			ev = uno_qa_end(s, p, a);
	} else if (a->rtt_us >= 0 &&
		   uno_after_eq(a->now_us - a->rtt_us, s->qa_end_ts)) {
		uno_qa_open(s, p, a);
	}

	lo = uno_lo(p, a);
	hi = uno_max(s->cap, lo);
	ep_end = uno_ep_ends(s, a);
	/*
	 * AI, unless the window is at its cap and no epoch ends here: the
	 * clamp below would take the increase back (an epoch's MD applies
	 * to the window with this ACK's increase, as in the paper).
	 */
	if (!a->ece && (s->cwnd < hi || ep_end))
		uno_ai(s, p, a->acked);
	if (ep_end)
		ev |= uno_epoch_end(s, p, (u32)a->rtt_us,
				    a->now_us - (u32)a->rtt_us);

	s->cwnd = uno_min(uno_max(s->cwnd, lo), hi);
	return ev;
}

/*
 * Is the ACK one that uno_on_ack_slow() must take: a new base RTT or new
 * parameters, epochs to re-arm, a QA window to open or close, an epoch to
 * end? Each test is one of that function's own, so on every other ACK it
 * would do no more than count, increase and clamp.
 */
static __always_inline bool uno_ack_is_steady(const struct uno_state *s,
					      const struct uno_params *p,
					      const struct uno_ack *a)
{
	u32 qa_from = a->now_us, base = s->base_rtt_us;

	/*
	 * A min RTT at the base RTT is the base RTT uno_update_base() would
	 * keep: the base was never set below the intra-DC RTT it was
	 * floored at, and a new intra-DC RTT comes with a new generation.
	 */
	if (unlikely(a->min_rtt_us != base || !base) &&
	    uno_base_rtt(p, a->min_rtt_us) != base)
		return false;
	if (unlikely(s->cap_gen != uno_params_gen(p)))
		return false;
	if (!(s->flags & UNO_F_EP_ON) && uno_after_eq(a->sent, s->ep_arm_seq))
		return false;
	if (!(s->flags & UNO_F_QA_ON)) {
		if (a->rtt_us < 0)
			return true;	/* neither QA nor an epoch can act */
		qa_from -= a->rtt_us;	/* QA opens on a packet sent after */
	}
	return !uno_after_eq(qa_from, s->qa_end_ts) && !uno_ep_ends(s, a);
}

/*
 * One ACK (Uno Algorithm 1); returns UNO_EV_* bits. Most ACKs of a running
 * flow only count their bytes and increase the window: that is done here,
 * with no call and no callee-saved register (Documentation/benchmarks.rst),
 * and every other ACK goes to uno_on_ack_slow(), which does the same and
 * the rest.
 */
static __always_inline u32 uno_on_ack(struct uno_state *s,
				      const struct uno_params *p,
				      const struct uno_ack *a)
{
	u64 lo, hi;

	if (unlikely(!uno_ack_is_steady(s, p, a)))
		return uno_on_ack_slow(s, p, a);
	uno_count(s, a);
	lo = uno_lo(p, a);
	hi = uno_max(s->cap, lo);
	if (!a->ece && s->cwnd < hi)
		uno_ai(s, p, a->acked);
	s->cwnd = uno_min(uno_max(s->cwnd, lo), hi);
	return 0;
}

/*
 * Transmission restarts with nothing in flight (after idle or an
 * application pause). Whatever was being measured spans the gap: start a
 * fresh epoch one period from now and re-open QA on the first new packet.
 * This also keeps the u32 deadlines from aliasing after idle > 35 min.
 */
static inline void uno_on_tx_start(struct uno_state *s,
				   const struct uno_params *p, u32 now_us)
{
	u32 base = s->base_rtt_us;

	if (!base)
		return;
	if (s->flags & UNO_F_EP_ON) {
		s->ep_end_ts = now_us + uno_epoch_period(p, base, base);
		s->ep_acked = 0;
		s->ep_marked = 0;
	}
	s->flags &= ~(UNO_F_QA_ON | UNO_F_QA_APPLIM);
	s->qa_end_ts = now_us;
	s->qa_acked = 0;
	s->qa_marked = 0;
}

/*
 * Retransmission timeout. Loss is not a congestion signal in Uno (ECN and
 * QA are); the artifact runs with -noRto. The rto_cwnd_cut knob restores
 * its option of shrinking the window by the timed-out bytes.
 */
static inline void uno_on_timeout(struct uno_state *s,
				  const struct uno_params *p, u32 mss,
				  u32 lost_bytes)
{
	u64 lost = (u64)lost_bytes << UNO_CWND_SHIFT;

	if (!p->rto_cwnd_cut || !s->base_rtt_us)
		return;
	s->cwnd = s->cwnd > lost ? s->cwnd - lost : 0;
	uno_clamp(s, p, uno_bdp(p, s->base_rtt_us), mss);
}

#endif /* _UNO_CORE_H */
