// SPDX-License-Identifier: GPL-2.0
/*
 * The entropy datapath: tc/clsact programs that choose each UDP packet's
 * path by its source port (../shared/spec/arcane.md sections 3.2-3.6),
 * and each IPv6 TCP segment's by its flow label (3.7, without the UDP
 * tunnel).
 *
 * lb_egress, on a sender's uplink, gives each data packet of a handled
 * flow (lb_policy: by UDP destination port) an entropy value (EV) by the
 * configured mode (struct lb_cfg) and writes it as the source port
 * ev_base + EV, and into the shim. lb_ingress, on the same uplink, reads
 * the EV and CE bit the receiver echoed in its ACK or NACK and feeds
 * them to the flow's law. A TCP segment's EV goes into its flow label,
 * and under ARCANE a data segment's EV into the flow's sequence log, from
 * which lb_ingress recovers the EVs each ACK covers. The laws are
 * kernel/core's, the same functions the unit tests drive; this file only
 * parses, locks and rewrites.
 *
 * A flow's state lives in a HASH map (an LRU map cannot hold a
 * bpf_spin_lock) under its lock; the lock is never held across a helper
 * call, so time and randomness are read before it is taken.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "uno_lb.h"
#include "core_types.h"
#include "arcane_core.h"
#include "arcane_txlog.h"
#include "flowlet_core.h"
#include "plb_core.h"
#include "lb_params.h"

#define LB_MAX_FLOWS	65536
#define LB_MAX_TXLOGS	4096

struct lb_flow {
	struct bpf_spin_lock lock;
	struct arcane_flow arcane;
	struct flowlet_flow flowlet;
	struct plb_flow plb;
	u16 cur_ev;		/* ECMP: the flow's EV; TCP under ARCANE: the last */
	u16 rr;			/* SPRAY_RR: the next EV */
	u64 last_tx_ns;
	u64 last_fb_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct lb_cfg);
} lb_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LB_MAX_POLICIES);
	__type(key, struct lb_policy_key);
	__type(value, struct lb_policy_val);
} lb_policy SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LB_MAX_FLOWS);
	__type(key, struct lb_flow_key);
	__type(value, struct lb_flow);
} lb_flows SEC(".maps");

/*
 * ARCANE over TCP: each flow's sequence-to-EV log (arcane_txlog.h), 816
 * bytes, written under the flow's lock in lb_flows. LRU, since TCP flows
 * come and go: a live flow whose log was evicted starts a new one, which
 * only loses what the old one would have taught. An LRU map reuses an
 * evicted element at once, so a CPU still holding the evicted flow's
 * pointer can write into the new owner's log under the other flow's lock:
 * that corrupts only the two logs' entries (every index is masked, and
 * an EV of num_ev or more is ignored by the law), a loss of information
 * of the same kind, while more than LB_MAX_TXLOGS flows are live.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, LB_MAX_TXLOGS);
	__type(key, struct lb_flow_key);
	__type(value, struct arcane_txlog);
} lb_txlogs SEC(".maps");

/* A new log, all zeros: too big for the stack. */
static const struct arcane_txlog lb_txlog_zero;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, __LB_STAT_MAX);
	__type(key, u32);
	__type(value, u64);
} lb_stats SEC(".maps");

/* Packets sent per EV: what a test or unoctl reads a spread from. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, LB_MAX_EV);
	__type(key, u32);
	__type(value, u64);
} lb_ev_hist SEC(".maps");

static __always_inline void lb_count_n(u32 stat, u64 n)
{
	u64 *v = bpf_map_lookup_elem(&lb_stats, &stat);

	if (v)
		*v += n;
}

static __always_inline void lb_count(u32 stat)
{
	lb_count_n(stat, 1);
}

/* Where a parsed packet's fields are, and its flow. */
struct lb_pkt {
	struct lb_flow_key key;
	u32 l4_off;		/* from the start of the frame */
	u32 csum_off;		/* UDP */
	u32 shim_off;		/* UDP */
	u32 seq;		/* TCP, host order */
	u32 end_seq;		/* TCP: seq + data + SYN + FIN */
	u32 ack_seq;		/* TCP */
	u8 tcp_flags;		/* TCP: CWR ECE URG ACK PSH RST SYN FIN */
};

#define LB_TCP_FIN	0x01
#define LB_TCP_SYN	0x02
#define LB_TCP_ACK	0x10
#define LB_TCP_ECE	0x40

/* IPv4 carries UDP only: its TCP has no field to steer by (lb.rst). */
static __always_inline bool lb_parse_ipv4(struct __sk_buff *skb,
					  struct lb_pkt *p)
{
	struct iphdr ip;

	if (bpf_skb_load_bytes(skb, ETH_HLEN, &ip, sizeof(ip)) ||
	    ip.ihl < 5 || ip.protocol != IPPROTO_UDP)
		return false;
	/* A fragment's UDP header, if any, is in its first one alone. */
	if (ip.frag_off & bpf_htons(0x3fff))
		return false;
	p->key.saddr[10] = 0xff;
	p->key.saddr[11] = 0xff;
	__builtin_memcpy(&p->key.saddr[12], &ip.saddr, 4);
	p->key.daddr[10] = 0xff;
	p->key.daddr[11] = 0xff;
	__builtin_memcpy(&p->key.daddr[12], &ip.daddr, 4);
	p->key.proto = IPPROTO_UDP;
	p->l4_off = ETH_HLEN + ip.ihl * 4;
	return true;
}

/* UDP or TCP straight after the fixed header: extension headers are skipped. */
static __always_inline bool lb_parse_ipv6(struct __sk_buff *skb,
					  struct lb_pkt *p)
{
	struct ipv6hdr ip6;

	if (bpf_skb_load_bytes(skb, ETH_HLEN, &ip6, sizeof(ip6)) ||
	    (ip6.nexthdr != IPPROTO_UDP && ip6.nexthdr != IPPROTO_TCP))
		return false;
	__builtin_memcpy(p->key.saddr, &ip6.saddr, 16);
	__builtin_memcpy(p->key.daddr, &ip6.daddr, 16);
	p->key.proto = ip6.nexthdr;
	p->l4_off = ETH_HLEN + sizeof(ip6);
	return true;
}

static __always_inline bool lb_parse_udp(struct __sk_buff *skb,
					 struct lb_pkt *p)
{
	struct udphdr udp;

	if (bpf_skb_load_bytes(skb, p->l4_off, &udp, sizeof(udp)) ||
	    bpf_ntohs(udp.len) < sizeof(udp) + sizeof(struct lb_shim))
		return false;
	p->key.sport = udp.source;
	p->key.dport = udp.dest;
	p->csum_off = p->l4_off + offsetof(struct udphdr, check);
	p->shim_off = p->l4_off + sizeof(udp);
	return true;
}

static __always_inline bool lb_parse_tcp(struct __sk_buff *skb,
					 struct lb_pkt *p)
{
	struct tcphdr tcp;

	u32 hdr_end;

	if (bpf_skb_load_bytes(skb, p->l4_off, &tcp, sizeof(tcp)) ||
	    tcp.doff < 5)
		return false;
	hdr_end = p->l4_off + tcp.doff * 4;
	if (hdr_end > skb->len)
		return false;
	p->key.sport = tcp.source;
	p->key.dport = tcp.dest;
	p->tcp_flags = ((u8 *)&tcp)[13];
	p->seq = bpf_ntohl(tcp.seq);
	p->ack_seq = bpf_ntohl(tcp.ack_seq);
	/*
	 * The data runs to the end of the skb, which a sender's egress
	 * holds unpadded; a GSO skb's is its whole burst, which one EV
	 * covers.
	 */
	p->end_seq = p->seq + (skb->len - hdr_end) +
		     !!(p->tcp_flags & LB_TCP_SYN) + !!(p->tcp_flags & LB_TCP_FIN);
	return true;
}

/*
 * An Ethernet frame with an IPv4 or IPv6 UDP datagram long enough for its
 * shim, or an IPv6 TCP segment: its flow, as the sender's application
 * addressed it. Anything else is not the datapath's, and passes unharmed.
 */
static __always_inline bool lb_parse(struct __sk_buff *skb, struct lb_pkt *p)
{
	__builtin_memset(p, 0, sizeof(*p));
	if (skb->protocol == bpf_htons(ETH_P_IP)) {
		if (!lb_parse_ipv4(skb, p))
			return false;
	} else if (skb->protocol == bpf_htons(ETH_P_IPV6)) {
		if (!lb_parse_ipv6(skb, p))
			return false;
	} else {
		return false;
	}
	return p->key.proto == IPPROTO_UDP ? lb_parse_udp(skb, p) :
					     lb_parse_tcp(skb, p);
}

static __always_inline struct lb_cfg *lb_config(void)
{
	u32 zero = 0;

	return bpf_map_lookup_elem(&lb_cfg, &zero);
}

static __always_inline struct lb_flow *lb_flow_get(const struct lb_flow_key *key,
						   const struct lb_params *lp,
						   u32 rnd)
{
	struct lb_flow *f = bpf_map_lookup_elem(&lb_flows, key);
	struct lb_flow fresh = {};

	if (f)
		return f;
	arcane_init(&fresh.arcane);
	flowlet_init(&fresh.flowlet);
	plb_init(&fresh.plb, &lp->plb, rnd);
	fresh.cur_ev = reciprocal_scale(rnd, lp->arcane.num_ev);
	if (bpf_map_update_elem(&lb_flows, key, &fresh, BPF_NOEXIST) == 0)
		lb_count(LB_STAT_FLOWS_CREATED);
	f = bpf_map_lookup_elem(&lb_flows, key);
	if (!f)
		lb_count(LB_STAT_FLOW_TABLE_FULL);
	return f;
}

/* The next packet's EV by the mode; the flow's lock is held. */
static __always_inline u16 lb_choose(struct lb_flow *f, u32 mode,
				     const struct lb_params *lp, u64 now,
				     u32 rnd, u32 *stat)
{
	u64 explored;
	u16 ev;

	switch (mode) {
	case LB_MODE_SPRAY:
		return reciprocal_scale(rnd, lp->arcane.num_ev);
	case LB_MODE_SPRAY_RR:
		ev = f->rr;
		f->rr = ev + 1 < lp->arcane.num_ev ? ev + 1 : 0;
		return ev;
	case LB_MODE_ARCANE:
		explored = f->arcane.tx_explore;
		ev = arcane_next_ev(&f->arcane, &lp->arcane);
		*stat = f->arcane.tx_explore != explored ?
			LB_STAT_TX_EXPLORE : LB_STAT_TX_CACHED;
		return ev;
	case LB_MODE_FLOWLET:
		return flowlet_on_packet(&f->flowlet, &lp->flowlet, now, rnd);
	case LB_MODE_PLB:
		return f->plb.ev;
	default:		/* ECMP */
		return f->cur_ev;
	}
}

/*
 * ARCANE over TCP (arcane_txlog.h): a segment that takes sequence space
 * (data, a SYN, a FIN) takes the law's EV and goes into the flow's log
 * (log, looked up before the lock), so that a SYN or FIN resent after a
 * loss takes the law's next EV, not its lost copy's; a bare SYN of
 * another sequence number opens a new connection, and a new log. A pure
 * ACK (log NULL) keeps the flow's last EV and teaches nothing. The flow's
 * lock is held.
 */
static __always_inline u16 lb_choose_tcp_arcane(struct lb_flow *f,
						struct arcane_txlog *log,
						const struct lb_pkt *p,
						const struct lb_params *lp,
						u32 *stat, u64 *overwritten)
{
	u64 before;
	u16 ev;

	if (!log)
		return f->cur_ev;
	if ((p->tcp_flags & (LB_TCP_SYN | LB_TCP_ACK)) == LB_TCP_SYN)
		arcane_txlog_on_syn(log, p->seq);
	ev = lb_choose(f, LB_MODE_ARCANE, lp, 0, 0, stat);
	before = log->overwritten;
	arcane_txlog_on_send(log, p->seq, p->end_seq, ev);
	*overwritten = log->overwritten - before;
	f->cur_ev = ev;
	return ev;
}

/* A TCP flow's log, a new one if it has none. */
static __always_inline struct arcane_txlog *
lb_txlog_get(const struct lb_flow_key *key)
{
	struct arcane_txlog *log = bpf_map_lookup_elem(&lb_txlogs, key);

	if (log)
		return log;
	bpf_map_update_elem(&lb_txlogs, key, &lb_txlog_zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(&lb_txlogs, key);
}

/* The UDP source port, and the shim's ev, rewritten; checksum fixed. */
static __always_inline int lb_write_ev(struct __sk_buff *skb,
				       const struct lb_pkt *p,
				       const struct lb_cfg *cfg,
				       __be16 old_port, __be16 old_ev, u16 ev)
{
	__be16 port = bpf_htons(cfg->ev_base + ev);
	__be16 ev_be = bpf_htons(ev);
	u32 sport_off = p->l4_off + offsetof(struct udphdr, source);
	u32 ev_off = p->shim_off + offsetof(struct lb_shim, ev);

	/*
	 * The ports are not in the pseudo-header: no BPF_F_PSEUDO_HDR.
	 * MARK_MANGLED_0 keeps an IPv4 checksum of 0 (none) at 0. The new
	 * port invalidates skb->hash, which would otherwise describe the
	 * old tuple to every ECMP hop after the veth (design notes, P1).
	 */
	if (bpf_l4_csum_replace(skb, p->csum_off, old_port, port,
				BPF_F_MARK_MANGLED_0 | sizeof(port)) ||
	    bpf_skb_store_bytes(skb, sport_off, &port, sizeof(port),
				BPF_F_INVALIDATE_HASH))
		return -1;
	if (!cfg->write_shim_ev)
		return 0;
	if (bpf_l4_csum_replace(skb, p->csum_off, old_ev, ev_be,
				BPF_F_MARK_MANGLED_0 | sizeof(ev_be)) ||
	    bpf_skb_store_bytes(skb, ev_off, &ev_be, sizeof(ev_be), 0))
		return -1;
	return 0;
}

/*
 * A TCP segment's EV as its IPv6 flow label, ev_base + EV, which IPv6
 * ECMP hashes (the design notes' recommended field): not in the
 * pseudo-header, so no checksum changes; version and traffic class kept.
 */
static __always_inline int lb_write_label(struct __sk_buff *skb,
					  const struct lb_cfg *cfg, u16 ev)
{
	__be32 word;

	if (bpf_skb_load_bytes(skb, ETH_HLEN, &word, sizeof(word)))
		return -1;
	word = (word & bpf_htonl(0xfff00000)) |
	       bpf_htonl(((u32)cfg->ev_base + ev) & 0xfffff);
	return bpf_skb_store_bytes(skb, ETH_HLEN, &word, sizeof(word),
				   BPF_F_INVALIDATE_HASH);
}

static __always_inline const struct lb_policy_val *
lb_policy_of(const struct lb_flow_key *key)
{
	struct lb_policy_key k = { .proto = key->proto, .dport = key->dport };

	return bpf_map_lookup_elem(&lb_policy, &k);
}

/*
 * Whether the datapath steers this packet: a UDP datagram needs the shim
 * if its policy says so; a TCP segment takes any mode.
 */
static __always_inline bool lb_steered(struct __sk_buff *skb,
				       const struct lb_pkt *p,
				       const struct lb_policy_val *pol,
				       u32 mode, struct lb_shim *shim)
{
	if (mode == LB_MODE_PASSTHRU)
		return false;
	if (p->key.proto == IPPROTO_TCP)
		return true;
	if (bpf_skb_load_bytes(skb, p->shim_off, shim, sizeof(*shim)))
		return false;
	return !(pol->flags & LB_POLICY_REQUIRE_SHIM) ||
	       (shim->magic == bpf_htonl(LB_SHIM_MAGIC) &&
		shim->type == LB_SHIM_DATA);
}

SEC("tc")
int lb_egress(struct __sk_buff *skb)
{
	const struct lb_policy_val *pol;
	struct lb_shim shim = {};
	struct lb_params lp;
	struct lb_cfg *cfg;
	struct lb_flow *f;
	struct arcane_txlog *log = NULL;
	struct lb_pkt p;
	u32 mode, rnd, stat = __LB_STAT_MAX, hist;
	u64 now, *n, overwritten = 0;
	bool tcp_arcane;
	int err;
	u16 ev;

	if (!lb_parse(skb, &p)) {
		lb_count(LB_STAT_PARSE_SKIPS);
		return TC_ACT_OK;
	}
	lb_count(LB_STAT_PKTS_SEEN);
	pol = lb_policy_of(&p.key);
	cfg = lb_config();
	if (!pol || !cfg)
		return TC_ACT_OK;
	lb_params_of(cfg, &lp);
	if (!lb_params_valid(cfg, &lp))
		return TC_ACT_OK;
	mode = pol->mode_override < __LB_MODE_MAX ? pol->mode_override :
						       cfg->mode;
	if (!lb_steered(skb, &p, pol, mode, &shim))
		return TC_ACT_OK;
	rnd = bpf_get_prandom_u32();
	now = bpf_ktime_get_ns();
	f = lb_flow_get(&p.key, &lp, rnd);
	if (!f)
		return TC_ACT_OK;
	tcp_arcane = p.key.proto == IPPROTO_TCP && mode == LB_MODE_ARCANE;
	if (tcp_arcane && p.end_seq != p.seq) {
		log = lb_txlog_get(&p.key);
		if (!log) {
			lb_count(LB_STAT_FLOW_TABLE_FULL);
			return TC_ACT_OK;
		}
	}
	bpf_spin_lock(&f->lock);
	if (tcp_arcane)
		ev = lb_choose_tcp_arcane(f, log, &p, &lp, &stat, &overwritten);
	else
		ev = lb_choose(f, mode, &lp, now, rnd, &stat);
	f->last_tx_ns = now;
	bpf_spin_unlock(&f->lock);
	if (stat != __LB_STAT_MAX)
		lb_count(stat);
	if (overwritten)
		lb_count_n(LB_STAT_TXLOG_OVERWRITTEN, overwritten);
	if (p.key.proto == IPPROTO_UDP)
		err = lb_write_ev(skb, &p, cfg, p.key.sport, shim.ev, ev);
	else
		err = lb_write_label(skb, cfg, ev);
	if (err)
		return TC_ACT_OK;
	lb_count(LB_STAT_PKTS_REWRITTEN);
	hist = ev;
	n = bpf_map_lookup_elem(&lb_ev_hist, &hist);
	if (n)
		*n += 1;
	return TC_ACT_OK;
}

/* The echo of a reply: an ACK's or NACK's shim, or a TCP segment's ACK and ECE. */
struct lb_echo {
	u32 kind;		/* ARCANE_FB_ACK, ARCANE_FB_NACK */
	bool ce;
	u16 ev;			/* LB_SHIM_EV_NONE for TCP: no EV echoed */
};

static __always_inline bool lb_echo_of(struct __sk_buff *skb,
				       const struct lb_pkt *p,
				       struct lb_echo *e)
{
	struct lb_shim shim;

	if (p->key.proto == IPPROTO_TCP) {
		/*
		 * A DCTCP (or uno) receiver sets ECE on an ACK exactly
		 * when the segments it covers were CE-marked (arcane.md
		 * 3.7, item 3). On a SYN-ACK, ECE agrees to ECN (RFC
		 * 3168 6.1.1): no mark.
		 */
		e->kind = ARCANE_FB_ACK;
		e->ce = (p->tcp_flags & LB_TCP_ECE) &&
			!(p->tcp_flags & LB_TCP_SYN);
		e->ev = LB_SHIM_EV_NONE;
		return p->tcp_flags & LB_TCP_ACK;
	}
	if (bpf_skb_load_bytes(skb, p->shim_off, &shim, sizeof(shim)) ||
	    shim.magic != bpf_htonl(LB_SHIM_MAGIC) ||
	    (shim.type != LB_SHIM_ACK && shim.type != LB_SHIM_NACK))
		return false;
	e->kind = shim.type == LB_SHIM_ACK ? ARCANE_FB_ACK : ARCANE_FB_NACK;
	e->ce = shim.flags & LB_SHIM_CE_ECHO;
	e->ev = bpf_ntohs(shim.ev);
	return true;
}

SEC("tc")
int lb_ingress(struct __sk_buff *skb)
{
	struct arcane_txlog_acked acked = {};
	struct arcane_txlog *log = NULL;
	struct lb_flow_key key;
	struct lb_params lp;
	struct lb_echo e;
	struct lb_cfg *cfg;
	struct lb_flow *f;
	struct lb_pkt p;
	u32 stat, rnd;
	bool idle, rehashed = false;
	u64 now;

	if (!lb_parse(skb, &p) || !lb_echo_of(skb, &p, &e))
		return TC_ACT_OK;
	cfg = lb_config();
	if (!cfg)
		return TC_ACT_OK;
	lb_params_of(cfg, &lp);
	if (!lb_params_valid(cfg, &lp))
		return TC_ACT_OK;
	/* The reply's flow is the data's: addresses and ports swapped. */
	__builtin_memset(&key, 0, sizeof(key));
	__builtin_memcpy(key.saddr, p.key.daddr, 16);
	__builtin_memcpy(key.daddr, p.key.saddr, 16);
	key.sport = p.key.dport;
	key.dport = p.key.sport;
	key.proto = p.key.proto;
	/*
	 * Every TCP segment in is an ACK: only those of a flow the datapath
	 * steers count.
	 */
	f = bpf_map_lookup_elem(&lb_flows, &key);
	if (p.key.proto == IPPROTO_UDP || f)
		lb_count(LB_STAT_ACKS_PARSED);
	if (!f) {
		if (p.key.proto == IPPROTO_UDP)
			lb_count(LB_STAT_ACKS_UNKNOWN_FLOW);
		return TC_ACT_OK;
	}
	if (e.kind == ARCANE_FB_NACK)
		stat = LB_STAT_FB_NACK;
	else
		stat = e.ce ? LB_STAT_FB_CE : LB_STAT_FB_GOOD;
	if (p.key.proto == IPPROTO_UDP && e.ev >= cfg->num_ev)
		stat = LB_STAT_FB_IGNORED;
	/* A TCP flow has a log once ARCANE steered a segment of it. */
	if (p.key.proto == IPPROTO_TCP)
		log = bpf_map_lookup_elem(&lb_txlogs, &key);
	now = bpf_ktime_get_ns();
	rnd = bpf_get_prandom_u32();
	bpf_spin_lock(&f->lock);
	if (p.key.proto == IPPROTO_UDP)
		arcane_on_feedback(&f->arcane, &lp.arcane, e.kind, e.ev, e.ce);
	else if (log)
		arcane_txlog_on_ack(log, &f->arcane, &lp.arcane, p.ack_seq,
				    e.ce, &acked);
	/*
	 * PLB's rounds count ACKs; the datapath does not know what is in
	 * flight, so a flow that sent nothing since the previous feedback
	 * is idle.
	 */
	if (e.kind == ARCANE_FB_ACK) {
		idle = f->last_tx_ns <= f->last_fb_ns;
		rehashed = plb_on_ack(&f->plb, &lp.plb, e.ce, idle, rnd);
	}
	f->last_fb_ns = now;
	bpf_spin_unlock(&f->lock);
	lb_count(stat);
	if (rehashed)
		lb_count(LB_STAT_PLB_REHASHES);
	if (log) {
		lb_count_n(LB_STAT_TXLOG_ACKED,
			   acked.good + acked.ce + acked.withheld);
		lb_count_n(LB_STAT_TXLOG_WITHHELD, acked.withheld);
	}
	/* The ACK goes on to the transport, which needs it as much. */
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
