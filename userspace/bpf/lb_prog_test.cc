// SPDX-License-Identifier: GPL-2.0
//
// The entropy datapath (bpf/lb.bpf.c) in the running kernel: its libbpf
// skeleton loaded, each program run on synthetic Ethernet frames with
// BPF_PROG_TEST_RUN. Every mode's EVs are checked exactly where the mode
// is deterministic; every rewritten frame's UDP checksum is verified over
// its pseudo-header and every byte but the port and the shim's ev must be
// as sent; frames the datapath does not handle (other protocols,
// fragments, truncated at every length, a missing shim) must pass
// unharmed.
//
// Loading needs CAP_BPF and CAP_NET_ADMIN (root). Where the kernel
// refuses the load for want of privilege the tests are skipped with the
// reason; selftests/bpf/test_lb_prog.sh runs them in the VM's 6.1
// kernel, where they must pass.
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <netinet/in.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <gtest/gtest.h>

#include "lb.skel.h"
#include "uno_lb.h"
#include "prog_test.h"

#include "frame_bytes.h"

namespace {

using namespace frame;
using namespace progtest;

constexpr uint16_t kSrcPort = 40000;
constexpr uint16_t kDstPort = 9000;
constexpr uint16_t kEvBase = 49152;

struct Frame {
	Bytes bytes;
	bool v6 = false;

	size_t ip_len() const { return v6 ? kIp6Len : kIp4Len; }
	size_t udp() const { return kEthLen + ip_len(); }
	size_t shim() const { return udp() + kUdpLen; }
	uint16_t sport() const { return get16(bytes, udp()); }
	uint16_t shim_ev() const { return get16(bytes, shim() + offsetof(lb_shim, ev)); }
	uint16_t udp_check() const { return get16(bytes, udp() + 6); }

	// The UDP checksum over the pseudo-header, the header and payload
	// sums to 0 (RFC 768; RFC 8200 8.1).
	bool checksum_ok() const
	{
		const size_t len = bytes.size() - udp();
		uint32_t s = v6 ? sum16(bytes, kEthLen + 8, 32) : sum16(bytes, kEthLen + 12, 8);
		s += IPPROTO_UDP + static_cast<uint32_t>(len);
		return fold(sum16(bytes, udp(), len, s)) == 0;
	}

	void set_checksum()
	{
		put16(bytes, udp() + 6, 0);
		const size_t len = bytes.size() - udp();
		uint32_t s = v6 ? sum16(bytes, kEthLen + 8, 32) : sum16(bytes, kEthLen + 12, 8);
		s += IPPROTO_UDP + static_cast<uint32_t>(len);
		const uint16_t c = fold(sum16(bytes, udp(), len, s));
		put16(bytes, udp() + 6, c ? c : 0xffff);
	}
};

struct ShimFields {
	bool reply = false; // from the receiver: addresses swapped
	uint8_t type = LB_SHIM_DATA;
	uint8_t flags = 0;
	uint16_t ev = LB_SHIM_EV_NONE;
	uint64_t seq = 1;
};

// An Ethernet frame with an IPv4 or IPv6 UDP datagram from 10.0.0.1 /
// fd00::1 port sport to 10.0.0.2 / fd00::2 port dport (the other way for
// a reply): the shim, then `extra` bytes of payload; its checksum right.
Frame udp_frame(bool v6, uint16_t sport, uint16_t dport, const ShimFields &sh = {},
		size_t extra = 12)
{
	Frame f;
	f.v6 = v6;
	const size_t udp_len = kUdpLen + sizeof(lb_shim) + extra;
	f.bytes.assign(kEthLen + f.ip_len() + udp_len, 0);
	Bytes &b = f.bytes;
	for (int i = 0; i < 6; i++) {
		b[i] = 0x02;		  // destination MAC
		b[6 + i] = 0x04;	  // source MAC
	}
	put16(b, 12, v6 ? ETH_P_IPV6 : ETH_P_IP);
	if (v6) {
		b[kEthLen] = 0x60;
		put16(b, kEthLen + 4, static_cast<uint16_t>(udp_len));
		b[kEthLen + 6] = IPPROTO_UDP;
		b[kEthLen + 7] = 64;
		b[kEthLen + 8] = 0xfd;
		b[kEthLen + 23] = sh.reply ? 2 : 1;
		b[kEthLen + 24] = 0xfd;
		b[kEthLen + 39] = sh.reply ? 1 : 2;
	} else {
		b[kEthLen] = 0x45;
		put16(b, kEthLen + 2, static_cast<uint16_t>(kIp4Len + udp_len));
		b[kEthLen + 8] = 64;
		b[kEthLen + 9] = IPPROTO_UDP;
		const uint8_t a[] = { 10, 0, 0, 1 }, z[] = { 10, 0, 0, 2 };
		std::memcpy(&b[kEthLen + 12], sh.reply ? z : a, 4);
		std::memcpy(&b[kEthLen + 16], sh.reply ? a : z, 4);
		put16(b, kEthLen + 10, fold(sum16(b, kEthLen, kIp4Len)));
	}
	put16(b, f.udp(), sport);
	put16(b, f.udp() + 2, dport);
	put16(b, f.udp() + 4, static_cast<uint16_t>(udp_len));
	lb_shim s = {};
	s.magic = htonl(LB_SHIM_MAGIC);
	s.type = sh.type;
	s.flags = sh.flags;
	s.ev = htons(sh.ev);
	s.reply_port = htons(sport);
	s.seq = htobe64(sh.seq);
	std::memcpy(&b[f.shim()], &s, sizeof(s));
	for (size_t i = 0; i < extra; i++)
		b[f.shim() + sizeof(s) + i] = static_cast<uint8_t>(0xa0 + i);
	f.set_checksum();
	return f;
}

// The receiver's reply to a data frame: addresses and ports swapped.
Frame reply_frame(bool v6, uint8_t type, uint16_t ev, bool ce)
{
	return udp_frame(v6, kDstPort, kSrcPort,
			 { .reply = true,
			   .type = type,
			   .flags = static_cast<uint8_t>(ce ? LB_SHIM_CE_ECHO : 0),
			   .ev = ev });
}

// An Ethernet frame with an IPv6 TCP segment from fd00::1 port kSrcPort to
// fd00::2 port kDstPort (the other way for a reply), traffic class 0xb8
// and flow label 0x12345, `payload` bytes of data, TCP flags `flags`,
// sequence and acknowledgement numbers seq and ack.
Bytes tcp6_frame(bool reply, uint8_t flags, size_t payload = 16, uint32_t seq = 0,
		 uint32_t ack = 0)
{
	const size_t tcp_len = kTcpLen + payload;
	Bytes b(kEthLen + kIp6Len + tcp_len, 0);
	for (int i = 0; i < 6; i++) {
		b[i] = 0x02;
		b[6 + i] = 0x04;
	}
	put16(b, 12, ETH_P_IPV6);
	b[kEthLen] = 0x6b; // version 6, traffic class 0xb8, label 0x12345
	b[kEthLen + 1] = 0x81;
	put16(b, kEthLen + 2, 0x2345);
	put16(b, kEthLen + 4, static_cast<uint16_t>(tcp_len));
	b[kEthLen + 6] = IPPROTO_TCP;
	b[kEthLen + 7] = 64;
	b[kEthLen + 8] = 0xfd;
	b[kEthLen + 23] = reply ? 2 : 1;
	b[kEthLen + 24] = 0xfd;
	b[kEthLen + 39] = reply ? 1 : 2;
	const size_t tcp = kEthLen + kIp6Len;
	put16(b, tcp, reply ? kDstPort : kSrcPort);
	put16(b, tcp + 2, reply ? kSrcPort : kDstPort);
	put32(b, tcp + 4, seq);
	put32(b, tcp + 8, ack);
	b[tcp + 12] = 5 << 4; // data offset
	b[tcp + 13] = flags;
	for (size_t i = 0; i < payload; i++)
		b[tcp + kTcpLen + i] = static_cast<uint8_t>(0xc0 + i);
	return b;
}

uint32_t flow_label(const Bytes &b)
{
	return (static_cast<uint32_t>(b[kEthLen + 1] & 0x0f) << 16) | get16(b, kEthLen + 2);
}

lb_cfg config(uint32_t mode, uint16_t num_ev)
{
	lb_cfg c = {};
	c.mode = mode;
	c.num_ev = num_ev;
	c.ev_base = kEvBase;
	c.cache_size = 8;
	c.write_shim_ev = 1;
	c.bdp_pkts = 3;
	c.flowlet_gap_ns = 10'000'000'000; // no gap between the tests' packets
	c.plb_idle_rounds = 3;
	c.plb_force_rounds = 12;
	c.plb_thresh_256 = 128;
	return c;
}

// Deletes every key of a hash map.
void clear_hash(const bpf_map *m)
{
	std::vector<uint8_t> key(bpf_map__key_size(m));
	while (!bpf_map__get_next_key(m, nullptr, key.data(), key.size()))
		ASSERT_EQ(bpf_map__delete_elem(m, key.data(), key.size(), 0), 0);
}

// Zeroes every entry of a per-CPU array of u64.
void zero_percpu(const bpf_map *m)
{
	const std::vector<uint64_t> zero(static_cast<size_t>(libbpf_num_possible_cpus()));
	for (uint32_t k = 0; k < bpf_map__max_entries(m); k++)
		ASSERT_EQ(bpf_map__update_elem(m, &k, sizeof(k), zero.data(),
					       zero.size() * sizeof(uint64_t), BPF_ANY),
			  0);
}

class LbProg : public ::testing::Test {
protected:
	// The programs are loaded and verified once (a second or so under
	// the VM's TCG); each test starts from empty maps.
	static void SetUpTestSuite()
	{
		skel_ = lb__open_and_load();
		load_errno_ = skel_ ? 0 : errno;
	}

	static void TearDownTestSuite()
	{
		lb__destroy(skel_);
		skel_ = nullptr;
	}

	void SetUp() override
	{
		if (load_errno_ == EPERM || load_errno_ == EACCES)
			GTEST_SKIP() << "loading BPF programs: " << std::strerror(load_errno_)
				     << " (needs root; the VM runs these)";
		ASSERT_NE(skel_, nullptr) << std::strerror(load_errno_);
		configure_only(lb_cfg{});
		clear_hash(skel_->maps.lb_policy);
		clear_hash(skel_->maps.lb_flows);
		clear_hash(skel_->maps.lb_txlogs);
		zero_percpu(skel_->maps.lb_stats);
		zero_percpu(skel_->maps.lb_ev_hist);
	}

	void configure_only(const lb_cfg &c)
	{
		map_put(skel_->maps.lb_cfg, uint32_t{ 0 }, c);
	}

	void configure(const lb_cfg &c, uint32_t override_mode = __LB_MODE_MAX,
		       uint32_t flags = 0, uint8_t proto = IPPROTO_UDP)
	{
		configure_only(c);
		lb_policy_key k = {};
		k.proto = proto;
		k.dport = htons(kDstPort);
		const lb_policy_val v = { .mode_override = override_mode, .flags = flags };
		map_put(skel_->maps.lb_policy, k, v);
	}

	// Runs prog on the frame; returns what it made of it.
	Bytes run(const bpf_program *prog, const Bytes &in, int want_ret = TC_ACT_OK)
	{
		return progtest::run(prog, in, want_ret);
	}

	// A data frame through lb_egress: the EV it got, checked on the
	// wire: the port, the shim, the checksum and every other byte.
	uint16_t send(bool v6, uint16_t sport = kSrcPort)
	{
		const Frame in = udp_frame(v6, sport, kDstPort, { .seq = ++seq_ });
		Frame out = in;
		out.bytes = run(skel_->progs.lb_egress, in.bytes);
		EXPECT_EQ(out.bytes.size(), in.bytes.size());
		const uint16_t ev = static_cast<uint16_t>(out.sport() - kEvBase);
		EXPECT_GE(out.sport(), kEvBase);
		EXPECT_EQ(out.shim_ev(), ev);
		EXPECT_TRUE(out.checksum_ok());
		Frame expect = in;
		put16(expect.bytes, expect.udp(), out.sport());
		put16(expect.bytes, expect.shim() + offsetof(lb_shim, ev), ev);
		put16(expect.bytes, expect.udp() + 6, out.udp_check());
		EXPECT_EQ(out.bytes, expect.bytes);
		return ev;
	}

	// A TCP/IPv6 segment through lb_egress: the EV its flow label
	// carries, every other byte unchanged.
	uint16_t send_tcp6(const Bytes &in = tcp6_frame(false, kTcpAck))
	{
		const Bytes out = run(skel_->progs.lb_egress, in);
		const uint32_t label = flow_label(out);
		EXPECT_GE(label, kEvBase);
		Bytes expect = in;
		expect[kEthLen + 1] = static_cast<uint8_t>((in[kEthLen + 1] & 0xf0) | (label >> 16));
		put16(expect, kEthLen + 2, static_cast<uint16_t>(label));
		EXPECT_EQ(out, expect);
		return static_cast<uint16_t>(label - kEvBase);
	}

	void feedback(bool v6, uint8_t type, uint16_t ev, bool ce)
	{
		const Frame in = reply_frame(v6, type, ev, ce);
		EXPECT_EQ(run(skel_->progs.lb_ingress, in.bytes), in.bytes);
	}

	// A frame the datapath must leave alone.
	void expect_untouched(const bpf_program *prog, const Bytes &in)
	{
		EXPECT_EQ(run(prog, in), in);
	}

	uint64_t stat(uint32_t which) { return percpu_sum(skel_->maps.lb_stats, which); }

	static inline lb *skel_ = nullptr;
	static inline int load_errno_ = 0;
	uint64_t seq_ = 0;
};

TEST_F(LbProg, SprayRoundRobinIpv4AndIpv6)
{
	configure(config(LB_MODE_SPRAY_RR, 3));
	for (bool v6 : { false, true }) {
		std::vector<uint16_t> evs;
		for (int i = 0; i < 5; i++)
			evs.push_back(send(v6));
		EXPECT_EQ(evs, (std::vector<uint16_t>{ 0, 1, 2, 0, 1 })) << "v6 " << v6;
	}
	EXPECT_EQ(stat(LB_STAT_FLOWS_CREATED), 2u);
	EXPECT_EQ(stat(LB_STAT_PKTS_REWRITTEN), 10u);
}

// ECMP: one EV for the flow's life; another flow draws its own.
TEST_F(LbProg, EcmpKeepsOneEvPerFlow)
{
	configure(config(LB_MODE_ECMP, 256));
	const uint16_t ev = send(false);
	EXPECT_LT(ev, 256u);
	for (int i = 0; i < 20; i++)
		EXPECT_EQ(send(false), ev);
	std::set<uint16_t> flows;
	for (uint16_t p = 1; p <= 64; p++)
		flows.insert(send(false, p));
	EXPECT_GT(flows.size(), 1u); // 64 flows on one EV of 256: p = 256^-63
}

// SPRAY: a random EV per packet; 400 packets over 4 EVs use every one
// (each missed with probability (3/4)^400).
TEST_F(LbProg, SprayUsesEveryEv)
{
	configure(config(LB_MODE_SPRAY, 4));
	std::set<uint16_t> evs;
	for (int i = 0; i < 400; i++) {
		const uint16_t ev = send(i & 1);
		EXPECT_LT(ev, 4u);
		evs.insert(ev);
	}
	EXPECT_EQ(evs.size(), 4u);
}

// ARCANE (arcane.md 2.3) through both programs: the initial phase
// explores 0..bdp-1; a clean ACK's EV goes once more; a CE ACK, a NACK
// and an echo past num_ev store nothing, so the send explores next.
TEST_F(LbProg, ArcaneRecyclesCleanEvsOnly)
{
	configure(config(LB_MODE_ARCANE, 8));
	EXPECT_EQ(send(false), 0u);
	EXPECT_EQ(send(false), 1u);
	EXPECT_EQ(send(false), 2u);
	feedback(false, LB_SHIM_ACK, 1, false);
	feedback(false, LB_SHIM_ACK, 0, true);
	EXPECT_EQ(send(false), 1u); // cached
	EXPECT_EQ(send(false), 3u); // nothing cached: explores
	feedback(false, LB_SHIM_NACK, 2, false);
	feedback(false, LB_SHIM_ACK, 8, false); // EV past num_ev
	EXPECT_EQ(send(false), 4u);
	feedback(false, LB_SHIM_ACK, 3, false);
	feedback(false, LB_SHIM_ACK, 4, false);
	EXPECT_EQ(send(false), 3u); // oldest first
	EXPECT_EQ(send(false), 4u);
	EXPECT_EQ(stat(LB_STAT_TX_EXPLORE), 5u);
	EXPECT_EQ(stat(LB_STAT_TX_CACHED), 3u);
	EXPECT_EQ(stat(LB_STAT_FB_GOOD), 3u);
	EXPECT_EQ(stat(LB_STAT_FB_CE), 1u);
	EXPECT_EQ(stat(LB_STAT_FB_NACK), 1u);
	EXPECT_EQ(stat(LB_STAT_FB_IGNORED), 1u);
	EXPECT_EQ(stat(LB_STAT_ACKS_PARSED), 6u);
	// A reply of a flow never sent is counted and passes.
	const Frame other = udp_frame(false, kDstPort, kSrcPort + 1,
				      { .reply = true, .type = LB_SHIM_ACK, .ev = 1 });
	expect_untouched(skel_->progs.lb_ingress, other.bytes);
	EXPECT_EQ(stat(LB_STAT_ACKS_UNKNOWN_FLOW), 1u);
}

// FLOWLET: packets closer than the gap are one flowlet, on one EV.
TEST_F(LbProg, FlowletKeepsItsEvWithinTheGap)
{
	configure(config(LB_MODE_FLOWLET, 256));
	const uint16_t ev = send(false);
	for (int i = 0; i < 20; i++)
		EXPECT_EQ(send(false), ev);
}

// PLB: one EV until rehash_rounds (12) congested rounds of bdp_pkts (3)
// ACKs, 2 of them CE-marked, have passed, or idle_rehash_rounds (3) if
// the flow is idle when a round ends: the datapath knows no bytes in
// flight, so idle is having sent nothing since the previous ACK.
TEST_F(LbProg, PlbRehashesAfterCongestedRounds)
{
	configure(config(LB_MODE_PLB, 256));
	const uint16_t ev = send(false);
	for (int i = 0; i < 3; i++)
		feedback(false, LB_SHIM_ACK, ev, false); // a clean round
	const auto congested_round = [&](bool idle) {
		feedback(false, LB_SHIM_ACK, ev, true);
		feedback(false, LB_SHIM_ACK, ev, true);
		if (!idle)
			send(false);
		feedback(false, LB_SHIM_ACK, ev, false);
	};
	for (int round = 0; round < 11; round++)
		congested_round(false);
	EXPECT_EQ(stat(LB_STAT_PLB_REHASHES), 0u);
	EXPECT_EQ(send(false), ev);
	congested_round(false);
	EXPECT_EQ(stat(LB_STAT_PLB_REHASHES), 1u);
	congested_round(true);
	congested_round(true);
	EXPECT_EQ(stat(LB_STAT_PLB_REHASHES), 1u);
	congested_round(true);
	EXPECT_EQ(stat(LB_STAT_PLB_REHASHES), 2u);
}

// PASSTHRU, a destination port without a policy, and a policy's mode
// override.
TEST_F(LbProg, PolicyAndPassthru)
{
	configure(config(LB_MODE_PASSTHRU, 8));
	expect_untouched(skel_->progs.lb_egress, udp_frame(false, kSrcPort, kDstPort).bytes);
	configure(config(LB_MODE_SPRAY_RR, 8));
	expect_untouched(skel_->progs.lb_egress, udp_frame(false, kSrcPort, kDstPort + 1).bytes);
	configure(config(LB_MODE_PASSTHRU, 8), LB_MODE_SPRAY_RR);
	EXPECT_EQ(send(false), 0u);
	EXPECT_EQ(send(false), 1u);
}

// A configuration whose EVs would pass port 65535, or start at port 0,
// or that a law refuses, rewrites nothing.
TEST_F(LbProg, InvalidConfigurationRewritesNothing)
{
	const Bytes in = udp_frame(false, kSrcPort, kDstPort).bytes;
	lb_cfg c = config(LB_MODE_SPRAY_RR, 256);
	c.ev_base = 65535 - 254;
	configure(c);
	expect_untouched(skel_->progs.lb_egress, in);
	c.ev_base = 0;
	configure(c);
	expect_untouched(skel_->progs.lb_egress, in);
	c = config(LB_MODE_SPRAY_RR, 256);
	c.plb_force_rounds = 0;
	configure(c);
	expect_untouched(skel_->progs.lb_egress, in);
	c.plb_force_rounds = 12;
	c.ev_base = 65535 - 255; // the last EV on port 65535
	configure(c);
	Frame out = udp_frame(false, kSrcPort, kDstPort);
	out.bytes = run(skel_->progs.lb_egress, in);
	EXPECT_EQ(out.sport(), 65535 - 255);
	EXPECT_EQ(stat(LB_STAT_PKTS_REWRITTEN), 1u);
}

// TCP over IPv6: the EV goes in the flow label, version, traffic class
// and every other byte kept; the checksum does not cover the label.
TEST_F(LbProg, TcpIpv6CarriesTheEvInItsFlowLabel)
{
	configure(config(LB_MODE_SPRAY_RR, 3), __LB_MODE_MAX, 0, IPPROTO_TCP);
	std::vector<uint16_t> evs;
	for (int i = 0; i < 4; i++)
		evs.push_back(send_tcp6());
	EXPECT_EQ(evs, (std::vector<uint16_t>{ 0, 1, 2, 0 }));
	EXPECT_EQ(stat(LB_STAT_PKTS_REWRITTEN), 4u);
	// The policy is per protocol: UDP to the port is not steered.
	expect_untouched(skel_->progs.lb_egress, udp_frame(true, kSrcPort, kDstPort).bytes);
}

// ARCANE over TCP (arcane.md 3.7; kernel/core/arcane_txlog.h): data
// segments of 1000 bytes from sequence number 5000 explore EVs 0..2 (the
// initial phase, bdp_pkts 3) and are logged; a clean ACK of the first two
// recycles EVs 0 and 1, which the next segments take, oldest first; an
// ECE ACK recycles nothing, so the flow explores again; a retransmission
// withholds the EV of the copy it replaces. A pure ACK keeps the last EV
// and is not logged; an ACK of another flow feeds nothing.
TEST_F(LbProg, TcpArcaneRecyclesTheEvsAnAckCovers)
{
	configure(config(LB_MODE_ARCANE, 8), __LB_MODE_MAX, 0, IPPROTO_TCP);
	const auto data = [&](uint32_t seq) {
		return send_tcp6(tcp6_frame(false, kTcpAck, 1000, seq));
	};
	const auto ack = [&](uint32_t ack_seq, bool ece) {
		const Bytes in = tcp6_frame(true, static_cast<uint8_t>(kTcpAck | (ece ? kTcpEce : 0)),
					    0, 1, ack_seq);
		EXPECT_EQ(run(skel_->progs.lb_ingress, in), in);
	};
	EXPECT_EQ(data(5000), 0);
	EXPECT_EQ(data(6000), 1);
	EXPECT_EQ(data(7000), 2);
	EXPECT_EQ(send_tcp6(tcp6_frame(false, kTcpAck, 0, 8000)), 2); // a pure ACK
	ack(7000, false);
	EXPECT_EQ(stat(LB_STAT_TXLOG_ACKED), 2u);
	EXPECT_EQ(data(8000), 0);
	EXPECT_EQ(data(9000), 1);
	EXPECT_EQ(stat(LB_STAT_TX_CACHED), 2u);
	ack(9000, true);			// EVs 2 and 0 CE-marked
	EXPECT_EQ(data(10000), 3);
	EXPECT_EQ(stat(LB_STAT_TX_EXPLORE), 4u);
	// EV 1's segment [9000, 10000) was lost: resent, on EV 4.
	EXPECT_EQ(data(9000), 4);
	ack(11000, false);
	EXPECT_EQ(stat(LB_STAT_TXLOG_ACKED), 7u);
	EXPECT_EQ(stat(LB_STAT_TXLOG_WITHHELD), 1u);
	EXPECT_EQ(data(11000), 3);		// EV 1 withheld: 3, then 4
	EXPECT_EQ(data(12000), 4);
	EXPECT_EQ(data(13000), 5);
	// Another flow's ACK (other ports) changes nothing.
	Bytes other = tcp6_frame(true, kTcpAck, 0, 1, 14000);
	put16(other, kEthLen + kIp6Len, kDstPort + 1);
	EXPECT_EQ(run(skel_->progs.lb_ingress, other), other);
	EXPECT_EQ(stat(LB_STAT_TXLOG_ACKED), 7u);
	EXPECT_EQ(stat(LB_STAT_FB_GOOD), 2u);
	EXPECT_EQ(stat(LB_STAT_FB_CE), 1u);
	EXPECT_EQ(stat(LB_STAT_TXLOG_OVERWRITTEN), 0u);
}

// A SYN takes sequence space: it is logged with an explored EV, and sent
// again after a loss it explores the next one, the first withheld when
// the SYN-ACK covers both; the retransmission's EV is the one recycled.
// Then a new connection on the same ports (another ISN) starts a new log.
TEST_F(LbProg, TcpArcaneResentSynTakesAnotherPath)
{
	configure(config(LB_MODE_ARCANE, 8), __LB_MODE_MAX, 0, IPPROTO_TCP);
	const Bytes syn = tcp6_frame(false, 0x02, 0, 100);
	EXPECT_EQ(send_tcp6(syn), 0);
	EXPECT_EQ(send_tcp6(syn), 1);
	// ECE on a SYN-ACK agrees to ECN (RFC 3168): not a mark.
	const Bytes synack = tcp6_frame(true, 0x12 | kTcpEce, 0, 7, 101);
	EXPECT_EQ(run(skel_->progs.lb_ingress, synack), synack);
	EXPECT_EQ(stat(LB_STAT_TXLOG_ACKED), 2u);
	EXPECT_EQ(stat(LB_STAT_TXLOG_WITHHELD), 1u);
	EXPECT_EQ(stat(LB_STAT_FB_CE), 0u);
	EXPECT_EQ(send_tcp6(tcp6_frame(false, kTcpAck, 1000, 101)), 2); // bdp_pkts 3
	EXPECT_EQ(send_tcp6(tcp6_frame(false, kTcpAck, 1000, 1101)), 1);
	// ISN 50, below the old connection's data: its segments are new.
	EXPECT_EQ(send_tcp6(tcp6_frame(false, 0x02, 0, 50)), 3);
	EXPECT_EQ(send_tcp6(tcp6_frame(false, kTcpAck, 1000, 51)), 4);
	const Bytes ack = tcp6_frame(true, kTcpAck, 0, 8, 1051);
	EXPECT_EQ(run(skel_->progs.lb_ingress, ack), ack);
	EXPECT_EQ(stat(LB_STAT_TXLOG_ACKED), 4u);
	EXPECT_EQ(stat(LB_STAT_TXLOG_WITHHELD), 1u);
}

// TCP over IPv4 has no field to steer by: it passes unharmed.
TEST_F(LbProg, TcpOverIpv4PassesUnharmed)
{
	configure(config(LB_MODE_SPRAY_RR, 8), __LB_MODE_MAX, 0, IPPROTO_TCP);
	Frame v4 = udp_frame(false, kSrcPort, kDstPort);
	v4.bytes[kEthLen + 9] = IPPROTO_TCP;
	expect_untouched(skel_->progs.lb_egress, v4.bytes);
	EXPECT_EQ(stat(LB_STAT_PKTS_REWRITTEN), 0u);
}

// PLB on TCP: a round is bdp_pkts (3) ACKs of the reverse flow, congested
// when 2 of them carry ECE (a DCTCP receiver's per-segment echo); the
// label is redrawn after rehash_rounds (12) of them, the flow sending
// before each round's last ACK so that it is not idle (as in
// PlbRehashesAfterCongestedRounds).
TEST_F(LbProg, TcpPlbRehashesOnEce)
{
	configure(config(LB_MODE_PLB, 256), __LB_MODE_MAX, 0, IPPROTO_TCP);
	const uint16_t ev = send_tcp6();
	const auto ack = [&](bool ece) {
		const Bytes in = tcp6_frame(true, static_cast<uint8_t>(kTcpAck | (ece ? kTcpEce : 0)));
		EXPECT_EQ(run(skel_->progs.lb_ingress, in), in);
	};
	for (int round = 0; round < 12; round++) {
		EXPECT_EQ(stat(LB_STAT_PLB_REHASHES), 0u) << round;
		ack(true);
		ack(true);
		EXPECT_EQ(send_tcp6(), ev);
		ack(false);
	}
	EXPECT_EQ(stat(LB_STAT_PLB_REHASHES), 1u);
	EXPECT_EQ(stat(LB_STAT_FB_CE), 24u);
	EXPECT_EQ(stat(LB_STAT_FB_GOOD), 12u);
	// A segment without ACK (a SYN) is no feedback.
	const Bytes syn = tcp6_frame(true, 0x02);
	EXPECT_EQ(run(skel_->progs.lb_ingress, syn), syn);
	EXPECT_EQ(stat(LB_STAT_ACKS_PARSED), 36u);
}

// An IPv4 datagram sent without a checksum (0) keeps none.
TEST_F(LbProg, ZeroIpv4ChecksumStaysZero)
{
	configure(config(LB_MODE_SPRAY_RR, 8));
	Frame in = udp_frame(false, kSrcPort, kDstPort);
	put16(in.bytes, in.udp() + 6, 0);
	Frame out = in;
	out.bytes = run(skel_->progs.lb_egress, in.bytes);
	EXPECT_EQ(out.sport(), kEvBase);
	EXPECT_EQ(out.udp_check(), 0u);
}

// What is not the datapath's passes unharmed, through both programs:
// every frame below, and a handled one cut short at every length.
TEST_F(LbProg, OtherFramesPassUnharmed)
{
	configure(config(LB_MODE_SPRAY_RR, 8), __LB_MODE_MAX, LB_POLICY_REQUIRE_SHIM);
	std::vector<std::pair<std::string, Bytes>> frames;
	Frame tcp = udp_frame(false, kSrcPort, kDstPort);
	tcp.bytes[kEthLen + 9] = IPPROTO_TCP;
	frames.emplace_back("tcp", tcp.bytes);
	Frame frag = udp_frame(false, kSrcPort, kDstPort);
	put16(frag.bytes, kEthLen + 6, 0x2000); // more fragments
	frames.emplace_back("first fragment", frag.bytes);
	put16(frag.bytes, kEthLen + 6, 0x0010); // offset 128
	frames.emplace_back("later fragment", frag.bytes);
	Frame ext = udp_frame(true, kSrcPort, kDstPort);
	ext.bytes[kEthLen + 6] = 0; // hop-by-hop options first
	frames.emplace_back("ipv6 extension header", ext.bytes);
	Frame short_len = udp_frame(false, kSrcPort, kDstPort);
	put16(short_len.bytes, short_len.udp() + 4, kUdpLen + sizeof(lb_shim) - 1);
	frames.emplace_back("udp length below the shim", short_len.bytes);
	Frame ihl = udp_frame(false, kSrcPort, kDstPort);
	ihl.bytes[kEthLen] = 0x44;
	frames.emplace_back("ihl 4", ihl.bytes);
	Frame magic = udp_frame(false, kSrcPort, kDstPort);
	magic.bytes[magic.shim()] ^= 0xff;
	frames.emplace_back("no shim", magic.bytes);
	frames.emplace_back("an ack", reply_frame(false, LB_SHIM_ACK, 1, false).bytes);
	Bytes arp = udp_frame(false, kSrcPort, kDstPort).bytes;
	put16(arp, 12, ETH_P_ARP);
	frames.emplace_back("arp", arp);
	// BPF_PROG_TEST_RUN refuses (EINVAL) a frame shorter than its IP
	// header, which the stack would not have taken either.
	for (bool v6 : { false, true }) {
		const Frame whole = udp_frame(v6, kSrcPort, kDstPort);
		for (size_t len = whole.udp(); len < whole.shim() + sizeof(lb_shim); len++)
			frames.emplace_back((v6 ? "ipv6 cut at " : "ipv4 cut at ") +
						    std::to_string(len),
					    Bytes(whole.bytes.begin(),
						  whole.bytes.begin() + static_cast<long>(len)));
	}
	for (const auto &[what, bytes] : frames) {
		SCOPED_TRACE(what);
		expect_untouched(skel_->progs.lb_egress, bytes);
		expect_untouched(skel_->progs.lb_ingress, bytes);
	}
	EXPECT_EQ(stat(LB_STAT_PKTS_REWRITTEN), 0u);
	EXPECT_EQ(stat(LB_STAT_FLOWS_CREATED), 0u);
}

} // namespace
