// SPDX-License-Identifier: GPL-2.0
//
// Unit tests of the SMaRTT control law (kernel/core/smartt_core.h): our
// deterministic cases 1-10 plus edge cases. Expected values are worked out
// from the law's formulas in the comments (SMaRTT Eqs. 1-3 and Algorithms
// 1-4; where the paper is silent, the authors' htsim's or ours), never by
// calling the code under test.
//
// Most tests use the fixture parameters of Params() below, chosen so that
// the arithmetic is easy to follow:
//   mtu = 1000 B, brtt = 100 us (configured), line rate 8000 Mbit/s
//   bdp      = 8000 x 100 / 8                    = 100000 B (100 packets)
//   trtt     = 1.5 x 100                          = 150 us
//   maxwnd   = 1.5 x bdp                          = 150000 B
//   scale    = (bdp / mtu) / (bdp_ref / ref_mtu) = 100 / (100000 / 1000) = 1
//   inc_unit = mtu x scale = 1000 B, held in Q4   = 16000
//   rtt gain = 4 / bdp_pkts = 4 / 100, in Q10     = floor(40.96) = 40
//   tolerance of "RTT ~ brtt" = 100 x 128 / 1024  = 12 us

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>

#include "smartt_core.h"
#include "nscc_core.h"

// The paper's sender keeps 19 bytes; ours adds a cache of what it would
// otherwise derive on every ACK (smartt_cache(), nscc_cache()), within the
// 104 bytes the kernel gives a congestion control (ICSK_CA_PRIV_SIZE),
// which tcp_smartt shares with its own 13.
static_assert(sizeof(struct smartt_state) <= 88,
	      "per-flow SMaRTT state must stay small");

namespace {

constexpr u32 kMtu = 1000;
constexpr u32 kBrtt = 100;

smartt_params Params()
{
	smartt_params p = SMARTT_PARAMS_INIT;

	p.link_rate_mbps = 8000;
	p.base_rtt_us = kBrtt;
	p.bdp_ref = 100000;
	p.bdp_ref_mtu = 1000;
	p.min_cwnd = 1;		// the paper's floor; the TCP default is 2
	// The tests below predate sub-segment windows: their floor is
	// min_cwnd MTUs, which min_cwnd_bytes = 0 keeps (smartt_floor tests
	// the default byte floor).
	p.min_cwnd_bytes = 0;
	return p;
}

// Fixture parameters without the additive increases, for tests that
// isolate FastIncrease, QuickAdapt or the clamps.
smartt_params ParamsNoIncrease()
{
	smartt_params p = Params();

	p.fi = 0;
	p.pi = 0;
	return p;
}

// avg_rtt follows the last sample exactly (gain 1.0).
smartt_params ParamsInstantAvg()
{
	smartt_params p = Params();

	p.rtt_gain_min = 1024;
	p.rtt_gain_max = 1024;
	return p;
}

smartt_state Start(const smartt_params &p, u32 mtu = kMtu, u32 hint = 0)
{
	smartt_state s;

	smartt_init(&s, &p, mtu, hint);
	return s;
}

smartt_action Ack(smartt_state &s, const smartt_params &p, u32 now, s32 rtt,
		  bool ecn, u32 size = kMtu, u32 inflight = 50000)
{
	const smartt_ack a = {now, size, rtt, inflight, ecn};

	return smartt_on_ack(&s, &p, &a);
}

} // namespace

// Every constant at its default: the paper's where it gives one (SMaRTT
// Sec. III), else htsim's or ours, as kernel/core/smartt_core.h says.
TEST(smartt_param, DefaultsAreTheSpecs)
{
	const smartt_params p = SMARTT_PARAMS_INIT;

	EXPECT_EQ(p.trtt_factor, 1536u);	// 1.5 x 1024
	EXPECT_EQ(p.md_gamma, 819u);		// 0.8 x 1024 = 819.2
	EXPECT_EQ(p.md_min_factor, 512u);	// 0.5
	EXPECT_EQ(p.md_interval, 1024u);	// 1 brtt
	EXPECT_EQ(p.fi, 1024u);			// FI = 1 x scale
	EXPECT_EQ(p.pi, 2048u);			// brtt / (trtt - brtt) = 2
	EXPECT_EQ(p.bdp_ref, 150000u);		// 100 Gbit/s x 12 us
	EXPECT_EQ(p.bdp_ref_mtu, 4096u);
	EXPECT_EQ(p.fast_inc_k, 2048u);		// 2 MTU per acked MTU
	EXPECT_EQ(p.fast_inc_tol, 128u);	// brtt / 8
	EXPECT_EQ(p.fast_inc_tol_us, 0u);
	EXPECT_EQ(p.qa_scaling, 1024u);
	EXPECT_EQ(p.qa_notrim_rtt, 4096u);	// brtt + 4 (trtt - brtt)
	EXPECT_EQ(p.qa_notrim_acked, 128u);	// maxwnd / 8
	EXPECT_EQ(p.min_cwnd, 2u);		// TCP: not 1, see the header
	EXPECT_EQ(p.max_cwnd, 1536u);		// 1.5 bdp
	EXPECT_EQ(p.init_cwnd, 1024u);		// 1 bdp
	EXPECT_EQ(p.rtt_gain_pkts, 4u);
	EXPECT_EQ(p.rtt_gain_min, 8u);		// 1/128
	EXPECT_EQ(p.rtt_gain_max, 256u);	// 1/4
	EXPECT_EQ(p.fair_decrease, 0u);		// off
	EXPECT_EQ(p.trimming, 1u);
	EXPECT_EQ(p.base_rtt_us, 0u);		// learned
	EXPECT_EQ(p.base_rtt_floor_us, 0u);	// no floor
}

TEST(smartt_start, ConfiguredBaseRtt)
{
	const smartt_params p = Params();
	const smartt_state s = Start(p);

	EXPECT_EQ(s.brtt, 100u);
	EXPECT_EQ(s.bdp, 100000u);
	EXPECT_EQ(s.cwnd, 100000u);		// INIT_CWND = 1 bdp
	EXPECT_EQ(s.avg_rtt, 100u << 8);	// avg_rtt starts at brtt
	EXPECT_EQ(s.inc_unit, 16000u);
	EXPECT_EQ(s.rtt_gain, 40u);
	EXPECT_EQ(smartt_trtt(&s, &p), 150u);
	EXPECT_EQ(smartt_maxwnd(&s, &p), 150000u);
	EXPECT_EQ(s.flags, 0u);
}

// Our emulation profile A: 1 Gbit/s, 1 ms, MSS 1448 with the default
// constants.
TEST(smartt_start, ProfileAScale)
{
	const smartt_params p = SMARTT_PARAMS_INIT;
	const smartt_state s = Start(p, 1448, 1000);

	// bdp = 1000 x 1000 / 8 = 125000 B = 86.3 MSS
	EXPECT_EQ(s.bdp, 125000u);
	// inc_unit = 125000 x 4096 / 150000 = 3413.3 B (scale 2.357 x 1448),
	// in Q4: floor(125000 x 16 x 4096 / 150000) = floor(54613.3)
	EXPECT_EQ(s.inc_unit, 54613u);
	// gain = 4 / 86.3 packets: floor(4 x 1024 x 1448 / 125000) = 47
	EXPECT_EQ(s.rtt_gain, 47u);
	EXPECT_EQ(smartt_maxwnd(&s, &p), 187500u);	// 1.5 x 125000
	EXPECT_EQ(s.cwnd, 125000u);
}

// Without a configured or handshake RTT the first sample starts the flow.
TEST(smartt_start, FirstRttSampleStartsTheFlow)
{
	smartt_params p = Params();

	p.base_rtt_us = 0;
	smartt_state s = Start(p);
	EXPECT_EQ(s.brtt, 0u);
	EXPECT_EQ(s.cwnd, 0u);

	// Nothing to act on yet: no window, every event is a no-op.
	EXPECT_EQ(smartt_on_nack(&s, &p, 10, kMtu, 0), SMARTT_NONE);
	EXPECT_EQ(smartt_on_timeout(&s, &p, kMtu), SMARTT_NONE);
	EXPECT_EQ(Ack(s, p, 20, -1, true), SMARTT_NONE);
	EXPECT_EQ(s.cwnd, 0u);
	EXPECT_EQ(smartt_pacing_rate(&s, &p), 0u);

	// rtt 250: brtt = 250, bdp = 8000 x 250 / 8 = 250000 = cwnd,
	// trtt = 375, inc_unit = 250000 x 16 x 1000 / 100000 = 40000.
	// The ACK is then processed: clean (250 <= 250 + 31) but
	// fi_count 1000 <= cwnd, so the matrix runs, unmarked, 250 <= 375,
	// trtt - rtt = 125, unit = 1000 x 40000 = 4e7:
	//   PI = 4e7 x 2048 x 125 / (250 x 250000 x 16) = 10240 (10 B)
	//   FI = 4e7 x 1024 / (250000 x 16)             = 10240 (10 B)
	EXPECT_EQ(Ack(s, p, 30, 250, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.brtt, 250u);
	EXPECT_EQ(s.bdp, 250000u);
	EXPECT_EQ(s.cwnd, 250020u);
	EXPECT_EQ(s.avg_rtt, 250u << 8);
}

// TCP runs .cong_control on the ACK of its SYN before .init, on the state
// tcp_assign_congestion_control() zeroed; the adapter sets the MTU first.
// The ACK must start the flow as smartt_init() would have, not take the
// fast path of a flow whose window is 0 (a division by zero: the kernel
// died of it), in either law.
TEST(smartt_start, AckBeforeInitOnAZeroedState)
{
	smartt_params p = Params();

	p.base_rtt_us = 0;
	for (u32 mode : {SMARTT_MODE_SMARTT, SMARTT_MODE_NSCC}) {
		smartt_state s = {};

		p.mode = mode;
		smartt_set_mtu(&s, &p, kMtu);
		const smartt_ack none = {20, kMtu, -1, 0, false};
		const smartt_ack first = {30, kMtu, 250, 0, false};
		auto on_ack = mode == SMARTT_MODE_NSCC ? nscc_on_ack : smartt_on_ack;

		EXPECT_EQ(on_ack(&s, &p, &none), SMARTT_NONE) << mode;
		EXPECT_EQ(s.cwnd, 0u) << mode;
		on_ack(&s, &p, &first);
		EXPECT_EQ(s.brtt, 250u) << mode;
		EXPECT_GE(s.cwnd, 250000u) << mode;
	}
}

TEST(smartt_start, HandshakeRttUnlessConfigured)
{
	smartt_params p = Params();

	EXPECT_EQ(Start(p, kMtu, 300).brtt, 100u);	// configured wins
	p.base_rtt_us = 0;
	EXPECT_EQ(Start(p, kMtu, 300).brtt, 300u);	// hint used
}

// A learned base RTT never drops below base_rtt_floor_us: a 40 us hint or
// sample under a 250 us floor gives brtt 250, bdp 8000 x 250 / 8 = 250000;
// a 300 us hint stays 300 and a later 260 us sample lowers it to 260, a
// 100 us one only to the floor.
TEST(smartt_start, LearnedBaseRttFloor)
{
	smartt_params p = Params();

	p.base_rtt_us = 0;
	p.base_rtt_floor_us = 250;
	EXPECT_EQ(Start(p, kMtu, 40).brtt, 250u);
	EXPECT_EQ(Start(p, kMtu, 40).bdp, 250000u);
	smartt_state s = Start(p, kMtu, 300);
	EXPECT_EQ(s.brtt, 300u);
	Ack(s, p, 1000, 260, false);
	EXPECT_EQ(s.brtt, 260u);
	Ack(s, p, 2000, 100, false);
	EXPECT_EQ(s.brtt, 250u);

	smartt_state f = Start(p);
	Ack(f, p, 10, 40, false);		// the first sample starts it
	EXPECT_EQ(f.brtt, 250u);
	// and a sample under the floor acts as the floor: with instant
	// averaging the RTT average is 250, not 40
	EXPECT_EQ(f.avg_rtt >> 8, 250u);
}

// Our case 1: multiplicative decrease, SMaRTT Sec. III-I2, Eq. 1. With
// gain 1.0 the average equals the sample. r = gamma (avg - trtt) / avg in
// Q20 with gamma = 819/1024; the decrease is floor(cwnd x r / 2^20).
TEST(smartt_md, Formula)
{
	const smartt_params p = ParamsInstantAvg();

	{
		// avg = 2 brtt = 200: r = 819 x (50 x 1024) / 200 x 1024
		//   = 819 x 256 = 209664; dec = floor(100000 x 209664 / 2^20)
		//   = floor(19995.1) = 19995 -> 80005 (Eq. 1: x0.8; the 5 B are
		//   gamma = 0.7998 rather than 0.8)
		smartt_state s = Start(p);
		EXPECT_EQ(Ack(s, p, 1000, 200, true), SMARTT_MD);
		EXPECT_EQ(s.cwnd, 80005u);

		// A second marked slow ACK within brtt: no change.
		EXPECT_EQ(Ack(s, p, 1099, 200, true), SMARTT_NONE);
		EXPECT_EQ(s.cwnd, 80005u);

		// One brtt later: floor(80005 x 209664 / 2^20) = 15997
		EXPECT_EQ(Ack(s, p, 1100, 200, true), SMARTT_MD);
		EXPECT_EQ(s.cwnd, 64008u);
	}
	{
		// avg = 3 brtt: r = 819 x 512 = 419328,
		// dec = floor(100000 x 419328 / 2^20) = 39990 (Eq. 1: x0.6)
		smartt_state s = Start(p);
		EXPECT_EQ(Ack(s, p, 1000, 300, true), SMARTT_MD);
		EXPECT_EQ(s.cwnd, 60010u);
	}
	{
		// avg = 10 brtt: 1 - 0.8 x 850/1000 = 0.32 < 0.5: halved
		smartt_state s = Start(p);
		EXPECT_EQ(Ack(s, p, 1000, 1000, true), SMARTT_MD);
		EXPECT_EQ(s.cwnd, 50000u);
	}
}

// avg_rtt <= trtt while the sample is above target: Eq. 1 would increase
// the window; our guard (htsim's too) skips the decrease.
TEST(smartt_md, SkippedWhileAverageBelowTarget)
{
	smartt_params p = Params();

	p.rtt_gain_min = 1;
	p.rtt_gain_max = 1;
	smartt_state s = Start(p);
	// avg = 25600 + (51200 - 25600) x 1 / 1024 = 25625 (100.1 us)
	EXPECT_EQ(Ack(s, p, 1000, 200, true), SMARTT_NONE);
	EXPECT_EQ(s.avg_rtt, 25625u);
	EXPECT_EQ(s.cwnd, 100000u);
	EXPECT_EQ(s.flags & SMARTT_F_MD_DONE, 0u);
}

// Our case 2: fair increase, SMaRTT Sec. III-I3, Eq. 2, unmarked and above
// target.
TEST(smartt_fi, OneHundredthMtuPerAck)
{
	const smartt_params p = Params();
	smartt_state s = Start(p);

	// size / cwnd x mtu x fi x scale = 1000 / 100000 x 1000 = 10 B,
	// in Q10: 1000 x 16000 x 1024 / (100000 x 16) = 10240 exactly
	EXPECT_EQ(Ack(s, p, 1000, 200, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.cwnd, 100010u);
	EXPECT_EQ(s.inc_rem, 0u);

	// 100 ACKs add sum(10^6 / cwnd_i) ~ 100 x 10^6 / 100500 = 995 B:
	// one MTU within 1 %.
	for (u32 i = 1; i < 100; i++)
		Ack(s, p, 1000 + i, 200, false);
	EXPECT_NEAR(double(s.cwnd - 100000), 1000.0, 10.0);
}

// Our case 3: proportional increase, SMaRTT Sec. III-I4, Eq. 3, followed
// by FI.
TEST(smartt_pi, Formula)
{
	const smartt_params p = Params();

	{
		// rtt = brtt: (150 - 100) / 100 x 1000 / 100000 x 1000 x 2
		//   = 10 B = mtu^2 / cwnd, plus FI 10 B.
		smartt_state s = Start(p);
		EXPECT_EQ(Ack(s, p, 1000, 100, false), SMARTT_PROP_INC);
		EXPECT_EQ(s.cwnd, 100020u);
	}
	{
		// rtt = trtt - 1: PI = 16e6 x 2048 x 1 / (149 x 100000 x 16)
		//   = floor(137.4) = 137 in Q10 (0.13 B), FI = 10240:
		//   cwnd += (10240 + 137) >> 10 = 10, remainder 137.
		smartt_state s = Start(p);
		EXPECT_EQ(Ack(s, p, 1000, 149, false), SMARTT_PROP_INC);
		EXPECT_EQ(s.cwnd, 100010u);
		EXPECT_EQ(s.inc_rem, 137u);
	}
	{
		// rtt == trtt counts as below target (ours: Algorithm 1
		// tests only > and <): PI = 0.
		smartt_state s = Start(p);
		EXPECT_EQ(Ack(s, p, 1000, 150, false), SMARTT_PROP_INC);
		EXPECT_EQ(s.cwnd, 100010u);
	}
}

TEST(smartt_pi, CappedAtAckSize)
{
	const smartt_params p = Params();
	smartt_state s = Start(p);

	// Down to one MTU: 100000 - 99000.
	EXPECT_EQ(smartt_on_timeout(&s, &p, 99000), SMARTT_LOSS);
	EXPECT_EQ(s.cwnd, 1000u);
	// rtt 50 < brtt (mis-estimated, keep the formula):
	//   PI = (150 - 50) / 50 x 1000 / 1000 x 1000 x 2 = 4000 -> cap 1000
	//   FI = 1000 / 1000 x 1000 = 1000
	// fi_count = 1000 is not > cwnd = 1000: no FastIncrease yet.
	EXPECT_EQ(Ack(s, p, 1000, 50, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.cwnd, 3000u);
	EXPECT_EQ(s.brtt, 100u);	// configured: not learned
}

// Our case 4: a marked ACK below target leaves the window alone (SMaRTT
// Sec. III-I1), breaks the clean run and asks for a path change, once per
// ACK.
TEST(smartt_lb, MarkedFastAck)
{
	const smartt_params p = Params();
	smartt_state s = Start(p);

	EXPECT_EQ(Ack(s, p, 1000, 100, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.fi_count, 1000u);
	const u32 cwnd = s.cwnd;

	int path_changes = 0;
	if (Ack(s, p, 1010, 120, true) == SMARTT_PATH_CHANGE)
		path_changes++;
	EXPECT_EQ(path_changes, 1);
	EXPECT_EQ(s.cwnd, cwnd);
	EXPECT_EQ(s.fi_count, 0u);
	EXPECT_EQ(s.flags & SMARTT_F_FAST_INC, 0u);
}

// The optional fair decrease (the variant of SMaRTT Fig. 11, as early NSCC
// code in htsim has it): cwnd -= fd x size x cwnd / bdp.
TEST(smartt_lb, OptionalFairDecrease)
{
	smartt_params p = Params();

	p.fair_decrease = 819;
	smartt_state s = Start(p);
	// 819 x 1000 x 100000 / (100000 x 1024) = floor(799.8) = 799
	EXPECT_EQ(Ack(s, p, 1000, 120, true), SMARTT_PATH_CHANGE);
	EXPECT_EQ(s.cwnd, 100000u - 799u);
}

// Our case 5: FastIncrease (SMaRTT Sec. III-F, Algorithm 3), with the
// additive increases off so that only FastIncrease moves the window.
TEST(smartt_fast_inc, EngagesAfterACleanWindow)
{
	const smartt_params p = ParamsNoIncrease();
	smartt_state s = Start(p);
	u32 now = 1000;

	// ACKs 1..100: fi_count 1000 .. 100000, not > cwnd = 100000.
	for (int i = 0; i < 100; i++)
		EXPECT_EQ(Ack(s, p, now++, 100, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.cwnd, 100000u);
	EXPECT_EQ(s.fi_count, 100000u);

	// ACK 101: 101000 > 100000: + 2 x 1000 per acked MTU.
	EXPECT_EQ(Ack(s, p, now++, 100, false), SMARTT_FAST_INC);
	EXPECT_EQ(s.cwnd, 102000u);
	EXPECT_EQ(Ack(s, p, now++, 112, false), SMARTT_FAST_INC); // 100 + 12
	EXPECT_EQ(s.cwnd, 104000u);
	// A stretch ACK of 3 MTU: + 6000.
	EXPECT_EQ(Ack(s, p, now++, 100, false, 3 * kMtu), SMARTT_FAST_INC);
	EXPECT_EQ(s.cwnd, 110000u);

	// One marked ACK disengages it and resets the count.
	EXPECT_EQ(Ack(s, p, now++, 100, true), SMARTT_PATH_CHANGE);
	EXPECT_EQ(s.cwnd, 110000u);
	EXPECT_EQ(s.fi_count, 0u);
	EXPECT_EQ(s.flags & SMARTT_F_FAST_INC, 0u);
	EXPECT_EQ(Ack(s, p, now++, 100, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.cwnd, 110000u);
}

TEST(smartt_fast_inc, DelayedAckDisengages)
{
	const smartt_params p = ParamsNoIncrease();
	smartt_state s = Start(p);

	for (u32 i = 0; i < 101; i++)
		Ack(s, p, 1000 + i, 100, false);
	EXPECT_EQ(s.cwnd, 102000u);
	// 113 > brtt + brtt/8 = 112: not clean.
	EXPECT_EQ(Ack(s, p, 2000, 113, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.fi_count, 0u);
	EXPECT_EQ(s.flags & SMARTT_F_FAST_INC, 0u);
}

// fast_inc_tol_us widens the tolerance for host jitter (ours: the paper
// gives no tolerance).
TEST(smartt_fast_inc, AbsoluteToleranceFloor)
{
	smartt_params p = ParamsNoIncrease();

	p.fast_inc_tol_us = 30;
	smartt_state s = Start(p);
	EXPECT_EQ(Ack(s, p, 1000, 130, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.fi_count, 1000u);
	EXPECT_EQ(Ack(s, p, 1001, 131, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.fi_count, 0u);
}

// Our case 6: QuickAdapt and its ignore phase (SMaRTT Sec. III-E,
// Algorithms 2 and 4).
TEST(smartt_qa, TrimNackThenWindowEnd)
{
	const smartt_params p = ParamsNoIncrease();
	smartt_state s = Start(p);

	// t = 1000 starts the measurement window [1000, 1150).
	EXPECT_EQ(Ack(s, p, 1000, 200, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.acked, 0u);
	// 10 ACKs of 1000 B: X so far = 10000.
	for (u32 t = 1010; t <= 1100; t += 10)
		EXPECT_EQ(Ack(s, p, t, 200, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.acked, 10000u);

	// Trim NACK mid-window: cwnd -= size at once, QA armed.
	EXPECT_EQ(smartt_on_nack(&s, &p, 1120, kMtu, 60000), SMARTT_LOSS);
	EXPECT_EQ(s.cwnd, 99000u);
	EXPECT_NE(s.flags & SMARTT_F_QA_ARMED, 0u);
	// A second trim within the same trtt: no second adaptation.
	EXPECT_EQ(smartt_on_nack(&s, &p, 1130, kMtu, 60000), SMARTT_LOSS);
	EXPECT_EQ(s.cwnd, 98000u);
	EXPECT_EQ(Ack(s, p, 1149, 200, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.cwnd, 98000u);

	// First ACK at qa_end: X = 12000 B delivered (this ACK included),
	// cwnd = max(X x 1, mtu) = 12000; bytes_to_ignore = in flight.
	EXPECT_EQ(Ack(s, p, 1150, 400, true, kMtu, 40000), SMARTT_QUICK_ADAPT);
	EXPECT_EQ(s.cwnd, 12000u);
	EXPECT_EQ(s.ignore_left, 40000u);
	EXPECT_EQ(s.acked, 0u);
	EXPECT_EQ(s.flags & SMARTT_F_QA_ARMED, 0u);

	// The next 40000 bytes of marked, slow ACKs and NACKs change
	// nothing: 20 ACKs, one NACK, 18 ACKs = 39000 B are ignored...
	u32 t = 1160;
	for (int i = 0; i < 20; i++, t += 10)
		EXPECT_EQ(Ack(s, p, t, 400, true), SMARTT_IGNORED);
	EXPECT_EQ(smartt_on_nack(&s, &p, t, kMtu, 40000), SMARTT_IGNORED);
	EXPECT_EQ(s.flags & SMARTT_F_QA_ARMED, 0u);
	for (int i = 0; i < 18; i++, t += 10)
		EXPECT_EQ(Ack(s, p, t, 400, true), SMARTT_IGNORED);
	EXPECT_EQ(s.cwnd, 12000u);
	EXPECT_EQ(s.ignore_left, 1000u);
	// ...and the ACK that completes the 40000 bytes is processed
	// normally (bytes_ignored == bytes_to_ignore is not "<").
	EXPECT_EQ(Ack(s, p, t, 400, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.ignore_left, 0u);
	EXPECT_EQ(s.cwnd, 12000u);
	// That ACK was past qa_end: it opened a new window at t.
	EXPECT_EQ(s.qa_start, t);

	// A trim inside the new window arms; the adaptation waits for its end.
	EXPECT_EQ(smartt_on_nack(&s, &p, t + 50, kMtu, 9000), SMARTT_LOSS);
	EXPECT_EQ(s.cwnd, 11000u);
	EXPECT_EQ(Ack(s, p, t + 100, 400, false), SMARTT_FAIR_INC);
	EXPECT_EQ(Ack(s, p, t + 150, 400, false, kMtu, 9000),
		  SMARTT_QUICK_ADAPT);
	EXPECT_EQ(s.cwnd, 2000u);	// 2 ACKs of 1000 B in the window
	EXPECT_EQ(s.ignore_left, 9000u);
}

// A NACK after the window has ended adapts at once.
TEST(smartt_qa, NackAfterWindowEndAdaptsAtOnce)
{
	const smartt_params p = ParamsNoIncrease();
	smartt_state s = Start(p);

	Ack(s, p, 1000, 200, false);		// window [1000, 1150)
	for (u32 t = 1010; t <= 1050; t += 10)
		Ack(s, p, t, 200, false);	// X = 5000
	// cwnd 100000 - 1000, armed, window over: cwnd = 5000.
	EXPECT_EQ(smartt_on_nack(&s, &p, 1200, kMtu, 7000), SMARTT_QUICK_ADAPT);
	EXPECT_EQ(s.cwnd, 5000u);
	EXPECT_EQ(s.ignore_left, 7000u);
}

// Our case 7: QuickAdapt never raises the window (ours: SMaRTT
// Algorithm 2, line 7, would).
TEST(smartt_qa, NeverRaises)
{
	const smartt_params p = ParamsNoIncrease();
	smartt_state s = Start(p);

	smartt_on_timeout(&s, &p, 95000);
	EXPECT_EQ(s.cwnd, 5000u);
	Ack(s, p, 1000, 200, false);
	for (u32 t = 1010; t <= 1100; t += 10)
		Ack(s, p, t, 200, false, 2 * kMtu);	// X = 20000
	EXPECT_EQ(smartt_on_nack(&s, &p, 1110, kMtu, 3000), SMARTT_LOSS);
	EXPECT_EQ(s.cwnd, 4000u);
	// X = 21000 > cwnd 4000: cwnd = min(4000, 21000) = 4000.
	EXPECT_EQ(Ack(s, p, 1150, 200, false, kMtu, 3000), SMARTT_QUICK_ADAPT);
	EXPECT_EQ(s.cwnd, 4000u);
	EXPECT_EQ(s.ignore_left, 3000u);
}

// Our case 8: the clamps (SMaRTT Sec. III-J: 1 MTU to 1.5 BDP) hold on
// every path.
TEST(smartt_clamp, FloorOnEveryPath)
{
	const smartt_params p = ParamsInstantAvg();
	smartt_state s = Start(p);

	EXPECT_EQ(smartt_on_timeout(&s, &p, 1000000), SMARTT_LOSS);
	EXPECT_EQ(s.cwnd, 1000u);
	// MD halves 1000 to 500: floor 1000. (This ACK opens the
	// QuickAdapt window at t = 1000.)
	EXPECT_EQ(Ack(s, p, 1000, 1000, true), SMARTT_MD);
	EXPECT_EQ(s.cwnd, 1000u);
	EXPECT_EQ(smartt_on_nack(&s, &p, 1010, 5000, 0), SMARTT_LOSS);
	EXPECT_EQ(s.cwnd, 1000u);
	// QuickAdapt with nothing delivered in the window: max(0, mtu).
	EXPECT_EQ(smartt_on_nack(&s, &p, 1200, kMtu, 0), SMARTT_QUICK_ADAPT);
	EXPECT_EQ(s.cwnd, 1000u);

	smartt_params p2 = p;
	p2.min_cwnd = 2;
	smartt_clamp(&s, &p2);
	EXPECT_EQ(s.cwnd, 2000u);
}

TEST(smartt_clamp, CeilingOnEveryPath)
{
	const smartt_params p = ParamsNoIncrease();
	smartt_state s = Start(p);
	u32 now = 1000;

	// FastIncrease engages at ACK 101, +2000 per ACK: 100000 + 25 x 2000
	// reaches maxwnd = 150000 and stays there.
	for (int i = 0; i < 140; i++)
		Ack(s, p, now++, 100, false);
	EXPECT_EQ(s.cwnd, 150000u);

	const smartt_params pf = Params();
	EXPECT_EQ(Ack(s, pf, now++, 200, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.cwnd, 150000u);
	EXPECT_EQ(Ack(s, pf, now++, 120, true), SMARTT_PATH_CHANGE);
	EXPECT_EQ(Ack(s, pf, now++, 101, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.cwnd, 150000u);

	// init_cwnd above max_cwnd is clamped at start.
	smartt_params pinit = p;
	pinit.init_cwnd = 4096;
	EXPECT_EQ(Start(pinit).cwnd, 150000u);
}

// Our case 9: QuickAdapt trigger without trimming (SMaRTT Sec. III-E; both
// thresholds htsim's): rtt > brtt + 4 (trtt - brtt) = 300 and
// acked < maxwnd / 8 = 18750.
TEST(smartt_qa, NoTrimTrigger)
{
	smartt_params p = ParamsNoIncrease();

	p.trimming = 0;
	{
		smartt_state s = Start(p);
		Ack(s, p, 1000, 200, false);		// window starts
		EXPECT_EQ(Ack(s, p, 1010, 300, false), SMARTT_FAIR_INC);
		EXPECT_EQ(s.flags & SMARTT_F_QA_ARMED, 0u);  // 300 not > 300
		EXPECT_EQ(Ack(s, p, 1020, 301, false), SMARTT_FAIR_INC);
		EXPECT_NE(s.flags & SMARTT_F_QA_ARMED, 0u);  // acked 2000
		EXPECT_EQ(Ack(s, p, 1150, 200, false, kMtu, 8000),
			  SMARTT_QUICK_ADAPT);
		EXPECT_EQ(s.cwnd, 3000u);
	}
	{
		smartt_state s = Start(p);
		Ack(s, p, 1000, 200, false);
		for (u32 t = 1001; t <= 1019; t++)
			Ack(s, p, t, 200, false);	// acked 19000
		EXPECT_EQ(Ack(s, p, 1020, 400, false), SMARTT_FAIR_INC);
		EXPECT_EQ(s.flags & SMARTT_F_QA_ARMED, 0u);
	}
	{
		// With trimming the heuristic is off.
		smartt_params pt = p;
		pt.trimming = 1;
		smartt_state s = Start(pt);
		Ack(s, pt, 1000, 200, false);
		Ack(s, pt, 1020, 400, false);
		EXPECT_EQ(s.flags & SMARTT_F_QA_ARMED, 0u);
	}
}

// Timeouts take their bytes off but never arm QuickAdapt (our reading of
// SMaRTT Sec. III-E: they come too late), and are ignored in the ignore
// phase (Sec. III-E, "QuickAdapt without trimming").
TEST(smartt_timeout, NoArmingAndIgnorePhase)
{
	const smartt_params p = ParamsNoIncrease();
	smartt_state s = Start(p);

	EXPECT_EQ(smartt_on_timeout(&s, &p, kMtu), SMARTT_LOSS);
	EXPECT_EQ(s.cwnd, 99000u);
	EXPECT_EQ(s.flags & SMARTT_F_QA_ARMED, 0u);

	Ack(s, p, 1000, 200, false);
	smartt_on_nack(&s, &p, 1200, kMtu, 2500);	// adapts at once
	EXPECT_EQ(s.cwnd, 1000u);
	EXPECT_EQ(smartt_on_timeout(&s, &p, kMtu), SMARTT_IGNORED);
	EXPECT_EQ(smartt_on_timeout(&s, &p, kMtu), SMARTT_IGNORED);
	EXPECT_EQ(s.ignore_left, 500u);
	EXPECT_EQ(smartt_on_timeout(&s, &p, kMtu), SMARTT_LOSS);
	EXPECT_EQ(s.cwnd, 1000u);
}

// RTT EWMA (SMaRTT Sec. III-I2) with the fixture's gain 40/1024.
TEST(smartt_rtt, AverageEwma)
{
	const smartt_params p = Params();
	smartt_state s = Start(p);

	// 25600 + (51200 - 25600) x 40 / 1024 = 25600 + 1000
	Ack(s, p, 1000, 200, false);
	EXPECT_EQ(s.avg_rtt, 26600u);
	EXPECT_EQ(smartt_avg_rtt_us(&s), 103u);
	// 26600 - floor((26600 - 12800) x 40 / 1024) = 26600 - 539
	Ack(s, p, 1001, 50, false);
	EXPECT_EQ(s.avg_rtt, 26061u);
}

// An ACK without a sample (rtt < 0, e.g. a retransmission) counts its
// bytes but takes no RTT step: no average, no matrix, and an unmarked one
// neither extends nor breaks the FastIncrease run; a marked one breaks it.
TEST(smartt_rtt, MinusOneSampleSkipsRttSteps)
{
	const smartt_params p = Params();
	smartt_state s = Start(p);

	EXPECT_EQ(Ack(s, p, 1000, 100, false), SMARTT_PROP_INC);
	const u32 cwnd = s.cwnd, avg = s.avg_rtt;
	EXPECT_EQ(s.fi_count, 1000u);

	EXPECT_EQ(Ack(s, p, 1010, -1, false), SMARTT_NONE);
	EXPECT_EQ(s.cwnd, cwnd);
	EXPECT_EQ(s.avg_rtt, avg);
	EXPECT_EQ(s.fi_count, 1000u);
	EXPECT_EQ(s.acked, 1000u);

	EXPECT_EQ(Ack(s, p, 1020, -5, true), SMARTT_NONE);
	EXPECT_EQ(s.cwnd, cwnd);
	EXPECT_EQ(s.fi_count, 0u);
}

// A zero reading is less than the clock's resolution: 1 us. Learned, it
// becomes the base RTT: bdp = 8000 x 1 / 8 = 1000 B, maxwnd 1500.
TEST(smartt_rtt, ZeroSample)
{
	smartt_params p = Params();

	p.base_rtt_us = 0;
	smartt_state s = Start(p, kMtu, 100);
	// avg = 25600 - floor((25600 - 256) x 40 / 1024) = 25600 - 990
	// then brtt = 1: trtt = 1, inc_unit = 1000 x 16 x 1000 / 100000
	// = 160; gain = 4 x 1024 x 1000 / 1000 = 4096 -> clamped to 256.
	// Matrix: unmarked, 1 <= trtt: PI = 0 (trtt - rtt = 0),
	// FI = 1000 x 160 x 1024 / (100000 x 16) = 102 in Q10 (0.1 B).
	EXPECT_EQ(Ack(s, p, 1000, 0, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.avg_rtt, 24610u);
	EXPECT_EQ(s.brtt, 1u);
	EXPECT_EQ(s.bdp, 1000u);
	EXPECT_EQ(s.inc_unit, 160u);
	EXPECT_EQ(s.rtt_gain, 256u);
	EXPECT_EQ(s.inc_rem, 102u);
	EXPECT_EQ(s.cwnd, 1500u);
}

// A lower sample lowers the learned base RTT (a running minimum, like
// Swift's: SMaRTT Sec. III, "Overview") and everything derived from it.
TEST(smartt_rtt, LearnedBaseRttFollowsTheMinimum)
{
	smartt_params p = Params();

	p.base_rtt_us = 0;
	smartt_state s = Start(p, kMtu, 100);
	// avg = 25600 - (25600 - 20480) x 40 / 1024 = 25400; brtt = 80,
	// bdp = 80000, trtt = 120, inc_unit = 12800, gain floor(51.2) = 51.
	// Clean (80 <= 80 + 10) but fi_count 1000 <= cwnd; matrix:
	//   FI = 1000 x 12800 x 1024 / (100000 x 16) = 8192 (8 B)
	//   PI = 12.8e6 x 2048 x 40 / (80 x 100000 x 16) = 8192 (8 B)
	EXPECT_EQ(Ack(s, p, 1000, 80, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.brtt, 80u);
	EXPECT_EQ(s.bdp, 80000u);
	EXPECT_EQ(s.inc_unit, 12800u);
	EXPECT_EQ(s.rtt_gain, 51u);
	EXPECT_EQ(s.avg_rtt, 25400u);
	EXPECT_EQ(s.cwnd, 100016u);
	// A higher sample does not raise it.
	Ack(s, p, 1010, 90, false);
	EXPECT_EQ(s.brtt, 80u);
	// A much lower one shrinks maxwnd under cwnd: clamped to
	// 1.5 x 8000 x 40 / 8 = 60000.
	Ack(s, p, 1020, 40, false);
	EXPECT_EQ(s.brtt, 40u);
	EXPECT_EQ(s.cwnd, 60000u);
}

// The MSS changed: floor and EWMA gain follow.
TEST(smartt_start, MtuChange)
{
	const smartt_params p = Params();
	smartt_state s = Start(p);

	smartt_on_timeout(&s, &p, 1000000);
	EXPECT_EQ(s.cwnd, 1000u);
	smartt_set_mtu(&s, &p, 1500);
	EXPECT_EQ(s.cwnd, 1500u);
	EXPECT_EQ(s.rtt_gain, 61u);	// floor(4 x 1024 x 1500 / 100000)
	EXPECT_EQ(s.inc_unit, 16000u);	// mtu x scale does not depend on mtu
}

// u32 time wraps every 71.6 minutes; only elapsed times are compared.
TEST(smartt_wrap, TimeWrapsInsideQuickAdaptWindow)
{
	const smartt_params p = ParamsNoIncrease();
	smartt_state s = Start(p);
	const u32 t0 = 0xffffffb0u;	// 80 us before the wrap

	Ack(s, p, t0, 200, false);	// window [t0, t0 + 150)
	EXPECT_EQ(smartt_on_nack(&s, &p, t0 + 10, kMtu, 5000), SMARTT_LOSS);
	// t0 + 149 = 0x45 after the wrap: 149 us elapsed, window still open
	EXPECT_EQ(Ack(s, p, 0x45, 200, false), SMARTT_FAIR_INC);
	// t0 + 150 = 0x46: window over
	EXPECT_EQ(Ack(s, p, 0x46, 200, false, kMtu, 5000), SMARTT_QUICK_ADAPT);
	EXPECT_EQ(s.cwnd, 2000u);
}

TEST(smartt_wrap, TimeWrapsInsideMdInterval)
{
	const smartt_params p = ParamsInstantAvg();
	smartt_state s = Start(p);

	EXPECT_EQ(Ack(s, p, 0xfffffff0u, 200, true), SMARTT_MD);
	EXPECT_EQ(Ack(s, p, 0x53, 200, true), SMARTT_NONE);	// 99 us
	EXPECT_EQ(Ack(s, p, 0x54, 200, true), SMARTT_MD);	// 100 us
	EXPECT_EQ(s.cwnd, 64008u);	// as in smartt_md.Formula
}

// Byte counters saturate instead of wrapping, and the ignore phase (one
// down-counter) cannot come back after 4 GiB of ACKs, as a wrapped
// bytes_ignored < bytes_to_ignore comparison would.
TEST(smartt_wrap, CountersSaturate)
{
	smartt_params p = ParamsNoIncrease();

	p.fast_inc_k = 0;
	smartt_state s = Start(p);
	const u32 big = SMARTT_CWND_LIMIT;

	Ack(s, p, 1000, 200, false);			// window starts
	for (int i = 0; i < 5; i++)
		Ack(s, p, 1001, 200, false, big + 12345); // capped at 2^30
	EXPECT_EQ(s.acked, SMARTT_U32_MAX);

	for (int i = 0; i < 5; i++)
		Ack(s, p, 1002, 100, false, big);	// clean
	EXPECT_EQ(s.fi_count, SMARTT_U32_MAX);

	smartt_on_nack(&s, &p, 2000, kMtu, 3000);	// adapts, ignore 3000
	EXPECT_EQ(Ack(s, p, 2001, 200, false), SMARTT_IGNORED);
	EXPECT_EQ(Ack(s, p, 2002, 200, false), SMARTT_IGNORED);
	EXPECT_EQ(Ack(s, p, 2003, 200, false), SMARTT_FAIR_INC);
	for (u32 i = 0; i < 8; i++)
		EXPECT_NE(Ack(s, p, 2004 + i, 200, false, big), SMARTT_IGNORED);
}

// 400 Gbit/s x 100 ms: bdp = 400000 x 100000 / 8 = 5e9 B, more than any
// window can be; it is capped at SMARTT_CWND_LIMIT = 2^30, and no product
// overflows.
TEST(smartt_huge_bdp, NoOverflow)
{
	smartt_params p = SMARTT_PARAMS_INIT;

	p.link_rate_mbps = 400000;
	p.min_cwnd = 1;		// the floor below is one MTU
	p.min_cwnd_bytes = 0;	// ... not the default byte floor
	smartt_state s = Start(p, 1500, 100000);
	EXPECT_EQ(s.bdp, 1u << 30);
	EXPECT_EQ(smartt_maxwnd(&s, &p), 1u << 30);	// 1.5 bdp, capped
	EXPECT_EQ(s.cwnd, 1u << 30);
	// inc_unit = 2^30 x 16 x 4096 / 150000 = floor(469124961.5)
	EXPECT_EQ(s.inc_unit, 469124961u);
	// gain = 4 x 1024 x 1500 / 2^30 = 0 -> clamped to 1/128
	EXPECT_EQ(s.rtt_gain, 8u);
	// 2^30 x 10^6 x 1280 / (100000 x 1024) = 2^30 x 12.5 B/s
	EXPECT_EQ(smartt_pacing_rate(&s, &p), 13421772800ull);

	// FI near the top: cwnd = 2^30 - 1500, unit = 1500 x 469124961,
	// FI = unit x 1024 / (cwnd x 16) = floor(41943.0) Q10 = 40 B + 983.
	smartt_on_timeout(&s, &p, 1500);
	EXPECT_EQ(Ack(s, p, 1000, 200000, false, 1500), SMARTT_FAIR_INC);
	EXPECT_EQ(s.cwnd, (1u << 30) - 1500 + 40);
	EXPECT_EQ(s.inc_rem, 983u);

	// FI from the floor: 1500 / 1500 x 29320310.06 B.
	// unit x 1024 / (1500 x 16) = 30023997504 Q10 = 29320310 B + 64,
	// plus the 983 carried: 30023998487 = 29320311 B + 23.
	smartt_on_timeout(&s, &p, 1u << 30);
	EXPECT_EQ(s.cwnd, 1500u);
	EXPECT_EQ(Ack(s, p, 2000, 200000, false, 1500), SMARTT_FAIR_INC);
	EXPECT_EQ(s.cwnd, 1500u + 29320311u);
	EXPECT_EQ(s.inc_rem, 23u);

	// PI from the floor: unit x 2048 x 50000 = 7.2e19 saturates 64 bits,
	// yet the result is the cap, size = 1500 B, which the true value
	// (1.9e7 B) exceeds too. FI adds 29320310 B + 64 again.
	smartt_on_timeout(&s, &p, 1u << 30);
	EXPECT_EQ(Ack(s, p, 3000, 100000, false, 1500), SMARTT_PROP_INC);
	EXPECT_EQ(s.cwnd, 1500u + 1500u + 29320310u);

	// MD at avg = 2 x brtt (gain 1.0): r = 209664 as in smartt_md.
	p.rtt_gain_min = 1024;
	p.rtt_gain_max = 1024;
	smartt_state m = Start(p, 1500, 100000);
	EXPECT_EQ(Ack(m, p, 1000, 200000, true, 1500), SMARTT_MD);
	// floor(2^30 x 209664 / 2^20) = 1024 x 209664 = 214695936
	EXPECT_EQ(m.cwnd, (1u << 30) - 214695936u);
}

TEST(smartt_pacing, RateOverBaseRtt)
{
	smartt_params p = Params();
	smartt_state s = Start(p);

	// 1.25 x 100000 B / 100 us = 1.25e9 B/s = 1.25 x the 8 Gbit/s line
	EXPECT_EQ(smartt_pacing_rate(&s, &p), 1250000000ull);
	p.pacing_gain = 0;
	EXPECT_EQ(smartt_pacing_rate(&s, &p), 0ull);
}

// --- Sub-segment windows ----------------------------------------------------
//
// The byte window's floor is min_cwnd_bytes (default 64); 0 keeps the old
// floor of min_cwnd MTUs, which the fixture above uses.

TEST(smartt_floor, DefaultsAndZeroKeepsTheMtuFloor)
{
	const smartt_params d = SMARTT_PARAMS_INIT;
	smartt_params p = Params();

	EXPECT_EQ(d.min_cwnd_bytes, 64u);	// smallest Ethernet frame
	EXPECT_EQ(d.min_cwnd, 2u);		// now the snd_cwnd floor
	smartt_state s = Start(p);
	EXPECT_EQ(smartt_minwnd(&s, &p), 1000u);	// 0: 1 x 1000
	p.min_cwnd = 2;
	EXPECT_EQ(smartt_minwnd(&s, &p), 2000u);	// 0: 2 x 1000
	p.min_cwnd_bytes = 64;
	EXPECT_EQ(smartt_minwnd(&s, &p), 64u);		// MSS-independent
	smartt_set_mtu(&s, &p, 1500);
	EXPECT_EQ(smartt_minwnd(&s, &p), 64u);
}

// Losses and decreases take the window below one segment, down to the
// byte floor; the pacing rate, cwnd x gain / brtt, follows it.
TEST(smartt_floor, SubSegmentWindowAndPacing)
{
	smartt_params p = ParamsInstantAvg();

	p.min_cwnd_bytes = 64;
	smartt_state s = Start(p);
	EXPECT_EQ(smartt_on_timeout(&s, &p, 99000), SMARTT_LOSS);
	EXPECT_EQ(s.cwnd, 1000u);		// 100000 - 99000
	// avg = 200 us (gain 1), trtt 150: r = 819 x 50/200 in Q20 =
	// 819 x 256 = 209664; 1000 x 209664 >> 20 = 199.95 -> 199.
	EXPECT_EQ(Ack(s, p, 1000, 200, true), SMARTT_MD);
	EXPECT_EQ(s.cwnd, 801u);		// 1000 - 199, above 0.5 x 1000
	// Next decrease one brtt later: 801 x 209664 >> 20 = 160.16 -> 160.
	EXPECT_EQ(Ack(s, p, 1100, 200, true), SMARTT_MD);
	EXPECT_EQ(s.cwnd, 641u);
	// 1.25 x 641 B / 100 us = 8012500 B/s (641e6 x 1280 / 102400).
	EXPECT_EQ(smartt_pacing_rate(&s, &p), 8012500ull);
	// A timeout stops at the byte floor: 64 B, 800000 B/s.
	EXPECT_EQ(smartt_on_timeout(&s, &p, 1000), SMARTT_LOSS);
	EXPECT_EQ(s.cwnd, 64u);
	EXPECT_EQ(smartt_pacing_rate(&s, &p), 800000ull);
	// QuickAdapt keeps its own floor of one MTU (SMaRTT Algorithm 2,
	// line 7): nothing was delivered since t = 1000, so max(0, mtu) =
	// 1000 > 64, but it never raises the window: 64 stays.
	EXPECT_EQ(smartt_on_nack(&s, &p, 1200, 10, 0), SMARTT_QUICK_ADAPT);
	EXPECT_EQ(s.cwnd, 64u);
}

// --- NSCC (kernel/core/nscc_core.h) ------------------------------------------
//
// Fixture: Params() (mtu 1000 B, brtt 100 us configured, 8000 Mbit/s,
// bdp_ref 100000 B in 1000 B MTUs, floor 1 MTU), nscc_net_rtt_us = 0, so
//   network RTT = brtt = 100 us, network BDP = bdp = 100000 B
//   scaling_factor_a = 100000 / 100000 = 1, unit = mss x a = 1000 B,
//                      nscc_unit() = 16000 (Q4)
//   target    = 0.75 x 100 = 75 us = 19200 (us Q8)
//   QA trigger: delay > 4 x 75 = 300 us = 76800 (Q8)
//   QA window = brtt + target = 175 us = 44800 (Q8)
//   QA gate   = maxwnd / 8 = 150000 / 8 = 18750 B
//   fair increase per 1000 B ACK = 5 x 1000 x 1000 / cwnd bytes
//                                = 5120000000 / cwnd (Q10)
//   prop increase per 1000 B ACK = 4 x 1000 x 1000 x (target - delay)
//                                  / 12 us / cwnd bytes
//   eta = 0.15 x 1000 = 150 B = 153600 (Q10)
//   FastIncrease step per 1000 B ACK = 0.25 x a x 1000 = 250 B

namespace {

smartt_params NsccParams()
{
	smartt_params p = Params();

	p.mode = SMARTT_MODE_NSCC;
	return p;
}

smartt_state NsccStart(const smartt_params &p, u32 hint = 0)
{
	smartt_state s;

	nscc_init(&s, &p, kMtu, hint);
	return s;
}

smartt_action NAck(smartt_state &s, const smartt_params &p, u32 now, s32 rtt,
		   bool ecn, u32 size = kMtu, u32 inflight = 50000)
{
	const smartt_ack a = {now, size, rtt, inflight, ecn};

	return nscc_on_ack(&s, &p, &a);
}

// The first ACK, at t = 0 with delay 0: it opens the QuickAdapt window
// (qa_start 0) and, the first batch being due at once, applies its
// proportional increase and eta: 16000 x 1000 x 19200 x 256 / (12 x
// 150000 x 256) = 170666 (Q10), + 153600: 150000 + 166 + 150, clamped to
// maxwnd 150000, leaving inc_rem = 170666 - 166 x 1024 = 682 (and 682 again
// after eta: 153600 + 682 = 150 x 1024 + 682). adj_time = 0.
void NsccOpen(smartt_state &s, const smartt_params &p)
{
	EXPECT_EQ(NAck(s, p, 0, 100, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.cwnd, 150000u);
	EXPECT_EQ(s.inc_rem, 682u);
	EXPECT_EQ(s.inc_acc, 0u);
	EXPECT_EQ(s.adj_bytes, 0u);
}

} // namespace

TEST(nscc_param, DefaultsAndTarget)
{
	const smartt_params d = SMARTT_PARAMS_INIT;
	smartt_params p = NsccParams();
	const smartt_state s = NsccStart(p);

	EXPECT_EQ(d.mode, 0u);			// SMaRTT stays the default
	EXPECT_EQ(d.nscc_net_rtt_us, 0u);	// network RTT: base RTT
	// target_Qdelay = 0.75 x network RTT (trimming): 75 us in Q8
	EXPECT_EQ(nscc_target(&s, &p), 19200u);
	EXPECT_EQ(nscc_unit(&s, &p), 16000u);
	p.trimming = 0;			// without trimming: 1 x network RTT
	EXPECT_EQ(nscc_target(&s, &p), 25600u);
	p.trimming = 1;
	p.nscc_net_rtt_us = 40;		// one network-wide RTT, not brtt
	EXPECT_EQ(nscc_target(&s, &p), 7680u);	// 30 us
	// network BDP 8000 x 40 / 8 = 40000 B: a = 0.4, unit 400 B (Q4 6400)
	EXPECT_EQ(nscc_unit(&s, &p), 6400u);
	p.nscc_net_rtt_us = 101;		// 75.75 us, kept exactly in Q8
	EXPECT_EQ(nscc_target(&s, &p), 19392u);
}

// initNscc(): the window starts at maxwnd = 1.5 BDP, the delay average at 0.
TEST(nscc_start, OnePointFiveBdp)
{
	smartt_params p = NsccParams();
	smartt_state s = NsccStart(p);

	EXPECT_EQ(s.cwnd, 150000u);		// 1.5 x 100000
	EXPECT_EQ(s.avg_rtt, 0u);
	EXPECT_TRUE(s.flags & SMARTT_F_NSCC);

	p.base_rtt_us = 0;			// learned: from the handshake
	s = NsccStart(p, 200);
	EXPECT_EQ(s.cwnd, 300000u);		// 1.5 x 8000 x 200 / 8
	s = NsccStart(p);			// or from the first sample
	EXPECT_EQ(s.cwnd, 0u);
	EXPECT_EQ(NAck(s, p, 0, -1, false), SMARTT_NONE);
	EXPECT_EQ(s.cwnd, 0u);
	NAck(s, p, 0, 100, false);
	EXPECT_EQ(s.brtt, 100u);
	EXPECT_EQ(s.cwnd, 150000u);		// increase clamped at maxwnd
}

// multiplicative_decrease(): cwnd x max(0.5, 1 - 0.8 (avg - target) / avg),
// on the average queueing delay, at most once per base RTT (strictly
// more than brtt since the last one).
TEST(nscc_md, QueueingDelayNormalised)
{
	const smartt_params p = NsccParams();
	smartt_state s = NsccStart(p);

	NsccOpen(s, p);
	s.avg_rtt = 150 << 8;	// average queueing delay 150 us
	// Marked, rtt 250: delay 150 us, the average stays 38400. r = 819 x
	// ((38400 - 19200) << 10) / 38400 = 819 x 512 = 419328 (Q20);
	// 150000 x 419328 >> 20 = 59985.35 -> 59985: 150000 - 59985 = 90015
	// (0.5 x 150000 = 75000 is lower). No batch: 1000 B, 10 us.
	EXPECT_EQ(NAck(s, p, 10, 250, true), SMARTT_MD);
	EXPECT_EQ(s.cwnd, 90015u);
	EXPECT_EQ(s.avg_rtt, 38400u);
	// 100 us after it: not more than a base RTT, no decrease. But
	// 110 us after the last eta (t = 0) the batch is due: nothing was
	// summed (marked ACKs), eta 153600 + 682 = 150 x 1024 + 682: + 150.
	EXPECT_EQ(NAck(s, p, 110, 250, true), SMARTT_NONE);
	EXPECT_EQ(s.cwnd, 90165u);
	EXPECT_EQ(s.adj_time, 110u);
	// 101 us after it: 90165 x 419328 = 37808709120, >> 20 = 36057.2
	// -> 36057: 54108. No batch (1 us since the eta, 2000 B).
	EXPECT_EQ(NAck(s, p, 111, 250, true), SMARTT_MD);
	EXPECT_EQ(s.cwnd, 54108u);
	EXPECT_EQ(s.adj_time, 110u);
}

TEST(nscc_md, HalfIsTheDeepestCut)
{
	const smartt_params p = NsccParams();
	smartt_state s = NsccStart(p);

	NsccOpen(s, p);
	s.avg_rtt = 1000 << 8;	// 1000 us: 1 - 0.8 x 925 / 1000 = 0.26
	// r = 819 x ((256000 - 19200) << 10) / 256000 = 775756 (Q20): the
	// cut would leave 150000 - 110972 = 39028; the floor 0.5 wins.
	// (Delay 1000 us > 300 us would trigger QuickAdapt, but its window
	// of 175 us has not ended.)
	EXPECT_EQ(NAck(s, p, 10, 1100, true), SMARTT_MD);
	EXPECT_EQ(s.cwnd, 75000u);
}

TEST(nscc_md, AverageAtOrBelowTargetDoesNotCut)
{
	const smartt_params p = NsccParams();
	smartt_state s = NsccStart(p);

	NsccOpen(s, p);
	// Marked, delay 100 us >= target: the MD cell. avg = 0 + 25600 / 80
	// = 320 (1.25 us) <= 19200: no cut, but FastIncrease's count ends.
	EXPECT_EQ(s.fi_count, 1000u);
	EXPECT_EQ(NAck(s, p, 10, 200, true), SMARTT_NONE);
	EXPECT_EQ(s.cwnd, 150000u);
	EXPECT_EQ(s.avg_rtt, 320u);
	EXPECT_EQ(s.fi_count, 0u);
	// Marked below target: path change, nothing else.
	EXPECT_EQ(NAck(s, p, 20, 150, true), SMARTT_PATH_CHANGE);
	EXPECT_EQ(s.cwnd, 150000u);
}

// update_delay(): gain 1/80; an unmarked sample above target counts as
// brtt / 4; a NACK as one network RTT.
TEST(nscc_rtt, DelayAverage)
{
	const smartt_params p = NsccParams();
	smartt_state s = NsccStart(p);

	NAck(s, p, 0, 180, true);	// 80 us marked: 20480 / 80 = 256
	EXPECT_EQ(s.avg_rtt, 256u);
	NAck(s, p, 1, 180, false);	// unmarked above target: 25 us
	EXPECT_EQ(s.avg_rtt, 256u + (6400 - 256) / 80);	// 332
	NAck(s, p, 2, 150, false);	// 50 us, below target: as is
	EXPECT_EQ(s.avg_rtt, 332u + (12800 - 332) / 80);	// 487
	NAck(s, p, 3, 100, false);	// 0 us: 487 - 487 / 80 = 481
	EXPECT_EQ(s.avg_rtt, 481u);
	nscc_on_nack(&s, &p, 4, kMtu, 0);	// 100 us: 481 + 25119 / 80
	EXPECT_EQ(s.avg_rtt, 794u);
	NAck(s, p, 5, -1, false);	// no sample: unchanged
	EXPECT_EQ(s.avg_rtt, 794u);
}

// The delay average on the ACKs that leave the cell early or never reach
// it: one that ends the QuickAdapt window and adapts, one ignored, and
// ones without a sample, marked and not, in the ignore phase and out of
// it. update_delay() takes every sample once, and no sample leaves it.
TEST(nscc_rtt, AverageOnEveryPath)
{
	const smartt_params p = NsccParams();
	smartt_state s = NsccStart(p);

	NsccOpen(s, p);				// delay 0: average 0
	// Unmarked, 301 us: above target, so a quarter of brtt, 25 us = 6400.
	EXPECT_EQ(NAck(s, p, 50, 401, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.avg_rtt, 6400u / 80);			// 80
	EXPECT_EQ(NAck(s, p, 175, 401, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.avg_rtt, 80u + (6400 - 80) / 80);	// 159
	// The window's end adapts (NAck() of nscc_qa.DelayTrigger); 2500 B
	// in flight to ignore.
	EXPECT_EQ(NAck(s, p, 176, 401, false, kMtu, 2500),
		  SMARTT_QUICK_ADAPT);
	EXPECT_EQ(s.avg_rtt, 159u + (6400 - 159) / 80);	// 237
	// Marked, 200 us = 51200, ignored: the average takes it all the same.
	EXPECT_EQ(NAck(s, p, 177, 300, true), SMARTT_IGNORED);
	EXPECT_EQ(s.avg_rtt, 237u + (51200 - 237) / 80);	// 874
	// No sample: ignored, then (500 B left to ignore) counted and
	// processed, unmarked, then marked: the average stays.
	EXPECT_EQ(NAck(s, p, 178, -1, true), SMARTT_IGNORED);
	EXPECT_EQ(s.avg_rtt, 874u);
	EXPECT_EQ(NAck(s, p, 179, -1, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.ignore_left, 0u);
	EXPECT_EQ(s.avg_rtt, 874u);
	EXPECT_EQ(NAck(s, p, 180, -1, true), SMARTT_PATH_CHANGE);
	EXPECT_EQ(s.avg_rtt, 874u);
	// Marked, 50 us = 12800, below target.
	EXPECT_EQ(NAck(s, p, 181, 150, true), SMARTT_PATH_CHANGE);
	EXPECT_EQ(s.avg_rtt, 874u + (12800 - 874) / 80);	// 1023
	// Marked, 1000 us = 256000, until the average is above target:
	// 4210, 7357, 10465, 13534, 16564, 19556 (which cuts the window).
	for (u32 t = 182; t < 188; t++)
		NAck(s, p, t, 1100, true);
	EXPECT_EQ(s.avg_rtt, 19556u);
	// Unmarked without a sample: the average, above target, is its delay
	// (the fair increase's cell), but a quarter of brtt is not its sample.
	EXPECT_EQ(NAck(s, p, 188, -1, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.avg_rtt, 19556u);
}

// fulfill_adjustment(): the summed increase is applied once more than
// 8 MTU were ACKed, or more than one network RTT after the last eta,
// which comes with it.
TEST(nscc_batch, EightMtuAndNetworkRtt)
{
	const smartt_params p = NsccParams();
	smartt_state s = NsccStart(p);

	NsccOpen(s, p);
	EXPECT_EQ(nscc_on_timeout(&s, &p, 50000), SMARTT_LOSS);
	EXPECT_EQ(s.cwnd, 100000u);
	// Unmarked, rtt 200: delay 100 us >= target, fair increase of
	// 5120000000 / 100000 = 51200 (Q10, 50 B) each. Eight ACKs are
	// 8000 B, not more than 8 MTU: nothing applied yet.
	for (u32 t = 10; t < 18; t++)
		EXPECT_EQ(NAck(s, p, t, 200, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.cwnd, 100000u);
	EXPECT_EQ(s.inc_acc, 8u * 51200);
	EXPECT_EQ(s.adj_bytes, 8000u);
	// The ninth: 9 x 51200 + 682 = 461482 = 450 x 1024 + 682. No eta
	// (18 us since the last).
	NAck(s, p, 18, 200, false);
	EXPECT_EQ(s.cwnd, 100450u);
	EXPECT_EQ(s.inc_rem, 682u);
	EXPECT_EQ(s.adj_bytes, 0u);
	EXPECT_EQ(s.adj_time, 0u);
	// One ACK 119 us after the last eta (> 100): 5120000000 / 100450 =
	// 50970; + 682 = 51652 = 50 x 1024 + 452; eta: 153600 + 452 =
	// 150 x 1024 + 452. 100450 + 50 + 150.
	NAck(s, p, 119, 200, false);
	EXPECT_EQ(s.cwnd, 100650u);
	EXPECT_EQ(s.inc_rem, 452u);
	EXPECT_EQ(s.adj_time, 119u);
	// Exactly one network RTT later: not more than it, not due.
	// 5120000000 / 100650 = 50869 summed. (The QuickAdapt window
	// ends, 219 us > 175 us, untriggered.)
	NAck(s, p, 219, 200, false);
	EXPECT_EQ(s.cwnd, 100650u);
	EXPECT_EQ(s.inc_acc, 50869u);
	// One us more: 2 x 50869 + 452 = 102190 = 99 x 1024 + 814, eta
	// 153600 + 814 = 150 x 1024 + 814: 100650 + 99 + 150.
	NAck(s, p, 220, 200, false);
	EXPECT_EQ(s.cwnd, 100899u);
	EXPECT_EQ(s.inc_rem, 814u);
	EXPECT_EQ(s.adj_time, 220u);
}

// proportional_increase(): alpha x size x (target - delay), alpha = 4 mss
// a / 12 us, over the window.
TEST(nscc_batch, ProportionalIncrease)
{
	const smartt_params p = NsccParams();
	smartt_state s = NsccStart(p);

	NsccOpen(s, p);
	nscc_on_timeout(&s, &p, 50000);
	// Delay 25 us, headroom 50 us: 4 x 1000 x 1000 x 50 / 12 / 100000 =
	// 166.67 B = 170666 (Q10, 16000 x 1000 x 12800 / 1200000).
	EXPECT_EQ(NAck(s, p, 10, 125, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.inc_acc, 170666u);
	EXPECT_EQ(s.cwnd, 100000u);
	// Delay 75 us = target: the fair cell, + 51200.
	EXPECT_EQ(NAck(s, p, 11, 175, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.inc_acc, 170666u + 51200);
}

// quick_adapt(): at the end of a window of brtt + target (strictly after
// 175 us), a delay above 4 x target triggers it if less than maxwnd / 8
// was delivered; the window becomes the delivered bytes.
TEST(nscc_qa, DelayTrigger)
{
	const smartt_params p = NsccParams();
	smartt_state s = NsccStart(p);

	NsccOpen(s, p);		// window opened at t = 0
	// Delay 301 us > 300 us; window not over at 50 and at 175 (175 us
	// is not more than the window).
	EXPECT_EQ(NAck(s, p, 50, 401, false), SMARTT_FAIR_INC);
	EXPECT_EQ(NAck(s, p, 175, 401, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.acked, 2000u);
	// At 176 it is: 3000 B delivered < 18750.
	EXPECT_EQ(NAck(s, p, 176, 401, false, kMtu, 42000), SMARTT_QUICK_ADAPT);
	EXPECT_EQ(s.cwnd, 3000u);
	EXPECT_EQ(s.ignore_left, 42000u);
	EXPECT_EQ(s.inc_acc, 0u);
	EXPECT_EQ(s.adj_bytes, 0u);
	EXPECT_EQ(s.acked, 0u);
	EXPECT_EQ(s.qa_start, 176u);
}

TEST(nscc_qa, DelayAtFourTargetsOrGateDoNotTrigger)
{
	const smartt_params p = NsccParams();
	smartt_state s = NsccStart(p);

	NsccOpen(s, p);
	// Delay exactly 300 us = 4 x target: no trigger; the window restarts.
	EXPECT_EQ(NAck(s, p, 176, 400, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.qa_start, 176u);
	EXPECT_EQ(s.acked, 0u);
	// Triggering delay, but 19000 B delivered >= 18750: no QuickAdapt.
	NAck(s, p, 200, 100, false, 18000);
	EXPECT_NE(NAck(s, p, 352, 500, false), SMARTT_QUICK_ADAPT);
	EXPECT_EQ(s.qa_start, 352u);
}

// A trim NACK arms QuickAdapt; the window adapts at the end of the
// measurement window; after it the ignore phase skips only marked ACKs.
TEST(nscc_qa, NackTriggerAndIgnorePhase)
{
	const smartt_params p = NsccParams();
	smartt_state s = NsccStart(p);

	NsccOpen(s, p);
	EXPECT_EQ(nscc_on_nack(&s, &p, 10, kMtu, 0), SMARTT_LOSS);
	EXPECT_EQ(s.cwnd, 149000u);
	EXPECT_TRUE(s.flags & SMARTT_F_QA_ARMED);
	// 176: armed, 1000 B delivered (this ACK): max(1000, mtu) = 1000.
	EXPECT_EQ(NAck(s, p, 176, 100, false, kMtu, 5000), SMARTT_QUICK_ADAPT);
	EXPECT_EQ(s.cwnd, 1000u);
	EXPECT_FALSE(s.flags & SMARTT_F_QA_ARMED);
	EXPECT_EQ(s.ignore_left, 5000u);
	// Unmarked ACKs count down but are processed. Delay 10 us, headroom
	// 65 us = 16640 (Q8), over a 1000 B window: 16000 x 1000 x 16640 /
	// 12000 = 22186666 (Q10), due at once (180 us since the last eta):
	// + 682 = 21667 x 1024 + 340; eta 153600 + 340 = 150 x 1024 + 340.
	// 1000 + 21667 + 150: per ACK, NSCC's increase scales with
	// size / cwnd, 4 mss a b per window of ACKs.
	EXPECT_EQ(NAck(s, p, 180, 110, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.ignore_left, 4000u);
	EXPECT_EQ(s.cwnd, 22817u);
	// Marked ones are ignored, and restart the batch.
	EXPECT_EQ(NAck(s, p, 181, 300, true), SMARTT_IGNORED);
	EXPECT_EQ(s.ignore_left, 3000u);
	EXPECT_EQ(s.inc_acc, 0u);
	// So are NACKs, which then take nothing off.
	EXPECT_EQ(nscc_on_nack(&s, &p, 182, kMtu, 0), SMARTT_IGNORED);
	EXPECT_EQ(s.cwnd, 22817u);
	EXPECT_EQ(s.ignore_left, 2000u);
}

// fast_increase(): a queueing delay under 1 us extends the clean run;
// once it exceeds the window each ACK adds 0.25 x a x size at once.
TEST(nscc_fast_inc, UnderOneMicrosecond)
{
	smartt_params p = NsccParams();
	smartt_state s = NsccStart(p);

	NsccOpen(s, p);				// fi_count 1000
	nscc_on_timeout(&s, &p, 146000);
	EXPECT_EQ(s.cwnd, 4000u);
	for (u32 t = 1; t <= 3; t++)		// 2000, 3000, 4000: not > 4000
		EXPECT_EQ(NAck(s, p, t, 100, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.cwnd, 4000u);
	// 5000 > 4000: 1000 x 16000 x 64 / (1000 x 4) = 256000 (Q10), + 682
	// remainder: 250 B.
	EXPECT_EQ(NAck(s, p, 4, 100, false), SMARTT_FAST_INC);
	EXPECT_EQ(s.cwnd, 4250u);
	EXPECT_TRUE(s.flags & SMARTT_F_FAST_INC);
	// Delay 1 us is not under 1 us: the run ends.
	EXPECT_EQ(NAck(s, p, 5, 101, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.fi_count, 0u);
	EXPECT_FALSE(s.flags & SMARTT_F_FAST_INC);
	EXPECT_EQ(s.cwnd, 4250u);

	// fast_inc_tol_us widens the threshold (host jitter): 1 us counts.
	p.fast_inc_tol_us = 1;
	s = NsccStart(p);
	NsccOpen(s, p);
	nscc_on_timeout(&s, &p, 146000);
	for (u32 t = 1; t <= 3; t++)
		NAck(s, p, t, 101, false);
	EXPECT_EQ(NAck(s, p, 4, 101, false), SMARTT_FAST_INC);
	EXPECT_EQ(s.cwnd, 4250u);
}

// The byte floor holds in NSCC too; timeouts ignore the ignore phase.
TEST(nscc_floor, SubSegmentAndTimeout)
{
	smartt_params p = NsccParams();

	p.min_cwnd_bytes = 64;
	smartt_state s = NsccStart(p);
	EXPECT_EQ(nscc_on_timeout(&s, &p, 200000), SMARTT_LOSS);
	EXPECT_EQ(s.cwnd, 64u);
	s.ignore_left = 5000;
	EXPECT_EQ(nscc_on_timeout(&s, &p, 10), SMARTT_LOSS);
	EXPECT_EQ(s.ignore_left, 5000u);
	EXPECT_EQ(s.cwnd, 64u);
}

// A parameter written while a flow runs applies from its next ACK, also
// where the flow caches values derived from it: every write bumps gen
// (uno_nl.h), which the flow compares on each ACK.
TEST(smartt_param, ChangeAppliesOnTheNextAck)
{
	smartt_params p = ParamsNoIncrease();
	smartt_state s = Start(p);

	// Ceiling 1.5 bdp = 150000; the window, 100000, is under it.
	EXPECT_EQ(Ack(s, p, 1000, 200, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.cwnd, 100000u);
	// max_cwnd 0.5 bdp: the next ACK clamps to 50000.
	p.max_cwnd = 512;
	p.gen++;
	EXPECT_EQ(Ack(s, p, 1001, 200, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.cwnd, 50000u);

	// "RTT ~ base RTT" is within 100 + 12 us; 120 us is not clean...
	EXPECT_EQ(Ack(s, p, 1002, 120, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.fi_count, 0u);
	// ... until fast_inc_tol_us widens it to 100 + 30 us.
	p.fast_inc_tol_us = 30;
	p.gen++;
	EXPECT_EQ(Ack(s, p, 1003, 120, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.fi_count, 1000u);
	// fast_inc_tol 1/4: 100 + 25 us, and the floor back at 0: 126 us is
	// not clean, 125 us is.
	p.fast_inc_tol = 256;
	p.fast_inc_tol_us = 0;
	p.gen++;
	EXPECT_EQ(Ack(s, p, 1004, 126, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.fi_count, 0u);
	EXPECT_EQ(Ack(s, p, 1005, 125, false), SMARTT_PROP_INC);
	EXPECT_EQ(s.fi_count, 1000u);

	// max_cwnd back to 1.5 bdp: FastIncrease, once the clean run exceeds
	// the window, grows it past 50000 again.
	p.max_cwnd = 1536;
	p.gen++;
	for (u32 t = 1006; t < 1056; t++)
		Ack(s, p, t, 100, false);
	EXPECT_EQ(s.cwnd, 52000u);
}

// Parameters at the edges of (and beyond) their ranges: nothing divides
// by zero and the window stays within its bounds.
TEST(smartt_param, DegenerateValuesAreSafe)
{
	smartt_params p = Params();

	p.link_rate_mbps = 0;		// bdp 0: window pinned at the floor
	p.bdp_ref = 0;
	p.bdp_ref_mtu = 0;
	p.min_cwnd = 0;			// floor is still one MTU
	p.rtt_gain_min = 2000;		// > 1.0: gain clamps to 1.0
	smartt_state s = Start(p);
	EXPECT_EQ(s.bdp, 0u);
	EXPECT_EQ(s.cwnd, 1000u);
	EXPECT_EQ(s.rtt_gain, 1024u);
	Ack(s, p, 1000, 100, false);
	Ack(s, p, 1001, 300, true);
	smartt_on_nack(&s, &p, 2000, kMtu, 0);
	EXPECT_EQ(s.cwnd, 1000u);

	p = Params();
	p.trtt_factor = 0;		// trtt 0: every sample is "above"
	p.md_gamma = 0xffffffffu;
	p.md_min_factor = 0xffffffffu;	// an MD must still not grow
	p.fi = 0xffffffffu;
	p.pi = 0xffffffffu;
	p.qa_scaling = 0xffffffffu;
	s = Start(p);
	EXPECT_EQ(Ack(s, p, 1000, 100, true), SMARTT_MD);
	EXPECT_EQ(s.cwnd, 100000u);
	EXPECT_EQ(Ack(s, p, 1001, 100, false), SMARTT_FAIR_INC);
	EXPECT_EQ(s.cwnd, 150000u);
	// trtt 0: every event ends the QuickAdapt window, so nothing was
	// delivered in the one this NACK closes: max(0 x scaling, mtu).
	EXPECT_EQ(smartt_on_nack(&s, &p, 2000, kMtu, 0), SMARTT_QUICK_ADAPT);
	EXPECT_EQ(s.cwnd, 1000u);
}

// Our case 10: the fixed-point law against a double-precision model
// written straight from the law's pseudo-code (SMaRTT Algorithms 1-4 with
// our choices where the paper is silent; real arithmetic, the
// parameters' exact values, scale not rounded). FastIncrease is kept out
// (every RTT above brtt + tol): it switches on a threshold, so one byte of
// rounding can move it by an ACK, which is not what this test measures.
namespace {

struct RefModel {
	const smartt_params &p;
	double mtu, brtt, trtt, bdp, maxwnd, minwnd, unit, gain;
	double cwnd, avg, acked = 0, ignore_left = 0;
	bool armed = false, running = false, md_done = false;
	u32 qa_start = 0, md_time = 0;

	RefModel(const smartt_params &params, const smartt_state &fixed)
		: p(params)
	{
		mtu = fixed.mtu;
		brtt = fixed.brtt;
		trtt = brtt * p.trtt_factor / 1024.0;
		bdp = double(p.link_rate_mbps) * brtt / 8.0;
		maxwnd = bdp * p.max_cwnd / 1024.0;
		minwnd = mtu * p.min_cwnd;
		// mtu x scale, scale = (bdp / mtu) / (bdp_ref / bdp_ref_mtu)
		unit = mtu * (bdp / mtu) / (double(p.bdp_ref) / p.bdp_ref_mtu);
		gain = fixed.rtt_gain / 1024.0;
		cwnd = bdp * p.init_cwnd / 1024.0;
		avg = brtt;
		Clamp();
	}

	void Clamp() { cwnd = std::max(std::min(cwnd, maxwnd), minwnd); }

	bool Ignore(double size)
	{
		if (size < ignore_left) {
			ignore_left -= size;
			return true;
		}
		ignore_left = 0;
		return false;
	}

	bool QuickAdapt(u32 now, double inflight)
	{
		bool adapted = false;

		if (running && double(u32(now - qa_start)) < trtt)
			return false;
		if (armed && running) {
			armed = false;
			adapted = true;
			cwnd = std::min(cwnd, std::max(acked * p.qa_scaling /
						       1024.0, mtu));
			ignore_left = inflight;
		}
		running = true;
		qa_start = now;
		acked = 0;
		return adapted;
	}

	void OnAck(u32 now, double size, double rtt, bool ecn, double inflight)
	{
		acked += size;
		avg += (rtt - avg) * gain;
		if (Ignore(size)) {
			Clamp();
			return;
		}
		if (QuickAdapt(now, inflight)) {
			Clamp();
			return;
		}
		if (ecn && rtt > trtt) {
			double ivl = brtt * p.md_interval / 1024.0;

			if ((!md_done || double(u32(now - md_time)) >= ivl) &&
			    avg > trtt) {
				double g = p.md_gamma / 1024.0;
				double f = 1 - g * (avg - trtt) / avg;

				cwnd *= std::max(p.md_min_factor / 1024.0, f);
				md_time = now;
				md_done = true;
			}
		} else if (!ecn) {
			double fi = size / cwnd * unit * p.fi / 1024.0;
			double pi = 0;

			if (rtt <= trtt)
				pi = std::min(size, (trtt - rtt) / rtt * size /
						    cwnd * unit * p.pi / 1024.0);
			cwnd += pi + fi;
		}
		Clamp();
	}

	void OnNack(u32 now, double size, double inflight)
	{
		if (Ignore(size))
			return;
		cwnd -= size;
		armed = true;
		QuickAdapt(now, inflight);
		Clamp();
	}

	void OnTimeout(double size)
	{
		if (Ignore(size))
			return;
		cwnd -= size;
		Clamp();
	}
};

} // namespace

TEST(smartt_reference, FixedPointTracksDoubleModel)
{
	smartt_params p = Params();

	p.fi = 4 * 1024;	// livelier increases keep cwnd off its bounds
	smartt_state s = Start(p);
	RefModel ref(p, s);
	std::mt19937_64 rng(42);
	u32 now = 1000;
	double worst = 0, lo = 1e12, hi = 0;
	long interior = 0;
	long acts[SMARTT_LOSS + 1] = {};

	for (int i = 0; i < 1000000; i++) {
		const u64 r = rng();
		const u32 kind = r % 1000;

		now += 1 + (r >> 10) % 20;
		if (kind < 985) {
			// RTT in [113, 512]: above brtt + tol (no
			// FastIncrease), on both sides of trtt = 150.
			const u32 size = kMtu * (1 + (r >> 20) % 2);
			const u32 rtt = 113 + (r >> 24) % 400;
			const bool ecn = (r >> 40) % 8 == 0;
			const u32 infl = (r >> 44) % 60000;

			acts[Ack(s, p, now, s32(rtt), ecn, size, infl)]++;
			ref.OnAck(now, size, rtt, ecn, infl);
		} else if (kind < 995) {
			const u32 infl = (r >> 44) % 60000;

			acts[smartt_on_nack(&s, &p, now, kMtu, infl)]++;
			ref.OnNack(now, kMtu, infl);
		} else {
			acts[smartt_on_timeout(&s, &p, kMtu)]++;
			ref.OnTimeout(kMtu);
		}
		const double err = std::fabs(s.cwnd - ref.cwnd) / ref.cwnd;

		worst = std::max(worst, err);
		lo = std::min(lo, ref.cwnd);
		hi = std::max(hi, ref.cwnd);
		if (ref.cwnd > ref.minwnd * 2 && ref.cwnd < ref.maxwnd)
			interior++;
		ASSERT_LE(err, 0.005) << "event " << i << " fixed " << s.cwnd
				      << " reference " << ref.cwnd;
	}
	std::printf("[ reference ] worst relative error %.3g, cwnd %.0f..%.0f, "
		    "%ld of 10^6 events inside (2 mtu, maxwnd)\n",
		    worst, lo, hi, interior);
	std::printf("[ reference ] ignored %ld qa %ld md %ld path %ld fi %ld "
		    "pi %ld loss %ld none %ld\n", acts[SMARTT_IGNORED],
		    acts[SMARTT_QUICK_ADAPT], acts[SMARTT_MD],
		    acts[SMARTT_PATH_CHANGE], acts[SMARTT_FAIR_INC],
		    acts[SMARTT_PROP_INC], acts[SMARTT_LOSS], acts[SMARTT_NONE]);
	// The trace must exercise every branch, away from the clamps.
	EXPECT_GT(interior, 500000);
	for (int a = SMARTT_IGNORED; a <= SMARTT_LOSS; a++) {
		if (a == SMARTT_FAST_INC)
			continue;
		EXPECT_GT(acts[a], 1000) << "action " << a;
	}
}

namespace {

// Now and then (1 ACK in 5000, by @q) a sample or a size at the edges of
// what smartt_on_ack() and nscc_on_ack() take on their fast path, or past
// them, where only the slow path takes it as smartt_rtt_sample() and
// smartt_ack_size() do: a zero or negative reading, SMARTT_RTT_MAX and
// above, SMARTT_CWND_LIMIT bytes and more. A zero reading counts as 1 us,
// which would take a learned base RTT down to 1 us for the rest of the
// trace: it comes only while base_rtt_floor_us is set.
void OddAck(const smartt_params &p, u32 q, s32 &rtt_us, u32 &size)
{
	switch (q % 40000) {
	case 0: rtt_us = p.base_rtt_floor_us ? 0 : rtt_us; break;
	case 1: rtt_us = -7; break;
	case 2: rtt_us = SMARTT_RTT_MAX; break;
	case 3: rtt_us = SMARTT_RTT_MAX + 1; break;
	case 4: rtt_us = 0x7fffffff; break;
	case 5: size = SMARTT_CWND_LIMIT; break;
	case 6: size = SMARTT_CWND_LIMIT + 1; break;
	case 7: size = 0xffffffffu; break;
	}
}

// A flow that starts again (by @init, smartt_init() or nscc_init()), as a
// new connection, the @k-th: with the handshake's RTT or none; the clock
// where it is, near its origin (where a new flow's qa_start, 0, looks like
// a window not yet over: smartt_qa_due() needs SMARTT_F_QA_RUNNING), or
// 250 us before it wraps; and a NACK before its first ACK or none. The
// NACK opens the QuickAdapt window and arms it, and a pause of 250 us ends
// the window, so that the first ACK adapts, before NSCC's first batch,
// which on the wrapped clock is not yet due by time (adj_time 0 + network
// RTT) when the next ACK comes.
void Restart(smartt_state &fast, smartt_state &full, const smartt_params &p,
	     int k, u32 &now, u32 mtu,
	     void (*init)(smartt_state *, const smartt_params *, u32, u32),
	     smartt_action (*nack)(smartt_state *, const smartt_params *,
				   u32, u32, u32))
{
	init(&fast, &p, mtu, k % 2 ? 120 : 0);
	init(&full, &p, mtu, k % 2 ? 120 : 0);
	if ((k / 2) % 3)
		now = (k / 2) % 3 == 1 ? 5 : 0U - 250;
	if ((k / 6) % 2) {
		EXPECT_EQ(nack(&fast, &p, now, mtu, 20000),
			  nack(&full, &p, now, mtu, 20000));
		now += 250;
	}
}

} // namespace

// smartt_on_ack() takes an ACK on its fast path when smartt_ack_fast()
// says so (a current cache, a sample at or above rtt_lo and at most
// SMARTT_RTT_MAX, an ACK of at most SMARTT_CWND_LIMIT bytes), assumes the
// QuickAdapt window open there, leaves the window's end and a flow without
// trimming to smartt_ack_qa() and smartt_ack_notrim(), and clamps the
// window only the way an ACK moved it; smartt_on_ack_slow() derives the
// cache again and ends every ACK in both clamps. Taking every ACK there
// instead must leave the very same state and actions, on a trace that
// visits every action with NACKs, ACKs without an RTT sample, samples and
// sizes out of range (OddAck()), parameter writes that move both bounds,
// the floor, a configured base RTT and trimming, a new MTU and new flows
// (Restart()); and most ACKs must take the fast path.
TEST(smartt_clamp, DirectionalClampsAreTheFullClamps)
{
	smartt_params p = Params();
	smartt_state fast, full;
	std::mt19937 rng(7);
	int seen[SMARTT_LOSS + 1] = {};
	u32 now = 1000, mtu = kMtu, fast_acks = 0;

	p.base_rtt_us = 0;		// learned: lower samples take it down
	p.trimming = 1;
	memset(&fast, 0, sizeof(fast));
	memset(&full, 0, sizeof(full));
	smartt_init(&fast, &p, mtu, 120);
	smartt_init(&full, &p, mtu, 120);
	for (int i = 0; i < 200000; i++) {
		const u32 r = rng();
		const bool congested = (i / 2000) % 5 == 4;
		s32 rtt_us = (r >> 4) % 40 ? s32(90 + (r >> 8) % 60 +
						(congested ? 200 : 0)) : -1;
		const bool ecn = congested ? (r >> 16) % 4 != 0 :
					     (r >> 16) % 16 == 0;
		const u32 q = rng();
		u32 size = mtu * (1 + (r >> 20) % 2);

		OddAck(p, q, rtt_us, size);
		if (i % 25000 == 24999) {	// a write moves both bounds
			p.max_cwnd = 1024 + (r % 4) * 256;
			p.min_cwnd_bytes = (r >> 2) % 2 ? 0 : 3000;
			p.fair_decrease = (r >> 3) % 2 ? 0 : 512;
			// ... and the floor, the base RTT and trimming
			p.base_rtt_floor_us = (q >> 10) % 2 ? 0 : 95;
			p.base_rtt_us = (q >> 11) % 4 ? 0 : 100;
			p.trimming = (q >> 13) % 3 != 0;
			p.gen++;
		}
		if (i % 60000 == 59999) {	// PMTU: the MTU floor moves
			mtu = mtu == kMtu ? 1500 : kMtu;
			smartt_set_mtu(&fast, &p, mtu);
			smartt_set_mtu(&full, &p, mtu);
		}
		if (i % 4000 == 3999)
			Restart(fast, full, p, i / 4000, now, mtu, smartt_init,
				smartt_on_nack);
		now += 1 + (r >> 24) % 4;
		if (congested && (r >> 28) == 0) {
			ASSERT_EQ(smartt_on_nack(&fast, &p, now, mtu, 20000),
				  smartt_on_nack(&full, &p, now, mtu, 20000));
		}
		const smartt_ack a = {now, size, rtt_us, 20000, ecn};
		fast_acks += smartt_ack_fast(&fast, &p, size, u32(rtt_us));
		const smartt_action act = smartt_on_ack(&fast, &p, &a);
		ASSERT_EQ(act, smartt_on_ack_slow(&full, &p, &a)) << "ACK " << i;
		ASSERT_EQ(memcmp(&fast, &full, sizeof(fast)), 0) << "ACK " << i;
		seen[act]++;
	}
	for (int a = SMARTT_IGNORED; a < SMARTT_LOSS; a++)
		EXPECT_GT(seen[a], 0) << "action " << a;
	EXPECT_GT(fast_acks, 150000u);
}

// The same for NSCC: nscc_on_ack() takes the ACKs smartt_ack_fast() lets
// through, assumes the QuickAdapt window open and the first batch applied
// there, and clamps only where an ACK can move a window that lay within its
// bounds; nscc_on_ack_slow() derives the cache again and clamps both ways
// after the cell and after the batch, as updateCwndOnAck_NSCC() does. On a
// trace through every cell, FastIncrease, QuickAdapt by delay and by NACK,
// the ignore phase, batches, lower base RTTs, samples and sizes out of
// range, parameter writes that move both bounds, the floor, a configured
// base RTT, the network RTT and the target, a new MTU and new flows, both
// must leave the very same state and actions, and most ACKs must take the
// fast path.
TEST(nscc_clamp, DirectionalClampsAreTheFullClamps)
{
	smartt_params p = NsccParams();
	smartt_state fast, full;
	std::mt19937 rng(11);
	int seen[SMARTT_LOSS + 1] = {};
	u32 now = 1000, mtu = kMtu, fast_acks = 0;

	p.base_rtt_us = 0;
	memset(&fast, 0, sizeof(fast));
	memset(&full, 0, sizeof(full));
	nscc_init(&fast, &p, mtu, 120);
	nscc_init(&full, &p, mtu, 120);
	for (int i = 0; i < 200000; i++) {
		const u32 r = rng();
		const bool idle = (i / 2000) % 5 == 0;
		const bool congested = (i / 2000) % 5 == 4;
		const u32 delay = idle ? 0 : (r >> 8) % (congested ? 400 : 60);
		s32 rtt_us = (r >> 4) % 40 ? s32(90 + delay) : -1;
		const bool ecn = congested ? (r >> 16) % 4 != 0 :
					     (r >> 16) % 16 == 0;
		const u32 q = rng();
		u32 size = mtu * (1 + (r >> 20) % 2);

		OddAck(p, q, rtt_us, size);
		if (i % 25000 == 24999) {	// a write moves both bounds
			p.max_cwnd = 1024 + (r % 4) * 256;
			p.min_cwnd_bytes = (r >> 2) % 2 ? 0 : 3000;
			p.nscc_net_rtt_us = (r >> 3) % 2 ? 0 : 150;
			p.trimming = (r >> 4) % 2;
			// ... and the floor and the base RTT
			p.base_rtt_floor_us = (q >> 10) % 2 ? 0 : 95;
			p.base_rtt_us = (q >> 11) % 4 ? 0 : 100;
			p.gen++;
		}
		if (i % 60000 == 59999) {	// PMTU: the MTU floor moves
			mtu = mtu == kMtu ? 1500 : kMtu;
			smartt_set_mtu(&fast, &p, mtu);
			smartt_set_mtu(&full, &p, mtu);
		}
		if (i % 4000 == 3999)
			Restart(fast, full, p, i / 4000, now, mtu, nscc_init,
				nscc_on_nack);
		// Congested, a few ACKs per QuickAdapt window, which can adapt.
		now += congested ? 10 + (r >> 24) % 40 : 1 + (r >> 24) % 4;
		if (congested && (r >> 28) == 0) {
			ASSERT_EQ(nscc_on_nack(&fast, &p, now, mtu, 20000),
				  nscc_on_nack(&full, &p, now, mtu, 20000));
		}
		const smartt_ack a = {now, size, rtt_us, 20000, ecn};
		fast_acks += smartt_ack_fast(&fast, &p, size, u32(rtt_us));
		const smartt_action act = nscc_on_ack(&fast, &p, &a);
		ASSERT_EQ(act, nscc_on_ack_slow(&full, &p, &a)) << "ACK " << i;
		ASSERT_EQ(memcmp(&fast, &full, sizeof(fast)), 0) << "ACK " << i;
		seen[act]++;
	}
	for (int a = SMARTT_IGNORED; a < SMARTT_LOSS; a++)
		EXPECT_GT(seen[a], 0) << "action " << a;
	EXPECT_GT(fast_acks, 150000u);
}
