// SPDX-License-Identifier: GPL-2.0
/*
 * Reflex's datapath: the IP-ID stamp, Near-Source Feedback (NSF) at a
 * source DC's gateway and the sender's acceptance of its pseudo-ACKs
 * (../shared/spec/reflex.md 2.3-2.5, 4.3, 4.4; uapi/uno_reflex.h). The
 * laws are kernel/core/reflex_core.h's, the functions the unit tests
 * drive; this file parses, locks, clones and rewrites.
 *
 *   rfx_stamp  tc ingress, a leaf's port from a host: the stamp.
 *   nsf_egress tc egress, each WAN port of the gateway: T_src, the flow's
 *              machine, and for each pseudo-ACK a clone of the data
 *              packet to the LAN port's ingress, marked; the data packet
 *              leaves unchanged.
 *   nsf_build  tc ingress, the gateway's LAN port: a marked clone made
 *              the pseudo-ACK (Ethernet, IPv4, UDP, struct rfx_fb) and
 *              sent to the data's sender by the gateway's own route;
 *              everything else passes.
 *   rfx_fb     tc ingress, a sender's device: a pseudo-ACK from a known
 *              gateway goes to its socket's mailbox (reflex_sk.h), if the
 *              socket's CC takes samples, and never to the stack.
 *
 * A flow's NSF state is in a HASH map (an LRU map cannot hold a
 * bpf_spin_lock) under its lock, which is never held across a helper.
 * FIN and RST delete it; a flow idle longer than T_idle_gc starts over at
 * its next packet (2.3).
 */
#include <linux/bpf.h>
#include <linux/errno.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "core_types.h"
#include "reflex_core.h"
#include "reflex_sk.h"
#include "reflector.h"

char _license[] SEC("license") = "GPL";

/*
 * What the programs return for a packet they leave as it is: the next
 * filter on the hook, if any, then the stack. Roles may share a port (a
 * test's router that stamps and answers), and so may other programs.
 */
#define RFX_PASS	TC_ACT_UNSPEC

#define RFX_MAX_NSF	65536
#define RFX_MAX_GATEWAYS 64

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct rfx_cfg);
} rfx_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, __RFX_STAT_MAX);
	__type(key, u32);
	__type(value, u64);
} rfx_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RFX_MAX_NSF);
	__type(key, struct rfx_flow4);
	__type(value, struct nsf_entry);
} nsf_flows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, RFX_MAX_PREFIXES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct rfx_prefix4);
	__type(value, u8);
} nsf_prefixes SEC(".maps");

/* host: the gateways whose pseudo-ACKs are taken, by IPv4 address */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RFX_MAX_GATEWAYS);
	__type(key, __be32);
	__type(value, u8);
} rfx_gateways SEC(".maps");

static __always_inline void rfx_count(u32 stat)
{
	u64 *v = bpf_map_lookup_elem(&rfx_stats, &stat);

	if (v)
		*v += 1;
}

static __always_inline const struct rfx_cfg *rfx_conf(void)
{
	u32 zero = 0;

	return bpf_map_lookup_elem(&rfx_cfg, &zero);
}

static __always_inline void rfx_key_of(const struct refl_tcp4 *p,
				       struct rfx_flow4 *key)
{
	key->saddr = p->ip.saddr;
	key->daddr = p->ip.daddr;
	key->sport = p->tcp.source;
	key->dport = p->tcp.dest;
}

/*
 * The IP-ID stamp (4.3): segments with data and DF, whose ID has no
 * reassembly role (RFC 6864); the TCP checksum does not cover it.
 */
SEC("tc")
int rfx_stamp(struct __sk_buff *skb)
{
	const struct rfx_cfg *cfg = rfx_conf();
	struct refl_tcp4 p;
	__be16 id;

	if (!cfg || (skb->mark & RFX_PACK_MARK_MASK) == RFX_PACK_MARK ||
	    skb->gso_segs > 1 || !refl_parse_tcp4(skb, &p) ||
	    !p.payload || !(p.ip.frag_off & bpf_htons(REFL_IP_DF)))
		return RFX_PASS;
	id = bpf_htons(reflex_stamp16(bpf_ktime_get_ns(), cfg->k));
	if (bpf_l3_csum_replace(skb, ETH_HLEN + offsetof(struct iphdr, check),
				p.ip.id, id, sizeof(id)) ||
	    bpf_skb_store_bytes(skb, ETH_HLEN + offsetof(struct iphdr, id),
				&id, sizeof(id), 0))
		return RFX_PASS;
	rfx_count(RFX_STAT_STAMPED);
	return RFX_PASS;
}

static __always_inline void nsf_params_of(const struct rfx_cfg *cfg,
					  struct nsf_params *p)
{
	p->t_src_thresh_ns = cfg->t_src_thresh_ns;
	p->t_interval_ns = cfg->t_interval_ns;
	p->t_idle_gc_ns = cfg->t_idle_gc_ns;
	p->n_cool = cfg->n_cool;
	p->cool_unit = cfg->cool_unit;
}

/* Is saddr one of the stamped hosts (every one without prefixes)? */
static __always_inline bool nsf_source_stamped(const struct rfx_cfg *cfg,
					       __be32 saddr)
{
	struct rfx_prefix4 key = { .prefixlen = 32, .addr = saddr };

	return !cfg->n_prefixes || bpf_map_lookup_elem(&nsf_prefixes, &key);
}

struct bpf_map;

/* bpf_for_each_map_elem()'s step: delete a flow idle past T_idle_gc. */
static long nsf_sweep_one(struct bpf_map *map, const struct rfx_flow4 *key,
			  struct nsf_entry *e, const struct nsf_params *np)
{
	/* a racy read of a u64 that only grows: an idle flow stays idle */
	if (nsf_flow_idle(&e->flow, np, bpf_ktime_get_ns()))
		bpf_map_delete_elem(map, key);
	return 0;
}

/*
 * The flow's entry, made SILENT if new (2.3). A flow that ends without a
 * FIN or RST through this port (an RST from the far end, a killed
 * sender) leaves its entry behind, so a full table first sweeps the
 * flows idle past T_idle_gc: a walk of the table, only when it is full.
 * NULL if it is still full, counted.
 */
static __always_inline struct nsf_entry *nsf_entry_get(const struct rfx_flow4 *key,
						       const struct nsf_params *np)
{
	struct nsf_entry *e = bpf_map_lookup_elem(&nsf_flows, key);
	struct nsf_entry fresh = {};

	if (e)
		return e;
	nsf_flow_init(&fresh.flow);
	if (bpf_map_update_elem(&nsf_flows, key, &fresh, BPF_NOEXIST) == -E2BIG) {
		bpf_for_each_map_elem(&nsf_flows, nsf_sweep_one, (void *)np, 0);
		bpf_map_update_elem(&nsf_flows, key, &fresh, BPF_NOEXIST);
	}
	e = bpf_map_lookup_elem(&nsf_flows, key);
	if (!e)
		rfx_count(RFX_STAT_NSF_FLOWS_FULL);
	return e;
}

/*
 * Runs the flow's machine on data packet p; the answer's fb_seq if it is
 * to be answered, its pseudo-ACK's fields then in the entry's ring for
 * nsf_build, so that the clone's headers are only its flow's key; else 0.
 * A flow idle past T_idle_gc starts over SILENT, but its fb_seq goes on:
 * its sender's socket still holds the last one, and would take a count
 * from 1 again as stale.
 */
static __always_inline u32 nsf_step(struct nsf_entry *e,
				    const struct nsf_params *np,
				    const struct refl_tcp4 *p,
				    u64 now, u64 t_src)
{
	struct nsf_answer *a;
	struct nsf_pack pack;
	bool answer;
	u32 fb_seq;

	bpf_spin_lock(&e->lock);
	if (e->flow.last_seen_ns && nsf_flow_idle(&e->flow, np, now)) {
		fb_seq = e->flow.fb_seq;
		nsf_flow_init(&e->flow);
		e->flow.fb_seq = fb_seq;
	}
	answer = nsf_on_data(&e->flow, np, now, t_src, &pack);
	if (answer) {
		a = nsf_answer_of(e, pack.fb_seq);
		a->pack = pack;
		a->pack_ns = now;
		a->data_seq = bpf_ntohl(p->tcp.seq);
		a->echo_ts16 = p->ip.id;
		if (!e->first_pack_ns)
			e->first_pack_ns = now;
	}
	bpf_spin_unlock(&e->lock);
	if (!answer)
		return 0;
	if (pack.first)
		rfx_count(RFX_STAT_NSF_EPISODES);
	return pack.fb_seq;
}

SEC("tc")
int nsf_egress(struct __sk_buff *skb)
{
	const struct rfx_cfg *cfg = rfx_conf();
	struct nsf_params np;
	struct rfx_flow4 key;
	struct nsf_entry *e;
	struct refl_tcp4 p;
	u32 mark, fb_seq;
	u64 now, t_src;

	if (!cfg || !refl_parse_tcp4(skb, &p))
		return RFX_PASS;
	rfx_key_of(&p, &key);
	if (p.tcp.fin || p.tcp.rst) {
		bpf_map_delete_elem(&nsf_flows, &key);
		return RFX_PASS;
	}
	/* what the stamp wrote: whole segments with data and DF */
	if (!p.payload || p.tcp.syn || !(p.ip.frag_off & bpf_htons(REFL_IP_DF)) ||
	    skb->gso_segs > 1 || !nsf_source_stamped(cfg, p.ip.saddr))
		return RFX_PASS;
	nsf_params_of(cfg, &np);
	e = nsf_entry_get(&key, &np);
	if (!e)
		return RFX_PASS;
	rfx_count(RFX_STAT_NSF_DATA);
	now = bpf_ktime_get_ns();
	t_src = reflex_stamp_age_ns(now, bpf_ntohs(p.ip.id),
				    REFLEX_STAMP_BITS, cfg->k);
	fb_seq = nsf_step(e, &np, &p, now, t_src);
	if (!fb_seq)
		return RFX_PASS;
	rfx_count(RFX_STAT_NSF_PACKS);
	if (!cfg->emit)
		return RFX_PASS;
	/* the clone, marked with its answer, to the LAN port's ingress */
	mark = skb->mark;
	skb->mark = RFX_PACK_MARK | (fb_seq & ~RFX_PACK_MARK_MASK);
	if (bpf_clone_redirect(skb, cfg->lan_ifindex, BPF_F_INGRESS))
		rfx_count(RFX_STAT_NSF_CLONE_ERR);
	skb->mark = mark;
	return RFX_PASS;
}

/* The pseudo-ACK as it leaves the gateway: 90 bytes. */
#define RFX_PACK_LEN	(REFL_DATA_OFF + sizeof(struct rfx_fb))

static __always_inline u32 rfx_sat32(u64 v)
{
	return v > 0xffffffffULL ? 0xffffffffU : (u32)v;
}

static __always_inline u16 rfx_sat16(u32 v)
{
	return v > 0xffff ? 0xffff : (u16)v;
}

/*
 * The pseudo-ACK of data packet p's flow (2.4), from the answer its mark
 * names: 0, or the counter of why there is none: the flow's entry gone,
 * or its answer overwritten, the flow having answered NSF_ANSWER_RING
 * times since (a clone that waited that many intervals).
 */
static __always_inline u32 nsf_frame(const struct refl_tcp4 *p,
				     const struct rfx_cfg *cfg, u32 mark,
				     u8 frame[RFX_PACK_LEN])
{
	struct udphdr udp = {};
	struct iphdr ip = {};
	struct rfx_fb fb = {};
	struct nsf_answer a;
	struct rfx_flow4 key;
	struct nsf_entry *e;

	rfx_key_of(p, &key);
	e = bpf_map_lookup_elem(&nsf_flows, &key);
	if (!e)
		return RFX_STAT_NSF_BUILD_ERR;
	bpf_spin_lock(&e->lock);
	a = *nsf_answer_of(e, mark);
	bpf_spin_unlock(&e->lock);
	if ((a.pack.fb_seq ^ mark) & ~RFX_PACK_MARK_MASK || !a.pack.fb_seq)
		return RFX_STAT_NSF_OVERRUN;

	if (!refl_ip4_udp(&ip, &udp, cfg->lan_addr, p->ip.saddr,
			  bpf_htons(cfg->port), RFX_PACK_LEN - ETH_HLEN))
		return RFX_STAT_NSF_BUILD_ERR;

	fb.magic = bpf_htons(RFX_MAGIC);
	fb.version = RFX_VERSION;
	fb.type = RFX_TYPE_NSF;
	fb.flags = RFX_F_NSF | (a.pack.state == NSF_COOLING ? RFX_F_COOLING : 0) |
		   (a.pack.first ? RFX_F_FIRST : 0);
	fb.k = cfg->k;
	fb.echo_ts16 = a.echo_ts16;
	fb.saddr = key.saddr;
	fb.daddr = key.daddr;
	fb.sport = key.sport;
	fb.dport = key.dport;
	fb.data_seq = bpf_htonl(a.data_seq);
	fb.t_src_ns = bpf_htonl(rfx_sat32(a.pack.t_src_ns));
	fb.fb_seq = bpf_htonl(a.pack.fb_seq);
	fb.covered_pkts = bpf_htons(rfx_sat16(a.pack.covered_pkts));
	fb.gw_time_ns = bpf_cpu_to_be64(a.pack_ns);

	refl_frame_hdrs(frame, &ip, &udp);
	__builtin_memcpy(frame + REFL_DATA_OFF, &fb, sizeof(fb));
	return 0;
}

SEC("tc")
int nsf_build(struct __sk_buff *skb)
{
	u32 mark = skb->mark, err = RFX_STAT_NSF_BUILD_ERR;
	const struct rfx_cfg *cfg;
	u8 frame[RFX_PACK_LEN];
	struct refl_tcp4 p;
	bool routed;
	int rc;

	if ((mark & RFX_PACK_MARK_MASK) != RFX_PACK_MARK)
		return RFX_PASS;
	skb->mark = 0;
	cfg = rfx_conf();
	if (cfg && refl_parse_tcp4(skb, &p))
		err = nsf_frame(&p, cfg, mark, frame);
	if (!err && (bpf_skb_change_tail(skb, RFX_PACK_LEN, 0) ||
		     bpf_skb_store_bytes(skb, 0, frame, RFX_PACK_LEN, 0)))
		err = RFX_STAT_NSF_BUILD_ERR;
	if (err) {
		rfx_count(err);
		return TC_ACT_SHOT;
	}
	rc = refl_send(skb, p.ip.saddr, &routed);
	rfx_count(routed ? RFX_STAT_NSF_BUILT : RFX_STAT_NSF_NO_ROUTE);
	return rc;
}

/*
 * A pseudo-ACK's payload, if skb is a datagram to the port from a known
 * gateway: RFX_FB_TAKE, or the verdict on what it is instead.
 */
#define RFX_FB_TAKE	TC_ACT_OK
static __always_inline int rfx_fb_parse(struct __sk_buff *skb,
					const struct rfx_cfg *cfg,
					struct rfx_fb *fb)
{
	struct iphdr ip;
	struct udphdr udp;
	u32 off;

	if (skb->protocol != bpf_htons(ETH_P_IP) ||
	    bpf_skb_load_bytes(skb, ETH_HLEN, &ip, sizeof(ip)) ||
	    ip.ihl < 5 || ip.protocol != IPPROTO_UDP ||
	    (ip.frag_off & bpf_htons(REFL_IP_MF_OFFSET)))
		return RFX_PASS;
	off = ETH_HLEN + ip.ihl * 4;
	if (bpf_skb_load_bytes(skb, off, &udp, sizeof(udp)) ||
	    udp.dest != bpf_htons(cfg->port))
		return RFX_PASS;
	if (!bpf_map_lookup_elem(&rfx_gateways, &ip.saddr)) {
		rfx_count(RFX_STAT_FB_FOREIGN);
		return RFX_PASS;	/* not ours: the stack's */
	}
	/*
	 * A gateway sends from its port a pseudo-ACK addressed to the data's
	 * sender (2.4): one that names another flow of this host is forged.
	 */
	if (bpf_ntohs(udp.len) < sizeof(udp) + sizeof(*fb) ||
	    udp.source != bpf_htons(cfg->port) ||
	    bpf_skb_load_bytes(skb, off + sizeof(udp), fb, sizeof(*fb)) ||
	    fb->magic != bpf_htons(RFX_MAGIC) || fb->version != RFX_VERSION ||
	    fb->type != RFX_TYPE_NSF || fb->k != cfg->k || fb->saddr != ip.daddr) {
		rfx_count(RFX_STAT_FB_MALFORMED);
		return TC_ACT_STOLEN;
	}
	return RFX_FB_TAKE;
}

/* The socket of the data direction's flow, as its sender sees it. */
static __always_inline struct bpf_sock *rfx_fb_sock(struct __sk_buff *skb,
						    const struct rfx_fb *fb)
{
	struct bpf_sock_tuple t = {};

	t.ipv4.saddr = fb->daddr;	/* the remote end */
	t.ipv4.daddr = fb->saddr;
	t.ipv4.sport = fb->dport;
	t.ipv4.dport = fb->sport;
	return bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), BPF_F_CURRENT_NETNS, 0);
}

/* The record of the pseudo-ACK's flow, if a CC with Reflex keeps one. */
static __always_inline struct rfx_flow_info *rfx_fb_info(const struct rfx_fb *fb)
{
	struct rfx_flow4 key = {
		.saddr = fb->saddr, .daddr = fb->daddr,
		.sport = fb->sport, .dport = fb->dport,
	};

	return bpf_map_lookup_elem(&rfx_flows, &key);
}

/*
 * An accepted sample into the mailbox, under its lock: a slot of its
 * own while one is free, else folded into the last (its RTT the latest,
 * its packets added, saturating).
 */
static __always_inline void rfx_pend_add(struct rfx_sk_state *st,
					 const struct reflex_sample *s, u64 now)
{
	struct rfx_pend *p;
	u32 n = st->pend_n;

	st->pend_samples++;
	if (n < RFX_PEND_MAX) {
		p = &st->pend[n];
		p->rtt_ns = s->rtt_ns;
		p->fb_ns = now;
		p->acked = s->num_acked;
		st->pend_n = n + 1;
		return;
	}
	p = &st->pend[RFX_PEND_MAX - 1];
	p->rtt_ns = s->rtt_ns;
	if (p->acked + s->num_acked > p->acked)
		p->acked += s->num_acked;
}

/*
 * on_pseudo_ack() (2.5) into the socket's mailbox: REFLEX_FB_*. An
 * accepted pseudo-ACK's times go into the flow's record under the same
 * lock, so that a CC that takes its sample finds them there.
 */
static __always_inline u32 rfx_fb_deliver(struct rfx_sk_state *st,
					  struct rfx_flow_info *info,
					  const struct rfx_fb *fb, u64 now,
					  u32 k)
{
	u64 age = reflex_stamp_age_ns(now, bpf_ntohs(fb->echo_ts16),
				      REFLEX_STAMP_BITS, k);
	struct reflex_sample s = {};
	u32 verdict;

	bpf_spin_lock(&st->lock);
	verdict = reflex_accept(&st->last_fb_seq, bpf_ntohl(fb->fb_seq),
				bpf_ntohs(fb->covered_pkts), age,
				reflex_rtt_src_max_ns(REFLEX_STAMP_BITS, k), &s);
	if (verdict == REFLEX_FB_ACCEPT) {
		rfx_pend_add(st, &s, now);
		if (info && !info->first_fb_ns)
			info->first_fb_ns = now;
		if (info && (fb->flags & RFX_F_FIRST))
			info->episode_ns = bpf_be64_to_cpu(fb->gw_time_ns);
	}
	bpf_spin_unlock(&st->lock);
	return verdict;
}

static __always_inline void rfx_fb_account(struct rfx_flow_info *info, u32 verdict)
{
	u32 stat = verdict == REFLEX_FB_ACCEPT ? RFX_STAT_FB_ACCEPTED :
		   verdict == REFLEX_FB_STALE ? RFX_STAT_FB_STALE :
		   RFX_STAT_FB_BAD_RTT;

	rfx_count(stat);
	if (!info)
		return;
	if (verdict == REFLEX_FB_ACCEPT)
		__sync_fetch_and_add(&info->fb_accepted, 1);
	else if (verdict == REFLEX_FB_STALE)
		__sync_fetch_and_add(&info->fb_stale, 1);
	else
		__sync_fetch_and_add(&info->fb_bad_rtt, 1);
}

SEC("tc")
int rfx_fb(struct __sk_buff *skb)
{
	const struct rfx_cfg *cfg = rfx_conf();
	struct rfx_flow_info *info = NULL;
	struct rfx_sk_state *st = NULL;
	struct bpf_sock *sk;
	u32 verdict = REFLEX_FB_STALE;
	struct rfx_fb fb;
	int rc;

	if (!cfg)
		return RFX_PASS;
	rc = rfx_fb_parse(skb, cfg, &fb);
	if (rc != RFX_FB_TAKE)
		return rc;
	sk = rfx_fb_sock(skb, &fb);
	if (sk) {
		st = bpf_sk_storage_get(&rfx_sk, sk, NULL, 0);
		if (st) {
			info = rfx_fb_info(&fb);
			verdict = rfx_fb_deliver(st, info, &fb, bpf_ktime_get_ns(), cfg->k);
		}
		bpf_sk_release(sk);
	}
	if (!st)
		rfx_count(RFX_STAT_FB_NO_FLOW);
	else
		rfx_fb_account(info, verdict);
	/* a pseudo-ACK acknowledges nothing: TCP never sees it (2.4) */
	return TC_ACT_STOLEN;
}
