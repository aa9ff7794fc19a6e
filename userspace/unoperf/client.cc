// SPDX-License-Identifier: GPL-2.0
//
// unoperf client: one thread per flow, started together.
//
// A thread per flow because a network namespace is a per-thread property:
// each thread setns()es into its flow's namespace, creates its socket there
// and then never has to switch back. The threads go through three steps:
//
//   1. connect (every flow, before any byte is sent);
//   2. wait for the "go" latch, set by the main thread once all flows are
//      connected, together with the common start time;
//   3. sleep until common start + offset on an absolute CLOCK_MONOTONIC timer,
//      send the header and the payload, and wait for the server's one-byte
//      answer.
//
// Every wait is a poll() that also watches the "abort" latch, so a failing
// flow, a timeout or SIGINT stops all flows at once. The sleep of step 3 uses
// a timerfd armed with TFD_TIMER_ABSTIME: the same absolute hrtimer as
// clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME), but pollable with the abort
// latch, and without the timer slack nanosleep adds.
//
// On a host with fewer cores than flows, the threads that wake at the common
// start queue for a CPU behind the ones already sending, and softirq work of
// the first flows (on veth, the receiver's too) runs in their context: starts
// then spread by milliseconds. So where allowed (CAP_SYS_NICE), each flow
// thread sleeps and makes its first write as SCHED_FIFO and drops back to
// SCHED_OTHER right after it: a waking flow preempts the flows already
// sending, and queues only behind other flows' first write.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "client.h"
#include "record.h"
#include "sys.h"
#include "unoperf.h"
#include "wire.h"
#include "workload.h"

namespace unoperf {

namespace {

constexpr size_t kSendChunk = 256 * 1024;
constexpr size_t kMaxFlows = 4096;
// Between "all connected" and the common start: time for every thread to
// wake from the go latch and arm its timer.
constexpr uint64_t kLeadNs = 10'000'000;
constexpr uint64_t kLeadPerFlowNs = 50'000;

enum class State { Connecting, Connected, Done, Failed };

struct Flow {
	FlowPlan plan;
	ClientFlowResult result;
	std::atomic<State> state{State::Connecting};
	bool aborted = false; // stopped by the abort latch, not by its own error
	std::thread thread;
};

// What all flow threads share. Written by the main thread before the latches
// that publish it are set.
struct Shared {
	Fd abort = make_eventfd();    // latch: stop now
	Fd go = make_eventfd();       // latch: common_start_ns is set
	Fd progress = make_eventfd(); // counter: a flow changed state
	std::atomic<uint64_t> common_start_ns{0};
	uint64_t connect_deadline_ns = 0;
	uint64_t timeout_ns = 0;
	bool rt_start = false; // SCHED_FIFO around the start instant
	std::vector<uint8_t> payload = std::vector<uint8_t>(kSendChunk, 0);
};

struct AbortedError {};

// Makes the calling thread SCHED_FIFO (priority 1) until destroyed or
// released, if `enable`.
class RtBoost {
public:
	explicit RtBoost(bool enable)
	{
		const sched_param sp{.sched_priority = 1};
		active_ = enable && ::pthread_setschedparam(::pthread_self(), SCHED_FIFO, &sp) == 0;
	}
	~RtBoost() { release(); }
	RtBoost(const RtBoost &) = delete;
	RtBoost &operator=(const RtBoost &) = delete;

	void release()
	{
		if (!active_)
			return;
		const sched_param sp{.sched_priority = 0};
		::pthread_setschedparam(::pthread_self(), SCHED_OTHER, &sp);
		active_ = false;
	}

	// Whether this process may use SCHED_FIFO: tried on the calling thread.
	static bool available()
	{
		RtBoost probe(true);
		return probe.active_;
	}

private:
	bool active_ = false;
};

enum class Wait { Ready, TimedOut };

// Waits for `events` on `fd` until `deadline_ns` (0: no deadline). Throws
// AbortedError once the abort latch is set. Errors and hang-ups count as
// ready: the caller's next system call reports them.
Wait wait_for(int fd, short events, const Shared &sh, uint64_t deadline_ns)
{
	for (;;) {
		int timeout_ms = -1;
		if (deadline_ns) {
			const uint64_t now = monotonic_ns();
			if (now >= deadline_ns)
				return Wait::TimedOut;
			timeout_ms = static_cast<int>(
				std::min<uint64_t>((deadline_ns - now + 999'999) / 1'000'000, INT32_MAX));
		}
		pollfd p[2] = {{fd, events, 0}, {sh.abort.get(), POLLIN, 0}};
		const int n = ::poll(p, 2, timeout_ms);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw_errno("poll");
		}
		if (p[1].revents)
			throw AbortedError{};
		if (p[0].revents)
			return Wait::Ready;
	}
}

std::string bytes_progress(uint64_t sent, uint64_t size)
{
	return std::to_string(sent) + " of " + std::to_string(size) + " bytes sent";
}

void notify(Flow &f, State s, const Shared &sh)
{
	f.state.store(s);
	eventfd_add(sh.progress.get());
}

Fd connect_flow(Flow &f, const Shared &sh)
{
	const FlowPlan &p = f.plan;
	if (p.ns_fd >= 0)
		enter_netns(p.ns_fd, p.ns);

	const SockAddr dst = to_sockaddr(p.dst);
	Fd sock(::socket(dst.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
	if (!sock)
		throw_errno("socket");
	if (!p.cc.empty())
		set_congestion_control(sock.get(), p.cc);
	f.result.cc = congestion_control(sock.get());
	// Nagle stays on: the sender writes large buffers, so segments are
	// full-sized, and Linux (Minshall's variant) does not hold the tail.
	const int off = 0;
	if (::setsockopt(sock.get(), IPPROTO_TCP, TCP_NODELAY, &off, sizeof(off)) < 0)
		throw_errno("setsockopt(TCP_NODELAY)");
	if (p.sndbuf) {
		const int v = static_cast<int>(std::min<uint64_t>(*p.sndbuf, INT32_MAX));
		if (::setsockopt(sock.get(), SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) < 0)
			throw_errno("setsockopt(SO_SNDBUF)");
	}

	const std::string what = "connect to " + p.dst.str();
	if (::connect(sock.get(), dst.sa(), dst.len) < 0 &&
	    errno != EINPROGRESS)
		throw_errno(what);
	if (wait_for(sock.get(), POLLOUT, sh, sh.connect_deadline_ns) == Wait::TimedOut)
		throw SysError(what + ": timed out");
	int err = 0;
	socklen_t len = sizeof(err);
	if (::getsockopt(sock.get(), SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		throw_errno("getsockopt(SO_ERROR)");
	if (err)
		throw SysError(errno_message(what, err));
	return sock;
}

// Sleeps until `at` (CLOCK_MONOTONIC ns) or the abort latch.
void sleep_until(uint64_t at, const Shared &sh)
{
	Fd timer(::timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK));
	if (!timer)
		throw_errno("timerfd_create");
	itimerspec its{};
	its.it_value.tv_sec = static_cast<time_t>(at / 1'000'000'000);
	its.it_value.tv_nsec = static_cast<long>(at % 1'000'000'000);
	if (::timerfd_settime(timer.get(), TFD_TIMER_ABSTIME, &its, nullptr) < 0)
		throw_errno("timerfd_settime");
	wait_for(timer.get(), POLLIN, sh, 0);
}

// `boost` is released after the first write.
void send_flow(Flow &f, int sock, const Shared &sh, uint64_t deadline, RtBoost &boost)
{
	const FlowPlan &p = f.plan;
	const HeaderBytes hdr = encode_header({p.id, p.size, f.result.start_ns});
	size_t hdr_left = hdr.size();
	uint64_t left = p.size;
	const auto timeout = [&] {
		return SysError("timed out after " + std::to_string(sh.timeout_ns / 1'000'000'000) +
				" s: " + bytes_progress(p.size - left, p.size));
	};

	while (hdr_left || left) {
		iovec iov[2];
		int n = 0;
		if (hdr_left)
			iov[n++] = {const_cast<uint8_t *>(hdr.data() + hdr.size() - hdr_left), hdr_left};
		if (left)
			iov[n++] = {const_cast<uint8_t *>(sh.payload.data()),
				    static_cast<size_t>(std::min<uint64_t>(left, sh.payload.size()))};
		msghdr msg{};
		msg.msg_iov = iov;
		msg.msg_iovlen = static_cast<size_t>(n);
		const ssize_t w = ::sendmsg(sock, &msg, MSG_NOSIGNAL);
		const int err = errno;
		boost.release();
		if (w < 0) {
			if (err == EINTR)
				continue;
			if (err != EAGAIN)
				throw SysError(errno_message("send to " + p.dst.str(), err) + " (" +
					       bytes_progress(p.size - left, p.size) + ")");
			if (wait_for(sock, POLLOUT, sh, deadline) == Wait::TimedOut)
				throw timeout();
			continue;
		}
		const size_t done = static_cast<size_t>(w);
		const size_t h = std::min(done, hdr_left);
		hdr_left -= h;
		left -= done - h;
		f.result.bytes = p.size - left;
	}

	// The server answers one byte once it has the whole payload.
	for (;;) {
		uint8_t b;
		const ssize_t r = ::recv(sock, &b, 1, 0);
		if (r == 1) {
			f.result.end_ns = monotonic_ns();
			return;
		}
		if (r == 0)
			throw SysError("the server closed the connection without confirming"
				       " completion (" + bytes_progress(p.size, p.size) + ")");
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			throw SysError(errno_message("receive from " + p.dst.str(), errno));
		if (wait_for(sock, POLLIN, sh, deadline) == Wait::TimedOut)
			throw SysError("timed out after " +
				       std::to_string(sh.timeout_ns / 1'000'000'000) +
				       " s waiting for the server to confirm completion (" +
				       bytes_progress(p.size, p.size) + ")");
	}
}

void run_flow(Flow &f, const Shared &sh)
{
	try {
		Fd sock = connect_flow(f, sh);
		notify(f, State::Connected, sh);

		wait_for(sh.go.get(), POLLIN, sh, 0);
		f.result.sched_ns = sh.common_start_ns.load() + f.plan.offset_us * 1000;
		RtBoost boost(sh.rt_start);
		sleep_until(f.result.sched_ns, sh);

		f.result.start_ns = monotonic_ns();
		send_flow(f, sock.get(), sh, f.result.sched_ns + sh.timeout_ns, boost);
		f.result.ok = true;
		notify(f, State::Done, sh);
	} catch (const AbortedError &) {
		f.aborted = true;
		f.result.error = "aborted";
		notify(f, State::Failed, sh);
	} catch (const std::exception &e) {
		f.result.error = e.what();
		notify(f, State::Failed, sh);
	}
}

// A flow's cc= if any, else its class's, else --cc.
std::string tcp_cc(const ClientOptions &opt, const FlowSpec &s)
{
	if (!s.cc.empty())
		return s.cc;
	if (const auto it = opt.cc_by_class.find(s.cls); it != opt.cc_by_class.end())
		return it->second;
	return opt.default_cc;
}

// UnoRC flows all run --cc's law (unorc's cc.h): a flow's cc= would be a
// promise it cannot keep. The message is the flow's header and payload,
// and an UnoRC message is at most 2^32 - 1 bytes.
std::string unorc_cc(const ClientOptions &opt, const FlowSpec &s, const std::string &where)
{
	if (!s.cc.empty())
		throw InputError(where + "cc=" + s.cc +
				 " is for --transport tcp: UnoRC flows run --cc's law");
	if (s.size > kMaxUnorcSize)
		throw InputError(where + "size " + std::to_string(s.size) + " is above UnoRC's " +
				 std::to_string(kMaxUnorcSize) + " bytes per flow");
	return opt.unorc.tx.law;
}

// Turns the options into one plan per flow; throws InputError.
std::vector<FlowPlan> plan_flows(const ClientOptions &opt)
{
	std::vector<FlowPlan> plans;
	unsigned spec_no = 0;
	for (const FlowSpec &s : opt.specs) {
		++spec_no;
		const std::string where = "flow spec " + std::to_string(spec_no) + ": ";
		FlowPlan p;
		if (s.dst)
			p.dst = *s.dst;
		else if (opt.dst)
			p.dst = *opt.dst;
		else if (!opt.dry_run)
			throw InputError(where + "no destination (give --dst, or dst= in the spec)");
		// Per flow, else per class, else for all flows.
		p.base_rtt_us = s.base_rtt_us ? s.base_rtt_us : opt.base_rtt_us;
		if (!s.base_rtt_us)
			if (const auto it = opt.base_rtt_by_class.find(s.cls);
			    it != opt.base_rtt_by_class.end())
				p.base_rtt_us = it->second;
		if (p.base_rtt_us && !opt.rate_mbps)
			throw InputError(where + "a base RTT is given but no --rate-mbps: slowdown needs both");
		p.ns = s.ns;
		p.cc = opt.transport == Transport::Unorc ? unorc_cc(opt, s, where) : tcp_cc(opt, s);
		p.cls = s.cls;
		p.size = s.size;
		p.offset_us = s.start_us;
		p.sndbuf = opt.sndbuf;
		p.matrix = s.matrix;
		const size_t max = opt.engine == Engine::Threads ? kMaxFlows : kMaxGeneratedFlows;
		if (plans.size() + s.count > max)
			throw InputError("more than " + std::to_string(max) + " flows");
		for (unsigned i = 0; i < s.count; ++i) {
			p.id = static_cast<uint32_t>(plans.size());
			plans.push_back(p);
		}
	}
	if (plans.empty())
		throw InputError("no flows: give --flow SPEC or --flows-file FILE");
	return plans;
}

class Client {
public:
	Client(const ClientOptions &opt, std::vector<FlowPlan> plans);
	~Client();
	int run();

private:
	void spawn();
	// Waits for a state change or a signal; returns the signal's name or "".
	std::string wait_event();
	void abort(const std::string &reason);
	// Waits until no flow is in state `from`; false if aborted on the way.
	bool wait_all_past(State from);
	void report();

	const ClientOptions &opt_;
	std::unique_ptr<OutputFile> out_; // opened once the namespaces are found
	std::map<std::string, Fd> netns_;
	SignalFd signals_;
	Shared sh_;
	std::vector<std::unique_ptr<Flow>> flows_;
	std::string abort_reason_;
};

Client::Client(const ClientOptions &opt, std::vector<FlowPlan> plans)
	: opt_(opt)
{
	// Every namespace must exist before any flow starts.
	for (FlowPlan &p : plans) {
		if (p.ns == kCurrentNs)
			continue;
		auto it = netns_.find(p.ns);
		if (it == netns_.end())
			it = netns_.emplace(p.ns, open_netns(p.ns)).first;
		p.ns_fd = it->second.get();
	}
	// A socket and a timer per flow, plus a few.
	ensure_nofile(2 * plans.size() + netns_.size() + 64);
	out_ = std::make_unique<OutputFile>(opt.json_path, /*append=*/false);

	sh_.timeout_ns = uint64_t{opt.timeout_s} * 1'000'000'000;
	sh_.rt_start = RtBoost::available();
	if (!sh_.rt_start && plans.size() > 1)
		std::fprintf(stderr, "unoperf client: no SCHED_FIFO (needs CAP_SYS_NICE): flow starts"
				     " may spread more on a busy host\n");
	sh_.connect_deadline_ns = monotonic_ns() + sh_.timeout_ns;
	for (FlowPlan &p : plans) {
		auto f = std::make_unique<Flow>();
		f->result = initial_result(p);
		f->plan = std::move(p);
		flows_.push_back(std::move(f));
	}
}

Client::~Client()
{
	// Only reached with threads still running if run() threw: stop them.
	eventfd_add(sh_.abort.get());
	for (auto &f : flows_)
		if (f->thread.joinable())
			f->thread.join();
}

void Client::spawn()
{
	for (auto &f : flows_)
		f->thread = std::thread(run_flow, std::ref(*f), std::cref(sh_));
}

std::string Client::wait_event()
{
	pollfd p[2] = {{signals_.get(), POLLIN, 0}, {sh_.progress.get(), POLLIN, 0}};
	while (::poll(p, 2, -1) < 0)
		if (errno != EINTR)
			throw_errno("poll");
	if (p[0].revents) {
		signalfd_siginfo si{};
		if (::read(signals_.get(), &si, sizeof(si)) == sizeof(si))
			return si.ssi_signo == SIGINT ? "SIGINT" : "SIGTERM";
	}
	eventfd_take(sh_.progress.get());
	return {};
}

void Client::abort(const std::string &reason)
{
	if (!abort_reason_.empty())
		return;
	abort_reason_ = reason;
	eventfd_add(sh_.abort.get());
}

bool Client::wait_all_past(State from)
{
	for (;;) {
		bool waiting = false;
		for (const auto &f : flows_) {
			const State s = f->state.load();
			if (s == State::Failed && !f->aborted) {
				abort("flow " + std::to_string(f->plan.id) + " failed");
				return false;
			}
			if (s == from)
				waiting = true;
		}
		if (!waiting)
			return true;
		if (const std::string sig = wait_event(); !sig.empty()) {
			abort("interrupted by " + sig);
			return false;
		}
	}
}

int Client::run()
{
	try {
		spawn();
	} catch (const std::system_error &e) {
		abort(std::string("cannot start a thread per flow: ") + e.what());
	}

	if (abort_reason_.empty() && wait_all_past(State::Connecting)) {
		const uint64_t lead = kLeadNs + kLeadPerFlowNs * flows_.size();
		sh_.common_start_ns.store(monotonic_ns() + lead);
		eventfd_add(sh_.go.get());
		wait_all_past(State::Connected);
	}
	for (auto &f : flows_)
		if (f->thread.joinable())
			f->thread.join();

	report();
	return abort_reason_.empty() ? kExitOk : kExitFailed;
}

void Client::report()
{
	std::vector<ClientFlowResult> results;
	for (auto &f : flows_) {
		if (f->aborted)
			f->result.error = "aborted";
		results.push_back(f->result);
	}
	unoperf::report(*out_, opt_, sh_.common_start_ns.load(), std::move(results), abort_reason_);
}

} // namespace

namespace {

// The plan as JSON, for --dry-run: what would run, without any network.
Json plan_json(const ClientOptions &opt, const std::vector<FlowPlan> &plans)
{
	Json j;
	j["unoperf"] = kJsonVersion;
	j["role"] = "plan";
	j["transport"] = transport_name(opt.transport);
	j["rate_mbps"] = opt.rate_mbps ? Json(*opt.rate_mbps) : Json(nullptr);
	if (!opt.workload.is_null())
		j["workload"] = opt.workload;
	Json flows = Json::array();
	std::map<std::string, std::pair<uint64_t, uint64_t>> by_class; // flows, bytes
	uint64_t bytes = 0, last_us = 0;
	for (const FlowPlan &p : plans) {
		Json f;
		f["id"] = p.id;
		f["ns"] = p.ns == kCurrentNs ? Json(nullptr) : Json(p.ns);
		f["cc"] = p.cc.empty() ? Json(nullptr) : Json(p.cc);
		f["class"] = p.cls.empty() ? Json(nullptr) : Json(p.cls);
		f["size"] = p.size;
		f["offset_us"] = p.offset_us;
		if (p.base_rtt_us)
			f["base_rtt_us"] = *p.base_rtt_us;
		if (p.base_rtt_us && opt.rate_mbps)
			f["ideal_us"] = ideal_fct_us(p.size, *opt.rate_mbps,
						     static_cast<double>(*p.base_rtt_us));
		if (p.matrix)
			f["matrix"] = {{"id", p.matrix->id}, {"src", p.matrix->src},
				       {"dst", p.matrix->dst}};
		flows.push_back(std::move(f));
		bytes += p.size;
		last_us = std::max(last_us, p.offset_us);
		auto &c = by_class[p.cls.empty() ? "-" : p.cls];
		++c.first;
		c.second += p.size;
	}
	j["flows"] = std::move(flows);
	Json s;
	s["flows"] = plans.size();
	s["bytes"] = bytes;
	s["last_start_us"] = last_us;
	// Bytes over the span of the starts: the offered load, if the span is
	// long against the flows.
	s["offered_mbps"] = last_us ? Json(static_cast<double>(bytes) * 8 /
					   static_cast<double>(last_us))
				    : Json(nullptr);
	Json classes = Json::object();
	for (const auto &[cls, c] : by_class)
		classes[cls] = {{"flows", c.first}, {"bytes", c.second}};
	s["classes"] = std::move(classes);
	j["summary"] = std::move(s);
	return j;
}

} // namespace

const char *transport_name(Transport t)
{
	return t == Transport::Unorc ? "unorc" : "tcp";
}

bool rt_available()
{
	return RtBoost::available();
}

ClientFlowResult initial_result(const FlowPlan &p)
{
	ClientFlowResult r;
	r.id = p.id;
	r.ns = p.ns;
	r.cc = p.cc;
	r.cls = p.cls;
	r.dst = p.dst.str();
	r.size = p.size;
	r.offset_us = p.offset_us;
	r.base_rtt_us = p.base_rtt_us;
	r.matrix = p.matrix;
	return r;
}

SignalFd::SignalFd()
{
	sigemptyset(&mask_);
	sigaddset(&mask_, SIGINT);
	sigaddset(&mask_, SIGTERM);
	// Blocked before any flow thread exists, so they inherit the mask
	// and only this descriptor sees the signals.
	if (::pthread_sigmask(SIG_BLOCK, &mask_, nullptr) != 0)
		throw SysError("pthread_sigmask failed");
	fd_ = Fd(::signalfd(-1, &mask_, SFD_CLOEXEC | SFD_NONBLOCK));
	if (!fd_)
		throw_errno("signalfd");
}

std::string SignalFd::take()
{
	signalfd_siginfo si{};
	if (::read(fd_.get(), &si, sizeof(si)) != sizeof(si))
		return {};
	return si.ssi_signo == SIGINT ? "SIGINT" : "SIGTERM";
}

void report(OutputFile &out, const ClientOptions &opt, uint64_t common_start_ns,
	    std::vector<ClientFlowResult> results, const std::string &abort_reason)
{
	ClientRun run;
	run.transport = transport_name(opt.transport);
	run.workload = opt.workload;
	run.common_start_ns = common_start_ns;
	run.rate_mbps = opt.rate_mbps;
	run.timeout_s = opt.timeout_s;
	for (ClientFlowResult &r : results) {
		r.transport = run.transport;
		if (r.error == "aborted" || (!r.ok && r.error.empty()))
			r.error = "aborted: " + abort_reason;
	}
	run.flows = std::move(results);
	const Json j = client_report_json(run);
	out.write(j.dump(2) + "\n");

	for (const ClientFlowResult &r : run.flows)
		if (!r.ok && r.error.rfind("aborted", 0) != 0)
			std::fprintf(stderr, "unoperf client: flow %" PRIu32 " (ns %s, %s): %s\n", r.id,
				     r.ns.c_str(), r.dst.c_str(), r.error.c_str());
	const Json &s = j["summary"];
	const unsigned completed = s["completed"].get<unsigned>();
	if (!abort_reason.empty())
		std::fprintf(stderr, "unoperf client: %s; %u of %zu flows completed\n",
			     abort_reason.c_str(), completed, run.flows.size());
	else
		std::fprintf(stderr,
			     "unoperf client: %zu flows completed; fct min %.3f ms, mean %.3f ms,"
			     " max %.3f ms; max start lag %.3f ms\n",
			     run.flows.size(), s["min_fct_us"].get<double>() / 1e3,
			     s["mean_fct_us"].get<double>() / 1e3, s["max_fct_us"].get<double>() / 1e3,
			     s["max_start_lag_us"].get<double>() / 1e3);
}

int run_client(const ClientOptions &opt)
{
	std::vector<FlowPlan> plans;
	try {
		plans = plan_flows(opt);
	} catch (const InputError &e) {
		std::fprintf(stderr, "unoperf client: %s\n", e.what());
		return kExitUsage;
	}
	try {
		if (opt.dry_run) {
			OutputFile out(opt.json_path, /*append=*/false);
			out.write(plan_json(opt, plans).dump(2) + "\n");
			return kExitOk;
		}
		::signal(SIGPIPE, SIG_IGN);
		if (opt.transport == Transport::Unorc)
			return run_unorc_client(opt, std::move(plans));
		if (opt.engine == Engine::Loop)
			return run_loop_client(opt, std::move(plans));
		Client client(opt, std::move(plans));
		return client.run();
	} catch (const std::exception &e) {
		std::fprintf(stderr, "unoperf client: %s\n", e.what());
		return kExitFailed;
	}
}

} // namespace unoperf
