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
 * PARSE_HDR_OPT_CB runs after TCP has validated the segment's sequence,
 * so an echo is one of the connection's own ACKs; its records are then
 * input like any switch's, which the law takes modulo their wraps.
 */
#include <linux/bpf.h>
#include <linux/tcp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "core_types.h"
#include "hpcc_core.h"
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

/* The option's records into the flow's counters and its law. */
static __always_inline void mlcc_take(struct mlcc_rx_entry *e,
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
	mlcc_take(e, o, c);
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

/* Room for the echo in a pure ACK that has records to carry. */
static __always_inline void mlcc_echo_len(struct bpf_sock_ops *skops)
{
	if (mlcc_echoed(skops) &&
	    bpf_reserve_hdr_opt(skops, MLCC_OPT_ACK_E_LEN, 0))
		mlcc_count(MLCC_STAT_ECHO_NO_ROOM);	/* SACK blocks took it */
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
 * A sender's pure ACK: its echo into the flow's law. The flow's record is
 * bpf_mlcc's; a socket of another CC has none.
 */
static __always_inline void mlcc_take_echo(struct bpf_sock_ops *skops,
					   const struct mlcc_cfg *c)
{
	u8 buf[MLCC_OPT_ACK_E_LEN] = { MLCC_OPT_KIND, 4, MLCC_OPT_EXID >> 8,
				       MLCC_OPT_EXID & 0xff };
	const struct mlcc_opt_ack_e *o = (const void *)buf;
	u64 wire[MLCC_SWINT_HOPS] = {};
	struct mlcc_ns_entry *e;
	struct mlcc_flow4 key;
	struct hpcc_params hp;
	u64 t_ns;
	u32 j;

	if (bpf_load_hdr_opt(skops, buf, sizeof(buf), 0) != MLCC_OPT_ACK_E_LEN ||
	    MLCC_VTF_VER(o->vtf) != MLCC_VERSION ||
	    MLCC_VTF_TYPE(o->vtf) != MLCC_TYPE_ACK_E)
		return;
	if (!o->nhop || o->nhop > MLCC_DATA_HOPS) {
		mlcc_count(MLCC_STAT_ECHO_MALFORMED);
		return;
	}
	key = mlcc_rx_key(skops);	/* the ACK's direction: swap */
	key = (struct mlcc_flow4){ .saddr = key.daddr, .daddr = key.saddr,
				   .sport = key.dport, .dport = key.sport };
	e = bpf_map_lookup_elem(&mlcc_ns_flows, &key);
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

/* The room reserved: a data segment's option, or a pure ACK's echo. */
static __always_inline void mlcc_write_any(struct bpf_sock_ops *skops)
{
	const struct tcphdr *th = mlcc_th(skops);	/* built by now */

	if (th && skops->skb_len > th->doff * 4U)
		mlcc_write(skops);
	else if (th)
		mlcc_echo(skops);
}

/* A segment TCP validated: a data segment's option, or an ACK's echo. */
static __always_inline void mlcc_parse_any(struct bpf_sock_ops *skops,
					   const struct mlcc_cfg *c)
{
	const struct tcphdr *th = mlcc_th(skops);

	if (!th)
		return;
	if (skops->skb_len > th->doff * 4U)
		mlcc_parse(skops, th, c);
	else if (c->hpcc_line_rate)
		mlcc_take_echo(skops, c);
}

SEC("sockops")
int mlcc_sockops(struct bpf_sock_ops *skops)
{
	const struct mlcc_cfg *c = mlcc_get_cfg();

	if (!c || !mlcc_ipv4(skops))
		return 1;
	switch (skops->op) {
	case BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB:
		if (!mlcc_to_remote(c, skops->remote_ip4))
			break;
		mlcc_set_cb(skops, BPF_SOCK_OPS_WRITE_HDR_OPT_CB_FLAG |
			    (c->hpcc_line_rate ? BPF_SOCK_OPS_PARSE_ALL_HDR_OPT_CB_FLAG : 0));
		break;
	case BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB:
		mlcc_set_cb(skops, BPF_SOCK_OPS_PARSE_ALL_HDR_OPT_CB_FLAG |
			    (c->hpcc_line_rate ? BPF_SOCK_OPS_WRITE_HDR_OPT_CB_FLAG : 0));
		mlcc_forget(skops);
		break;
	case BPF_SOCK_OPS_HDR_OPT_LEN_CB:
		/* a data segment, or the MSS's question (no segment) */
		if (skops->skb_len || !skops->skb_tcp_flags)
			bpf_reserve_hdr_opt(skops, MLCC_OPT_DATA_LEN, 0);
		else if (c->hpcc_line_rate && mlcc_pure_ack(skops))
			mlcc_echo_len(skops);
		break;
	case BPF_SOCK_OPS_WRITE_HDR_OPT_CB:
		mlcc_write_any(skops);
		break;
	case BPF_SOCK_OPS_PARSE_HDR_OPT_CB:
		mlcc_parse_any(skops, c);
		break;
	}
	return 1;
}
