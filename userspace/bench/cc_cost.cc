// SPDX-License-Identifier: GPL-2.0
//
// cc_cost: replay fixed, deterministic ACK traces through each control-law
// core (kernel/core/) and report what the cores did; run under callgrind
// by scripts/bench_cost.sh, which counts the instructions of the per-ACK
// entry points only (cc_cost.h) and divides by the ACKs. Not a timed test:
// the count is the same on every machine with the same compiler.
//
//   cc_cost --list                 core, trace and entry point of every run
//   cc_cost [-n ACKS] [CORE [TRACE]]   replay, one JSON line per run
//
// The traces are open loop: every core sees the very same ACK stream,
// whatever its window does, so a change to a core that keeps its
// behaviour keeps its trace and its path through it. Adding a core (or a
// variant of one) is one entry in kCores plus its entry point in
// cc_cost_ack.c; adding a trace is one entry in kTraces.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "cc_cost.h"

namespace {

constexpr u32 kLinkMbps = 100000;	// 100 Gbit/s: uno's C, and the traces'
constexpr u32 kIntraRttUs = 14;		// uno's RTT_intra
constexpr u32 kInterMult = 128;		// an inter-DC flow: 128 x RTT_intra
constexpr u32 kMss = 1448;
constexpr u64 kStartUs = 1000000;	// the clock at the first ACK
constexpr u64 kDefaultAcks = 100000;

// One ACK as the transport sees it, before any core's adapter.
struct Ack {
	u64 t_ps;		// arrival time, picoseconds
	u32 acked;		// bytes newly delivered
	u32 lost;		// bytes reported lost (a trim NACK for smartt)
	s32 rtt_us;		// RTT sample, < 0: none (Karn)
	bool ece;
	bool app_limited;
};

struct Trace {
	std::string name;
	u32 base_us;		// the path's base RTT
	u64 window;		// bytes in flight: one BDP
	std::vector<Ack> acks;
};

// splitmix64: a fixed generator, so a trace is the same everywhere.
struct Rng {
	u64 x;
	u64 next()
	{
		u64 z = (x += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		return z ^ (z >> 31);
	}
	u32 below(u32 n) { return (u32)(next() % n); }
};

// Time the link needs for @bytes, in ps.
u64 wire_ps(u64 bytes)
{
	return bytes * 8 * 1000000 / kLinkMbps;
}

struct Gen {
	u32 base;
	u64 n;
	u64 t = kStartUs * 1000000;
	std::vector<Ack> out;

	void ack(u32 acked, s32 rtt, bool ece, u32 slow = 1, u32 lost = 0,
		 bool app_limited = false)
	{
		t += wire_ps(acked) * slow;
		out.push_back({t, acked, lost, rtt, ece, app_limited});
	}
};

// Unmarked, RTT at base, two segments per ACK at line rate: the
// window-limited steady state.
void gen_steady(Gen &g, Rng &)
{
	while (g.out.size() < g.n)
		g.ack(2 * kMss, (s32)g.base, false);
}

// Every 4th ACK ECN-echoed, RTT 3 x base: above smartt's target (1.5 x)
// and above uno's phantom-only threshold, so marks mean decreases.
void gen_marked(Gen &g, Rng &)
{
	for (u64 i = 0; g.out.size() < g.n; i++)
		g.ack(2 * kMss, (s32)(3 * g.base), i % 4 == 3);
}

// A random walk of the queue (0 .. 2 x base), marks with probability
// (queue / (2 x base))^2 / 4, 1..3 segments per ACK, RTT jitter, 2 % of
// ACKs without an RTT sample, 1 % app-limited, 0.2 % reporting a lost
// segment, and now and then (1 in 2000 ACKs) 3 base RTTs at 1/32 of the
// rate, fully queued and mostly marked: the windows in which Quick Adapt
// fires.
void gen_mixed(Gen &g, Rng &r)
{
	const u32 step = g.base / kIntraRttUs ? g.base / kIntraRttUs : 1;
	const u32 qmax = 2 * g.base;
	u64 slow_until = 0;
	u32 q = 0;

	while (g.out.size() < g.n) {
		u32 x = r.below(100), segs, slow = 1;
		bool ece;
		s32 rtt;

		if (x < 45)
			q = q > step ? q - step : 0;
		else if (x < 90)
			q = q + step < qmax ? q + step : qmax;
		x = r.below(20);
		segs = x < 5 ? 1 : x < 17 ? 2 : 3;
		if (g.t >= slow_until && r.below(2000) == 0)
			slow_until = g.t + (u64)3 * g.base * 1000000;
		if (g.t < slow_until) {
			slow = 32;
			q = qmax;
			ece = r.below(4) != 0;
		} else {
			ece = r.below(4096) < (u64)q * q * 1024 / qmax / qmax;
		}
		rtt = (s32)(g.base + q + r.below(step + 1));
		if (r.below(50) == 0)
			rtt = -1;
		g.ack(segs * kMss, rtt, ece, slow,
		      r.below(500) == 0 ? kMss : 0, r.below(100) == 0);
	}
}

// Incast cycles: 4 base RTTs at line rate, lightly queued and unmarked,
// then 4 at 1/16 of it (16 senders), RTT 5 x base, 3 in 4 ACKs marked, 1
// in 8 reporting a trimmed segment: Quick Adapt once per cycle.
void gen_incast(Gen &g, Rng &r)
{
	const u64 phase = (u64)4 * g.base * 1000000;

	while (g.out.size() < g.n) {
		u64 end = g.t + phase;

		while (g.t < end && g.out.size() < g.n)
			g.ack(2 * kMss, (s32)(g.base + r.below(g.base / 7 + 1)),
			      false);
		end = g.t + phase;
		while (g.t < end && g.out.size() < g.n)
			g.ack(2 * kMss, (s32)(5 * g.base), r.below(4) != 0, 16,
			      r.below(8) == 0 ? kMss : 0);
	}
}

struct TraceDef {
	const char *name;
	u32 base_us;
	void (*gen)(Gen &, Rng &);
};

const TraceDef kTraces[] = {
	{"steady", kIntraRttUs, gen_steady},
	{"marked", kIntraRttUs, gen_marked},
	{"mixed", kIntraRttUs, gen_mixed},
	{"incast", kIntraRttUs, gen_incast},
	{"steady-inter", kInterMult * kIntraRttUs, gen_steady},
	{"mixed-inter", kInterMult * kIntraRttUs, gen_mixed},
};

Trace make_trace(const TraceDef &d, u64 n)
{
	Gen g{d.base_us, n, {}, {}};
	Rng r{0};

	for (const char *c = d.name; *c; c++)	// seed: the trace's name
		r.x = r.x * 131 + (u8)*c;
	g.out.reserve(n);
	d.gen(g, r);
	return {d.name, d.base_us, (u64)kLinkMbps * d.base_us / 8,
		std::move(g.out)};
}

u32 now_us(const Ack &a)
{
	return (u32)(a.t_ps / 1000000);
}

struct Result {
	std::map<std::string, u64> events;
	u64 cwnd = 0;		// bytes, at the end
	u64 nacks = 0;
};

// A smoothed RTT, for a core whose ACK carries one (tp->srtt_us >> 3):
// here the last sample, which is what srtt is on these flat traces.
template <typename A> void set_srtt(A &a, u32 us)
{
	if constexpr (requires { a.srtt_us; })
		a.srtt_us = us;
}

// uno: the ACK tcp_uno_cong_control() builds; the sender keeps one
// window in flight, so bytes_sent runs one window ahead of delivery.
std::vector<uno_ack> uno_acks(const Trace &tr)
{
	std::vector<uno_ack> v;
	u64 sent = tr.window;

	v.reserve(tr.acks.size());
	for (const Ack &a : tr.acks) {
		uno_ack u{};

		sent += a.acked + a.lost;
		u.now_us = now_us(a);
		u.acked = a.acked;
		u.rtt_us = a.rtt_us;
		u.min_rtt_us = tr.base_us;
		u.sent = (u32)sent;
		u.mss = kMss;
		u.ece = a.ece;
		u.app_limited = a.app_limited;
		set_srtt(u, a.rtt_us < 0 ? tr.base_us : (u32)a.rtt_us);
		v.push_back(u);
	}
	return v;
}

template <u32 (*entry)(struct uno_state *, const struct uno_ack *)>
Result run_uno(const Trace &tr)
{
	const std::vector<uno_ack> in = uno_acks(tr);
	std::vector<u32> ev(in.size());
	struct uno_state s;
	Result r;

	// tcp_uno_init(): the handshake gave the base RTT.
	uno_init(&s, &bench_uno_params, kMss, tr.base_us, in[0].now_us,
		 (u32)tr.window);
	for (size_t i = 0; i < in.size(); i++)
		ev[i] = entry(&s, &in[i]);

	for (u32 e : ev) {
		r.events["epoch"] += !!(e & UNO_EV_EPOCH);
		r.events["md"] += !!(e & UNO_EV_MD);
		r.events["md_phantom"] += !!(e & UNO_EV_MD_PHANTOM);
		r.events["trend"] += !!(e & UNO_EV_TREND);
		r.events["qa"] += !!(e & UNO_EV_QA);
	}
	r.cwnd = uno_cwnd_bytes(&s);
	return r;
}

using smartt_init_fn = void (*)(struct smartt_state *,
				const struct smartt_params *, u32, u32);

template <u32 (*entry)(struct smartt_state *, const struct bench_smartt_in *),
	  smartt_init_fn init = smartt_init>
Result run_smartt(const Trace &tr)
{
	static const char *const names[] = {
		"none", "ignored", "quick_adapt", "fast_inc", "md",
		"path_change", "fair_inc", "prop_inc", "loss"};
	std::vector<bench_smartt_in> in;
	std::vector<u32> ev(tr.acks.size());
	struct smartt_state s;
	Result r;

	in.reserve(tr.acks.size());
	for (const Ack &a : tr.acks)
		in.push_back({{now_us(a), a.acked, a.rtt_us, (u32)tr.window,
			       a.ece}, a.lost});
	// tcp_smartt_init(): the handshake's RTT is the first base RTT.
	init(&s, &bench_smartt_params, kMss, tr.base_us);
	for (size_t i = 0; i < in.size(); i++)
		ev[i] = entry(&s, &in[i]);

	for (u32 e : ev) {
		r.events[names[(e & 0xff) % 9]]++;
		if (e >> 8) {
			r.nacks++;
			r.events[std::string("nack_") + names[(e >> 8) % 9]]++;
		}
	}
	r.cwnd = s.cwnd;
	return r;
}

// The calibration run: the cost of calling an entry point at all.
Result run_null(const Trace &tr)
{
	for (const Ack &a : tr.acks)
		bench_null_ack(nullptr, &a);
	return {};
}

struct Core {
	const char *name;
	const char *entry;	// what callgrind counts (--toggle-collect)
	Result (*run)(const Trace &);
};

const Core kCores[] = {
	{"null", "bench_null_ack", run_null},
	{"uno", "bench_uno_ack", run_uno<bench_uno_ack>},
	{"smartt", "bench_smartt_ack", run_smartt<bench_smartt_ack>},
	{"nscc", "bench_nscc_ack", run_smartt<bench_nscc_ack, nscc_init>},
	{"uno+tcp", "bench_uno_tcp_ack", run_uno<bench_uno_tcp_ack>},
	{"smartt+tcp", "bench_smartt_tcp_ack",
	 run_smartt<bench_smartt_tcp_ack>},
};

void usage()
{
	fprintf(stderr, "usage: cc_cost --list | cc_cost [-n ACKS] [CORE [TRACE]]\n");
	exit(2);
}

} // namespace

int main(int argc, char **argv)
{
	const char *core = nullptr, *trace = nullptr;
	u64 n = kDefaultAcks;
	bool list = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list")) {
			list = true;
		} else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			n = strtoull(argv[++i], nullptr, 10);
			if (!n)
				usage();
		} else if (argv[i][0] == '-') {
			usage();
		} else if (!core) {
			core = argv[i];
		} else if (!trace) {
			trace = argv[i];
		} else {
			usage();
		}
	}

	// Parameters: uno's defaults are the paper's 100 Gbit/s, 14 us;
	// smartt keeps its defaults but for the link rate, the traces'.
	bench_smartt_params.link_rate_mbps = kLinkMbps;

	int runs = 0;
	for (const Core &c : kCores) {
		if (core && strcmp(core, c.name))
			continue;
		for (const TraceDef &d : kTraces) {
			if (trace && strcmp(trace, d.name))
				continue;
			runs++;
			if (list) {
				printf("%s %s %s\n", c.name, d.name, c.entry);
				continue;
			}
			const Trace tr = make_trace(d, n);
			const Result r = c.run(tr);

			printf("{\"core\":\"%s\",\"trace\":\"%s\",\"entry\":\"%s\","
			       "\"acks\":%zu,\"nacks\":%llu,\"base_rtt_us\":%u,"
			       "\"cwnd\":%llu,\"events\":{",
			       c.name, d.name, c.entry, tr.acks.size(),
			       (unsigned long long)r.nacks, d.base_us,
			       (unsigned long long)r.cwnd);
			const char *sep = "";
			for (const auto &[k, v] : r.events) {
				printf("%s\"%s\":%llu", sep, k.c_str(),
				       (unsigned long long)v);
				sep = ",";
			}
			printf("}}\n");
		}
	}
	if (!runs) {
		fprintf(stderr, "cc_cost: no core '%s' with trace '%s'\n",
			core ? core : "*", trace ? trace : "*");
		return 2;
	}
	return 0;
}
