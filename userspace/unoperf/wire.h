// SPDX-License-Identifier: GPL-2.0
//
// unoperf: the header a client sends at the start of each flow.
//
// Layout, 32 bytes, all fields big-endian:
//
//   0  u32 magic     'UNOP' (0x554e4f50)
//   4  u16 version   1
//   6  u16 flags     0 (ignored on receipt)
//   8  u32 flow_id
//  12  u32 reserved  0 (ignored on receipt)
//  16  u64 size      payload bytes that follow the header
//  24  u64 start_ns  client's send start, CLOCK_MONOTONIC ns
//
// The payload follows; the server answers one byte once it has `size`
// payload bytes. CLOCK_MONOTONIC is one clock for all network namespaces of a
// host, so the server can subtract start_ns from its own readings.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace unoperf {

inline constexpr uint32_t kMagic = 0x554e4f50; // "UNOP"
inline constexpr uint16_t kVersion = 1;
inline constexpr size_t kHeaderSize = 32;

struct FlowHeader {
	uint32_t flow_id = 0;
	uint64_t size = 0;
	uint64_t start_ns = 0;

	bool operator==(const FlowHeader &) const = default;
};

using HeaderBytes = std::array<uint8_t, kHeaderSize>;

HeaderBytes encode_header(const FlowHeader &h);

// Returns false and sets *err on a bad magic or an unknown version.
bool decode_header(std::span<const uint8_t, kHeaderSize> bytes, FlowHeader *out, std::string *err);

} // namespace unoperf
