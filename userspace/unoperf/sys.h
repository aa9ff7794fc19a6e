// SPDX-License-Identifier: GPL-2.0
//
// unoperf: thin wrappers over the system calls the client and server share.
#pragma once

#include <netinet/in.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include "spec.h"
#include "uno_fd.h"

namespace unoperf {

// A failed system call or an unusable environment (missing namespace, ...).
class SysError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

// "what: strerror(err)".
std::string errno_message(const std::string &what, int err);
[[noreturn]] void throw_errno(const std::string &what);

using uno::Fd;

// Output text to a file (created 0644, truncated or appended to) or, for ""
// and "-", to stdout. Every write is flushed; errors throw SysError.
class OutputFile {
public:
	OutputFile(const std::string &path, bool append);
	~OutputFile();
	OutputFile(const OutputFile &) = delete;
	OutputFile &operator=(const OutputFile &) = delete;

	void write(const std::string &text);
	const std::string &name() const { return name_; }

private:
	FILE *out_ = nullptr;
	bool owned_ = false;
	std::string name_;
};

uint64_t monotonic_ns();

// Opens /run/netns/NAME; a missing one is a SysError that says so.
Fd open_netns(const std::string &name);
// Moves the calling thread into the network namespace `fd` refers to.
void enter_netns(int fd, const std::string &name);

// TCP_CONGESTION: set (with an error that says what to check) and read back.
void set_congestion_control(int sock, const std::string &cc);
std::string congestion_control(int sock);

// An endpoint's socket address: IPv4 or IPv6 (validated when parsed).
struct SockAddr {
	sockaddr_storage ss{};
	socklen_t len = 0;

	int family() const { return ss.ss_family; }
	const sockaddr *sa() const { return reinterpret_cast<const sockaddr *>(&ss); }
};
SockAddr to_sockaddr(const Endpoint &e);
// "ADDR:PORT", "[V6ADDR]:PORT".
std::string sockaddr_str(const sockaddr *sa);
// The address a socket is bound to (getsockname).
std::string local_address(int fd);

// An eventfd used as a latch: once set, poll() reports it readable to every
// waiter until the process ends (nobody reads it).
Fd make_eventfd();
void eventfd_add(int fd, uint64_t n = 1);
uint64_t eventfd_take(int fd);

// Raises the soft RLIMIT_NOFILE to at least `need` (up to the hard limit);
// throws if the hard limit is lower.
void ensure_nofile(uint64_t need);
// Best effort: raises the soft RLIMIT_NOFILE to the hard limit.
void raise_nofile_limit();

} // namespace unoperf
