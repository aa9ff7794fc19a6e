// SPDX-License-Identifier: GPL-2.0
//
// The bytes of a synthetic frame, for the tests that run our tc programs
// with BPF_PROG_TEST_RUN (lb_prog_test, reflex_prog_test,
// mlcc_ns_prog_test): header sizes, fields in network order, and the
// one's complement sums that check what a program rewrote.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace frame {

using Bytes = std::vector<uint8_t>;

constexpr size_t kEthLen = 14;
constexpr size_t kIp4Len = 20;
constexpr size_t kIp6Len = 40;
constexpr size_t kUdpLen = 8;
constexpr size_t kTcpLen = 20;
constexpr uint8_t kTcpFin = 0x01;
constexpr uint8_t kTcpSyn = 0x02;
constexpr uint8_t kTcpRst = 0x04;
constexpr uint8_t kTcpPsh = 0x08;
constexpr uint8_t kTcpAck = 0x10;
constexpr uint8_t kTcpEce = 0x40;

inline void put16(Bytes &b, size_t at, uint16_t v)
{
	b[at] = static_cast<uint8_t>(v >> 8);
	b[at + 1] = static_cast<uint8_t>(v);
}

inline void put32(Bytes &b, size_t at, uint32_t v)
{
	put16(b, at, static_cast<uint16_t>(v >> 16));
	put16(b, at + 2, static_cast<uint16_t>(v));
}

inline uint16_t get16(const Bytes &b, size_t at)
{
	return static_cast<uint16_t>(b[at] << 8 | b[at + 1]);
}

inline uint32_t get32(const Bytes &b, size_t at)
{
	return static_cast<uint32_t>(get16(b, at)) << 16 | get16(b, at + 2);
}

// The one's complement sum of b[from, from + len), 16 bits at a time.
inline uint32_t sum16(const Bytes &b, size_t from, size_t len, uint32_t sum = 0)
{
	for (size_t i = 0; i + 1 < len; i += 2)
		sum += get16(b, from + i);
	if (len & 1)
		sum += static_cast<uint32_t>(b[from + len - 1]) << 8;
	return sum;
}

inline uint16_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return static_cast<uint16_t>(~sum);
}

} // namespace frame
