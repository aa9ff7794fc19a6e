// SPDX-License-Identifier: GPL-2.0
//
// libFuzzer harness of unorc::unshim() and parse(). libFuzzer hands over
// exactly `size` heap bytes, so ASan catches any read past the datagram; a
// shim and a datagram that parse must serialize back to the same bytes.
// Each datagram, its shim taken off, is parsed as carrying the trim DSCP
// and not: the two must agree but where a DATA or PARITY payload is cut
// short, which only the first takes, as a Trimmed.
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "wire_fuzz.h"

using namespace unorc;

namespace {

// The bytes parse() accepted as `msg`: a DATA/PARITY header and its payload,
// a trimmed header and less than its payload, or a whole ACK or NACK.
void check_round_trip(const Message &msg, const uint8_t *data, size_t size)
{
	std::visit(
		[&](const auto &m) {
			using M = std::decay_t<decltype(m)>;
			if constexpr (std::is_same_v<M, Trimmed>) {
				const auto b = serialize(m.header);
				if (size >= b.size() + m.header.payload_len ||
				    std::memcmp(b.data(), data, b.size()))
					std::abort();
			} else {
				const auto b = serialize(m);
				size_t want = b.size();
				if constexpr (std::is_same_v<M, PacketHeader>)
					want += m.payload_len;
				if (size != want || std::memcmp(b.data(), data, b.size()))
					std::abort();
			}
		},
		msg);
}

// What parse() says of the datagram with the trim DSCP, against what it
// says without.
void check_trimmed_agrees(WireError plain, const Message &plain_msg, WireError trimmed,
			  const Message &trimmed_msg)
{
	const bool is_trim =
		trimmed == WireError::Ok && std::holds_alternative<Trimmed>(trimmed_msg);
	if (is_trim ? plain != WireError::PayloadTruncated : plain != trimmed)
		std::abort();
	if (!is_trim && plain == WireError::Ok && !(plain_msg == trimmed_msg))
		std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *in, size_t in_size)
{
	Unshimmed u;
	if (unshim(in, in_size, &u) != WireError::Ok)
		return 0;
	if (u.shim && std::memcmp(serialize(*u.shim).data(), in, kShimSize))
		std::abort();
	const uint8_t *data = u.msg;
	const size_t size = u.len;
	Message plain_msg, trimmed_msg;
	const WireError plain = parse(data, size, kFuzzLimits, &plain_msg);
	const WireError trimmed = parse(data, size, kFuzzLimits, &trimmed_msg, true);
	if (plain == WireError::Ok)
		check_round_trip(plain_msg, data, size);
	if (trimmed == WireError::Ok)
		check_round_trip(trimmed_msg, data, size);
	check_trimmed_agrees(plain, plain_msg, trimmed, trimmed_msg);
	return 0;
}
