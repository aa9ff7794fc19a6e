// SPDX-License-Identifier: GPL-2.0
//
// The per-packet RTT histogram (rtt_hist.h): exact buckets at the edges of
// the linear range and of octaves, merges, and quantiles by nearest rank.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>

#include "rtt_hist.h"

namespace unorc {
namespace {

TEST(RttHistogram, BucketsAreLogLinear)
{
	for (uint32_t us : { 0u, 1u, 63u })
		EXPECT_EQ(RttHistogram::bucket_of(us), us);
	// 64..127: 16 buckets of 4 us; 128..255: of 8 us; and so on.
	EXPECT_EQ(RttHistogram::bucket_of(64), 64u);
	EXPECT_EQ(RttHistogram::bucket_of(67), 64u);
	EXPECT_EQ(RttHistogram::bucket_of(68), 68u);
	EXPECT_EQ(RttHistogram::bucket_of(127), 124u);
	EXPECT_EQ(RttHistogram::bucket_of(128), 128u);
	EXPECT_EQ(RttHistogram::bucket_of(135), 128u);
	EXPECT_EQ(RttHistogram::bucket_of(136), 136u);
	EXPECT_EQ(RttHistogram::bucket_of(1000), 992u);
	EXPECT_EQ(RttHistogram::bucket_of(1000000), 983040u);
	EXPECT_EQ(RttHistogram::bucket_of(UINT32_MAX), 0xf8000000u);
	// A bucket's lower bound is within 1/16 of what it holds.
	for (uint32_t us = 64; us < 1u << 20; us += 7)
		EXPECT_LE(us - RttHistogram::bucket_of(us), us / 16) << us;
}

TEST(RttHistogram, MergeAndQuantiles)
{
	RttHistogram a, b;

	EXPECT_EQ(a.samples(), 0u);
	EXPECT_EQ(a.quantile(0.99), 0u);
	for (uint32_t i = 0; i < 98; i++)
		a.add(100);
	b.add(1000);
	b.add(5000);
	a.merge(b);
	EXPECT_EQ(a.counts(), (std::map<uint32_t, uint64_t>{ { 100, 98 }, { 992, 1 }, { 4864, 1 } }));
	EXPECT_EQ(a.samples(), 100u);
	EXPECT_EQ(a.quantile(0.5), 100u);
	EXPECT_EQ(a.quantile(0.98), 100u);	// the 98th of 100
	EXPECT_EQ(a.quantile(0.99), 992u);	// the 99th
	EXPECT_EQ(a.quantile(1.0), 4864u);
}

} // namespace
} // namespace unorc
