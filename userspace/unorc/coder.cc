// SPDX-License-Identifier: GPL-2.0
#include "coder.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include <isa-l/erasure_code.h>

namespace unorc {

namespace {

// ISA-L's tables: 32 bytes per matrix coefficient.
constexpr size_t kTblBytes = 32;

void check_config(size_t len, int x, int y)
{
	if (const std::string why = BlockCoder::check(len, x, y); !why.empty())
		throw std::invalid_argument("unorc: " + why);
}

void check_data_count(size_t d, int x)
{
	if (d < 1 || d > static_cast<size_t>(x))
		throw std::invalid_argument("unorc: " + std::to_string(d) +
					    " data packets in a block of up to " + std::to_string(x));
}

// A block of d data packets as decode() takes it.
void check_rx(std::span<const uint8_t *const> rx, size_t d, int x, int n)
{
	check_data_count(d, x);
	if (rx.size() != static_cast<size_t>(n))
		throw std::invalid_argument("unorc: decode needs " + std::to_string(n) + " packet slots");
	for (size_t i = d; i < static_cast<size_t>(x); i++)
		if (rx[i])
			throw std::invalid_argument("unorc: decode: payload at never-sent index " +
						    std::to_string(i));
}

// The generator rows of the x known packets form M: known = M * data, so
// data = M^-1 * known. Returns the rows of M^-1 of the lost data.
std::vector<uint8_t> decode_matrix(const std::vector<uint8_t> &gen, const std::vector<size_t> &rows,
				   const std::vector<size_t> &lost)
{
	const size_t x = rows.size();
	std::vector<uint8_t> m(x * x), inv(x * x);
	for (size_t r = 0; r < x; r++)
		std::copy_n(&gen[rows[r] * x], x, &m[r * x]);
	// Any x rows of [I; Cauchy] are independent.
	if (gf_invert_matrix(m.data(), inv.data(), static_cast<int>(x)))
		throw std::logic_error("unorc: singular decode matrix");
	std::vector<uint8_t> dec(lost.size() * x);
	for (size_t l = 0; l < lost.size(); l++)
		std::copy_n(&inv[lost[l] * x], x, &dec[l * x]);
	return dec;
}

} // namespace

BlockCoder::BlockCoder(size_t len, int x, int y) : x_(x), y_(y), len_(len)
{
	check_config(len, x, y);
	gen_.resize(static_cast<size_t>(packets()) * x);
	gf_gen_cauchy1_matrix(gen_.data(), packets(), x);
	enc_tbls_.resize(kTblBytes * x * y);
	ec_init_tables(x, y, &gen_[static_cast<size_t>(x) * x], enc_tbls_.data());
	zeros_.resize(len);
}

void BlockCoder::encode(std::span<const uint8_t *const> data, std::span<uint8_t *const> parity) const
{
	check_data_count(data.size(), x_);
	if (parity.size() != static_cast<size_t>(y_))
		throw std::invalid_argument("unorc: encode needs " + std::to_string(y_) +
					    " parity buffers");
	// ISA-L takes non-const sources and tables but only reads them.
	std::array<uint8_t *, kMaxPackets> src;
	for (int j = 0; j < x_; j++) {
		const uint8_t *p = static_cast<size_t>(j) < data.size() ? data[j] : zeros_.data();
		if (!p)
			throw std::invalid_argument("unorc: encode: null data payload");
		src[j] = const_cast<uint8_t *>(p);
	}
	for (uint8_t *p : parity)
		if (!p)
			throw std::invalid_argument("unorc: encode: null parity buffer");
	if (y_ > 0)
		ec_encode_data(static_cast<int>(len_), x_, y_, const_cast<uint8_t *>(enc_tbls_.data()),
			       src.data(), const_cast<uint8_t **>(parity.data()));
}

bool BlockCoder::decode(std::span<const uint8_t *const> rx, std::span<uint8_t *const> out) const
{
	const size_t d = out.size(), x = x_;
	check_rx(rx, d, x_, packets());
	std::vector<size_t> lost;
	std::vector<uint8_t *> dst;
	for (size_t i = 0; i < d; i++) {
		if (rx[i])
			continue;
		if (!out[i])
			throw std::invalid_argument("unorc: decode: no buffer for lost data " +
						    std::to_string(i));
		lost.push_back(i);
		dst.push_back(out[i]);
	}

	// The first x packets known, the never-sent zeros included.
	std::vector<size_t> rows;
	std::vector<uint8_t *> src;
	for (size_t i = 0; i < rx.size() && rows.size() < x; i++) {
		const uint8_t *p = i >= d && i < x ? zeros_.data() : rx[i];
		if (!p)
			continue;
		rows.push_back(i);
		src.push_back(const_cast<uint8_t *>(p)); // only read, as in encode()
	}
	if (rows.size() < x)
		return false;
	if (lost.empty())
		return true;

	std::vector<uint8_t> dec = decode_matrix(gen_, rows, lost);
	std::vector<uint8_t> tbls(kTblBytes * dec.size());
	const int nlost = static_cast<int>(lost.size());
	ec_init_tables(x_, nlost, dec.data(), tbls.data());
	ec_encode_data(static_cast<int>(len_), x_, nlost, tbls.data(), src.data(), dst.data());
	return true;
}

} // namespace unorc
