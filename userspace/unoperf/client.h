// SPDX-License-Identifier: GPL-2.0
//
// unoperf client internals shared by the two engines (client.cc: a thread
// per flow; loop.cc: an event loop per sender namespace).
#pragma once

#include <signal.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "record.h"
#include "sys.h"
#include "unoperf.h"
#include "wire.h"

namespace unoperf {

// An UnoRC flow's one message: the flow's header (wire.h), then its bytes.
inline constexpr uint64_t kMaxUnorcSize = UINT32_MAX - kHeaderSize;
// The cc an UnoRC server reports for a flow: the default law's (--cc uno);
// the wire does not say the sender's.
inline constexpr const char *kUnorcCc = "uno";

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

// What the threads of the namespace engines share: latches set by the
// main thread or by a flow's failure.
struct Latches {
	Fd abort = make_eventfd();    // latch: stop now
	Fd progress = make_eventfd(); // counter: a loop finished or a flow failed
};

// One namespace's flows on one thread (the loop engines, TCP and UnoRC).
class NsRunner {
public:
	virtual ~NsRunner() = default;
	// Runs every flow to its end, then sets finished; never throws.
	virtual void run() noexcept = 0;

	std::atomic<bool> finished{false};
	std::atomic<bool> failed{false};    // a flow failed on its own
	std::atomic<int64_t> failed_id{-1}; // the first one

protected:
	// Records flow id's failure and wakes the main thread.
	void note_failure(uint32_t id, const Latches &l);
};

// /run/netns/NAME of every plan's namespace, opened: all must exist
// before any flow starts.
std::map<std::string, Fd> open_namespaces(const std::vector<FlowPlan> &plans);

// Runs each runner on a thread of its own until all finished. A flow's
// failure, or SIGINT or SIGTERM on `signals`, sets the abort latch, and
// the reason is returned; "" if nothing failed.
std::string run_ns_threads(const std::vector<NsRunner *> &runners, const Latches &l,
			   SignalFd &signals);

// The event-loop engine; returns an exit code. Throws on system errors.
int run_loop_client(const ClientOptions &opt, std::vector<FlowPlan> plans);
// The same over UnoRC (unorc_client.cc).
int run_unorc_client(const ClientOptions &opt, std::vector<FlowPlan> plans);

} // namespace unoperf
