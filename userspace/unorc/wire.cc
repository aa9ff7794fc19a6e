// SPDX-License-Identifier: GPL-2.0
#include "wire.h"

#include "uno_be.h"
#include "uno_lb.h"

namespace unorc {

namespace {

constexpr uint8_t kPacketFlags = kFlagRetx | kFlagLastBlock;
constexpr uint8_t kAckFlags = kFlagEcnCeEcho;

using uno::get_be;
using uno::put_be;

// The shim is the datapath's: one layout for the program and for us.
static_assert(sizeof(lb_shim) == kShimSize);
static_assert(static_cast<uint8_t>(ShimType::Data) == LB_SHIM_DATA &&
	      static_cast<uint8_t>(ShimType::Ack) == LB_SHIM_ACK &&
	      static_cast<uint8_t>(ShimType::Nack) == LB_SHIM_NACK);
static_assert(kShimCeEcho == LB_SHIM_CE_ECHO && kShimRetx == LB_SHIM_RETX);
static_assert(kShimNoEv == LB_SHIM_EV_NONE);

WireError check_shim(const Shim &s, uint16_t rsvd)
{
	const bool data = s.type == ShimType::Data;
	if (s.type != ShimType::Data && s.type != ShimType::Ack && s.type != ShimType::Nack)
		return WireError::BadShim;
	if (s.flags & ~(data ? kShimRetx : kShimCeEcho))
		return WireError::BadShim;
	if (rsvd || (data ? s.reply_port == 0 : s.reply_port != 0))
		return WireError::BadShim;
	return WireError::Ok;
}

uint8_t ver_type(Type t)
{
	return static_cast<uint8_t>(kVersion << 4 | static_cast<uint8_t>(t));
}

// Whether the message's blocks fit in block ids 0..0xfffffffe around h's.
bool block_id_fits(uint32_t block_id, bool last, uint64_t blocks)
{
	if (block_id == kNoBlock)
		return false;
	// The last block follows the others: a lone block is the last.
	if (last)
		return block_id >= blocks - 1;
	return blocks >= 2 && block_id < kNoBlock - 1;
}

// Checks msg_len first, as the block's shape depends on it, then the rest
// in layout order; the caller has checked ver_type and that the header is
// there.
WireError check_packet(const PacketHeader &h, size_t payload_room, const WireLimits &lim)
{
	const uint64_t n = static_cast<uint64_t>(lim.x) + lim.y;
	const bool parity_idx = h.block_idx >= lim.x;
	const bool last = h.flags & kFlagLastBlock;

	if (h.flags & ~kPacketFlags)
		return WireError::BadFlags;
	if (h.msg_len == 0)
		return WireError::BadMsgLen;
	if (!block_id_fits(h.block_id, last, msg_layout(h.msg_len, lim).blocks))
		return WireError::BadBlockId;
	if (h.block_idx >= n)
		return WireError::BadBlockIdx;
	if (parity_idx != (h.type == Type::Parity))
		return WireError::IdxTypeMismatch;
	const BlockShape s = block_shape(last, h.msg_len, lim);
	if (!parity_idx && h.block_idx >= s.d)
		return WireError::BadBlockIdx;
	if (h.psn != h.block_id * n + h.block_idx)
		return WireError::BadPsn;
	const size_t want = parity_idx || h.block_idx < s.d - 1 ? lim.len : s.last_len;
	if (h.payload_len != want)
		return WireError::BadPayloadLen;
	if (h.payload_len > payload_room)
		return WireError::PayloadTruncated;
	if (h.payload_len < payload_room)
		return WireError::TrailingBytes;
	return WireError::Ok;
}

WireError parse_packet(const uint8_t *p, size_t len, const WireLimits &lim, Message *out,
		       bool trimmed)
{
	if (len < kPacketHeaderSize)
		return WireError::Truncated;
	PacketHeader h;
	h.type = static_cast<Type>(p[0] & 0x0f);
	h.flags = p[1];
	h.subflow = get_be<uint16_t>(p + 2);
	h.flow_id = get_be<uint32_t>(p + 4);
	h.psn = get_be<uint64_t>(p + 8);
	h.block_id = get_be<uint32_t>(p + 16);
	h.block_idx = get_be<uint16_t>(p + 20);
	h.payload_len = get_be<uint16_t>(p + 22);
	h.tx_ts_ns = get_be<uint64_t>(p + 24);
	h.msg_id = get_be<uint32_t>(p + 32);
	h.msg_len = get_be<uint32_t>(p + 36);
	const WireError e = check_packet(h, len - kPacketHeaderSize, lim);
	if (e == WireError::Ok)
		*out = h;
	else if (e == WireError::PayloadTruncated && trimmed)
		*out = Trimmed{ h };
	else
		return e;
	return WireError::Ok;
}

WireError parse_ack(const uint8_t *p, size_t len, Message *out)
{
	if (len < kAckSize)
		return WireError::Truncated;
	if (len > kAckSize)
		return WireError::TrailingBytes;
	if (p[1] & ~kAckFlags)
		return WireError::BadFlags;
	Ack a;
	a.flags = p[1];
	a.subflow = get_be<uint16_t>(p + 2);
	a.flow_id = get_be<uint32_t>(p + 4);
	a.acked_psn = get_be<uint64_t>(p + 8);
	a.cum_psn = get_be<uint64_t>(p + 16);
	a.echo_tx_ts_ns = get_be<uint64_t>(p + 24);
	a.completed_block = get_be<uint32_t>(p + 32);
	a.highest_completed_block = get_be<uint32_t>(p + 36);
	*out = a;
	return WireError::Ok;
}

WireError parse_nack(const uint8_t *p, size_t len, const WireLimits &lim, Message *out)
{
	if (len < kNackSize)
		return WireError::Truncated;
	if (p[1] & ~kFlagTrimmed)
		return WireError::BadFlags;
	Nack n;
	n.trimmed = p[1] & kFlagTrimmed;
	if (len < (n.trimmed ? kTrimNackSize : kNackSize))
		return WireError::Truncated;
	if (len > (n.trimmed ? kTrimNackSize : kNackSize))
		return WireError::TrailingBytes;
	n.block_idx = get_be<uint16_t>(p + 2);
	if (!n.trimmed && n.block_idx)
		return WireError::BadReserved;
	if (n.trimmed && n.block_idx >= lim.x + lim.y)
		return WireError::BadBlockIdx;
	n.flow_id = get_be<uint32_t>(p + 4);
	n.block_id = get_be<uint32_t>(p + 8);
	n.highest_completed_block = get_be<uint32_t>(p + 12);
	if (n.trimmed)
		n.echo_tx_ts_ns = get_be<uint64_t>(p + 16);
	if (n.block_id == kNoBlock)
		return WireError::BadBlockId;
	// The receiver NACKs only blocks it has not completed.
	if (n.highest_completed_block != kNoBlock && n.block_id <= n.highest_completed_block)
		return WireError::NackDoneBlock;
	*out = n;
	return WireError::Ok;
}

} // namespace

MsgLayout msg_layout(uint32_t msg_len, const WireLimits &lim)
{
	const uint64_t x = lim.x;
	const uint64_t packets = (msg_len + lim.len - 1) / lim.len;
	const uint64_t blocks = (packets + x - 1) / x;
	return { .packets = packets,
		 .blocks = blocks,
		 .last_d = static_cast<int>(packets - (blocks - 1) * x),
		 .last_len = msg_len - (packets - 1) * lim.len };
}

BlockShape block_shape(bool last_block, uint32_t msg_len, const WireLimits &lim)
{
	if (!last_block)
		return { lim.x, lim.len };
	const MsgLayout m = msg_layout(msg_len, lim);
	return { m.last_d, m.last_len };
}

const char *wire_error_name(WireError e)
{
	switch (e) {
	case WireError::Ok:
		return "ok";
	case WireError::Truncated:
		return "truncated";
	case WireError::BadVersion:
		return "bad_version";
	case WireError::BadType:
		return "bad_type";
	case WireError::BadFlags:
		return "bad_flags";
	case WireError::BadMsgLen:
		return "bad_msg_len";
	case WireError::BadBlockId:
		return "bad_block_id";
	case WireError::BadBlockIdx:
		return "bad_block_idx";
	case WireError::IdxTypeMismatch:
		return "idx_type_mismatch";
	case WireError::BadPsn:
		return "bad_psn";
	case WireError::BadPayloadLen:
		return "bad_payload_len";
	case WireError::PayloadTruncated:
		return "payload_truncated";
	case WireError::TrailingBytes:
		return "trailing_bytes";
	case WireError::BadReserved:
		return "bad_reserved";
	case WireError::NackDoneBlock:
		return "nack_done_block";
	case WireError::BadShim:
		return "bad_shim";
	}
	return "?";
}

PacketHeaderBytes serialize(const PacketHeader &h)
{
	PacketHeaderBytes b{};
	b[0] = ver_type(h.type);
	b[1] = h.flags;
	put_be(&b[2], h.subflow);
	put_be(&b[4], h.flow_id);
	put_be(&b[8], h.psn);
	put_be(&b[16], h.block_id);
	put_be(&b[20], h.block_idx);
	put_be(&b[22], h.payload_len);
	put_be(&b[24], h.tx_ts_ns);
	put_be(&b[32], h.msg_id);
	put_be(&b[36], h.msg_len);
	return b;
}

AckBytes serialize(const Ack &a)
{
	AckBytes b{};
	b[0] = ver_type(Type::Ack);
	b[1] = a.flags;
	put_be(&b[2], a.subflow);
	put_be(&b[4], a.flow_id);
	put_be(&b[8], a.acked_psn);
	put_be(&b[16], a.cum_psn);
	put_be(&b[24], a.echo_tx_ts_ns);
	put_be(&b[32], a.completed_block);
	put_be(&b[36], a.highest_completed_block);
	return b;
}

NackBytes serialize(const Nack &n)
{
	NackBytes nb;
	uint8_t *b = nb.bytes.data();
	b[0] = ver_type(Type::Nack);
	if (n.trimmed) {
		b[1] = kFlagTrimmed;
		put_be(&b[2], n.block_idx);
		put_be(&b[16], n.echo_tx_ts_ns);
		nb.len = kTrimNackSize;
	}
	put_be(&b[4], n.flow_id);
	put_be(&b[8], n.block_id);
	put_be(&b[12], n.highest_completed_block);
	return nb;
}

ShimBytes serialize(const Shim &s)
{
	ShimBytes b{};
	put_be(&b[0], static_cast<uint32_t>(LB_SHIM_MAGIC));
	b[4] = static_cast<uint8_t>(s.type);
	b[5] = s.flags;
	put_be(&b[6], s.ev);
	put_be(&b[8], s.reply_port);
	put_be(&b[12], s.seq);
	put_be(&b[20], s.ts_ns);
	return b;
}

WireError unshim(const uint8_t *buf, size_t len, Unshimmed *out)
{
	if (len < 4 || get_be<uint32_t>(buf) != LB_SHIM_MAGIC) {
		*out = { std::nullopt, buf, len };
		return WireError::Ok;
	}
	if (len < kShimSize)
		return WireError::Truncated;
	const Shim s = { .type = static_cast<ShimType>(buf[4]), .flags = buf[5],
			 .ev = get_be<uint16_t>(&buf[6]), .reply_port = get_be<uint16_t>(&buf[8]),
			 .seq = get_be<uint64_t>(&buf[12]), .ts_ns = get_be<uint64_t>(&buf[20]) };
	const WireError e = check_shim(s, get_be<uint16_t>(&buf[10]));
	if (e == WireError::Ok)
		*out = { s, buf + kShimSize, len - kShimSize };
	return e;
}

Shim shim_echo(const Shim &data, ShimType type, bool ce)
{
	return { .type = type, .flags = ce ? kShimCeEcho : uint8_t{ 0 }, .ev = data.ev,
		 .reply_port = 0, .seq = data.seq, .ts_ns = data.ts_ns };
}

WireError parse(const uint8_t *buf, size_t len, const WireLimits &lim, Message *out,
		bool trimmed)
{
	if (len < 1)
		return WireError::Truncated;
	if (buf[0] >> 4 != kVersion)
		return WireError::BadVersion;
	switch (static_cast<Type>(buf[0] & 0x0f)) {
	case Type::Data:
	case Type::Parity:
		return parse_packet(buf, len, lim, out, trimmed);
	case Type::Ack:
		return parse_ack(buf, len, out);
	case Type::Nack:
		return parse_nack(buf, len, lim, out);
	}
	return WireError::BadType;
}

} // namespace unorc
