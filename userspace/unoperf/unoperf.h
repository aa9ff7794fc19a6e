// SPDX-License-Identifier: GPL-2.0
//
// unoperf: flow completion times between network namespaces of one host.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "record.h"
#include "spec.h"

namespace unoperf {

// Exit codes of the unoperf command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1; // a flow failed or timed out, or a system error
inline constexpr int kExitUsage = 2;  // bad command line or flow spec

struct ServerOptions {
	std::string bind_addr = "0.0.0.0";
	uint16_t port = kDefaultPort;
	std::string netns;     // empty: stay where we are
	std::string json_path; // empty or "-": stdout
	uint64_t count = 0;    // exit after this many flows; 0: run until a signal
};

// How the client runs its flows.
enum class Engine {
	// A thread per flow; all flows connect, then start together at common
	// start + offset. For --flow specs: tight starts of a few flows.
	Threads,
	// One event loop thread per sender namespace; each flow connects
	// connect_ahead_us before its start and closes when done. For
	// generated workloads: thousands of flows staggered over seconds.
	Loop,
};

struct ClientOptions {
	std::optional<Endpoint> dst;
	std::vector<FlowSpec> specs;
	std::string json_path; // empty or "-": stdout
	unsigned timeout_s = 60;
	std::optional<double> rate_mbps;
	std::optional<uint64_t> base_rtt_us;
	std::string default_cc;
	std::optional<uint64_t> sndbuf;
	// Per class label ("intra", "inter"): used when a flow has no cc= or
	// base_rtt= of its own, before default_cc / base_rtt_us.
	std::map<std::string, std::string, std::less<>> cc_by_class;
	std::map<std::string, uint64_t, std::less<>> base_rtt_by_class;
	Engine engine = Engine::Threads;
	uint64_t connect_ahead_us = 100'000; // Engine::Loop
	bool dry_run = false;                // print the plan as JSON, no network
	Json workload;                       // copied to the output as "workload"
};

// Both return an exit code; errors are reported on stderr.
int run_server(const ServerOptions &opt);
int run_client(const ClientOptions &opt);

} // namespace unoperf
