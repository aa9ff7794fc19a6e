/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ARCANE over TCP (../shared/spec/arcane.md section 3.7, mode "T"): which
 * EVs a cumulative ACK proved good, as pure integer functions.
 *
 * ARCANE recycles an EV once for each clean echo of it (arcane_core.h).
 * UDP's shim echoes each packet's EV; a TCP ACK carries no EV, only the
 * next sequence number the receiver wants and, from a DCTCP (or uno)
 * receiver, an ECE bit that describes the segments the ACK newly covers:
 * such a receiver ACKs at once whenever the CE state of what it receives
 * changes (arcane.md 3.7 item 3). So the sender logs, per flow, each data
 * segment's end sequence number and the EV it left with (arcane.md 3.7
 * item 2: a ring txlog[64]); an ACK pops the entries it covers, at most
 * ARCANE_TXLOG_POP_MAX of them, and hands each EV to arcane_on_feedback()
 * with the ACK's ECE bit as its CE echo.
 *
 * A segment that resends data already sent means an earlier copy of the
 * data most likely died on its path, so when the cumulative ACK covers
 * that copy at last, its EV buys nothing, as a loss buys nothing in
 * arcane_core.h. The log keeps the hull of the data resent, [resent_lo,
 * resent_hi), and counts the resends: an entry inside the hull that left
 * before the latest resend is withheld, a first copy or an earlier resend
 * alike, since either may be what the latest resend replaced. Only the
 * latest resend's entries are recycled when covered. Between two holes
 * resent in one recovery, the hull also withholds segments, and resends,
 * that did arrive: it errs towards recycling less, and needs no scan of
 * the log per resend, which the BPF verifier would walk once per entry
 * (64 times the body, on every path). arcane.md 3.7 instead withholds
 * every EV of an ACK whose range holds a resend, which would miss a lost
 * copy more than POP_MAX entries ahead of its resend. SACK blocks are not
 * read (3.7 item 4): while a hole stands the cumulative ACK stalls,
 * nothing is recycled, and the flow explores.
 *
 * The log of a new flow is all zeros, and a new connection on the same
 * ports starts one (arcane_txlog_on_syn()). The caller keeps it next to
 * the flow's struct arcane_flow and calls these functions under the same
 * lock; they call no helper and loop only up to a constant, for the BPF
 * verifier. Sequence numbers compare modulo 2^32, as TCP's before().
 */
#ifndef _ARCANE_TXLOG_H
#define _ARCANE_TXLOG_H

#include "core_types.h"
#include "arcane_core.h"

#define ARCANE_TXLOG_LEN	64	/* txlog[64] (arcane.md 3.7) */
#define ARCANE_TXLOG_MASK	(ARCANE_TXLOG_LEN - 1)
#define ARCANE_TXLOG_POP_MAX	16	/* entries one ACK pops (3.7) */

struct arcane_txlog_entry {
	u32 seq;
	u32 end_seq;
	u16 ev;
	u16 resends;			/* the log's resends when it left */
};

struct arcane_txlog {
	struct arcane_txlog_entry ring[ARCANE_TXLOG_LEN];
	u32 max_end_seq;		/* the highest end_seq sent */
	u32 resent_lo;			/* the hull of the data resent, */
	u32 resent_hi;			/* empty while lo == hi */
	u16 resends;			/* segments that resent data */
	u8 head;			/* the oldest entry's slot */
	u8 count;			/* entries, 0..ARCANE_TXLOG_LEN */
	u8 started;			/* max_end_seq is set */
	u8 pad[7];
	u64 overwritten;		/* entries dropped from a full log */
};

/* What one ACK did with the entries it covered. */
struct arcane_txlog_acked {
	u32 good;			/* EVs recycled (ECE clear) */
	u32 ce;				/* EVs not recycled: ECE set */
	u32 withheld;			/* EVs not recycled: resent since */
};

/* a before b, modulo 2^32 (TCP's before()). */
static __always_inline bool arcane_seq_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

/*
 * A new connection on the flow's ports: nothing of the last one is its,
 * and sequence numbers start over.
 */
static __always_inline void arcane_txlog_reset(struct arcane_txlog *log)
{
	log->max_end_seq = 0;
	log->resent_lo = 0;
	log->resent_hi = 0;
	log->resends = 0;
	log->head = 0;
	log->count = 0;
	log->started = 0;
}

/*
 * A SYN without ACK at seq, about to be logged: a new connection, unless
 * it resends the SYN the log holds (whose end is seq + 1).
 */
static __always_inline void arcane_txlog_on_syn(struct arcane_txlog *log,
						u32 seq)
{
	if (log->started && log->max_end_seq == seq + 1)
		return;
	arcane_txlog_reset(log);
}

/* Data [seq, end_seq) resent: the hull grows to hold it. */
static __always_inline void arcane_txlog_resent(struct arcane_txlog *log,
						u32 seq, u32 end_seq)
{
	log->resends++;
	if (log->resent_lo == log->resent_hi) {
		log->resent_lo = seq;
		log->resent_hi = end_seq;
		return;
	}
	if (arcane_seq_before(seq, log->resent_lo))
		log->resent_lo = seq;
	if (arcane_seq_before(log->resent_hi, end_seq))
		log->resent_hi = end_seq;
}

/*
 * Was e a copy of data resent since it left: inside the hull, and older
 * than the latest resend?
 */
static __always_inline bool arcane_txlog_lost(const struct arcane_txlog *log,
					      const struct arcane_txlog_entry *e)
{
	return e->resends != log->resends &&
	       log->resent_lo != log->resent_hi &&
	       arcane_seq_before(e->seq, log->resent_hi) &&
	       arcane_seq_before(log->resent_lo, e->end_seq);
}

/*
 * A data segment [seq, end_seq) left with ev: log it, the oldest entry
 * making room if the log is full (which only loses what that entry would
 * have taught). It resends data if it starts below the highest end_seq
 * sent so far.
 */
static __always_inline void arcane_txlog_on_send(struct arcane_txlog *log,
						 u32 seq, u32 end_seq, u16 ev)
{
	struct arcane_txlog_entry *e;

	if (log->started && arcane_seq_before(seq, log->max_end_seq))
		arcane_txlog_resent(log, seq, end_seq);
	if (!log->started || arcane_seq_before(log->max_end_seq, end_seq))
		log->max_end_seq = end_seq;
	log->started = 1;
	if (log->count >= ARCANE_TXLOG_LEN) {
		log->head = (log->head + 1) & ARCANE_TXLOG_MASK;
		log->count--;
		log->overwritten++;
	}
	e = &log->ring[(log->head + log->count) & ARCANE_TXLOG_MASK];
	e->seq = seq;
	e->end_seq = end_seq;
	e->ev = ev;
	e->resends = log->resends;
	log->count++;
}

/*
 * An ACK up to ack_seq, ECE as the receiver echoed it: the entries it
 * covers, oldest first and at most ARCANE_TXLOG_POP_MAX, leave the log and
 * feed the flow's law (arcane.md 3.7 item 2). An entry behind one the ACK
 * does not cover waits for a later ACK. acked counts what was done.
 */
static __always_inline void arcane_txlog_on_ack(struct arcane_txlog *log,
						struct arcane_flow *f,
						const struct arcane_params *p,
						u32 ack_seq, bool ece,
						struct arcane_txlog_acked *acked)
{
	struct arcane_txlog_entry *e;
	u32 i;

	acked->good = 0;
	acked->ce = 0;
	acked->withheld = 0;
	for (i = 0; i < ARCANE_TXLOG_POP_MAX; i++) {
		if (!log->count)
			break;
		e = &log->ring[log->head & ARCANE_TXLOG_MASK];
		if (arcane_seq_before(ack_seq, e->end_seq))
			break;
		log->head = (log->head + 1) & ARCANE_TXLOG_MASK;
		log->count--;
		if (arcane_txlog_lost(log, e)) {
			acked->withheld++;
			continue;
		}
		arcane_on_feedback(f, p, ARCANE_FB_ACK, e->ev, ece);
		if (ece)
			acked->ce++;
		else
			acked->good++;
	}
	/*
	 * The ACK covers the hull and left nothing it covers in the log:
	 * no first copy inside the hull is left, and the next recovery
	 * starts a hull of its own (a hull grown over many would soon span
	 * half the sequence space, where before() stops ordering).
	 */
	e = &log->ring[log->head & ARCANE_TXLOG_MASK];
	if (!arcane_seq_before(ack_seq, log->resent_hi) &&
	    (!log->count || arcane_seq_before(ack_seq, e->end_seq)))
		log->resent_lo = log->resent_hi;
}

#endif /* _ARCANE_TXLOG_H */
