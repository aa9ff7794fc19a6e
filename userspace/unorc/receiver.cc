// SPDX-License-Identifier: GPL-2.0
#include "receiver.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace unorc {

namespace {

BlockCoder make_coder(const ReceiverConfig &cfg)
{
	if (cfg.code.y > 0 && cfg.ec_wait_ns == 0)
		throw std::invalid_argument("unorc: receiver: ec_wait_ns 0 with parity");
	if (cfg.max_blocks == 0)
		throw std::invalid_argument("unorc: receiver: max_blocks 0");
	return BlockCoder(cfg.code.len, cfg.code.x, cfg.code.y);
}

} // namespace

Receiver::Receiver(const ReceiverConfig &cfg) : cfg_(cfg), coder_(make_coder(cfg)) {}

uint32_t Receiver::highest_completed() const
{
	return next_block_ ? static_cast<uint32_t>(next_block_ - 1) : kNoBlock;
}

void Receiver::check_flow(uint32_t flow_id) const
{
	if (flow_id != cfg_.flow_id)
		throw std::invalid_argument("unorc: receiver of flow " + std::to_string(cfg_.flow_id) +
					    " given flow " + std::to_string(flow_id));
}

Received Receiver::on_packet(const PacketHeader &h, const uint8_t *payload, bool ce, uint64_t now_ns)
{
	check_flow(h.flow_id);
	Received r;
	// A block below next_block_ is complete: the ACK tells the sender so.
	if (h.block_id < next_block_) {
		counters_.done_block++;
		r.ack = ack(h, ce, kNoBlock);
		return r;
	}
	// No ACK: the sender resends on its RTO once the window has moved.
	if (h.block_id - next_block_ >= cfg_.max_blocks) {
		counters_.outside_window++;
		return r;
	}
	const auto it = admit(h, now_ns);
	if (it == blocks_.end()) {
		counters_.conflicts++;
		return r;
	}
	Block &b = it->second;
	if (b.done) {
		counters_.done_block++;
	} else if (b.have[h.block_idx]) {
		counters_.duplicates++;
	} else {
		store(b, h, payload);
		if (b.count >= b.d) {
			complete(b);
			deliver(r.messages);
			r.ack = ack(h, ce, h.block_id);
			return r;
		}
	}
	r.ack = ack(h, ce, kNoBlock);
	return r;
}

// SMaRTT Sec. III-D and Ultra Ethernet: the receiver of a trimmed header
// NACKs that packet, and the sender resends it without waiting for a
// timer. The block's own NACK timer (spec 6.2) is left as it is: a trim
// is no packet in, and if its NACK is lost the timer or the RTO repairs.
std::optional<Nack> Receiver::on_trim(const PacketHeader &h)
{
	check_flow(h.flow_id);
	// Complete and delivered: the ACKs already said so.
	if (h.block_id < next_block_) {
		counters_.trims_unwanted++;
		return std::nullopt;
	}
	if (h.block_id - next_block_ >= cfg_.max_blocks) {
		counters_.outside_window++;
		return std::nullopt;
	}
	const auto it = blocks_.find(h.block_id);
	if (it == blocks_.end() ? !agrees_with_message(h) : !agrees(h, it->second)) {
		counters_.conflicts++;
		return std::nullopt;
	}
	if (it != blocks_.end() && (it->second.done || it->second.have[h.block_idx])) {
		counters_.trims_unwanted++;
		return std::nullopt;
	}
	counters_.trims++;
	return Nack{ .flow_id = cfg_.flow_id,
		     .block_id = h.block_id,
		     .highest_completed_block = highest_completed(),
		     .trimmed = true,
		     .block_idx = h.block_idx,
		     .echo_tx_ts_ns = h.tx_ts_ns };
}

// Whether h says of its block what the block's first packet said.
bool Receiver::agrees(const PacketHeader &h, const Block &b) const
{
	const bool last = h.flags & kFlagLastBlock;
	return b.msg_id == h.msg_id && b.msg_len == h.msg_len && b.last == last;
}

// Whether h, of a block not held, says of its message's length what the
// message's blocks held or assembling say.
bool Receiver::agrees_with_message(const PacketHeader &h) const
{
	const auto m = msgs_.find(h.msg_id);
	return m == msgs_.end() || m->second.msg_len == h.msg_len;
}

// The block of h, created if new; end() if h disagrees with what earlier
// packets said of the block or of its message. Arms the NACK timer of an
// incomplete block that has none: at its first packet, and again at the
// first packet after its NACK (spec 6.2 [A]).
Receiver::BlockMap::iterator Receiver::admit(const PacketHeader &h, uint64_t now_ns)
{
	const bool last = h.flags & kFlagLastBlock;
	auto it = blocks_.find(h.block_id);
	if (it == blocks_.end()) {
		if (!agrees_with_message(h))
			return blocks_.end();
		const size_t n = coder_.packets();
		Block b = { .msg_id = h.msg_id,
			    .msg_len = h.msg_len,
			    .last = last,
			    .d = block_shape(last, h.msg_len, cfg_.code).d,
			    .buf = std::vector<uint8_t>(n * coder_.len()),
			    .have = std::vector<bool>(n) };
		it = blocks_.emplace(h.block_id, std::move(b)).first;
		ref(h.msg_id, h.msg_len);
	} else if (!agrees(h, it->second)) {
		return blocks_.end();
	}
	Block &b = it->second;
	if (coder_.parity() > 0 && !b.done && !b.armed) {
		b.armed = true;
		b.deadline = now_ns + cfg_.ec_wait_ns;
	}
	return it;
}

void Receiver::store(Block &b, const PacketHeader &h, const uint8_t *payload)
{
	std::copy_n(payload, h.payload_len, &b.buf[h.block_idx * coder_.len()]);
	b.have[h.block_idx] = true;
	b.count++;
	counters_.stored++;
}

// Rebuilds the lost data packets of a block with d packets in.
void Receiver::complete(Block &b)
{
	const size_t n = coder_.packets(), len = coder_.len();
	std::vector<const uint8_t *> rx(n);
	std::vector<uint8_t *> out(b.d);
	bool lost = false;
	for (size_t i = 0; i < n; i++)
		rx[i] = b.have[i] ? &b.buf[i * len] : nullptr;
	for (int i = 0; i < b.d; i++) {
		out[i] = &b.buf[i * len];
		lost |= !b.have[i];
	}
	if (!coder_.decode(rx, out))
		throw std::logic_error("unorc: receiver: block of d packets undecodable");
	counters_.decoded += lost;
	b.done = true;
	b.armed = false;
}

// Appends the complete blocks at next_block_ to the message, in order.
void Receiver::deliver(std::vector<DeliveredMessage> &out)
{
	for (auto it = blocks_.find(static_cast<uint32_t>(next_block_));
	     it != blocks_.end() && it->second.done;
	     it = blocks_.find(static_cast<uint32_t>(++next_block_))) {
		append(it->second, out);
		unref(it->second.msg_id);
		blocks_.erase(it);
	}
}

// Blocks of a message follow each other, the last one with LAST_BLOCK: a
// message broken off by another's block, or whose LAST_BLOCK comes early
// or late, was framed wrong by the sender and is dropped whole.
void Receiver::append(const Block &b, std::vector<DeliveredMessage> &out)
{
	if (asm_ && asm_->msg_id != b.msg_id)
		drop_message();
	if (!asm_) {
		asm_ = Assembly{ .msg_id = b.msg_id, .msg_len = b.msg_len };
		ref(b.msg_id, b.msg_len);
	}
	const size_t len = coder_.len();
	const BlockShape s = block_shape(b.last, b.msg_len, cfg_.code);
	for (int i = 0; i < b.d; i++)
		asm_->bytes.insert(asm_->bytes.end(), &b.buf[i * len],
				   &b.buf[i * len] + (i == b.d - 1 ? s.last_len : len));
	const bool full = ++asm_->blocks == msg_layout(b.msg_len, cfg_.code).blocks;
	if (full != b.last) {
		drop_message();
	} else if (full) {
		out.push_back({ asm_->msg_id, std::move(asm_->bytes) });
		unref(asm_->msg_id);
		asm_.reset();
	}
}

void Receiver::drop_message()
{
	counters_.bad_messages++;
	unref(asm_->msg_id);
	asm_.reset();
}

void Receiver::ref(uint32_t msg_id, uint32_t msg_len)
{
	msgs_.try_emplace(msg_id, MsgRef{ msg_len, 0 }).first->second.refs++;
}

void Receiver::unref(uint32_t msg_id)
{
	const auto m = msgs_.find(msg_id);
	if (--m->second.refs == 0)
		msgs_.erase(m);
}

std::vector<Nack> Receiver::tick(uint64_t now_ns)
{
	std::vector<Nack> due;
	for (auto &[id, b] : blocks_) {
		if (!b.armed || now_ns < b.deadline)
			continue;
		b.armed = false;
		due.push_back({ cfg_.flow_id, id, highest_completed() });
	}
	counters_.nacks += due.size();
	return due;
}

// Every psn below it arrived or belongs to a complete block. The block at
// next_block_, if held, misses one of its data packets: the walk stops
// there, before its never-sent d..x-1.
uint64_t Receiver::cum_psn() const
{
	uint64_t i = 0;
	// next_block_ 0xffffffff is no block's id.
	const auto it = blocks_.find(static_cast<uint32_t>(next_block_));
	if (it != blocks_.end())
		while (it->second.have[i])
			i++;
	return next_block_ * coder_.packets() + i;
}

Ack Receiver::ack(const PacketHeader &h, bool ce, uint32_t completed) const
{
	return { .flags = ce ? kFlagEcnCeEcho : uint8_t{ 0 },
		 .subflow = h.subflow,
		 .flow_id = h.flow_id,
		 .acked_psn = h.psn,
		 .cum_psn = cum_psn(),
		 .echo_tx_ts_ns = h.tx_ts_ns,
		 .completed_block = completed,
		 .highest_completed_block = highest_completed() };
}

} // namespace unorc
