// SPDX-License-Identifier: GPL-2.0
//
// unoperf client internals shared by the two engines (client.cc: a thread
// per flow; loop.cc: an event loop per sender namespace).
#pragma once

#include <signal.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "record.h"
#include "sys.h"
#include "unoperf.h"

namespace unoperf {

struct FlowPlan {
	uint32_t id = 0;
	std::string ns;
	int ns_fd = -1; // -1: the caller's namespace
	std::string cc;
	std::string cls;
	Endpoint dst;
	uint64_t size = 0;
	uint64_t offset_us = 0;
	std::optional<uint64_t> base_rtt_us;
	std::optional<uint64_t> sndbuf;
	std::optional<MatrixRef> matrix;
};

// A result with the plan's fields filled in.
ClientFlowResult initial_result(const FlowPlan &p);

// SIGINT and SIGTERM, blocked for the whole process (threads created later
// inherit the mask) and read from a descriptor.
class SignalFd {
public:
	SignalFd();
	int get() const { return fd_.get(); }
	// The pending signal's name ("SIGINT"), or "" if none.
	std::string take();

private:
	sigset_t mask_;
	Fd fd_;
};

// Writes the client's JSON document to `out` and a one-line summary (and
// the failed flows) to stderr. `abort_reason` is empty when nothing failed.
void report(OutputFile &out, const ClientOptions &opt, uint64_t common_start_ns,
	    std::vector<ClientFlowResult> results, const std::string &abort_reason);

// Whether this process may use SCHED_FIFO: tried on the calling thread.
bool rt_available();

// The event-loop engine; returns an exit code. Throws on system errors.
int run_loop_client(const ClientOptions &opt, std::vector<FlowPlan> plans);

} // namespace unoperf
