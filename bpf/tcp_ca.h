/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a BPF struct_ops congestion control reads of the kernel's TCP
 * structures: the members it uses, by name, with CO-RE relocations
 * (preserve_access_index), so that one object loads on every kernel whose
 * BTF has these names (the VM's 6.1 and the development kernel), whatever
 * their offsets. No vmlinux.h: the kernel's own types stay the truth.
 *
 * The callbacks a CC here implements have the same prototypes on 6.1 and
 * on 6.10 and later; cong_control does not (design notes P6), so these
 * CCs leave it out: the window is set on each ACK's pkts_acked and
 * cong_avoid, and the pacing rate, which tcp_update_pacing_rate()
 * rewrites after them, again in min_tso_segs, which TCP calls before it
 * sends (tcp_write_xmit()).
 */
#ifndef _UNO_TCP_CA_H
#define _UNO_TCP_CA_H

#include "core_bpf.h"
#include <bpf/bpf_tracing.h>	/* BPF_PROG() */

#define TCP_CA_NAME_MAX		16
#define TCP_INFINITE_SSTHRESH	0x7fffffff
#define TCP_INIT_CWND		10
#define USEC_PER_SEC		1000000UL
#define NSEC_PER_USEC		1000UL

/* enum tcp_ca_state (UAPI) */
#define TCP_CA_Open		0
#define TCP_CA_Recovery		3
#define TCP_CA_Loss		4

/* enum sk_pacing */
#define SK_PACING_NONE		0
#define SK_PACING_NEEDED	1

/* The addresses: CO-RE finds them inside the kernel's anonymous unions. */
struct sock_common {
	__be32 skc_daddr;
	__be32 skc_rcv_saddr;
	__be16 skc_dport;
	u16 skc_num;		/* the local port, host order */
} __attribute__((preserve_access_index));

struct sock {
	struct sock_common __sk_common;
	unsigned long sk_pacing_rate;
	unsigned long sk_max_pacing_rate;
	u8 sk_pacing_status;
} __attribute__((preserve_access_index));

struct inet_connection_sock {
	u64 icsk_ca_priv[13];
} __attribute__((preserve_access_index));

struct minmax_sample {
	u32 t;
	u32 v;
};

struct minmax {
	struct minmax_sample s[3];
};

struct tcp_sock {
	u32 snd_cwnd;
	u32 snd_cwnd_clamp;
	u32 snd_ssthresh;
	u32 snd_una;
	u32 snd_nxt;
	u32 srtt_us;		/* smoothed RTT << 3 */
	u32 mss_cache;
	u64 tcp_mstamp;
	struct minmax rtt_min;
} __attribute__((preserve_access_index));

struct ack_sample {
	u32 pkts_acked;
	s32 rtt_us;
	u32 in_flight;
} __attribute__((preserve_access_index));

struct tcp_congestion_ops {
	u32 (*ssthresh)(struct sock *sk);
	void (*cong_avoid)(struct sock *sk, u32 ack, u32 acked);
	void (*set_state)(struct sock *sk, u8 new_state);
	void (*pkts_acked)(struct sock *sk, const struct ack_sample *sample);
	u32 (*min_tso_segs)(struct sock *sk);
	u32 (*undo_cwnd)(struct sock *sk);
	void (*init)(struct sock *sk);
	void (*release)(struct sock *sk);
	char name[TCP_CA_NAME_MAX];
	u32 flags;
} __attribute__((preserve_access_index));

static __always_inline struct tcp_sock *tcp_sk(const struct sock *sk)
{
	return (struct tcp_sock *)sk;
}

static __always_inline void *inet_csk_ca(const struct sock *sk)
{
	return (void *)((struct inet_connection_sock *)sk)->icsk_ca_priv;
}

/* a is before b, in sequence space */
static __always_inline bool before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

/* The handshake's RTT and the lowest since, us; ~0U before any. */
static __always_inline u32 tcp_min_rtt(const struct tcp_sock *tp)
{
	return tp->rtt_min.s[0].v;
}

#endif /* _UNO_TCP_CA_H */
