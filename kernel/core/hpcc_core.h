/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HPCC's rate law on INT hop records, as pure integer functions: the law
 * behind both of MLCC's short loops, the near-source rate R_NS (L1) and
 * the receiver's credit rate R_credit (L2), and the end-to-end law of
 * intra-DC flows (../shared/spec/mlcc.md 3.2 and 7.1: the MLCC paper
 * gives no law of its own; it builds on HPCC, whose law is fixed here).
 *
 * Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019,
 * Algorithm 1 (MeasureInflight, ComputeWind) in its rate form:
 *
 *	per hop j: tau = ts - ts'      tx_rate = (tx - tx') / tau
 *	           u_j = tx_rate / B + min(qlen, qlen') / (B T)
 *	U = (1 - tau/T) U + (tau/T) max_j u_j, tau of the most loaded hop,
 *	    capped at T
 *	k = U / eta
 *	k >= 1 or inc_stage >= max_stage: R = Rc / k + R_AI, stage 0
 *	otherwise:                        R = Rc + R_AI,     stage + 1
 *	R = clamp(R, R_min, R_max); on a commit Rc = R and the stage is kept
 *
 * T is the base RTT of the loop the records travel (the sender to its
 * DCI for R_NS, the DCI to the receiver for R_credit). A commit happens
 * once per round of that loop; the caller decides when (mlcc_core.h).
 *
 * Records are the wire's (spec 3.8): qlen and tx in 64-byte units, ts in
 * 64 ns units, the last two 20-bit counters that wrap (tx after 64 MB,
 * ts after 67 ms), so differences are taken modulo 2^20 and a sample
 * more than half a wrap from the last (33.5 ms) is not trusted: the
 * state re-primes on it, and on a sample after the flow was idle that
 * long (spec T8(e)). A hop whose interval could hold a whole tx wrap at
 * its line rate (64 MB: 5.4 ms at 100 Gbit/s) tells nothing and is
 * skipped. The line rate B is bytes/s, decoded by the caller.
 *
 * Units: rates are bytes/s (u64, up to HPCC_RATE_MAX), times ns, U and
 * eta Q16.16 (eta 0.95 is 62259/65536, 3 ppm low); each u_j term is
 * capped at HPCC_U_MAX so that every product stays in 64 bits. No libc,
 * no floating point and loops of HPCC_MAXHOP, unrolled, so the header
 * compiles in a BPF program, the kernel and the C++ tests.
 */
#ifndef _HPCC_CORE_H
#define _HPCC_CORE_H

#include "core_types.h"

#define HPCC_ONE		BIT(16)		/* 1.0 in Q16.16 */
#define HPCC_MAXHOP		4U	/* 3 in a data packet, 4 in a Switch-INT */
#define HPCC_INT_BITS		20
#define HPCC_INT_MASK		(BIT(HPCC_INT_BITS) - 1)
#define HPCC_INT_UNIT		64U	/* bytes of qlen and tx, ns of ts */
/* Half the ts counter's wrap: farther apart, two samples are unordered. */
#define HPCC_INT_HALF_WRAP_NS	((u64)BIT(HPCC_INT_BITS - 1) * HPCC_INT_UNIT)
/* Highest rate, bytes/s (550 Gbit/s, above the wire's 400G). */
#define HPCC_RATE_MAX		BIT_ULL(36)
/* Longest loop RTT T, ns (134 ms): HPCC_RATE_MAX x T < 2^63. */
#define HPCC_T_MAX		BIT(27)
/* Largest u_j term, 64.0: a hop can be no more than that loaded. */
#define HPCC_U_MAX		(64U << 16)
#define HPCC_STAGE_MAX		255U

/* Defaults (spec 3.2, from HPCC): R_AI = R_line (1 - eta) / 16. */
#define HPCC_DEF_ETA		62259U		/* 0.95 */
#define HPCC_DEF_MAX_STAGE	5U
#define HPCC_DEF_AI_DIV		320U		/* 16 / (1 - 0.95) */
#define HPCC_DEF_MIN_DIV	250U		/* R_min = R_line / 250 */

/* One switch egress port's record, at the packet's dequeue. */
struct hpcc_hop {
	u64 rate;		/* the port's line rate B, bytes/s; 0: unknown */
	u32 qlen;		/* its queue, 64 B units */
	u32 tx;			/* bytes it sent, 64 B units, mod 2^20 */
	u32 ts;			/* when, 64 ns units, mod 2^20 */
	u32 pad;
};

/*
 * The record on the wire (spec 3.8), a big-endian u64: qlen:20 | tx:20 |
 * ts:20 | bcode:4, bcode the port's rate from hpcc_bcode_rates[]. Codes
 * 0-12 are the spec's, 100 Mbit/s to 400 Gbit/s; 13-15, 10 to 50 Mbit/s,
 * are ours, for ports emulated below the spec's slowest.
 */
#define HPCC_BCODES		16U
static const u64 hpcc_bcode_rates[HPCC_BCODES] = {
	12500000ULL, 31250000ULL, 62500000ULL, 125000000ULL,
	312500000ULL, 625000000ULL, 1250000000ULL, 3125000000ULL,
	5000000000ULL, 6250000000ULL, 12500000000ULL, 25000000000ULL,
	50000000000ULL, 1250000ULL, 3125000ULL, 6250000ULL,
};

/* The code of a rate in bytes/s; HPCC_BCODES if it has none. */
static __always_inline u32 hpcc_rate_bcode(u64 rate)
{
	u32 c;

	for (c = 0; c < HPCC_BCODES; c++)
		if (hpcc_bcode_rates[c] == rate)
			return c;
	return HPCC_BCODES;
}

/* A port's record at now_ns: its queue and sent bytes, its rate's code. */
static __always_inline u64 hpcc_hop_wire(u64 qlen, u64 tx, u64 now_ns,
					 u32 bcode)
{
	u64 q = qlen / HPCC_INT_UNIT;

	if (q > HPCC_INT_MASK)
		q = HPCC_INT_MASK;
	return q << 44 | ((tx / HPCC_INT_UNIT) & HPCC_INT_MASK) << 24 |
	       ((now_ns / HPCC_INT_UNIT) & HPCC_INT_MASK) << 4 |
	       (bcode & (HPCC_BCODES - 1));
}

static __always_inline void hpcc_hop_unwire(u64 w, struct hpcc_hop *h)
{
	h->qlen = (w >> 44) & HPCC_INT_MASK;
	h->tx = (w >> 24) & HPCC_INT_MASK;
	h->ts = (w >> 4) & HPCC_INT_MASK;
	h->rate = hpcc_bcode_rates[w & (HPCC_BCODES - 1)];
	h->pad = 0;
}

/* Configuration of one loop's law. */
struct hpcc_params {
	u64 r_ai;		/* additive increase, bytes/s */
	u64 r_min;
	u64 r_max;		/* the host's line rate */
	u32 eta;		/* target utilisation, Q16.16 */
	u32 max_stage;		/* additive rounds before a multiplicative one */
};

/* Per-flow state of one loop. */
struct hpcc_state {
	u64 rc;			/* reference rate, committed once per round */
	u64 r;			/* current rate */
	u64 last_ns;		/* host clock at the latest sample */
	u32 u;			/* EWMA of the normalised inflight, Q16.16 */
	u32 inc_stage;		/* additive increases in a row */
	u32 nprev;		/* hops in prev[]; 0: not primed */
	u32 round_mark;		/* sequence that ends the round (the caller's) */
	struct hpcc_hop prev[HPCC_MAXHOP];
};

/* Return of hpcc_measure(). */
#define HPCC_PRIMED		0	/* first sample of a path: no U yet */
#define HPCC_MEASURED		1	/* U updated */
#define HPCC_STALE		2	/* no hop's record newer than its last */

/*
 * Two 1500-byte segments per half wrap of the ts counter, bytes/s (0.72
 * Mbit/s, 89407, rounded up): a flow slower than that sends its records
 * farther apart than hpcc_measure() trusts two, each re-primes the law,
 * and the rate can never rise again.
 */
#define HPCC_MEASURABLE_SEG	1500ULL
#define HPCC_MEASURABLE_RATE						\
	((2 * HPCC_MEASURABLE_SEG * 1000000000ULL + HPCC_INT_HALF_WRAP_NS - 1) / \
	 HPCC_INT_HALF_WRAP_NS)

/*
 * R_min of a line of r_line bytes/s: the spec's R_line / 250 (3.2, from
 * HPCC), but no lower than the law can measure. The floor binds below
 * 179 Mbit/s lines, the emulation's; at the paper's 25 Gbit/s R_min is
 * 100 Mbit/s, a segment every 120 ns. A line slower than the floor
 * cannot be measured at any rate and keeps the spec's.
 */
static __always_inline u64 hpcc_r_min(u64 r_line)
{
	u64 r = div_u64(r_line, HPCC_DEF_MIN_DIV);

	if (r < HPCC_MEASURABLE_RATE && r_line >= HPCC_MEASURABLE_RATE)
		r = HPCC_MEASURABLE_RATE;
	return r;
}

/* The spec's defaults for a host whose line rate is r_line bytes/s. */
static __always_inline void hpcc_params_default(struct hpcc_params *p,
						u64 r_line)
{
	p->r_ai = div_u64(r_line, HPCC_DEF_AI_DIV);
	p->r_min = hpcc_r_min(r_line);
	p->r_max = r_line;
	p->eta = HPCC_DEF_ETA;
	p->max_stage = HPCC_DEF_MAX_STAGE;
}

/* 0 < r_min <= r_max <= HPCC_RATE_MAX, r_ai <= r_max, 0 < eta <= 1. */
static __always_inline bool hpcc_params_valid(const struct hpcc_params *p)
{
	return p->r_min && p->r_min <= p->r_max &&
	       p->r_max <= HPCC_RATE_MAX && p->r_ai <= p->r_max &&
	       p->eta && p->eta <= HPCC_ONE &&
	       p->max_stage <= HPCC_STAGE_MAX;
}

/* A new flow starts at rate r0 (the line rate: spec 3.3, 3.6). */
static __always_inline void hpcc_init(struct hpcc_state *s,
				      const struct hpcc_params *p, u64 r0)
{
	s->rc = r0 < p->r_min ? p->r_min : r0 > p->r_max ? p->r_max : r0;
	s->r = s->rc;
	s->last_ns = 0;
	s->u = 0;
	s->inc_stage = 0;
	s->nprev = 0;
	s->round_mark = 0;
}

/*
 * u_j of one hop against its previous record, Q16.16, and the interval
 * between the two in *tau_ns; 0 with *tau_ns 0 when the two are not
 * ordered (same stamp, or more than half a wrap apart) or B is unknown.
 */
static __always_inline u32 hpcc_hop_util(const struct hpcc_hop *h,
					 const struct hpcc_hop *prev,
					 u32 t_ns, u64 *tau_ns)
{
	u32 dts = (h->ts - prev->ts) & HPCC_INT_MASK;
	u64 tx_rate, bdp, u_tx, u_q;
	u32 qlen;

	*tau_ns = 0;
	if (!dts || dts >= BIT(HPCC_INT_BITS - 1) || !h->rate ||
	    h->rate > HPCC_RATE_MAX)
		return 0;
	/* a tx wrap in the interval? rate < 2^37, dts x 64 < 2^25 */
	if (h->rate * dts * HPCC_INT_UNIT >=
	    ((u64)HPCC_INT_UNIT << HPCC_INT_BITS) * 1000000000ULL)
		return 0;
	*tau_ns = (u64)dts * HPCC_INT_UNIT;
	/* 2^26 bytes x 10^9 < 2^56; capped at 64 B <= 2^42 before << 16 */
	tx_rate = div64_u64((u64)((h->tx - prev->tx) & HPCC_INT_MASK) *
			    HPCC_INT_UNIT * 1000000000ULL, *tau_ns);
	u_tx = tx_rate >= h->rate * (HPCC_U_MAX >> 16) ? HPCC_U_MAX :
	       div64_u64(tx_rate << 16, h->rate);
	qlen = h->qlen < prev->qlen ? h->qlen : prev->qlen;
	bdp = div_u64(h->rate * t_ns, 1000000000U);
	/* 2^26 bytes << 16 < 2^42 */
	u_q = div64_u64((u64)qlen * HPCC_INT_UNIT << 16, bdp ? bdp : 1);
	if (u_q > HPCC_U_MAX)
		u_q = HPCC_U_MAX;
	return u_tx + u_q;
}

static __always_inline void hpcc_remember(struct hpcc_state *s,
					  const struct hpcc_hop *hops, u32 n)
{
	u32 j;

	/*
	 * field by field: a struct copy is a memcpy() call BPF lacks;
	 * unrolled, as 6.1's verifier refuses a loop that clang closes by
	 * running on into its first instruction rather than by a jump
	 */
#pragma GCC unroll 4
	for (j = 0; j < HPCC_MAXHOP && j < n; j++) {
		s->prev[j].rate = hops[j].rate;
		s->prev[j].qlen = hops[j].qlen;
		s->prev[j].tx = hops[j].tx;
		s->prev[j].ts = hops[j].ts;
	}
	s->nprev = n;
}

/*
 * MeasureInflight: one feedback's n hop records, at host time now_ns, on
 * a loop of base RTT t_ns. The first records of a path (a hop count
 * other than the last, or after half a wrap of silence) only prime the
 * state; records past HPCC_MAXHOP are ignored. t_ns is 1..HPCC_T_MAX
 * (the caller's; 0 only primes). Records that give no hop an interval
 * (the same stamps again, as when a receiver echoes its last records on
 * a second ACK) are HPCC_STALE: U stays, and the caller's rate must too,
 * as in HPCC every ACK brings its own packet's records and the law never
 * sees the same ones twice.
 */
static __always_inline int hpcc_measure(struct hpcc_state *s,
					const struct hpcc_hop *hops, u32 n,
					u32 t_ns, u64 now_ns)
{
	u64 tau, tau_max = 0;
	u32 j, u, u_max = 0;

	if (n > HPCC_MAXHOP)
		n = HPCC_MAXHOP;
	if (!t_ns || !s->nprev || s->nprev != n ||
	    now_ns - s->last_ns >= HPCC_INT_HALF_WRAP_NS) {
		hpcc_remember(s, hops, n);
		s->last_ns = now_ns;
		return HPCC_PRIMED;
	}
#pragma GCC unroll 4	/* as hpcc_remember()'s */
	for (j = 0; j < HPCC_MAXHOP && j < n; j++) {
		u = hpcc_hop_util(&hops[j], &s->prev[j], t_ns, &tau);
		if (tau && u > u_max) {
			u_max = u;
			tau_max = tau;
		}
	}
	hpcc_remember(s, hops, n);
	s->last_ns = now_ns;
	if (!tau_max)
		return HPCC_STALE;
	if (tau_max > t_ns)
		tau_max = t_ns;
	/* U <= 2 HPCC_U_MAX < 2^24, t_ns < 2^27: the sum < 2^52. */
	s->u = div_u64((u64)s->u * (t_ns - tau_max) + (u64)u_max * tau_max,
		       t_ns);
	return HPCC_MEASURED;
}

/*
 * ComputeWind in rate form: the rate this feedback gives, made the
 * reference (with the stage) only on a commit, once per round.
 */
static __always_inline u64 hpcc_rate(struct hpcc_state *s,
				     const struct hpcc_params *p, bool commit)
{
	u32 stage;
	u64 r;

	if (s->u >= p->eta || s->inc_stage >= p->max_stage) {
		/* Rc / (U / eta): Rc <= 2^36, eta <= 2^16 */
		r = s->u ? div64_u64(s->rc * p->eta, s->u) + p->r_ai : p->r_max;
		stage = 0;
	} else {
		r = s->rc + p->r_ai;
		stage = s->inc_stage + 1;
	}
	if (r < p->r_min)
		r = p->r_min;
	if (r > p->r_max)
		r = p->r_max;
	s->r = r;
	if (commit) {
		s->rc = r;
		s->inc_stage = stage;
	}
	return r;
}

#endif /* _HPCC_CORE_H */
