/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reflex: the gateway laws as pure integer functions. Near-Source Feedback
 * (NSF) at the source DC's gateway, the sender's acceptance of its
 * pseudo-ACKs, and Near-Destination Throttling (NDT) at the destination
 * DC's gateway (../shared/spec/reflex.md, sections 2.1-2.6, the stamp of
 * 4.3, the maps of 4.4 and 4.5, the defaults of 7; Reflex paper sections
 * III-C, III-D and Table I).
 *
 * NSF (spec 2.3, 2.4). Per inter-DC data flow, a machine SILENT -> ACTIVE
 * -> COOLING -> SILENT driven by T_src, each data packet's one-way delay
 * from its sender to the gateway's WAN egress. A packet with T_src above
 * T_src_thresh makes a silent flow ACTIVE and is answered at once by a
 * pseudo-ACK that echoes its transmit stamp; while the flow is not SILENT
 * a data packet is answered when T_interval has passed since the flow's
 * previous pseudo-ACK. When T_src falls back, COOLING still answers N_cool
 * more times (cool_unit PACK, the default, 7.1) or for N_cool more data
 * packets (PACKET, the paper's literal text), so that TIMELY sees the
 * RTT fall. nsf_on_data() is the pseudo-code's on_data_packet() without
 * its lookup and forward: the data packet always leaves unchanged, and
 * the caller builds the pseudo-ACK from it (flow key, echo_ts, data_seq)
 * and from the struct nsf_pack filled in here. Of the fields of 2.4:
 *
 *	covered_pkts  pkts_since_pack before the reset, the triggering
 *	              packet included, so at least 1;
 *	fb_seq        the flow's count of pseudo-ACKs *after* this one: 1
 *	              for the first. The pseudo-code increments after
 *	              emitting, which could read as the count before (0
 *	              first); but then the sender's stale test (2.5) against
 *	              a zeroed last_fb_seq would drop every flow's first
 *	              pseudo-ACK. Counting from 1, a zeroed sender state
 *	              means "none yet";
 *	state         the state when emitted, before the decrement that may
 *	              end cooling: ACTIVE or COOLING, never SILENT (the last
 *	              cooling pseudo-ACK says COOLING);
 *	t_src         the gateway's measurement, as given.
 *
 * Sender (spec 2.5, 4.3). The transmit stamp and the age of an echoed
 * one, the same arithmetic for the gateway's T_src and the sender's
 * RTT_src, and reflex_accept(): stale feedback dropped, implausible RTTs
 * dropped, else a sample with num_acked = max(1, covered_pkts) for the
 * TIMELY or Swift core.
 *
 * NDT (spec 2.6, 4.5). Two queues on the gateway's port toward its DC,
 * Normal (N) and Controlled (C). A flow is CONGESTED while its latest
 * RTT_dst (gateway departure to the returning ACK) is above T_dst_thresh;
 * its packets, and every later one until its last packet in C has left,
 * go to C (no reordering when a flow recovers; nor when it turns
 * CONGESTED: its packets keep to N until its last one there has left,
 * our addition). The port serves N and C
 * by weighted round robin N_throttle : 1, and either alone when the other
 * is empty; it pauses C, for at most T_maxpause, while more than alpha of
 * the active flows are CONGESTED. The caller owns the flow table and the
 * queues: a flow's struct ndt_flow and the port's struct ndt_port are
 * plain values, and the functions below keep the port's counts (active
 * flows, CONGESTED active flows, packets in N and in C) exact as long as
 * the caller reports every enqueue, dequeue, RTT_dst sample, ageing and
 * removal. A packet the queue drops must be reported as a dequeue, or
 * its flow never leaves C.
 *
 * Units: times are u64 ns on one monotonic clock (netns share
 * CLOCK_MONOTONIC, 7.4), parameters at paper scale (a run time-dilated by
 * S multiplies them by S, spec conventions); alpha is parts per million,
 * so 0.7 is exact and the ratio test n_congested / n_active > alpha is
 * the product n_congested x 10^6 > alpha x n_active, without a division.
 * A time older than the latest one the state holds (two CPUs that read
 * the clock before taking the lock, in the other order) counts as no time
 * passed. The caller serialises: an NSF flow under its own lock, NDT
 * calls, which touch a flow and the port's counts, under one lock per
 * port. The header uses only the names of core_types.h: no libc, no
 * floating point, no division, no loop, no allocation, so it compiles in
 * a BPF program, the kernel and the C++ tests.
 */
#ifndef _REFLEX_CORE_H
#define _REFLEX_CORE_H

#include "core_types.h"

#define REFLEX_PPM_ONE		1000000U	/* 1.0 in ppm */

/*
 * Defaults (spec 2.2), at paper scale: the paper's Table I, except
 * T_active, T_rearm (= T_dst_thresh) and T_idle_gc (NSF and NDT alike),
 * which are the spec's [default]s.
 */
#define NSF_DEF_T_SRC_THRESH_NS		5000U
#define NSF_DEF_T_INTERVAL_TIMELY_NS	5000U
#define NSF_DEF_T_INTERVAL_SWIFT_NS	3000U
#define NSF_DEF_N_COOL			5U
#define NDT_DEF_T_DST_THRESH_NS		10000U
#define NDT_DEF_ALPHA_PPM		700000U		/* 0.7 */
#define NDT_DEF_N_THROTTLE		8U
#define NDT_DEF_T_MAXPAUSE_NS		500000U
#define NDT_DEF_T_ACTIVE_NS		100000U
#define NDT_DEF_T_REARM_NS		NDT_DEF_T_DST_THRESH_NS
#define REFLEX_DEF_T_IDLE_GC_NS		10000000U

/* Time from then_ns to now_ns; 0 if now_ns is the older (see above). */
static __always_inline u64 reflex_elapsed(u64 now_ns, u64 then_ns)
{
	return now_ns > then_ns ? now_ns - then_ns : 0;
}

/*
 * The transmit stamp (spec 4.3). The default is the IP-ID stamp: the low
 * 16 bits of clock_ns >> k in the IPv4 Identification field of each data
 * segment, k chosen so that the wrap period 2^(16+k) ns is at least four
 * times the longest RTT_src (k = 6, 13, 16 at S = 1, 100, 1000). Both the
 * gateway's T_src and the sender's RTT_src are the age of such a stamp on
 * the shared clock, modulo the wrap period. The same arithmetic serves
 * any stamp that is a count of 2^k ns units, kept to its low "bits" bits
 * (bits + k <= 64): bits 32 and k 0 for a 32-bit ns stamp, bits 64 and
 * k 0 for the whole clock. (The TSval alternative counts us, no power of
 * two of ns: its caller takes the age in us with bits 32, k 0, and scales
 * both age and bound.)
 */
#define REFLEX_STAMP_BITS	16	/* the IP-ID stamp */

static __always_inline u16 reflex_stamp16(u64 now_ns, u32 k)
{
	return (u16)(now_ns >> k);
}

/*
 * The age, ns, at now_ns of stamp: ((now >> k) - stamp) mod 2^bits units
 * of 2^k ns. Both ends are truncated to whole units, so it is exact to
 * within one unit. A stamp from the future, a negative age, reads as
 * nearly the whole wrap period.
 */
static __always_inline u64 reflex_stamp_age_ns(u64 now_ns, u64 stamp,
					       u32 bits, u32 k)
{
	u64 mask = bits >= 64 ? ~0ULL : BIT_ULL(bits) - 1;

	return (((now_ns >> k) - stamp) & mask) << k;
}

/*
 * RTT_SRC_MAX (spec 2.5 [default]): a quarter of the wrap period,
 * 2^(bits + k - 2) ns, for 2 <= bits and bits + k <= 64. For the IP-ID
 * stamp 2^(14+k): 1.05 ms at k = 6, 134 ms at k = 13, 1.07 s at k = 16;
 * 2^30 ns (1.07 s) for a 32-bit ns stamp, 2^62 ns for a 64-bit one. By
 * the choice of k no real RTT_src comes near it: an age above it is a
 * stamp from the future (a negative RTT, modulo the period) or one too
 * old to tell from a wrapped one.
 */
static __always_inline u64 reflex_rtt_src_max_ns(u32 bits, u32 k)
{
	return BIT_ULL(bits + k - 2);
}

/* reflex_accept() */
#define REFLEX_FB_ACCEPT	0	/* a sample for the CC */
#define REFLEX_FB_STALE		1	/* fb_seq not after the last */
#define REFLEX_FB_BAD_RTT	2	/* RTT_src 0 or > RTT_SRC_MAX */

/* What an accepted pseudo-ACK gives the CC core (spec 2.5, 3.3). */
struct reflex_sample {
	u64 rtt_ns;		/* RTT_src */
	u32 num_acked;		/* max(1, covered_pkts), for Swift */
};

/*
 * on_pseudo_ack() (spec 2.5), for a pseudo-ACK of a flow that has Reflex
 * enabled and came from a configured gateway (the caller's lookup and
 * checks, 4.4 H1): fb_seq and covered_pkts as carried, rtt_src_ns the
 * echoed stamp's age, reflex_stamp_age_ns(). *last_fb_seq is the flow's,
 * 0 for a new flow. Returns REFLEX_FB_*, and fills *sample on
 * REFLEX_FB_ACCEPT only.
 *
 * The spec's order is kept: feedback that is not newer is dropped first;
 * then last_fb_seq advances, so a pseudo-ACK with an implausible RTT
 * still makes older ones stale. "fb_seq <= last_fb_seq" is compared in
 * serial number arithmetic, as TCP's before(): the same answer for any
 * two values less than 2^31 apart, and right across the wrap of the
 * gateway's 32-bit counter. "rtt_src <= 0": a modular age is never
 * negative, so this is rtt_src == 0; a negative one is above the bound.
 */
static __always_inline u32 reflex_accept(u32 *last_fb_seq, u32 fb_seq,
					 u32 covered_pkts, u64 rtt_src_ns,
					 u64 rtt_src_max_ns,
					 struct reflex_sample *sample)
{
	if ((s32)(fb_seq - *last_fb_seq) <= 0)
		return REFLEX_FB_STALE;
	*last_fb_seq = fb_seq;
	if (!rtt_src_ns || rtt_src_ns > rtt_src_max_ns)
		return REFLEX_FB_BAD_RTT;
	sample->rtt_ns = rtt_src_ns;
	sample->num_acked = covered_pkts ? covered_pkts : 1;
	return REFLEX_FB_ACCEPT;
}

/* NSF flow states (spec 2.3), the values the pseudo-ACK's state carries. */
#define NSF_SILENT		0
#define NSF_ACTIVE		1
#define NSF_COOLING		2

/* cool_unit: what one step of cooling is (spec 2.2, 7.1) */
#define NSF_COOL_PACK		0	/* an emitted pseudo-ACK */
#define NSF_COOL_PACKET		1	/* a data packet (literal) */

#define NSF_N_COOL_MAX		255U	/* cool_left is a u8 */

/* Configuration of a source gateway. */
struct nsf_params {
	u64 t_src_thresh_ns;	/* T_src above this is congestion */
	u64 t_interval_ns;	/* least spacing of a flow's pseudo-ACKs */
	u64 t_idle_gc_ns;	/* a flow idle longer is deleted */
	u32 n_cool;		/* N_cool, 1..NSF_N_COOL_MAX */
	u32 cool_unit;		/* NSF_COOL_* */
};

/* Per-flow state (spec 2.3's NsfFlow), 32 bytes. */
struct nsf_flow {
	u64 last_pack_ns;	/* latest pseudo-ACK */
	u64 last_seen_ns;	/* latest data packet */
	u32 pkts_since_pack;	/* data packets since it, saturating */
	u32 fb_seq;		/* pseudo-ACKs emitted, wrapping */
	u8 state;		/* NSF_SILENT, NSF_ACTIVE or NSF_COOLING */
	u8 cool_left;		/* COOLING: units of cooling left */
};

/* What nsf_on_data() tells the builder of a pseudo-ACK (spec 2.4). */
struct nsf_pack {
	u64 t_src_ns;		/* the gateway's T_src (diagnostics) */
	u32 covered_pkts;	/* data packets it stands for, >= 1 */
	u32 fb_seq;		/* its sequence number, from 1 */
	u8 state;		/* NSF_ACTIVE or NSF_COOLING */
	u8 first;		/* it opens an episode: flag FIRST (4.4) */
};

/*
 * The spec's defaults with pseudo-ACKs at least t_interval_ns apart:
 * NSF_DEF_T_INTERVAL_TIMELY_NS or NSF_DEF_T_INTERVAL_SWIFT_NS.
 */
static __always_inline void nsf_params_default(struct nsf_params *p,
					       u64 t_interval_ns)
{
	p->t_src_thresh_ns = NSF_DEF_T_SRC_THRESH_NS;
	p->t_interval_ns = t_interval_ns;
	p->t_idle_gc_ns = REFLEX_DEF_T_IDLE_GC_NS;
	p->n_cool = NSF_DEF_N_COOL;
	p->cool_unit = NSF_COOL_PACK;
}

/*
 * Are the params usable? N_cool in 1..255: cooling of 0 would end before
 * it began, and cool_left holds it. Any threshold and interval is a law:
 * an interval of 0 answers every packet of a flow that is not SILENT.
 */
static __always_inline bool nsf_params_valid(const struct nsf_params *p)
{
	return p->n_cool >= 1 && p->n_cool <= NSF_N_COOL_MAX &&
	       p->cool_unit <= NSF_COOL_PACKET;
}

/* A new flow, at its first data packet: SILENT, nothing counted. */
static __always_inline void nsf_flow_init(struct nsf_flow *f)
{
	f->last_pack_ns = 0;
	f->last_seen_ns = 0;
	f->pkts_since_pack = 0;
	f->fb_seq = 0;
	f->state = NSF_SILENT;
	f->cool_left = 0;
}

/* One unit of cooling spent; the last one silences the flow. */
static __always_inline void nsf_cool_step(struct nsf_flow *f)
{
	if (f->cool_left > 1) {
		f->cool_left--;
		return;
	}
	f->cool_left = 0;
	f->state = NSF_SILENT;
}

/*
 * on_data_packet() (spec 2.3): a data packet of flow f, with payload, of
 * an inter-DC flow from the local DC (7.13), at the WAN egress at now_ns,
 * t_src_ns after its sender stamped it. Returns true if it is to be
 * answered by a pseudo-ACK, whose fields *pack then holds.
 */
static __always_inline bool nsf_on_data(struct nsf_flow *f,
					const struct nsf_params *p,
					u64 now_ns, u64 t_src_ns,
					struct nsf_pack *pack)
{
	bool hot = t_src_ns > p->t_src_thresh_ns;
	bool force = false;

	f->last_seen_ns = now_ns;
	if (f->pkts_since_pack != 0xffffffffU)
		f->pkts_since_pack++;

	switch (f->state) {
	case NSF_SILENT:
		if (hot) {
			/* the first pseudo-ACK of an episode leaves at once */
			f->state = NSF_ACTIVE;
			force = true;
		}
		break;
	case NSF_ACTIVE:
		if (!hot) {
			f->state = NSF_COOLING;
			/* n_cool <= 255, nsf_params_valid() */
			f->cool_left = (u8)p->n_cool;
		}
		break;
	case NSF_COOLING:
		if (hot)
			f->state = NSF_ACTIVE;	/* congestion came back */
		else if (p->cool_unit == NSF_COOL_PACKET)
			nsf_cool_step(f);
		break;
	}

	/*
	 * A flow that is not SILENT entered ACTIVE through a forced
	 * pseudo-ACK, so last_pack_ns is set whenever it is read.
	 */
	if (f->state == NSF_SILENT ||
	    (!force &&
	     reflex_elapsed(now_ns, f->last_pack_ns) < p->t_interval_ns))
		return false;

	pack->t_src_ns = t_src_ns;
	pack->covered_pkts = f->pkts_since_pack;
	pack->fb_seq = ++f->fb_seq;
	pack->state = f->state;
	pack->first = force;
	f->last_pack_ns = now_ns;
	f->pkts_since_pack = 0;
	/* COOLING here means not hot: a hot packet made the flow ACTIVE. */
	if (f->state == NSF_COOLING && p->cool_unit == NSF_COOL_PACK)
		nsf_cool_step(f);
	return true;
}

/*
 * May the flow's state be deleted (spec 2.3: idle > T_idle_gc)? FIN and
 * RST delete it too, which is the caller's alone.
 */
static __always_inline bool nsf_flow_idle(const struct nsf_flow *f,
					  const struct nsf_params *p,
					  u64 now_ns)
{
	return reflex_elapsed(now_ns, f->last_seen_ns) > p->t_idle_gc_ns;
}

/* NDT flow status (spec 2.6) */
#define NDT_NORMAL		0
#define NDT_CONGESTED		1

/* ndt_schedule(): the queue the port sends its next packet from */
#define NDT_PICK_NONE		0
#define NDT_PICK_NORMAL		1
#define NDT_PICK_CTL		2

/* Return bits of ndt_on_enqueue() and ndt_on_ack(). */
#define NDT_EV_CTL		0x01	/* the packet goes to C */
#define NDT_EV_PAUSE		0x02	/* C paused by this call */
#define NDT_EV_RESUME		0x04	/* C resumed: ratio <= alpha */

/* Configuration of a destination gateway's port. */
struct ndt_params {
	u64 t_dst_thresh_ns;	/* RTT_dst above this: CONGESTED */
	u64 t_maxpause_ns;	/* longest pause of C */
	u64 t_rearm_ns;		/* no pause this long after a timeout */
	u64 t_active_ns;	/* a flow idle this long is not active */
	u64 t_idle_gc_ns;	/* a flow idle longer is deleted */
	u32 alpha_ppm;		/* congested ratio that pauses C */
	u32 n_throttle;		/* WRR weight of N against 1 of C */
};

/* Per-flow state (spec 2.6's NdtFlow), 32 bytes. */
struct ndt_flow {
	u64 last_seen_ns;	/* latest data packet from the WAN */
	u32 ctl_pkts;		/* its packets now in C */
	u32 normal_pkts;	/* its packets now in N */
	u32 rtt_dst_last_ns;	/* latest RTT_dst, saturating */
	u8 status;		/* NDT_NORMAL or NDT_CONGESTED */
	u8 active;		/* counted in n_active */
};

/* The port's state (spec 2.6's globals), 40 bytes. */
struct ndt_port {
	u64 pause_start_ns;	/* when C was paused */
	u64 rearm_after_ns;	/* no pause before, after a timeout */
	u32 n_active;		/* active flows */
	u32 n_congested;	/* ... of them CONGESTED */
	u32 normal_qlen;	/* packets in N */
	u32 ctl_qlen;		/* packets in C */
	u32 wrr_credit;		/* N packets left before C's turn */
	u8 paused;		/* C is not served */
	u8 rearm_wait_ack;	/* a timeout resume, no ACK since */
};

static __always_inline void ndt_params_default(struct ndt_params *p)
{
	p->t_dst_thresh_ns = NDT_DEF_T_DST_THRESH_NS;
	p->t_maxpause_ns = NDT_DEF_T_MAXPAUSE_NS;
	p->t_rearm_ns = NDT_DEF_T_REARM_NS;
	p->t_active_ns = NDT_DEF_T_ACTIVE_NS;
	p->t_idle_gc_ns = REFLEX_DEF_T_IDLE_GC_NS;
	p->alpha_ppm = NDT_DEF_ALPHA_PPM;
	p->n_throttle = NDT_DEF_N_THROTTLE;
}

/*
 * Are the params usable? alpha in [0, 1] (1 never pauses); N_throttle at
 * least 1, as 0 would starve N; a pause and an activity window of at
 * least 1 ns; and T_idle_gc >= T_active, so that a flow is no longer
 * active, and out of the counts, when it may be deleted.
 */
static __always_inline bool ndt_params_valid(const struct ndt_params *p)
{
	return p->alpha_ppm <= REFLEX_PPM_ONE && p->n_throttle &&
	       p->t_maxpause_ns && p->t_active_ns &&
	       p->t_idle_gc_ns >= p->t_active_ns;
}

/* A port with empty queues, no flow, C served, a full WRR credit. */
static __always_inline void ndt_port_init(struct ndt_port *port,
					  const struct ndt_params *p)
{
	port->pause_start_ns = 0;
	port->rearm_after_ns = 0;
	port->n_active = 0;
	port->n_congested = 0;
	port->normal_qlen = 0;
	port->ctl_qlen = 0;
	port->wrr_credit = p->n_throttle;
	port->paused = 0;
	port->rearm_wait_ack = 0;
}

/* A new flow, before its first packet is enqueued: NORMAL, not active. */
static __always_inline void ndt_flow_init(struct ndt_flow *f)
{
	f->last_seen_ns = 0;
	f->ctl_pkts = 0;
	f->normal_pkts = 0;
	f->rtt_dst_last_ns = 0;
	f->status = NDT_NORMAL;
	f->active = 0;
}

/*
 * ratio() > alpha (spec 2.6): n_congested / max(1, n_active) > alpha,
 * as n_congested x 10^6 > alpha_ppm x max(1, n_active), both below 2^52.
 */
static __always_inline bool ndt_ratio_above(const struct ndt_port *port,
					    const struct ndt_params *p)
{
	u64 active = port->n_active ? port->n_active : 1;

	return (u64)port->n_congested * REFLEX_PPM_ONE >
	       (u64)p->alpha_ppm * active;
}

/*
 * maybe_pause() (spec 2.6): pause C if it holds packets and more than
 * alpha of the active flows are CONGESTED, unless a timeout resume is
 * still being re-armed: before rearm_after_ns, or before an ACK came
 * (7.7: "T_rearm and one new ACK", so that a pause is re-decided on
 * fresh RTT_dst, not on the state that timed out). Returns true if it
 * paused C.
 */
static __always_inline bool ndt_maybe_pause(struct ndt_port *port,
					    const struct ndt_params *p,
					    u64 now_ns)
{
	if (port->paused || port->rearm_wait_ack ||
	    now_ns < port->rearm_after_ns || !port->ctl_qlen ||
	    !ndt_ratio_above(port, p))
		return false;
	port->paused = 1;
	port->pause_start_ns = now_ns;
	return true;
}

/* The flow joins the active set, and the counts, if it was out. */
static __always_inline void ndt_flow_activate(struct ndt_flow *f,
					      struct ndt_port *port)
{
	if (f->active)
		return;
	f->active = 1;
	port->n_active++;
	if (f->status == NDT_CONGESTED)
		port->n_congested++;
}

/*
 * The flow leaves the active set and the counts: when it ages out
 * (ndt_flow_age()), or before the caller deletes it on FIN or RST (spec
 * 4.5, "FIN/RST remove them at once"). Packets of a deleted flow still in
 * C leave without a flow to book them to: ndt_on_dequeue() with f NULL.
 */
static __always_inline void ndt_flow_release(struct ndt_flow *f,
					     struct ndt_port *port)
{
	if (!f->active)
		return;
	f->active = 0;
	port->n_active--;
	if (f->status == NDT_CONGESTED)
		port->n_congested--;
}

/*
 * on_data_from_wan() (spec 2.6): a data packet of inter-DC flow f at the
 * port's enqueue point at now_ns. Returns NDT_EV_CTL if it goes to C (else
 * to N), with NDT_EV_PAUSE if it paused C.
 */
static __always_inline u32 ndt_on_enqueue(struct ndt_flow *f,
					  struct ndt_port *port,
					  const struct ndt_params *p,
					  u64 now_ns)
{
	u32 ev = 0;

	f->last_seen_ns = now_ns;
	ndt_flow_activate(f, port);
	/*
	 * A flow's packets follow its packets still queued, so that no
	 * change of status reorders it: one with packets in C stays there
	 * whatever its status, as a flow that recovers must (spec 2.6:
	 * packets in C are not re-examined, FIFO); and one that turns
	 * CONGESTED with packets in N stays in N until they have left.
	 * The spec states only the first; without the second, C's WRR turn
	 * sends the flow's new packet ahead of its older ones in N (the VM
	 * test saw the sender count it). Either way a flow has packets in
	 * one queue at most.
	 */
	if (f->ctl_pkts || (f->status == NDT_CONGESTED && !f->normal_pkts)) {
		f->ctl_pkts++;
		port->ctl_qlen++;
		ev = NDT_EV_CTL;
	} else {
		f->normal_pkts++;
		port->normal_qlen++;
	}
	if (ndt_maybe_pause(port, p, now_ns))
		ev |= NDT_EV_PAUSE;
	return ev;
}

/*
 * A packet that belongs to no tracked flow (not inter-DC data, or a new
 * flow with the caller's table full) joins N. It counts in N's length for
 * the schedule, and leaves by ndt_on_dequeue() with f NULL.
 */
static __always_inline void ndt_on_enqueue_untracked(struct ndt_port *port)
{
	port->normal_qlen++;
}

/*
 * on_dequeue() (spec 2.6): a packet left the port from C if from_ctl,
 * else from N; f is its flow, or NULL if the flow was deleted since. The
 * departure time that RTT_dst starts from is the caller's (4.5). Counts
 * never go below 0, whatever a caller that attached to a busy queue
 * reports.
 */
static __always_inline void ndt_on_dequeue(struct ndt_flow *f,
					   struct ndt_port *port,
					   bool from_ctl)
{
	if (!from_ctl) {
		if (port->normal_qlen)
			port->normal_qlen--;
		if (f && f->normal_pkts)
			f->normal_pkts--;
		return;
	}
	if (port->ctl_qlen)
		port->ctl_qlen--;
	if (f && f->ctl_pkts)
		f->ctl_pkts--;
}

/* set_status(): the status, and n_congested if the flow is counted. */
static __always_inline void ndt_set_status(struct ndt_flow *f,
					   struct ndt_port *port, u8 status)
{
	if (f->status == status)
		return;
	f->status = status;
	if (!f->active)
		return;
	if (status == NDT_CONGESTED)
		port->n_congested++;
	else
		port->n_congested--;
}

/*
 * on_ack_toward_wan() (spec 2.6): an ACK of flow f at now_ns brought the
 * sample rtt_dst_ns (with seq sampling, 4.5 and 7.9, only ACKs that
 * complete a sample are reported). The status is refreshed on every
 * sample, strictly above T_dst_thresh being CONGESTED. Then a paused C
 * resumes if the ratio fell to alpha or below, and a running one may
 * pause. Returns NDT_EV_RESUME or NDT_EV_PAUSE if either happened.
 */
static __always_inline u32 ndt_on_ack(struct ndt_flow *f,
				      struct ndt_port *port,
				      const struct ndt_params *p,
				      u64 now_ns, u64 rtt_dst_ns)
{
	f->rtt_dst_last_ns = rtt_dst_ns > 0xffffffffULL ? 0xffffffffU :
			     (u32)rtt_dst_ns;
	ndt_set_status(f, port, rtt_dst_ns > p->t_dst_thresh_ns ?
				NDT_CONGESTED : NDT_NORMAL);
	port->rearm_wait_ack = 0;
	if (port->paused) {
		if (ndt_ratio_above(port, p))
			return 0;
		port->paused = 0;
		return NDT_EV_RESUME;
	}
	return ndt_maybe_pause(port, p, now_ns) ? NDT_EV_PAUSE : 0;
}

/*
 * The pause's bound (spec 2.6, T_maxpause): a pause that has lasted
 * T_maxpause ends, and none may start before T_rearm from now and an
 * ACK. ndt_schedule() checks it on each call; a controller that pauses
 * the queue from outside (4.5, ndt-ctl) calls it from its timer. Returns
 * true if it resumed C.
 */
static __always_inline bool ndt_pause_expired(struct ndt_port *port,
					      const struct ndt_params *p,
					      u64 now_ns)
{
	if (!port->paused ||
	    reflex_elapsed(now_ns, port->pause_start_ns) < p->t_maxpause_ns)
		return false;
	port->paused = 0;
	port->rearm_after_ns = now_ns + p->t_rearm_ns;
	port->rearm_wait_ack = 1;
	return true;
}

/*
 * scheduler_dequeue() (spec 2.6): which queue the port sends from at
 * now_ns, when it can send; NDT_PICK_NONE if neither may. The caller pops
 * that queue's head and reports it with ndt_on_dequeue(). With both
 * queues eligible, N_throttle packets of N, then one of C (weighted round
 * robin counted in packets, 7.8); either queue alone takes the whole link
 * (work-conserving), except that a paused C is never served, even on an
 * idle link.
 */
static __always_inline u32 ndt_schedule(struct ndt_port *port,
					const struct ndt_params *p,
					u64 now_ns)
{
	bool normal, ctl;

	ndt_pause_expired(port, p, now_ns);
	normal = port->normal_qlen > 0;
	ctl = port->ctl_qlen > 0 && !port->paused;
	if (normal && ctl) {
		if (port->wrr_credit) {
			port->wrr_credit--;
			return NDT_PICK_NORMAL;
		}
		port->wrr_credit = p->n_throttle;
		return NDT_PICK_CTL;
	}
	if (normal)
		return NDT_PICK_NORMAL;
	if (ctl)
		return NDT_PICK_CTL;
	return NDT_PICK_NONE;
}

/*
 * The ageing timer's step for one flow (spec 4.5): a flow stays active
 * while now - last_seen < T_active or it has packets in C. Returns true
 * if the flow has just left the active set.
 */
static __always_inline bool ndt_flow_age(struct ndt_flow *f,
					 struct ndt_port *port,
					 const struct ndt_params *p,
					 u64 now_ns)
{
	if (!f->active || f->ctl_pkts ||
	    reflex_elapsed(now_ns, f->last_seen_ns) < p->t_active_ns)
		return false;
	ndt_flow_release(f, port);
	return true;
}

/*
 * May the flow's state be deleted (spec 2.2: idle > T_idle_gc)? Only once
 * ndt_flow_age() has taken it out of the counts; with T_idle_gc >=
 * T_active that has happened by then if the timer runs. FIN and RST
 * delete at once, after ndt_flow_release().
 */
static __always_inline bool ndt_flow_idle(const struct ndt_flow *f,
					  const struct ndt_params *p,
					  u64 now_ns)
{
	return !f->active &&
	       reflex_elapsed(now_ns, f->last_seen_ns) > p->t_idle_gc_ns;
}

#endif /* _REFLEX_CORE_H */
