/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Marking law of the phantom qdisc: the ECN ramp of the real queue (SMaRTT
 * Sec. III-J) and the phantom queue of Uno (SC'25, Sec. 4.1.3).
 *
 * A phantom queue is a byte counter kept next to the real FIFO of a switch
 * port. Every packet that arrives at the port adds its length, whether it is
 * queued, trimmed or dropped (as the authors' simulator htsim counts; the
 * paper says each enqueued packet); the counter drains at a rate below the
 * line rate (90 % by default) and saturates at its size. Because it is served
 * more slowly than the link, it fills as soon as the offered load exceeds the
 * drain rate, before any real queue builds up, and so marks early.
 *
 * When a packet leaves the real queue (marking at dequeue, as SMaRTT
 * Sec. III-B and htsim do) it is CE-marked with probability
 *
 *	p = max(ramp_ecn(real backlog), ramp_phantom(phantom occupancy))
 *
 * where ramp(q) is 0 up to min, (q - min) / (max - min) up to max and 1
 * above max. One uniform 32-bit draw, passed in by the caller, decides both
 * ramps; a mark is put down to the real queue when its ramp alone marks.
 *
 * Everything is integer: time in ns (u64, compared modulo 2^64), rates in
 * bytes per second, sizes and thresholds in bytes (as RED's), the one
 * fraction, the drain rate's share of the line rate, in parts per million. The
 * counter drains exactly: the part of a byte already drained but not yet
 * taken off is carried over in units of 10^-9 byte, so its level does not
 * depend on how often it is updated. No division is done per packet, except
 * the division by 10^9 of the drain.
 *
 * The header needs no kernel headers, so that the user-space unit tests drive
 * the very functions that the qdisc runs (like include/net/codel_impl.h).
 */
#ifndef _PHANTOM_CORE_H
#define _PHANTOM_CORE_H

#include "core_types.h"

#define PHANTOM_NSEC_PER_SEC	1000000000U
/* 100 % in parts per million */
#define PHANTOM_PPM_ONE		1000000U
/* Highest rate, bytes per second (80 Tbit/s): keeps the drain in 64 bits. */
#define PHANTOM_RATE_MAX	10000000000000ULL

/* floor(@ref * @ppm / 10^6) without overflow; @ppm above 100 % counts as 100 %. */
static inline u64 phantom_ppm_of(u64 ref, u32 ppm)
{
	u32 ref_rem, frac_rem;
	u64 whole;

	if (ppm > PHANTOM_PPM_ONE)
		ppm = PHANTOM_PPM_ONE;
	whole = div_u64_rem(ref, PHANTOM_PPM_ONE, &ref_rem);
	return whole * ppm +
	       div_u64_rem((u64)ref_rem * ppm, PHANTOM_PPM_ONE, &frac_rem);
}

/*
 * Linear marking ramp over an occupancy in bytes: never at or below @min,
 * always at or above @max, with probability (q - min) / (max - min) in
 * between. min == max is a step at that threshold. The real backlog never
 * exceeds the limit (but for packets queued before a change lowered it),
 * so a real-queue ramp with min == max == limit never marks.
 */
struct phantom_ramp {
	u32 min;
	u32 max;
};

static inline void phantom_ramp_set(struct phantom_ramp *r, u32 min, u32 max)
{
	r->min = min;
	r->max = max;
}

/*
 * Whether occupancy @q marks, given a uniform draw @rnd: it does when
 * rnd < p * 2^32, i.e. rnd * (max - min) < (q - min) * 2^32, which needs no
 * division and cannot overflow (both sides are below 2^64).
 */
static inline bool phantom_ramp_mark(const struct phantom_ramp *r, u32 q,
				     u32 rnd)
{
	if (q <= r->min)
		return false;
	if (q >= r->max)
		return true;
	return (u64)rnd * (r->max - r->min) < (u64)(q - r->min) << 32;
}

/*
 * The phantom counter. Its true level is bytes - debt / 10^9: debt is what
 * has drained since the last whole byte came off. An empty counter carries
 * no debt (an idle port stores no credit), nor does a full one.
 */
struct phantom_pq {
	u64 rate;	/* drain rate, bytes per second; 0: never drains */
	u64 empty_ns;	/* any gap this long empties a full counter */
	u64 t_last;	/* time of the last drain, ns */
	u32 size;	/* capacity, bytes; 0: no phantom queue */
	u32 bytes;	/* occupancy, bytes, rounded up */
	u32 debt;	/* drained part of the next byte, 10^-9 byte */
	u32 peak;	/* highest occupancy reached, bytes */
};

/* Take off what drained between the last update and @now. */
static inline void phantom_pq_drain(struct phantom_pq *pq, u64 now)
{
	s64 dt;
	u64 gone;
	u32 debt;

	/* An empty counter has nothing to drain: it just follows the clock. */
	if (!pq->bytes) {
		pq->t_last = now;
		return;
	}
	/* Time stood still or went backwards: keep the later stamp. */
	dt = (s64)(now - pq->t_last);
	if (dt <= 0)
		return;
	pq->t_last = now;
	if (!pq->rate)
		return;
	if ((u64)dt >= pq->empty_ns) {
		pq->bytes = 0;
		pq->debt = 0;
		return;
	}
	/*
	 * dt < empty_ns <= ceil(size * 10^9 / rate), so dt * rate is below
	 * size * 10^9 + rate and, with size < 2^32 and rate <= RATE_MAX, the
	 * sum stays below 2^63.
	 */
	gone = div_u64_rem((u64)dt * pq->rate + pq->debt,
			   PHANTOM_NSEC_PER_SEC, &debt);
	if (gone >= pq->bytes) {
		pq->bytes = 0;
		pq->debt = 0;
	} else {
		pq->bytes -= (u32)gone;
		pq->debt = debt;
	}
}

/* A packet of @len bytes arrived at @now (queued, trimmed or dropped). */
static inline void phantom_pq_arrive(struct phantom_pq *pq, u64 now, u32 len)
{
	u64 sum;

	if (!pq->size)
		return;
	phantom_pq_drain(pq, now);
	sum = (u64)pq->bytes + len;
	if (sum >= pq->size) {
		pq->bytes = pq->size;
		pq->debt = 0;
	} else {
		pq->bytes = (u32)sum;
	}
	if (pq->bytes > pq->peak)
		pq->peak = pq->bytes;
}

/* Occupancy at @now, without touching the counter. */
static inline u32 phantom_pq_level(const struct phantom_pq *pq, u64 now)
{
	struct phantom_pq at = *pq;

	phantom_pq_drain(&at, now);
	return at.bytes;
}

/*
 * Set drain rate and size at @now. What drained so far drains at the old
 * rate; a counter above the new size is cut to it.
 */
static inline void phantom_pq_config(struct phantom_pq *pq, u64 rate, u32 size,
				     u64 now)
{
	phantom_pq_drain(pq, now);
	if (rate > PHANTOM_RATE_MAX)
		rate = PHANTOM_RATE_MAX;
	pq->rate = rate;
	pq->size = size;
	pq->empty_ns = rate ? div64_u64((u64)size * PHANTOM_NSEC_PER_SEC +
					rate - 1, rate) : ~0ULL;
	if (pq->bytes >= size) {
		pq->bytes = size;
		pq->debt = 0;
	}
}

/* Empty the counter at @now (the port was reset). */
static inline void phantom_pq_flush(struct phantom_pq *pq, u64 now)
{
	pq->bytes = 0;
	pq->debt = 0;
	pq->t_last = now;
}

/*
 * The port's shaper: a token bucket of link time, like tbf's. A packet that
 * needs len_ns of link time leaves once the bucket holds that much, or is
 * full for a packet longer than the bucket (the MTU grew after the burst
 * was set), so at most depth ns of link time leave back to back after an
 * idle period or a late wakeup.
 *
 * What overflows the bucket is link time left unused. While packets wait it
 * is lost for good, because the shaper ran later than its depth covers (a
 * watchdog that fired late, a CPU the host stalled): stall_ns adds it up.
 * With nothing queued the port was idle beyond one burst: idle_ns. A rate
 * that falls short with neither growing is the shaper's fault; with one,
 * the host's or the sender's.
 */
struct phantom_bucket {
	s64 depth;		/* burst, ns of link time */
	s64 tokens;		/* link time in the bucket at t_c, ns */
	u64 t_c;		/* time of the last departure, ns */
	u64 stall_ns;		/* link time lost while packets waited */
	u64 idle_ns;		/* link time unused with nothing queued */
	bool backlogged;	/* packets have waited since t_c */
};

/*
 * Set the depth at @now: a new bucket (@fill) starts full, a resized one
 * keeps what fits. The next overflow counts as idle: what the old depth
 * let build up is no stall.
 */
static inline void phantom_bucket_set(struct phantom_bucket *b, s64 depth,
				      u64 now, bool fill)
{
	b->depth = depth;
	if (fill) {
		b->tokens = depth;
		b->t_c = now;
	} else if (b->tokens > depth) {
		b->tokens = depth;
	}
	b->backlogged = false;
}

/* Fill the bucket at @now (the port was reset). */
static inline void phantom_bucket_reset(struct phantom_bucket *b, u64 now)
{
	phantom_bucket_set(b, b->depth, now, true);
}

/*
 * The head packet, @len_ns of link time, may leave at @now: returns 0 and
 * charges the bucket if it may (@more: packets stay queued behind it), else
 * the ns the bucket needs to fill up to it.
 */
static inline u64 phantom_bucket_send(struct phantom_bucket *b, u64 now,
				      s64 len_ns, bool more)
{
	s64 need = len_ns < b->depth ? len_ns : b->depth;
	s64 toks = (s64)(now - b->t_c) + b->tokens;

	if (toks > b->depth) {
		if (b->backlogged)
			b->stall_ns += toks - b->depth;
		else
			b->idle_ns += toks - b->depth;
		toks = b->depth;
	}
	if (toks < need)
		return need - toks;
	b->tokens = toks - len_ns;
	b->t_c = now;
	b->backlogged = more;
	return 0;
}

/*
 * How long the port held no packet at all. A sampled backlog percentile
 * only estimates it: the backlog's median over a span is 0 exactly when
 * the port was empty for at least half of it, which two readings of
 * phantom_empty_ns() tell with no sampling error.
 */
struct phantom_empty {
	u64 ns;			/* time empty, up to since if still empty */
	u64 since;		/* when the last packet left */
	bool empty;		/* no packet queued since then */
};

/* The last packet left at @now (or the port starts, or is reset, empty). */
static inline void phantom_empty_begin(struct phantom_empty *e, u64 now)
{
	if (e->empty)
		return;
	e->since = now;
	e->empty = true;
}

/* A packet was queued at @now: the empty span, if any, ends. */
static inline void phantom_empty_end(struct phantom_empty *e, u64 now)
{
	if (!e->empty)
		return;
	if (now > e->since)
		e->ns += now - e->since;
	e->empty = false;
}

/* The time the port was empty, up to @now. */
static inline u64 phantom_empty_ns(const struct phantom_empty *e, u64 now)
{
	return e->ns + (e->empty && now > e->since ? now - e->since : 0);
}

/*
 * Virtual PFC (Reflex, reflex.md 5.3): the PAUSE frames a lossless port
 * would have sent upstream. Such a port pauses its senders when its
 * backlog rises above X_off and resumes them once the backlog is back at
 * X_on = X_off - 2 MTU; a lossy port only counts the pauses. The Reflex
 * paper reports PFC pause events (its Sec. IV-B); counted at every
 * enqueue and dequeue, our count is exact where a sampled backlog misses
 * the crossings shorter than its period.
 */
struct phantom_xoff {
	u64 events;	/* pauses */
	u32 xoff;	/* bytes of backlog; 0: off */
	u32 xon;	/* bytes of backlog, below xoff */
	bool paused;
};

/* X_off @xoff bytes (0: off), X_on two packets of @mtu bytes below. */
static inline void phantom_xoff_set(struct phantom_xoff *x, u32 xoff, u32 mtu)
{
	x->xoff = xoff;
	x->xon = xoff > 2 * mtu ? xoff - 2 * mtu : 0;
	if (!xoff)
		x->paused = false;
}

/* The backlog is now @backlog bytes: true if the port pauses anew. */
static inline bool phantom_xoff_update(struct phantom_xoff *x, u32 backlog)
{
	if (x->paused) {
		if (backlog <= x->xon)
			x->paused = false;
		return false;
	}
	if (!x->xoff || backlog <= x->xoff)
		return false;
	x->paused = true;
	x->events++;
	return true;
}

/* Settings of one port, as configured. */
struct phantom_params {
	u64 rate;	/* line rate, bytes per second */
	u32 limit;	/* real queue capacity, bytes */
	u32 ecn_min;	/* real-queue ramp, bytes of backlog */
	u32 ecn_max;
	u32 pq_rate;	/* phantom drain rate, ppm of rate */
	u32 pq_size;	/* phantom capacity, bytes; 0: off */
	u32 pq_min;	/* phantom ramp, bytes of occupancy */
	u32 pq_max;
};

struct phantom_state {
	struct phantom_ramp ecn;	/* over the real backlog */
	struct phantom_ramp pq_ramp;	/* over the phantom occupancy */
	struct phantom_pq pq;
};

enum phantom_verdict {
	PHANTOM_PASS,
	PHANTOM_MARK_REAL,	/* the real-queue ramp marks */
	PHANTOM_MARK_PHANTOM,	/* only the phantom ramp marks */
};

/* Apply @p at @now; the phantom counter keeps its level. */
static inline void phantom_configure(struct phantom_state *st,
				     const struct phantom_params *p, u64 now)
{
	phantom_ramp_set(&st->ecn, p->ecn_min, p->ecn_max);
	phantom_ramp_set(&st->pq_ramp, p->pq_min, p->pq_max);
	phantom_pq_config(&st->pq, phantom_ppm_of(p->rate, p->pq_rate),
			  p->pq_size, now);
}

/* A packet of @len bytes on the wire arrived at @now. */
static inline void phantom_arrive(struct phantom_state *st, u64 now, u32 len)
{
	phantom_pq_arrive(&st->pq, now, len);
}

/* Whether occupancy @q lies strictly inside the ramp, where a draw decides. */
static inline bool phantom_ramp_draws(const struct phantom_ramp *r, u32 q)
{
	return q > r->min && q < r->max;
}

/*
 * Whether the departure at @now, leaving @backlog bytes behind, needs a
 * random draw: only if an occupancy lies inside its ramp and the real ramp
 * does not mark for certain. Otherwise the
 * verdict of phantom_depart() is the same whatever @rnd, and the caller may
 * pass 0 and spare the draw (get_random_u32() is the dearest part of a
 * dequeue). Drains the counter up to @now as phantom_depart() does.
 */
static inline bool phantom_depart_draws(struct phantom_state *st, u64 now,
					u32 backlog)
{
	phantom_pq_drain(&st->pq, now);
	if (backlog >= st->ecn.max)
		return false;
	return phantom_ramp_draws(&st->ecn, backlog) ||
	       (st->pq.size && phantom_ramp_draws(&st->pq_ramp, st->pq.bytes));
}

/*
 * A packet leaves the real queue at @now, leaving @backlog bytes behind it;
 * @rnd is a uniform 32-bit draw.
 */
static inline enum phantom_verdict phantom_depart(struct phantom_state *st,
						  u64 now, u32 backlog, u32 rnd)
{
	phantom_pq_drain(&st->pq, now);
	if (phantom_ramp_mark(&st->ecn, backlog, rnd))
		return PHANTOM_MARK_REAL;
	if (st->pq.size && phantom_ramp_mark(&st->pq_ramp, st->pq.bytes, rnd))
		return PHANTOM_MARK_PHANTOM;
	return PHANTOM_PASS;
}

#endif /* _PHANTOM_CORE_H */
