// SPDX-License-Identifier: GPL-2.0
/*
 * sch_phantom.c	One switch egress port: a shaper, a byte-limited FIFO
 *			with an ECN ramp, a phantom queue (Uno) and packet
 *			trimming (NDP, SMaRTT/UEC).
 *
 * The qdisc sends at most "rate" bytes per second (qdisc_pkt_len(), so a
 * size table adds link overhead), so that it is the bottleneck even on a
 * device without a line rate such as veth. GSO packets are segmented on
 * enqueue: the port sees, marks and trims packets, not aggregates.
 *
 * Enqueue: every packet first feeds the phantom counter (phantom_core.h).
 * It then joins the real queue if that stays within "limit" bytes. If not,
 * and trimming is on, it is cut to its headers, tagged with a DSCP and put
 * in a small band of trimmed headers that is served first; what cannot be
 * trimmed, or does not fit that band either, is dropped. Nothing is dropped
 * below the limit: the ramps only ever mark, and only ECT packets.
 *
 * Dequeue: trimmed headers first, then the real queue, no faster than
 * rate; a packet leaving the real queue is CE-marked with the probability
 * of the higher of the real-queue ramp and the phantom ramp. In INT mode
 * it also gets the port's MLCC hop record, if it carries the option
 * (uapi/uno_mlcc.h): the INT an HPCC-style law needs is the dequeue's.
 * With an X_off it counts the pauses a lossless port would have sent
 * (virtual PFC, phantom_xoff).
 *
 * The marking law lives in phantom_core.h; this file is the plumbing.
 */

#include <linux/module.h>
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/skbuff.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/ip6_checksum.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include "hpcc_core.h"
#include "phantom_core.h"
#include "uno_compat.h"
#include "uapi/sch_phantom.h"
#include "uapi/uno_mlcc.h"

/* Defaults; the ramps' thresholds are fractions (ppm) of their capacity. */
#define PHANTOM_DEF_LIMIT	1000000	/* bytes, Uno Sec. 5.1 (htsim: 10^6) */
#define PHANTOM_DEF_ECN_MIN	200000	/* 20 % of limit, SMaRTT Sec. III-J */
#define PHANTOM_DEF_ECN_MAX	800000	/* 80 % */
#define PHANTOM_DEF_PQ_RATE	900000	/* 90 % of rate, Uno Sec. 4.1.3 */
#define PHANTOM_DEF_PQ_MIN	20000	/* 2 % of phantom-size (htsim) */
#define PHANTOM_DEF_PQ_MAX	600000	/* 60 % */
#define PHANTOM_DEF_TRIM_DSCP	0x3e	/* ours: SMaRTT names no DSCP */
#define PHANTOM_DEF_TRIM_LIMIT	65536	/* bytes */
#define PHANTOM_DSCP_MAX	63

struct phantom_cfg {
	struct phantom_params core;
	u32 burst;		/* shaper bucket, bytes */
	u32 trim;		/* network-layer bytes a trim keeps; 0: off */
	u32 trim_limit;		/* capacity of the trimmed-header band, bytes */
	u8 trim_dscp;
	u8 trim_valid;		/* 1: a trimmed UDP datagram is a valid one */
	u8 int_stamp;		/* 1: MLCC INT records at dequeue */
	u8 int_bcode;		/* the rate's code in a record */
	u32 xoff;		/* virtual PFC's X_off, bytes; 0: off */
};

struct phantom_sched_data {
	struct phantom_cfg cfg;
	struct psched_ratecfg rate;
	struct phantom_bucket bucket;	/* depth: link time of burst bytes */
	struct phantom_state st;

	struct qdisc_skb_head data;	/* the real queue */
	struct qdisc_skb_head hdrs;	/* trimmed headers, served first */
	u32 data_backlog;
	u32 hdrs_backlog;
	struct qdisc_watchdog watchdog;

	/* statistics, see struct tc_phantom_xstats */
	struct phantom_empty empty;
	struct phantom_xoff xoff;
	u64 ce_marks;
	u64 phantom_marks;
	u64 trimmed;
	u64 trim_drops;
	u64 tail_drops;
	u64 int_stamped;
	u64 int_full;
	u64 tx_bytes;		/* sent, for INT records */
	u32 max_backlog;
};

/* Where a trim cuts a packet. */
struct phantom_cut {
	__be16 proto;		/* ETH_P_IP or ETH_P_IPV6 */
	u8 l4proto;		/* IPPROTO_TCP, IPPROTO_UDP, ... */
	u16 nhlen;		/* fixed IP header, plus IPv4 options */
	u16 l4off;		/* transport header, from the network header */
	u16 hdrs;		/* IP and TCP/UDP headers */
	u32 keep;		/* network-layer bytes kept */
	u32 payload;		/* transport payload of the original packet */
};

/*
 * Parse @skb's IP and TCP/UDP headers into @cut (all but keep). Fragments,
 * non-IP packets and malformed ones fail.
 */
static bool phantom_parse(const struct sk_buff *skb, struct phantom_cut *cut)
{
	unsigned int noff = skb_network_offset(skb);
	unsigned int l3len, hdrs;
	u8 proto;

	cut->proto = skb_protocol(skb, true);
	switch (cut->proto) {
	case htons(ETH_P_IP): {
		const struct iphdr *iph;
		struct iphdr _iph;

		iph = skb_header_pointer(skb, noff, sizeof(_iph), &_iph);
		if (!iph || iph->version != 4 || iph->ihl < 5 ||
		    ip_is_fragment(iph))
			return false;
		hdrs = iph->ihl * 4;
		cut->nhlen = hdrs;
		l3len = ntohs(iph->tot_len);
		proto = iph->protocol;
		break;
	}
	case htons(ETH_P_IPV6): {
		const struct ipv6hdr *ip6h;
		struct ipv6hdr _ip6h;
		__be16 frag_off;
		int off;

		ip6h = skb_header_pointer(skb, noff, sizeof(_ip6h), &_ip6h);
		/* A zero payload length is a jumbogram (BIG TCP). */
		if (!ip6h || ip6h->version != 6 || !ip6h->payload_len)
			return false;
		l3len = sizeof(*ip6h) + ntohs(ip6h->payload_len);
		proto = ip6h->nexthdr;
		off = ipv6_skip_exthdr(skb, noff + sizeof(*ip6h), &proto,
				       &frag_off);
		if (off < 0 || frag_off)
			return false;
		hdrs = off - noff;
		cut->nhlen = sizeof(*ip6h);
		break;
	}
	default:
		return false;
	}
	if (hdrs > l3len || noff + l3len > skb->len)
		return false;

	cut->l4proto = proto;
	cut->l4off = hdrs;
	switch (proto) {
	case IPPROTO_TCP: {
		const struct tcphdr *th;
		struct tcphdr _th;

		th = skb_header_pointer(skb, noff + hdrs, sizeof(_th), &_th);
		if (!th || th->doff < 5)
			return false;
		hdrs += th->doff * 4;
		break;
	}
	case IPPROTO_UDP:
		hdrs += sizeof(struct udphdr);
		break;
	}
	if (hdrs > l3len)
		return false;

	cut->hdrs = hdrs;
	cut->payload = l3len - hdrs;
	return true;
}

/*
 * Plan the trim of @skb to @trim bytes from its network header, never less
 * than its IP and TCP/UDP headers. What does not parse, and packets that
 * are no longer than the cut, cannot be trimmed.
 */
static bool phantom_trim_plan(const struct sk_buff *skb, u32 trim,
			      struct phantom_cut *cut)
{
	if (!phantom_parse(skb, cut))
		return false;
	cut->keep = max_t(u32, trim, cut->hdrs);
	return cut->keep < cut->hdrs + cut->payload;
}

/*
 * Make a trimmed UDP datagram a valid, shorter one, as a UEC switch's
 * trimmed packet is: its UDP length is what is left, its checksum is
 * computed over that, and a receiver's socket reads the header.
 */
static bool phantom_trim_udp_fix(struct sk_buff *skb,
				 const struct phantom_cut *cut)
{
	unsigned int off = skb_network_offset(skb) + cut->l4off;
	unsigned int ulen = cut->keep - cut->l4off;
	struct udphdr *uh;
	__wsum csum;

	if (skb_ensure_writable(skb, off + sizeof(*uh)))
		return false;
	uh = (struct udphdr *)(skb->data + off);
	uh->len = htons(ulen);
	uh->check = 0;
	csum = skb_checksum(skb, off, ulen, 0);
	if (cut->proto == htons(ETH_P_IP))
		uh->check = csum_tcpudp_magic(ip_hdr(skb)->saddr,
					      ip_hdr(skb)->daddr, ulen,
					      IPPROTO_UDP, csum);
	else
		uh->check = csum_ipv6_magic(&ipv6_hdr(skb)->saddr,
					    &ipv6_hdr(skb)->daddr, ulen,
					    IPPROTO_UDP, csum);
	if (!uh->check)
		uh->check = CSUM_MANGLED_0;
	return true;
}

/*
 * Cut @skb as planned: fix the IP length (and the IPv4 header checksum), set
 * the DSCP, turn CE back into ECT(0), and store the original transport
 * payload length in the IPv4 ID or the IPv6 flow label so that a receiver
 * can NACK the right amount. Unless @valid and the packet is UDP, the
 * transport checksum is left stale on purpose: a stack that does not
 * expect trimmed headers drops them.
 */
static bool phantom_trim_apply(struct sk_buff *skb,
			       const struct phantom_cut *cut, u8 dscp,
			       bool valid)
{
	unsigned int noff = skb_network_offset(skb);
	u8 ecn;

	if (pskb_trim(skb, noff + cut->keep) ||
	    skb_ensure_writable(skb, noff + cut->nhlen))
		return false;

	if (cut->proto == htons(ETH_P_IP)) {
		struct iphdr *iph = ip_hdr(skb);

		ecn = iph->tos & INET_ECN_MASK;
		if (ecn == INET_ECN_CE)
			ecn = INET_ECN_ECT_0;
		iph->tos = dscp << 2 | ecn;
		iph->tot_len = htons(cut->keep);
		iph->id = htons(cut->payload);
		ip_send_check(iph);
	} else {
		struct ipv6hdr *ip6h = ipv6_hdr(skb);

		ecn = ipv6_get_dsfield(ip6h) & INET_ECN_MASK;
		if (ecn == INET_ECN_CE)
			ecn = INET_ECN_ECT_0;
		ip6_flow_hdr(ip6h, dscp << 2 | ecn, htonl(cut->payload));
		ip6h->payload_len = htons(cut->keep - sizeof(*ip6h));
	}
	if (valid && cut->l4proto == IPPROTO_UDP &&
	    !phantom_trim_udp_fix(skb, cut))
		return false;
	skb->ip_summed = CHECKSUM_NONE;
	qdisc_skb_cb(skb)->pkt_len = skb->len;
	return true;
}

/*
 * Both bands empty. A packet a parent peeked (qdisc_peek_dequeued()) has
 * left them, as one on the wire has.
 */
static bool phantom_is_empty(const struct phantom_sched_data *q)
{
	return !q->data.qlen && !q->hdrs.qlen;
}

static void phantom_queue(struct Qdisc *sch, struct qdisc_skb_head *qh,
			  struct sk_buff *skb)
{
	struct phantom_sched_data *q = qdisc_priv(sch);

	/* One clock read per busy period, not per packet */
	if (phantom_is_empty(q))
		phantom_empty_end(&q->empty, ktime_get_ns());
	__qdisc_enqueue_tail(skb, qh);
	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
}

/* Enqueue one packet (never a GSO one); it may come out trimmed. */
static int phantom_enqueue_one(struct sk_buff *skb, struct Qdisc *sch, u64 now,
			       struct sk_buff **to_free)
{
	struct phantom_sched_data *q = qdisc_priv(sch);
	unsigned int len = qdisc_pkt_len(skb);
	struct phantom_cut cut;

	phantom_arrive(&q->st, now, len);

	if (likely((u64)q->data_backlog + len <= q->cfg.core.limit)) {
		q->data_backlog += len;
		q->max_backlog = max(q->max_backlog, q->data_backlog);
		phantom_xoff_update(&q->xoff, q->data_backlog);
		phantom_queue(sch, &q->data, skb);
		return NET_XMIT_SUCCESS;
	}

	if (!q->cfg.trim || !phantom_trim_plan(skb, q->cfg.trim, &cut)) {
		q->tail_drops++;
		return qdisc_drop(skb, sch, to_free);
	}
	len = skb_network_offset(skb) + cut.keep;
	if ((u64)q->hdrs_backlog + len > q->cfg.trim_limit) {
		q->trim_drops++;
		return qdisc_drop(skb, sch, to_free);
	}
	if (!phantom_trim_apply(skb, &cut, q->cfg.trim_dscp,
				q->cfg.trim_valid)) {
		q->tail_drops++;
		return qdisc_drop(skb, sch, to_free);
	}
	q->hdrs_backlog += qdisc_pkt_len(skb);
	q->trimmed++;
	phantom_queue(sch, &q->hdrs, skb);
	return NET_XMIT_SUCCESS;
}

/* Segment a GSO packet and enqueue the segments, like tbf_segment(). */
static int phantom_enqueue_gso(struct sk_buff *skb, struct Qdisc *sch, u64 now,
			       struct sk_buff **to_free)
{
	netdev_features_t features = netif_skb_features(skb);
	unsigned int len = qdisc_pkt_len(skb), queued = 0;
	struct sk_buff *segs, *seg, *next;
	int nb = 0;

	segs = skb_gso_segment(skb, features & ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs)) {
		struct phantom_sched_data *q = qdisc_priv(sch);

		phantom_arrive(&q->st, now, len);
		return qdisc_drop(skb, sch, to_free);
	}

	skb_list_walk_safe(segs, seg, next) {
		skb_mark_not_on_list(seg);
		qdisc_skb_cb(seg)->pkt_len = seg->len;
		if (phantom_enqueue_one(seg, sch, now, to_free) ==
		    NET_XMIT_SUCCESS) {
			nb++;
			queued += qdisc_pkt_len(seg);
		}
	}
	if (!nb) {
		kfree_skb(skb);
		return NET_XMIT_DROP;
	}
	/* Our parents counted one packet of len bytes. */
	qdisc_tree_reduce_backlog(sch, 1 - nb, len - queued);
	consume_skb(skb);
	return NET_XMIT_SUCCESS;
}

static int phantom_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			   struct sk_buff **to_free)
{
	struct phantom_sched_data *q = qdisc_priv(sch);
	unsigned int len = qdisc_pkt_len(skb);
	u64 now;
	int ret;

	/*
	 * Only the phantom counter needs the arrival time: without it, spare
	 * the clock read (an emulated HPET access under qemu TCG costs
	 * microseconds).
	 */
	now = q->cfg.core.pq_size ? ktime_get_ns() : 0;

	if (skb_is_gso(skb))
		return phantom_enqueue_gso(skb, sch, now, to_free);

	ret = phantom_enqueue_one(skb, sch, now, to_free);
	/* A trimmed packet is shorter than what our parents counted. */
	if (ret == NET_XMIT_SUCCESS && qdisc_pkt_len(skb) != len)
		qdisc_tree_reduce_backlog(sch, 0, len - qdisc_pkt_len(skb));
	return ret;
}

static void phantom_mark(struct phantom_sched_data *q, struct sk_buff *skb,
			 u64 now)
{
	u32 rnd = 0;

	/* Draw only where a ramp is in between: the draw is not cheap. */
	if (phantom_depart_draws(&q->st, now, q->data_backlog))
		rnd = get_random_u32();
	switch (phantom_depart(&q->st, now, q->data_backlog, rnd)) {
	case PHANTOM_MARK_REAL:
		if (INET_ECN_set_ce(skb))
			q->ce_marks++;
		break;
	case PHANTOM_MARK_PHANTOM:
		if (INET_ECN_set_ce(skb))
			q->phantom_marks++;
		break;
	case PHANTOM_PASS:
		break;
	}
}

/*
 * Offset in @skb of the MLCC data option among the TCP options in [@off,
 * @end), or 0.
 */
static unsigned int phantom_int_find(const struct sk_buff *skb,
				     unsigned int off, unsigned int end)
{
	u8 buf[4];
	const u8 *o;

	while (off < end) {
		o = skb_header_pointer(skb, off, min(end - off, 4U), buf);
		if (!o || o[0] == TCPOPT_EOL)
			return 0;
		if (o[0] == TCPOPT_NOP) {
			off++;
			continue;
		}
		if (end - off < 2 || o[1] < 2 || o[1] > end - off)
			return 0;
		if (o[0] == MLCC_OPT_KIND && o[1] == MLCC_OPT_DATA_LEN &&
		    end - off >= 4 && get_unaligned_be16(o + 2) == MLCC_OPT_EXID)
			return off;
		off += o[1];
	}
	return 0;
}

/*
 * MLCC INT (mlcc.md 3.3, 3.8): push this port's record into the data
 * option of a TCP segment leaving the real queue, if it has one of our
 * version and type: the queue the segment leaves behind, the bytes the
 * port has sent with it, the time, the rate's code. A full option gets
 * the overflow flag and keeps its records (the spec's overwrite of the
 * last record by a more loaded port is not done). The TCP checksum
 * follows the option's change.
 */
static void phantom_int_stamp(struct phantom_sched_data *q,
			      struct sk_buff *skb, u64 now)
{
	unsigned int toff, off;
	struct mlcc_opt_data old, *opt;
	struct phantom_cut cut;
	struct tcphdr *th;
	__wsum diff;
	u8 nhop;

	if (!phantom_parse(skb, &cut) || cut.l4proto != IPPROTO_TCP)
		return;
	toff = skb_network_offset(skb) + cut.l4off;
	off = phantom_int_find(skb, toff + sizeof(*th),
			       skb_network_offset(skb) + cut.hdrs);
	if (!off || skb_ensure_writable(skb, off + sizeof(*opt)))
		return;
	opt = (struct mlcc_opt_data *)(skb->data + off);
	if (MLCC_VTF_VER(opt->vtf) != MLCC_VERSION ||
	    MLCC_VTF_TYPE(opt->vtf) != MLCC_TYPE_DATA)
		return;
	old = *opt;
	nhop = opt->nhop >> 4;
	if (nhop < MLCC_DATA_HOPS) {
		put_unaligned_be64(hpcc_hop_wire(q->data_backlog +
						 q->hdrs_backlog, q->tx_bytes,
						 now, q->cfg.int_bcode),
				   &opt->hop[nhop]);
		opt->nhop = (nhop + 1) << 4 | (opt->nhop & 0xf);
		q->int_stamped++;
	} else {
		opt->vtf |= MLCC_F_OVERFLOW;
		q->int_full++;
	}
	/* The option's change, aligned as it sits in the TCP header. */
	diff = csum_sub(csum_partial(opt, sizeof(*opt), 0),
			csum_partial(&old, sizeof(old), 0));
	th = (struct tcphdr *)(skb->data + toff);
	if (skb->ip_summed == CHECKSUM_COMPLETE)
		skb->ip_summed = CHECKSUM_NONE;
	if (skb->ip_summed != CHECKSUM_PARTIAL)
		csum_replace_by_diff(&th->check, csum_shift(diff, off - toff));
}

/* The packet the shaper would send next: trimmed headers go first. */
static struct sk_buff *phantom_head(struct phantom_sched_data *q)
{
	return q->hdrs.head ? q->hdrs.head : q->data.head;
}

/* The shaper (phantom_bucket) sends the head packet when it may. */
static struct sk_buff *phantom_dequeue(struct Qdisc *sch)
{
	struct phantom_sched_data *q = qdisc_priv(sch);
	struct sk_buff *skb;
	u64 now, wait;

	skb = phantom_head(q);
	if (!skb)
		return NULL;

	now = ktime_get_ns();
	wait = phantom_bucket_send(&q->bucket, now,
				   psched_l2t_ns(&q->rate, qdisc_pkt_len(skb)),
				   sch->q.qlen > 1);
	if (wait) {
		qdisc_watchdog_schedule_ns(&q->watchdog, now + wait);
		qdisc_qstats_overlimit(sch);
		return NULL;
	}

	q->tx_bytes += qdisc_pkt_len(skb);
	if (skb == q->hdrs.head) {
		__qdisc_dequeue_head(&q->hdrs);
		q->hdrs_backlog -= qdisc_pkt_len(skb);
	} else {
		__qdisc_dequeue_head(&q->data);
		q->data_backlog -= qdisc_pkt_len(skb);
		phantom_xoff_update(&q->xoff, q->data_backlog);
		phantom_mark(q, skb, now);
		if (q->cfg.int_stamp)
			phantom_int_stamp(q, skb, now);
	}

	if (phantom_is_empty(q))
		phantom_empty_begin(&q->empty, now);
	qdisc_qstats_backlog_dec(sch, skb);
	sch->q.qlen--;
	qdisc_bstats_update(sch, skb);
	return skb;
}

static void phantom_reset(struct Qdisc *sch)
{
	struct phantom_sched_data *q = qdisc_priv(sch);

	__qdisc_reset_queue(&q->data);
	__qdisc_reset_queue(&q->hdrs);
	q->data_backlog = 0;
	q->hdrs_backlog = 0;
	sch->q.qlen = 0;
	sch->qstats.backlog = 0;
	phantom_xoff_update(&q->xoff, 0);
	phantom_empty_begin(&q->empty, ktime_get_ns());
	phantom_bucket_reset(&q->bucket, ktime_get_ns());
	phantom_pq_flush(&q->st.pq, ktime_get_ns());
	qdisc_watchdog_cancel(&q->watchdog);
}

static struct netlink_range_validation phantom_rate_range = {
	.min = 1,
	.max = PHANTOM_RATE_MAX,
};

static struct netlink_range_validation phantom_pq_rate_range = {
	.min = 1,
	.max = TC_PHANTOM_ONE,
};

static struct netlink_range_validation phantom_burst_range = {
	.max = TC_PHANTOM_BURST_MAX,
};

/*
 * Ranges of single values live here; phantom_cfg_check() checks what
 * depends on another value or on the device.
 */
static const struct nla_policy phantom_policy[TCA_PHANTOM_MAX + 1] = {
	[TCA_PHANTOM_PAD]	 = { .type = NLA_REJECT },
	[TCA_PHANTOM_RATE]	 = NLA_POLICY_FULL_RANGE(NLA_U64,
							 &phantom_rate_range),
	[TCA_PHANTOM_LIMIT]	 = { .type = NLA_U32 },
	[TCA_PHANTOM_ECN_MIN]	 = { .type = NLA_U32 },
	[TCA_PHANTOM_ECN_MAX]	 = { .type = NLA_U32 },
	[TCA_PHANTOM_PQ_RATE]	 = NLA_POLICY_FULL_RANGE(NLA_U32,
							 &phantom_pq_rate_range),
	[TCA_PHANTOM_PQ_SIZE]	 = { .type = NLA_U32 },
	[TCA_PHANTOM_PQ_MIN]	 = { .type = NLA_U32 },
	[TCA_PHANTOM_PQ_MAX]	 = { .type = NLA_U32 },
	[TCA_PHANTOM_TRIM]	 = { .type = NLA_U32 },
	[TCA_PHANTOM_TRIM_DSCP]	 = NLA_POLICY_MAX(NLA_U8, PHANTOM_DSCP_MAX),
	[TCA_PHANTOM_TRIM_LIMIT] = { .type = NLA_U32 },
	[TCA_PHANTOM_BURST]	 = NLA_POLICY_FULL_RANGE(NLA_U32,
							 &phantom_burst_range),
	[TCA_PHANTOM_TRIM_VALID] = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_PHANTOM_INT]	 = NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_PHANTOM_XOFF]	 = { .type = NLA_U32 },
};

static void phantom_get_u32(u32 *val, const struct nlattr *attr)
{
	if (attr)
		*val = nla_get_u32(attr);
}

/* Merge the attributes in @tb into @cfg. */
static void phantom_cfg_merge(struct phantom_cfg *cfg, struct nlattr **tb)
{
	if (tb[TCA_PHANTOM_RATE])
		cfg->core.rate = nla_get_u64(tb[TCA_PHANTOM_RATE]);
	phantom_get_u32(&cfg->core.limit, tb[TCA_PHANTOM_LIMIT]);
	phantom_get_u32(&cfg->core.ecn_min, tb[TCA_PHANTOM_ECN_MIN]);
	phantom_get_u32(&cfg->core.ecn_max, tb[TCA_PHANTOM_ECN_MAX]);
	phantom_get_u32(&cfg->core.pq_rate, tb[TCA_PHANTOM_PQ_RATE]);
	phantom_get_u32(&cfg->core.pq_size, tb[TCA_PHANTOM_PQ_SIZE]);
	phantom_get_u32(&cfg->core.pq_min, tb[TCA_PHANTOM_PQ_MIN]);
	phantom_get_u32(&cfg->core.pq_max, tb[TCA_PHANTOM_PQ_MAX]);
	phantom_get_u32(&cfg->trim, tb[TCA_PHANTOM_TRIM]);
	phantom_get_u32(&cfg->trim_limit, tb[TCA_PHANTOM_TRIM_LIMIT]);
	phantom_get_u32(&cfg->burst, tb[TCA_PHANTOM_BURST]);
	phantom_get_u32(&cfg->xoff, tb[TCA_PHANTOM_XOFF]);
	if (tb[TCA_PHANTOM_TRIM_DSCP])
		cfg->trim_dscp = nla_get_u8(tb[TCA_PHANTOM_TRIM_DSCP]);
	if (tb[TCA_PHANTOM_TRIM_VALID])
		cfg->trim_valid = nla_get_u8(tb[TCA_PHANTOM_TRIM_VALID]);
	if (tb[TCA_PHANTOM_INT])
		cfg->int_stamp = nla_get_u8(tb[TCA_PHANTOM_INT]);
	cfg->int_bcode = hpcc_rate_bcode(cfg->core.rate);
}

/* Set @x, unless given, to @ppm of @ref. */
static void phantom_derive(u32 *x, const struct nlattr *given, u32 ref, u32 ppm)
{
	if (!given)
		*x = (u32)phantom_ppm_of(ref, ppm);
}

/*
 * Defaults of a new qdisc that follow from the sizes it was given. A change
 * keeps every value it does not give, in bytes, as RED keeps its thresholds.
 */
static void phantom_cfg_derive(struct phantom_cfg *cfg, struct nlattr **tb,
			       const struct net_device *dev)
{
	struct phantom_params *p = &cfg->core;

	/* The phantom queue starts as large as the real one. */
	if (!tb[TCA_PHANTOM_PQ_SIZE])
		p->pq_size = p->limit;
	phantom_derive(&p->ecn_min, tb[TCA_PHANTOM_ECN_MIN], p->limit,
		       PHANTOM_DEF_ECN_MIN);
	phantom_derive(&p->ecn_max, tb[TCA_PHANTOM_ECN_MAX], p->limit,
		       PHANTOM_DEF_ECN_MAX);
	phantom_derive(&p->pq_min, tb[TCA_PHANTOM_PQ_MIN], p->pq_size,
		       PHANTOM_DEF_PQ_MIN);
	phantom_derive(&p->pq_max, tb[TCA_PHANTOM_PQ_MAX], p->pq_size,
		       PHANTOM_DEF_PQ_MAX);
	/* The shaper's bucket holds two packets of the MTU. */
	if (!tb[TCA_PHANTOM_BURST])
		cfg->burst = 2 * psched_mtu(dev);
}

/* The attribute to blame: the first of @a, @b that was given. */
static const struct nlattr *phantom_blame(struct nlattr **tb, int a, int b)
{
	return tb[a] ? tb[a] : tb[b];
}

/* Check the merged @cfg as a whole; @tb says which values are new. */
static int phantom_cfg_check(const struct phantom_cfg *cfg, struct nlattr **tb,
			     const struct net_device *dev,
			     struct netlink_ext_ack *extack)
{
	const struct phantom_params *p = &cfg->core;

	if (!p->rate) {
		NL_SET_ERR_MSG(extack, "rate is required");
		return -EINVAL;
	}
	if (p->limit < psched_mtu(dev)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_PHANTOM_LIMIT],
				    "limit is smaller than one packet of the device MTU");
		return -EINVAL;
	}
	if (cfg->burst < psched_mtu(dev)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_PHANTOM_BURST],
				    "burst is smaller than one packet of the device MTU");
		return -EINVAL;
	}
	if (p->ecn_min > p->ecn_max) {
		NL_SET_ERR_MSG_ATTR(extack,
				    phantom_blame(tb, TCA_PHANTOM_ECN_MIN,
						  TCA_PHANTOM_ECN_MAX),
				    "ecn-min is above ecn-max");
		return -EINVAL;
	}
	if (p->pq_min > p->pq_max) {
		NL_SET_ERR_MSG_ATTR(extack,
				    phantom_blame(tb, TCA_PHANTOM_PQ_MIN,
						  TCA_PHANTOM_PQ_MAX),
				    "phantom-min is above phantom-max");
		return -EINVAL;
	}
	if (cfg->trim && cfg->trim < TC_PHANTOM_TRIM_MIN) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_PHANTOM_TRIM],
				    "trim is shorter than an IPv4 and a TCP header (40 bytes)");
		return -EINVAL;
	}
	if (cfg->trim &&
	    (u64)cfg->trim + dev->hard_header_len > cfg->trim_limit) {
		NL_SET_ERR_MSG_ATTR(extack,
				    phantom_blame(tb, TCA_PHANTOM_TRIM_LIMIT,
						  TCA_PHANTOM_TRIM),
				    "trim-limit cannot hold one trimmed header");
		return -EINVAL;
	}
	if (cfg->xoff >= p->limit) {
		NL_SET_ERR_MSG_ATTR(extack,
				    phantom_blame(tb, TCA_PHANTOM_XOFF,
						  TCA_PHANTOM_LIMIT),
				    "xoff is not below limit: the backlog never rises above it");
		return -EINVAL;
	}
	if (cfg->int_stamp && cfg->int_bcode >= HPCC_BCODES) {
		NL_SET_ERR_MSG_ATTR(extack,
				    phantom_blame(tb, TCA_PHANTOM_INT,
						  TCA_PHANTOM_RATE),
				    "int needs a rate an INT record can carry (10, 25, 50, 100, 250, 500 Mbit/s, 1, 2.5, 5, 10, 25, 40, 50, 100, 200, 400 Gbit/s)");
		return -EINVAL;
	}
	return 0;
}

/*
 * Validate everything, then apply it at once under the tree lock: a refused
 * change leaves the running qdisc as it was, and an accepted one keeps the
 * queued packets (a lower limit only refuses new ones until the queue drains).
 */
static int __phantom_change(struct Qdisc *sch, struct nlattr *opt, bool create,
			    struct netlink_ext_ack *extack)
{
	struct phantom_sched_data *q = qdisc_priv(sch);
	struct tc_ratespec spec = { .linklayer = TC_LINKLAYER_ETHERNET };
	struct net_device *dev = qdisc_dev(sch);
	struct nlattr *tb[TCA_PHANTOM_MAX + 1];
	struct psched_ratecfg rate;
	struct phantom_cfg cfg;
	s64 burst_ns;
	int err;

	err = nla_parse_nested(tb, TCA_PHANTOM_MAX, opt, phantom_policy, extack);
	if (err < 0)
		return err;

	cfg = q->cfg;
	phantom_cfg_merge(&cfg, tb);
	if (create)
		phantom_cfg_derive(&cfg, tb, dev);
	err = phantom_cfg_check(&cfg, tb, dev, extack);
	if (err)
		return err;

	psched_ratecfg_precompute(&rate, &spec, cfg.core.rate);
	burst_ns = psched_l2t_ns(&rate, cfg.burst);

	sch_tree_lock(sch);
	q->cfg = cfg;
	q->rate = rate;
	phantom_bucket_set(&q->bucket, burst_ns, ktime_get_ns(), create);
	if (create)
		phantom_empty_begin(&q->empty, ktime_get_ns());
	phantom_configure(&q->st, &cfg.core, ktime_get_ns());
	phantom_xoff_set(&q->xoff, cfg.xoff, psched_mtu(dev));
	sch_tree_unlock(sch);
	return 0;
}

static int phantom_change(struct Qdisc *sch, struct nlattr *opt,
			  struct netlink_ext_ack *extack)
{
	return __phantom_change(sch, opt, false, extack);
}

static int phantom_init(struct Qdisc *sch, struct nlattr *opt,
			struct netlink_ext_ack *extack)
{
	struct phantom_sched_data *q = qdisc_priv(sch);
	struct phantom_cfg *cfg = &q->cfg;

	qdisc_watchdog_init(&q->watchdog, sch);

	if (!opt) {
		NL_SET_ERR_MSG(extack, "rate is required");
		return -EINVAL;
	}

	cfg->core.limit = PHANTOM_DEF_LIMIT;
	cfg->core.pq_rate = PHANTOM_DEF_PQ_RATE;
	cfg->trim_dscp = PHANTOM_DEF_TRIM_DSCP;
	cfg->trim_limit = PHANTOM_DEF_TRIM_LIMIT;

	return __phantom_change(sch, opt, true, extack);
}

static void phantom_destroy(struct Qdisc *sch)
{
	struct phantom_sched_data *q = qdisc_priv(sch);

	qdisc_watchdog_cancel(&q->watchdog);
}

static int phantom_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct phantom_sched_data *q = qdisc_priv(sch);
	const struct phantom_cfg *cfg = &q->cfg;
	struct nlattr *opts;

	opts = nla_nest_start(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;

	if (nla_put_u64_64bit(skb, TCA_PHANTOM_RATE, cfg->core.rate,
			      TCA_PHANTOM_PAD) ||
	    nla_put_u32(skb, TCA_PHANTOM_LIMIT, cfg->core.limit) ||
	    nla_put_u32(skb, TCA_PHANTOM_ECN_MIN, cfg->core.ecn_min) ||
	    nla_put_u32(skb, TCA_PHANTOM_ECN_MAX, cfg->core.ecn_max) ||
	    nla_put_u32(skb, TCA_PHANTOM_PQ_RATE, cfg->core.pq_rate) ||
	    nla_put_u32(skb, TCA_PHANTOM_PQ_SIZE, cfg->core.pq_size) ||
	    nla_put_u32(skb, TCA_PHANTOM_PQ_MIN, cfg->core.pq_min) ||
	    nla_put_u32(skb, TCA_PHANTOM_PQ_MAX, cfg->core.pq_max) ||
	    nla_put_u32(skb, TCA_PHANTOM_TRIM, cfg->trim) ||
	    nla_put_u8(skb, TCA_PHANTOM_TRIM_DSCP, cfg->trim_dscp) ||
	    nla_put_u32(skb, TCA_PHANTOM_TRIM_LIMIT, cfg->trim_limit) ||
	    nla_put_u32(skb, TCA_PHANTOM_BURST, cfg->burst) ||
	    nla_put_u8(skb, TCA_PHANTOM_TRIM_VALID, cfg->trim_valid) ||
	    nla_put_u8(skb, TCA_PHANTOM_INT, cfg->int_stamp) ||
	    nla_put_u32(skb, TCA_PHANTOM_XOFF, cfg->xoff))
		goto nla_put_failure;

	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static int phantom_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct phantom_sched_data *q = qdisc_priv(sch);
	struct tc_phantom_xstats st;

	sch_tree_lock(sch);
	st = (struct tc_phantom_xstats) {
		.ce_marks = q->ce_marks,
		.phantom_marks = q->phantom_marks,
		.trimmed = q->trimmed,
		.trim_drops = q->trim_drops,
		.tail_drops = q->tail_drops,
		.stall_ns = q->bucket.stall_ns,
		.idle_ns = q->bucket.idle_ns,
		.max_backlog = q->max_backlog,
		.phantom_backlog = phantom_pq_level(&q->st.pq, ktime_get_ns()),
		.phantom_max_backlog = q->st.pq.peak,
		.trim_backlog = q->hdrs_backlog,
		.empty_ns = phantom_empty_ns(&q->empty, ktime_get_ns()),
		.int_stamped = q->int_stamped,
		.int_full = q->int_full,
		.xoff_events = q->xoff.events,
	};
	sch_tree_unlock(sch);

	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static struct Qdisc_ops phantom_qdisc_ops __read_mostly = {
	.id		= "phantom",
	.priv_size	= sizeof(struct phantom_sched_data),
	.enqueue	= phantom_enqueue,
	.dequeue	= phantom_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= phantom_init,
	.reset		= phantom_reset,
	.destroy	= phantom_destroy,
	.change		= phantom_change,
	.dump		= phantom_dump,
	.dump_stats	= phantom_dump_stats,
	.owner		= THIS_MODULE,
};

static int __init phantom_module_init(void)
{
	BUILD_BUG_ON(TC_PHANTOM_ONE != PHANTOM_PPM_ONE);
	return register_qdisc(&phantom_qdisc_ops);
}

static void __exit phantom_module_exit(void)
{
	unregister_qdisc(&phantom_qdisc_ops);
}

module_init(phantom_module_init);
module_exit(phantom_module_exit);
MODULE_DESCRIPTION("Switch port emulation: shaper, ECN ramp, phantom queue, trimming");
MODULE_LICENSE("GPL");
#ifdef MODULE_ALIAS_NET_SCH
/* From 6.10, tc loads a qdisc's module by this alias only. */
MODULE_ALIAS_NET_SCH("phantom");
#endif
