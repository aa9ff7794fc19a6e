// SPDX-License-Identifier: GPL-2.0
//
// The wire format: each message type serialized to hand-written bytes and
// parsed back, and malformed datagrams each dropped for their own reason.
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "wire.h"

using namespace unorc;

namespace {

constexpr WireLimits kLimits = { 8, 2, 100 };

using Bytes = std::vector<uint8_t>;

template <typename B> Bytes concat(const B &head, const Bytes &tail = {})
{
	Bytes b(head.begin(), head.end());
	b.insert(b.end(), tail.begin(), tail.end());
	return b;
}

WireError parse(const Bytes &b, Message *out)
{
	return unorc::parse(b.data(), b.size(), kLimits, out);
}

// Parses b and expects `want`, serialized as b's first bytes.
template <typename M> void expect_round_trip(const Bytes &b, const M &want)
{
	Message got;
	ASSERT_EQ(parse(b, &got), WireError::Ok);
	ASSERT_TRUE(std::holds_alternative<M>(got));
	EXPECT_EQ(std::get<M>(got), want);
}

// DATA, block 5 of (8, 2), index 3: psn 53. The last packet of a message of
// 6 blocks (0..5) whose last block has 4 data packets: 43 * 100 + 4 bytes.
const PacketHeader kData = { .type = Type::Data,
			     .flags = kFlagRetx | kFlagLastBlock,
			     .subflow = 0x0102,
			     .flow_id = 0x0a0b0c0d,
			     .psn = 53,
			     .block_id = 5,
			     .block_idx = 3,
			     .payload_len = 4,
			     .tx_ts_ns = 0x1122334455667788,
			     .msg_id = 0xdeadbeef,
			     .msg_len = 4304 };

const Bytes kDataBytes = {
	0x10, 0x03, 0x01, 0x02, 0x0a, 0x0b, 0x0c, 0x0d, // ver_type flags subflow flow_id
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x35, // psn
	0x00, 0x00, 0x00, 0x05, 0x00, 0x03, 0x00, 0x04, // block_id block_idx payload_len
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, // tx_ts_ns
	0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0x10, 0xd0, // msg_id msg_len
	'a',  'b',  'c',  'd',                          // payload
};

} // namespace

TEST(Wire, DataBytes)
{
	EXPECT_EQ(concat(serialize(kData), { 'a', 'b', 'c', 'd' }), kDataBytes);
	expect_round_trip(kDataBytes, kData);
}

TEST(Wire, ParityBytes)
{
	const PacketHeader h = { .type = Type::Parity,
				 .flags = 0,
				 .subflow = 9,
				 .flow_id = 1,
				 .psn = 0x01020304ull * 10 + 9,
				 .block_id = 0x01020304,
				 .block_idx = 9,
				 .payload_len = 100,
				 .tx_ts_ns = 1,
				 .msg_id = 2,
				 .msg_len = 0x10000 };
	const Bytes head = {
		0x11, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x01, //
		0x00, 0x00, 0x00, 0x00, 0x0a, 0x14, 0x1e, 0x31, //
		0x01, 0x02, 0x03, 0x04, 0x00, 0x09, 0x00, 0x64, //
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, //
		0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x00, 0x00, //
	};
	EXPECT_EQ(concat(serialize(h)), head);
	expect_round_trip(concat(head, Bytes(100, 0x5a)), h);
}

// The edges parse() accepts: the highest block id a non-last block can
// take, and a message of one byte.
TEST(Wire, PacketEdges)
{
	PacketHeader h = { .block_id = kNoBlock - 2, .payload_len = 100, .msg_len = 0x10000 };
	h.psn = h.block_id * 10ull;
	expect_round_trip(concat(serialize(h), Bytes(100, 1)), h);
	h = { .flags = kFlagLastBlock, .payload_len = 1, .msg_len = 1 };
	expect_round_trip(concat(serialize(h), Bytes(1, 1)), h);
	h = { .type = Type::Parity, .flags = kFlagLastBlock, .psn = 9, .block_idx = 9,
	      .payload_len = 100, .msg_len = 1 };
	expect_round_trip(concat(serialize(h), Bytes(100, 1)), h);
}

TEST(Wire, AckBytes)
{
	const Ack a = { .flags = kFlagEcnCeEcho,
			.subflow = 7,
			.flow_id = 0x0a0b0c0d,
			.acked_psn = 0x0102030405060708,
			.cum_psn = 0x0102030405060700,
			.echo_tx_ts_ns = 0x1122334455667788,
			.completed_block = 0x10,
			.highest_completed_block = 0x0f };
	const Bytes b = {
		0x12, 0x01, 0x00, 0x07, 0x0a, 0x0b, 0x0c, 0x0d, // ver_type flags subflow flow_id
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, // acked_psn
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x00, // cum_psn
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, // echo_tx_ts_ns
		0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x0f, // completed, highest completed
	};
	EXPECT_EQ(concat(serialize(a)), b);
	expect_round_trip(b, a);
	// Nothing completed yet.
	expect_round_trip(concat(serialize(Ack{})), Ack{});
}

TEST(Wire, NackBytes)
{
	const Nack n = { .flow_id = 0x0a0b0c0d, .block_id = 0x20, .highest_completed_block = kNoBlock };
	const Bytes b = {
		0x13, 0x00, 0x00, 0x00, 0x0a, 0x0b, 0x0c, 0x0d, // ver_type flags reserved flow_id
		0x00, 0x00, 0x00, 0x20, 0xff, 0xff, 0xff, 0xff, // block_id highest completed
	};
	EXPECT_EQ(concat(serialize(n)), b);
	expect_round_trip(b, n);
	expect_round_trip(concat(serialize(Nack{ .block_id = 8, .highest_completed_block = 7 })),
			  Nack{ .block_id = 8, .highest_completed_block = 7 });
}

// A trimmed packet's NACK names the packet: flag TRIMMED, its block_idx.
TEST(Wire, TrimmedNackBytes)
{
	const Nack n = { .flow_id = 0x0a0b0c0d,
			 .block_id = 0x20,
			 .highest_completed_block = 0x1f,
			 .trimmed = true,
			 .block_idx = 9,
			 .echo_tx_ts_ns = 0x0102030405060708 };
	const Bytes b = {
		0x13, 0x01, 0x00, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, // ver_type TRIMMED block_idx flow_id
		0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x1f, // block_id highest completed
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, // echo_tx_ts_ns
	};
	EXPECT_EQ(concat(serialize(n)), b);
	expect_round_trip(b, n);
}

// A header whose payload was cut, at every length short of payload_len, is
// a Trimmed only when the network says it was trimmed; whole, it is data.
TEST(Wire, TrimmedHeader)
{
	const Bytes whole = concat(serialize(kData), Bytes(kData.payload_len, 'x'));
	Message out;
	for (size_t len = kPacketHeaderSize; len < whole.size(); len++) {
		EXPECT_EQ(unorc::parse(whole.data(), len, kLimits, &out),
			  WireError::PayloadTruncated)
			<< len;
		ASSERT_EQ(unorc::parse(whole.data(), len, kLimits, &out, true), WireError::Ok)
			<< len;
		EXPECT_EQ(std::get<Trimmed>(out).header, kData) << len;
	}
	ASSERT_EQ(unorc::parse(whole.data(), whole.size(), kLimits, &out, true), WireError::Ok);
	EXPECT_EQ(std::get<PacketHeader>(out), kData);
	// Trimmed or not, every header field is checked.
	PacketHeader bad = kData;
	bad.psn++;
	const Bytes cut = concat(serialize(bad));
	EXPECT_EQ(unorc::parse(cut.data(), cut.size(), kLimits, &out, true), WireError::BadPsn);
	EXPECT_EQ(unorc::parse(whole.data(), kPacketHeaderSize - 1, kLimits, &out, true),
		  WireError::Truncated);
}

TEST(Wire, TruncatedAtEveryLength)
{
	const Bytes ack = concat(serialize(Ack{}));
	const Bytes nack = concat(serialize(Nack{}));
	const Bytes trim_nack = concat(serialize(Nack{ .trimmed = true }));
	Message out;
	for (size_t len = 0; len < kPacketHeaderSize; len++)
		EXPECT_EQ(unorc::parse(kDataBytes.data(), len, kLimits, &out), WireError::Truncated) << len;
	for (size_t len = 0; len < kAckSize; len++)
		EXPECT_EQ(unorc::parse(ack.data(), len, kLimits, &out), WireError::Truncated) << len;
	for (size_t len = 0; len < kNackSize; len++)
		EXPECT_EQ(unorc::parse(nack.data(), len, kLimits, &out), WireError::Truncated) << len;
	for (size_t len = 0; len < kTrimNackSize; len++)
		EXPECT_EQ(unorc::parse(trim_nack.data(), len, kLimits, &out), WireError::Truncated)
			<< len;
}

// A valid datagram, one field broken, the reason expected.
TEST(Wire, MalformedDatagrams)
{
	// payload bytes after the header; -1: payload_len of them.
	const auto data = [](const std::function<void(PacketHeader &)> &edit, int payload = -1) {
		PacketHeader h = kData;
		edit(h);
		return concat(serialize(h), Bytes(payload < 0 ? h.payload_len : payload, 'x'));
	};
	const auto parity = [&](uint16_t idx, uint16_t len) {
		return data([&](PacketHeader &h) {
			h.type = Type::Parity;
			h.block_idx = idx;
			h.psn = h.block_id * 10ull + idx;
			h.payload_len = len;
		});
	};
	const auto poke = [](Bytes b, size_t at, uint8_t v) {
		b.at(at) = v;
		return b;
	};
	const Bytes ack = concat(serialize(Ack{}));
	const Bytes nack = concat(serialize(Nack{ .block_id = 6, .highest_completed_block = 4 }));
	const Bytes trim_nack = concat(serialize(
		Nack{ .block_id = 6, .highest_completed_block = 4, .trimmed = true, .block_idx = 1 }));

	const struct {
		const char *what;
		Bytes dgram;
		WireError want;
	} cases[] = {
		{ "version 0", poke(kDataBytes, 0, 0x00), WireError::BadVersion },
		{ "version 2", poke(kDataBytes, 0, 0x20), WireError::BadVersion },
		{ "version 15 ack", poke(ack, 0, 0xf2), WireError::BadVersion },
		{ "type 4", poke(kDataBytes, 0, 0x14), WireError::BadType },
		{ "type 15", poke(kDataBytes, 0, 0x1f), WireError::BadType },
		{ "data flag bit2", poke(kDataBytes, 1, 0x07), WireError::BadFlags },
		{ "data flag bit7", poke(kDataBytes, 1, 0x80), WireError::BadFlags },
		{ "ack flag bit1", poke(ack, 1, 0x03), WireError::BadFlags },
		{ "nack flag bit1", poke(nack, 1, 0x03), WireError::BadFlags },
		{ "nack flag bit7", poke(nack, 1, 0x80), WireError::BadFlags },
		{ "nack trimmed idx n", poke(trim_nack, 3, 10), WireError::BadBlockIdx },
		{ "nack trimmed idx max", poke(poke(trim_nack, 2, 0xff), 3, 0xff),
		  WireError::BadBlockIdx },
		{ "nack trimmed block none",
		  concat(serialize(Nack{ .block_id = kNoBlock, .trimmed = true, .block_idx = 1 })),
		  WireError::BadBlockId },
		{ "nack trimmed completed block",
		  concat(serialize(Nack{ .block_id = 4,
					 .highest_completed_block = 4,
					 .trimmed = true,
					 .block_idx = 1 })),
		  WireError::NackDoneBlock },
		{ "msg_len 0", data([](PacketHeader &h) { h.msg_len = 0; }), WireError::BadMsgLen },
		{ "block_id none", data([](PacketHeader &h) { h.block_id = kNoBlock; }),
		  WireError::BadBlockId },
		{ "last block 4 of a 6-block message",
		  data([](PacketHeader &h) {
			  h.block_id = 4;
			  h.psn = 43;
		  }),
		  WireError::BadBlockId },
		{ "lone block without LAST_BLOCK",
		  data([](PacketHeader &h) {
			  h.flags = 0;
			  h.msg_len = 4;
		  }),
		  WireError::BadBlockId },
		{ "no room for the last block",
		  data([](PacketHeader &h) {
			  h.flags = 0;
			  h.block_id = kNoBlock - 1;
			  h.psn = h.block_id * 10ull + 3;
			  h.payload_len = 100;
		  }),
		  WireError::BadBlockId },
		{ "block_idx n", data([](PacketHeader &h) { h.block_idx = 10; }), WireError::BadBlockIdx },
		{ "block_idx max", data([](PacketHeader &h) { h.block_idx = 0xffff; }),
		  WireError::BadBlockIdx },
		{ "data at parity idx",
		  data([](PacketHeader &h) {
			  h.block_idx = 8;
			  h.psn = 58;
		  }),
		  WireError::IdxTypeMismatch },
		{ "parity at data idx", parity(7, 100), WireError::IdxTypeMismatch },
		{ "data at never-sent idx",
		  data([](PacketHeader &h) {
			  h.block_idx = 4;
			  h.psn = 54;
		  }),
		  WireError::BadBlockIdx },
		{ "psn + 1", data([](PacketHeader &h) { h.psn++; }), WireError::BadPsn },
		{ "psn of block + 1", data([](PacketHeader &h) { h.psn += 10; }), WireError::BadPsn },
		{ "data payload_len 0", data([](PacketHeader &h) { h.payload_len = 0; }),
		  WireError::BadPayloadLen },
		{ "data payload_len len + 1", data([](PacketHeader &h) { h.payload_len = 101; }),
		  WireError::BadPayloadLen },
		{ "last data payload_len len", data([](PacketHeader &h) { h.payload_len = 100; }),
		  WireError::BadPayloadLen },
		{ "last data msg_len - 1", data([](PacketHeader &h) { h.msg_len--; }),
		  WireError::BadPayloadLen },
		{ "short data not last in its block",
		  data([](PacketHeader &h) {
			  h.block_idx = 2;
			  h.psn = 52;
		  }),
		  WireError::BadPayloadLen },
		{ "short data in a full block", data([](PacketHeader &h) { h.flags = kFlagRetx; }),
		  WireError::BadPayloadLen },
		{ "parity payload_len len - 1", parity(8, 99), WireError::BadPayloadLen },
		{ "parity payload_len len + 1", parity(9, 101), WireError::BadPayloadLen },
		{ "payload_len > datagram", data([](PacketHeader &) {}, 3), WireError::PayloadTruncated },
		{ "header only", data([](PacketHeader &) {}, 0), WireError::PayloadTruncated },
		{ "payload_len < datagram", data([](PacketHeader &) {}, 5), WireError::TrailingBytes },
		{ "ack + 1 byte", concat(ack, { 0 }), WireError::TrailingBytes },
		{ "nack + 1 byte", concat(nack, { 0 }), WireError::TrailingBytes },
		{ "nack flagged trimmed, 16 bytes", poke(nack, 1, 0x01), WireError::Truncated },
		{ "trimmed nack 16 bytes", Bytes(trim_nack.begin(), trim_nack.begin() + kNackSize),
		  WireError::Truncated },
		{ "trimmed nack + 1 byte", concat(trim_nack, { 0 }), WireError::TrailingBytes },
		{ "trimmed nack unflagged", poke(trim_nack, 1, 0x00), WireError::TrailingBytes },
		{ "nack reserved byte 2", poke(nack, 2, 0x01), WireError::BadReserved },
		{ "nack reserved byte 3", poke(nack, 3, 0x80), WireError::BadReserved },
		{ "nack block none", concat(serialize(Nack{ .block_id = kNoBlock })),
		  WireError::BadBlockId },
		{ "nack completed block",
		  concat(serialize(Nack{ .block_id = 4, .highest_completed_block = 4 })),
		  WireError::NackDoneBlock },
		{ "nack old block", concat(serialize(Nack{ .block_id = 0, .highest_completed_block = 4 })),
		  WireError::NackDoneBlock },
	};
	const PacketHeader sentinel = { .flow_id = 0x5e5e };
	for (const auto &c : cases) {
		Message out = sentinel;
		EXPECT_EQ(parse(c.dgram, &out), c.want)
			<< c.what << ": " << wire_error_name(parse(c.dgram, &out));
		EXPECT_EQ(std::get<PacketHeader>(out), sentinel) << c.what << ": output written";
		// With the trim DSCP only a payload cut short is taken: as a
		// Trimmed, its header whole and valid.
		const WireError trimmed =
			unorc::parse(c.dgram.data(), c.dgram.size(), kLimits, &out, true);
		if (c.want == WireError::PayloadTruncated) {
			EXPECT_EQ(trimmed, WireError::Ok) << c.what;
			EXPECT_EQ(std::get<Trimmed>(out).header, kData) << c.what;
		} else {
			EXPECT_EQ(trimmed, c.want) << c.what << ", trimmed";
			EXPECT_EQ(std::get<PacketHeader>(out), sentinel) << c.what << ", trimmed";
		}
	}
}

// Where the edges of msg_layout() fall.
TEST(Wire, MsgLayout)
{
	const auto layout = [](uint32_t msg_len, WireLimits lim) {
		const MsgLayout m = msg_layout(msg_len, lim);
		return std::vector<uint64_t>{ m.packets, m.blocks, static_cast<uint64_t>(m.last_d),
					      m.last_len };
	};
	using V = std::vector<uint64_t>;
	EXPECT_EQ(layout(100000, { 8, 2, 1000 }), (V{ 100, 13, 4, 1000 }));
	EXPECT_EQ(layout(1, { 8, 2, 1000 }), (V{ 1, 1, 1, 1 }));
	EXPECT_EQ(layout(8000, { 8, 2, 1000 }), (V{ 8, 1, 8, 1000 }));
	EXPECT_EQ(layout(8001, { 8, 2, 1000 }), (V{ 9, 2, 1, 1 }));
	EXPECT_EQ(layout(4304, kLimits), (V{ 44, 6, 4, 4 }));
	// 65535 * 65537 = 2^32 - 1.
	EXPECT_EQ(layout(0xffffffff, { 8, 2, 65535 }), (V{ 65537, 8193, 1, 65535 }));
	EXPECT_EQ(layout(0xffffffff, { 1, 0, 1 }), (V{ 0xffffffff, 0xffffffff, 1, 1 }));
	EXPECT_EQ(block_shape(false, 4304, kLimits).d, 8);
	EXPECT_EQ(block_shape(false, 4304, kLimits).last_len, 100u);
	EXPECT_EQ(block_shape(true, 4304, kLimits).d, 4);
	EXPECT_EQ(block_shape(true, 4304, kLimits).last_len, 4u);
}

// The ARC1 shim of arcane.md 3.3 before kData, as a sender opens it.
TEST(Wire, ShimBytes)
{
	const Shim s = { .type = ShimType::Data, .flags = kShimRetx, .ev = kShimNoEv,
			 .reply_port = 40000, .seq = 53, .ts_ns = 0x1122334455667788 };
	const Bytes b = {
		0x41, 0x52, 0x43, 0x31, 0x01, 0x02, 0xff, 0xff, // magic type flags ev
		0x9c, 0x40, 0x00, 0x00,                         // reply_port rsvd
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x35, // seq
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, // ts_ns
	};
	EXPECT_EQ(concat(serialize(s)), b);
	const Bytes d = concat(b, kDataBytes);
	Unshimmed u;
	ASSERT_EQ(unshim(d.data(), d.size(), &u), WireError::Ok);
	EXPECT_EQ(u.shim, s);
	EXPECT_EQ(u.msg, d.data() + kShimSize);
	EXPECT_EQ(u.len, kDataBytes.size());
	EXPECT_EQ(shim_echo(s, ShimType::Ack, true),
		  (Shim{ .type = ShimType::Ack, .flags = kShimCeEcho, .ev = kShimNoEv,
			 .reply_port = 0, .seq = 53, .ts_ns = 0x1122334455667788 }));
	const Shim nack = shim_echo(s, ShimType::Nack, false);
	const Bytes n = concat(serialize(nack));
	ASSERT_EQ(unshim(n.data(), n.size(), &u), WireError::Ok);
	EXPECT_EQ(u.shim, nack);
	EXPECT_EQ(u.len, 0u);
}

// A datagram without the magic is the message itself, even one of a few
// bytes: unshim() leaves it to parse().
TEST(Wire, UnshimLeavesBareDatagrams)
{
	for (const Bytes &b : { kDataBytes, Bytes{}, Bytes{ 0x41, 0x52, 0x43 },
				Bytes{ 0x41, 0x52, 0x43, 0x30, 1 } }) {
		Unshimmed u;
		ASSERT_EQ(unshim(b.data(), b.size(), &u), WireError::Ok);
		EXPECT_FALSE(u.shim);
		EXPECT_EQ(u.msg, b.data());
		EXPECT_EQ(u.len, b.size());
	}
}

// Every shim arcane.md 3.3 does not define is refused, and one cut short
// at every length.
TEST(Wire, MalformedShims)
{
	const Shim data = { .type = ShimType::Data, .ev = kShimNoEv, .reply_port = 40000 };
	const Bytes good = concat(serialize(data));
	const auto refused = [&](const std::function<void(Bytes &)> &edit) {
		Bytes b = good;
		edit(b);
		Unshimmed u;
		return unshim(b.data(), b.size(), &u);
	};
	EXPECT_EQ(refused([](Bytes &) {}), WireError::Ok);
	EXPECT_EQ(refused([](Bytes &b) { b[4] = 0; }), WireError::BadShim);     // type
	EXPECT_EQ(refused([](Bytes &b) { b[4] = 4; }), WireError::BadShim);
	EXPECT_EQ(refused([](Bytes &b) { b[5] = kShimCeEcho; }), WireError::BadShim);
	EXPECT_EQ(refused([](Bytes &b) { b[10] = 1; }), WireError::BadShim);    // rsvd
	EXPECT_EQ(refused([](Bytes &b) { b[8] = b[9] = 0; }), WireError::BadShim); // no port
	// An ACK's: CE_ECHO only, no reply_port.
	EXPECT_EQ(refused([](Bytes &b) { b[4] = 2, b[8] = b[9] = 0, b[5] = kShimCeEcho; }),
		  WireError::Ok);
	EXPECT_EQ(refused([](Bytes &b) { b[4] = 2, b[8] = b[9] = 0, b[5] = kShimRetx; }),
		  WireError::BadShim);
	EXPECT_EQ(refused([](Bytes &b) { b[4] = 3; }), WireError::BadShim);  // a port
	for (size_t len = 4; len < kShimSize; len++) {
		Unshimmed u;
		EXPECT_EQ(unshim(good.data(), len, &u), WireError::Truncated) << len;
	}
}

TEST(Wire, ErrorNames)
{
	std::set<std::string> names;
	for (size_t e = 0; e < kWireErrorCount; e++)
		names.insert(wire_error_name(static_cast<WireError>(e)));
	EXPECT_EQ(names.size(), kWireErrorCount);
	EXPECT_EQ(names.count("?"), 0u);
	EXPECT_STREQ(wire_error_name(WireError::Ok), "ok");
	EXPECT_STREQ(wire_error_name(WireError::PayloadTruncated), "payload_truncated");
	EXPECT_STREQ(wire_error_name(static_cast<WireError>(kWireErrorCount)), "?");
}
