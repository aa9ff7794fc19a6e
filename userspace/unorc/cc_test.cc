// SPDX-License-Identifier: GPL-2.0
//
// The flow's congestion control (cc.h) on a simulated clock: each adapter
// runs its core's law unchanged, checked against the core's own functions
// driven alongside and against values worked out by hand; and through a
// SenderFlow, that a TRIMMED NACK is SMaRTT's smartt_on_nack().
#include <poll.h>
#include <sys/socket.h>

#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "cc.h"
#include "settings.h"
#include "transport.h"

using namespace unorc;

namespace {

constexpr uint64_t kUs = 1000;
constexpr uint32_t kMss = 1000;

// SMaRTT's defaults at 1 Gbit/s: a 100 us base RTT is a 12500-byte BDP.
smartt_params test_smartt()
{
	smartt_params p = SMARTT_PARAMS_INIT;
	p.link_rate_mbps = 1000;
	return p;
}

// One event of a trace, fed to the adapter and to the core alike.
struct Event {
	enum Kind { Ack, Trim, Nack, Rto } kind;
	uint64_t now_us;
	uint32_t bytes;
	int32_t rtt_us = -1;
	bool ce = false;
	uint64_t in_flight = 0;
};

// ACKs at the base RTT, one marked and late enough for a decrease, a
// late one, a trim, a block's NACK of two packets, an RTO of one and a
// QuickAdapt window's end.
const std::vector<Event> kTrace = {
	{ Event::Ack, 100, kMss, 100, false, 11000 },
	{ Event::Ack, 110, kMss, 100, false, 11000 },
	{ Event::Ack, 120, kMss, 104, false, 11000 },
	{ Event::Ack, 130, kMss, 120, false, 11000 },
	{ Event::Ack, 140, kMss, 400, true, 11000 },
	{ Event::Ack, 150, kMss, 400, true, 11000 },
	{ Event::Ack, 160, kMss, 180, false, 11000 },
	{ Event::Trim, 170, kMss, -1, false, 10000 },
	{ Event::Ack, 180, kMss, -1, false, 9000 },
	{ Event::Nack, 190, 2 * kMss, -1, false, 7000 },
	{ Event::Rto, 200, kMss, -1, false, 6000 },
	{ Event::Ack, 300, kMss, 130, true, 5000 },
	{ Event::Ack, 310, kMss, 100, false, 5000 },
};

void feed(FlowCc &cc, const Event &e)
{
	const uint64_t now = e.now_us * kUs;
	switch (e.kind) {
	case Event::Ack:
		cc.on_ack({ .now_ns = now, .acked = e.bytes, .rtt_us = e.rtt_us, .ce = e.ce,
			    .app_limited = false, .min_rtt_us = 100, .srtt_us = 100, .sent = 0,
			    .in_flight = e.in_flight });
		break;
	case Event::Trim:
		cc.on_trim(now, e.bytes, e.in_flight);
		break;
	case Event::Nack:
		cc.on_nack(now, e.bytes, e.in_flight);
		break;
	case Event::Rto:
		cc.on_rto(e.bytes);
		break;
	}
}

// The core's own functions, as tcp_smartt.c calls them.
void feed_core(smartt_state &s, const smartt_params &p, const Event &e, bool nscc)
{
	const uint32_t now = static_cast<uint32_t>(e.now_us);
	const uint32_t inflight = static_cast<uint32_t>(e.in_flight);
	switch (e.kind) {
	case Event::Ack: {
		const smartt_ack a = { .now = now, .size = e.bytes, .rtt_us = e.rtt_us,
				       .inflight = inflight, .ecn = e.ce };
		nscc ? nscc_on_ack(&s, &p, &a) : smartt_on_ack(&s, &p, &a);
		break;
	}
	case Event::Trim:
	case Event::Nack: // trimming = 1: a block's lost packets are NACKs too
		nscc ? nscc_on_nack(&s, &p, now, e.bytes, inflight)
		     : smartt_on_nack(&s, &p, now, e.bytes, inflight);
		break;
	case Event::Rto:
		nscc ? nscc_on_timeout(&s, &p, e.bytes) : smartt_on_timeout(&s, &p, e.bytes);
		break;
	}
}

// The adapter's window after every event is the core's, and the trace
// moves it every way (up, down) and through every kind of event.
void expect_follows_core(CcLaw law)
{
	const bool nscc = law == CcLaw::Nscc;
	const smartt_params p = test_smartt();
	SmarttCc cc(law, &p, kMss);
	smartt_state core;
	nscc ? nscc_init(&core, &p, kMss, 0) : smartt_init(&core, &p, kMss, 0);
	EXPECT_EQ(cc.law(), law);
	std::vector<uint32_t> windows;
	for (const Event &e : kTrace) {
		feed(cc, e);
		feed_core(core, p, e, nscc);
		ASSERT_EQ(cc.cwnd_bytes(), core.cwnd) << "at " << e.now_us << " us";
		ASSERT_EQ(cc.pacing_rate(), smartt_pacing_rate(&core, &p));
		windows.push_back(core.cwnd);
	}
	EXPECT_EQ(cc.base_rtt_us(), 100u);
	EXPECT_EQ(cc.state().bdp, 12500u);
	// The window rose and fell along the trace.
	EXPECT_NE(std::adjacent_find(windows.begin(), windows.end(), std::less<>()), windows.end());
	EXPECT_NE(std::adjacent_find(windows.begin(), windows.end(), std::greater<>()),
		  windows.end());
}

TEST(Cc, SmarttWindowFollowsTheCore)
{
	expect_follows_core(CcLaw::Smartt);
}

TEST(Cc, NsccWindowFollowsTheCore)
{
	expect_follows_core(CcLaw::Nscc);
}

// By hand, SMaRTT at 1 Gbit/s: the first ACK, 1000 bytes at a 100 us RTT,
// starts the flow at one BDP, 12500 bytes, with inc_unit = 12500 x 16 x
// 4096 / 150000 = 5461 (Q4). Below the target RTT (150 us) it takes the
// proportional and the fair increase, each 1000 x 5461 x 1024 x 50 / (100
// x 12500 x 16) = 27960 Q10 bytes: 55920 = 54 bytes and 624/1024 carried.
// A trim within the QuickAdapt window takes its 1000 bytes and arms
// QuickAdapt; an RTO takes its bytes and does not.
TEST(Cc, SmarttByHand)
{
	const smartt_params p = test_smartt();
	SmarttCc cc(CcLaw::Smartt, &p, kMss);
	// No base RTT yet: the floor, min_cwnd_bytes, and no pacing.
	EXPECT_EQ(cc.cwnd_bytes(), 64u);
	EXPECT_EQ(cc.pacing_rate(), 0u);
	EXPECT_EQ(cc.base_rtt_us(), 0u);
	// Neither an RTO nor a NACK starts a flow.
	cc.on_rto(kMss);
	cc.on_trim(50 * kUs, kMss, 0);
	EXPECT_EQ(cc.cwnd_bytes(), 64u);

	feed(cc, kTrace[0]);
	EXPECT_EQ(cc.base_rtt_us(), 100u);
	EXPECT_EQ(cc.state().inc_unit, 5461u);
	EXPECT_EQ(cc.cwnd_bytes(), 12554u);
	EXPECT_EQ(cc.state().inc_rem, 624u);
	// 1.25 x 12554 bytes per 100 us
	EXPECT_EQ(cc.pacing_rate(), 156925000u);

	cc.on_trim(120 * kUs, kMss, 10000);
	EXPECT_EQ(cc.cwnd_bytes(), 11554u);
	EXPECT_TRUE(cc.state().flags & SMARTT_F_QA_ARMED);
	cc.on_rto(2 * kMss);
	EXPECT_EQ(cc.cwnd_bytes(), 9554u);
}

// By hand, NSCC: a flow starts at its largest window, 1.5 BDP.
TEST(Cc, NsccStartsAtItsCeiling)
{
	const smartt_params p = test_smartt();
	SmarttCc cc(CcLaw::Nscc, &p, kMss);
	EXPECT_EQ(cc.cwnd_bytes(), 64u);
	cc.on_ack({ .now_ns = 100 * kUs, .acked = 0, .rtt_us = 100, .ce = false,
		    .app_limited = false, .min_rtt_us = 100, .srtt_us = 100, .sent = 0,
		    .in_flight = 0 });
	EXPECT_TRUE(cc.state().flags & SMARTT_F_NSCC);
	EXPECT_EQ(cc.cwnd_bytes(), 18750u);
}

// Without trimming a block's NACK is no event: the RTO alone counts, as
// the module leaves TCP's SACK-detected losses alone with trimming=0.
TEST(Cc, BlockNackIsALossOnlyWithTrimming)
{
	smartt_params p = test_smartt();
	p.trimming = 0;
	SmarttCc cc(CcLaw::Smartt, &p, kMss);
	feed(cc, kTrace[0]);
	const uint64_t w = cc.cwnd_bytes();
	cc.on_nack(120 * kUs, 2 * kMss, 9000);
	EXPECT_EQ(cc.cwnd_bytes(), w);
	cc.on_trim(130 * kUs, kMss, 9000);
	EXPECT_EQ(cc.cwnd_bytes(), w - kMss);
}

// UnoCC's adapter builds uno_ack as tcp_uno.c does, and takes no NACK or
// trim: its window after each event is the core's.
TEST(Cc, UnoWindowFollowsTheCore)
{
	uno_params p = UNO_PARAMS_INIT;
	p.link_rate_mbps = 1000;
	UnoCc cc(&p, kMss, 0);
	uno_state core;
	uno_init(&core, &p, kMss, UNO_RTT_NONE, 0, 0);
	EXPECT_EQ(cc.cwnd_bytes(), uno_cwnd_bytes(&core));
	uint32_t sent = 0;
	for (const Event &e : kTrace) {
		sent += kMss;
		switch (e.kind) {
		case Event::Ack: {
			cc.on_ack({ .now_ns = e.now_us * kUs, .acked = e.bytes, .rtt_us = e.rtt_us,
				    .ce = e.ce, .app_limited = false, .min_rtt_us = 100,
				    .srtt_us = 110, .sent = sent, .in_flight = e.in_flight });
			uno_ack a = {};
			a.now_us = static_cast<uint32_t>(e.now_us);
			a.acked = e.bytes;
			a.rtt_us = e.rtt_us;
			a.min_rtt_us = 100;
			a.srtt_us = 110;
			a.sent = sent;
			a.mss = kMss;
			a.ece = e.ce;
			uno_on_ack(&core, &p, &a);
			break;
		}
		case Event::Rto:
			cc.on_rto(e.bytes);
			uno_on_timeout(&core, &p, kMss, kMss);
			break;
		default:
			feed(cc, e);
			break;
		}
		ASSERT_EQ(cc.cwnd_bytes(), uno_cwnd_bytes(&core)) << "at " << e.now_us << " us";
		ASSERT_EQ(cc.pacing_rate(), uno_pacing_rate(&core));
	}
	EXPECT_EQ(cc.base_rtt_us(), core.base_rtt_us);
	EXPECT_EQ(cc.law(), CcLaw::Uno);
}

TEST(Cc, MakeCcWantsTheLawsParameters)
{
	const uno_params uno = UNO_PARAMS_INIT;
	const smartt_params smartt = test_smartt();
	EXPECT_EQ(make_cc(CcLaw::Uno, &uno, nullptr, kMss, 0)->law(), CcLaw::Uno);
	EXPECT_EQ(make_cc(CcLaw::Nscc, nullptr, &smartt, kMss, 0)->law(), CcLaw::Nscc);
	EXPECT_THROW(make_cc(CcLaw::Uno, nullptr, &smartt, kMss, 0), std::invalid_argument);
	EXPECT_THROW(make_cc(CcLaw::Smartt, &uno, nullptr, kMss, 0), std::invalid_argument);
	FlowConfig cfg = { .flow_id = 9, .code = { 1, 0, kMss }, .rto_ns = 50'000 * kUs,
			   .cc = &uno, .law = CcLaw::Smartt };
	try {
		SenderFlow tx(cfg, std::make_unique<PortPaths>(parse_endpoint("127.0.0.1:9"), 1), 0);
		FAIL() << "a SMaRTT flow without its parameters";
	} catch (const std::invalid_argument &e) {
		EXPECT_STREQ(e.what(), "unorc: flow 9 without smartt parameters");
	}
}

// A SenderFlow on loopback sockets and a simulated clock: one peer socket
// takes its packets, and the test answers for the receiver.
class FlowCcTest : public ::testing::Test {
protected:
	void start(CcLaw law)
	{
		peer_ = bind_udp(parse_endpoint("127.0.0.1:0"));
		tx_ = std::make_unique<SenderFlow>(
			FlowConfig{ .flow_id = 9, .code = { 1, 0, kMss }, .rto_ns = 50'000 * kUs,
				    .cc = &uno_, .law = law, .smartt = &smartt_ },
			std::make_unique<PortPaths>(local_endpoint(peer_.get()), 1), 0);
		tx_->send_message(1, std::vector<uint8_t>(20 * kMss, 7), 0);
	}

	// The packets the flow sent, as the peer received them.
	std::vector<PacketHeader> received()
	{
		std::vector<PacketHeader> out;
		std::vector<uint8_t> buf(2 * kMss + kPacketHeaderSize);
		pollfd p = { .fd = peer_.get(), .events = POLLIN, .revents = 0 };
		while (::poll(&p, 1, out.empty() ? 5000 : 50) == 1) {
			Datagram d;
			if (!recv_datagram(peer_.get(), buf, &d))
				break;
			from_ = d.from;
			Message m;
			EXPECT_EQ(parse(buf.data(), d.len, { 1, 0, kMss }, &m), WireError::Ok);
			out.push_back(std::get<PacketHeader>(m));
		}
		return out;
	}

	// A reply from the receiver, read by the flow at now_us.
	template <typename Bytes> void reply(const Bytes &b, uint64_t now_us)
	{
		ASSERT_EQ(::sendto(peer_.get(), b.data(), b.size(), 0, from_.sa(), from_.len),
			  static_cast<ssize_t>(b.size()));
		const int fd = tx_->sockets()[0];
		pollfd p = { .fd = fd, .events = POLLIN, .revents = 0 };
		ASSERT_EQ(::poll(&p, 1, 5000), 1);
		tx_->on_readable(fd, now_us * kUs);
	}

	void ack(const PacketHeader &h, uint64_t now_us)
	{
		reply(serialize(Ack{ .subflow = h.subflow, .flow_id = 9, .acked_psn = h.psn,
				     .echo_tx_ts_ns = h.tx_ts_ns }),
		      now_us);
	}

	void trim(const PacketHeader &h, uint64_t now_us)
	{
		reply(serialize(Nack{ .flow_id = 9, .block_id = h.block_id, .trimmed = true,
				      .block_idx = h.block_idx, .echo_tx_ts_ns = h.tx_ts_ns }),
		      now_us);
	}

	uno_params uno_ = UNO_PARAMS_INIT;
	smartt_params smartt_ = test_smartt();
	Fd peer_;
	Endpoint from_;
	std::unique_ptr<SenderFlow> tx_;
};

// The first window, one block of no code, lets one packet out; its ACK,
// 100 us later, starts SMaRTT at 12554 bytes (SmarttByHand); the trim of
// a packet then sent takes its 1000 bytes off the window:
// smartt_on_nack().
TEST_F(FlowCcTest, TrimmedNackIsSmarttsNack)
{
	start(CcLaw::Smartt);
	// Before the first RTT sample one block, one packet without a code.
	EXPECT_EQ(tx_->cwnd_bytes(), 1000u);
	tx_->run(0);
	std::vector<PacketHeader> first = received();
	ASSERT_EQ(first.size(), 1u);
	ack(first[0], 100);
	EXPECT_EQ(tx_->cc().law, CcLaw::Smartt);
	EXPECT_EQ(tx_->cc().base_rtt_us, 100u);
	EXPECT_EQ(tx_->stats().max_rtt_us, 100u);
	EXPECT_EQ(tx_->stats().rtt_us.counts(), (std::map<uint32_t, uint64_t>{ { 100, 1 } }));
	EXPECT_EQ(tx_->cwnd_bytes(), 12554u);
	tx_->run(100 * kUs);
	const std::vector<PacketHeader> sent = received();
	ASSERT_FALSE(sent.empty());
	trim(sent[0], 120);
	EXPECT_EQ(tx_->stats().trim_nacks, 1u);
	EXPECT_EQ(tx_->sender().counters().trim_resends, 1u);
	EXPECT_EQ(tx_->cwnd_bytes(), 11554u);
	// The same trim again is ignored by the Sender: no second event.
	trim(sent[0], 125);
	EXPECT_EQ(tx_->cwnd_bytes(), 11554u);
}

// The same trim leaves UnoCC's window alone: spec 3.4's on_trim_nack is
// "not used".
TEST_F(FlowCcTest, TrimmedNackIsNoEventOfUnoCc)
{
	start(CcLaw::Uno);
	tx_->run(0);
	std::vector<PacketHeader> first = received();
	ASSERT_EQ(first.size(), 1u);
	ack(first[0], 100);
	const uint64_t w = tx_->cwnd_bytes();
	tx_->run(100 * kUs);
	const std::vector<PacketHeader> sent = received();
	ASSERT_FALSE(sent.empty());
	trim(sent[0], 120);
	EXPECT_EQ(tx_->stats().trim_nacks, 1u);
	EXPECT_EQ(tx_->cwnd_bytes(), w);
}

TEST(Cc, SettingsChooseTheLaw)
{
	SenderSettings s;
	EXPECT_EQ(s.law, "uno");
	EXPECT_EQ(flow_config(s, 1, { 1, 0, kMss }).law, CcLaw::Uno);
	s.law = "nscc";
	const FlowConfig c = flow_config(s, 1, { 1, 0, kMss });
	EXPECT_EQ(c.law, CcLaw::Nscc);
	EXPECT_EQ(c.smartt, &s.smartt);
	EXPECT_EQ(c.cc, &s.cc);
	s.law = "cubic";
	try {
		flow_config(s, 1, { 1, 0, kMss });
		FAIL() << "--cc cubic";
	} catch (const std::invalid_argument &e) {
		EXPECT_STREQ(e.what(), "--cc 'cubic': expected uno, smartt or nscc");
	}
	// SMaRTT's defaults are the module's, but for UnoCC's link rate.
	const smartt_params init = SMARTT_PARAMS_INIT;
	SenderSettings d;
	EXPECT_EQ(d.smartt.link_rate_mbps, d.cc.link_rate_mbps);
	EXPECT_EQ(d.smartt.trtt_factor, init.trtt_factor);
	EXPECT_EQ(d.smartt.trimming, init.trimming);
	set_link_mbps(d, 400);
	EXPECT_EQ(d.cc.link_rate_mbps, 400u);
	EXPECT_EQ(d.smartt.link_rate_mbps, 400u);
}

} // namespace
