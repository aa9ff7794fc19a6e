// SPDX-License-Identifier: GPL-2.0
//
// unoperf: flow completion times between network namespaces of one host.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "record.h" // nlohmann/json.hpp before kernel/core's macros (noinline)
#include "settings.h" // unorc's
#include "spec.h"
#include "workload.h"

namespace unoperf {

// Exit codes of the unoperf command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1; // a flow failed or timed out, or a system error
inline constexpr int kExitUsage = 2;  // bad command line or flow spec

// What carries the flows: a TCP connection each, or an UnoRC flow each
// (userspace/unorc/, one message of the flow's bytes).
enum class Transport { Tcp, Unorc };
const char *transport_name(Transport t);

// The UnoRC receiver's settings. A flow's state is kept for the run (late
// retransmissions still get their ACKs), so a run's flows must all fit.
struct UnorcServerSettings {
	unorc::CodeSettings code;
	unorc::ReceiverSettings rx;
	uint64_t linger_ms = 200; // quiet after --count flows, then exit

	UnorcServerSettings() { rx.max_flows = kMaxGeneratedFlows; }
};

struct ServerOptions {
	std::string bind_addr = "0.0.0.0";
	uint16_t port = kDefaultPort; // 0: any (tests)
	std::string netns;     // empty: stay where we are
	std::string json_path; // empty or "-": stdout
	uint64_t count = 0;    // exit after this many flows; 0: run until a signal
	Transport transport = Transport::Tcp;
	UnorcServerSettings unorc;
	// Called with "ADDR:PORT" once it listens (tests: port 0).
	std::function<void(const std::string &)> on_listening;
};

// The UnoRC senders' settings. The law's C defaults to --rate-mbps.
struct UnorcClientSettings {
	unorc::CodeSettings code;
	unorc::SenderSettings tx;
	bool link_from_rate = true; // no --link-mbps: C is --rate-mbps, if given
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
	Transport transport = Transport::Tcp;
	UnorcClientSettings unorc;
};

// Both return an exit code; errors are reported on stderr.
int run_server(const ServerOptions &opt);
int run_client(const ClientOptions &opt);

// The unoperf command: parses argv and runs; returns the exit code.
int unoperf_main(int argc, char **argv);

} // namespace unoperf
