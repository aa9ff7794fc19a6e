// SPDX-License-Identifier: GPL-2.0
/*
 * MLCC's near-source loop (L1; ../shared/spec/mlcc.md 3.3, 4.1): the
 * sender's DCI returns the records its DC's switch ports stamped, so that
 * the sender's rate R_NS follows its own DC at intra-DC speed, and clears
 * them before the WAN, so that DC B's ports find the option free.
 *
 *   mlcc_dci_egress  tc egress, each WAN port of DCI_s: a data segment
 *                    whose option has the X flag and records is cloned,
 *                    marked, to the LAN port's ingress; its records are
 *                    cleared (the TCP checksum follows) and it leaves.
 *   mlcc_dci_build   tc ingress, DCI_s's LAN port: a marked clone made
 *                    the Switch-INT (Ethernet, IPv4, UDP, struct
 *                    mlcc_swint) and sent to the data's sender by the
 *                    DCI's own route (reflector.h); everything else
 *                    passes.
 *   mlcc_host_swint  tc ingress, a sender's device: a Switch-INT from a
 *                    known DCI about a flow of bpf_mlcc (which makes its
 *                    record, mlcc_ns_flows.h) goes into the flow's law
 *                    (hpcc_core.h, T = RTT_NS), and never to the stack.
 *
 * The receiver's DCI (L2; 3.4.1) keeps a queue per cross-DC flow, drained
 * at the R_credit its receiver advertised last:
 *
 *   mlcc_pfq_egress  tc egress, DCI_r's LAN port: a data segment with the
 *                    option gets its flow's departure time (EDT: the port's
 *                    fq qdisc holds it until then, the flows' queues
 *                    apart), and the option DCI_r's C_D, the flow's Q_c
 *                    and the D flag, its records erased; the first of a
 *                    flow makes its queue at R_init, a FIN or RST frees it;
 *                    a queue a second long drops what comes (tail drop).
 *   mlcc_pfq_ack     tc ingress, the same port: an ACK_X sets its flow's
 *                    rate to R_credit and C_D to C_R if newer; the ACK
 *                    goes on unchanged, R_DQM_bar to the sender.
 *
 * That is the spec's EDT approximation of a PFQ qdisc (4.1): a tc program
 * runs before the qdisc, so a new rate times only the segments that come
 * after it, Q_c is the flow's backlog ahead of the segment (its departure
 * time's lead over now, at its rate), and C_D is stamped at enqueue: a
 * credit round is the DCI_r -> receiver -> DCI_r round trip plus the
 * queue's wait, where the spec stamps at dequeue to leave the wait out.
 *
 * The WAN port's own record cannot be added here: tc egress runs before
 * the port's qdisc. A round of the law is one RTT_NS of the host's clock
 * (the spec's round ends at the snd_nxt of the last commit, which a tc
 * program does not see; a round trip to DCI_s is the same in steady
 * state).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "core_types.h"
#include "hpcc_core.h"
#include "mlcc_core.h"
#include "mlcc_types.h"
#include "mlcc_ns_flows.h"
#include "reflector.h"

char _license[] SEC("license") = "GPL";

/* the next filter on the hook, if any, then the stack */
#define MLCC_PASS		TC_ACT_UNSPEC
#define MLCC_MAX_DCIS		64
#define MLCC_TCP_OPT_MAX	40
#define MLCC_TCPOPT_EOL		0
#define MLCC_TCPOPT_NOP		1

#define MLCC_SWINT_LEN		(REFL_DATA_OFF + sizeof(struct mlcc_swint))
#define MLCC_PFQ_MAX		4096	/* PFQ_MAX (spec 3.7) */
/*
 * A queue's lead over now, ns: its buffer, a second at its rate (fq's
 * default horizon is ten); lead x rate (< 2^34) stays in 64 bits.
 */
#define MLCC_PFQ_LEAD_MAX	BIT_ULL(30)

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct mlcc_ns_cfg);
} mlcc_ns_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, __MLCC_NS_STAT_MAX);
	__type(key, u32);
	__type(value, u64);
} mlcc_ns_stats SEC(".maps");

/* sender: the DCIs whose Switch-INTs are taken, by IPv4 address */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MLCC_MAX_DCIS);
	__type(key, __be32);
	__type(value, u8);
} mlcc_dcis SEC(".maps");

/* DCI_r: the cross-DC flows' queues, by the data's direction */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MLCC_PFQ_MAX);
	/* a queue freed on one CPU is not reused while another holds it */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct mlcc_flow4);
	__type(value, struct mlcc_pfq_entry);
} mlcc_pfq SEC(".maps");

static __always_inline void mlcc_ns_count(u32 stat)
{
	u64 *n = bpf_map_lookup_elem(&mlcc_ns_stats, &stat);

	if (n)
		*n += 1;
}

static __always_inline const struct mlcc_ns_cfg *mlcc_ns_conf(void)
{
	u32 zero = 0;

	return bpf_map_lookup_elem(&mlcc_ns_cfg, &zero);
}

/* Offset of segment p's TCP options in skb. */
static __always_inline u32 mlcc_opts_off(const struct refl_tcp4 *p)
{
	return ETH_HLEN + p->ip.ihl * 4 + sizeof(struct tcphdr);
}

/* The walk of a segment's TCP options, one option a step (bpf_loop). */
#define MLCC_OPT_BUF	64
struct mlcc_opt_walk {
	u8 opts[MLCC_OPT_BUF];	/* indices masked to it: bounds the verifier follows */
	u32 len;
	u32 i;
	u32 want;		/* the length of the option sought */
	int found;		/* its offset; -1: none */
};

static long mlcc_opt_step(u32 n, struct mlcc_opt_walk *w)
{
	u32 i = w->i;
	u8 kind, olen;

	if (i + 1 >= w->len)
		return 1;
	kind = w->opts[i & (MLCC_OPT_BUF - 1)];
	if (kind == MLCC_TCPOPT_EOL)
		return 1;
	if (kind == MLCC_TCPOPT_NOP) {
		w->i = i + 1;
		return 0;
	}
	olen = w->opts[(i + 1) & (MLCC_OPT_BUF - 1)];
	if (olen < 2)
		return 1;
	if (kind == MLCC_OPT_KIND && olen == w->want && i + olen <= w->len &&
	    w->opts[(i + 2) & (MLCC_OPT_BUF - 1)] == MLCC_OPT_EXID >> 8 &&
	    w->opts[(i + 3) & (MLCC_OPT_BUF - 1)] == (MLCC_OPT_EXID & 0xff)) {
		w->found = i;
		return 1;
	}
	w->i = i + olen;
	return 0;
}

/*
 * The offset among segment p's options of the first MLCC option of len
 * bytes; -1 if it has none (or its options run past their space).
 */
static __always_inline int mlcc_opt_walk(struct __sk_buff *skb,
					 const struct refl_tcp4 *p, u32 want)
{
	struct mlcc_opt_walk w = { .want = want, .found = -1 };
	/* doff >= 5 (refl_parse_tcp4); the mask tells the verifier */
	u32 len = (p->tcp.doff * 4 - sizeof(struct tcphdr)) & 0x3f;

	/*
	 * len in whole words, bounded in a register as 6.1's verifier follows
	 * (a bound spilled to the stack is lost; != 0 sets no lower bound)
	 */
	if (len < 4 || len > MLCC_TCP_OPT_MAX ||
	    bpf_skb_load_bytes(skb, mlcc_opts_off(p), w.opts, len))
		return -1;
	w.len = len;
	bpf_loop(MLCC_TCP_OPT_MAX, mlcc_opt_step, &w, 0);
	return w.found;
}

/* The data option of segment p in *o, and its offset; -1 if none. */
static __always_inline int mlcc_opt_find(struct __sk_buff *skb,
					 const struct refl_tcp4 *p,
					 struct mlcc_opt_data *o)
{
	int off = mlcc_opt_walk(skb, p, MLCC_OPT_DATA_LEN);

	if (off < 0 || off > MLCC_TCP_OPT_MAX - MLCC_OPT_DATA_LEN ||
	    bpf_skb_load_bytes(skb, mlcc_opts_off(p) + off, o, sizeof(*o)) ||
	    o->exid != bpf_htons(MLCC_OPT_EXID) ||
	    MLCC_VTF_VER(o->vtf) != MLCC_VERSION ||
	    MLCC_VTF_TYPE(o->vtf) != MLCC_TYPE_DATA)
		return -1;
	return off;
}

/* A cross-DC data segment with records: the option's offset, else -1. */
static __always_inline int mlcc_dci_segment(struct __sk_buff *skb,
					    struct refl_tcp4 *p,
					    struct mlcc_opt_data *o)
{
	int off;

	if (!refl_parse_tcp4(skb, p) || !p->payload)
		return -1;
	off = mlcc_opt_find(skb, p, o);
	if (off < 0 || !(o->vtf & MLCC_F_CROSS) || !(o->nhop >> 4))
		return -1;
	return off;
}

/*
 * Option o, at offset off among p's options, rewritten as n. The TCP
 * checksum takes the change as a difference over the 32 bytes after the
 * option's ExID, rotated a byte when they start at an odd offset in the
 * header (RFC 1071 2(B)).
 */
static __always_inline bool mlcc_opt_rewrite(struct __sk_buff *skb,
					     const struct refl_tcp4 *p,
					     const struct mlcc_opt_data *o,
					     struct mlcc_opt_data *n, u32 off)
{
	u32 at = mlcc_opts_off(p) + off + 4;
	s64 diff;

	diff = bpf_csum_diff((__be32 *)((u8 *)o + 4), 32, (__be32 *)((u8 *)n + 4),
			     32, 0);
	if (diff < 0)
		return false;
	diff = (diff & 0xffff) + (diff >> 16);
	diff = (diff & 0xffff) + (diff >> 16);
	if (off & 1)
		diff = ((diff & 0xff) << 8) | (diff >> 8);
	return !bpf_skb_store_bytes(skb, at, (u8 *)n + 4, 32, 0) &&
	       !bpf_l4_csum_replace(skb, ETH_HLEN + p->ip.ihl * 4 +
				    offsetof(struct tcphdr, check), 0, diff, 0);
}

/* The records of option o cleared: no records, no O flag, the hops zero. */
static __always_inline bool mlcc_dci_clear(struct __sk_buff *skb,
					   const struct refl_tcp4 *p,
					   const struct mlcc_opt_data *o, u32 off)
{
	struct mlcc_opt_data n = *o;

	n.vtf &= ~MLCC_F_OVERFLOW;
	n.nhop = 0;
	__builtin_memset(n.hop, 0, sizeof(n.hop));
	return mlcc_opt_rewrite(skb, p, o, &n, off);
}

SEC("tc")
int mlcc_dci_egress(struct __sk_buff *skb)
{
	const struct mlcc_ns_cfg *cfg = mlcc_ns_conf();
	struct mlcc_opt_data o;
	struct refl_tcp4 p;
	u32 mark;
	int off;

	if (!cfg)
		return MLCC_PASS;
	off = mlcc_dci_segment(skb, &p, &o);
	if (off < 0)
		return MLCC_PASS;
	mlcc_ns_count(MLCC_NS_STAT_DCI_DATA);
	/*
	 * the clone, with the records, to the LAN port's ingress; not of a
	 * GSO packet, whose clone would stay one (and its records are one
	 * segment's), as Reflex's NSF answers none
	 */
	mark = skb->mark;
	skb->mark = MLCC_SWINT_MARK;
	if (skb->gso_segs > 1 ||
	    bpf_clone_redirect(skb, cfg->lan_ifindex, BPF_F_INGRESS))
		mlcc_ns_count(MLCC_NS_STAT_DCI_CLONE_ERR);
	skb->mark = mark;
	if (mlcc_dci_clear(skb, &p, &o, off))
		mlcc_ns_count(MLCC_NS_STAT_DCI_CLEARED);
	return MLCC_PASS;
}

/* The Switch-INT of segment p, whose option is o (3.3, 3.8). */
static __always_inline bool mlcc_swint_frame(const struct refl_tcp4 *p,
					     const struct mlcc_opt_data *o,
					     const struct mlcc_ns_cfg *cfg,
					     u8 frame[MLCC_SWINT_LEN])
{
	struct mlcc_swint sw = {};
	struct udphdr udp;
	struct iphdr ip;
	u32 j, n = o->nhop >> 4;

	if (!refl_ip4_udp(&ip, &udp, cfg->lan_addr, p->ip.saddr,
			  bpf_htons(MLCC_SWINT_PORT), MLCC_SWINT_LEN - ETH_HLEN))
		return false;
	sw.magic = bpf_htons(MLCC_OPT_EXID);
	sw.vtf = MLCC_VTF(MLCC_TYPE_SWINT, 0);
	sw.nhop = n < MLCC_DATA_HOPS ? n : MLCC_DATA_HOPS;
	sw.saddr = p->ip.saddr;
	sw.daddr = p->ip.daddr;
	sw.sport = p->tcp.source;
	sw.dport = p->tcp.dest;
	sw.seq_end = bpf_htonl(bpf_ntohl(p->tcp.seq) + p->payload);
	sw.ts_dci = bpf_htonl((u32)bpf_ktime_get_ns());
	for (j = 0; j < MLCC_DATA_HOPS; j++)
		if (j < sw.nhop)
			sw.hop[j] = o->hop[j];
	refl_frame_hdrs(frame, &ip, &udp);
	__builtin_memcpy(frame + REFL_DATA_OFF, &sw, sizeof(sw));
	return true;
}

SEC("tc")
int mlcc_dci_build(struct __sk_buff *skb)
{
	const struct mlcc_ns_cfg *cfg;
	u8 frame[MLCC_SWINT_LEN];
	struct mlcc_opt_data o;
	struct refl_tcp4 p;
	bool routed;
	int rc;

	if ((skb->mark & MLCC_SWINT_MARK_MASK) != MLCC_SWINT_MARK)
		return MLCC_PASS;
	skb->mark = 0;
	cfg = mlcc_ns_conf();
	if (!cfg || mlcc_dci_segment(skb, &p, &o) < 0 ||
	    !mlcc_swint_frame(&p, &o, cfg, frame) ||
	    bpf_skb_change_tail(skb, MLCC_SWINT_LEN, 0) ||
	    bpf_skb_store_bytes(skb, 0, frame, MLCC_SWINT_LEN, 0)) {
		mlcc_ns_count(MLCC_NS_STAT_SWINT_BUILD_ERR);
		return TC_ACT_SHOT;
	}
	rc = refl_send(skb, p.ip.saddr, &routed);
	mlcc_ns_count(routed ? MLCC_NS_STAT_SWINT_BUILT : MLCC_NS_STAT_SWINT_NO_ROUTE);
	return rc;
}

/* The verdict on a datagram that is not a Switch-INT to take. */
#define MLCC_SWINT_TAKE	TC_ACT_OK

/*
 * A Switch-INT's payload in *sw, if skb is a datagram to the port from a
 * known DCI: MLCC_SWINT_TAKE, or the verdict on what it is instead. A DCI
 * answers a segment of this host's (3.3): one that names another
 * source, or carries no record or more than it can, is forged.
 */
static __always_inline int mlcc_swint_parse(struct __sk_buff *skb,
					    struct mlcc_swint *sw)
{
	struct udphdr udp;
	struct iphdr ip;
	u32 off;

	if (skb->protocol != bpf_htons(ETH_P_IP) ||
	    bpf_skb_load_bytes(skb, ETH_HLEN, &ip, sizeof(ip)) ||
	    ip.ihl < 5 || ip.protocol != IPPROTO_UDP ||
	    (ip.frag_off & bpf_htons(REFL_IP_MF_OFFSET)))
		return MLCC_PASS;
	off = ETH_HLEN + ip.ihl * 4;
	if (bpf_skb_load_bytes(skb, off, &udp, sizeof(udp)) ||
	    udp.dest != bpf_htons(MLCC_SWINT_PORT))
		return MLCC_PASS;
	if (!bpf_map_lookup_elem(&mlcc_dcis, &ip.saddr)) {
		mlcc_ns_count(MLCC_NS_STAT_SWINT_FOREIGN);
		return MLCC_PASS;	/* not ours: the stack's */
	}
	if (bpf_ntohs(udp.len) < sizeof(udp) + sizeof(*sw) ||
	    udp.source != bpf_htons(MLCC_SWINT_PORT) ||
	    bpf_skb_load_bytes(skb, off + sizeof(udp), sw, sizeof(*sw)) ||
	    sw->magic != bpf_htons(MLCC_OPT_EXID) ||
	    sw->vtf != MLCC_VTF(MLCC_TYPE_SWINT, 0) ||
	    !sw->nhop || sw->nhop > MLCC_SWINT_HOPS || sw->saddr != ip.daddr) {
		mlcc_ns_count(MLCC_NS_STAT_SWINT_MALFORMED);
		return TC_ACT_SHOT;
	}
	return MLCC_SWINT_TAKE;
}

SEC("tc")
int mlcc_host_swint(struct __sk_buff *skb)
{
	const struct mlcc_ns_cfg *cfg = mlcc_ns_conf();
	struct mlcc_ns_entry *e;
	struct hpcc_params hp;
	struct mlcc_swint sw;
	u64 wire[MLCC_SWINT_HOPS];
	struct mlcc_flow4 key;
	int rc;
	u32 j;

	if (!cfg)
		return MLCC_PASS;
	rc = mlcc_swint_parse(skb, &sw);
	if (rc != MLCC_SWINT_TAKE)
		return rc;
	key.saddr = sw.saddr;
	key.daddr = sw.daddr;
	key.sport = sw.sport;
	key.dport = sw.dport;
	e = bpf_map_lookup_elem(&mlcc_ns_flows, &key);
	if (!e) {
		mlcc_ns_count(MLCC_NS_STAT_SWINT_NO_FLOW);
		return TC_ACT_SHOT;
	}
	for (j = 0; j < MLCC_SWINT_HOPS; j++)
		wire[j] = bpf_be64_to_cpu(sw.hop[j]);
	hpcc_params_default(&hp, cfg->line_rate);
	mlcc_ns_take(e, wire, sw.nhop, &hp, cfg->rtt_ns_ns, bpf_ktime_get_ns());
	mlcc_ns_count(MLCC_NS_STAT_SWINT_TAKEN);
	/* feedback for the CC: TCP never sees it */
	return TC_ACT_SHOT;
}

/* DCI_r's queue of flow key, made at R_init if it has none. */
static __always_inline struct mlcc_pfq_entry *
mlcc_pfq_of(const struct mlcc_flow4 *key, const struct mlcc_ns_cfg *cfg)
{
	struct mlcc_pfq_entry fresh = { .info.rate = cfg->line_rate };
	struct mlcc_pfq_entry *q = bpf_map_lookup_elem(&mlcc_pfq, key);

	if (q)
		return q;
	bpf_map_update_elem(&mlcc_pfq, key, &fresh, BPF_NOEXIST);
	q = bpf_map_lookup_elem(&mlcc_pfq, key);
	if (!q)
		mlcc_ns_count(MLCC_NS_STAT_PFQ_FULL);
	return q;
}

/*
 * A segment of len bytes into queue q at now: its departure time, at
 * the queue's rate after the segments ahead of it, and what the option
 * is to carry, the credit learnt last and the backlog ahead (Q_c); 0 if
 * the queue's buffer is full (the spec's tail drop), its time not taken.
 */
static __always_inline u64 mlcc_pfq_time(struct mlcc_pfq_entry *q, u32 len,
					 u64 now, struct mlcc_opt_data *n)
{
	u64 t, lead, q_c;

	bpf_spin_lock(&q->lock);
	t = q->info.next_tx_ns > now ? q->info.next_tx_ns : now;
	lead = t - now;
	if (lead >= MLCC_PFQ_LEAD_MAX) {
		bpf_spin_unlock(&q->lock);
		return 0;
	}
	/* rate in [R_min, R_init] (mlcc_pfq_ack) */
	q_c = lead * q->info.rate / MLCC_NSEC;
	q->info.next_tx_ns = t + (u64)len * MLCC_NSEC / q->info.rate;
	q->info.pkts++;
	q->info.bytes += len;
	q->info.q_c = q_c;
	n->c_d = q->info.c_d;
	bpf_spin_unlock(&q->lock);
	n->q_c = bpf_htonl(q_c > 0xffffffffULL ? 0xffffffffU : (u32)q_c);
	return t;
}

/*
 * A data segment of flow key with the option o at off: timed by its
 * queue, which its first makes, and stamped (3.4.1: DCI_r erases the INT
 * that arrives, and stamps C_D, Q_c and the D flag). False if its queue
 * is full: the segment is to be dropped.
 */
static __always_inline bool mlcc_pfq_stamp(struct __sk_buff *skb,
					   const struct refl_tcp4 *p,
					   const struct mlcc_opt_data *o, u32 off,
					   const struct mlcc_flow4 *key,
					   const struct mlcc_ns_cfg *cfg)
{
	struct mlcc_pfq_entry *q = mlcc_pfq_of(key, cfg);
	struct mlcc_opt_data n = *o;
	u64 t;

	if (!q)
		return true;	/* the shared queue: the port's rate */
	n.vtf = (n.vtf & ~MLCC_F_OVERFLOW) | MLCC_F_DCI_R;
	n.nhop = 0;
	__builtin_memset(n.hop, 0, sizeof(n.hop));
	t = mlcc_pfq_time(q, skb->len, bpf_ktime_get_ns(), &n);
	if (!t) {
		mlcc_ns_count(MLCC_NS_STAT_PFQ_DROPS);
		return false;
	}
	skb->tstamp = t;
	if (mlcc_opt_rewrite(skb, p, o, &n, off))
		mlcc_ns_count(MLCC_NS_STAT_PFQ_DATA);
	else
		mlcc_ns_count(MLCC_NS_STAT_PFQ_REWRITE_ERR);
	return true;
}

/*
 * A FIN or RST of flow key: it leaves behind the flow's queue (fq would
 * send an earlier time first), and the queue goes with the flow (3.4.1's
 * reclamation).
 */
static __always_inline void mlcc_pfq_close(struct __sk_buff *skb,
					   const struct mlcc_flow4 *key)
{
	struct mlcc_pfq_entry *q = bpf_map_lookup_elem(&mlcc_pfq, key);
	u64 t;

	if (!q)
		return;
	bpf_spin_lock(&q->lock);
	t = q->info.next_tx_ns;
	bpf_spin_unlock(&q->lock);
	if (t > skb->tstamp)
		skb->tstamp = t;
	if (!bpf_map_delete_elem(&mlcc_pfq, key))
		mlcc_ns_count(MLCC_NS_STAT_PFQ_CLOSED);
}

SEC("tc")
int mlcc_pfq_egress(struct __sk_buff *skb)
{
	const struct mlcc_ns_cfg *cfg = mlcc_ns_conf();
	struct mlcc_opt_data o;
	struct mlcc_flow4 key;
	struct refl_tcp4 p;
	int off;

	if (!cfg || !refl_parse_tcp4(skb, &p))
		return MLCC_PASS;
	key.saddr = p.ip.saddr;
	key.daddr = p.ip.daddr;
	key.sport = p.tcp.source;
	key.dport = p.tcp.dest;
	if (p.payload) {
		off = mlcc_opt_find(skb, &p, &o);
		if (off >= 0 && !mlcc_pfq_stamp(skb, &p, &o, off, &key, cfg))
			return TC_ACT_SHOT;
	}
	if (p.tcp.fin || p.tcp.rst)
		mlcc_pfq_close(skb, &key);
	return MLCC_PASS;
}

/* The ACK_X of segment p in *o; false if it has none. */
static __always_inline bool mlcc_ack_x_find(struct __sk_buff *skb,
					    const struct refl_tcp4 *p,
					    struct mlcc_opt_ack_x *o)
{
	int off = mlcc_opt_walk(skb, p, MLCC_OPT_ACK_X_LEN);

	return off >= 0 && off <= MLCC_TCP_OPT_MAX - MLCC_OPT_ACK_X_LEN &&
	       !bpf_skb_load_bytes(skb, mlcc_opts_off(p) + off, o, sizeof(*o)) &&
	       o->exid == bpf_htons(MLCC_OPT_EXID) &&
	       MLCC_VTF_VER(o->vtf) == MLCC_VERSION &&
	       MLCC_VTF_TYPE(o->vtf) == MLCC_TYPE_ACK_X;
}

SEC("tc")
int mlcc_pfq_ack(struct __sk_buff *skb)
{
	const struct mlcc_ns_cfg *cfg = mlcc_ns_conf();
	struct mlcc_opt_ack_x o;
	struct mlcc_pfq_entry *q;
	struct mlcc_flow4 key;
	struct refl_tcp4 p;
	u64 rate, r_min;
	u8 c_d;

	if (!cfg || !refl_parse_tcp4(skb, &p) || !mlcc_ack_x_find(skb, &p, &o))
		return MLCC_PASS;
	rate = (u64)bpf_ntohl(o.r_credit) * 125;
	if (!o.c_r || !rate) {
		mlcc_ns_count(MLCC_NS_STAT_PFQ_ACK_MALFORMED);
		return MLCC_PASS;
	}
	/* the receiver's credit law keeps R_credit in [R_min, R_init] */
	r_min = hpcc_r_min(cfg->line_rate);
	if (rate < r_min)
		rate = r_min;
	if (rate > cfg->line_rate)
		rate = cfg->line_rate;
	key.saddr = p.ip.daddr;		/* the data's direction */
	key.daddr = p.ip.saddr;
	key.sport = p.tcp.dest;
	key.dport = p.tcp.source;
	q = bpf_map_lookup_elem(&mlcc_pfq, &key);
	if (!q) {
		mlcc_ns_count(MLCC_NS_STAT_PFQ_ACK_NO_FLOW);
		return MLCC_PASS;
	}
	bpf_spin_lock(&q->lock);
	c_d = q->info.c_d;
	mlcc_dci_learn(&c_d, o.c_r);
	q->info.c_d = c_d;
	q->info.rate = rate;
	q->info.acks++;
	bpf_spin_unlock(&q->lock);
	mlcc_ns_count(MLCC_NS_STAT_PFQ_ACK_X);
	return MLCC_PASS;
}
