// SPDX-License-Identifier: GPL-2.0
//
// UnoRC's messages, one per UDP datagram, every field big-endian. Byte 0 of
// each is ver_type: the version (1) in the high nibble, the type in the low
// nibble (0 DATA, 1 PARITY, 2 ACK, 3 NACK); byte 1 is flags.
//
// DATA and PARITY, a 40-byte header, then payload_len payload bytes that end
// the datagram:
//
//   0  u8  ver_type   0x10 DATA, 0x11 PARITY
//   1  u8  flags      bit0 RETX, bit1 LAST_BLOCK
//   2  u16 subflow
//   4  u32 flow_id
//   8  u64 psn        block_id * n + block_idx
//  16  u32 block_id   the flow's block number, not 0xffffffff
//  20  u16 block_idx  DATA 0..d-1, PARITY x..n-1
//  22  u16 payload_len  DATA len, or what is left for the message's last
//                       data packet; PARITY len (the code's payload length)
//  24  u64 tx_ts_ns
//  32  u32 msg_id
//  36  u32 msg_len    the message's length in bytes, 1.. [D]
//
// Block ids and psns count per flow, so that ACK and NACK need no msg_id.
// msg_len (our departure from spec 6.4's reserved field) tells, with the
// code and LAST_BLOCK, every packet's block shape: a block without
// LAST_BLOCK has x data packets of len bytes; the message's last block has
// d = msg_layout().last_d, its last data packet last_len bytes. So a
// receiver that lost every data packet of a short block still decodes it.
//
// ACK, 40 bytes, one per DATA or PARITY packet received:
//
//   0  u8  ver_type   0x12
//   1  u8  flags      bit0 ECN_CE_ECHO: the packet arrived CE-marked
//   2  u16 subflow    the packet's, echoed
//   4  u32 flow_id
//   8  u64 acked_psn  the packet's psn
//  16  u64 cum_psn    every psn below it has arrived
//  24  u64 echo_tx_ts_ns  the packet's tx_ts_ns
//  32  u32 completed_block  the block this packet completed, or 0xffffffff
//  36  u32 highest_completed_block  largest B with every block <= B
//                                   complete, or 0xffffffff: none yet
//
// NACK, 16 bytes, asks for a block to be repaired, or (TRIMMED, 24 bytes)
// for one packet of it that a switch trimmed (spec 6.3: retransmit at once):
//
//   0  u8  ver_type   0x13
//   1  u8  flags      bit0 TRIMMED
//   2  u16 block_idx  TRIMMED: the trimmed packet's, < n; else 0
//   4  u32 flow_id
//   8  u32 block_id   above highest_completed_block, not 0xffffffff
//  12  u32 highest_completed_block  as in ACK
//  16  u64 echo_tx_ts_ns  TRIMMED only: the trimmed header's tx_ts_ns
//
// parse() checks every field it can; Documentation/unorc.rst has the order.
//
// The ARC1 shim (arcane.md 3.3, kernel/uapi/uno_lb.h), 28 bytes, opens a
// datagram of a flow the entropy datapath (bpf/lb.bpf.c) steers. That
// datapath rewrites the source port into the packet's EV, so the sender's
// shim names the port to reply to; the receiver echoes the shim's ev, seq
// and ts_ns and the packet's CE bit before each ACK and NACK, which the
// datapath's ingress reads:
//
//   0  u32 magic      0x41524331 "ARC1"
//   4  u8  type       1 DATA (before DATA and PARITY), 2 ACK, 3 NACK
//   5  u8  flags      DATA: bit1 RETX; ACK, NACK: bit0 CE_ECHO
//   6  u16 ev         DATA: 0xffff, the datapath's to write; else echoed
//   8  u16 reply_port DATA: the sending socket's port, not 0; else 0
//  10  u16 rsvd       0
//  12  u64 seq        DATA: the psn; else echoed
//  20  u64 ts_ns      DATA: tx_ts_ns; else echoed
//
// Its first byte, 'A', begins no UnoRC message (version 1 in the high
// nibble), so either end tells a shimmed datagram from a bare one.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <variant>

namespace unorc {

inline constexpr uint8_t kVersion = 1;
inline constexpr size_t kPacketHeaderSize = 40;
inline constexpr size_t kAckSize = 40;
inline constexpr size_t kNackSize = 16;
inline constexpr size_t kTrimNackSize = 24;
// "No block" in ACK and NACK block fields.
inline constexpr uint32_t kNoBlock = 0xffffffff;
inline constexpr size_t kShimSize = 28;
// A shim's ev before the datapath writes one, and in the NACK of a block
// that timed out, which no one packet's path caused.
inline constexpr uint16_t kShimNoEv = 0xffff;

enum class Type : uint8_t { Data = 0, Parity = 1, Ack = 2, Nack = 3 };

// DATA and PARITY flags.
inline constexpr uint8_t kFlagRetx = 0x01;
inline constexpr uint8_t kFlagLastBlock = 0x02;
// ACK flags.
inline constexpr uint8_t kFlagEcnCeEcho = 0x01;
// NACK flags.
inline constexpr uint8_t kFlagTrimmed = 0x01;
// Shim flags.
inline constexpr uint8_t kShimCeEcho = 0x01; // ACK, NACK
inline constexpr uint8_t kShimRetx = 0x02;   // DATA

enum class ShimType : uint8_t { Data = 1, Ack = 2, Nack = 3 };

struct Shim {
	ShimType type = ShimType::Data;
	uint8_t flags = 0;
	uint16_t ev = kShimNoEv;
	uint16_t reply_port = 0;
	uint64_t seq = 0;
	uint64_t ts_ns = 0;

	bool operator==(const Shim &) const = default;
};

struct PacketHeader {
	Type type = Type::Data; // Data or Parity
	uint8_t flags = 0;
	uint16_t subflow = 0;
	uint32_t flow_id = 0;
	uint64_t psn = 0;
	uint32_t block_id = 0;
	uint16_t block_idx = 0;
	uint16_t payload_len = 0;
	uint64_t tx_ts_ns = 0;
	uint32_t msg_id = 0;
	uint32_t msg_len = 0;

	bool operator==(const PacketHeader &) const = default;
};

struct Ack {
	uint8_t flags = 0;
	uint16_t subflow = 0;
	uint32_t flow_id = 0;
	uint64_t acked_psn = 0;
	uint64_t cum_psn = 0;
	uint64_t echo_tx_ts_ns = 0;
	uint32_t completed_block = kNoBlock;
	uint32_t highest_completed_block = kNoBlock;

	bool operator==(const Ack &) const = default;
};

struct Nack {
	uint32_t flow_id = 0;
	uint32_t block_id = 0;
	uint32_t highest_completed_block = kNoBlock;
	bool trimmed = false;   // for one packet of the block: block_idx
	uint16_t block_idx = 0;
	// TRIMMED: which transmission of it was trimmed, as ACK's echo;
	// the sender resends only if it is the latest.
	uint64_t echo_tx_ts_ns = 0;

	bool operator==(const Nack &) const = default;
};

// The header of a DATA or PARITY packet whose payload a switch trimmed
// (SMaRTT Sec. III-D; Ultra Ethernet): every field valid, payload_len
// bytes not all there.
struct Trimmed {
	PacketHeader header;

	bool operator==(const Trimmed &) const = default;
};

using Message = std::variant<PacketHeader, Ack, Nack, Trimmed>;

// The code DATA and PARITY packets must fit, as BlockCoder takes it: x data
// and y parity packets per block, len payload bytes.
struct WireLimits {
	int x;
	int y;
	size_t len;
};

// How a message of msg_len >= 1 bytes is cut (spec 6.1): data packets of
// len bytes but the last, x of them per block but in the last block.
struct MsgLayout {
	uint64_t packets; // data packets, ceil(msg_len / len)
	uint64_t blocks;  // ceil(packets / x)
	int last_d;       // data packets of the last block, 1..x
	size_t last_len;  // payload bytes of the last data packet, 1..len
};
MsgLayout msg_layout(uint32_t msg_len, const WireLimits &lim);

// A block's d data packets; the last of them has last_len payload bytes,
// the others lim.len.
struct BlockShape {
	int d;
	size_t last_len;
};
BlockShape block_shape(bool last_block, uint32_t msg_len, const WireLimits &lim);

// Why parse() dropped a datagram: one counter each for a receiver.
enum class WireError : uint8_t {
	Ok = 0,
	Truncated,        // shorter than its type's header or body
	BadVersion,       // version nibble not kVersion
	BadType,          // type nibble not 0..3
	BadFlags,         // a flag bit the type does not define
	BadMsgLen,        // msg_len 0
	BadBlockId,       // 0xffffffff, or no room for the message's blocks
	BadBlockIdx,      // block_idx >= n, or DATA at a never-sent d..x-1
	IdxTypeMismatch,  // DATA at a parity index or PARITY at a data index
	BadPsn,           // psn != block_id * n + block_idx
	BadPayloadLen,    // not the length msg_len and block_idx give
	PayloadTruncated, // payload_len > the bytes after the header
	TrailingBytes,    // bytes after the payload or the ACK / NACK body
	BadReserved,      // NACK's reserved field not 0
	NackDoneBlock,    // NACK for a block <= highest_completed_block
	BadShim,          // a shim's type, flags, rsvd or DATA reply_port 0
};
inline constexpr size_t kWireErrorCount = static_cast<size_t>(WireError::BadShim) + 1;

// A short name for counters and logs: "truncated", "bad_version", ...
const char *wire_error_name(WireError e);

using PacketHeaderBytes = std::array<uint8_t, kPacketHeaderSize>;
using AckBytes = std::array<uint8_t, kAckSize>;
using ShimBytes = std::array<uint8_t, kShimSize>;
// A NACK's kNackSize bytes, kTrimNackSize with TRIMMED.
struct NackBytes {
	std::array<uint8_t, kTrimNackSize> bytes{};
	size_t len = kNackSize;

	const uint8_t *data() const { return bytes.data(); }
	size_t size() const { return len; }
	const uint8_t *begin() const { return bytes.data(); }
	const uint8_t *end() const { return bytes.data() + len; }
};

// Write the fields as given; parse() is the one that checks.
PacketHeaderBytes serialize(const PacketHeader &h);
AckBytes serialize(const Ack &a);
NackBytes serialize(const Nack &n);
ShimBytes serialize(const Shim &s);

// Parses the datagram buf[0..len), never reading outside it. Sets *out only
// on WireError::Ok; a DATA/PARITY payload is then the payload_len bytes at
// buf + kPacketHeaderSize. A DATA/PARITY packet cut short is
// PayloadTruncated, unless the network says it was trimmed (trimmed: it
// carries the trim DSCP): then it is a Trimmed.
WireError parse(const uint8_t *buf, size_t len, const WireLimits &lim, Message *out,
		bool trimmed = false);

// A datagram with its shim, if it opens with one, taken off: the message
// is msg[0..len).
struct Unshimmed {
	std::optional<Shim> shim;
	const uint8_t *msg = nullptr;
	size_t len = 0;
};
// Never reads outside buf[0..len). Sets *out only on WireError::Ok;
// Truncated for a shim cut short, BadShim for one arcane.md 3.3 does not
// define.
WireError unshim(const uint8_t *buf, size_t len, Unshimmed *out);

// The shim before the ACK or NACK (type) of the packet data opened, its
// CE bit ce.
Shim shim_echo(const Shim &data, ShimType type, bool ce);

} // namespace unorc
