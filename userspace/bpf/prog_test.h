// SPDX-License-Identifier: GPL-2.0
//
// The harness of the tests that run our tc programs with
// BPF_PROG_TEST_RUN (lb_prog_test, reflex_prog_test, mlcc_ns_prog_test):
// a program run on a frame, checked or not, and cut short at every
// length; a per-CPU counter summed over the CPUs; a map's entry and its
// keys counted; the clock the programs read. Each takes the skeleton's
// program or map, so that a fixture binds its own in a line.
//
// A file that includes the core headers (core_user.h) includes this one
// before them: its system and library headers must come first.
#pragma once

#include <time.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <gtest/gtest.h>

#include "frame_bytes.h"

namespace progtest {

using frame::Bytes;
using Counts = std::vector<uint64_t>;

// One run. (Not `Run`: in a TEST_F that would name testing::Test::Run.)
struct TestRun {
	int err;	// of BPF_PROG_TEST_RUN: 0, or -errno
	int ret;	// the program's verdict
	Bytes out;	// the frame it left
};

// Runs prog on the frame, its skb marked `mark`. The context goes in only
// with a mark: without one the kernel makes its own.
inline TestRun prog_run(const bpf_program *prog, const Bytes &in, uint32_t mark = 0)
{
	Bytes out(in.size() + 256);
	__sk_buff ctx = {};
	ctx.mark = mark;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = in.data(),
		    .data_out = out.data(), .data_size_in = static_cast<uint32_t>(in.size()),
		    .data_size_out = static_cast<uint32_t>(out.size()), .repeat = 1);
	if (mark) {
		opts.ctx_in = &ctx;
		opts.ctx_size_in = sizeof(ctx);
	}
	const int err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
	out.resize(err ? 0 : opts.data_size_out);
	return { err, static_cast<int>(opts.retval), out };
}

// Runs prog on the frame; returns what it made of it.
inline Bytes run(const bpf_program *prog, const Bytes &in, int want_ret, uint32_t mark = 0)
{
	const TestRun r = prog_run(prog, in, mark);
	EXPECT_EQ(r.err, 0) << std::strerror(-r.err);
	EXPECT_EQ(r.ret, want_ret);
	return r.out;
}

// The first len bytes of b.
inline Bytes cut(const Bytes &b, size_t len)
{
	return Bytes(b.begin(), b.begin() + static_cast<long>(len));
}

// Each cut of a frame `whole` short of its last byte through prog, marked
// `mark`: BPF_PROG_TEST_RUN refuses (EINVAL) one shorter than min_len, its
// Ethernet and IP headers, which the stack would not have taken either;
// the others must come back unchanged, with the verdict want(len).
template <typename Want>
void expect_cuts(const bpf_program *prog, const Bytes &whole, size_t min_len, Want want,
		 uint32_t mark = 0)
{
	for (size_t len = 0; len < whole.size(); len++) {
		SCOPED_TRACE("cut at " + std::to_string(len));
		const Bytes in = cut(whole, len);
		const TestRun r = prog_run(prog, in, mark);
		if (len < min_len) {
			EXPECT_EQ(r.err, -EINVAL);
			continue;
		}
		EXPECT_EQ(r.err, 0) << std::strerror(-r.err);
		EXPECT_EQ(r.ret, want(len));
		EXPECT_EQ(r.out, in);
	}
}

// Counter `key` of a per-CPU array of u64, summed over the CPUs.
inline uint64_t percpu_sum(const bpf_map *m, uint32_t key)
{
	std::vector<uint64_t> v(static_cast<size_t>(libbpf_num_possible_cpus()));
	EXPECT_EQ(bpf_map__lookup_elem(m, &key, sizeof(key), v.data(),
				       v.size() * sizeof(uint64_t), 0),
		  0);
	uint64_t sum = 0;
	for (uint64_t x : v)
		sum += x;
	return sum;
}

// Counters 0..n-1 of a per-CPU array, each summed.
inline Counts percpu_counts(const bpf_map *m, uint32_t n)
{
	Counts c;
	for (uint32_t k = 0; k < n; k++)
		c.push_back(percpu_sum(m, k));
	return c;
}

// before, each of delta's counters that much higher.
inline Counts plus(Counts c, std::initializer_list<std::pair<uint32_t, uint64_t>> delta)
{
	for (const auto &[which, n] : delta)
		c[which] += n;
	return c;
}

// The map's value of key, if it has one.
template <typename K, typename V>
bool map_get(const bpf_map *m, const K &key, V *val)
{
	return bpf_map__lookup_elem(m, &key, sizeof(key), val, sizeof(*val), 0) == 0;
}

// Sets the map's value of key; fails the test (the caller's part of it)
// where it cannot.
template <typename K, typename V>
void map_put(const bpf_map *m, const K &key, const V &val, uint64_t flags = BPF_ANY)
{
	ASSERT_EQ(bpf_map__update_elem(m, &key, sizeof(key), &val, sizeof(val), flags), 0);
}

// How many keys of type K the map holds.
template <typename K>
size_t map_keys(const bpf_map *m)
{
	size_t n = 0;
	K k, next;
	for (const void *prev = nullptr;
	     !bpf_map__get_next_key(m, prev, &next, sizeof(next)); prev = &k, n++)
		k = next;
	return n;
}

// CLOCK_MONOTONIC, which the programs read as bpf_ktime_get_ns().
inline uint64_t mono_ns()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000 +
	       static_cast<uint64_t>(ts.tv_nsec);
}

// The IPv4 header checksum of an Ethernet frame sums to 0.
inline bool ip_checksum_ok(const Bytes &b)
{
	return frame::fold(frame::sum16(b, frame::kEthLen, frame::kIp4Len)) == 0;
}

// The sum of an IPv4 frame's pseudo-header (RFC 793, 768), its L4 from
// right after an IP header of 20 bytes to the frame's end.
inline uint32_t pseudo_sum(const Bytes &b)
{
	constexpr size_t l4 = frame::kEthLen + frame::kIp4Len;
	return frame::sum16(b, frame::kEthLen + 12, 8) + b[frame::kEthLen + 9] +
	       static_cast<uint32_t>(b.size() - l4);
}

// The L4 checksum over its pseudo-header sums to 0.
inline bool l4_checksum_ok(const Bytes &b)
{
	constexpr size_t l4 = frame::kEthLen + frame::kIp4Len;
	return frame::fold(frame::sum16(b, l4, b.size() - l4, pseudo_sum(b))) == 0;
}

} // namespace progtest
