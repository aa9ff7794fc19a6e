// SPDX-License-Identifier: GPL-2.0
//
// Unit tests of the TIMELY law, kernel/core/timely_core.h (Reflex spec
// Sec. 3.1 and 3.3, its test scenario 4 and the unit part of 7; Mittal et
// al. SIGCOMM'15 Algorithm 1 with the HPCC NS-3 details). Every expected
// value is worked out by hand in the law's own fixed point in the comment
// next to it: rates are bytes/s, times ns, beta and a_ewma ppm (10^6 =
// 1.0); every division floors (rtt_diff rounds toward zero).
//
// Reference setup unless a test says otherwise: the spec's defaults
// (timely_params_default()) on a 100 Gbit/s line, i.e. R_line = 12.5e9
// B/s, delta = R_line / 1000 = 12.5e6 B/s (100 Mbit/s, as the HPCC
// scripts), HAI = 5 delta = 62.5e6 B/s, R_min = R_line / 100 = 125e6 B/s
// (1 Gbit/s), T_low 50 us, T_high 500 us, beta 0.8, a_ewma 0.875, minRTT
// 20 us, HAI after 5 increases. Reflex's Table I has no TIMELY values:
// the paper runs TIMELY with "the default parameter settings [10]" (Sec.
// II-C), which are these.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "timely_core.h"

static_assert(sizeof(struct timely_state) <= 24, "per-flow state must stay small");

namespace {

constexpr u64 kLine = 12500000000ULL;	// 100 Gbit/s in bytes/s
constexpr u64 kMin = 125000000ULL;	// R_min, 1 %
constexpr u64 kDelta = 12500000ULL;	// delta, 0.1 %
constexpr u64 kHai = 62500000ULL;	// 5 delta
constexpr u64 kUs = 1000;		// ns

timely_params Params()
{
	timely_params p;

	timely_params_default(&p, kLine);
	EXPECT_TRUE(timely_params_valid(&p));
	return p;
}

// A flow at rate, whose first sample (which changes nothing) was rtt0.
timely_state Flow(const timely_params &p, u64 rate, u64 rtt0)
{
	timely_state s;

	timely_init(&s, &p);
	s.rate = rate;
	EXPECT_EQ(timely_on_rtt_sample(&s, &p, rtt0), 0u);
	EXPECT_EQ(s.rate, rate);
	return s;
}

u32 Sample(timely_state &s, const timely_params &p, u64 rtt)
{
	return timely_on_rtt_sample(&s, &p, rtt);
}

constexpr u32 kLowAi = TIMELY_EV_LOW | TIMELY_EV_INC;
constexpr u32 kLowHai = TIMELY_EV_LOW | TIMELY_EV_INC | TIMELY_EV_HAI;
constexpr u32 kHighMd = TIMELY_EV_HIGH | TIMELY_EV_DEC;
constexpr u32 kGradAi = TIMELY_EV_GRAD | TIMELY_EV_INC;
constexpr u32 kGradHai = TIMELY_EV_GRAD | TIMELY_EV_INC | TIMELY_EV_HAI;
constexpr u32 kGradMd = TIMELY_EV_GRAD | TIMELY_EV_DEC;

}  // namespace

// The spec's defaults on the 100 Gbit/s line, field by field.
static void ExpectSpecDefaults(const timely_params &p)
{
	EXPECT_EQ(p.max_rate, kLine);
	EXPECT_EQ(p.min_rate, kMin);		// 12.5e9 / 100
	EXPECT_EQ(p.add_step, kDelta);		// 12.5e9 / 1000
	EXPECT_EQ(p.hai_step, kHai);		// 5 x 12.5e6
	EXPECT_EQ(p.t_low_ns, 50000u);
	EXPECT_EQ(p.t_high_ns, 500000u);
	EXPECT_EQ(p.min_rtt_ns, 20000u);
	EXPECT_EQ(p.beta_ppm, 800000u);
	EXPECT_EQ(p.ewma_ppm, 875000u);
	EXPECT_EQ(p.hai_thresh, 5u);
	EXPECT_EQ(p.hai_mode, (u32)TIMELY_HAI_ANY);
}

TEST(timely_core, DefaultsAreTheSpecs)
{
	ExpectSpecDefaults(Params());
}

// The hosts' tunables (tcp_timely's parameters, bpf_timely's
// registration) at their defaults give the same law: 100000 Mbit/s x
// 125000 = 12.5e9 B/s.
TEST(timely_core, KnobDefaultsAreTheSpecs)
{
	const timely_knobs k = TIMELY_KNOBS_INIT;
	timely_params p;

	timely_params_from_knobs(&p, &k);
	ExpectSpecDefaults(p);
	EXPECT_EQ(k.cwnd_gain_pct, 200u);
}

// Reflex's dilated network (reflex.md 5.3, S = 1000) as test_cc_delay
// sets it: 100 Mbit/s = 12.5e6 B/s; delta 1000 ppm = 12500 B/s, HAI 5
// of them; R_min 10000 ppm = 125000 B/s; times x 1000 to ns; the
// gradient-only HAI. A time past 2^32 ns saturates.
TEST(timely_core, KnobsInOperatorUnits)
{
	timely_knobs k = TIMELY_KNOBS_INIT;
	timely_params p;

	k.link_rate_mbps = 100;
	k.t_low_us = 50000;
	k.t_high_us = 500000;
	k.min_rtt_us = 8000;
	k.hai_gradient = 1;
	k.beta_ppm = 500000;
	timely_params_from_knobs(&p, &k);
	EXPECT_EQ(p.max_rate, 12500000u);
	EXPECT_EQ(p.add_step, 12500u);
	EXPECT_EQ(p.hai_step, 62500u);
	EXPECT_EQ(p.min_rate, 125000u);
	EXPECT_EQ(p.t_low_ns, 50000000u);
	EXPECT_EQ(p.t_high_ns, 500000000u);
	EXPECT_EQ(p.min_rtt_ns, 8000000u);
	EXPECT_EQ(p.beta_ppm, 500000u);
	EXPECT_EQ(p.hai_mode, (u32)TIMELY_HAI_GRADIENT);
	EXPECT_TRUE(timely_params_valid(&p));

	EXPECT_EQ(timely_us_to_ns(4294967), 4294967000u);
	EXPECT_EQ(timely_us_to_ns(4294968), TIMELY_RTT_MAX);
}

// Each bound of timely_params_valid(), one field at a time.
TEST(timely_core, InvalidParamsAreRefused)
{
	const timely_params ok = Params();
	timely_params p;

#define REFUSE(field, value)						\
	do {								\
		p = ok;							\
		p.field = value;					\
		EXPECT_FALSE(timely_params_valid(&p)) << #field " " #value; \
	} while (0)
	REFUSE(min_rate, 0);
	REFUSE(min_rate, kLine + 1);		// R_min > R_line
	REFUSE(max_rate, TIMELY_RATE_MAX + 1);
	REFUSE(add_step, 0);
	REFUSE(add_step, kHai + 1);		// delta > HAI step
	REFUSE(hai_step, kLine + 1);
	REFUSE(t_low_ns, 0);
	REFUSE(t_low_ns, 500001);		// T_low > T_high
	REFUSE(min_rtt_ns, 0);
	REFUSE(beta_ppm, 0);
	REFUSE(beta_ppm, 1000001);
	REFUSE(ewma_ppm, 0);
	REFUSE(ewma_ppm, 1000001);
	REFUSE(hai_thresh, TIMELY_HAI_THRESH_MAX + 1);
	REFUSE(hai_mode, 2);
#undef REFUSE

	// Edges that are legal: T_low == T_high, beta = a_ewma = 1.0,
	// R_min == R_line, hai_thresh 0, the largest rate.
	p = ok;
	p.t_low_ns = p.t_high_ns;
	p.beta_ppm = 1000000;
	p.ewma_ppm = 1000000;
	p.min_rate = p.max_rate;
	p.hai_thresh = 0;
	EXPECT_TRUE(timely_params_valid(&p));
	timely_params_default(&p, TIMELY_RATE_MAX);
	EXPECT_TRUE(timely_params_valid(&p));
}

// RDMA starts at line rate; the first sample only records prev_rtt.
TEST(timely_core, InitAndFirstSample)
{
	const timely_params p = Params();
	timely_state s;

	timely_init(&s, &p);
	EXPECT_EQ(s.rate, kLine);
	EXPECT_EQ(s.rtt_diff, 0);
	EXPECT_EQ(s.prev_rtt_ns, 0u);
	EXPECT_EQ(s.inc_stage, 0u);
	// 1012 us is far above T_high, yet the first sample changes nothing.
	EXPECT_EQ(Sample(s, p, 1012 * kUs), 0u);
	EXPECT_EQ(s.rate, kLine);
	EXPECT_EQ(s.prev_rtt_ns, 1012000u);
	EXPECT_EQ(s.rtt_diff, 0);
}

// Spec 3.1 vector: rate 100 Gbit/s, rtt 1012 us > T_high. The decrease is
// beta (rtt - T_high) / rtt = 800000 x 512000 / 1012000 = 404743.08 ->
// 404743 ppm, the factor 1 - 0.404743 = 0.595257 (spec: 0.59526; exact
// 1 - 0.8 (1 - 500/1012) = 0.5952569): 12.5e9 x 595257 / 10^6 =
// 7440712500 B/s = 59.53 Gbit/s. A steady RTT leaves rtt_diff at 0.
TEST(timely_core, HighBranchSpecVector)
{
	const timely_params p = Params();
	timely_state s = Flow(p, kLine, 1012 * kUs);

	EXPECT_EQ(Sample(s, p, 1012 * kUs), kHighMd);
	EXPECT_EQ(s.rate, 7440712500ULL);
	EXPECT_EQ(s.rtt_diff, 0);
	EXPECT_EQ(s.inc_stage, 0u);
	// Fixed-point error against the real factor: < 0.5 % (spec 6.4).
	EXPECT_NEAR((double)s.rate / kLine, 1 - 0.8 * (1 - 500.0 / 1012),
		    0.005 * 0.5952569);
}

// Spec 3.1 / 6.4 / 6.7: repeated once per RTT, the 1012 us RTT takes the
// flow to R_min after ~8.9 RTTs (ln 100 / ln(1 / 0.595257) = 8.877): each
// step floors rate x 595257 / 10^6,
//   12.5e9 -> 7440712500 -> 4429136200 -> 2636474327 -> 1569379798
//   -> 934184310 -> 556079749 -> 331010363 -> 197036235 (8 RTTs, still
//   above 125e6) -> 117287198 < R_min, clamped to 125000000 (9th RTT).
TEST(timely_core, HighBranchReachesRminInNineRtts)
{
	const timely_params p = Params();
	timely_state s = Flow(p, kLine, 1012 * kUs);
	const u64 want[] = { 7440712500ULL, 4429136200ULL, 2636474327ULL,
			     1569379798ULL, 934184310ULL, 556079749ULL,
			     331010363ULL, 197036235ULL, kMin, kMin };

	for (u32 i = 0; i < 10; i++) {
		EXPECT_EQ(Sample(s, p, 1012 * kUs), kHighMd) << i;
		EXPECT_EQ(s.rate, want[i]) << "after RTT " << i + 1;
	}
}

// Spec 3.1 vector of the gradient branch: prev 60 us, new 80 us, old
// rtt_diff 0 -> rtt_diff = 0.125 x 0 + 0.875 x 20000 = 17500 ns, g =
// 17500 / 20000 = 0.875, decrease 800000 x 17500 / 20000 = 700000 ppm,
// factor 0.30: 12.5e9 x 300000 / 10^6 = 3.75e9 B/s.
TEST(timely_core, GradientBranchSpecVector)
{
	const timely_params p = Params();
	timely_state s = Flow(p, kLine, 60 * kUs);

	EXPECT_EQ(Sample(s, p, 80 * kUs), kGradMd);
	EXPECT_EQ(s.rtt_diff, 17500);
	EXPECT_EQ(s.rate, 3750000000ULL);
	EXPECT_EQ(s.prev_rtt_ns, 80000u);
}

// A gradient of 1.25 or more makes 1 - beta g <= 0: max(0, .) = 0, and the
// clamp lifts the rate to R_min. 60 -> 100 us: rtt_diff = 0.875 x 40000 =
// 35000, g = 1.75, decrease 800000 x 35000 / 20000 = 1.4e6 ppm -> 10^6.
TEST(timely_core, GradientFactorFloorsAtZeroThenRmin)
{
	const timely_params p = Params();
	timely_state s = Flow(p, kLine, 60 * kUs);

	EXPECT_EQ(Sample(s, p, 100 * kUs), kGradMd);
	EXPECT_EQ(s.rtt_diff, 35000);
	EXPECT_EQ(s.rate, kMin);
}

// In the band a falling RTT (g < 0) and a steady one (g == 0) increase.
// After the 60 -> 80 us vector (rtt_diff 17500, rate 3.75e9):
//   80 -> 60: 0.125 x 17500 + 0.875 x (-20000) = 2187.5 - 17500 =
//             -15312.5 -> -15312 (toward 0); +delta -> 3.7625e9
//   60 -> 60: 0.125 x -15312 = -1914       +delta -> 3.775e9
//             0.125 x -1914 = -239.25 -> -239, then -29, -3, and
//             0.125 x -3 = -0.375 -> 0 (g == 0 still increases)
// five increases by delta (HAI count 0..4 before each), then HAI.
TEST(timely_core, GradientNonPositiveIncreasesThenHai)
{
	const timely_params p = Params();
	timely_state s = Flow(p, kLine, 60 * kUs);
	const s64 diff[] = { -15312, -1914, -239, -29, -3, 0, 0 };
	u64 rate = 3750000000ULL;

	EXPECT_EQ(Sample(s, p, 80 * kUs), kGradMd);
	ASSERT_EQ(s.rate, rate);
	for (u32 i = 0; i < 7; i++) {
		bool hai = i >= 5;

		EXPECT_EQ(Sample(s, p, 60 * kUs), hai ? kGradHai : kGradAi) << i;
		EXPECT_EQ(s.rtt_diff, diff[i]) << i;
		rate += hai ? kHai : kDelta;
		EXPECT_EQ(s.rate, rate) << i;
	}
	// 3.75e9 + 5 x 12.5e6 + 2 x 62.5e6 = 3.9375e9
	EXPECT_EQ(s.rate, 3937500000ULL);
	EXPECT_EQ(s.inc_stage, 5u);		// saturated at hai_thresh
}

// rtt < T_low increases whatever the gradient (spec's order of checks):
// 1e9 B/s, a steady 10 us: +delta five times (1.0125e9 ... 1.0625e9),
// then HAI (HPCC: any 5 consecutive increases): 1.125e9, 1.1875e9.
// A rising RTT below T_low (10 -> 40 us: g = 0.875 x 30000 / 20000 > 0)
// still increases.
TEST(timely_core, LowBranchAdditiveThenHai)
{
	const timely_params p = Params();
	timely_state s = Flow(p, 1000000000ULL, 10 * kUs);
	const u64 want[] = { 1012500000ULL, 1025000000ULL, 1037500000ULL,
			     1050000000ULL, 1062500000ULL, 1125000000ULL,
			     1187500000ULL };

	for (u32 i = 0; i < 7; i++) {
		EXPECT_EQ(Sample(s, p, 10 * kUs), i < 5 ? kLowAi : kLowHai) << i;
		EXPECT_EQ(s.rate, want[i]) << i;
	}
	EXPECT_EQ(Sample(s, p, 40 * kUs), kLowHai);
	EXPECT_EQ(s.rtt_diff, 26250);		// 0.875 x 30000
	EXPECT_EQ(s.rate, 1250000000ULL);	// + 62.5e6
}

// Any decrease starts the HAI count over: 5 increases below T_low, one
// sample above T_high, then the next increases are by delta again.
// 1e9 +5 delta = 1.0625e9; 1012 us: x 0.595257 = 632460562.5 ->
// 632460562; then +12.5e6 = 644960562.
TEST(timely_core, DecreaseResetsTheHaiCount)
{
	const timely_params p = Params();
	timely_state s = Flow(p, 1000000000ULL, 10 * kUs);

	for (u32 i = 0; i < 5; i++)
		EXPECT_EQ(Sample(s, p, 10 * kUs), kLowAi) << i;
	EXPECT_EQ(s.inc_stage, 5u);
	EXPECT_EQ(Sample(s, p, 1012 * kUs), kHighMd);
	EXPECT_EQ(s.rate, 632460562ULL);
	EXPECT_EQ(s.inc_stage, 0u);
	EXPECT_EQ(Sample(s, p, 10 * kUs), kLowAi);
	EXPECT_EQ(s.rate, 644960562ULL);
}

// The strict inequalities of the spec: rtt == T_low and rtt == T_high are
// in the gradient band, T_high + 1 ns is not. Steady RTTs, so rtt_diff
// stays 0 (g == 0: increase) until the 500 us -> 500.001 us step.
TEST(timely_core, ThresholdsAreStrict)
{
	const timely_params p = Params();
	timely_state s = Flow(p, 1000000000ULL, 50 * kUs);

	EXPECT_EQ(Sample(s, p, 50 * kUs), kGradAi);		// T_low
	s = Flow(p, 1000000000ULL, 500 * kUs);
	EXPECT_EQ(Sample(s, p, 500 * kUs), kGradAi);		// T_high
	EXPECT_EQ(s.rate, 1012500000ULL);
	// 500001: decrease 800000 x 1 / 500001 = 1.6 -> 1 ppm:
	// 1012500000 x 999999 / 10^6 = 1012498987.5 -> 1012498987.
	EXPECT_EQ(Sample(s, p, 500 * kUs + 1), kHighMd);
	EXPECT_EQ(s.rate, 1012498987ULL);
	EXPECT_EQ(s.rtt_diff, 0);		// 0.875 x 1 = 0.875 -> 0
	EXPECT_EQ(Sample(s, p, 49 * kUs), kLowAi);		// < T_low
}

// Clamps: an increase at line rate stays at line rate; a decrease below
// R_min stops at R_min.
TEST(timely_core, RateIsClampedToRminAndRline)
{
	const timely_params p = Params();
	timely_state s = Flow(p, kLine, 10 * kUs);

	EXPECT_EQ(Sample(s, p, 10 * kUs), kLowAi);
	EXPECT_EQ(s.rate, kLine);
	s = Flow(p, kLine - 1, 10 * kUs);
	EXPECT_EQ(Sample(s, p, 10 * kUs), kLowAi);
	EXPECT_EQ(s.rate, kLine);
	// 130e6 x 0.595257 = 77383410 < 125e6
	s = Flow(p, 130000000ULL, 1012 * kUs);
	EXPECT_EQ(Sample(s, p, 1012 * kUs), kHighMd);
	EXPECT_EQ(s.rate, kMin);
}

// The EWMA: a_ewma is the new difference's weight, and it rounds toward
// zero both ways. 100 -> 108 -> 100 -> 100 us (T_low 50, T_high 500):
//   +8000: 0.875 x 8000 = 7000; decrease 800000 x 7000 / 20000 = 280000
//   ppm, 1e9 x 0.72 = 7.2e8
//   -8000: 0.125 x 7000 - 7000 = 875 - 7000 = -6125  -> +delta
//       0: 0.125 x -6125 = -765.625 -> -765          -> +delta
//   then 100 -> 101 us: 0.125 x -765 + 0.875 x 1000 = -95.625 + 875 =
//   779.375 -> 779 > 0: decrease 800000 x 779 / 20000 = 31160 ppm:
//   745000000 x 968840 / 10^6 = 721785800.
TEST(timely_core, EwmaOfRttDifferences)
{
	const timely_params p = Params();
	timely_state s = Flow(p, 1000000000ULL, 100 * kUs);

	EXPECT_EQ(Sample(s, p, 108 * kUs), kGradMd);
	EXPECT_EQ(s.rtt_diff, 7000);
	EXPECT_EQ(s.rate, 720000000ULL);
	EXPECT_EQ(Sample(s, p, 100 * kUs), kGradAi);
	EXPECT_EQ(s.rtt_diff, -6125);
	EXPECT_EQ(Sample(s, p, 100 * kUs), kGradAi);
	EXPECT_EQ(s.rtt_diff, -765);
	EXPECT_EQ(s.rate, 745000000ULL);
	EXPECT_EQ(Sample(s, p, 101 * kUs), kGradMd);
	EXPECT_EQ(s.rtt_diff, 779);
	EXPECT_EQ(s.rate, 721785800ULL);
}

// The TIMELY paper's HAI (TIMELY_HAI_GRADIENT): increases below T_low are
// always delta and break the run; increases of the gradient branch (g <=
// 0) count, and the 6th in a row is HAI, as in the HPCC mode.
TEST(timely_core, PaperHaiModeCountsGradientIncreasesOnly)
{
	timely_params p = Params();

	p.hai_mode = TIMELY_HAI_GRADIENT;
	ASSERT_TRUE(timely_params_valid(&p));
	timely_state s = Flow(p, 1000000000ULL, 10 * kUs);

	// 7 x 10 us at 1e9 B/s: +7 delta = 1.0875e9, no HAI, count 0.
	for (u32 i = 0; i < 7; i++) {
		EXPECT_EQ(Sample(s, p, 10 * kUs), kLowAi) << i;
		EXPECT_EQ(s.inc_stage, 0u);
	}
	EXPECT_EQ(s.rate, 1087500000ULL);

	// In the band, the RTT falling by 1 us per sample from 110 us:
	// rtt_diff = 0.875 x -1000 = -875, then 0.125 x -875 - 875 =
	// -984.375 -> -984, ... all < 0. Five increases by delta, then HAI:
	// 1e9 + 5 x 12.5e6 + 62.5e6 = 1.125e9.
	s = Flow(p, 1000000000ULL, 110 * kUs);
	for (u32 i = 0; i < 6; i++)
		EXPECT_EQ(Sample(s, p, (109 - i) * kUs),
			  i < 5 ? kGradAi : kGradHai) << i;
	EXPECT_EQ(s.rate, 1125000000ULL);
	// A T_low sample: delta, not HAI, and the run starts over.
	EXPECT_EQ(Sample(s, p, 10 * kUs), kLowAi);
	EXPECT_EQ(s.rate, 1137500000ULL);
	EXPECT_EQ(s.inc_stage, 0u);
}

// Spec 3.3 / 7.11 [default]: an RTO halves the rate, floor R_min, and
// restarts the HAI count.
TEST(timely_core, RtoHalvesTheRate)
{
	const timely_params p = Params();
	timely_state s = Flow(p, kLine, 10 * kUs);

	for (u32 i = 0; i < 6; i++)
		Sample(s, p, 10 * kUs);
	EXPECT_EQ(s.inc_stage, 5u);
	timely_on_rto(&s, &p);
	EXPECT_EQ(s.rate, 6250000000ULL);
	EXPECT_EQ(s.inc_stage, 0u);
	s.rate = 200000000ULL;
	timely_on_rto(&s, &p);			// 1e8 < 1.25e8
	EXPECT_EQ(s.rate, kMin);
}

// Sample edges: 0 ns counts as 1 ns (0 means "no sample yet"), so a
// second sample is a real one; a sample above 2^32 - 1 ns is clamped.
TEST(timely_core, SampleEdges)
{
	const timely_params p = Params();
	timely_state s;

	timely_init(&s, &p);
	EXPECT_EQ(Sample(s, p, 0), 0u);
	EXPECT_EQ(s.prev_rtt_ns, 1u);
	EXPECT_EQ(Sample(s, p, 0), kLowAi);	// at line rate: stays
	EXPECT_EQ(s.rate, kLine);
	EXPECT_EQ(Sample(s, p, 1ULL << 40), kHighMd);
	EXPECT_EQ(s.prev_rtt_ns, TIMELY_RTT_MAX);
	// decrease 800000 x (4294967295 - 500000) / 4294967295 = 799906.8
	// -> 799906: 12.5e9 x 200094 / 10^6 = 2501175000
	EXPECT_EQ(s.rate, 2501175000ULL);
}

// Fig. 3 tuned variant (spec 3.1): [T_low, T_high] = [1000, 1100] us puts
// the 1012 us WAN RTT inside the band, so a steady WAN RTT (g = 0)
// increases instead of cutting the flow to R_min.
TEST(timely_core, TunedThresholdsKeepWanRttInBand)
{
	timely_params p = Params();

	p.t_low_ns = 1000 * kUs;
	p.t_high_ns = 1100 * kUs;
	ASSERT_TRUE(timely_params_valid(&p));
	timely_state s = Flow(p, 1000000000ULL, 1012 * kUs);

	EXPECT_EQ(Sample(s, p, 1012 * kUs), kGradAi);
	EXPECT_EQ(s.rate, 1012500000ULL);
}

// Scenario 3 / 7 in unit form (spec 2.5, 3.3): an inter-DC flow fed the
// e2e RTT (1012 us) is cut to R_min in 9 samples; the same flow fed
// near-source RTT_src samples (6.3 us, pseudo-ACKs) stays at line rate.
TEST(timely_core, ReflexRttSrcKeepsLineRate)
{
	const timely_params p = Params();
	timely_state e2e, src;

	timely_init(&e2e, &p);
	timely_init(&src, &p);
	for (u32 i = 0; i < 10; i++) {
		Sample(e2e, p, 1012 * kUs);
		Sample(src, p, 6300);
	}
	EXPECT_EQ(e2e.rate, kMin);
	EXPECT_EQ(src.rate, kLine);
}

// Fixed-point error of both multiplicative factors over their range,
// against the real formulas: < 0.5 % (spec 6.4); in fact < 10^-5.
TEST(timely_core, FixedPointErrorIsSmall)
{
	const timely_params p = Params();

	for (u64 rtt = 500001; rtt < 20000000; rtt += 9973) {
		timely_state s = Flow(p, kLine, rtt);

		Sample(s, p, rtt);
		double want = kLine * (1 - 0.8 * (1 - 500000.0 / rtt));
		EXPECT_NEAR(s.rate, want, want * 1e-5) << rtt;
	}
	// Gradient branch: 60 us -> 60 us + d, rtt_diff = 0.875 d, g =
	// 0.875 d / 20000, for g up to 1.25.
	for (u64 d = 8; d < 28571; d += 8) {
		timely_state s = Flow(p, kLine, 60 * kUs);

		Sample(s, p, 60 * kUs + d);
		double want = kLine * (1 - 0.8 * (0.875 * d / 20000));
		EXPECT_NEAR(s.rate, std::max(want, (double)kMin), want * 1e-5)
			<< d;
	}
}
