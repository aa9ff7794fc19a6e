// SPDX-License-Identifier: GPL-2.0
//
// Unit tests of HPCC's rate law on INT hop records, kernel/core/hpcc_core.h
// (MLCC spec Sec. 3.2 and its test T0(c), T8(e)). Every expected value is
// worked out by hand in the law's own fixed point in the comment next to
// it: rates bytes/s, times ns, INT counters in 64-byte and 64-ns units,
// U and eta Q16.16 (65536 = 1.0); every division floors.
//
// Reference setup: a 25 Gbit/s host (R_line = 3.125e9 B/s), so R_AI =
// R_line / 320 = 9765625 B/s (78.125 Mbit/s) and R_min = R_line / 250 =
// 12.5e6 B/s (100 Mbit/s), the spec's numbers; one 25 Gbit/s port; a loop
// of T = 25.6 us (400 ts units), whose BDP is 80000 B (1250 units).

#include <gtest/gtest.h>

#include <cstdint>

#include "hpcc_core.h"

namespace {

constexpr u64 kLine = 3125000000ULL;	// 25 Gbit/s in bytes/s
constexpr u64 kAi = 9765625ULL;
constexpr u64 kMin = 12500000ULL;
constexpr u32 kT = 25600;		// ns

hpcc_params Params()
{
	hpcc_params p;

	hpcc_params_default(&p, kLine);
	return p;
}

hpcc_hop Hop(u32 qlen, u32 tx, u32 ts, u64 rate = kLine)
{
	hpcc_hop h{};

	h.rate = rate;
	h.qlen = qlen;
	h.tx = tx;
	h.ts = ts;
	return h;
}

// A state primed with one hop at (qlen 625, tx 0, ts 1000), at host time 0.
hpcc_state Primed(const hpcc_params &p)
{
	hpcc_state s;
	hpcc_hop h = Hop(625, 0, 1000);

	hpcc_init(&s, &p, kLine);
	EXPECT_EQ(hpcc_measure(&s, &h, 1, kT, 0), HPCC_PRIMED);
	return s;
}

TEST(Hpcc, DefaultsAreTheSpecs)
{
	hpcc_params p = Params();

	EXPECT_EQ(p.r_ai, kAi);		// 78.125 Mbit/s
	EXPECT_EQ(p.r_min, kMin);	// 100 Mbit/s
	EXPECT_EQ(p.r_max, kLine);
	EXPECT_EQ(p.eta, 62259U);	// floor(0.95 x 65536)
	EXPECT_EQ(p.max_stage, 5U);
	EXPECT_TRUE(hpcc_params_valid(&p));
}

// R_min is R_line / 250 down to the rate at which two 1500-byte
// segments fit in half the ts counter's wrap: 3000 B x 10^9 / 33554432 ns
// = 89406.96, 89407 B/s. 50 Mbit/s (6.25e6 B/s): / 250 = 25000, raised
// to 89407; a line below the floor (62500 B/s) keeps / 250, 250.
TEST(Hpcc, RMinIsTheLawsOrWhatItCanMeasure)
{
	EXPECT_EQ(hpcc_r_min(kLine), kMin);
	EXPECT_EQ(hpcc_r_min(6250000), 89407U);
	EXPECT_EQ(hpcc_r_min(62500), 250U);
	EXPECT_LE(3000ULL * 1000000000ULL / HPCC_MEASURABLE_RATE,
		  HPCC_INT_HALF_WRAP_NS);
}

// At the floor a 50 Mbit/s port's records come 1500 B / 89407 B/s =
// 16.777 ms apart (262144 ts units; 16.78e6 ns of host time), and the
// law measures; at R_line / 250 (25000 B/s) 60 ms apart, past half the
// wrap (33.55 ms), and each only re-primes: the rate could never rise.
// The second interval: 23 units (1472 B) in 262144 units at 6.25e6
// B/s, u = 1472 x 10^9 / 16777216 = 87738 B/s, x 65536 / 6.25e6 = 919;
// tau = 16777216 > T, so U = 919.
TEST(Hpcc, AFlowAtRMinStillMeasures)
{
	hpcc_state s = {};
	hpcc_hop h = Hop(0, 0, 1000, 6250000);
	u64 now = 0;

	EXPECT_EQ(hpcc_measure(&s, &h, 1, kT, now), HPCC_PRIMED);
	h.tx += 23;
	h.ts += 262144;
	now += 16777216;
	EXPECT_EQ(hpcc_measure(&s, &h, 1, kT, now), HPCC_MEASURED);
	EXPECT_EQ(s.u, 919U);
	h.tx += 23;
	h.ts = (h.ts + 937500) & HPCC_INT_MASK;
	now += 60000000;
	EXPECT_EQ(hpcc_measure(&s, &h, 1, kT, now), HPCC_PRIMED);
}

TEST(Hpcc, RejectsBadParams)
{
	hpcc_params p = Params();

	p.r_min = 0;
	EXPECT_FALSE(hpcc_params_valid(&p));
	p = Params();
	p.r_min = p.r_max + 1;
	EXPECT_FALSE(hpcc_params_valid(&p));
	p = Params();
	p.eta = 0;
	EXPECT_FALSE(hpcc_params_valid(&p));
	p.eta = HPCC_ONE + 1;
	EXPECT_FALSE(hpcc_params_valid(&p));
	p = Params();
	p.r_max = HPCC_RATE_MAX + 1;
	EXPECT_FALSE(hpcc_params_valid(&p));
}

TEST(Hpcc, FirstRecordsOnlyPrime)
{
	hpcc_params p = Params();
	hpcc_state s = Primed(p);

	EXPECT_EQ(s.u, 0U);
	EXPECT_EQ(s.nprev, 1U);
	EXPECT_EQ(s.rc, kLine);
}

// 12.8 us later (200 units) the port has sent 40000 B (625 units): it ran
// at line rate, u_tx = 1.0; it held min(625, 1250) = 625 units = 40000 B,
// half a BDP, u_q = 0.5. U = (0 x (25600 - 12800) + 98304 x 12800) /
// 25600 = 49152 (0.75).
TEST(Hpcc, MeasuresLineRateAndStandingQueue)
{
	hpcc_params p = Params();
	hpcc_state s = Primed(p);
	hpcc_hop h = Hop(1250, 625, 1200);

	EXPECT_EQ(hpcc_measure(&s, &h, 1, kT, 12800), HPCC_MEASURED);
	EXPECT_EQ(s.u, 49152U);
	EXPECT_EQ(s.prev[0].ts, 1200U);
	// Another 12.8 us at half the rate (312.5 units: 312), the queue
	// empty now: u_tx = 312 x 64 x 1e9 / 12800 = 1.56e9 B/s, << 16 /
	// 3.125e9 = 32715; u_q = 0. U = (49152 x 12800 + 32715 x 12800) /
	// 25600 = 40933.
	h = Hop(0, 937, 1400);
	EXPECT_EQ(hpcc_measure(&s, &h, 1, kT, 25600), HPCC_MEASURED);
	EXPECT_EQ(s.u, 40933U);
}

// The most loaded hop sets both u and tau: hop 0 as above (u 98304, tau
// 12800), hop 1 idle (tx unchanged, empty) over 25.6 us. U = 49152. Then
// hop 1's stamp again (no interval) beside hop 0 at the line with a BDP
// queued (u 131072, tau 12800): one hop with an interval measures, U =
// (49152 + 131072) / 2 = 90112.
TEST(Hpcc, TheMostLoadedHopCounts)
{
	hpcc_params p = Params();
	hpcc_state s;
	hpcc_hop first[2] = { Hop(625, 0, 1000), Hop(0, 50, 7000) };
	hpcc_hop next[2] = { Hop(1250, 625, 1200), Hop(0, 50, 7400) };
	hpcc_hop third[2] = { Hop(1250, 1250, 1400), Hop(0, 50, 7400) };

	hpcc_init(&s, &p, kLine);
	EXPECT_EQ(hpcc_measure(&s, first, 2, kT, 0), HPCC_PRIMED);
	EXPECT_EQ(hpcc_measure(&s, next, 2, kT, 12800), HPCC_MEASURED);
	EXPECT_EQ(s.u, 49152U);
	EXPECT_EQ(hpcc_measure(&s, third, 2, kT, 25600), HPCC_MEASURED);
	EXPECT_EQ(s.u, 90112U);
}

// The counters wrap at 2^20: tx from 2^20 - 100 to 525 is 625 units, ts
// from 2^20 - 50 to 150 is 200. Same sample as the unwrapped one.
TEST(Hpcc, CountersWrap)
{
	hpcc_params p = Params();
	hpcc_state s;
	hpcc_hop h = Hop(625, HPCC_INT_MASK + 1 - 100, HPCC_INT_MASK + 1 - 50);

	hpcc_init(&s, &p, kLine);
	EXPECT_EQ(hpcc_measure(&s, &h, 1, kT, 0), HPCC_PRIMED);
	h = Hop(1250, 525, 150);
	EXPECT_EQ(hpcc_measure(&s, &h, 1, kT, 12800), HPCC_MEASURED);
	EXPECT_EQ(s.u, 49152U);
}

// A gap longer than T weighs the sample fully: tau capped at T. 51.2 us
// (800 units) at line rate (2500 units sent), no queue: U = 65536.
TEST(Hpcc, AGapLongerThanTReplacesU)
{
	hpcc_params p = Params();
	hpcc_state s;
	hpcc_hop h = Hop(0, 0, 1000);

	hpcc_init(&s, &p, kLine);
	s.u = 12345;
	hpcc_measure(&s, &h, 1, kT, 0);
	h = Hop(0, 2500, 1800);
	hpcc_measure(&s, &h, 1, kT, 51200);
	EXPECT_EQ(s.u, 65536U);
}

// A stamp equal to the last, or behind it, has no interval: stale, U
// unchanged.
TEST(Hpcc, UnorderedRecordsLeaveU)
{
	hpcc_params p = Params();
	hpcc_state s = Primed(p);
	hpcc_hop same = Hop(9999, 600, 1000);
	hpcc_hop behind = Hop(9999, 600, 900);

	s.u = 30000;
	EXPECT_EQ(hpcc_measure(&s, &same, 1, kT, 100), HPCC_STALE);
	EXPECT_EQ(s.u, 30000U);
	EXPECT_EQ(hpcc_measure(&s, &behind, 1, kT, 200), HPCC_STALE);
	EXPECT_EQ(s.u, 30000U);
}

// T8(e): a flow back after half a wrap of silence (33.5 ms) or on a path
// of another hop count re-primes; no spike from a stale record (whose ts
// difference would read as a short, busy interval).
TEST(Hpcc, IdleOrNewPathReprimes)
{
	hpcc_params p = Params();
	hpcc_state s = Primed(p);
	hpcc_hop h = Hop(1250, 625 + 40000, 1200);
	hpcc_hop two[2] = { Hop(0, 0, 1400), Hop(0, 0, 1400) };

	EXPECT_EQ(hpcc_measure(&s, &h, 1, kT, HPCC_INT_HALF_WRAP_NS),
		  HPCC_PRIMED);
	EXPECT_EQ(s.u, 0U);
	EXPECT_EQ(hpcc_measure(&s, two, 2, kT, HPCC_INT_HALF_WRAP_NS + 1000),
		  HPCC_PRIMED);
	EXPECT_EQ(s.nprev, 2U);
	EXPECT_EQ(s.u, 0U);
}

// A hop whose rate is unknown (0) tells nothing.
TEST(Hpcc, UnknownRateIsSkipped)
{
	hpcc_params p = Params();
	hpcc_state s;
	hpcc_hop h = Hop(625, 0, 1000, 0);

	hpcc_init(&s, &p, kLine);
	EXPECT_EQ(hpcc_measure(&s, &h, 1, kT, 0), HPCC_PRIMED);
	h = Hop(1250, 625, 1200, 0);
	hpcc_measure(&s, &h, 1, kT, 12800);
	EXPECT_EQ(s.u, 0U);
}

// A 100 Gbit/s port sends the tx counter's 64 MB in 5.4 ms: over 6 ms
// (93750 units) its counter may have wrapped, so the hop tells nothing;
// over 5 ms (78125 units) it is measured: 40 MB sent (625000 units) is
// 0.64 of the line, U = 0.64 x 65536 = 41943 (tau capped at T).
TEST(Hpcc, AnIntervalThatCouldHoldATxWrapIsSkipped)
{
	hpcc_params p = Params();
	hpcc_state s;
	hpcc_hop h = Hop(0, 0, 1000, 12500000000ULL);

	hpcc_init(&s, &p, kLine);
	s.u = 30000;
	hpcc_measure(&s, &h, 1, kT, 0);
	h = Hop(0, 625000 & HPCC_INT_MASK, 1000 + 93750, 12500000000ULL);
	EXPECT_EQ(hpcc_measure(&s, &h, 1, kT, 6000000), HPCC_STALE);
	EXPECT_EQ(s.u, 30000U);
	h.tx = (h.tx + 625000) & HPCC_INT_MASK;
	h.ts += 78125;
	EXPECT_EQ(hpcc_measure(&s, &h, 1, kT, 11000000), HPCC_MEASURED);
	EXPECT_EQ(s.u, 41943U);
}

// A loop of T 0 only primes: nothing divides by it.
TEST(Hpcc, NoLoopTimeOnlyPrimes)
{
	hpcc_params p = Params();
	hpcc_state s = Primed(p);
	hpcc_hop h = Hop(1250, 625, 1200);

	EXPECT_EQ(hpcc_measure(&s, &h, 1, 0, 12800), HPCC_PRIMED);
	EXPECT_EQ(s.u, 0U);
}

// A burst far beyond the line (2^20 - 1 units in 64 ns) is capped at 64.0
// per term: u = 64 + 64 with the queue's, U = that x 64 / 25600.
TEST(Hpcc, UtilisationIsCapped)
{
	hpcc_params p = Params();
	hpcc_state s;
	hpcc_hop h = Hop(HPCC_INT_MASK, 0, 1000);

	hpcc_init(&s, &p, kLine);
	hpcc_measure(&s, &h, 1, kT, 0);
	h = Hop(HPCC_INT_MASK, HPCC_INT_MASK, 1001);
	hpcc_measure(&s, &h, 1, kT, 64);
	EXPECT_EQ(s.u, (u32)((u64)2 * HPCC_U_MAX * 64 / kT));
}

// T0(c): with U = 2 eta the next rate is Rc / 2 + R_AI.
TEST(Hpcc, MultiplicativeDecreaseAtTwiceEta)
{
	hpcc_params p = Params();
	hpcc_state s;

	hpcc_init(&s, &p, kLine);
	s.u = 2 * p.eta;
	EXPECT_EQ(hpcc_rate(&s, &p, true), kLine / 2 + kAi);
	EXPECT_EQ(s.rc, kLine / 2 + kAi);
	EXPECT_EQ(s.inc_stage, 0U);
}

// T0(c): with U < eta and fewer than 5 stages, Rc + R_AI; the sixth
// round in a row is multiplicative: Rc x eta / U + R_AI.
TEST(Hpcc, AdditiveThenMultiplicativeIncrease)
{
	hpcc_params p = Params();
	hpcc_state s;
	u64 rc = kLine / 4;	// 781250000
	int i;

	hpcc_init(&s, &p, rc);
	s.u = HPCC_ONE / 2;
	for (i = 1; i <= 5; i++) {
		EXPECT_EQ(hpcc_rate(&s, &p, true), rc + i * kAi);
		EXPECT_EQ(s.inc_stage, (u32)i);
	}
	// Rc = 781250000 + 5 x 9765625 = 830078125; x 62259 / 32768 =
	// 1577143371.9..., floor 1577143371 (1.89999 Rc), + R_AI.
	EXPECT_EQ(hpcc_rate(&s, &p, true), 1577143371ULL + kAi);
	EXPECT_EQ(s.inc_stage, 0U);
}

// Without a commit the rate follows, the reference and stage stay.
TEST(Hpcc, OnlyACommitMovesTheReference)
{
	hpcc_params p = Params();
	hpcc_state s;

	hpcc_init(&s, &p, kLine / 2);
	s.u = HPCC_ONE / 2;
	EXPECT_EQ(hpcc_rate(&s, &p, false), kLine / 2 + kAi);
	EXPECT_EQ(s.r, kLine / 2 + kAi);
	EXPECT_EQ(s.rc, kLine / 2);
	EXPECT_EQ(s.inc_stage, 0U);
}

// The rate stays in [R_min, R_max]: a full line that keeps increasing,
// and U at 64 x eta (Rc / 64 + R_AI under R_min for a small Rc).
TEST(Hpcc, RateIsClamped)
{
	hpcc_params p = Params();
	hpcc_state s;

	hpcc_init(&s, &p, kLine);
	EXPECT_EQ(hpcc_rate(&s, &p, true), kLine);
	hpcc_init(&s, &p, kMin);
	s.u = 64 * p.eta;
	EXPECT_EQ(hpcc_rate(&s, &p, true), kMin);
	hpcc_init(&s, &p, 1);
	EXPECT_EQ(s.rc, kMin);
	hpcc_init(&s, &p, ~0ULL);
	EXPECT_EQ(s.rc, kLine);
}

// The wire's record (spec 3.8): 64 KB queued (1000 units), 1 MB sent
// (15625 units), at 1 ms (15625 units), on a 50 Mbit/s port (our code 15).
// The counters keep their low 20 bits; a queue beyond 2^20 units reads
// as full.
TEST(Hpcc, RecordOnTheWire)
{
	hpcc_hop h;
	u64 w = hpcc_hop_wire(64000, 1000000, 1000000, 15);

	EXPECT_EQ(w, 1000ULL << 44 | 15625ULL << 24 | 15625ULL << 4 | 15);
	hpcc_hop_unwire(w, &h);
	EXPECT_EQ(h.qlen, 1000U);
	EXPECT_EQ(h.tx, 15625U);
	EXPECT_EQ(h.ts, 15625U);
	EXPECT_EQ(h.rate, 6250000ULL);
	hpcc_hop_unwire(hpcc_hop_wire(1ULL << 40, (1ULL << 26) + 64, (1ULL << 26) + 128, 0),
			&h);
	EXPECT_EQ(h.qlen, HPCC_INT_MASK);
	EXPECT_EQ(h.tx, 1U);
	EXPECT_EQ(h.ts, 2U);
	EXPECT_EQ(h.rate, 12500000ULL);
}

// Each code's rate maps back to it; a rate without one has none.
TEST(Hpcc, RateCodes)
{
	u32 c;

	for (c = 0; c < HPCC_BCODES; c++)
		EXPECT_EQ(hpcc_rate_bcode(hpcc_bcode_rates[c]), c);
	EXPECT_EQ(hpcc_rate_bcode(3125000000ULL), 7U);		// 25 Gbit/s
	EXPECT_EQ(hpcc_rate_bcode(25000000ULL), HPCC_BCODES);	// 200 Mbit/s
	EXPECT_EQ(hpcc_rate_bcode(0), HPCC_BCODES);
}

} // namespace
