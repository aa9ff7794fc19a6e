// SPDX-License-Identifier: GPL-2.0
//
// unoperf server: one thread, one epoll set.
//
// Why epoll and not a thread per connection: an incast has many flows that
// arrive at one instant, and a single event loop accepts and drains any number
// of them without a thread (and its stack and wake-up) each. The work per
// event is one read() of at most kReadBuf bytes and a clock_gettime(), so a
// completing flow is time-stamped within one such read of its last byte
// arriving, even while other flows are being drained. Signals come in through
// a signalfd in the same set: there is no other thread and nothing polls.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "record.h"
#include "server.h"
#include "sys.h"
#include "unoperf.h"
#include "wire.h"

namespace unoperf {

namespace {

constexpr size_t kReadBuf = 256 * 1024;
constexpr int kBacklog = 4096; // capped by net.core.somaxconn
constexpr int kMaxEvents = 64;

struct Conn {
	Fd fd;
	std::string peer;
	std::string cc;
	HeaderBytes hdr_bytes{};
	size_t hdr_got = 0;
	FlowHeader hdr;
	uint64_t received = 0; // payload bytes
	uint64_t first_byte_ns = 0;
};

class Server {
public:
	Server(const ServerOptions &opt, OutputFile &sink) : opt_(opt), sink_(sink), buf_(kReadBuf) {}
	int run();

private:
	void setup();
	void accept_all();
	// Returns true when the connection is finished (completed or failed).
	bool on_readable(Conn &c);
	void complete(Conn &c, uint64_t now);
	void watch(int fd);
	void unwatch(int fd);
	void close_conn(std::unordered_map<int, std::unique_ptr<Conn>>::iterator it);

	const ServerOptions &opt_;
	OutputFile &sink_;
	std::vector<uint8_t> buf_;
	Fd epoll_;
	Fd listen_;
	Fd signal_;
	std::unordered_map<int, std::unique_ptr<Conn>> conns_;
	uint64_t completed_ = 0;
	bool accept_paused_ = false;
};

void Server::watch(int fd)
{
	epoll_event ev{};
	ev.events = EPOLLIN;
	ev.data.fd = fd;
	if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &ev) < 0)
		throw_errno("epoll_ctl");
}

void Server::unwatch(int fd)
{
	if (::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, fd, nullptr) < 0)
		throw_errno("epoll_ctl");
}

void Server::close_conn(std::unordered_map<int, std::unique_ptr<Conn>>::iterator it)
{
	conns_.erase(it); // closing the socket also removes it from the epoll set
	if (accept_paused_) {
		accept_paused_ = false;
		watch(listen_.get());
	}
}

void Server::setup()
{
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	if (::sigprocmask(SIG_BLOCK, &mask, nullptr) < 0)
		throw_errno("sigprocmask");
	signal_ = Fd(::signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK));
	if (!signal_)
		throw_errno("signalfd");

	const Endpoint local{opt_.bind_addr, opt_.port};
	const SockAddr sa = to_sockaddr(local);
	listen_ = Fd(::socket(sa.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
	if (!listen_)
		throw_errno("socket");
	const int one = 1;
	if (::setsockopt(listen_.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0)
		throw_errno("setsockopt(SO_REUSEADDR)");
	if (::bind(listen_.get(), sa.sa(), sa.len) < 0)
		throw_errno("bind " + local.str());
	if (::listen(listen_.get(), kBacklog) < 0)
		throw_errno("listen");

	epoll_ = Fd(::epoll_create1(EPOLL_CLOEXEC));
	if (!epoll_)
		throw_errno("epoll_create1");
	watch(listen_.get());
	watch(signal_.get());

	announce_listening(opt_, local_address(listen_.get()));
}

void Server::accept_all()
{
	for (;;) {
		sockaddr_storage sa{};
		socklen_t len = sizeof(sa);
		Fd fd(::accept4(listen_.get(), reinterpret_cast<sockaddr *>(&sa), &len,
				SOCK_NONBLOCK | SOCK_CLOEXEC));
		if (!fd) {
			const int err = errno;
			if (err == EAGAIN || err == EINTR)
				return;
			if (err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM) {
				// Out of descriptors or memory: leave the connection in the
				// backlog and stop watching the listener (it would stay
				// readable: a busy loop) until a connection is closed.
				server_log(errno_message("accept (pausing until a flow ends)", err));
				unwatch(listen_.get());
				accept_paused_ = true;
				return;
			}
			// ECONNABORTED, EPERM (firewall), ...: that connection only.
			server_log(errno_message("accept", err));
			continue;
		}
		auto c = std::make_unique<Conn>();
		c->peer = sockaddr_str(reinterpret_cast<const sockaddr *>(&sa));
		c->cc = congestion_control(fd.get());
		c->fd = std::move(fd);
		const int key = c->fd.get();
		watch(key);
		conns_.emplace(key, std::move(c));
	}
}

void Server::complete(Conn &c, uint64_t now)
{
	const uint8_t done = 1;
	if (::send(c.fd.get(), &done, 1, MSG_NOSIGNAL | MSG_DONTWAIT) != 1) {
		server_log(errno_message(c.peer + ": flow " + std::to_string(c.hdr.flow_id) +
					  ": sending the completion byte",
				  errno));
		return;
	}
	ServerFlowRecord r;
	r.id = c.hdr.flow_id;
	r.peer = c.peer;
	r.cc = c.cc;
	r.size = c.hdr.size;
	r.client_start_ns = c.hdr.start_ns;
	r.first_byte_ns = c.first_byte_ns;
	r.last_byte_ns = now;
	sink_.write(server_flow_json(r).dump() + "\n");
	++completed_;
}

bool Server::on_readable(Conn &c)
{
	uint8_t *dst;
	size_t want;
	if (c.hdr_got < kHeaderSize) {
		dst = c.hdr_bytes.data() + c.hdr_got;
		want = kHeaderSize - c.hdr_got;
	} else {
		dst = buf_.data();
		want = static_cast<size_t>(std::min<uint64_t>(buf_.size(), c.hdr.size - c.received));
	}

	const ssize_t n = ::read(c.fd.get(), dst, want);
	const uint64_t now = monotonic_ns();
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return false;
		server_log(errno_message(c.peer + ": read", errno));
		return true;
	}
	if (n == 0) {
		if (c.hdr_got < kHeaderSize)
			server_log(c.peer + ": closed before sending a complete header");
		else
			server_log(c.peer + ": flow " + std::to_string(c.hdr.flow_id) + ": closed after " +
			    std::to_string(c.received) + " of " + std::to_string(c.hdr.size) +
			    " bytes");
		return true;
	}
	if (c.first_byte_ns == 0)
		c.first_byte_ns = now;

	if (c.hdr_got < kHeaderSize) {
		c.hdr_got += static_cast<size_t>(n);
		if (c.hdr_got < kHeaderSize)
			return false;
		std::string err;
		if (!decode_header(std::span<const uint8_t, kHeaderSize>(c.hdr_bytes), &c.hdr, &err)) {
			server_log(c.peer + ": " + err);
			return true;
		}
	} else {
		c.received += static_cast<uint64_t>(n);
	}

	if (c.received < c.hdr.size)
		return false;
	complete(c, now);
	return true;
}

int Server::run()
{
	setup();
	epoll_event events[kMaxEvents];
	while (opt_.count == 0 || completed_ < opt_.count) {
		const int n = ::epoll_wait(epoll_.get(), events, kMaxEvents, -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw_errno("epoll_wait");
		}
		for (int i = 0; i < n; ++i) {
			const int fd = events[i].data.fd;
			if (fd == signal_.get()) {
				signalfd_siginfo si{};
				if (::read(fd, &si, sizeof(si)) != sizeof(si))
					continue;
				server_log(std::string(si.ssi_signo == SIGINT ? "SIGINT" : "SIGTERM") +
				    ": exiting after " + std::to_string(completed_) + " flows");
				return kExitOk;
			}
			if (fd == listen_.get()) {
				accept_all();
				continue;
			}
			const auto it = conns_.find(fd);
			if (it == conns_.end())
				continue; // closed earlier in this batch
			if (on_readable(*it->second))
				close_conn(it);
			if (opt_.count != 0 && completed_ >= opt_.count)
				break;
		}
	}
	server_log("done after " + std::to_string(completed_) + " flows");
	return kExitOk;
}

} // namespace

void server_log(const std::string &msg)
{
	std::fprintf(stderr, "unoperf server: %s\n", msg.c_str());
}

void announce_listening(const ServerOptions &opt, const std::string &addr)
{
	server_log("listening on " + addr + " (" + transport_name(opt.transport) + ")" +
		   (opt.netns.empty() ? std::string() : " in network namespace " + opt.netns));
	if (opt.on_listening)
		opt.on_listening(addr);
}

int run_server(const ServerOptions &opt)
{
	try {
		::signal(SIGPIPE, SIG_IGN);
		// The output file is opened in the caller's mount namespace before
		// we move: setns(CLONE_NEWNET) does not change paths, but fail early.
		OutputFile sink(opt.json_path, /*append=*/true);
		if (!opt.netns.empty()) {
			Fd ns = open_netns(opt.netns);
			enter_netns(ns.get(), opt.netns);
		}
		raise_nofile_limit();
		if (opt.transport == Transport::Unorc)
			return run_unorc_server(opt, sink);
		Server server(opt, sink);
		return server.run();
	} catch (const std::exception &e) {
		std::fprintf(stderr, "unoperf server: %s\n", e.what());
		return kExitFailed;
	}
}

} // namespace unoperf
