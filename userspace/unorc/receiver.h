// SPDX-License-Identifier: GPL-2.0
//
// UnoRC's receiver, one per flow (spec 6.2), on the caller's clock: every
// call takes now_ns. It ACKs each DATA and PARITY packet it keeps, rebuilds
// a block once d of its packets are in, NACKs a block still incomplete
// ec_wait after its timer was armed, and delivers whole messages in order.
//
// Blocks are held from the first not yet complete one, next_block, up to
// max_blocks ahead: the receive window. Complete blocks below it are
// appended to the message being assembled and freed, so highest_completed
// is next_block - 1. With y = 0 (intra-DC, spec 6.3) a block completes when
// its d data packets are in, and there is no NACK timer.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "coder.h"
#include "wire.h"

namespace unorc {

struct ReceiverConfig {
	uint32_t flow_id = 0;
	WireLimits code = { BlockCoder::kDefaultData, BlockCoder::kDefaultParity, 0 };
	uint64_t ec_wait_ns = 0; // spec 6.2 and 9.23; unused with code.y == 0
	uint32_t max_blocks = 0; // the receive window, in blocks
};

struct DeliveredMessage {
	uint32_t msg_id;
	std::vector<uint8_t> bytes;

	bool operator==(const DeliveredMessage &) const = default;
};

struct Received {
	std::optional<Ack> ack;                 // none if the packet was dropped
	std::vector<DeliveredMessage> messages; // completed by this packet, in order
};

// Packets kept, and why the others went.
struct ReceiverCounters {
	uint64_t stored = 0;         // new packets of incomplete blocks
	uint64_t duplicates = 0;     // already held: ACKed, dropped
	uint64_t done_block = 0;     // for a complete block: ACKed, dropped
	uint64_t outside_window = 0; // max_blocks or more ahead: dropped, no ACK
	uint64_t conflicts = 0;      // msg_id, msg_len or LAST_BLOCK disagree: dropped, no ACK
	uint64_t decoded = 0;        // blocks rebuilt from parity
	uint64_t bad_messages = 0;   // complete blocks not framing a message: dropped
	uint64_t nacks = 0;          // the NACK timer's
	// Trimmed headers (on_trim()); outside_window and conflicts count
	// theirs too.
	uint64_t trims = 0;          // NACKed at once
	uint64_t trims_unwanted = 0; // the packet held or its block complete: no NACK
};

class Receiver {
public:
	// Throws std::invalid_argument on a code BlockCoder refuses, y > 0
	// with ec_wait_ns 0, or max_blocks 0.
	explicit Receiver(const ReceiverConfig &cfg);

	// h passed parse() with limits() and payload holds its payload_len
	// bytes; h.flow_id is this flow's, else std::invalid_argument.
	Received on_packet(const PacketHeader &h, const uint8_t *payload, bool ce, uint64_t now_ns);

	// A switch trimmed packet h (its header alone, parse()'s Trimmed): the
	// TRIMMED NACK that asks for it at once. None if the packet is no
	// longer wanted (held, or its block complete: trims_unwanted), beyond
	// the window (outside_window) or h disagrees with what earlier packets
	// said of its block or message (conflicts). A trim holds, arms and
	// completes nothing. h.flow_id is this flow's, as in on_packet().
	std::optional<Nack> on_trim(const PacketHeader &h);

	// The NACKs due at now_ns, by block id; each disarms its block's timer.
	std::vector<Nack> tick(uint64_t now_ns);

	const WireLimits &limits() const { return cfg_.code; }
	const ReceiverCounters &counters() const { return counters_; }
	uint32_t highest_completed() const;
	size_t blocks_held() const { return blocks_.size(); }

private:
	struct Block {
		uint32_t msg_id;
		uint32_t msg_len;
		bool last;
		int d;
		int count = 0;
		bool done = false;
		bool armed = false;
		uint64_t deadline = 0;
		std::vector<uint8_t> buf; // n payloads of len bytes, zero-padded
		std::vector<bool> have;   // by block_idx
	};
	// The message blocks are appended to, in order.
	struct Assembly {
		uint32_t msg_id;
		uint32_t msg_len;
		uint64_t blocks = 0;
		std::vector<uint8_t> bytes = {};
	};
	// msg_len of each message with blocks held or assembling.
	struct MsgRef {
		uint32_t msg_len;
		int refs;
	};
	using BlockMap = std::map<uint32_t, Block>;

	void check_flow(uint32_t flow_id) const;
	bool agrees(const PacketHeader &h, const Block &b) const;
	bool agrees_with_message(const PacketHeader &h) const;
	BlockMap::iterator admit(const PacketHeader &h, uint64_t now_ns);
	void store(Block &b, const PacketHeader &h, const uint8_t *payload);
	void complete(Block &b);
	void deliver(std::vector<DeliveredMessage> &out);
	void append(const Block &b, std::vector<DeliveredMessage> &out);
	void drop_message();
	void ref(uint32_t msg_id, uint32_t msg_len);
	void unref(uint32_t msg_id);
	uint64_t cum_psn() const;
	Ack ack(const PacketHeader &h, bool ce, uint32_t completed) const;

	ReceiverConfig cfg_;
	BlockCoder coder_;
	uint64_t next_block_ = 0; // every block below it is complete
	BlockMap blocks_;
	std::map<uint32_t, MsgRef> msgs_;
	std::optional<Assembly> asm_;
	ReceiverCounters counters_;
};

} // namespace unorc
