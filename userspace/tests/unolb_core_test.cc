// SPDX-License-Identifier: GPL-2.0
//
// Unit tests of the UnoLB law, kernel/core/unolb_core.h (Uno Sec. 4.2 and
// the artifact's re-path rule, plus edge cases): deterministic traces of ACKs and
// re-path triggers with exact expected entropies and masks.
//
// Reference setup unless a test says otherwise: the flow starts at 1 ms
// with base RTT 1000 ns (so "silent" is an ACK more than 500 ns old), its
// sub-flow i on port 40000 + i, fresh entropies from the dynamic port range
// 49152 + 0..16383. Draws are chosen so that a fresh entropy
// is easy to read: Port(k) = k << 18 maps to 49152 + k (k x 16384 / 2^32).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "unolb_core.h"

static_assert(sizeof(struct unolb_flow) <= 344, "per-flow state must stay small");

namespace {

constexpr u64 kStart = 1'000'000;	// ns
constexpr u64 kBase = 1000;		// ns
constexpr u32 kPortBase = 49152;
constexpr u32 kPortSpan = 16384;

// The draw unolb_repath() maps to the fresh port kPortBase + k.
constexpr u32 Port(u32 k)
{
	return k << 18;
}

unolb_flow Flow(u32 nr, u32 mode)
{
	std::vector<u32> ent;
	unolb_flow f;

	for (u32 i = 0; i < nr; i++)
		ent.push_back(40000 + i);
	EXPECT_TRUE(unolb_init(&f, nr, mode, kStart, ent.data(), kPortBase, kPortSpan));
	return f;
}

std::vector<u32> Ent(const unolb_flow &f)
{
	return std::vector<u32>(f.ent, f.ent + f.nr);
}

// One draw per sub-flow: sub-flow i's fresh port would be 49152 + 10 + i.
const u32 kDraws[UNOLB_MAX_SUBFLOWS] = {
	Port(10), Port(11), Port(12), Port(13), Port(14), Port(15), Port(16), Port(17),
	Port(18), Port(19), Port(20), Port(21), Port(22), Port(23), Port(24), Port(25),
};

// ACKs on every sub-flow but those in silent, at now.
void AckAllBut(unolb_flow &f, u64 now, std::vector<u32> silent)
{
	for (u32 i = 0; i < f.nr; i++)
		if (std::find(silent.begin(), silent.end(), i) == silent.end())
			unolb_on_ack(&f, i, now);
}

}  // namespace

// Every sub-flow starts with its first entropy, its last ACK and last
// re-path at the start: nothing is silent yet (the artifact's startflow()).
TEST(unolb_core, InitStartsEverySubflowAtTheStart)
{
	const unolb_flow f = Flow(3, UNOLB_REPATH_REDRAW);

	EXPECT_EQ(Ent(f), (std::vector<u32>{ 40000, 40001, 40002 }));
	for (u32 i = 0; i < UNOLB_MAX_SUBFLOWS; i++) {
		EXPECT_EQ(f.last_ack_ns[i], kStart);
		EXPECT_EQ(f.last_reroute_ns[i], kStart);
	}
	EXPECT_EQ(f.ent[3], 0u);
	EXPECT_EQ(f.next, 0u);
	EXPECT_EQ(f.nr, 3u);
	EXPECT_EQ(f.mode, u32{ UNOLB_REPATH_REDRAW });
	EXPECT_EQ(f.ent_base, kPortBase);
	EXPECT_EQ(f.ent_span, kPortSpan);
}

TEST(unolb_core, InitRefusesBadArguments)
{
	const u32 ent[UNOLB_MAX_SUBFLOWS + 1] = {};
	unolb_flow f;

	std::memset(&f, 0xa5, sizeof(f));
	const unolb_flow before = f;
	EXPECT_FALSE(unolb_init(&f, 0, UNOLB_REPATH_REDRAW, 0, ent, 0, 1));
	EXPECT_FALSE(unolb_init(&f, 17, UNOLB_REPATH_REDRAW, 0, ent, 0, 1));
	EXPECT_FALSE(unolb_init(&f, 1, UNOLB_REPATH_COPY_GOOD + 1, 0, ent, 0, 1));
	EXPECT_FALSE(unolb_init(&f, 1, UNOLB_REPATH_REDRAW, 0, ent, 0, 0));
	// [0xffffffff, 2^32 + 1) passes 2^32.
	EXPECT_FALSE(unolb_init(&f, 1, UNOLB_REPATH_REDRAW, 0, ent, 0xffffffff, 2));
	EXPECT_EQ(std::memcmp(&f, &before, sizeof(f)), 0);
	EXPECT_TRUE(unolb_init(&f, 16, UNOLB_REPATH_OFF, 0, ent, 0xffffffff, 1));
	EXPECT_TRUE(unolb_init(&f, 1, UNOLB_REPATH_REDRAW, 0, ent, 0, 0xffffffff));
}

// U14: packet k goes on sub-flow k mod S, new, parity or resent alike.
TEST(unolb_core, RoundRobin)
{
	unolb_flow f = Flow(3, UNOLB_REPATH_REDRAW);
	std::vector<u32> order;

	for (int k = 0; k < 7; k++)
		order.push_back(unolb_next_subflow(&f));
	EXPECT_EQ(order, (std::vector<u32>{ 0, 1, 2, 0, 1, 2, 0 }));

	unolb_flow g = Flow(UNOLB_MAX_SUBFLOWS, UNOLB_REPATH_REDRAW);
	for (u32 k = 0; k < 2 * UNOLB_MAX_SUBFLOWS; k++)
		EXPECT_EQ(unolb_next_subflow(&g), k % UNOLB_MAX_SUBFLOWS);
}

// U15: a silent sub-flow gets a fresh entropy, then none for a base RTT;
// the sub-flows with recent ACKs keep theirs.
TEST(unolb_core, SilentSubflowRedrawnOnceNotTwiceWithinBaseRtt)
{
	unolb_flow f = Flow(4, UNOLB_REPATH_REDRAW);
	u64 now = kStart + kBase + 1;

	AckAllBut(f, now, { 3 });
	EXPECT_EQ(unolb_repath(&f, now, kBase, kDraws), 0x8u);
	EXPECT_EQ(Ent(f), (std::vector<u32>{ 40000, 40001, 40002, 49152 + 13 }));
	EXPECT_EQ(f.last_reroute_ns[3], now);
	EXPECT_EQ(f.last_reroute_ns[0], kStart);

	// Still silent, a base RTT later: not yet (> base_rtt, not >=).
	const u64 moved_at = now;
	now = moved_at + kBase;
	AckAllBut(f, now, { 3 });
	EXPECT_EQ(unolb_repath(&f, now, kBase, kDraws), 0u);
	EXPECT_EQ(f.ent[3], 49152u + 13);
	EXPECT_EQ(f.last_reroute_ns[3], moved_at);

	// 1 ns more: again, with its new draw.
	now++;
	AckAllBut(f, now, { 3 });
	const u32 again[4] = { 0, 0, 0, Port(99) };
	EXPECT_EQ(unolb_repath(&f, now, kBase, again), 0x8u);
	EXPECT_EQ(Ent(f), (std::vector<u32>{ 40000, 40001, 40002, 49152 + 99 }));
}

// Nothing is silent at the start: the first re-path can come a base RTT
// after it, however silent a sub-flow is before.
TEST(unolb_core, NoRepathWithinTheFirstBaseRtt)
{
	unolb_flow f = Flow(2, UNOLB_REPATH_REDRAW);

	EXPECT_EQ(unolb_repath(&f, kStart + kBase, kBase, kDraws), 0u);
	EXPECT_EQ(unolb_repath(&f, kStart + kBase + 1, kBase, kDraws), 0x3u);
	EXPECT_EQ(Ent(f), (std::vector<u32>{ 49152 + 10, 49152 + 11 }));
}

// A sub-flow ACKed within half a base RTT of every trigger is never moved.
TEST(unolb_core, RecentlyAckedSubflowNeverRedrawn)
{
	unolb_flow f = Flow(2, UNOLB_REPATH_REDRAW);

	for (u64 now = kStart; now < kStart + 100 * kBase; now += kBase / 2) {
		unolb_on_ack(&f, 0, now);
		unolb_repath(&f, now + kBase / 2, kBase, kDraws);
	}
	EXPECT_EQ(f.ent[0], 40000u);
	EXPECT_EQ(f.last_reroute_ns[0], kStart);
	EXPECT_EQ(f.ent[1], 49152u + 11);
}

// The exact boundaries: last_ack older than base / 2 (>), last re-path
// older than base (>), for an even and an odd base RTT.
TEST(unolb_core, BoundariesAreStrict)
{
	for (const u64 base : { u64{ 1000 }, u64{ 1001 } }) {
		const u64 now = kStart + 10 * base;
		const u64 half = base / 2; // 500: 500.5 for 1001, so 500 is not silent

		unolb_flow f = Flow(4, UNOLB_REPATH_REDRAW);
		unolb_on_ack(&f, 0, now - half);	// exactly base / 2 (even)
		unolb_on_ack(&f, 1, now - half - 1);	// just past it
		unolb_on_ack(&f, 2, now - half - 1);
		unolb_on_ack(&f, 3, now - half - 1);
		f.last_reroute_ns[2] = now - base;	// exactly one base RTT ago
		f.last_reroute_ns[3] = now - base - 1;	// just past it
		EXPECT_EQ(unolb_repath(&f, now, base, kDraws), 0x2u | 0x8u) << base;
		EXPECT_EQ(Ent(f), (std::vector<u32>{ 40000, 49152 + 11, 40002, 49152 + 13 }));
	}
}

// COPY_GOOD: a silent sub-flow takes the entropy of a random good one, by
// its own draw scaled to the good ones in index order (here 0 and 2).
TEST(unolb_core, CopyGoodCopiesAGoodSubflowsEntropy)
{
	unolb_flow f = Flow(4, UNOLB_REPATH_COPY_GOOD);
	const u64 now = kStart + 2 * kBase;
	const u32 draws[4] = { 0, 0, 0, 0x80000000 }; // 1 -> good[0], 3 -> good[1]

	AckAllBut(f, now, { 1, 3 });
	EXPECT_EQ(unolb_repath(&f, now, kBase, draws), 0xau);
	EXPECT_EQ(Ent(f), (std::vector<u32>{ 40000, 40000, 40002, 40002 }));
	EXPECT_EQ(f.last_reroute_ns[1], now);
	EXPECT_EQ(f.last_reroute_ns[3], now);
	EXPECT_EQ(f.last_reroute_ns[0], kStart);
}

// No sub-flow is good: a fresh entropy, as REDRAW.
TEST(unolb_core, CopyGoodFallsBackToAFreshEntropy)
{
	unolb_flow f = Flow(3, UNOLB_REPATH_COPY_GOOD);

	EXPECT_EQ(unolb_repath(&f, kStart + 2 * kBase, kBase, kDraws), 0x7u);
	EXPECT_EQ(Ent(f), (std::vector<u32>{ 49152 + 10, 49152 + 11, 49152 + 12 }));
}

// A re-path onto the entropy a sub-flow already has (a copy of a good one
// on the same path, a draw that repeats it): no bit, but rate-limited.
TEST(unolb_core, SameEntropyIsNoChangeButCountsAsARepath)
{
	unolb_flow f = Flow(2, UNOLB_REPATH_COPY_GOOD);
	u64 now = kStart + 2 * kBase;

	f.ent[1] = 40000;
	unolb_on_ack(&f, 0, now);
	EXPECT_EQ(unolb_repath(&f, now, kBase, kDraws), 0u);
	EXPECT_EQ(f.last_reroute_ns[1], now);
	now += kBase;
	unolb_on_ack(&f, 0, now);
	EXPECT_EQ(unolb_repath(&f, now, kBase, kDraws), 0u);
	EXPECT_EQ(f.last_reroute_ns[1], now - kBase);

	unolb_flow g = Flow(1, UNOLB_REPATH_REDRAW);
	g.ent[0] = 49152 + 10;
	EXPECT_EQ(unolb_repath(&g, kStart + 2 * kBase, kBase, kDraws), 0u);
	EXPECT_EQ(g.last_reroute_ns[0], kStart + 2 * kBase);
}

// The sub-flow index of an ACK comes from the network.
TEST(unolb_core, OutOfRangeAckChangesNothing)
{
	unolb_flow f = Flow(4, UNOLB_REPATH_REDRAW);
	const unolb_flow before = f;

	for (u32 i : { 4u, 15u, 16u, 17u, 0xffffffffu })
		unolb_on_ack(&f, i, kStart + 5 * kBase);
	EXPECT_EQ(std::memcmp(&f, &before, sizeof(f)), 0);
	unolb_on_ack(&f, 3, kStart + 5 * kBase);
	EXPECT_EQ(f.last_ack_ns[3], kStart + 5 * kBase);
}

// S = 1: every packet on sub-flow 0; COPY_GOOD has no good one to copy
// when it is silent, so it draws.
TEST(unolb_core, SingleSubflow)
{
	for (u32 mode : { UNOLB_REPATH_REDRAW, UNOLB_REPATH_COPY_GOOD }) {
		unolb_flow f = Flow(1, mode);

		EXPECT_EQ(unolb_next_subflow(&f), 0u);
		EXPECT_EQ(unolb_next_subflow(&f), 0u);
		unolb_on_ack(&f, 0, kStart + 2 * kBase);
		EXPECT_EQ(unolb_repath(&f, kStart + 2 * kBase, kBase, kDraws), 0u);
		EXPECT_EQ(unolb_repath(&f, kStart + 3 * kBase, kBase, kDraws), 0x1u);
		EXPECT_EQ(f.ent[0], 49152u + 10);
	}
}

TEST(unolb_core, OffNeverRepaths)
{
	unolb_flow f = Flow(3, UNOLB_REPATH_OFF);
	const unolb_flow before = f;

	EXPECT_EQ(unolb_repath(&f, kStart + 100 * kBase, kBase, kDraws), 0u);
	EXPECT_EQ(std::memcmp(&f, &before, sizeof(f)), 0);
}

// An ACK stamped after the trigger's time (a clock read late) is recent.
TEST(unolb_core, AckAfterTheTriggerIsRecent)
{
	unolb_flow f = Flow(2, UNOLB_REPATH_REDRAW);
	const u64 now = kStart + 2 * kBase;

	unolb_on_ack(&f, 0, now + 7);
	EXPECT_EQ(unolb_repath(&f, now, kBase, kDraws), 0x2u);
	EXPECT_EQ(f.ent[0], 40000u);
}

// Fresh entropies fill the range to both ends: ports, and IPv6 flow
// labels 1..2^20 - 1 (0 is "no label").
TEST(unolb_core, FreshEntropiesSpanTheRange)
{
	const u32 first[2] = { 7, 7 };
	const u32 ends[2] = { 0, 0xffffffff };
	unolb_flow f;

	ASSERT_TRUE(unolb_init(&f, 2, UNOLB_REPATH_REDRAW, 0, first, kPortBase, kPortSpan));
	EXPECT_EQ(unolb_repath(&f, 2 * kBase, kBase, ends), 0x3u);
	EXPECT_EQ(Ent(f), (std::vector<u32>{ 49152, 65535 }));
	ASSERT_TRUE(unolb_init(&f, 2, UNOLB_REPATH_REDRAW, 0, first, 1, 0xfffff));
	EXPECT_EQ(unolb_repath(&f, 2 * kBase, kBase, ends), 0x3u);
	EXPECT_EQ(Ent(f), (std::vector<u32>{ 1, 0xfffff }));
}
