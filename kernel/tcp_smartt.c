// SPDX-License-Identifier: GPL-2.0
/*
 * SMaRTT congestion control (Sender-based Marked Rapidly-adapting Trimmed &
 * Timed Transport), the basis of Ultra Ethernet's NSCC:
 *
 *   T. Bonato et al., "SMaRTT: Sender-based Marked Rapidly-adapting Trimmed
 *   & Timed Transport".
 *
 * A window in bytes, set on every ACK from the ECN mark and the RTT of the
 * ACK: decrease when marked and above the target RTT, keep when marked and
 * below it, grow gently when unmarked and above, proportionally to the
 * headroom when unmarked and below. QuickAdapt cuts the window to the bytes
 * actually delivered in the last target RTT after a loss; FastIncrease
 * grows it by 2 MSS per MSS once a full window came back clean.
 *
 * The law lives in core/smartt_core.h, shared with the unit tests; this
 * file maps tcp_congestion_ops onto it:
 *
 *  - cong_control owns snd_cwnd (segments, from the byte window) and
 *    sk_pacing_rate. With cong_control the stack neither runs PRR nor
 *    resets the window to ssthresh, as for BBR.
 *  - An ACK's size is rs->acked_sacked MSS, its RTT rs->rtt_us (< 0 after a
 *    retransmission: no RTT step), its mark the ECE flag seen by
 *    in_ack_event. The receiver echoes CE per segment (uno_ecn.h, as DCTCP
 *    does), so ECE covers exactly the segments the ACK acknowledges.
 *  - TCP has no trim NACK. Segments the ACK marked lost (SACK, RACK,
 *    rs->losses) stand in for NACKs when trimming=1; with trimming=0 only
 *    the RTO counts, and QuickAdapt is armed by RTT instead.
 *  - Each RTO (entering TCP_CA_Loss) is one MSS timing out.
 *  - mode=1 runs NSCC, Ultra Ethernet's version of the law
 *    (core/nscc_core.h), on the same state; a flow keeps the law it
 *    started with.
 *  - The core's window may be smaller than min_cwnd segments (down to
 *    min_cwnd_bytes): snd_cwnd stays at min_cwnd and the pacing rate,
 *    window / base RTT, carries the smaller window. Unpaced
 *    (pacing_gain=0), nothing enforces it.
 *  - If the peer refuses ECN the socket falls back to "smartt-noecn", the
 *    same law without ECT, as dctcp falls back to "dctcp-reno".
 *
 * Author: Uno for Linux developers
 */

#include <linux/inet_diag.h>
#include <linux/module.h>
#include <net/tcp.h>

#include "smartt_core.h"
#include "nscc_core.h"
#include "uno_ecn.h"
#include "uno_nl_impl.h"
#include "uapi/tcp_smartt.h"

struct smartt {
	struct smartt_state st;		/* the control law */
	struct uno_ecn_rx ecn_rx;	/* receiver side: per-segment CE echo */
	u16 quick_adapts;		/* for get_info, wrapping */
	u16 decreases;
	u8 ece;				/* ECE of the ACK being processed */
};

static struct tcp_congestion_ops tcp_smartt_noecn;

/* The constants of the law, one instance read by every flow. */
static struct smartt_params smartt_params __read_mostly = SMARTT_PARAMS_INIT;

/*
 * Every parameter, described once: a module parameter and an entry of the
 * module's generic netlink family (uno_nl.h), with one range check for both;
 * a value outside its range is refused with -EINVAL and the old value
 * stays. Flows read them on every ACK, so a change applies to running
 * connections (UNO_APPLY_ACK), except link_rate_mbps, bdp_ref, bdp_ref_mtu
 * and rtt_gain_*, applied when a flow's base RTT or MSS changes
 * (UNO_APPLY_REBASE; NSCC flows take the first three on the next ACK), and
 * init_cwnd and a non-zero base_rtt_us, read when a connection starts
 * (UNO_APPLY_NEW), and pacing_gain going from 0 to non-zero (a socket that
 * started unpaced stays unpaced). What a flow caches from them
 * (smartt_cache(), nscc_cache()) it derives again on the first ACK after a
 * store, which bumps smartt_params.gen. The core is safe for any
 * combination of values. The list is in tcp_smartt_params.h.
 */

static struct uno_nl_param tcp_smartt_params[] = {
#define TCP_SMARTT_PARAM UNO_NL_PARAM
#include "tcp_smartt_params.h"
#undef TCP_SMARTT_PARAM
};

static struct uno_nl_cc tcp_smartt_nl = {
	.name = "smartt",
	.params = tcp_smartt_params,
	.n_params = ARRAY_SIZE(tcp_smartt_params),
	.gen = &smartt_params.gen,
};

#define TCP_SMARTT_PARAM(...) UNO_NL_MODULE_PARAM(tcp_smartt_nl, __VA_ARGS__);
#include "tcp_smartt_params.h"
#undef TCP_SMARTT_PARAM

#define TCP_SMARTT_PARAM(...) UNO_NL_PARM_DESC(__VA_ARGS__);
#include "tcp_smartt_params.h"
#undef TCP_SMARTT_PARAM

static u32 tcp_smartt_bytes(u32 pkts, u32 mss)
{
	return (u32)min_t(u64, (u64)pkts * mss, U32_MAX);
}

static bool tcp_smartt_nscc(const struct smartt *ca)
{
	return ca->st.flags & SMARTT_F_NSCC;
}

/*
 * The byte window in whole segments, rounded up (the pacing rate holds
 * the flow to the byte window; rounded down, a window of 2.9 segments
 * would keep 2 in flight), at least min_cwnd of them, never more than
 * snd_cwnd_clamp. A window under min_cwnd segments is left to the pacing
 * rate, which is computed from the byte window.
 */
static u32 tcp_smartt_segs(const struct tcp_sock *tp, const struct smartt *ca)
{
	u32 lo = max(READ_ONCE(smartt_params.min_cwnd), 1U);
	u32 segs = DIV_ROUND_UP_ULL(ca->st.cwnd, max(tp->mss_cache, 1U));

	return min(max(segs, lo), max(tp->snd_cwnd_clamp, 1U));
}

/* Hand the core's window and rate to TCP. */
static void tcp_smartt_apply(struct sock *sk, const struct smartt *ca)
{
	unsigned long max_rate = READ_ONCE(sk->sk_max_pacing_rate);
	u64 rate;

	if (!ca->st.cwnd)	/* no base RTT yet: the stack's IW stands */
		return;
	tcp_snd_cwnd_set(tcp_sk(sk), tcp_smartt_segs(tcp_sk(sk), ca));

	rate = smartt_pacing_rate(&ca->st, &smartt_params);
	WRITE_ONCE(sk->sk_pacing_rate,
		   rate ? (unsigned long)min_t(u64, rate, max_rate) : max_rate);
}

static void tcp_smartt_init(struct sock *sk)
{
	struct smartt *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u32 min_rtt = tcp_min_rtt(tp);

	/* The handshake's RTT, when it gave one, is the first base RTT. */
	if (READ_ONCE(smartt_params.mode) == SMARTT_MODE_NSCC)
		nscc_init(&ca->st, &smartt_params, tp->mss_cache,
			  min_rtt == ~0U ? 0 : min_rtt);
	else
		smartt_init(&ca->st, &smartt_params, tp->mss_cache,
			    min_rtt == ~0U ? 0 : min_rtt);
	uno_ecn_rx_init(sk, &ca->ecn_rx);
	ca->quick_adapts = 0;
	ca->decreases = 0;
	ca->ece = 0;

	/* No slow start semantics; the window is all SMaRTT's. */
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	/* TCP-internal pacing unless fq already paces this socket. */
	if (READ_ONCE(smartt_params.pacing_gain))
		cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
	tcp_smartt_apply(sk, ca);

	/*
	 * The peer did not agree to ECN. Like DCTCP, switch to ops without
	 * TCP_CONG_NEEDS_ECN, so that tcp_init_congestion_control() stops
	 * ECT (RFC 3168); the law runs on, but the marked cells never happen
	 * and the window only comes down on delay-triggered QuickAdapt and
	 * loss. Per-segment marks also need this module (or dctcp) at the
	 * receiver, which the sender cannot check. get_info tells which
	 * (TCP_SMARTT_ECN): the peer chose it, so the log does not.
	 */
	if (!(tp->ecn_flags & TCP_ECN_OK) &&
	    sk->sk_state != TCP_LISTEN && sk->sk_state != TCP_CLOSE)
		WRITE_ONCE(inet_csk(sk)->icsk_ca_ops, &tcp_smartt_noecn);
}

static void tcp_smartt_count(struct smartt *ca, enum smartt_action act)
{
	if (act == SMARTT_QUICK_ADAPT)
		ca->quick_adapts++;
	else if (act == SMARTT_MD)
		ca->decreases++;
}

static s32 tcp_smartt_rtt(const struct rate_sample *rs)
{
	if (rs->rtt_us < 0)
		return -1;
	return (s32)min_t(long, rs->rtt_us, S32_MAX);
}

#ifdef UNO_HAVE_CONG_CONTROL_ACK	/* 6.10 on */
static void tcp_smartt_cong_control(struct sock *sk, u32 ack, int flag,
				    const struct rate_sample *rs)
#else
static void tcp_smartt_cong_control(struct sock *sk,
				    const struct rate_sample *rs)
#endif
{
	struct smartt *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u32 mss = tp->mss_cache, now = (u32)tp->tcp_mstamp;
	u32 inflight = tcp_smartt_bytes(tcp_packets_in_flight(tp), mss);
	enum smartt_action act;

	if (unlikely(ca->st.mtu != mss))
		smartt_set_mtu(&ca->st, &smartt_params, mss);

	/*
	 * Losses this ACK revealed are taken first: if they arm QuickAdapt
	 * while the measurement window is already over, it adapts on the
	 * window this ACK would otherwise have closed, one trtt sooner.
	 */
	if (rs->losses > 0 && READ_ONCE(smartt_params.trimming)) {
		u32 lost = tcp_smartt_bytes(rs->losses, mss);

		act = tcp_smartt_nscc(ca) ?
		      nscc_on_nack(&ca->st, &smartt_params, now, lost, inflight) :
		      smartt_on_nack(&ca->st, &smartt_params, now, lost, inflight);
		tcp_smartt_count(ca, act);
	}
	if (rs->acked_sacked) {
		const struct smartt_ack a = {
			.now = now,
			.size = tcp_smartt_bytes(rs->acked_sacked, mss),
			.rtt_us = tcp_smartt_rtt(rs),
			.inflight = inflight,
			.ecn = ca->ece,
		};

		act = tcp_smartt_nscc(ca) ?
		      nscc_on_ack(&ca->st, &smartt_params, &a) :
		      smartt_on_ack(&ca->st, &smartt_params, &a);
		tcp_smartt_count(ca, act);
	}
	tcp_smartt_apply(sk, ca);
}

/* Runs on every ACK before cong_control: keep its mark for it. */
static void tcp_smartt_in_ack_event(struct sock *sk, u32 flags)
{
	struct smartt *ca = inet_csk_ca(sk);

	ca->ece = !!(flags & CA_ACK_ECE);
}

static void tcp_smartt_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct smartt *ca = inet_csk_ca(sk);

	switch (ev) {
	case CA_EVENT_ECN_IS_CE:
	case CA_EVENT_ECN_NO_CE:
		uno_ecn_rx_event(sk, &ca->ecn_rx, ev);
		break;
	default:
		/*
		 * No restart after idle: the window is kept (our choice:
		 * the paper is silent).
		 */
		break;
	}
}

/*
 * A retransmission timeout: the head segment timed out. tcp_enter_loss()
 * enters Loss on every one, where CA_EVENT_LOSS comes only on the first
 * of an episode (htsim takes each timeout's bytes). The stack sets
 * snd_cwnd to in-flight + 1 right before, until the next ACK, whose
 * cong_control applies the window this leaves. (A path MTU drop,
 * tcp_simple_retransmit(), enters Loss too and counts as one.)
 */
static void tcp_smartt_set_state(struct sock *sk, u8 new_state)
{
	struct smartt *ca = inet_csk_ca(sk);
	u32 mss = tcp_sk(sk)->mss_cache;

	if (new_state != TCP_CA_Loss)
		return;
	if (tcp_smartt_nscc(ca))
		nscc_on_timeout(&ca->st, &smartt_params, mss);
	else
		smartt_on_timeout(&ca->st, &smartt_params, mss);
}

/*
 * Linux asks for ssthresh when entering CWR, Recovery or Loss. cong_control
 * sets the window on every ACK in every state, so SMaRTT does not react to
 * those but to a timeout (set_state): keep ssthresh infinite so no state
 * exit rewrites cwnd.
 */
static u32 tcp_smartt_ssthresh(struct sock *sk)
{
	return TCP_INFINITE_SSTHRESH;
}

/*
 * Undo of a spurious loss episode: the core's window is the one to restore
 * (snd_cwnd may still be the 1 segment that tcp_enter_loss() left).
 */
static u32 tcp_smartt_undo_cwnd(struct sock *sk)
{
	const struct smartt *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);

	return ca->st.cwnd ? tcp_smartt_segs(tp, ca) : tcp_snd_cwnd(tp);
}

/* See uapi/tcp_smartt.h for why this is an INET_DIAG_VEGASINFO. */
static size_t tcp_smartt_get_info(struct sock *sk, u32 ext, int *attr,
				  union tcp_cc_info *info)
{
	const struct smartt *ca = inet_csk_ca(sk);
	struct tcp_smartt_info *si = (struct tcp_smartt_info *)info;
	u32 flags = TCP_SMARTT_ENABLED;
	u8 st_flags = READ_ONCE(ca->st.flags);
	u32 avg = READ_ONCE(ca->st.avg_rtt) >> SMARTT_RTT_SHIFT;

	if (!(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	if (st_flags & SMARTT_F_FAST_INC)
		flags |= TCP_SMARTT_FAST_INC;
	if (st_flags & SMARTT_F_QA_ARMED)
		flags |= TCP_SMARTT_QA_ARMED;
	if (READ_ONCE(ca->st.ignore_left))
		flags |= TCP_SMARTT_IGNORING;
	if (READ_ONCE(tcp_sk(sk)->ecn_flags) & TCP_ECN_OK)
		flags |= TCP_SMARTT_ECN;
	if (READ_ONCE(ca->ecn_rx.ce_state))
		flags |= TCP_SMARTT_CE;
	if (st_flags & SMARTT_F_NSCC) {
		flags |= TCP_SMARTT_NSCC;
		avg += READ_ONCE(ca->st.brtt);	/* avg_rtt is the delay */
	}

	memset(si, 0, sizeof(*si));
	si->smartt_flags = flags;
	si->smartt_cwnd = READ_ONCE(ca->st.cwnd);
	si->smartt_avg_rtt = avg;
	si->smartt_base_rtt = READ_ONCE(ca->st.brtt);
	si->smartt_quick_adapts = READ_ONCE(ca->quick_adapts);
	si->smartt_decreases = READ_ONCE(ca->decreases);
	*attr = INET_DIAG_VEGASINFO;
	return sizeof(*si);
}

static struct tcp_congestion_ops tcp_smartt __read_mostly = {
	.init		= tcp_smartt_init,
	.ssthresh	= tcp_smartt_ssthresh,
	.undo_cwnd	= tcp_smartt_undo_cwnd,
	.cong_control	= tcp_smartt_cong_control,
	.in_ack_event	= tcp_smartt_in_ack_event,
	.cwnd_event	= tcp_smartt_cwnd_event,
	.set_state	= tcp_smartt_set_state,
	.get_info	= tcp_smartt_get_info,
	.flags		= TCP_CONG_NEEDS_ECN,
	.owner		= THIS_MODULE,
	.name		= "smartt",
};

/* Not registered: what tcp_smartt_init() switches to without ECN. */
static struct tcp_congestion_ops tcp_smartt_noecn __read_mostly = {
	.ssthresh	= tcp_smartt_ssthresh,
	.undo_cwnd	= tcp_smartt_undo_cwnd,
	.cong_control	= tcp_smartt_cong_control,
	.in_ack_event	= tcp_smartt_in_ack_event,
	.cwnd_event	= tcp_smartt_cwnd_event,
	.set_state	= tcp_smartt_set_state,
	.get_info	= tcp_smartt_get_info,
	.owner		= THIS_MODULE,
	.name		= "smartt-noecn",
};

static int __init tcp_smartt_register(void)
{
	BUILD_BUG_ON(sizeof(struct smartt) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(sizeof(struct tcp_smartt_info) > sizeof(union tcp_cc_info));
	return uno_nl_register_cc(&tcp_smartt_nl, &tcp_smartt);
}

static void __exit tcp_smartt_unregister(void)
{
	uno_nl_unregister_cc(&tcp_smartt);
}

module_init(tcp_smartt_register);
module_exit(tcp_smartt_unregister);

MODULE_AUTHOR("Uno for Linux developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SMaRTT / UEC NSCC congestion control (ECN x delay window, QuickAdapt, FastIncrease)");
