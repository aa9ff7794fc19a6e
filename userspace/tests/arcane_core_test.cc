// SPDX-License-Identifier: GPL-2.0
//
// Unit tests of the ARCANE EV law, kernel/core/arcane_core.h (spec
// arcane.md sections 2.3-2.6, rules R1-R11): deterministic traces of sends
// and feedback with exact expected EVs, ring contents and counters.
//
// Reference setup unless a test says otherwise: NUM_EV 256, CACHE_SIZE 8,
// the spec's defaults, and a short initial phase (BDP_PKTS given per test).

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

#include "arcane_core.h"

static_assert(sizeof(struct arcane_flow) <= 104, "per-flow state must stay small");
static_assert((ARCANE_MAX_CACHE & (ARCANE_MAX_CACHE - 1)) == 0,
	      "the ring mask needs a power of two");

namespace {

using Evs = std::vector<u32>;

arcane_params Params(u16 num_ev, u8 cache_size, u32 bdp_pkts)
{
	const arcane_params p = { num_ev, cache_size, bdp_pkts };

	EXPECT_TRUE(arcane_params_valid(&p));
	return p;
}

arcane_flow Flow()
{
	arcane_flow f;

	std::memset(&f, 0xa5, sizeof(f));
	arcane_init(&f);
	return f;
}

// The EVs of the next n data packets.
Evs Send(arcane_flow &f, const arcane_params &p, int n)
{
	Evs evs;

	for (int i = 0; i < n; i++)
		evs.push_back(arcane_next_ev(&f, &p));
	return evs;
}

// Clean ACKs echoing evs, in order.
void Ack(arcane_flow &f, const arcane_params &p, const Evs &evs)
{
	for (const u32 ev : evs)
		arcane_on_feedback(&f, &p, ARCANE_FB_ACK, ev, false);
}

void AckCe(arcane_flow &f, const arcane_params &p, u32 ev)
{
	arcane_on_feedback(&f, &p, ARCANE_FB_ACK, ev, true);
}

void Nack(arcane_flow &f, const arcane_params &p, u32 ev, bool ce)
{
	arcane_on_feedback(&f, &p, ARCANE_FB_NACK, ev, ce);
}

// The ring, oldest first.
Evs Cache(const arcane_flow &f, const arcane_params &p)
{
	Evs evs;

	for (u32 i = 0; i < f.count; i++)
		evs.push_back(f.ring[(f.head + i) % p.cache_size]);
	return evs;
}

// A flow past its initial phase of bdp packets, with nothing cached and
// the cursor at bdp (no feedback came).
arcane_flow PastInitialPhase(const arcane_params &p)
{
	arcane_flow f = Flow();

	Send(f, p, p.bdp_pkts);
	EXPECT_EQ(f.next_ev, p.bdp_pkts % p.num_ev);
	EXPECT_EQ(f.count, 0);
	return f;
}

}  // namespace

// Every field, whatever the memory held (Flow() fills it with 0xa5 first).
TEST(arcane_core, InitZeroesEverything)
{
	const arcane_flow f = Flow();

	for (u32 i = 0; i < ARCANE_MAX_CACHE; i++)
		EXPECT_EQ(f.ring[i], 0) << i;
	EXPECT_EQ(f.head, 0);
	EXPECT_EQ(f.count, 0);
	EXPECT_EQ(f.next_ev, 0);
	EXPECT_EQ(f.explored, 0);
	EXPECT_EQ(f.sent, 0u);
	EXPECT_EQ(f.tx_explore, 0u);
	EXPECT_EQ(f.tx_cached, 0u);
	EXPECT_EQ(f.fb_good, 0u);
	EXPECT_EQ(f.fb_ce, 0u);
	EXPECT_EQ(f.fb_nack, 0u);
	EXPECT_EQ(f.fb_ignored, 0u);
	EXPECT_EQ(f.cache_overwrites, 0u);
}

TEST(arcane_core, ParamsValidation)
{
	const arcane_params defaults = { ARCANE_DEFAULT_NUM_EV, ARCANE_DEFAULT_CACHE_SIZE, 40 };

	EXPECT_TRUE(arcane_params_valid(&defaults));
	for (const auto &[num_ev, cache_size, valid] : std::vector<std::tuple<u16, u8, bool>>{
		     { 0, 8, false },
		     { 1, 8, true },
		     { 4096, 8, true },
		     { 4097, 8, false },
		     { 0xffff, 8, false },
		     { 256, 0, false },
		     { 256, 1, true },
		     { 256, 16, true },
		     { 256, 17, false },
		     { 256, 0xff, false },
	     }) {
		const arcane_params p = { num_ev, cache_size, 0 };

		EXPECT_EQ(arcane_params_valid(&p), valid) << num_ev << " " << +cache_size;
	}
	// bdp_pkts is not checked: 0 is "no initial phase", any size is fine.
	const arcane_params big = { 256, 8, 0xffffffff };
	EXPECT_TRUE(arcane_params_valid(&big));
	EXPECT_EQ(ARCANE_DEFAULT_EV_BASE + ARCANE_DEFAULT_NUM_EV, 49408);
}

// R6: the first BDP packets get 0, 1, 2, ..., even while clean ACKs fill
// the ring; the first packet after the phase takes the oldest cached EV.
TEST(arcane_core, InitialPhaseExploresInOrder)
{
	const arcane_params p = Params(256, 8, 5);
	arcane_flow f = Flow();

	EXPECT_EQ(Send(f, p, 2), (Evs{ 0, 1 }));
	Ack(f, p, { 0, 1 });
	EXPECT_EQ(Send(f, p, 3), (Evs{ 2, 3, 4 }));
	EXPECT_EQ(Cache(f, p), (Evs{ 0, 1 }));
	EXPECT_EQ(f.explored, 5);
	EXPECT_EQ(f.tx_explore, 5u);
	EXPECT_EQ(f.tx_cached, 0u);
	// Phase over: the ring, oldest first, then exploration from 5.
	EXPECT_EQ(Send(f, p, 3), (Evs{ 0, 1, 5 }));
	EXPECT_EQ(f.sent, 8u);
	EXPECT_EQ(f.explored, 6);
	EXPECT_EQ(f.tx_cached, 2u);
	EXPECT_EQ(f.tx_explore, 6u);
}

// R6: with bdp_pkts > num_ev the phase ends after num_ev packets, when
// every EV has been tried; explored saturates at num_ev.
TEST(arcane_core, InitialPhaseEndsAfterNumEv)
{
	const arcane_params p = Params(4, 8, 100);
	arcane_flow f = Flow();

	EXPECT_EQ(Send(f, p, 4), (Evs{ 0, 1, 2, 3 }));
	EXPECT_EQ(f.explored, 4);
	Ack(f, p, { 1 });
	// sent = 4 < bdp_pkts, but all EVs tried: the cache is used.
	EXPECT_EQ(Send(f, p, 1), (Evs{ 1 }));
	EXPECT_EQ(Send(f, p, 3), (Evs{ 0, 1, 2 }));
	EXPECT_EQ(f.explored, 4);
	EXPECT_EQ(f.tx_explore, 7u);
	EXPECT_EQ(f.tx_cached, 1u);
	EXPECT_EQ(f.sent, 8u);
}

// bdp_pkts = 0: no initial phase, an empty ring explores anyway.
TEST(arcane_core, NoInitialPhaseWithZeroBdp)
{
	const arcane_params p = Params(256, 8, 0);
	arcane_flow f = Flow();

	Ack(f, p, { 42 });
	EXPECT_EQ(Send(f, p, 3), (Evs{ 42, 0, 1 }));
}

// R2: a clean ACK pays for exactly one packet on its EV; two clean ACKs
// for two.
TEST(arcane_core, ConsumeOnUse)
{
	const arcane_params p = Params(256, 8, 10);
	arcane_flow f = PastInitialPhase(p);

	Ack(f, p, { 5 });
	EXPECT_EQ(Send(f, p, 2), (Evs{ 5, 10 }));
	EXPECT_EQ(f.count, 0);
	Ack(f, p, { 5, 5 });
	EXPECT_EQ(Send(f, p, 3), (Evs{ 5, 5, 11 }));
}

// R3: the oldest cached EV goes first.
TEST(arcane_core, OldestFirst)
{
	const arcane_params p = Params(256, 8, 10);
	arcane_flow f = PastInitialPhase(p);

	Ack(f, p, { 7, 3, 9 });
	EXPECT_EQ(Cache(f, p), (Evs{ 7, 3, 9 }));
	EXPECT_EQ(Send(f, p, 1), (Evs{ 7 }));
	Ack(f, p, { 1 });
	EXPECT_EQ(Cache(f, p), (Evs{ 3, 9, 1 }));
	EXPECT_EQ(Send(f, p, 4), (Evs{ 3, 9, 1, 10 }));
}

// R4: a full ring overwrites its oldest entry, counted; duplicates are
// kept. The ring wraps over its end.
TEST(arcane_core, FullRingOverwritesOldest)
{
	const arcane_params p = Params(256, 4, 0);
	arcane_flow f = Flow();

	Ack(f, p, { 10, 11, 12, 13 });
	EXPECT_EQ(f.cache_overwrites, 0u);
	Ack(f, p, { 14, 11 });
	EXPECT_EQ(f.cache_overwrites, 2u);
	EXPECT_EQ(f.count, 4);
	EXPECT_EQ(f.head, 2);
	EXPECT_EQ(Cache(f, p), (Evs{ 12, 13, 14, 11 }));
	EXPECT_EQ(Send(f, p, 5), (Evs{ 12, 13, 14, 11, 0 }));
	EXPECT_EQ(f.fb_good, 6u);

	// One EV acknowledged good three times: three uses.
	Ack(f, p, { 5, 5, 5 });
	EXPECT_EQ(Cache(f, p), (Evs{ 5, 5, 5 }));
	EXPECT_EQ(Send(f, p, 4), (Evs{ 5, 5, 5, 1 }));
	EXPECT_EQ(f.cache_overwrites, 2u);
}

// The largest ring: 16 entries, then the 17th overwrites the first.
TEST(arcane_core, LargestRing)
{
	const arcane_params p = Params(256, ARCANE_MAX_CACHE, 0);
	arcane_flow f = Flow();
	Evs all;

	for (u32 ev = 100; ev < 117; ev++)
		all.push_back(ev);
	Ack(f, p, all);
	EXPECT_EQ(f.count, ARCANE_MAX_CACHE);
	EXPECT_EQ(f.cache_overwrites, 1u);
	EXPECT_EQ(Cache(f, p), Evs(all.begin() + 1, all.end()));
	EXPECT_EQ(Send(f, p, 17), [&] {
		Evs e(all.begin() + 1, all.end());
		e.push_back(0);
		return e;
	}());
}

// Spec 2.5: a CE-marked ACK and a NACK (CE echo or not) store nothing; a
// later send explores.
TEST(arcane_core, CeAckAndNackStoreNothing)
{
	const arcane_params p = Params(256, 8, 10);
	arcane_flow f = PastInitialPhase(p);

	AckCe(f, p, 3);
	Nack(f, p, 4, false);
	Nack(f, p, 5, true);
	EXPECT_EQ(f.count, 0);
	EXPECT_EQ(f.fb_ce, 1u);
	EXPECT_EQ(f.fb_nack, 2u);
	EXPECT_EQ(f.fb_good, 0u);
	EXPECT_EQ(Send(f, p, 2), (Evs{ 10, 11 }));

	// A good EV already cached stays; the bad echo does not add to it.
	Ack(f, p, { 6 });
	AckCe(f, p, 6);
	Nack(f, p, 6, false);
	EXPECT_EQ(Cache(f, p), (Evs{ 6 }));
	EXPECT_EQ(Send(f, p, 2), (Evs{ 6, 12 }));
}

// Spec 2.6 worked example, CACHE_SIZE = 1: initial phase over, next_ev 17.
TEST(arcane_core, WorkedExampleCacheSize1)
{
	const arcane_params p = Params(256, 1, 17);
	arcane_flow f = PastInitialPhase(p);

	EXPECT_EQ(arcane_next_ev(&f, &p), 17);		// 1. P1, cache empty
	EXPECT_EQ(f.next_ev, 18);
	EXPECT_EQ(arcane_next_ev(&f, &p), 18);		// 2. P2
	EXPECT_EQ(f.next_ev, 19);
	Ack(f, p, { 17 });				// 3. ACK(P1) clean
	EXPECT_EQ(Cache(f, p), (Evs{ 17 }));
	EXPECT_EQ(arcane_next_ev(&f, &p), 17);		// 4. P3
	EXPECT_EQ(f.count, 0);
	AckCe(f, p, 18);				// 5. ACK(P2) CE
	EXPECT_EQ(f.count, 0);
	EXPECT_EQ(arcane_next_ev(&f, &p), 19);		// 6. P4, cache empty
	Ack(f, p, { 17 });				// 7. ACK(P3) clean
	EXPECT_EQ(Cache(f, p), (Evs{ 17 }));
	Ack(f, p, { 19 });				//    ACK(P4) clean
	EXPECT_EQ(Cache(f, p), (Evs{ 19 }));		//    overwrites: 17 wasted
	EXPECT_EQ(f.cache_overwrites, 1u);
	EXPECT_EQ(arcane_next_ev(&f, &p), 19);		// 8. P5
	EXPECT_EQ(arcane_next_ev(&f, &p), 20);		// then explores
	EXPECT_EQ(f.tx_explore, 17u + 4);
	EXPECT_EQ(f.tx_cached, 2u);
	EXPECT_EQ(f.fb_good, 3u);
	EXPECT_EQ(f.fb_ce, 1u);
}

// The same trace with CACHE_SIZE = 8: step 7 keeps both good EVs.
TEST(arcane_core, WorkedExampleCacheSize8)
{
	const arcane_params p = Params(256, 8, 17);
	arcane_flow f = PastInitialPhase(p);

	EXPECT_EQ(arcane_next_ev(&f, &p), 17);		// 1.
	EXPECT_EQ(arcane_next_ev(&f, &p), 18);		// 2.
	Ack(f, p, { 17 });				// 3.
	EXPECT_EQ(arcane_next_ev(&f, &p), 17);		// 4.
	AckCe(f, p, 18);				// 5.
	EXPECT_EQ(arcane_next_ev(&f, &p), 19);		// 6.
	Ack(f, p, { 17, 19 });				// 7.
	EXPECT_EQ(Cache(f, p), (Evs{ 17, 19 }));
	EXPECT_EQ(f.cache_overwrites, 0u);
	EXPECT_EQ(arcane_next_ev(&f, &p), 17);		// 8. the oldest
	EXPECT_EQ(arcane_next_ev(&f, &p), 19);
	EXPECT_EQ(arcane_next_ev(&f, &p), 20);
}

// R5: exploration wraps modulo num_ev, from 0; explored saturates.
TEST(arcane_core, ExplorationWrapsModuloNumEv)
{
	const arcane_params p3 = Params(3, 8, 0);
	arcane_flow f = Flow();

	EXPECT_EQ(Send(f, p3, 7), (Evs{ 0, 1, 2, 0, 1, 2, 0 }));
	EXPECT_EQ(f.explored, 3);
	EXPECT_EQ(f.next_ev, 1);

	const arcane_params p1 = Params(1, 8, 10);
	arcane_flow g = Flow();
	EXPECT_EQ(Send(g, p1, 3), (Evs{ 0, 0, 0 }));
	EXPECT_EQ(g.explored, 1);
	EXPECT_EQ(g.next_ev, 0);

	const arcane_params pmax = Params(ARCANE_MAX_NUM_EV, 8, 0);
	arcane_flow h = Flow();
	Send(h, pmax, ARCANE_MAX_NUM_EV - 1);
	EXPECT_EQ(h.next_ev, ARCANE_MAX_NUM_EV - 1);
	EXPECT_EQ(Send(h, pmax, 2), (Evs{ ARCANE_MAX_NUM_EV - 1, 0 }));
	EXPECT_EQ(h.explored, ARCANE_MAX_NUM_EV);
}

// R10: an echo of an EV the flow could not have sent, or of an unknown
// kind, is ignored and counted.
TEST(arcane_core, MalformedEchoIgnored)
{
	const arcane_params p = Params(256, 8, 0);
	arcane_flow f = Flow();

	Ack(f, p, { 256, 0xffff, 0x10000, 0xffffffff });
	Nack(f, p, 256, false);
	AckCe(f, p, 300);
	arcane_on_feedback(&f, &p, 1 /* DATA */, 7, false);
	arcane_on_feedback(&f, &p, 0, 7, false);
	EXPECT_EQ(f.fb_ignored, 8u);
	EXPECT_EQ(f.count, 0);
	EXPECT_EQ(f.fb_good + f.fb_ce + f.fb_nack, 0u);
	// The largest EV is a good one.
	Ack(f, p, { 255 });
	EXPECT_EQ(Cache(f, p), (Evs{ 255 }));
	EXPECT_EQ(f.fb_good, 1u);
}

// R6, R9: sent counts the packets the law handled, retransmissions
// included, so a late retransmission of an early packet takes a cached EV,
// not an exploration; sent saturates at 2^32 - 1.
TEST(arcane_core, RetransmissionsAndSentCount)
{
	const arcane_params p = Params(256, 8, 3);
	arcane_flow f = Flow();

	EXPECT_EQ(Send(f, p, 3), (Evs{ 0, 1, 2 }));
	Ack(f, p, { 0, 2 });		// packet 1 lost
	// Its retransmission: the same path as any packet, the oldest good EV.
	EXPECT_EQ(Send(f, p, 1), (Evs{ 0 }));
	EXPECT_EQ(f.sent, 4u);

	f.sent = 0xfffffffe;
	Send(f, p, 3);
	EXPECT_EQ(f.sent, 0xffffffffu);
}

// Spec 2.6, failures: num_ev 4 and every packet on EV 2 is black-holed,
// its ACK never comes. ACKs come back in send order, all clean otherwise,
// and the window grows by one packet a round. After the initial phase EV 2
// leaves circulation: it is sent only when exploration reaches it.
TEST(arcane_core, BlackHoledEvDropsOutOfCirculation)
{
	const arcane_params p = Params(4, 8, 4);
	arcane_flow f = Flow();
	const std::vector<Evs> expected = {
		{ 0, 1, 2, 3 },			// initial phase
		{ 0, 1, 3, 0 },			// cached, then explores 0
		{ 0, 1, 3, 0, 1 },		// explores 1
		{ 0, 1, 3, 0, 1, 2 },		// explores 2: lost
		{ 0, 1, 3, 0, 1, 3 },		// explores 3
		{ 0, 1, 3, 0, 1, 3, 0 },	// explores 0
		{ 0, 1, 3, 0, 1, 3, 0, 1 },	// explores 1
	};
	Evs round = Send(f, p, 4);
	u32 sent_on_2 = 0;

	EXPECT_EQ(round, expected[0]);
	for (size_t r = 1; r < expected.size(); r++) {
		Evs acked;

		for (const u32 ev : round)
			if (ev != 2)
				acked.push_back(ev);
		Ack(f, p, acked);
		for (const u32 ev : Cache(f, p))
			EXPECT_NE(ev, 2u) << "round " << r;
		round.clear();
		for (size_t i = 0; i < acked.size() + 1; i++) {
			const u64 explored_before = f.tx_explore;
			const u32 ev = arcane_next_ev(&f, &p);

			if (ev == 2) {
				sent_on_2++;
				EXPECT_EQ(f.tx_explore, explored_before + 1) << "round " << r;
			}
			round.push_back(ev);
		}
		EXPECT_EQ(round, expected[r]) << "round " << r;
	}
	EXPECT_EQ(sent_on_2, 1u);
	EXPECT_EQ(f.cache_overwrites, 0u);
	EXPECT_EQ(f.tx_explore, 4u + 6);
}

// Every send is an exploration or a cached EV, every echo one of good,
// CE, NACK or ignored.
TEST(arcane_core, CountersAddUp)
{
	const arcane_params p = Params(16, 2, 4);
	arcane_flow f = Flow();

	EXPECT_EQ(Send(f, p, 4), (Evs{ 0, 1, 2, 3 }));
	Ack(f, p, { 0, 1, 2 });		// 2 overwrites 0
	AckCe(f, p, 3);
	Nack(f, p, 4, false);
	Ack(f, p, { 16 });
	EXPECT_EQ(Send(f, p, 4), (Evs{ 1, 2, 4, 5 }));
	EXPECT_EQ(f.sent, 8u);
	EXPECT_EQ(f.tx_explore, 6u);
	EXPECT_EQ(f.tx_cached, 2u);
	EXPECT_EQ(f.tx_explore + f.tx_cached, f.sent);
	EXPECT_EQ(f.fb_good, 3u);
	EXPECT_EQ(f.fb_ce, 1u);
	EXPECT_EQ(f.fb_nack, 1u);
	EXPECT_EQ(f.fb_ignored, 1u);
	EXPECT_EQ(f.cache_overwrites, 1u);
	EXPECT_EQ(f.explored, 6);
}

// A params change under a live flow is safe: no EV of num_ev or more is
// returned, no slot leaves the ring.
TEST(arcane_core, ParamsShrinkUnderALiveFlow)
{
	arcane_params p = Params(256, 8, 0);
	arcane_flow f = Flow();

	Send(f, p, 10);
	Ack(f, p, { 9, 200, 1, 2, 3, 4 });
	p.num_ev = 4;
	p.cache_size = 2;
	// 9 is stale: dropped, the send explores from a wrapped cursor.
	EXPECT_EQ(Send(f, p, 1), (Evs{ 0 }));
	for (const u32 ev : Send(f, p, 20))
		EXPECT_LT(ev, 4u);
	EXPECT_LE(f.head, 1);
	EXPECT_EQ(f.count, 0);
}
