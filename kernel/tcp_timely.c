// SPDX-License-Identifier: GPL-2.0
/*
 * TIMELY congestion control, the end-to-end baseline of the Reflex study.
 *
 * Mittal et al., "TIMELY: RTT-based Congestion Control for the
 * Datacenter", SIGCOMM 2015; as the Reflex paper runs it (Sec. II-B), with
 * ../shared/spec/reflex.md 3.1's defaults and HPCC's hyper increase.
 *
 * A rate law on the RTT and its gradient: below T_low the rate grows by
 * delta, above T_high it falls by beta (1 - T_high / RTT), and between
 * them it grows while the smoothed RTT difference is not positive and
 * falls by beta x gradient while it is. One RTT sample per RTT of data
 * (TIMELY's completion events): the ACK that covers what was sent by the
 * previous update. A flow starts at line rate, as an RDMA queue pair does.
 *
 * The law lives in core/timely_core.h, shared with the BPF and user-space
 * hosts; this file maps tcp_congestion_ops onto it. TIMELY is rate-based:
 * sk_pacing_rate is the law's rate (TCP's internal pacing unless fq paces
 * the socket), and snd_cwnd only bounds what is in flight, at
 * cwnd_gain_pct of rate x RTT. Loss halves the rate on an RTO only
 * (reflex.md 7.11); TIMELY needs no ECN.
 */

#include <linux/inet_diag.h>
#include <linux/module.h>
#include <net/tcp.h>

#include "timely_core.h"
#include "uno_nl_impl.h"
#include "uapi/tcp_timely.h"

struct timely {
	struct timely_state core;
	u32 next_seq;		/* an ACK past this ends the RTT: a sample */
	u16 decreases;		/* for get_info, wrapping */
};

static struct timely_knobs timely_conf __read_mostly = TIMELY_KNOBS_INIT;

/* A tunable as it reads now, or as it would read with *slot = v. */
static u32 timely_conf_get(const u32 *val, const u32 *slot, u32 v)
{
	return val == slot ? v : READ_ONCE(*val);
}

/* The law's parameters, from the tunables (with *slot = v). */
static void timely_params_fill(struct timely_params *p, const u32 *slot, u32 v)
{
	const struct timely_knobs *c = &timely_conf;
	struct timely_knobs k = {
		.link_rate_mbps	= timely_conf_get(&c->link_rate_mbps, slot, v),
		.t_low_us	= timely_conf_get(&c->t_low_us, slot, v),
		.t_high_us	= timely_conf_get(&c->t_high_us, slot, v),
		.min_rtt_us	= timely_conf_get(&c->min_rtt_us, slot, v),
		.beta_ppm	= timely_conf_get(&c->beta_ppm, slot, v),
		.ewma_ppm	= timely_conf_get(&c->ewma_ppm, slot, v),
		.add_step_ppm	= timely_conf_get(&c->add_step_ppm, slot, v),
		.hai_mult	= timely_conf_get(&c->hai_mult, slot, v),
		.hai_thresh	= timely_conf_get(&c->hai_thresh, slot, v),
		.hai_gradient	= timely_conf_get(&c->hai_gradient, slot, v),
		.min_rate_ppm	= timely_conf_get(&c->min_rate_ppm, slot, v),
	};

	timely_params_from_knobs(p, &k);
}

/*
 * A store must leave parameters the law accepts: T_low <= T_high, a
 * non-zero R_min and delta, and a HAI step within the line rate.
 */
static bool tcp_timely_conf_valid(const u32 *slot, u32 v)
{
	struct timely_params p;

	timely_params_fill(&p, slot, v);
	return timely_params_valid(&p);
}

static struct uno_nl_param tcp_timely_params[] = {
#define TCP_TIMELY_PARAM UNO_NL_PARAM
#include "tcp_timely_params.h"
#undef TCP_TIMELY_PARAM
};

static struct uno_nl_cc tcp_timely_nl = {
	.name = "timely",
	.params = tcp_timely_params,
	.n_params = ARRAY_SIZE(tcp_timely_params),
	.valid = tcp_timely_conf_valid,
};

#define TCP_TIMELY_PARAM(...) UNO_NL_MODULE_PARAM(tcp_timely_nl, __VA_ARGS__);
#include "tcp_timely_params.h"
#undef TCP_TIMELY_PARAM

#define TCP_TIMELY_PARAM(...) UNO_NL_PARM_DESC(__VA_ARGS__);
#include "tcp_timely_params.h"
#undef TCP_TIMELY_PARAM

/*
 * Hand the rate to TCP, and a window of cwnd_gain_pct of rate x RTT (the
 * smoothed RTT, or the handshake's) so that the window never binds.
 */
static void tcp_timely_apply(struct sock *sk, const struct timely *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 rtt_us = max(tp->srtt_us >> 3, 1U);
	u64 rate = ca->core.rate, bytes;

	if (tcp_min_rtt(tp) != ~0U)
		rtt_us = max(rtt_us, tcp_min_rtt(tp));
	/* rate < 2^40 and rtt_us < 2^32: the product needs 128 bits */
	bytes = div_u64(mul_u64_u64_div_u64(rate, rtt_us, USEC_PER_SEC) *
			READ_ONCE(timely_conf.cwnd_gain_pct), 100);
	/* tcp_snd_cwnd_set() takes no more than INT_MAX */
	tcp_snd_cwnd_set(tp, clamp_t(u64, div_u64(bytes, max(tp->mss_cache, 1U)),
				     TCP_INIT_CWND,
				     clamp(tp->snd_cwnd_clamp, 1U,
					   TCP_INFINITE_SSTHRESH)));
	WRITE_ONCE(sk->sk_pacing_rate,
		   min_t(u64, rate, READ_ONCE(sk->sk_max_pacing_rate)));
}

static void tcp_timely_init(struct sock *sk)
{
	struct timely *ca = inet_csk_ca(sk);
	struct timely_params p;

	timely_params_fill(&p, NULL, 0);
	timely_init(&ca->core, &p);
	ca->next_seq = tcp_sk(sk)->snd_nxt;
	ca->decreases = 0;

	tcp_sk(sk)->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
	tcp_timely_apply(sk, ca);
}

#ifdef UNO_HAVE_CONG_CONTROL_ACK	/* 6.10 on */
static void tcp_timely_cong_control(struct sock *sk, u32 ack, int flag,
				    const struct rate_sample *rs)
#else
static void tcp_timely_cong_control(struct sock *sk,
				    const struct rate_sample *rs)
#endif
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct timely *ca = inet_csk_ca(sk);
	struct timely_params p;

	/* One sample per RTT of data: TIMELY's completion event. */
	if (rs->rtt_us > 0 && !before(tp->snd_una, ca->next_seq)) {
		ca->next_seq = tp->snd_nxt;
		timely_params_fill(&p, NULL, 0);
		/* Between a store's parts: keep the rate this RTT. */
		if (timely_params_valid(&p) &&
		    (timely_on_rtt_sample(&ca->core, &p,
					  (u64)rs->rtt_us * NSEC_PER_USEC) &
		     TIMELY_EV_DEC))
			ca->decreases++;
	}
	tcp_timely_apply(sk, ca);
}

/*
 * RTO: halve the rate, floor R_min (reflex.md 3.3, 7.11), on each one:
 * tcp_enter_loss() enters Loss on every timeout, where CA_EVENT_LOSS
 * comes only on the first of an episode.
 */
static void tcp_timely_set_state(struct sock *sk, u8 new_state)
{
	struct timely *ca = inet_csk_ca(sk);
	struct timely_params p;

	if (new_state != TCP_CA_Loss)
		return;
	timely_params_fill(&p, NULL, 0);
	timely_on_rto(&ca->core, &p);
	ca->next_seq = tcp_sk(sk)->snd_nxt;
}

/* TIMELY has no loss rule but the RTO's: no state exit rewrites cwnd. */
static u32 tcp_timely_ssthresh(struct sock *sk)
{
	return TCP_INFINITE_SSTHRESH;
}

static u32 tcp_timely_undo_cwnd(struct sock *sk)
{
	return tcp_snd_cwnd(tcp_sk(sk));
}

static size_t tcp_timely_get_info(struct sock *sk, u32 ext, int *attr,
				  union tcp_cc_info *info)
{
	const struct timely *ca = inet_csk_ca(sk);
	struct tcp_timely_info *ti = (struct tcp_timely_info *)info;

	if (!(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	memset(ti, 0, sizeof(*ti));
	ti->timely_flags = TCP_TIMELY_ENABLED;
	ti->timely_rate = (u32)min_t(u64, div_u64(ca->core.rate * BITS_PER_BYTE,
						  1000), U32_MAX);
	ti->timely_rtt = ca->core.prev_rtt_ns / NSEC_PER_USEC;
	ti->timely_rtt_diff = (s32)clamp_t(s64, ca->core.rtt_diff, S32_MIN,
					   S32_MAX);
	ti->timely_inc_stage = min_t(u32, ca->core.inc_stage, U16_MAX);
	ti->timely_decreases = ca->decreases;
	*attr = INET_DIAG_VEGASINFO;
	return sizeof(*ti);
}

static struct tcp_congestion_ops tcp_timely __read_mostly = {
	.init		= tcp_timely_init,
	.ssthresh	= tcp_timely_ssthresh,
	.cong_control	= tcp_timely_cong_control,
	.undo_cwnd	= tcp_timely_undo_cwnd,
	.set_state	= tcp_timely_set_state,
	.get_info	= tcp_timely_get_info,
	.owner		= THIS_MODULE,
	.name		= "timely",
};

static int __init tcp_timely_register(void)
{
	BUILD_BUG_ON(sizeof(struct timely) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(sizeof(struct tcp_timely_info) > sizeof(union tcp_cc_info));
	return uno_nl_register_cc(&tcp_timely_nl, &tcp_timely);
}

static void __exit tcp_timely_unregister(void)
{
	uno_nl_unregister_cc(&tcp_timely);
}

module_init(tcp_timely_register);
module_exit(tcp_timely_unregister);

MODULE_AUTHOR("Uno for Linux developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("TIMELY congestion control: RTT-gradient rate with hyper additive increase");
