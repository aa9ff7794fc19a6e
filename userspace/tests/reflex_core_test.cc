// SPDX-License-Identifier: GPL-2.0
//
// Unit tests of the Reflex gateway laws, kernel/core/reflex_core.h (Reflex
// spec Sec. 2.3-2.6, the stamp of 4.3, the defaults of 7; its test
// scenarios 1, 3, 5 and 6 at the level of the law). Deterministic event
// traces with exact expected values: times are ns on one clock, every
// expected value is worked out by hand in the comment next to it.
//
// Reference setup unless a test says otherwise: the spec's defaults at
// paper scale. NSF: T_src_thresh 5 us, T_interval 5 us (TIMELY), N_cool 5,
// cool_unit pack, T_idle_gc 10 ms. NDT: T_dst_thresh 10 us, alpha 0.7,
// N_throttle 8, T_maxpause 500 us, T_active 100 us, T_rearm 10 us. Traces
// start at kT0 = 1 s on the clock, not at 0, so that no test leans on a
// zeroed time.

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "reflex_core.h"

static_assert(sizeof(struct nsf_flow) <= 32, "NSF flow state must stay small");
static_assert(sizeof(struct ndt_flow) <= 32, "NDT flow state must stay small");

namespace {

constexpr u64 kUs = 1000;		// ns
constexpr u64 kMs = 1000 * kUs;
constexpr u64 kT0 = 1000000000ULL;	// 1 s: t0 of every trace

// ---------------------------------------------------------------- NSF

nsf_params NsfParams(u32 cool_unit = NSF_COOL_PACK)
{
	nsf_params p;

	nsf_params_default(&p, NSF_DEF_T_INTERVAL_TIMELY_NS);
	p.cool_unit = cool_unit;
	EXPECT_TRUE(nsf_params_valid(&p));
	return p;
}

nsf_flow NewNsfFlow()
{
	nsf_flow f;

	nsf_flow_init(&f);
	return f;
}

// Spec 2.3's worked vector: packet i at t_i = i us with T_src, in us,
// 3, 3, 6, 7, 8, 6, 6, 9, then 4 for every later packet.
u64 VectorTsrcNs(u32 i)
{
	static const u64 head_us[] = { 3, 3, 6, 7, 8, 6, 6, 9 };

	return (i < 8 ? head_us[i] : 4) * kUs;
}

u64 VectorNow(u32 i)
{
	return kT0 + i * kUs;
}

// What the vector did at each packet.
struct NsfTrace {
	std::vector<u32> pack_at;	// packet indices answered
	std::vector<nsf_pack> packs;	// ... and what each carried
	std::vector<u8> state;		// state after packet i
	std::vector<u8> cool_left;	// cool_left after packet i
};

// Runs packets first..last (inclusive) of the vector through f.
void RunVector(nsf_flow &f, const nsf_params &p, u32 first, u32 last,
	       NsfTrace &tr)
{
	for (u32 i = first; i <= last; i++) {
		nsf_pack pack{};

		if (nsf_on_data(&f, &p, VectorNow(i), VectorTsrcNs(i), &pack)) {
			tr.pack_at.push_back(i);
			tr.packs.push_back(pack);
		}
		tr.state.push_back(f.state);
		tr.cool_left.push_back(f.cool_left);
	}
}

NsfTrace Vector(u32 cool_unit, u32 last)
{
	const nsf_params p = NsfParams(cool_unit);
	nsf_flow f = NewNsfFlow();
	NsfTrace tr;

	RunVector(f, p, 0, last, tr);
	return tr;
}

// ------------------------------------------------------------- sender

constexpr u32 kK = 6;			// IP-ID stamp unit 64 ns (S = 1)
constexpr u64 kMax16k6 = 1ULL << 20;	// 2^(16 + 6 - 2) ns

// The age of an IP-ID stamp, k = 6.
u64 Age16(u64 now, u16 stamp)
{
	return reflex_stamp_age_ns(now, stamp, REFLEX_STAMP_BITS, kK);
}

// ---------------------------------------------------------------- NDT

// A packet in the model's queues: its flow and its sequence in the flow.
struct Pkt {
	u32 flow;
	u32 seq;
};

constexpr u32 kFlows = 16;
constexpr u32 kUntracked = kFlows;	// Pkt::flow of a packet with none

// A port and its flow table, with the queues the law only counts.
struct Ndt {
	ndt_params p;
	ndt_port port;
	ndt_flow flows[kFlows];
	u32 next_seq[kFlows] = {};
	std::deque<Pkt> nq, cq;
	std::vector<Pkt> out;		// departures, in order

	Ndt()
	{
		ndt_params_default(&p);
		EXPECT_TRUE(ndt_params_valid(&p));
		ndt_port_init(&port, &p);
		for (ndt_flow &f : flows)
			ndt_flow_init(&f);
	}

	u32 Enq(u32 id, u64 now)
	{
		u32 ev = ndt_on_enqueue(&flows[id], &port, &p, now);

		(ev & NDT_EV_CTL ? cq : nq).push_back({ id, next_seq[id]++ });
		return ev;
	}

	void EnqUntracked()
	{
		ndt_on_enqueue_untracked(&port);
		nq.push_back({ kUntracked, 0 });
	}

	// One scheduling decision: 'N', 'C' or '-' (none).
	char Deq(u64 now)
	{
		u32 pick = ndt_schedule(&port, &p, now);
		std::deque<Pkt> &q = pick == NDT_PICK_CTL ? cq : nq;
		Pkt pkt;

		if (pick == NDT_PICK_NONE)
			return '-';
		pkt = q.front();
		q.pop_front();
		ndt_on_dequeue(pkt.flow == kUntracked ? nullptr : &flows[pkt.flow],
			       &port, pick == NDT_PICK_CTL);
		out.push_back(pkt);
		return pick == NDT_PICK_CTL ? 'C' : 'N';
	}

	// n decisions at now.
	std::string DeqN(u32 n, u64 now)
	{
		std::string s;

		for (u32 i = 0; i < n; i++)
			s += Deq(now);
		return s;
	}

	u32 Ack(u32 id, u64 now, u64 rtt_dst)
	{
		return ndt_on_ack(&flows[id], &port, &p, now, rtt_dst);
	}

	// The port's counts against a recount of the model.
	void CheckCounts() const
	{
		u32 active = 0, congested = 0, ctl = 0, normal = 0;
		size_t tracked_in_n = 0;

		for (const ndt_flow &f : flows) {
			active += f.active;
			congested += f.active && f.status == NDT_CONGESTED;
			ctl += f.ctl_pkts;
			normal += f.normal_pkts;
			EXPECT_FALSE(f.ctl_pkts && f.normal_pkts);	// one queue
		}
		for (const Pkt &pkt : nq)
			tracked_in_n += pkt.flow != kUntracked;
		EXPECT_EQ(normal, tracked_in_n);
		EXPECT_EQ(port.n_active, active);
		EXPECT_EQ(port.n_congested, congested);
		EXPECT_EQ(port.normal_qlen, nq.size());
		EXPECT_EQ(port.ctl_qlen, cq.size());
		EXPECT_EQ(ctl, cq.size());
	}
};

constexpr u64 kCold = 9 * kUs;		// RTT_dst below T_dst_thresh
constexpr u64 kHot = 11 * kUs;		// ... above it

// n flows 0..n-1 made active by one packet each, which then leave: N and
// C empty, nothing CONGESTED.
void ActivateFlows(Ndt &m, u32 n, u64 now)
{
	for (u32 id = 0; id < n; id++)
		EXPECT_EQ(m.Enq(id, now), 0u);
	EXPECT_EQ(m.DeqN(n, now), std::string(n, 'N'));
}

// Ten active flows, 0..7 CONGESTED (ratio 0.8), flow 0's packet in C, and
// C paused at the ACK that made flow 7 CONGESTED, at now.
void PausedPort(Ndt &m, u64 now)
{
	ActivateFlows(m, 10, now);
	for (u32 id = 0; id < 7; id++)
		EXPECT_EQ(m.Ack(id, now, kHot), 0u) << id;
	EXPECT_EQ(m.Enq(0, now), (u32)NDT_EV_CTL);	// 0.7 is not > 0.7
	EXPECT_EQ(m.Ack(7, now, kHot), (u32)NDT_EV_PAUSE);
	ASSERT_EQ(m.port.paused, 1);
	ASSERT_EQ(m.port.pause_start_ns, now);
}

}  // namespace

// ====================================================================
// NSF (spec 2.3, 2.4; test scenario 1)
// ====================================================================

TEST(reflex_nsf, DefaultsAreTheSpecs)
{
	nsf_params p;

	nsf_params_default(&p, NSF_DEF_T_INTERVAL_SWIFT_NS);
	EXPECT_EQ(p.t_src_thresh_ns, 5000u);
	EXPECT_EQ(p.t_interval_ns, 3000u);		// Swift
	EXPECT_EQ(p.t_idle_gc_ns, 10000000u);
	EXPECT_EQ(p.n_cool, 5u);
	EXPECT_EQ(p.cool_unit, (u32)NSF_COOL_PACK);
	EXPECT_EQ(NSF_DEF_T_INTERVAL_TIMELY_NS, 5000u);
	EXPECT_TRUE(nsf_params_valid(&p));

	p.n_cool = 0;		// no cooling at all: refused
	EXPECT_FALSE(nsf_params_valid(&p));
	p.n_cool = 256;		// does not fit cool_left
	EXPECT_FALSE(nsf_params_valid(&p));
	p.n_cool = 255;
	EXPECT_TRUE(nsf_params_valid(&p));
	p.cool_unit = NSF_COOL_PACKET;
	EXPECT_TRUE(nsf_params_valid(&p));
	p.cool_unit = 2;
	EXPECT_FALSE(nsf_params_valid(&p));
	p = NsfParams();
	p.t_interval_ns = 0;	// every packet of a non-silent flow
	p.t_src_thresh_ns = 0;
	EXPECT_TRUE(nsf_params_valid(&p));
}

// Spec 2.3's vector, cool_unit pack: t0 3, t1 3 silent; t2 6 -> ACTIVE,
// pack #1 at once; t3..t6 within the interval; t7 9 -> pack #2 (5 us
// after t2); t8 4 -> COOLING, cool_left 5, no pack (1 us after t7);
// t9..t11 nothing; t12 -> pack #3, cool_left 4; packs at t17, t22, t27
// (3, 2, 1) and t32, whose decrement ends cooling: SILENT. 7 pseudo-ACKs,
// 5 of them in cooling; then nothing up to t40.
TEST(reflex_nsf, WorkedVectorPackMode)
{
	const NsfTrace tr = Vector(NSF_COOL_PACK, 40);
	u32 cooling = 0;

	EXPECT_EQ(tr.pack_at, (std::vector<u32>{ 2, 7, 12, 17, 22, 27, 32 }));
	for (const nsf_pack &pack : tr.packs)
		cooling += pack.state == NSF_COOLING;
	EXPECT_EQ(cooling, 5u);

	for (u32 i = 0; i <= 40; i++) {
		u8 want = i < 2 ? NSF_SILENT : i < 8 ? NSF_ACTIVE :
			  i < 32 ? NSF_COOLING : NSF_SILENT;

		EXPECT_EQ(tr.state[i], want) << "t" << i;
	}
	// cool_left: 5 from t8, one less at each cooling pack, 0 at t32.
	for (u32 i = 8; i <= 40; i++) {
		u8 want = i < 12 ? 5 : i < 17 ? 4 : i < 22 ? 3 :
			  i < 27 ? 2 : i < 32 ? 1 : 0;

		EXPECT_EQ(tr.cool_left[i], want) << "t" << i;
	}
}

// What each of those 7 pseudo-ACKs carries (spec 2.4): covered_pkts is
// pkts_since_pack before the reset, the trigger included: #1 covers t0,
// t1, t2; every later one the 5 packets since the previous pack. fb_seq
// counts from 1. state is the state when emitted: the pack at t32 still
// says COOLING, though its decrement then silences the flow. Only #1,
// forced by SILENT -> ACTIVE, is FIRST. t_src as given: 6, 9, then 4 us.
TEST(reflex_nsf, WorkedVectorPackContents)
{
	const NsfTrace tr = Vector(NSF_COOL_PACK, 40);
	const u32 covered[] = { 3, 5, 5, 5, 5, 5, 5 };
	const u8 state[] = { NSF_ACTIVE, NSF_ACTIVE, NSF_COOLING, NSF_COOLING,
			     NSF_COOLING, NSF_COOLING, NSF_COOLING };
	const u64 t_src[] = { 6000, 9000, 4000, 4000, 4000, 4000, 4000 };

	ASSERT_EQ(tr.packs.size(), 7u);
	for (u32 n = 0; n < 7; n++) {
		EXPECT_EQ(tr.packs[n].covered_pkts, covered[n]) << "#" << n + 1;
		EXPECT_EQ(tr.packs[n].fb_seq, n + 1) << "#" << n + 1;
		EXPECT_EQ(tr.packs[n].state, state[n]) << "#" << n + 1;
		EXPECT_EQ(tr.packs[n].first, n == 0) << "#" << n + 1;
		EXPECT_EQ(tr.packs[n].t_src_ns, t_src[n]) << "#" << n + 1;
	}
}

// The literal variant (cool_unit packet): t8 enters COOLING with
// cool_left 5 (the transition packet counts nothing), t9..t12 take it to
// 1, t12 is still answered (5 us after t7, state COOLING, covering t8..t12),
// t13 takes it to 0: SILENT after a single cooling pack. 3 in total.
TEST(reflex_nsf, WorkedVectorPacketMode)
{
	const NsfTrace tr = Vector(NSF_COOL_PACKET, 40);
	const u8 cool_left[] = { 5, 4, 3, 2, 1, 0 };	// t8..t13

	EXPECT_EQ(tr.pack_at, (std::vector<u32>{ 2, 7, 12 }));
	for (u32 i = 8; i <= 13; i++)
		EXPECT_EQ(tr.cool_left[i], cool_left[i - 8]) << "t" << i;
	EXPECT_EQ(tr.state[12], NSF_COOLING);
	for (u32 i = 13; i <= 40; i++)
		EXPECT_EQ(tr.state[i], NSF_SILENT) << "t" << i;
	ASSERT_EQ(tr.packs.size(), 3u);
	EXPECT_EQ(tr.packs[2].state, NSF_COOLING);
	EXPECT_EQ(tr.packs[2].covered_pkts, 5u);
	EXPECT_EQ(tr.packs[2].fb_seq, 3u);
	EXPECT_EQ(tr.packs[2].first, 0);
}

// A flow that never sees T_src above the threshold costs nothing: 1000
// packets at exactly T_src_thresh (not above it) and below, no pack, no
// state change; the counter of packets since the last pack just grows.
TEST(reflex_nsf, SilentFlowEmitsNothing)
{
	const nsf_params p = NsfParams();
	nsf_flow f = NewNsfFlow();
	nsf_pack pack{};

	for (u32 i = 0; i < 1000; i++) {
		u64 t_src = i % 2 ? 5 * kUs : 1 * kUs;

		EXPECT_FALSE(nsf_on_data(&f, &p, kT0 + i * kUs, t_src, &pack))
			<< i;
	}
	EXPECT_EQ(f.state, NSF_SILENT);
	EXPECT_EQ(f.pkts_since_pack, 1000u);
	EXPECT_EQ(f.fb_seq, 0u);
	EXPECT_EQ(f.last_seen_ns, kT0 + 999 * kUs);
	// 1 ns above the threshold is congestion: the 1001st packet is
	// answered at once, and stands for all 1001.
	EXPECT_TRUE(nsf_on_data(&f, &p, kT0 + 1000 * kUs, 5 * kUs + 1, &pack));
	EXPECT_EQ(pack.covered_pkts, 1001u);
	EXPECT_EQ(pack.fb_seq, 1u);
}

// Pseudo-ACKs are at least T_interval apart, and exactly T_interval is
// enough: a congested flow at one packet every 999 ns (and one at
// T_interval - 1 and T_interval after a pack).
TEST(reflex_nsf, PacksSpacedByInterval)
{
	const nsf_params p = NsfParams();
	nsf_flow f = NewNsfFlow();
	nsf_pack pack{};
	u64 last = kT0;

	ASSERT_TRUE(nsf_on_data(&f, &p, kT0, 7 * kUs, &pack));	// forced
	EXPECT_FALSE(nsf_on_data(&f, &p, kT0 + 4999, 7 * kUs, &pack));
	EXPECT_TRUE(nsf_on_data(&f, &p, kT0 + 5000, 7 * kUs, &pack));
	EXPECT_EQ(pack.covered_pkts, 2u);
	EXPECT_EQ(f.last_pack_ns, kT0 + 5000);
	last = kT0 + 5000;

	// 999 ns apart: answered every 6th packet, 5994 ns after the last.
	for (u32 i = 1; i <= 60; i++) {
		u64 now = kT0 + 5000 + i * 999;
		bool emitted = nsf_on_data(&f, &p, now, 7 * kUs, &pack);

		EXPECT_EQ(emitted, i % 6 == 0) << i;
		if (emitted) {
			EXPECT_EQ(now - last, 5994u);
			EXPECT_EQ(pack.covered_pkts, 6u);
			last = now;
		}
	}
	EXPECT_EQ(f.fb_seq, 12u);		// 2 + 60 / 6
}

// ACTIVE -> COOLING -> ACTIVE on renewed congestion: the return to ACTIVE
// is no new episode (no forced pack, the interval holds), and the next
// cooling starts again from N_cool.
TEST(reflex_nsf, CoolingBackToActive)
{
	const nsf_params p = NsfParams();
	nsf_flow f = NewNsfFlow();
	nsf_pack pack{};

	ASSERT_TRUE(nsf_on_data(&f, &p, kT0, 7 * kUs, &pack));	// ACTIVE
	// 5 us: cool -> COOLING (5) and answered -> 4
	EXPECT_TRUE(nsf_on_data(&f, &p, kT0 + 5 * kUs, 2 * kUs, &pack));
	EXPECT_EQ(pack.state, NSF_COOLING);
	EXPECT_EQ(f.state, NSF_COOLING);
	EXPECT_EQ(f.cool_left, 4);
	// 6 us: hot again -> ACTIVE, 1 us after the pack: nothing
	EXPECT_FALSE(nsf_on_data(&f, &p, kT0 + 6 * kUs, 8 * kUs, &pack));
	EXPECT_EQ(f.state, NSF_ACTIVE);
	// 7 us: cool -> COOLING with a fresh 5
	EXPECT_FALSE(nsf_on_data(&f, &p, kT0 + 7 * kUs, 2 * kUs, &pack));
	EXPECT_EQ(f.state, NSF_COOLING);
	EXPECT_EQ(f.cool_left, 5);
	// 10 us: answered, 5 us after the last pack, covering 6, 7, 10 us
	EXPECT_TRUE(nsf_on_data(&f, &p, kT0 + 10 * kUs, 2 * kUs, &pack));
	EXPECT_EQ(pack.state, NSF_COOLING);
	EXPECT_EQ(pack.covered_pkts, 3u);
	EXPECT_EQ(pack.fb_seq, 3u);
	EXPECT_EQ(pack.first, 0);
	EXPECT_EQ(f.cool_left, 4);
}

// A silent flow that heats up again opens a new episode: its first pack
// leaves at once even within T_interval of the previous one, covers every
// packet since that one, and fb_seq goes on. Literal mode, silent at t13,
// hot at t14 (2 us after the pack at t12): pack #4 covering t13, t14.
// Pack mode, silent at t32: hot at t36 (4 us after t32) -> pack #8
// covering t33..t36.
TEST(reflex_nsf, NewEpisodeForcesFirstPack)
{
	nsf_params p = NsfParams(NSF_COOL_PACKET);
	nsf_flow f = NewNsfFlow();
	NsfTrace tr;
	nsf_pack pack{};

	RunVector(f, p, 0, 13, tr);
	ASSERT_EQ(f.state, NSF_SILENT);
	EXPECT_TRUE(nsf_on_data(&f, &p, VectorNow(14), 7 * kUs, &pack));
	EXPECT_EQ(pack.first, 1);
	EXPECT_EQ(pack.state, NSF_ACTIVE);
	EXPECT_EQ(pack.covered_pkts, 2u);
	EXPECT_EQ(pack.fb_seq, 4u);

	p = NsfParams(NSF_COOL_PACK);
	f = NewNsfFlow();
	RunVector(f, p, 0, 35, tr);
	ASSERT_EQ(f.state, NSF_SILENT);
	EXPECT_TRUE(nsf_on_data(&f, &p, VectorNow(36), 7 * kUs, &pack));
	EXPECT_EQ(pack.first, 1);
	EXPECT_EQ(pack.covered_pkts, 4u);
	EXPECT_EQ(pack.fb_seq, 8u);
	EXPECT_EQ(f.last_pack_ns, VectorNow(36));
}

// A clock read on another CPU before the lock may be older than the last
// pack: no time has passed, so no pack, and the next on time is exact.
// The packet counter saturates rather than wrap to 0.
TEST(reflex_nsf, OlderClockAndSaturatedCounter)
{
	const nsf_params p = NsfParams();
	nsf_flow f = NewNsfFlow();
	nsf_pack pack{};

	ASSERT_TRUE(nsf_on_data(&f, &p, kT0, 7 * kUs, &pack));
	EXPECT_FALSE(nsf_on_data(&f, &p, kT0 - 100, 7 * kUs, &pack));
	EXPECT_EQ(f.last_pack_ns, kT0);
	EXPECT_TRUE(nsf_on_data(&f, &p, kT0 + 5 * kUs, 7 * kUs, &pack));
	EXPECT_EQ(pack.covered_pkts, 2u);

	f = NewNsfFlow();
	f.pkts_since_pack = 0xfffffffeU;
	EXPECT_FALSE(nsf_on_data(&f, &p, kT0, 1 * kUs, &pack));
	EXPECT_FALSE(nsf_on_data(&f, &p, kT0 + 1, 1 * kUs, &pack));
	EXPECT_EQ(f.pkts_since_pack, 0xffffffffU);
	EXPECT_TRUE(nsf_on_data(&f, &p, kT0 + 2, 7 * kUs, &pack));
	EXPECT_EQ(pack.covered_pkts, 0xffffffffU);
	EXPECT_EQ(f.pkts_since_pack, 0u);
}

// State is deleted after idle > T_idle_gc: not at exactly 10 ms, at 1 ns
// more; a clock older than the last packet is no idleness.
TEST(reflex_nsf, IdleGc)
{
	const nsf_params p = NsfParams();
	nsf_flow f = NewNsfFlow();
	nsf_pack pack{};

	nsf_on_data(&f, &p, kT0, 1 * kUs, &pack);
	EXPECT_FALSE(nsf_flow_idle(&f, &p, kT0 + 10 * kMs));
	EXPECT_TRUE(nsf_flow_idle(&f, &p, kT0 + 10 * kMs + 1));
	EXPECT_FALSE(nsf_flow_idle(&f, &p, kT0 - 20 * kMs));
	nsf_on_data(&f, &p, kT0 + 10 * kMs, 1 * kUs, &pack);	// seen
	EXPECT_FALSE(nsf_flow_idle(&f, &p, kT0 + 10 * kMs + 1));
}

// ====================================================================
// Stamps and the sender (spec 2.5, 4.3; test scenario 3)
// ====================================================================

// The IP-ID stamp is bits k..k+15 of the clock; the age of a stamp is
// taken modulo 2^16 units, so it is right across the wrap: sent at unit
// 0xfffd (+10 ns), seen at unit 0x10005 (+3 ns) -> 8 units = 512 ns (the
// true 505 ns, to within one 64 ns unit). High bits do not matter.
TEST(reflex_sender, StampAgeAcrossWrap)
{
	const u64 base = 5ULL << 22;		// above the stamp's 22 bits
	const u64 tx = base + (0xfffdULL << kK) + 10;
	const u64 now = base + (0x10005ULL << kK) + 3;
	const u16 stamp = reflex_stamp16(tx, kK);

	EXPECT_EQ(stamp, 0xfffd);
	EXPECT_EQ(reflex_stamp16((0xabcdULL << kK) | 0x3f | (7ULL << 22), kK),
		  0xabcd);
	EXPECT_EQ(reflex_stamp16(0x123456789ULL, 0), 0x6789);
	EXPECT_EQ(Age16(now, stamp), 512u);
	EXPECT_EQ(now - tx, 505u);
	// Same unit: 0. One unit in the future: the whole period but one
	// unit, 0xffff x 64 = 4194240 ns.
	EXPECT_EQ(Age16(tx + 1, stamp), 0u);
	EXPECT_EQ(Age16(tx, (u16)(stamp + 1)), 4194240u);
	// A 32-bit ns stamp and the whole 64-bit clock.
	EXPECT_EQ(reflex_stamp_age_ns(0x100000005ULL, 0xfffffffbULL, 32, 0),
		  10u);
	EXPECT_EQ(reflex_stamp_age_ns(kT0 + 7, kT0, 64, 0), 7u);
	EXPECT_EQ(reflex_stamp_age_ns(kT0, kT0 + 7, 64, 0), ~0ULL - 6);
}

// RTT_SRC_MAX is a quarter of the wrap period, 2^(bits + k - 2) ns: the
// IP-ID stamp at k = 6, 13, 16 (spec 4.3: wraps of 4.2 ms, 537 ms, 4.3 s),
// a 32-bit and a 64-bit ns stamp.
TEST(reflex_sender, RttSrcMaxIsAQuarterWrap)
{
	EXPECT_EQ(reflex_rtt_src_max_ns(16, 6), kMax16k6);	// 1.05 ms
	EXPECT_EQ(reflex_rtt_src_max_ns(16, 13), 1ULL << 27);	// 134 ms
	EXPECT_EQ(reflex_rtt_src_max_ns(16, 16), 1ULL << 30);	// 1.07 s
	EXPECT_EQ(reflex_rtt_src_max_ns(32, 0), 1ULL << 30);
	EXPECT_EQ(reflex_rtt_src_max_ns(64, 0), 1ULL << 62);
}

// A good sample: the RTT as given, num_acked = covered_pkts, last_fb_seq
// advanced.
TEST(reflex_sender, AcceptsGoodSample)
{
	u32 last = 0;
	reflex_sample s{};

	EXPECT_EQ(reflex_accept(&last, 1, 3, 6300, kMax16k6, &s),
		  (u32)REFLEX_FB_ACCEPT);
	EXPECT_EQ(s.rtt_ns, 6300u);
	EXPECT_EQ(s.num_acked, 3u);
	EXPECT_EQ(last, 1u);
	// covered_pkts 0 (a garbled or saturated field) still counts 1
	EXPECT_EQ(reflex_accept(&last, 2, 0, 6400, kMax16k6, &s),
		  (u32)REFLEX_FB_ACCEPT);
	EXPECT_EQ(s.num_acked, 1u);
	EXPECT_EQ(last, 2u);
}

// fb_seq <= last_fb_seq is dropped, older and equal alike, and changes
// nothing; a new flow (last_fb_seq 0) drops fb_seq 0, which is why the
// gateway counts from 1.
TEST(reflex_sender, DropsStaleAndEqualFbSeq)
{
	u32 last = 7;
	reflex_sample s{ 111, 222 };

	EXPECT_EQ(reflex_accept(&last, 6, 5, 6300, kMax16k6, &s),
		  (u32)REFLEX_FB_STALE);
	EXPECT_EQ(reflex_accept(&last, 7, 5, 6300, kMax16k6, &s),
		  (u32)REFLEX_FB_STALE);
	EXPECT_EQ(last, 7u);
	EXPECT_EQ(s.rtt_ns, 111u);		// untouched
	EXPECT_EQ(s.num_acked, 222u);
	last = 0;
	EXPECT_EQ(reflex_accept(&last, 0, 5, 6300, kMax16k6, &s),
		  (u32)REFLEX_FB_STALE);
}

// RTT_src <= 0 or > RTT_SRC_MAX is dropped, after last_fb_seq advanced
// (spec 2.5's order): a later, older fb_seq is stale even though the
// newer one gave no sample. Exactly RTT_SRC_MAX is a sample.
TEST(reflex_sender, DropsImplausibleRtt)
{
	u32 last = 4;
	reflex_sample s{};
	u16 now_units = 0x1234;
	u64 now = (u64)now_units << kK;
	u64 future = Age16(now, (u16)(now_units + 1));

	// Same unit as the stamp: 0.
	EXPECT_EQ(reflex_accept(&last, 5, 1, Age16(now, now_units), kMax16k6,
				&s), (u32)REFLEX_FB_BAD_RTT);
	EXPECT_EQ(last, 5u);
	EXPECT_EQ(reflex_accept(&last, 4, 1, 6300, kMax16k6, &s),
		  (u32)REFLEX_FB_STALE);
	// A stamp from the future: 4194240 ns, far above 2^20.
	EXPECT_EQ(reflex_accept(&last, 6, 1, future, kMax16k6, &s),
		  (u32)REFLEX_FB_BAD_RTT);
	// 2^14 units is the bound itself; one unit more is not.
	EXPECT_EQ(reflex_accept(&last, 7, 1,
				Age16(now, (u16)(now_units - 0x4000)),
				kMax16k6, &s), (u32)REFLEX_FB_ACCEPT);
	EXPECT_EQ(s.rtt_ns, kMax16k6);
	EXPECT_EQ(reflex_accept(&last, 8, 1,
				Age16(now, (u16)(now_units - 0x4001)),
				kMax16k6, &s), (u32)REFLEX_FB_BAD_RTT);
	EXPECT_EQ(last, 8u);
	// A 64-bit stamp ahead of the clock, taken as a signed difference.
	EXPECT_EQ(reflex_accept(&last, 9, 1, (u64)(s64)-5,
				reflex_rtt_src_max_ns(64, 0), &s),
		  (u32)REFLEX_FB_BAD_RTT);
}

// fb_seq is compared in serial number arithmetic: the gateway's 32-bit
// counter wraps 0xffffffff -> 0 and the sender follows; older values
// across the wrap are still stale.
TEST(reflex_sender, FbSeqWraps)
{
	u32 last = 0xfffffffeU;
	reflex_sample s{};

	EXPECT_EQ(reflex_accept(&last, 0xffffffffU, 1, 6300, kMax16k6, &s),
		  (u32)REFLEX_FB_ACCEPT);
	EXPECT_EQ(reflex_accept(&last, 0, 1, 6300, kMax16k6, &s),
		  (u32)REFLEX_FB_ACCEPT);
	EXPECT_EQ(reflex_accept(&last, 1, 1, 6300, kMax16k6, &s),
		  (u32)REFLEX_FB_ACCEPT);
	EXPECT_EQ(reflex_accept(&last, 0xffffffffU, 1, 6300, kMax16k6, &s),
		  (u32)REFLEX_FB_STALE);
	EXPECT_EQ(last, 1u);
}

// Gateway to sender: the vector's data packets carry IP-ID stamps (k = 3:
// every us is a whole number of 8 ns units, so ages are exact); the
// gateway measures T_src from them, and each pseudo-ACK reaches the
// sender 3 us later, so RTT_src = T_src + 3 us. Delivered as #1 #2 #4 #3
// #5 #5 #6 #7: the late #3 and the duplicate #5 are stale.
TEST(reflex_sender, GatewayToSender)
{
	const u32 k = 3;
	const nsf_params p = NsfParams();
	const u64 max = reflex_rtt_src_max_ns(REFLEX_STAMP_BITS, k);
	nsf_flow f = NewNsfFlow();
	std::vector<nsf_pack> packs;
	std::vector<u64> echo_at;	// when each pack reaches the sender
	std::vector<u16> echo;		// ... and the stamp it echoes
	const u32 order[] = { 1, 2, 4, 3, 5, 5, 6, 7 };
	const u32 want[] = { REFLEX_FB_ACCEPT, REFLEX_FB_ACCEPT,
			     REFLEX_FB_ACCEPT, REFLEX_FB_STALE,
			     REFLEX_FB_ACCEPT, REFLEX_FB_STALE,
			     REFLEX_FB_ACCEPT, REFLEX_FB_ACCEPT };
	const u64 rtt_us[] = { 9, 12, 7, 0, 7, 0, 7, 7 };
	const u32 acked[] = { 3, 5, 5, 0, 5, 0, 5, 5 };
	u32 last = 0;

	for (u32 i = 0; i <= 40; i++) {
		u64 now = VectorNow(i);
		u16 stamp = reflex_stamp16(now - VectorTsrcNs(i), k);
		u64 t_src = reflex_stamp_age_ns(now, stamp, REFLEX_STAMP_BITS,
						k);
		nsf_pack pack{};

		ASSERT_EQ(t_src, VectorTsrcNs(i)) << "t" << i;
		if (nsf_on_data(&f, &p, now, t_src, &pack)) {
			packs.push_back(pack);
			echo_at.push_back(now + 3 * kUs);
			echo.push_back(stamp);
		}
	}
	ASSERT_EQ(packs.size(), 7u);
	for (u32 n = 0; n < 8; n++) {
		u32 j = order[n] - 1;
		u64 rtt = reflex_stamp_age_ns(echo_at[j], echo[j],
					      REFLEX_STAMP_BITS, k);
		reflex_sample s{};

		EXPECT_EQ(reflex_accept(&last, packs[j].fb_seq,
					packs[j].covered_pkts, rtt, max, &s),
			  want[n]) << "delivery " << n;
		if (want[n] == REFLEX_FB_ACCEPT) {
			EXPECT_EQ(s.rtt_ns, rtt_us[n] * kUs) << n;
			EXPECT_EQ(s.num_acked, acked[n]) << n;
		}
	}
	EXPECT_EQ(last, 7u);
}

// ====================================================================
// NDT (spec 2.6, 4.5; test scenarios 5 and 6)
// ====================================================================

TEST(reflex_ndt, DefaultsAreTheSpecs)
{
	const Ndt m;
	ndt_params p = m.p;

	EXPECT_EQ(p.t_dst_thresh_ns, 10000u);
	EXPECT_EQ(p.alpha_ppm, 700000u);
	EXPECT_EQ(p.n_throttle, 8u);
	EXPECT_EQ(p.t_maxpause_ns, 500000u);
	EXPECT_EQ(p.t_active_ns, 100000u);
	EXPECT_EQ(p.t_idle_gc_ns, 10000000u);
	EXPECT_EQ(p.t_rearm_ns, p.t_dst_thresh_ns);
	EXPECT_EQ(m.port.wrr_credit, 8u);
	EXPECT_EQ(m.port.paused, 0);

	p.alpha_ppm = 1000001;
	EXPECT_FALSE(ndt_params_valid(&p));
	p.alpha_ppm = 1000000;			// never pauses: legal
	EXPECT_TRUE(ndt_params_valid(&p));
	p = m.p;
	p.n_throttle = 0;			// would starve N
	EXPECT_FALSE(ndt_params_valid(&p));
	p = m.p;
	p.t_maxpause_ns = 0;
	EXPECT_FALSE(ndt_params_valid(&p));
	p = m.p;
	p.t_active_ns = 0;
	EXPECT_FALSE(ndt_params_valid(&p));
	p = m.p;
	p.t_idle_gc_ns = p.t_active_ns - 1;	// deleted while counted
	EXPECT_FALSE(ndt_params_valid(&p));
}

// Spec scenario 5: RTT_dst 9 us -> NORMAL, 11 us -> CONGESTED, refreshed on
// every sample; exactly T_dst_thresh is NORMAL. n_congested follows for an
// active flow; an inactive flow's status changes no count until its next
// packet makes it active.
TEST(reflex_ndt, StatusFromRttDst)
{
	Ndt m;
	ndt_flow &f = m.flows[0];

	m.Enq(0, kT0);
	EXPECT_EQ(m.Ack(0, kT0, kCold), 0u);
	EXPECT_EQ(f.status, NDT_NORMAL);
	EXPECT_EQ(f.rtt_dst_last_ns, 9000u);
	EXPECT_EQ(m.Ack(0, kT0, kHot), 0u);
	EXPECT_EQ(f.status, NDT_CONGESTED);
	EXPECT_EQ(m.port.n_congested, 1u);
	EXPECT_EQ(m.Ack(0, kT0, 10 * kUs), 0u);		// not above
	EXPECT_EQ(f.status, NDT_NORMAL);
	EXPECT_EQ(m.port.n_congested, 0u);
	EXPECT_EQ(m.Ack(0, kT0, 10 * kUs + 1), 0u);
	EXPECT_EQ(f.status, NDT_CONGESTED);
	EXPECT_EQ(m.Ack(0, kT0, 1ULL << 40), 0u);	// saturates
	EXPECT_EQ(f.rtt_dst_last_ns, 0xffffffffU);
	m.CheckCounts();

	// Flow 1 has sent nothing yet: not active, not counted.
	EXPECT_EQ(m.Ack(1, kT0, kHot), 0u);
	EXPECT_EQ(m.flows[1].status, NDT_CONGESTED);
	EXPECT_EQ(m.port.n_active, 1u);
	EXPECT_EQ(m.port.n_congested, 1u);
	m.Enq(1, kT0);
	EXPECT_EQ(m.port.n_active, 2u);
	EXPECT_EQ(m.port.n_congested, 2u);
	m.CheckCounts();
}

// A NORMAL flow's packets go to N, a CONGESTED flow's to C.
TEST(reflex_ndt, EnqueueByStatus)
{
	Ndt m;

	ActivateFlows(m, 3, kT0);
	EXPECT_EQ(m.Ack(2, kT0, kHot), 0u);		// 1 of 3: no pause
	EXPECT_EQ(m.Enq(0, kT0), 0u);
	EXPECT_EQ(m.Enq(2, kT0), (u32)NDT_EV_CTL);
	EXPECT_EQ(m.Enq(2, kT0), (u32)NDT_EV_CTL);
	EXPECT_EQ(m.Enq(1, kT0), 0u);
	EXPECT_EQ(m.port.normal_qlen, 2u);
	EXPECT_EQ(m.port.ctl_qlen, 2u);
	EXPECT_EQ(m.flows[2].ctl_pkts, 2u);
	EXPECT_EQ(m.flows[2].last_seen_ns, kT0);
	m.CheckCounts();
}

// Out-of-order prevention (spec 2.6, scenario 6): flow 1 recovers while
// 3 of its packets wait in C; its next packets still go to C, behind
// them, until ctl_pkts is 0 again; only then N. A packet enqueued while
// one is left in C joins it. Flow 1's departures are 0..6 in order.
TEST(reflex_ndt, RecoveredFlowFollowsItsPacketsInC)
{
	Ndt m;
	std::vector<u32> seqs;

	for (u32 i = 0; i < 4; i++)
		m.Enq(0, kT0);				// N: flow 0, 0..3
	m.Ack(1, kT0, kHot);
	for (u32 i = 0; i < 3; i++)
		EXPECT_EQ(m.Enq(1, kT0), (u32)NDT_EV_CTL);	// 1 of 2
	EXPECT_EQ(m.Ack(1, kT0, kCold), 0u);		// recovered
	EXPECT_EQ(m.flows[1].status, NDT_NORMAL);
	EXPECT_EQ(m.port.n_congested, 0u);
	EXPECT_EQ(m.Enq(1, kT0), (u32)NDT_EV_CTL);	// seq 3: behind 0..2
	EXPECT_EQ(m.Enq(1, kT0), (u32)NDT_EV_CTL);	// seq 4
	EXPECT_EQ(m.flows[1].ctl_pkts, 5u);
	m.CheckCounts();

	// N's 4 with the WRR (credit 8: N first), then C alone; stop with
	// one of flow 1's packets left in C.
	EXPECT_EQ(m.DeqN(8, kT0), "NNNNCCCC");
	EXPECT_EQ(m.flows[1].ctl_pkts, 1u);
	EXPECT_EQ(m.Enq(1, kT0), (u32)NDT_EV_CTL);	// seq 5 still follows
	EXPECT_EQ(m.DeqN(2, kT0), "CC");
	EXPECT_EQ(m.flows[1].ctl_pkts, 0u);
	EXPECT_EQ(m.Enq(1, kT0), 0u);			// seq 6: now N
	EXPECT_EQ(m.DeqN(2, kT0), "N-");
	m.CheckCounts();

	for (const Pkt &pkt : m.out)
		if (pkt.flow == 1)
			seqs.push_back(pkt.seq);
	EXPECT_EQ(seqs, (std::vector<u32>{ 0, 1, 2, 3, 4, 5, 6 }));
}

// The same in the other direction (our addition to 2.6): a flow that
// turns CONGESTED with packets in N keeps to N until they have left.
// Else its next packet, alone in C, would take C's turn after flow 0's 8
// and leave ahead of the flow's own 2 older packets in N.
TEST(reflex_ndt, CongestedFlowFollowsItsPacketsInN)
{
	Ndt m;
	std::vector<u32> seqs;

	for (u32 i = 0; i < 8; i++)
		m.Enq(0, kT0);				// N: flow 0, 0..7
	for (u32 i = 0; i < 2; i++)
		EXPECT_EQ(m.Enq(1, kT0), 0u);		// N: flow 1, 0..1
	EXPECT_EQ(m.Ack(1, kT0, kHot), 0u);		// 1 of 2: no pause
	EXPECT_EQ(m.flows[1].status, NDT_CONGESTED);
	EXPECT_EQ(m.Enq(1, kT0), 0u);			// seq 2 follows to N
	EXPECT_EQ(m.flows[1].normal_pkts, 3u);
	m.CheckCounts();

	EXPECT_EQ(m.DeqN(11, kT0), std::string(11, 'N'));
	EXPECT_EQ(m.flows[1].normal_pkts, 0u);
	EXPECT_EQ(m.Enq(1, kT0), (u32)NDT_EV_CTL);	// seq 3: now C
	EXPECT_EQ(m.DeqN(2, kT0), "C-");
	m.CheckCounts();

	for (const Pkt &pkt : m.out)
		if (pkt.flow == 1)
			seqs.push_back(pkt.seq);
	EXPECT_EQ(seqs, (std::vector<u32>{ 0, 1, 2, 3 }));
}

// Both queues backlogged: N_throttle = 8 packets of N, then 1 of C, in
// exactly that order (spec 2.6; 8:1 by packets, 7.8).
TEST(reflex_ndt, Wrr8To1PopOrder)
{
	Ndt m;
	std::string want;

	for (u32 i = 0; i < 40; i++)
		m.Enq(0, kT0);
	m.Ack(1, kT0, kHot);
	for (u32 i = 0; i < 5; i++)
		EXPECT_EQ(m.Enq(1, kT0), (u32)NDT_EV_CTL);	// 1 of 2
	for (u32 i = 0; i < 5; i++)
		want += "NNNNNNNNC";
	EXPECT_EQ(m.DeqN(45, kT0), want);
	EXPECT_EQ(m.Deq(kT0), '-');
	// The 5th C went alone (N had just emptied): no credit refill.
	EXPECT_EQ(m.port.wrr_credit, 0u);
	m.CheckCounts();
}

// Untracked packets (ACKs, non-TCP, a flow the table had no room for)
// join N: they take N's WRR turns and leave no trace in the flow counts.
TEST(reflex_ndt, UntrackedPacketsJoinN)
{
	Ndt m;

	m.Enq(0, kT0);
	m.Ack(1, kT0, kHot);
	for (u32 i = 0; i < 2; i++)
		EXPECT_EQ(m.Enq(1, kT0), (u32)NDT_EV_CTL);	// 1 of 2: no pause
	for (u32 i = 0; i < 8; i++)
		m.EnqUntracked();
	m.CheckCounts();
	EXPECT_EQ(m.port.n_active, 2u);
	EXPECT_EQ(m.DeqN(12, kT0), "NNNNNNNNCNC-");
	EXPECT_EQ(m.out[0].flow, 0u);
	EXPECT_EQ(m.out[1].flow, kUntracked);
	EXPECT_EQ(m.out[8].flow, 1u);
	m.CheckCounts();
}

// Work conservation: either queue alone takes every turn; the WRR credit
// only moves while both are eligible, so a run of 3 N, a drained N, C
// alone, then both again resumes the round where it stopped: 5 more N,
// C's turn, then the last 2 N and C's last 3 alone.
TEST(reflex_ndt, WorkConserving)
{
	Ndt m;

	EXPECT_EQ(m.Deq(kT0), '-');			// nothing queued
	m.Ack(1, kT0, kHot);
	for (u32 i = 0; i < 3; i++)
		m.Enq(0, kT0);
	for (u32 i = 0; i < 6; i++)
		m.Enq(1, kT0);				// 1 of 2
	EXPECT_EQ(m.DeqN(5, kT0), "NNNCC");		// N empty: C alone
	EXPECT_EQ(m.port.wrr_credit, 5u);
	for (u32 i = 0; i < 7; i++)
		m.Enq(0, kT0);
	EXPECT_EQ(m.DeqN(12, kT0), "NNNNNCNNCCC-");
	m.CheckCounts();
	// Only N: every turn N, the credit untouched.
	for (u32 i = 0; i < 20; i++)
		m.Enq(0, kT0);
	EXPECT_EQ(m.DeqN(21, kT0), std::string(20, 'N') + "-");
	EXPECT_EQ(m.port.wrr_credit, 6u);
}

// The ratio test in fixed point: n_congested / max(1, n_active) > 0.7,
// strictly.
TEST(reflex_ndt, RatioAboveAlpha)
{
	Ndt m;

	m.port.n_active = 10;
	m.port.n_congested = 7;
	EXPECT_FALSE(ndt_ratio_above(&m.port, &m.p));	// 0.7
	m.port.n_congested = 8;
	EXPECT_TRUE(ndt_ratio_above(&m.port, &m.p));	// 0.8
	m.port.n_active = 1000000;
	m.port.n_congested = 700001;
	EXPECT_TRUE(ndt_ratio_above(&m.port, &m.p));
	m.port.n_active = 0;				// max(1, 0)
	m.port.n_congested = 0;
	EXPECT_FALSE(ndt_ratio_above(&m.port, &m.p));
	m.port.n_congested = 1;
	EXPECT_TRUE(ndt_ratio_above(&m.port, &m.p));
}

// The pause needs both: ratio > alpha AND packets in C. Ten active flows:
// 7 CONGESTED (0.7) with a packet in C does not pause; the ACK making the
// 8th CONGESTED does (PausedPort()). With C empty, 8 and 9 CONGESTED do
// not pause; the next packet into C does, at its enqueue.
TEST(reflex_ndt, PauseNeedsRatioAboveAlphaAndCtlBacklog)
{
	Ndt m, e;

	PausedPort(m, kT0);
	m.CheckCounts();

	ActivateFlows(e, 10, kT0);
	for (u32 id = 0; id < 9; id++)
		EXPECT_EQ(e.Ack(id, kT0 + kUs, kHot), 0u) << id;
	EXPECT_EQ(e.port.n_congested, 9u);
	EXPECT_EQ(e.port.paused, 0);
	EXPECT_EQ(e.Enq(9, kT0 + 2 * kUs), 0u);		// into N: |C| 0
	EXPECT_EQ(e.port.paused, 0);
	EXPECT_EQ(e.Enq(3, kT0 + 3 * kUs), (u32)(NDT_EV_CTL | NDT_EV_PAUSE));
	EXPECT_EQ(e.port.pause_start_ns, kT0 + 3 * kUs);
	e.CheckCounts();
}

// While paused, C is never served: N is, and with N empty the port idles
// though C holds packets; the WRR credit does not move. An ACK that
// leaves the ratio above alpha changes nothing.
TEST(reflex_ndt, NoCtlServiceWhilePaused)
{
	Ndt m;

	PausedPort(m, kT0);
	for (u32 i = 0; i < 3; i++)
		EXPECT_EQ(m.Enq(9, kT0 + kUs), 0u);	// NORMAL: N
	EXPECT_EQ(m.Enq(1, kT0 + kUs), (u32)NDT_EV_CTL);
	EXPECT_EQ(m.DeqN(5, kT0 + 2 * kUs), "NNN--");
	EXPECT_EQ(m.port.ctl_qlen, 2u);
	EXPECT_EQ(m.port.wrr_credit, 8u);
	EXPECT_EQ(m.Ack(2, kT0 + 3 * kUs, kHot), 0u);	// still 0.8
	EXPECT_EQ(m.DeqN(2, kT0 + 499 * kUs), "--");
	EXPECT_EQ(m.port.paused, 1);
	m.CheckCounts();
}

// Resume on an ACK that brings the ratio to alpha or below (7.7): C is
// served again, and a ratio-driven resume re-arms nothing, so the next
// ACK that lifts the ratio above alpha pauses at once; so does the next
// packet of a CONGESTED flow that was not active (8 of 11 = 0.727), no ACK
// between.
TEST(reflex_ndt, AckResumesWhenRatioFalls)
{
	Ndt m, n;

	PausedPort(m, kT0);
	EXPECT_EQ(m.Ack(7, kT0 + 20 * kUs, kCold), (u32)NDT_EV_RESUME);
	EXPECT_EQ(m.port.paused, 0);
	EXPECT_EQ(m.port.n_congested, 7u);
	EXPECT_EQ(m.port.rearm_after_ns, 0u);
	EXPECT_EQ(m.Enq(1, kT0 + 21 * kUs), (u32)NDT_EV_CTL);
	EXPECT_EQ(m.Deq(kT0 + 22 * kUs), 'C');		// flow 0's packet
	EXPECT_EQ(m.Ack(7, kT0 + 23 * kUs, kHot), (u32)NDT_EV_PAUSE);
	EXPECT_EQ(m.port.pause_start_ns, kT0 + 23 * kUs);
	EXPECT_EQ(m.Deq(kT0 + 24 * kUs), '-');
	m.CheckCounts();

	PausedPort(n, kT0);
	EXPECT_EQ(n.Ack(10, kT0 + 10 * kUs, kHot), 0u);	// not active yet
	EXPECT_EQ(n.Ack(7, kT0 + 20 * kUs, kCold), (u32)NDT_EV_RESUME);
	EXPECT_EQ(n.Enq(10, kT0 + 21 * kUs), (u32)(NDT_EV_CTL | NDT_EV_PAUSE));
	EXPECT_EQ(n.port.n_active, 11u);
	EXPECT_EQ(n.port.n_congested, 8u);
	n.CheckCounts();
}

// The pause ends at exactly T_maxpause (500 us) after it began, at the
// scheduler's check, which then serves C at once; re-arming is T_rearm
// (10 us) from that moment, and waits for an ACK.
TEST(reflex_ndt, TimeoutResumesAtExactlyTMaxpause)
{
	Ndt m;
	const u64 end = kT0 + 500 * kUs;

	PausedPort(m, kT0);
	EXPECT_FALSE(ndt_pause_expired(&m.port, &m.p, end - 1));
	EXPECT_EQ(m.Deq(end - 1), '-');
	EXPECT_EQ(m.port.paused, 1);
	EXPECT_EQ(m.Deq(end), 'C');
	EXPECT_EQ(m.port.paused, 0);
	EXPECT_EQ(m.port.rearm_after_ns, end + 10 * kUs);
	EXPECT_EQ(m.port.rearm_wait_ack, 1);
	EXPECT_FALSE(ndt_pause_expired(&m.port, &m.p, end + 1));
	m.CheckCounts();
}

// After a timeout resume, with the ratio still 0.8 and C backlogged, no
// pause before T_rearm and one ACK (7.7). (a) Enqueues up to and at
// rearm_after do not pause without an ACK; the first ACK after it does.
// (b) An ACK before rearm_after does not pause (too early) but counts:
// the first enqueue at rearm_after pauses.
TEST(reflex_ndt, NoRepauseBeforeRearmAndAck)
{
	const u64 end = kT0 + 500 * kUs, rearm = end + 10 * kUs;
	Ndt a, b;

	PausedPort(a, kT0);
	EXPECT_TRUE(ndt_pause_expired(&a.port, &a.p, end));
	EXPECT_EQ(a.Enq(1, end + 1), (u32)NDT_EV_CTL);
	EXPECT_EQ(a.Enq(1, rearm - 1), (u32)NDT_EV_CTL);
	EXPECT_EQ(a.Enq(1, rearm), (u32)NDT_EV_CTL);	// no ACK yet
	EXPECT_EQ(a.Enq(1, rearm + 5 * kUs), (u32)NDT_EV_CTL);
	EXPECT_EQ(a.port.paused, 0);
	EXPECT_EQ(a.Ack(2, rearm + 6 * kUs, kHot), (u32)NDT_EV_PAUSE);
	EXPECT_EQ(a.port.pause_start_ns, rearm + 6 * kUs);
	a.CheckCounts();

	PausedPort(b, kT0);
	EXPECT_TRUE(ndt_pause_expired(&b.port, &b.p, end));
	EXPECT_EQ(b.Ack(2, end + 5 * kUs, kHot), 0u);	// too early
	EXPECT_EQ(b.port.rearm_wait_ack, 0);
	EXPECT_EQ(b.Enq(1, rearm - 1), (u32)NDT_EV_CTL);
	EXPECT_EQ(b.Enq(1, rearm), (u32)(NDT_EV_CTL | NDT_EV_PAUSE));
	EXPECT_EQ(b.port.pause_start_ns, rearm);
	b.CheckCounts();
}

// Ageing (4.5): a flow is active while now - last_seen < T_active or it
// has packets in C; it leaves the counts at exactly T_active, and a new
// packet brings it back. Deletion (T_idle_gc) only after it aged out, at
// idle > 10 ms. FIN/RST: release, delete, and its packets left in C are
// booked without a flow.
TEST(reflex_ndt, AgeingGcAndRelease)
{
	Ndt m;
	ndt_flow &f0 = m.flows[0], &f1 = m.flows[1];

	m.Enq(0, kT0);
	m.Ack(1, kT0, kHot);
	m.Enq(1, kT0);					// 1 of 2
	EXPECT_EQ(m.Deq(kT0), 'N');
	EXPECT_FALSE(ndt_flow_age(&f0, &m.port, &m.p, kT0 + 100 * kUs - 1));
	EXPECT_TRUE(ndt_flow_age(&f0, &m.port, &m.p, kT0 + 100 * kUs));
	EXPECT_FALSE(ndt_flow_age(&f0, &m.port, &m.p, kT0 + 100 * kUs));
	EXPECT_EQ(m.port.n_active, 1u);
	// Flow 1 has a packet in C: it stays, however old.
	EXPECT_FALSE(ndt_flow_age(&f1, &m.port, &m.p, kT0 + 20 * kMs));
	EXPECT_FALSE(ndt_flow_idle(&f1, &m.p, kT0 + 20 * kMs));
	m.CheckCounts();

	EXPECT_FALSE(ndt_flow_idle(&f0, &m.p, kT0 + 10 * kMs));
	EXPECT_TRUE(ndt_flow_idle(&f0, &m.p, kT0 + 10 * kMs + 1));
	m.Enq(0, kT0 + 10 * kMs);			// back
	EXPECT_EQ(m.port.n_active, 2u);
	EXPECT_FALSE(ndt_flow_idle(&f0, &m.p, kT0 + 30 * kMs));
	m.CheckCounts();

	// FIN of flow 1 with its packet in C: out of the counts at once;
	// the packet leaves later without a flow.
	ndt_flow_release(&f1, &m.port);
	EXPECT_EQ(m.port.n_active, 1u);
	EXPECT_EQ(m.port.n_congested, 0u);
	ndt_flow_release(&f1, &m.port);			// idempotent
	EXPECT_EQ(m.port.n_active, 1u);
	EXPECT_EQ(ndt_schedule(&m.port, &m.p, kT0 + 10 * kMs),
		  (u32)NDT_PICK_NORMAL);
	ndt_on_dequeue(&f0, &m.port, false);
	EXPECT_EQ(ndt_schedule(&m.port, &m.p, kT0 + 10 * kMs),
		  (u32)NDT_PICK_CTL);
	ndt_on_dequeue(nullptr, &m.port, true);
	EXPECT_EQ(m.port.ctl_qlen, 0u);
	EXPECT_EQ(m.port.normal_qlen, 0u);
}

// A long deterministic trace over 6 flows (a fixed LCG picks enqueues,
// scheduler turns, RTT_dst samples of 5..15 us and ageing, time moving
// 0..20 us a step): after every event the port's counts equal a recount
// of the model; C is never served while paused; the port idles only if N
// is empty and C is empty or paused; no flow is ever reordered.
TEST(reflex_ndt, LongTraceKeepsCountsAndOrder)
{
	Ndt m;
	u32 lcg = 12345;
	u64 now = kT0;
	u32 last_seq[6] = {};
	bool seen[6] = {};
	u32 pauses = 0, ctl_served = 0;

	auto rnd = [&lcg](u32 n) {
		lcg = lcg * 1103515245U + 12345U;
		return (lcg >> 16) % n;
	};

	for (u32 step = 0; step < 20000; step++) {
		u32 op = rnd(10), id = rnd(6);
		size_t before = m.out.size();
		char got;

		now += rnd(20) * kUs;
		if (op < 4) {
			pauses += !!(m.Enq(id, now) & NDT_EV_PAUSE);
		} else if (op < 8) {
			got = m.Deq(now);
			if (got == 'C') {
				EXPECT_EQ(m.port.paused, 0) << step;
				ctl_served++;
			}
			if (got == '-') {
				EXPECT_TRUE(m.nq.empty()) << step;
				EXPECT_TRUE(m.cq.empty() || m.port.paused)
					<< step;
			}
		} else if (op < 9) {
			pauses += !!(m.Ack(id, now, (5 + rnd(11)) * kUs) &
				     NDT_EV_PAUSE);
		} else {
			ndt_flow_age(&m.flows[id], &m.port, &m.p, now);
		}
		m.CheckCounts();
		if (m.out.size() > before) {
			const Pkt &pkt = m.out.back();

			if (seen[pkt.flow]) {
				EXPECT_GT(pkt.seq, last_seq[pkt.flow]) << step;
			}
			seen[pkt.flow] = true;
			last_seq[pkt.flow] = pkt.seq;
		}
		if (::testing::Test::HasFailure())
			break;
	}
	// The trace exercised what it checks.
	EXPECT_GT(pauses, 0u);
	EXPECT_GT(ctl_served, 0u);
}
