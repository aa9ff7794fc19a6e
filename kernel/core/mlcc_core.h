/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLCC: the receiver's credit loop with DCI Queue Management and the
 * sender's combiner, as pure integer functions (../shared/spec/mlcc.md
 * 3.3-3.7; Zhao et al., "Efficient Cross-Datacenter Congestion Control
 * with Fast Control Loops", ICPP 2025, whose equation numbers are used
 * below). The rate law inside both short loops is HPCC's (hpcc_core.h).
 *
 * Credit loop (L2, Algorithm 1): DCI_r stamps each cross-DC data packet
 * at dequeue with C_D, the latest credit C_R it learnt from the flow's
 * ACKs (mlcc_dci_learn()); the receiver, on a packet whose C_D is its
 * C_R, has seen one full DCI_r -> receiver -> DCI_r round: it advances
 * C_R (8 bits, 0 skipped), commits R_credit = HPCC's rate on the INT of
 * that round (T = RTT_D), and recomputes DQM.
 *
 * DQM (L3), once per credit round i, on the flow's PFQ backlog Q_c:
 *
 *	Eq. 1  n = RTT_C / RTT_D
 *	Eq. 2  R_pre_eq = mean of the last n rates in the history
 *	Eq. 3  Q_pre = (R_pre_eq - R_credit) RTT_C + Q_c      (at least 0)
 *	Eq. 4  D_pre = Q_pre / mean of the last m R_credit
 *	Eq. 5  R_DQM = R_credit (1 - (D_pre - D_t) / theta)  (in [0, R_max])
 *
 * and per packet the receiver acknowledges, a sigma-delta integrator
 * turns R_DQM into the rate the ACKs advertise:
 *
 *	Eq. 7  token += min(alpha R_DQM / R_credit, 1)
 *	Eq. 8  dw += 1 if token >= 1, else dw -= 1
 *	Eq. 6  token -= 1 if token >= 1
 *	Eq. 9  R_DQM_bar = R_credit + dw MTU / RTT_C
 *
 * The sender paces at Eq. 10, min(R_NS, R_DQM_bar), R_NS being the
 * near-source loop's HPCC rate (L1: Switch-INT from DCI_s, T = RTT_NS,
 * one commit per near-source round).
 *
 * Readings of a garbled or missing text (spec 7): Eq. 2 is the plain
 * mean of the last n samples, as the paper's text says ("the sum of n
 * values"), before n exist of those there are (the spec's default, a
 * time-weighted mean over RTT_C, is the same when rounds are equal; we
 * follow the paper, whose n is Eq. 1's); the history holds the
 * advertised R_DQM_bar sampled each round (7.4; MLCC_F_HIST_RAW for the
 * literal R_DQM); Eq. 4 averages m values (7.5); Eq. 8 reads ">= 1 up"
 * (7.6, 3.5.3(3): the literal strict test drifts down by 0.5 a packet at
 * equilibrium); dw is held where R_DQM_bar stays in [R_min, R_max]
 * (anti-windup, 7.8), so a bound is met within one dw step.
 *
 * Units: rates bytes/s (u64, up to MLCC_RATE_MAX), times ns (u32), bytes
 * u64, alpha and token Q16.16. Eqs. 6-8 for k packets take the closed
 * form of 3.5.3(2): s = token + k r, ups = floor(s), dw += 2 ups - k,
 * token = s - ups. No libc, no floating point; the loops are bounded by
 * MLCC_M_MAX and HPCC_MAXHOP, so the header compiles in a BPF program,
 * the kernel and the C++ tests.
 */
#ifndef _MLCC_CORE_H
#define _MLCC_CORE_H

#include "core_types.h"
#include "hpcc_core.h"

#define MLCC_ONE		BIT(16)		/* 1.0 in Q16.16 */
#define MLCC_NSEC		1000000000U
/* Eq. 2's n at most: 250-275 at the paper's scale (spec 3.7's ring). */
#define MLCC_HIST_MAX		1024U
#define MLCC_M_MAX		8U
/* Highest rate, bytes/s (68.7 Gbit/s, a host's): rate x RTT_C < 2^63. */
#define MLCC_RATE_MAX		BIT_ULL(33)
#define MLCC_RTT_C_MAX		BIT(30)		/* ns */
#define MLCC_THETA_MAX		BIT(29)		/* ns; D_t <= theta */
/* Largest predicted queue, bytes: x 10^9 < 2^63 (Eq. 4). */
#define MLCC_Q_MAX		BIT_ULL(33)
/* Smallest packet: dw's range, R_max RTT_C / MTU, stays in 31 bits. */
#define MLCC_MTU_MIN		64U

/* Defaults (spec 3.5.2, 3.7: the paper's). */
#define MLCC_DEF_THETA_NS	18000000U
#define MLCC_DEF_D_T_NS		1000000U
#define MLCC_DEF_M		5U
#define MLCC_DEF_ALPHA		(MLCC_ONE / 2)
#define MLCC_DEF_MTU		1500U

#define MLCC_F_HIST_RAW		0x01U	/* Eq. 2 on R_DQM, not R_DQM_bar */

/* Configuration of a receiver's credit loop and DQM. */
struct mlcc_params {
	struct hpcc_params credit;	/* R_credit's law; its bounds R_DQM_bar's */
	u64 r_init;		/* a new flow's R_credit and R_DQM */
	u32 rtt_d_ns;		/* DCI_r <-> receiver base RTT (T of L2) */
	u32 rtt_c_ns;		/* end-to-end base RTT */
	u32 theta_ns;		/* Eq. 5: time to bring D_pre to D_t */
	u32 d_t_ns;		/* target queueing delay at DCI_r */
	u32 alpha;		/* Eq. 7, Q16.16 */
	u32 m;			/* R_credit values averaged, Eq. 4 */
	u32 mtu;		/* bytes per packet on the wire, Eq. 9 */
	u32 flags;		/* MLCC_F_* */
};

/* Per-flow state at the receiver, 8.5 KB (socket storage). */
struct mlcc_rcv {
	struct hpcc_state rc;	/* R_credit's law */
	u64 r_credit;
	u64 r_dqm;		/* Eq. 5 */
	u64 r_dqm_bar;		/* Eq. 9: what the ACKs carry */
	u64 q_c;		/* the flow's PFQ backlog at DCI_r, bytes */
	u64 hist_sum;		/* of hist[]'s last hist_len */
	u64 credit[MLCC_M_MAX];	/* the last m R_credit, a ring */
	u64 hist[MLCC_HIST_MAX];	/* Eq. 2's rates, a ring */
	u32 hist_n;		/* Eq. 1's n */
	u32 hist_len;
	u32 hist_head;
	u32 credit_head;
	u32 token;		/* Q16.16, in [0, 1) between packets */
	s32 dw;
	u8 c_r;			/* credit, 1..255 */
	u8 pad[7];
};

/* Per-flow state at a cross-DC sender. */
struct mlcc_snd {
	struct hpcc_state ns;	/* R_NS's law; round_mark a sequence */
	u64 r_dqm_bar;		/* the latest ACK's; 0: none yet */
};

/* The paper's constants, for a host of line rate r_line bytes/s. */
static __always_inline void mlcc_params_default(struct mlcc_params *p,
						u64 r_line, u32 rtt_d_ns,
						u32 rtt_c_ns)
{
	hpcc_params_default(&p->credit, r_line);
	p->r_init = r_line;
	p->rtt_d_ns = rtt_d_ns;
	p->rtt_c_ns = rtt_c_ns;
	p->theta_ns = MLCC_DEF_THETA_NS;
	p->d_t_ns = MLCC_DEF_D_T_NS;
	p->alpha = MLCC_DEF_ALPHA;
	p->m = MLCC_DEF_M;
	p->mtu = MLCC_DEF_MTU;
	p->flags = 0;
}

/*
 * Usable? The credit law valid with rates up to MLCC_RATE_MAX, r_init in
 * its bounds, 0 < RTT_D <= RTT_C <= MLCC_RTT_C_MAX with RTT_D a loop T
 * (HPCC_T_MAX) and Eq. 1's n = RTT_C / RTT_D at most MLCC_HIST_MAX (a
 * history cut short would not be Eq. 2's), 0 < theta <= MLCC_THETA_MAX,
 * D_t <= theta, alpha in
 * (0, 1], 1 <= m <= MLCC_M_MAX, an MTU of MLCC_MTU_MIN..65535.
 */
static __always_inline bool mlcc_params_valid(const struct mlcc_params *p)
{
	return hpcc_params_valid(&p->credit) &&
	       p->credit.r_max <= MLCC_RATE_MAX &&
	       p->r_init >= p->credit.r_min && p->r_init <= p->credit.r_max &&
	       p->rtt_d_ns && p->rtt_d_ns <= HPCC_T_MAX &&
	       p->rtt_d_ns <= p->rtt_c_ns && p->rtt_c_ns <= MLCC_RTT_C_MAX &&
	       p->rtt_c_ns / p->rtt_d_ns <= MLCC_HIST_MAX &&
	       p->theta_ns && p->theta_ns <= MLCC_THETA_MAX &&
	       p->d_t_ns <= p->theta_ns &&
	       p->alpha && p->alpha <= MLCC_ONE &&
	       p->m && p->m <= MLCC_M_MAX &&
	       p->mtu >= MLCC_MTU_MIN && p->mtu <= 65535U;
}

/* The credit after c: 8 bits, 0 meaning "none yet" (spec 3.4.2). */
static __always_inline u8 mlcc_credit_next(u8 c)
{
	return c == 255 ? 1 : c + 1;
}

/* Is credit a newer than b? Serial arithmetic mod 2^8 (spec 3.4.1). */
static __always_inline bool mlcc_credit_newer(u8 a, u8 b)
{
	u8 d = a - b;

	return d && d < 128;
}

/*
 * DCI_r, on an ACK of the flow toward the WAN: C_D <- C_R if newer, or
 * if it has none yet (a new or reclaimed PFQ: against 0, half the credits
 * would not read as newer and the loop would never start). The PFQ's
 * rate is set to the ACK's R_credit by the caller.
 */
static __always_inline void mlcc_dci_learn(u8 *c_d, u8 c_r)
{
	if (c_r && (!*c_d || mlcc_credit_newer(c_r, *c_d)))
		*c_d = c_r;
}

/* The credit before c: 8 bits, 0 skipped. */
static __always_inline u8 mlcc_credit_prev(u8 c)
{
	return c == 1 ? 255 : c - 1;
}

/*
 * The receiver's credit after a segment stamped c_d. DCI_r holds C_R or,
 * while the ACK that carries C_R is on its way, the one before it; any
 * other credit is none this loop gave (a forged ACK_X moved DCI_r's on,
 * or the receiver's loop started over while DCI_r kept its queue), and a
 * loop that waited for its own would never close a round again: take
 * DCI_r's, which closes one. 0 is DCI_r's "none yet".
 */
static __always_inline u8 mlcc_rcv_resync(u8 c_r, u8 c_d)
{
	return c_d && c_d != c_r && c_d != mlcc_credit_prev(c_r) ? c_d : c_r;
}

/* A new cross-DC flow at the receiver (Algorithm 1, on_first_data). */
static __always_inline void mlcc_rcv_init(struct mlcc_rcv *r,
					  const struct mlcc_params *p)
{
	u32 i, n = p->rtt_c_ns / p->rtt_d_ns;

	hpcc_init(&r->rc, &p->credit, p->r_init);
	r->r_credit = p->r_init;
	r->r_dqm = p->r_init;
	r->r_dqm_bar = p->r_init;
	r->q_c = 0;
	for (i = 0; i < MLCC_M_MAX; i++)
		r->credit[i] = p->r_init;
	r->credit_head = 0;
	r->hist_n = n < 1 ? 1 : n > MLCC_HIST_MAX ? MLCC_HIST_MAX : n;
	r->hist_len = 0;
	r->hist_head = 0;
	r->hist_sum = 0;
	r->token = 0;
	r->dw = 0;
	r->c_r = 1;
}

/* Eq. 4's denominator: the mean of the last m R_credit. */
static __always_inline u64 mlcc_credit_mean(const struct mlcc_rcv *r,
					    const struct mlcc_params *p)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < MLCC_M_MAX && i < p->m; i++)
		sum += r->credit[(r->credit_head - 1 - i) % MLCC_M_MAX];
	return div_u64(sum, p->m);
}

/*
 * Eqs. 3-5: the end-to-end rate that brings the predicted delay at DCI_r
 * to D_t over theta, from the predicted enqueue rate pre_eq (Eq. 2).
 */
static __always_inline u64 mlcc_dqm_rate(const struct mlcc_params *p,
					 u64 pre_eq, u64 r_credit, u64 q_c,
					 u64 credit_mean)
{
	u64 span = (u64)p->theta_ns + p->d_t_ns;
	u64 q_pre, d_pre, drain, r;

	/* Eq. 3; both rates <= 2^33, RTT_C <= 2^30 */
	if (pre_eq >= r_credit) {
		q_pre = q_c + div_u64((pre_eq - r_credit) * p->rtt_c_ns,
				      MLCC_NSEC);
	} else {
		drain = div_u64((r_credit - pre_eq) * p->rtt_c_ns, MLCC_NSEC);
		q_pre = q_c > drain ? q_c - drain : 0;
	}
	if (q_pre > MLCC_Q_MAX)
		q_pre = MLCC_Q_MAX;
	/* Eq. 4 */
	d_pre = div64_u64(q_pre * MLCC_NSEC, credit_mean ? credit_mean : 1);
	/* Eq. 5 as R_credit (theta + D_t - D_pre) / theta: 2^33 x 2^30 */
	if (d_pre >= span)
		return 0;
	r = div_u64(r_credit * (span - d_pre), p->theta_ns);
	return r > p->credit.r_max ? p->credit.r_max : r;
}

/* Eq. 2's history: the last hist_n rates and their sum. */
static __always_inline void mlcc_hist_push(struct mlcc_rcv *r, u64 rate)
{
	u32 head = r->hist_head % MLCC_HIST_MAX;

	if (r->hist_len < r->hist_n)
		r->hist_len++;
	else
		r->hist_sum -= r->hist[(head - r->hist_n) % MLCC_HIST_MAX];
	r->hist[head] = rate;
	r->hist_sum += rate;
	r->hist_head = (head + 1) % MLCC_HIST_MAX;
}

/* Once per credit round: Eqs. 2-5, then the round's sample of Eq. 2. */
static __always_inline void mlcc_dqm_round(struct mlcc_rcv *r,
					   const struct mlcc_params *p)
{
	u64 pre_eq = r->hist_len ? div_u64(r->hist_sum, r->hist_len) :
				   r->r_dqm_bar;

	r->r_dqm = mlcc_dqm_rate(p, pre_eq, r->r_credit, r->q_c,
				 mlcc_credit_mean(r, p));
	mlcc_hist_push(r, p->flags & MLCC_F_HIST_RAW ? r->r_dqm :
						       r->r_dqm_bar);
}

/*
 * Eqs. 6-9 for pkts packets acknowledged, in the closed form (token +
 * pkts x inc < 2^49); dw held where R_DQM_bar is in [R_min, R_max].
 */
static __always_inline void mlcc_dqm_smooth(struct mlcc_rcv *r,
					    const struct mlcc_params *p,
					    u32 pkts)
{
	u64 unit = (u64)p->mtu * MLCC_NSEC;	/* dw's step x RTT_C */
	u64 inc, s, off;
	s64 dw, hi, lo;

	/* Eq. 7's increment: alpha <= 2^16, R_DQM <= 2^33 */
	inc = div64_u64((u64)p->alpha * r->r_dqm, r->r_credit);
	if (inc > MLCC_ONE)
		inc = MLCC_ONE;
	s = r->token + (u64)pkts * inc;
	r->token = s & (MLCC_ONE - 1);
	dw = (s64)r->dw + 2 * (s64)(s >> 16) - pkts;
	/* R_credit is in [R_min, R_max], its law's bounds */
	hi = div64_u64((p->credit.r_max - r->r_credit) * p->rtt_c_ns, unit);
	lo = div64_u64((r->r_credit - p->credit.r_min) * p->rtt_c_ns, unit);
	if (dw > hi)
		dw = hi;
	if (dw < -lo)
		dw = -lo;
	r->dw = dw;
	/* Eq. 9: |dw| unit <= (R_max - R_min) RTT_C < 2^63 */
	off = div64_u64((u64)(dw < 0 ? -dw : dw) * unit, p->rtt_c_ns);
	r->r_dqm_bar = dw < 0 ? r->r_credit - off : r->r_credit + off;
}

/*
 * Algorithm 1, on pkts data packets (one ACK's) of a cross-DC flow: the
 * INT of the packet (n hops, DCI_r's first; n 0: none), the PFQ backlog
 * Q_c and the credit C_D it carries. Returns true when it closed a
 * credit round. The ACK then carries C_R, R_credit and R_DQM_bar.
 */
static __always_inline bool mlcc_rcv_on_data(struct mlcc_rcv *r,
					     const struct mlcc_params *p,
					     const struct hpcc_hop *hops,
					     u32 n, u64 q_c, u8 c_d,
					     u32 pkts, u64 now_ns)
{
	bool round;

	r->c_r = mlcc_rcv_resync(r->c_r, c_d);
	round = c_d == r->c_r;
	if (n)
		hpcc_measure(&r->rc, hops, n, p->rtt_d_ns, now_ns);
	r->q_c = q_c;
	if (round) {
		r->c_r = mlcc_credit_next(r->c_r);
		r->r_credit = hpcc_rate(&r->rc, &p->credit, true);
		r->credit[r->credit_head % MLCC_M_MAX] = r->r_credit;
		r->credit_head = (r->credit_head + 1) % MLCC_M_MAX;
		mlcc_dqm_round(r, p);
	}
	mlcc_dqm_smooth(r, p, pkts);
	return round;
}

/* A cross-DC flow at the sender, its first byte at seq: line rate. */
static __always_inline void mlcc_snd_init(struct mlcc_snd *s,
					  const struct hpcc_params *p, u32 seq)
{
	hpcc_init(&s->ns, p, p->r_max);
	s->ns.round_mark = seq;
	s->r_dqm_bar = 0;
}

/*
 * L1, on a Switch-INT for the flow (spec 3.3): its hops, the sequence
 * its data packet ended at, the sender's snd_nxt, and RTT_NS (the base
 * RTT from the sender to its DCI, rtt_near_ns). The rate
 * commits once per near-source round, and follows every feedback.
 */
static __always_inline void mlcc_snd_on_switch_int(struct mlcc_snd *s,
						   const struct hpcc_params *p,
						   const struct hpcc_hop *hops,
						   u32 n, u32 seq_end,
						   u32 snd_nxt, u32 rtt_near_ns,
						   u64 now_ns)
{
	bool commit;

	if (hpcc_measure(&s->ns, hops, n, rtt_near_ns, now_ns) != HPCC_MEASURED)
		return;
	commit = (s32)(seq_end - s->ns.round_mark) > 0;
	hpcc_rate(&s->ns, p, commit);
	if (commit)
		s->ns.round_mark = snd_nxt;
}

/* L3, on an ACK carrying R_DQM_bar (0: the option was not there). */
static __always_inline void mlcc_snd_on_ack(struct mlcc_snd *s,
					    u64 r_dqm_bar)
{
	if (r_dqm_bar)
		s->r_dqm_bar = r_dqm_bar;
}

/* On an RTO: R_NS from R_min, the loops raise it again (spec 3.6). */
static __always_inline void mlcc_snd_on_rto(struct mlcc_snd *s,
					    const struct hpcc_params *p)
{
	s->ns.rc = p->r_min;
	s->ns.r = p->r_min;
	s->ns.inc_stage = 0;
}

/* Eq. 10: the pacing rate, min(R_NS, R_DQM_bar) in [R_min, R_max]. */
static __always_inline u64 mlcc_snd_rate(const struct mlcc_snd *s,
					 const struct hpcc_params *p)
{
	u64 r = s->ns.r;

	if (s->r_dqm_bar && s->r_dqm_bar < r)
		r = s->r_dqm_bar;
	if (r < p->r_min)
		r = p->r_min;
	return r > p->r_max ? p->r_max : r;
}

#endif /* _MLCC_CORE_H */
