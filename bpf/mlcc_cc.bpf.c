// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_mlcc: an MLCC sender's pacing and window as a BPF struct_ops
 * congestion control (../shared/spec/mlcc.md 3.6, 4.1). The rate law runs
 * elsewhere: the sender role of mlcc_ns.bpf.c takes DCI_s's Switch-INTs
 * into the flow's R_NS (mlcc_ns_flows.h), or, with HPCC end to end, the
 * sockops program of mlcc.bpf.c takes the receiver's INT echoes into the
 * same record; this paces the socket at
 *
 *	R_send = min(R_NS, R_DQM_bar)					(Eq. 10)
 *
 * R_DQM_bar the last the receiver's credit loop advertised in an ACK_X
 * (mlcc.bpf.c; unbounded until the first), and holds the window at
 * max(4 MSS, 1.5 R_line RTT_base) (3.6: pacing enforces the rate, the
 * window is only a cap). Each socket makes
 * its flow's record at init and removes it at release, and keeps TCP's
 * min RTT there, the T of HPCC's law on the receiver's echoes. Until its first
 * feedback (none in its first round trip; none ever where neither loop
 * runs) the record holds no rate: the flow runs TCP's slow start and
 * Reno at TCP's pacing rate. No multiplicative
 * decrease on a fast retransmit (3.6: the paper's fabric is lossless);
 * an RTO sets R_NS to R_min, from where the loop raises it again.
 *
 * One object for every kernel (tcp_ca.h): the window on each ACK, the
 * pacing rate before each transmit in min_tso_segs, after
 * tcp_update_pacing_rate() has rewritten it.
 */
#include "tcp_ca.h"
#include <bpf/bpf_endian.h>
#include "hpcc_core.h"
#include "mlcc_types.h"
#include "mlcc_ns_flows.h"

char _license[] SEC("license") = "GPL";

#define MLCC_CWND_GAIN_PCT	150	/* G_CWND (3.6) */
#define MLCC_CWND_MIN		4	/* segments */

extern void tcp_reno_cong_avoid(struct sock *sk, u32 ack, u32 acked) __ksym;

/*
 * In icsk_ca_priv: the flow's key, kept from the start (a closing socket
 * gives its port up before its CC's release).
 */
struct bpf_mlcc {
	struct mlcc_flow4 key;	/* the data direction, network order */
};

/* The flow's near-source record, if the table had room for it. */
static __always_inline struct mlcc_ns_entry *bpf_mlcc_entry(const struct bpf_mlcc *ca)
{
	struct mlcc_flow4 key = ca->key;	/* a map key: on the stack */

	return bpf_map_lookup_elem(&mlcc_ns_flows, &key);
}

/*
 * max(4 MSS, G_CWND R_line RTT_base) in segments, RTT_base the lowest RTT
 * (the handshake's first), capped at 60 s so that R_line / 1000 (< 2^27)
 * times it stays in 64 bits.
 */
static __always_inline void bpf_mlcc_cwnd(struct sock *sk, u64 r_line)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 rtt_us = tcp_min_rtt(tp), mss = tp->mss_cache ? tp->mss_cache : 1;
	u32 clamp = tp->snd_cwnd_clamp ? tp->snd_cwnd_clamp : 1;
	u64 segs;

	if (rtt_us == ~0U)
		rtt_us = tp->srtt_us >> 3;
	if (rtt_us > 60 * USEC_PER_SEC)
		rtt_us = 60 * USEC_PER_SEC;
	segs = r_line / 1000 * rtt_us / 1000 * MLCC_CWND_GAIN_PCT / 100 / mss;
	if (segs < MLCC_CWND_MIN)
		segs = MLCC_CWND_MIN;
	if (clamp > TCP_INFINITE_SSTHRESH)	/* snd_cwnd stays an int */
		clamp = TCP_INFINITE_SSTHRESH;
	tp->snd_cwnd = segs < clamp ? (u32)segs : clamp;
}

/* TCP's min RTT into the record: T of the echoes' law (mlcc.bpf.c). */
static __always_inline void bpf_mlcc_note_rtt(struct sock *sk, struct mlcc_ns_entry *e)
{
	u32 rtt_us = tcp_min_rtt(tcp_sk(sk));

	if (rtt_us != ~0U && rtt_us != e->info.base_rtt_us)
		e->info.base_rtt_us = rtt_us ? rtt_us : 1;
}

SEC("struct_ops/bpf_mlcc_init")
void BPF_PROG(bpf_mlcc_init, struct sock *sk)
{
	static const struct mlcc_ns_entry fresh;
	struct bpf_mlcc *ca = inet_csk_ca(sk);
	struct mlcc_ns_entry *e;
	struct mlcc_flow4 key;

	ca->key.saddr = sk->__sk_common.skc_rcv_saddr;
	ca->key.daddr = sk->__sk_common.skc_daddr;
	ca->key.sport = bpf_htons(sk->__sk_common.skc_num);
	ca->key.dport = sk->__sk_common.skc_dport;
	key = ca->key;
	bpf_map_update_elem(&mlcc_ns_flows, &key, &fresh, BPF_NOEXIST);
	e = bpf_mlcc_entry(ca);
	if (e)
		bpf_mlcc_note_rtt(sk, e);
	if (sk->sk_pacing_status == SK_PACING_NONE)
		sk->sk_pacing_status = SK_PACING_NEEDED;
}

/* The window: HPCC's cap once the flow has R_NS, else Reno's. */
SEC("struct_ops/bpf_mlcc_cong_avoid")
void BPF_PROG(bpf_mlcc_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct mlcc_ns_entry *e = bpf_mlcc_entry(inet_csk_ca(sk));

	if (e)
		bpf_mlcc_note_rtt(sk, e);
	if (e && e->info.r_line)
		bpf_mlcc_cwnd(sk, e->info.r_line);
	else
		tcp_reno_cong_avoid(sk, ack, acked);
}

/* Before each transmit: Eq. 10, over the rate TCP's own update wrote. */
SEC("struct_ops/bpf_mlcc_min_tso_segs")
u32 BPF_PROG(bpf_mlcc_min_tso_segs, struct sock *sk)
{
	const struct mlcc_ns_entry *e = bpf_mlcc_entry(inet_csk_ca(sk));
	/* racy reads of u64s the loops write whole */
	u64 r_send = e ? e->info.r_ns : 0, r_dqm_bar = e ? e->info.r_dqm_bar : 0;

	if (r_dqm_bar && (!r_send || r_dqm_bar < r_send))
		r_send = r_dqm_bar;

	if (r_send && r_send < sk->sk_max_pacing_rate)
		sk->sk_pacing_rate = r_send;
	return 2;	/* the kernel's default, sysctl_tcp_min_tso_segs */
}

/* An RTO: R_NS from R_min, its round started over (3.6). */
SEC("struct_ops/bpf_mlcc_set_state")
void BPF_PROG(bpf_mlcc_set_state, struct sock *sk, u8 new_state)
{
	struct mlcc_ns_entry *e;
	u64 r_min;

	if (new_state != TCP_CA_Loss)
		return;
	e = bpf_mlcc_entry(inet_csk_ca(sk));
	if (!e || !e->info.r_line)
		return;
	bpf_spin_lock(&e->lock);
	r_min = hpcc_r_min(e->info.r_line);
	e->ns.rc = r_min;
	e->ns.r = r_min;
	e->ns.inc_stage = 0;
	e->info.r_ns = r_min;
	bpf_spin_unlock(&e->lock);
}

/* No decrease on a fast retransmit: the window stays. */
SEC("struct_ops/bpf_mlcc_ssthresh")
u32 BPF_PROG(bpf_mlcc_ssthresh, struct sock *sk)
{
	return tcp_sk(sk)->snd_cwnd;
}

SEC("struct_ops/bpf_mlcc_undo_cwnd")
u32 BPF_PROG(bpf_mlcc_undo_cwnd, struct sock *sk)
{
	return tcp_sk(sk)->snd_cwnd;
}

/* The flow's record goes with it. */
SEC("struct_ops/bpf_mlcc_release")
void BPF_PROG(bpf_mlcc_release, struct sock *sk)
{
	struct bpf_mlcc *ca = inet_csk_ca(sk);
	struct mlcc_flow4 key = ca->key;

	bpf_map_delete_elem(&mlcc_ns_flows, &key);
}

SEC(".struct_ops")
struct tcp_congestion_ops bpf_mlcc = {
	.init		= (void *)bpf_mlcc_init,
	.cong_avoid	= (void *)bpf_mlcc_cong_avoid,
	.min_tso_segs	= (void *)bpf_mlcc_min_tso_segs,
	.set_state	= (void *)bpf_mlcc_set_state,
	.ssthresh	= (void *)bpf_mlcc_ssthresh,
	.undo_cwnd	= (void *)bpf_mlcc_undo_cwnd,
	.release	= (void *)bpf_mlcc_release,
	.name		= "bpf_mlcc",
};
