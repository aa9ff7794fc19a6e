// SPDX-License-Identifier: GPL-2.0
/*
 * MLCC's TCP option at the hosts (../shared/spec/mlcc.md 3.3, 3.8; the
 * design notes' section 3): one sockops program for a cgroup.
 *
 * A socket of the cgroup that connects to the configured remote prefix is
 * an MLCC sender: it reserves the 36-byte data option in every data
 * segment and writes it empty (no records, the X flag), for the switch
 * ports on the way to fill at dequeue (sch_phantom's INT mode). The MSS
 * leaves room for it (tcp_current_mss() asks without a segment); pure
 * ACKs carry none.
 *
 * A socket the cgroup accepts is a receiver: it reads the option of each
 * data segment it gets, counts what it saw per flow (mlcc_rx, for unoctl
 * mlcc show), and runs R_credit's measurement, HPCC's MeasureInflight on
 * the records (hpcc_core.h, T = rtt_d_ns), into the flow's U. The table
 * is an LRU: the flows of every namespace of the cgroup pass through it,
 * and a connection that reuses a flow's addresses and ports starts it
 * over.
 *
 * With HPCC end to end (mlcc_cfg.hpcc_line_rate; spec 3.6, 7.16, the
 * intra-DC flows' CC and issue 16's HPCC baseline), a receiver echoes its
 * flow's last records in each pure ACK (ACK_E), and a sender takes each
 * echo into its flow's rate record (mlcc_ns_flows.h, made by bpf_mlcc),
 * which bpf_mlcc paces at: HPCC's law with T the flow's base RTT (TCP's
 * min RTT, which bpf_mlcc keeps in the record: HPCC's ns-3 gives each
 * pair its own base RTT, and a cross-DC flow's is not an intra-DC one's),
 * a round one T of the host's clock, as in the near-source loop.
 * With the credit loop (mlcc_cfg.credit_line_rate; spec 3.4, 3.5), an
 * accepted socket runs Algorithm 1 and DQM (mlcc_core.h) on each segment
 * that DCI_r stamped (the D flag: its C_D and Q_c), in the socket's
 * storage, and carries C_R, R_credit and R_DQM_bar in each pure ACK
 * (ACK_X, in place of the echo); DCI_r drains the flow's queue at
 * R_credit, and the sender takes R_DQM_bar into its flow's record, which
 * bpf_mlcc paces at min(R_NS, R_DQM_bar) (Eq. 10). A segment is one
 * packet of Eqs. 6-8: each is parsed on its own.
 *
 * PARSE_HDR_OPT_CB runs after TCP has validated the segment's sequence,
 * so an echo or an ACK_X is one of the connection's own ACKs; its
 * contents are then input like any switch's, which the laws bound.
 */
#include <linux/bpf.h>
#include <linux/tcp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "core_types.h"
#include "hpcc_core.h"
#include "mlcc_core.h"
#include "mlcc_types.h"
#include "mlcc_ns_flows.h"

char _license[] SEC("license") = "GPL";

#define AF_INET		2
#define AF_INET6	10
#define TCPHDR_FIN	0x01
#define TCPHDR_SYN	0x02
#define MLCC_MAX_FLOWS	4096

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct mlcc_cfg);
} mlcc_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, __MLCC_STAT_MAX);
	__type(key, u32);
	__type(value, u64);
} mlcc_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MLCC_MAX_FLOWS);
	__type(key, struct mlcc_flow4);
	__type(value, struct mlcc_rx_entry);
} mlcc_rx SEC(".maps");

/* A receiver's credit loop (Algorithm 1, DQM), one per socket. */
struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct mlcc_rcv);
} mlcc_credit SEC(".maps");

static __always_inline void mlcc_count(u32 stat)
{
	u64 *n = bpf_map_lookup_elem(&mlcc_stats, &stat);

	if (n)
		(*n)++;
}

static __always_inline const struct mlcc_cfg *mlcc_get_cfg(void)
{
	u32 zero = 0;

	return bpf_map_lookup_elem(&mlcc_cfg, &zero);
}

static __always_inline bool mlcc_to_remote(const struct mlcc_cfg *c,
					   __be32 daddr)
{
	u32 mask;

	if (!c->remote_len)
		return true;
	mask = c->remote_len >= 32 ? ~0U : ~(~0U >> c->remote_len);
	return !((bpf_ntohl(daddr) ^ bpf_ntohl(c->remote_addr)) & mask);
}

/*
 * An IPv4 connection: an AF_INET socket, or an AF_INET6 one on IPv4-mapped
 * addresses (iperf3's server listens on ::), whose remote_ip4 and
 * local_ip4 are then set too.
 */
static __always_inline bool mlcc_ipv4(const struct bpf_sock_ops *skops)
{
	if (skops->family == AF_INET)
		return true;
	return skops->family == AF_INET6 && !skops->remote_ip6[0] &&
	       !skops->remote_ip6[1] && skops->remote_ip6[2] == bpf_htonl(0xffff);
}

static __always_inline void mlcc_set_cb(struct bpf_sock_ops *skops, u32 flag)
{
	bpf_sock_ops_cb_flags_set(skops, skops->bpf_sock_ops_cb_flags | flag);
}

/* The option, as a sender writes it: no records yet. */
static __always_inline void mlcc_write(struct bpf_sock_ops *skops)
{
	struct mlcc_opt_data opt = {
		.kind = MLCC_OPT_KIND,
		.len = MLCC_OPT_DATA_LEN,
		.exid = bpf_htons(MLCC_OPT_EXID),
		.vtf = MLCC_VTF(MLCC_TYPE_DATA, MLCC_F_CROSS),
	};

	if (bpf_store_hdr_opt(skops, &opt, sizeof(opt), 0))
		mlcc_count(MLCC_STAT_OPT_NO_ROOM);
	else
		mlcc_count(MLCC_STAT_OPT_WRITTEN);
}

/* The TCP header of the segment at hand, or NULL. */
static __always_inline const struct tcphdr *
mlcc_th(const struct bpf_sock_ops *skops)
{
	const struct tcphdr *th = (void *)(long)skops->skb_data;

	if ((void *)(th + 1) > (void *)(long)skops->skb_data_end)
		return NULL;
	return th;
}

/*
 * A received segment's flow, in the data's direction. The two addresses
 * are read apart: clang would merge them into one 8-byte load, which the
 * verifier refuses on the context.
 */
static __always_inline struct mlcc_flow4
mlcc_key(const struct bpf_sock_ops *skops, const struct tcphdr *th)
{
	struct mlcc_flow4 key;

	key.saddr = skops->remote_ip4;
	asm volatile("" ::: "memory");
	key.daddr = skops->local_ip4;
	key.sport = th->source;
	key.dport = th->dest;
	return key;
}

/* The receiver's record of the flow this segment belongs to. */
static __always_inline struct mlcc_rx_entry *
mlcc_rx_of(struct bpf_sock_ops *skops, const struct tcphdr *th)
{
	struct mlcc_flow4 key = mlcc_key(skops, th);
	struct mlcc_rx_entry *e = bpf_map_lookup_elem(&mlcc_rx, &key);
	static const struct mlcc_rx_entry zero;

	if (e)
		return e;
	bpf_map_update_elem(&mlcc_rx, &key, &zero, BPF_NOEXIST);
	e = bpf_map_lookup_elem(&mlcc_rx, &key);
	if (!e)
		mlcc_count(MLCC_STAT_RX_FLOWS_FULL);
	return e;
}

/*
 * A new connection (its handshake's last segment at hand) starts its
 * flow's record over: an earlier one on the same ports left its own.
 */
static __always_inline void mlcc_forget(struct bpf_sock_ops *skops)
{
	const struct tcphdr *th = mlcc_th(skops);
	struct mlcc_flow4 key;

	if (!th)
		return;
	key = mlcc_key(skops, th);
	bpf_map_delete_elem(&mlcc_rx, &key);
}

/* The credit loop's constants (spec 3.7) from the configuration. */
static __always_inline void mlcc_credit_params(const struct mlcc_cfg *c,
					       struct mlcc_params *p)
{
	mlcc_params_default(p, c->credit_line_rate, c->rtt_d_ns, c->rtt_c_ns);
	p->theta_ns = c->theta_ns;
	p->d_t_ns = c->d_t_ns;
}

/*
 * A segment DCI_r stamped (o), its n records in hops: Algorithm 1 on the
 * socket's loop, started at its first (on_first_data), and its state for
 * unoctl in the flow's record e.
 */
static __always_inline void mlcc_credit_take(struct bpf_sock_ops *skops,
					     struct mlcc_rx_entry *e,
					     const struct mlcc_opt_data *o,
					     const struct hpcc_hop *hops, u32 n,
					     const struct mlcc_cfg *c)
{
	struct bpf_sock *sk = skops->sk;
	struct mlcc_params p;
	struct mlcc_rcv *r;

	if (!sk)
		return;
	r = bpf_sk_storage_get(&mlcc_credit, sk, 0, BPF_SK_STORAGE_GET_F_CREATE);
	if (!r) {
		mlcc_count(MLCC_STAT_CREDIT_NO_STATE);
		return;
	}
	mlcc_credit_params(c, &p);
	if (!r->c_r)
		mlcc_rcv_init(r, &p);
	mlcc_count(MLCC_STAT_CREDIT_SEGS);
	e->info.dci_segs++;
	if (mlcc_rcv_on_data(r, &p, hops, n, bpf_ntohl(o->q_c), o->c_d, 1,
			     bpf_ktime_get_ns())) {
		mlcc_count(MLCC_STAT_CREDIT_ROUNDS);
		e->info.rounds++;
	}
	e->info.r_credit = r->r_credit;
	e->info.r_dqm = r->r_dqm;
	e->info.r_dqm_bar = r->r_dqm_bar;
	e->info.q_c = r->q_c;
	e->info.c_r = r->c_r;
	e->info.c_d = o->c_d;
}

/* The option's records into the flow's counters and its laws. */
static __always_inline void mlcc_take(struct bpf_sock_ops *skops,
				      struct mlcc_rx_entry *e,
				      const struct mlcc_opt_data *o,
				      const struct mlcc_cfg *c)
{
	struct hpcc_hop hops[HPCC_MAXHOP] = {};	/* hpcc_*() read up to HPCC_MAXHOP */
	u32 j, n = o->nhop >> 4;

	if (n > MLCC_DATA_HOPS)
		n = MLCC_DATA_HOPS;
	e->info.opts++;
	e->info.nhop[n]++;
	e->info.last_nhop = n;
	if (o->vtf & MLCC_F_OVERFLOW)
		e->info.overflow++;
	for (j = 0; j < MLCC_DATA_HOPS; j++) {
		if (j >= n)
			break;
		e->info.hop[j] = bpf_be64_to_cpu(o->hop[j]);
		hpcc_hop_unwire(e->info.hop[j], &hops[j]);
	}
	if (n && c->rtt_d_ns && c->rtt_d_ns <= HPCC_T_MAX) {
		hpcc_measure(&e->rc, hops, n, c->rtt_d_ns, bpf_ktime_get_ns());
		e->info.u = e->rc.u;
	}
	if (c->credit_line_rate && (o->vtf & MLCC_F_DCI_R))
		mlcc_credit_take(skops, e, o, hops, n, c);
}

/* A receiver, on a data segment (th its header): its option, if any. */
static __always_inline void mlcc_parse(struct bpf_sock_ops *skops,
				       const struct tcphdr *th,
				       const struct mlcc_cfg *c)
{
	u8 buf[MLCC_OPT_DATA_LEN] = { MLCC_OPT_KIND, 4, MLCC_OPT_EXID >> 8,
				      MLCC_OPT_EXID & 0xff };
	const struct mlcc_opt_data *o = (const void *)buf;
	struct mlcc_rx_entry *e;

	mlcc_count(MLCC_STAT_RX_SEGS);
	e = mlcc_rx_of(skops, th);
	if (!e)
		return;
	e->info.segs++;
	if (bpf_load_hdr_opt(skops, buf, sizeof(buf), 0) != MLCC_OPT_DATA_LEN ||
	    MLCC_VTF_VER(o->vtf) != MLCC_VERSION ||
	    MLCC_VTF_TYPE(o->vtf) != MLCC_TYPE_DATA)
		return;
	mlcc_take(skops, e, o, c);
}

/* A pure ACK: no payload, no SYN or FIN (before its header is built). */
static __always_inline bool mlcc_pure_ack(const struct bpf_sock_ops *skops)
{
	return !skops->skb_len && skops->skb_tcp_flags &&
	       !(skops->skb_tcp_flags & (TCPHDR_SYN | TCPHDR_FIN));
}

/*
 * The socket's received flow, in the data's direction: remote_port holds
 * the port in network order in its high 16 bits, local_port in host
 * order.
 */
static __always_inline struct mlcc_flow4
mlcc_rx_key(const struct bpf_sock_ops *skops)
{
	struct mlcc_flow4 key;

	key.saddr = skops->remote_ip4;
	asm volatile("" ::: "memory");
	key.daddr = skops->local_ip4;
	key.sport = bpf_htons(bpf_ntohl(skops->remote_port));
	key.dport = bpf_htons(skops->local_port);
	return key;
}

/* The records a receiver's pure ACK echoes: its flow's last, or none. */
static __always_inline const struct mlcc_rx_entry *
mlcc_echoed(const struct bpf_sock_ops *skops)
{
	struct mlcc_flow4 key = mlcc_rx_key(skops);
	const struct mlcc_rx_entry *e = bpf_map_lookup_elem(&mlcc_rx, &key);

	return e && e->info.last_nhop ? e : NULL;
}

/* A receiver's credit loop, if its flow has one (DCI_r stamped it). */
static __always_inline struct mlcc_rcv *
mlcc_credit_of(const struct bpf_sock_ops *skops)
{
	struct bpf_sock *sk = skops->sk;
	struct mlcc_rcv *r;

	if (!sk)
		return NULL;
	r = bpf_sk_storage_get(&mlcc_credit, sk, 0, 0);
	return r && r->c_r ? r : NULL;
}

/*
 * Room in a pure ACK: for the credit loop's ACK_X, or for the echo when
 * there are records to carry.
 */
static __always_inline void mlcc_ack_len(struct bpf_sock_ops *skops,
					 const struct mlcc_cfg *c)
{
	if (c->credit_line_rate && mlcc_credit_of(skops)) {
		if (bpf_reserve_hdr_opt(skops, MLCC_OPT_ACK_X_LEN, 0))
			mlcc_count(MLCC_STAT_ACK_X_NO_ROOM);	/* SACK blocks took it */
	} else if (c->hpcc_line_rate && mlcc_echoed(skops) &&
		   bpf_reserve_hdr_opt(skops, MLCC_OPT_ACK_E_LEN, 0)) {
		mlcc_count(MLCC_STAT_ECHO_NO_ROOM);
	}
}

/* kbit/s on the wire, rounded up: a rate above 0 stays above 0. */
static __always_inline __be32 mlcc_kbps(u64 rate)
{
	u64 k = (rate + 124) / 125;

	return bpf_htonl(k > 0xffffffffULL ? 0xffffffffU : (u32)k);
}

/* A receiver's pure ACK: its credit, R_credit and R_DQM_bar (ACK_X). */
static __always_inline bool mlcc_ack_x(struct bpf_sock_ops *skops)
{
	const struct mlcc_rcv *r = mlcc_credit_of(skops);
	struct mlcc_opt_ack_x opt = {
		.kind = MLCC_OPT_KIND,
		.len = MLCC_OPT_ACK_X_LEN,
		.exid = bpf_htons(MLCC_OPT_EXID),
		.vtf = MLCC_VTF(MLCC_TYPE_ACK_X, 0),
	};

	if (!r)
		return false;
	opt.c_r = r->c_r;
	opt.r_credit = mlcc_kbps(r->r_credit);
	opt.r_dqm_bar = mlcc_kbps(r->r_dqm_bar);
	if (bpf_store_hdr_opt(skops, &opt, sizeof(opt), 0))
		mlcc_count(MLCC_STAT_ACK_X_NO_ROOM);
	else
		mlcc_count(MLCC_STAT_ACK_X_WRITTEN);
	return true;
}

/* A receiver's pure ACK: its flow's last records. */
static __always_inline void mlcc_echo(struct bpf_sock_ops *skops)
{
	const struct mlcc_rx_entry *e = mlcc_echoed(skops);
	struct mlcc_opt_ack_e opt = {
		.kind = MLCC_OPT_KIND,
		.len = MLCC_OPT_ACK_E_LEN,
		.exid = bpf_htons(MLCC_OPT_EXID),
		.vtf = MLCC_VTF(MLCC_TYPE_ACK_E, 0),
	};
	u32 j, n;

	if (!e)
		return;		/* the kernel fills the room with NOPs */
	n = e->info.last_nhop;
	opt.nhop = n;
	for (j = 0; j < MLCC_DATA_HOPS; j++)
		if (j < n)
			opt.hop[j] = bpf_cpu_to_be64(e->info.hop[j]);
	if (bpf_store_hdr_opt(skops, &opt, sizeof(opt), 0))
		mlcc_count(MLCC_STAT_ECHO_NO_ROOM);
	else
		mlcc_count(MLCC_STAT_ECHO_WRITTEN);
}

/*
 * A sender's record of the flow an ACK acknowledges (the ACK's direction
 * swapped), bpf_mlcc's; a socket of another CC has none.
 */
static __always_inline struct mlcc_ns_entry *
mlcc_tx_entry(const struct bpf_sock_ops *skops)
{
	struct mlcc_flow4 key = mlcc_rx_key(skops);

	key = (struct mlcc_flow4){ .saddr = key.daddr, .daddr = key.saddr,
				   .sport = key.dport, .dport = key.sport };
	return bpf_map_lookup_elem(&mlcc_ns_flows, &key);
}

/* A sender's ACK_E: the echo into the flow's law. */
static __always_inline void mlcc_take_echo(struct bpf_sock_ops *skops,
					   const struct mlcc_opt_ack_e *o,
					   const struct mlcc_cfg *c)
{
	u64 wire[MLCC_SWINT_HOPS] = {};
	struct mlcc_ns_entry *e;
	struct hpcc_params hp;
	u64 t_ns;
	u32 j;

	if (!o->nhop || o->nhop > MLCC_DATA_HOPS) {
		mlcc_count(MLCC_STAT_ECHO_MALFORMED);
		return;
	}
	e = mlcc_tx_entry(skops);
	if (!e) {
		mlcc_count(MLCC_STAT_ECHO_NO_FLOW);
		return;
	}
	t_ns = (u64)e->info.base_rtt_us * 1000;	/* racy: a u32 */
	if (!t_ns) {
		mlcc_count(MLCC_STAT_ECHO_NO_RTT);
		return;
	}
	if (t_ns > HPCC_T_MAX)
		t_ns = HPCC_T_MAX;
	for (j = 0; j < MLCC_DATA_HOPS; j++)
		wire[j] = bpf_be64_to_cpu(o->hop[j]);
	hpcc_params_default(&hp, c->hpcc_line_rate);
	mlcc_ns_take(e, wire, o->nhop, &hp, t_ns, bpf_ktime_get_ns());
	mlcc_count(MLCC_STAT_ECHO_TAKEN);
}

/*
 * A sender's ACK_X: R_DQM_bar into the flow's record (Eq. 10's), held in
 * the receivers' bounds [R_min, R_max] (3.6's clamp; DCI_r holds R_credit
 * in the same).
 */
static __always_inline void mlcc_take_ack_x(struct bpf_sock_ops *skops,
					    const struct mlcc_opt_ack_x *o,
					    const struct mlcc_cfg *c)
{
	u64 r_dqm_bar = (u64)bpf_ntohl(o->r_dqm_bar) * 125;
	u64 r_min = hpcc_r_min(c->credit_line_rate);
	struct mlcc_ns_entry *e;

	if (!o->c_r || !r_dqm_bar || !o->r_credit) {
		mlcc_count(MLCC_STAT_ACK_X_MALFORMED);
		return;
	}
	if (r_dqm_bar < r_min)
		r_dqm_bar = r_min;
	if (r_dqm_bar > c->credit_line_rate)
		r_dqm_bar = c->credit_line_rate;
	e = mlcc_tx_entry(skops);
	if (!e) {
		mlcc_count(MLCC_STAT_ACK_X_NO_FLOW);
		return;
	}
	e->info.r_dqm_bar = r_dqm_bar;	/* a u64 bpf_mlcc reads whole */
	mlcc_count(MLCC_STAT_ACK_X_TAKEN);
}

/* A sender's pure ACK: its option, an echo or an ACK_X, if it runs. */
static __always_inline void mlcc_take_ack(struct bpf_sock_ops *skops,
					  const struct mlcc_cfg *c)
{
	u8 buf[MLCC_OPT_ACK_E_LEN] = { MLCC_OPT_KIND, 4, MLCC_OPT_EXID >> 8,
				       MLCC_OPT_EXID & 0xff };
	const struct mlcc_opt_ack_e *o = (const void *)buf;
	int len = bpf_load_hdr_opt(skops, buf, sizeof(buf), 0);

	if (MLCC_VTF_VER(o->vtf) != MLCC_VERSION)
		return;
	if (len == MLCC_OPT_ACK_E_LEN && c->hpcc_line_rate &&
	    MLCC_VTF_TYPE(o->vtf) == MLCC_TYPE_ACK_E)
		mlcc_take_echo(skops, o, c);
	else if (len == MLCC_OPT_ACK_X_LEN && c->credit_line_rate &&
		 MLCC_VTF_TYPE(o->vtf) == MLCC_TYPE_ACK_X)
		mlcc_take_ack_x(skops, (const void *)buf, c);
}

/*
 * The room reserved: a data segment's option, or a pure ACK's (a SYN or
 * FIN has none: mlcc_pure_ack()).
 */
static __always_inline void mlcc_write_any(struct bpf_sock_ops *skops,
					   const struct mlcc_cfg *c)
{
	const struct tcphdr *th = mlcc_th(skops);	/* built by now */

	if (!th)
		return;
	if (skops->skb_len > th->doff * 4U)
		mlcc_write(skops);
	else if (!th->syn && !th->fin &&
		 !(c->credit_line_rate && mlcc_ack_x(skops)) && c->hpcc_line_rate)
		mlcc_echo(skops);
}

/* A segment TCP validated: a data segment's option, or an ACK's. */
static __always_inline void mlcc_parse_any(struct bpf_sock_ops *skops,
					   const struct mlcc_cfg *c)
{
	const struct tcphdr *th = mlcc_th(skops);

	if (!th)
		return;
	if (skops->skb_len > th->doff * 4U)
		mlcc_parse(skops, th, c);
	else
		mlcc_take_ack(skops, c);
}

SEC("sockops")
int mlcc_sockops(struct bpf_sock_ops *skops)
{
	const struct mlcc_cfg *c = mlcc_get_cfg();
	bool acks;

	if (!c || !mlcc_ipv4(skops))
		return 1;
	acks = c->hpcc_line_rate || c->credit_line_rate;	/* options in ACKs */
	switch (skops->op) {
	case BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB:
		if (!mlcc_to_remote(c, skops->remote_ip4))
			break;
		mlcc_set_cb(skops, BPF_SOCK_OPS_WRITE_HDR_OPT_CB_FLAG |
			    (acks ? BPF_SOCK_OPS_PARSE_ALL_HDR_OPT_CB_FLAG : 0));
		break;
	case BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB:
		mlcc_set_cb(skops, BPF_SOCK_OPS_PARSE_ALL_HDR_OPT_CB_FLAG |
			    (acks ? BPF_SOCK_OPS_WRITE_HDR_OPT_CB_FLAG : 0));
		mlcc_forget(skops);
		break;
	case BPF_SOCK_OPS_HDR_OPT_LEN_CB:
		/* a data segment, or the MSS's question (no segment) */
		if (skops->skb_len || !skops->skb_tcp_flags)
			bpf_reserve_hdr_opt(skops, MLCC_OPT_DATA_LEN, 0);
		else if (acks && mlcc_pure_ack(skops))
			mlcc_ack_len(skops, c);
		break;
	case BPF_SOCK_OPS_WRITE_HDR_OPT_CB:
		mlcc_write_any(skops, c);
		break;
	case BPF_SOCK_OPS_PARSE_HDR_OPT_CB:
		mlcc_parse_any(skops, c);
		break;
	}
	return 1;
}
