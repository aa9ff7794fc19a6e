// SPDX-License-Identifier: GPL-2.0
//
// Unit tests of the UnoCC control law, kernel/core/uno_core.h (our tests
// U1-U10, plus edge cases). Every expected value is worked out by hand from
// the law's formulas (Uno Sec. 4.1 and Algorithm 1; where the paper is
// silent, the authors' htsim's or ours) in the comment next to it, in the
// core's own fixed point: windows are bytes << 8 ("q8"), fractions are Q16
// (65536 = 1.0), the MD multiplier is Q32 (2^32 = 1.0); every division
// floors.
//
// Reference setup unless a test says otherwise: C = 100 Gbit/s, RTT_intra =
// 14 us, so an intra flow has BDP = 100000 Mbit/s * 14 us / 8 = 175000 B,
// alpha = 0.1 % of that = 175 B (q8: 175000 * 1000 * 256 / 10^6 = 44800),
// K = 175000 / 7 = 25000 and MD gain 4K / (K + BDP) = 100000 / 200000 =
// 0.5 exactly (Q32: 2^31). MSS 4096, so the window floor is 2 * 4096 = 8192.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <ostream>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "uno_core.h"

// tcp_uno adds 15 bytes of its own; the whole must fit ICSK_CA_PRIV_SIZE (104).
static_assert(sizeof(struct uno_state) <= 88, "per-flow state must stay small");

namespace {

constexpr u32 kMss = 4096;
constexpr u32 kBase = 14;		// us
constexpr u64 kBdp = 175000;		// bytes
constexpr u64 kQ8 = 256;		// 1 byte of window in q8

uno_params TestParams()
{
	uno_params p = UNO_PARAMS_INIT;

	p.delay_floor_us = 0;	// the floor is ours; none in unit tests
	p.qa_mark_pct = 0;	// the paper's QA test; the TCP gate has its own
	p.qa_window_pct = 100;	// the paper's single-period QA window
	p.min_cwnd_bytes = 0;	// the window floor in whole segments
	return p;
}

uno_ack Ack(u32 now, u32 acked, s32 rtt, bool ece, u32 sent,
	    u32 min_rtt = kBase)
{
	uno_ack a{};

	a.now_us = now;
	a.acked = acked;
	a.rtt_us = rtt;
	a.min_rtt_us = min_rtt;
	a.sent = sent;
	a.mss = kMss;
	a.ece = ece;
	a.app_limited = false;
	return a;
}

u32 OnAck(uno_state &s, const uno_params &p, const uno_ack &a)
{
	return uno_on_ack(&s, &p, &a);
}

}  // namespace

TEST(uno_core, DefaultsAreTheSpecDefaults)
{
	const uno_params p = UNO_PARAMS_INIT;

	EXPECT_EQ(p.alpha_ppm, 1000u);			// 0.001 x BDP
	EXPECT_EQ(p.md_k_bytes, 0u);			// BDP_intra / 7
	EXPECT_EQ(p.ewma_gain_q16, 32768u);		// g = 0.5
	EXPECT_EQ(p.beta_qa_pct, 50u);
	EXPECT_EQ(p.qa_cut_pct, 96u);
	EXPECT_EQ(p.qa_period_pct, 105u);
	EXPECT_EQ(p.phantom_md_scale_pct, 30u);
	EXPECT_EQ(p.phantom_delay_tol_permille, 55u);
	EXPECT_EQ(p.delay_floor_us, 20u);		// ours, for veth
	EXPECT_EQ(p.init_cwnd_bdp_pct, 100u);
	EXPECT_EQ(p.max_cwnd_bdp_pct, 100u);
	EXPECT_EQ(p.trend_rule, 1u);
	EXPECT_EQ(p.phantom_md_cumulative, 0u);
	EXPECT_EQ(p.rto_cwnd_cut, 0u);
	// the TCP port's departures (Documentation/tcp_uno.rst)
	EXPECT_EQ(p.qa_window_pct, 200u);
	EXPECT_EQ(p.min_cwnd_bytes, 64u);
	EXPECT_EQ(p.min_cwnd_segs, 2u);
	EXPECT_EQ(p.qa_mark_pct, 50u);
}

// U9 (first half): the initial window is one BDP, paced at line rate.
TEST(uno_core, InitStartsAtOneBdpPacedAtLineRate)
{
	const uno_params p = TestParams();
	uno_state s;

	uno_init(&s, &p, kMss, kBase, 1000, 5000);
	EXPECT_EQ(s.base_rtt_us, kBase);
	EXPECT_EQ(s.cwnd, kBdp * kQ8);
	EXPECT_EQ(s.ep_arm_seq, 5000u + 175000u);	// arm after one window
	EXPECT_EQ(s.qa_end_ts, 1000u);		// QA opens on packets sent >= now
	EXPECT_EQ(s.flags, 0u);
	// 175000 B per 14 us = 12.5e9 B/s = 100 Gbit/s
	EXPECT_EQ(uno_pacing_rate(&s), 12500000000ull);
	// ceil(175000 / 4096) = 43 segments: pacing holds the rest back
	EXPECT_EQ(uno_cwnd_segs(&s, &p, kMss), 43u);
}

// A written parameter applies at the next ACK: the cap a flow keeps
// (uno_state.cap) follows the parameters' generation, which every write
// bumps (uno_nl_param_store()), and the base RTT.
TEST(uno_core, CapFollowsTheParameterGeneration)
{
	uno_params p = TestParams();
	uno_state s;

	uno_init(&s, &p, kMss, kBase, 1000, 5000);
	EXPECT_EQ(s.cap, kBdp * kQ8);
	p.max_cwnd_bdp_pct = 50;
	p.gen++;
	OnAck(s, p, Ack(1010, kMss, kBase, true, 5000));
	EXPECT_EQ(s.cap, kBdp / 2 * kQ8);
	EXPECT_EQ(s.cwnd, kBdp / 2 * kQ8);		// clamped at once
	// 14 -> 28 us is past the 5 % hysteresis: the BDP doubles, and the cap
	OnAck(s, p, Ack(1020, kMss, 2 * kBase, true, 5000, 2 * kBase));
	EXPECT_EQ(s.base_rtt_us, 2 * kBase);
	EXPECT_EQ(s.cap, kBdp * kQ8);
}

// snd_cwnd rounds the byte window up, and never below min_cwnd_segs.
TEST(uno_core, CwndSegsRoundUp)
{
	const uno_params p = TestParams();
	uno_state s = {};

	s.cwnd = 3ull * kMss * kQ8;
	EXPECT_EQ(uno_cwnd_segs(&s, &p, kMss), 3u);
	s.cwnd = (3ull * kMss + 1) * kQ8;
	EXPECT_EQ(uno_cwnd_segs(&s, &p, kMss), 4u);
	s.cwnd = (2ull * kMss + kMss * 9 / 10) * kQ8;	// 2.9 segments
	EXPECT_EQ(uno_cwnd_segs(&s, &p, kMss), 3u);
	s.cwnd = 64ull * kQ8;
	EXPECT_EQ(uno_cwnd_segs(&s, &p, kMss), 2u);
}

// U1, exact: one stretch ACK for a whole window adds exactly alpha.
TEST(uno_core, U1_AdditiveIncreaseOneWindowAddsAlpha)
{
	uno_params p = TestParams();
	uno_state s;

	p.init_cwnd_bdp_pct = 50;		// 87500 B, room below the cap
	uno_init(&s, &p, kMss, kBase, 0, 0);
	ASSERT_EQ(s.cwnd, 87500 * kQ8);
	// inc = alpha_q8 * acked / cwnd = 44800 * 87500 / 87500 = 44800 (175 B)
	EXPECT_EQ(OnAck(s, p, Ack(14, 87500, 14, false, 87500)), 0u);
	EXPECT_EQ(s.cwnd, 87500 * kQ8 + 44800);
	EXPECT_EQ(uno_cwnd_bytes(&s), 87675u);
}

// U1 (Uno Sec. 4.1.1: alpha per RTT), our criterion: a window's worth of
// MSS-sized unmarked ACKs adds alpha +- 1 %. Each ACK adds
// 44800 * 4375 / cwnd q8; cwnd grows by ~0.2 % during the window and each
// floor loses < 1/256 B, so the sum is 175 * (1 - ~0.001) - 20/256
// = ~174.7 B.
TEST(uno_core, U1_AdditiveIncreaseManyAcksAddAlphaWithinOnePercent)
{
	uno_params p = TestParams();
	uno_state s;

	p.init_cwnd_bdp_pct = 50;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	for (u32 i = 0; i < 20; i++)
		OnAck(s, p, Ack(14 + i, 4375, 14, false, 0));
	const double grown = double(s.cwnd - 87500 * kQ8) / kQ8;

	EXPECT_NEAR(grown, 175.0, 1.75);
	EXPECT_LT(grown, 175.0);
}

// A marked ACK gets no AI and causes no immediate MD.
TEST(uno_core, MarkedAckIsAccountingOnly)
{
	uno_params p = TestParams();
	uno_state s;

	p.init_cwnd_bdp_pct = 50;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	EXPECT_EQ(OnAck(s, p, Ack(14, 4096, 14, true, 0)), 0u);
	EXPECT_EQ(s.cwnd, 87500 * kQ8);
}

// One epoch with E0 = 0, g = 0.5 and a closing RTT of 2 x base (physical
// queueing). QA is off to isolate MD. Trace, window at the 175000 B cap:
//   t=100 ACK sent=175000: one window sent -> epoch armed, ep_end = 100
//   t=110 ACK, rtt 14: sent at 96 < 100, epoch continues
//   t=130 ACK, rtt 28, marked: sent at 102 >= 100 -> epoch ends
// frac = marked / acked (Q16); E = 0.5 * frac; MD = E * 0.5;
// cwnd_after = 175000 * (1 - 0.5 f * 0.5)  (U2 formula).
struct U2Case {
	const char *name;
	u32 acked1, acked2, acked3;
	bool ece1, ece2;
	u32 e_q16;		// E after the epoch
	u64 cwnd_q8;		// window after the MD
};

void PrintTo(const U2Case &c, std::ostream *os)
{
	*os << c.name;
}

class uno_u2 : public ::testing::TestWithParam<U2Case> {};

TEST_P(uno_u2, MdStepIsHalfFractionTimesGain)
{
	const U2Case c = GetParam();
	uno_params p = TestParams();
	uno_state s;

	p.beta_qa_pct = 0;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	EXPECT_EQ(OnAck(s, p, Ack(100, c.acked1, 14, c.ece1, 175000)), 0u);
	EXPECT_TRUE(s.flags & UNO_F_EP_ON);
	EXPECT_EQ(s.ep_end_ts, 100u);
	EXPECT_EQ(s.cwnd, kBdp * kQ8);		// AI, then clamped to the cap
	EXPECT_EQ(OnAck(s, p, Ack(110, c.acked2, 14, c.ece2, 175000)), 0u);
	EXPECT_EQ(OnAck(s, p, Ack(130, c.acked3, 28, true, 175000)),
		  u32(UNO_EV_EPOCH | UNO_EV_MD));
	EXPECT_EQ(s.ecn_ewma, c.e_q16);
	EXPECT_EQ(s.prev_ecn_ewma, c.e_q16);
	EXPECT_EQ(s.cwnd, c.cwnd_q8);
	// next epoch: ep_end + period (the 28 us RTT): 100 + 28 = 128 > 102
	EXPECT_EQ(s.ep_end_ts, 128u);
	EXPECT_EQ(s.ep_acked, 0u);
	EXPECT_EQ(s.ep_marked, 0u);
}

INSTANTIATE_TEST_SUITE_P(
	U2, uno_u2,
	::testing::Values(
		// f = 4096 / 16384 = 0.25: E = 0.125 (8192); MD = 0.0625;
		// 44800000 - 44800000 / 16 = 42000000 (164062.5 B)
		U2Case{"f25", 4096, 8192, 4096, false, false, 8192, 42000000},
		// f = 12288 / 16384 = 0.75: E = 0.375 (24576); MD = 0.1875;
		// 44800000 - 8400000 = 36400000 (142187.5 B)
		U2Case{"f75", 4096, 4096, 8192, false, true, 24576, 36400000},
		// f = 1: E = 0.5 (32768); MD = 0.25;
		// 44800000 * 3 / 4 = 33600000 (131250 B)
		U2Case{"f100", 4096, 4096, 8192, true, true, 32768, 33600000}),
	[](const ::testing::TestParamInfo<U2Case> &i) {
		return std::string(i.param.name);
	});

// U3: as the f = 0.75 case, but the closing RTT is the base RTT (14 <=
// 14 * 1.055): the marks came from a phantom queue, MD x 0.3.
//   scale = 30 * 65536 / 100 = 19660 (Q16)
//   MD    = 2^31 * 24576 >> 16 = 805306368 (0.1875, Q32)
//           * 19660 >> 16      = 12288 * 19660 = 241582080
//   cut   = 44800000 * 241582080 >> 32 = 2519897 (9843.3 B;
//           exact 0.3 would be 175000 * 0.1875 * 0.3 = 9843.75 B)
//   cwnd  = 44800000 - 2519897 = 42280103 (165156.65 B)
TEST(uno_core, U3_PhantomOnlyMdIsScaled)
{
	uno_params p = TestParams();
	uno_state s;

	p.beta_qa_pct = 0;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	OnAck(s, p, Ack(100, 4096, 14, false, 175000));
	OnAck(s, p, Ack(110, 4096, 14, true, 175000));
	EXPECT_EQ(OnAck(s, p, Ack(120, 8192, 14, true, 175000)),
		  u32(UNO_EV_EPOCH | UNO_EV_MD | UNO_EV_MD_PHANTOM));
	EXPECT_EQ(s.ecn_ewma, 24576u);
	EXPECT_EQ(s.cwnd, 42280103u);
}

// The phantom-only test is rtt <= base * (1 + tol) + floor, in whole us.
// base 1000 us, tol 55 permille: 1055 is phantom-only, 1056 is not; with
// a 20 us floor the edge moves to 1075 / 1076.
TEST(uno_core, U3_PhantomDelayToleranceEdges)
{
	struct Edge {
		u32 floor_us, rtt;
		bool phantom;
	};
	const Edge edges[] = {
		{0, 1055, true}, {0, 1056, false},
		{20, 1075, true}, {20, 1076, false},
	};

	for (const Edge &e : edges) {
		uno_params p = TestParams();
		uno_state s;

		p.beta_qa_pct = 0;
		p.intra_rtt_us = 1000;		// keep the flow intra-DC
		p.delay_floor_us = e.floor_us;
		uno_init(&s, &p, kMss, 1000, 0, 0);
		const u32 arm = s.ep_arm_seq;

		OnAck(s, p, Ack(5000, 4096, 1000, true, arm, 1000));
		const u32 ev = OnAck(s, p, Ack(5000 + e.rtt, 4096, s32(e.rtt),
					       true, arm, 1000));
		EXPECT_TRUE(ev & UNO_EV_MD) << e.rtt;
		EXPECT_EQ(!!(ev & UNO_EV_MD_PHANTOM), e.phantom)
			<< "floor " << e.floor_us << " rtt " << e.rtt;
	}
}

// Builds the state after the f = 0.75 epoch of U2 (E = 24576, cwnd q8 =
// 36400000 = 142187 B, ep_end = 128, QA window open until 145).
static void AfterU2Epoch(uno_state &s, const uno_params &p)
{
	uno_init(&s, &p, kMss, kBase, 0, 0);
	OnAck(s, p, Ack(100, 4096, 14, false, 175000));
	OnAck(s, p, Ack(110, 4096, 14, true, 175000));
	OnAck(s, p, Ack(130, 8192, 28, true, 175000));
	ASSERT_EQ(s.cwnd, 36400000u);
	ASSERT_EQ(s.ep_end_ts, 128u);
}

// U4: an epoch without marks: no MD, E *= (1 - g).
//   t=150 ACK 4096 B unmarked, rtt 14: sent at 136 >= 128 -> epoch ends
//   AI first: 44800 * 4096 / 142187 = 1290 -> 36401290
//   E = 24576 * 0.5 = 12288; nothing marked, so that is all
TEST(uno_core, U4_UnmarkedEpochDecaysE)
{
	uno_params p = TestParams();
	uno_state s;

	p.beta_qa_pct = 0;
	AfterU2Epoch(s, p);
	EXPECT_EQ(OnAck(s, p, Ack(150, 4096, 14, false, 175000)),
		  u32(UNO_EV_EPOCH));
	EXPECT_EQ(s.ecn_ewma, 12288u);
	EXPECT_EQ(s.prev_ecn_ewma, 12288u);
	EXPECT_EQ(s.cwnd, 36401290u);
	EXPECT_EQ(s.ep_end_ts, 142u);		// 128 + 14
}

// U5: E falls between two marked epochs: no MD, an extra AI instead.
//   t=140 ACK 12288 B unmarked (sent at 126 < 128): AI
//         44800 * 12288 / 142187 = 3871 -> 36403871 (142202 B)
//   t=150 ACK 4096 B marked (sent at 136): epoch ends, f = 4096 / 16384
//         E = (24576 + 16384) / 2 = 20480 < prev 24576, <= 0.9 -> trend
//         extra AI over the epoch: 44800 * 16384 / 142202 = 5161
//         -> 36409032
TEST(uno_core, U5_TrendRuleTradesMdForAi)
{
	uno_params p = TestParams();
	uno_state s;

	p.beta_qa_pct = 0;
	AfterU2Epoch(s, p);
	EXPECT_EQ(OnAck(s, p, Ack(140, 12288, 14, false, 175000)), 0u);
	EXPECT_EQ(s.cwnd, 36403871u);
	EXPECT_EQ(OnAck(s, p, Ack(150, 4096, 14, true, 175000)),
		  u32(UNO_EV_EPOCH | UNO_EV_TREND));
	EXPECT_EQ(s.ecn_ewma, 20480u);
	EXPECT_EQ(s.cwnd, 36409032u);
}

// Same trace with the trend rule off: the MD happens, phantom-only (rtt
// 14): MD = 2^31 * 20480 >> 16 = 671088640, * 19660 >> 16 = 201318400;
// cut = 36403871 * 201318400 >> 32 = 1706362 -> 34697509.
TEST(uno_core, U5_TrendRuleOffMeansMd)
{
	uno_params p = TestParams();
	uno_state s;

	p.beta_qa_pct = 0;
	p.trend_rule = 0;
	AfterU2Epoch(s, p);
	OnAck(s, p, Ack(140, 12288, 14, false, 175000));
	EXPECT_EQ(OnAck(s, p, Ack(150, 4096, 14, true, 175000)),
		  u32(UNO_EV_EPOCH | UNO_EV_MD | UNO_EV_MD_PHANTOM));
	EXPECT_EQ(s.cwnd, 34697509u);
}

// The trend rule only applies while E <= 0.9. With g = 1, E is the last
// fraction: 1.0 (MD), then 0.95 (falling but above 0.9: MD again), then
// 0.5 (falling and below 0.9: trend rule).
TEST(uno_core, U5_TrendRuleCeiling)
{
	uno_params p = TestParams();
	uno_state s;

	p.beta_qa_pct = 0;
	p.ewma_gain_q16 = 65536;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	OnAck(s, p, Ack(100, 4000, 28, true, 175000));	// arms only
	EXPECT_EQ(OnAck(s, p, Ack(200, 4000, 28, true, 175000)),
		  u32(UNO_EV_EPOCH | UNO_EV_MD));
	EXPECT_EQ(s.ecn_ewma, 65536u);
	// 3800 of 4000 marked: 3800 * 65536 / 4000 = 62259 > 58982
	OnAck(s, p, Ack(210, 200, 28, false, 175000));
	EXPECT_EQ(OnAck(s, p, Ack(300, 3800, 28, true, 175000)),
		  u32(UNO_EV_EPOCH | UNO_EV_MD));
	EXPECT_EQ(s.ecn_ewma, 62259u);
	OnAck(s, p, Ack(310, 2000, 28, false, 175000));
	EXPECT_EQ(OnAck(s, p, Ack(400, 2000, 28, true, 175000)),
		  u32(UNO_EV_EPOCH | UNO_EV_TREND));
	EXPECT_EQ(s.ecn_ewma, 32768u);
}

// U6: only 0.3 x cwnd acked in a QA window: cwnd = 0.96 x acked, then no
// MD and no QA for the next window.
//   t=14 ACK of the first packet (sent at 0 >= 0): QA window 14..29
//        (period: ceil(14 * 105 / 100) = 15 us)
//   t=20, t=29: 26250 B each, marked (no AI); 52500 = 0.3 * 175000
//   t=29: window ends, 52500 * 100 < 175000 * 50 -> cwnd = 52500 * 0.96
//         = 50400; epochs re-arm after 50400 more bytes are sent
//         (12288 + 50400 = 62688); QA re-opens on a packet sent >= 29
TEST(uno_core, U6_QuickAdaptCutsToDelivered)
{
	const uno_params p = TestParams();
	uno_state s;

	uno_init(&s, &p, kMss, kBase, 0, 0);
	EXPECT_EQ(OnAck(s, p, Ack(14, 4096, 14, false, 4096)), 0u);
	EXPECT_TRUE(s.flags & UNO_F_QA_ON);
	EXPECT_EQ(s.qa_end_ts, 29u);
	EXPECT_EQ(s.qa_acked, 0u);		// the opening ACK is not counted
	EXPECT_EQ(OnAck(s, p, Ack(20, 26250, 14, true, 8192)), 0u);
	EXPECT_EQ(OnAck(s, p, Ack(29, 26250, 14, true, 12288)),
		  u32(UNO_EV_QA));
	EXPECT_EQ(s.cwnd, 50400 * kQ8);
	EXPECT_FALSE(s.flags & (UNO_F_QA_ON | UNO_F_EP_ON));
	EXPECT_EQ(s.ep_arm_seq, 62688u);
	EXPECT_EQ(s.qa_end_ts, 29u);

	// t=40: sent at 26 < 29, QA stays closed; marked but epochs are off
	EXPECT_EQ(OnAck(s, p, Ack(40, 4096, 14, true, 62687)), 0u);
	EXPECT_FALSE(s.flags & (UNO_F_QA_ON | UNO_F_EP_ON));
	EXPECT_EQ(s.cwnd, 50400 * kQ8);
	// t=43: sent at 29, QA re-opens (43 + 15); 62688 sent, epochs re-arm
	EXPECT_EQ(OnAck(s, p, Ack(43, 4096, 14, true, 62688)), 0u);
	EXPECT_TRUE(s.flags & UNO_F_QA_ON);
	EXPECT_TRUE(s.flags & UNO_F_EP_ON);
	EXPECT_EQ(s.qa_end_ts, 58u);
	EXPECT_EQ(s.ep_end_ts, 43u);
	EXPECT_EQ(s.cwnd, 50400 * kQ8);
}

// TCP port: with qa_mark_pct = 50, U6's thin window cuts only if at least
// half of its bytes were ECN-echoed. Unmarked, it is a host stall: no QA,
// the window stays at one BDP (plus AI). One marked ACK of 4096 B among
// 52500 (7.8 %) is a stall's burst meeting a near-empty queue: no QA
// either. Half of them marked (26250 of 52500, exactly the bound): the cut
// of U6.
TEST(uno_core, QuickAdaptNeedsMarkedBytes)
{
	uno_params p = TestParams();
	uno_state s;

	p.qa_mark_pct = 50;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	OnAck(s, p, Ack(14, 4096, 14, false, 4096));
	OnAck(s, p, Ack(20, 26250, 14, false, 8192));
	EXPECT_EQ(OnAck(s, p, Ack(29, 26250, 14, false, 12288)) & UNO_EV_QA, 0u);
	EXPECT_GE(s.cwnd, kBdp * kQ8);

	uno_init(&s, &p, kMss, kBase, 0, 0);
	OnAck(s, p, Ack(14, 4096, 14, false, 4096));
	OnAck(s, p, Ack(20, 48404, 14, false, 8192));
	EXPECT_EQ(OnAck(s, p, Ack(29, 4096, 14, true, 12288)) & UNO_EV_QA, 0u);
	EXPECT_GE(s.cwnd, kBdp * kQ8);

	uno_init(&s, &p, kMss, kBase, 0, 0);
	OnAck(s, p, Ack(14, 4096, 14, false, 4096));
	OnAck(s, p, Ack(20, 26250, 14, false, 8192));
	EXPECT_EQ(OnAck(s, p, Ack(29, 26250, 14, true, 12288)) & UNO_EV_QA,
		  u32(UNO_EV_QA));
	EXPECT_EQ(s.cwnd, 50400 * kQ8);
}

// U7: 0.6 x cwnd acked: no change, the next window starts at once.
TEST(uno_core, U7_QuickAdaptLeavesHealthyWindowAlone)
{
	const uno_params p = TestParams();
	uno_state s;

	uno_init(&s, &p, kMss, kBase, 0, 0);
	OnAck(s, p, Ack(14, 4096, 14, false, 4096));
	OnAck(s, p, Ack(20, 52500, 14, true, 8192));
	// 105000 * 100 >= 175000 * 50: no cut; next window 29..44
	EXPECT_EQ(OnAck(s, p, Ack(29, 52500, 14, true, 12288)), 0u);
	EXPECT_EQ(s.cwnd, kBdp * kQ8);
	EXPECT_TRUE(s.flags & UNO_F_QA_ON);
	EXPECT_EQ(s.qa_end_ts, 44u);
	EXPECT_EQ(s.qa_acked, 0u);
}

// Our guard (the paper is silent): an application-limited QA window never
// cuts.
TEST(uno_core, QuickAdaptIgnoresAppLimitedWindow)
{
	const uno_params p = TestParams();
	uno_state s;

	uno_init(&s, &p, kMss, kBase, 0, 0);
	OnAck(s, p, Ack(14, 4096, 14, false, 4096));
	uno_ack a = Ack(20, 26250, 14, true, 8192);
	a.app_limited = true;
	OnAck(s, p, a);
	EXPECT_EQ(OnAck(s, p, Ack(29, 26250, 14, true, 12288)), 0u);
	EXPECT_EQ(s.cwnd, kBdp * kQ8);
	// the flag does not leak into the next window: 0 B acked -> cut to
	// the floor (0.96 * 0 < 8192)
	EXPECT_EQ(OnAck(s, p, Ack(44, 0, 14, true, 12288)), u32(UNO_EV_QA));
	EXPECT_EQ(s.cwnd, 8192 * kQ8);
}

// Quick Adapt over a window of W = qa_window_pct % of the period, scaled
// back to one period. Setup: C = 8 Gbit/s and a base RTT of 1000 us, so
// BDP = 8000 * 1000 / 8 = 1000000 B; period P = 1050 us. Every ACK is
// marked (so QA is not gated) and the trace is built by QaTrace() from
// the ACKs a paced window would bring, one of `chunk` bytes every 100 us
// from t = 1100, some of them held by a host stall and delivered at once.
namespace {

constexpr u32 kQaBase = 1000;

uno_params QaParams(u32 window_pct)
{
	uno_params p = TestParams();

	p.link_rate_mbps = 8000;
	p.intra_rtt_us = kQaBase;
	p.qa_window_pct = window_pct;
	p.ewma_gain_q16 = 0;		// no MD: E stays 0 in these traces
	return p;
}

// Replays ACKs until QA fires or the trace ends; returns the time of the
// ACK that cut, or 0. Opens QA at t = 1000 with the ACK of the packet sent
// at 0. ACK k (t = 1100 + 100 k) arrives at stall_end instead when its
// time falls in [stall_begin, stall_end).
u32 QaTrace(uno_state &s, const uno_params &p, u32 chunk, u32 srtt,
	    u32 stall_begin, u32 stall_end, u32 until)
{
	uno_init(&s, &p, kMss, kQaBase, 0, 0);
	uno_ack a = Ack(1000, 4096, kQaBase, true, 4096, kQaBase);

	a.srtt_us = srtt;
	OnAck(s, p, a);
	EXPECT_TRUE(s.flags & UNO_F_QA_ON);
	for (u32 t = 1100; t <= until; t += 100) {
		a.now_us = t >= stall_begin && t < stall_end ? stall_end : t;
		a.acked = chunk;
		a.sent += chunk;
		if (OnAck(s, p, a) & UNO_EV_QA)
			return a.now_us;
	}
	return 0;
}

}  // namespace

// The window's length: ceil(ceil(1000 * 105 / 100) * 200 / 100) = 2100
// us at the default, the period itself (1050) at 100 %, and it follows
// the smoothed RTT when that is above the base RTT: srtt 2000 us gives
// ceil(2000 * 1.05) = 2100, * 2 = 4200.
TEST(uno_core, QuickAdaptWindowFollowsSmoothedRtt)
{
	uno_state s;

	QaTrace(s, QaParams(200), 0, 0, 0, 0, 0);
	EXPECT_EQ(s.qa_end_ts, 1000u + 2100u);
	QaTrace(s, QaParams(100), 0, 0, 0, 0, 0);
	EXPECT_EQ(s.qa_end_ts, 1000u + 1050u);
	QaTrace(s, QaParams(200), 0, 2000, 0, 0, 0);
	EXPECT_EQ(s.qa_end_ts, 1000u + 4200u);
	QaTrace(s, QaParams(200), 0, 500, 0, 0, 0);	// below base: base
	EXPECT_EQ(s.qa_end_ts, 1000u + 2100u);
}

// A full window (100000 B per 100 us = one BDP per RTT) whose ACKs from
// t = 1400 are held by a 1.1 ms host stall and arrive together at 2500.
// One period (the paper) ends on the first ACK of that bunch: it counts
// 1100..1300 plus that one, 4 x 100000 = 400000 < 0.5 x 1000000, and cuts
// to 0.96 x 400000 = 384000 although every byte was delivered. Two
// periods (the default) close at t = 3100 over all 21 ACKs, 2100000 B,
// scaled by P / W = 1/2 to 1050000 >= 500000: no cut.
TEST(uno_core, QuickAdaptSurvivesBunchedAcks)
{
	uno_state s;

	EXPECT_EQ(QaTrace(s, QaParams(100), 100000, 0, 1400, 2500, 4000), 2500u);
	EXPECT_EQ(s.cwnd, 384000 * kQ8);

	EXPECT_EQ(QaTrace(s, QaParams(200), 100000, 0, 1400, 2500, 4000), 0u);
	EXPECT_GE(s.cwnd, 1000000 * kQ8);
	EXPECT_TRUE(s.flags & UNO_F_QA_ON);
	EXPECT_EQ(s.qa_end_ts, 3100u + 2100u);	// second window is running
}

// A real incast: one eighth of the window delivered per RTT (12500 B per
// 100 us). Both windows fire with about the same cut, the longer one a
// period later: one period counts 1100..2100, 11 x 12500 = 137500, and
// cuts to 132000; two periods count 1100..3100, 21 x 12500 = 262500,
// scaled to 131250, and cut to 126000.
TEST(uno_core, QuickAdaptWindowStillCatchesIncast)
{
	uno_state s;

	EXPECT_EQ(QaTrace(s, QaParams(100), 12500, 0, 0, 0, 4000), 2100u);
	EXPECT_EQ(s.cwnd, 132000 * kQ8);
	EXPECT_EQ(QaTrace(s, QaParams(200), 12500, 0, 0, 0, 4000), 3100u);
	EXPECT_EQ(s.cwnd, 126000 * kQ8);
}

// With a standing queue the RTT is twice the base RTT and a full window
// is acked per 2 ms: 50000 B per 100 us. The window (srtt 2000: 4200 us)
// closes at t = 5200 over 1100..5200, 42 x 50000 = 2100000 B, scaled by
// base / srtt / 2 = 1/4 to 525000, a rate of 0.525 windows per base-RTT
// period: just above beta, as a 1.05-base-RTT window (ours; the paper
// checks once every RTT, Sec. 4.1.2) reads the same queue (0.525 x cwnd
// acked in it). No cut; 1/8 of that rate cuts.
TEST(uno_core, QuickAdaptReadsDeliveryPerBasePeriod)
{
	uno_state s;

	EXPECT_EQ(QaTrace(s, QaParams(200), 50000, 2000, 0, 0, 5200), 0u);
	EXPECT_EQ(s.qa_end_ts, 5200u + 4200u);
	// 42 x 6250 = 262500 / 4 = 65625 -> 0.96 x = 63000
	EXPECT_EQ(QaTrace(s, QaParams(200), 6250, 2000, 0, 0, 6000), 5200u);
	EXPECT_EQ(s.cwnd, 63000 * kQ8);
}

// Sub-segment windows (the default min_cwnd_bytes = 64): MD at E = 1
// halves the window below a segment, 175000 -> ... -> 2734.375 B after six
// cuts, while snd_cwnd stays at 2 segments and the pacing rate carries the
// window: floor(700000 / 256) = 2734 B per 14 us = 195285714 B/s. The
// twelfth cut, from 85.45 B (21875 q8) to 42.7 B, stops at the 64 B floor.
TEST(uno_core, SubSegmentWindowIsPaced)
{
	uno_params p = TestParams();
	uno_state s;

	p.min_cwnd_bytes = UNO_MIN_CWND_BYTES_DEF;
	p.beta_qa_pct = 0;
	p.ewma_gain_q16 = 65536;
	p.trend_rule = 0;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	OnAck(s, p, Ack(14, 4096, 28, true, 175000));	// arms
	u32 t = 100;
	for (u32 i = 0; i < 6; i++, t += 100)
		EXPECT_EQ(OnAck(s, p, Ack(t, 4096, 28, true, 175000)),
			  u32(UNO_EV_EPOCH | UNO_EV_MD));
	EXPECT_EQ(s.cwnd, 700000u);
	EXPECT_EQ(uno_cwnd_segs(&s, &p, kMss), 2u);
	EXPECT_EQ(uno_pacing_rate(&s), 195285714u);
	for (u32 i = 0; i < 5; i++, t += 100)
		OnAck(s, p, Ack(t, 4096, 28, true, 175000));
	EXPECT_EQ(s.cwnd, 21875u);
	OnAck(s, p, Ack(t, 4096, 28, true, 175000));
	EXPECT_EQ(s.cwnd, 64 * kQ8);
	EXPECT_EQ(uno_cwnd_segs(&s, &p, kMss), 2u);
	EXPECT_EQ(uno_pacing_rate(&s), 4571428u);	// 64 B / 14 us
}

// Below a segment every ACK carries more than a window, so AI adds one
// alpha per ACK (Swift's cwnd < 1 rule): 683.59375 B (175000 q8) + 175 B.
TEST(uno_core, SubSegmentWindowGrowsAlphaPerAck)
{
	uno_params p = TestParams();
	uno_state s;

	p.min_cwnd_bytes = UNO_MIN_CWND_BYTES_DEF;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	s.cwnd = 175000;
	OnAck(s, p, Ack(14, 4096, 14, false, 4096));
	EXPECT_EQ(s.cwnd, 175000u + 44800u);
	OnAck(s, p, Ack(15, 4096, 14, false, 8192));
	EXPECT_EQ(s.cwnd, 175000u + 2 * 44800u);
}

// Quick Adapt may cut below a segment too: 1000 B acked in a window of the
// 175000 B initial window -> 960 B, snd_cwnd 2 segments.
TEST(uno_core, SubSegmentQuickAdaptCut)
{
	uno_params p = TestParams();
	uno_state s;

	p.min_cwnd_bytes = UNO_MIN_CWND_BYTES_DEF;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	OnAck(s, p, Ack(14, 4096, 14, false, 4096));
	EXPECT_EQ(OnAck(s, p, Ack(29, 1000, 14, true, 8192)), u32(UNO_EV_QA));
	EXPECT_EQ(s.cwnd, 960 * kQ8);
	EXPECT_EQ(uno_cwnd_segs(&s, &p, kMss), 2u);
}

// U8: artifact K = 6 x 4096 = 24576. MD gain 4K / (K + BDP) in Q32 is
// floor(24576 * 2^32 / (24576 + BDP)) * 4:
//   intra, 14 us:   BDP 175000,     floor(105553116266496 / 199576)
//                   = 528886821, * 4 = 2115547284 = 0.492564
//                   (0.4917 at htsim's 14.0275 us / 175344 B)
//   inter, 1792 us: BDP 22400000,   floor(105553116266496 / 22424576)
//                   = 4707028, * 4 = 18828112 = 0.0043838 (htsim's 0.004384)
// The epoch period at base RTT is 14 us for both: the inter flow scales
// its 1792 us sample by RTT_intra / base = 14 / 1792.
TEST(uno_core, U8_InterAndIntraGainsAndEpochs)
{
	uno_params p = TestParams();

	p.md_k_bytes = 24576;
	EXPECT_EQ(uno_bdp(&p, 14), 175000u);
	EXPECT_EQ(uno_bdp(&p, 1792), 22400000u);
	EXPECT_EQ(uno_md_gain_q32(&p, 175000), 2115547284u);
	EXPECT_EQ(uno_md_gain_q32(&p, 22400000), 18828112u);
	EXPECT_NEAR(2115547284 / 4294967296.0, 0.4917, 0.4917 * 0.002);
	EXPECT_NEAR(18828112 / 4294967296.0, 0.004384, 0.004384 * 0.001);
	EXPECT_FALSE(uno_is_inter(&p, 14));
	EXPECT_FALSE(uno_is_inter(&p, 112));	// threshold 8 x 14
	EXPECT_TRUE(uno_is_inter(&p, 113));
	EXPECT_TRUE(uno_is_inter(&p, 1792));
	EXPECT_EQ(uno_epoch_period(&p, 14, 14), 14u);
	EXPECT_EQ(uno_epoch_period(&p, 1792, 1792), 14u);
	EXPECT_EQ(uno_epoch_period(&p, 1792, 3584), 28u);	// 2 x RTT
	// auto K = 175000 / 7 = 25000: 4 * 25000 / 200000 = 0.5 exactly
	p.md_k_bytes = 0;
	EXPECT_EQ(uno_md_gain_q32(&p, 175000), 1ull << 31);
}

// U8 through the state machine: an inter flow's epochs close ~14 us apart.
//   t=10000: arms (ep_end = 10000)
//   t=11792: ACK rtt 1792, sent at 10000: epoch ends; next = 10000 + 14
//            = 10014 > 10000
//   t=11806: sent at 10014: ends again; next = 10028
TEST(uno_core, U8_InterFlowEpochsFollowIntraRtt)
{
	uno_params p = TestParams();
	uno_state s;

	p.beta_qa_pct = 0;
	uno_init(&s, &p, kMss, 1792, 0, 0);
	const u32 arm = s.ep_arm_seq;

	EXPECT_EQ(arm, 22400000u);
	OnAck(s, p, Ack(10000, 4096, 1792, false, arm, 1792));
	EXPECT_EQ(s.ep_end_ts, 10000u);
	EXPECT_EQ(OnAck(s, p, Ack(11792, 4096, 1792, false, arm, 1792)),
		  u32(UNO_EV_EPOCH));
	EXPECT_EQ(s.ep_end_ts, 10014u);
	EXPECT_EQ(OnAck(s, p, Ack(11805, 4096, 1792, false, arm, 1792)), 0u);
	EXPECT_EQ(OnAck(s, p, Ack(11806, 4096, 1792, false, arm, 1792)),
		  u32(UNO_EV_EPOCH));
	EXPECT_EQ(s.ep_end_ts, 10028u);
}

// After idle-like gaps the grid restarts from the closing packet: sent at
// 20000, far past ep_end + 14 -> next = 20000 + 14.
TEST(uno_core, EpochGridRestartsWhenBehind)
{
	uno_params p = TestParams();
	uno_state s;

	p.beta_qa_pct = 0;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	OnAck(s, p, Ack(100, 4096, 14, false, 175000));
	EXPECT_EQ(OnAck(s, p, Ack(20014, 4096, 14, false, 175000)),
		  u32(UNO_EV_EPOCH));
	EXPECT_EQ(s.ep_end_ts, 20014u);
}

// U9: MSS-floor <= cwnd <= BDP. Initial window above the cap is capped;
// AI never passes the cap; MD at E = 1 halves the window per epoch
// (175000 -> 87500 -> 43750 -> 21875 -> 10937.5 -> floor 8192).
TEST(uno_core, U9_WindowStaysWithinFloorAndCap)
{
	uno_params p = TestParams();
	uno_state s;

	p.init_cwnd_bdp_pct = 300;
	p.beta_qa_pct = 0;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	EXPECT_EQ(s.cwnd, kBdp * kQ8);
	for (u32 t = 14; t < 1000; t++)
		OnAck(s, p, Ack(t, 4096, 14, false, 0));
	EXPECT_EQ(s.cwnd, kBdp * kQ8);

	p.ewma_gain_q16 = 65536;		// E = 1 after one marked epoch
	p.trend_rule = 0;
	OnAck(s, p, Ack(2000, 4096, 28, true, 175000));	// arms
	const u64 expect_q8[] = {87500 * kQ8, 43750 * kQ8, 21875 * kQ8,
				 2800000, 8192 * kQ8, 8192 * kQ8};
	for (u32 i = 0; i < 6; i++) {
		EXPECT_EQ(OnAck(s, p, Ack(2100 + 100 * i, 4096, 28, true,
					  175000)),
			  u32(UNO_EV_EPOCH | UNO_EV_MD));
		EXPECT_EQ(s.cwnd, expect_q8[i]) << i;
	}
	EXPECT_EQ(uno_cwnd_segs(&s, &p, kMss), 2u);
}

TEST(uno_core, U9_FloorFollowsMssAndSegments)
{
	uno_params p = TestParams();
	uno_state s;

	p.beta_qa_pct = 100;
	uno_init(&s, &p, 1448, kBase, 0, 0);
	uno_ack a = Ack(14, 0, 14, false, 0);
	a.mss = 1448;
	OnAck(s, p, a);			// opens QA
	a.now_us = 30;
	EXPECT_EQ(OnAck(s, p, a), u32(UNO_EV_QA));	// 0 B acked
	EXPECT_EQ(s.cwnd, 2 * 1448 * kQ8);
	// a mss of 0 is treated as 1 byte, never divides by zero
	EXPECT_EQ(uno_cwnd_segs(&s, &p, 0), 2896u);
	EXPECT_EQ(uno_min_cwnd(&p, 0), 2u);
}

// A BDP below the floor: the cap yields to the floor.
TEST(uno_core, U9_TinyBdpCapNeverBelowFloor)
{
	uno_params p = TestParams();
	uno_state s;

	p.link_rate_mbps = 1;			// BDP = 1 * 14 / 8 = 1 B
	uno_init(&s, &p, kMss, kBase, 0, 0);
	EXPECT_EQ(uno_bdp(&p, kBase), 1u);
	EXPECT_EQ(s.cwnd, 8192 * kQ8);
	// pacing 8192 B / 14 us = 585142857 B/s
	EXPECT_EQ(uno_pacing_rate(&s), 585142857u);
}

// RTT sample -1 (retransmission, Karn): no QA opening, no epoch end, but
// accounting and AI go on. The next ACK with an RTT closes the epoch over
// everything counted: f = 4096 / (87500 + 4096 + 4096).
TEST(uno_core, NoRttSampleSkipsTimedDecisions)
{
	uno_params p = TestParams();
	uno_state s;

	p.init_cwnd_bdp_pct = 50;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	EXPECT_EQ(OnAck(s, p, Ack(1000, 87500, -1, false, 87500)), 0u);
	EXPECT_TRUE(s.flags & UNO_F_EP_ON);	// arming is by bytes sent
	EXPECT_FALSE(s.flags & UNO_F_QA_ON);
	EXPECT_EQ(s.cwnd, 87500 * kQ8 + 44800);	// AI applied
	EXPECT_EQ(OnAck(s, p, Ack(2000, 4096, -1, true, 87500)), 0u);
	EXPECT_EQ(s.ep_acked, 91596u);
	EXPECT_EQ(s.ep_marked, 4096u);
	// 4096 * 65536 / 95692 = 2805 -> E = 1402
	EXPECT_TRUE(OnAck(s, p, Ack(3000, 4096, 14, false, 87500)) &
		    UNO_EV_EPOCH);
	EXPECT_EQ(s.ecn_ewma, 1402u);
}

// RTT sample 0 us (loopback): a valid sample, phantom-only, and the epoch
// period is floored at 1 us. A 0 us min RTT counts as 1 us: BDP =
// 100000 * 1 / 8 = 12500 B.
TEST(uno_core, ZeroRttSample)
{
	uno_params p = TestParams();
	uno_state s;

	// A 0 us handshake RTT is below the intra-DC base RTT (14 us), so the
	// flow's base is 14 us and its window one intra BDP:
	// 100e9 / 8 * 14e-6 = 175000 B.
	p.beta_qa_pct = 0;
	uno_init(&s, &p, kMss, 0, 500, 0);
	EXPECT_EQ(s.base_rtt_us, 14u);
	EXPECT_EQ(s.cwnd, 175000 * kQ8);

	// Later zero and sub-intra min RTTs leave the base where it is.
	OnAck(s, p, Ack(600, 4096, 0, false, 4096, 0));
	EXPECT_EQ(s.base_rtt_us, 14u);
	OnAck(s, p, Ack(700, 4096, 3, false, 8192, 3));
	EXPECT_EQ(s.base_rtt_us, 14u);
	EXPECT_EQ(uno_pacing_rate(&s), uno_cwnd_bytes(&s) * 1000000 / 14);
}

// Without a handshake RTT the flow idles at its floor, unpaced, until an
// ACK brings an RTT; then it starts at one BDP from that ACK.
TEST(uno_core, StartsOnFirstRttEstimate)
{
	const uno_params p = TestParams();
	uno_state s;

	uno_init(&s, &p, kMss, UNO_RTT_NONE, 0, 0);
	EXPECT_EQ(s.base_rtt_us, 0u);
	EXPECT_EQ(s.cwnd, 8192 * kQ8);
	EXPECT_EQ(uno_pacing_rate(&s), 0u);
	EXPECT_EQ(OnAck(s, p, Ack(50, 8192, -1, false, 8192, UNO_RTT_NONE)),
		  0u);
	EXPECT_EQ(s.cwnd, 8192 * kQ8);
	OnAck(s, p, Ack(60, 4096, 14, false, 12288));
	EXPECT_EQ(s.base_rtt_us, kBase);
	EXPECT_EQ(s.cwnd, kBdp * kQ8);
	EXPECT_EQ(s.ep_arm_seq, 12288u + 175000u);
	EXPECT_EQ(s.qa_end_ts, 60u);
}

// An all-zero state (a freshly zeroed icsk_ca_priv) is a valid "not
// started" flow.
TEST(uno_core, ZeroedStateIsUnstarted)
{
	const uno_params p = TestParams();
	uno_state s{};

	EXPECT_EQ(OnAck(s, p, Ack(5, 100, 3, false, 0, UNO_RTT_NONE)), 0u);
	EXPECT_EQ(uno_cwnd_segs(&s, &p, kMss), 2u);
	OnAck(s, p, Ack(60, 4096, 14, false, 0));
	EXPECT_EQ(s.cwnd, kBdp * kQ8);
	EXPECT_EQ(s.md_scale, UNO_FX_ONE);
}

// Base RTT hysteresis: a new min RTT is adopted only if > 5 % away.
TEST(uno_core, BaseRttFollowsMinRttWithHysteresis)
{
	const uno_params p = TestParams();
	uno_state s;

	uno_init(&s, &p, kMss, 1000, 0, 0);
	OnAck(s, p, Ack(10, 0, -1, false, 0, 1050));	// 5.0 %: keep
	EXPECT_EQ(s.base_rtt_us, 1000u);
	OnAck(s, p, Ack(20, 0, -1, false, 0, 951));	// 4.9 %: keep
	EXPECT_EQ(s.base_rtt_us, 1000u);
	OnAck(s, p, Ack(30, 0, -1, false, 0, 1051));	// 5.1 %: adopt
	EXPECT_EQ(s.base_rtt_us, 1051u);
	OnAck(s, p, Ack(40, 0, -1, false, 0, 998));	// 5.04 %: adopt
	EXPECT_EQ(s.base_rtt_us, 998u);
}

// The paper's literal Algorithm 1: the phantom scale compounds over
// consecutive phantom-only epochs and resets on physical congestion.
//   65536 -> 65536 * 30 / 100 = 19660 -> 19660 * 30 / 100 = 5898 -> 65536
TEST(uno_core, CumulativePhantomScale)
{
	uno_params p = TestParams();
	uno_state s;

	p.beta_qa_pct = 0;
	p.trend_rule = 0;
	p.phantom_md_cumulative = 1;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	OnAck(s, p, Ack(100, 4096, 14, true, 175000));
	OnAck(s, p, Ack(200, 4096, 14, true, 175000));
	EXPECT_EQ(s.md_scale, 19660u);
	OnAck(s, p, Ack(300, 4096, 14, true, 175000));
	EXPECT_EQ(s.md_scale, 5898u);
	OnAck(s, p, Ack(400, 4096, 28, true, 175000));
	EXPECT_EQ(s.md_scale, 65536u);
}

// Our guard (the paper is silent): an epoch that acknowledged nothing has
// fraction 0.
TEST(uno_core, EmptyEpochDoesNotDivideByZero)
{
	uno_params p = TestParams();
	uno_state s;

	p.beta_qa_pct = 0;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	OnAck(s, p, Ack(100, 0, 14, false, 175000));	// arms
	EXPECT_EQ(OnAck(s, p, Ack(114, 0, 14, false, 175000)),
		  u32(UNO_EV_EPOCH));
	EXPECT_EQ(s.ecn_ewma, 0u);
	EXPECT_EQ(s.cwnd, kBdp * kQ8);
}

// K = 0 and BDP = 0 (C = 1 Mbit/s, RTT_intra 1 us): no gain, no division.
TEST(uno_core, DegenerateGainIsZero)
{
	uno_params p = TestParams();

	p.link_rate_mbps = 1;
	p.intra_rtt_us = 1;
	EXPECT_EQ(uno_md_gain_q32(&p, 0), 0u);
}

// u32 clocks and sent-byte counters wrap: the same trace shifted to just
// below 2^32 (time) and 2^32 (bytes) must give identical decisions.
TEST(uno_core, TimeAndSequenceWrap)
{
	uno_params p = TestParams();

	p.beta_qa_pct = 50;
	auto run = [&](u32 t0, u32 b0, std::vector<u32> *evs) {
		uno_state s;

		uno_init(&s, &p, kMss, kBase, t0, b0);
		for (u32 i = 0; i < 400; i++) {
			const bool ece = i % 7 == 3;
			const u32 rtt = 14 + i % 5;

			evs->push_back(OnAck(s, p, Ack(t0 + 14 + i * 2, 2048,
							 s32(rtt), ece,
							 b0 + 1024 * i)));
			evs->push_back(u32(s.cwnd));
			evs->push_back(s.ecn_ewma);
			evs->push_back(s.flags);
		}
		return s;
	};
	std::vector<u32> plain, wrapped;
	const uno_state a = run(1000, 1000, &plain);
	const uno_state b = run(0xffffff00u, 0xfffff000u, &wrapped);

	EXPECT_EQ(plain, wrapped);
	EXPECT_EQ(a.cwnd, b.cwnd);
	EXPECT_EQ(b.ep_end_ts - 0xffffff00u, a.ep_end_ts - 1000u);
	EXPECT_EQ(b.qa_end_ts - 0xffffff00u, a.qa_end_ts - 1000u);
	// the trace did reach epochs, MDs and QA windows
	int epochs = 0;

	for (size_t i = 0; i < plain.size(); i += 4)
		epochs += !!(plain[i] & UNO_EV_EPOCH);
	EXPECT_GT(epochs, 10);
}

// Restart after idle: a fresh epoch one period out, QA re-opens on the
// first new packet. A 40 min idle (more than 2^31 us) would otherwise
// alias every deadline into the future.
TEST(uno_core, TxStartAfterLongIdle)
{
	uno_params p = TestParams();
	uno_state s;

	p.beta_qa_pct = 0;
	uno_init(&s, &p, kMss, kBase, 0, 0);
	OnAck(s, p, Ack(100, 4096, 14, true, 175000));	// arms, QA opens
	ASSERT_TRUE(s.flags & UNO_F_QA_ON);
	const u32 t = 100 + 0x90000000u;		// ~40.3 min later

	uno_on_tx_start(&s, &p, t);
	EXPECT_EQ(s.ep_end_ts, t + 14);
	EXPECT_EQ(s.ep_acked, 0u);
	EXPECT_FALSE(s.flags & UNO_F_QA_ON);
	EXPECT_EQ(s.qa_end_ts, t);
	EXPECT_EQ(OnAck(s, p, Ack(t + 14, 4096, 14, true, 175000)), 0u);
	EXPECT_TRUE(s.flags & UNO_F_QA_ON);
	EXPECT_EQ(OnAck(s, p, Ack(t + 28, 4096, 14, true, 175000)),
		  u32(UNO_EV_EPOCH | UNO_EV_MD | UNO_EV_MD_PHANTOM));
}

// Timeouts keep the window (artifact -noRto) unless rto_cwnd_cut.
TEST(uno_core, TimeoutCutIsAKnob)
{
	uno_params p = TestParams();
	uno_state s;

	uno_init(&s, &p, kMss, kBase, 0, 0);
	uno_on_timeout(&s, &p, kMss, kMss);
	EXPECT_EQ(s.cwnd, kBdp * kQ8);
	p.rto_cwnd_cut = 1;
	uno_on_timeout(&s, &p, kMss, kMss);
	EXPECT_EQ(s.cwnd, (kBdp - kMss) * kQ8);
	for (int i = 0; i < 100; i++)
		uno_on_timeout(&s, &p, kMss, kMss);
	EXPECT_EQ(s.cwnd, 8192 * kQ8);
}

// 400 Gbit/s x 100 ms: BDP = 400000 * 100000 / 8 = 5e9 B, beyond 32 bits.
//   window 50 % = 2.5e9 B; pacing 2.5e9 B / 0.1 s = 2.5e10 B/s
//   alpha q8 = 5e9 * 1000 * 256 / 1e6 = 1280000000
//   AI for 65536 B: 1280000000 * 65536 / 2.5e9 = 33554 (131 B)
//   K = (400000 * 14 / 8) / 7 = 100000; gain = floor(100000 * 2^32 /
//   5000100000) * 4 = 85897 * 4 = 343588; one epoch, half of it marked,
//   E = 0.5 * 0.5 = 16384: MD = 343588 * 16384 >> 16 = 85897; physical
//   RTT (2 x base): cut = 640000033554 * 85897 >> 32 = 12799651
TEST(uno_core, HugeBdpDoesNotOverflow)
{
	uno_params p = TestParams();
	uno_state s;

	p.link_rate_mbps = 400000;
	p.init_cwnd_bdp_pct = 50;
	p.beta_qa_pct = 0;
	uno_init(&s, &p, kMss, 100000, 0, 0);
	EXPECT_EQ(uno_bdp(&p, 100000), 5000000000ull);
	EXPECT_EQ(s.cwnd, 2500000000ull * kQ8);
	EXPECT_EQ(uno_pacing_rate(&s), 25000000000ull);
	// arming is capped to half the u32 byte space
	EXPECT_EQ(s.ep_arm_seq, UNO_ARM_MAX);
	EXPECT_EQ(uno_md_gain_q32(&p, 5000000000ull), 343588u);

	EXPECT_EQ(OnAck(s, p, Ack(100000, 65536, 100000, false, UNO_ARM_MAX,
				  100000)), 0u);
	EXPECT_EQ(s.cwnd, 2500000000ull * kQ8 + 33554);
	EXPECT_EQ(OnAck(s, p, Ack(300000, 65536, 200000, true, UNO_ARM_MAX,
				  100000)), u32(UNO_EV_EPOCH | UNO_EV_MD));
	EXPECT_EQ(s.ecn_ewma, 16384u);
	EXPECT_EQ(s.cwnd, 640000033554ull - 12799651);
	// 639987233903 >> 8 = 2499950132 B = 610339.4 segments of 4096
	EXPECT_EQ(uno_cwnd_segs(&s, &p, kMss), 610340u);
}

// The extremes of every range at once: BDP capped at 2^36 B, cap 10 BDP,
// alpha 10 %, ACKs of 4 GiB. alpha q8 = 2^36 * 100000 * 256 / 10^6 =
// 1759218604441; AI counts at most 2^23 B: 1759218604441 * 2^23 (=
// 1.48e19 < 2^64) / (5 * 2^36) = 42949672.
TEST(uno_core, RangeExtremesDoNotOverflow)
{
	uno_params p = TestParams();
	uno_state s;

	p.link_rate_mbps = UNO_LINK_RATE_MBPS_MAX;
	p.alpha_ppm = UNO_ALPHA_PPM_MAX;
	p.max_cwnd_bdp_pct = UNO_CWND_PCT_MAX;
	p.init_cwnd_bdp_pct = 500;
	p.beta_qa_pct = 0;
	uno_init(&s, &p, kMss, 10000000, 0, 0);
	EXPECT_EQ(uno_bdp(&p, 10000000), UNO_BDP_MAX);
	EXPECT_EQ(s.cwnd, 5 * UNO_BDP_MAX * kQ8);
	OnAck(s, p, Ack(1, 0xffffffffu, -1, false, 0, 10000000));
	EXPECT_EQ(s.cwnd, 5 * UNO_BDP_MAX * kQ8 + 42949672);
	// 10 x 2^36 B per 10 s
	s.cwnd = 10 * UNO_BDP_MAX * kQ8;
	EXPECT_EQ(uno_pacing_rate(&s), 68719476736ull);
	EXPECT_EQ(uno_cwnd_segs(&s, &p, 1), UNO_SEGS_MAX);
	EXPECT_EQ(uno_mul_q32(~0ull, 1ull << 32), ~0ull);
	EXPECT_EQ(uno_mul_q32(~0ull, 1ull << 31), ~0ull >> 1);
}

// ---------------------------------------------------------------------
// U10: a deterministic packet-level model of two flows, RTT ratio 128,
// sharing one bottleneck whose phantom queue (drained at 0.9 C) marks CE
// with a probability rising linearly from 2 % to 60 % of its capacity, one
// inter-DC BDP (the size and thresholds of the authors' htsim; the drain
// rate is Uno Sec. 4.1.3's). All propagation delay is on the ACK path; the
// physical queue is unbounded (no drops). Each sender obeys the core's
// window and pacing rate, with one ACK per packet.

namespace {

class TwoDcModel {
public:
	struct Flow {
		u32 base_us;
		uno_state st;
		u64 inflight = 0, sent = 0, next_send_ns = 0, acked = 0;
		u32 min_rtt_us = UNO_RTT_NONE;
		bool timer = false;
		std::vector<uno_ack> *trace = nullptr;
	};

	TwoDcModel(const uno_params &p, const std::vector<u32> &base_us)
		: p_(p)
	{
		for (u32 b : base_us) {
			Flow f;

			f.base_us = b;
			uno_init(&f.st, &p_, kMss, b, 0, 0);
			flows_.push_back(f);
		}
		pq_cap_ = uno_bdp(&p_, base_us.back());
		for (size_t i = 0; i < flows_.size(); i++)
			Push(0, kPace, i, 0, false);
	}

	Flow &flow(size_t i) { return flows_[i]; }

	void RunUntil(u64 end_ns)
	{
		while (!events_.empty() && events_.top().t < end_ns) {
			const Event e = events_.top();

			events_.pop();
			if (e.type == kAck)
				OnAck(e);
			else
				flows_[e.flow].timer = false;
			TrySend(e.t, e.flow);
		}
	}

private:
	enum { kAck, kPace };
	struct Event {
		u64 t, seq;
		int type;
		size_t flow;
		u64 tx_ns;
		bool ce;
		bool operator>(const Event &o) const
		{
			return t != o.t ? t > o.t : seq > o.seq;
		}
	};

	void Push(u64 t, int type, size_t flow, u64 tx_ns, bool ce)
	{
		events_.push(Event{t, seq_++, type, flow, tx_ns, ce});
	}

	// Phantom queue in bytes x 8000 / (Mbit/s): drains 0.9 C.
	bool Enqueue(u64 now)
	{
		const u64 rate = p_.link_rate_mbps;
		const u64 drained = (now - pq_time_) * rate * 9 / 10;

		pq_ = pq_ > drained ? pq_ - drained : 0;
		pq_time_ = now;
		pq_ = std::min<u64>(pq_ + kMss * 8000ull, pq_cap_ * 8000);
		const u64 kmin = pq_cap_ * 8000 / 50, kmax = pq_cap_ * 8000 * 3 / 5;

		if (pq_ <= kmin)
			return false;
		if (pq_ >= kmax)
			return true;
		rng_ = rng_ * 6364136223846793005ull + 1442695040888963407ull;
		return double(rng_ >> 11) * 0x1.0p-53 <
		       double(pq_ - kmin) / double(kmax - kmin);
	}

	void TrySend(u64 now, size_t i)
	{
		Flow &f = flows_[i];
		const u64 rate = uno_pacing_rate(&f.st);

		while (f.inflight + kMss <= uno_cwnd_bytes(&f.st)) {
			if (f.next_send_ns > now) {
				if (!f.timer) {
					f.timer = true;
					Push(f.next_send_ns, kPace, i, 0,
					     false);
				}
				return;
			}
			if (!f.inflight)
				uno_on_tx_start(&f.st, &p_, u32(now / 1000));
			const bool ce = Enqueue(now);
			const u64 ser = kMss * 8000ull / p_.link_rate_mbps;

			link_free_ = std::max(link_free_, now) + ser;
			Push(link_free_ + f.base_us * 1000ull, kAck, i, now, ce);
			f.inflight += kMss;
			f.sent += kMss;
			f.next_send_ns = std::max(f.next_send_ns, now) +
					 kMss * 1000000000ull / rate;
		}
	}

	void OnAck(const Event &e)
	{
		Flow &f = flows_[e.flow];
		const u32 rtt = u32((e.t - e.tx_ns) / 1000);
		uno_ack a{};

		f.inflight -= kMss;
		f.acked += kMss;
		f.min_rtt_us = std::min(f.min_rtt_us, rtt);
		a.now_us = u32(e.t / 1000);
		a.acked = kMss;
		a.rtt_us = s32(rtt);
		a.min_rtt_us = f.min_rtt_us;
		a.sent = u32(f.sent);
		a.mss = kMss;
		a.ece = e.ce;
		a.app_limited = false;
		if (f.trace)
			f.trace->push_back(a);
		uno_on_ack(&f.st, &p_, &a);
	}

	uno_params p_;
	std::vector<Flow> flows_;
	std::priority_queue<Event, std::vector<Event>, std::greater<Event>>
		events_;
	u64 seq_ = 0, link_free_ = 0, pq_ = 0, pq_time_ = 0, pq_cap_ = 0;
	u64 rng_ = 1;
};

// The model scaled 10x in time (our scaling) from the paper's 100 Gbit/s
// and 14 us (Uno Sec. 5.1) with its RTT ratio of 128 (Sec. 3.1):
// 10 Gbit/s, intra RTT 140 us, inter RTT 128 x 140 us = 17.92 ms.
uno_params ModelParams()
{
	uno_params p = UNO_PARAMS_INIT;

	p.link_rate_mbps = 10000;
	p.intra_rtt_us = 140;
	p.delay_floor_us = 0;
	return p;
}

}  // namespace

// U10: long-run rate ratio intra : inter in [0.75, 1.35] (a fluid sketch
// of ours, not the paper's, predicts 8/7). Both flows start at line rate;
// the inter flow's 22.4 MB window first takes ~98 % of the link and gives
// it back over ~10 s (560 inter RTTs; the epochs are 140 us, E stays near
// 0.05 and the cuts are phantom-only, 0.3 x 0.0045 x E each). Measured
// over 10..16 s, i.e. inter RTTs 558..893; this model settles at ~1.01.
TEST(uno_core, U10_IntraInterFairnessRtt128)
{
	TwoDcModel m(ModelParams(), {140, 140 * 128});

	m.RunUntil(10000000000ull);
	m.flow(0).acked = 0;
	m.flow(1).acked = 0;
	m.RunUntil(16000000000ull);
	const double intra = double(m.flow(0).acked);
	const double inter = double(m.flow(1).acked);
	const double util = (intra + inter) / (10000e6 / 8 * 6.0);

	RecordProperty("intra_inter_ratio", std::to_string(intra / inter));
	RecordProperty("utilisation", std::to_string(util));
	EXPECT_GE(intra / inter, 0.75);
	EXPECT_LE(intra / inter, 1.35);
	EXPECT_GT(util, 0.85);		// the phantom queue drains at 0.9 C
	EXPECT_LT(util, 0.95);
}

// uno_on_ack() takes the ACKs of a flow in steady state itself and leaves
// the rest to uno_on_ack_slow(), which takes every ACK in full: both must
// leave the very same state and events after every ACK of a trace that
// visits every path (marks, incasts, ACKs without an RTT sample,
// app-limited windows, min RTTs that move the base, parameter writes, a
// new MSS).
TEST(uno_core, SteadyPathIsTheFullPath)
{
	uno_params p = UNO_PARAMS_INIT;
	uno_state fast, full;
	std::mt19937 rng(11);
	u32 now = 1000, sent = 0, min_rtt = kBase, mss = kMss;
	int seen[5] = {};

	memset(&fast, 0, sizeof(fast));
	memset(&full, 0, sizeof(full));
	uno_init(&fast, &p, mss, kBase, now, sent);
	uno_init(&full, &p, mss, kBase, now, sent);
	for (int i = 0; i < 200000; i++) {
		const u32 r = rng();
		const bool incast = (i / 3000) % 7 == 6;
		uno_ack a{};

		if (i % 20000 == 19999) {	// a write: new cap and alpha
			p.max_cwnd_bdp_pct = 100 + (r % 3) * 25;
			p.alpha_ppm = 1000 + (r % 5) * 500;
			p.gen++;
		}
		if (r % 5000 == 0)
			min_rtt = kBase + r % 3;
		if (r % 50000 == 1)
			mss = mss == kMss ? 1448 : kMss;
		now += incast ? 20 : 1 + r % 3;	// incast: thin ACKs
		sent += 1448;
		a.now_us = now;
		a.acked = 1448 * (1 + (r >> 8) % 3);
		a.rtt_us = (r >> 12) % 50 ? s32(kBase + (r >> 16) % 40) : -1;
		a.min_rtt_us = min_rtt;
		a.srtt_us = kBase + 10;
		a.sent = sent;
		a.mss = mss;
		a.ece = (r >> 20) % 4 == 0 || incast;
		a.app_limited = (r >> 24) % 100 == 0;
		const u32 ev = uno_on_ack(&fast, &p, &a);

		ASSERT_EQ(ev, uno_on_ack_slow(&full, &p, &a)) << "ACK " << i;
		ASSERT_EQ(memcmp(&fast, &full, sizeof(fast)), 0) << "ACK " << i;
		for (int b = 0; b < 5; b++)
			seen[b] += !!(ev & (1U << b));
	}
	for (int b = 0; b < 5; b++)	// every UNO_EV_* path was taken
		EXPECT_GT(seen[b], 0) << "event bit " << b;
}
