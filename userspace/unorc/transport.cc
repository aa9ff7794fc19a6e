// SPDX-License-Identifier: GPL-2.0
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "transport.h"

namespace unorc {

namespace {

// The largest UDP payload, IPv4 or IPv6 without jumbograms.
constexpr size_t kMaxDatagram = 65535;
// Datagrams read, packets sent, per task and round: no socket starves
// the others, nor the timers.
constexpr int kBatch = 64;
// Timers fire at a twentieth of what they time (spec 6.2 and 6.3).
constexpr uint64_t kTimerDiv = 20;
// How far the pacer may run behind the clock: a wake-up late by ppoll's
// timer slack (50 us) may catch up by a burst that long, no more.
constexpr uint64_t kPaceSlackNs = 50'000;
constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

uint64_t us_of(uint64_t ns)
{
	return ns / 1000;
}

uint32_t mss_of(const FlowConfig &cfg)
{
	return static_cast<uint32_t>(cfg.code.len);
}

// An RTT sample in us, as uno_ack takes it: -1 for none.
int32_t rtt_us_of(const AckInfo &info)
{
	if (!info.rtt_ns)
		return -1;
	return static_cast<int32_t>(std::min<uint64_t>(us_of(*info.rtt_ns), INT32_MAX));
}

void count(DropCounters &c, WireError e)
{
	c.wire[static_cast<size_t>(e)]++;
}

void count(DropCounters &c, Drop d)
{
	c.transport[static_cast<size_t>(d)]++;
}

void add(ReceiverCounters &sum, const ReceiverCounters &c)
{
	sum.stored += c.stored;
	sum.duplicates += c.duplicates;
	sum.done_block += c.done_block;
	sum.outside_window += c.outside_window;
	sum.conflicts += c.conflicts;
	sum.decoded += c.decoded;
	sum.bad_messages += c.bad_messages;
	sum.nacks += c.nacks;
	sum.trims += c.trims;
	sum.trims_unwanted += c.trims_unwanted;
}

// The sub-flows start on the entropies of their paths, and re-paths draw
// from the range the Paths gives.
SenderConfig sender_config(const FlowConfig &cfg, const Paths &paths)
{
	if (!cfg.cc)
		throw std::invalid_argument("unorc: flow " + std::to_string(cfg.flow_id) +
					    " without UnoCC parameters");
	const EntropyRange range = paths.entropy_range();
	LbConfig lb = { .mode = cfg.repath, .first = range.first, .span = range.span };
	for (int k = 0; k < paths.count(); k++)
		lb.entropy.push_back(paths.entropy(static_cast<uint16_t>(k)));
	return { .flow_id = cfg.flow_id, .code = cfg.code, .rto_ns = cfg.rto_ns,
		 .subflows = paths.count(), .lb = std::move(lb) };
}

std::unique_ptr<FlowCc> flow_cc(const FlowConfig &cfg, uint64_t now_ns)
{
	try {
		return make_cc(cfg.law, cfg.cc, cfg.smartt, mss_of(cfg), now_ns);
	} catch (const std::invalid_argument &e) {
		throw std::invalid_argument("unorc: flow " + std::to_string(cfg.flow_id) + " " +
					    e.what());
	}
}

uint32_t max_blocks(const ReceiverOptions &opt, const WireLimits &code)
{
	const uint64_t block = static_cast<uint64_t>(code.x + code.y) * code.len;
	const uint64_t n = block ? opt.window_bytes / block : 0;
	return static_cast<uint32_t>(std::clamp<uint64_t>(n, 1, UINT32_MAX));
}

} // namespace

const char *drop_name(Drop d)
{
	switch (d) {
	case Drop::Oversize:
		return "oversize";
	case Drop::WrongType:
		return "wrong_type";
	case Drop::OtherFlow:
		return "other_flow";
	case Drop::FlowLimit:
		return "flow_limit";
	}
	return "unknown";
}

uint64_t DropCounters::total() const
{
	uint64_t n = 0;
	for (uint64_t v : wire)
		n += v;
	for (uint64_t v : transport)
		n += v;
	return n;
}

std::map<std::string, uint64_t> drops_by_reason(const DropCounters &d)
{
	std::map<std::string, uint64_t> m;
	for (size_t i = 1; i < kWireErrorCount; i++)
		if (d.wire[i])
			m[wire_error_name(static_cast<WireError>(i))] = d.wire[i];
	for (size_t i = 0; i < kDropCount; i++)
		if (d.transport[i])
			m[drop_name(static_cast<Drop>(i))] = d.transport[i];
	return m;
}

bool Loop::run(const std::function<bool(uint64_t)> &step, uint64_t deadline_ns)
{
	std::vector<pollfd> fds;
	std::vector<Task *> owner;
	for (;;) {
		uint64_t now = monotonic_ns(), wake = deadline_ns;
		for (Task *t : tasks_)
			wake = std::min(wake, t->run(now));
		if (!step(now))
			return true;
		if (now >= deadline_ns)
			return false;
		// A re-path changes a task's sockets.
		fds.clear();
		owner.clear();
		for (Task *t : tasks_) {
			for (int fd : t->sockets()) {
				fds.push_back({ .fd = fd, .events = POLLIN, .revents = 0 });
				owner.push_back(t);
			}
		}
		const uint64_t wait = wake > now ? wake - now : 0;
		const timespec ts = { .tv_sec = static_cast<time_t>(wait / 1'000'000'000),
				      .tv_nsec = static_cast<long>(wait % 1'000'000'000) };
		if (::ppoll(fds.data(), fds.size(), &ts, nullptr) < 0 && errno != EINTR)
			throw SysError(std::string("ppoll: ") + std::strerror(errno));
		now = monotonic_ns();
		for (size_t i = 0; i < fds.size(); i++)
			if (fds[i].revents)
				owner[i]->on_readable(fds[i].fd, now);
	}
}

bool CodePolicy::is_inter(const Endpoint &peer) const
{
	const auto in = [&](const Prefix &p) { return contains(p, peer); };
	return std::any_of(inter_prefixes.begin(), inter_prefixes.end(), in);
}

const WireLimits &CodePolicy::code_for(const Endpoint &peer) const
{
	return is_inter(peer) ? inter : intra;
}

SenderFlow::SenderFlow(const FlowConfig &cfg, std::unique_ptr<Paths> paths, uint64_t now_ns)
	: cfg_(cfg), sender_(sender_config(cfg, *paths), now_ns), paths_(std::move(paths)),
	  cc_(flow_cc(cfg, now_ns)),
	  buf_(kShimSize + kPacketHeaderSize + cfg.code.len),
	  rng_(cfg.lb_seed ? cfg.lb_seed : std::random_device{}())
{
	next_scan_ns_ = now_ns + cfg_.rto_ns / kTimerDiv;
}

void SenderFlow::send_message(uint32_t msg_id, std::span<const uint8_t> bytes, uint64_t now_ns)
{
	// Nothing outstanding: transmission restarts after idle, the
	// module's CA_EVENT_TX_START.
	if (sender_.blocks_held() == 0)
		cc_->on_tx_start(now_ns);
	sender_.send_message(msg_id, bytes);
	pending_[msg_id] = { bytes.size(), now_ns };
}

void SenderFlow::on_readable(int fd, uint64_t now_ns)
{
	Datagram d;
	for (int k = 0; k < kBatch && recv_datagram(fd, { buf_.data(), buf_.size() }, &d); k++) {
		// A count below the last is a socket a re-path put under fd,
		// counting from 0.
		uint32_t &last = socket_drops_[fd];
		if (d.drops) {
			stats_.socket_drops += d.drops >= last ? d.drops - last : d.drops;
			last = d.drops;
		}
		if (d.truncated)
			count(stats_.drops, Drop::Oversize);
		else
			on_reply(buf_.data(), d.len, now_ns);
	}
	collect(now_ns);
}

void SenderFlow::on_datagram(std::span<const uint8_t> dgram, uint64_t now_ns)
{
	on_reply(dgram.data(), dgram.size(), now_ns);
	collect(now_ns);
}

// A reply's shim, if it has one, is the datapath's: the ingress program
// has read it already.
void SenderFlow::on_reply(const uint8_t *buf, size_t len, uint64_t now_ns)
{
	Unshimmed u;
	WireError e = unshim(buf, len, &u);
	if (e != WireError::Ok)
		return count(stats_.drops, e);
	Message m;
	e = parse(u.msg, u.len, cfg_.code, &m);
	if (e != WireError::Ok)
		return count(stats_.drops, e);
	if (std::holds_alternative<PacketHeader>(m) || (u.shim && u.shim->type == ShimType::Data))
		return count(stats_.drops, Drop::WrongType);
	const Ack *a = std::get_if<Ack>(&m);
	const Nack *n = std::get_if<Nack>(&m);
	// Sender throws on another flow's: network input must not.
	if ((a ? a->flow_id : n->flow_id) != cfg_.flow_id)
		return count(stats_.drops, Drop::OtherFlow);
	if (a)
		return on_ack(*a, now_ns);
	stats_.nacks++;
	if (n->trimmed)
		return on_trim_nack(*n, now_ns);
	const uint64_t bad = sender_.counters().bad_nacks;
	// The packets it queued again are lost: SMaRTT's losses (cc.h).
	if (const int lost = sender_.on_nack(*n, now_ns))
		cc_->on_nack(now_ns, static_cast<uint32_t>(lost) * mss_of(cfg_),
			     sender_.in_flight_bytes());
	// A NACK of a block not yet complete re-paths (spec 6.3); one of a
	// block never sent is no trigger.
	if (sender_.counters().bad_nacks == bad && sender_.holds(n->block_id))
		repath(now_ns);
}

// A switch trimmed one of our packets: Sender queues it ahead of new
// packets, and run() sends it as the window and the pacer allow. The
// packet left the window as the NACK landed it. SMaRTT's and NSCC's
// smartt_on_nack() and nscc_on_nack() are that event; UnoCC takes none:
// spec 3.4's on_trim_nack is "not used" (Uno does not rely on trimming;
// its congestion signal is ECN, which the trimmed header does not carry,
// the qdisc turning CE into ECT(0)). A TRIMMED NACK Sender ignores (its
// packet ACKed, already queued, its block complete) is no event.
// Nor does a trim re-path: it says the port was full, not that the path
// is bad, and spec 5.1's triggers are a block's NACK and the RTO.
void SenderFlow::on_trim_nack(const Nack &n, uint64_t now_ns)
{
	stats_.trim_nacks++;
	if (sender_.on_nack(n, now_ns))
		cc_->on_trim(now_ns, mss_of(cfg_), sender_.in_flight_bytes());
}

// One ACK for the flow's law, as the modules' cong_control take TCP's.
void SenderFlow::on_ack(const Ack &a, uint64_t now_ns)
{
	// The window was not what held sending back: the module's
	// !tcp_is_cwnd_limited(), our guard for QA (spec 3.6).
	const bool app_limited = !sender_.has_queued();
	const uint64_t bad = sender_.counters().bad_acks;
	const AckInfo info = sender_.on_ack(a, now_ns);
	stats_.acks++;
	if (sender_.counters().bad_acks != bad)
		return; // a packet never sent: nothing for the law
	const int32_t sample = rtt_us_of(info);
	if (sample >= 0) {
		const uint32_t rtt = static_cast<uint32_t>(sample);
		min_rtt_us_ = std::min(min_rtt_us_, rtt);
		stats_.max_rtt_us = std::max<uint64_t>(stats_.max_rtt_us, rtt);
		stats_.rtt_us.add(rtt);
		// TCP's srtt: gain 1/8 (RFC 6298).
		srtt_us_ = srtt_us_ ? srtt_us_ - srtt_us_ / 8 + rtt / 8 : rtt;
	}
	cc_->on_ack(cc_ack(info, app_limited, now_ns));
	stats_.max_cwnd = std::max(stats_.max_cwnd, cwnd_bytes());
}

// The echoed tx timestamp gives every ACK, of a resent packet too, its
// own transmission's RTT: no Karn ambiguity. The min RTT is the flow's
// since it started (TCP's filter keeps 5 minutes; our flows are shorter).
CcAck SenderFlow::cc_ack(const AckInfo &info, bool app_limited, uint64_t now_ns) const
{
	return { .now_ns = now_ns,
		 .acked = static_cast<uint32_t>(info.acked_bytes),
		 .rtt_us = rtt_us_of(info),
		 .ce = info.ecn_ce,
		 .app_limited = app_limited,
		 .min_rtt_us = min_rtt_us_,
		 .srtt_us = srtt_us_,
		 .sent = stats_.bytes_sent,
		 .in_flight = sender_.in_flight_bytes() };
}

// An RTO, as the modules' CA_EVENT_LOSS: the law takes the packets timed
// out (UnoCC one MSS per event, cc.h), and one re-path.
void SenderFlow::scan(uint64_t now_ns)
{
	if (now_ns < next_scan_ns_)
		return;
	next_scan_ns_ = now_ns + std::max<uint64_t>(cfg_.rto_ns / kTimerDiv, 1);
	const int lost = sender_.scan(now_ns);
	if (!lost)
		return;
	stats_.rto_events++;
	cc_->on_rto(static_cast<uint32_t>(lost) * mss_of(cfg_));
	repath(now_ns);
}

// UnoLB's re-path rule (spec 5.1) with the flow's base RTT as UnoCC takes
// it: the min RTT, never below RTT_intra (uno_base_rtt(); a loopback's
// 0 us would make every sub-flow silent at every trigger), and RTT_intra
// before the first sample.
void SenderFlow::repath(uint64_t now_ns)
{
	const uint32_t min_rtt = min_rtt_us_ == UNO_RTT_NONE ? 0 : min_rtt_us_;
	const uint64_t base_ns = uint64_t{ uno_base_rtt(cfg_.cc, min_rtt) } * 1000;
	LbDraws rnd;
	for (uint32_t &r : rnd)
		r = static_cast<uint32_t>(rng_());
	// A reply later than the RTO finds its packet resent already.
	const auto move = [this, now_ns](uint16_t k, uint32_t entropy) {
		const bool moved = paths_->repath(k, entropy, now_ns, cfg_.rto_ns);
		(moved ? stats_.rebinds : stats_.rebind_failures)++;
		return moved;
	};
	if (sender_.repath(now_ns, base_ns, rnd, move))
		stats_.repath_events++;
}

// The law's window; before its first RTT sample, which UDP has no
// handshake to give, one block of the flow's code. The law's floor alone
// would send a coded message's first packet alone, out of reach of its
// parity: a lost one waits for the RTO (at 1 % WAN loss 2 % of coded
// messages did, RC1), where a whole block loses up to y packets and
// decodes. The block's packets are no more than TCP's initial window
// (RFC 6928: 10) for the (8+2) code; an uncoded flow's block is one
// packet, the floor, as a burst no code protects would leave each of its
// losses to the RTO (an incast of such bursts, Incast.*, took 27 times
// its ideal time).
uint64_t SenderFlow::cwnd_bytes() const
{
	if (cc_->base_rtt_us())
		return cc_->cwnd_bytes();
	const auto block = static_cast<uint64_t>(cfg_.code.x + cfg_.code.y);
	return std::max<uint64_t>(cc_->cwnd_bytes(), block * mss_of(cfg_));
}

uint64_t SenderFlow::run(uint64_t now_ns)
{
	scan(now_ns);
	for (int k = 0; k < kBatch; k++) {
		if (!sender_.has_queued())
			return next_scan_ns_;
		// A packet may leave while the bytes in flight are below the
		// window, so the window is exceeded by less than a packet and
		// a window below one packet (Uno's floor is 64 bytes) still
		// sends one at a time, its rate set by the pacer.
		if (sender_.in_flight_bytes() >= cwnd_bytes()) {
			stats_.window_stops++;
			return next_scan_ns_;
		}
		if (pacing_rate() && now_ns < next_send_ns_) {
			stats_.pacing_waits++;
			return std::min(next_scan_ns_, next_send_ns_);
		}
		if (!transmit(now_ns))
			return next_scan_ns_;
	}
	return now_ns;
}

// The shim before a packet: ACKs come back to the sub-flow's port, its
// entropy, whatever source port the datapath writes.
Shim SenderFlow::data_shim(const PacketHeader &h) const
{
	return { .type = ShimType::Data, .flags = h.flags & kFlagRetx ? kShimRetx : uint8_t{ 0 },
		 .ev = kShimNoEv, .reply_port = static_cast<uint16_t>(paths_->entropy(h.subflow)),
		 .seq = h.psn, .ts_ns = h.tx_ts_ns };
}

bool SenderFlow::transmit(uint64_t now_ns)
{
	const auto o = sender_.next(now_ns);
	if (!o)
		return false;
	size_t len = 0;
	if (cfg_.shim) {
		const ShimBytes s = serialize(data_shim(o->header));
		len = std::copy(s.begin(), s.end(), buf_.begin()) - buf_.begin();
	}
	const PacketHeaderBytes h = serialize(o->header);
	std::copy(h.begin(), h.end(), buf_.begin() + len);
	std::copy(o->payload.begin(), o->payload.end(), buf_.begin() + len + kPacketHeaderSize);
	len += kPacketHeaderSize + o->payload.size();
	if (!paths_->send(o->header.subflow, { buf_.data(), len }))
		stats_.send_failures++;
	stats_.packets_sent++;
	stats_.bytes_sent += o->payload.size();
	// The pacer: the law's pacing rate, bytes per second (UnoCC's is
	// cwnd / base RTT).
	const uint64_t rate = pacing_rate();
	if (rate) {
		const uint64_t behind = now_ns > kPaceSlackNs ? now_ns - kPaceSlackNs : 0;
		next_send_ns_ = std::max(next_send_ns_, behind) + o->payload.size() * 1'000'000'000ULL / rate;
	}
	return true;
}

void SenderFlow::collect(uint64_t now_ns)
{
	for (uint32_t id : sender_.take_completed()) {
		const auto it = pending_.find(id);
		completed_.push_back({ id, it->second.bytes, now_ns - it->second.start_ns });
		pending_.erase(it);
	}
	for (const TrimRepair &t : sender_.take_trim_repairs())
		trim_repairs_.push_back(t);
}

ReceiverTransport::ReceiverTransport(const Endpoint &listen, const ReceiverOptions &opt)
	: opt_(opt), buf_(kMaxDatagram + 1)
{
	if (opt.max_flows == 0)
		throw std::invalid_argument("unorc: receiver: max_flows 0");
	// Refuse a bad code or ec_wait now, not at the first packet.
	for (const WireLimits *c : { &opt.codes.inter, &opt.codes.intra })
		Receiver({ .code = *c, .ec_wait_ns = opt.ec_wait_ns,
			   .max_blocks = max_blocks(opt, *c) });
	fd_ = bind_udp(listen, opt.rcvbuf);
	raw_ = fd_.get();
}

uint64_t ReceiverTransport::socket_drops() const
{
	return std::max<uint64_t>(stats_.socket_drops, socket_drops_of(fd_.get()));
}

ReceiverCounters ReceiverTransport::totals() const
{
	ReceiverCounters sum;
	for (const auto &[key, f] : flows_)
		add(sum, f.rx.counters());
	return sum;
}

void ReceiverTransport::on_readable(int fd, uint64_t now_ns)
{
	Datagram d;
	for (int k = 0; k < kBatch && recv_datagram(fd, { buf_.data(), buf_.size() }, &d); k++) {
		stats_.datagrams++;
		stats_.ce += d.ce();
		if (d.drops)
			stats_.socket_drops = d.drops;
		last_rx_ns_ = now_ns;
		if (d.truncated || d.len > kMaxDatagram)
			count(stats_.drops, Drop::Oversize);
		else
			on_datagram(d, now_ns);
	}
}

// A shimmed packet's source port is the EV the datapath chose: its
// replies go to the shim's reply_port, each ACK after the shim's echo.
void ReceiverTransport::on_datagram(const Datagram &d, uint64_t now_ns)
{
	const WireLimits &code = opt_.codes.code_for(d.from);
	Unshimmed u;
	WireError e = unshim(buf_.data(), d.len, &u);
	if (e != WireError::Ok)
		return count(stats_.drops, e);
	if (u.shim && u.shim->type != ShimType::Data)
		return count(stats_.drops, Drop::WrongType);
	const Endpoint from = u.shim ? with_port(d.from, u.shim->reply_port) : d.from;
	Message m;
	const bool trimmed = opt_.trim_dscp && d.dscp() == *opt_.trim_dscp;
	e = parse(u.msg, u.len, code, &m, trimmed);
	if (e != WireError::Ok)
		return count(stats_.drops, e);
	if (const Trimmed *t = std::get_if<Trimmed>(&m))
		return on_trimmed(t->header, from, code, u.shim);
	const PacketHeader *h = std::get_if<PacketHeader>(&m);
	if (!h)
		return count(stats_.drops, Drop::WrongType);
	Flow *f = flow_for(from, h->flow_id, code, u.shim.has_value());
	if (!f)
		return count(stats_.drops, Drop::FlowLimit);
	Received r = f->rx.on_packet(*h, u.msg + kPacketHeaderSize, d.ce(), now_ns);
	note_holding(from, h->flow_id, f->rx);
	if (r.ack) {
		stats_.acks++;
		const auto echo = u.shim ? std::optional(shim_echo(*u.shim, ShimType::Ack, d.ce()))
					 : std::nullopt;
		reply(echo, serialize(*r.ack), from);
	}
	for (DeliveredMessage &msg : r.messages)
		delivered_.push_back({ from, h->flow_id, std::move(msg) });
}

// A trimmed header: its NACK goes back at once, to the port it came from,
// or its shim's reply_port with the trimmed packet's EV (arcane.md 2.5).
void ReceiverTransport::on_trimmed(const PacketHeader &h, const Endpoint &from,
				   const WireLimits &code, const std::optional<Shim> &shim)
{
	Flow *f = flow_for(from, h.flow_id, code, shim.has_value());
	if (!f)
		return count(stats_.drops, Drop::FlowLimit);
	if (const auto n = f->rx.on_trim(h)) {
		stats_.nacks++;
		const auto echo = shim ? std::optional(shim_echo(*shim, ShimType::Nack, false))
				       : std::nullopt;
		reply(echo, serialize(*n), from);
	}
}

void ReceiverTransport::note_holding(const Endpoint &peer, uint32_t flow_id, const Receiver &rx)
{
	const Key key = { host_of(peer), flow_id };
	if (rx.blocks_held())
		holding_.insert(key);
	else
		holding_.erase(key);
}

// A flow is its peer's address and its flow id, not the port: the
// sub-flows of a sender leave from ports of their own (spec 5.2). ACKs go
// back to the port each packet came from, NACKs to the latest one.
ReceiverTransport::Flow *ReceiverTransport::flow_for(const Endpoint &peer, uint32_t flow_id,
						     const WireLimits &code, bool shim)
{
	const Key key = { host_of(peer), flow_id };
	const auto it = flows_.find(key);
	if (it != flows_.end()) {
		it->second.peer = peer;
		it->second.shim = shim;
		return &it->second;
	}
	if (flows_.size() >= opt_.max_flows)
		return nullptr;
	const ReceiverConfig cfg = { .flow_id = flow_id, .code = code, .ec_wait_ns = opt_.ec_wait_ns,
				     .max_blocks = max_blocks(opt_, code) };
	return &flows_.emplace(key, Flow{ peer, Receiver(cfg), shim }).first->second;
}

void ReceiverTransport::reply(const std::optional<Shim> &shim, std::span<const uint8_t> msg,
			      const Endpoint &to)
{
	ShimBytes s{};
	if (shim)
		s = serialize(*shim);
	iovec iov[2] = { { s.data(), shim ? s.size() : 0 },
			 { const_cast<uint8_t *>(msg.data()), msg.size() } };
	msghdr mh = {};
	mh.msg_name = const_cast<sockaddr *>(to.sa());
	mh.msg_namelen = to.len;
	mh.msg_iov = iov;
	mh.msg_iovlen = 2;
	const size_t len = iov[0].iov_len + iov[1].iov_len;
	if (::sendmsg(fd_.get(), &mh, MSG_DONTWAIT) != static_cast<ssize_t>(len))
		stats_.send_failures++;
}

uint64_t ReceiverTransport::run(uint64_t now_ns)
{
	if (now_ns < next_tick_ns_)
		return next_tick_ns_;
	next_tick_ns_ = now_ns + std::max<uint64_t>(opt_.ec_wait_ns / kTimerDiv, 1);
	for (const Key &key : holding_) {
		Flow &f = flows_.at(key);
		// A timed-out block is no one packet's: the shim's ev is none.
		const auto shim = f.shim ? std::optional(Shim{ .type = ShimType::Nack })
					 : std::nullopt;
		for (const Nack &n : f.rx.tick(now_ns)) {
			stats_.nacks++;
			reply(shim, serialize(n), f.peer);
		}
	}
	return next_tick_ns_;
}

} // namespace unorc
