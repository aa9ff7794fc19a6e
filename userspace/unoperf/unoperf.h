// SPDX-License-Identifier: GPL-2.0
//
// unoperf: flow completion times between network namespaces of one host.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

struct ClientOptions {
	std::optional<Endpoint> dst;
	std::vector<FlowSpec> specs;
	std::string json_path; // empty or "-": stdout
	unsigned timeout_s = 60;
	std::optional<double> rate_mbps;
	std::optional<uint64_t> base_rtt_us;
	std::string default_cc;
	std::optional<uint64_t> sndbuf;
};

// Both return an exit code; errors are reported on stderr.
int run_server(const ServerOptions &opt);
int run_client(const ClientOptions &opt);

} // namespace unoperf
