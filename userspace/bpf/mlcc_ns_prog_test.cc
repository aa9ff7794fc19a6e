// SPDX-License-Identifier: GPL-2.0
//
// MLCC's near-source loop (bpf/mlcc_ns.bpf.c) in the running kernel: its
// libbpf skeleton loaded, each of its three tc programs run on synthetic
// Ethernet frames with BPF_PROG_TEST_RUN. mlcc_dci_egress's cleared
// option is checked byte by byte with the TCP checksum verified, at even
// and odd offsets among the options; mlcc_dci_build's Switch-INT field by
// field, its DCI stamp against the clock read around the run; and
// mlcc_host_swint's flow entry, made here zeroed as bpf_mlcc makes it at
// its socket's init (mlcc_ns_flows.h), against R_NS's law (hpcc_core.h)
// run here on the same records, every counter exactly: the first
// Switch-INT starts the law at the line rate, the next commits, once a
// round. Frames a program does not handle (no records, no option,
// malformed or forged ones, from an unknown DCI, about a flow without an
// entry, other protocols, fragments, truncated at every length) must
// pass, or be dropped, unharmed and change nothing: no entry is made or
// changed.
//
// Times: mlcc_dci_build stamps the Switch-INT with the low 32 bits of
// bpf_ktime_get_ns(), CLOCK_MONOTONIC, checked between the clock read
// before and after the run. mlcc_host_swint measures a flow's records
// only when they follow the last within half the ts counter's wrap (33.5
// ms), and commits once a round of T: the Switch-INTs of a test are taken
// within 33.5 ms, the one that must not commit within T = 100 ms of the
// last that did.
//
// Loading needs CAP_BPF and CAP_NET_ADMIN (root). Where the kernel
// refuses the load for want of privilege the tests are skipped with the
// reason.
#include <arpa/inet.h>
#include <endian.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <netinet/in.h>
#include <time.h>

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

#include "mlcc_ns.skel.h"
#include "uno_mlcc.h"
#include "prog_test.h"
// Last: core_user.h's names (BIT, likely) are the kernel's.
#include "core_types.h"
#include "hpcc_core.h"
#include "mlcc_types.h"

#include "frame_bytes.h"

namespace {

using namespace frame;
using namespace progtest;

constexpr uint32_t kSender = 0xc6336401;   // 198.51.100.1: the data's sender
constexpr uint32_t kReceiver = 0xcb007102; // 203.0.113.2, in the other DC
constexpr uint32_t kLanAddr = 0xc63364fe;  // 198.51.100.254: DCI_s, a sender's DCI
constexpr uint16_t kSrcPort = 40000;
constexpr uint16_t kDstPort = 5201;
constexpr uint16_t kPort = MLCC_SWINT_PORT;
constexpr size_t kL4 = kEthLen + kIp4Len;
constexpr size_t kOpts = kL4 + kTcpLen;		// a segment's TCP options
constexpr size_t kSwLen = kL4 + kUdpLen + sizeof(mlcc_swint); // 98
constexpr uint16_t kIpDf = 0x4000;
constexpr uint8_t kTcpOptEol = 0;
constexpr uint8_t kTcpOptNop = 1;
constexpr uint8_t kVtfX = MLCC_VTF(MLCC_TYPE_DATA, MLCC_F_CROSS);
// What DCI_r wrote into the option: the DCI_s must leave it.
constexpr uint8_t kCredit = 0x5a;
constexpr uint32_t kQc = 0x01020304;
// The ports and the sender's NIC at 5 GB/s (40 Gbit/s), rate code 8: 1
// ms of its line is 78125 units of 64 B, 1 ms 15625 units of 64 ns, so
// that a port's load over a round is exact.
constexpr uint64_t kLineRate = 5'000'000'000;
constexpr uint32_t kPortCode = 8;
constexpr uint64_t kMs = 1'000'000;
constexpr uint64_t kRoundNs = kMs;	// between a hop's records
constexpr uint32_t kRttNs = 1 * kMs;	// T of the law
// A port's load, bytes sent and queued in a round of kRoundNs.
struct Load {
	uint64_t tx;
	uint64_t qlen;
};
// u_j at T = 1 ms: 1.0; 0.8; 0.4 + 0.8 of the BDP queued (1.2, the
// largest); idle.
constexpr Load kLoads[MLCC_SWINT_HOPS] = {
	{ 5'000'000, 0 }, { 4'000'000, 0 }, { 2'000'000, 4'000'000 }, { 0, 0 }
};
// mlcc_ns.bpf.c's MLCC_PASS: what a program returns for a frame it
// leaves as it is, the next filter's or the stack's.
constexpr int kPass = TC_ACT_UNSPEC;

void put64(Bytes &b, size_t at, uint64_t v)
{
	put32(b, at, static_cast<uint32_t>(v >> 32));
	put32(b, at + 4, static_cast<uint32_t>(v));
}

// The record switch port j of the sender's DC stamped into a data option.
uint64_t data_hop(unsigned j)
{
	return hpcc_hop_wire(6400 * (j + 1), 64 * 5000 * (j + 1), 64 * 1000 * (j + 1), j + 3);
}

// The data option, n records (the high 4 bits of its nhop), DCI_r's
// credit and backlog. Every hop slot holds a record, those past n too:
// what a port left there is no record, and is no Switch-INT's.
Bytes data_opt(uint8_t vtf = kVtfX, unsigned n = MLCC_DATA_HOPS,
	       uint16_t exid = MLCC_OPT_EXID)
{
	Bytes o(MLCC_OPT_DATA_LEN, 0);
	o[0] = MLCC_OPT_KIND;
	o[1] = MLCC_OPT_DATA_LEN;
	put16(o, 2, exid);
	o[4] = vtf;
	o[5] = static_cast<uint8_t>(n << 4);
	o[6] = kCredit;
	put32(o, 8, kQc);
	for (unsigned j = 0; j < MLCC_DATA_HOPS; j++)
		put64(o, 12 + 8 * j, data_hop(j));
	return o;
}

// TCP options: those before, then opt, padded with EOL to 32 bits.
Bytes options(Bytes before, const Bytes &opt)
{
	before.insert(before.end(), opt.begin(), opt.end());
	before.resize((before.size() + 3) & ~size_t{ 3 }, kTcpOptEol);
	return before;
}

// An IPv4 segment from kSender:kSrcPort to kReceiver:kDstPort with its
// TCP options (for any protocol: the programs look at the number),
// `payload` bytes, both checksums right.
struct Seg {
	uint8_t proto = IPPROTO_TCP;
	uint16_t frag = kIpDf; // flags and fragment offset
	uint8_t flags = kTcpAck | kTcpPsh;
	size_t payload = 100;
	uint32_t seq = 0x11223344;
	Bytes opts = options({}, data_opt());
};

Bytes seg_frame(const Seg &s)
{
	const size_t tcp_len = kTcpLen + s.opts.size();
	Bytes b(kL4 + tcp_len + s.payload, 0);
	for (int i = 0; i < 6; i++) {
		b[i] = 0x02;	 // destination MAC
		b[6 + i] = 0x04; // source MAC
	}
	put16(b, 12, ETH_P_IP);
	b[kEthLen] = 0x45;
	put16(b, kEthLen + 2, static_cast<uint16_t>(kIp4Len + tcp_len + s.payload));
	put16(b, kEthLen + 4, 0x1234);
	put16(b, kEthLen + 6, s.frag);
	b[kEthLen + 8] = 64;
	b[kEthLen + 9] = s.proto;
	put32(b, kEthLen + 12, kSender);
	put32(b, kEthLen + 16, kReceiver);
	put16(b, kEthLen + 10, fold(sum16(b, kEthLen, kIp4Len)));
	put16(b, kL4, kSrcPort);
	put16(b, kL4 + 2, kDstPort);
	put32(b, kL4 + 4, s.seq);
	put32(b, kL4 + 8, 0x55667788); // ack
	b[kL4 + 12] = static_cast<uint8_t>(tcp_len / 4 << 4);
	b[kL4 + 13] = s.flags;
	put16(b, kL4 + 14, 0xffff); // window
	std::copy(s.opts.begin(), s.opts.end(), b.begin() + kOpts);
	for (size_t i = 0; i < s.payload; i++)
		b[kL4 + tcp_len + i] = static_cast<uint8_t>(0xa0 + i);
	put16(b, kL4 + 16, fold(sum16(b, kL4, b.size() - kL4, pseudo_sum(b))));
	return b;
}

// A data segment whose options are those before, then opt.
Bytes seg_opts(Bytes before, const Bytes &opt)
{
	return seg_frame({ .opts = options(std::move(before), opt) });
}

// Segment in with its option at off among the options cleared as
// mlcc_dci_egress must: no records, no O flag, every hop zero; the rest,
// DCI_r's credit and backlog too, as it was. The checksum is out's.
Bytes cleared(const Bytes &in, size_t off, const Bytes &out)
{
	Bytes b = in;
	const size_t at = kOpts + off;
	b[at + 4] &= static_cast<uint8_t>(~MLCC_F_OVERFLOW);
	b[at + 5] = 0;
	std::fill(b.begin() + static_cast<long>(at + 12),
		  b.begin() + static_cast<long>(at + MLCC_OPT_DATA_LEN), 0);
	put16(b, kL4 + 16, get16(out, kL4 + 16));
	return b;
}

// Port j's record at the end of round i of its load.
uint64_t host_hop(unsigned j, uint64_t i)
{
	return hpcc_hop_wire(kLoads[j].qlen, i * kLoads[j].tx, 64 * 1000 * (j + 1) + i * kRoundNs,
			     kPortCode);
}

// A Switch-INT's payload, network order, about flow key with the
// records of round i.
mlcc_swint swint_of(const mlcc_flow4 &key, uint64_t i)
{
	mlcc_swint sw = {};
	sw.magic = htons(MLCC_OPT_EXID);
	sw.vtf = MLCC_VTF(MLCC_TYPE_SWINT, 0);
	sw.nhop = MLCC_SWINT_HOPS;
	sw.saddr = key.saddr;
	sw.daddr = key.daddr;
	sw.sport = key.sport;
	sw.dport = key.dport;
	sw.seq_end = htonl(static_cast<uint32_t>(1000 + i));
	sw.ts_dci = htonl(0x89abcdef);
	for (unsigned j = 0; j < MLCC_SWINT_HOPS; j++)
		sw.hop[j] = htobe64(host_hop(j, i));
	return sw;
}

// A DCI's Switch-INT as a sender receives it: Ethernet, IPv4 from dci to
// the data's sender, UDP from sport to dport (udp_len in its header), sw.
Bytes swint_frame(uint32_t dci, const mlcc_swint &sw, uint16_t sport = kPort,
		  uint16_t dport = kPort, uint16_t udp_len = kUdpLen + sizeof(mlcc_swint))
{
	Bytes b(kSwLen, 0);
	for (int i = 0; i < 6; i++) {
		b[i] = 0x02;
		b[6 + i] = 0x06;
	}
	put16(b, 12, ETH_P_IP);
	b[kEthLen] = 0x45;
	b[kEthLen + 1] = 0xb8;
	put16(b, kEthLen + 2, static_cast<uint16_t>(kSwLen - kEthLen));
	put16(b, kEthLen + 6, kIpDf);
	b[kEthLen + 8] = 64;
	b[kEthLen + 9] = IPPROTO_UDP;
	put32(b, kEthLen + 12, dci);
	put32(b, kEthLen + 16, kSender);
	put16(b, kEthLen + 10, fold(sum16(b, kEthLen, kIp4Len)));
	put16(b, kL4, sport);
	put16(b, kL4 + 2, dport);
	put16(b, kL4 + 4, udp_len);
	std::memcpy(&b[kL4 + kUdpLen], &sw, sizeof(sw));
	return b;
}

mlcc_ns_cfg config()
{
	mlcc_ns_cfg c = {};
	c.lan_ifindex = 1; // lo, up in any namespace
	c.lan_addr = htonl(kLanAddr);
	c.line_rate = kLineRate;
	c.rtt_ns_ns = kRttNs;
	return c;
}

// R_NS's law as mlcc_host_swint runs it, on the records of the
// Switch-INTs it took, at the times it took them.
struct Law {
	hpcc_params hp;
	hpcc_state s = {};
	uint32_t t_ns;

	explicit Law(uint32_t t) : t_ns(t)
	{
		hpcc_params_default(&hp, kLineRate);
		hpcc_init(&s, &hp, hp.r_max);
	}

	void take(const mlcc_swint &sw, uint64_t now, bool commit)
	{
		hpcc_hop hops[MLCC_SWINT_HOPS] = {};
		for (unsigned j = 0; j < MLCC_SWINT_HOPS; j++)
			hpcc_hop_unwire(be64toh(sw.hop[j]), &hops[j]);
		if (hpcc_measure(&s, hops, sw.nhop, t_ns, now) == HPCC_MEASURED)
			hpcc_rate(&s, &hp, commit);
	}
};

void expect_state(const hpcc_state &got, const hpcc_state &want)
{
	EXPECT_EQ(got.rc, want.rc);
	EXPECT_EQ(got.r, want.r);
	EXPECT_EQ(got.last_ns, want.last_ns);
	EXPECT_EQ(got.u, want.u);
	EXPECT_EQ(got.inc_stage, want.inc_stage);
	EXPECT_EQ(got.nprev, want.nprev);
	EXPECT_EQ(got.round_mark, want.round_mark);
	for (unsigned j = 0; j < HPCC_MAXHOP; j++) {
		SCOPED_TRACE("prev " + std::to_string(j));
		EXPECT_EQ(got.prev[j].rate, want.prev[j].rate);
		EXPECT_EQ(got.prev[j].qlen, want.prev[j].qlen);
		EXPECT_EQ(got.prev[j].tx, want.prev[j].tx);
		EXPECT_EQ(got.prev[j].ts, want.prev[j].ts);
	}
}

class MlccNsProg : public ::testing::Test {
protected:
	void SetUp() override
	{
		skel_ = mlcc_ns__open();
		ASSERT_NE(skel_, nullptr) << std::strerror(errno);
		const int err = mlcc_ns__load(skel_);
		if (err == -EPERM || err == -EACCES)
			GTEST_SKIP() << "loading BPF programs: " << std::strerror(-err)
				     << " (needs root)";
		ASSERT_EQ(err, 0) << std::strerror(-err);
		ASSERT_EQ(bpf_map__value_size(skel_->maps.mlcc_ns_flows), sizeof(mlcc_ns_entry));
		configure(config());
		add_dci(kLanAddr);
	}

	void TearDown() override { mlcc_ns__destroy(skel_); }

	void configure(const mlcc_ns_cfg &c)
	{
		map_put(skel_->maps.mlcc_ns_cfg, uint32_t{ 0 }, c);
	}

	void add_dci(uint32_t addr)
	{
		map_put(skel_->maps.mlcc_dcis, htonl(addr), uint8_t{ 1 });
	}

	Counts counts() { return percpu_counts(skel_->maps.mlcc_ns_stats, __MLCC_NS_STAT_MAX); }

	// The flow's near-source entry, if it has one.
	bool entry(const mlcc_flow4 &key, mlcc_ns_entry *e)
	{
		return map_get(skel_->maps.mlcc_ns_flows, key, e);
	}

	size_t ns_flows() { return map_keys<mlcc_flow4>(skel_->maps.mlcc_ns_flows); }

	mlcc_ns *skel_ = nullptr;
};

// ------------------------------------------------------- mlcc_dci_egress

// A cross-DC data segment with records leaves without them, wherever its
// option lies among the others: no records, no O flag, the hops zero,
// DCI_r's credit and every other byte as it came, and the TCP checksum
// right. At an odd offset the change's sum is rotated a byte. Its clone
// went to lo's ingress (where IP drops it: its MAC is not lo's), no
// error.
TEST_F(MlccNsProg, DciEgressClearsTheRecords)
{
	const uint8_t mss[] = { 2, 4, 0x05, 0xb4 };
	const struct {
		const char *what;
		Bytes before;
		Bytes opt;
	} cases[] = {
		{ "first, O", {}, data_opt(kVtfX | MLCC_F_OVERFLOW) },
		{ "after a NOP: odd", { kTcpOptNop }, data_opt(kVtfX, 3) },
		{ "after two NOPs", { kTcpOptNop, kTcpOptNop }, data_opt(kVtfX, 2) },
		{ "after three NOPs: odd, O", { kTcpOptNop, kTcpOptNop, kTcpOptNop },
		  data_opt(kVtfX | MLCC_F_OVERFLOW, 1) },
		{ "after an MSS option", Bytes(mss, mss + sizeof(mss)), data_opt() },
	};
	for (const auto &c : cases) {
		SCOPED_TRACE(c.what);
		for (size_t payload : { 100, 101 }) {
			SCOPED_TRACE("payload " + std::to_string(payload));
			const Bytes in = seg_frame({ .payload = payload,
						     .opts = options(c.before, c.opt) });
			const Counts before = counts();
			const Bytes out = run(skel_->progs.mlcc_dci_egress, in, kPass);
			ASSERT_EQ(out.size(), in.size());
			EXPECT_EQ(out, cleared(in, c.before.size(), out));
			EXPECT_TRUE(l4_checksum_ok(out));
			EXPECT_EQ(counts(), plus(before, { { MLCC_NS_STAT_DCI_DATA, 1 },
							   { MLCC_NS_STAT_DCI_CLEARED, 1 } }));
		}
	}
}

// A LAN port that does not exist: bpf_clone_redirect() fails (EINVAL),
// counted; the records are cleared all the same.
TEST_F(MlccNsProg, DciEgressCountsAFailedClone)
{
	mlcc_ns_cfg c = config();
	c.lan_ifindex = 0x7fffffff;
	configure(c);
	const Bytes in = seg_frame({});
	const Bytes out = run(skel_->progs.mlcc_dci_egress, in, kPass);
	EXPECT_EQ(out, cleared(in, 0, out));
	EXPECT_TRUE(l4_checksum_ok(out));
	EXPECT_EQ(counts(), plus(Counts(__MLCC_NS_STAT_MAX), { { MLCC_NS_STAT_DCI_DATA, 1 },
							      { MLCC_NS_STAT_DCI_CLONE_ERR, 1 },
							      { MLCC_NS_STAT_DCI_CLEARED, 1 } }));
}

// What is not a whole cross-DC data segment whose option holds records
// leaves as it came, counted nowhere: every frame below, and a data
// segment cut short at every length.
TEST_F(MlccNsProg, DciEgressLeavesOtherFramesAlone)
{
	std::vector<std::pair<std::string, Bytes>> frames;
	frames.emplace_back("no X", seg_opts({}, data_opt(MLCC_VTF(MLCC_TYPE_DATA, 0))));
	frames.emplace_back("no records", seg_opts({}, data_opt(kVtfX, 0)));
	frames.emplace_back("pure ack", seg_frame({ .flags = kTcpAck, .payload = 0 }));
	frames.emplace_back("no option", seg_frame({ .opts = {} }));
	frames.emplace_back("other ExID", seg_opts({}, data_opt(kVtfX, 3, 0x4d4d)));
	frames.emplace_back("version 2", seg_opts({}, data_opt(2 << 6 | MLCC_F_CROSS)));
	frames.emplace_back("ack type",
			    seg_opts({}, data_opt(MLCC_VTF(MLCC_TYPE_ACK_X, MLCC_F_CROSS))));
	Bytes short_opt = data_opt();
	short_opt[1] = MLCC_OPT_DATA_LEN - 1;
	frames.emplace_back("option length 35", seg_opts({}, short_opt));
	// The walk stops at an option shorter than its kind and length, and
	// at the end of the list.
	frames.emplace_back("length 0 before it", seg_opts({ 8, 0 }, data_opt()));
	frames.emplace_back("length 1 before it", seg_opts({ 8, 1 }, data_opt()));
	frames.emplace_back("EOL before it", seg_opts({ kTcpOptEol, kTcpOptNop }, data_opt()));
	// Options of 36 bytes whose option, after two NOPs, runs on into the
	// payload.
	Bytes past = options({ kTcpOptNop, kTcpOptNop }, data_opt());
	past.resize(MLCC_OPT_DATA_LEN);
	frames.emplace_back("option past the header", seg_frame({ .opts = past }));
	frames.emplace_back("udp", seg_frame({ .proto = IPPROTO_UDP }));
	frames.emplace_back("later fragment", seg_frame({ .frag = 0x00b9 }));
	frames.emplace_back("first fragment", seg_frame({ .frag = 0x2000 }));
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
		EXPECT_EQ(run(skel_->progs.mlcc_dci_egress, bytes, kPass), bytes);
	}
	expect_cuts(skel_->progs.mlcc_dci_egress, seg_frame({}), kL4, [](size_t) { return kPass; });
	EXPECT_EQ(counts(), Counts(__MLCC_NS_STAT_MAX));
}

// -------------------------------------------------------- mlcc_dci_build

// mlcc_dci_build takes only the clones mlcc_dci_egress marked.
TEST_F(MlccNsProg, DciBuildPassesUnmarkedFrames)
{
	const Bytes in = seg_frame({});
	EXPECT_EQ(run(skel_->progs.mlcc_dci_build, in, kPass), in);
	EXPECT_EQ(run(skel_->progs.mlcc_dci_build, in, kPass, MLCC_SWINT_MARK - 1), in);
	EXPECT_EQ(run(skel_->progs.mlcc_dci_build, in, kPass, 0xffff0000), in);
	EXPECT_EQ(counts(), Counts(__MLCC_NS_STAT_MAX));
}

// The marked clone becomes its Switch-INT (3.3, 3.8): 98 bytes from the
// DCI's LAN address to the data's sender, every field as the segment
// says, its first nhop records and nothing past them; a segment of one
// byte of data (91) grows to it. The verdict is the DCI's route to the
// sender: on lo, the run's device, 198.51.100.1 has none (lo does not
// forward by default, FWD_DISABLED; where it does, no route to it leaves
// by lo, NOT_FWDED), so the Switch-INT is dropped, counted no_route; the
// frame was built, and is returned.
TEST_F(MlccNsProg, DciBuildMakesTheSwitchInt)
{
	for (size_t payload : { 100, 1 }) {
		SCOPED_TRACE("payload " + std::to_string(payload));
		// the sequence wraps within 100 bytes; nhop 2 of 3 slots filled
		const Bytes data = seg_frame({ .payload = payload, .seq = 0xffffffa0,
					       .opts = options({}, data_opt(kVtfX, 2)) });
		const Counts c = counts();
		const uint32_t before = static_cast<uint32_t>(mono_ns());
		const Bytes out = run(skel_->progs.mlcc_dci_build, data, TC_ACT_SHOT,
				      MLCC_SWINT_MARK);
		const uint32_t after = static_cast<uint32_t>(mono_ns());
		EXPECT_EQ(counts(), plus(c, { { MLCC_NS_STAT_SWINT_NO_ROUTE, 1 } }));
		ASSERT_EQ(out.size(), kSwLen);
		// MACs: redirect_neigh's
		EXPECT_EQ(Bytes(out.begin(), out.begin() + 12), Bytes(12, 0));
		EXPECT_EQ(get16(out, 12), ETH_P_IP);
		// IPv4
		EXPECT_EQ(out[kEthLen], 0x45);
		EXPECT_EQ(out[kEthLen + 1], 0xb8); // DSCP EF
		EXPECT_EQ(get16(out, kEthLen + 2), kSwLen - kEthLen);
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
		EXPECT_EQ(get16(out, kL4 + 4), kUdpLen + sizeof(mlcc_swint));
		EXPECT_EQ(get16(out, kL4 + 6), 0);
		// struct mlcc_swint
		mlcc_swint sw;
		std::memcpy(&sw, &out[kL4 + kUdpLen], sizeof(sw));
		EXPECT_EQ(ntohs(sw.magic), MLCC_OPT_EXID);
		EXPECT_EQ(sw.vtf, MLCC_VTF(MLCC_TYPE_SWINT, 0));
		EXPECT_EQ(sw.nhop, 2);
		EXPECT_EQ(ntohl(sw.saddr), kSender);
		EXPECT_EQ(ntohl(sw.daddr), kReceiver);
		EXPECT_EQ(ntohs(sw.sport), kSrcPort);
		EXPECT_EQ(ntohs(sw.dport), kDstPort);
		EXPECT_EQ(ntohl(sw.seq_end), static_cast<uint32_t>(0xffffffa0 + payload));
		// the clock's low 32 bits, which may wrap in the run
		const uint32_t ts = ntohl(sw.ts_dci);
		EXPECT_LE(ts - before, after - before) << "ts " << ts << " before " << before
						       << " after " << after;
		EXPECT_EQ(be64toh(sw.hop[0]), data_hop(0));
		EXPECT_EQ(be64toh(sw.hop[1]), data_hop(1));
		EXPECT_EQ(sw.hop[2], 0u);
		EXPECT_EQ(sw.hop[3], 0u);
	}
}

// An option that claims more records than its three slots gives the
// Switch-INT the three.
TEST_F(MlccNsProg, DciBuildTakesAtMostThreeRecords)
{
	const Bytes data = seg_opts({}, data_opt(kVtfX, 5));
	const Bytes out = run(skel_->progs.mlcc_dci_build, data, TC_ACT_SHOT, MLCC_SWINT_MARK);
	ASSERT_EQ(out.size(), kSwLen);
	mlcc_swint sw;
	std::memcpy(&sw, &out[kL4 + kUdpLen], sizeof(sw));
	EXPECT_EQ(sw.nhop, MLCC_DATA_HOPS);
	for (unsigned j = 0; j < MLCC_DATA_HOPS; j++)
		EXPECT_EQ(be64toh(sw.hop[j]), data_hop(j));
	EXPECT_EQ(sw.hop[3], 0u);
}

// A marked clone that is no segment with records (the egress program
// marks no other) cannot be made a Switch-INT: dropped as it came,
// counted; so is one cut short at every length.
TEST_F(MlccNsProg, DciBuildDropsWhatIsNoSegmentWithRecords)
{
	const Bytes frames[] = {
		seg_opts({}, data_opt(kVtfX, 0)),
		seg_frame({ .flags = kTcpAck, .payload = 0 }),
		seg_frame({ .proto = IPPROTO_UDP }),
	};
	for (const Bytes &in : frames)
		EXPECT_EQ(run(skel_->progs.mlcc_dci_build, in, TC_ACT_SHOT, MLCC_SWINT_MARK), in);
	const Bytes whole = seg_frame({});
	expect_cuts(skel_->progs.mlcc_dci_build, whole, kL4, [](size_t) { return TC_ACT_SHOT; },
		    MLCC_SWINT_MARK);
	EXPECT_EQ(counts(), plus(Counts(__MLCC_NS_STAT_MAX),
				 { { MLCC_NS_STAT_SWINT_BUILD_ERR, 3 + whole.size() - kL4 } }));
}

// ------------------------------------------------------- mlcc_host_swint

// The data's flow, kSender:kSrcPort to kReceiver:kDstPort (the sender's
// view, network order).
mlcc_flow4 data_flow()
{
	return { htonl(kSender), htonl(kReceiver), htons(kSrcPort), htons(kDstPort) };
}

// The sender's side: the Switch-INTs about the data's flow, from DCI_s,
// its entry made as bpf_mlcc makes it.
class MlccNsHost : public MlccNsProg {
protected:
	void SetUp() override
	{
		MlccNsProg::SetUp();
		if (IsSkipped() || HasFatalFailure())
			return;
		ASSERT_EQ(hpcc_bcode_rates[kPortCode], kLineRate);
		add_flow(data_flow());
	}

	// The flow's entry as bpf_mlcc's init makes it (mlcc_cc.bpf.c):
	// zeroed, no law yet.
	void add_flow(const mlcc_flow4 &key)
	{
		map_put(skel_->maps.mlcc_ns_flows, key, mlcc_ns_entry{}, BPF_NOEXIST);
	}

	// The data's flow's entry, as add_flow() made it, and the only one.
	void expect_untouched()
	{
		mlcc_ns_entry e = {};
		const mlcc_ns_entry fresh = {};
		ASSERT_TRUE(entry(data_flow(), &e));
		EXPECT_EQ(std::memcmp(&e, &fresh, sizeof(e)), 0);
		EXPECT_EQ(ns_flows(), 1u);
	}

	// A Switch-INT through mlcc_host_swint, which leaves it as it came.
	void take(const Bytes &in, int want_ret)
	{
		EXPECT_EQ(run(skel_->progs.mlcc_host_swint, in, want_ret), in);
	}

	// The data's flow's Switch-INT of round i, taken; its entry after.
	mlcc_ns_entry take_round(uint64_t i)
	{
		take(swint_frame(kLanAddr, swint_of(data_flow(), i)), TC_ACT_SHOT);
		mlcc_ns_entry e = {};
		EXPECT_TRUE(entry(data_flow(), &e));
		return e;
	}
};

// The first Switch-INT of a flow starts its law at the line rate (3.3)
// and only primes it: no U, no commit, R_NS = R_line. The records are
// kept, and the frame never reaches TCP.
TEST_F(MlccNsHost, FirstSwitchIntPrimesTheFlow)
{
	expect_untouched();
	const uint64_t t0 = mono_ns();
	const mlcc_ns_entry e = take_round(0);
	const uint64_t t1 = mono_ns();
	const mlcc_swint sw = swint_of(data_flow(), 0);
	EXPECT_EQ(e.info.taken, 1u);
	EXPECT_EQ(e.info.commits, 0u);
	EXPECT_EQ(e.info.r_ns, kLineRate);
	EXPECT_EQ(e.info.r_line, kLineRate);
	EXPECT_GE(e.info.last_ns, t0);
	EXPECT_LE(e.info.last_ns, t1);
	EXPECT_EQ(e.info.u, 0u);
	EXPECT_EQ(e.info.nhop, MLCC_SWINT_HOPS);
	for (unsigned j = 0; j < MLCC_SWINT_HOPS; j++)
		EXPECT_EQ(e.info.hop[j], be64toh(sw.hop[j]));
	EXPECT_EQ(e.round_ns, 0u);
	Law law(kRttNs);
	law.take(sw, e.info.last_ns, false);
	expect_state(e.ns, law.s);
	EXPECT_EQ(ns_flows(), 1u);
	EXPECT_EQ(counts(), plus(Counts(__MLCC_NS_STAT_MAX), { { MLCC_NS_STAT_SWINT_TAKEN, 1 } }));
}

// The next Switch-INT, a round of the ports' clocks later, measures: U
// is the most loaded hop's (hop 2's 0.4 + 0.8, floored in Q16.16), its
// interval a whole T; R_NS = R_line eta / U + R_AI. The first measured
// one commits (a round's start is 0), and a round starts at it.
TEST_F(MlccNsHost, SecondSwitchIntCommitsTheRate)
{
	Law law(kRttNs);
	const mlcc_ns_entry first = take_round(0);
	law.take(swint_of(data_flow(), 0), first.info.last_ns, false);
	const mlcc_ns_entry e = take_round(1);
	law.take(swint_of(data_flow(), 1), e.info.last_ns, true);
	EXPECT_EQ(law.s.u, 26214u + 52428u);
	EXPECT_EQ(law.s.r, kLineRate * HPCC_DEF_ETA / law.s.u + kLineRate / HPCC_DEF_AI_DIV);
	EXPECT_EQ(e.info.taken, 2u);
	EXPECT_EQ(e.info.commits, 1u);
	EXPECT_EQ(e.info.u, law.s.u);
	EXPECT_EQ(e.info.r_ns, law.s.r);
	EXPECT_EQ(e.info.r_line, kLineRate);
	EXPECT_GE(e.info.last_ns, first.info.last_ns);
	EXPECT_EQ(e.round_ns, e.info.last_ns);
	for (unsigned j = 0; j < MLCC_SWINT_HOPS; j++)
		EXPECT_EQ(e.info.hop[j], host_hop(j, 1));
	expect_state(e.ns, law.s);
	EXPECT_EQ(counts(), plus(Counts(__MLCC_NS_STAT_MAX), { { MLCC_NS_STAT_SWINT_TAKEN, 2 } }));
}

// One commit a round: with T 100 ms, the Switch-INT after the committing
// one (1 ms of the ports' clocks later, a hundredth of T: U far below
// eta, the rate an additive step above R_line, clamped to it) gives a
// rate but keeps the reference, the stage (a commit would make it 2) and
// the round; each is the law's on the same records.
TEST_F(MlccNsHost, OneCommitARound)
{
	constexpr uint32_t kLongT = 100 * kMs;
	mlcc_ns_cfg c = config();
	c.rtt_ns_ns = kLongT;
	configure(c);
	Law law(kLongT);
	const mlcc_ns_entry e0 = take_round(0);
	law.take(swint_of(data_flow(), 0), e0.info.last_ns, false);
	const mlcc_ns_entry e1 = take_round(1);
	law.take(swint_of(data_flow(), 1), e1.info.last_ns, true);
	EXPECT_EQ(e1.info.commits, 1u);
	EXPECT_EQ(e1.round_ns, e1.info.last_ns);
	expect_state(e1.ns, law.s);
	const mlcc_ns_entry e2 = take_round(2);
	law.take(swint_of(data_flow(), 2), e2.info.last_ns, false);
	EXPECT_EQ(e2.info.taken, 3u);
	EXPECT_EQ(e2.info.commits, 1u);
	EXPECT_EQ(e2.round_ns, e1.round_ns);
	EXPECT_EQ(e2.info.u, law.s.u);
	EXPECT_EQ(e2.info.r_ns, law.s.r);
	EXPECT_EQ(e2.ns.rc, e1.ns.rc);
	EXPECT_EQ(e2.ns.inc_stage, 1u);
	expect_state(e2.ns, law.s);
	EXPECT_EQ(counts(), plus(Counts(__MLCC_NS_STAT_MAX), { { MLCC_NS_STAT_SWINT_TAKEN, 3 } }));
}

// To the port from no known DCI: not ours, the stack's.
TEST_F(MlccNsHost, ForeignSwitchIntGoesToTheStack)
{
	take(swint_frame(kLanAddr + 1, swint_of(data_flow(), 0)), kPass);
	expect_untouched();
	EXPECT_EQ(counts(),
		  plus(Counts(__MLCC_NS_STAT_MAX), { { MLCC_NS_STAT_SWINT_FOREIGN, 1 } }));
}

// From the DCI but no Switch-INT: dropped, counted, the entry untouched.
TEST_F(MlccNsHost, MalformedSwitchIntIsDropped)
{
	const mlcc_swint good = swint_of(data_flow(), 0);
	std::vector<std::pair<std::string, Bytes>> frames;
	mlcc_swint sw = good;
	sw.magic = htons(MLCC_OPT_EXID + 1);
	frames.emplace_back("magic", swint_frame(kLanAddr, sw));
	sw = good;
	sw.vtf = MLCC_VTF(MLCC_TYPE_DATA, 0);
	frames.emplace_back("type", swint_frame(kLanAddr, sw));
	sw = good;
	sw.vtf = MLCC_VTF(MLCC_TYPE_SWINT, MLCC_F_CROSS);
	frames.emplace_back("flags", swint_frame(kLanAddr, sw));
	sw = good;
	sw.nhop = 0;
	frames.emplace_back("no record", swint_frame(kLanAddr, sw));
	sw = good;
	sw.nhop = MLCC_SWINT_HOPS + 1;
	frames.emplace_back("five records", swint_frame(kLanAddr, sw));
	frames.emplace_back("udp length", swint_frame(kLanAddr, good, kPort, kPort,
						      kUdpLen + sizeof(mlcc_swint) - 1));
	// Forged: a flow whose sender the datagram is not addressed to, or
	// not from the DCI's port.
	sw = good;
	sw.saddr = htonl(kSender + 1);
	frames.emplace_back("not to the data's sender", swint_frame(kLanAddr, sw));
	frames.emplace_back("source port", swint_frame(kLanAddr, good, kPort + 1));
	for (const auto &[what, bytes] : frames) {
		SCOPED_TRACE(what);
		take(bytes, TC_ACT_SHOT);
	}
	expect_untouched();
	EXPECT_EQ(counts(), plus(Counts(__MLCC_NS_STAT_MAX),
				 { { MLCC_NS_STAT_SWINT_MALFORMED, frames.size() } }));
	// the same, well formed, is taken
	EXPECT_EQ(take_round(0).info.taken, 1u);
}

// A Switch-INT cut short at every length: to the stack while its IP or
// UDP header is not whole; from the DCI to the port but no whole
// payload, malformed. The entry untouched either way.
TEST_F(MlccNsHost, TruncatedSwitchInts)
{
	expect_cuts(skel_->progs.mlcc_host_swint, swint_frame(kLanAddr, swint_of(data_flow(), 0)),
		    kL4, [](size_t len) { return len < kL4 + kUdpLen ? kPass : TC_ACT_SHOT; });
	expect_untouched();
	EXPECT_EQ(counts(), plus(Counts(__MLCC_NS_STAT_MAX),
				 { { MLCC_NS_STAT_SWINT_MALFORMED, kSwLen - kL4 - kUdpLen } }));
}

// About a flow without an entry (of another CC, or whose socket is
// gone): dropped all the same, counted; the program makes none.
TEST_F(MlccNsHost, NoEntryIsNoFlow)
{
	mlcc_flow4 other = data_flow();
	other.dport = htons(kDstPort + 1);
	take(swint_frame(kLanAddr, swint_of(other, 0)), TC_ACT_SHOT);
	mlcc_ns_entry e;
	EXPECT_FALSE(entry(other, &e));
	expect_untouched();
	EXPECT_EQ(counts(),
		  plus(Counts(__MLCC_NS_STAT_MAX), { { MLCC_NS_STAT_SWINT_NO_FLOW, 1 } }));
}

// UDP to another port, TCP, and fragments are the stack's, uncounted.
TEST_F(MlccNsHost, OtherTrafficPasses)
{
	const mlcc_swint sw = swint_of(data_flow(), 0);
	take(swint_frame(kLanAddr, sw, kPort, kPort + 1), kPass);
	Bytes tcp = swint_frame(kLanAddr, sw);
	tcp[kEthLen + 9] = IPPROTO_TCP;
	take(tcp, kPass);
	Bytes frag = swint_frame(kLanAddr, sw);
	put16(frag, kEthLen + 6, 0x00b9);
	take(frag, kPass);
	take(seg_frame({}), kPass);
	expect_untouched();
	EXPECT_EQ(counts(), Counts(__MLCC_NS_STAT_MAX));
}

// ------------------------------------------- mlcc_pfq_egress, mlcc_pfq_ack

// DCI_r's R_init: 500 kbit/s, so that a segment's turn (3 ms for the
// 190-byte frame) outlasts two runs of a test, and a queue's departures
// follow from its rate exactly.
constexpr uint64_t kInit = 62500;
// R_min of the credit law: R_init / 250, this line being slower than the
// floor hpcc_r_min() keeps above faster ones
constexpr uint64_t kInitMin = kInit / HPCC_DEF_MIN_DIV;
static_assert(kInit < HPCC_MEASURABLE_RATE);

// The receiver's ACK_X: its credit, R_credit and R_DQM_bar in kbit/s.
Bytes ack_x_opt(uint8_t c_r, uint32_t r_credit_kbps, uint32_t r_dqm_bar_kbps = 1000,
		uint8_t type = MLCC_TYPE_ACK_X)
{
	Bytes o(MLCC_OPT_ACK_X_LEN, 0);
	o[0] = MLCC_OPT_KIND;
	o[1] = MLCC_OPT_ACK_X_LEN;
	put16(o, 2, MLCC_OPT_EXID);
	o[4] = MLCC_VTF(type, 0);
	o[5] = c_r;
	put32(o, 8, r_credit_kbps);
	put32(o, 12, r_dqm_bar_kbps);
	return o;
}

// A pure ACK of the data's flow, from the receiver, with options opts.
// Swapping the addresses and the ports leaves both checksums right.
Bytes ack_frame(const Bytes &opts)
{
	Bytes b = seg_frame({ .flags = kTcpAck, .payload = 0, .opts = opts });
	for (size_t i = 0; i < 4; i++)
		std::swap(b[kEthLen + 12 + i], b[kEthLen + 16 + i]);
	for (size_t i = 0; i < 2; i++)
		std::swap(b[kL4 + i], b[kL4 + 2 + i]);
	return b;
}

// Segment in with its option at off stamped as mlcc_pfq_egress must: the
// D flag, no O flag, no records, DCI_r's credit c_d and backlog q_c.
Bytes stamped(const Bytes &in, size_t off, uint8_t c_d, uint32_t q_c, const Bytes &out)
{
	Bytes b = cleared(in, off, out);
	const size_t at = kOpts + off;
	b[at + 4] |= MLCC_F_DCI_R;
	b[at + 6] = c_d;
	put32(b, at + 8, q_c);
	return b;
}

// DCI_r's LAN port: the data's flow's queue, timed and stamped on egress,
// its ACKs on ingress.
class MlccPfq : public MlccNsProg {
protected:
	void SetUp() override
	{
		MlccNsProg::SetUp();
		if (IsSkipped() || HasFatalFailure())
			return;
		mlcc_ns_cfg c = {};
		c.line_rate = kInit;
		configure(c);
	}

	// A run of mlcc_pfq_egress: the frame it left, and its skb's tstamp.
	Bytes egress(const Bytes &in, uint64_t *tstamp)
	{
		Bytes out(in.size() + 256);
		__sk_buff ctx = {};
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = in.data(), .data_out = out.data(),
			    .data_size_in = static_cast<uint32_t>(in.size()),
			    .data_size_out = static_cast<uint32_t>(out.size()), .ctx_in = &ctx,
			    .ctx_out = &ctx, .ctx_size_in = sizeof(ctx), .ctx_size_out = sizeof(ctx),
			    .repeat = 1);
		const int err = bpf_prog_test_run_opts(
			bpf_program__fd(skel_->progs.mlcc_pfq_egress), &opts);
		EXPECT_EQ(err, 0) << std::strerror(-err);
		EXPECT_EQ(static_cast<int>(opts.retval), kPass);
		out.resize(err ? 0 : opts.data_size_out);
		*tstamp = ctx.tstamp;
		return out;
	}

	// An ACK through mlcc_pfq_ack, which leaves it as it came.
	void ack(const Bytes &in) { EXPECT_EQ(run(skel_->progs.mlcc_pfq_ack, in, kPass), in); }

	bool queue(mlcc_pfq_info *q)
	{
		mlcc_pfq_entry e;
		if (!map_get(skel_->maps.mlcc_pfq, data_flow(), &e))
			return false;
		*q = e.info;
		return true;
	}

	size_t queues() { return map_keys<mlcc_flow4>(skel_->maps.mlcc_pfq); }
};

// A flow's first segment makes its queue at R_init and leaves at once:
// no backlog ahead, no credit learnt yet. Its option is DCI_r's, wherever
// it lies among the others, its checksum right; the queue's next turn is
// one segment's time at R_init later.
TEST_F(MlccPfq, FirstSegmentMakesTheQueue)
{
	for (size_t before : { 0, 1, 3 }) {
		SCOPED_TRACE("NOPs before it: " + std::to_string(before));
		const mlcc_flow4 key = data_flow();
		bpf_map_delete_elem(bpf_map__fd(skel_->maps.mlcc_pfq), &key);
		const Bytes in = seg_frame({ .opts = options(Bytes(before, kTcpOptNop),
							     data_opt(kVtfX | MLCC_F_OVERFLOW)) });
		const Counts was = counts();
		uint64_t t = 0;
		const uint64_t t0 = mono_ns();
		const Bytes out = egress(in, &t);
		const uint64_t t1 = mono_ns();
		EXPECT_EQ(out, stamped(in, before, 0, 0, out));
		EXPECT_TRUE(l4_checksum_ok(out));
		EXPECT_GE(t, t0);
		EXPECT_LE(t, t1);
		mlcc_pfq_info q = {};
		ASSERT_TRUE(queue(&q));
		EXPECT_EQ(q.rate, kInit);
		EXPECT_EQ(q.next_tx_ns, t + in.size() * 1'000'000'000 / kInit);
		EXPECT_EQ(q.pkts, 1u);
		EXPECT_EQ(q.bytes, in.size());
		EXPECT_EQ(q.q_c, 0u);
		EXPECT_EQ(q.c_d, 0u);
		EXPECT_EQ(counts(), plus(was, { { MLCC_NS_STAT_PFQ_DATA, 1 } }));
	}
}

// The next segment waits its turn behind the first: it leaves at the
// queue's next turn, and carries the backlog ahead of it, the first
// segment less what left of it since (Q_c, at the queue's rate).
TEST_F(MlccPfq, SegmentsQueueAtTheRate)
{
	const Bytes in = seg_frame({});
	const uint64_t turn = in.size() * 1'000'000'000 / kInit;
	uint64_t t1 = 0, t2 = 0;
	egress(in, &t1);
	const uint64_t now = mono_ns();
	const Bytes out = egress(in, &t2);
	EXPECT_EQ(t2, t1 + turn);
	mlcc_pfq_info q = {};
	ASSERT_TRUE(queue(&q));
	EXPECT_EQ(q.next_tx_ns, t1 + 2 * turn);
	// Q_c = (t2 - now') rate, now' in [now, now + turn)
	EXPECT_LE(q.q_c, (t2 - now) * kInit / 1'000'000'000);
	EXPECT_GE(q.q_c, in.size() / 2);
	EXPECT_EQ(out, stamped(in, 0, 0, static_cast<uint32_t>(q.q_c), out));
	EXPECT_TRUE(l4_checksum_ok(out));
	EXPECT_EQ(q.pkts, 2u);
}

// An ACK_X sets the queue's rate to R_credit and its credit to C_R when
// newer (serial arithmetic), which the next segment carries as C_D. The
// ACK goes on as it came. R_credit is held in [R_min, R_init]. An option
// of another experiment (ExID) is walked past.
TEST_F(MlccPfq, AckSetsRateAndCredit)
{
	const Bytes in = seg_frame({});
	uint64_t t = 0;
	egress(in, &t);
	const Counts was = counts();
	ack(ack_frame(options({}, ack_x_opt(5, 80))));
	mlcc_pfq_info q = {};
	ASSERT_TRUE(queue(&q));
	EXPECT_EQ(q.c_d, 5u);
	EXPECT_EQ(q.rate, 80u * 125);
	EXPECT_EQ(q.acks, 1u);
	ack(ack_frame(options({ kTcpOptNop }, ack_x_opt(4, 60)))); // older credit, new rate
	ASSERT_TRUE(queue(&q));
	EXPECT_EQ(q.c_d, 5u);
	EXPECT_EQ(q.rate, 60u * 125);
	ack(ack_frame(options({}, ack_x_opt(133, 1000)))); // 128 ahead: older; above R_init
	ASSERT_TRUE(queue(&q));
	EXPECT_EQ(q.c_d, 5u);
	EXPECT_EQ(q.rate, kInit);
	ack(ack_frame(options({}, ack_x_opt(6, 1)))); // below R_min
	ASSERT_TRUE(queue(&q));
	EXPECT_EQ(q.c_d, 6u);
	EXPECT_EQ(q.rate, kInitMin);
	// another experiment's option of the same length before it: passed
	Bytes foreign = ack_x_opt(9, 80);
	put16(foreign, 2, 0x1234);
	ack(ack_frame(options(foreign, ack_x_opt(7, 80))));
	ASSERT_TRUE(queue(&q));
	EXPECT_EQ(q.c_d, 7u);
	EXPECT_EQ(counts(), plus(was, { { MLCC_NS_STAT_PFQ_ACK_X, 5 } }));
	const Bytes out = egress(in, &t);
	EXPECT_EQ(out[kOpts + 6], 7);
}

// ACK_Xs that carry no credit or no rate, or are of no queue here, change
// nothing and are counted; other ACKs and truncated ones pass uncounted.
TEST_F(MlccPfq, AckThatIsNotOneToTakeChangesNothing)
{
	uint64_t t = 0;
	egress(seg_frame({}), &t);
	mlcc_pfq_info was_q = {};
	ASSERT_TRUE(queue(&was_q));
	const Counts was = counts();
	ack(ack_frame(options({}, ack_x_opt(0, 80))));
	ack(ack_frame(options({}, ack_x_opt(5, 0))));
	Bytes other = ack_frame(options({}, ack_x_opt(5, 80)));
	put16(other, kL4, kDstPort + 1); // the sum changes, unchecked here
	ack(other);
	ack(ack_frame(options({}, ack_x_opt(5, 80, 1000, MLCC_TYPE_ACK_E))));
	ack(ack_frame({}));
	ack(ack_frame(options({}, data_opt())));
	expect_cuts(skel_->progs.mlcc_pfq_ack, ack_frame(options({}, ack_x_opt(5, 80))), kL4,
		    [](size_t) { return kPass; });
	mlcc_pfq_info q = {};
	ASSERT_TRUE(queue(&q));
	EXPECT_EQ(std::memcmp(&q, &was_q, sizeof(q)), 0);
	EXPECT_EQ(queues(), 1u);
	EXPECT_EQ(counts(), plus(was, { { MLCC_NS_STAT_PFQ_ACK_MALFORMED, 2 },
					{ MLCC_NS_STAT_PFQ_ACK_NO_FLOW, 1 } }));
}

// A FIN leaves behind the queue, which goes with it; so does a RST.
TEST_F(MlccPfq, FinOrRstFreesTheQueue)
{
	for (uint8_t flag : { kTcpFin, uint8_t{ 0x04 } }) {
		SCOPED_TRACE("flags " + std::to_string(flag));
		uint64_t t = 0, t_fin = 0;
		egress(seg_frame({}), &t);
		mlcc_pfq_info q = {};
		ASSERT_TRUE(queue(&q));
		const Counts was = counts();
		const Bytes fin = seg_frame({ .flags = static_cast<uint8_t>(kTcpAck | flag),
					      .payload = 0, .opts = {} });
		EXPECT_EQ(egress(fin, &t_fin), fin);
		EXPECT_EQ(t_fin, q.next_tx_ns);
		EXPECT_EQ(queues(), 0u);
		EXPECT_EQ(counts(), plus(was, { { MLCC_NS_STAT_PFQ_CLOSED, 1 } }));
	}
}

// A queue a second long at its rate (MLCC_PFQ_LEAD_MAX, 2^30 ns) drops
// what comes, counted, and takes no time for it: at 500 kbit/s the 190-
// byte frame's turn is 3.04 ms, so the 354th segment finds the lead past
// the bound (less what time the runs took).
TEST_F(MlccPfq, FullQueueDropsTheSegment)
{
	const Bytes in = seg_frame({});
	const uint64_t turn = in.size() * 1'000'000'000 / kInit;
	const uint64_t fits = (uint64_t{ 1 } << 30) / turn + 1; // 354
	uint32_t n = 0;
	for (; n < fits + 20; n++) {
		const TestRun r = prog_run(skel_->progs.mlcc_pfq_egress, in);
		ASSERT_EQ(r.err, 0);
		if (r.ret == TC_ACT_SHOT)
			break;
		ASSERT_EQ(r.ret, kPass);
	}
	EXPECT_GE(n, fits);
	EXPECT_LE(n, fits + 20);
	mlcc_pfq_info q = {};
	ASSERT_TRUE(queue(&q));
	EXPECT_EQ(q.pkts, n);
	const uint64_t next = q.next_tx_ns;
	EXPECT_EQ(run(skel_->progs.mlcc_pfq_egress, in, TC_ACT_SHOT).size(), in.size());
	ASSERT_TRUE(queue(&q));
	EXPECT_EQ(q.next_tx_ns, next);
	EXPECT_EQ(counts(), plus(Counts(__MLCC_NS_STAT_MAX), { { MLCC_NS_STAT_PFQ_DATA, n },
							      { MLCC_NS_STAT_PFQ_DROPS, 2 } }));
}

// With the table full a new flow is not queued (the port's shared queue):
// its segment leaves as it came, counted.
TEST_F(MlccPfq, FullTableLeavesANewFlowAlone)
{
	for (uint32_t i = 0; i < 4096; i++)
		map_put(skel_->maps.mlcc_pfq, mlcc_flow4{ i, 0, 0, 0 }, mlcc_pfq_entry{});
	const Bytes in = seg_frame({});
	uint64_t t = 0;
	EXPECT_EQ(egress(in, &t), in);
	EXPECT_EQ(t, 0u);
	EXPECT_EQ(counts(), plus(Counts(__MLCC_NS_STAT_MAX), { { MLCC_NS_STAT_PFQ_FULL, 1 } }));
}

// What is no data segment with the option leaves as it came, untimed,
// counted nowhere, no queue made: every frame below, and a data segment
// cut short at every length.
TEST_F(MlccPfq, OtherFramesPassUntimed)
{
	std::vector<std::pair<std::string, Bytes>> frames;
	frames.emplace_back("pure ack", seg_frame({ .flags = kTcpAck, .payload = 0 }));
	frames.emplace_back("no option", seg_frame({ .opts = {} }));
	frames.emplace_back("other ExID", seg_opts({}, data_opt(kVtfX, 3, 0x4d4d)));
	frames.emplace_back("ack type",
			    seg_opts({}, data_opt(MLCC_VTF(MLCC_TYPE_ACK_X, MLCC_F_CROSS))));
	frames.emplace_back("udp", seg_frame({ .proto = IPPROTO_UDP }));
	frames.emplace_back("later fragment", seg_frame({ .frag = 0x00b9 }));
	for (const auto &[what, bytes] : frames) {
		SCOPED_TRACE(what);
		uint64_t t = 0;
		EXPECT_EQ(egress(bytes, &t), bytes);
		EXPECT_EQ(t, 0u);
	}
	expect_cuts(skel_->progs.mlcc_pfq_egress, seg_frame({}), kL4, [](size_t) { return kPass; });
	EXPECT_EQ(queues(), 0u);
	EXPECT_EQ(counts(), Counts(__MLCC_NS_STAT_MAX));
}

} // namespace
