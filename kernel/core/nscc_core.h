/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NSCC, Ultra Ethernet's sender-based congestion control, the law SMaRTT
 * (smartt_core.h) became. It runs on SMaRTT's per-flow state and helpers;
 * tcp_smartt selects it per flow with mode=1 (p->mode == SMARTT_MODE_NSCC,
 * remembered in SMARTT_F_NSCC when the flow starts).
 *
 * The reference is the authors' simulator, github.com/spcl/HTSIM,
 * htsim/sim/uec.cpp and uec.h (class UecSrc); every constant below names
 * the function it comes from. What NSCC changes against the SMaRTT paper:
 *
 *  - The signal is the queueing delay, delay = rtt - brtt, against one
 *    network-wide target, target = 0.75 x the network RTT with trimming,
 *    1 x without (initNsccParams), not a per-flow trtt = 1.5 x brtt.
 *  - The decrease is normalised by the average queueing delay:
 *    cwnd *= max(0.5, 1 - 0.8 (avg_delay - target) / avg_delay)
 *    (multiplicative_decrease).
 *  - Increases are global constants, scaled by the network BDP, summed per
 *    ACK and applied in batches, once more than 8 MTU were ACKed or one
 *    network RTT passed, plus an additive eta once per network RTT
 *    (updateCwndOnAck_NSCC, fulfill_adjustment).
 *  - QuickAdapt measures over brtt + target and fires on a trim NACK, a
 *    loss or a delay above 4 x target, if less than maxwnd / 8 was
 *    delivered (quick_adapt); the ignore phase only skips marked ACKs.
 *  - FastIncrease engages on a queueing delay under 1 us and adds a
 *    quarter of the network scale per acked byte (fast_increase).
 *  - A flow starts at its largest window, 1.5 BDP (initNscc).
 *
 * Units as in smartt_core.h. Delays and the target are us Q8 (u64);
 * s->avg_rtt holds the average queueing delay. The scale of the increases
 * is uec.cpp's _mss x _scaling_factor_a: the network BDP over the
 * reference BDP (100 Gbit/s x 12 us, bdp_ref), times uec.cpp's _mss, a
 * global (4096 B, the reference's MSS, bdp_ref_mtu here), not the flow's.
 *
 * Departures from uec.cpp, all at the size of rounding: the increase of an
 * ACK is divided by the window when it arrives, not by the window when the
 * batch is applied (they differ when a decrease, FastIncrease or NACK
 * changed the window within the batch); sub-byte remainders carry over
 * (smartt_grow()); the window floor is smartt_minwnd(), not one MTU, except
 * after QuickAdapt, whose floor stays one MTU.
 */
#ifndef _NSCC_CORE_H
#define _NSCC_CORE_H

#include "smartt_core.h"

/* uec.cpp, initNsccParams(): _reference_network_rtt = timeFromUs(12u) */
#define NSCC_REF_RTT_US		12
/* initNsccParams(): _target_Qdelay = _network_rtt * 0.75 with trimming */
#define NSCC_TARGET_NUM		3
#define NSCC_TARGET_SHIFT	2
/* initNsccParams(): _fi = 5*_mss*_scaling_factor_a */
#define NSCC_FI_MSS		5
/*
 * initNsccParams(): _alpha = 4.0*_mss*_scaling_factor_a*_scaling_factor_b
 * / _target_Qdelay, with _scaling_factor_b = _target_Qdelay /
 * _reference_network_rtt: alpha = 4 _mss a / 12 us, bytes per us of
 * headroom per acked byte per window byte.
 */
#define NSCC_ALPHA_MSS		4
/* initNsccParams(): _eta = 0.15*_mss*_scaling_factor_a */
#define NSCC_ETA_PCT		15
/* initNsccParams(): _fi_scale = .25*_scaling_factor_a */
#define NSCC_FAST_INC_SHIFT	2
/* fast_increase(): if (delay < timeFromUs(1u)) */
#define NSCC_FAST_INC_DELAY_US	1
/* initNsccParams(): _qa_threshold = 4 * _target_Qdelay */
#define NSCC_QA_DELAY_MULT	4
/* initNsccParams(): _qa_gate = 3 by default; quick_adapt(): _maxwnd >> it */
#define NSCC_QA_GATE_SHIFT	3
/* initNsccParams(): _delay_alpha = 0.0125 = 1/80 */
#define NSCC_DELAY_EWMA_DIV	80
/* update_delay(): an unmarked sample above target counts as _base_rtt*0.25 */
#define NSCC_CLEAN_DELAY_SHIFT	2
/* initNsccParams(): _adjust_bytes_threshold = 8 * _mtu */
#define NSCC_ADJ_MTUS		8

/*
 * The network RTT of initNsccParams(): main_uec.cpp passes the largest
 * unloaded RTT of the fabric, and, unless -enable_accurate_base_rtt, also
 * starts every flow's base RTT from it. nscc_net_rtt_us configures it; 0
 * takes the flow's base RTT, the same on a single-path testbed.
 */
static inline u32 nscc_net_rtt(const struct smartt_state *s,
			       const struct smartt_params *p)
{
	u32 r = p->nscc_net_rtt_us ? p->nscc_net_rtt_us : s->brtt;

	return r < SMARTT_RTT_MAX ? r : SMARTT_RTT_MAX;
}

/* target_Qdelay, us Q8: 3/4 of the network RTT, all of it without trims. */
static inline u64 nscc_target(const struct smartt_state *s,
			      const struct smartt_params *p)
{
	u64 r = (u64)nscc_net_rtt(s, p) << SMARTT_RTT_SHIFT;

	return p->trimming ? r * NSCC_TARGET_NUM >> NSCC_TARGET_SHIFT : r;
}

/*
 * _mss x _scaling_factor_a in bytes Q4, as smartt_set_brtt() computes
 * inc_unit but from the network BDP, link_rate_mbps x network RTT:
 * unit = bdp_net x bdp_ref_mtu / bdp_ref.
 */
static inline u64 nscc_unit(const struct smartt_state *s,
			    const struct smartt_params *p)
{
	u64 bdp = (u64)p->link_rate_mbps * nscc_net_rtt(s, p) >> 3;

	bdp = smartt_min64(bdp, SMARTT_CWND_LIMIT);
	return smartt_div(smartt_mul_sat(bdp << SMARTT_UNIT_SHIFT,
					 p->bdp_ref_mtu), p->bdp_ref);
}

/*
 * update_delay(): avg += (sample - avg) / 80, truncated towards zero both
 * ways. Its sample is the queueing delay, except that an unmarked ACK
 * above target counts as a quarter of the base RTT: delay without a mark
 * is not taken for congestion. (Its second branch, for delays above
 * 5 brtt, uses the same gain.) Every sample, a delay or a network RTT of
 * at most SMARTT_RTT_MAX us in Q8, is below 2^32, and so is the average,
 * which only moves towards it.
 */
static inline void nscc_update_avg(struct smartt_state *s, u32 sample)
{
	u32 avg = s->avg_rtt;

	/* Delays sit on 0 with excursions above: most are at or below it */
	if (likely(sample <= avg))
		avg -= (avg - sample) / NSCC_DELAY_EWMA_DIV;
	else
		avg += (sample - avg) / NSCC_DELAY_EWMA_DIV;
	s->avg_rtt = avg;
}

/*
 * quick_adapt(), past the ignore phase: each measurement window lasts
 * brtt + target (@target in us Q8) and ends strictly after it, i.e. once
 * more whole us have passed than brtt + target / 256 rounded down, which
 * this returns.
 */
static inline u32 nscc_qa_win(const struct smartt_state *s, u64 target)
{
	return s->brtt + (u32)(target >> SMARTT_RTT_SHIFT);
}

static inline bool nscc_qa_due(const struct smartt_state *s, u32 now,
			       u32 win)
{
	return !(s->flags & SMARTT_F_QA_RUNNING) || now - s->qa_start > win;
}

/*
 * What an NSCC flow keeps instead of deriving it on every ACK, as
 * smartt_cache() does for SMaRTT: the window ceiling, the network RTT,
 * the target, the increase unit (in Q10, so that the increases, all in
 * Q10, need no shift of their own; saturated, which changes no
 * saturating product it enters) and the QuickAdapt window, derived again
 * when the base RTT or the parameters change. The target fits in 32 bits:
 * the network RTT is below 2^24 us. Its fast path's least RTT sample is
 * the base RTT (a lower one is no sample, nscc_ack_delay()), once the
 * flow has applied its first batch, whose eta is due at once
 * (nscc_batch_due()).
 */
static inline void nscc_cache(struct smartt_state *s,
			      const struct smartt_params *p)
{
	s->gen = smartt_params_gen(p);
	s->ceiling = smartt_ceiling(s, p);
	s->net_rtt = nscc_net_rtt(s, p);
	s->target = (u32)nscc_target(s, p);
	s->unit_q10 = smartt_mul_sat(nscc_unit(s, p),
				     1U << (SMARTT_Q - SMARTT_UNIT_SHIFT));
	s->qa_win = nscc_qa_win(s, s->target);
	s->rtt_lo = s->flags & SMARTT_F_ADJ_DONE ?
		    smartt_rtt_lo(s, p, s->brtt) : SMARTT_NO_FAST_PATH;
}

/* Initial state, initNscc(): _cwnd = _maxwnd = 1.5 x _bdp, _avg_delay 0. */
static noinline void nscc_start(struct smartt_state *s,
				const struct smartt_params *p, u32 brtt)
{
	smartt_set_bdp(s, p, brtt);
	nscc_cache(s, p);
	s->avg_rtt = 0;
	s->cwnd = smartt_maxwnd(s, p);
	smartt_clamp(s, p);
}

static inline void nscc_init(struct smartt_state *s,
			     const struct smartt_params *p, u32 mtu,
			     u32 rtt_hint)
{
	u32 brtt = smartt_first_brtt(p, rtt_hint);

	smartt_reset(s, mtu);
	s->flags = SMARTT_F_NSCC;
	if (brtt)
		nscc_start(s, p, brtt);
}

/*
 * ... at its end, if armed (by a NACK) or @trigger (a loss, or a delay
 * above 4 x target) and fewer than maxwnd / 8 bytes were delivered in it,
 * the window becomes those bytes, at least one MTU (_min_cwnd = _mtu), and
 * the bytes then in flight are ignored. The next window opens.
 */
static inline bool nscc_qa_end(struct smartt_state *s,
			       const struct smartt_params *p, u32 now,
			       bool trigger, u32 inflight)
{
	bool adapted = false;

	if ((s->flags & SMARTT_F_QA_RUNNING) &&
	    ((s->flags & SMARTT_F_QA_ARMED) || trigger) &&
	    s->acked < smartt_maxwnd(s, p) >> NSCC_QA_GATE_SHIFT) {
		s->cwnd = s->acked > s->mtu ? s->acked : s->mtu;
		s->ignore_left = inflight;
		s->flags &= ~SMARTT_F_QA_ARMED;
		adapted = true;
	}
	s->flags |= SMARTT_F_QA_RUNNING;
	s->qa_start = now;
	s->acked = 0;
	return adapted;
}

/* Add @inc (bytes Q10) to the batch, saturating. */
static inline void nscc_accumulate(struct smartt_state *s, u64 inc)
{
	s->inc_acc = smartt_add_sat(s->inc_acc,
				    (u32)smartt_min64(inc, SMARTT_U32_MAX));
}

/*
 * The increases below take @u = unit x size in Q10 bytes, saturated (a
 * product of saturating products is the saturated product of all their
 * factors, in any order), and divide by the window without smartt_div()'s
 * guard: a flow with a base RTT has a window of at least its floor, 1 byte
 * or more (smartt_minwnd()), after every event.
 *
 * fair_increase(): inc += _fi x size, applied as inc / cwnd, i.e.
 * 5 x unit x size / cwnd bytes: 5 unit per window of ACKs.
 */
static inline void nscc_fair_increase(struct smartt_state *s, u64 u)
{
	nscc_accumulate(s, div64_u64(smartt_mul_sat(u, NSCC_FI_MSS), s->cwnd));
}

/*
 * proportional_increase(): inc += alpha x size x (target - delay), applied
 * as inc / cwnd: 4 unit x size x (target - delay) / (12 us x cwnd) bytes,
 * with the headroom in us Q8.
 */
static inline void nscc_prop_increase(struct smartt_state *s, u64 u,
				      u64 headroom)
{
	u64 inc = smartt_mul_sat(smartt_mul_sat(u, headroom), NSCC_ALPHA_MSS);

	inc = div64_u64(inc, (u64)NSCC_REF_RTT_US * s->cwnd <<
			SMARTT_RTT_SHIFT);
	nscc_accumulate(s, inc);
}

/*
 * fast_increase(): a queueing delay under 1 us (widened by
 * fast_inc_tol_us, for host jitter; 0 by default) extends the run of
 * clean bytes, anything else ends it. Once the run exceeds the window,
 * and until it ends, each ACK grows the window at once by
 * size x a / 4 = size x unit / (4 bdp_ref_mtu). The delay is under
 * fast_inc_tol_us + 1 us if its whole us are at most fast_inc_tol_us.
 */
static inline bool nscc_fast_increase(struct smartt_state *s,
				      const struct smartt_params *p,
				      u32 size, u32 delay, u64 u)
{
	if (delay >> SMARTT_RTT_SHIFT > p->fast_inc_tol_us) {
		s->fi_count = 0;
		s->flags &= ~SMARTT_F_FAST_INC;
		return false;
	}
	s->fi_count = smartt_add_sat(s->fi_count, size);
	if (!(s->flags & SMARTT_F_FAST_INC)) {
		if (s->fi_count <= s->cwnd)
			return false;
		s->flags |= SMARTT_F_FAST_INC;
	}
	smartt_grow(s, smartt_div(u, (u64)p->bdp_ref_mtu <<
				  NSCC_FAST_INC_SHIFT));
	return true;
}

/*
 * multiplicative_decrease(): a marked ACK above target ends FastIncrease
 * and, if the average delay is above target and more than a base RTT
 * passed since the last decrease, cuts the window by Eq. 1 on queueing
 * delays: max(md_min_factor, 1 - md_gamma (avg - target) / avg), whose
 * defaults 0.5 and 0.8 are uec.cpp's (smartt_md_cut()).
 */
static inline bool nscc_md_due(struct smartt_state *s, u32 now, u64 target)
{
	s->fi_count = 0;
	s->flags &= ~SMARTT_F_FAST_INC;
	if (s->avg_rtt <= target)
		return false;
	return !(s->flags & SMARTT_F_MD_DONE) || now - s->md_time > s->brtt;
}

/*
 * fulfill_adjustment(), due once more than 8 MTU were ACKed since the
 * last batch or more than a network RTT passed since the last eta, and at
 * a flow's first batch (which the fast path never sees: smartt_rtt_lo()).
 */
static __always_inline bool nscc_batch_due(const struct smartt_state *s,
					   u32 now, bool full)
{
	return s->adj_bytes > (u64)s->mtu * NSCC_ADJ_MTUS ||
	       (full && !(s->flags & SMARTT_F_ADJ_DONE)) ||
	       now - s->adj_time > s->net_rtt;
}

/*
 * ... the summed increase goes into the window, and eta = 0.15 unit with
 * it if a network RTT passed (or at the first batch); for @act, about one
 * ACK in eight MTU: out of line. An empty batch (FastIncrease adds to the
 * window, not to the batch) would leave the window as it is: it lies
 * within its bounds, and nothing carries over.
 */
static noinline enum smartt_action
nscc_fulfill(struct smartt_state *s, u32 now, enum smartt_action act)
{
	bool eta = !(s->flags & SMARTT_F_ADJ_DONE) ||
		   now - s->adj_time >= s->net_rtt;

	if (s->inc_acc)
		smartt_grow(s, s->inc_acc);
	if (eta) {
		u64 inc = smartt_mul_sat(s->unit_q10, NSCC_ETA_PCT);

		smartt_grow(s, div_u64(inc, 100));
		s->adj_time = now;
		s->flags |= SMARTT_F_ADJ_DONE;
	}
	s->inc_acc = 0;
	s->adj_bytes = 0;
	return act;
}

/* quick_adapt(): after QuickAdapt or an ignored ACK, a new batch. */
static inline enum smartt_action nscc_new_batch(struct smartt_state *s,
						enum smartt_action act)
{
	s->inc_acc = 0;
	s->adj_bytes = 0;
	return act;
}

/* The ACK's bytes, in the QuickAdapt window and in the batch. */
static __always_inline void nscc_ack_count(struct smartt_state *s, u32 size)
{
	s->acked = smartt_add_sat(s->acked, size);
	s->adj_bytes = smartt_add_sat(s->adj_bytes, size);
}

/*
 * update_delay()'s sample for an ACK with queueing delay @delay (us Q8):
 * the delay, or a quarter of the base RTT if the ACK is unmarked and
 * above target.
 */
static __always_inline u32 nscc_avg_sample(const struct smartt_state *s,
					   u32 delay, bool ecn)
{
	return !ecn && delay > s->target ?
	       s->brtt << (SMARTT_RTT_SHIFT - NSCC_CLEAN_DELAY_SHIFT) : delay;
}

/*
 * The average takes @sample if the ACK carries an RTT sample (@sampled;
 * one without takes the average delay as its delay, nscc_ack_delay(), and
 * leaves it). The ACK's path calls this where it knows the mark and the
 * delay's side of the target, so that most ACKs pick their sample with no
 * test of their own; nothing on the path reads the average before.
 */
static __always_inline void nscc_ack_avg(struct smartt_state *s, u32 sample,
					 bool sampled)
{
	if (sampled)
		nscc_update_avg(s, sample);
}

/* The queueing delay of an ACK in us Q8, the average's if no sample. */
static __always_inline u32 nscc_ack_delay(const struct smartt_state *s,
					  u32 rtt)
{
	if (rtt < s->brtt)		/* brtt >= 1: not a sample */
		return s->avg_rtt;
	return (rtt - s->brtt) << SMARTT_RTT_SHIFT;
}

/*
 * The end of an ACK past its cell (@act): the batch, if due. @full:
 * clamp both ways after the cell and after the batch, as
 * updateCwndOnAck_NSCC() does. Without it, the clamps that can move a
 * window that lay within its bounds before the ACK: the floor after a
 * decrease (nscc_ack_md()), the ceiling after an increase, which
 * smartt_grow() applies, and both after QuickAdapt (nscc_ack_qa()). The
 * two are the same from a window within its bounds
 * (nscc_clamp.DirectionalClampsAreTheFullClamps).
 */
static __always_inline enum smartt_action
nscc_ack_end(struct smartt_state *s, const struct smartt_params *p, u32 now,
	     enum smartt_action act, bool full)
{
	if (full)
		smartt_clamp(s, p);
	if (nscc_batch_due(s, now, full))
		act = nscc_fulfill(s, now, act);
	if (full)
		smartt_clamp(s, p);
	return act;
}

/* A decrease, at most one per base RTT: out of line, with the floor. */
static noinline enum smartt_action
nscc_ack_md(struct smartt_state *s, const struct smartt_params *p, u32 now,
	    u64 target, bool full)
{
	smartt_md_cut(s, p, now, s->avg_rtt, target);
	if (!full)
		smartt_ack_shrunk(s, p, SMARTT_MD);
	return nscc_ack_end(s, p, now, SMARTT_MD, full);
}

/*
 * updateCwndOnAck_NSCC()'s cell for an ACK @a of @size bytes (as taken)
 * with queueing delay @delay (us Q8), and the batch: the delay picks the
 * cell, the average delay, which takes the ACK's sample first, sizes the
 * decrease. Only a decrease or FastIncrease moves the window here; the
 * increases are summed into the batch.
 */
static __always_inline enum smartt_action
nscc_ack_cell(struct smartt_state *s, const struct smartt_params *p,
	      const struct smartt_ack *a, u32 size, u32 delay, bool sampled,
	      bool full)
{
	u32 target = s->target;
	enum smartt_action act;
	u64 u;

	if (a->ecn) {
		nscc_ack_avg(s, delay, sampled);
		act = SMARTT_PATH_CHANGE;
		if (delay >= target) {
			if (nscc_md_due(s, a->now, target))
				return nscc_ack_md(s, p, a->now, target, full);
			act = SMARTT_NONE;
		}
		return nscc_ack_end(s, p, a->now, act, full);
	}
	u = smartt_mul_sat(s->unit_q10, size);
	if (delay >= target) {
		nscc_ack_avg(s, nscc_avg_sample(s, delay, false), sampled);
		nscc_fair_increase(s, u);
		act = SMARTT_FAIR_INC;
	} else {
		nscc_ack_avg(s, delay, sampled);
		if (nscc_fast_increase(s, p, size, delay, u)) {
			act = SMARTT_FAST_INC;
		} else {
			nscc_prop_increase(s, u, target - delay);
			act = SMARTT_PROP_INC;
		}
	}
	return nscc_ack_end(s, p, a->now, act, full);
}

/*
 * An ACK that ends a QuickAdapt window, once per brtt + target: out of
 * line, and the rest of the ACK unless it adapts.
 */
static noinline enum smartt_action
nscc_ack_qa(struct smartt_state *s, const struct smartt_params *p,
	    const struct smartt_ack *a, u32 size, u32 delay, bool sampled,
	    bool full)
{
	if (nscc_qa_end(s, p, a->now,
			delay > (u64)s->target * NSCC_QA_DELAY_MULT,
			a->inflight)) {
		nscc_ack_avg(s, nscc_avg_sample(s, delay, a->ecn), sampled);
		smartt_clamp_to(s, p, s->ceiling);
		return nscc_new_batch(s, SMARTT_QUICK_ADAPT);
	}
	return nscc_ack_cell(s, p, a, size, delay, sampled, full);
}

/*
 * updateCwndOnAck_NSCC(), for an ACK @a of @size bytes (as taken) with
 * queueing delay @delay (us Q8), once counted; @sampled if it carries an
 * RTT sample, which the delay average takes on each path out of here
 * (nscc_ack_avg()). On the fast path (!@full) the QuickAdapt window is
 * open (smartt_rtt_lo()).
 */
static __always_inline enum smartt_action
nscc_ack_act(struct smartt_state *s, const struct smartt_params *p,
	     const struct smartt_ack *a, u32 size, u32 delay, bool sampled,
	     bool full)
{
	/* The ignore phase counts every ACK but skips only marked ones. */
	if (unlikely(s->ignore_left) && smartt_ignore(s, size) && a->ecn) {
		nscc_ack_avg(s, delay, sampled);
		if (full)
			smartt_clamp(s, p);
		return nscc_new_batch(s, SMARTT_IGNORED);
	}
	if (unlikely(full ? nscc_qa_due(s, a->now, s->qa_win) :
		     a->now - s->qa_start > s->qa_win))
		return nscc_ack_qa(s, p, a, size, delay, sampled, full);
	return nscc_ack_cell(s, p, a, size, delay, sampled, full);
}

/*
 * An ACK that starts the flow, lowers its base RTT, finds the parameters
 * changed or carries no sample (smartt_ack_fast()): the cache is derived
 * again and both clamps run.
 */
static noinline enum smartt_action
nscc_on_ack_slow(struct smartt_state *s, const struct smartt_params *p,
		 const struct smartt_ack *a)
{
	u32 rtt = smartt_ack_rtt(p, a->rtt_us), size = smartt_ack_size(a->size);

	if (!s->brtt) {
		if (!rtt)
			return SMARTT_NONE;
		nscc_start(s, p, rtt);
	}
	if (rtt && !p->base_rtt_us && rtt < s->brtt)
		smartt_set_bdp(s, p, rtt);
	nscc_cache(s, p);
	nscc_ack_count(s, size);
	return nscc_ack_act(s, p, a, size, nscc_ack_delay(s, rtt),
			    rtt >= s->brtt, true);
}

/*
 * One ACK, as smartt_on_ack() takes it, whose fast path this is: a sample
 * at or above rtt_lo is at or above the base RTT, a queueing delay.
 */
static __always_inline enum smartt_action
nscc_on_ack(struct smartt_state *s, const struct smartt_params *p,
	    const struct smartt_ack *a)
{
	u32 size = a->size, rtt = (u32)a->rtt_us, delay;

	if (unlikely(!smartt_ack_fast(s, p, size, rtt)))
		return nscc_on_ack_slow(s, p, a);
	delay = (rtt - s->brtt) << SMARTT_RTT_SHIFT;
	nscc_ack_count(s, size);
	return nscc_ack_act(s, p, a, size, delay, true, false);
}

/*
 * A trim NACK, or a loss reported as one: updateCwndOnNack_NSCC(). The
 * NACK counts as a queueing delay of one network RTT (the trimming
 * threshold), arms QuickAdapt and runs it as a loss; unless that adapts or
 * the NACK falls in the ignore phase, its bytes leave the window.
 */
static noinline enum smartt_action
nscc_on_nack(struct smartt_state *s, const struct smartt_params *p,
	     u32 now, u32 size, u32 inflight)
{
	enum smartt_action act;

	if (!s->brtt)
		return SMARTT_NONE;
	nscc_update_avg(s, nscc_net_rtt(s, p) << SMARTT_RTT_SHIFT);
	s->flags |= SMARTT_F_QA_ARMED;
	if (smartt_ignore(s, size)) {
		act = SMARTT_IGNORED;
	} else if (nscc_qa_due(s, now, nscc_qa_win(s, nscc_target(s, p))) &&
		   nscc_qa_end(s, p, now, true, inflight)) {
		act = SMARTT_QUICK_ADAPT;
	} else {
		return smartt_loss(s, p, size);
	}
	smartt_clamp(s, p);
	return nscc_new_batch(s, act);
}

/*
 * A timeout: mark_packet_for_retransmission() takes the packet off the
 * window, with no QuickAdapt and no ignore phase.
 */
static inline enum smartt_action
nscc_on_timeout(struct smartt_state *s, const struct smartt_params *p,
		u32 size)
{
	if (!s->brtt)
		return SMARTT_NONE;
	return smartt_loss(s, p, size);
}

#endif /* _NSCC_CORE_H */
