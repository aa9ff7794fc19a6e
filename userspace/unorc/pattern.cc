// SPDX-License-Identifier: GPL-2.0
#include "pattern.h"

namespace unorc {

uint8_t pattern_byte(uint32_t id, uint64_t i)
{
	const uint64_t v = (id + 1) * 0x9e3779b97f4a7c15ULL ^ (i * 0xff51afd7ed558ccdULL);
	return static_cast<uint8_t>(v >> 56 ^ i);
}

void fill_pattern(std::span<uint8_t> out, uint32_t id)
{
	for (size_t i = 0; i < out.size(); i++)
		out[i] = pattern_byte(id, i);
}

std::vector<uint8_t> pattern_message(uint32_t id, size_t size)
{
	std::vector<uint8_t> b(size);
	fill_pattern(b, id);
	return b;
}

uint64_t pattern_mismatches(std::span<const uint8_t> b, uint32_t id)
{
	uint64_t n = 0;
	for (size_t i = 0; i < b.size(); i++)
		n += b[i] != pattern_byte(id, i);
	return n;
}

} // namespace unorc
