// SPDX-License-Identifier: GPL-2.0
// Unit tests of kernel/core/phantom_core.h, the marking law of sch_phantom:
// our tests U11 and U12 of the phantom queue (Uno Sec. 4.1.3), the
// real-queue ramp (SMaRTT Sec. III-J), and the edges (rate 0, time going
// backwards or wrapping, saturation, 64-bit limits).
// Every expected value is hand arithmetic, written next to the assertion.

#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "phantom_core.h"

namespace {

constexpr u64 kNsec = 1000000000ULL;

// Deterministic uniform u32 draws (splitmix64, upper half), so that every
// statistical assertion below is reproducible bit for bit.
class Prng {
public:
	explicit Prng(u64 seed) : state_(seed) {}
	u32 next()
	{
		u64 z = (state_ += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		return static_cast<u32>((z ^ (z >> 31)) >> 32);
	}

private:
	u64 state_;
};

// The Uno artifact's phantom queue (the authors' htsim): PQ_max = inter-DC
// BDP, thresholds 2 % and 60 % of it; drained at 90 % (Uno Sec. 4.1.3;
// htsim's runs of Figs. 10-12 drain at C / 1.1) of C = 1e9 B/s (8 Gbit/s).
constexpr u32 kPqSize = 22400515;
constexpr u32 kPqMin = 448010;   // floor(22400515 * 0.02)
constexpr u32 kPqMax = 13440309; // floor(22400515 * 0.60)

phantom_params uno_params()
{
	phantom_params p{};
	p.rate = 1000000000;	// C, bytes/s
	p.limit = 1000000;	// real queue, 1 MB
	p.ecn_min = 200000;	// 20 % of limit
	p.ecn_max = 800000;	// 80 %
	p.pq_rate = 900000;	// 90 % of C = 9e8 B/s = 0.9 B/ns
	p.pq_size = kPqSize;
	p.pq_min = kPqMin;
	p.pq_max = kPqMax;
	return p;
}

phantom_state configured(const phantom_params &p, u64 now = 0)
{
	phantom_state st{};
	phantom_configure(&st, &p, now);
	return st;
}

// Number of u32 draws that phantom_ramp_mark() must accept for q strictly
// inside the ramp: rnd * d < n * 2^32  <=>  rnd < ceil(n * 2^32 / d).
u64 accepted_draws(u32 n, u32 d)
{
	unsigned __int128 num = static_cast<unsigned __int128>(n) << 32;
	return static_cast<u64>((num + d - 1) / d);
}

TEST(phantom_ppm, ExactFloor)
{
	EXPECT_EQ(phantom_ppm_of(kPqSize, 20000), kPqMin);
	EXPECT_EQ(phantom_ppm_of(kPqSize, 600000), kPqMax);
	EXPECT_EQ(phantom_ppm_of(1000000, 200000), 200000u);
	EXPECT_EQ(phantom_ppm_of(1000000000, 900000), 900000000u);
	// 1 ppm of 999999 bytes is 0.999999 bytes: floor gives 0.
	EXPECT_EQ(phantom_ppm_of(999999, 1), 0u);
	EXPECT_EQ(phantom_ppm_of(0, 500000), 0u);
}

TEST(phantom_ppm, NoOverflowAndClamp)
{
	const u64 big = std::numeric_limits<u64>::max();

	// 100 % of 2^64 - 1 is itself; ref * ppm would overflow 64 bits.
	EXPECT_EQ(phantom_ppm_of(big, PHANTOM_PPM_ONE), big);
	// 50 %: (2^64 - 1) / 2 rounded down.
	EXPECT_EQ(phantom_ppm_of(big, 500000), big / 2);
	// Above 100 % counts as 100 %.
	EXPECT_EQ(phantom_ppm_of(1000, 2 * PHANTOM_PPM_ONE), 1000u);
}

// Real-queue ramp, limit 1 MB, ecn-min 20 %, ecn-max 80 %:
// min = 200000, max = 800000, max - min = 600000.
TEST(phantom_ramp, RealQueueBoundaries)
{
	phantom_ramp r{};

	phantom_ramp_set(&r, 200000, 800000);
	ASSERT_EQ(r.min, 200000u);
	ASSERT_EQ(r.max, 800000u);

	// At or below min: never, even with the smallest draw.
	EXPECT_FALSE(phantom_ramp_mark(&r, 0, 0));
	EXPECT_FALSE(phantom_ramp_mark(&r, 200000, 0));
	// min + 1: p = 1/600000; rnd * 600000 < 2^32 for rnd <= 7158.
	EXPECT_TRUE(phantom_ramp_mark(&r, 200001, 7158));
	EXPECT_FALSE(phantom_ramp_mark(&r, 200001, 7159));
	// Midpoint: p = 1/2, exactly the draws below 2^31.
	EXPECT_TRUE(phantom_ramp_mark(&r, 500000, 0x7fffffff));
	EXPECT_FALSE(phantom_ramp_mark(&r, 500000, 0x80000000));
	// At max p = 1, above max too.
	EXPECT_TRUE(phantom_ramp_mark(&r, 800000, 0xffffffff));
	EXPECT_TRUE(phantom_ramp_mark(&r, 800001, 0xffffffff));
	EXPECT_TRUE(phantom_ramp_mark(&r, 0xffffffff, 0xffffffff));
}

TEST(phantom_ramp, ProbabilityIsLinear)
{
	phantom_ramp r{};

	phantom_ramp_set(&r, 200000, 800000);
	// For q inside the ramp exactly ceil((q - min) * 2^32 / (max - min))
	// of the 2^32 draws mark: p is linear to within 2^-32.
	for (u32 q = 200001; q < 800000; q += 12345) {
		const u64 n = accepted_draws(q - r.min, r.max - r.min);

		ASSERT_GT(n, 0u);
		ASSERT_LT(n, 1ULL << 32);
		EXPECT_TRUE(phantom_ramp_mark(&r, q, static_cast<u32>(n - 1)))
			<< "q=" << q;
		EXPECT_FALSE(phantom_ramp_mark(&r, q, static_cast<u32>(n)))
			<< "q=" << q;
	}
}

TEST(phantom_ramp, StepWhenMinEqualsMax)
{
	phantom_ramp r{};

	phantom_ramp_set(&r, 500000, 500000);
	EXPECT_FALSE(phantom_ramp_mark(&r, 500000, 0));
	EXPECT_TRUE(phantom_ramp_mark(&r, 500001, 0xffffffff));
}

TEST(phantom_ramp, AtTheLimitNeverMarksWithinLimit)
{
	phantom_ramp r{};

	// ecn-min = ecn-max = limit switches the real ramp off: the backlog
	// never exceeds the limit.
	phantom_ramp_set(&r, 1000000, 1000000);
	for (u32 q = 0; q <= 1000000; q += 1000)
		EXPECT_FALSE(phantom_ramp_mark(&r, q, 0));
}

// U11: constant-rate arrivals at 0.85 C for 1 s. Packets of 1700 B every
// 2000 ns are 0.85 B/ns; each leaves when its serialisation at C ends,
// 1700 ns after it arrived, with no backlog behind it. Between two arrivals
// the counter drains 0.9 B/ns * 2000 ns = 1800 B > 1700 B, so it is 1700 B
// right after every arrival and 1700 - 0.9 * 1700 = 170 B at every
// departure: never above one packet, and far below Kmin, so zero marks.
TEST(phantom_u11, BelowDrainRateNeverMarks)
{
	phantom_state st = configured(uno_params());
	Prng rng(11);
	u64 marks = 0;
	u32 highest = 0;

	for (u64 n = 0; n < 500000; n++) {
		const u64 t = n * 2000;

		phantom_arrive(&st, t, 1700);
		ASSERT_EQ(st.pq.bytes, 1700u) << "arrival " << n;
		highest = std::max(highest, st.pq.bytes);
		if (phantom_depart(&st, t + 1700, 0, rng.next()) != PHANTOM_PASS)
			marks++;
		ASSERT_EQ(st.pq.bytes, 170u) << "departure " << n;
		ASSERT_EQ(st.pq.debt, 0u);
	}
	EXPECT_EQ(marks, 0u);
	EXPECT_LE(highest, 1700u);
	EXPECT_EQ(st.pq.peak, 1700u);
	// 1 s of arrivals: the last one at 999998000 ns.
	EXPECT_EQ(st.pq.t_last, 499999ULL * 2000 + 1700);
}

// U12: arrivals at exactly C: 1000 B every 1000 ns. Packet n arrives at
// n us and leaves at (n + 1) us, when its serialisation ends (the departure
// instant of htsim, where the artifact marks). The counter gains 1000 B and
// loses 900 B per us, so right after arrival n it holds 1000 + 100 n and at
// departure n it holds 100 (n + 1) = 0.1 C t: it rises at 0.1 C.
TEST(phantom_u12, RisesAtTenthOfLineRate)
{
	phantom_state st = configured(uno_params());
	Prng rng(12);
	u64 first_above = 0, first_mark = 0;
	double marked = 0, expected = 0, variance = 0;
	u64 n = 0;

	for (;; n++) {
		const u64 t_arr = n * 1000, t_dep = (n + 1) * 1000;
		const u64 at_dep = 100 * (n + 1);

		phantom_arrive(&st, t_arr, 1000);
		if (1000 + 100 * n >= kPqSize)
			break;
		ASSERT_EQ(st.pq.bytes, 1000 + 100 * n) << "arrival " << n;

		const phantom_verdict v = phantom_depart(&st, t_dep, 0,
							 rng.next());
		ASSERT_EQ(st.pq.bytes, at_dep) << "departure " << n;
		ASSERT_EQ(st.pq.debt, 0u);

		// Never at or below Kmin, always above Kmax.
		if (at_dep <= kPqMin) {
			ASSERT_EQ(v, PHANTOM_PASS) << "departure " << n;
		}
		if (at_dep >= kPqMax) {
			ASSERT_EQ(v, PHANTOM_MARK_PHANTOM) << "departure " << n;
		}
		// The backlog is 0: only the phantom ramp can mark.
		ASSERT_NE(v, PHANTOM_MARK_REAL);

		if (at_dep > kPqMin && !first_above)
			first_above = t_dep;
		if (v == PHANTOM_MARK_PHANTOM) {
			marked++;
			if (!first_mark)
				first_mark = t_dep;
		}
		if (at_dep > kPqMin && at_dep < kPqMax) {
			const double p = double(at_dep - kPqMin) /
					 double(kPqMax - kPqMin);
			expected += p;
			variance += p * (1 - p);
		} else if (at_dep >= kPqMax) {
			expected += 1;
		}
	}

	// Kmin / (0.1 C) = 448010 B / 1e8 B/s = 4480.1 us; the first
	// departure that finds more than Kmin is at 4481 us (448100 B), and
	// no mark comes before it.
	EXPECT_EQ(first_above, 4481000u);
	EXPECT_GE(first_mark, first_above);
	EXPECT_GE(first_mark, 4480100u);
	// The marks follow the ramp: within 4 standard deviations of the sum
	// of the per-packet probabilities.
	EXPECT_LT(std::fabs(marked - expected), 4 * std::sqrt(variance));

	// Saturation: the first arrival that would bring it to
	// 1000 + 100 n >= 22400515 is n = 223996; it stops at size exactly,
	// with no debt.
	EXPECT_EQ(n, 223996u);
	EXPECT_EQ(st.pq.bytes, kPqSize);
	EXPECT_EQ(st.pq.debt, 0u);
	EXPECT_EQ(st.pq.peak, kPqSize);
	// Departure 1 us later: 900 B drained.
	EXPECT_EQ(phantom_depart(&st, (n + 1) * 1000, 0, 0),
		  PHANTOM_MARK_PHANTOM);
	EXPECT_EQ(st.pq.bytes, kPqSize - 900);
}

// U12, ramp fidelity: 10^5 draws over 10 occupancies spread evenly inside
// (Kmin, Kmax), 10^4 each. Pearson's statistic
//	sum_k (O_k - N p_k)^2 / (N p_k (1 - p_k))
// follows chi-square with 10 degrees of freedom if the marking probability
// is (q - Kmin) / (Kmax - Kmin); its 99.9 % quantile is 29.588.
TEST(phantom_u12, RampChiSquare)
{
	constexpr int kLevels = 10;
	constexpr int kDraws = 10000;
	Prng rng(0x5eed);
	double chi2 = 0;

	for (int k = 0; k < kLevels; k++) {
		const u32 q = kPqMin + static_cast<u32>(
			(u64(kPqMax - kPqMin) * (2 * k + 1)) / (2 * kLevels));
		const double p = double(q - kPqMin) / double(kPqMax - kPqMin);
		phantom_state st = configured(uno_params());
		int marks = 0;

		// Fill the counter to q and read it at the same instant.
		phantom_arrive(&st, 0, q);
		ASSERT_EQ(st.pq.bytes, q);
		for (int i = 0; i < kDraws; i++) {
			if (phantom_depart(&st, 0, 0, rng.next()) ==
			    PHANTOM_MARK_PHANTOM)
				marks++;
		}
		ASSERT_EQ(st.pq.bytes, q);
		const double e = kDraws * p;
		chi2 += (marks - e) * (marks - e) / (e * (1 - p));
	}
	EXPECT_LT(chi2, 29.588) << "chi2 = " << chi2;
}

TEST(phantom_depart, RealRampWinsAndPhantomAloneCounts)
{
	phantom_state st = configured(uno_params());

	// Real backlog above ecn-max: the real ramp marks, whatever the
	// phantom counter says.
	EXPECT_EQ(phantom_depart(&st, 0, 800001, 0xffffffff),
		  PHANTOM_MARK_REAL);
	// Phantom above its max, real queue empty: a phantom mark.
	phantom_arrive(&st, 0, kPqMax);
	EXPECT_EQ(phantom_depart(&st, 0, 0, 0xffffffff), PHANTOM_MARK_PHANTOM);
	// Both saturated: put down to the real queue.
	EXPECT_EQ(phantom_depart(&st, 0, 900000, 0xffffffff),
		  PHANTOM_MARK_REAL);
	// One draw for both: p = max(p_real, p_phantom). Real at p = 1/2
	// (backlog 500000), phantom at p = 1 marks every draw; draws below
	// 2^31 are put down to the real ramp.
	EXPECT_EQ(phantom_depart(&st, 0, 500000, 0x7fffffff),
		  PHANTOM_MARK_REAL);
	EXPECT_EQ(phantom_depart(&st, 0, 500000, 0x80000000),
		  PHANTOM_MARK_PHANTOM);
}

TEST(phantom_depart, PhantomOffNeverMarks)
{
	phantom_params p = uno_params();

	p.pq_size = 0;
	phantom_state st = configured(p);
	for (int i = 0; i < 1000; i++)
		phantom_arrive(&st, 0, 65535);
	EXPECT_EQ(st.pq.bytes, 0u);
	EXPECT_EQ(st.pq.peak, 0u);
	EXPECT_EQ(phantom_depart(&st, 1, 0, 0), PHANTOM_PASS);
	// The real ramp still works.
	EXPECT_EQ(phantom_depart(&st, 1, 800001, 0), PHANTOM_MARK_REAL);
}

// Where phantom_depart_draws() says no draw is needed, the verdict does not
// depend on the draw; where it says one is, the verdict for the smallest and
// the largest draw differ.
TEST(phantom_depart, DrawsOnlyInsideARamp)
{
	const u32 backlogs[] = {0, 200000, 200001, 500000, 799999, 800000, 1000000};
	const u32 levels[] = {0, kPqMin, kPqMin + 1, 5000000, kPqMax - 1, kPqMax,
			      kPqSize};

	for (u32 level : levels) {
		for (u32 backlog : backlogs) {
			phantom_state st = configured(uno_params());

			phantom_arrive(&st, 0, level);
			bool draws = phantom_depart_draws(&st, 0, backlog);
			phantom_state a = st, b = st;
			auto lo = phantom_depart(&a, 0, backlog, 0);
			auto hi = phantom_depart(&b, 0, backlog, 0xffffffff);
			bool ecn_in = backlog > 200000 && backlog < 800000;
			bool pq_in = level > kPqMin && level < kPqMax;

			// A saturated real ramp marks whatever the draw.
			EXPECT_EQ(draws, backlog < 800000 && (ecn_in || pq_in))
				<< level << " " << backlog;
			if (!draws)
				EXPECT_EQ(lo, hi) << level << " " << backlog;
			else
				EXPECT_NE(lo, hi) << level << " " << backlog;
		}
	}
}

// The drain carries fractions of a byte: 1 B/s read every 0.3 s takes off
// nothing until 1 s has passed, then exactly one byte.
TEST(phantom_pq, FractionalDrainIsExact)
{
	phantom_pq pq{};

	phantom_pq_config(&pq, 1, 100, 0);
	phantom_pq_arrive(&pq, 0, 10);
	phantom_pq_drain(&pq, 300000000);
	EXPECT_EQ(pq.bytes, 10u);
	EXPECT_EQ(pq.debt, 300000000u);
	phantom_pq_drain(&pq, 600000000);
	phantom_pq_drain(&pq, 900000000);
	EXPECT_EQ(pq.bytes, 10u);
	EXPECT_EQ(pq.debt, 900000000u);
	// level() looks ahead without changing anything.
	EXPECT_EQ(phantom_pq_level(&pq, kNsec), 9u);
	EXPECT_EQ(pq.bytes, 10u);
	EXPECT_EQ(pq.t_last, 900000000u);
	phantom_pq_drain(&pq, kNsec);
	EXPECT_EQ(pq.bytes, 9u);
	EXPECT_EQ(pq.debt, 0u);
}

// How often the counter is read does not change its level.
TEST(phantom_pq, LevelIndependentOfUpdateFrequency)
{
	phantom_pq often{}, once{};

	phantom_pq_config(&often, 123456789, 1 << 30, 0);
	phantom_pq_config(&once, 123456789, 1 << 30, 0);
	phantom_pq_arrive(&often, 0, 1 << 29);
	phantom_pq_arrive(&once, 0, 1 << 29);
	for (u64 t = 7; t <= 1000000007; t += 997)
		phantom_pq_drain(&often, t);
	phantom_pq_drain(&once, 1000000007 - (1000000007 - 7) % 997);
	EXPECT_EQ(often.bytes, once.bytes);
	EXPECT_EQ(often.debt, once.debt);
	// 123456789 B/s over 999999980 ns (7 ns plus the last multiple of
	// 997 ns): floor(123456789 * 0.99999998) = 123456786 B.
	EXPECT_EQ(once.bytes, (1u << 29) - 123456786u);
}

TEST(phantom_pq, RateZeroNeverDrainsNorDivides)
{
	phantom_pq pq{};

	phantom_pq_config(&pq, 0, 1000, 0);
	EXPECT_EQ(pq.empty_ns, ~0ULL);
	phantom_pq_arrive(&pq, 0, 500);
	phantom_pq_drain(&pq, 1000ULL * kNsec);
	EXPECT_EQ(pq.bytes, 500u);
	EXPECT_EQ(pq.t_last, 1000ULL * kNsec);

	// Through the whole configuration too: rate 0 gives a zero drain rate.
	phantom_params p = uno_params();
	p.rate = 0;
	phantom_state st = configured(p);
	phantom_arrive(&st, 0, 1000);
	EXPECT_EQ(phantom_depart(&st, 5 * kNsec, 0, 0), PHANTOM_PASS);
	EXPECT_EQ(st.pq.bytes, 1000u);
}

TEST(phantom_pq, TimeGoingBackwardsIsIgnored)
{
	phantom_pq pq{};

	phantom_pq_config(&pq, kNsec, 1 << 20, 0);	// 1 B/ns
	phantom_pq_arrive(&pq, 1000000, 1000);
	// An older time stamp drains nothing and keeps the newer one...
	phantom_pq_drain(&pq, 500000);
	EXPECT_EQ(pq.bytes, 1000u);
	EXPECT_EQ(pq.t_last, 1000000u);
	phantom_pq_arrive(&pq, 999000, 24);
	EXPECT_EQ(pq.bytes, 1024u);
	EXPECT_EQ(pq.t_last, 1000000u);
	// ...so time is counted once, from the newest stamp: 1000 ns, 1000 B.
	phantom_pq_drain(&pq, 1001000);
	EXPECT_EQ(pq.bytes, 24u);
}

TEST(phantom_pq, ClockWrapIsForward)
{
	phantom_pq pq{};
	const u64 before = std::numeric_limits<u64>::max() - 499;

	phantom_pq_config(&pq, kNsec, 1 << 20, before);	// 1 B/ns
	phantom_pq_arrive(&pq, before, 5000);
	// 2^64 - 500 -> 500 is 1000 ns later.
	phantom_pq_drain(&pq, 500);
	EXPECT_EQ(pq.bytes, 4000u);
	EXPECT_EQ(pq.t_last, 500u);
}

TEST(phantom_pq, SaturatesAtSize)
{
	phantom_pq pq{};

	phantom_pq_config(&pq, 1000, 10000, 0);	// 1 B/ms
	phantom_pq_arrive(&pq, 0, 9000);
	phantom_pq_drain(&pq, 500000);		// 0.5 B drained: debt
	EXPECT_EQ(pq.debt, 500000000u);
	phantom_pq_arrive(&pq, 500000, 4000);
	EXPECT_EQ(pq.bytes, 10000u);
	EXPECT_EQ(pq.debt, 0u);
	phantom_pq_arrive(&pq, 500000, 0xffffffff);	// no u32 overflow
	EXPECT_EQ(pq.bytes, 10000u);
	EXPECT_EQ(pq.peak, 10000u);
}

TEST(phantom_pq, LongGapsEmptyWithoutOverflow)
{
	phantom_pq pq{};

	phantom_pq_config(&pq, PHANTOM_RATE_MAX, 0xffffffff, 0);
	// ceil((2^32 - 1) * 1e9 / 1e13) = ceil(429496.7295) ns
	EXPECT_EQ(pq.empty_ns, 429497u);
	phantom_pq_arrive(&pq, 0, 0xffffffff);
	// Just short of empty_ns: dt * rate = 429496 * 1e13 = 4.29496e18,
	// i.e. 4294960000 B of 4294967295 B: 7295 B are left.
	phantom_pq_drain(&pq, 429496);
	EXPECT_EQ(pq.bytes, 7295u);
	EXPECT_EQ(pq.debt, 0u);
	// A gap of 2^62 ns empties it.
	phantom_pq_arrive(&pq, 429496, 1000);
	phantom_pq_drain(&pq, 429496 + (1ULL << 62));
	EXPECT_EQ(pq.bytes, 0u);
	EXPECT_EQ(pq.debt, 0u);
}

TEST(phantom_pq, RateAboveMaxIsClamped)
{
	phantom_pq pq{};

	phantom_pq_config(&pq, std::numeric_limits<u64>::max(), 1000, 0);
	EXPECT_EQ(pq.rate, PHANTOM_RATE_MAX);
	// ceil(1000 * 1e9 / 1e13) = ceil(0.1) = 1 ns
	EXPECT_EQ(pq.empty_ns, 1u);
}

TEST(phantom_pq, ReconfigureKeepsLevel)
{
	phantom_pq pq{};

	phantom_pq_config(&pq, kNsec, 100000, 0);	// 1 B/ns
	phantom_pq_arrive(&pq, 0, 50000);
	// At 10 us: 10000 B drained at the old rate, then 0.5 B/ns.
	phantom_pq_config(&pq, kNsec / 2, 100000, 10000);
	EXPECT_EQ(pq.bytes, 40000u);
	phantom_pq_drain(&pq, 20000);
	EXPECT_EQ(pq.bytes, 35000u);
	// Shrinking the size cuts the counter, the peak is history.
	phantom_pq_config(&pq, kNsec / 2, 30000, 20000);
	EXPECT_EQ(pq.bytes, 30000u);
	EXPECT_EQ(pq.peak, 50000u);
	// Size 0 turns it off.
	phantom_pq_config(&pq, kNsec / 2, 0, 20000);
	EXPECT_EQ(pq.bytes, 0u);
	phantom_pq_arrive(&pq, 20000, 1000);
	EXPECT_EQ(pq.bytes, 0u);
}

TEST(phantom_pq, FlushEmpties)
{
	phantom_pq pq{};

	phantom_pq_config(&pq, 1, 1000, 0);
	phantom_pq_arrive(&pq, 0, 700);
	phantom_pq_drain(&pq, 500000000);
	phantom_pq_flush(&pq, 600000000);
	EXPECT_EQ(pq.bytes, 0u);
	EXPECT_EQ(pq.debt, 0u);
	EXPECT_EQ(pq.t_last, 600000000u);
	EXPECT_EQ(pq.peak, 700u);
}

// The shaper's bucket: 1000 ns deep, packets of 400 ns of link time.
TEST(phantom_bucket, SendsWhatTheBucketHoldsThenWaits)
{
	phantom_bucket b{};

	phantom_bucket_set(&b, 1000, 5000, true);
	EXPECT_EQ(phantom_bucket_send(&b, 5000, 400, true), 0u);	// 1000 - 400
	EXPECT_EQ(phantom_bucket_send(&b, 5000, 400, true), 0u);	// 600 - 400
	EXPECT_EQ(b.tokens, 200);
	EXPECT_EQ(phantom_bucket_send(&b, 5000, 400, true), 200u);	// 400 - 200
	EXPECT_EQ(phantom_bucket_send(&b, 5150, 400, true), 50u);	// 400 - 350
	EXPECT_EQ(phantom_bucket_send(&b, 5200, 400, false), 0u);
	EXPECT_EQ(b.tokens, 0);
	EXPECT_EQ(b.t_c, 5200u);
	EXPECT_EQ(b.stall_ns, 0u);
}

// Overflow while a packet waits is lost link time; while idle, it is not.
TEST(phantom_bucket, CountsOverflowOnlyWhileBacklogged)
{
	phantom_bucket b{};

	phantom_bucket_set(&b, 1000, 0, true);
	EXPECT_EQ(phantom_bucket_send(&b, 0, 400, true), 0u);	// tokens 600
	// The next packet waited from 0 on; the bucket was full at 400 and
	// overflowed for 2600 ns: 3000 + 600 - 1000.
	EXPECT_EQ(phantom_bucket_send(&b, 3000, 400, false), 0u);
	EXPECT_EQ(b.stall_ns, 2600u);
	EXPECT_EQ(b.tokens, 600);
	EXPECT_EQ(b.idle_ns, 0u);
	// Nothing waited after it: 10 us of link left unused, 9600 ns beyond
	// the bucket (10000 + 600 - 1000), are idle, not stalled.
	EXPECT_EQ(phantom_bucket_send(&b, 13000, 400, true), 0u);
	EXPECT_EQ(b.stall_ns, 2600u);
	EXPECT_EQ(b.idle_ns, 9600u);
	// A wait the bucket still covers loses nothing either: 600 + 300.
	EXPECT_EQ(phantom_bucket_send(&b, 13300, 400, true), 0u);
	EXPECT_EQ(b.stall_ns, 2600u);
	EXPECT_EQ(b.tokens, 500);
	// 500 + 700 - 1000 = 200 more.
	EXPECT_EQ(phantom_bucket_send(&b, 14000, 400, true), 0u);
	EXPECT_EQ(b.stall_ns, 2800u);
	EXPECT_EQ(b.idle_ns, 9600u);
}

// A packet longer than the bucket leaves when it is full, and its debt is
// paid off by link time before anything overflows.
TEST(phantom_bucket, LongPacketLeavesOnAFullBucket)
{
	phantom_bucket b{};

	phantom_bucket_set(&b, 1000, 0, true);
	EXPECT_EQ(phantom_bucket_send(&b, 0, 1500, true), 0u);
	EXPECT_EQ(b.tokens, -500);
	EXPECT_EQ(phantom_bucket_send(&b, 0, 400, true), 900u);	// 400 + 500
	EXPECT_EQ(phantom_bucket_send(&b, 1400, 400, true), 0u);	// 1400 - 500
	EXPECT_EQ(b.tokens, 500);
	// 500 + 2000 - 1000: the debt was paid, the rest overflowed.
	EXPECT_EQ(phantom_bucket_send(&b, 3400, 400, true), 0u);
	EXPECT_EQ(b.stall_ns, 1500u);
}

// Resizing keeps what fits and counts no cut as a stall; a reset fills.
TEST(phantom_bucket, ResizeAndReset)
{
	phantom_bucket b{};

	phantom_bucket_set(&b, 1000, 0, true);
	EXPECT_EQ(phantom_bucket_send(&b, 0, 100, true), 0u);	// tokens 900
	phantom_bucket_set(&b, 500, 0, false);
	EXPECT_EQ(b.tokens, 500);
	EXPECT_FALSE(b.backlogged);
	EXPECT_EQ(phantom_bucket_send(&b, 2000, 100, true), 0u);
	EXPECT_EQ(b.stall_ns, 0u);
	EXPECT_EQ(b.idle_ns, 2000u);				// 2000 + 500 - 500
	EXPECT_EQ(b.tokens, 400);
	phantom_bucket_set(&b, 2000, 2000, false);
	EXPECT_EQ(b.tokens, 400);				// a deeper bucket does not fill
	phantom_bucket_reset(&b, 7000);
	EXPECT_EQ(b.tokens, 2000);
	EXPECT_EQ(b.t_c, 7000u);
	EXPECT_EQ(b.depth, 2000);
}

// The time the port held nothing: from the last departure to the next
// arrival, and up to a reading while it still holds nothing.
TEST(phantom_empty, CountsFromLastDepartureToNextArrival)
{
	phantom_empty e{};

	phantom_empty_begin(&e, 1000);		// created empty at 1000
	EXPECT_EQ(phantom_empty_ns(&e, 1500), 500u);
	phantom_empty_end(&e, 4000);		// the first packet
	EXPECT_EQ(e.ns, 3000u);
	phantom_empty_end(&e, 4100);		// a second: still busy
	EXPECT_EQ(phantom_empty_ns(&e, 9000), 3000u);
	phantom_empty_begin(&e, 9000);		// the last one left
	phantom_empty_begin(&e, 9500);		// a reset: empty since 9000
	EXPECT_EQ(phantom_empty_ns(&e, 10000), 4000u);
	phantom_empty_end(&e, 12000);
	EXPECT_EQ(phantom_empty_ns(&e, 20000), 6000u);
	// Half of [1000, 13000] was empty, 6000 ns: the median backlog is 0.
}

// A clock read on another CPU may lag the departure it follows: no time
// is counted backwards, nor does the counter wrap.
TEST(phantom_empty, TimeGoingBackwardsCountsNothing)
{
	phantom_empty e{};

	phantom_empty_begin(&e, 5000);
	EXPECT_EQ(phantom_empty_ns(&e, 4000), 0u);
	phantom_empty_end(&e, 4990);
	EXPECT_EQ(e.ns, 0u);
	EXPECT_FALSE(e.empty);
}

// Virtual PFC: X_off 10000, MTU 1500, so X_on 7000. The backlog after
// each enqueue or dequeue; a pause when it rises above X_off, none again
// until it has fallen to X_on.
TEST(phantom_xoff, CountsUpwardCrossingsWithHysteresis)
{
	phantom_xoff x{};
	phantom_xoff_set(&x, 10000, 1500);
	EXPECT_EQ(x.xon, 7000u);

	const struct {
		uint32_t backlog;
		bool pause;
	} trace[] = {
		{ 8500, false },  { 10000, false }, // at X_off: not above
		{ 11500, true },			     // above: pauses
		{ 13000, false }, { 10000, false }, // still paused
		{ 11500, false },			     // back above, not resumed
		{ 8500, false },  { 7001, false },  // above X_on: paused
		{ 7000, false },			     // X_on: resumes
		{ 10000, false }, { 10001, true },  // the second pause
		{ 0, false },	  { 20000, true },  // the third
	};
	for (const auto &t : trace)
		EXPECT_EQ(phantom_xoff_update(&x, t.backlog), t.pause) << t.backlog;
	EXPECT_EQ(x.events, 3u);
}

TEST(phantom_xoff, OffCountsNothingAndTurningOffResumes)
{
	phantom_xoff x{};
	phantom_xoff_set(&x, 0, 1500);
	EXPECT_FALSE(phantom_xoff_update(&x, 1u << 30));
	EXPECT_EQ(x.events, 0u);

	// X_off under two packets: X_on 0, a pause lasts until the port is empty
	phantom_xoff_set(&x, 2000, 1500);
	EXPECT_EQ(x.xon, 0u);
	EXPECT_TRUE(phantom_xoff_update(&x, 3000));
	EXPECT_FALSE(phantom_xoff_update(&x, 1500));
	EXPECT_FALSE(phantom_xoff_update(&x, 3000));
	EXPECT_TRUE(x.paused);

	// A new X_off keeps a pause under way; turning it off ends it.
	phantom_xoff_set(&x, 5000, 1500);
	EXPECT_TRUE(x.paused);
	phantom_xoff_set(&x, 0, 1500);
	EXPECT_FALSE(x.paused);
	EXPECT_EQ(x.events, 1u);
}

} // namespace
