// SPDX-License-Identifier: GPL-2.0
//
// unoperf client over UnoRC: one thread per sender namespace, as the TCP
// loop engine (loop.cc), each running its namespace's flows in one epoll
// loop: a coded flow has ten sockets, and a busy run hundreds of flows at
// once, so the loop must not hand the kernel every socket at each wait.
//
// A flow is one UnoRC flow: its own flow id, sub-flow sockets and
// congestion control (--cc: UnoCC, SMaRTT or NSCC), as a TCP flow has its own connection and congestion window, so
// that flows share the path as TCP's do and no flow waits behind another
// one's blocks. It carries one message: the flow's 32-byte header (wire.h),
// then `size` bytes of unorc's pattern of the flow id, which the server
// checks byte by byte. Its sockets are opened and its message built
// --connect-ahead-ms before its start; at the start the header gets
// start_ns and the message goes to SenderFlow::send_message(). FCT runs
// from there to the ACK that completes the message: the receiver holds
// every byte (decoded where parity stood in) and the sender knows it, as
// a TCP flow's FCT runs from its first write to the server's completion
// byte. UDP has no handshake: the law starts at its floor window until the
// first ACK's RTT sample, as the modules do without a handshake RTT.
//
// The code of a flow is the transport's, by the server's rule: the server
// codes a flow by its source address (--inter-prefix: the inter-DC
// senders), so the client codes it by the source address the route to the
// server gives its namespace. The two ends then agree whatever the flow's
// class label says; a label that disagrees is reported once.
#include <sys/epoll.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <random>

#include "client.h"
#include "pattern.h"
#include "transport.h"
#include "wire.h"

namespace unoperf {

namespace {

// Between the threads' start and the first flow's sockets.
constexpr uint64_t kLeadNs = 20'000'000;
// Flows are checked for timeouts this often.
constexpr uint64_t kCheckNs = 100'000'000;
// Source ports a namespace's flows take from --source-port on.
constexpr size_t kPortSpan = 16384;
// Tries for a run of free ports, when a re-path of another flow holds one.
constexpr int kPortTries = 8;
constexpr int kMaxEvents = 256;
// epoll tags: a flow's index in its loop and the socket, or the latch.
constexpr uint64_t kTagAbort = UINT64_MAX;

enum class Phase { Waiting, Open, Sending, Done, Failed };

struct Flow {
	uint32_t idx = 0; // in its loop's flows_
	FlowPlan plan;
	ClientFlowResult result;
	Phase phase = Phase::Waiting;
	std::unique_ptr<unorc::SenderFlow> tx;
	std::vector<uint8_t> msg; // header and payload, until sent
	uint16_t first_port = 0;  // --source-port: the flow's ports
	int subflows = 0;
	uint64_t rebinds = 0;     // the sender's, when its sockets were watched
};

// Shared by all loops; written by the main thread before they start.
struct Common : Latches {
	uint64_t common_start_ns = 0;
	uint64_t connect_ahead_ns = 0;
	uint64_t timeout_ns = 0;
	uint32_t flow_id_base = 0; // a random UnoRC flow id for flow 0
	unorc::SenderSettings tx;  // every flow's law's parameters point here
	unorc::CodePolicy codes;
	mutable std::atomic<bool> label_warned{false};
};

struct AbortedError {};

// --source-port P: a namespace's flows take their sub-flows' ports from
// P on, each flow S consecutive ports no other open flow of it holds.
class SourcePorts {
public:
	explicit SourcePorts(uint16_t first)
		: first_(first), used_(first ? std::min<size_t>(kPortSpan, 65536 - first) : 0)
	{
	}

	// The first of n free consecutive ports from the index `from` on,
	// marked taken; 0 if there is no such run.
	uint16_t take(int n, size_t from = 0)
	{
		for (size_t i = from; i + n <= used_.size(); ++i) {
			const auto run = used_.begin() + static_cast<ptrdiff_t>(i);
			if (std::find(run, run + n, true) != run + n)
				continue;
			std::fill(run, run + n, true);
			return static_cast<uint16_t>(first_ + i);
		}
		return 0;
	}
	void give_back(uint16_t port, int n)
	{
		const auto run = used_.begin() + (port - first_);
		std::fill(run, run + n, false);
	}
	size_t index(uint16_t port) const { return port - first_; }

private:
	uint16_t first_;
	std::vector<bool> used_;
};

class UnorcLoop : public NsRunner {
public:
	UnorcLoop(std::string ns, int ns_fd, const Common &c, std::vector<Flow *> flows)
		: ns_(std::move(ns)), ns_fd_(ns_fd), c_(c), flows_(std::move(flows)),
		  ports_(c.tx.source_port)
	{
		std::stable_sort(flows_.begin(), flows_.end(), [](const Flow *a, const Flow *b) {
			return a->plan.offset_us < b->plan.offset_us;
		});
		for (size_t i = 0; i < flows_.size(); ++i)
			flows_[i]->idx = static_cast<uint32_t>(i);
	}

	void run() noexcept override;

private:
	void loop();
	uint64_t sched(size_t i) const { return c_.common_start_ns + flows_[i]->plan.offset_us * 1000; }
	void due(uint64_t now);
	uint64_t next_due() const;
	void open(Flow &f, uint64_t now);
	std::unique_ptr<unorc::Paths> paths(Flow &f, const unorc::Endpoint &dst);
	const unorc::Endpoint &source_for(const unorc::Endpoint &dst);
	void check_label(const Flow &f, bool inter) const;
	void start(Flow &f);
	void watch_sockets(Flow &f);
	void after_repath(Flow &f);
	void watch(int fd, uint64_t tag);
	uint64_t transmit(uint64_t wake);
	void wait(uint64_t wake);
	void dispatch(const epoll_event &ev, uint64_t now);
	void collect(Flow &f);
	void check_timeouts(uint64_t now);
	void record_stats(Flow &f);
	void finish(Flow &f, Phase p);
	void fail(Flow &f, const std::string &why);

	const std::string ns_;
	const int ns_fd_;
	const Common &c_;
	std::vector<Flow *> flows_; // by start time
	std::vector<Flow *> sending_;
	SourcePorts ports_;
	std::map<unorc::Endpoint, unorc::Endpoint> sources_; // by destination
	size_t next_open_ = 0, next_start_ = 0, remaining_ = 0;
	Fd epoll_;
};

void UnorcLoop::run() noexcept
{
	remaining_ = flows_.size();
	try {
		if (ns_fd_ >= 0)
			enter_netns(ns_fd_, ns_);
		epoll_ = Fd(::epoll_create1(EPOLL_CLOEXEC));
		if (!epoll_)
			throw_errno("epoll_create1");
		watch(c_.abort.get(), kTagAbort);
		loop();
	} catch (const AbortedError &) {
		for (Flow *f : flows_)
			if (f->phase != Phase::Done && f->phase != Phase::Failed) {
				f->result.error = "aborted";
				record_stats(*f);
				f->tx.reset();
			}
	} catch (const std::exception &e) {
		for (Flow *f : flows_)
			if (f->phase != Phase::Done && f->phase != Phase::Failed)
				fail(*f, e.what());
	}
	finished.store(true);
	eventfd_add(c_.progress.get());
}

void UnorcLoop::loop()
{
	uint64_t next_check = monotonic_ns() + kCheckNs;
	while (remaining_) {
		const uint64_t now = monotonic_ns();
		due(now);
		if (now >= next_check) {
			check_timeouts(now);
			next_check = now + kCheckNs;
		}
		if (!remaining_)
			break;
		wait(transmit(std::min(next_check, next_due())));
	}
}

// Opens the flows within connect_ahead of their start, starts those due.
void UnorcLoop::due(uint64_t now)
{
	const size_t n = flows_.size();
	while (next_open_ < n && sched(next_open_) <= now + c_.connect_ahead_ns)
		open(*flows_[next_open_++], now);
	while (next_start_ < n && sched(next_start_) <= now)
		start(*flows_[next_start_++]);
}

uint64_t UnorcLoop::next_due() const
{
	uint64_t at = UINT64_MAX;
	if (next_open_ < flows_.size())
		at = sched(next_open_) - c_.connect_ahead_ns;
	if (next_start_ < flows_.size())
		at = std::min(at, sched(next_start_));
	return at;
}

void UnorcLoop::open(Flow &f, uint64_t now)
{
	f.result.sched_ns = c_.common_start_ns + f.plan.offset_us * 1000;
	try {
		const unorc::Endpoint dst = unorc::parse_endpoint(f.plan.dst.str());
		const unorc::Endpoint &src = source_for(dst);
		const bool inter = c_.codes.is_inter(src);
		const unorc::WireLimits code = c_.codes.code_for(src);
		check_label(f, inter);
		f.subflows = unorc::subflows_for(c_.tx, code);
		f.tx = std::make_unique<unorc::SenderFlow>(
			unorc::flow_config(c_.tx, c_.flow_id_base + f.plan.id, code), paths(f, dst), now);
		f.result.unorc.emplace();
		f.result.unorc->cls = inter ? "inter" : "intra";
		f.result.unorc->code = unorc::code_name(code);
		f.result.unorc->subflows = f.subflows;
		f.msg.resize(kHeaderSize + f.plan.size);
		unorc::fill_pattern(std::span(f.msg).subspan(kHeaderSize), f.plan.id);
		f.phase = Phase::Open;
	} catch (const std::exception &e) {
		fail(f, e.what());
	}
}

// The flow's sub-flow sockets: ephemeral ports, or with --source-port a
// run of free ones (a re-path of another flow may hold one: the next run).
std::unique_ptr<unorc::Paths> UnorcLoop::paths(Flow &f, const unorc::Endpoint &dst)
{
	if (!c_.tx.source_port)
		return std::make_unique<unorc::PortPaths>(dst, f.subflows);
	size_t from = 0;
	for (int tries = 0;; ++tries) {
		const uint16_t first = ports_.take(f.subflows, from);
		if (!first)
			throw SysError("no " + std::to_string(f.subflows) + " free source ports from " +
				       std::to_string(c_.tx.source_port) + " on");
		try {
			auto p = std::make_unique<unorc::PortPaths>(dst, f.subflows, first);
			f.first_port = first;
			return p;
		} catch (const unorc::SysError &) {
			if (tries + 1 == kPortTries)
				throw;
			from = ports_.index(first) + 1; // the run stays taken
		}
	}
}

// The address the server sees this namespace's flows come from: the
// route's source, from a connected socket.
const unorc::Endpoint &UnorcLoop::source_for(const unorc::Endpoint &dst)
{
	auto it = sources_.find(dst);
	if (it == sources_.end()) {
		const Fd probe = unorc::connect_udp_ect(dst);
		it = sources_.emplace(dst, unorc::host_of(unorc::local_endpoint(probe.get()))).first;
	}
	return it->second;
}

void UnorcLoop::check_label(const Flow &f, bool inter) const
{
	const std::string &label = f.plan.cls;
	const unorc::WireLimits &a = c_.codes.inter, &b = c_.codes.intra;
	const bool one_code = a.x == b.x && a.y == b.y; // --code, --no-code
	if (one_code || (label != "intra" && label != "inter") || (label == "inter") == inter ||
	    c_.label_warned.exchange(true))
		return;
	std::fprintf(stderr,
		     "unoperf client: flow %u is labelled %s, but UnoRC classes it %s by its source"
		     " address and --inter-prefix (so does the server); its code is that class's\n",
		     f.plan.id, label.c_str(), inter ? "inter" : "intra");
}

void UnorcLoop::start(Flow &f)
{
	if (f.phase != Phase::Open)
		return; // failed to open
	f.phase = Phase::Sending;
	f.result.start_ns = monotonic_ns();
	const HeaderBytes h = encode_header({f.plan.id, f.plan.size, f.result.start_ns});
	std::copy(h.begin(), h.end(), f.msg.begin());
	f.tx->send_message(f.plan.id, f.msg, f.result.start_ns);
	f.result.bytes = f.plan.size;
	std::vector<uint8_t>().swap(f.msg); // the Sender holds its packets
	watch_sockets(f);
	sending_.push_back(&f);
}

// Closing a flow's sockets takes them out of the epoll set. A re-path
// (PortPaths) dup3()s a new socket onto a sub-flow's descriptor: the
// number stays, but epoll watches the socket it replaced, so a moved
// sub-flow's socket is watched again (the others are, EEXIST).
void UnorcLoop::watch_sockets(Flow &f)
{
	f.rebinds = f.tx->stats().rebinds;
	for (int fd : f.tx->sockets())
		watch(fd, uint64_t{f.idx} << 32 | static_cast<uint32_t>(fd));
}

void UnorcLoop::after_repath(Flow &f)
{
	if (f.phase == Phase::Sending && f.tx->stats().rebinds != f.rebinds)
		watch_sockets(f);
}

void UnorcLoop::watch(int fd, uint64_t tag)
{
	epoll_event ev{};
	ev.events = EPOLLIN;
	ev.data.u64 = tag;
	// Two sub-flows on one path may share a socket; a re-path leaves
	// the others' watched.
	if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &ev) < 0 && errno != EEXIST)
		throw_errno("epoll_ctl");
}

// Sends what the flows' windows and pacers allow; returns when to wake.
uint64_t UnorcLoop::transmit(uint64_t wake)
{
	const uint64_t now = monotonic_ns();
	for (Flow *f : sending_) {
		wake = std::min(wake, f->tx->run(now)); // its RTO scan may re-path
		after_repath(*f);
	}
	return wake;
}

// Sleeps until a reply, the abort latch or `wake`, then hands each flow
// its replies.
void UnorcLoop::wait(uint64_t wake)
{
	const uint64_t now = monotonic_ns();
	const uint64_t left = wake > now ? wake - now : 0;
	const timespec ts = {.tv_sec = static_cast<time_t>(left / 1'000'000'000),
			     .tv_nsec = static_cast<long>(left % 1'000'000'000)};
	epoll_event events[kMaxEvents];
	const int n = ::epoll_pwait2(epoll_.get(), events, kMaxEvents, &ts, nullptr);
	if (n < 0) {
		if (errno == EINTR)
			return;
		throw_errno("epoll_pwait2");
	}
	const uint64_t at = monotonic_ns();
	for (int i = 0; i < n; ++i)
		dispatch(events[i], at);
	std::erase_if(sending_, [](const Flow *f) { return f->phase != Phase::Sending; });
}

void UnorcLoop::dispatch(const epoll_event &ev, uint64_t now)
{
	if (ev.data.u64 == kTagAbort)
		throw AbortedError{};
	Flow &f = *flows_[ev.data.u64 >> 32];
	if (f.phase != Phase::Sending)
		return; // finished earlier in this batch
	f.tx->on_readable(static_cast<int>(ev.data.u64 & UINT32_MAX), now); // a NACK may re-path
	collect(f);
	after_repath(f);
}

void UnorcLoop::collect(Flow &f)
{
	for (const unorc::Completion &done : f.tx->take_completed()) {
		f.result.end_ns = f.result.start_ns + done.fct_ns;
		f.result.ok = true;
		finish(f, Phase::Done);
	}
}

void UnorcLoop::check_timeouts(uint64_t now)
{
	const std::string secs = std::to_string(c_.timeout_ns / 1'000'000'000) + " s";
	for (Flow *f : sending_) {
		if (now <= f->result.sched_ns + c_.timeout_ns)
			continue;
		const unorc::FlowStats &s = f->tx->stats();
		fail(*f, "timed out after " + secs + " from the start: " +
				 std::to_string(s.packets_sent) + " packets sent, " +
				 std::to_string(s.acks) + " ACKs" +
				 // Most packets unanswered: the server drops them.
				 (s.acks * 2 >= s.packets_sent
					  ? std::string()
					  : " (do the server's --inter-prefix, --code and --payload"
					    " agree with ours?)"));
	}
	std::erase_if(sending_, [](const Flow *f) { return f->phase != Phase::Sending; });
}

// The sender's counters into the result.
void UnorcLoop::record_stats(Flow &f)
{
	if (f.tx && f.result.unorc) {
		const unorc::FlowStats &s = f.tx->stats();
		const unorc::SenderCounters &c = f.tx->sender().counters();
		UnorcFlowStats &u = *f.result.unorc;
		u.packets_sent = s.packets_sent;
		u.bytes_sent = s.bytes_sent;
		u.retransmissions = c.retransmits;
		u.timeouts = c.timeouts;
		u.rto_events = s.rto_events;
		u.nacks = s.nacks;
		u.trim_nacks = s.trim_nacks;
		u.repath_events = s.repath_events;
		u.max_cwnd = s.max_cwnd;
		u.base_rtt_us = f.tx->cc().base_rtt_us;
		u.drops = s.drops.total();
		u.rtt_us = s.rtt_us;
	}
}

// The sockets close.
void UnorcLoop::finish(Flow &f, Phase p)
{
	record_stats(f);
	f.tx.reset();
	if (f.first_port)
		ports_.give_back(f.first_port, f.subflows);
	f.phase = p;
	--remaining_;
}

void UnorcLoop::fail(Flow &f, const std::string &why)
{
	f.result.error = why;
	finish(f, Phase::Failed);
	note_failure(f.plan.id, c_);
}

// The law's C: --link-mbps, else the bottleneck's --rate-mbps.
unorc::SenderSettings sender_settings(const ClientOptions &opt)
{
	unorc::SenderSettings s = opt.unorc.tx;
	if (opt.unorc.link_from_rate && opt.rate_mbps)
		unorc::set_link_mbps(s, static_cast<uint32_t>(std::clamp<double>(
			*opt.rate_mbps, UNO_LINK_RATE_MBPS_MIN, UNO_LINK_RATE_MBPS_MAX)));
	return s;
}

} // namespace

int run_unorc_client(const ClientOptions &opt, std::vector<FlowPlan> plans)
{
	const std::map<std::string, Fd> netns = open_namespaces(plans);
	raise_nofile_limit();
	OutputFile out(opt.json_path, /*append=*/false);
	SignalFd signals;

	Common c;
	c.connect_ahead_ns = opt.connect_ahead_us * 1000;
	c.timeout_ns = uint64_t{opt.timeout_s} * 1'000'000'000;
	c.flow_id_base = std::random_device{}();
	c.tx = sender_settings(opt);
	c.codes = unorc::code_policy(opt.unorc.code);

	std::vector<std::unique_ptr<Flow>> flows;
	std::map<std::string, std::vector<Flow *>> by_ns;
	for (FlowPlan &p : plans) {
		auto f = std::make_unique<Flow>();
		f->result = initial_result(p);
		f->plan = std::move(p);
		by_ns[f->plan.ns].push_back(f.get());
		flows.push_back(std::move(f));
	}
	std::vector<std::unique_ptr<UnorcLoop>> loops;
	std::vector<NsRunner *> runners;
	for (auto &[ns, v] : by_ns) {
		const auto it = netns.find(ns);
		loops.push_back(std::make_unique<UnorcLoop>(
			ns, it == netns.end() ? -1 : it->second.get(), c, std::move(v)));
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
