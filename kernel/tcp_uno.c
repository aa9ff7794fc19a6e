// SPDX-License-Identifier: GPL-2.0
/*
 * Uno congestion control (UnoCC).
 *
 * Bonato, Abdous et al., "Uno: A One-Stop Solution for Inter- and
 * Intra-Data Center Congestion Control and Reliable Connectivity", SC '25.
 *
 * One ECN-driven AIMD for flows inside a data center and flows between
 * data centers sharing the same bottlenecks: increase and decrease gains
 * scale with each flow's own BDP, decrease decisions are taken once per
 * intra-DC RTT for every flow, and Quick Adapt drops the window to what was
 * delivered when an RTT acknowledges less than half of it. There is no slow
 * start: a flow starts with one BDP, paced at cwnd / base RTT.
 *
 * The control law lives in core/uno_core.h and is shared with user space;
 * this file only maps tcp_congestion_ops onto it. Like BBR, tcp_uno owns
 * snd_cwnd and sk_pacing_rate in .cong_control. Like DCTCP, it needs ECN
 * (and falls back to Reno without it) and its receiver echoes every CE mark
 * exactly, so both ends must run uno or dctcp. Packet loss does not change
 * the window; Linux loss recovery only decides what to retransmit.
 *
 * See Documentation/tcp_uno.rst.
 */

#include <linux/inet_diag.h>
#include <linux/module.h>
#include <net/tcp.h>

#include "uno_core.h"
#include "uno_ecn.h"
#include "uno_nl_impl.h"
#include "uapi/tcp_uno.h"

struct uno {
	struct uno_state core;
	struct uno_ecn_rx ecn;	/* receiver side CE echo */
	u16 md_cuts;		/* event counters for get_info */
	u16 md_phantom;
	u16 qa_cuts;
	u8 ece;			/* ECE of the ACK being processed */
};

static struct uno_params uno_params __read_mostly = UNO_PARAMS_INIT;

/*
 * Pacing: the paper paces in the sender's NIC (Uno Sec. 6) without naming
 * a rate; the authors' simulator paces at cwnd / base RTT, as here. In TCP
 * that is internal pacing (an hrtimer per burst) unless fq paces the
 * socket; this scales the rate, and 0 leaves the socket unpaced (the
 * window alone clocks it, as for DCTCP).
 */
static u32 pacing_pct __read_mostly = 100;

/*
 * Every tunable, described once: a module parameter and an entry of the
 * module's generic netlink family (uno_nl.h), with one range check for both;
 * a value outside the range fails with -EINVAL and keeps the old value.
 * Flows read the parameters on every ACK (the window cap they keep, when
 * a write has bumped uno_params.gen), so changes apply to running
 * connections at once, except init_cwnd_bdp_pct (read when a flow starts)
 * and pacing_pct going from 0 to non-zero (a socket that started unpaced
 * stays unpaced). The list is in tcp_uno_params.h.
 */

static struct uno_nl_param tcp_uno_params[] = {
#define TCP_UNO_PARAM UNO_NL_PARAM
#include "tcp_uno_params.h"
#undef TCP_UNO_PARAM
};

static struct uno_nl_cc tcp_uno_nl = {
	.name = "uno",
	.params = tcp_uno_params,
	.n_params = ARRAY_SIZE(tcp_uno_params),
	.gen = &uno_params.gen,
};

#define TCP_UNO_PARAM(...) UNO_NL_MODULE_PARAM(tcp_uno_nl, __VA_ARGS__);
#include "tcp_uno_params.h"
#undef TCP_UNO_PARAM

#define TCP_UNO_PARAM(...) UNO_NL_PARM_DESC(__VA_ARGS__);
#include "tcp_uno_params.h"
#undef TCP_UNO_PARAM

static struct tcp_congestion_ops tcp_uno;
static struct tcp_congestion_ops tcp_uno_reno;

/* Hand the core's window and rate to TCP. */
static void tcp_uno_apply(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct uno *ca = inet_csk_ca(sk);
	u32 pct = READ_ONCE(pacing_pct);
	u64 rate = div_u64(uno_pacing_rate(&ca->core) * pct, 100);
	u32 segs = uno_cwnd_segs(&ca->core, &uno_params, tp->mss_cache);

	tcp_snd_cwnd_set(tp, min(segs, tp->snd_cwnd_clamp));
	if (rate)
		WRITE_ONCE(sk->sk_pacing_rate,
			   min_t(u64, rate, READ_ONCE(sk->sk_max_pacing_rate)));
}

static void tcp_uno_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct uno *ca = inet_csk_ca(sk);

	/*
	 * Without ECN Uno has no congestion signal but Quick Adapt: fall back
	 * to Reno, as DCTCP does. Listening and closed sockets have not
	 * negotiated yet; .init runs again when they become established.
	 */
	if (!(tp->ecn_flags & TCP_ECN_OK) &&
	    sk->sk_state != TCP_LISTEN && sk->sk_state != TCP_CLOSE) {
		WRITE_ONCE(inet_csk(sk)->icsk_ca_ops, &tcp_uno_reno);
		INET_ECN_dontxmit(sk);
		return;
	}

	ca->ece = 0;
	ca->md_cuts = 0;
	ca->md_phantom = 0;
	ca->qa_cuts = 0;
	uno_ecn_rx_init(sk, &ca->ecn);
	/* The handshake RTT is in the min-RTT filter by now, if it has one. */
	uno_init(&ca->core, &uno_params, tp->mss_cache, tcp_min_rtt(tp),
		 (u32)tcp_clock_us(), (u32)tp->bytes_sent);

	/* No slow start semantics; the window is all Uno's. */
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	/* TCP-internal pacing unless fq already paces this socket. */
	if (READ_ONCE(pacing_pct))
		cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
	tcp_uno_apply(sk);
}

/* Per-ACK control, after Linux's loss and recovery processing. */
#ifdef UNO_HAVE_CONG_CONTROL_ACK	/* 6.10 on */
static void tcp_uno_cong_control(struct sock *sk, u32 ack, int flag,
				 const struct rate_sample *rs)
#else
static void tcp_uno_cong_control(struct sock *sk, const struct rate_sample *rs)
#endif
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct uno *ca = inet_csk_ca(sk);
	struct uno_ack a = {
		/* rs->rtt_us was measured against tcp_mstamp */
		.now_us = (u32)tp->tcp_mstamp,
		.acked = (u32)min_t(u64, (u64)rs->acked_sacked * tp->mss_cache,
				    U32_MAX),
		.rtt_us = rs->rtt_us < 0 ? -1 :
			  (s32)min_t(long, rs->rtt_us, S32_MAX),
		.min_rtt_us = tcp_min_rtt(tp),
		.srtt_us = tp->srtt_us >> 3,
		.sent = (u32)tp->bytes_sent,
		.mss = tp->mss_cache,
		.ece = ca->ece,
		/*
		 * Our guard, the paper is silent: a window we did not fill
		 * says nothing about QA.
		 */
		.app_limited = rs->is_app_limited || !tcp_is_cwnd_limited(sk),
	};
	u32 ev = uno_on_ack(&ca->core, &uno_params, &a);

	if (ev & UNO_EV_MD)
		ca->md_cuts++;
	if (ev & UNO_EV_MD_PHANTOM)
		ca->md_phantom++;
	if (ev & UNO_EV_QA)
		ca->qa_cuts++;
	tcp_uno_apply(sk);
}

/* Runs before .cong_control for the same ACK. */
static void tcp_uno_in_ack_event(struct sock *sk, u32 flags)
{
	struct uno *ca = inet_csk_ca(sk);

	ca->ece = !!(flags & CA_ACK_ECE);
}

static void tcp_uno_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct uno *ca = inet_csk_ca(sk);

	switch (ev) {
	case CA_EVENT_ECN_IS_CE:
	case CA_EVENT_ECN_NO_CE:
		uno_ecn_rx_event(sk, &ca->ecn, ev);
		break;
	case CA_EVENT_TX_START:
		uno_on_tx_start(&ca->core, &uno_params, (u32)tcp_clock_us());
		break;
	default:
		break;
	}
}

/*
 * A retransmission timeout: tcp_enter_loss() enters Loss on every one,
 * where CA_EVENT_LOSS comes only on the first of an episode, and each
 * timeout is one MSS timing out. It sets snd_cwnd to the packets in
 * flight + 1 right before; the next ACK restores the window from the
 * core, which keeps it unless rto_cwnd_cut. (A path MTU drop,
 * tcp_simple_retransmit(), enters Loss too and counts as one.)
 */
static void tcp_uno_set_state(struct sock *sk, u8 new_state)
{
	struct uno *ca = inet_csk_ca(sk);
	u32 mss = tcp_sk(sk)->mss_cache;

	if (new_state == TCP_CA_Loss)
		uno_on_timeout(&ca->core, &uno_params, mss, mss);
}

/*
 * Linux asks for ssthresh when entering CWR, Recovery or Loss. Uno does not
 * react to those: keep ssthresh infinite so no state exit rewrites cwnd.
 */
static u32 tcp_uno_ssthresh(struct sock *sk)
{
	return TCP_INFINITE_SSTHRESH;
}

/*
 * Undo of a spurious loss episode: the core's window was never reduced,
 * so it is the right one to restore (snd_cwnd may still be the 1 segment
 * that tcp_enter_loss() left).
 */
static u32 tcp_uno_undo_cwnd(struct sock *sk)
{
	const struct uno *ca = inet_csk_ca(sk);

	return uno_cwnd_segs(&ca->core, &uno_params, tcp_sk(sk)->mss_cache);
}

static size_t tcp_uno_get_info(struct sock *sk, u32 ext, int *attr,
			       union tcp_cc_info *info)
{
	const struct uno *ca = inet_csk_ca(sk);
	const struct uno_state *s = &ca->core;
	struct tcp_uno_info *ui = (struct tcp_uno_info *)info;
	u16 flags = TCP_UNO_INFO_ENABLED;

	if (!(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	memset(ui, 0, sizeof(*ui));
	if (READ_ONCE(inet_csk(sk)->icsk_ca_ops) == &tcp_uno) {
		if (uno_is_inter(&uno_params, s->base_rtt_us))
			flags |= TCP_UNO_INFO_INTER;
		if (s->flags & UNO_F_EP_ON)
			flags |= TCP_UNO_INFO_EPOCH_ON;
		if (s->flags & UNO_F_QA_ON)
			flags |= TCP_UNO_INFO_QA_OPEN;
		ui->uno_flags = flags;
		ui->uno_qa_cuts = ca->qa_cuts;
		ui->uno_cwnd = (u32)min_t(u64, uno_cwnd_bytes(s), U32_MAX);
		ui->uno_base_rtt_us = s->base_rtt_us;
		ui->uno_ecn_ewma = s->ecn_ewma;
		ui->uno_md_cuts = ca->md_cuts;
		ui->uno_md_phantom = ca->md_phantom;
	}
	*attr = INET_DIAG_VEGASINFO;
	return sizeof(*ui);
}

static struct tcp_congestion_ops tcp_uno __read_mostly = {
	.init		= tcp_uno_init,
	.ssthresh	= tcp_uno_ssthresh,
	.cong_control	= tcp_uno_cong_control,
	.undo_cwnd	= tcp_uno_undo_cwnd,
	.cwnd_event	= tcp_uno_cwnd_event,
	.set_state	= tcp_uno_set_state,
	.in_ack_event	= tcp_uno_in_ack_event,
	.get_info	= tcp_uno_get_info,
	.flags		= TCP_CONG_NEEDS_ECN,
	.owner		= THIS_MODULE,
	.name		= "uno",
};

/* Peer without ECN: plain Reno, reported as not enabled in get_info. */
static struct tcp_congestion_ops tcp_uno_reno __read_mostly = {
	.ssthresh	= tcp_reno_ssthresh,
	.cong_avoid	= tcp_reno_cong_avoid,
	.undo_cwnd	= tcp_reno_undo_cwnd,
	.get_info	= tcp_uno_get_info,
	.owner		= THIS_MODULE,
	.name		= "uno-reno",
};

static int __init tcp_uno_register(void)
{
	BUILD_BUG_ON(sizeof(struct uno) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(sizeof(struct tcp_uno_info) > sizeof(union tcp_cc_info));
	return uno_nl_register_cc(&tcp_uno_nl, &tcp_uno);
}

static void __exit tcp_uno_unregister(void)
{
	uno_nl_unregister_cc(&tcp_uno);
}

module_init(tcp_uno_register);
module_exit(tcp_uno_unregister);

MODULE_AUTHOR("Uno for Linux developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Uno congestion control (UnoCC): BDP-scaled ECN AIMD with Quick Adapt");
