// SPDX-License-Identifier: GPL-2.0
//
// The distribution of a flow's per-packet RTTs (arcane.md 4.3 H2, H5:
// spraying's RTTs against ARCANE's), in log-linear buckets that flows add
// into one another: every microsecond below 64 us its own bucket, then 16
// buckets per power of two, each 1/16 of its octave wide, so that a
// bucket's lower bound is within 6.25 % of any RTT it holds. A bucket is
// named by its lower bound, which is what the JSON carries and what a
// merge of many flows adds by.
#pragma once

#include <bit>
#include <cstdint>
#include <map>
#include <string>

namespace unorc {

class RttHistogram {
public:
	static constexpr uint32_t kLinear = 64;	// us: one bucket each
	static constexpr uint32_t kSubBits = 4;	// 16 buckets per octave

	// The lower bound of the bucket that holds us.
	static uint32_t bucket_of(uint32_t us)
	{
		if (us < kLinear)
			return us;
		const int shift = std::bit_width(us) - 1 - static_cast<int>(kSubBits);
		return (us >> shift) << shift;
	}

	void add(uint32_t us) { counts_[bucket_of(us)]++; }

	// Another flow's samples added to these.
	void merge(const RttHistogram &o)
	{
		for (const auto &[lower_us, n] : o.counts_)
			counts_[lower_us] += n;
	}

	uint64_t samples() const
	{
		uint64_t n = 0;
		for (const auto &[lower_us, c] : counts_)
			n += c;
		return n;
	}

	// The q-quantile (0 < q <= 1) by nearest rank: the lower bound of
	// the bucket that holds the ceil(q * samples)-th smallest sample;
	// 0 with no samples.
	uint32_t quantile(double q) const
	{
		const uint64_t total = samples();
		auto rank = static_cast<uint64_t>(q * static_cast<double>(total));
		if (static_cast<double>(rank) < q * static_cast<double>(total))
			rank++;
		uint64_t seen = 0;
		for (const auto &[lower_us, n] : counts_) {
			seen += n;
			if (seen >= rank && seen > 0)
				return lower_us;
		}
		return 0;
	}

	// Bucket lower bound (us) -> samples, the empty buckets left out.
	const std::map<uint32_t, uint64_t> &counts() const { return counts_; }

private:
	std::map<uint32_t, uint64_t> counts_;
};

// As JSON (nlohmann's json or ordered_json): each bucket's lower bound, in
// decimal since JSON's keys are strings, to its samples.
template <class Json> Json rtt_hist_json(const RttHistogram &h)
{
	Json j = Json::object();
	for (const auto &[lower_us, n] : h.counts())
		j[std::to_string(lower_us)] = n;
	return j;
}

} // namespace unorc
