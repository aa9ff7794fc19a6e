// SPDX-License-Identifier: GPL-2.0
//
// Unit tests of MLCC's credit loop, DQM and sender combiner,
// kernel/core/mlcc_core.h (MLCC spec Sec. 3.3-3.6, the properties of
// 3.5.3 and the unit tests T0(a), (b) and (d)). Expected values are worked
// out by hand in the law's own fixed point in the comment next to them:
// rates bytes/s, times ns, bytes, alpha and token Q16.16; every division
// floors. Where the spec gives a number in its own rounding (the DQM
// cases), the test also holds the law to a double-precision reference of
// Eqs. 3-5 within 0.1 %.
//
// Reference setup, the paper's scale (spec 5.7, 3.7): a 25 Gbit/s host
// (3.125e9 B/s; R_min 12.5e6, R_AI 9765625), RTT_D 24 us, RTT_C 6 ms (so
// n = 250), theta 18 ms, D_t 1 ms, m 5, alpha 0.5, MTU 1500 B; R_fair
// 12.5 Gbit/s = 1.5625e9 B/s.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "mlcc_core.h"

namespace {

constexpr u64 kLine = 3125000000ULL;	// 25 Gbit/s
constexpr u64 kFair = 1562500000ULL;	// 12.5 Gbit/s
constexpr u64 kMin = 12500000ULL;
constexpr u64 kAi = 9765625ULL;
constexpr u32 kRttD = 24000;
constexpr u32 kRttC = 6000000;
constexpr u64 kMB = 1000000;

mlcc_params Params()
{
	mlcc_params p;

	mlcc_params_default(&p, kLine, kRttD, kRttC);
	return p;
}

// A receiver whose credit and DQM rates are r (its history empty).
mlcc_rcv Receiver(const mlcc_params &p, u64 r)
{
	mlcc_params q = p;
	mlcc_rcv rcv;

	q.r_init = r;
	mlcc_rcv_init(&rcv, &q);
	return rcv;
}

// Eqs. 3-5 in double precision: the reference of the worked cases.
double DqmReference(const mlcc_params &p, double pre_eq, double credit,
		    double q_c)
{
	double rtt_c = p.rtt_c_ns * 1e-9, theta = p.theta_ns * 1e-9;
	double q_pre = std::max(0.0, (pre_eq - credit) * rtt_c + q_c);
	double d_pre = q_pre / credit;
	double r = credit * (1 - (d_pre - p.d_t_ns * 1e-9) / theta);

	return std::clamp(r, 0.0, (double)p.credit.r_max);
}

TEST(Mlcc, DefaultsAreThePapers)
{
	mlcc_params p = Params();

	EXPECT_EQ(p.theta_ns, 18000000U);
	EXPECT_EQ(p.d_t_ns, 1000000U);
	EXPECT_EQ(p.m, 5U);
	EXPECT_EQ(p.alpha, 32768U);
	EXPECT_EQ(p.r_init, kLine);
	EXPECT_EQ(p.credit.r_ai, kAi);
	EXPECT_EQ(p.credit.r_min, kMin);
	EXPECT_TRUE(mlcc_params_valid(&p));
}

TEST(Mlcc, RejectsBadParams)
{
	mlcc_params p = Params();

	p.rtt_d_ns = 0;
	EXPECT_FALSE(mlcc_params_valid(&p));
	p = Params();
	p.rtt_d_ns = p.rtt_c_ns + 1;
	EXPECT_FALSE(mlcc_params_valid(&p));
	p = Params();
	p.d_t_ns = p.theta_ns + 1;
	EXPECT_FALSE(mlcc_params_valid(&p));
	p = Params();
	p.m = MLCC_M_MAX + 1;
	EXPECT_FALSE(mlcc_params_valid(&p));
	p = Params();
	p.mtu = MLCC_MTU_MIN - 1;
	EXPECT_FALSE(mlcc_params_valid(&p));
	p = Params();
	p.r_init = kMin - 1;
	EXPECT_FALSE(mlcc_params_valid(&p));
	p = Params();
	p.credit.r_max = MLCC_RATE_MAX + 1;
	p.r_init = p.credit.r_max;
	EXPECT_FALSE(mlcc_params_valid(&p));
	p = Params();
	p.alpha = 0;
	EXPECT_FALSE(mlcc_params_valid(&p));
}

// T0(a), spec 3.5.3(4): the worked cases, RTT_C 6 ms, theta 18 ms, D_t
// 1 ms, the m-average of R_credit = R_credit = 1.5625e9 B/s. Exact:
//   A: Q_pre = 5e6 + 1.5625e9 x 6e6 / 1e9 = 14375000, D_pre = 9.2 ms,
//      R = 1.5625e9 x (19e6 - 9.2e6) / 18e6 = 850694444.4 (6.806 Gbit/s)
//   B: Q_pre = 1562500, D_pre = 1 ms, R = R_credit
//   C: R = 1.5625e9 x 19 / 18 = 1649305555.5 (13.194 Gbit/s)
//   D: D_pre = 6.4 ms, R = 1.5625e9 x 12.6 / 18 = 1093750000 (8.75)
//   E: Q_pre = 49375000, D_pre = 31.6 ms > theta + D_t: 0
TEST(Mlcc, DqmWorkedCases)
{
	mlcc_params p = Params();
	struct {
		u64 pre_eq, q_c, expect;
	} cases[] = {
		{ kLine, 5 * kMB, 850694444ULL },
		{ kFair, 1562500, kFair },
		{ kFair, 0, 1649305555ULL },
		{ kFair, 10 * kMB, 1093750000ULL },
		{ kLine, 40 * kMB, 0 },
	};

	for (const auto &c : cases) {
		u64 r = mlcc_dqm_rate(&p, c.pre_eq, kFair, c.q_c, kFair);
		double ref = DqmReference(p, c.pre_eq, kFair, c.q_c);

		EXPECT_EQ(r, c.expect) << "pre_eq " << c.pre_eq << " q_c " << c.q_c;
		EXPECT_NEAR((double)r, ref, ref * 1e-3 + 1);
	}
}

// Eq. 3's drain: a history below R_credit empties the predicted queue
// first. pre_eq 1.4e9, R_credit 1.5625e9: 1.625e8 x 6 ms = 975000 B off
// a Q_c of 1 MB leaves 25000 B, D_pre 16 us, R = 1.5625e9 x (19e6 -
// 16000) / 18e6 = 1647916666.6.
TEST(Mlcc, DqmDrainsThePrediction)
{
	mlcc_params p = Params();

	EXPECT_EQ(mlcc_dqm_rate(&p, 1400000000ULL, kFair, kMB, kFair),
		  1647916666ULL);
	EXPECT_EQ(mlcc_dqm_rate(&p, 1400000000ULL, kFair, 900000, kFair),
		  1649305555ULL);	// drained to 0: case C
}

// 3.5.3(1): at equilibrium (history = R_credit, Q_c = R_credit D_t)
// every round keeps R_DQM = R_credit, the PFQ's backlog R_fair D_t
// (1.5625 MB: the paper's "about 1.5 MB").
TEST(Mlcc, EquilibriumHoldsTheRate)
{
	mlcc_params p = Params();
	mlcc_rcv r = Receiver(p, kFair);
	int i;

	r.q_c = 1562500;
	for (i = 0; i < 300; i++) {
		mlcc_dqm_round(&r, &p);
		ASSERT_EQ(r.r_dqm, kFair) << "round " << i;
	}
	EXPECT_EQ(r.hist_len, 250U);		// Eq. 1: 6 ms / 24 us
	EXPECT_EQ(r.hist_sum, 250 * kFair);
}

// Eqs. 1-2: the history keeps the last n = RTT_C / RTT_D rates; n is at
// least 1 and at most MLCC_HIST_MAX.
TEST(Mlcc, HistoryIsTheLastN)
{
	mlcc_params p = Params();
	mlcc_rcv r;
	u64 v;

	p.rtt_d_ns = 2000000;		// n = 3
	mlcc_rcv_init(&r, &p);
	EXPECT_EQ(r.hist_n, 3U);
	for (v = 10; v <= 50; v += 10)
		mlcc_hist_push(&r, v);
	EXPECT_EQ(r.hist_len, 3U);
	EXPECT_EQ(r.hist_sum, 120U);	// 30 + 40 + 50
	p.rtt_d_ns = kRttC / MLCC_HIST_MAX;	// n = 1024, the most
	EXPECT_TRUE(mlcc_params_valid(&p));
	mlcc_rcv_init(&r, &p);
	EXPECT_EQ(r.hist_n, MLCC_HIST_MAX);
	for (v = 1; v <= 2 * MLCC_HIST_MAX + 7; v++)
		mlcc_hist_push(&r, v);
	// the last 1024 of 1..2055: (1032 + 2055) x 1024 / 2
	EXPECT_EQ(r.hist_sum, (u64)(1032 + 2055) * 1024 / 2);
	p.rtt_d_ns = kRttC / (MLCC_HIST_MAX + 1);	// n = 1025: refused
	EXPECT_FALSE(mlcc_params_valid(&p));
	p.rtt_d_ns = p.rtt_c_ns;
	mlcc_rcv_init(&r, &p);
	EXPECT_EQ(r.hist_n, 1U);
}

// Eq. 2 before any history: the advertised rate. Eq. 4: the last m of
// R_credit. A receiver at 1.5625e9 whose credit fell to 1.2e9 this round:
// mean of 4 x 1.5625e9 and 1.2e9 = 1.49e9; pre_eq = R_DQM_bar = 1.5625e9:
// Q_pre = 3.625e8 x 6 ms = 2175000 B, D_pre = 2175000e9 / 1.49e9 =
// 1459731.5 ns -> 1459731, R = 1.2e9 x (19e6 - 1459731) / 18e6 =
// 1169351266.
TEST(Mlcc, RoundUsesAdvertisedRateAndCreditMean)
{
	mlcc_params p = Params();
	mlcc_rcv r = Receiver(p, kFair);

	r.r_credit = 1200000000ULL;
	r.credit[r.credit_head] = r.r_credit;
	r.credit_head = (r.credit_head + 1) % MLCC_M_MAX;
	EXPECT_EQ(mlcc_credit_mean(&r, &p), 1490000000ULL);
	mlcc_dqm_round(&r, &p);
	EXPECT_EQ(r.r_dqm, 1169351266ULL);
	EXPECT_EQ(r.hist_sum, kFair);		// R_DQM_bar sampled
	p.flags = MLCC_F_HIST_RAW;
	r = Receiver(p, kFair);
	r.q_c = 0;
	mlcc_dqm_round(&r, &p);
	EXPECT_EQ(r.hist_sum, 1649305555ULL);	// R_DQM itself (case C)
}

// Eqs. 6-8 literally, one packet at a time ("token >= 1 is up").
void SmoothReference(u32 *token, s32 *dw, u32 inc, u32 pkts)
{
	while (pkts--) {
		*token += inc;
		if (*token >= MLCC_ONE) {
			*dw += 1;
			*token -= MLCC_ONE;
		} else {
			*dw -= 1;
		}
	}
}

// T0(b), 3.5.3(2): dw's drift per packet is 2 min(alpha x, 1) - 1 for
// x = R_DQM / R_credit. Over 1000 packets from token 0, dw moves by
// exactly 2 floor(1000 inc / 2^16) - 1000, inc = alpha R_DQM / R_credit
// in Q16.16 (x 0.9: 29491, 449 ups, -102), within 3 / 1000 of the
// drift (the last up's floor, 2 in 1000, and inc's).
TEST(Mlcc, TokenDriftPerPacket)
{
	mlcc_params p = Params();
	const double xs[] = { 0, 0.5, 0.9, 1.0, 1.1, 2, 3 };

	for (double x : xs) {
		mlcc_rcv r = Receiver(p, kFair);
		u64 inc;
		s32 want;

		r.r_dqm = (u64)(x * kFair);
		inc = std::min<u64>((u64)p.alpha * r.r_dqm / kFair, MLCC_ONE);
		want = 2 * (s32)(1000 * inc >> 16) - 1000;
		mlcc_dqm_smooth(&r, &p, 1000);
		EXPECT_EQ(r.dw, want) << "x " << x;
		EXPECT_NEAR(r.dw / 1000.0, 2 * std::min(0.5 * x, 1.0) - 1, 3e-3)
			<< "x " << x;
	}
}

// T0(b): the closed form over k packets is the packet loop, for any k.
TEST(Mlcc, BatchIsTheLoop)
{
	mlcc_params p = Params();
	const double xs[] = { 0, 0.3, 0.9, 1.0, 1.7 };
	const u32 ks[] = { 1, 2, 3, 7, 64, 1000 };

	for (double x : xs) {
		mlcc_rcv r = Receiver(p, kFair);
		u32 token = 0;
		s32 dw = 0;
		u32 inc;

		r.r_dqm = (u64)(x * kFair);
		inc = std::min<u64>((u64)p.alpha * r.r_dqm / kFair, MLCC_ONE);
		for (u32 k : ks) {
			mlcc_dqm_smooth(&r, &p, k);
			SmoothReference(&token, &dw, inc, k);
			ASSERT_EQ(r.token, token) << "x " << x << " k " << k;
			ASSERT_EQ(r.dw, dw) << "x " << x << " k " << k;
		}
	}
}

// T0(b): after R_credit RTT_C / MTU = 6250 packets at x = 0.9, R_DQM_bar
// is 0.9 R_credit within 1 %: inc 29491, 6250 x 29491 / 2^16 = 2812 ups,
// dw = -626, R_DQM_bar = 1.5625e9 - 626 x 1500e9 / 6e6 = 1406000000.
TEST(Mlcc, NinetyPercentAfterOneRttC)
{
	mlcc_params p = Params();
	mlcc_rcv r = Receiver(p, kFair);

	r.r_dqm = kFair / 10 * 9;
	mlcc_dqm_smooth(&r, &p, 6250);
	EXPECT_EQ(r.dw, -626);
	EXPECT_EQ(r.r_dqm_bar, 1406000000ULL);
	EXPECT_NEAR((double)r.r_dqm_bar, 0.9 * kFair, 0.01 * 0.9 * kFair);
}

// Anti-windup (spec 7.8): dw stops where R_DQM_bar would leave [R_min,
// R_max]. Down: (1.5625e9 - 12.5e6) x 6e6 / 1500e9 = 6200 steps, R_DQM_bar
// = R_min exactly; up: (3.125e9 - 1.5625e9) x 6e6 / 1500e9 = 6250, R_max.
// A change of course leaves the bound at once.
TEST(Mlcc, DwHeldAtTheBounds)
{
	mlcc_params p = Params();
	mlcc_rcv r = Receiver(p, kFair);

	r.r_dqm = 0;
	mlcc_dqm_smooth(&r, &p, 100000);
	EXPECT_EQ(r.dw, -6200);
	EXPECT_EQ(r.r_dqm_bar, kMin);
	r.r_dqm = 2 * kFair;			// inc 1: one up a packet
	mlcc_dqm_smooth(&r, &p, 1);
	EXPECT_EQ(r.dw, -6199);
	mlcc_dqm_smooth(&r, &p, 100000);
	EXPECT_EQ(r.dw, 6250);
	EXPECT_EQ(r.r_dqm_bar, kLine);
}

// The 8-bit credit: 0 skipped, newer by serial arithmetic, DCI_r keeps
// the newest it saw.
TEST(Mlcc, CreditSerialArithmetic)
{
	u8 c_d = 0;

	EXPECT_EQ(mlcc_credit_next(1), 2);
	EXPECT_EQ(mlcc_credit_next(255), 1);
	EXPECT_TRUE(mlcc_credit_newer(1, 255));
	EXPECT_TRUE(mlcc_credit_newer(5, 0));
	EXPECT_FALSE(mlcc_credit_newer(5, 5));
	EXPECT_FALSE(mlcc_credit_newer(255, 1));
	EXPECT_FALSE(mlcc_credit_newer(133, 5));	// 128 ahead: behind
	mlcc_dci_learn(&c_d, 1);
	EXPECT_EQ(c_d, 1);
	mlcc_dci_learn(&c_d, 0);			// no credit in that ACK
	EXPECT_EQ(c_d, 1);
	mlcc_dci_learn(&c_d, 255);			// stale
	EXPECT_EQ(c_d, 1);
	// A new PFQ learns any credit, though 200 is "behind" 0 by serial
	// arithmetic: the loop starts whatever the receiver's C_R.
	c_d = 0;
	mlcc_dci_learn(&c_d, 200);
	EXPECT_EQ(c_d, 200);
}

// T0(d): a synthetic credit loop, one packet per tick from DCI_r, D ticks
// each way, every packet ACKed at once. DCI_r learns C_R = 1 from the
// first ACK at 2D; the packet it stamps then reaches the receiver at 3D:
// round 1. Each later round takes one round trip: round k at (2k + 1) D,
// exactly, over 300 rounds (the 8-bit credit wraps). Losing the ACK that
// first carries a new C_R delays that round by one ACK interval (a tick).
std::vector<u32> CreditRounds(u32 d, u32 rounds, u32 lose_round)
{
	mlcc_params p = Params();
	std::vector<u8> to_rcv, to_dci;	// in flight, one slot per tick
	std::vector<u32> at;
	mlcc_rcv r = Receiver(p, kFair);
	u8 c_d = 0, prev_c_r = r.c_r;
	u32 t;

	for (t = 0; at.size() < rounds; t++) {
		if (t >= 2 * d)				// the ACK sent at t - d
			mlcc_dci_learn(&c_d, to_dci[t - 2 * d]);
		to_rcv.push_back(c_d);			// dequeued at t
		if (t >= d) {
			u8 stamped = to_rcv[t - d];
			bool lost;

			if (mlcc_rcv_on_data(&r, &p, nullptr, 0, 0, stamped, 1,
					     t * 1000ULL))
				at.push_back(t);
			lost = at.size() == lose_round && r.c_r != prev_c_r;
			to_dci.push_back(lost ? 0 : r.c_r);
			prev_c_r = r.c_r;
		}
	}
	return at;
}

TEST(Mlcc, OneCreditRoundPerRoundTrip)
{
	std::vector<u32> at = CreditRounds(10, 300, 0);

	for (u32 k = 1; k <= 300; k++)
		ASSERT_EQ(at[k - 1], (2 * k + 1) * 10) << "round " << k;
}

TEST(Mlcc, LostAckDelaysARoundByOneAck)
{
	std::vector<u32> at = CreditRounds(10, 8, 4);

	for (u32 k = 1; k <= 4; k++)
		EXPECT_EQ(at[k - 1], (2 * k + 1) * 10);
	for (u32 k = 5; k <= 8; k++)
		EXPECT_EQ(at[k - 1], (2 * k + 1) * 10 + 1);
}

// A credit DCI_r holds that the loop never gave (a forged ACK_X moved it
// on, or the receiver started over) is taken as C_R, closing a round;
// the one before C_R (its ACK still on its way) and 0 (none yet) are not.
TEST(Mlcc, ReceiverResyncsToAStrangeCredit)
{
	mlcc_params p = Params();
	mlcc_rcv r = Receiver(p, kFair);

	EXPECT_EQ(mlcc_credit_prev(1), 255);
	EXPECT_EQ(mlcc_credit_prev(2), 1);
	EXPECT_EQ(mlcc_rcv_resync(5, 0), 5);
	EXPECT_EQ(mlcc_rcv_resync(5, 5), 5);
	EXPECT_EQ(mlcc_rcv_resync(5, 4), 5);
	EXPECT_EQ(mlcc_rcv_resync(1, 255), 1);
	EXPECT_EQ(mlcc_rcv_resync(5, 105), 105);
	EXPECT_EQ(mlcc_rcv_resync(5, 6), 6);
	EXPECT_FALSE(mlcc_rcv_on_data(&r, &p, nullptr, 0, 0, 0, 1, 0));
	EXPECT_FALSE(mlcc_rcv_on_data(&r, &p, nullptr, 0, 0, 255, 1, 1000));
	EXPECT_EQ(r.c_r, 1);
	EXPECT_TRUE(mlcc_rcv_on_data(&r, &p, nullptr, 0, 0, 101, 1, 2000));
	EXPECT_EQ(r.c_r, 102);
	EXPECT_FALSE(mlcc_rcv_on_data(&r, &p, nullptr, 0, 0, 101, 1, 3000));
	EXPECT_TRUE(mlcc_rcv_on_data(&r, &p, nullptr, 0, 0, 102, 1, 4000));
	EXPECT_EQ(r.c_r, 103);
}

// Algorithm 1 end to end, no INT (U stays 0): a flow at half the line,
// Q_c 1 MB. Its first packet, before any credit round, smooths once at
// x = 1 (inc 0.5, token 0.5): dw -1, R_DQM_bar = 1.5625e9 - 1500e9 / 6e6
// = 1562250000. The packet that carries C_D = C_R closes round 1:
// R_credit = 1.5625e9 + R_AI = 1572265625, committed; Eq. 2 has no
// history, so R_pre_eq = R_DQM_bar; Eq. 3 drains 10015625 x 6 ms = 60093
// B of Q_c: 939907; Eq. 4's mean is (4 x 1.5625e9 + 1572265625) / 5 =
// 1564453125, D_pre = 939907e9 / 1564453125 = 600789 ns; Eq. 5: R_DQM =
// 1572265625 x (19e6 - 600789) / 18e6 = 1607135943. Its own smoothing:
// inc = 32768 x 1607135943 / 1572265625 = 33494, token 32768 + 33494
// passes 1: dw 0, token 726, R_DQM_bar = R_credit.
TEST(Mlcc, ReceiverRoundTrace)
{
	mlcc_params p = Params();
	mlcc_rcv r = Receiver(p, kFair);

	EXPECT_FALSE(mlcc_rcv_on_data(&r, &p, nullptr, 0, kMB, 0, 1, 0));
	EXPECT_EQ(r.r_credit, kFair);
	EXPECT_EQ(r.dw, -1);			// inc 0.5, the first packet
	EXPECT_TRUE(mlcc_rcv_on_data(&r, &p, nullptr, 0, kMB, 1, 1, 1000));
	EXPECT_EQ(r.c_r, 2);
	EXPECT_EQ(r.r_credit, kFair + kAi);
	EXPECT_EQ(r.r_dqm, 1607135943ULL);
	EXPECT_EQ(r.hist_sum, kFair - 250000);	// R_DQM_bar of packet 1
	EXPECT_EQ(r.token, 726U);
	EXPECT_EQ(r.dw, 0);
	EXPECT_EQ(r.r_dqm_bar, kFair + kAi);
}

// 3.5.3(5), closed loop: a sender held back by R_NS leaves the PFQ empty
// while the history holds what was advertised. dw integrates R_DQM /
// R_credit - 1 (3.5.3(2)), so R_DQM_bar rests where R_DQM = R_credit,
// D_pre = D_t: (R_DQM_bar - R_credit) RTT_C / R_credit = D_t, R_DQM_bar =
// R_credit (1 + 1 ms / 6 ms), +16.7 %. Rounds of RTT_D with R_credit
// RTT_D / MTU = 25 packets each, R_credit held at R_fair, for 5 s (278
// theta).
TEST(Mlcc, NonBindingSenderSettles)
{
	mlcc_params p = Params();
	mlcc_rcv r = Receiver(p, kFair);
	int i;

	for (i = 0; i < 5000000 / 24; i++) {
		mlcc_dqm_round(&r, &p);
		mlcc_dqm_smooth(&r, &p, 25);
	}
	EXPECT_NEAR((double)r.r_dqm_bar / kFair, 1 + 1.0 / 6, 0.005);
	EXPECT_NEAR((double)r.r_dqm / kFair, 1, 0.01);
}

// L1 and Eq. 10 at the sender: line rate until feedback; the first
// Switch-INT primes; the next shows the hop 1.5 times loaded over RTT_NS
// (u_tx 1 + u_q 0.5, tau = T, so U = 98304): R_NS = Rc x eta / U + R_AI
// = 3.125e9 x 62259 / 98304 + 9765625 = 1979160308 + 9765625, committed
// since the data ended past the round's mark; the next feedback before
// snd_nxt only follows. An ACK's R_DQM_bar below R_NS takes over; an RTO
// drops R_NS to R_min. Records seen before change nothing.
TEST(Mlcc, SenderCombinesTheLoops)
{
	hpcc_params p;
	mlcc_snd s;
	hpcc_hop h{};

	hpcc_params_default(&p, kLine);
	mlcc_snd_init(&s, &p, 1000);
	EXPECT_EQ(mlcc_snd_rate(&s, &p), kLine);
	h.rate = kLine;
	h.qlen = 625;				// half of 25.6 us x 25 Gbit/s
	h.ts = 1000;
	mlcc_snd_on_switch_int(&s, &p, &h, 1, 2000, 50000, 25600, 0);
	EXPECT_EQ(mlcc_snd_rate(&s, &p), kLine);
	h.tx = 1250;				// 80000 B in 25.6 us
	h.ts = 1400;
	mlcc_snd_on_switch_int(&s, &p, &h, 1, 3000, 50000, 25600, 25600);
	EXPECT_EQ(s.ns.u, 98304U);
	EXPECT_EQ(s.ns.rc, 1979160308ULL + kAi);
	EXPECT_EQ(s.ns.round_mark, 50000U);
	EXPECT_EQ(mlcc_snd_rate(&s, &p), 1979160308ULL + kAi);
	// the same records again (a second echo of them): no new rate, and
	// no commit although they end past the mark
	mlcc_snd_on_switch_int(&s, &p, &h, 1, 60000, 90000, 25600, 38400);
	EXPECT_EQ(s.ns.r, 1979160308ULL + kAi);
	EXPECT_EQ(s.ns.round_mark, 50000U);
	h.tx = 2500;
	h.ts = 1800;
	mlcc_snd_on_switch_int(&s, &p, &h, 1, 40000, 90000, 25600, 51200);
	EXPECT_EQ(s.ns.round_mark, 50000U);	// no commit before the mark
	EXPECT_LT(s.ns.r, s.ns.rc);
	mlcc_snd_on_ack(&s, 1000000000ULL);
	EXPECT_EQ(mlcc_snd_rate(&s, &p), 1000000000ULL);
	mlcc_snd_on_ack(&s, 0);			// no option: kept
	EXPECT_EQ(mlcc_snd_rate(&s, &p), 1000000000ULL);
	mlcc_snd_on_rto(&s, &p);
	EXPECT_EQ(mlcc_snd_rate(&s, &p), kMin);
}

} // namespace
