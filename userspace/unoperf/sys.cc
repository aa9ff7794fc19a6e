// SPDX-License-Identifier: GPL-2.0
#include "sys.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace unoperf {

std::string errno_message(const std::string &what, int err)
{
	return what + ": " + std::strerror(err);
}

void throw_errno(const std::string &what)
{
	throw SysError(errno_message(what, errno));
}

OutputFile::OutputFile(const std::string &path, bool append)
{
	if (path.empty() || path == "-") {
		out_ = stdout;
		name_ = "stdout";
		return;
	}
	const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
	const int fd = ::open(path.c_str(), flags, 0644);
	if (fd < 0)
		throw_errno("open " + path);
	out_ = ::fdopen(fd, append ? "a" : "w");
	if (!out_) {
		const int err = errno;
		::close(fd);
		throw SysError(errno_message("fdopen " + path, err));
	}
	owned_ = true;
	name_ = path;
}

OutputFile::~OutputFile()
{
	if (owned_)
		std::fclose(out_);
}

void OutputFile::write(const std::string &text)
{
	if (std::fwrite(text.data(), 1, text.size(), out_) != text.size() || std::fflush(out_) != 0)
		throw_errno("write " + name_);
}

uint64_t monotonic_ns()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

Fd open_netns(const std::string &name)
{
	const std::string path = "/run/netns/" + name;
	Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
	if (!fd) {
		const int err = errno;
		if (err == ENOENT)
			throw SysError("network namespace '" + name + "' does not exist (no " + path +
				       "; create it with 'ip netns add " + name + "')");
		throw SysError(errno_message("network namespace '" + name + "': open " + path, err));
	}
	return fd;
}

void enter_netns(int fd, const std::string &name)
{
	if (::setns(fd, CLONE_NEWNET) < 0) {
		const int err = errno;
		std::string msg = errno_message("setns into network namespace '" + name + "'", err);
		if (err == EPERM)
			msg += " (needs CAP_SYS_ADMIN: run as root)";
		else if (err == EINVAL)
			msg += " (/run/netns/" + name + " is not a network namespace)";
		throw SysError(msg);
	}
}

void set_congestion_control(int sock, const std::string &cc)
{
	if (::setsockopt(sock, IPPROTO_TCP, TCP_CONGESTION, cc.data(),
			 static_cast<socklen_t>(cc.size())) == 0)
		return;
	const int err = errno;
	std::string msg = errno_message("congestion control '" + cc + "'", err);
	if (err == ENOENT)
		msg += " (not in /proc/sys/net/ipv4/tcp_available_congestion_control;"
		       " is its module loaded? modprobe tcp_" + cc + ")";
	else if (err == EPERM)
		msg += " (not in /proc/sys/net/ipv4/tcp_allowed_congestion_control"
		       " and the caller lacks CAP_NET_ADMIN)";
	throw SysError(msg);
}

std::string congestion_control(int sock)
{
	char buf[32] = {};
	socklen_t len = sizeof(buf) - 1;
	if (::getsockopt(sock, IPPROTO_TCP, TCP_CONGESTION, buf, &len) < 0)
		return {};
	return std::string(buf, strnlen(buf, len));
}

SockAddr to_sockaddr(const Endpoint &e)
{
	SockAddr a;
	if (e.v6()) {
		auto *in6 = reinterpret_cast<sockaddr_in6 *>(&a.ss);
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(e.port);
		inet_pton(AF_INET6, e.addr.c_str(), &in6->sin6_addr);
		a.len = sizeof(*in6);
	} else {
		auto *in = reinterpret_cast<sockaddr_in *>(&a.ss);
		in->sin_family = AF_INET;
		in->sin_port = htons(e.port);
		inet_pton(AF_INET, e.addr.c_str(), &in->sin_addr);
		a.len = sizeof(*in);
	}
	return a;
}

std::string sockaddr_str(const sockaddr *sa)
{
	char buf[INET6_ADDRSTRLEN] = {};
	if (sa->sa_family == AF_INET6) {
		const auto *in6 = reinterpret_cast<const sockaddr_in6 *>(sa);
		inet_ntop(AF_INET6, &in6->sin6_addr, buf, sizeof(buf));
		return "[" + std::string(buf) + "]:" + std::to_string(ntohs(in6->sin6_port));
	}
	const auto *in = reinterpret_cast<const sockaddr_in *>(sa);
	inet_ntop(AF_INET, &in->sin_addr, buf, sizeof(buf));
	return std::string(buf) + ":" + std::to_string(ntohs(in->sin_port));
}

std::string local_address(int fd)
{
	sockaddr_storage ss{};
	socklen_t len = sizeof(ss);
	if (::getsockname(fd, reinterpret_cast<sockaddr *>(&ss), &len) < 0)
		throw_errno("getsockname");
	return sockaddr_str(reinterpret_cast<const sockaddr *>(&ss));
}

Fd make_eventfd()
{
	Fd fd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
	if (!fd)
		throw_errno("eventfd");
	return fd;
}

void eventfd_add(int fd, uint64_t n)
{
	// Cannot fail short of a counter overflow at 2^64 - 2.
	[[maybe_unused]] ssize_t ret = ::write(fd, &n, sizeof(n));
}

uint64_t eventfd_take(int fd)
{
	uint64_t n = 0;
	if (::read(fd, &n, sizeof(n)) != sizeof(n))
		return 0; // EAGAIN: nothing pending
	return n;
}

void ensure_nofile(uint64_t need)
{
	rlimit rl{};
	if (::getrlimit(RLIMIT_NOFILE, &rl) < 0)
		throw_errno("getrlimit(RLIMIT_NOFILE)");
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need)
		throw SysError("need " + std::to_string(need) + " file descriptors but the hard" +
			       " RLIMIT_NOFILE is " + std::to_string(rl.rlim_max) +
			       " (raise it with ulimit -n, or run fewer flows)");
	rl.rlim_cur = need;
	if (::setrlimit(RLIMIT_NOFILE, &rl) < 0)
		throw_errno("setrlimit(RLIMIT_NOFILE)");
}

void raise_nofile_limit()
{
	rlimit rl{};
	if (::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		::setrlimit(RLIMIT_NOFILE, &rl);
	}
}

} // namespace unoperf
