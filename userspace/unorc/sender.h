// SPDX-License-Identifier: GPL-2.0
//
// UnoRC's sender, one per flow (spec 6.3), on the caller's clock: every call
// takes now_ns. send_message() cuts a message into blocks and codes their
// parity; the transport pulls packets with next() as its window and pacing
// allow, and feeds back ACKs, NACKs and a periodic scan() for RTOs.
//
// A block's packets are held until it is complete: d of them ACKed (the
// receiver ACKs only packets it holds, so it has decoded the block), or
// the receiver says so (completed_block, or highest_completed_block at or
// above it). A complete block is never resent (spec 6.3).
// Retransmissions go out before new packets. Every packet sent, new,
// parity or resent, takes the next sub-flow in round robin, and the
// caller's NACK and RTO triggers re-path silent sub-flows (spec 5.1): the
// law of kernel/core/unolb_core.h, whose per-flow state the Sender holds.
//
// A packet's RTO is cfg.rto_ns (spec 6.3) doubled for each time it has
// timed out since the flow's last new ACK, at most kRtoMaxBackoff times
// and never past kRtoMaxNs (RFC 6298 5.5; see rto_of()).
//
// A packet's payload bytes are in flight (in_flight_bytes(), what the
// transport holds below the UnoCC window) from its transmission until it is
// ACKed, queued for retransmission by a NACK or RTO (presumed lost, as TCP
// takes lost segments out of its packets in flight) or its block completes.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "coder.h"
#include "wire.h"

#include "unolb_core.h"

namespace unorc {

// UnoLB (spec 5.1 and 5.2). A sub-flow's entropy is what picks its path:
// a UDP source port, an IPv6 flow label. Sub-flow k starts on entropy[k]
// (S values; none: k), and fresh ones are drawn from [first, first + span)
// (by default a port's 16 bits).
struct LbConfig {
	unolb_mode mode = UNOLB_REPATH_REDRAW;
	std::vector<uint32_t> entropy = {};
	uint32_t first = 0;
	uint32_t span = 1 << 16;
};

// RTO backoff (RFC 6298 5.5): a packet's RTO doubles at most this many
// times, to 64 times the base, and is never past kRtoMaxNs (Linux's
// TCP_RTO_MAX; RFC 6298 2.5 allows a maximum of at least 60 s) unless the
// base itself is. 64 times is what Linux's first six timeouts from its
// 200 ms minimum reach (12.8 s), and takes the defaults (2 ms intra-DC,
// 10 ms for unorc) to 128 ms and 640 ms: past any queue a delay of a
// slow receiver builds, yet a path that comes back is found within a
// second.
inline constexpr int kRtoMaxBackoff = 6;
inline constexpr uint64_t kRtoMaxNs = 120'000'000'000;

struct SenderConfig {
	uint32_t flow_id = 0;
	WireLimits code = { BlockCoder::kDefaultData, BlockCoder::kDefaultParity, 0 };
	uint64_t rto_ns = 0; // spec 6.3 and 9.24: the base, before backoff
	int subflows = 0;    // S, spec 5.1: 1..UNOLB_MAX_SUBFLOWS
	LbConfig lb = {};
};

// One random draw per sub-flow for a re-path (unolb_repath()).
using LbDraws = std::array<uint32_t, UNOLB_MAX_SUBFLOWS>;
// Moves a sub-flow onto the path of an entropy; false if it cannot.
using MovePath = std::function<bool(uint16_t subflow, uint32_t entropy)>;

// A packet to send: its payload stays valid until the next call that
// takes an ACK or NACK or sends a message.
struct Outgoing {
	PacketHeader header;
	std::span<const uint8_t> payload;
};

// What an ACK tells the congestion control.
struct AckInfo {
	size_t acked_bytes = 0;         // payload newly ACKed; 0 for a duplicate
	std::optional<uint64_t> rtt_ns = {}; // now - echo_tx_ts_ns, if not in the future
	bool ecn_ce = false;

	bool operator==(const AckInfo &) const = default;
};

struct SenderCounters {
	uint64_t retransmits = 0;
	uint64_t timeouts = 0;
	uint64_t bad_acks = 0;  // a packet never sent, or an unknown sub-flow: ignored
	uint64_t bad_nacks = 0; // a block or (TRIMMED) a packet never sent: ignored
	uint64_t trim_resends = 0;       // packets queued again by a TRIMMED NACK
	uint64_t trim_nacks_ignored = 0; // its packet ACKed, queued, sent since, or its block complete
};

// How long a trimmed packet took to be repaired, its ACK or its block's
// completion (decoded) telling the sender the receiver has its bytes.
// One per packet, however often it was trimmed: from its first trimmed
// transmission (what the loss cost), from the last TRIMMED NACK (what the
// resend took, its wait for the window and the pacer included), and from
// the resend's own transmission (one round trip through the path's
// queues), if one left after that NACK before the block completed.
struct TrimRepair {
	uint64_t since_send_ns; // from the first trimmed transmission
	uint64_t since_nack_ns; // from the last TRIMMED NACK
	std::optional<uint64_t> since_resend_ns; // from the resend after it
	uint32_t trims;         // TRIMMED NACKs that resent it

	bool operator==(const TrimRepair &) const = default;
};

class Sender {
public:
	// Throws std::invalid_argument on a code BlockCoder refuses, rto_ns 0,
	// subflows outside 1..UNOLB_MAX_SUBFLOWS or an lb unolb_init()
	// refuses. The flow starts at now_ns: no sub-flow is silent before.
	explicit Sender(const SenderConfig &cfg, uint64_t now_ns = 0);

	// Queues a message of 1..2^32-1 bytes. Throws std::invalid_argument on
	// another size or a msg_id not yet complete, std::length_error once
	// the flow's block ids run out.
	void send_message(uint32_t msg_id, std::span<const uint8_t> bytes);

	// The next packet to send at now_ns, if any.
	std::optional<Outgoing> next(uint64_t now_ns);

	// a and n are this flow's, else std::invalid_argument.
	AckInfo on_ack(const Ack &a, uint64_t now_ns);
	// Queues the block's sent, unACKed packets not already queued for
	// retransmission; with n.trimmed (a switch trimmed the packet, SMaRTT
	// Sec. III-D) the one packet n names, if it is such a packet. Returns
	// how many. A NACK of a block, or a packet, this flow never sent is
	// counted (bad_nacks) and changes nothing; nor does a TRIMMED NACK of
	// a packet already ACKed or queued, or of a complete block
	// (trim_nacks_ignored).
	int on_nack(const Nack &n, uint64_t now_ns);
	// Times out the sent, unACKed packets not queued whose RTO has passed;
	// returns how many. Each goes again with its RTO doubled (rto_of()).
	int scan(uint64_t now_ns);
	// UnoLB's re-path rule at now_ns, for the caller to apply on a NACK of
	// a block still held (holds()) and on a scan() that timed packets out
	// (spec 6.3): each sub-flow silent for more than base_rtt_ns / 2 and
	// not moved within base_rtt_ns gets a new entropy, from its own draw,
	// and move(k, entropy) takes it there; a sub-flow move() refuses keeps
	// its entropy (and is tried again a base RTT later at the earliest).
	// Returns the mask of the sub-flows given a new entropy.
	uint32_t repath(uint64_t now_ns, uint64_t base_rtt_ns, const LbDraws &rnd,
			const MovePath &move);

	// The messages completed since the last call, in completion order.
	std::vector<uint32_t> take_completed();
	// The trimmed packets repaired since the last call, in repair order.
	std::vector<TrimRepair> take_trim_repairs();

	// When an ACK last came back on each sub-flow, the flow's start
	// before any (spec 5.1).
	std::span<const uint64_t> last_ack() const { return { lb_.last_ack_ns, lb_.nr }; }
	// Each sub-flow's entropy (spec 5.1).
	std::span<const uint32_t> entropy() const { return { lb_.ent, lb_.nr }; }
	// Whether the block is held, not yet complete: a NACK of it re-paths.
	bool holds(uint32_t block_id) const { return blocks_.contains(block_id); }
	// Payload bytes sent and not yet ACKed, presumed lost or complete.
	uint64_t in_flight_bytes() const { return in_flight_; }
	// Whether next() may have a packet: false once nothing is queued.
	bool has_queued() const { return !retx_.empty() || !fresh_.empty(); }
	const SenderCounters &counters() const { return counters_; }
	size_t blocks_held() const { return blocks_.size(); }

private:
	// A trimmed packet not yet repaired.
	struct Trim {
		uint64_t first_sent_ns; // its first trimmed transmission's
		uint64_t last_nack_ns;  // when the last TRIMMED NACK came
		std::optional<uint64_t> resent_ns; // its resend since then
		uint32_t count;
	};
	struct Packet {
		PacketHeader h; // as last sent
		std::vector<uint8_t> payload; // len bytes, zero-padded
		uint64_t rto_deadline = 0;
		bool sent = false;
		bool acked = false;
		bool queued = true;
		bool in_flight = false;
		// Its timeouts since the ACK epoch it names, capped at
		// kRtoMaxBackoff: none once the flow has a new ACK.
		uint8_t backoff = 0;
		uint64_t backoff_epoch = 0;
		std::optional<Trim> trim; // none once repaired
	};
	struct Block {
		uint32_t msg_first; // the message's key in msgs_
		int d;
		int acked = 0;
		std::vector<Packet> pkts; // by block_idx; d..x-1 never sent
	};
	struct Msg {
		uint32_t msg_id;
		uint64_t incomplete; // blocks
	};
	struct Ref {
		uint32_t block_id;
		uint16_t block_idx;
	};
	using BlockMap = std::map<uint32_t, Block>;

	void add_block(uint32_t first, uint32_t msg_id, uint32_t msg_len, bool last,
		       std::span<const uint8_t> data);
	bool sent_idx(const Block &b, uint64_t idx) const;
	Outgoing transmit(Packet &p, uint64_t now_ns);
	int backoff_of(const Packet &p) const;
	uint64_t rto_of(const Packet &p) const;
	void time_out(uint32_t block_id, uint16_t idx, Packet &p);
	int on_block_nack(const Nack &n, uint64_t now_ns);
	int on_trim_nack(const Nack &n, uint64_t now_ns);
	bool never_sent(uint32_t block_id) const;
	void queue_retx(uint32_t block_id, uint16_t idx, Packet &p);
	void land(Packet &p);
	void repaired(Packet &p, uint64_t now_ns);
	void complete(BlockMap::iterator it, uint64_t now_ns);
	void complete_through(uint32_t highest, uint64_t now_ns);
	void check_flow(uint32_t flow_id) const;

	SenderConfig cfg_;
	BlockCoder coder_;
	uint64_t next_block_ = 0; // the next message's first block id
	uint64_t in_flight_ = 0;
	uint64_t ack_epoch_ = 0; // new ACKs: each ends every packet's backoff
	BlockMap blocks_;
	std::map<uint32_t, Msg> msgs_; // by first block id
	std::deque<Ref> retx_, fresh_;
	unolb_flow lb_;
	std::vector<uint32_t> completed_;
	std::vector<TrimRepair> trim_repairs_;
	SenderCounters counters_;
};

} // namespace unorc
