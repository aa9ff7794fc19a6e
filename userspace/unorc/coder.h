// SPDX-License-Identifier: GPL-2.0
//
// UnoRC's block code: systematic Reed-Solomon over GF(2^8) (ISA-L).
//
// A block has n = x + y packets, all payloads of len() bytes: data at
// indices 0..x-1, parity at x..n-1. Parity row r is the Cauchy row
// 1 / ((x + r) ^ j) over data column j (ISA-L's gf_gen_cauchy1_matrix,
// polynomial 0x11d), so any x of the n packets decode: every square
// submatrix of a Cauchy matrix is invertible.
//
// A message's last block may hold only d < x data packets. It is coded as if
// data d..x-1 were zero payloads; those are never sent, so d + y packets go
// out and any d of them decode. The caller zero-pads a data payload
// shorter than len() (a message's last packet).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace unorc {

class BlockCoder {
public:
	// The paper's (8, 2) code.
	static constexpr int kDefaultData = 8;
	static constexpr int kDefaultParity = 2;
	// Cauchy rows and columns are labelled by distinct bytes.
	static constexpr int kMaxPackets = 256;
	// payload_len is a u16 on the wire.
	static constexpr size_t kMaxLen = 65535;

	// Throws std::invalid_argument unless 1 <= x, 0 <= y,
	// x + y <= kMaxPackets and 1 <= len <= kMaxLen (check()).
	explicit BlockCoder(size_t len, int x = kDefaultData, int y = kDefaultParity);

	// What is wrong with the code (x, y) of len-byte payloads, "" if
	// nothing: the constructor's checks, for those who check a setting
	// without building a coder (and linking ISA-L).
	static std::string check(size_t len, int x, int y)
	{
		if (x < 1 || y < 0 || x > kMaxPackets - y)
			return "bad code (" + std::to_string(x) + ", " + std::to_string(y) +
			       "): need 1 <= x, 0 <= y, x + y <= " + std::to_string(kMaxPackets);
		if (len < 1 || len > kMaxLen)
			return "bad payload length " + std::to_string(len) + ": need 1.." +
			       std::to_string(kMaxLen);
		return {};
	}

	int data() const { return x_; }
	int parity() const { return y_; }
	int packets() const { return x_ + y_; }
	size_t len() const { return len_; }

	// Computes the y parity payloads of a block from its d = data.size()
	// data payloads, 1 <= d <= x. Throws std::invalid_argument on other
	// sizes or a null pointer.
	void encode(std::span<const uint8_t *const> data, std::span<uint8_t *const> parity) const;

	// Rebuilds the lost data payloads of a block of d = out.size() data
	// packets, 1 <= d <= x. rx holds n pointers indexed by block_idx: the
	// payload of each packet that arrived, null for lost packets and for
	// the never-sent d..x-1. For each lost data packet i < d, writes its
	// payload to out[i]; other entries of out are not used and may be null.
	// Returns false, and writes nothing, if fewer than d of the d + y sent
	// packets arrived. Throws std::invalid_argument on bad sizes, a payload
	// at d..x-1 or a missing output buffer.
	[[nodiscard]] bool decode(std::span<const uint8_t *const> rx,
				  std::span<uint8_t *const> out) const;

private:
	int x_;
	int y_;
	size_t len_;
	std::vector<uint8_t> gen_;      // n x x generator: identity over Cauchy rows
	std::vector<uint8_t> enc_tbls_; // ec_init_tables() of the y parity rows
	std::vector<uint8_t> zeros_;    // the never-sent data of a short block
};

} // namespace unorc
