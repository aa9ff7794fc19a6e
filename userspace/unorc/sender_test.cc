// SPDX-License-Identifier: GPL-2.0
//
// Sender: packetization, sub-flow round robin (spec U14), RTO, NACK,
// completion and UnoLB's re-path (spec U15), on a simulated clock.
#include <set>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "sender.h"

using namespace unorc;

namespace {

constexpr WireLimits kCode = { 8, 2, 16 };
constexpr uint64_t kRto = 5000;

struct Pkt {
	PacketHeader h;
	std::vector<uint8_t> payload;
};

SenderConfig config(WireLimits code = kCode, int subflows = 10)
{
	return { .flow_id = 7, .code = code, .rto_ns = kRto, .subflows = subflows };
}

std::vector<uint8_t> pattern(size_t len, uint8_t seed)
{
	std::vector<uint8_t> b(len);
	for (size_t i = 0; i < len; i++)
		b[i] = static_cast<uint8_t>(i * 131 + seed);
	return b;
}

// Every packet next() gives, the k-th at now + k.
std::vector<Pkt> drain(Sender &s, uint64_t now = 0)
{
	std::vector<Pkt> out;
	while (auto o = s.next(now + out.size()))
		out.push_back({ o->header, { o->payload.begin(), o->payload.end() } });
	return out;
}

// The ACK a receiver sends for p.
Ack ack_of(const PacketHeader &p, uint32_t completed = kNoBlock, uint32_t highest = kNoBlock)
{
	return { .subflow = p.subflow,
		 .flow_id = p.flow_id,
		 .acked_psn = p.psn,
		 .echo_tx_ts_ns = p.tx_ts_ns,
		 .completed_block = completed,
		 .highest_completed_block = highest };
}

std::vector<int> indices(const std::vector<Pkt> &pkts)
{
	std::vector<int> idx;
	for (const Pkt &p : pkts)
		idx.push_back(p.h.block_idx);
	return idx;
}

} // namespace

// 100000 bytes in 1000-byte packets: 100 data packets in 13 blocks, the last
// with d = 4, and 13 * 2 parity; every packet on the next sub-flow.
TEST(Sender, Packetization)
{
	for (uint32_t msg_len : { 100000u, 99999u }) {
		Sender s(config({ 8, 2, 1000 }));
		const auto msg = pattern(msg_len, 3);
		s.send_message(42, msg);
		const auto pkts = drain(s, 1000);
		ASSERT_EQ(pkts.size(), 126u);
		EXPECT_EQ(s.blocks_held(), 13u);
		size_t data = 0, k = 0;
		std::vector<uint8_t> joined;
		for (uint32_t b = 0; b < 13; b++) {
			const bool last = b == 12;
			std::vector<int> idx = { 0, 1, 2, 3, 8, 9 };
			if (!last)
				idx.insert(idx.begin() + 4, { 4, 5, 6, 7 });
			for (int i : idx) {
				const PacketHeader &h = pkts[k].h;
				const bool parity = i >= 8;
				const uint16_t len = !parity && last && i == 3 ? 1000 - (100000 - msg_len) : 1000;
				EXPECT_EQ(h, (PacketHeader{ .type = parity ? Type::Parity : Type::Data,
							    .flags = last ? kFlagLastBlock : uint8_t{ 0 },
							    .subflow = static_cast<uint16_t>(k % 10),
							    .flow_id = 7,
							    .psn = b * 10ull + i,
							    .block_id = b,
							    .block_idx = static_cast<uint16_t>(i),
							    .payload_len = len,
							    .tx_ts_ns = 1000 + k,
							    .msg_id = 42,
							    .msg_len = msg_len }))
					<< "packet " << k;
				ASSERT_EQ(pkts[k].payload.size(), len);
				if (!parity) {
					data++;
					joined.insert(joined.end(), pkts[k].payload.begin(), pkts[k].payload.end());
				}
				k++;
			}
		}
		EXPECT_EQ(data, 100u);
		EXPECT_EQ(joined, msg);
	}
}

// Spec U14: packet k goes on sub-flow k mod S, a block covers every
// sub-flow, and a retransmission takes the next one.
TEST(Sender, SubflowRoundRobin)
{
	Sender s(config(kCode, 4));
	s.send_message(1, pattern(128 + 16, 1));
	const auto pkts = drain(s);
	ASSERT_EQ(pkts.size(), 13u);
	for (size_t k = 0; k < pkts.size(); k++)
		EXPECT_EQ(pkts[k].h.subflow, k % 4);
	EXPECT_EQ(s.scan(kRto + 12), 13);
	const auto again = drain(s, 10000);
	ASSERT_EQ(again.size(), 13u);
	EXPECT_EQ(again[0].h.subflow, 1);
	EXPECT_EQ(again[3].h.subflow, 0);
}

// Each packet times out at exactly tx_ts + rto, goes out again with RETX
// and a fresh tx_ts, and is not timed out again while queued.
TEST(Sender, RtoScan)
{
	Sender s(config());
	s.send_message(1, pattern(128, 1));
	ASSERT_EQ(drain(s).size(), 10u); // packet k at k
	EXPECT_EQ(s.scan(kRto - 1), 0);
	EXPECT_EQ(s.scan(kRto), 1);
	EXPECT_EQ(s.scan(kRto), 0);
	auto o = s.next(kRto + 100);
	ASSERT_TRUE(o);
	EXPECT_EQ(o->header.block_idx, 0);
	EXPECT_EQ(o->header.flags, kFlagRetx | kFlagLastBlock);
	EXPECT_EQ(o->header.tx_ts_ns, kRto + 100);
	EXPECT_EQ(o->header.subflow, 0);
	EXPECT_FALSE(s.next(kRto + 100));
	EXPECT_EQ(s.scan(kRto + 8), 8); // packets 1..8
	EXPECT_EQ(s.scan(2 * kRto + 99), 1); // packet 9
	// Packet 0, resent at kRto + 100 after one timeout: twice the RTO.
	EXPECT_EQ(s.scan(3 * kRto + 99), 0);
	EXPECT_EQ(s.scan(3 * kRto + 100), 1);
	EXPECT_EQ(indices(drain(s, 20000)), (std::vector<int>{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 0 }));
	EXPECT_EQ(s.counters().timeouts, 11u);
	EXPECT_EQ(s.counters().retransmits, 11u);
}

// A packet's RTO doubles at each of its timeouts, six times at most
// (kRtoMaxBackoff): it times out at exactly these multiples of the base
// RTO after its first send, resent at once each time.
TEST(Sender, RtoBacksOffPerTimeout)
{
	Sender s(config({ 1, 0, 16 }, 1));
	s.send_message(1, pattern(16, 1));
	ASSERT_TRUE(s.next(0));
	uint64_t t = 0;
	for (uint64_t deadline : { 1, 3, 7, 15, 31, 63, 127, 191, 255 }) {
		EXPECT_EQ(s.scan(deadline * kRto - 1), 0) << deadline;
		EXPECT_EQ(s.scan(deadline * kRto), 1) << deadline;
		t = deadline * kRto;
		ASSERT_TRUE(s.next(t));
	}
	EXPECT_EQ(s.counters().timeouts, 9u);
	EXPECT_EQ(s.counters().retransmits, 9u);
}

// A new ACK, of any packet, ends the backoff: the packet in flight keeps
// the deadline it left with (64 times), and its next timeout backs off
// from the base again, twice it.
TEST(Sender, RtoBackoffEndsWithNewAck)
{
	Sender s(config({ 1, 0, 16 }, 1));
	s.send_message(1, pattern(16, 1));
	ASSERT_TRUE(s.next(0));
	for (uint64_t deadline : { 1, 3, 7, 15, 31, 63 }) {
		ASSERT_EQ(s.scan(deadline * kRto), 1);
		ASSERT_TRUE(s.next(deadline * kRto));
	}
	s.send_message(2, pattern(16, 2));
	const auto other = s.next(63 * kRto + 1);
	ASSERT_TRUE(other);
	EXPECT_EQ(s.on_ack(ack_of(other->header), 63 * kRto + 2).acked_bytes, 16u);
	// A duplicate ACK is no progress.
	EXPECT_EQ(s.on_ack(ack_of(other->header), 63 * kRto + 3).acked_bytes, 0u);
	EXPECT_EQ(s.scan(127 * kRto - 1), 0);
	EXPECT_EQ(s.scan(127 * kRto), 1);
	ASSERT_TRUE(s.next(127 * kRto));
	EXPECT_EQ(s.scan(129 * kRto - 1), 0);
	EXPECT_EQ(s.scan(129 * kRto), 1);
	ASSERT_TRUE(s.next(129 * kRto));
	// Queued when a new ACK comes: it goes with the base RTO.
	s.send_message(3, pattern(16, 3));
	const auto third = s.next(132 * kRto + 1);
	ASSERT_TRUE(third);
	EXPECT_EQ(s.scan(133 * kRto - 1), 0);
	EXPECT_EQ(s.scan(133 * kRto), 1);
	s.on_ack(ack_of(third->header), 133 * kRto + 1);
	ASSERT_TRUE(s.next(133 * kRto + 2));
	EXPECT_EQ(s.scan(134 * kRto + 1), 0);
	EXPECT_EQ(s.scan(134 * kRto + 2), 1);
}

// The backed-off RTO stops at kRtoMaxNs (120 s), and a base above it is
// never backed off.
TEST(Sender, RtoBackoffStopsAtMax)
{
	constexpr uint64_t kSec = 1'000'000'000;
	SenderConfig cfg = config({ 1, 0, 16 }, 1);
	cfg.rto_ns = 10 * kSec;
	Sender s(cfg);
	s.send_message(1, pattern(16, 1));
	ASSERT_TRUE(s.next(0));
	for (uint64_t deadline : { 10, 30, 70, 150, 270, 390 }) {
		EXPECT_EQ(s.scan(deadline * kSec - 1), 0) << deadline;
		EXPECT_EQ(s.scan(deadline * kSec), 1) << deadline;
		ASSERT_TRUE(s.next(deadline * kSec));
	}
	cfg.rto_ns = 200 * kSec;
	Sender big(cfg);
	big.send_message(1, pattern(16, 1));
	ASSERT_TRUE(big.next(0));
	for (uint64_t deadline : { 200, 400, 600 }) {
		EXPECT_EQ(big.scan(deadline * kSec - 1), 0) << deadline;
		EXPECT_EQ(big.scan(deadline * kSec), 1) << deadline;
		ASSERT_TRUE(big.next(deadline * kSec));
	}
}

// A NACK resends exactly the block's unACKed packets, once however many
// NACKs come before they go out.
TEST(Sender, NackResendsUnacked)
{
	Sender s(config());
	s.send_message(1, pattern(256, 1));
	const auto pkts = drain(s);
	for (int i : { 0, 2, 4, 6, 8 })
		s.on_ack(ack_of(pkts[i].h), 100);
	EXPECT_EQ(s.on_nack({ 7, 0, kNoBlock }, 200), 5);
	EXPECT_EQ(s.on_nack({ 7, 0, kNoBlock }, 200), 0);
	const auto again = drain(s, 1000);
	EXPECT_EQ(indices(again), (std::vector<int>{ 1, 3, 5, 7, 9 }));
	for (const Pkt &p : again)
		EXPECT_TRUE(p.h.flags & kFlagRetx);
	// Not timed out before their new deadline.
	EXPECT_EQ(s.scan(1000 + kRto - 1), 10); // block 1's, sent at 10..19
	drain(s, 9000);
	EXPECT_EQ(s.on_nack({ 7, 0, kNoBlock }, 9000), 5);
	EXPECT_EQ(s.counters().retransmits, 15u);
}

// d ACKed packets complete a block: nothing of it goes again, a queued
// retransmission included.
TEST(Sender, DecodableBlockNeverResent)
{
	Sender s(config());
	s.send_message(1, pattern(128 * 2, 1));
	const auto pkts = drain(s);
	for (int i = 0; i < 5; i++)
		s.on_ack(ack_of(pkts[i].h), 100);
	EXPECT_EQ(s.on_nack({ 7, 0, kNoBlock }, 200), 5);
	for (int i = 5; i < 8; i++)
		s.on_ack(ack_of(pkts[i].h), 100);
	EXPECT_EQ(s.blocks_held(), 1u);
	EXPECT_EQ(s.on_nack({ 7, 0, kNoBlock }, 200), 0);
	EXPECT_EQ(s.scan(kRto), 0);
	// Block 1's packets 10..19 only.
	EXPECT_EQ(s.scan(kRto + 19), 10);
	const auto again = drain(s, 30000);
	ASSERT_EQ(again.size(), 10u);
	EXPECT_EQ(again[0].h.block_id, 1u);
	// A short block: d = 1.
	s.send_message(2, pattern(1, 2));
	const auto one = drain(s, 40000);
	ASSERT_EQ(one.size(), 3u);
	s.on_ack(ack_of(one[2].h), 40100);
	EXPECT_EQ(s.blocks_held(), 1u);
	EXPECT_EQ(s.take_completed(), (std::vector<uint32_t>{ 2 }));
}

TEST(Sender, MessageCompletion)
{
	Sender s(config());
	s.send_message(1, pattern(256, 1)); // blocks 0, 1
	s.send_message(2, pattern(100, 2)); // block 2
	s.send_message(3, pattern(16, 3));  // block 3
	const auto pkts = drain(s);
	ASSERT_EQ(pkts.size(), 20u + 9 + 3);
	EXPECT_THROW(s.send_message(2, pattern(1, 0)), std::invalid_argument);
	s.on_ack(ack_of(pkts[20].h, 2), 100);
	EXPECT_EQ(s.take_completed(), (std::vector<uint32_t>{ 2 }));
	EXPECT_TRUE(s.take_completed().empty());
	s.on_ack(ack_of(pkts[0].h, 0), 100);
	EXPECT_TRUE(s.take_completed().empty());
	EXPECT_EQ(s.blocks_held(), 2u);
	// A NACK names a highest complete block too.
	EXPECT_EQ(s.on_nack({ 7, 3, 2 }, 200), 3);
	EXPECT_EQ(s.take_completed(), (std::vector<uint32_t>{ 1 }));
	EXPECT_EQ(s.on_nack({ 7, 1, kNoBlock }, 200), 0);
	s.on_ack(ack_of(pkts[0].h, kNoBlock, 3), 100);
	EXPECT_EQ(s.take_completed(), (std::vector<uint32_t>{ 3 }));
	EXPECT_EQ(s.blocks_held(), 0u);
	EXPECT_FALSE(s.next(200));
	// The id is free again.
	s.send_message(2, pattern(1, 0));
	EXPECT_EQ(drain(s, 300)[0].h.block_id, 4u);
}

TEST(Sender, AckInfo)
{
	Sender s(config());
	s.send_message(1, pattern(128 + 16 + 5, 1));
	const auto pkts = drain(s, 100); // 14 packets, at 100..113
	Ack a = ack_of(pkts[11].h);      // block 1, idx 1: 5 bytes
	a.flags = kFlagEcnCeEcho;
	EXPECT_EQ(s.on_ack(a, 400), (AckInfo{ .acked_bytes = 5, .rtt_ns = 289, .ecn_ce = true }));
	// A duplicate, a late one and an echo from the future.
	EXPECT_EQ(s.on_ack(a, 500), (AckInfo{ .rtt_ns = 389, .ecn_ce = true }));
	a = ack_of(pkts[1].h);
	EXPECT_EQ(s.on_ack(a, 108), (AckInfo{ .acked_bytes = 16, .rtt_ns = 7 }));
	a = ack_of(pkts[2].h);
	a.echo_tx_ts_ns = 1000;
	EXPECT_EQ(s.on_ack(a, 999), (AckInfo{ .acked_bytes = 16 }));
	EXPECT_EQ(std::vector<uint64_t>(s.last_ack().begin(), s.last_ack().end()),
		  (std::vector<uint64_t>{ 0, 108, 999, 0, 0, 0, 0, 0, 0, 0 }));

	// Never sent (block 1 has no idx 2, block 2 not yet), an unknown
	// sub-flow: ignored.
	const uint64_t bad_psn[] = { 12, 20, 1ull << 40 };
	for (uint64_t psn : bad_psn) {
		a = ack_of(pkts[3].h);
		a.acked_psn = psn;
		EXPECT_EQ(s.on_ack(a, 1000), AckInfo{});
	}
	a = ack_of(pkts[3].h);
	a.subflow = 10;
	EXPECT_EQ(s.on_ack(a, 1000), AckInfo{});
	EXPECT_EQ(s.counters().bad_acks, 4u);
	// A block completed is still known.
	s.on_ack(ack_of(pkts[0].h, 0), 1000);
	EXPECT_EQ(s.on_ack(ack_of(pkts[4].h), 1004), (AckInfo{ .rtt_ns = 900 }));
	EXPECT_EQ(s.counters().bad_acks, 4u);
}

// Payload bytes in flight: from transmission to the ACK, a NACK or RTO
// (presumed lost) or the block's completion; resent, they count again.
TEST(Sender, InFlightBytes)
{
	Sender s(config());
	s.send_message(1, pattern(128 + 16 + 5, 1));
	EXPECT_TRUE(s.has_queued());
	EXPECT_EQ(s.in_flight_bytes(), 0u);
	// Block 0: 10 packets of 16 bytes; block 1: data of 16 and 5 bytes,
	// parity of 16.
	const auto pkts = drain(s, 100);
	EXPECT_FALSE(s.has_queued());
	EXPECT_EQ(s.in_flight_bytes(), 160u + 16 + 5 + 32);
	s.on_ack(ack_of(pkts[11].h), 200);
	s.on_ack(ack_of(pkts[11].h), 201); // a duplicate
	EXPECT_EQ(s.in_flight_bytes(), 208u);
	EXPECT_EQ(s.on_nack({ 7, 1, kNoBlock }, 250), 3);
	EXPECT_TRUE(s.has_queued());
	EXPECT_EQ(s.in_flight_bytes(), 160u);
	EXPECT_EQ(drain(s, 300).size(), 3u);
	EXPECT_EQ(s.in_flight_bytes(), 208u);
	// Block 0 completes on its 8th ACK: its parity leaves the window too.
	for (int i = 0; i < 8; i++)
		s.on_ack(ack_of(pkts[i].h), 400);
	EXPECT_EQ(s.in_flight_bytes(), 48u);
	EXPECT_EQ(s.scan(300 + kRto + 2), 3);
	EXPECT_EQ(s.in_flight_bytes(), 0u);
	drain(s, 9000);
	EXPECT_EQ(s.in_flight_bytes(), 48u);
}

TEST(Sender, RejectsBadConfigAndArguments)
{
	SenderConfig cfg = config();
	cfg.rto_ns = 0;
	EXPECT_THROW(Sender{ cfg }, std::invalid_argument);
	EXPECT_THROW(Sender(config(kCode, 0)), std::invalid_argument);
	EXPECT_THROW(Sender(config(kCode, 17)), std::invalid_argument);
	EXPECT_NO_THROW(Sender(config(kCode, 16)));
	EXPECT_THROW(Sender(config({ 8, 2, 0 })), std::invalid_argument);
	cfg = config(kCode, 2);
	cfg.lb.entropy = { 1, 2, 3 };
	EXPECT_THROW(Sender{ cfg }, std::invalid_argument);
	cfg.lb = { .mode = static_cast<unolb_mode>(3) };
	EXPECT_THROW(Sender{ cfg }, std::invalid_argument);
	cfg.lb = { .span = 0 };
	EXPECT_THROW(Sender{ cfg }, std::invalid_argument);
	Sender s(config());
	EXPECT_THROW(s.send_message(1, {}), std::invalid_argument);
	EXPECT_THROW(s.on_ack(Ack{ .flow_id = 8 }, 0), std::invalid_argument);
	EXPECT_THROW(s.on_nack(Nack{ .flow_id = 8 }, 0), std::invalid_argument);
}

namespace {

constexpr uint64_t kStart = 1000;
constexpr uint64_t kBaseRtt = 2000;

// Four sub-flows on ports 40000..40003; fresh ones from 49152 + 0..16383.
SenderConfig lb_config(unolb_mode mode)
{
	SenderConfig cfg = config(kCode, 4);
	cfg.lb = { .mode = mode, .entropy = { 40000, 40001, 40002, 40003 }, .first = 49152,
		   .span = 16384 };
	return cfg;
}

// Draws that map to the fresh ports 49152 + 10 + k for sub-flow k.
LbDraws draws()
{
	LbDraws d;
	for (uint32_t k = 0; k < d.size(); k++)
		d[k] = (10 + k) << 18;
	return d;
}

struct Moves {
	std::vector<std::pair<uint16_t, uint32_t>> asked;
	std::set<uint16_t> refuse;

	MovePath path()
	{
		return [this](uint16_t k, uint32_t entropy) {
			asked.emplace_back(k, entropy);
			return !refuse.contains(k);
		};
	}
};

std::vector<uint32_t> entropies(const Sender &s)
{
	return { s.entropy().begin(), s.entropy().end() };
}

} // namespace

// Spec U15 through the Sender: ACKs on sub-flows 0..2 keep them; silent
// sub-flow 3 gets a fresh entropy, and not another within a base RTT.
TEST(Sender, RepathMovesTheSilentSubflow)
{
	Sender s(lb_config(UNOLB_REPATH_REDRAW), kStart);
	s.send_message(1, pattern(128, 1));
	const auto pkts = drain(s, kStart); // packet k on sub-flow k % 4
	uint64_t now = kStart + kBaseRtt + 1;
	for (int i = 0; i < 3; i++)
		s.on_ack(ack_of(pkts[i].h), now);
	Moves m;
	EXPECT_EQ(s.repath(now, kBaseRtt, draws(), m.path()), 0x8u);
	EXPECT_EQ(m.asked, (std::vector<std::pair<uint16_t, uint32_t>>{ { 3, 49152 + 13 } }));
	EXPECT_EQ(entropies(s), (std::vector<uint32_t>{ 40000, 40001, 40002, 49152 + 13 }));
	EXPECT_EQ(s.last_ack()[3], kStart);

	now += kBaseRtt;
	for (int i = 0; i < 3; i++)
		s.on_ack(ack_of(pkts[i].h), now);
	EXPECT_EQ(s.repath(now, kBaseRtt, draws(), m.path()), 0u);
	EXPECT_EQ(m.asked.size(), 1u);
}

// A move the Paths refuse leaves the sub-flow on its entropy, and the
// rule's rate limit holds for it as for a moved one.
TEST(Sender, RefusedMoveKeepsTheEntropy)
{
	Sender s(lb_config(UNOLB_REPATH_REDRAW), kStart);
	Moves m;
	m.refuse = { 1 };
	const uint64_t now = kStart + kBaseRtt + 1;
	EXPECT_EQ(s.repath(now, kBaseRtt, draws(), m.path()), 0xfu);
	EXPECT_EQ(m.asked.size(), 4u);
	EXPECT_EQ(entropies(s), (std::vector<uint32_t>{ 49152 + 10, 40001, 49152 + 12, 49152 + 13 }));
	EXPECT_EQ(s.repath(now + kBaseRtt, kBaseRtt, draws(), m.path()), 0u);
	// The same draws: only sub-flow 1's entropy would change, and again
	// it may not.
	EXPECT_EQ(s.repath(now + kBaseRtt + 1, kBaseRtt, draws(), m.path()), 0x2u);
	EXPECT_EQ(m.asked.size(), 5u);
	EXPECT_EQ(entropies(s), (std::vector<uint32_t>{ 49152 + 10, 40001, 49152 + 12, 49152 + 13 }));
}

// copy_good: the silent sub-flows take the entropies of the ACKed ones;
// off: nothing moves.
TEST(Sender, RepathModes)
{
	Sender s(lb_config(UNOLB_REPATH_COPY_GOOD), kStart);
	s.send_message(1, pattern(128, 1));
	const auto pkts = drain(s, kStart);
	const uint64_t now = kStart + 2 * kBaseRtt;
	s.on_ack(ack_of(pkts[2].h), now);
	Moves m;
	EXPECT_EQ(s.repath(now, kBaseRtt, draws(), m.path()), 0xbu);
	EXPECT_EQ(entropies(s), (std::vector<uint32_t>{ 40002, 40002, 40002, 40002 }));

	Sender off(lb_config(UNOLB_REPATH_OFF), kStart);
	EXPECT_EQ(off.repath(now, kBaseRtt, draws(), m.path()), 0u);
	EXPECT_EQ(entropies(off), (std::vector<uint32_t>{ 40000, 40001, 40002, 40003 }));
	EXPECT_EQ(m.asked.size(), 3u);
}

// A NACK re-paths only for a block still held: one complete, by the
// NACK's own highest_completed_block too, is no trigger (spec 6.3).
TEST(Sender, HoldsTheBlocksNotComplete)
{
	Sender s(config());
	s.send_message(1, pattern(256, 1)); // blocks 0, 1
	EXPECT_TRUE(s.holds(0));
	EXPECT_FALSE(s.holds(2));
	drain(s);
	s.on_nack({ 7, 0, 0 }, 100);
	EXPECT_FALSE(s.holds(0));
	EXPECT_TRUE(s.holds(1));
}

namespace {

// The NACK of a trimmed transmission of a packet, sent at tx_ts.
Nack trim_nack(uint32_t block_id, uint16_t block_idx, uint64_t tx_ts = 0,
	       uint32_t highest = kNoBlock)
{
	return { .flow_id = 7,
		 .block_id = block_id,
		 .highest_completed_block = highest,
		 .trimmed = true,
		 .block_idx = block_idx,
		 .echo_tx_ts_ns = tx_ts };
}

} // namespace

// A TRIMMED NACK queues its one packet, at once and once: it leaves the
// window, goes out next with RETX and a fresh RTO, and a second NACK
// before it has gone changes nothing; nor, once it has, does a NACK of
// the trimmed transmission: the one in flight is another.
TEST(Sender, TrimNackResendsThatPacketOnly)
{
	Sender s(config());
	s.send_message(1, pattern(256, 1)); // blocks 0 and 1
	const auto pkts = drain(s, 100);    // packet k at 100 + k
	EXPECT_EQ(s.in_flight_bytes(), 320u);
	EXPECT_EQ(s.on_nack(trim_nack(0, 3, 103), 150), 1);
	EXPECT_EQ(s.in_flight_bytes(), 304u);
	EXPECT_TRUE(s.has_queued());
	EXPECT_EQ(s.on_nack(trim_nack(0, 3, 103), 151), 0);
	const auto again = drain(s, 160);
	ASSERT_EQ(again.size(), 1u);
	EXPECT_EQ(again[0].h.psn, 3u);
	EXPECT_EQ(again[0].h.flags, kFlagRetx);
	EXPECT_EQ(again[0].h.tx_ts_ns, 160u);
	EXPECT_EQ(again[0].payload, pkts[3].payload);
	EXPECT_EQ(s.in_flight_bytes(), 320u);
	EXPECT_EQ(s.on_nack(trim_nack(0, 3, 103), 165), 0);
	EXPECT_EQ(s.in_flight_bytes(), 320u);
	// Its RTO runs from the resend, the others' from their first send.
	EXPECT_EQ(s.scan(100 + kRto + 19), 19);
	EXPECT_EQ(s.scan(160 + kRto - 1), 0);
	EXPECT_EQ(s.scan(160 + kRto), 1);
	const SenderCounters &c = s.counters();
	EXPECT_EQ(c.trim_resends, 1u);
	EXPECT_EQ(c.trim_nacks_ignored, 2u);
	EXPECT_EQ(c.retransmits, 1u);
	EXPECT_EQ(c.bad_nacks, 0u);
}

// A TRIMMED NACK naming nothing to resend changes nothing, and neither
// does its highest_completed_block: the packet ACKed or its block
// complete (ignored), or never sent: an index a short block never sends,
// one beyond n, a packet not yet sent, a block not reached (bad). A
// block's NACK of a block never sent is bad too.
TEST(Sender, TrimNackOfNothingToResendChangesNothing)
{
	Sender s(config());
	s.send_message(1, pattern(128, 1)); // block 0: 10 packets
	s.send_message(2, pattern(48, 2));  // block 1: d = 3, sends 0..2, 8, 9
	const auto pkts = drain(s, 100);
	ASSERT_EQ(pkts.size(), 15u);
	s.send_message(3, pattern(16, 3)); // block 2: d = 1, sends 0, 8, 9
	ASSERT_TRUE(s.next(200));          // block 2's packet 0
	s.send_message(4, pattern(16, 4)); // block 3: none sent
	s.on_ack(ack_of(pkts[2].h), 210);
	const uint64_t in_flight = s.in_flight_bytes();
	ASSERT_EQ(in_flight, 15u * 16); // 15 + 1 sent, 1 ACKed
	const Nack ignored[] = { trim_nack(0, 2, 102), trim_nack(0, 2, 102, 0) };
	const Nack bad[] = {
		trim_nack(1, 5),     trim_nack(1, 10),          trim_nack(2, 8),
		trim_nack(2, 8, 0, 1), trim_nack(3, 0),         trim_nack(4, 0),
		trim_nack(4, 0, 0, 3),  trim_nack(kNoBlock - 1, 9), Nack{ 7, 3, 2 },
		Nack{ 7, 4, 3 },
	};
	for (const Nack &n : ignored)
		EXPECT_EQ(s.on_nack(n, 300), 0) << n.block_id << " " << n.block_idx;
	for (const Nack &n : bad)
		EXPECT_EQ(s.on_nack(n, 300), 0) << n.block_id << " " << n.block_idx;
	EXPECT_EQ(s.in_flight_bytes(), in_flight);
	EXPECT_EQ(s.blocks_held(), 4u);
	EXPECT_TRUE(s.take_completed().empty());
	// Block 2's 8 and 9, block 3's 0, 8 and 9: nothing else queued.
	EXPECT_EQ(drain(s, 400).size(), 5u);
	// Block 0 complete: a trim of it is stale.
	s.on_ack(ack_of(pkts[0].h, 0), 500);
	EXPECT_EQ(s.on_nack(trim_nack(0, 7, 107), 510), 0);
	EXPECT_FALSE(s.has_queued());
	const SenderCounters &c = s.counters();
	EXPECT_EQ(c.trim_nacks_ignored, 3u);
	EXPECT_EQ(c.bad_nacks, std::size(bad));
	EXPECT_EQ(c.trim_resends, 0u);
	EXPECT_EQ(c.retransmits, 0u);
	EXPECT_TRUE(s.take_trim_repairs().empty());
}

// A trim's repair is timed to the resend's ACK or to the block's
// completion, whichever comes first, from the trimmed transmission, from
// the NACK and from the resend; a packet trimmed again on its resend
// counts once, from its first trimmed transmission, its last NACK and the
// resend that NACK sent.
TEST(Sender, TrimRepairTimes)
{
	Sender s(config());
	s.send_message(1, pattern(256, 1)); // blocks 0 and 1
	const auto pkts = drain(s, 100);    // packet k at 100 + k
	s.on_nack(trim_nack(0, 3, 103), 150);
	const auto r3 = drain(s, 160);
	ASSERT_EQ(r3.size(), 1u);
	s.on_ack(ack_of(r3[0].h), 200);
	EXPECT_EQ(s.take_trim_repairs(), (std::vector<TrimRepair>{ { 200 - 103, 200 - 150, 200 - 160, 1 } }));

	s.on_nack(trim_nack(0, 5, 105), 210);
	const auto r5 = drain(s, 220);
	EXPECT_EQ(s.on_nack(trim_nack(0, 5, 220), 300), 1);
	EXPECT_EQ(drain(s, 310).size(), 1u);
	EXPECT_TRUE(s.take_trim_repairs().empty());
	s.on_ack(ack_of(r5[0].h), 400);
	EXPECT_EQ(s.take_trim_repairs(), (std::vector<TrimRepair>{ { 400 - 105, 400 - 300, 400 - 310, 2 } }));

	// Block 1's packet 1, trimmed: its block completes on eight other
	// ACKs before the resend's.
	s.on_nack(trim_nack(1, 1, 111), 500);
	const auto r11 = drain(s, 510);
	for (int i : { 10, 12, 13, 14, 15, 16, 17 })
		s.on_ack(ack_of(pkts[i].h), 600);
	EXPECT_TRUE(s.take_trim_repairs().empty());
	s.on_ack(ack_of(pkts[18].h), 650);
	EXPECT_FALSE(s.holds(1));
	EXPECT_EQ(s.take_trim_repairs(), (std::vector<TrimRepair>{ { 650 - 111, 650 - 500, 650 - 510, 1 } }));
	s.on_ack(ack_of(r11[0].h), 700);
	EXPECT_TRUE(s.take_trim_repairs().empty());
	EXPECT_EQ(s.counters().trim_resends, 4u);
	EXPECT_EQ(s.counters().retransmits, 4u);
}

// A block that completes before its trimmed packet's resend leaves
// repairs that packet with no resend to time, and drops the resend.
TEST(Sender, TrimRepairBeforeTheResend)
{
	Sender s(config());
	s.send_message(1, pattern(256, 1)); // blocks 0 and 1
	const auto pkts = drain(s, 100);    // packet k at 100 + k
	s.on_nack(trim_nack(1, 1, 111), 500);
	for (int i : { 10, 12, 13, 14, 15, 16, 17, 18 })
		s.on_ack(ack_of(pkts[i].h), 600);
	EXPECT_FALSE(s.holds(1));
	EXPECT_EQ(s.take_trim_repairs(),
		  (std::vector<TrimRepair>{ { 600 - 111, 600 - 500, std::nullopt, 1 } }));
	EXPECT_TRUE(drain(s, 700).empty());
	EXPECT_EQ(s.counters().retransmits, 0u);
}
