/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Big-endian (network order) integers in a byte buffer, for the tools'
 * wire formats (unoperf's flow header, unorc's datagrams): byte by byte,
 * so neither alignment nor the host's order matters.
 */
#ifndef _UNO_BE_H
#define _UNO_BE_H

#include <cstddef>
#include <cstdint>

namespace uno {

template <typename T> void put_be(uint8_t *p, T v)
{
	for (size_t i = 0; i < sizeof(T); ++i)
		p[i] = static_cast<uint8_t>(v >> (8 * (sizeof(T) - 1 - i)));
}

template <typename T> T get_be(const uint8_t *p)
{
	T v = 0;
	for (size_t i = 0; i < sizeof(T); ++i)
		v = static_cast<T>((v << 8) | p[i]);
	return v;
}

} // namespace uno

#endif /* _UNO_BE_H */
