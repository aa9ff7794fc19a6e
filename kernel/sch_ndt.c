// SPDX-License-Identifier: GPL-2.0
/*
 * sch_ndt.c	Reflex's Near-Destination Throttling (NDT): the destination
 *		gateway's port toward its DC, with a Normal and a
 *		Controlled queue.
 *
 * The qdisc sends at most "rate" bytes per second, the port's line rate,
 * so that it is the port even on a device without one such as veth; its
 * queues hold "limit" bytes together (reflex.md 5.3: the gateway holds
 * the traffic it throttles, so its buffer is deep).
 *
 * Enqueue: every IPv4 TCP segment with payload belongs to an inter-DC
 * flow (the port carries only what came from the WAN), tracked by its
 * 4-tuple; ndt_on_enqueue() (reflex_core.h) sends it to the Controlled
 * queue C while the flow is CONGESTED or still has packets there, else to
 * the Normal queue N. Other packets (ACKs, non-TCP, IPv6, a new flow when
 * the table is full) go to N untracked.
 *
 * Dequeue: ndt_schedule() picks N or C (weighted round robin N_throttle:1,
 * work-conserving, never a paused C), the shaper sends the head packet
 * when it may. A tracked packet's departure starts an RTT_dst sample if
 * its flow has fewer than NDT_SAMPLES in flight (reflex.md 4.5, sequence
 * sampling: no header is rewritten, so TCP is unaffected).
 *
 * ACKs: the samples end when the receiver's ACK comes back through this
 * device. A qdisc sees only its own egress, so the qdisc registers a
 * netfilter ingress hook on its device (NF_NETDEV_INGRESS, read-only):
 * an ACK of a tracked flow completes its newest sample that it covers,
 * RTT_dst = now - departure, and ndt_on_ack() sets the flow's status and
 * pauses or resumes C. The flows and the port's counts are under the
 * qdisc's own lock, since the hook runs outside the qdisc's.
 *
 * The law lives in reflex_core.h; this file is the plumbing.
 */

#include <linux/module.h>
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/skbuff.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/hash.h>
#include <linux/jhash.h>
#include <linux/log2.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <net/ip.h>
#include <net/tcp.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include "phantom_core.h"
#include "reflex_core.h"
#include "uapi/sch_ndt.h"

#define NDT_DEF_LIMIT		(64U << 20)	/* bytes, reflex.md 5.3 */
#define NDT_DEF_FLOWS		65536		/* as NSF's table, 4.4 */
#define NDT_HASH_BITS_MIN	6
#define NDT_HASH_BITS_MAX	16		/* 4 flows a bucket at 2^18 */
#define NDT_SAMPLES		4		/* in flight per flow, 4.5 */
#define NDT_AGE_BUDGET		16		/* flows aged per packet */

/* A flow, by its data direction: the ACK hook looks up the reverse. */
struct ndt_key {
	__be32 saddr;
	__be32 daddr;
	__be16 sport;
	__be16 dport;
};

/* A departed packet whose ACK will give an RTT_dst sample. */
struct ndt_sample {
	u64 t_deq_ns;
	u32 end_seq;
};

struct ndt_entry {
	struct hlist_node node;
	struct list_head lru;	/* on the port's active or idle list */
	struct ndt_key key;
	struct ndt_flow core;
	struct ndt_sample sample[NDT_SAMPLES];	/* oldest first */
	u32 queued;		/* its packets in N or C */
	u32 last_end_seq;	/* of the newest sample taken */
	u8 n_samples;
	u8 sampled;		/* last_end_seq is set */
	u8 closed;		/* FIN or RST: out of the counts */
};

/* What enqueue tells dequeue about a packet, in qdisc_skb_cb()->data. */
struct ndt_skb_cb {
	struct ndt_entry *flow;	/* NULL: untracked */
	u32 end_seq;
	u8 ctl;			/* in C */
};

struct ndt_cfg {
	struct ndt_params core;
	u64 rate;		/* bytes/s */
	u32 limit;		/* bytes, N and C together */
	u32 burst;		/* shaper bucket, bytes */
	u32 flows;		/* most flows tracked */
};

struct ndt_sched_data {
	struct ndt_cfg cfg;
	struct psched_ratecfg rate;
	struct phantom_bucket bucket;
	struct qdisc_skb_head normal;
	struct qdisc_skb_head ctl;
	u32 backlog;		/* bytes in N and C */
	u32 pick;		/* NDT_PICK_*: decided, not yet sent */
	struct qdisc_watchdog watchdog;

	/* Under lock: the flows and the port's state. */
	spinlock_t lock;
	struct ndt_port port;
	struct hlist_head *table;
	u32 hash_bits;
	struct list_head active;	/* active flows, oldest first */
	struct list_head idle;		/* the others, oldest first */
	u32 hash_seed;
	u32 n_flows;

	struct Qdisc *sch;
	struct nf_hook_ops ack_hook;
	bool hooked;

	/* statistics, see struct tc_ndt_xstats */
	u64 ctl_enqueued;
	u64 pauses;
	u64 pause_timeouts;
	u64 samples;
	u64 flows_full;
	u64 tail_drops;
	u64 paused_ns;
	u64 sent_bytes[2];	/* from N, from C */
	u32 max_backlog;
	u32 rtt_dst_last_ns;
};

static struct ndt_skb_cb *ndt_skb_cb(struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct ndt_skb_cb));
	return (struct ndt_skb_cb *)qdisc_skb_cb(skb)->data;
}

/* The parts of an IPv4 TCP segment NDT reads. */
struct ndt_seg {
	struct ndt_key key;
	u32 seq;
	u32 end_seq;
	u32 ack_seq;
	u32 payload;
	u8 flags;		/* TCPHDR_* */
};

/* Read an IPv4 TCP segment at the network header; false for anything else. */
static bool ndt_parse(const struct sk_buff *skb, struct ndt_seg *seg)
{
	unsigned int noff = skb_network_offset(skb);
	const struct tcphdr *th;
	const struct iphdr *iph;
	struct tcphdr _th;
	struct iphdr _iph;
	u32 l3len, hdrs;

	if (skb_protocol(skb, true) != htons(ETH_P_IP))
		return false;
	iph = skb_header_pointer(skb, noff, sizeof(_iph), &_iph);
	if (!iph || iph->version != 4 || iph->ihl < 5 ||
	    iph->protocol != IPPROTO_TCP || ip_is_fragment(iph))
		return false;
	l3len = ntohs(iph->tot_len);
	th = skb_header_pointer(skb, noff + iph->ihl * 4, sizeof(_th), &_th);
	if (!th || th->doff < 5)
		return false;
	hdrs = iph->ihl * 4 + th->doff * 4;
	if (hdrs > l3len || noff + l3len > skb->len)
		return false;

	seg->key.saddr = iph->saddr;
	seg->key.daddr = iph->daddr;
	seg->key.sport = th->source;
	seg->key.dport = th->dest;
	seg->seq = ntohl(th->seq);
	seg->payload = l3len - hdrs;
	seg->end_seq = seg->seq + seg->payload;
	seg->ack_seq = ntohl(th->ack_seq);
	seg->flags = tcp_flag_byte(th);
	return true;
}

static struct hlist_head *ndt_bucket(struct ndt_sched_data *q,
				     const struct ndt_key *key)
{
	u32 h = jhash_3words((__force u32)key->saddr, (__force u32)key->daddr,
			     (__force u32)key->sport << 16 |
			     (__force u32)key->dport, q->hash_seed);

	return &q->table[hash_32(h, q->hash_bits)];
}

static struct ndt_entry *ndt_lookup(struct ndt_sched_data *q,
				    const struct ndt_key *key)
{
	struct ndt_entry *e;

	hlist_for_each_entry(e, ndt_bucket(q, key), node)
		if (!memcmp(&e->key, key, sizeof(*key)))
			return e;
	return NULL;
}

/* The flow of a data segment, new if need be; NULL with the table full. */
static struct ndt_entry *ndt_flow_get(struct ndt_sched_data *q,
				      const struct ndt_key *key)
{
	struct ndt_entry *e = ndt_lookup(q, key);

	if (e)
		return e;
	if (q->n_flows >= q->cfg.flows) {
		q->flows_full++;
		return NULL;
	}
	e = kzalloc(sizeof(*e), GFP_ATOMIC);
	if (!e) {
		q->flows_full++;
		return NULL;
	}
	e->key = *key;
	ndt_flow_init(&e->core);
	hlist_add_head(&e->node, ndt_bucket(q, key));
	list_add_tail(&e->lru, &q->idle);
	q->n_flows++;
	return e;
}

static void ndt_flow_free(struct ndt_sched_data *q, struct ndt_entry *e)
{
	hlist_del(&e->node);
	list_del(&e->lru);
	kfree(e);
	q->n_flows--;
}

/*
 * The ageing of reflex.md 4.5, a little on every packet rather than from
 * a timer: a flow joins the tail of the active list on each of its
 * packets, so the list is in order of last_seen and only its head can be
 * due. A flow idle for T_active leaves the counts for the idle list,
 * unless its packets in C keep it active; a flow idle for T_idle_gc with
 * nothing queued is deleted. An idle port ages nothing, and needs not:
 * the counts only matter to packets.
 */
static void ndt_age(struct ndt_sched_data *q, u64 now)
{
	const struct ndt_params *p = &q->cfg.core;
	u32 budget = NDT_AGE_BUDGET;
	struct ndt_entry *e;

	for (; budget && !list_empty(&q->active); budget--) {
		e = list_first_entry(&q->active, struct ndt_entry, lru);
		if (reflex_elapsed(now, e->core.last_seen_ns) < p->t_active_ns)
			break;
		list_move_tail(&e->lru, ndt_flow_age(&e->core, &q->port, p, now) ?
					&q->idle : &q->active);
	}
	for (; budget && !list_empty(&q->idle); budget--) {
		e = list_first_entry(&q->idle, struct ndt_entry, lru);
		if (!ndt_flow_idle(&e->core, p, now))
			break;
		if (e->queued)
			list_move_tail(&e->lru, &q->idle);
		else
			ndt_flow_free(q, e);
	}
}

static void ndt_free_all(struct ndt_sched_data *q)
{
	struct ndt_entry *e, *tmp;

	list_for_each_entry_safe(e, tmp, &q->active, lru)
		ndt_flow_free(q, e);
	list_for_each_entry_safe(e, tmp, &q->idle, lru)
		ndt_flow_free(q, e);
}

static void ndt_pause_begin(struct ndt_sched_data *q)
{
	q->pauses++;
}

/* C resumed at @now, by an ACK or by T_maxpause. */
static void ndt_pause_end(struct ndt_sched_data *q, u64 now, bool timeout)
{
	q->paused_ns += reflex_elapsed(now, q->port.pause_start_ns);
	if (timeout)
		q->pause_timeouts++;
}

/*
 * FIN or RST (reflex.md 4.5): the flow leaves the counts at once, and is
 * deleted when its last queued packet has left, unless more come.
 */
static void ndt_flow_close(struct ndt_sched_data *q, struct ndt_entry *e)
{
	ndt_flow_release(&e->core, &q->port);
	e->closed = 1;
	list_move_tail(&e->lru, &q->idle);
}

/*
 * Account a segment with data, or a FIN or RST, of a flow; true if it goes
 * to C. Data makes a new flow; a bare FIN or RST only closes one, after
 * its packets in C, so that it does not overtake them.
 */
static bool ndt_classify(struct ndt_sched_data *q, const struct ndt_seg *seg,
			 struct ndt_skb_cb *cb, u64 now)
{
	struct ndt_entry *e = seg->payload ? ndt_flow_get(q, &seg->key) :
					     ndt_lookup(q, &seg->key);
	u32 ev;

	if (!e) {
		ndt_on_enqueue_untracked(&q->port);
		return false;
	}
	e->closed = 0;
	ev = ndt_on_enqueue(&e->core, &q->port, &q->cfg.core, now);
	list_move_tail(&e->lru, &q->active);
	if (ev & NDT_EV_PAUSE)
		ndt_pause_begin(q);
	if (seg->flags & (TCPHDR_FIN | TCPHDR_RST))
		ndt_flow_close(q, e);
	e->queued++;
	cb->flow = e;
	cb->end_seq = seg->end_seq;
	cb->ctl = !!(ev & NDT_EV_CTL);
	return cb->ctl;
}

static int ndt_enqueue(struct sk_buff *skb, struct Qdisc *sch,
		       struct sk_buff **to_free)
{
	struct ndt_sched_data *q = qdisc_priv(sch);
	unsigned int len = qdisc_pkt_len(skb);
	struct ndt_skb_cb *cb = ndt_skb_cb(skb);
	struct ndt_seg seg;
	u64 now;
	bool ctl = false;

	if ((u64)q->backlog + len > q->cfg.limit) {
		q->tail_drops++;
		return qdisc_drop(skb, sch, to_free);
	}

	now = ktime_get_ns();
	cb->flow = NULL;
	cb->ctl = 0;
	spin_lock(&q->lock);
	ndt_age(q, now);
	if (ndt_parse(skb, &seg) &&
	    (seg.payload || seg.flags & (TCPHDR_FIN | TCPHDR_RST)))
		ctl = ndt_classify(q, &seg, cb, now);
	else
		ndt_on_enqueue_untracked(&q->port);
	spin_unlock(&q->lock);

	if (ctl)
		q->ctl_enqueued++;
	q->backlog += len;
	q->max_backlog = max(q->max_backlog, q->backlog);
	__qdisc_enqueue_tail(skb, ctl ? &q->ctl : &q->normal);
	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
	return NET_XMIT_SUCCESS;
}

/*
 * The queue to send from: the pick stays decided until its packet leaves,
 * so that a packet the shaper holds back does not cost another WRR turn,
 * except that a C paused meanwhile is not served.
 */
static u32 ndt_pick(struct ndt_sched_data *q, u64 now)
{
	bool was_paused = q->port.paused;

	if (q->pick == NDT_PICK_NORMAL ||
	    (q->pick == NDT_PICK_CTL && !q->port.paused))
		return q->pick;
	q->pick = ndt_schedule(&q->port, &q->cfg.core, now);
	if (was_paused && !q->port.paused)
		ndt_pause_end(q, now, true);
	return q->pick;
}

/* Start an RTT_dst sample at the departure of a tracked data segment. */
static void ndt_sample_start(struct ndt_entry *e, u32 end_seq, u64 now)
{
	if (e->n_samples >= NDT_SAMPLES ||
	    (e->sampled && !after(end_seq, e->last_end_seq)))
		return;
	e->sample[e->n_samples].t_deq_ns = now;
	e->sample[e->n_samples].end_seq = end_seq;
	e->n_samples++;
	e->last_end_seq = end_seq;
	e->sampled = 1;
}

/* A packet left N or C at @now: book it to its flow and the port. */
static void ndt_depart(struct ndt_sched_data *q, struct sk_buff *skb, u64 now)
{
	struct ndt_skb_cb *cb = ndt_skb_cb(skb);
	struct ndt_entry *e = cb->flow;

	spin_lock(&q->lock);
	ndt_on_dequeue(e ? &e->core : NULL, &q->port, cb->ctl);
	if (e) {
		ndt_sample_start(e, cb->end_seq, now);
		if (!--e->queued && e->closed)
			ndt_flow_free(q, e);
	}
	spin_unlock(&q->lock);
}

static struct sk_buff *ndt_dequeue(struct Qdisc *sch)
{
	struct ndt_sched_data *q = qdisc_priv(sch);
	struct qdisc_skb_head *qh;
	struct sk_buff *skb;
	u64 now, wait;
	u32 pick;

	if (!sch->q.qlen)
		return NULL;

	now = ktime_get_ns();
	spin_lock(&q->lock);
	pick = ndt_pick(q, now);
	if (pick == NDT_PICK_NONE && q->port.paused)
		wait = q->port.pause_start_ns + q->cfg.core.t_maxpause_ns;
	else
		wait = 0;
	spin_unlock(&q->lock);
	if (pick == NDT_PICK_NONE) {
		/* Only a paused C is left: wake up when the pause must end. */
		if (wait)
			qdisc_watchdog_schedule_ns(&q->watchdog, wait);
		return NULL;
	}

	qh = pick == NDT_PICK_CTL ? &q->ctl : &q->normal;
	skb = qh->head;
	wait = phantom_bucket_send(&q->bucket, now,
				   psched_l2t_ns(&q->rate, qdisc_pkt_len(skb)),
				   sch->q.qlen > 1);
	if (wait) {
		qdisc_watchdog_schedule_ns(&q->watchdog, now + wait);
		qdisc_qstats_overlimit(sch);
		return NULL;
	}

	__qdisc_dequeue_head(qh);
	q->pick = NDT_PICK_NONE;
	q->backlog -= qdisc_pkt_len(skb);
	q->sent_bytes[pick == NDT_PICK_CTL] += qdisc_pkt_len(skb);
	ndt_depart(q, skb, now);
	qdisc_qstats_backlog_dec(sch, skb);
	sch->q.qlen--;
	qdisc_bstats_update(sch, skb);
	return skb;
}

/*
 * The newest sample that @ack covers ends, and the older ones with it:
 * returns its RTT_dst, 0 if the ACK covers none.
 */
static u64 ndt_sample_end(struct ndt_entry *e, u32 ack, u64 now)
{
	u32 n = 0, i;
	u64 rtt;

	while (n < e->n_samples && !after(e->sample[n].end_seq, ack))
		n++;
	if (!n)
		return 0;
	rtt = max_t(u64, reflex_elapsed(now, e->sample[n - 1].t_deq_ns), 1);
	for (i = n; i < e->n_samples; i++)
		e->sample[i - n] = e->sample[i];
	e->n_samples -= n;
	return rtt;
}

/*
 * An ACK arrived on the device (reflex.md 2.6, on_ack_toward_wan()): the
 * status of its flow and the pause follow from the sample it completes.
 * The packet always goes on unchanged.
 */
static unsigned int ndt_ack_hook(void *priv, struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	struct ndt_sched_data *q = priv;
	struct ndt_entry *e;
	struct ndt_seg seg;
	struct ndt_key key;
	bool resumed = false;
	u64 now = 0, rtt;
	u32 ev;

	if (!ndt_parse(skb, &seg) || !(seg.flags & TCPHDR_ACK))
		return NF_ACCEPT;
	key.saddr = seg.key.daddr;
	key.daddr = seg.key.saddr;
	key.sport = seg.key.dport;
	key.dport = seg.key.sport;

	spin_lock_bh(&q->lock);
	e = ndt_lookup(q, &key);
	/*
	 * Only an ACK that may end a sample reads the clock, and ages the
	 * flows first: the pause it may decide needs fresh counts. Ageing
	 * may free the flow itself, so look again.
	 */
	if (e && e->n_samples) {
		now = ktime_get_ns();
		ndt_age(q, now);
		e = ndt_lookup(q, &key);
	}
	rtt = e && now ? ndt_sample_end(e, seg.ack_seq, now) : 0;
	if (rtt) {
		q->samples++;
		q->rtt_dst_last_ns = min_t(u64, rtt, U32_MAX);
		ev = ndt_on_ack(&e->core, &q->port, &q->cfg.core, now, rtt);
		if (ev & NDT_EV_PAUSE)
			ndt_pause_begin(q);
		if (ev & NDT_EV_RESUME) {
			ndt_pause_end(q, now, false);
			resumed = true;
		}
	}
	spin_unlock_bh(&q->lock);

	/* C may be all there is to send. */
	if (resumed)
		__netif_schedule(qdisc_root(q->sch));
	return NF_ACCEPT;
}

static void ndt_reset(struct Qdisc *sch)
{
	struct ndt_sched_data *q = qdisc_priv(sch);

	__qdisc_reset_queue(&q->normal);
	__qdisc_reset_queue(&q->ctl);
	q->backlog = 0;
	q->pick = NDT_PICK_NONE;
	sch->q.qlen = 0;
	sch->qstats.backlog = 0;
	spin_lock_bh(&q->lock);
	if (q->port.paused)
		ndt_pause_end(q, ktime_get_ns(), false);
	if (q->table)
		ndt_free_all(q);
	ndt_port_init(&q->port, &q->cfg.core);
	spin_unlock_bh(&q->lock);
	phantom_bucket_reset(&q->bucket, ktime_get_ns());
	qdisc_watchdog_cancel(&q->watchdog);
}

static struct netlink_range_validation ndt_rate_range = {
	.min = 1,
	.max = PHANTOM_RATE_MAX,	/* the shaper's, 10 Tbyte/s */
};

static struct netlink_range_validation ndt_time_range = {
	.max = TC_NDT_TIME_MAX,
};

static struct netlink_range_validation ndt_period_range = {
	.min = 1,
	.max = TC_NDT_TIME_MAX,
};

static struct netlink_range_validation ndt_limit_range = {
	.min = TC_NDT_LIMIT_MIN,
	.max = U32_MAX,
};

static struct netlink_range_validation ndt_alpha_range = {
	.max = TC_NDT_ONE,
};

static struct netlink_range_validation ndt_burst_range = {
	.max = TC_NDT_BURST_MAX,
};

static struct netlink_range_validation ndt_flows_range = {
	.min = 1,
	.max = TC_NDT_FLOWS_MAX,
};

static const struct nla_policy ndt_policy[TCA_NDT_MAX + 1] = {
	[TCA_NDT_PAD]		= { .type = NLA_REJECT },
	[TCA_NDT_RATE]		= NLA_POLICY_FULL_RANGE(NLA_U64, &ndt_rate_range),
	[TCA_NDT_LIMIT]		= NLA_POLICY_FULL_RANGE(NLA_U32, &ndt_limit_range),
	[TCA_NDT_BURST]		= NLA_POLICY_FULL_RANGE(NLA_U32, &ndt_burst_range),
	[TCA_NDT_DST_THRESH]	= NLA_POLICY_FULL_RANGE(NLA_U64, &ndt_time_range),
	[TCA_NDT_ALPHA]		= NLA_POLICY_FULL_RANGE(NLA_U32, &ndt_alpha_range),
	[TCA_NDT_N_THROTTLE]	= NLA_POLICY_MIN(NLA_U32, 1),
	[TCA_NDT_MAXPAUSE]	= NLA_POLICY_FULL_RANGE(NLA_U64, &ndt_period_range),
	[TCA_NDT_REARM]		= NLA_POLICY_FULL_RANGE(NLA_U64, &ndt_time_range),
	[TCA_NDT_ACTIVE]	= NLA_POLICY_FULL_RANGE(NLA_U64, &ndt_period_range),
	[TCA_NDT_IDLE_GC]	= NLA_POLICY_FULL_RANGE(NLA_U64, &ndt_time_range),
	[TCA_NDT_FLOWS]		= NLA_POLICY_FULL_RANGE(NLA_U32, &ndt_flows_range),
};

static void ndt_get_u32(u32 *val, const struct nlattr *attr)
{
	if (attr)
		*val = nla_get_u32(attr);
}

static void ndt_get_u64(u64 *val, const struct nlattr *attr)
{
	if (attr)
		*val = nla_get_u64(attr);
}

/* Merge the attributes in @tb into @cfg. */
static void ndt_cfg_merge(struct ndt_cfg *cfg, struct nlattr **tb)
{
	struct ndt_params *p = &cfg->core;

	ndt_get_u64(&cfg->rate, tb[TCA_NDT_RATE]);
	ndt_get_u32(&cfg->limit, tb[TCA_NDT_LIMIT]);
	ndt_get_u32(&cfg->burst, tb[TCA_NDT_BURST]);
	ndt_get_u32(&cfg->flows, tb[TCA_NDT_FLOWS]);
	ndt_get_u64(&p->t_dst_thresh_ns, tb[TCA_NDT_DST_THRESH]);
	ndt_get_u32(&p->alpha_ppm, tb[TCA_NDT_ALPHA]);
	ndt_get_u32(&p->n_throttle, tb[TCA_NDT_N_THROTTLE]);
	ndt_get_u64(&p->t_maxpause_ns, tb[TCA_NDT_MAXPAUSE]);
	ndt_get_u64(&p->t_rearm_ns, tb[TCA_NDT_REARM]);
	ndt_get_u64(&p->t_active_ns, tb[TCA_NDT_ACTIVE]);
	ndt_get_u64(&p->t_idle_gc_ns, tb[TCA_NDT_IDLE_GC]);
}

/* Check the merged @cfg as a whole; @tb says which values are new. */
static int ndt_cfg_check(const struct ndt_cfg *cfg, struct nlattr **tb,
			 const struct net_device *dev,
			 struct netlink_ext_ack *extack)
{
	if (!cfg->rate) {
		NL_SET_ERR_MSG(extack, "rate is required");
		return -EINVAL;
	}
	if (cfg->limit < psched_mtu(dev)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_NDT_LIMIT],
				    "limit is smaller than one packet of the device MTU");
		return -EINVAL;
	}
	if (cfg->burst < psched_mtu(dev)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_NDT_BURST],
				    "burst is smaller than one packet of the device MTU");
		return -EINVAL;
	}
	if (cfg->core.t_idle_gc_ns < cfg->core.t_active_ns) {
		NL_SET_ERR_MSG_ATTR(extack,
				    tb[TCA_NDT_IDLE_GC] ? tb[TCA_NDT_IDLE_GC] :
							  tb[TCA_NDT_ACTIVE],
				    "idle-gc is shorter than active");
		return -EINVAL;
	}
	/* The policy and the checks above are ndt_params_valid()'s rules. */
	if (!ndt_params_valid(&cfg->core)) {
		NL_SET_ERR_MSG(extack, "invalid NDT parameters");
		return -EINVAL;
	}
	return 0;
}

/*
 * Validate everything, then apply it at once under the tree lock: a refused
 * change leaves the running qdisc as it was; an accepted one keeps the
 * queued packets and the flows.
 */
static int __ndt_change(struct Qdisc *sch, struct nlattr *opt, bool create,
			struct netlink_ext_ack *extack)
{
	struct ndt_sched_data *q = qdisc_priv(sch);
	struct tc_ratespec spec = { .linklayer = TC_LINKLAYER_ETHERNET };
	struct net_device *dev = qdisc_dev(sch);
	struct nlattr *tb[TCA_NDT_MAX + 1];
	struct psched_ratecfg rate;
	struct ndt_cfg cfg;
	int err;

	err = nla_parse_nested(tb, TCA_NDT_MAX, opt, ndt_policy, extack);
	if (err < 0)
		return err;

	cfg = q->cfg;
	ndt_cfg_merge(&cfg, tb);
	if (create && !tb[TCA_NDT_REARM])
		cfg.core.t_rearm_ns = cfg.core.t_dst_thresh_ns;
	if (create && !tb[TCA_NDT_BURST])
		cfg.burst = 2 * psched_mtu(dev);
	err = ndt_cfg_check(&cfg, tb, dev, extack);
	if (err)
		return err;

	psched_ratecfg_precompute(&rate, &spec, cfg.rate);

	sch_tree_lock(sch);
	spin_lock_bh(&q->lock);
	q->cfg = cfg;
	if (create)
		ndt_port_init(&q->port, &cfg.core);
	else
		q->port.wrr_credit = min(q->port.wrr_credit, cfg.core.n_throttle);
	spin_unlock_bh(&q->lock);
	q->rate = rate;
	phantom_bucket_set(&q->bucket, psched_l2t_ns(&rate, cfg.burst),
			   ktime_get_ns(), create);
	/* A timer set by the old rate or maxpause is decided again now. */
	if (!create && sch->q.qlen)
		qdisc_watchdog_schedule_ns(&q->watchdog, ktime_get_ns());
	sch_tree_unlock(sch);
	return 0;
}

static int ndt_change(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	return __ndt_change(sch, opt, false, extack);
}

static int ndt_init(struct Qdisc *sch, struct nlattr *opt,
		    struct netlink_ext_ack *extack)
{
	struct ndt_sched_data *q = qdisc_priv(sch);
	struct net_device *dev = qdisc_dev(sch);
	int err;

	qdisc_watchdog_init(&q->watchdog, sch);
	spin_lock_init(&q->lock);
	q->sch = sch;

	if (!opt) {
		NL_SET_ERR_MSG(extack, "rate is required");
		return -EINVAL;
	}

	ndt_params_default(&q->cfg.core);
	q->cfg.limit = NDT_DEF_LIMIT;
	q->cfg.flows = NDT_DEF_FLOWS;
	err = __ndt_change(sch, opt, true, extack);
	if (err)
		return err;

	/* About 4 flows a bucket when the table is full. */
	q->hash_bits = clamp_t(u32, order_base_2(q->cfg.flows) - 2,
			       NDT_HASH_BITS_MIN, NDT_HASH_BITS_MAX);
	q->table = kvcalloc(1U << q->hash_bits, sizeof(*q->table), GFP_KERNEL);
	if (!q->table)
		return -ENOMEM;
	INIT_LIST_HEAD(&q->active);
	INIT_LIST_HEAD(&q->idle);
	q->hash_seed = get_random_u32();

	q->ack_hook = (struct nf_hook_ops) {
		.hook		= ndt_ack_hook,
		.dev		= dev,
		.priv		= q,
		.pf		= NFPROTO_NETDEV,
		.hooknum	= NF_NETDEV_INGRESS,
		.priority	= 0,
	};
	err = nf_register_net_hook(dev_net(dev), &q->ack_hook);
	if (err) {
		NL_SET_ERR_MSG(extack, "cannot hook the device's ingress for ACKs");
		return err;
	}
	q->hooked = true;
	return 0;
}

static void ndt_destroy(struct Qdisc *sch)
{
	struct ndt_sched_data *q = qdisc_priv(sch);

	/*
	 * Unregistering only stops new calls of the hook; the grace period
	 * waits for those in flight, which still read the table.
	 */
	if (q->hooked) {
		nf_unregister_net_hook(dev_net(qdisc_dev(sch)), &q->ack_hook);
		synchronize_net();
	}
	qdisc_watchdog_cancel(&q->watchdog);
	/* After ndt_reset(), or an init that failed: no packet is queued. */
	if (q->table) {
		ndt_free_all(q);
		kvfree(q->table);
	}
}

static int ndt_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct ndt_sched_data *q = qdisc_priv(sch);
	const struct ndt_cfg *cfg = &q->cfg;
	const struct ndt_params *p = &cfg->core;
	struct nlattr *opts;

	opts = nla_nest_start(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;

	if (nla_put_u64_64bit(skb, TCA_NDT_RATE, cfg->rate, TCA_NDT_PAD) ||
	    nla_put_u32(skb, TCA_NDT_LIMIT, cfg->limit) ||
	    nla_put_u32(skb, TCA_NDT_BURST, cfg->burst) ||
	    nla_put_u64_64bit(skb, TCA_NDT_DST_THRESH, p->t_dst_thresh_ns,
			      TCA_NDT_PAD) ||
	    nla_put_u32(skb, TCA_NDT_ALPHA, p->alpha_ppm) ||
	    nla_put_u32(skb, TCA_NDT_N_THROTTLE, p->n_throttle) ||
	    nla_put_u64_64bit(skb, TCA_NDT_MAXPAUSE, p->t_maxpause_ns,
			      TCA_NDT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_NDT_REARM, p->t_rearm_ns, TCA_NDT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_NDT_ACTIVE, p->t_active_ns,
			      TCA_NDT_PAD) ||
	    nla_put_u64_64bit(skb, TCA_NDT_IDLE_GC, p->t_idle_gc_ns,
			      TCA_NDT_PAD) ||
	    nla_put_u32(skb, TCA_NDT_FLOWS, cfg->flows))
		goto nla_put_failure;

	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static int ndt_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct ndt_sched_data *q = qdisc_priv(sch);
	struct tc_ndt_xstats st;
	u64 now = ktime_get_ns();

	sch_tree_lock(sch);
	spin_lock_bh(&q->lock);
	st = (struct tc_ndt_xstats) {
		.flows = q->n_flows,
		.active = q->port.n_active,
		.congested = q->port.n_congested,
		.paused = q->port.paused,
		.normal_qlen = q->port.normal_qlen,
		.ctl_qlen = q->port.ctl_qlen,
		.max_backlog = q->max_backlog,
		.rtt_dst_last_ns = q->rtt_dst_last_ns,
		.ctl_enqueued = q->ctl_enqueued,
		.pauses = q->pauses,
		.pause_timeouts = q->pause_timeouts,
		.samples = q->samples,
		.flows_full = q->flows_full,
		.tail_drops = q->tail_drops,
		.paused_ns = q->paused_ns,
		.normal_bytes = q->sent_bytes[0],
		.ctl_bytes = q->sent_bytes[1],
	};
	if (q->port.paused)
		st.paused_ns += reflex_elapsed(now, q->port.pause_start_ns);
	spin_unlock_bh(&q->lock);
	sch_tree_unlock(sch);

	return gnet_stats_copy_app(d, &st, sizeof(st));
}

/*
 * The flows as classes, for a dump only (tc class show, unoctl reflex
 * show): a class is a flow's state copied under the lock, its handle's
 * minor its hash bucket's (flows may share one, as fq_codel's do). The
 * walker's count is a cursor, a bucket and a place in it, not a number of
 * classes (fq_codel's is its bucket index): the next message of a dump
 * resumes there at once, rather than walking the table up to its skip
 * under the lock. The table changes under a dump, so one that takes
 * several messages may list a flow twice or miss one, as a socket or
 * conntrack dump does. Filling a message takes the qdisc's root lock,
 * which enqueue holds around q->lock: ndt_walk() copies a chunk of flows
 * under q->lock and hands it out after, never under it.
 */
#define NDT_WALK_CHUNK		64	/* flows copied per lock hold */
#define NDT_WALK_POS_BITS	14	/* a cursor's place in its bucket */
#define NDT_WALK_POS_MAX	((1U << NDT_WALK_POS_BITS) - 1)

struct ndt_class {
	struct tc_ndt_flow_xstats st;
	u32 cursor;
	u32 minor;
};

struct ndt_walk_buf {
	struct ndt_class cl[NDT_WALK_CHUNK];
	u32 n;
	u32 next;	/* cursor of the first flow not copied */
};

/* Below 2^30 with 2^16 buckets: the walker's count is an int. */
static u32 ndt_cursor(u32 bucket, u32 pos)
{
	return bucket << NDT_WALK_POS_BITS | pos;
}

static void ndt_class_fill(struct ndt_class *c, const struct ndt_entry *e,
			   u32 bucket, u32 pos, u64 now)
{
	*c = (struct ndt_class) {
		.st = {
			.idle_ns = reflex_elapsed(now, e->core.last_seen_ns),
			.saddr = e->key.saddr,
			.daddr = e->key.daddr,
			.sport = e->key.sport,
			.dport = e->key.dport,
			.normal_pkts = e->core.normal_pkts,
			.ctl_pkts = e->core.ctl_pkts,
			.rtt_dst_last_ns = e->core.rtt_dst_last_ns,
			.status = e->core.status == NDT_CONGESTED ?
				  TC_NDT_CONGESTED : TC_NDT_NORMAL,
			.active = e->core.active,
			.closed = e->closed,
		},
		.cursor = ndt_cursor(bucket, pos),
		.minor = bucket % TC_H_MIN_MASK + 1,
	};
}

/*
 * Up to NDT_WALK_CHUNK flows into @w from its cursor on, and the cursor
 * past them (a bucket's flows past NDT_WALK_POS_MAX are out of reach).
 * Under q->lock.
 */
static void ndt_walk_copy(struct ndt_sched_data *q, struct ndt_walk_buf *w,
			  u64 now)
{
	u32 buckets = 1U << q->hash_bits;
	u32 b = w->next >> NDT_WALK_POS_BITS, pos;
	struct ndt_entry *e;

	for (w->n = 0; b < buckets; b++) {
		pos = 0;
		hlist_for_each_entry(e, &q->table[b], node) {
			if (pos > NDT_WALK_POS_MAX)
				break;
			if (ndt_cursor(b, pos) >= w->next) {
				if (w->n == NDT_WALK_CHUNK) {
					w->next = ndt_cursor(b, pos);
					return;
				}
				ndt_class_fill(&w->cl[w->n++], e, b, pos, now);
			}
			pos++;
		}
	}
	w->next = ndt_cursor(buckets, 0);
}

static void ndt_walk(struct Qdisc *sch, struct qdisc_walker *arg)
{
	struct ndt_sched_data *q = qdisc_priv(sch);
	struct ndt_walk_buf *w;
	u32 end, i;

	if (arg->stop || !q->table || arg->skip < 0)
		return;
	w = kmalloc(sizeof(*w), GFP_KERNEL);
	if (!w) {
		arg->stop = 1;
		return;
	}
	end = ndt_cursor(1U << q->hash_bits, 0);
	w->next = arg->skip;
	while (w->next < end && !arg->stop) {
		spin_lock_bh(&q->lock);
		ndt_walk_copy(q, w, ktime_get_ns());
		spin_unlock_bh(&q->lock);
		for (i = 0; i < w->n; i++) {
			arg->count = w->cl[i].cursor;
			if (arg->fn(sch, (unsigned long)&w->cl[i], arg) < 0) {
				arg->stop = 1;
				break;
			}
		}
	}
	if (!arg->stop)
		arg->count = w->next;
	kfree(w);
}

static int ndt_class_dump(struct Qdisc *sch, unsigned long cl,
			  struct sk_buff *skb, struct tcmsg *tcm)
{
	const struct ndt_class *c = (const struct ndt_class *)cl;

	tcm->tcm_parent = TC_H_ROOT;
	tcm->tcm_handle = TC_H_MAKE(sch->handle, c->minor);
	tcm->tcm_info = 0;
	return 0;
}

static int ndt_class_dump_stats(struct Qdisc *sch, unsigned long cl,
				struct gnet_dump *d)
{
	const struct ndt_class *c = (const struct ndt_class *)cl;

	return gnet_stats_copy_app(d, (void *)&c->st, sizeof(c->st));
}

/* No class can be named, attached to or grafted: they exist in dumps. */
static unsigned long ndt_find(struct Qdisc *sch, u32 classid)
{
	return 0;
}

static struct Qdisc *ndt_leaf(struct Qdisc *sch, unsigned long cl)
{
	return NULL;
}

static const struct Qdisc_class_ops ndt_class_ops = {
	.leaf		= ndt_leaf,
	.find		= ndt_find,
	.walk		= ndt_walk,
	.dump		= ndt_class_dump,
	.dump_stats	= ndt_class_dump_stats,
};

static struct Qdisc_ops ndt_qdisc_ops __read_mostly = {
	.cl_ops		= &ndt_class_ops,
	.id		= "ndt",
	.priv_size	= sizeof(struct ndt_sched_data),
	.enqueue	= ndt_enqueue,
	.dequeue	= ndt_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= ndt_init,
	.reset		= ndt_reset,
	.destroy	= ndt_destroy,
	.change		= ndt_change,
	.dump		= ndt_dump,
	.dump_stats	= ndt_dump_stats,
	.owner		= THIS_MODULE,
};

static int __init ndt_module_init(void)
{
	BUILD_BUG_ON(TC_NDT_ONE != REFLEX_PPM_ONE);
	BUILD_BUG_ON(NDT_HASH_BITS_MAX + NDT_WALK_POS_BITS > 30);
	return register_qdisc(&ndt_qdisc_ops);
}

static void __exit ndt_module_exit(void)
{
	unregister_qdisc(&ndt_qdisc_ops);
}

module_init(ndt_module_init);
module_exit(ndt_module_exit);
MODULE_DESCRIPTION("Reflex near-destination throttling: Normal and Controlled queues");
MODULE_LICENSE("GPL");
#ifdef MODULE_ALIAS_NET_SCH
/* From 6.10, tc loads a qdisc's module by this alias only. */
MODULE_ALIAS_NET_SCH("ndt");
#endif
