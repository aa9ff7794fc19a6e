// SPDX-License-Identifier: GPL-2.0
/*
 * Swift congestion control, the end-to-end baseline of the Reflex study.
 *
 * Kumar et al., "Swift: Delay is Simple and Effective for Congestion
 * Control in the Datacenter", SIGCOMM 2020; as the Reflex paper runs it
 * (Sec. II-B), with ../shared/spec/reflex.md 3.2's defaults.
 *
 * A window law on delay: below the flow's target delay the window grows
 * by ai per RTT, above it falls by beta x (delay - target) / delay, at
 * most max_mdf and once per RTT. The delay is the end-to-end RTT of the
 * rate sample. Windows below one packet (down to 0.001) are carried by
 * pacing: one packet every RTT / cwnd. The target is base_rtt +
 * base_delay + hops x hop_delay (+ flow scaling); a flow whose handshake
 * RTT exceeds inter_rtt_us counts hops_inter hops, the others hops_intra.
 *
 * The law lives in core/swift_core.h, shared with the BPF and user-space
 * hosts; this file maps tcp_congestion_ops onto it. Like tcp_uno, it owns
 * snd_cwnd and sk_pacing_rate in .cong_control and keeps ssthresh
 * infinite: Linux loss recovery decides what to resend, Swift how much.
 * Swift needs no ECN.
 */

#include <linux/inet_diag.h>
#include <linux/module.h>
#include <net/tcp.h>

#include "swift_core.h"
#include "uno_nl_impl.h"
#include "uapi/tcp_swift.h"

struct swift {
	struct swift_state core;
	u64 max_cwnd;		/* micro-packets: the BDP cap of this flow */
	u16 decreases;		/* for get_info, wrapping */
	u8 inter;		/* 1: hops_inter hops */
	u8 rtt_known;		/* started on a base RTT */
};

/* The tunables, in tcp_swift_params.h's units. */
struct swift_conf {
	u32 link_rate_mbps;
	u32 max_cwnd_bdp_pct;
	u32 base_rtt_ns;
	u32 base_delay_ns;
	u32 hop_delay_ns;
	u32 hops_intra;
	u32 hops_inter;
	u32 inter_rtt_us;
	u32 ai_upkts;
	u32 beta_ppm;
	u32 max_mdf_ppm;
	u32 min_cwnd_upkts;
	u32 retx_reset;
	u32 fs_range_ns;
	u32 fs_min_cwnd_upkts;
	u32 fs_max_cwnd_upkts;
};

static struct swift_conf swift_conf __read_mostly = {
	.link_rate_mbps		= SWIFT_DEF_LINK_MBPS,
	.max_cwnd_bdp_pct	= SWIFT_DEF_MAX_CWND_BDP_PCT,
	.base_rtt_ns		= SWIFT_DEF_BASE_RTT_NS,
	.base_delay_ns		= SWIFT_DEF_BASE_DELAY_NS,
	.hop_delay_ns		= SWIFT_DEF_HOP_DELAY_NS,
	.hops_intra		= SWIFT_DEF_HOPS_INTRA,
	.hops_inter		= SWIFT_DEF_HOPS_INTER,
	.inter_rtt_us		= SWIFT_DEF_INTER_RTT_US,
	.ai_upkts		= SWIFT_DEF_AI,
	.beta_ppm		= SWIFT_DEF_BETA_PPM,
	.max_mdf_ppm		= SWIFT_DEF_MAX_MDF_PPM,
	.min_cwnd_upkts		= SWIFT_DEF_MIN_CWND,
	.retx_reset		= SWIFT_DEF_RETX_RESET,
	.fs_min_cwnd_upkts	= SWIFT_DEF_FS_MIN_CWND,
	.fs_max_cwnd_upkts	= SWIFT_DEF_FS_MAX_CWND,
};

/* A tunable as it reads now, or as it would read with *slot = v. */
static u32 swift_conf_get(const u32 *val, const u32 *slot, u32 v)
{
	return val == slot ? v : READ_ONCE(*val);
}

/* The law's parameters for a flow whose window may reach max_cwnd. */
static void swift_params_fill(struct swift_params *p, u64 max_cwnd,
			      const u32 *slot, u32 v)
{
	const struct swift_conf *c = &swift_conf;

	p->min_cwnd = swift_conf_get(&c->min_cwnd_upkts, slot, v);
	p->max_cwnd = max(max_cwnd, p->min_cwnd);
	p->ai = swift_conf_get(&c->ai_upkts, slot, v);
	p->fs_min_cwnd = swift_conf_get(&c->fs_min_cwnd_upkts, slot, v);
	p->fs_max_cwnd = swift_conf_get(&c->fs_max_cwnd_upkts, slot, v);
	p->base_rtt_ns = swift_conf_get(&c->base_rtt_ns, slot, v);
	p->base_delay_ns = swift_conf_get(&c->base_delay_ns, slot, v);
	p->hop_delay_ns = swift_conf_get(&c->hop_delay_ns, slot, v);
	p->fs_range_ns = swift_conf_get(&c->fs_range_ns, slot, v);
	p->beta_ppm = swift_conf_get(&c->beta_ppm, slot, v);
	p->max_mdf_ppm = swift_conf_get(&c->max_mdf_ppm, slot, v);
	p->retx_reset = swift_conf_get(&c->retx_reset, slot, v);
}

/*
 * A store must leave parameters the law accepts: a zero target (base RTT
 * and base delay both 0) or flow scaling whose two windows cross are
 * refused.
 */
static bool tcp_swift_conf_valid(const u32 *slot, u32 v)
{
	struct swift_params p;

	swift_params_fill(&p, SWIFT_CWND_MAX, slot, v);
	return swift_params_valid(&p);
}

static struct uno_nl_param tcp_swift_params[] = {
#define TCP_SWIFT_PARAM UNO_NL_PARAM
#include "tcp_swift_params.h"
#undef TCP_SWIFT_PARAM
};

static struct uno_nl_cc tcp_swift_nl = {
	.name = "swift",
	.params = tcp_swift_params,
	.n_params = ARRAY_SIZE(tcp_swift_params),
	.valid = tcp_swift_conf_valid,
};

#define TCP_SWIFT_PARAM(...) UNO_NL_MODULE_PARAM(tcp_swift_nl, __VA_ARGS__);
#include "tcp_swift_params.h"
#undef TCP_SWIFT_PARAM

#define TCP_SWIFT_PARAM(...) UNO_NL_PARM_DESC(__VA_ARGS__);
#include "tcp_swift_params.h"
#undef TCP_SWIFT_PARAM

static void tcp_swift_flow_params(const struct swift *ca,
				  struct swift_params *p)
{
	swift_params_fill(p, ca->max_cwnd, NULL, 0);
}

/* Hand the window to TCP; below one packet, pacing carries it. */
static void tcp_swift_apply(struct sock *sk, const struct swift *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);
	unsigned long rate = READ_ONCE(sk->sk_max_pacing_rate);

	tcp_snd_cwnd_set(tp, min(swift_cwnd_segs(&ca->core),
				 max(tp->snd_cwnd_clamp, 1U)));
	if (ca->core.cwnd < SWIFT_CWND_ONE && ca->core.rtt_ns)
		rate = min_t(u64, rate,
			     swift_pacing_rate(&ca->core, tp->mss_cache,
					       ca->core.rtt_ns));
	WRITE_ONCE(sk->sk_pacing_rate, rate);
}

/*
 * Start the law on the flow's base RTT, the lowest TCP has seen: its
 * class (hops), its BDP cap, and a window of that BDP, as RDMA flows start
 * at line rate (reflex.md 7.12). Without one yet (a CC chosen before the
 * handshake ended, a SYN-ACK without an RTT sample), the flow starts on
 * one packet and starts again at its first RTT sample.
 */
static void tcp_swift_start(struct sock *sk, struct swift *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 rtt_us = tcp_min_rtt(tp);
	struct swift_params p;
	u32 hops;

	ca->rtt_known = rtt_us != ~0U;
	if (!ca->rtt_known)
		rtt_us = 0;
	ca->inter = rtt_us > READ_ONCE(swift_conf.inter_rtt_us);
	hops = ca->inter ? READ_ONCE(swift_conf.hops_inter) :
			   READ_ONCE(swift_conf.hops_intra);
	ca->max_cwnd = swift_bdp_cwnd(READ_ONCE(swift_conf.link_rate_mbps),
				      READ_ONCE(swift_conf.max_cwnd_bdp_pct),
				      rtt_us, tp->mss_cache);
	tcp_swift_flow_params(ca, &p);
	swift_init(&ca->core, &p, hops, ca->max_cwnd);
}

static void tcp_swift_init(struct sock *sk)
{
	struct swift *ca = inet_csk_ca(sk);

	ca->decreases = 0;
	tcp_swift_start(sk, ca);
	tcp_sk(sk)->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	/* Internal pacing, unless fq paces the socket: windows below 1. */
	cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
	tcp_swift_apply(sk, ca);
}

/* TCP's clock, in ns: the law's once-per-RTT test needs no more. */
static u64 tcp_swift_now_ns(const struct tcp_sock *tp)
{
	return tp->tcp_mstamp * NSEC_PER_USEC;
}

#ifdef UNO_HAVE_CONG_CONTROL_ACK	/* 6.10 on */
static void tcp_swift_cong_control(struct sock *sk, u32 ack, int flag,
				   const struct rate_sample *rs)
#else
static void tcp_swift_cong_control(struct sock *sk, const struct rate_sample *rs)
#endif
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct swift *ca = inet_csk_ca(sk);
	struct swift_params p;

	if (rs->rtt_us > 0 && rs->acked_sacked > 0) {
		if (!ca->rtt_known)
			tcp_swift_start(sk, ca);
		tcp_swift_flow_params(ca, &p);
		/* Between a store's parts: keep the window this ACK. */
		if (swift_params_valid(&p) &&
		    (swift_on_ack(&ca->core, &p, (u64)rs->rtt_us * NSEC_PER_USEC,
				  rs->acked_sacked, tcp_swift_now_ns(tp)) &
		     SWIFT_EV_DECREASED))
			ca->decreases++;
	}
	tcp_swift_apply(sk, ca);
}

/*
 * Swift Algorithm 1's loss events. Fast recovery: 1 - max_mdf, once per
 * RTT. A retransmission timeout: tcp_enter_loss() enters Loss on every
 * one, where CA_EVENT_LOSS comes only on the first of an episode, so that
 * retx_reset in a row can be counted; it sets snd_cwnd to the packets in
 * flight + 1 right after, and the next ACK applies the law's window.
 */
static void tcp_swift_set_state(struct sock *sk, u8 new_state)
{
	struct swift *ca = inet_csk_ca(sk);
	u64 now = tcp_swift_now_ns(tcp_sk(sk));
	struct swift_params p;
	u32 ev;

	tcp_swift_flow_params(ca, &p);
	if (new_state == TCP_CA_Recovery)
		ev = swift_on_fast_recovery(&ca->core, &p, now);
	else if (new_state == TCP_CA_Loss)
		ev = swift_on_rto(&ca->core, &p, now);
	else
		return;
	if (ev & SWIFT_EV_DECREASED)
		ca->decreases++;
	if (new_state == TCP_CA_Recovery)
		tcp_swift_apply(sk, ca);
}

/* Swift reacts to recovery itself: no state exit rewrites cwnd. */
static u32 tcp_swift_ssthresh(struct sock *sk)
{
	return TCP_INFINITE_SSTHRESH;
}

/* Undo of a spurious loss episode: the law's window stands. */
static u32 tcp_swift_undo_cwnd(struct sock *sk)
{
	const struct swift *ca = inet_csk_ca(sk);

	return min(swift_cwnd_segs(&ca->core),
		   max(tcp_sk(sk)->snd_cwnd_clamp, 1U));
}

static size_t tcp_swift_get_info(struct sock *sk, u32 ext, int *attr,
				 union tcp_cc_info *info)
{
	const struct swift *ca = inet_csk_ca(sk);
	struct tcp_swift_info *si = (struct tcp_swift_info *)info;
	struct swift_params p;
	u32 flags = TCP_SWIFT_ENABLED;

	if (!(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	tcp_swift_flow_params(ca, &p);
	if (ca->inter)
		flags |= TCP_SWIFT_INTER;
	if (ca->core.cwnd < SWIFT_CWND_ONE)
		flags |= TCP_SWIFT_PACED;
	memset(si, 0, sizeof(*si));
	si->swift_flags = flags;
	si->swift_cwnd = (u32)min_t(u64, div_u64(ca->core.cwnd, 1000), U32_MAX);
	si->swift_rtt = ca->core.rtt_ns / NSEC_PER_USEC;
	si->swift_target = swift_target(&ca->core, &p) / NSEC_PER_USEC;
	si->swift_hops = ca->core.hops;
	si->swift_retx = min_t(u32, ca->core.retx_cnt, U8_MAX);
	si->swift_decreases = ca->decreases;
	*attr = INET_DIAG_VEGASINFO;
	return sizeof(*si);
}

static struct tcp_congestion_ops tcp_swift __read_mostly = {
	.init		= tcp_swift_init,
	.ssthresh	= tcp_swift_ssthresh,
	.cong_control	= tcp_swift_cong_control,
	.undo_cwnd	= tcp_swift_undo_cwnd,
	.set_state	= tcp_swift_set_state,
	.get_info	= tcp_swift_get_info,
	.owner		= THIS_MODULE,
	.name		= "swift",
};

static int __init tcp_swift_register(void)
{
	BUILD_BUG_ON(sizeof(struct swift) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(sizeof(struct tcp_swift_info) > sizeof(union tcp_cc_info));
	return uno_nl_register_cc(&tcp_swift_nl, &tcp_swift);
}

static void __exit tcp_swift_unregister(void)
{
	uno_nl_unregister_cc(&tcp_swift);
}

module_init(tcp_swift_register);
module_exit(tcp_swift_unregister);

MODULE_AUTHOR("Uno for Linux developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Swift congestion control: delay-target window with sub-packet pacing");
