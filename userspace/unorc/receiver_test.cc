// SPDX-License-Identifier: GPL-2.0
//
// Receiver: exact traces on a simulated clock. Packets come from a Sender
// (sender_test.cc pins its packetization) with the (8, 2) code and 16-byte
// payloads.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "receiver.h"
#include "sender.h"

using namespace unorc;

namespace {

constexpr WireLimits kCode = { 8, 2, 16 };
constexpr uint64_t kWait = 1000;

struct Pkt {
	PacketHeader h;
	std::vector<uint8_t> payload;
};

ReceiverConfig config(uint32_t max_blocks = 16, WireLimits code = kCode)
{
	return { .flow_id = 7, .code = code, .ec_wait_ns = kWait, .max_blocks = max_blocks };
}

std::vector<uint8_t> pattern(size_t len, uint8_t seed)
{
	std::vector<uint8_t> b(len);
	for (size_t i = 0; i < len; i++)
		b[i] = static_cast<uint8_t>(i * 131 + seed);
	return b;
}

// Every packet of the messages, in the order a Sender sends them.
std::vector<Pkt> packets(const std::vector<std::pair<uint32_t, size_t>> &msgs, WireLimits code = kCode)
{
	Sender s({ .flow_id = 7, .code = code, .rto_ns = 1, .subflows = 10 });
	for (auto [id, len] : msgs)
		s.send_message(id, pattern(len, static_cast<uint8_t>(id)));
	std::vector<Pkt> out;
	while (auto o = s.next(0))
		out.push_back({ o->header, { o->payload.begin(), o->payload.end() } });
	return out;
}

// The packet of block_id, block_idx.
const Pkt &find(const std::vector<Pkt> &pkts, uint32_t block_id, uint16_t block_idx)
{
	for (const Pkt &p : pkts)
		if (p.h.block_id == block_id && p.h.block_idx == block_idx)
			return p;
	throw std::logic_error("no such packet");
}

Received feed(Receiver &r, const Pkt &p, uint64_t now, bool ce = false)
{
	return r.on_packet(p.h, p.payload.data(), ce, now);
}

// Feeds block_id's packets but those in lost, in block_idx order; returns
// what the last one fed returned.
Received feed_block(Receiver &r, const std::vector<Pkt> &pkts, uint32_t block_id,
		    const std::vector<int> &lost, uint64_t now = 0)
{
	Received last;
	for (const Pkt &p : pkts)
		if (p.h.block_id == block_id &&
		    std::find(lost.begin(), lost.end(), p.h.block_idx) == lost.end())
			last = feed(r, p, now);
	return last;
}

} // namespace

TEST(Receiver, AckFields)
{
	const auto pkts = packets({ { 1, 128 } });
	Receiver r(config());
	Pkt p = find(pkts, 0, 2);
	p.h.subflow = 5;
	p.h.tx_ts_ns = 777;
	const Received got = feed(r, p, 1000, true);
	ASSERT_TRUE(got.ack);
	EXPECT_EQ(*got.ack, (Ack{ .flags = kFlagEcnCeEcho,
				  .subflow = 5,
				  .flow_id = 7,
				  .acked_psn = 2,
				  .cum_psn = 0,
				  .echo_tx_ts_ns = 777,
				  .completed_block = kNoBlock,
				  .highest_completed_block = kNoBlock }));
	EXPECT_TRUE(got.messages.empty());
	// cum_psn moves over psn 0..2 once 0 and 1 are in.
	EXPECT_EQ(feed(r, find(pkts, 0, 0), 1001).ack->cum_psn, 1u);
	EXPECT_EQ(feed(r, find(pkts, 0, 1), 1002).ack->cum_psn, 3u);
	EXPECT_EQ(feed(r, find(pkts, 0, 1), 1002).ack->flags, 0);
}

// Armed at the first packet, fires at exactly + ec_wait, disarmed by the
// NACK, re-armed by the next packet and not pushed back by later ones.
TEST(Receiver, NackTimer)
{
	const auto pkts = packets({ { 1, 256 } });
	Receiver r(config());
	feed(r, find(pkts, 1, 0), 100);
	EXPECT_TRUE(r.tick(0).empty());
	EXPECT_TRUE(r.tick(100 + kWait - 1).empty());
	EXPECT_EQ(r.tick(100 + kWait), (std::vector<Nack>{ { 7, 1, kNoBlock } }));
	EXPECT_TRUE(r.tick(100 + kWait).empty());
	EXPECT_TRUE(r.tick(50000).empty());

	feed(r, find(pkts, 1, 1), 60000);
	feed(r, find(pkts, 1, 2), 60500);
	// A duplicate counts as a packet for the timer too.
	feed(r, find(pkts, 0, 3), 60600);
	feed(r, find(pkts, 0, 3), 60700);
	EXPECT_TRUE(r.tick(60000 + kWait - 1).empty());
	EXPECT_EQ(r.tick(60000 + kWait), (std::vector<Nack>{ { 7, 1, kNoBlock } }));
	EXPECT_EQ(r.tick(60600 + kWait), (std::vector<Nack>{ { 7, 0, kNoBlock } }));
	EXPECT_TRUE(r.tick(1000000).empty());
	EXPECT_EQ(r.counters().nacks, 3u);

	// Block 0 completes: no timer; block 1's NACK names it.
	feed(r, find(pkts, 1, 3), 2000000);
	feed_block(r, pkts, 0, {}, 2000001);
	EXPECT_EQ(r.highest_completed(), 0u);
	EXPECT_EQ(r.tick(2000000 + kWait), (std::vector<Nack>{ { 7, 1, 0 } }));
}

TEST(Receiver, DecodesOneAndTwoLosses)
{
	const struct {
		std::vector<int> lost;
		int completing_idx; // the 8th packet in
		uint64_t decoded;
	} cases[] = {
		{ {}, 7, 0 }, { { 3 }, 8, 1 }, { { 0, 5 }, 9, 1 }, { { 7, 9 }, 8, 1 }, { { 8, 9 }, 7, 0 },
	};
	const auto pkts = packets({ { 4, 128 } });
	for (const auto &c : cases) {
		Receiver r(config());
		int completing = -1;
		std::vector<DeliveredMessage> got;
		for (const Pkt &p : pkts) {
			if (std::find(c.lost.begin(), c.lost.end(), p.h.block_idx) != c.lost.end())
				continue;
			const Received rx = feed(r, p, 0);
			if (rx.ack->completed_block == 0)
				completing = p.h.block_idx;
			got.insert(got.end(), rx.messages.begin(), rx.messages.end());
			if (p.h.block_idx == completing) {
				EXPECT_EQ(rx.ack->cum_psn, 10u);
			}
		}
		EXPECT_EQ(completing, c.completing_idx);
		EXPECT_EQ(got, (std::vector<DeliveredMessage>{ { 4, pattern(128, 4) } }));
		EXPECT_EQ(r.counters().decoded, c.decoded);
		EXPECT_EQ(r.counters().stored, 8u);
		EXPECT_EQ(r.blocks_held(), 0u);
		EXPECT_TRUE(r.tick(1000000).empty());
	}
}

// A message of 2 blocks, the last with d = 2 data packets, the second of
// 5 bytes: both lost, the parity rebuilds them from msg_len alone.
TEST(Receiver, ShortLastBlockFromParity)
{
	const auto pkts = packets({ { 9, 149 } });
	ASSERT_EQ(pkts.size(), 14u);
	Receiver r(config());
	feed_block(r, pkts, 0, { 8, 9 });
	EXPECT_TRUE(feed(r, find(pkts, 1, 8), 0).messages.empty());
	const Received got = feed(r, find(pkts, 1, 9), 0);
	EXPECT_EQ(got.ack->completed_block, 1u);
	EXPECT_EQ(got.ack->cum_psn, 20u);
	EXPECT_EQ(got.messages, (std::vector<DeliveredMessage>{ { 9, pattern(149, 9) } }));
	EXPECT_EQ(r.counters().decoded, 1u);
}

TEST(Receiver, DuplicatesAndCompleteBlocks)
{
	const auto pkts = packets({ { 1, 256 } });
	Receiver r(config());
	for (int i = 0; i < 3; i++) {
		const Received got = feed(r, find(pkts, 0, 0), 0);
		EXPECT_EQ(got.ack->acked_psn, 0u);
		EXPECT_EQ(got.ack->cum_psn, 1u);
	}
	EXPECT_EQ(r.counters().duplicates, 2u);
	// Block 1 completes first and waits for block 0.
	feed_block(r, pkts, 1, { 0, 1 });
	EXPECT_EQ(r.blocks_held(), 2u);
	EXPECT_EQ(feed(r, find(pkts, 1, 0), 0).ack->completed_block, kNoBlock);
	EXPECT_EQ(r.counters().done_block, 1u);
	const Received got = feed_block(r, pkts, 0, { 8, 9 });
	EXPECT_EQ(got.ack->completed_block, 0u);
	EXPECT_EQ(got.ack->highest_completed_block, 1u);
	EXPECT_EQ(got.ack->cum_psn, 20u);
	EXPECT_EQ(got.messages, (std::vector<DeliveredMessage>{ { 1, pattern(256, 1) } }));
	// Below next_block: ACKed, dropped.
	const Received late = feed(r, find(pkts, 0, 9), 0);
	EXPECT_EQ(late.ack->acked_psn, 9u);
	EXPECT_EQ(late.ack->completed_block, kNoBlock);
	EXPECT_EQ(late.ack->highest_completed_block, 1u);
	EXPECT_EQ(r.counters().done_block, 2u);
	EXPECT_EQ(r.counters().stored, 1u + 8 + 7);
	EXPECT_EQ(r.blocks_held(), 0u);
}

// At most max_blocks from next_block: a packet beyond is dropped unACKed
// until the window moves.
TEST(Receiver, Window)
{
	const auto pkts = packets({ { 1, 128 * 3 } });
	Receiver r(config(2));
	feed(r, find(pkts, 1, 0), 0);
	EXPECT_TRUE(feed(r, find(pkts, 0, 0), 0).ack);
	EXPECT_FALSE(feed(r, find(pkts, 2, 0), 0).ack);
	EXPECT_EQ(r.counters().outside_window, 1u);
	EXPECT_EQ(r.blocks_held(), 2u);
	feed_block(r, pkts, 0, {});
	EXPECT_EQ(r.blocks_held(), 1u);
	EXPECT_TRUE(feed(r, find(pkts, 2, 0), 0).ack);
	EXPECT_EQ(r.blocks_held(), 2u);
	EXPECT_EQ(r.counters().outside_window, 1u);
}

// A header disagreeing with earlier packets of its block or message is
// dropped unACKed; it neither arms nor fills anything.
TEST(Receiver, Conflicts)
{
	const auto pkts = packets({ { 1, 128 * 3 } });
	Receiver r(config());
	feed(r, find(pkts, 0, 0), 0);
	const auto conflict = [&](uint32_t block_id, uint16_t idx, auto edit) {
		Pkt p = find(pkts, block_id, idx);
		edit(p.h);
		return feed(r, p, 0).ack.has_value();
	};
	EXPECT_FALSE(conflict(0, 1, [](PacketHeader &h) { h.msg_len += 16; }));
	EXPECT_FALSE(conflict(0, 1, [](PacketHeader &h) { h.msg_id = 2; }));
	// Another message's last block at block 0.
	EXPECT_FALSE(conflict(0, 1, [](PacketHeader &h) {
		h.flags = kFlagLastBlock;
		h.msg_id = 2;
		h.msg_len = 128;
	}));
	// A new block of message 1 with another length.
	EXPECT_FALSE(conflict(1, 0, [](PacketHeader &h) { h.msg_len += 16; }));
	EXPECT_EQ(r.counters().conflicts, 4u);
	EXPECT_EQ(r.counters().stored, 1u);
	EXPECT_EQ(r.blocks_held(), 1u);
	EXPECT_EQ(r.tick(kWait), (std::vector<Nack>{ { 7, 0, kNoBlock } }));
	// Another message can take block 1.
	EXPECT_TRUE(conflict(1, 0, [](PacketHeader &h) {
		h.msg_id = 2;
		h.msg_len += 16;
	}));
}

// Blocks framed wrong by the sender: a message broken off by another's
// block, and a message whose last block lacks LAST_BLOCK.
TEST(Receiver, BadFraming)
{
	const auto a = packets({ { 1, 256 } });
	const auto b = packets({ { 2, 128 } });
	Receiver r(config());
	feed_block(r, a, 0, {});
	for (Pkt p : b) {
		p.h.block_id = 1;
		p.h.psn += 10;
		const Received got = feed(r, p, 0);
		if (p.h.block_idx == 7) {
			EXPECT_EQ(got.messages, (std::vector<DeliveredMessage>{ { 2, pattern(128, 2) } }));
		}
	}
	EXPECT_EQ(r.counters().bad_messages, 1u);

	// Message 3 of 2 blocks (2 and 3), block 3 without LAST_BLOCK: the
	// message is dropped at block 3, message 4 in block 4 still arrives.
	auto c = packets({ { 10, 128 }, { 11, 128 }, { 3, 256 }, { 4, 128 } });
	for (Pkt &p : c)
		if (p.h.block_id == 3)
			p.h.flags = 0;
	for (uint32_t k = 2; k <= 3; k++)
		feed_block(r, c, k, {});
	EXPECT_EQ(r.counters().bad_messages, 2u);
	const Received got = feed_block(r, c, 4, { 8, 9 });
	EXPECT_EQ(got.messages, (std::vector<DeliveredMessage>{ { 4, pattern(128, 4) } }));
	EXPECT_EQ(r.highest_completed(), 4u);
}

// y = 0: per-packet ACKs, no NACK timer; a lost packet waits for the
// sender's RTO.
TEST(Receiver, NoParity)
{
	const WireLimits code = { 4, 0, 16 };
	ReceiverConfig cfg = config(16, code);
	cfg.ec_wait_ns = 0;
	const auto pkts = packets({ { 5, 100 } }, code);
	ASSERT_EQ(pkts.size(), 7u);
	Receiver r(cfg);
	for (const Pkt &p : pkts)
		if (p.h.block_idx != 1 || p.h.block_id != 1) {
			EXPECT_TRUE(feed(r, p, 0).messages.empty());
		}
	EXPECT_TRUE(r.tick(UINT64_MAX).empty());
	EXPECT_EQ(r.highest_completed(), 0u);
	const Received got = feed(r, find(pkts, 1, 1), 5);
	EXPECT_EQ(got.ack->cum_psn, 8u);
	EXPECT_EQ(got.messages, (std::vector<DeliveredMessage>{ { 5, pattern(100, 5) } }));
	EXPECT_EQ(r.counters().nacks, 0u);
}

TEST(Receiver, RejectsBadConfigAndFlow)
{
	ReceiverConfig cfg = config();
	cfg.ec_wait_ns = 0;
	EXPECT_THROW(Receiver{ cfg }, std::invalid_argument);
	EXPECT_THROW(Receiver{ config(0) }, std::invalid_argument);
	EXPECT_THROW(Receiver(config(16, { 0, 2, 16 })), std::invalid_argument);
	EXPECT_THROW(Receiver(config(16, { 8, 2, 0 })), std::invalid_argument);
	Receiver r(config());
	Pkt p = packets({ { 1, 1 } })[0];
	p.h.flow_id = 8;
	EXPECT_THROW(feed(r, p, 0), std::invalid_argument);
}

namespace {

Nack trim_nack(uint32_t block_id, uint16_t block_idx, uint32_t highest = kNoBlock)
{
	return { .flow_id = 7,
		 .block_id = block_id,
		 .highest_completed_block = highest,
		 .trimmed = true,
		 .block_idx = block_idx };
}

} // namespace

// A trimmed header is NACKed at once, TRIMMED with its block_idx, whether
// its block is held or not; it holds, arms and completes nothing.
TEST(Receiver, TrimIsNackedAtOnce)
{
	const auto pkts = packets({ { 1, 256 } }); // blocks 0 and 1, 10 packets each
	Receiver r(config());
	feed(r, find(pkts, 0, 0), 100);
	EXPECT_EQ(r.on_trim(find(pkts, 0, 4).h), trim_nack(0, 4));
	EXPECT_EQ(r.on_trim(find(pkts, 1, 9).h), trim_nack(1, 9));
	// Trimmed again (its resend): NACKed again.
	EXPECT_EQ(r.on_trim(find(pkts, 0, 4).h), trim_nack(0, 4));
	EXPECT_EQ(r.blocks_held(), 1u);
	// Block 0's timer is its first packet's, block 1 has none.
	EXPECT_TRUE(r.tick(100 + kWait - 1).empty());
	EXPECT_EQ(r.tick(100 + kWait), (std::vector<Nack>{ { 7, 0, kNoBlock } }));
	EXPECT_TRUE(r.tick(1000000).empty());
	const ReceiverCounters &c = r.counters();
	EXPECT_EQ(c.trims, 3u);
	EXPECT_EQ(c.trims_unwanted, 0u);
	EXPECT_EQ(c.stored, 1u);
	EXPECT_EQ(c.nacks, 1u);
	// Block 0 complete: a trim of block 1 names it.
	feed_block(r, pkts, 0, { 4, 9 }, 2000);
	EXPECT_EQ(r.highest_completed(), 0u);
	EXPECT_EQ(r.on_trim(find(pkts, 1, 0).h), trim_nack(1, 0, 0));
}

// Trimmed packets 7, 8 and 9 of a block of 7 in: three NACKs; the
// resend of 7 completes the block and delivers the message, and the
// trims of 8 and 9 then ask for nothing.
TEST(Receiver, TrimThenResendCompletesTheBlock)
{
	const auto pkts = packets({ { 3, 128 } });
	Receiver r(config());
	feed_block(r, pkts, 0, { 7, 8, 9 });
	for (uint16_t i : { 7, 8, 9 })
		EXPECT_EQ(r.on_trim(find(pkts, 0, i).h), trim_nack(0, i));
	Pkt resent = find(pkts, 0, 7);
	resent.h.flags |= kFlagRetx;
	resent.h.tx_ts_ns = 500;
	const Received got = feed(r, resent, 600);
	EXPECT_EQ(got.ack->completed_block, 0u);
	EXPECT_EQ(got.ack->echo_tx_ts_ns, 500u);
	EXPECT_EQ(got.messages, (std::vector<DeliveredMessage>{ { 3, pattern(128, 3) } }));
	EXPECT_EQ(r.counters().decoded, 0u);
	EXPECT_FALSE(r.on_trim(find(pkts, 0, 8).h));
	EXPECT_FALSE(r.on_trim(find(pkts, 0, 9).h));
	EXPECT_EQ(r.counters().trims, 3u);
	EXPECT_EQ(r.counters().trims_unwanted, 2u);
	EXPECT_EQ(r.blocks_held(), 0u);
}

// No NACK for a packet no longer missing: held (a duplicate's trim), of
// a block complete but waiting for an earlier one, or of a block
// complete and delivered. Each is counted, nothing else changes.
TEST(Receiver, TrimOfAPacketNotMissing)
{
	const auto pkts = packets({ { 1, 256 } });
	Receiver r(config());
	feed(r, find(pkts, 0, 2), 0);
	EXPECT_FALSE(r.on_trim(find(pkts, 0, 2).h));
	feed_block(r, pkts, 1, { 0, 1 });
	EXPECT_EQ(r.blocks_held(), 2u);
	EXPECT_FALSE(r.on_trim(find(pkts, 1, 0).h)); // block 1 complete, held
	feed_block(r, pkts, 0, { 8, 9 });
	EXPECT_EQ(r.blocks_held(), 0u);
	EXPECT_FALSE(r.on_trim(find(pkts, 0, 9).h)); // below next_block
	EXPECT_FALSE(r.on_trim(find(pkts, 1, 1).h));
	const ReceiverCounters &c = r.counters();
	EXPECT_EQ(c.trims, 0u);
	EXPECT_EQ(c.trims_unwanted, 4u);
	EXPECT_EQ(c.stored, 1u + 8 + 7);
	EXPECT_EQ(c.duplicates, 1u); // packet 2 of block 0, fed again
	EXPECT_EQ(c.done_block, 0u);
}

// Beyond the window, or disagreeing with its block or its message: no
// NACK, counted as such packets are, and another flow's throws.
TEST(Receiver, TrimOutsideTheWindowOrConflicting)
{
	const auto pkts = packets({ { 1, 128 * 3 } });
	Receiver r(config(2));
	feed(r, find(pkts, 0, 0), 0);
	EXPECT_FALSE(r.on_trim(find(pkts, 2, 0).h));
	EXPECT_EQ(r.counters().outside_window, 1u);
	const auto trim = [&](uint32_t block_id, uint16_t idx, auto edit) {
		PacketHeader h = find(pkts, block_id, idx).h;
		edit(h);
		return r.on_trim(h);
	};
	EXPECT_FALSE(trim(0, 1, [](PacketHeader &h) { h.msg_id = 2; }));
	EXPECT_FALSE(trim(0, 1, [](PacketHeader &h) { h.msg_len += 16; }));
	EXPECT_FALSE(trim(1, 0, [](PacketHeader &h) { h.msg_len += 16; })); // block not held
	EXPECT_EQ(r.counters().conflicts, 3u);
	EXPECT_EQ(r.counters().trims, 0u);
	EXPECT_EQ(r.blocks_held(), 1u);
	// Another message may take block 1, as a packet of it could.
	EXPECT_EQ(trim(1, 0,
		       [](PacketHeader &h) {
			       h.msg_id = 2;
			       h.msg_len += 16;
		       }),
		  trim_nack(1, 0));
	PacketHeader other = find(pkts, 0, 1).h;
	other.flow_id = 8;
	EXPECT_THROW(r.on_trim(other), std::invalid_argument);
}
