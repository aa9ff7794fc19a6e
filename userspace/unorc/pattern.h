// SPDX-License-Identifier: GPL-2.0
//
// Test payloads a receiver can check byte by byte: byte i of the payload
// of id is a position-dependent pattern of its own, so a byte out of
// place or from another payload shows (unorc send and recv, unoperf over
// UnoRC).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace unorc {

uint8_t pattern_byte(uint32_t id, uint64_t i);
// out[i] = pattern_byte(id, i).
void fill_pattern(std::span<uint8_t> out, uint32_t id);
std::vector<uint8_t> pattern_message(uint32_t id, size_t size);
// The bytes of b that differ from id's pattern.
uint64_t pattern_mismatches(std::span<const uint8_t> b, uint32_t id);

} // namespace unorc
