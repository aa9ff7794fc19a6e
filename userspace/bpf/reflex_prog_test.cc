// SPDX-License-Identifier: GPL-2.0
//
// Reflex's tc programs (bpf/reflex.bpf.c) in the running kernel: its
// libbpf skeleton loaded, each program run on synthetic Ethernet frames
// with BPF_PROG_TEST_RUN. rfx_stamp's IP ID is checked against the clock
// read around the run and both checksums verified; nsf_egress's flow
// entry, nsf_build's pseudo-ACK and rfx_fb's socket mailbox are read back
// and checked field by field, every counter exactly. Frames a program
// does not handle (other protocols, fragments, truncated at every
// length) must pass unharmed and change nothing.
//
// Times: the programs read bpf_ktime_get_ns(), CLOCK_MONOTONIC, and so do
// the tests, to build stamps (IP ID = (now >> k) & 0xffff). Every age is
// chosen far from the bound it is tested against (see kK), so that the
// time between the stamp and the run decides nothing; what depends on it
// is checked between the clock read before and after the run.
//
// Loading needs CAP_BPF and CAP_NET_ADMIN (root). Where the kernel
// refuses the load for want of privilege the tests are skipped with the
// reason.
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <gtest/gtest.h>

#include "reflex.skel.h"
#include "uno_reflex.h"
#include "prog_test.h"
// Last: core_user.h's names (BIT, likely) are the kernel's.
#include "reflex_core.h"
#include "reflex_types.h"

#include "frame_bytes.h"

namespace {

using namespace frame;
using namespace progtest;

constexpr uint32_t kSender = 0xc6336401;   // 198.51.100.1: the data's sender
constexpr uint32_t kReceiver = 0xcb007102; // 203.0.113.2
constexpr uint32_t kLanAddr = 0xc63364fe;  // 198.51.100.254: the gateway
constexpr uint32_t kGateway = INADDR_LOOPBACK; // whose pseudo-ACKs a host takes
constexpr uint16_t kSrcPort = 40000;
constexpr uint16_t kDstPort = 5201;
constexpr uint16_t kPort = RFX_DEF_PORT;
// The stamp's unit, 2^k ns: k 13 (8.192 us, 4.3's value at S = 100), a
// period of 537 ms, so that the ages below lie tens of ms from every
// bound, which no scheduling delay of a loaded machine crosses between
// the clock read that makes a stamp and the run that reads its age. (At
// k 6 the whole period is 4.2 ms and RTT_SRC_MAX 1 ms.)
constexpr uint8_t kK = 13;
constexpr uint64_t kUnit = 1ULL << kK;
constexpr uint64_t kUs = 1000;
constexpr uint64_t kMs = 1000 * kUs;
constexpr uint64_t kThresh = 20 * kMs; // T_src_thresh
constexpr uint64_t kHot = 100 * kMs;   // a data packet's T_src that is above it
constexpr uint64_t kRtt = 10 * kMs;    // an RTT_src a host accepts (max 134 ms)
constexpr size_t kL4 = kEthLen + kIp4Len;
constexpr size_t kPackLen = kL4 + kUdpLen + sizeof(rfx_fb); // 90
constexpr uint16_t kIpDf = 0x4000;
// RFX_PASS of reflex.bpf.c: what a program returns for a frame it leaves
// as it is, the next filter's or the stack's.
constexpr int kPass = TC_ACT_UNSPEC;

// The IP-ID stamp of time t (4.3).
uint16_t stamp_at(uint64_t t, uint8_t k = kK)
{
	return static_cast<uint16_t>(t >> k);
}

// The stamp `age` ns old now.
uint16_t aged(uint64_t age)
{
	return stamp_at(mono_ns() - age);
}

// An IPv4 segment from kSender:sport to kReceiver:kDstPort, as its sender
// stamped it: its IP header and TCP header (for any protocol: the
// programs look at the number), `payload` bytes, both checksums right.
struct Seg {
	uint8_t proto = IPPROTO_TCP;
	uint16_t id = 0x1234;
	uint16_t frag = kIpDf; // flags and fragment offset
	uint8_t flags = kTcpAck | kTcpPsh;
	size_t payload = 100;
	uint32_t seq = 0x11223344;
	uint16_t sport = kSrcPort;
};

Bytes seg_frame(const Seg &s)
{
	Bytes b(kL4 + kTcpLen + s.payload, 0);
	for (int i = 0; i < 6; i++) {
		b[i] = 0x02;	 // destination MAC
		b[6 + i] = 0x04; // source MAC
	}
	put16(b, 12, ETH_P_IP);
	b[kEthLen] = 0x45;
	put16(b, kEthLen + 2, static_cast<uint16_t>(kIp4Len + kTcpLen + s.payload));
	put16(b, kEthLen + 4, s.id);
	put16(b, kEthLen + 6, s.frag);
	b[kEthLen + 8] = 64;
	b[kEthLen + 9] = s.proto;
	put32(b, kEthLen + 12, kSender);
	put32(b, kEthLen + 16, kReceiver);
	put16(b, kEthLen + 10, fold(sum16(b, kEthLen, kIp4Len)));
	put16(b, kL4, s.sport);
	put16(b, kL4 + 2, kDstPort);
	put32(b, kL4 + 4, s.seq);
	put32(b, kL4 + 8, 0x55667788); // ack
	b[kL4 + 12] = 5 << 4;	       // data offset
	b[kL4 + 13] = s.flags;
	put16(b, kL4 + 14, 0xffff); // window
	for (size_t i = 0; i < s.payload; i++)
		b[kL4 + kTcpLen + i] = static_cast<uint8_t>(0xa0 + i);
	put16(b, kL4 + 16, fold(sum16(b, kL4, b.size() - kL4, pseudo_sum(b))));
	return b;
}

// A data segment whose stamp is `age` old now.
Bytes data_frame(uint64_t age)
{
	return seg_frame({ .id = aged(age) });
}

// The data flow's key, network order, as nsf_egress makes it.
rfx_flow4 data_key(uint16_t sport = kSrcPort)
{
	rfx_flow4 k = {};
	k.saddr = htonl(kSender);
	k.daddr = htonl(kReceiver);
	k.sport = htons(sport);
	k.dport = htons(kDstPort);
	return k;
}

// A pseudo-ACK's payload, network order, for the data flow `key`.
rfx_fb fb_of(const rfx_flow4 &key, uint32_t fb_seq, uint16_t covered, uint16_t echo)
{
	rfx_fb fb = {};
	fb.magic = htons(RFX_MAGIC);
	fb.version = RFX_VERSION;
	fb.type = RFX_TYPE_NSF;
	fb.flags = RFX_F_NSF;
	fb.k = kK;
	fb.echo_ts16 = htons(echo);
	fb.saddr = key.saddr;
	fb.daddr = key.daddr;
	fb.sport = key.sport;
	fb.dport = key.dport;
	fb.data_seq = htonl(1000);
	fb.t_src_ns = htonl(1'000'000);
	fb.fb_seq = htonl(fb_seq);
	fb.covered_pkts = htons(covered);
	fb.gw_time_ns = htobe64(mono_ns());
	return fb;
}

// A gateway's pseudo-ACK as a host receives it: Ethernet, IPv4 from gw
// to 127.0.0.1, UDP from and to dport (udp_len in its header), fb.
Bytes fb_frame(uint32_t gw, const rfx_fb &fb, uint16_t dport = kPort,
	       uint16_t udp_len = kUdpLen + sizeof(rfx_fb))
{
	Bytes b(kPackLen, 0);
	for (int i = 0; i < 6; i++) {
		b[i] = 0x02;
		b[6 + i] = 0x06;
	}
	put16(b, 12, ETH_P_IP);
	b[kEthLen] = 0x45;
	b[kEthLen + 1] = 0xb8;
	put16(b, kEthLen + 2, static_cast<uint16_t>(kPackLen - kEthLen));
	put16(b, kEthLen + 6, kIpDf);
	b[kEthLen + 8] = 64;
	b[kEthLen + 9] = IPPROTO_UDP;
	put32(b, kEthLen + 12, gw);
	put32(b, kEthLen + 16, INADDR_LOOPBACK);
	put16(b, kEthLen + 10, fold(sum16(b, kEthLen, kIp4Len)));
	put16(b, kL4, dport);
	put16(b, kL4 + 2, dport);
	put16(b, kL4 + 4, udp_len);
	std::memcpy(&b[kL4 + kUdpLen], &fb, sizeof(fb));
	return b;
}

rfx_cfg config()
{
	rfx_cfg c = {};
	c.t_src_thresh_ns = kThresh;
	c.t_interval_ns = 5 * kUs;
	c.t_idle_gc_ns = 10'000 * kMs; // no test's flow is idle that long
	c.n_cool = 5;
	c.cool_unit = NSF_COOL_PACK;
	c.lan_addr = htonl(kLanAddr);
	c.port = kPort;
	c.k = kK;
	c.emit = 0; // nsf_egress clones nothing
	return c;
}

// A TCP connection on 127.0.0.1 in the test's namespace: the client's
// socket and the one the server accepted.
struct Conn {
	int lfd = -1, client = -1, server = -1;
	sockaddr_in local = {}, remote = {}; // the client's ends

	bool open()
	{
		sockaddr_in a = {};
		a.sin_family = AF_INET;
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		socklen_t len = sizeof(a);
		lfd = socket(AF_INET, SOCK_STREAM, 0);
		client = socket(AF_INET, SOCK_STREAM, 0);
		if (lfd < 0 || client < 0 ||
		    bind(lfd, reinterpret_cast<sockaddr *>(&a), sizeof(a)) ||
		    listen(lfd, 1) ||
		    getsockname(lfd, reinterpret_cast<sockaddr *>(&remote), &len) ||
		    connect(client, reinterpret_cast<sockaddr *>(&remote), sizeof(remote)))
			return false;
		server = accept(lfd, nullptr, nullptr);
		len = sizeof(local);
		return server >= 0 &&
		       !getsockname(client, reinterpret_cast<sockaddr *>(&local), &len);
	}

	// The key of the data the client sends (the sender's view).
	rfx_flow4 client_key() const
	{
		return { local.sin_addr.s_addr, remote.sin_addr.s_addr, local.sin_port,
			 remote.sin_port };
	}

	// ... and of the data the server sends.
	rfx_flow4 server_key() const
	{
		return { remote.sin_addr.s_addr, local.sin_addr.s_addr, remote.sin_port,
			 local.sin_port };
	}

	~Conn()
	{
		for (int fd : { server, client, lfd })
			if (fd >= 0)
				close(fd);
	}
};

class ReflexProg : public ::testing::Test {
protected:
	void SetUp() override
	{
		skel_ = reflex__open_and_load();
		if (!skel_ && (errno == EPERM || errno == EACCES))
			GTEST_SKIP() << "loading BPF programs: " << std::strerror(errno)
				     << " (needs root)";
		ASSERT_NE(skel_, nullptr) << std::strerror(errno);
		ASSERT_EQ(bpf_map__value_size(skel_->maps.nsf_flows), sizeof(nsf_entry));
		ASSERT_EQ(bpf_map__value_size(skel_->maps.rfx_sk), sizeof(rfx_sk_state));
		configure(config());
	}

	void TearDown() override { reflex__destroy(skel_); }

	void configure(const rfx_cfg &c)
	{
		map_put(skel_->maps.rfx_cfg, uint32_t{ 0 }, c);
	}

	uint64_t stat(uint32_t which) { return percpu_sum(skel_->maps.rfx_stats, which); }

	Counts counts() { return percpu_counts(skel_->maps.rfx_stats, __RFX_STAT_MAX); }

	// The flow's NSF entry, if it has one.
	bool entry(const rfx_flow4 &key, nsf_entry *e)
	{
		return map_get(skel_->maps.nsf_flows, key, e);
	}

	size_t nsf_flows() { return map_keys<rfx_flow4>(skel_->maps.nsf_flows); }

	// A hot data segment through nsf_egress, opening its flow's episode.
	Bytes open_episode()
	{
		const Bytes in = data_frame(kHot);
		EXPECT_EQ(run(skel_->progs.nsf_egress, in, kPass), in);
		return in;
	}

	void add_gateway(uint32_t addr)
	{
		map_put(skel_->maps.rfx_gateways, htonl(addr), uint8_t{ 1 });
	}

	// The socket's mailbox, created zeroed from user space as a CC
	// that takes samples would.
	void make_mailbox(int fd)
	{
		const rfx_sk_state zero = {};
		ASSERT_EQ(bpf_map_update_elem(bpf_map__fd(skel_->maps.rfx_sk), &fd, &zero,
					      BPF_NOEXIST),
			  0)
			<< std::strerror(errno);
	}

	rfx_sk_state mailbox(int fd)
	{
		rfx_sk_state st = {};
		EXPECT_EQ(bpf_map_lookup_elem(bpf_map__fd(skel_->maps.rfx_sk), &fd, &st), 0)
			<< std::strerror(errno);
		return st;
	}

	// A pseudo-ACK through rfx_fb.
	void feedback(const Bytes &in, int want_ret)
	{
		EXPECT_EQ(run(skel_->progs.rfx_fb, in, want_ret), in);
	}

	reflex *skel_ = nullptr;
};

void expect_mailbox(const rfx_sk_state &st, uint32_t last_fb_seq, uint32_t samples)
{
	EXPECT_EQ(st.last_fb_seq, last_fb_seq);
	EXPECT_EQ(st.pend_samples, samples);
	EXPECT_EQ(st.pend_n, std::min<uint32_t>(samples, RFX_PEND_MAX));
}

// A pending sample: its RTT_src within a stamp unit of rtt_ns, give or
// take the time the program ran (t0 to t1), which is when it came.
void expect_pend(const rfx_pend &p, uint64_t rtt_ns, uint32_t acked, uint64_t t0, uint64_t t1,
		 uint64_t unit)
{
	EXPECT_EQ(p.acked, acked);
	EXPECT_GE(p.rtt_ns, rtt_ns - 2 * unit);
	EXPECT_LE(p.rtt_ns, rtt_ns + (t1 - t0) + unit);
	EXPECT_GE(p.fb_ns, t0);
	EXPECT_LE(p.fb_ns, t1);
}

// ------------------------------------------------------------- rfx_stamp

// A data segment with DF gets the stamp of the time it passed (4.3), in
// the configured unit: the IP ID between the clock's units read before
// and after the run, the IP checksum updated, the TCP checksum (which
// does not cover the ID) still right, every other byte as sent.
TEST_F(ReflexProg, StampWritesTheTimeIntoTheIpId)
{
	const Bytes in = seg_frame({});
	for (uint8_t k : { 6, 13, 16 }) {
		SCOPED_TRACE("k " + std::to_string(k));
		rfx_cfg c = config();
		c.k = k;
		configure(c);
		const uint16_t before = stamp_at(mono_ns(), k);
		const Bytes out = run(skel_->progs.rfx_stamp, in, kPass);
		const uint16_t after = stamp_at(mono_ns(), k);
		ASSERT_EQ(out.size(), in.size());
		const uint16_t id = get16(out, kEthLen + 4);
		EXPECT_LE(static_cast<uint16_t>(id - before),
			  static_cast<uint16_t>(after - before))
			<< "id " << id << " before " << before << " after " << after;
		EXPECT_TRUE(ip_checksum_ok(out));
		EXPECT_TRUE(l4_checksum_ok(out));
		Bytes expect = in;
		put16(expect, kEthLen + 4, id);
		put16(expect, kEthLen + 10, get16(out, kEthLen + 10));
		EXPECT_EQ(out, expect);
	}
	EXPECT_EQ(counts(), plus(Counts(__RFX_STAT_MAX), { { RFX_STAT_STAMPED, 3 } }));
}

// What is not a whole data segment with DF is not stamped: every frame
// below, and a data segment cut short at every length.
TEST_F(ReflexProg, StampLeavesOtherFramesAlone)
{
	std::vector<std::pair<std::string, Bytes>> frames;
	frames.emplace_back("no DF", seg_frame({ .frag = 0 }));
	frames.emplace_back("pure ack", seg_frame({ .flags = kTcpAck, .payload = 0 }));
	frames.emplace_back("udp", seg_frame({ .proto = IPPROTO_UDP }));
	frames.emplace_back("later fragment", seg_frame({ .frag = 0x00b9 }));
	// DF with MF or an offset is no valid header; each test alone
	frames.emplace_back("later fragment with DF", seg_frame({ .frag = kIpDf | 0x00b9 }));
	frames.emplace_back("MF with DF", seg_frame({ .frag = kIpDf | 0x2000 }));
	Bytes ihl = seg_frame({});
	ihl[kEthLen] = 0x44;
	frames.emplace_back("ihl 4", ihl);
	Bytes doff = seg_frame({});
	doff[kL4 + 12] = 4 << 4;
	frames.emplace_back("data offset 4", doff);
	for (uint16_t proto : { ETH_P_IPV6, ETH_P_ARP }) {
		Bytes b = seg_frame({});
		put16(b, 12, proto);
		frames.emplace_back("ethertype " + std::to_string(proto), b);
	}
	for (const auto &[what, bytes] : frames) {
		SCOPED_TRACE(what);
		EXPECT_EQ(run(skel_->progs.rfx_stamp, bytes, kPass), bytes);
	}
	// A clone on its way to nsf_build, where one port has both roles,
	// keeps the stamp its pseudo-ACK is to echo.
	const Bytes clone = seg_frame({});
	EXPECT_EQ(run(skel_->progs.rfx_stamp, clone, kPass, RFX_PACK_MARK), clone);
	expect_cuts(skel_->progs.rfx_stamp, seg_frame({}), kL4, [](size_t) { return kPass; });
	EXPECT_EQ(counts(), Counts(__RFX_STAT_MAX));
}

// ------------------------------------------------------------ nsf_egress

// A hot packet (stamped 100 ms ago) of a new flow opens an episode at once
// (2.3): the entry ACTIVE, its first pseudo-ACK decided (fb_seq 1,
// FIRST, covering the one packet) and stored for nsf_build.
TEST_F(ReflexProg, NsfHotPacketOpensAnEpisode)
{
	const uint64_t t0 = mono_ns();
	const Bytes in = seg_frame({ .id = stamp_at(t0 - kHot) });
	EXPECT_EQ(run(skel_->progs.nsf_egress, in, kPass), in);
	const uint64_t t1 = mono_ns();
	nsf_entry e;
	ASSERT_TRUE(entry(data_key(), &e));
	EXPECT_EQ(e.flow.state, NSF_ACTIVE);
	EXPECT_EQ(e.flow.fb_seq, 1u);
	EXPECT_EQ(e.flow.pkts_since_pack, 0u);
	EXPECT_EQ(e.flow.cool_left, 0);
	EXPECT_GE(nsf_answer_of(&e, e.flow.fb_seq)->pack_ns, t0);
	EXPECT_LE(nsf_answer_of(&e, e.flow.fb_seq)->pack_ns, t1);
	EXPECT_EQ(e.flow.last_pack_ns, nsf_answer_of(&e, e.flow.fb_seq)->pack_ns);
	EXPECT_EQ(e.flow.last_seen_ns, nsf_answer_of(&e, e.flow.fb_seq)->pack_ns);
	EXPECT_EQ(e.first_pack_ns, nsf_answer_of(&e, e.flow.fb_seq)->pack_ns);
	EXPECT_EQ(nsf_answer_of(&e, e.flow.fb_seq)->data_seq, get32(in, kL4 + 4));
	EXPECT_EQ(ntohs(nsf_answer_of(&e, e.flow.fb_seq)->echo_ts16), get16(in, kEthLen + 4));
	EXPECT_EQ(nsf_answer_of(&e, e.flow.fb_seq)->pack.fb_seq, 1u);
	EXPECT_EQ(nsf_answer_of(&e, e.flow.fb_seq)->pack.first, 1);
	EXPECT_EQ(nsf_answer_of(&e, e.flow.fb_seq)->pack.covered_pkts, 1u);
	EXPECT_EQ(nsf_answer_of(&e, e.flow.fb_seq)->pack.state, NSF_ACTIVE);
	// the stamp's age, to within a unit at either end
	EXPECT_GE(nsf_answer_of(&e, e.flow.fb_seq)->pack.t_src_ns, kHot - kUnit);
	EXPECT_LE(nsf_answer_of(&e, e.flow.fb_seq)->pack.t_src_ns, kHot + (t1 - t0) + kUnit);
	EXPECT_EQ(counts(), plus(Counts(__RFX_STAT_MAX), { { RFX_STAT_NSF_DATA, 1 },
							  { RFX_STAT_NSF_PACKS, 1 },
							  { RFX_STAT_NSF_EPISODES, 1 } }));
}

// A cold packet (stamped now) of a new flow: an entry, SILENT, no
// pseudo-ACK.
TEST_F(ReflexProg, NsfColdPacketLeavesTheFlowSilent)
{
	const uint64_t t0 = mono_ns();
	const Bytes in = seg_frame({ .id = stamp_at(t0) });
	EXPECT_EQ(run(skel_->progs.nsf_egress, in, kPass), in);
	const uint64_t t1 = mono_ns();
	nsf_entry e;
	ASSERT_TRUE(entry(data_key(), &e));
	EXPECT_EQ(e.flow.state, NSF_SILENT);
	EXPECT_EQ(e.flow.fb_seq, 0u);
	EXPECT_EQ(e.flow.pkts_since_pack, 1u);
	EXPECT_EQ(e.flow.last_pack_ns, 0u);
	EXPECT_GE(e.flow.last_seen_ns, t0);
	EXPECT_LE(e.flow.last_seen_ns, t1);
	EXPECT_EQ(nsf_answer_of(&e, e.flow.fb_seq)->pack_ns, 0u);
	EXPECT_EQ(e.first_pack_ns, 0u);
	EXPECT_EQ(nsf_answer_of(&e, e.flow.fb_seq)->pack.fb_seq, 0u);
	EXPECT_EQ(counts(), plus(Counts(__RFX_STAT_MAX), { { RFX_STAT_NSF_DATA, 1 } }));
}

// With source prefixes, NSF takes only the stamped hosts' segments: the
// ID of another host's is no stamp. kSender is in 198.51.100.0/24, not
// in 10.0.0.0/8.
TEST_F(ReflexProg, NsfTakesOnlyItsPrefixes)
{
	const uint8_t one = 1;
	rfx_prefix4 other = { 8, htonl(0x0a000000) };
	ASSERT_EQ(bpf_map__update_elem(skel_->maps.nsf_prefixes, &other, sizeof(other), &one,
				       sizeof(one), BPF_ANY),
		  0);
	rfx_cfg c = config();
	c.n_prefixes = 1;
	configure(c);
	const Bytes in = data_frame(kHot);
	EXPECT_EQ(run(skel_->progs.nsf_egress, in, kPass), in);
	EXPECT_EQ(nsf_flows(), 0u);
	EXPECT_EQ(counts(), Counts(__RFX_STAT_MAX));

	rfx_prefix4 ours = { 24, htonl(kSender & 0xffffff00) };
	ASSERT_EQ(bpf_map__update_elem(skel_->maps.nsf_prefixes, &ours, sizeof(ours), &one,
				       sizeof(one), BPF_ANY),
		  0);
	c.n_prefixes = 2;
	configure(c);
	EXPECT_EQ(run(skel_->progs.nsf_egress, in, kPass), in);
	EXPECT_EQ(nsf_flows(), 1u);
	EXPECT_EQ(counts(), plus(Counts(__RFX_STAT_MAX), { { RFX_STAT_NSF_DATA, 1 },
							   { RFX_STAT_NSF_PACKS, 1 },
							   { RFX_STAT_NSF_EPISODES, 1 } }));
}

// A flow idle past T_idle_gc (here any time at all) starts over, SILENT,
// at its next packet (2.3): a hot one opens a new episode; its fb_seq
// goes on from the last, which the sender's socket still holds.
TEST_F(ReflexProg, NsfIdleFlowStartsOverKeepingItsFbSeq)
{
	rfx_cfg c = config();
	c.t_idle_gc_ns = 0;
	configure(c);
	open_episode();
	nsf_entry first;
	ASSERT_TRUE(entry(data_key(), &first));
	const Bytes data = open_episode();
	nsf_entry e;
	ASSERT_TRUE(entry(data_key(), &e));
	EXPECT_EQ(e.flow.state, NSF_ACTIVE);
	EXPECT_EQ(e.flow.fb_seq, 2u);
	EXPECT_EQ(nsf_answer_of(&e, e.flow.fb_seq)->pack.fb_seq, 2u);
	EXPECT_EQ(nsf_answer_of(&e, e.flow.fb_seq)->pack.first, 1);
	EXPECT_EQ(nsf_answer_of(&e, e.flow.fb_seq)->pack.covered_pkts, 1u);
	EXPECT_GT(nsf_answer_of(&e, e.flow.fb_seq)->pack_ns, nsf_answer_of(&first, first.flow.fb_seq)->pack_ns);
	EXPECT_EQ(e.first_pack_ns, nsf_answer_of(&first, first.flow.fb_seq)->pack_ns);
	EXPECT_EQ(ntohs(nsf_answer_of(&e, e.flow.fb_seq)->echo_ts16), get16(data, kEthLen + 4));
	EXPECT_EQ(counts(), plus(Counts(__RFX_STAT_MAX), { { RFX_STAT_NSF_DATA, 2 },
							  { RFX_STAT_NSF_PACKS, 2 },
							  { RFX_STAT_NSF_EPISODES, 2 } }));
}

// With T_interval 1 s, the packets after the first pseudo-ACK are not
// answered: they count toward the next one's covered_pkts; a cold one
// starts cooling, N_cool pseudo-ACKs to go.
TEST_F(ReflexProg, NsfSpacesPseudoAcksByTheInterval)
{
	rfx_cfg c = config();
	c.t_interval_ns = 1'000'000'000;
	configure(c);
	open_episode();
	open_episode();
	open_episode();
	nsf_entry e;
	ASSERT_TRUE(entry(data_key(), &e));
	EXPECT_EQ(e.flow.state, NSF_ACTIVE);
	EXPECT_EQ(e.flow.fb_seq, 1u);
	EXPECT_EQ(e.flow.pkts_since_pack, 2u);
	const Bytes cold = data_frame(0);
	EXPECT_EQ(run(skel_->progs.nsf_egress, cold, kPass), cold);
	ASSERT_TRUE(entry(data_key(), &e));
	EXPECT_EQ(e.flow.state, NSF_COOLING);
	EXPECT_EQ(e.flow.cool_left, 5);
	EXPECT_EQ(e.flow.pkts_since_pack, 3u);
	EXPECT_EQ(nsf_answer_of(&e, e.flow.fb_seq)->pack.fb_seq, 1u);
	EXPECT_EQ(counts(), plus(Counts(__RFX_STAT_MAX), { { RFX_STAT_NSF_DATA, 4 },
							  { RFX_STAT_NSF_PACKS, 1 },
							  { RFX_STAT_NSF_EPISODES, 1 } }));
}

// FIN and RST delete the flow's entry (2.3), with or without data, and
// count nothing.
TEST_F(ReflexProg, NsfFinAndRstDeleteTheFlow)
{
	for (uint8_t flag : { kTcpFin, kTcpRst }) {
		for (size_t payload : { 0, 100 }) {
			SCOPED_TRACE("flag " + std::to_string(flag) + " payload " +
				     std::to_string(payload));
			open_episode();
			nsf_entry e;
			ASSERT_TRUE(entry(data_key(), &e));
			const Bytes end = seg_frame({ .flags = static_cast<uint8_t>(kTcpAck | flag),
						      .payload = payload });
			const Counts before = counts();
			EXPECT_EQ(run(skel_->progs.nsf_egress, end, kPass), end);
			EXPECT_FALSE(entry(data_key(), &e));
			EXPECT_EQ(counts(), before);
		}
	}
	EXPECT_EQ(stat(RFX_STAT_NSF_EPISODES), 4u);
}

// A SYN, with or without data (TFO), and a pure ACK are no data packets,
// and the ID of a segment without DF is no stamp: no entry, nothing
// counted.
TEST_F(ReflexProg, NsfSynAndPureAckMakeNoEntry)
{
	const Bytes frames[] = {
		seg_frame({ .id = aged(kHot), .flags = kTcpSyn, .payload = 0 }),
		seg_frame({ .id = aged(kHot), .flags = kTcpSyn }),
		seg_frame({ .id = aged(kHot), .flags = kTcpSyn | kTcpAck }),
		seg_frame({ .id = aged(kHot), .flags = kTcpAck, .payload = 0 }),
		// no DF: the stamp leaves its ID alone, so it is no age
		seg_frame({ .id = aged(kHot), .frag = 0 }),
	};
	for (const Bytes &in : frames)
		EXPECT_EQ(run(skel_->progs.nsf_egress, in, kPass), in);
	EXPECT_EQ(nsf_flows(), 0u);
	EXPECT_EQ(counts(), Counts(__RFX_STAT_MAX));
}

// A hot data segment cut short at every length: no entry, nothing
// counted, the frame passes.
TEST_F(ReflexProg, NsfTruncatedFramesMakeNoEntry)
{
	expect_cuts(skel_->progs.nsf_egress, data_frame(kHot), kL4, [](size_t) { return kPass; });
	EXPECT_EQ(nsf_flows(), 0u);
	EXPECT_EQ(counts(), Counts(__RFX_STAT_MAX));
}

// emit 1: the pseudo-ACK's clone goes to lo's ingress (where IP drops it:
// its MAC is not lo's); the data leaves as it came.
TEST_F(ReflexProg, NsfEmitClonesAndKeepsTheData)
{
	rfx_cfg c = config();
	c.emit = 1;
	c.lan_ifindex = 1; // lo, up in any namespace
	configure(c);
	open_episode();
	EXPECT_EQ(counts(), plus(Counts(__RFX_STAT_MAX), { { RFX_STAT_NSF_DATA, 1 },
							  { RFX_STAT_NSF_PACKS, 1 },
							  { RFX_STAT_NSF_EPISODES, 1 } }));
}

// ------------------------------------------------------------- nsf_build

// nsf_build takes only the clones nsf_egress marked.
TEST_F(ReflexProg, NsfBuildPassesUnmarkedFrames)
{
	open_episode();
	const Counts before = counts();
	const Bytes in = data_frame(kHot);
	EXPECT_EQ(run(skel_->progs.nsf_build, in, kPass), in);
	EXPECT_EQ(run(skel_->progs.nsf_build, in, kPass, RFX_PACK_MARK - 1), in);
	EXPECT_EQ(counts(), before);
}

// A marked clone whose flow has no entry (a FIN deleted it between the
// clone and its build) cannot be made a pseudo-ACK: dropped, counted.
TEST_F(ReflexProg, NsfBuildWithoutEntryDrops)
{
	const Bytes in = data_frame(kHot);
	EXPECT_EQ(run(skel_->progs.nsf_build, in, TC_ACT_SHOT, RFX_PACK_MARK), in);
	// Nor what is no TCP data segment
	const Bytes udp = seg_frame({ .proto = IPPROTO_UDP });
	EXPECT_EQ(run(skel_->progs.nsf_build, udp, TC_ACT_SHOT, RFX_PACK_MARK), udp);
	EXPECT_EQ(counts(), plus(Counts(__RFX_STAT_MAX), { { RFX_STAT_NSF_BUILD_ERR, 2 } }));
}

// A clone that names an answer the flow's ring no longer holds (fb_seq 5
// in slot 1, where fb_seq 1 is) is dropped, counted overrun: no
// pseudo-ACK is built from another's answer.
TEST_F(ReflexProg, NsfBuildDropsAnOverrunClone)
{
	open_episode();
	const Counts before = counts();
	const Bytes clone = data_frame(kHot);
	EXPECT_EQ(run(skel_->progs.nsf_build, clone, TC_ACT_SHOT, RFX_PACK_MARK | 5), clone);
	EXPECT_EQ(counts(), plus(before, { { RFX_STAT_NSF_OVERRUN, 1 } }));
}

// The marked clone of a hot packet becomes its pseudo-ACK (2.4, 4.4): 90
// bytes, every field as the entry and the data say.
TEST_F(ReflexProg, NsfBuildMakesThePseudoAck)
{
	const Bytes data = open_episode();
	nsf_entry e;
	ASSERT_TRUE(entry(data_key(), &e));
	const Counts before = counts();
	// The pseudo-ACK echoes the answered packet, from the entry: of the
	// clone only the flow's key is read.
	const Bytes clone = seg_frame({ .id = static_cast<uint16_t>(get16(data, kEthLen + 4) + 1),
					.seq = 0x99887766 });
	const TestRun r = prog_run(skel_->progs.nsf_build, clone, RFX_PACK_MARK | 1);
	ASSERT_EQ(r.err, 0) << std::strerror(-r.err);
	// The verdict is the route's to the data's sender: bpf_redirect_neigh()
	// (TC_ACT_REDIRECT; BPF_PROG_TEST_RUN does not redirect), counted
	// built, where the test's namespace forwards on lo (the run's device)
	// and routes 198.51.100.1, else TC_ACT_SHOT (FWD_DISABLED, no route),
	// counted no_route: the usual case. Either way the frame was built,
	// and is returned.
	ASSERT_TRUE(r.ret == TC_ACT_REDIRECT || r.ret == TC_ACT_SHOT) << r.ret;
	EXPECT_EQ(counts(), plus(before, { { r.ret == TC_ACT_REDIRECT ? RFX_STAT_NSF_BUILT
								      : RFX_STAT_NSF_NO_ROUTE,
						1 } }));
	const Bytes &out = r.out;
	ASSERT_EQ(out.size(), kPackLen);
	EXPECT_EQ(Bytes(out.begin(), out.begin() + 12), Bytes(12, 0)); // MACs: redirect_neigh's
	EXPECT_EQ(get16(out, 12), ETH_P_IP);
	// IPv4
	EXPECT_EQ(out[kEthLen], 0x45);
	EXPECT_EQ(out[kEthLen + 1], 0xb8); // DSCP EF
	EXPECT_EQ(get16(out, kEthLen + 2), kPackLen - kEthLen);
	EXPECT_EQ(get16(out, kEthLen + 4), 0);
	EXPECT_EQ(get16(out, kEthLen + 6), kIpDf);
	EXPECT_EQ(out[kEthLen + 8], 64);
	EXPECT_EQ(out[kEthLen + 9], IPPROTO_UDP);
	EXPECT_EQ(get32(out, kEthLen + 12), kLanAddr);
	EXPECT_EQ(get32(out, kEthLen + 16), kSender);
	EXPECT_TRUE(ip_checksum_ok(out));
	// UDP
	EXPECT_EQ(get16(out, kL4), kPort);
	EXPECT_EQ(get16(out, kL4 + 2), kPort);
	EXPECT_EQ(get16(out, kL4 + 4), kUdpLen + sizeof(rfx_fb));
	EXPECT_EQ(get16(out, kL4 + 6), 0);
	// struct rfx_fb
	rfx_fb fb;
	std::memcpy(&fb, &out[kL4 + kUdpLen], sizeof(fb));
	const rfx_flow4 key = data_key();
	EXPECT_EQ(ntohs(fb.magic), RFX_MAGIC);
	EXPECT_EQ(fb.version, RFX_VERSION);
	EXPECT_EQ(fb.type, RFX_TYPE_NSF);
	EXPECT_EQ(fb.flags, RFX_F_NSF | RFX_F_FIRST);
	EXPECT_EQ(fb.k, kK);
	EXPECT_EQ(ntohs(fb.echo_ts16), get16(data, kEthLen + 4));
	EXPECT_EQ(fb.saddr, key.saddr);
	EXPECT_EQ(fb.daddr, key.daddr);
	EXPECT_EQ(fb.sport, key.sport);
	EXPECT_EQ(fb.dport, key.dport);
	EXPECT_EQ(ntohl(fb.data_seq), get32(data, kL4 + 4));
	EXPECT_EQ(ntohl(fb.t_src_ns), nsf_answer_of(&e, e.flow.fb_seq)->pack.t_src_ns);
	EXPECT_EQ(ntohl(fb.fb_seq), 1u);
	EXPECT_EQ(ntohs(fb.covered_pkts), 1u);
	EXPECT_EQ(fb.rsvd, 0);
	EXPECT_EQ(fb.echo_ts32, 0u);
	EXPECT_EQ(be64toh(fb.gw_time_ns), nsf_answer_of(&e, e.flow.fb_seq)->pack_ns);
}

// ---------------------------------------------------------------- rfx_fb

// The host's side (2.5) on a real connection: the pseudo-ACKs of the
// client's data land in its socket's mailbox.
class ReflexFb : public ReflexProg {
protected:
	void SetUp() override
	{
		ReflexProg::SetUp();
		if (IsSkipped() || HasFatalFailure())
			return;
		ASSERT_TRUE(conn_.open()) << std::strerror(errno);
		add_gateway(kGateway);
		make_mailbox(conn_.client);
	}

	// A pseudo-ACK of the client's data from the gateway.
	Bytes pack(uint32_t fb_seq, uint16_t covered, uint16_t echo)
	{
		return fb_frame(kGateway, fb_of(conn_.client_key(), fb_seq, covered, echo));
	}

	Conn conn_;
};

// A valid pseudo-ACK is a sample; the same fb_seq again is stale; one
// with an impossible echo advances fb_seq but is no sample; a later
// valid one is a sample of its own, its packets at least 1.
TEST_F(ReflexFb, AcceptsStaleAndBadRtt)
{
	const uint64_t t0 = mono_ns();
	const Bytes first = pack(1, 3, stamp_at(t0 - kRtt));
	feedback(first, TC_ACT_STOLEN);
	const uint64_t t1 = mono_ns();
	rfx_sk_state st = mailbox(conn_.client);
	expect_mailbox(st, 1, 1);
	expect_pend(st.pend[0], kRtt, 3, t0, t1, kUnit);
	EXPECT_EQ(counts(), plus(Counts(__RFX_STAT_MAX), { { RFX_STAT_FB_ACCEPTED, 1 } }));

	const rfx_sk_state accepted = st;
	feedback(first, TC_ACT_STOLEN);
	expect_mailbox(mailbox(conn_.client), 1, 1);
	EXPECT_EQ(stat(RFX_STAT_FB_STALE), 1u);

	// An echo a quarter period ahead: its age, modulo the period, is
	// three quarters of it, far above RTT_SRC_MAX (a quarter) whatever
	// the run takes.
	feedback(pack(2, 3, static_cast<uint16_t>((mono_ns() >> kK) + 16384)), TC_ACT_STOLEN);
	st = mailbox(conn_.client);
	expect_mailbox(st, 2, 1);
	EXPECT_EQ(stat(RFX_STAT_FB_BAD_RTT), 1u);
	EXPECT_EQ(std::memcmp(&st.pend[0], &accepted.pend[0], sizeof(st.pend[0])), 0);

	const uint64_t t2 = mono_ns();
	feedback(pack(3, 0, stamp_at(t2 - kRtt)), TC_ACT_STOLEN);
	const uint64_t t3 = mono_ns();
	st = mailbox(conn_.client);
	expect_mailbox(st, 3, 2);
	EXPECT_EQ(std::memcmp(&st.pend[0], &accepted.pend[0], sizeof(st.pend[0])), 0);
	expect_pend(st.pend[1], kRtt, 1, t2, t3, kUnit); // covered 0 acknowledges 1
	EXPECT_EQ(counts(), plus(Counts(__RFX_STAT_MAX), { { RFX_STAT_FB_ACCEPTED, 2 },
							  { RFX_STAT_FB_STALE, 1 },
							  { RFX_STAT_FB_BAD_RTT, 1 } }));
}

// Beyond RFX_PEND_MAX samples the CC has not taken, each folds into the
// last: its RTT the newest, its packets added, its time the first's.
TEST_F(ReflexFb, FoldsSamplesBeyondTheMailbox)
{
	std::vector<uint64_t> t(RFX_PEND_MAX + 3);
	for (uint32_t i = 0; i + 1 < t.size(); i++) {
		t[i] = mono_ns();
		feedback(pack(i + 1, i + 1, stamp_at(t[i] - kRtt * (i + 1))), TC_ACT_STOLEN);
	}
	t.back() = mono_ns();
	const rfx_sk_state st = mailbox(conn_.client);
	expect_mailbox(st, RFX_PEND_MAX + 2, RFX_PEND_MAX + 2);
	for (uint32_t i = 0; i + 1 < RFX_PEND_MAX; i++)
		expect_pend(st.pend[i], kRtt * (i + 1), i + 1, t[i], t[i + 1], kUnit);
	const rfx_pend &last = st.pend[RFX_PEND_MAX - 1];
	EXPECT_EQ(last.acked, RFX_PEND_MAX + (RFX_PEND_MAX + 1) + (RFX_PEND_MAX + 2));
	EXPECT_GE(last.rtt_ns, kRtt * (RFX_PEND_MAX + 2) - 2 * kUnit);
	EXPECT_LE(last.rtt_ns, kRtt * (RFX_PEND_MAX + 2) + (t.back() - t[RFX_PEND_MAX + 1]) + kUnit);
	EXPECT_GE(last.fb_ns, t[RFX_PEND_MAX - 1]);
	EXPECT_LE(last.fb_ns, t[RFX_PEND_MAX]);
	EXPECT_EQ(stat(RFX_STAT_FB_ACCEPTED), RFX_PEND_MAX + 2);
}

// A flow a CC records (rfx_flows) counts its pseudo-ACKs, and keeps the
// time its first came and the gateway's clock in the latest accepted
// one that opened an episode: where the loop of its next cut starts.
TEST_F(ReflexFb, RecordsTheEpisodeTheFlowIsIn)
{
	const rfx_flow4 key = conn_.client_key();
	const rfx_flow_info zero = {};
	ASSERT_EQ(bpf_map__update_elem(skel_->maps.rfx_flows, &key, sizeof(key), &zero,
				       sizeof(zero), BPF_NOEXIST),
		  0);
	auto send = [&](uint32_t fb_seq, uint8_t flags, uint64_t gw_time) {
		rfx_fb fb = fb_of(key, fb_seq, 1, stamp_at(mono_ns() - kRtt));
		fb.flags |= flags;
		fb.gw_time_ns = htobe64(gw_time);
		feedback(fb_frame(kGateway, fb), TC_ACT_STOLEN);
	};
	auto info = [&] {
		rfx_flow_info i = {};
		EXPECT_EQ(bpf_map__lookup_elem(skel_->maps.rfx_flows, &key, sizeof(key), &i,
					       sizeof(i), 0),
			  0);
		return i;
	};

	const uint64_t t0 = mono_ns();
	send(1, RFX_F_FIRST, 1000);
	const uint64_t t1 = mono_ns();
	send(2, 0, 2000);
	rfx_flow_info i = info();
	EXPECT_GE(i.first_fb_ns, t0);
	EXPECT_LE(i.first_fb_ns, t1);
	EXPECT_EQ(i.episode_ns, 1000u);
	EXPECT_EQ(i.fb_accepted, 2u);

	send(2, RFX_F_FIRST, 3000);	// stale: opens nothing
	EXPECT_EQ(info().episode_ns, 1000u);
	send(4, RFX_F_FIRST, 4000);
	i = info();
	EXPECT_EQ(i.episode_ns, 4000u);
	EXPECT_GE(i.first_fb_ns, t0);
	EXPECT_LE(i.first_fb_ns, t1);
	EXPECT_EQ(i.fb_accepted, 3u);
	EXPECT_EQ(i.fb_stale, 1u);
	EXPECT_EQ(i.loop_ns, 0u);	// the CC's, at its first cut
}

// To the port from no known gateway: not ours, the stack's.
TEST_F(ReflexFb, ForeignPseudoAckGoesToTheStack)
{
	const Bytes in = fb_frame(INADDR_LOOPBACK + 1,
				  fb_of(conn_.client_key(), 1, 3, stamp_at(mono_ns())));
	feedback(in, kPass);
	expect_mailbox(mailbox(conn_.client), 0, 0);
	EXPECT_EQ(counts(), plus(Counts(__RFX_STAT_MAX), { { RFX_STAT_FB_FOREIGN, 1 } }));
}

// From a gateway but no pseudo-ACK: dropped, counted, no sample.
TEST_F(ReflexFb, MalformedPseudoAckIsDropped)
{
	const rfx_fb good = fb_of(conn_.client_key(), 1, 3, aged(kRtt));
	std::vector<std::pair<std::string, Bytes>> frames;
	rfx_fb fb = good;
	fb.magic = htons(RFX_MAGIC + 1);
	frames.emplace_back("magic", fb_frame(kGateway, fb));
	fb = good;
	fb.version = RFX_VERSION + 1;
	frames.emplace_back("version", fb_frame(kGateway, fb));
	fb = good;
	fb.type = RFX_TYPE_NSF + 1;
	frames.emplace_back("type", fb_frame(kGateway, fb));
	fb = good;
	fb.k = kK + 1;
	frames.emplace_back("k", fb_frame(kGateway, fb));
	frames.emplace_back("udp length",
			    fb_frame(kGateway, good, kPort, kUdpLen + sizeof(rfx_fb) - 1));
	// Forged: a flow of this host whose sender the datagram is not
	// addressed to, or not from the gateway's port.
	fb = good;
	fb.saddr = htonl(INADDR_LOOPBACK + 1);
	frames.emplace_back("not to the data's sender", fb_frame(kGateway, fb));
	Bytes other_port = fb_frame(kGateway, good);
	put16(other_port, kL4, kPort + 1);
	frames.emplace_back("source port", other_port);
	for (const auto &[what, bytes] : frames) {
		SCOPED_TRACE(what);
		feedback(bytes, TC_ACT_STOLEN);
	}
	expect_mailbox(mailbox(conn_.client), 0, 0);
	EXPECT_EQ(counts(), plus(Counts(__RFX_STAT_MAX), { { RFX_STAT_FB_MALFORMED, 7 } }));
	// the same, well formed, is taken
	feedback(fb_frame(kGateway, good), TC_ACT_STOLEN);
	EXPECT_EQ(mailbox(conn_.client).pend_samples, 1u);
}

// A flow without a socket, or whose socket takes no samples (the
// server's, without a mailbox): dropped all the same, counted.
TEST_F(ReflexFb, NoSocketOrNoMailboxIsNoFlow)
{
	const uint16_t echo = aged(kRtt);
	rfx_flow4 other = conn_.client_key();
	other.dport = htons(static_cast<uint16_t>(ntohs(other.dport) + 1));
	feedback(fb_frame(kGateway, fb_of(other, 1, 3, echo)), TC_ACT_STOLEN);
	feedback(fb_frame(kGateway, fb_of(conn_.server_key(), 1, 3, echo)), TC_ACT_STOLEN);
	expect_mailbox(mailbox(conn_.client), 0, 0);
	EXPECT_EQ(counts(), plus(Counts(__RFX_STAT_MAX), { { RFX_STAT_FB_NO_FLOW, 2 } }));
}

// A pseudo-ACK cut short at every length: to the stack while its IP or
// UDP header is not whole; from a gateway to the port but no whole
// payload, malformed. No sample either way.
TEST_F(ReflexFb, TruncatedPseudoAcks)
{
	const Bytes whole = pack(1, 3, aged(kRtt));
	expect_cuts(skel_->progs.rfx_fb, whole, kL4, [](size_t len) {
		return len < kL4 + kUdpLen ? kPass : TC_ACT_STOLEN;
	});
	expect_mailbox(mailbox(conn_.client), 0, 0);
	EXPECT_EQ(counts(), plus(Counts(__RFX_STAT_MAX),
				 { { RFX_STAT_FB_MALFORMED, kPackLen - kL4 - kUdpLen } }));
}

// UDP to another port, and TCP, are the stack's, uncounted.
TEST_F(ReflexFb, OtherTrafficPasses)
{
	const rfx_fb fb = fb_of(conn_.client_key(), 1, 3, stamp_at(mono_ns()));
	feedback(fb_frame(kGateway, fb, kPort + 1), kPass);
	Bytes tcp = fb_frame(kGateway, fb);
	tcp[kEthLen + 9] = IPPROTO_TCP;
	feedback(tcp, kPass);
	feedback(seg_frame({}), kPass);
	expect_mailbox(mailbox(conn_.client), 0, 0);
	EXPECT_EQ(counts(), Counts(__RFX_STAT_MAX));
}

} // namespace
