// SPDX-License-Identifier: GPL-2.0
//
// The transport over real UDP sockets on the loopback, IPv4 and IPv6: a
// SenderFlow and a ReceiverTransport in one Loop, one thread, with a
// deterministic loss injector in the sender's Paths. Every message must
// arrive byte-exact, the losses be repaired by decoding, NACK and RTO, a
// black-holed path be left by UnoLB's re-path, and no packet leave with
// the bytes in flight at or above the UnoCC window. Then garbage at a
// receiver: counted by reason, nothing else changes.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "transport.h"

using namespace unorc;

namespace {

constexpr size_t kLen = 1000;
constexpr WireLimits kCode = { 8, 2, kLen };
constexpr WireLimits kNoCode = { 1, 0, kLen };
constexpr uint64_t kMs = 1'000'000;
constexpr uint64_t kTimeout = 30'000 * kMs;

using Bytes = std::vector<uint8_t>;
// Whether the seq-th datagram sent (from 1), of header h, leaving from
// source port port, is lost (or trimmed).
using LossRule = std::function<bool(uint64_t seq, const PacketHeader &h, uint16_t port)>;

// sch_phantom's default trim-dscp, unorc recv's default --trim-dscp.
constexpr uint8_t kTrimDscp = 62;
constexpr int kTrimTos = kTrimDscp << 2 | kEct0;

// Sets the TOS byte (IPv4) or traffic class (IPv6) a socket sends with.
void set_tos(int fd, int family, int tos)
{
	const bool v4 = family == AF_INET;
	EXPECT_EQ(::setsockopt(fd, v4 ? IPPROTO_IP : IPPROTO_IPV6, v4 ? IP_TOS : IPV6_TCLASS, &tos,
			       sizeof(tos)),
		  0);
}

// UnoCC at 1 Gbit/s with a 100 us intra-DC RTT: a 12500-byte window of
// 13 packets at the base RTT, small enough to be the limit here.
uno_params test_params()
{
	uno_params p = UNO_PARAMS_INIT;
	p.link_rate_mbps = 1000;
	p.intra_rtt_us = 100;
	return p;
}

// PortPaths that drop what rule says, trim what trim says, and check
// UnoCC's window at every packet that leaves.
class LossyPaths : public Paths {
public:
	LossyPaths(const Endpoint &dst, int subflows, LossRule rule, LossRule trim = {})
		: inner_(dst, subflows), rule_(std::move(rule)), trim_(std::move(trim)),
		  family_(dst.family())
	{
	}

	int count() const override { return inner_.count(); }
	std::span<const int> sockets() const override { return inner_.sockets(); }
	uint32_t entropy(uint16_t subflow) const override { return inner_.entropy(subflow); }
	EntropyRange entropy_range() const override { return inner_.entropy_range(); }
	bool repath(uint16_t subflow, uint32_t entropy, uint64_t now_ns,
		    uint64_t linger_ns) override
	{
		return inner_.repath(subflow, entropy, now_ns, linger_ns);
	}
	bool send(uint16_t subflow, std::span<const uint8_t> dgram) override
	{
		Unshimmed u;
		EXPECT_EQ(unshim(dgram.data(), dgram.size(), &u), WireError::Ok);
		Message m;
		EXPECT_EQ(parse(u.msg, u.len, code_, &m), WireError::Ok);
		const PacketHeader h = std::get<PacketHeader>(m);
		EXPECT_EQ(h.subflow, subflow);
		if (u.shim)
			expect_data_shim(*u.shim, h, subflow);
		// The flow counts the packet in flight before it sends it.
		if (flow_ && flow_->sender().in_flight_bytes() - h.payload_len >= flow_->cwnd_bytes())
			over_window_++;
		const uint16_t port = static_cast<uint16_t>(inner_.entropy(subflow));
		if (rule_(++seq_, h, port)) {
			dropped_++;
			return true;
		}
		if (trim_ && trim_(seq_, h, port)) {
			trimmed_psns_.insert(h.psn);
			trimmed_++;
			return send_trimmed(subflow, dgram);
		}
		return inner_.send(subflow, dgram);
	}

	void watch(const SenderFlow *flow, const WireLimits &code)
	{
		flow_ = flow;
		code_ = code;
	}
	uint64_t over_window() const { return over_window_; }
	uint64_t dropped() const { return dropped_; }
	uint64_t trimmed() const { return trimmed_; }
	uint64_t trimmed_packets() const { return trimmed_psns_.size(); }
	std::vector<uint16_t> ports() const { return inner_.ports(); }

private:
	// The shim a sender opens a packet with: its own port to reply to.
	void expect_data_shim(const Shim &s, const PacketHeader &h, uint16_t subflow) const
	{
		EXPECT_EQ(s, (Shim{ .type = ShimType::Data,
				    .flags = h.flags & kFlagRetx ? kShimRetx : uint8_t{ 0 },
				    .ev = kShimNoEv,
				    .reply_port = static_cast<uint16_t>(inner_.entropy(subflow)),
				    .seq = h.psn,
				    .ts_ns = h.tx_ts_ns }));
	}

	// The header alone (after its shim), with the trim DSCP, from the
	// sub-flow's own socket: what sch_phantom's trim 68 (88 on IPv6; 28
	// more with a shim) with trim-udp valid makes of the datagram, and its
	// NACK comes back to that socket.
	bool send_trimmed(uint16_t subflow, std::span<const uint8_t> dgram)
	{
		const int fd = inner_.sockets()[subflow];
		Unshimmed u;
		EXPECT_EQ(unshim(dgram.data(), dgram.size(), &u), WireError::Ok);
		const size_t len = (u.shim ? kShimSize : 0) + kPacketHeaderSize;
		set_tos(fd, family_, kTrimTos);
		const bool sent = ::send(fd, dgram.data(), len, MSG_DONTWAIT) ==
				  static_cast<ssize_t>(len);
		set_tos(fd, family_, kEct0);
		return sent;
	}

	PortPaths inner_;
	LossRule rule_, trim_;
	int family_;
	const SenderFlow *flow_ = nullptr;
	WireLimits code_ = {};
	uint64_t seq_ = 0, over_window_ = 0, dropped_ = 0, trimmed_ = 0;
	std::set<uint64_t> trimmed_psns_;
};

struct Result {
	std::vector<DeliveredMessage> sent = {}, got = {};
	std::vector<Completion> completed = {};
	FlowStats flow = {};
	SenderCounters sender = {};
	ReceiverStats rx = {};
	ReceiverCounters rx_totals = {};
	uint64_t over_window = 0, dropped = 0, max_in_flight = 0;
	uint64_t trimmed = 0, trimmed_packets = 0; // headers sent trimmed, distinct packets
	std::vector<TrimRepair> trim_repairs = {};
	std::vector<uint16_t> first_ports = {}, last_ports = {}; // by sub-flow
	std::vector<uint64_t> last_ack = {};                      // by sub-flow
	uint64_t start = 0;
	bool finished = false;
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

// How a run() loses and trims, and its timers.
struct Faults {
	LossRule loss;
	LossRule trim = {};
	unolb_mode repath = UNOLB_REPATH_REDRAW;
	uint64_t ec_wait_ns = 2 * kMs;
	uint64_t rto_ns = 50 * kMs;
	bool shim = false;
};

Result run(const std::string &listen, const WireLimits &code, int subflows, Faults f)
{
	const uno_params params = test_params();
	ReceiverOptions ro = { .codes = { .inter_prefixes = {}, .inter = code, .intra = code },
			       .ec_wait_ns = f.ec_wait_ns, .window_bytes = 1 << 20, .max_flows = 4,
			       .trim_dscp = kTrimDscp };
	ReceiverTransport rx(parse_endpoint(listen), ro);
	auto paths = std::make_unique<LossyPaths>(rx.local(), subflows, std::move(f.loss),
						  std::move(f.trim));
	LossyPaths *lossy = paths.get();
	const uint64_t start = monotonic_ns();
	SenderFlow tx({ .flow_id = 9, .code = code, .rto_ns = f.rto_ns, .cc = &params,
			.repath = f.repath, .shim = f.shim },
		      std::move(paths), start);
	lossy->watch(&tx, code);

	Result r = { .sent = messages(), .first_ports = lossy->ports(), .start = start };
	for (const DeliveredMessage &m : r.sent)
		tx.send_message(m.msg_id, m.bytes, start);
	Loop loop;
	loop.add(rx);
	loop.add(tx);
	uint64_t max_in_flight = 0;
	r.finished = loop.run(
		[&](uint64_t) {
			for (Delivery &d : rx.take_delivered())
				r.got.push_back(std::move(d.msg));
			for (const Completion &c : tx.take_completed())
				r.completed.push_back(c);
			for (const TrimRepair &t : tx.take_trim_repairs())
				r.trim_repairs.push_back(t);
			max_in_flight = std::max(max_in_flight, tx.sender().in_flight_bytes());
			return r.completed.size() < r.sent.size() || r.got.size() < r.sent.size();
		},
		start + kTimeout);
	r.flow = tx.stats();
	r.sender = tx.sender().counters();
	r.rx = rx.stats();
	r.rx_totals = rx.totals();
	r.over_window = lossy->over_window();
	r.dropped = lossy->dropped();
	r.trimmed = lossy->trimmed();
	r.trimmed_packets = lossy->trimmed_packets();
	r.max_in_flight = max_in_flight;
	r.last_ports = lossy->ports();
	r.last_ack.assign(tx.sender().last_ack().begin(), tx.sender().last_ack().end());
	EXPECT_EQ(rx.flows(), 1u);
	return r;
}

Result run(const std::string &listen, const WireLimits &code, int subflows, LossRule loss,
	   unolb_mode repath = UNOLB_REPATH_REDRAW)
{
	return run(listen, code, subflows, { .loss = std::move(loss), .repath = repath });
}

// What every run must show: every message delivered byte-exact and in
// order, completed at the sender (blocks, and so messages, may complete
// out of order), the window never exceeded, UnoCC started and bounding.
void expect_complete(const Result &r)
{
	EXPECT_TRUE(r.finished);
	EXPECT_EQ(r.got, r.sent);
	std::map<uint32_t, uint64_t> done, want;
	for (const Completion &c : r.completed)
		done[c.msg_id] = c.bytes;
	for (const DeliveredMessage &m : r.sent)
		want[m.msg_id] = m.bytes.size();
	EXPECT_EQ(done, want);
	EXPECT_EQ(r.completed.size(), r.sent.size());
	EXPECT_GT(r.dropped + r.trimmed, 0u);
	EXPECT_EQ(r.over_window, 0u);
	EXPECT_GT(r.flow.window_stops, 0u);
	EXPECT_GT(r.flow.max_cwnd, 0u);
	EXPECT_LT(r.max_in_flight, r.flow.max_cwnd + kLen);
	EXPECT_EQ(r.flow.drops.total(), 0u);
	EXPECT_EQ(r.rx.drops.total(), 0u);
	EXPECT_EQ(r.flow.send_failures, 0u);
}

bool every_7th(uint64_t seq, const PacketHeader &, uint16_t)
{
	return seq % 7 == 0;
}

// The first transmission of three packets of block 3 and of block 9
// whole: a NACK repairs the first, only the RTO the second. (Block 9's
// packets fill most of the window until their RTO, so a partial loss
// after it would wait for the RTO too.)
bool blocks(uint64_t, const PacketHeader &h, uint16_t)
{
	const bool first = !(h.flags & kFlagRetx);
	return first && ((h.block_id == 3 && h.block_idx < 3) || h.block_id == 9);
}

// Every packet the dark sub-flows send from the ports they started on:
// paths that drop everything, until UnoLB moves the sub-flows off them.
LossRule black_hole(std::set<uint16_t> dark)
{
	return [dark, first = std::map<uint16_t, uint16_t>()](uint64_t, const PacketHeader &h,
							      uint16_t port) mutable {
		return dark.contains(h.subflow) && first.emplace(h.subflow, port).first->second == port;
	};
}

bool have_ipv6()
{
	try {
		bind_udp(parse_endpoint("[::1]:0"));
		return true;
	} catch (const SysError &) {
		return false;
	}
}

} // namespace

TEST(Transport, EveryKthLostIsDecoded)
{
	const Result r = run("127.0.0.1:0", kCode, 10, every_7th);
	expect_complete(r);
	EXPECT_GT(r.rx_totals.decoded, 0u);
}

TEST(Transport, WholeBlockLostIsResent)
{
	const Result r = run("127.0.0.1:0", kCode, 10, blocks);
	expect_complete(r);
	EXPECT_GT(r.rx_totals.decoded, 0u);
	EXPECT_GT(r.rx.nacks, 0u);
	EXPECT_GT(r.flow.nacks, 0u);
	EXPECT_GT(r.flow.rto_events, 0u);
	EXPECT_GT(r.sender.retransmits, 0u);
}

// Intra-DC: no parity, per-packet ACKs and the RTO alone (spec 6.3).
TEST(Transport, NoCodeRepairsByRto)
{
	const Result r = run("127.0.0.1:0", kNoCode, 1, every_7th);
	expect_complete(r);
	EXPECT_EQ(r.rx_totals.decoded, 0u);
	EXPECT_EQ(r.rx.nacks, 0u);
	EXPECT_GT(r.flow.rto_events, 0u);
	EXPECT_GT(r.sender.retransmits, 0u);
}

// Spec N15's black hole without parity: every packet of sub-flow 1 is
// lost until the RTO re-paths the silent sub-flow to another port.
TEST(Transport, BlackHoledSubflowIsRepathedOnRto)
{
	const Result r = run("127.0.0.1:0", kNoCode, 4, black_hole({ 1 }));
	expect_complete(r);
	EXPECT_GT(r.flow.rto_events, 0u);
	EXPECT_GT(r.flow.repath_events, 0u);
	EXPECT_GT(r.flow.rebinds, 0u);
	EXPECT_LE(r.flow.repath_events, r.flow.rto_events);
	EXPECT_NE(r.last_ports[1], r.first_ports[1]);
	// Its ACKs come back on the new socket, under the old descriptor.
	EXPECT_GT(r.last_ack[1], r.start);
}

// Three dark sub-flows of ten lose three packets of every block, one
// more than the parity repairs: the block's NACK re-paths them.
TEST(Transport, BlackHoledSubflowsAreRepathedOnNack)
{
	const Result r = run("127.0.0.1:0", kCode, 10, black_hole({ 1, 4, 7 }));
	expect_complete(r);
	EXPECT_GT(r.flow.nacks, 0u);
	EXPECT_GT(r.flow.repath_events, 0u);
	for (int k : { 1, 4, 7 }) {
		EXPECT_NE(r.last_ports[k], r.first_ports[k]) << "sub-flow " << k;
		EXPECT_GT(r.last_ack[k], r.start) << "sub-flow " << k;
	}
}

// --repath off: the dark sub-flow stays on its path; the retransmissions,
// on the next sub-flows in turn, still deliver every message.
TEST(Transport, RepathOffKeepsThePaths)
{
	const Result r = run("127.0.0.1:0", kNoCode, 4, black_hole({ 1 }), UNOLB_REPATH_OFF);
	expect_complete(r);
	EXPECT_EQ(r.flow.repath_events, 0u);
	EXPECT_EQ(r.flow.rebinds, 0u);
	EXPECT_EQ(r.last_ports, r.first_ports);
	EXPECT_EQ(r.last_ack[1], r.start);
}

TEST(Transport, Ipv6)
{
	if (!have_ipv6())
		GTEST_SKIP() << "no IPv6 loopback";
	const Result r = run("[::1]:0", kCode, 10, blocks);
	expect_complete(r);
	EXPECT_GT(r.sender.retransmits, 0u);
}

namespace {

bool never(uint64_t, const PacketHeader &, uint16_t)
{
	return false;
}

// The first transmission of three packets of block 3, one more than the
// parity repairs, and of packet 0 of block 5, which it repairs.
bool trim_blocks(uint64_t, const PacketHeader &h, uint16_t)
{
	const bool first = !(h.flags & kFlagRetx);
	return first &&
	       ((h.block_id == 3 && h.block_idx < 3) || (h.block_id == 5 && h.block_idx == 0));
}

// Trims, and timers that do not fire in a test's time: whatever repairs
// a trimmed packet is its TRIMMED NACK.
Faults trimming(LossRule trim)
{
	return { .loss = never, .trim = std::move(trim), .ec_wait_ns = 10'000 * kMs,
		 .rto_ns = 10'000 * kMs };
}

// Every trimmed header got its TRIMMED NACK at once, and each NACK a
// resend, or found the packet's block complete already: no NACK timer,
// no RTO, no re-path. Each resent packet's repair is timed once.
void expect_repaired_by_trims(const Result &r)
{
	EXPECT_GT(r.trimmed, 0u);
	EXPECT_EQ(r.rx_totals.trims, r.trimmed);
	EXPECT_EQ(r.rx_totals.trims_unwanted, 0u);
	EXPECT_EQ(r.rx_totals.nacks, 0u);
	EXPECT_EQ(r.rx.nacks, r.trimmed);
	EXPECT_EQ(r.flow.nacks, r.trimmed);
	EXPECT_EQ(r.flow.trim_nacks, r.trimmed);
	EXPECT_EQ(r.sender.trim_resends + r.sender.trim_nacks_ignored, r.trimmed);
	EXPECT_EQ(r.sender.bad_nacks, 0u);
	EXPECT_EQ(r.sender.timeouts, 0u);
	EXPECT_EQ(r.flow.rto_events, 0u);
	EXPECT_EQ(r.flow.repath_events, 0u);
	EXPECT_LE(r.trim_repairs.size(), r.trimmed_packets);
	for (const TrimRepair &t : r.trim_repairs) {
		EXPECT_LE(t.since_nack_ns, t.since_send_ns);
		EXPECT_LT(t.since_send_ns, 1000 * kMs);
	}
}

} // namespace

// Trimmed headers over real sockets, with the trim DSCP from the
// sub-flows' own ports: three packets of a block, more than its parity
// repairs, and one it does, are each NACKed at once and resent.
TEST(Transport, TrimmedPacketsAreResentAtOnce)
{
	const Result r = run("127.0.0.1:0", kCode, 10, trimming(trim_blocks));
	expect_complete(r);
	expect_repaired_by_trims(r);
	EXPECT_EQ(r.trimmed, 4u);
	EXPECT_GE(r.sender.trim_resends, 3u);
	EXPECT_GE(r.trim_repairs.size(), 3u);
}

// Without coding every trimmed packet needs its resend, trimmed again
// too (every 7th datagram, resends included); one sub-flow keeps the
// order, so each NACK finds its packet in flight.
TEST(Transport, TrimmedPacketsWithoutCode)
{
	const Result r = run("127.0.0.1:0", kNoCode, 1, trimming(every_7th));
	expect_complete(r);
	expect_repaired_by_trims(r);
	EXPECT_EQ(r.sender.trim_resends, r.trimmed);
	EXPECT_EQ(r.trim_repairs.size(), r.trimmed_packets);
	EXPECT_EQ(r.sender.retransmits, r.trimmed);
}

// The trim DSCP in the IPv6 traffic class.
TEST(Transport, TrimmedPacketsIpv6)
{
	if (!have_ipv6())
		GTEST_SKIP() << "no IPv6 loopback";
	const Result r = run("[::1]:0", kCode, 10, trimming(trim_blocks));
	expect_complete(r);
	expect_repaired_by_trims(r);
	EXPECT_EQ(r.trimmed, 4u);
}

// With the ARC1 shim on every packet and reply, as the entropy datapath
// steers a flow: losses repaired by parity, NACKs and the RTO, and trims
// by their TRIMMED NACKs.
TEST(Transport, ShimmedFlowRepairsLosses)
{
	Result r = run("127.0.0.1:0", kCode, 1, { .loss = blocks, .shim = true });
	expect_complete(r);
	EXPECT_GT(r.flow.nacks, 0u);
	EXPECT_GT(r.flow.rto_events, 0u);
	Faults trims = trimming(every_7th);
	trims.shim = true;
	r = run("127.0.0.1:0", kNoCode, 1, std::move(trims));
	expect_complete(r);
	expect_repaired_by_trims(r);
}

// Each sub-flow of paths sends a datagram to rx: it must leave from the
// sub-flow's port, ECT(0).
void expect_sent_from_ports(const Fd &rx, PortPaths &paths)
{
	const std::vector<uint16_t> ports = paths.ports();
	const uint8_t byte = 0x42;
	for (uint16_t k = 0; k < paths.count(); k++) {
		ASSERT_TRUE(paths.send(k, { &byte, 1 }));
		pollfd p = { .fd = rx.get(), .events = POLLIN, .revents = 0 };
		ASSERT_EQ(::poll(&p, 1, 5000), 1);
		uint8_t buf[4];
		Datagram d;
		ASSERT_TRUE(recv_datagram(rx.get(), buf, &d));
		EXPECT_EQ(d.len, 1u);
		EXPECT_EQ(d.ecn(), kEct0);
		EXPECT_EQ(d.from.port(), ports[k]);
	}
}

// Every sub-flow leaves from a source port of its own, ECT(0).
void expect_ect0_subflows(const std::string &listen)
{
	const Fd rx = bind_udp(parse_endpoint(listen));
	PortPaths paths(local_endpoint(rx.get()), 3);
	const std::vector<uint16_t> ports = paths.ports();
	EXPECT_EQ(std::set<uint16_t>(ports.begin(), ports.end()).size(), 3u);
	expect_sent_from_ports(rx, paths);
}

TEST(Transport, SubflowsSendEct0)
{
	expect_ect0_subflows("127.0.0.1:0");
	if (have_ipv6())
		expect_ect0_subflows("[::1]:0");
}

// --source-port: sub-flow k sends from first_port + k; a range past 65535
// is refused.
TEST(Transport, SubflowsFromAFixedFirstPort)
{
	const Fd rx = bind_udp(parse_endpoint("127.0.0.1:0"));
	const Endpoint dst = local_endpoint(rx.get());
	uint16_t first;
	{
		// A port the kernel just found free, and the two above it.
		const Fd probe = connect_udp_ect(dst);
		first = local_endpoint(probe.get()).port();
	}
	if (first > 65533)
		first = 40000;
	PortPaths paths(dst, 3, first);
	EXPECT_EQ(paths.ports(), (std::vector<uint16_t>{ first, static_cast<uint16_t>(first + 1),
							  static_cast<uint16_t>(first + 2) }));
	EXPECT_EQ(paths.entropy(2), first + 2u);
	// Re-paths draw from P on: 16384 ports, never past 65535.
	EXPECT_EQ(paths.entropy_range().first, first);
	EXPECT_EQ(paths.entropy_range().span, std::min(16384u, 65536u - first));
	EXPECT_THROW(PortPaths(dst, 3, 65534), std::invalid_argument);
}

// A datagram from rx to port reaches the socket fd (one of sockets()).
void expect_reply_reaches(const Fd &rx, uint16_t port, int fd)
{
	const Endpoint to = parse_endpoint("127.0.0.1:" + std::to_string(port));
	const uint8_t byte = 0x17;
	ASSERT_EQ(::sendto(rx.get(), &byte, 1, 0, to.sa(), to.len), 1);
	pollfd p = { .fd = fd, .events = POLLIN, .revents = 0 };
	ASSERT_EQ(::poll(&p, 1, 5000), 1);
	uint8_t buf[4];
	Datagram d;
	ASSERT_TRUE(recv_datagram(fd, buf, &d));
	EXPECT_EQ(d.len, 1u);
}

std::vector<int> fds_of(const PortPaths &paths)
{
	return { paths.sockets().begin(), paths.sockets().end() };
}

// A re-path binds the sub-flow a socket on the new port, or shares the
// socket of the sub-flow already on it. The socket it leaves stays in
// sockets(), after the sub-flows', and takes replies for the linger time;
// a re-path onto its port takes it back; the first re-path past its time
// closes it. A port it cannot bind changes nothing.
TEST(Transport, PortPathsRepath)
{
	const Fd rx = bind_udp(parse_endpoint("127.0.0.1:0"));
	const Endpoint dst = local_endpoint(rx.get());
	PortPaths paths(dst, 3);
	EXPECT_EQ(paths.entropy_range().first, 49152u);
	EXPECT_EQ(paths.entropy_range().span, 16384u);
	const std::vector<int> fds = fds_of(paths);
	const std::vector<uint16_t> first = paths.ports();
	uint16_t free_port;
	{
		const Fd probe = connect_udp_ect(dst);
		free_port = local_endpoint(probe.get()).port();
	}

	ASSERT_TRUE(paths.repath(1, free_port, 0, 10));
	EXPECT_EQ(paths.entropy(1), free_port);
	EXPECT_EQ(paths.lingering(), 1u);
	ASSERT_EQ(paths.sockets().size(), 4u);
	EXPECT_EQ(paths.sockets()[3], fds[1]);
	expect_reply_reaches(rx, first[1], fds[1]);
	ASSERT_TRUE(paths.repath(2, first[0], 1, 10));
	ASSERT_TRUE(paths.repath(0, first[0], 1, 10));
	const std::vector<uint16_t> moved = { first[0], free_port, first[0] };
	EXPECT_EQ(paths.ports(), moved);
	EXPECT_EQ(paths.sockets()[2], fds[0]);
	EXPECT_EQ(paths.lingering(), 2u); // first[1] until 10, first[2] until 11
	expect_sent_from_ports(rx, paths);

	// The receiver's own port, port 0, past 65535, no such sub-flow.
	const std::vector<int> before = fds_of(paths);
	EXPECT_FALSE(paths.repath(0, dst.port(), 2, 10));
	EXPECT_FALSE(paths.repath(0, 0, 2, 10));
	EXPECT_FALSE(paths.repath(0, 65536, 2, 10));
	EXPECT_FALSE(paths.repath(3, free_port, 2, 10));
	EXPECT_EQ(paths.ports(), moved);
	EXPECT_EQ(fds_of(paths), before);
	expect_sent_from_ports(rx, paths);

	// Back onto a port left: its lingering socket, the same descriptor.
	ASSERT_TRUE(paths.repath(1, first[1], 5, 10));
	EXPECT_EQ(paths.sockets()[1], fds[1]);
	EXPECT_EQ(paths.lingering(), 2u); // first[2] until 11, free_port until 15

	// At 12 first[2]'s socket is closed, so a new one binds its port;
	// sub-flow 2 leaves a socket sub-flow 0 still sends on: none lingers.
	ASSERT_TRUE(paths.repath(2, first[2], 12, 10));
	EXPECT_EQ(paths.ports(), first);
	EXPECT_EQ(paths.lingering(), 1u);
	expect_sent_from_ports(rx, paths);
	ASSERT_TRUE(paths.repath(2, first[2], 15, 10));
	EXPECT_EQ(paths.lingering(), 0u);
	EXPECT_EQ(paths.sockets().size(), 3u);
}

TEST(Transport, CodePolicyByPrefix)
{
	const CodePolicy p = { .inter_prefixes = { parse_prefix("10.2.0.0/16"), parse_prefix("fd00::/8") },
			       .inter = kCode,
			       .intra = kNoCode };
	EXPECT_EQ(p.code_for(parse_endpoint("10.2.3.4:1")).y, 2);
	EXPECT_EQ(p.code_for(parse_endpoint("10.3.3.4:1")).y, 0);
	EXPECT_EQ(p.code_for(parse_endpoint("[fd12::1]:1")).y, 2);
	EXPECT_EQ(p.code_for(parse_endpoint("[::ffff:10.2.0.1]:1")).y, 2);
	EXPECT_EQ(p.code_for(parse_endpoint("[fe80::1]:1")).y, 0);
	EXPECT_TRUE(contains(parse_prefix("0.0.0.0/0"), parse_endpoint("1.2.3.4:5")));
	EXPECT_TRUE(contains(parse_prefix("10.2.3.5/31"), parse_endpoint("10.2.3.4:5")));
	EXPECT_FALSE(contains(parse_prefix("10.2.3.5/32"), parse_endpoint("10.2.3.4:5")));
	EXPECT_THROW(parse_prefix("10.0.0.0/33"), std::invalid_argument);
	EXPECT_THROW(parse_prefix("10.0.0.0"), std::invalid_argument);
	EXPECT_THROW(parse_endpoint("::1:80"), std::invalid_argument);
	EXPECT_THROW(parse_endpoint("1.2.3.4:65536"), std::invalid_argument);
	EXPECT_THROW(parse_endpoint("1.2.3.4:x"), std::invalid_argument);
	EXPECT_EQ(to_string(parse_endpoint("[::1]:80")), "[::1]:80");
}

namespace {

// A plain UDP socket aimed at the receiver, with the given TOS byte or
// traffic class.
Fd raw_sender(const Endpoint &to, int tos)
{
	Fd fd(::socket(to.family(), SOCK_DGRAM | SOCK_CLOEXEC, 0));
	EXPECT_GE(fd.get(), 0);
	set_tos(fd.get(), to.family(), tos);
	EXPECT_EQ(::connect(fd.get(), to.sa(), to.len), 0);
	return fd;
}

void send_bytes(const Fd &fd, const Bytes &b)
{
	ASSERT_EQ(::send(fd.get(), b.data(), b.size(), 0), static_cast<ssize_t>(b.size()));
}

// The datagram waiting on fd, or none after timeout_ms.
std::optional<Bytes> reply(const Fd &fd, int timeout_ms = 5000)
{
	pollfd p = { .fd = fd.get(), .events = POLLIN, .revents = 0 };
	if (::poll(&p, 1, timeout_ms) != 1)
		return std::nullopt;
	std::array<uint8_t, 100> buf;
	const ssize_t n = ::recv(fd.get(), buf.data(), buf.size(), 0);
	EXPECT_GT(n, 0);
	return Bytes(buf.begin(), buf.begin() + std::max<ssize_t>(n, 0));
}

template <typename B> Bytes bytes_of(const B &b)
{
	return Bytes(b.begin(), b.end());
}

struct RealPacket {
	Bytes header; // its 40 bytes: what a switch's trim leaves
	Bytes whole;
};

// The packets of flow_id's message of 3000 bytes: block 0 with d = 3,
// packets 0, 1, 2, 8 and 9, as a Sender sends them.
std::vector<RealPacket> real_packets(uint32_t flow_id)
{
	Sender s({ .flow_id = flow_id, .code = kCode, .rto_ns = kMs, .subflows = 10 });
	s.send_message(1, Bytes(3000, 0x5a));
	std::vector<RealPacket> out;
	while (const auto o = s.next(1000)) {
		const Bytes header = bytes_of(serialize(o->header));
		Bytes whole(header.size() + o->payload.size());
		std::copy(header.begin(), header.end(), whole.begin());
		std::copy(o->payload.begin(), o->payload.end(), whole.begin() + kPacketHeaderSize);
		out.push_back({ header, std::move(whole) });
	}
	return out;
}

Bytes datagram(const PacketHeader &h, size_t payload)
{
	const auto head = serialize(h);
	Bytes b(head.begin(), head.end());
	b.resize(b.size() + payload, 0xab);
	return b;
}

// Runs rx until it has read n datagrams in all.
void pump(ReceiverTransport &rx, uint64_t n)
{
	Loop loop;
	loop.add(rx);
	EXPECT_TRUE(loop.run([&](uint64_t) { return rx.stats().datagrams < n; },
			     monotonic_ns() + 5'000 * kMs));
}

} // namespace

TEST(Transport, MalformedDatagramsAreCountedAndChangeNothing)
{
	ReceiverOptions ro = { .codes = { .inter_prefixes = {}, .inter = kNoCode, .intra = kNoCode },
			       .ec_wait_ns = 2 * kMs, .window_bytes = 1 << 20, .max_flows = 1,
			       .trim_dscp = {} };
	ReceiverTransport rx(parse_endpoint("127.0.0.1:0"), ro);
	const Fd s = raw_sender(rx.local(), 0x03); // CE
	const PacketHeader good = { .type = Type::Data, .flags = kFlagLastBlock, .flow_id = 5,
				    .payload_len = 10, .msg_id = 1, .msg_len = 10 };
	PacketHeader bad_psn = good;
	bad_psn.psn = 3;
	const AckBytes ack_bytes = serialize(Ack{ .flow_id = 5 });
	const std::vector<Bytes> garbage = {
		{},                               // truncated
		{ 0x20 },                         // bad_version
		{ 0x14 },                         // bad_type
		Bytes(39, 0x10),                  // truncated
		datagram(bad_psn, 10),            // bad_psn
		datagram(good, 9),                // payload_truncated
		datagram(good, 11),               // trailing_bytes
		Bytes(ack_bytes.begin(), ack_bytes.end()), // wrong_type
	};
	for (const Bytes &g : garbage)
		ASSERT_EQ(::send(s.get(), g.data(), g.size(), 0), static_cast<ssize_t>(g.size()));
	pump(rx, garbage.size());
	const auto &w = rx.stats().drops.wire;
	EXPECT_EQ(w[static_cast<size_t>(WireError::Truncated)], 2u);
	EXPECT_EQ(w[static_cast<size_t>(WireError::BadVersion)], 1u);
	EXPECT_EQ(w[static_cast<size_t>(WireError::BadType)], 1u);
	EXPECT_EQ(w[static_cast<size_t>(WireError::BadPsn)], 1u);
	EXPECT_EQ(w[static_cast<size_t>(WireError::PayloadTruncated)], 1u);
	EXPECT_EQ(w[static_cast<size_t>(WireError::TrailingBytes)], 1u);
	EXPECT_EQ(rx.stats().drops.transport[static_cast<size_t>(Drop::WrongType)], 1u);
	EXPECT_EQ(rx.stats().drops.total(), garbage.size());
	EXPECT_EQ(rx.flows(), 0u);
	EXPECT_EQ(rx.stats().acks, 0u);
	EXPECT_TRUE(rx.take_delivered().empty());

	// Then a good packet, CE-marked: one flow, its ACK echoes CE; a
	// second flow is over max_flows.
	Bytes ok = datagram(good, 10);
	ASSERT_EQ(::send(s.get(), ok.data(), ok.size(), 0), static_cast<ssize_t>(ok.size()));
	PacketHeader other = good;
	other.flow_id = 6;
	ok = datagram(other, 10);
	ASSERT_EQ(::send(s.get(), ok.data(), ok.size(), 0), static_cast<ssize_t>(ok.size()));
	pump(rx, garbage.size() + 2);
	EXPECT_EQ(rx.flows(), 1u);
	EXPECT_EQ(rx.stats().ce, garbage.size() + 2);
	EXPECT_EQ(rx.stats().drops.transport[static_cast<size_t>(Drop::FlowLimit)], 1u);
	const auto got = rx.take_delivered();
	ASSERT_EQ(got.size(), 1u);
	EXPECT_EQ(got[0].msg.bytes, Bytes(10, 0xab));
	AckBytes ack;
	ASSERT_EQ(::recv(s.get(), ack.data(), ack.size(), 0), static_cast<ssize_t>(ack.size()));
	Message m;
	ASSERT_EQ(parse(ack.data(), ack.size(), kNoCode, &m), WireError::Ok);
	EXPECT_EQ(std::get<Ack>(m).flags, kFlagEcnCeEcho);
	EXPECT_EQ(std::get<Ack>(m).flow_id, 5u);
}

namespace {

Bytes shimmed(const Shim &shim, const Bytes &msg)
{
	const ShimBytes head = serialize(shim);
	Bytes b(kShimSize + msg.size());
	std::copy(head.begin(), head.end(), b.begin());
	std::copy(msg.begin(), msg.end(), b.begin() + kShimSize);
	return b;
}

// The reply waiting on fd: its shim and message, parsed.
std::pair<Shim, Message> shimmed_reply(const Fd &fd)
{
	const auto got = reply(fd);
	EXPECT_TRUE(got);
	Unshimmed u;
	Message m;
	if (!got || unshim(got->data(), got->size(), &u) != WireError::Ok || !u.shim)
		return {};
	EXPECT_EQ(parse(u.msg, u.len, kCode, &m), WireError::Ok);
	return { *u.shim, m };
}

} // namespace

// The entropy datapath rewrote the source port into EV 17: the shimmed
// packet is answered at the shim's reply_port, its ACK after the echo of
// ev, seq, ts_ns and its CE bit (arcane.md 3.3), and so is its block's
// NACK, whose ev is none. A reply's shim, a shim cut short or one with
// its reserved field set is dropped, each for its reason.
TEST(Transport, ShimmedPacketsAreAnsweredAtReplyPort)
{
	ReceiverOptions ro = { .codes = { .inter_prefixes = {}, .inter = kCode, .intra = kCode },
			       .ec_wait_ns = 2 * kMs, .window_bytes = 1 << 20, .max_flows = 4,
			       .trim_dscp = {} };
	ReceiverTransport rx(parse_endpoint("127.0.0.1:0"), ro);
	const Fd ev_port = raw_sender(rx.local(), 0x03); // CE
	const Fd sock = raw_sender(rx.local(), kEct0);
	const uint16_t reply_port = local_endpoint(sock.get()).port();
	const std::vector<RealPacket> pkts = real_packets(5);
	const Shim data = { .type = ShimType::Data, .flags = 0, .ev = 17,
			    .reply_port = reply_port, .seq = 1, .ts_ns = 0x1122 };

	send_bytes(ev_port, shimmed(data, pkts[1].whole));
	pump(rx, 1);
	auto [shim, m] = shimmed_reply(sock);
	EXPECT_EQ(shim, (Shim{ .type = ShimType::Ack, .flags = kShimCeEcho, .ev = 17,
			       .reply_port = 0, .seq = 1, .ts_ns = 0x1122 }));
	ASSERT_TRUE(std::holds_alternative<Ack>(m));
	EXPECT_EQ(std::get<Ack>(m).acked_psn, 1u);
	EXPECT_EQ(std::get<Ack>(m).flags, kFlagEcnCeEcho);
	EXPECT_FALSE(reply(ev_port, 0));

	Loop loop;
	loop.add(rx);
	EXPECT_TRUE(loop.run([&](uint64_t) { return rx.stats().nacks == 0; },
			     monotonic_ns() + 5'000 * kMs));
	std::tie(shim, m) = shimmed_reply(sock);
	EXPECT_EQ(shim, Shim{ .type = ShimType::Nack });
	ASSERT_TRUE(std::holds_alternative<Nack>(m));
	EXPECT_EQ(std::get<Nack>(m).block_id, 0u);
	EXPECT_FALSE(reply(ev_port, 0));

	Bytes reserved = shimmed(data, pkts[2].whole);
	reserved[10] = 1;
	const Bytes cut(reserved.begin(), reserved.begin() + kShimSize - 1);
	send_bytes(ev_port, shimmed(shim_echo(data, ShimType::Ack, false), pkts[2].whole));
	send_bytes(ev_port, reserved);
	send_bytes(ev_port, cut);
	pump(rx, 4);
	EXPECT_EQ(rx.stats().drops.transport[static_cast<size_t>(Drop::WrongType)], 1u);
	EXPECT_EQ(rx.stats().drops.wire[static_cast<size_t>(WireError::BadShim)], 1u);
	EXPECT_EQ(rx.stats().drops.wire[static_cast<size_t>(WireError::Truncated)], 1u);
	EXPECT_EQ(rx.stats().acks, 1u);
	EXPECT_EQ(rx.totals().stored, 1u);
}

namespace {

// A raw socket sends the 40-byte header of a real packet with the trim
// DSCP: the receiver answers at once, to that socket, with the TRIMMED
// NACK, byte-exact, and holds nothing. Without the DSCP, or at a receiver
// with --trim-dscp off, the header is a truncated datagram. A trim of a
// packet the receiver holds gets no NACK.
void expect_trims_nacked(const std::string &listen)
{
	ReceiverOptions ro = { .codes = { .inter_prefixes = {}, .inter = kCode, .intra = kCode },
			       .ec_wait_ns = 10'000 * kMs, .window_bytes = 1 << 20, .max_flows = 4,
			       .trim_dscp = kTrimDscp };
	ReceiverTransport rx(parse_endpoint(listen), ro);
	ro.trim_dscp = std::nullopt;
	ReceiverTransport off(parse_endpoint(listen), ro);
	const std::vector<RealPacket> pkts = real_packets(5);
	ASSERT_EQ(pkts.size(), 5u);
	const Bytes &header = pkts[1].header; // block 0, packet 1
	const Bytes &whole = pkts[1].whole;
	const Fd trim = raw_sender(rx.local(), kTrimTos);
	const Fd plain = raw_sender(rx.local(), kEct0);

	Message sent;
	ASSERT_EQ(parse(whole.data(), whole.size(), kCode, &sent), WireError::Ok);
	send_bytes(trim, header);
	pump(rx, 1);
	EXPECT_EQ(reply(trim), bytes_of(serialize(Nack{ .flow_id = 5,
							  .block_id = 0,
							  .highest_completed_block = kNoBlock,
							  .trimmed = true,
							  .block_idx = 1,
							  .echo_tx_ts_ns =
								  std::get<PacketHeader>(sent).tx_ts_ns })));
	EXPECT_EQ(rx.flows(), 1u);
	EXPECT_EQ(rx.totals().trims, 1u);
	EXPECT_EQ(rx.totals().stored, 0u);

	send_bytes(plain, header);
	pump(rx, 2);
	EXPECT_EQ(rx.stats().drops.wire[static_cast<size_t>(WireError::PayloadTruncated)], 1u);
	send_bytes(plain, whole);
	pump(rx, 3);
	const auto ack = reply(plain);
	ASSERT_TRUE(ack);
	Message m;
	ASSERT_EQ(parse(ack->data(), ack->size(), kCode, &m), WireError::Ok);
	EXPECT_EQ(std::get<Ack>(m).acked_psn, 1u);
	send_bytes(trim, header);
	pump(rx, 4);
	EXPECT_FALSE(reply(trim, 0));
	EXPECT_FALSE(reply(plain, 0));
	EXPECT_EQ(rx.totals().trims, 1u);
	EXPECT_EQ(rx.totals().trims_unwanted, 1u);
	EXPECT_EQ(rx.stats().nacks, 1u);
	EXPECT_EQ(rx.stats().acks, 1u);

	const Fd to_off = raw_sender(off.local(), kTrimTos);
	send_bytes(to_off, header);
	pump(off, 1);
	EXPECT_EQ(off.stats().drops.wire[static_cast<size_t>(WireError::PayloadTruncated)], 1u);
	EXPECT_EQ(off.flows(), 0u);
	EXPECT_FALSE(reply(to_off, 0));
}

} // namespace

TEST(Transport, TrimmedHeaderIsNackedByteExact)
{
	expect_trims_nacked("127.0.0.1:0");
}

TEST(Transport, TrimmedHeaderIsNackedByteExactIpv6)
{
	if (!have_ipv6())
		GTEST_SKIP() << "no IPv6 loopback";
	expect_trims_nacked("[::1]:0");
}

// Garbage back at a sender, from the receiver's address and port: counted
// by reason, and UnoCC never sees it (no RTT sample: no base RTT).
TEST(Transport, GarbageRepliesAreCountedAtTheSender)
{
	const uno_params params = test_params();
	const Fd peer = bind_udp(parse_endpoint("127.0.0.1:0"));
	const uint64_t start = monotonic_ns();
	SenderFlow tx({ .flow_id = 9, .code = kCode, .rto_ns = 50 * kMs, .cc = &params },
		      std::make_unique<PortPaths>(local_endpoint(peer.get()), 2), start);
	tx.send_message(1, Bytes(3000, 7), start);
	Loop loop;
	loop.add(tx);
	EXPECT_TRUE(loop.run([&](uint64_t) { return tx.stats().packets_sent == 0; },
			     start + 5'000 * kMs));
	// Before the first ACK the window is one block: its d = 3 data
	// packets and 2 parity.
	EXPECT_EQ(tx.stats().packets_sent, 5u);
	pollfd p = { .fd = peer.get(), .events = POLLIN, .revents = 0 };
	ASSERT_EQ(::poll(&p, 1, 5000), 1);
	Bytes buf(2000);
	Datagram d;
	ASSERT_TRUE(recv_datagram(peer.get(), buf, &d));
	const Bytes data(buf.begin(), buf.begin() + d.len);
	Message m;
	ASSERT_EQ(parse(data.data(), data.size(), kCode, &m), WireError::Ok);
	const PacketHeader h = std::get<PacketHeader>(m);

	const auto ack = [&](uint32_t flow, uint64_t psn, uint16_t subflow) {
		const AckBytes a = serialize(Ack{ .subflow = subflow,
						  .flow_id = flow,
						  .acked_psn = psn,
						  .echo_tx_ts_ns = h.tx_ts_ns });
		return Bytes(a.begin(), a.end());
	};
	const NackBytes nack = serialize(Nack{ .flow_id = 9, .block_id = 1000 });
	// Block 0 has d = 3: packet 5 is never sent.
	const NackBytes trim_nack =
		serialize(Nack{ .flow_id = 9, .block_id = 0, .trimmed = true, .block_idx = 5 });
	const std::vector<Bytes> garbage = {
		{},                             // truncated
		data,                           // wrong_type
		ack(8, h.psn, h.subflow),       // other_flow
		ack(9, 77, 0),                  // bad_acks: never sent
		ack(9, h.psn, 5),               // bad_acks: no sub-flow 5
		Bytes(nack.begin(), nack.end()), // bad_nacks: a block never sent
		bytes_of(trim_nack),            // bad_nacks: a packet never sent
		Bytes(41, 0x12),                // trailing_bytes
	};
	for (const Bytes &g : garbage)
		ASSERT_EQ(::sendto(peer.get(), g.data(), g.size(), 0, d.from.sa(), d.from.len),
			  static_cast<ssize_t>(g.size()));
	const auto seen = [&] {
		return tx.stats().acks + tx.stats().nacks + tx.stats().drops.total();
	};
	EXPECT_TRUE(loop.run([&](uint64_t) { return seen() < garbage.size(); },
			     monotonic_ns() + 5'000 * kMs));
	const FlowStats &s = tx.stats();
	EXPECT_EQ(s.drops.wire[static_cast<size_t>(WireError::Truncated)], 1u);
	EXPECT_EQ(s.drops.wire[static_cast<size_t>(WireError::TrailingBytes)], 1u);
	EXPECT_EQ(s.drops.transport[static_cast<size_t>(Drop::WrongType)], 1u);
	EXPECT_EQ(s.drops.transport[static_cast<size_t>(Drop::OtherFlow)], 1u);
	EXPECT_EQ(s.drops.total(), 4u);
	EXPECT_EQ(tx.sender().counters().bad_acks, 2u);
	EXPECT_EQ(tx.sender().counters().bad_nacks, 2u);
	EXPECT_EQ(s.nacks, 2u);
	EXPECT_EQ(s.trim_nacks, 1u);
	EXPECT_EQ(s.repath_events, 0u);
	EXPECT_EQ(tx.sender().counters().trim_resends, 0u);
	EXPECT_EQ(tx.cc().base_rtt_us, 0u);
	EXPECT_EQ(tx.sender().in_flight_bytes(), 5u * h.payload_len);
	EXPECT_TRUE(tx.take_completed().empty());
}

namespace {

// n datagrams of len bytes from tx; how many the kernel took.
int send_burst(const Fd &tx, int n, size_t len)
{
	const Bytes b(len, 0x55);
	int sent = 0;
	for (int k = 0; k < n; k++)
		sent += ::send(tx.get(), b.data(), b.size(), 0) == static_cast<ssize_t>(len);
	return sent;
}

} // namespace

// A receive buffer too small for a burst: the kernel drops what does not
// fit, and SO_RXQ_OVFL says how many, exactly what was sent and not read.
// The count rides on the datagrams queued after the drops, so one more is
// sent once the socket is drained.
TEST(Net, SocketDropsAreCounted)
{
	const Fd rx = bind_udp(parse_endpoint("127.0.0.1:0"), 4096);
	EXPECT_LT(rcvbuf_of(rx.get()), 65536);
	const Fd tx = connect_udp_ect(local_endpoint(rx.get()));
	int sent = send_burst(tx, 200, 1000);
	ASSERT_EQ(sent, 200);
	Bytes buf(2000);
	Datagram d;
	int read = 0;
	while (recv_datagram(rx.get(), buf, &d))
		read++;
	ASSERT_GT(read, 0);
	ASSERT_LT(read, sent);
	EXPECT_EQ(socket_drops_of(rx.get()), static_cast<uint32_t>(sent - read));
	sent += send_burst(tx, 1, 1000);
	ASSERT_TRUE(recv_datagram(rx.get(), buf, &d));
	read++;
	EXPECT_EQ(d.drops, static_cast<uint32_t>(sent - read));
	EXPECT_FALSE(recv_datagram(rx.get(), buf, &d));
}

// rcvbuf 0 leaves the kernel's default; a bad size is refused.
TEST(Net, Rcvbuf)
{
	const Fd dflt = bind_udp(parse_endpoint("127.0.0.1:0"), 0);
	const Fd plain(::socket(AF_INET, SOCK_DGRAM, 0));
	EXPECT_EQ(rcvbuf_of(dflt.get()), rcvbuf_of(plain.get()));
	const Fd big = bind_udp(parse_endpoint("127.0.0.1:0"));
	if (::geteuid() == 0) // SO_RCVBUFFORCE: beyond rmem_max
		EXPECT_EQ(rcvbuf_of(big.get()), 2 * kDefaultRcvbuf);
	else
		EXPECT_GE(rcvbuf_of(big.get()), rcvbuf_of(plain.get()));
	EXPECT_THROW(bind_udp(parse_endpoint("127.0.0.1:0"), -1), SysError);
	EXPECT_THROW(bind_udp(parse_endpoint("127.0.0.1:0"), kMaxRcvbuf + 1), SysError);
}

// The receiver's socket_drops: the datagrams the kernel dropped before
// the transport read them, sent - read.
TEST(Transport, ReceiverCountsSocketDrops)
{
	ReceiverOptions ro = { .codes = { .inter_prefixes = {}, .inter = kNoCode, .intra = kNoCode },
			       .ec_wait_ns = 2 * kMs, .window_bytes = 1 << 20, .max_flows = 1,
			       .trim_dscp = {}, .rcvbuf = 4096 };
	ReceiverTransport rx(parse_endpoint("127.0.0.1:0"), ro);
	EXPECT_LT(rx.rcvbuf(), 65536);
	const Fd tx = connect_udp_ect(rx.local());
	int sent = send_burst(tx, 200, 500);
	const auto drain = [&] {
		for (uint64_t before = ~0ULL; before != rx.stats().datagrams;) {
			before = rx.stats().datagrams;
			rx.on_readable(rx.sockets()[0], monotonic_ns());
		}
	};
	drain();
	ASSERT_GT(rx.stats().datagrams, 0u);
	EXPECT_EQ(rx.socket_drops(), sent - rx.stats().datagrams);
	sent += send_burst(tx, 1, 500);
	drain();
	EXPECT_EQ(rx.stats().socket_drops, sent - rx.stats().datagrams);
	EXPECT_GT(rx.stats().socket_drops, 0u);
	EXPECT_EQ(rx.socket_drops(), rx.stats().socket_drops);
	// Garbage all of it, counted as such: nothing else.
	EXPECT_EQ(rx.stats().drops.total(), rx.stats().datagrams);
}
