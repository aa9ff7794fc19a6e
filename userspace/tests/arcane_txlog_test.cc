// SPDX-License-Identifier: GPL-2.0
//
// Unit tests of ARCANE over TCP, kernel/core/arcane_txlog.h (arcane.md
// section 3.7): deterministic traces of data segments and cumulative ACKs
// with exact log contents, recycled EVs and counters.
//
// Reference setup unless a test says otherwise: NUM_EV 256, CACHE_SIZE 8,
// an initial phase of 4 packets (EVs 0..3), segments of 1000 bytes from
// sequence number 1000.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "arcane_txlog.h"

static_assert((ARCANE_TXLOG_LEN & (ARCANE_TXLOG_LEN - 1)) == 0,
	      "the log's mask needs a power of two");
static_assert(ARCANE_TXLOG_LEN <= 255, "count and head are u8");

namespace {

using Evs = std::vector<u32>;

constexpr u32 kMss = 1000;
constexpr u32 kIsn = 1000;

struct Tcp {
	arcane_params p = { 256, 8, 4 };
	arcane_flow f;
	arcane_txlog log;
	u32 snd_nxt = kIsn;

	Tcp()
	{
		arcane_init(&f);
		std::memset(&log, 0, sizeof(log));
	}

	// The next new segment of len bytes: its EV, from the law, logged.
	u32 Send(u32 len = kMss)
	{
		const u16 ev = arcane_next_ev(&f, &p);

		arcane_txlog_on_send(&log, snd_nxt, snd_nxt + len, ev);
		snd_nxt += len;
		return ev;
	}

	Evs Send(int n, u32 len)
	{
		Evs evs;

		for (int i = 0; i < n; i++)
			evs.push_back(Send(len));
		return evs;
	}

	// Data [seq, seq + len) sent again.
	u32 Resend(u32 seq, u32 len = kMss)
	{
		const u16 ev = arcane_next_ev(&f, &p);

		arcane_txlog_on_send(&log, seq, seq + len, ev);
		return ev;
	}

	arcane_txlog_acked Ack(u32 ack_seq, bool ece = false)
	{
		arcane_txlog_acked a;

		std::memset(&a, 0xa5, sizeof(a));
		arcane_txlog_on_ack(&log, &f, &p, ack_seq, ece, &a);
		return a;
	}

	// ARCANE's ring, oldest first.
	Evs Cache() const
	{
		Evs evs;

		for (u32 i = 0; i < f.count; i++)
			evs.push_back(f.ring[(f.head + i) % p.cache_size]);
		return evs;
	}

	// Whether each entry, oldest first, is a first copy of data resent.
	std::vector<bool> Lost() const
	{
		std::vector<bool> v;

		for (const arcane_txlog_entry &e : Entries())
			v.push_back(arcane_txlog_lost(&log, &e));
		return v;
	}

	// The log's entries, oldest first.
	std::vector<arcane_txlog_entry> Entries() const
	{
		std::vector<arcane_txlog_entry> v;

		for (u32 i = 0; i < log.count; i++)
			v.push_back(log.ring[(log.head + i) % ARCANE_TXLOG_LEN]);
		return v;
	}
};

void ExpectAcked(const arcane_txlog_acked &a, u32 good, u32 ce, u32 withheld)
{
	EXPECT_EQ(a.good, good);
	EXPECT_EQ(a.ce, ce);
	EXPECT_EQ(a.withheld, withheld);
}

}  // namespace

// Each segment is logged with its range and EV, in order; none resent.
TEST(arcane_txlog, SegmentsAreLoggedInOrder)
{
	Tcp t;

	EXPECT_EQ(t.Send(4, kMss), (Evs{ 0, 1, 2, 3 }));
	const auto e = t.Entries();
	ASSERT_EQ(e.size(), 4u);
	for (u32 i = 0; i < 4; i++) {
		EXPECT_EQ(e[i].seq, kIsn + i * kMss) << i;
		EXPECT_EQ(e[i].end_seq, kIsn + (i + 1) * kMss) << i;
		EXPECT_EQ(e[i].ev, i) << i;
		EXPECT_EQ(e[i].resends, 0) << i;
	}
	EXPECT_EQ(t.log.max_end_seq, kIsn + 4 * kMss);
	EXPECT_EQ(t.log.resends, 0);
}

// A clean ACK recycles exactly the EVs of the segments it covers, oldest
// first; one that ends inside a segment leaves it for a later ACK; the
// next packet past the initial phase takes the oldest of them (R2, R3).
TEST(arcane_txlog, CleanAckRecyclesTheCoveredEvs)
{
	Tcp t;

	t.Send(4, kMss);
	ExpectAcked(t.Ack(kIsn + 2 * kMss), 2, 0, 0);
	EXPECT_EQ(t.Cache(), (Evs{ 0, 1 }));
	ExpectAcked(t.Ack(kIsn + 3 * kMss - 1), 0, 0, 0);
	EXPECT_EQ(t.log.count, 2);
	EXPECT_EQ(t.Send(), 0u);
	ExpectAcked(t.Ack(kIsn + 3 * kMss), 1, 0, 0);
	EXPECT_EQ(t.Cache(), (Evs{ 1, 2 }));
	EXPECT_EQ(t.f.fb_good, 3u);
	// A duplicate ACK covers nothing new.
	ExpectAcked(t.Ack(kIsn + 3 * kMss), 0, 0, 0);
	EXPECT_EQ(t.log.count, 2);
}

// ECE on an ACK: the segments it covers were CE-marked, their EVs are not
// recycled (spec 2.5), and the flow explores once the cache is dry (R7).
TEST(arcane_txlog, EceAckRecyclesNothing)
{
	Tcp t;

	t.Send(4, kMss);
	ExpectAcked(t.Ack(kIsn + 3 * kMss, true), 0, 3, 0);
	EXPECT_TRUE(t.Cache().empty());
	EXPECT_EQ(t.f.fb_ce, 3u);
	EXPECT_EQ(t.Send(), 4u);
	ExpectAcked(t.Ack(kIsn + 5 * kMss), 2, 0, 0);
	EXPECT_EQ(t.Cache(), (Evs{ 3, 4 }));
}

// A fast retransmission of the second segment: its first copy's entry is
// marked lost and its EV withheld when the ACK covers it at last; the
// resending entry and the others are recycled.
TEST(arcane_txlog, ResentDataWithholdsTheFirstCopysEv)
{
	Tcp t;

	t.Send(4, kMss);
	ExpectAcked(t.Ack(kIsn + kMss), 1, 0, 0);	// then dup ACKs
	EXPECT_EQ(t.Resend(kIsn + kMss), 0u);		// the cached EV 0
	auto e = t.Entries();
	ASSERT_EQ(e.size(), 4u);
	EXPECT_EQ(t.Lost(), (std::vector<bool>{ true, false, false, false })); // EV 1's copy
	EXPECT_EQ(e[3].resends, 1);
	EXPECT_EQ(e[3].ev, 0);
	EXPECT_EQ(t.log.resent_lo, kIsn + kMss);
	EXPECT_EQ(t.log.resent_hi, kIsn + 2 * kMss);
	EXPECT_EQ(t.log.max_end_seq, kIsn + 4 * kMss);
	EXPECT_EQ(t.log.resends, 1);
	ExpectAcked(t.Ack(kIsn + 4 * kMss), 3, 0, 1);
	EXPECT_EQ(t.Cache(), (Evs{ 2, 3, 0 }));
	EXPECT_EQ(t.log.count, 0);
}

// A resent range that straddles two entries, and one of old and new
// bytes, which also raises the highest end sent: the hull holds both, and
// every entry that overlaps it and left before the latest resend is
// withheld, the first resend too.
TEST(arcane_txlog, PartialResendsGrowTheHull)
{
	Tcp t;

	t.Send(3, kMss);			// [1000,2000) [2000,3000) [3000,4000)
	t.Resend(kIsn + 500, kMss);		// [1500,2500)
	EXPECT_EQ(t.Lost(), (std::vector<bool>{ true, true, false, false }));
	t.Resend(kIsn + 2500, 2 * kMss);	// [3500,5500): old and new
	EXPECT_EQ(t.Lost(), (std::vector<bool>{ true, true, true, true, false }));
	EXPECT_EQ(t.Entries()[4].resends, 2);
	EXPECT_EQ(t.log.resent_lo, kIsn + 500);
	EXPECT_EQ(t.log.resent_hi, kIsn + 4500);
	EXPECT_EQ(t.log.max_end_seq, kIsn + 4500);
	EXPECT_EQ(t.log.resends, 2);
	// Touching ends do not overlap: [5500,6500) is new, and not lost.
	t.snd_nxt = kIsn + 4500;
	t.Send();
	EXPECT_EQ(t.Entries()[5].resends, 2);
	EXPECT_FALSE(t.Lost()[5]);
	ExpectAcked(t.Ack(kIsn + 5500), 2, 0, 4);
}

// Two holes resent in one recovery: the hull spans them, and withholds
// the first copies between them too, which did arrive, and the first
// hole's resend (the documented cost of not scanning the log). Once an ACK covers the hull and pops all
// it covers, the hull is emptied: the next recovery's holes alone count.
TEST(arcane_txlog, TheHullSpansOneRecoveryOnly)
{
	Tcp t;

	t.p.bdp_pkts = 100;
	t.Send(6, kMss);			// EVs 0..5
	t.Resend(kIsn + kMss);			// EV 6, for EV 1's copy
	t.Resend(kIsn + 4 * kMss);		// EV 7, for EV 4's copy
	EXPECT_EQ(t.Lost(), (std::vector<bool>{ false, true, true, true, true, false, true,
						 false }));
	ExpectAcked(t.Ack(kIsn + 6 * kMss), 3, 0, 5);
	EXPECT_EQ(t.f.fb_good, 3u);		// EVs 0, 5, 7
	EXPECT_EQ(t.log.resent_lo, t.log.resent_hi);
	t.Send(4, kMss);			// [7000,11000): EVs 8..11
	t.Resend(kIsn + 8 * kMss);		// EV 12, for EV 10's copy
	EXPECT_EQ(t.Lost(), (std::vector<bool>{ false, false, true, false, false }));
	ExpectAcked(t.Ack(kIsn + 10 * kMss), 4, 0, 1);
}

// The hull stays while an ACK that covers it leaves covered entries in
// the log (its POP_MAX reached): the next ACK still withholds them.
TEST(arcane_txlog, TheHullOutlastsAnAckThatPopsNotAll)
{
	Tcp t;

	t.p.bdp_pkts = 100;
	t.p.cache_size = 16;
	t.Send(20, kMss);
	t.Resend(kIsn + 18 * kMss);		// EV 18's copy
	ExpectAcked(t.Ack(kIsn + 20 * kMss), ARCANE_TXLOG_POP_MAX, 0, 0);
	EXPECT_NE(t.log.resent_lo, t.log.resent_hi);
	ExpectAcked(t.Ack(kIsn + 20 * kMss), 4, 0, 1);
	EXPECT_EQ(t.log.resent_lo, t.log.resent_hi);
}

// One ACK pops at most ARCANE_TXLOG_POP_MAX entries; the rest wait for
// the next ACK, even a duplicate.
TEST(arcane_txlog, AnAckPopsAtMostPopMax)
{
	Tcp t;

	t.p.bdp_pkts = 20;
	t.p.cache_size = 16;
	t.Send(20, kMss);
	ExpectAcked(t.Ack(kIsn + 20 * kMss), ARCANE_TXLOG_POP_MAX, 0, 0);
	EXPECT_EQ(t.log.count, 20 - ARCANE_TXLOG_POP_MAX);
	EXPECT_EQ(t.Entries()[0].ev, ARCANE_TXLOG_POP_MAX);
	ExpectAcked(t.Ack(kIsn + 20 * kMss), 4, 0, 0);
	EXPECT_EQ(t.log.count, 0);
	EXPECT_EQ(t.f.fb_good, 20u);
}

// A full log drops its oldest entry for the newest: that entry's EV is
// never recycled, the rest are.
TEST(arcane_txlog, FullLogOverwritesTheOldest)
{
	Tcp t;

	t.p.bdp_pkts = 100;
	t.Send(ARCANE_TXLOG_LEN + 1, kMss);
	EXPECT_EQ(t.log.count, ARCANE_TXLOG_LEN);
	EXPECT_EQ(t.log.overwritten, 1u);
	EXPECT_EQ(t.Entries()[0].ev, 1);
	EXPECT_EQ(t.Entries()[ARCANE_TXLOG_LEN - 1].ev, ARCANE_TXLOG_LEN);
	ExpectAcked(t.Ack(kIsn + 2 * kMss), 1, 0, 0);
	EXPECT_EQ(t.Cache(), (Evs{ 1 }));
}

// Sequence numbers wrap at 2^32: a segment across the wrap, and ACKs on
// both sides of it, compare as TCP's before() does.
TEST(arcane_txlog, SequenceNumbersWrap)
{
	Tcp t;

	t.snd_nxt = 0xffffffffu - 1499;		// 2^32 - 1500
	t.Send(3, kMss);			// ends 2^32 - 500, 500, 1500
	EXPECT_EQ(t.log.max_end_seq, 1500u);
	ExpectAcked(t.Ack(0xffffffffu), 1, 0, 0);
	EXPECT_EQ(t.log.count, 2);
	// The segment across the wrap sent again is a resend, not new
	// data, and the hull wraps with it.
	t.Resend(0xffffffffu - 499, kMss);
	EXPECT_EQ(t.Entries()[2].resends, 1);
	EXPECT_EQ(t.Lost(), (std::vector<bool>{ true, false, false }));
	EXPECT_EQ(t.log.resent_lo, 0xffffffffu - 499);
	EXPECT_EQ(t.log.resent_hi, 500u);
	EXPECT_EQ(t.log.max_end_seq, 1500u);
	ExpectAcked(t.Ack(500), 0, 0, 1);
	ExpectAcked(t.Ack(1500), 2, 0, 0);
	EXPECT_EQ(t.log.resent_lo, t.log.resent_hi);
}

// An ACK below every logged end (old, or reordered behind a later one)
// pops nothing and changes nothing.
TEST(arcane_txlog, OldAckChangesNothing)
{
	Tcp t;

	t.Send(2, kMss);
	const arcane_txlog before = t.log;
	ExpectAcked(t.Ack(kIsn), 0, 0, 0);
	ExpectAcked(t.Ack(kIsn - 100000), 0, 0, 0);
	EXPECT_EQ(std::memcmp(&before, &t.log, sizeof(before)), 0);
	EXPECT_EQ(t.f.fb_good + t.f.fb_ce, 0u);
}

// A black-holed path: every segment sent on EV 2 is lost and resent.
// EV 2 never enters the cache again, the others circulate; after the
// initial phase the flow sends only cached EVs while ACKs keep coming.
TEST(arcane_txlog, ABlackHoledEvLeavesCirculation)
{
	Tcp t;

	t.p.bdp_pkts = 4;
	t.Send(4, kMss);
	// Segment 3 (EV 2) died: ACK up to it, then resent (EV: cached 0).
	ExpectAcked(t.Ack(kIsn + 2 * kMss), 2, 0, 0);
	EXPECT_EQ(t.Resend(kIsn + 2 * kMss), 0u);
	ExpectAcked(t.Ack(kIsn + 4 * kMss), 2, 0, 1);
	EXPECT_EQ(t.Cache(), (Evs{ 1, 3, 0 }));
	for (int round = 0; round < 5; round++) {
		const Evs sent = t.Send(3, kMss);
		EXPECT_EQ(sent, (Evs{ 1, 3, 0 })) << round;
		ExpectAcked(t.Ack(t.snd_nxt), 3, 0, 0);
	}
	EXPECT_EQ(t.f.tx_explore, 4u);
}

// The reviewer's case: data lost on EV 1, its resend on EV 4 lost too,
// then resent again on EV 5. Only the last copy's EV is recycled: a
// resend that was itself replaced buys nothing.
TEST(arcane_txlog, AResendThatIsResentIsWithheld)
{
	Tcp t;

	t.Send(4, kMss);			// EVs 0..3, [1000,5000)
	ExpectAcked(t.Ack(kIsn + kMss), 1, 0, 0);
	EXPECT_EQ(t.Resend(kIsn + kMss), 0u);	// EV 0 from the cache: lost
	EXPECT_EQ(t.Resend(kIsn + kMss), 4u);	// after an RTO, explored
	EXPECT_EQ(t.Lost(), (std::vector<bool>{ true, false, false, true, false }));
	ExpectAcked(t.Ack(kIsn + 4 * kMss), 3, 0, 2);
	EXPECT_EQ(t.Cache(), (Evs{ 2, 3, 4 }));
}

// A new connection on the same ports: its SYN resets the log, so that the
// old connection's entries and highest end do not make the new one's
// segments look resent. The SYN sent again is a resend, not another
// connection.
TEST(arcane_txlog, ANewSynStartsANewLog)
{
	Tcp t;

	t.snd_nxt = kIsn - 1;
	arcane_txlog_on_syn(&t.log, t.snd_nxt);	// a first SYN
	t.Send(1);
	arcane_txlog_on_syn(&t.log, kIsn - 1);	// the same SYN again
	t.Resend(kIsn - 1, 1);
	EXPECT_EQ(t.log.count, 2);
	EXPECT_EQ(t.log.resends, 1);
	t.Send(3, kMss);
	t.Resend(kIsn);
	arcane_txlog_on_syn(&t.log, 499);	// a new connection
	EXPECT_EQ(t.log.count, 0);
	EXPECT_EQ(t.log.resends, 0);
	EXPECT_EQ(t.log.resent_lo, t.log.resent_hi);
	t.snd_nxt = 499;			// below the old highest end
	t.Send(1);				// the SYN
	t.Send(2, kMss);
	EXPECT_EQ(t.log.resends, 0);
	EXPECT_EQ(t.Lost(), (std::vector<bool>{ false, false, false }));
	ExpectAcked(t.Ack(2500), 3, 0, 0);
}
