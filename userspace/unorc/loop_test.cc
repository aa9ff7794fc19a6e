// SPDX-License-Identifier: GPL-2.0
//
// Sender and Receiver end to end in memory on a simulated clock, every
// message through serialize() and parse(), with a fixed loss pattern: every
// 7th packet sent, every 5th ACK or NACK, the first transmission of block
// 5 whole (only the RTO repairs it) and of three packets of block 9 (only
// a NACK repairs it before the RTO). Then with a switch that trims the
// first transmission of every 7th packet and of those three instead of
// dropping them: the headers, parsed with the trim DSCP, get their TRIMMED
// NACKs, and each trim is repaired within one RTT of its NACK.
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

// What the network does to the seq-th packet sent (from 1).
enum class Fate { Deliver, Lose, Trim };
using FateRule = Fate (*)(uint64_t seq, const PacketHeader &h);

Fate lossy(uint64_t seq, const PacketHeader &h)
{
	const bool first = !(h.flags & kFlagRetx);
	const bool lost = seq % 7 == 0 || (first && h.block_id == 5) ||
			  (first && h.block_id == 9 && h.block_idx < 3);
	return lost ? Fate::Lose : Fate::Deliver;
}

// A switch that trims instead of dropping the first transmission of every
// 7th packet and of three packets of block 9 (one more than the parity
// repairs); resends pass.
Fate trimming(uint64_t seq, const PacketHeader &h)
{
	const bool first = !(h.flags & kFlagRetx);
	const bool trim = seq % 7 == 0 || (h.block_id == 9 && h.block_idx < 3);
	return first && trim ? Fate::Trim : Fate::Deliver;
}

Message parse_ok(const Bytes &b, bool trimmed = false)
{
	Message m;
	EXPECT_EQ(parse(b.data(), b.size(), kCode, &m, trimmed), WireError::Ok);
	return m;
}

struct Datagram {
	Bytes bytes;
	bool trimmed = false; // its header alone, with the trim DSCP
};

struct Outcome {
	std::vector<DeliveredMessage> sent = {}, got = {};
	std::vector<uint32_t> completed = {};
	std::vector<TrimRepair> trim_repairs = {};
	uint64_t trimmed = 0; // headers sent trimmed
	SenderCounters tx = {};
	ReceiverCounters rx = {};
	size_t tx_blocks = 0, rx_blocks = 0;
};

std::vector<DeliveredMessage> messages()
{
	const size_t sizes[] = { 100000, 1, 999, 8000, 8001, 65536, 12345, 2000 };
	std::mt19937 rng(13);
	std::vector<DeliveredMessage> out;
	for (size_t i = 0; i < std::size(sizes); i++) {
		Bytes b(sizes[i]);
		for (auto &byte : b)
			byte = static_cast<uint8_t>(rng());
		out.push_back({ static_cast<uint32_t>(100 + i), std::move(b) });
	}
	return out;
}

// Sends messages() from a Sender to a Receiver over links of kDelay each
// way, every packet's fate by fate, every 5th ACK or NACK lost if
// lose_replies, on a clock of 1 us steps.
Outcome run(FateRule fate, bool lose_replies)
{
	Outcome out = { .sent = messages() };
	Sender s({ .flow_id = 3, .code = kCode, .rto_ns = kRto, .subflows = 10 });
	Receiver r({ .flow_id = 3, .code = kCode, .ec_wait_ns = kEcWait, .max_blocks = 64 });
	for (const DeliveredMessage &m : out.sent)
		s.send_message(m.msg_id, m.bytes);

	std::multimap<uint64_t, Datagram> fwd;
	Link rev;
	uint64_t seq = 0, rev_seq = 0, now = 0;
	const auto reply = [&](Bytes b) {
		if (!lose_replies || ++rev_seq % 5)
			rev.emplace(now + kDelay, std::move(b));
	};
	for (; now < 100000 * kUs && out.completed.size() < out.sent.size(); now += kUs) {
		for (; !fwd.empty() && fwd.begin()->first <= now; fwd.erase(fwd.begin())) {
			const Datagram &d = fwd.begin()->second;
			const Message m = parse_ok(d.bytes, d.trimmed);
			if (const Trimmed *t = std::get_if<Trimmed>(&m)) {
				if (const auto n = r.on_trim(t->header))
					reply(concat(serialize(*n)));
				continue;
			}
			const auto h = std::get<PacketHeader>(m);
			const uint8_t *payload = d.bytes.data() + kPacketHeaderSize;
			Received rx = r.on_packet(h, payload, false, now);
			if (rx.ack)
				reply(concat(serialize(*rx.ack)));
			for (auto &msg : rx.messages)
				out.got.push_back(std::move(msg));
		}
		for (; !rev.empty() && rev.begin()->first <= now; rev.erase(rev.begin())) {
			const Message m = parse_ok(rev.begin()->second);
			if (const Ack *a = std::get_if<Ack>(&m))
				s.on_ack(*a, now);
			else
				s.on_nack(std::get<Nack>(m), now);
		}
		for (const Nack &n : r.tick(now))
			reply(concat(serialize(n)));
		s.scan(now);
		for (int k = 0; k < kPerUs; k++) {
			const auto o = s.next(now);
			if (!o)
				break;
			const auto head = serialize(o->header);
			switch (fate(++seq, o->header)) {
			case Fate::Deliver:
				fwd.emplace(now + kDelay, Datagram{ concat(head, o->payload) });
				break;
			case Fate::Trim:
				out.trimmed++;
				fwd.emplace(now + kDelay, Datagram{ concat(head), true });
				break;
			case Fate::Lose:
				break;
			}
		}
		const auto done = s.take_completed();
		out.completed.insert(out.completed.end(), done.begin(), done.end());
		const auto repairs = s.take_trim_repairs();
		out.trim_repairs.insert(out.trim_repairs.end(), repairs.begin(), repairs.end());
	}
	out.tx = s.counters();
	out.rx = r.counters();
	out.tx_blocks = s.blocks_held();
	out.rx_blocks = r.blocks_held();
	return out;
}

} // namespace

TEST(Loop, EveryMessageArrivesBitExact)
{
	const Outcome r = run(lossy, true);
	EXPECT_EQ(r.got, r.sent);
	EXPECT_EQ(r.completed.size(), r.sent.size());
	EXPECT_EQ(r.tx_blocks, 0u);
	EXPECT_EQ(r.rx_blocks, 0u);
	// Every repair path ran.
	EXPECT_GT(r.rx.decoded, 0u);
	EXPECT_GT(r.rx.nacks, 0u);
	EXPECT_GT(r.tx.timeouts, 0u);
	EXPECT_GT(r.tx.retransmits, 0u);
}

// Trimmed instead of lost, nothing lost on the way back: each trim is
// NACKed as its header lands, one base RTT (2 kDelay) after the trimmed
// packet left, and repaired by its resend one base RTT later, or sooner
// by its block's decoding. No NACK timer, no RTO.
TEST(Loop, TrimsAreRepairedWithinOneRttOfTheirNack)
{
	const Outcome r = run(trimming, false);
	EXPECT_EQ(r.got, r.sent);
	EXPECT_EQ(r.completed.size(), r.sent.size());
	EXPECT_EQ(r.tx_blocks, 0u);
	EXPECT_EQ(r.rx_blocks, 0u);
	EXPECT_GT(r.trimmed, 3u);
	EXPECT_EQ(r.rx.trims + r.rx.trims_unwanted, r.trimmed);
	EXPECT_EQ(r.tx.trim_resends + r.tx.trim_nacks_ignored, r.rx.trims);
	// A resend queued is dropped if its block completes first.
	EXPECT_LE(r.tx.retransmits, r.tx.trim_resends);
	EXPECT_GT(r.tx.retransmits, 0u);
	EXPECT_EQ(r.tx.bad_nacks, 0u);
	EXPECT_EQ(r.rx.nacks, 0u);
	EXPECT_EQ(r.tx.timeouts, 0u);
	EXPECT_GT(r.rx.decoded, 0u);
	// Block 9 needed a resend: the first to land completes it, with the
	// other two trims.
	EXPECT_GE(r.trim_repairs.size(), 3u);
	uint64_t by_resend = 0;
	for (const TrimRepair &t : r.trim_repairs) {
		EXPECT_EQ(t.trims, 1u);
		EXPECT_LE(t.since_nack_ns, 2 * kDelay);
		EXPECT_EQ(t.since_send_ns - t.since_nack_ns, 2 * kDelay);
		by_resend += t.since_nack_ns == 2 * kDelay;
		// Resent at its NACK: the resend's round trip is all of it.
		if (t.since_resend_ns) {
			EXPECT_EQ(*t.since_resend_ns, t.since_nack_ns);
		}
	}
	EXPECT_GE(by_resend, 1u);
}
