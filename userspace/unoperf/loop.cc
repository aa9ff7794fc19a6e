// SPDX-License-Identifier: GPL-2.0
//
// unoperf client, event-loop engine: one thread per sender namespace.
//
// For generated workloads: thousands of flows, staggered over seconds, most
// of them short. A thread per flow, each holding a connected socket from
// the beginning of the run, would cost a stack, a wake-up and a socket per
// flow for the whole run; here a namespace's flows share one thread with an
// epoll set, and a flow holds a socket only from connect_ahead before its
// start until its completion.
//
// Each loop thread setns()es into its namespace once, then repeats:
//
//   1. connect the flows whose start is within connect_ahead (non-blocking;
//      the CC is set before connect, so the SYN carries its ECN setup);
//   2. start the flows whose start time has come and that are connected (a
//      flow whose connect takes longer starts as soon as it is connected,
//      its lateness shows as start_lag_us): take start_ns, write the header
//      and up to kSendChunk bytes of payload;
//   3. sleep in epoll_wait until a socket is ready, the abort latch is set,
//      or a timerfd armed (TFD_TIMER_ABSTIME, CLOCK_MONOTONIC) at the next
//      connect or start time or timeout check fires;
//   4. take the time once, then handle the completion answers of the batch
//      (end_ns is that time) before any write, then the writable sockets,
//      starting flows that fall due between two writes.
//
// Where allowed (CAP_SYS_NICE), a loop thread is SCHED_FIFO from going to
// sleep in epoll_wait until it has taken the time, read the answers and
// started the flows due, and SCHED_OTHER for the writes: on a busy host
// the starts and end times are then not late by other threads' time
// slices (the thread engine boosts each flow's start the same way).
//
// FCT runs from start_ns, taken just before the first write (after the
// connect), to the server's one-byte completion answer, as in the thread
// engine. The end time is late by at most one epoll batch.
//
// A flow makes one write (of up to kSendChunk bytes) per EPOLLOUT
// readiness, so a long flow on a fast path does not hold up the starts and
// answers of the others. No busy loop: a socket is registered for EPOLLOUT
// only while it has bytes to write and for EPOLLIN only while waiting for
// the answer.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <map>
#include <memory>
#include <thread>

#include "client.h"
#include "wire.h"

namespace unoperf {

namespace {

// At 1 Gbit/s, 2 ms of line time: few writes, yet a short wait for the
// other flows of the loop.
constexpr size_t kSendChunk = 256 * 1024;
constexpr int kMaxEvents = 256;
// Between the threads' start and the first connect.
constexpr uint64_t kLeadNs = 20'000'000;
// Flows are checked for timeouts this often.
constexpr uint64_t kCheckNs = 100'000'000;
constexpr uint64_t kTagAbort = UINT64_MAX;
constexpr uint64_t kTagTimer = UINT64_MAX - 1;

enum class Phase { Waiting, Connecting, Connected, Sending, Awaiting, Done, Failed };

struct LoopFlow {
	size_t idx = 0; // in its loop's flows_: the epoll tag
	FlowPlan plan;
	ClientFlowResult result;
	Phase phase = Phase::Waiting;
	Fd sock;
	uint32_t events = 0; // registered with epoll
	bool due = false;    // its start time has come
	uint64_t connect_ns = 0;
	HeaderBytes hdr{};
	size_t hdr_left = 0;
	uint64_t left = 0;
};

// Shared by all loops; written by the main thread before they start.
struct Common : Latches {
	uint64_t common_start_ns = 0;
	uint64_t connect_ahead_ns = 0;
	uint64_t timeout_ns = 0;
	bool rt = false; // SCHED_FIFO around waking up
	std::vector<uint8_t> payload = std::vector<uint8_t>(kSendChunk, 0);
};

struct AbortedError {};

class NsLoop : public NsRunner {
public:
	NsLoop(std::string ns, int ns_fd, const Common &c, std::vector<LoopFlow *> flows)
		: ns_(std::move(ns)), ns_fd_(ns_fd), c_(c), flows_(std::move(flows))
	{
		std::stable_sort(flows_.begin(), flows_.end(), [](const LoopFlow *a, const LoopFlow *b) {
			return a->plan.offset_us < b->plan.offset_us;
		});
		for (size_t i = 0; i < flows_.size(); ++i)
			flows_[i]->idx = i;
	}

	void run() noexcept override;

private:
	void loop();
	uint64_t sched(size_t i) const
	{
		return c_.common_start_ns + flows_[i]->plan.offset_us * 1000;
	}
	void set_events(LoopFlow &f, uint32_t events);
	void start_connect(LoopFlow &f, uint64_t now);
	void on_connected(LoopFlow &f);
	void start_send(LoopFlow &f);
	void send_more(LoopFlow &f);
	void on_answer(LoopFlow &f, uint64_t now);
	void on_event(LoopFlow &f, uint32_t ev, uint64_t now);
	void check_timeouts(uint64_t now);
	void finish(LoopFlow &f, Phase p);
	void fail(LoopFlow &f, const std::string &why);
	void arm(uint64_t at);
	void set_rt(bool on);

	const std::string ns_;
	const int ns_fd_;
	const Common &c_;
	std::vector<LoopFlow *> flows_; // by start time
	Fd epoll_;
	Fd timer_;
	uint64_t armed_ = 0;
	bool rt_on_ = false;
	size_t remaining_ = 0;
	size_t first_open_ = 0; // flows_ before this are finished
};

void NsLoop::run() noexcept
{
	remaining_ = flows_.size();
	try {
		if (ns_fd_ >= 0)
			enter_netns(ns_fd_, ns_);
		epoll_ = Fd(::epoll_create1(EPOLL_CLOEXEC));
		if (!epoll_)
			throw_errno("epoll_create1");
		timer_ = Fd(::timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK));
		if (!timer_)
			throw_errno("timerfd_create");
		for (const auto &[fd, tag] : {std::pair{c_.abort.get(), kTagAbort},
					      std::pair{timer_.get(), kTagTimer}}) {
			epoll_event ev{};
			ev.events = EPOLLIN;
			ev.data.u64 = tag;
			if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &ev) < 0)
				throw_errno("epoll_ctl");
		}
		loop();
	} catch (const AbortedError &) {
		for (LoopFlow *f : flows_)
			if (f->phase != Phase::Done && f->phase != Phase::Failed) {
				f->result.error = "aborted";
				f->sock.reset();
			}
	} catch (const std::exception &e) {
		for (LoopFlow *f : flows_)
			if (f->phase != Phase::Done && f->phase != Phase::Failed)
				fail(*f, e.what());
	}
	finished.store(true);
	eventfd_add(c_.progress.get());
}

void NsLoop::set_rt(bool on)
{
	if (!c_.rt || on == rt_on_)
		return;
	const sched_param sp{.sched_priority = on ? 1 : 0};
	::pthread_setschedparam(::pthread_self(), on ? SCHED_FIFO : SCHED_OTHER, &sp);
	rt_on_ = on;
}

void NsLoop::arm(uint64_t at)
{
	if (at == armed_)
		return;
	itimerspec its{};
	its.it_value.tv_sec = static_cast<time_t>(at / 1'000'000'000);
	its.it_value.tv_nsec = static_cast<long>(at % 1'000'000'000);
	if (::timerfd_settime(timer_.get(), TFD_TIMER_ABSTIME, &its, nullptr) < 0)
		throw_errno("timerfd_settime");
	armed_ = at;
}

void NsLoop::loop()
{
	const size_t n = flows_.size();
	size_t next_connect = 0, next_due = 0;
	uint64_t next_check = monotonic_ns() + kCheckNs;
	epoll_event events[kMaxEvents];

	// Connects and starts what is due at `now`.
	const auto due = [&](uint64_t now) {
		while (next_connect < n && sched(next_connect) <= now + c_.connect_ahead_ns)
			start_connect(*flows_[next_connect++], now);
		while (next_due < n && sched(next_due) <= now) {
			LoopFlow &f = *flows_[next_due++];
			f.due = true;
			if (f.phase == Phase::Connected)
				start_send(f);
		}
	};

	while (remaining_) {
		uint64_t now = monotonic_ns();
		due(now);
		set_rt(false);
		if (now >= next_check) {
			check_timeouts(now);
			next_check = now + kCheckNs;
		}
		if (!remaining_)
			break;

		uint64_t wake = next_check;
		if (next_connect < n)
			wake = std::min(wake, sched(next_connect) - c_.connect_ahead_ns);
		if (next_due < n)
			wake = std::min(wake, sched(next_due));
		arm(wake);

		set_rt(true);
		const int got = ::epoll_wait(epoll_.get(), events, kMaxEvents, -1);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			throw_errno("epoll_wait");
		}
		now = monotonic_ns();
		// Answers first: their end time is `now`, whatever the writes cost.
		for (int i = 0; i < got; ++i) {
			const uint64_t tag = events[i].data.u64;
			if (tag == kTagAbort)
				throw AbortedError{};
			if (tag == kTagTimer) {
				uint64_t ticks;
				if (::read(timer_.get(), &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
					throw_errno("read(timerfd)");
				armed_ = 0;
				continue;
			}
			LoopFlow &f = *flows_[tag];
			if (f.phase == Phase::Awaiting)
				on_answer(f, now);
		}
		// The starts at the top of the loop too; the writes not.
		if (next_due >= n || sched(next_due) > monotonic_ns())
			set_rt(false);
		for (int i = 0; i < got; ++i) {
			const uint64_t tag = events[i].data.u64;
			if (tag >= kTagTimer)
				continue;
			LoopFlow &f = *flows_[tag];
			if (f.phase != Phase::Awaiting)
				on_event(f, events[i].events, now);
			// Starts do not wait for the rest of the batch's writes.
			if (next_due < n && sched(next_due) <= monotonic_ns())
				due(monotonic_ns());
		}
	}
}

void NsLoop::set_events(LoopFlow &f, uint32_t events)
{
	if (f.events == events)
		return;
	epoll_event ev{};
	ev.events = events;
	ev.data.u64 = f.idx;
	if (::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, f.sock.get(), &ev) < 0)
		throw_errno("epoll_ctl");
	f.events = events;
}

void NsLoop::finish(LoopFlow &f, Phase p)
{
	f.phase = p;
	f.sock.reset(); // also leaves the epoll set
	--remaining_;
}

void NsLoop::fail(LoopFlow &f, const std::string &why)
{
	f.result.error = why;
	finish(f, Phase::Failed);
	note_failure(f.plan.id, c_);
}

void NsLoop::start_connect(LoopFlow &f, uint64_t now)
{
	const FlowPlan &p = f.plan;
	const std::string what = "connect to " + p.dst.str();
	f.result.sched_ns = c_.common_start_ns + p.offset_us * 1000;
	f.connect_ns = now;
	try {
		const SockAddr dst = to_sockaddr(p.dst);
		f.sock = Fd(::socket(dst.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
		if (!f.sock)
			throw_errno("socket");
		if (!p.cc.empty())
			set_congestion_control(f.sock.get(), p.cc);
		f.result.cc = congestion_control(f.sock.get());
		if (p.sndbuf) {
			const int v = static_cast<int>(std::min<uint64_t>(*p.sndbuf, INT32_MAX));
			if (::setsockopt(f.sock.get(), SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) < 0)
				throw_errno("setsockopt(SO_SNDBUF)");
		}
		const bool now_connected = ::connect(f.sock.get(), dst.sa(), dst.len) == 0;
		if (!now_connected && errno != EINPROGRESS)
			throw_errno(what);
		epoll_event ev{};
		ev.events = now_connected ? 0u : static_cast<uint32_t>(EPOLLOUT);
		ev.data.u64 = f.idx;
		if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, f.sock.get(), &ev) < 0)
			throw_errno("epoll_ctl");
		f.events = ev.events;
		f.phase = Phase::Connecting;
		if (now_connected)
			on_connected(f);
	} catch (const SysError &e) {
		fail(f, e.what());
	}
}

void NsLoop::on_connected(LoopFlow &f)
{
	int err = 0;
	socklen_t len = sizeof(err);
	if (::getsockopt(f.sock.get(), SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		err = errno;
	if (err) {
		fail(f, errno_message("connect to " + f.plan.dst.str(), err));
		return;
	}
	f.phase = Phase::Connected;
	set_events(f, 0); // only errors and hang-ups until the start
	if (f.due)
		start_send(f);
}

void NsLoop::start_send(LoopFlow &f)
{
	f.phase = Phase::Sending;
	f.result.start_ns = monotonic_ns();
	f.hdr = encode_header({f.plan.id, f.plan.size, f.result.start_ns});
	f.hdr_left = f.hdr.size();
	f.left = f.plan.size;
	send_more(f);
}

void NsLoop::send_more(LoopFlow &f)
{
	const FlowPlan &p = f.plan;
	iovec iov[2];
	int n = 0;
	if (f.hdr_left)
		iov[n++] = {f.hdr.data() + f.hdr.size() - f.hdr_left, f.hdr_left};
	if (f.left)
		iov[n++] = {const_cast<uint8_t *>(c_.payload.data()),
			    static_cast<size_t>(std::min<uint64_t>(f.left, kSendChunk))};
	msghdr msg{};
	msg.msg_iov = iov;
	msg.msg_iovlen = static_cast<size_t>(n);
	ssize_t w;
	do
		w = ::sendmsg(f.sock.get(), &msg, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	if (w < 0 && errno != EAGAIN) {
		fail(f, errno_message("send to " + p.dst.str(), errno) + " (" +
				std::to_string(f.result.bytes) + " of " + std::to_string(p.size) +
				" bytes sent)");
		return;
	}
	if (w > 0) {
		const size_t done = static_cast<size_t>(w);
		const size_t h = std::min(done, f.hdr_left);
		f.hdr_left -= h;
		f.left -= done - h;
		f.result.bytes = p.size - f.left;
	}
	if (f.hdr_left || f.left) {
		// One write per readiness: the loop's other flows (starts,
		// answers) wait for at most one write.
		set_events(f, EPOLLOUT);
		return;
	}
	f.phase = Phase::Awaiting;
	set_events(f, EPOLLIN);
}

void NsLoop::on_answer(LoopFlow &f, uint64_t now)
{
	uint8_t b;
	const ssize_t r = ::recv(f.sock.get(), &b, 1, MSG_DONTWAIT);
	if (r == 1) {
		f.result.end_ns = now;
		f.result.ok = true;
		finish(f, Phase::Done);
		return;
	}
	if (r == 0) {
		fail(f, "the server closed the connection without confirming completion (" +
				std::to_string(f.plan.size) + " bytes sent)");
		return;
	}
	if (errno == EAGAIN || errno == EINTR)
		return;
	fail(f, errno_message("receive from " + f.plan.dst.str(), errno));
}

void NsLoop::on_event(LoopFlow &f, uint32_t ev, uint64_t now)
{
	(void)now;
	switch (f.phase) {
	case Phase::Connecting:
		on_connected(f);
		break;
	case Phase::Connected:
		// Registered for nothing: an error or hang-up before the start.
		if (ev & (EPOLLERR | EPOLLHUP)) {
			int err = 0;
			socklen_t len = sizeof(err);
			::getsockopt(f.sock.get(), SOL_SOCKET, SO_ERROR, &err, &len);
			fail(f, err ? errno_message("connection to " + f.plan.dst.str(), err)
				    : "the server closed the connection before the start");
		}
		break;
	case Phase::Sending:
		send_more(f);
		break;
	default:
		break; // finished earlier in this batch
	}
}

void NsLoop::check_timeouts(uint64_t now)
{
	while (first_open_ < flows_.size() && (flows_[first_open_]->phase == Phase::Done ||
					       flows_[first_open_]->phase == Phase::Failed))
		++first_open_;
	const std::string secs = std::to_string(c_.timeout_ns / 1'000'000'000) + " s";
	for (size_t i = first_open_; i < flows_.size(); ++i) {
		LoopFlow &f = *flows_[i];
		switch (f.phase) {
		case Phase::Waiting:
			return; // and so are all later ones
		case Phase::Connecting:
			if (now - f.connect_ns > c_.timeout_ns)
				fail(f, "connect to " + f.plan.dst.str() + ": timed out after " + secs);
			break;
		case Phase::Sending:
		case Phase::Awaiting:
			if (now > f.result.sched_ns + c_.timeout_ns)
				fail(f, "timed out after " + secs + " from the start: " +
						std::to_string(f.result.bytes) + " of " +
						std::to_string(f.plan.size) + " bytes sent" +
						(f.phase == Phase::Awaiting
							 ? ", waiting for the server to confirm completion"
							 : ""));
			break;
		default:
			break;
		}
	}
}

} // namespace

void NsRunner::note_failure(uint32_t id, const Latches &l)
{
	int64_t none = -1;
	failed_id.compare_exchange_strong(none, id);
	failed.store(true);
	eventfd_add(l.progress.get());
}

std::map<std::string, Fd> open_namespaces(const std::vector<FlowPlan> &plans)
{
	std::map<std::string, Fd> netns;
	for (const FlowPlan &p : plans)
		if (p.ns != kCurrentNs && !netns.contains(p.ns))
			netns.emplace(p.ns, open_netns(p.ns));
	return netns;
}

std::string run_ns_threads(const std::vector<NsRunner *> &runners, const Latches &l,
			   SignalFd &signals)
{
	std::string abort_reason;
	const auto abort = [&](const std::string &why) {
		if (abort_reason.empty()) {
			abort_reason = why;
			eventfd_add(l.abort.get());
		}
	};
	std::vector<std::thread> threads;
	try {
		for (NsRunner *r : runners)
			threads.emplace_back(&NsRunner::run, r);
	} catch (const std::system_error &e) {
		abort(std::string("cannot start a thread per namespace: ") + e.what());
		for (size_t i = threads.size(); i < runners.size(); ++i)
			runners[i]->finished.store(true);
	}

	for (;;) {
		bool all = true;
		for (const NsRunner *r : runners) {
			if (r->failed.load())
				abort("flow " + std::to_string(r->failed_id.load()) + " failed");
			all = all && r->finished.load();
		}
		if (all)
			break;
		pollfd p[2] = {{signals.get(), POLLIN, 0}, {l.progress.get(), POLLIN, 0}};
		if (::poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			abort(errno_message("poll", errno));
			break;
		}
		if (p[0].revents)
			if (const std::string sig = signals.take(); !sig.empty())
				abort("interrupted by " + sig);
		if (p[1].revents)
			eventfd_take(l.progress.get());
	}
	for (std::thread &t : threads)
		t.join();
	return abort_reason;
}

int run_loop_client(const ClientOptions &opt, std::vector<FlowPlan> plans)
{
	const std::map<std::string, Fd> netns = open_namespaces(plans);
	// Sockets are open only around each flow: take what the hard limit
	// allows; a flow that gets EMFILE fails and says so.
	raise_nofile_limit();
	OutputFile out(opt.json_path, /*append=*/false);
	SignalFd signals;

	Common c;
	c.rt = rt_available();
	c.connect_ahead_ns = opt.connect_ahead_us * 1000;
	c.timeout_ns = uint64_t{opt.timeout_s} * 1'000'000'000;

	std::vector<std::unique_ptr<LoopFlow>> flows;
	std::map<std::string, std::vector<LoopFlow *>> by_ns;
	for (FlowPlan &p : plans) {
		auto f = std::make_unique<LoopFlow>();
		f->result = initial_result(p);
		f->plan = std::move(p);
		by_ns[f->plan.ns].push_back(f.get());
		flows.push_back(std::move(f));
	}
	std::vector<std::unique_ptr<NsLoop>> loops;
	std::vector<NsRunner *> runners;
	for (auto &[ns, v] : by_ns) {
		const auto it = netns.find(ns);
		loops.push_back(std::make_unique<NsLoop>(ns, it == netns.end() ? -1 : it->second.get(),
							 c, std::move(v)));
		runners.push_back(loops.back().get());
	}

	c.common_start_ns = monotonic_ns() + kLeadNs + c.connect_ahead_ns;
	const std::string abort_reason = run_ns_threads(runners, c, signals);

	std::vector<ClientFlowResult> results;
	for (const auto &f : flows)
		results.push_back(f->result);
	report(out, opt, c.common_start_ns, std::move(results), abort_reason);
	return abort_reason.empty() ? kExitOk : kExitFailed;
}

} // namespace unoperf
