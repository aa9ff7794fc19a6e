// SPDX-License-Identifier: GPL-2.0
#include "wire.h"

#include "uno_be.h"

#include <cstdio>

namespace unoperf {

namespace {

using uno::get_be;
using uno::put_be;

} // namespace

HeaderBytes encode_header(const FlowHeader &h)
{
	HeaderBytes b{};
	put_be<uint32_t>(&b[0], kMagic);
	put_be<uint16_t>(&b[4], kVersion);
	put_be<uint16_t>(&b[6], 0);
	put_be<uint32_t>(&b[8], h.flow_id);
	put_be<uint32_t>(&b[12], 0);
	put_be<uint64_t>(&b[16], h.size);
	put_be<uint64_t>(&b[24], h.start_ns);
	return b;
}

bool decode_header(std::span<const uint8_t, kHeaderSize> bytes, FlowHeader *out, std::string *err)
{
	const uint8_t *p = bytes.data();
	const uint32_t magic = get_be<uint32_t>(p);
	if (magic != kMagic) {
		char buf[64];
		std::snprintf(buf, sizeof(buf), "bad magic 0x%08x (not an unoperf client?)", magic);
		*err = buf;
		return false;
	}
	const uint16_t version = get_be<uint16_t>(p + 4);
	if (version != kVersion) {
		*err = "unsupported protocol version " + std::to_string(version) + " (this is " +
		       std::to_string(kVersion) + ")";
		return false;
	}
	out->flow_id = get_be<uint32_t>(p + 8);
	out->size = get_be<uint64_t>(p + 16);
	out->start_ns = get_be<uint64_t>(p + 24);
	return true;
}

} // namespace unoperf
