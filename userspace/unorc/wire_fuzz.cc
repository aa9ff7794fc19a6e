// SPDX-License-Identifier: GPL-2.0
//
// libFuzzer harness of unorc::parse(). libFuzzer hands over exactly `size`
// heap bytes, so ASan catches any read past the datagram; a datagram that
// parses must serialize back to the same bytes.
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "wire_fuzz.h"

using namespace unorc;

namespace {

// The bytes parse() accepted as `msg`: a DATA/PARITY header and its payload,
// or a whole ACK or NACK.
void check_round_trip(const Message &msg, const uint8_t *data, size_t size)
{
	std::visit(
		[&](const auto &m) {
			const auto b = serialize(m);
			size_t want = b.size();
			if constexpr (std::is_same_v<std::decay_t<decltype(m)>, PacketHeader>)
				want += m.payload_len;
			if (size != want || std::memcmp(b.data(), data, b.size()))
				std::abort();
		},
		msg);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Message msg;
	if (parse(data, size, kFuzzLimits, &msg) == WireError::Ok)
		check_round_trip(msg, data, size);
	return 0;
}
