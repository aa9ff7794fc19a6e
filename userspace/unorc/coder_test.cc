// SPDX-License-Identifier: GPL-2.0
//
// BlockCoder: spec U13 (every erasure pattern of RS(10, 8), full and short
// last blocks), the parity against a plain GF(2^8) Cauchy code, other code
// shapes and the rejected configurations and arguments.
#include <algorithm>
#include <bit>
#include <climits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "coder.h"

using namespace unorc;

namespace {

// Payload lengths around ISA-L's 16, 32 and 64-byte vector loops.
constexpr size_t kLens[] = { 1, 33, 1400 };
constexpr uint8_t kCanary = 0xa5;

// One block: payloads by block_idx; the never-sent d..x-1 are empty.
struct Block {
	int d;
	std::vector<std::vector<uint8_t>> pkt;
};

Block make_block(const BlockCoder &c, int d, std::mt19937 &rng)
{
	Block b{ d, std::vector<std::vector<uint8_t>>(c.packets()) };
	std::vector<const uint8_t *> data;
	std::vector<uint8_t *> parity;
	for (int i = 0; i < d; i++) {
		b.pkt[i].resize(c.len());
		for (auto &byte : b.pkt[i])
			byte = static_cast<uint8_t>(rng());
		data.push_back(b.pkt[i].data());
	}
	for (int i = c.data(); i < c.packets(); i++) {
		b.pkt[i].resize(c.len());
		parity.push_back(b.pkt[i].data());
	}
	c.encode(data, parity);
	return b;
}

// The block_idx of every packet sent: data 0..d-1, parity x..n-1.
std::vector<int> sent(const BlockCoder &c, int d)
{
	std::vector<int> s;
	for (int i = 0; i < c.packets(); i++)
		if (i < d || i >= c.data())
			s.push_back(i);
	return s;
}

// Every k-element subset of s (s.size() < 32).
std::vector<std::vector<int>> subsets(const std::vector<int> &s, int k)
{
	std::vector<std::vector<int>> all;
	for (uint32_t m = 0; m < 1u << s.size(); m++) {
		if (std::popcount(m) != k)
			continue;
		std::vector<int> sub;
		for (size_t i = 0; i < s.size(); i++)
			if (m >> i & 1)
				sub.push_back(s[i]);
		all.push_back(sub);
	}
	return all;
}

enum class Outcome {
	Decoded,     // decode() succeeded, every lost data payload bit-exact
	Undecodable, // decode() said so and wrote nothing
	Wrong,       // anything else
};

Outcome decode_without(const BlockCoder &c, const Block &b, const std::vector<int> &lost)
{
	std::vector<const uint8_t *> rx(c.packets());
	for (int i = 0; i < c.packets(); i++)
		rx[i] = b.pkt[i].empty() ? nullptr : b.pkt[i].data();
	for (int i : lost)
		rx[i] = nullptr;
	const std::vector<uint8_t> canary(c.len(), kCanary);
	std::vector<std::vector<uint8_t>> buf(b.d, canary);
	std::vector<uint8_t *> out;
	for (auto &v : buf)
		out.push_back(v.data());

	const bool ok = c.decode(rx, out);
	for (int i = 0; i < b.d; i++) {
		const bool rebuilt = ok && !rx[i];
		if (buf[i] != (rebuilt ? b.pkt[i] : canary))
			return Outcome::Wrong;
	}
	return ok ? Outcome::Decoded : Outcome::Undecodable;
}

// GF(2^8) with ISA-L's polynomial x^8 + x^4 + x^3 + x^2 + 1, the slow way.
uint8_t gf_mul(uint8_t a, uint8_t b)
{
	uint8_t p = 0;
	for (; b; b >>= 1) {
		if (b & 1)
			p ^= a;
		a = static_cast<uint8_t>(a << 1 ^ (a & 0x80 ? 0x1d : 0));
	}
	return p;
}

uint8_t gf_inv(uint8_t a)
{
	for (int b = 1; b < 256; b++)
		if (gf_mul(a, static_cast<uint8_t>(b)) == 1)
			return static_cast<uint8_t>(b);
	return 0;
}

} // namespace

TEST(Rs108, EveryPatternOfUpToTwoErasuresDecodes)
{
	std::mt19937 rng(13);
	for (size_t len : kLens) {
		const BlockCoder c(len);
		ASSERT_EQ(c.data(), 8);
		ASSERT_EQ(c.parity(), 2);
		const Block b = make_block(c, 8, rng);
		const auto all = sent(c, 8);
		EXPECT_EQ(subsets(all, 1).size(), 10u);
		EXPECT_EQ(subsets(all, 2).size(), 45u);
		for (int k = 0; k <= 2; k++)
			for (const auto &lost : subsets(all, k))
				EXPECT_EQ(decode_without(c, b, lost), Outcome::Decoded)
					<< "len " << len << " lost " << testing::PrintToString(lost);
	}
}

TEST(Rs108, EveryThreeErasurePatternIsUndecodable)
{
	std::mt19937 rng(13);
	for (size_t len : kLens) {
		const BlockCoder c(len);
		const Block b = make_block(c, 8, rng);
		const auto patterns = subsets(sent(c, 8), 3);
		EXPECT_EQ(patterns.size(), 120u);
		for (const auto &lost : patterns)
			EXPECT_EQ(decode_without(c, b, lost), Outcome::Undecodable)
				<< "len " << len << " lost " << testing::PrintToString(lost);
	}
}

TEST(Rs108, ShortLastBlock)
{
	std::mt19937 rng(13);
	for (size_t len : kLens) {
		const BlockCoder c(len);
		for (int d = 1; d < 8; d++) {
			const Block b = make_block(c, d, rng);
			const auto all = sent(c, d);
			ASSERT_EQ(all.size(), static_cast<size_t>(d + 2));
			for (int k = 0; k <= 3; k++)
				for (const auto &lost : subsets(all, k))
					EXPECT_EQ(decode_without(c, b, lost),
						  k <= 2 ? Outcome::Decoded : Outcome::Undecodable)
						<< "len " << len << " d " << d << " lost "
						<< testing::PrintToString(lost);
		}
	}
}

// The parity other implementations must compute: row r of a block with d
// data packets is sum over j < d of data[j] / ((x + r) ^ j).
TEST(Coder, ParityIsTheCauchyCode)
{
	std::mt19937 rng(13);
	for (auto [x, y] : { std::pair{ 8, 2 }, { 3, 4 }, { 1, 1 }, { 200, 56 } }) {
		const BlockCoder c(37, x, y);
		for (int d : { x, (x + 1) / 2 }) {
			const Block b = make_block(c, d, rng);
			for (int r = 0; r < y; r++)
				for (size_t k = 0; k < c.len(); k++) {
					uint8_t want = 0;
					for (int j = 0; j < d; j++)
						want ^= gf_mul(gf_inv(static_cast<uint8_t>((x + r) ^ j)),
							       b.pkt[j][k]);
					ASSERT_EQ(b.pkt[x + r][k], want)
						<< "(" << x << ", " << y << ") d " << d << " row " << r;
				}
		}
	}
}

// Random patterns of y and y + 1 losses, full and short blocks.
TEST(Coder, OtherShapes)
{
	std::mt19937 rng(13);
	const std::pair<int, int> shapes[] = {
		{ 1, 0 },   { 1, 1 },     { 1, 3 },   { 2, 1 },   { 4, 4 },  { 16, 4 },
		{ 250, 6 }, { 128, 128 }, { 1, 255 }, { 255, 1 }, { 256, 0 },
	};
	for (auto [x, y] : shapes) {
		const BlockCoder c(64, x, y);
		for (int d : { x, 1 + static_cast<int>(rng() % x) }) {
			const Block b = make_block(c, d, rng);
			auto all = sent(c, d);
			for (int trial = 0; trial < 10; trial++) {
				std::shuffle(all.begin(), all.end(), rng);
				const std::vector<int> lost(all.begin(), all.begin() + y);
				EXPECT_EQ(decode_without(c, b, lost), Outcome::Decoded)
					<< "(" << x << ", " << y << ") d " << d;
				const std::vector<int> lost_more(all.begin(), all.begin() + y + 1);
				EXPECT_EQ(decode_without(c, b, lost_more), Outcome::Undecodable)
					<< "(" << x << ", " << y << ") d " << d;
			}
		}
	}
}

TEST(Coder, RejectsBadConfiguration)
{
	struct {
		size_t len;
		int x, y;
	} const bad[] = { { 1400, 0, 2 },   { 1400, -1, 2 },      { 1400, 8, -1 },
			  { 1400, 255, 2 }, { 1400, 257, 0 },     { 1400, 1, 256 },
			  { 1400, INT_MAX, 1 }, { 1400, 1, INT_MAX }, { 0, 8, 2 },
			  { 65536, 8, 2 } };
	for (const auto &b : bad)
		EXPECT_THROW(BlockCoder(b.len, b.x, b.y), std::invalid_argument)
			<< b.len << " (" << b.x << ", " << b.y << ")";
	const auto error_of = [](size_t len, int x, int y) -> std::string {
		try {
			BlockCoder(len, x, y);
		} catch (const std::invalid_argument &e) {
			return e.what();
		}
		return "";
	};
	EXPECT_EQ(error_of(1400, 0, 2), "unorc: bad code (0, 2): need 1 <= x, 0 <= y, x + y <= 256");
	EXPECT_EQ(error_of(0, 8, 2), "unorc: bad payload length 0: need 1..65535");
	EXPECT_NO_THROW(BlockCoder(1, 1, 0));
	EXPECT_NO_THROW(BlockCoder(65535, 256, 0));
	EXPECT_NO_THROW(BlockCoder(1400, 1, 255));
}

TEST(Coder, RejectsBadArguments)
{
	const BlockCoder c(16);
	std::vector<uint8_t> buf(16);
	const std::vector<const uint8_t *> data(9, buf.data());
	const std::vector<uint8_t *> parity(2, buf.data());
	const std::span<const uint8_t *const> d8(data.data(), 8);

	EXPECT_THROW(c.encode({}, parity), std::invalid_argument);
	EXPECT_THROW(c.encode(data, parity), std::invalid_argument);
	EXPECT_THROW(c.encode(d8, std::span(parity).first(1)), std::invalid_argument);
	const std::vector<const uint8_t *> null_data(8, nullptr);
	EXPECT_THROW(c.encode(null_data, parity), std::invalid_argument);
	const std::vector<uint8_t *> null_parity(2, nullptr);
	EXPECT_THROW(c.encode(d8, null_parity), std::invalid_argument);

	std::vector<const uint8_t *> rx(10, buf.data());
	const std::vector<uint8_t *> out(8, buf.data());
	EXPECT_THROW((void)c.decode(std::span(rx).first(9), out), std::invalid_argument);
	EXPECT_THROW((void)c.decode(rx, {}), std::invalid_argument);
	// d = 7: index 7 was never sent.
	EXPECT_THROW((void)c.decode(rx, std::span(out).first(7)), std::invalid_argument);
	rx[7] = nullptr;
	EXPECT_TRUE(c.decode(rx, std::span(out).first(7)));
	// A lost data packet needs somewhere to go.
	rx[3] = nullptr;
	std::vector<uint8_t *> no_out(out);
	no_out[3] = nullptr;
	EXPECT_THROW((void)c.decode(rx, std::span(no_out).first(7)), std::invalid_argument);
}

TEST(Coder, NoParity)
{
	std::mt19937 rng(13);
	const BlockCoder c(100, 4, 0);
	const Block b = make_block(c, 4, rng);
	EXPECT_EQ(decode_without(c, b, {}), Outcome::Decoded);
	EXPECT_EQ(decode_without(c, b, { 2 }), Outcome::Undecodable);
}
