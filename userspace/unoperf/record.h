// SPDX-License-Identifier: GPL-2.0
//
// unoperf: flow results, slowdown and the JSON records built from them.
// Pure functions; the I/O lives in client.cc and server.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rtt_hist.h"
#include "spec.h"

namespace unoperf {

using Json = nlohmann::ordered_json;

// Version of the JSON layout, written as "unoperf" in every document.
inline constexpr int kJsonVersion = 1;

// Time to send `size_bytes` at `rate_mbps` (1 Mbit/s = 1 bit/us) plus one
// base RTT: the FCT of a flow alone on an idle path. Microseconds.
double ideal_fct_us(uint64_t size_bytes, double rate_mbps, double base_rtt_us);

// fct / ideal; ideal must be > 0.
double slowdown(double fct_us, double ideal_us);

double ns_to_us(uint64_t ns);

// What an UnoRC flow's sender saw (unorc::FlowStats, SenderCounters).
struct UnorcFlowStats {
	std::string cls;  // the transport's class: inter iff the source is in an inter prefix
	std::string code; // "8+2", "none"
	int subflows = 0;
	uint64_t packets_sent = 0;
	uint64_t bytes_sent = 0; // payload, resent included
	uint64_t retransmissions = 0;
	uint64_t timeouts = 0;
	uint64_t rto_events = 0;
	uint64_t nacks = 0; // TRIMMED ones included
	uint64_t trim_nacks = 0;
	uint64_t repath_events = 0;
	uint64_t max_cwnd = 0;
	uint32_t base_rtt_us = 0;
	uint64_t drops = 0; // replies dropped before the sender saw them
	unorc::RttHistogram rtt_us; // every ACK's RTT sample
};

struct ClientFlowResult {
	uint32_t id = 0;
	std::string ns;   // as given; kCurrentNs for the caller's namespace
	std::string cc;   // in effect on the socket (read back), or as asked
	std::string cls;  // may be empty
	std::string dst;  // ADDR:PORT
	uint64_t size = 0;
	uint64_t offset_us = 0;
	std::optional<uint64_t> base_rtt_us;
	uint64_t sched_ns = 0; // common start + offset; 0 if never scheduled
	uint64_t start_ns = 0; // first byte handed to the socket; 0 if never
	uint64_t end_ns = 0;   // completion byte received; 0 if never
	uint64_t bytes = 0;    // payload bytes handed to the socket
	std::optional<MatrixRef> matrix;
	bool ok = false;
	std::string error;     // why, when !ok
	std::string transport = "tcp";
	std::optional<UnorcFlowStats> unorc; // UnoRC flows that opened
};

// A flow's "unorc" object.
Json unorc_stats_json(const UnorcFlowStats &u);

// One element of the client's "flows" array. `rate_mbps` enables slowdown
// for flows that have a base RTT.
Json client_flow_json(const ClientFlowResult &r, std::optional<double> rate_mbps);

// Nearest rank: the ceil(p/100 * n)-th smallest value (the smallest for
// p = 0); 0 for no values.
double percentile(std::vector<double> v, double p);

struct ClientRun {
	std::string transport = "tcp";
	Json workload; // null: none
	uint64_t common_start_ns = 0;
	std::optional<double> rate_mbps;
	unsigned timeout_s = 0;
	std::vector<ClientFlowResult> flows;
};

// The client's whole document: run parameters, flows, summary. The summary
// has the overall count, min/mean/max/p50/p99 FCT and mean/p50/p99
// slowdown, and "classes": the same per class label, for labelled flows.
Json client_report_json(const ClientRun &run);

struct ServerFlowRecord {
	uint32_t id = 0;
	std::string peer; // ADDR:PORT of the client's socket
	std::string cc;   // of the server's (receiving) socket
	uint64_t size = 0;
	uint64_t client_start_ns = 0;
	uint64_t first_byte_ns = 0; // 0: not known (UnoRC)
	uint64_t last_byte_ns = 0;
	std::string transport = "tcp";
	// UnoRC: the payload bytes that differ from the flow's pattern; a
	// flow with any, or a bad header (error), is not ok.
	std::optional<uint64_t> mismatched_bytes;
	std::string error;
};

// One JSON line of the server's output.
Json server_flow_json(const ServerFlowRecord &r);

} // namespace unoperf
