// SPDX-License-Identifier: GPL-2.0
//
// Sender and Receiver end to end in memory on a simulated clock, every
// message through serialize() and parse(), with a fixed loss pattern: every
// 7th packet sent, every 5th ACK or NACK, the first transmission of block
// 5 whole (only the RTO repairs it) and of three packets of block 9 (only
// a NACK repairs it before the RTO).
#include <map>
#include <random>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "receiver.h"
#include "sender.h"

using namespace unorc;

namespace {

constexpr WireLimits kCode = { 8, 2, 1000 };
constexpr uint64_t kUs = 1000;
constexpr uint64_t kDelay = 50 * kUs; // one way
constexpr uint64_t kEcWait = 150 * kUs;
constexpr uint64_t kRto = 400 * kUs;
constexpr int kPerUs = 2; // packets sent per µs

using Bytes = std::vector<uint8_t>;
// Datagrams in flight by arrival time; equal times keep their order.
using Link = std::multimap<uint64_t, Bytes>;

template <typename B> Bytes concat(const B &head, std::span<const uint8_t> tail = {})
{
	Bytes b(head.begin(), head.end());
	b.insert(b.end(), tail.begin(), tail.end());
	return b;
}

bool lost(uint64_t seq, const PacketHeader &h)
{
	const bool first = !(h.flags & kFlagRetx);
	return seq % 7 == 0 || (first && h.block_id == 5) || (first && h.block_id == 9 && h.block_idx < 3);
}

Message parse_ok(const Bytes &b)
{
	Message m;
	EXPECT_EQ(parse(b.data(), b.size(), kCode, &m), WireError::Ok);
	return m;
}

} // namespace

TEST(Loop, EveryMessageArrivesBitExact)
{
	const size_t sizes[] = { 100000, 1, 999, 8000, 8001, 65536, 12345, 2000 };
	std::mt19937 rng(13);
	std::vector<DeliveredMessage> sent;
	Sender s({ .flow_id = 3, .code = kCode, .rto_ns = kRto, .subflows = 10 });
	Receiver r({ .flow_id = 3, .code = kCode, .ec_wait_ns = kEcWait, .max_blocks = 64 });
	for (size_t i = 0; i < std::size(sizes); i++) {
		Bytes b(sizes[i]);
		for (auto &byte : b)
			byte = static_cast<uint8_t>(rng());
		s.send_message(static_cast<uint32_t>(100 + i), b);
		sent.push_back({ static_cast<uint32_t>(100 + i), std::move(b) });
	}

	Link fwd, rev;
	std::vector<DeliveredMessage> got;
	std::vector<uint32_t> completed;
	uint64_t seq = 0, rev_seq = 0, now = 0;
	const auto reply = [&](Bytes b) {
		if (++rev_seq % 5)
			rev.emplace(now + kDelay, std::move(b));
	};
	for (; now < 100000 * kUs && completed.size() < sent.size(); now += kUs) {
		for (; !fwd.empty() && fwd.begin()->first <= now; fwd.erase(fwd.begin())) {
			const Bytes &d = fwd.begin()->second;
			const auto h = std::get<PacketHeader>(parse_ok(d));
			Received rx = r.on_packet(h, d.data() + kPacketHeaderSize, false, now);
			if (rx.ack)
				reply(concat(serialize(*rx.ack)));
			for (auto &m : rx.messages)
				got.push_back(std::move(m));
		}
		for (; !rev.empty() && rev.begin()->first <= now; rev.erase(rev.begin())) {
			const Message m = parse_ok(rev.begin()->second);
			if (const Ack *a = std::get_if<Ack>(&m))
				s.on_ack(*a, now);
			else
				s.on_nack(std::get<Nack>(m));
		}
		for (const Nack &n : r.tick(now))
			reply(concat(serialize(n)));
		s.scan(now);
		for (int k = 0; k < kPerUs; k++) {
			const auto o = s.next(now);
			if (!o)
				break;
			if (!lost(++seq, o->header))
				fwd.emplace(now + kDelay, concat(serialize(o->header), o->payload));
		}
		const auto done = s.take_completed();
		completed.insert(completed.end(), done.begin(), done.end());
	}
	EXPECT_EQ(got, sent);
	EXPECT_EQ(completed.size(), sent.size());
	EXPECT_EQ(s.blocks_held(), 0u);
	EXPECT_EQ(r.blocks_held(), 0u);
	// Every repair path ran.
	EXPECT_GT(r.counters().decoded, 0u);
	EXPECT_GT(r.counters().nacks, 0u);
	EXPECT_GT(s.counters().timeouts, 0u);
	EXPECT_GT(s.counters().retransmits, 0u);
}
