// SPDX-License-Identifier: GPL-2.0
//
// Unit tests of the FLOWLET law, kernel/core/flowlet_core.h (ARCANE spec
// Sec. 2.8): deterministic traces of packet times and draws with exact
// expected EVs and flowlet counts.
//
// Reference setup unless a test says otherwise: 256 EVs, a gap of 1000 ns
// (one base RTT), the flow's first packet at 1 ms. Draws are chosen so
// that an EV is easy to read: Ev(k) = k << 24 maps to EV k (k x 256 / 2^32).

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "flowlet_core.h"

static_assert(sizeof(struct flowlet_flow) <= 24, "per-flow state must stay small");

namespace {

constexpr u64 kStart = 1'000'000;	// ns
constexpr u64 kGap = 1000;		// ns
constexpr u32 kNumEv = 256;

// The draw flowlet_on_packet() maps to EV k of 256.
constexpr u32 Ev(u32 k)
{
	return k << 24;
}

flowlet_params Params(u64 gap = kGap, u32 num_ev = kNumEv)
{
	flowlet_params p;

	p.gap_ns = gap;
	p.num_ev = num_ev;
	EXPECT_TRUE(flowlet_params_valid(&p));
	return p;
}

flowlet_flow Flow()
{
	flowlet_flow f;

	flowlet_init(&f);
	return f;
}

}  // namespace

TEST(flowlet_core, InitHasNoPacketYet)
{
	const flowlet_flow f = Flow();

	EXPECT_EQ(f.last_ns, 0u);
	EXPECT_EQ(f.flowlets, 0u);
	EXPECT_EQ(f.ev, 0u);
}

// The first packet starts a flowlet and draws, whatever its time.
TEST(flowlet_core, FirstPacketDraws)
{
	const flowlet_params p = Params();
	flowlet_flow f = Flow();

	EXPECT_EQ(flowlet_on_packet(&f, &p, kStart, Ev(7)), 7u);
	EXPECT_EQ(f.flowlets, 1u);
	EXPECT_EQ(f.last_ns, kStart);

	// Even at time 0, and even with the draw of EV 0.
	flowlet_flow g = Flow();

	g.ev = 5;
	EXPECT_EQ(flowlet_on_packet(&g, &p, 0, Ev(0)), 0u);
	EXPECT_EQ(g.flowlets, 1u);
	EXPECT_EQ(flowlet_on_packet(&g, &p, kGap, Ev(9)), 0u);
	EXPECT_EQ(g.flowlets, 1u);
}

// A gap of exactly gap_ns keeps the EV; gap_ns + 1 starts a flowlet.
TEST(flowlet_core, GapBoundaryIsStrict)
{
	const flowlet_params p = Params();
	flowlet_flow f = Flow();
	u64 t = kStart;

	EXPECT_EQ(flowlet_on_packet(&f, &p, t, Ev(3)), 3u);
	t += kGap;
	EXPECT_EQ(flowlet_on_packet(&f, &p, t, Ev(4)), 3u);
	EXPECT_EQ(f.flowlets, 1u);
	EXPECT_EQ(f.last_ns, t);
	t += kGap + 1;
	EXPECT_EQ(flowlet_on_packet(&f, &p, t, Ev(4)), 4u);
	EXPECT_EQ(f.flowlets, 2u);
	EXPECT_EQ(f.last_ns, t);
}

// The gap is from the previous packet, not from the flowlet's start: a
// flow that never pauses longer than gap_ns keeps its EV for ever.
TEST(flowlet_core, SteadyFlowKeepsItsEv)
{
	const flowlet_params p = Params();
	flowlet_flow f = Flow();
	u64 t = kStart;

	EXPECT_EQ(flowlet_on_packet(&f, &p, t, Ev(11)), 11u);
	for (u32 i = 1; i <= 1000; i++) {
		t += i % 2 ? kGap : 1;
		EXPECT_EQ(flowlet_on_packet(&f, &p, t, Ev(i % 256)), 11u);
	}
	EXPECT_EQ(f.flowlets, 1u);
	// Two packets at the same time: a gap of 0.
	EXPECT_EQ(flowlet_on_packet(&f, &p, t, Ev(12)), 11u);
	EXPECT_EQ(f.flowlets, 1u);
}

// A new flowlet that draws the EV it had still counts as one.
TEST(flowlet_core, RedrawOfTheSameEvCounts)
{
	const flowlet_params p = Params();
	flowlet_flow f = Flow();

	EXPECT_EQ(flowlet_on_packet(&f, &p, kStart, Ev(2)), 2u);
	EXPECT_EQ(flowlet_on_packet(&f, &p, kStart + 5 * kGap, Ev(2)), 2u);
	EXPECT_EQ(f.flowlets, 2u);
}

// A time before the latest one neither redraws nor moves the latest time
// back: the next gap is measured from the latest time.
TEST(flowlet_core, ClockSteppingBackDoesNotRedraw)
{
	const flowlet_params p = Params();
	flowlet_flow f = Flow();
	const u64 t = kStart + 10 * kGap;

	EXPECT_EQ(flowlet_on_packet(&f, &p, t, Ev(1)), 1u);
	EXPECT_EQ(flowlet_on_packet(&f, &p, t - 5 * kGap, Ev(2)), 1u);
	EXPECT_EQ(flowlet_on_packet(&f, &p, 0, Ev(3)), 1u);
	EXPECT_EQ(f.flowlets, 1u);
	EXPECT_EQ(f.last_ns, t);
	EXPECT_EQ(flowlet_on_packet(&f, &p, t + kGap, Ev(4)), 1u);
	EXPECT_EQ(flowlet_on_packet(&f, &p, t + 2 * kGap + 1, Ev(5)), 5u);
	EXPECT_EQ(f.flowlets, 2u);
}

// Draws scale to 0..num_ev-1 with no division: r = 0 is EV 0 and
// r = 0xffffffff is EV num_ev - 1, for every size of the EV space.
TEST(flowlet_core, DrawScaling)
{
	for (u32 n : { 1u, 2u, 3u, 255u, 256u, 4096u, 65535u, 65536u }) {
		const flowlet_params p = Params(kGap, n);
		flowlet_flow f = Flow();
		flowlet_flow g = Flow();

		EXPECT_EQ(reciprocal_scale(0, n), 0u) << n;
		EXPECT_EQ(reciprocal_scale(0xffffffffU, n), n - 1) << n;
		EXPECT_EQ(flowlet_on_packet(&f, &p, kStart, 0), 0u) << n;
		EXPECT_EQ(flowlet_on_packet(&g, &p, kStart, 0xffffffffU), n - 1) << n;
	}
	// 256 EVs: EV k is the draws k << 24 .. ((k + 1) << 24) - 1.
	EXPECT_EQ(reciprocal_scale(Ev(200), 256), 200u);
	EXPECT_EQ(reciprocal_scale(Ev(201) - 1, 256), 200u);
	EXPECT_EQ(reciprocal_scale(0x80000000U, 3), 1u);
}

// A trace from a seeded generator: every packet's EV is the one the rule
// names, with a gap on either side of the boundary each time.
TEST(flowlet_core, SeededTrace)
{
	const flowlet_params p = Params();
	std::mt19937 rng(42);
	flowlet_flow f = Flow();
	u64 t = kStart, flowlets = 0;
	u32 ev = 0;

	for (u32 i = 0; i < 2000; i++) {
		const u64 gap = i % 3 == 0 ? kGap + 1 : i % 3 == 1 ? kGap : 17;
		const u32 r = rng();

		if (i)
			t += gap;
		if (i == 0 || gap > kGap) {
			ev = (u32)(((u64)r * kNumEv) >> 32);
			flowlets++;
		}
		ASSERT_EQ(flowlet_on_packet(&f, &p, t, r), ev) << i;
		ASSERT_LT(f.ev, kNumEv);
	}
	EXPECT_EQ(f.flowlets, flowlets);
	EXPECT_EQ(flowlets, 667u);
}

TEST(flowlet_core, ParamsValidation)
{
	flowlet_params p = { kGap, kNumEv };

	EXPECT_TRUE(flowlet_params_valid(&p));
	p.num_ev = 0;
	EXPECT_FALSE(flowlet_params_valid(&p));
	p.num_ev = 1;
	EXPECT_TRUE(flowlet_params_valid(&p));
	p.num_ev = FLOWLET_MAX_EV;
	EXPECT_TRUE(flowlet_params_valid(&p));
	p.num_ev = FLOWLET_MAX_EV + 1;
	EXPECT_FALSE(flowlet_params_valid(&p));
	p.num_ev = kNumEv;
	p.gap_ns = 0;
	EXPECT_FALSE(flowlet_params_valid(&p));
	p.gap_ns = 1;
	EXPECT_TRUE(flowlet_params_valid(&p));
	p.gap_ns = ~0ULL;
	EXPECT_TRUE(flowlet_params_valid(&p));
}
