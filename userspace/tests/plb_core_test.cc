// SPDX-License-Identifier: GPL-2.0
//
// Unit tests of the PLB law, kernel/core/plb_core.h (ARCANE spec Sec. 2.8;
// Linux 6.2's net/ipv4/tcp_plb.c): deterministic traces of rounds of ACKs
// with exact expected EVs, counts and rehashes.
//
// Reference setup unless a test says otherwise: 256 EVs, rounds of 4 ACKs,
// the Linux defaults (cong_thresh 128/256, idle_rehash_rounds 3,
// rehash_rounds 12), the flow's first EV 1. Draws are chosen so that an EV
// is easy to read: Ev(k) = k << 24 maps to EV k (k x 256 / 2^32).

#include <gtest/gtest.h>

#include <cstdint>

#include "plb_core.h"

static_assert(sizeof(struct plb_flow) <= 20, "per-flow state must stay small");

namespace {

constexpr u32 kNumEv = 256;
constexpr u32 kRound = 4;

// The draw plb_on_ack() maps to EV k of 256.
constexpr u32 Ev(u32 k)
{
	return k << 24;
}

plb_params Params(u32 round = kRound)
{
	plb_params p;

	plb_params_default(&p, kNumEv, round);
	EXPECT_TRUE(plb_params_valid(&p));
	return p;
}

plb_flow Flow(const plb_params &p)
{
	plb_flow f;

	plb_init(&f, &p, Ev(1));
	return f;
}

// One round of p.round_acks ACKs, the first ce of them CE-marked, the flow
// idle after the last one (only) if idle; each ACK draws EV ev. Returns
// whether the round's last ACK rehashed; no other ACK may.
bool Round(plb_flow &f, const plb_params &p, u32 ce, bool idle, u32 ev)
{
	for (u32 i = 0; i + 1 < p.round_acks; i++)
		EXPECT_FALSE(plb_on_ack(&f, &p, i < ce, false, Ev(ev)));
	return plb_on_ack(&f, &p, p.round_acks - 1 < ce, idle, Ev(ev));
}

// n congested rounds (half the ACKs CE: exactly the threshold), none of
// which may rehash.
void CongestedNoRehash(plb_flow &f, const plb_params &p, u32 n, bool idle)
{
	for (u32 i = 0; i < n; i++)
		EXPECT_FALSE(Round(f, p, kRound / 2, idle, 99)) << i;
}

}  // namespace

TEST(plb_core, InitDrawsTheFirstEv)
{
	const plb_params p = Params();
	plb_flow f;

	plb_init(&f, &p, Ev(42));
	EXPECT_EQ(f.ev, 42u);
	EXPECT_EQ(f.acks, 0u);
	EXPECT_EQ(f.ce, 0u);
	EXPECT_EQ(f.cong_rounds, 0u);
	EXPECT_EQ(f.rehashes, 0u);
	plb_init(&f, &p, 0);
	EXPECT_EQ(f.ev, 0u);
	plb_init(&f, &p, 0xffffffffU);
	EXPECT_EQ(f.ev, kNumEv - 1);
}

TEST(plb_core, DefaultsAreLinuxs)
{
	const plb_params p = Params(40);

	EXPECT_EQ(p.num_ev, 256u);
	EXPECT_EQ(p.round_acks, 40u);
	EXPECT_EQ(p.cong_thresh, 128u);
	EXPECT_EQ(p.idle_rehash_rounds, 3u);
	EXPECT_EQ(p.rehash_rounds, 12u);
}

// ACKs accumulate within a round; the round's last ACK judges it and
// starts the next one.
TEST(plb_core, RoundAccounting)
{
	const plb_params p = Params();
	plb_flow f = Flow(p);

	EXPECT_FALSE(plb_on_ack(&f, &p, true, false, Ev(9)));
	EXPECT_FALSE(plb_on_ack(&f, &p, false, false, Ev(9)));
	EXPECT_FALSE(plb_on_ack(&f, &p, true, false, Ev(9)));
	EXPECT_EQ(f.acks, 3u);
	EXPECT_EQ(f.ce, 2u);
	EXPECT_EQ(f.cong_rounds, 0u);
	EXPECT_FALSE(plb_on_ack(&f, &p, false, false, Ev(9)));
	EXPECT_EQ(f.acks, 0u);
	EXPECT_EQ(f.ce, 0u);
	EXPECT_EQ(f.cong_rounds, 1u);
	EXPECT_EQ(f.ev, 1u);
}

// A round of exactly the threshold (2 of 4 CE: 0.5) is congested, one CE
// fewer is not; not idle, the flow rehashes at the 12th consecutive
// congested round, not before, onto the draw of that ACK.
TEST(plb_core, ExactThresholdRehashesAfterRehashRounds)
{
	const plb_params p = Params();
	plb_flow f = Flow(p);

	EXPECT_FALSE(Round(f, p, 1, false, 99));
	EXPECT_EQ(f.cong_rounds, 0u);
	CongestedNoRehash(f, p, 11, false);
	EXPECT_EQ(f.cong_rounds, 11u);
	EXPECT_EQ(f.ev, 1u);
	EXPECT_TRUE(Round(f, p, 2, false, 77));
	EXPECT_EQ(f.ev, 77u);
	EXPECT_EQ(f.cong_rounds, 0u);
	EXPECT_EQ(f.rehashes, 1u);
}

// Idle at the end of a congested round: the rehash comes at the 3rd
// consecutive one, not before.
TEST(plb_core, IdleRehashesAfterIdleRehashRounds)
{
	const plb_params p = Params();
	plb_flow f = Flow(p);

	CongestedNoRehash(f, p, 2, true);
	EXPECT_EQ(f.cong_rounds, 2u);
	EXPECT_TRUE(Round(f, p, 2, true, 30));
	EXPECT_EQ(f.ev, 30u);
	EXPECT_EQ(f.cong_rounds, 0u);
	EXPECT_EQ(f.rehashes, 1u);
}

// Idleness counts only at a round's end: a flow busy then waits for 12
// rounds even if it was idle after other ACKs; one that turns idle at the
// end of its 5th congested round rehashes then.
TEST(plb_core, IdleIsJudgedAtTheRoundsEnd)
{
	const plb_params p = Params();
	plb_flow f = Flow(p);

	for (u32 r = 0; r < 11; r++) {
		EXPECT_FALSE(plb_on_ack(&f, &p, true, true, Ev(5)));
		EXPECT_FALSE(plb_on_ack(&f, &p, true, true, Ev(5)));
		EXPECT_FALSE(plb_on_ack(&f, &p, false, true, Ev(5)));
		EXPECT_FALSE(plb_on_ack(&f, &p, false, false, Ev(5)));
	}
	EXPECT_EQ(f.cong_rounds, 11u);
	EXPECT_EQ(f.ev, 1u);

	plb_flow g = Flow(p);

	CongestedNoRehash(g, p, 4, false);
	EXPECT_TRUE(Round(g, p, 2, true, 6));
	EXPECT_EQ(g.ev, 6u);
	EXPECT_EQ(g.rehashes, 1u);
}

// A clean round clears the count: 11 congested, 1 clean, 11 congested
// rounds do not rehash; the 12th after the clean one does.
TEST(plb_core, CleanRoundResetsTheCount)
{
	const plb_params p = Params();
	plb_flow f = Flow(p);

	CongestedNoRehash(f, p, 11, false);
	EXPECT_FALSE(Round(f, p, 1, false, 99));
	EXPECT_EQ(f.cong_rounds, 0u);
	CongestedNoRehash(f, p, 11, false);
	EXPECT_TRUE(Round(f, p, 2, false, 12));
	EXPECT_EQ(f.ev, 12u);

	// Idle: 2 congested, 1 clean, 2 congested, then the 3rd.
	plb_flow g = Flow(p);

	CongestedNoRehash(g, p, 2, true);
	EXPECT_FALSE(Round(g, p, 0, true, 99));
	CongestedNoRehash(g, p, 2, true);
	EXPECT_TRUE(Round(g, p, 4, true, 13));
	EXPECT_EQ(g.ev, 13u);
}

// A rehash clears the count: the next forced rehash is 12 rounds later,
// the next idle one 3 rounds later.
TEST(plb_core, RehashResetsTheCount)
{
	const plb_params p = Params();
	plb_flow f = Flow(p);

	CongestedNoRehash(f, p, 11, false);
	EXPECT_TRUE(Round(f, p, 2, false, 20));
	CongestedNoRehash(f, p, 11, false);
	EXPECT_EQ(f.ev, 20u);
	EXPECT_TRUE(Round(f, p, 2, false, 21));
	EXPECT_EQ(f.ev, 21u);
	EXPECT_EQ(f.rehashes, 2u);

	CongestedNoRehash(f, p, 2, true);
	EXPECT_TRUE(Round(f, p, 2, true, 22));
	CongestedNoRehash(f, p, 2, true);
	EXPECT_TRUE(Round(f, p, 2, true, 23));
	EXPECT_EQ(f.ev, 23u);
	EXPECT_EQ(f.rehashes, 4u);
}

// A rehash that draws the EV the flow had still counts as one.
TEST(plb_core, RehashMayDrawTheSameEv)
{
	const plb_params p = Params();
	plb_flow f = Flow(p);

	CongestedNoRehash(f, p, 2, true);
	EXPECT_TRUE(Round(f, p, 2, true, 1));
	EXPECT_EQ(f.ev, 1u);
	EXPECT_EQ(f.rehashes, 1u);
}

// idle_rehash_rounds 0 turns the idle rule off, as in Linux.
TEST(plb_core, IdleRuleOff)
{
	plb_params p = Params();

	p.idle_rehash_rounds = 0;
	ASSERT_TRUE(plb_params_valid(&p));
	plb_flow f = Flow(p);

	CongestedNoRehash(f, p, 11, true);
	EXPECT_TRUE(Round(f, p, 2, true, 8));
	EXPECT_EQ(f.ev, 8u);
}

// The threshold's ends: 256 needs every ACK CE-marked, 0 makes every
// round congested, even one with no CE.
TEST(plb_core, ThresholdEnds)
{
	plb_params p = Params();

	p.rehash_rounds = 1;
	p.cong_thresh = 256;
	plb_flow f = Flow(p);

	EXPECT_FALSE(Round(f, p, 3, false, 50));
	EXPECT_TRUE(Round(f, p, 4, false, 51));
	EXPECT_EQ(f.ev, 51u);
	p.cong_thresh = 0;
	EXPECT_TRUE(Round(f, p, 0, false, 52));
	EXPECT_EQ(f.ev, 52u);
}

// ce * 256 >= thresh * acks is Linux's floor(ce * 256 / acks) >= thresh
// (tcp_plb_update_state() on DCTCP's ce_ratio) for every round size, CE
// count and threshold. rehash_rounds 1: a round rehashes iff congested.
TEST(plb_core, ThresholdIsLinuxsRatio)
{
	for (u32 acks = 1; acks <= 40; acks++) {
		for (u32 thresh = 0; thresh <= PLB_SCALE; thresh++) {
			plb_params p = Params(acks);

			p.cong_thresh = thresh;
			p.rehash_rounds = 1;
			ASSERT_TRUE(plb_params_valid(&p));
			for (u32 ce = 0; ce <= acks; ce++) {
				plb_flow f = Flow(p);
				const bool linux_cong = ce * 256 / acks >= thresh;

				ASSERT_EQ(Round(f, p, ce, false, 2), linux_cong)
					<< acks << " " << thresh << " " << ce;
			}
		}
	}
}

// The draw of an ACK that does not rehash is ignored.
TEST(plb_core, DrawIgnoredWithoutRehash)
{
	const plb_params p = Params(1);
	plb_flow f = Flow(p);

	for (u32 k = 0; k < 256; k++)
		EXPECT_FALSE(plb_on_ack(&f, &p, false, true, Ev(k)));
	EXPECT_EQ(f.ev, 1u);
	EXPECT_EQ(f.rehashes, 0u);
}

TEST(plb_core, ParamsValidation)
{
	plb_params p;

	plb_params_default(&p, kNumEv, kRound);
	EXPECT_TRUE(plb_params_valid(&p));

	plb_params q = p;
	q.num_ev = 0;
	EXPECT_FALSE(plb_params_valid(&q));
	q.num_ev = 1;
	EXPECT_TRUE(plb_params_valid(&q));
	q.num_ev = PLB_MAX_EV;
	EXPECT_TRUE(plb_params_valid(&q));
	q.num_ev = PLB_MAX_EV + 1;
	EXPECT_FALSE(plb_params_valid(&q));

	q = p;
	q.round_acks = 0;
	EXPECT_FALSE(plb_params_valid(&q));
	q.round_acks = 1;
	EXPECT_TRUE(plb_params_valid(&q));

	q = p;
	q.cong_thresh = 0;
	EXPECT_TRUE(plb_params_valid(&q));
	q.cong_thresh = 256;
	EXPECT_TRUE(plb_params_valid(&q));
	q.cong_thresh = 257;
	EXPECT_FALSE(plb_params_valid(&q));

	q = p;
	q.idle_rehash_rounds = 0;
	EXPECT_TRUE(plb_params_valid(&q));
	q.idle_rehash_rounds = 31;
	EXPECT_TRUE(plb_params_valid(&q));
	q.idle_rehash_rounds = 32;
	EXPECT_FALSE(plb_params_valid(&q));

	q = p;
	q.rehash_rounds = 0;
	EXPECT_FALSE(plb_params_valid(&q));
	q.rehash_rounds = 1;
	EXPECT_TRUE(plb_params_valid(&q));
	q.rehash_rounds = 31;
	EXPECT_TRUE(plb_params_valid(&q));
	q.rehash_rounds = 32;
	EXPECT_FALSE(plb_params_valid(&q));
}
