/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Receiver-side CE echo shared by tcp_uno and tcp_smartt.
 *
 * Both control laws count marked bytes per ACK, so the receiver must echo
 * each segment's CE bit exactly rather than RFC 3168's latched ECE. This is
 * the state machine DCTCP uses: ECE mirrors the CE bit of the last data
 * segment; when that bit changes, the ACK is sent immediately, and an ACK
 * that was being delayed is first flushed carrying the previous state, so
 * that every acknowledged byte is reported with its own mark.
 */
#ifndef _UNO_ECN_H
#define _UNO_ECN_H

#include <net/tcp.h>

#include "uno_compat.h"

struct uno_ecn_rx {
	u32 prior_rcv_nxt;	/* rcv_nxt when the CE state last changed */
	u8 ce_state;		/* 1: last data segment carried CE */
};

static inline void uno_ecn_set_ece(struct sock *sk, u8 ce_state)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (ce_state)
		tp->ecn_flags |= TCP_ECN_DEMAND_CWR;
	else
		tp->ecn_flags &= ~TCP_ECN_DEMAND_CWR;
}

/* Call from cwnd_event for CA_EVENT_ECN_IS_CE and CA_EVENT_ECN_NO_CE. */
static inline void uno_ecn_rx_event(struct sock *sk, struct uno_ecn_rx *rx,
				    enum tcp_ca_event ev)
{
	u8 ce = ev == CA_EVENT_ECN_IS_CE;

	if (rx->ce_state != ce) {
		if (inet_csk(sk)->icsk_ack.pending & ICSK_ACK_TIMER) {
			uno_ecn_set_ece(sk, rx->ce_state);
			uno_send_ack(sk, rx->prior_rcv_nxt);
		}
		inet_csk(sk)->icsk_ack.pending |= ICSK_ACK_NOW;
	}
	rx->prior_rcv_nxt = tcp_sk(sk)->rcv_nxt;
	rx->ce_state = ce;
	uno_ecn_set_ece(sk, ce);
}

static inline void uno_ecn_rx_init(struct sock *sk, struct uno_ecn_rx *rx)
{
	rx->prior_rcv_nxt = tcp_sk(sk)->rcv_nxt;
	rx->ce_state = 0;
}

#endif /* _UNO_ECN_H */
