/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SMaRTT control law (Bonato et al., "SMaRTT: Sender-based Marked
 * Rapidly-adapting Trimmed & Timed Transport", the basis of Ultra Ethernet's
 * NSCC), as one per-flow state struct and pure functions.
 *
 * The same header is compiled into the tcp_smartt module and into the
 * user-space unit tests, so it uses no kernel API beyond fixed width types
 * and 64-bit division, no floating point, and guards every divisor that
 * can be 0 (see smartt_div()).
 *
 * Units and fixed point:
 *  - windows and byte counters are u32 bytes, saturating at
 *    SMARTT_CWND_LIMIT (1 GiB, the largest window TCP can advertise with
 *    window scale 14, RFC 7323);
 *  - times are u32 microseconds that wrap every 71.6 minutes; they are only
 *    ever compared as elapsed time, (u32)(now - then) < interval, which is
 *    correct across a wrap;
 *  - RTT samples are s32 microseconds, < 0 meaning "no sample", 0 read as
 *    the clock's resolution (1 us), and capped at SMARTT_RTT_MAX;
 *  - fractional parameters are Q10 (1024 == 1.0), our choice: the paper
 *    computes in real numbers.
 *
 * The same state and helpers also carry Ultra Ethernet's NSCC, the law
 * SMaRTT became (p->mode == SMARTT_MODE_NSCC): its functions are in
 * nscc_core.h.
 *
 * Every function is safe for any value of the parameters: no undefined
 * behaviour, no division by zero, a window within its bounds. The results
 * are the documented ones, with no 64-bit product overflowing, when each
 * parameter lies in the range the tcp_smartt module enforces.
 */
#ifndef _SMARTT_CORE_H
#define _SMARTT_CORE_H

#include "core_types.h"

#define SMARTT_Q		10		/* Q10 fixed point */
#define SMARTT_ONE		BIT(SMARTT_Q)
#define SMARTT_RTT_SHIFT	8		/* avg_rtt is us << 8 */
#define SMARTT_UNIT_SHIFT	4		/* inc_unit is bytes << 4 */
#define SMARTT_RTT_MAX		16777215	/* us, 2^24 - 1, ~16.8 s */
#define SMARTT_CWND_LIMIT	1073741824	/* bytes, 2^30 */
#define SMARTT_U32_MAX		((u32)~0U)
#define SMARTT_U64_MAX		((u64)~0ULL)

/* smartt_params.mode: which law a new flow runs */
#define SMARTT_MODE_SMARTT	0	/* the SMaRTT paper's (this header) */
#define SMARTT_MODE_NSCC	1	/* UEC NSCC (nscc_core.h) */

/*
 * Default window floor in bytes: the smallest Ethernet frame, and the size
 * of a trimmed packet in the paper's simulator (uec.cpp: UecSrc::_hdr_size
 * = 64). A floor below one segment lets the pacing rate, not snd_cwnd,
 * carry the share of a flow among more flows than the BDP has segments.
 */
#define SMARTT_MIN_CWND_BYTES	64
#define SMARTT_MIN_CWND_BYTES_MAX	1048576	/* 2^20 */

/*
 * Global constants of the law (SMaRTT Sec. III-E to III-J), shared by all
 * flows. "xbrtt" values are Q10 multiples of the flow's base RTT, "xbdp"
 * Q10 multiples of its bandwidth-delay product.
 */
struct smartt_params {
	u32 link_rate_mbps;		/* Mbit/s: bdp = link_rate_mbps x brtt */
	u32 base_rtt_us;		/* us, configured base RTT; 0: learn it */
	u32 base_rtt_floor_us;	/* us, least learned base RTT */
	u32 trtt_factor;	/* Q10 xbrtt: target RTT (1.5) */
	u32 md_gamma;		/* Q10: multiplicative decrease gain (0.8) */
	u32 md_min_factor;	/* Q10: deepest single decrease (0.5) */
	u32 md_interval;	/* Q10 xbrtt: spacing of decreases (1) */
	u32 fi;			/* Q10: fair increase, MTU/RTT per scale (1) */
	u32 pi;			/* Q10: proportional increase per scale (2) */
	u32 bdp_ref;		/* bytes: reference BDP of "scale" (150000) */
	u32 bdp_ref_mtu;	/* bytes: MTU bdp_ref is counted in (4096) */
	u32 fast_inc_k;		/* Q10: FastIncrease bytes per acked byte (2) */
	u32 fast_inc_tol;	/* Q10 xbrtt: "RTT ~ base RTT" slack (1/8) */
	u32 fast_inc_tol_us;	/* us: floor of that slack, for host jitter */
	u32 qa_scaling;		/* Q10: QuickAdapt window per acked byte (1) */
	u32 qa_notrim_rtt;	/* Q10 x(trtt - brtt) above brtt: trigger (4) */
	u32 qa_notrim_acked;	/* Q10 x max window: trigger (1/8) */
	u32 min_cwnd;		/* MTUs: snd_cwnd floor (2; paper 1) */
	u32 min_cwnd_bytes;	/* bytes: window floor; 0: min_cwnd MTUs */
	u32 max_cwnd;		/* Q10 xbdp: window ceiling (1.5) */
	u32 init_cwnd;		/* Q10 xbdp: initial window (1) */
	u32 rtt_gain_pkts;	/* avg_rtt gain = pkts / bdp in packets (4) */
	u32 rtt_gain_min;	/* Q10: ... clamped from below (1/128) */
	u32 rtt_gain_max;	/* Q10: ... and from above (1/4) */
	u32 fair_decrease;	/* Q10: optional decrease on marked fast ACKs */
	u32 pacing_gain;	/* Q10: pacing rate = gain x cwnd / brtt */
	u32 trimming;		/* 1: losses are trim NACKs; 0: timeouts only */
	u32 mode;		/* SMARTT_MODE_*, read at flow start */
	u32 nscc_net_rtt_us;	/* us: NSCC's network RTT; 0: base RTT */
	u32 gen;		/* bumped by every write (uno_nl.h); never 0 */
};

/*
 * Defaults: the paper's values where it gives them. Where it is silent,
 * bdp_ref and the no-trim QuickAdapt trigger are those of the authors'
 * simulator (htsim); fi, fast_inc_tol, init_cwnd and the avg_rtt gain are
 * ours. link_rate_mbps is our default emulation link (1 Gbit/s);
 * pacing_gain is ours: the paper does not pace, and a gain of 1.25 over
 * the base RTT spreads a window over 0.8 brtt, faster than the window
 * itself can drain, so the pacer smooths bursts without binding.
 */
#define SMARTT_PARAMS_INIT {			\
	.link_rate_mbps = 1000,			\
	.base_rtt_us = 0,				\
	.base_rtt_floor_us = 0,				\
	.trtt_factor = 1536,			\
	.md_gamma = 819,			\
	.md_min_factor = 512,			\
	.md_interval = 1024,			\
	.fi = 1024,				\
	.pi = 2048,				\
	.bdp_ref = 150000,			\
	.bdp_ref_mtu = 4096,			\
	.fast_inc_k = 2048,			\
	.fast_inc_tol = 128,			\
	.fast_inc_tol_us = 0,			\
	.qa_scaling = 1024,			\
	.qa_notrim_rtt = 4096,			\
	.qa_notrim_acked = 128,			\
	.min_cwnd = 2,				\
	.min_cwnd_bytes = SMARTT_MIN_CWND_BYTES,	\
	.max_cwnd = 1536,			\
	.init_cwnd = 1024,			\
	.rtt_gain_pkts = 4,			\
	.rtt_gain_min = 8,			\
	.rtt_gain_max = 256,			\
	.fair_decrease = 0,			\
	.pacing_gain = 1280,			\
	.trimming = 1,				\
	.mode = SMARTT_MODE_SMARTT,		\
	.nscc_net_rtt_us = 0,			\
	.gen = 1,				\
}

/* smartt_state.flags */
#define SMARTT_F_QA_ARMED	0x01	/* trigger_qa: adapt at window end */
#define SMARTT_F_QA_RUNNING	0x02	/* a QuickAdapt window has started */
#define SMARTT_F_FAST_INC	0x04	/* FastIncrease engaged */
#define SMARTT_F_MD_DONE	0x08	/* md_time holds a decrease */
#define SMARTT_F_NSCC		0x10	/* the flow runs NSCC (nscc_core.h) */
#define SMARTT_F_ADJ_DONE	0x20	/* NSCC: adj_time holds a batch */

/*
 * Per-flow state, 88 bytes. brtt == 0 means the flow has no base RTT yet
 * and therefore no window: cwnd is 0 and every event but an ACK carrying
 * an RTT sample is ignored. The paper's bytes_to_ignore/bytes_ignored pair
 * is kept as the single count ignore_left, which cannot wrap.
 *
 * From gen on, a flow keeps what it would otherwise derive from its base
 * RTT and the parameters on every ACK (smartt_cache(), nscc_cache()). A
 * flow runs one law for its life (SMARTT_F_NSCC), so what only one law
 * derives or counts shares its bytes with the other's.
 */
struct smartt_state {
	u32 cwnd;		/* congestion window, bytes */
	u32 mtu;		/* bytes (the MSS in TCP) */
	u32 brtt;		/* base RTT, us */
	u32 bdp;		/* link_rate_mbps x brtt, bytes */
	u32 avg_rtt;		/* EWMA of RTT samples (NSCC: of queueing
				 * delays), us Q8
				 */
	u32 acked;		/* bytes ACKed in the QuickAdapt window */
	u32 ignore_left;	/* bytes still to ignore after QuickAdapt */
	u32 fi_count;		/* consecutive clean bytes (FastIncrease) */
	u32 qa_start;		/* start of the QuickAdapt window, us */
	u32 md_time;		/* time of the last decrease, us */
	u32 gen;		/* smartt_params.gen of the cached values */
	u32 ceiling;		/* smartt_ceiling() */
	u32 rtt_lo;		/* smartt_rtt_lo() */
	u16 inc_rem;		/* increase not yet applied, bytes Q10 */
	u8 flags;		/* SMARTT_F_* */
	union {
		struct {
			u32 inc_unit;	/* mtu x scale = bdp / bdp_ref_pkts,
					 * bytes Q4
					 */
			u32 trtt;	/* smartt_trtt() */
			u32 fi_rtt;	/* smartt_fi_rtt() */
			u16 rtt_gain;	/* avg_rtt EWMA gain, Q10 */
			u64 fi_unit;	/* inc_unit x fi */
			u64 pi_unit;	/* inc_unit x pi */
		};
		struct {
			u64 unit_q10;	/* NSCC: nscc_unit() in Q10 */
			u32 target;	/* NSCC: nscc_target() */
			u32 inc_acc;	/* NSCC: increase of the batch,
					 * bytes Q10
					 */
			u32 adj_bytes;	/* NSCC: bytes ACKed in the batch */
			u32 adj_time;	/* NSCC: time of the last eta step,
					 * us
					 */
			u32 net_rtt;	/* NSCC: nscc_net_rtt() */
			u32 qa_win;	/* NSCC: nscc_qa_win() */
		};
	};
};

/* What an event did; the caller counts them or acts on PATH_CHANGE. */
enum smartt_action {
	SMARTT_NONE,		/* no window change */
	SMARTT_IGNORED,		/* inside the post-QuickAdapt ignore phase */
	SMARTT_QUICK_ADAPT,	/* window set to the delivered bytes */
	SMARTT_FAST_INC,	/* FastIncrease */
	SMARTT_MD,		/* marked, RTT above target: decrease */
	SMARTT_PATH_CHANGE,	/* marked, RTT at or below target */
	SMARTT_FAIR_INC,	/* unmarked, RTT above target */
	SMARTT_PROP_INC,	/* unmarked, RTT at or below target */
	SMARTT_LOSS,		/* NACK or timeout took its bytes off */
};

/* One ACK, as smartt_on_ack() and nscc_on_ack() take it. */
struct smartt_ack {
	u32 now;		/* arrival time, us */
	u32 size;		/* bytes newly delivered */
	s32 rtt_us;		/* RTT sample, us; < 0: none */
	u32 inflight;		/* bytes still in flight after it */
	bool ecn;		/* the ACK echoes a CE mark */
};

static inline u64 smartt_min64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u64 smartt_max64(u64 a, u64 b)
{
	return a > b ? a : b;
}

static inline u32 smartt_add_sat(u32 a, u32 b)
{
	u32 sum = a + b;

	return sum < a ? SMARTT_U32_MAX : sum;
}

/* The only division: by at least 1, with div64_u64 on 32-bit kernels. */
static inline u64 smartt_div(u64 a, u64 b)
{
	return div64_u64(a, smartt_max64(b, 1));
}

/* a x b, saturating at 2^64 - 1. */
static inline u64 smartt_mul_sat(u64 a, u64 b)
{
	u64 r;

	return __builtin_mul_overflow(a, b, &r) ? SMARTT_U64_MAX : r;
}

/* brtt < 2^24 and trtt_factor <= 16 (module range): fits in 32 bits. */
static inline u32 smartt_trtt(const struct smartt_state *s,
			      const struct smartt_params *p)
{
	return (u32)((u64)s->brtt * p->trtt_factor >> SMARTT_Q);
}

static inline u32 smartt_maxwnd(const struct smartt_state *s,
				const struct smartt_params *p)
{
	return (u32)smartt_min64((u64)s->bdp * p->max_cwnd >> SMARTT_Q,
				 SMARTT_CWND_LIMIT);
}

/*
 * The floor of the byte window: min_cwnd_bytes, which may be less than a
 * segment (the adapter keeps snd_cwnd at min_cwnd segments and the pacing
 * rate, cwnd / brtt, carries the smaller window), or, if it is 0,
 * min_cwnd MTUs as in the paper.
 */
static inline u32 smartt_minwnd(const struct smartt_state *s,
				const struct smartt_params *p)
{
	if (likely(p->min_cwnd_bytes))
		return (u32)smartt_min64(p->min_cwnd_bytes, SMARTT_CWND_LIMIT);
	return (u32)smartt_min64((u64)s->mtu * smartt_max64(p->min_cwnd, 1),
				 SMARTT_CWND_LIMIT);
}

/*
 * SMaRTT Algorithm 4, line 23, with the ceiling of Sec. III-J (1.5 BDP;
 * the listing has 1 BDP): cwnd = max(min(cwnd, maxwnd), floor); the floor
 * wins.
 */
static inline void smartt_clamp_to(struct smartt_state *s,
				   const struct smartt_params *p, u32 hi)
{
	u32 lo = smartt_minwnd(s, p);

	if (s->cwnd > hi)
		s->cwnd = hi;
	if (s->cwnd < lo)
		s->cwnd = lo;
}

static inline void smartt_clamp(struct smartt_state *s,
				const struct smartt_params *p)
{
	smartt_clamp_to(s, p, smartt_maxwnd(s, p));
}

/*
 * The most the window can be after smartt_clamp(): the ceiling, unless the
 * floor is above it. A window that only grew from within its bounds is
 * back within them at min(cwnd, smartt_ceiling()), and the full clamp is
 * the same with this as its ceiling.
 */
static inline u32 smartt_ceiling(const struct smartt_state *s,
				 const struct smartt_params *p)
{
	u32 hi = smartt_maxwnd(s, p), lo = smartt_minwnd(s, p);

	return hi > lo ? hi : lo;
}

/*
 * FastIncrease's "RTT ~ base RTT" (SMaRTT Algorithm 3, line 2): at most
 * brtt + tolerance, max(fast_inc_tol x brtt, fast_inc_tol_us); the paper
 * gives no tolerance, so this one is ours. RTT samples are capped at
 * SMARTT_RTT_MAX, so capping the sum at 2^32 - 1 changes no comparison.
 */
static inline u32 smartt_fi_rtt(const struct smartt_state *s,
				const struct smartt_params *p)
{
	u64 tol = (u64)s->brtt * p->fast_inc_tol >> SMARTT_Q;

	tol = smartt_max64(tol, p->fast_inc_tol_us);
	return (u32)smartt_min64(s->brtt + tol, SMARTT_U32_MAX);
}

/* The parameters' generation, bumped by every write (uno_nl.h). */
/*
 * The parameters' generation. It starts at 1 and skips 0, so that a state
 * whose cache was never derived, an all-zero one, never looks current:
 * TCP runs .cong_control on the ACK of its SYN before .init, on the
 * zeroed state tcp_assign_congestion_control() left, and that ACK must
 * take the slow path, which starts the flow.
 */
static inline u32 smartt_params_gen(const struct smartt_params *p)
{
	/*
	 * Pairs with uno_nl_param_store()'s smp_store_release() after the
	 * value: what is read after a new generation is the new values.
	 */
	return smp_load_acquire(&p->gen);
}

/*
 * A learned base RTT never goes below base_rtt_floor_us: samples under the
 * network's shortest path RTT are host timing noise (an ACK that found the
 * receiver idle, an emulated host), and a base RTT taken from one would
 * shrink the BDP and the target RTT far below the path's real ones.
 */
static inline u32 smartt_learned_brtt(const struct smartt_params *p, u32 rtt)
{
	return rtt > p->base_rtt_floor_us ? rtt : p->base_rtt_floor_us;
}

/* smartt_state.rtt_lo of a flow that takes no ACK on its fast path */
#define SMARTT_NO_FAST_PATH	SMARTT_U32_MAX

/*
 * The least RTT sample of an ACK that takes a law's fast path
 * (smartt_on_ack(), nscc_on_ack()): one the floor leaves as it is and
 * that is at least @least, or none (SMARTT_NO_FAST_PATH) before the flow's
 * first QuickAdapt window opens. So the fast path needs no test of its own
 * for a flow without a base RTT (smartt_reset() leaves none), for the
 * floor, for a sample that lowers a learned base RTT (@least is the base
 * RTT then), for an ACK without a sample, or for a flow whose QuickAdapt
 * window never opened: all of them take the slow path, which derives
 * rtt_lo again.
 */
static inline u32 smartt_rtt_lo(const struct smartt_state *s,
				const struct smartt_params *p, u32 least)
{
	if (!(s->flags & SMARTT_F_QA_RUNNING))
		return SMARTT_NO_FAST_PATH;
	return smartt_learned_brtt(p, least);
}

/*
 * A SMaRTT flow keeps what it would otherwise derive from its base RTT and
 * the parameters on every ACK: the window ceiling, the target RTT, the
 * FastIncrease threshold, the increase unit times fi and times pi (below
 * 2^64: both factors are u32), all products, and its fast path's least
 * RTT sample: the base RTT, or with a configured one any sample above the
 * floor (a sample below a configured base RTT does not lower it). It
 * derives them again when its base RTT changes, and when the parameters
 * do: every write bumps p->gen (uno_nl.h), and smartt_on_ack() compares it
 * with the cache's, so a new value applies from the next ACK, as it would
 * if read there. (NSCC flows keep their own values in these bytes:
 * nscc_cache().)
 */
static inline void smartt_cache(struct smartt_state *s,
				const struct smartt_params *p)
{
	s->gen = smartt_params_gen(p);
	s->ceiling = smartt_ceiling(s, p);
	s->trtt = smartt_trtt(s, p);
	s->fi_rtt = smartt_fi_rtt(s, p);
	s->fi_unit = (u64)s->inc_unit * p->fi;
	s->pi_unit = (u64)s->inc_unit * p->pi;
	s->rtt_lo = smartt_rtt_lo(s, p, p->base_rtt_us ? 1 : s->brtt);
}

static inline u32 smartt_avg_rtt_us(const struct smartt_state *s)
{
	return s->avg_rtt >> SMARTT_RTT_SHIFT;
}

/*
 * avg_rtt gain = clamp(rtt_gain_pkts / bdp_pkts, min, max): about a quarter
 * of a window's worth of ACKs per time constant at any BDP (our choice: the
 * paper only calls avg_rtt a per-packet EWMA, SMaRTT Sec. III-I2).
 */
static inline void smartt_update_gain(struct smartt_state *s,
				      const struct smartt_params *p)
{
	u64 g = smartt_mul_sat((u64)p->rtt_gain_pkts << SMARTT_Q, s->mtu);

	g = smartt_div(g, s->bdp);
	g = smartt_min64(g, p->rtt_gain_max);
	g = smartt_max64(g, p->rtt_gain_min);
	s->rtt_gain = (u16)smartt_min64(g, SMARTT_ONE);
}

/*
 * A new base RTT, configured or learned (SMaRTT Sec. III, "Overview"), and
 * the BDP, for both laws: bdp = link_rate_mbps x brtt: Mbit/s x us = bit,
 * so bytes are >> 3. It is capped at SMARTT_CWND_LIMIT, beyond which no
 * window can follow it.
 */
static inline void smartt_set_bdp(struct smartt_state *s,
				  const struct smartt_params *p, u32 brtt)
{
	u64 v;

	if (brtt > SMARTT_RTT_MAX)
		brtt = SMARTT_RTT_MAX;
	s->brtt = brtt ? brtt : 1;
	v = (u64)p->link_rate_mbps * s->brtt >> 3;
	s->bdp = (u32)smartt_min64(v, SMARTT_CWND_LIMIT);
}

/*
 * ... and for SMaRTT what follows from it: the increase unit and the
 * EWMA gain.
 *
 * The increase constants are scaled by the path BDP (SMaRTT Sec. III-J,
 * "Scaling"), here in packets relative to the reference BDP in packets:
 * scale = (bdp / mtu) / (bdp_ref / bdp_ref_mtu). The paper names no
 * reference BDP; bdp_ref is the authors' simulator's (htsim), and counting
 * both in packets, so that another MTU keeps the ratio, is our choice.
 * Eqs. 2 and 3 only ever use mtu x scale, in which the MTU cancels:
 *
 *	inc_unit = mtu x scale = bdp x bdp_ref_mtu / bdp_ref
 *
 * i.e. 1/36.6 of the BDP with the defaults, whatever the MSS.
 */
static inline void smartt_set_brtt(struct smartt_state *s,
				   const struct smartt_params *p, u32 brtt)
{
	u64 v;

	smartt_set_bdp(s, p, brtt);
	v = smartt_mul_sat((u64)s->bdp << SMARTT_UNIT_SHIFT, p->bdp_ref_mtu);
	v = smartt_div(v, p->bdp_ref);
	s->inc_unit = (u32)smartt_min64(v, SMARTT_U32_MAX);
	smartt_update_gain(s, p);
}

/*
 * Flow start: the flow gets its base RTT and first window, init_cwnd x BDP
 * (1 BDP: our choice, the paper gives no initial window).
 */
static noinline void smartt_start(struct smartt_state *s,
				  const struct smartt_params *p, u32 brtt)
{
	smartt_set_brtt(s, p, brtt);
	smartt_cache(s, p);
	s->avg_rtt = s->brtt << SMARTT_RTT_SHIFT;
	s->cwnd = (u32)smartt_min64((u64)s->bdp * p->init_cwnd >> SMARTT_Q,
				    SMARTT_CWND_LIMIT);
	smartt_clamp(s, p);
}

/*
 * @rtt_hint is the caller's best base-RTT estimate (in TCP the handshake's
 * RTT), 0 if it has none; a configured p->base_rtt_us takes precedence. With
 * neither, 0: the first RTT sample starts the flow, and the base RTT is
 * learned (SMaRTT Sec. III, "Overview").
 */
static inline u32 smartt_first_brtt(const struct smartt_params *p,
				    u32 rtt_hint)
{
	return p->base_rtt_us ? p->base_rtt_us :
	       rtt_hint ? smartt_learned_brtt(p, rtt_hint) : 0;
}

/* The state of a flow without a window; smartt_init() and nscc_init(). */
static inline void smartt_reset(struct smartt_state *s, u32 mtu)
{
	s->cwnd = 0;
	s->mtu = mtu ? mtu : 1;
	s->brtt = 0;
	s->bdp = 0;
	s->avg_rtt = 0;
	s->acked = 0;
	s->ignore_left = 0;
	s->fi_count = 0;
	s->qa_start = 0;
	s->md_time = 0;
	s->gen = 0;
	s->ceiling = 0;
	s->rtt_lo = SMARTT_NO_FAST_PATH;
	s->inc_rem = 0;
	s->flags = 0;
	s->unit_q10 = 0;	/* with NSCC's others, the whole union */
	s->target = 0;
	s->inc_acc = 0;
	s->adj_bytes = 0;
	s->adj_time = 0;
	s->net_rtt = 0;
	s->qa_win = 0;
}

static inline void smartt_init(struct smartt_state *s,
			       const struct smartt_params *p, u32 mtu,
			       u32 rtt_hint)
{
	u32 brtt = smartt_first_brtt(p, rtt_hint);

	smartt_reset(s, mtu);
	if (brtt)
		smartt_start(s, p, brtt);
}

/*
 * The MSS changed (PMTU): the floor, and with it the cached ceiling, and
 * SMaRTT's EWMA gain depend on it.
 */
static inline void smartt_set_mtu(struct smartt_state *s,
				  const struct smartt_params *p, u32 mtu)
{
	s->mtu = mtu ? mtu : 1;
	if (s->brtt) {
		if (!(s->flags & SMARTT_F_NSCC))
			smartt_update_gain(s, p);
		s->ceiling = smartt_ceiling(s, p);
		smartt_clamp(s, p);
	}
}

/*
 * avg += (rtt - avg) x gain, the per-packet EWMA of SMaRTT Sec. III-I2.
 * Both directions truncate towards zero so that the average has no bias.
 */
static inline void smartt_update_avg_rtt(struct smartt_state *s, u32 rtt)
{
	u32 r = rtt << SMARTT_RTT_SHIFT;

	/* Samples sit on the base RTT with excursions above: most are below */
	if (likely(r <= s->avg_rtt))
		s->avg_rtt -= (u32)((u64)(s->avg_rtt - r) * s->rtt_gain >>
				    SMARTT_Q);
	else
		s->avg_rtt += (u32)((u64)(r - s->avg_rtt) * s->rtt_gain >>
				    SMARTT_Q);
}

/*
 * Add an increase given in Q10 bytes. The sub-byte part is carried to the
 * next increase (our fixed point; the paper computes in real numbers): at
 * scale 1 a 1448-byte MSS in a 120 KB window gains 17.5 bytes per ACK;
 * truncating would lose 3 %.
 *
 * The window grows up to the cached ceiling, which is at most
 * SMARTT_CWND_LIMIT and current: every increase comes after smartt_cache()
 * or nscc_cache(). smartt_clamp() leaves a window capped there as it would
 * leave the uncapped one, since the ceiling is where it would cap it (the
 * floor is no higher), so a window that grew from within its bounds needs
 * no clamp after.
 */
static inline void smartt_grow(struct smartt_state *s, u64 inc)
{
	u64 sum = smartt_min64(inc, (u64)SMARTT_CWND_LIMIT << SMARTT_Q) +
		  s->inc_rem;

	s->inc_rem = (u16)(sum & (SMARTT_ONE - 1));
	s->cwnd = (u32)smartt_min64((u64)s->cwnd + (sum >> SMARTT_Q),
				    s->ceiling);
}

/*
 * Post-QuickAdapt ignore phase (SMaRTT Sec. III-E; Algorithm 4, lines 3-7):
 * an ACK or NACK of @size bytes is ignored while the bytes seen since the
 * adaptation, this one included, are fewer than were in flight then.
 */
static inline bool smartt_ignore(struct smartt_state *s, u32 size)
{
	if (size < s->ignore_left) {
		s->ignore_left -= size;
		return true;
	}
	s->ignore_left = 0;
	return false;
}

/*
 * QuickAdapt, SMaRTT Sec. III-E / Algorithm 2. @acked counts the bytes
 * delivered in the last trtt, i.e. the rate this flow achieves at its
 * bottleneck times trtt: a window that holds the bottleneck queue at about
 * half full. When armed (by a trim NACK, or by smartt_notrim_check()) the
 * window is set to it at the end of the measurement window, so at most
 * once per trtt, and the bytes then in flight, sent under the old window,
 * are ignored.
 *
 * QuickAdapt never raises the window (our choice: Algorithm 2, line 7,
 * would when more than cwnd was acked).
 */
static inline bool smartt_qa_due(const struct smartt_state *s, u32 now,
				 u32 trtt)
{
	return !(s->flags & SMARTT_F_QA_RUNNING) || now - s->qa_start >= trtt;
}

/* The end of the measurement window: adapt if armed, open the next. */
static inline bool smartt_qa_end(struct smartt_state *s,
				 const struct smartt_params *p, u32 now,
				 u32 inflight)
{
	bool adapted = false;

	if ((s->flags & (SMARTT_F_QA_ARMED | SMARTT_F_QA_RUNNING)) ==
	    (SMARTT_F_QA_ARMED | SMARTT_F_QA_RUNNING)) {
		u64 w = (u64)s->acked * p->qa_scaling >> SMARTT_Q;

		w = smartt_max64(w, s->mtu);
		if (w < s->cwnd)
			s->cwnd = (u32)w;
		s->ignore_left = inflight;
		s->flags &= ~SMARTT_F_QA_ARMED;
		adapted = true;
	}
	s->flags |= SMARTT_F_QA_RUNNING;
	s->qa_start = now;
	s->acked = 0;
	return adapted;
}

static inline bool smartt_quick_adapt(struct smartt_state *s,
				      const struct smartt_params *p,
				      u32 now, u32 inflight)
{
	return smartt_qa_due(s, now, smartt_trtt(s, p)) &&
	       smartt_qa_end(s, p, now, inflight);
}

/*
 * SMaRTT Sec. III-E, "QuickAdapt without trimming": without trimming, arm
 * QuickAdapt when the RTT is far above target (brtt + 4 (trtt - brtt) =
 * 3 brtt) while little was delivered in the current window (less than 1/8
 * of the largest window). The paper only says "RTT high, acked low"; both
 * thresholds are the authors' simulator's (htsim).
 */
static inline void smartt_notrim_check(struct smartt_state *s,
				       const struct smartt_params *p, u32 rtt)
{
	u32 trtt = s->trtt;
	u64 rtt_thresh = s->brtt;

	if (trtt > s->brtt)
		rtt_thresh += (u64)(trtt - s->brtt) * p->qa_notrim_rtt >>
			      SMARTT_Q;
	if (rtt > rtt_thresh &&
	    s->acked < ((u64)smartt_maxwnd(s, p) * p->qa_notrim_acked >>
			SMARTT_Q))
		s->flags |= SMARTT_F_QA_ARMED;
}

/*
 * FastIncrease, SMaRTT Sec. III-F / Algorithm 3: once more than a window of
 * consecutive bytes came back unmarked at about the base RTT, the path is
 * idle; grow by k bytes per acked byte (k = 2: 2 MTU per ACK of one MTU)
 * until the first marked or delayed ACK. An ACK without an RTT sample
 * (@rtt == 0) says nothing about delay: unless it is marked, the run of
 * clean bytes is neither extended nor broken.
 */
static inline bool smartt_fast_increase(struct smartt_state *s,
					const struct smartt_params *p,
					u32 size, u32 rtt, bool ecn)
{
	if (!ecn) {
		if (!rtt)
			return false;
		if (rtt <= s->fi_rtt) {
			s->fi_count = smartt_add_sat(s->fi_count, size);
			if (!(s->flags & SMARTT_F_FAST_INC)) {
				if (s->fi_count <= s->cwnd)
					return false;
				s->flags |= SMARTT_F_FAST_INC;
			}
			smartt_grow(s, (u64)size * p->fast_inc_k);
			return true;
		}
	}
	s->fi_count = 0;
	s->flags &= ~SMARTT_F_FAST_INC;
	return false;
}

/*
 * The decrease of paper Eq. 1, shared with NSCC (which feeds it queueing
 * delays instead of RTTs), @avg and @t both in us Q8, avg > t:
 *
 *	cwnd *= max(md_min_factor, 1 - gamma (avg - t) / avg)
 *
 * computed as cwnd - cwnd x r with r = gamma (avg - t) / avg in Q20, so
 * the factor is not rounded to 1/1024.
 */
static inline void smartt_md_cut(struct smartt_state *s,
				 const struct smartt_params *p, u32 now,
				 u64 avg, u64 t)
{
	u64 r, dec, w;

	r = smartt_div(smartt_mul_sat(p->md_gamma, (avg - t) << SMARTT_Q),
		       avg);
	dec = smartt_mul_sat(s->cwnd, r) >> (2 * SMARTT_Q);
	w = dec < s->cwnd ? s->cwnd - dec : 0;
	w = smartt_max64(w, (u64)s->cwnd * p->md_min_factor >> SMARTT_Q);
	s->cwnd = (u32)smartt_min64(w, s->cwnd);
	s->md_time = now;
	s->flags |= SMARTT_F_MD_DONE;
}

/*
 * Multiplicative decrease, paper Eq. 1, at most once per md_interval, on
 * the average RTT against trtt (@t, us Q8). avg_rtt <= trtt would make the
 * factor exceed 1: skip (our guard, the paper has none; htsim skips too).
 */
static inline bool smartt_md_due(const struct smartt_state *s,
				 const struct smartt_params *p, u32 now, u64 t)
{
	if ((s->flags & SMARTT_F_MD_DONE) &&
	    now - s->md_time < ((u64)s->brtt * p->md_interval >> SMARTT_Q))
		return false;
	return s->avg_rtt > t;
}

/*
 * Optional fair decrease for the marked-but-fast cell (the variant of
 * SMaRTT Fig. 11, Sec. III-I1; off by default): cwnd -= fd x size x cwnd /
 * bdp, a DCTCP-like slice per mark, as in early NSCC code of the authors'
 * simulator (htsim).
 */
static inline void smartt_fair_decrease(struct smartt_state *s,
					const struct smartt_params *p,
					u32 size)
{
	u64 dec = smartt_mul_sat((u64)size * s->cwnd, p->fair_decrease);

	dec = smartt_div(dec, (u64)s->bdp << SMARTT_Q);
	s->cwnd = dec < s->cwnd ? s->cwnd - (u32)dec : 0;
}

/*
 * The clamps of SMaRTT Algorithm 4, line 23, after an ACK (@act is what it
 * did), with the ceiling from the flow's cache. Between events the window
 * lies within its bounds (our choice: the listing skips the clamp on its
 * early returns): whatever moves a bound (the base RTT, the parameters,
 * the MTU) ends in both clamps, and an ACK that moved the window only one
 * way ends in the clamp of that way (smartt_grow() caps an increase); one
 * that left it alone, in none.
 */
static __always_inline enum smartt_action
smartt_ack_done(struct smartt_state *s, const struct smartt_params *p,
		enum smartt_action act)
{
	smartt_clamp_to(s, p, s->ceiling);
	return act;
}

/* ... an ACK that shrank it: below the ceiling before, so below it now */
static inline enum smartt_action
smartt_ack_shrunk(struct smartt_state *s, const struct smartt_params *p,
		  enum smartt_action act)
{
	u32 lo = smartt_minwnd(s, p);

	if (s->cwnd < lo)
		s->cwnd = lo;
	return act;
}

/* A decrease, at most one per base RTT: out of the per-ACK path. */
static noinline enum smartt_action
smartt_ack_md(struct smartt_state *s, const struct smartt_params *p,
	      u32 now, u64 t)
{
	smartt_md_cut(s, p, now, s->avg_rtt, t);
	return smartt_ack_shrunk(s, p, SMARTT_MD);
}

/* The optional fair decrease, off by default: out of the per-ACK path. */
static noinline enum smartt_action
smartt_ack_fair_decrease(struct smartt_state *s,
			 const struct smartt_params *p, u32 size)
{
	smartt_fair_decrease(s, p, size);
	return smartt_ack_shrunk(s, p, SMARTT_PATH_CHANGE);
}

/*
 * The ECN x delay matrix, SMaRTT Sec. III-I / Algorithm 1, for an ACK @a
 * of @size bytes with the RTT sample @rtt (as taken). rtt == trtt counts
 * as below target (our choice: Algorithm 1 tests only > and <).
 *
 * Fair increase, Eq. 2:	size / cwnd x mtu x fi x scale
 * Proportional increase, Eq. 3:
 *	min(size, (trtt - rtt) / rtt x size / cwnd x mtu x pi x scale)
 *
 * With unit = size x inc_unit (= size x mtu x scale, Q4) both come out in
 * Q10 bytes from one division each; unit x fi and unit x pi saturate
 * where size x fi_unit and size x pi_unit do, and are the same below.
 * Both use the window before this ACK (our choice: the paper only says PI
 * is "followed by" FI, Sec. III-I4).
 * Over a window's worth of ACKs the fair increase adds fi x scale MTUs
 * whatever the window, which favours small windows, and the proportional
 * one at most pi x scale x (trtt - brtt) / brtt = 1 x scale.
 *
 * Neither divisor needs smartt_div()'s guard: a flow with a base RTT has a
 * window of at least its floor, 1 byte or more (smartt_minwnd()), after
 * every event, and the sample is at least 1 us.
 */
static __always_inline enum smartt_action
smartt_ack_matrix(struct smartt_state *s, const struct smartt_params *p,
		  const struct smartt_ack *a, u32 size, u32 rtt, bool ecn)
{
	u32 trtt = s->trtt;
	u64 fi, pi, t;

	if (ecn) {
		if (rtt <= trtt) {
			if (likely(!p->fair_decrease))
				return SMARTT_PATH_CHANGE;
			return smartt_ack_fair_decrease(s, p, size);
		}
		t = (u64)trtt << SMARTT_RTT_SHIFT;
		if (!smartt_md_due(s, p, a->now, t))
			return SMARTT_NONE;
		return smartt_ack_md(s, p, a->now, t);
	}
	fi = div64_u64(smartt_mul_sat(size, s->fi_unit),
		       (u64)s->cwnd << SMARTT_UNIT_SHIFT);
	if (rtt > trtt) {
		smartt_grow(s, fi);
		return SMARTT_FAIR_INC;
	}
	pi = smartt_mul_sat(smartt_mul_sat(size, s->pi_unit), trtt - rtt);
	pi = div64_u64(pi, (u64)rtt * s->cwnd << SMARTT_UNIT_SHIFT);
	smartt_grow(s, smartt_min64(pi, (u64)size << SMARTT_Q) + fi);
	return SMARTT_PROP_INC;
}

/*
 * An RTT sample in us, or 0 for none (< 0). A zero reading means less than
 * the clock's resolution, so it counts as 1 us; it is capped at
 * SMARTT_RTT_MAX so that RTT products fit in 64 bits.
 */
static inline u32 smartt_rtt_sample(s32 rtt_us)
{
	/* The usual sample, 1 .. SMARTT_RTT_MAX - 1 us, in one test */
	if ((u32)rtt_us - 1 < SMARTT_RTT_MAX - 1)
		return (u32)rtt_us;
	if (rtt_us < 0)
		return 0;
	if (!rtt_us)
		return 1;
	return (u32)rtt_us < SMARTT_RTT_MAX ? (u32)rtt_us : SMARTT_RTT_MAX;
}

/*
 * The ACK's bytes (SMaRTT Algorithm 4, line 2, but for ACKs only: our
 * choice, a NACKed packet was not delivered), and its RTT sample if it has
 * one (the EWMA of Sec. III-I2).
 */
static inline void smartt_ack_count(struct smartt_state *s, u32 size, u32 rtt)
{
	s->acked = smartt_add_sat(s->acked, size);
	if (likely(rtt))
		smartt_update_avg_rtt(s, rtt);
}

/*
 * FastIncrease, else the matrix if the ACK has an RTT sample. The mark is
 * read once: the state's stores in between could alias the ACK for all
 * the compiler knows, which would make it test it again.
 */
static __always_inline enum smartt_action
smartt_ack_window(struct smartt_state *s, const struct smartt_params *p,
		  const struct smartt_ack *a, u32 size, u32 rtt)
{
	bool ecn = a->ecn;

	if (smartt_fast_increase(s, p, size, rtt, ecn))
		return SMARTT_FAST_INC;
	if (!rtt)
		return SMARTT_NONE;
	return smartt_ack_matrix(s, p, a, size, rtt, ecn);
}

/*
 * An ACK past the ignore phase that ends the QuickAdapt window, once per
 * trtt: the check without trimming, then QuickAdapt. If it adapts,
 * FastIncrease still runs, to keep its count, but the matrix does not.
 */
static noinline enum smartt_action
smartt_ack_qa(struct smartt_state *s, const struct smartt_params *p,
	      const struct smartt_ack *a, u32 size, u32 rtt)
{
	if (unlikely(!p->trimming) && rtt)
		smartt_notrim_check(s, p, rtt);
	if (!smartt_qa_end(s, p, a->now, a->inflight))
		return smartt_ack_window(s, p, a, size, rtt);
	smartt_fast_increase(s, p, size, rtt, a->ecn);
	return smartt_ack_done(s, p, SMARTT_QUICK_ADAPT);
}

/*
 * An ACK of a flow without trimming that does not end the QuickAdapt
 * window: the check, out of the per-ACK path, then the window.
 */
static noinline enum smartt_action
smartt_ack_notrim(struct smartt_state *s, const struct smartt_params *p,
		  const struct smartt_ack *a, u32 size, u32 rtt)
{
	smartt_notrim_check(s, p, rtt);
	return smartt_ack_window(s, p, a, size, rtt);
}

/*
 * The rest of an ACK, once counted (SMaRTT Algorithm 4): the ignore phase;
 * the end of the QuickAdapt window, which the check without trimming does
 * not move, so it is tested first; the check; FastIncrease and the matrix.
 * On the fast path (@fast) the QuickAdapt window is open (smartt_rtt_lo()).
 */
static __always_inline enum smartt_action
smartt_ack_act(struct smartt_state *s, const struct smartt_params *p,
	       const struct smartt_ack *a, u32 size, u32 rtt, bool fast)
{
	if (unlikely(s->ignore_left) && smartt_ignore(s, size))
		return SMARTT_IGNORED;
	if (unlikely(fast ? a->now - s->qa_start >= s->trtt :
		     smartt_qa_due(s, a->now, s->trtt)))
		return smartt_ack_qa(s, p, a, size, rtt);
	if (unlikely(!p->trimming) && rtt)
		return smartt_ack_notrim(s, p, a, size, rtt);
	return smartt_ack_window(s, p, a, size, rtt);
}

/*
 * An ACK's RTT sample in us, 0 for none. A sample under the floor is host
 * noise, not a fast path: taken as is, (trtt - rtt) / rtt would turn it
 * into a huge proportional increase, and "rtt near brtt" into
 * FastIncrease, for whichever flow happened to draw it. It counts as the
 * floor.
 */
static __always_inline u32 smartt_ack_rtt(const struct smartt_params *p,
					  s32 rtt_us)
{
	u32 rtt = smartt_rtt_sample(rtt_us);

	return rtt ? smartt_learned_brtt(p, rtt) : 0;
}

/* An ACK's bytes, capped so that no counter or product overflows. */
static __always_inline u32 smartt_ack_size(u32 size)
{
	return size < SMARTT_CWND_LIMIT ? size : SMARTT_CWND_LIMIT;
}

/*
 * An ACK in full, for smartt_on_ack(): the first ACK of a flow without a
 * base RTT, if it carries a sample, starts it; a sample under the learned
 * base RTT lowers it (a running minimum, like Swift's: SMaRTT Sec. III,
 * "Overview"); and the flow's cache is derived again, for these or for
 * changed parameters.
 */
static noinline enum smartt_action
smartt_on_ack_slow(struct smartt_state *s, const struct smartt_params *p,
		   const struct smartt_ack *a)
{
	u32 rtt = smartt_ack_rtt(p, a->rtt_us), size = smartt_ack_size(a->size);

	if (!s->brtt) {
		if (!rtt)
			return SMARTT_NONE;
		smartt_start(s, p, rtt);
	}
	smartt_ack_count(s, size, rtt);
	if (rtt && !p->base_rtt_us && rtt < s->brtt)
		smartt_set_brtt(s, p, rtt);
	smartt_cache(s, p);
	return smartt_ack_done(s, p, smartt_ack_act(s, p, a, size, rtt, false));
}

/*
 * Whether an ACK takes a law's fast path: its RTT sample (@rtt, us as the
 * ACK gives it, the bits of an s32) is one the flow's smartt_rtt_lo()
 * admits, and at most SMARTT_RTT_MAX, so that the sample is taken as it
 * is; its @size is at most SMARTT_CWND_LIMIT, as taken; and the flow's
 * cache is current. rtt_lo is at least 1, so rtt - 1 only tells the
 * compiler that a sample on the fast path is not 0.
 */
static __always_inline bool smartt_ack_fast(const struct smartt_state *s,
					    const struct smartt_params *p,
					    u32 size, u32 rtt)
{
	return rtt - 1 < SMARTT_RTT_MAX && rtt >= s->rtt_lo &&
	       size <= SMARTT_CWND_LIMIT && s->gen == smartt_params_gen(p);
}

/*
 * One ACK (SMaRTT Algorithm 4), @a: its bytes, RTT sample, echoed CE
 * mark, the bytes still in flight after it and its time.
 *
 * What a running flow does on most ACKs with an RTT sample is here, with
 * the ACK's sample and size as they are (smartt_ack_fast()). An ACK that
 * starts the flow, lowers its base RTT, finds the parameters changed, or
 * carries no sample or one under the floor, goes to smartt_on_ack_slow().
 * This path and every step it leaves out of line (smartt_ack_qa(), a
 * decrease) take the ACK by its address, so that this path jumps to them
 * and makes no call, and reads each field of the ACK where it needs it
 * rather than keep it in a register (Documentation/benchmarks.rst).
 */
static __always_inline enum smartt_action
smartt_on_ack(struct smartt_state *s, const struct smartt_params *p,
	      const struct smartt_ack *a)
{
	u32 size = a->size, rtt = (u32)a->rtt_us;

	if (unlikely(!smartt_ack_fast(s, p, size, rtt)))
		return smartt_on_ack_slow(s, p, a);
	smartt_ack_count(s, size, rtt);
	return smartt_ack_act(s, p, a, size, rtt, true);
}

/* Lost (trimmed, timed-out) bytes leave the window, down to zero. */
static inline void smartt_take(struct smartt_state *s, u32 size)
{
	s->cwnd -= size < s->cwnd ? size : s->cwnd;
}

/* ... and the window is back within its bounds: a plain loss. */
static inline enum smartt_action smartt_loss(struct smartt_state *s,
					     const struct smartt_params *p,
					     u32 size)
{
	smartt_take(s, size);
	smartt_clamp(s, p);
	return SMARTT_LOSS;
}

/*
 * A trimmed packet's NACK, or a loss reported as one (SMaRTT Sec. III-D;
 * Algorithm 4, lines 15-21): the lost bytes leave the window and
 * QuickAdapt is armed, applying at once if the measurement window is over.
 * Inside the ignore phase it only counts (our choice, as htsim does: the
 * listing would take the bytes and arm even there, against the intent of
 * Sec. III-E).
 */
static noinline enum smartt_action
smartt_on_nack(struct smartt_state *s, const struct smartt_params *p,
	       u32 now, u32 size, u32 inflight)
{
	enum smartt_action act = SMARTT_LOSS;

	if (!s->brtt)
		return SMARTT_NONE;
	if (smartt_ignore(s, size))
		return SMARTT_IGNORED;
	smartt_take(s, size);
	s->flags |= SMARTT_F_QA_ARMED;
	if (smartt_quick_adapt(s, p, now, inflight))
		act = SMARTT_QUICK_ADAPT;
	smartt_clamp(s, p);
	return act;
}

/*
 * A retransmission timeout for @size bytes: the same accounting as a NACK
 * (as htsim does; Algorithm 4 has no timeout) but it does not arm
 * QuickAdapt, a timeout comes too late to measure the congestion that
 * caused it (our reading of SMaRTT Sec. III-E, "QuickAdapt without
 * trimming").
 */
static inline enum smartt_action
smartt_on_timeout(struct smartt_state *s, const struct smartt_params *p,
		  u32 size)
{
	if (!s->brtt)
		return SMARTT_NONE;
	if (smartt_ignore(s, size))
		return SMARTT_IGNORED;
	return smartt_loss(s, p, size);
}

/*
 * Pacing rate in bytes per second: pacing_gain x cwnd / brtt. Sending a
 * window in less than a base RTT is as fast as the window allows on an
 * idle path, so with a gain above 1 the window, not the pacer, sets the
 * rate; the pacer only spreads line-rate bursts (the 1-BDP initial window,
 * FastIncrease). 0 means "do not pace" (no window yet, or gain 0).
 */
static inline u64 smartt_pacing_rate(const struct smartt_state *s,
				     const struct smartt_params *p)
{
	u64 rate = smartt_mul_sat((u64)s->cwnd * 1000000, p->pacing_gain);

	return smartt_div(rate, (u64)s->brtt << SMARTT_Q);
}

#endif /* _SMARTT_CORE_H */
