// SPDX-License-Identifier: GPL-2.0
#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "sender.h"

namespace unorc {

namespace {

BlockCoder make_coder(const SenderConfig &cfg)
{
	if (cfg.rto_ns == 0)
		throw std::invalid_argument("unorc: sender: rto_ns 0");
	if (cfg.subflows < 1 || cfg.subflows > UNOLB_MAX_SUBFLOWS)
		throw std::invalid_argument("unorc: sender: " + std::to_string(cfg.subflows) +
					    " sub-flows: need 1.." + std::to_string(UNOLB_MAX_SUBFLOWS));
	return BlockCoder(cfg.code.len, cfg.code.x, cfg.code.y);
}

unolb_flow make_lb(const SenderConfig &cfg, uint64_t now_ns)
{
	const LbConfig &lb = cfg.lb;
	const size_t nr = static_cast<size_t>(cfg.subflows);
	std::vector<uint32_t> ent = lb.entropy;
	if (ent.empty()) {
		ent.resize(nr);
		std::iota(ent.begin(), ent.end(), 0);
	}
	unolb_flow f;
	if (ent.size() != nr)
		throw std::invalid_argument("unorc: sender: " + std::to_string(ent.size()) +
					    " entropies for " + std::to_string(nr) + " sub-flows");
	if (!unolb_init(&f, static_cast<u32>(nr), lb.mode, now_ns, ent.data(), lb.first, lb.span))
		throw std::invalid_argument("unorc: sender: UnoLB mode " + std::to_string(lb.mode) +
					    ", entropies from " + std::to_string(lb.first) + " span " +
					    std::to_string(lb.span) + ": refused");
	return f;
}

} // namespace

Sender::Sender(const SenderConfig &cfg, uint64_t now_ns)
	: cfg_(cfg), coder_(make_coder(cfg)), lb_(make_lb(cfg, now_ns))
{
}

void Sender::check_flow(uint32_t flow_id) const
{
	if (flow_id != cfg_.flow_id)
		throw std::invalid_argument("unorc: sender of flow " + std::to_string(cfg_.flow_id) +
					    " given flow " + std::to_string(flow_id));
}

void Sender::send_message(uint32_t msg_id, std::span<const uint8_t> bytes)
{
	if (bytes.empty() || bytes.size() > UINT32_MAX)
		throw std::invalid_argument("unorc: message of " + std::to_string(bytes.size()) +
					    " bytes: need 1.." + std::to_string(UINT32_MAX));
	// The receiver tells messages apart by msg_id while it holds them.
	const auto same_id = [&](const auto &m) { return m.second.msg_id == msg_id; };
	if (std::any_of(msgs_.begin(), msgs_.end(), same_id))
		throw std::invalid_argument("unorc: message " + std::to_string(msg_id) +
					    " is still in flight");
	const uint32_t msg_len = static_cast<uint32_t>(bytes.size());
	const MsgLayout m = msg_layout(msg_len, cfg_.code);
	if (m.blocks > kNoBlock - next_block_)
		throw std::length_error("unorc: flow " + std::to_string(cfg_.flow_id) +
					" out of block ids");
	const uint32_t first = static_cast<uint32_t>(next_block_);
	const size_t block_bytes = coder_.len() * coder_.data();
	msgs_[first] = { msg_id, m.blocks };
	for (uint64_t k = 0; k < m.blocks; k++)
		add_block(first, msg_id, msg_len, k == m.blocks - 1, bytes.subspan(k * block_bytes));
}

// Codes a block of data (the message from the block on) and queues its
// d data and y parity packets, in block_idx order.
void Sender::add_block(uint32_t first, uint32_t msg_id, uint32_t msg_len, bool last,
		       std::span<const uint8_t> data)
{
	const uint32_t id = static_cast<uint32_t>(next_block_++);
	const size_t n = coder_.packets(), len = coder_.len();
	const BlockShape s = block_shape(last, msg_len, cfg_.code);
	Block b = { .msg_first = first, .d = s.d, .pkts = std::vector<Packet>(n) };
	std::vector<const uint8_t *> dp;
	std::vector<uint8_t *> pp;
	for (size_t i = 0; i < n; i++) {
		if (!sent_idx(b, i))
			continue;
		Packet &p = b.pkts[i];
		const bool parity = i >= static_cast<size_t>(coder_.data());
		const size_t plen = parity || i + 1 < static_cast<size_t>(s.d) ? len : s.last_len;
		p.payload.resize(len);
		p.h = { .type = parity ? Type::Parity : Type::Data,
			.flags = last ? kFlagLastBlock : uint8_t{ 0 },
			.flow_id = cfg_.flow_id,
			.psn = uint64_t{ id } * n + i,
			.block_id = id,
			.block_idx = static_cast<uint16_t>(i),
			.payload_len = static_cast<uint16_t>(plen),
			.msg_id = msg_id,
			.msg_len = msg_len };
		if (parity) {
			pp.push_back(p.payload.data());
		} else {
			std::copy_n(&data[i * len], plen, p.payload.data());
			dp.push_back(p.payload.data());
		}
		fresh_.push_back({ id, static_cast<uint16_t>(i) });
	}
	coder_.encode(dp, pp);
	blocks_.emplace(id, std::move(b));
}

bool Sender::sent_idx(const Block &b, uint64_t idx) const
{
	const uint64_t x = coder_.data(), n = coder_.packets();
	return idx < static_cast<uint64_t>(b.d) || (idx >= x && idx < n);
}

std::optional<Outgoing> Sender::next(uint64_t now_ns)
{
	for (auto *q : { &retx_, &fresh_ }) {
		while (!q->empty()) {
			const Ref r = q->front();
			q->pop_front();
			const auto it = blocks_.find(r.block_id);
			if (it == blocks_.end())
				continue; // completed while queued
			Packet &p = it->second.pkts[r.block_idx];
			p.queued = false;
			if (!p.acked)
				return transmit(p, now_ns);
		}
	}
	return std::nullopt;
}

Outgoing Sender::transmit(Packet &p, uint64_t now_ns)
{
	if (p.sent) {
		p.h.flags |= kFlagRetx;
		counters_.retransmits++;
	}
	p.sent = true;
	p.in_flight = true;
	in_flight_ += p.h.payload_len;
	p.rto_deadline = now_ns + rto_of(p);
	p.h.tx_ts_ns = now_ns;
	if (p.trim)
		p.trim->resent_ns = now_ns;
	p.h.subflow = static_cast<uint16_t>(unolb_next_subflow(&lb_));
	return { p.h, std::span<const uint8_t>(p.payload).first(p.h.payload_len) };
}

// RFC 6298 5.5 to 5.7 in spirit; spec 9.24 has the RTO's value but no
// backoff (nor has the artifact, whose receivers are infinitely fast).
// Without one, replies delayed past the RTO (a receiver slower than the
// wire, a queue deeper than the one the RTO drains) time every packet out
// again and again, and each resend adds to the delay: the incast of
// incast_test.cc sent over 2000 times the packets it needed and completed
// none. TCP backs off one timer per connection; UnoRC times each packet
// out on its own (spec 6.3) and sprays a flow's packets over S paths, so
// the backoff is each packet's: a packet lost on one bad path does not
// slow the timers of those on good ones (one backoff for the flow,
// raised at every scan that timed some packet out, held the incast's
// lost packets back for 14 times its ideal time). As Linux resets
// icsk_backoff on a valid RTT sample (every ACK here has one: it echoes
// its packet's tx_ts), a new ACK, the flow's progress, ends the backoff
// of every packet: what it sends next goes with the base RTO. The packets
// already in flight keep the deadlines they left with.
int Sender::backoff_of(const Packet &p) const
{
	return p.backoff_epoch == ack_epoch_ ? p.backoff : 0;
}

uint64_t Sender::rto_of(const Packet &p) const
{
	const uint64_t max = std::max(cfg_.rto_ns, kRtoMaxNs);
	const int b = backoff_of(p);
	return cfg_.rto_ns > max >> b ? max : cfg_.rto_ns << b;
}

void Sender::time_out(uint32_t block_id, uint16_t idx, Packet &p)
{
	p.backoff = static_cast<uint8_t>(std::min(backoff_of(p) + 1, kRtoMaxBackoff));
	p.backoff_epoch = ack_epoch_;
	queue_retx(block_id, idx, p);
}

void Sender::queue_retx(uint32_t block_id, uint16_t idx, Packet &p)
{
	land(p);
	p.queued = true;
	retx_.push_back({ block_id, idx });
}

// The packet left the network: ACKed, presumed lost or its block complete.
void Sender::land(Packet &p)
{
	if (p.in_flight)
		in_flight_ -= p.h.payload_len;
	p.in_flight = false;
}

AckInfo Sender::on_ack(const Ack &a, uint64_t now_ns)
{
	check_flow(a.flow_id);
	const uint64_t n = coder_.packets();
	const uint64_t block_id = a.acked_psn / n, idx = a.acked_psn % n;
	const auto it = block_id < kNoBlock ? blocks_.find(static_cast<uint32_t>(block_id))
					    : blocks_.end();
	// A packet of a complete block is known sent; others must be.
	const bool known = it == blocks_.end()
				   ? block_id < next_block_
				   : sent_idx(it->second, idx) && it->second.pkts[idx].sent;
	if (!known || a.subflow >= cfg_.subflows) {
		counters_.bad_acks++;
		return {};
	}
	AckInfo info = { .ecn_ce = (a.flags & kFlagEcnCeEcho) != 0 };
	if (a.echo_tx_ts_ns <= now_ns)
		info.rtt_ns = now_ns - a.echo_tx_ts_ns;
	unolb_on_ack(&lb_, a.subflow, now_ns);
	if (it != blocks_.end() && !it->second.pkts[idx].acked) {
		Packet &p = it->second.pkts[idx];
		p.acked = true;
		ack_epoch_++;
		land(p);
		repaired(p, now_ns);
		info.acked_bytes = p.h.payload_len;
		// The receiver ACKs only packets it holds, so it holds d of the
		// block's and has decoded it: a decodable block is never resent
		// (spec 6.3).
		if (++it->second.acked == it->second.d)
			complete(it, now_ns);
	}
	if (a.completed_block != kNoBlock) {
		const auto done = blocks_.find(a.completed_block);
		if (done != blocks_.end())
			complete(done, now_ns);
	}
	complete_through(a.highest_completed_block, now_ns);
	return info;
}

int Sender::on_nack(const Nack &n, uint64_t now_ns)
{
	check_flow(n.flow_id);
	return n.trimmed ? on_trim_nack(n, now_ns) : on_block_nack(n, now_ns);
}

// Spec 6.3 [A]: every packet of the block not ACKed goes again.
int Sender::on_block_nack(const Nack &n, uint64_t now_ns)
{
	// The receiver NACKs only blocks it has packets of.
	if (never_sent(n.block_id)) {
		counters_.bad_nacks++;
		return 0;
	}
	complete_through(n.highest_completed_block, now_ns);
	const auto it = blocks_.find(n.block_id);
	if (it == blocks_.end())
		return 0; // complete
	int queued = 0;
	for (size_t i = 0; i < it->second.pkts.size(); i++) {
		Packet &p = it->second.pkts[i];
		if (!p.sent || p.acked || p.queued)
			continue;
		queue_retx(n.block_id, static_cast<uint16_t>(i), p);
		queued++;
	}
	return queued;
}

// SMaRTT Sec. III-D: a trimmed packet goes again at once, and only it.
// The NACK is checked against what was sent before anything of it is
// believed, highest_completed_block included: a forged or stale one
// changes nothing. (Its block_id is above its highest_completed_block,
// which parse() checks, so completing through that leaves it held.)
int Sender::on_trim_nack(const Nack &n, uint64_t now_ns)
{
	const auto it = blocks_.find(n.block_id);
	if (it == blocks_.end()) {
		(never_sent(n.block_id) ? counters_.bad_nacks : counters_.trim_nacks_ignored)++;
		return 0;
	}
	if (!sent_idx(it->second, n.block_idx) || !it->second.pkts[n.block_idx].sent) {
		counters_.bad_nacks++;
		return 0;
	}
	Packet &p = it->second.pkts[n.block_idx];
	// A trim of an earlier transmission (the RTO or an earlier NACK
	// resent the packet since) says nothing of the one in flight:
	// resending for it would add a copy per NACK to a full port.
	if (p.acked || p.queued || n.echo_tx_ts_ns != p.h.tx_ts_ns) {
		counters_.trim_nacks_ignored++;
		return 0;
	}
	complete_through(n.highest_completed_block, now_ns);
	// The packet's latest transmission is the one in flight: trimmed.
	if (!p.trim)
		p.trim = Trim{ .first_sent_ns = p.h.tx_ts_ns, .last_nack_ns = 0,
			       .resent_ns = {}, .count = 0 };
	p.trim->last_nack_ns = now_ns;
	p.trim->resent_ns.reset();
	p.trim->count++;
	queue_retx(n.block_id, n.block_idx, p);
	counters_.trim_resends++;
	return 1;
}

// No packet of the block ever left: the flow has not reached it, or has
// queued it and sent none of it yet.
bool Sender::never_sent(uint32_t block_id) const
{
	if (block_id >= next_block_)
		return true;
	const auto it = blocks_.find(block_id);
	const auto sent = [](const Packet &p) { return p.sent; };
	return it != blocks_.end() &&
	       std::none_of(it->second.pkts.begin(), it->second.pkts.end(), sent);
}

int Sender::scan(uint64_t now_ns)
{
	int timed_out = 0;
	for (auto &[id, b] : blocks_) {
		for (size_t i = 0; i < b.pkts.size(); i++) {
			Packet &p = b.pkts[i];
			if (!p.sent || p.acked || p.queued || now_ns < p.rto_deadline)
				continue;
			timed_out++;
			time_out(id, static_cast<uint16_t>(i), p);
		}
	}
	counters_.timeouts += timed_out;
	return timed_out;
}

uint32_t Sender::repath(uint64_t now_ns, uint64_t base_rtt_ns, const LbDraws &rnd,
			const MovePath &move)
{
	const unolb_flow was = lb_;
	const uint32_t moved = unolb_repath(&lb_, now_ns, base_rtt_ns, rnd.data());
	for (uint32_t k = 0; k < lb_.nr; k++)
		if ((moved & 1U << k) && !move(static_cast<uint16_t>(k), lb_.ent[k]))
			lb_.ent[k] = was.ent[k];
	return moved;
}

// A trimmed packet is repaired once the receiver has its bytes: it is
// ACKed, or its block complete.
void Sender::repaired(Packet &p, uint64_t now_ns)
{
	if (!p.trim)
		return;
	trim_repairs_.push_back({ .since_send_ns = now_ns - p.trim->first_sent_ns,
				  .since_nack_ns = now_ns - p.trim->last_nack_ns,
				  .since_resend_ns = p.trim->resent_ns ?
					  std::optional(now_ns - *p.trim->resent_ns) : std::nullopt,
				  .trims = p.trim->count });
	p.trim.reset();
}

void Sender::complete(BlockMap::iterator it, uint64_t now_ns)
{
	const auto m = msgs_.find(it->second.msg_first);
	if (--m->second.incomplete == 0) {
		completed_.push_back(m->second.msg_id);
		msgs_.erase(m);
	}
	for (Packet &p : it->second.pkts) {
		land(p);
		repaired(p, now_ns);
	}
	blocks_.erase(it);
}

void Sender::complete_through(uint32_t highest, uint64_t now_ns)
{
	while (highest != kNoBlock && !blocks_.empty() && blocks_.begin()->first <= highest)
		complete(blocks_.begin(), now_ns);
}

std::vector<uint32_t> Sender::take_completed()
{
	return std::exchange(completed_, {});
}

std::vector<TrimRepair> Sender::take_trim_repairs()
{
	return std::exchange(trim_repairs_, {});
}

} // namespace unorc
