/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TIMELY: the RTT-gradient rate law as pure integer functions, a host
 * congestion control of the Reflex study (../shared/spec/reflex.md,
 * sections 3.1 and 3.3; Reflex paper sections II-B and II-C).
 *
 * Mittal et al., "TIMELY: RTT-based Congestion Control for the
 * Datacenter", SIGCOMM 2015, Algorithm 1, with the details of the HPCC
 * NS-3 implementation (RdmaHw::UpdateRateTimely()) that the spec takes:
 * hyper additive increase (HAI) after 5 consecutive increases of either
 * increase branch, a_ewma = 0.875 as the weight of the new sample, and a
 * floor R_min. One call per completion event, for each RTT sample:
 *
 *	new_diff = rtt - prev_rtt;  prev_rtt = rtt
 *	rtt_diff = (1 - a_ewma) rtt_diff + a_ewma new_diff
 *	g        = rtt_diff / minRTT                  (normalised gradient)
 *	rtt < T_low:   rate += step                     (additive increase)
 *	rtt > T_high:  rate *= 1 - beta (1 - T_high / rtt)
 *	g <= 0:        rate += step
 *	else:          rate *= max(0, 1 - beta g)
 *	rate = clamp(rate, R_min, R_line)
 *
 * checked in that order, where step is HAI after hai_thresh consecutive
 * increases (any decrease starts the count over), delta before. The first
 * sample only records prev_rtt (the rate stays). The TIMELY paper's own
 * rule, HAI in the gradient branch only and counted over consecutive
 * g <= 0 events (a T_low increase or any decrease ends the run), is the
 * switch TIMELY_HAI_GRADIENT.
 *
 * When a sample is taken is the caller's: once per RTT of data (an ACK
 * that covers the snd_nxt recorded at the previous update), or one per
 * Reflex pseudo-ACK (spec 3.3), whose RTT_src is then the sample. The
 * spec's retransmission-timeout rule (7.11: halve, floor R_min) is
 * timely_on_rto(); the paper's lossless fabric has none.
 *
 * Units: rates are bytes per second (u64, what sk_pacing_rate takes),
 * times are ns (u32: up to 4.29 s, which holds the 1012 us WAN RTT even
 * when time-dilated by 1000), fractions (beta, a_ewma) are parts per
 * million, so the paper's 0.8 and 0.875 and delta's 0.1 % are exact.
 * rtt_diff is signed ns, each EWMA step rounded toward zero. Every
 * product is bounded by the limits below; a division is by a positive
 * value that params_valid() guarantees. The header uses only the names of
 * core_types.h: no libc, no floating point, no loop, so it compiles in a
 * BPF program, the kernel and the C++ tests.
 */
#ifndef _TIMELY_CORE_H
#define _TIMELY_CORE_H

#include "core_types.h"

#define TIMELY_PPM_ONE		1000000U	/* 1.0 in parts per million */
/* Highest rate, bytes/s (8.8 Tbit/s): rate x ppm stays below 2^60. */
#define TIMELY_RATE_MAX		BIT_ULL(40)
/* Longest RTT sample, ns: beta x rtt stays below 2^52. */
#define TIMELY_RTT_MAX		0xffffffffU
#define TIMELY_HAI_THRESH_MAX	1000U

/* hai_mode */
#define TIMELY_HAI_ANY		0	/* HPCC NS-3: any increase counts */
#define TIMELY_HAI_GRADIENT	1	/* TIMELY Alg. 1: g <= 0 events only */

/*
 * Defaults (spec 3.1). The Reflex paper says only "TIMELY uses the default
 * parameter settings [10]" (section II-C); its Table I lists Reflex's own
 * parameters, none of TIMELY's.
 */
#define TIMELY_DEF_T_LOW_NS	50000U		/* TIMELY default */
#define TIMELY_DEF_T_HIGH_NS	500000U		/* TIMELY default */
#define TIMELY_DEF_BETA_PPM	800000U		/* TIMELY default */
#define TIMELY_DEF_EWMA_PPM	875000U		/* HPCC NS-3 default */
#define TIMELY_DEF_MIN_RTT_NS	20000U		/* gradient normaliser */
#define TIMELY_DEF_ADD_DIV	1000U		/* delta = 0.1 % of line [default] */
#define TIMELY_DEF_HAI_MULT	5U		/* HAI step = 5 delta (HPCC) */
#define TIMELY_DEF_HAI_THRESH	5U		/* after 5 increases (HPCC) */
#define TIMELY_DEF_MIN_DIV	100U		/* R_min = 1 % of line [default] */

/*
 * The transport hosts' (tcp_timely, bpf_timely): the line rate
 * (reflex.md 5.1: 100 Gbit/s) and the window they keep, % of rate x RTT,
 * which bounds what is in flight without binding (4.4 H1 c: 2x).
 */
#define TIMELY_DEF_LINK_MBPS		100000U
#define TIMELY_DEF_CWND_GAIN_PCT	200U

/* Configuration, shared by all flows. */
struct timely_params {
	u64 min_rate;		/* R_min, bytes/s */
	u64 max_rate;		/* R_line: ceiling and initial rate, bytes/s */
	u64 add_step;		/* delta, bytes/s per increase */
	u64 hai_step;		/* the step in HAI, bytes/s */
	u32 t_low_ns;		/* T_low: below, always increase */
	u32 t_high_ns;		/* T_high: above, decrease by the RTT */
	u32 min_rtt_ns;		/* minRTT: normalises the gradient */
	u32 beta_ppm;		/* beta: decrease gain */
	u32 ewma_ppm;		/* a_ewma: weight of the new difference */
	u32 hai_thresh;		/* N: increases before HAI */
	u32 hai_mode;		/* TIMELY_HAI_* */
};

/* Per-flow state, 24 bytes. */
struct timely_state {
	u64 rate;		/* bytes/s, in [min_rate, max_rate] */
	s64 rtt_diff;		/* EWMA of RTT differences, ns */
	u32 prev_rtt_ns;	/* previous sample; 0: none yet */
	u32 inc_stage;		/* consecutive increases, up to hai_thresh */
};

/* timely_on_rtt_sample() return bits: the branch taken and what it did. */
#define TIMELY_EV_LOW		0x01	/* rtt < T_low */
#define TIMELY_EV_HIGH		0x02	/* rtt > T_high */
#define TIMELY_EV_GRAD		0x04	/* T_low <= rtt <= T_high */
#define TIMELY_EV_INC		0x08	/* rate increased by delta or HAI */
#define TIMELY_EV_HAI		0x10	/* ... by the HAI step */
#define TIMELY_EV_DEC		0x20	/* rate multiplied down */

/*
 * The spec's defaults for a link of line_rate bytes/s: delta 0.1 % of it,
 * HAI 5 delta, R_min 1 % (1 Gbit/s at 100 Gbit/s, as the HPCC scripts),
 * R_line the line rate. Times at paper scale; a time-dilated run
 * multiplies them by S and divides the rates by S (spec, conventions).
 */
static __always_inline void timely_params_default(struct timely_params *p,
						  u64 line_rate)
{
	p->max_rate = line_rate;
	p->min_rate = div64_u64(line_rate, TIMELY_DEF_MIN_DIV);
	p->add_step = div64_u64(line_rate, TIMELY_DEF_ADD_DIV);
	p->hai_step = p->add_step * TIMELY_DEF_HAI_MULT;
	p->t_low_ns = TIMELY_DEF_T_LOW_NS;
	p->t_high_ns = TIMELY_DEF_T_HIGH_NS;
	p->min_rtt_ns = TIMELY_DEF_MIN_RTT_NS;
	p->beta_ppm = TIMELY_DEF_BETA_PPM;
	p->ewma_ppm = TIMELY_DEF_EWMA_PPM;
	p->hai_thresh = TIMELY_DEF_HAI_THRESH;
	p->hai_mode = TIMELY_HAI_ANY;
}

/*
 * The tunables as an operator sets them, in tcp_timely_params.h's names
 * and units (rates in ppm of the line rate, times in us), for every host
 * (the module's parameters, unoctl's registration of bpf_timely).
 */
struct timely_knobs {
	u32 link_rate_mbps;
	u32 t_low_us;
	u32 t_high_us;
	u32 min_rtt_us;
	u32 beta_ppm;
	u32 ewma_ppm;
	u32 add_step_ppm;
	u32 hai_mult;
	u32 hai_thresh;
	u32 hai_gradient;	/* non-zero: TIMELY_HAI_GRADIENT */
	u32 min_rate_ppm;
	u32 cwnd_gain_pct;	/* the host's window, not the law's */
};

#define TIMELY_KNOBS_INIT {						\
	.link_rate_mbps	= TIMELY_DEF_LINK_MBPS,				\
	.t_low_us	= TIMELY_DEF_T_LOW_NS / 1000,			\
	.t_high_us	= TIMELY_DEF_T_HIGH_NS / 1000,			\
	.min_rtt_us	= TIMELY_DEF_MIN_RTT_NS / 1000,			\
	.beta_ppm	= TIMELY_DEF_BETA_PPM,				\
	.ewma_ppm	= TIMELY_DEF_EWMA_PPM,				\
	.add_step_ppm	= TIMELY_PPM_ONE / TIMELY_DEF_ADD_DIV,		\
	.hai_mult	= TIMELY_DEF_HAI_MULT,				\
	.hai_thresh	= TIMELY_DEF_HAI_THRESH,			\
	.hai_gradient	= 0,						\
	.min_rate_ppm	= TIMELY_PPM_ONE / TIMELY_DEF_MIN_DIV,		\
	.cwnd_gain_pct	= TIMELY_DEF_CWND_GAIN_PCT,			\
}

static __always_inline u32 timely_us_to_ns(u32 us)
{
	u64 ns = (u64)us * 1000;

	return ns > TIMELY_RTT_MAX ? TIMELY_RTT_MAX : (u32)ns;
}

/* The law's parameters from the tunables: Mbit/s to bytes/s, us to ns. */
static __always_inline void
timely_params_from_knobs(struct timely_params *p, const struct timely_knobs *k)
{
	u64 line = (u64)k->link_rate_mbps * (1000000 / 8);

	p->max_rate = line;
	p->min_rate = div64_u64(line * k->min_rate_ppm, TIMELY_PPM_ONE);
	p->add_step = div64_u64(line * k->add_step_ppm, TIMELY_PPM_ONE);
	p->hai_step = p->add_step * k->hai_mult;
	p->t_low_ns = timely_us_to_ns(k->t_low_us);
	p->t_high_ns = timely_us_to_ns(k->t_high_us);
	p->min_rtt_ns = timely_us_to_ns(k->min_rtt_us);
	p->beta_ppm = k->beta_ppm;
	p->ewma_ppm = k->ewma_ppm;
	p->hai_thresh = k->hai_thresh;
	p->hai_mode = k->hai_gradient ? TIMELY_HAI_GRADIENT : TIMELY_HAI_ANY;
}

/*
 * Are the params usable? 0 < R_min <= R_line <= TIMELY_RATE_MAX (no rate
 * of 0, which would never send again); 0 < delta <= HAI step <= R_line
 * (a law that cannot increase is none, and HAI is the larger step);
 * 0 < T_low <= T_high (T_low == T_high leaves no gradient band, which is
 * legal); minRTT > 0 (it divides); beta and a_ewma in (0, 1] (beta 0 would
 * never decrease, a_ewma 0 would keep the gradient at 0 forever).
 */
static __always_inline bool timely_params_valid(const struct timely_params *p)
{
	return p->min_rate && p->min_rate <= p->max_rate &&
	       p->max_rate <= TIMELY_RATE_MAX &&
	       p->add_step && p->add_step <= p->hai_step &&
	       p->hai_step <= p->max_rate &&
	       p->t_low_ns && p->t_low_ns <= p->t_high_ns &&
	       p->min_rtt_ns &&
	       p->beta_ppm && p->beta_ppm <= TIMELY_PPM_ONE &&
	       p->ewma_ppm && p->ewma_ppm <= TIMELY_PPM_ONE &&
	       p->hai_thresh <= TIMELY_HAI_THRESH_MAX &&
	       p->hai_mode <= TIMELY_HAI_GRADIENT;
}

/* A new flow: RDMA queue pairs start at line rate (spec 3.1, R_init). */
static __always_inline void timely_init(struct timely_state *s,
					const struct timely_params *p)
{
	s->rate = p->max_rate;
	s->rtt_diff = 0;
	s->prev_rtt_ns = 0;
	s->inc_stage = 0;
}

/* x * (1 - dec), dec in ppm <= 10^6, x <= TIMELY_RATE_MAX: floors. */
static __always_inline u64 timely_cut(u64 x, u64 dec)
{
	return div64_u64(x * (TIMELY_PPM_ONE - dec), TIMELY_PPM_ONE);
}

/*
 * The EWMA of RTT differences: ((1 - a) rtt_diff + a new_diff) in ns,
 * rounded toward zero (so a steady RTT decays it to exactly 0). Both
 * terms are below 2^32 ns in size and a <= 2^20, so the sum is below
 * 2^53; the division is done on its magnitude, as BPF and 32-bit kernels
 * divide unsigned values only.
 */
static __always_inline s64 timely_ewma(s64 rtt_diff, s64 new_diff, u32 a)
{
	s64 sum = (s64)(TIMELY_PPM_ONE - a) * rtt_diff + (s64)a * new_diff;

	if (sum < 0)
		return -(s64)div64_u64((u64)-sum, TIMELY_PPM_ONE);
	return (s64)div64_u64((u64)sum, TIMELY_PPM_ONE);
}

/*
 * Additive increase by delta, or by the HAI step if hai_ok and hai_thresh
 * increases in a row were counted before this one (HPCC: m_incStage < 5 ?
 * rai : rhai, then m_incStage++). The count saturates at hai_thresh.
 * Returns the TIMELY_EV_* bits.
 */
static __always_inline u32 timely_increase(struct timely_state *s,
					   const struct timely_params *p,
					   bool hai_ok)
{
	u32 ev = TIMELY_EV_INC;

	if (hai_ok && s->inc_stage >= p->hai_thresh) {
		s->rate += p->hai_step;
		ev |= TIMELY_EV_HAI;
	} else {
		s->rate += p->add_step;
	}
	if (s->inc_stage < p->hai_thresh)
		s->inc_stage++;
	return ev;
}

/*
 * One RTT sample, rtt_ns (clamped to 1..TIMELY_RTT_MAX: 0 would read as
 * "no sample yet"). Updates s->rate and returns the TIMELY_EV_* bits of
 * the branch taken, 0 for a flow's first sample.
 */
static __always_inline u32 timely_on_rtt_sample(struct timely_state *s,
						const struct timely_params *p,
						u64 rtt_ns)
{
	u32 rtt = rtt_ns > TIMELY_RTT_MAX ? TIMELY_RTT_MAX :
		  rtt_ns ? (u32)rtt_ns : 1;
	bool hai_grad = p->hai_mode == TIMELY_HAI_GRADIENT;
	u64 dec;
	u32 ev;

	if (!s->prev_rtt_ns) {
		s->prev_rtt_ns = rtt;
		return 0;
	}
	s->rtt_diff = timely_ewma(s->rtt_diff, (s64)rtt - s->prev_rtt_ns,
				  p->ewma_ppm);
	s->prev_rtt_ns = rtt;

	if (rtt < p->t_low_ns) {
		/*
		 * TIMELY's Algorithm 1 adds delta here, never HAI, and this
		 * is no gradient event: its run of them starts over.
		 */
		ev = TIMELY_EV_LOW | timely_increase(s, p, !hai_grad);
		if (hai_grad)
			s->inc_stage = 0;
	} else if (rtt > p->t_high_ns) {
		/*
		 * 1 - beta (1 - T_high / rtt) = 1 - beta (rtt - T_high) / rtt:
		 * the decrease, beta x (rtt - T_high) / rtt in ppm, is below
		 * beta; beta x rtt < 2^52.
		 */
		dec = div64_u64((u64)p->beta_ppm * (rtt - p->t_high_ns), rtt);
		s->rate = timely_cut(s->rate, dec);
		s->inc_stage = 0;
		ev = TIMELY_EV_HIGH | TIMELY_EV_DEC;
	} else if (s->rtt_diff <= 0) {
		/* g <= 0 exactly when rtt_diff <= 0: minRTT > 0 */
		ev = TIMELY_EV_GRAD | timely_increase(s, p, true);
	} else {
		/*
		 * 1 - beta g = 1 - beta x rtt_diff / minRTT, floored at 0
		 * (a gradient of 1.25 or more with beta 0.8): the decrease
		 * in ppm, at most 10^6; beta x rtt_diff < 2^52.
		 */
		dec = div64_u64((u64)p->beta_ppm * (u64)s->rtt_diff,
				p->min_rtt_ns);
		if (dec > TIMELY_PPM_ONE)
			dec = TIMELY_PPM_ONE;
		s->rate = timely_cut(s->rate, dec);
		s->inc_stage = 0;
		ev = TIMELY_EV_GRAD | TIMELY_EV_DEC;
	}

	if (s->rate < p->min_rate)
		s->rate = p->min_rate;
	if (s->rate > p->max_rate)
		s->rate = p->max_rate;
	return ev;
}

/*
 * Retransmission timeout: halve the rate, never below R_min, and start
 * the increase count over (spec 3.3 and 7.11 [default]: NS-3 is lossless,
 * Linux is not; TIMELY itself has no loss rule).
 */
static __always_inline void timely_on_rto(struct timely_state *s,
					  const struct timely_params *p)
{
	s->rate >>= 1;
	if (s->rate < p->min_rate)
		s->rate = p->min_rate;
	s->inc_stage = 0;
}

#endif /* _TIMELY_CORE_H */
