// SPDX-License-Identifier: GPL-2.0
#include "net.h"

#include <arpa/inet.h>
#include <linux/sock_diag.h>
#include <netinet/ip.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace unorc {

namespace {

// Room for a window's burst at the sender.
constexpr int kSndBuffer = 4 << 20;

[[noreturn]] void throw_errno(const std::string &what)
{
	throw SysError(what + ": " + std::strerror(errno));
}

void set_int(int fd, int level, int name, int value, const char *what)
{
	if (::setsockopt(fd, level, name, &value, sizeof(value)) < 0)
		throw_errno(what);
}

Fd udp_socket(int family)
{
	Fd fd(::socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
	if (fd.get() < 0)
		throw_errno("socket");
	// Best effort: net.core.wmem_max caps what an unprivileged process
	// gets, and losses beyond it are repaired like any other.
	const int size = kSndBuffer;
	::setsockopt(fd.get(), SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	set_int(fd.get(), SOL_SOCKET, SO_RXQ_OVFL, 1, "SO_RXQ_OVFL");
	return fd;
}

uint16_t parse_port(const std::string &s, const std::string &whole)
{
	if (s.empty() || s.size() > 5 || !std::all_of(s.begin(), s.end(), ::isdigit))
		throw std::invalid_argument("'" + whole + "': bad port '" + s + "'");
	const unsigned long port = std::stoul(s);
	if (port > 65535)
		throw std::invalid_argument("'" + whole + "': port " + s + " not in 0..65535");
	return static_cast<uint16_t>(port);
}

// The address bytes of e (4 or 16), a v4-mapped IPv6 address as IPv4.
std::span<const uint8_t> addr_bytes(const Endpoint &e, int *family)
{
	if (e.family() == AF_INET) {
		*family = AF_INET;
		const auto *sin = reinterpret_cast<const sockaddr_in *>(&e.ss);
		return { reinterpret_cast<const uint8_t *>(&sin->sin_addr), 4 };
	}
	const auto *sin6 = reinterpret_cast<const sockaddr_in6 *>(&e.ss);
	const auto *b = reinterpret_cast<const uint8_t *>(&sin6->sin6_addr);
	if (IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr)) {
		*family = AF_INET;
		return { b + 12, 4 };
	}
	*family = AF_INET6;
	return { b, 16 };
}

// The TOS byte an IP_TOS (one byte) or IPV6_TCLASS (an int) cmsg carries:
// the DSCP and the ECN codepoint; false for any other cmsg.
bool tos_of(const cmsghdr *c, uint8_t *tos)
{
	const bool v4 = c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TOS;
	const bool v6 = c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_TCLASS;
	if (v4 && c->cmsg_len >= CMSG_LEN(1)) {
		*tos = *CMSG_DATA(c);
		return true;
	}
	if (v6 && c->cmsg_len >= CMSG_LEN(sizeof(int))) {
		int v;
		std::memcpy(&v, CMSG_DATA(c), sizeof(v));
		*tos = static_cast<uint8_t>(v);
		return true;
	}
	return false;
}

// The drops an SO_RXQ_OVFL cmsg carries; false for any other cmsg.
bool drops_of(const cmsghdr *c, uint32_t *drops)
{
	if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SO_RXQ_OVFL ||
	    c->cmsg_len < CMSG_LEN(sizeof(uint32_t)))
		return false;
	std::memcpy(drops, CMSG_DATA(c), sizeof(*drops));
	return true;
}

} // namespace

void set_rcvbuf(int fd, int bytes)
{
	if (bytes == 0)
		return;
	if (bytes < 0 || bytes > kMaxRcvbuf) {
		errno = EINVAL;
		throw_errno("SO_RCVBUF " + std::to_string(bytes));
	}
	if (::setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof(bytes)) == 0)
		return;
	if (errno != EPERM)
		throw_errno("SO_RCVBUFFORCE " + std::to_string(bytes));
	set_int(fd, SOL_SOCKET, SO_RCVBUF, bytes, ("SO_RCVBUF " + std::to_string(bytes)).c_str());
}

int rcvbuf_of(int fd)
{
	int v = 0;
	socklen_t len = sizeof(v);
	if (::getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &len) < 0)
		throw_errno("SO_RCVBUF");
	return v;
}

uint32_t socket_drops_of(int fd)
{
	uint32_t mem[SK_MEMINFO_VARS] = {};
	socklen_t len = sizeof(mem);
	if (::getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mem, &len) < 0 ||
	    len < (SK_MEMINFO_DROPS + 1) * sizeof(uint32_t))
		return 0;
	return mem[SK_MEMINFO_DROPS];
}

uint64_t monotonic_ns()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

uint16_t Endpoint::port() const
{
	if (family() == AF_INET)
		return ntohs(reinterpret_cast<const sockaddr_in *>(&ss)->sin_port);
	return ntohs(reinterpret_cast<const sockaddr_in6 *>(&ss)->sin6_port);
}

bool Endpoint::operator<(const Endpoint &o) const
{
	if (family() != o.family())
		return family() < o.family();
	if (port() != o.port())
		return port() < o.port();
	int fa, fb;
	const auto a = addr_bytes(*this, &fa), b = addr_bytes(o, &fb);
	return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

Endpoint parse_endpoint(const std::string &s)
{
	Endpoint e;
	const size_t colon = s.rfind(':');
	if (colon == std::string::npos)
		throw std::invalid_argument("'" + s + "': need ADDR:PORT or [V6ADDR]:PORT");
	std::string host = s.substr(0, colon);
	const uint16_t port = parse_port(s.substr(colon + 1), s);
	if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
		auto *sin6 = reinterpret_cast<sockaddr_in6 *>(&e.ss);
		host = host.substr(1, host.size() - 2);
		if (inet_pton(AF_INET6, host.c_str(), &sin6->sin6_addr) != 1)
			throw std::invalid_argument("'" + s + "': bad IPv6 address '" + host + "'");
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		e.len = sizeof(*sin6);
		return e;
	}
	auto *sin = reinterpret_cast<sockaddr_in *>(&e.ss);
	if (inet_pton(AF_INET, host.c_str(), &sin->sin_addr) != 1)
		throw std::invalid_argument("'" + s + "': bad IPv4 address '" + host +
					    "' (IPv6 goes in brackets: [::1]:PORT)");
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	e.len = sizeof(*sin);
	return e;
}

std::string to_string(const Endpoint &e)
{
	char buf[INET6_ADDRSTRLEN] = {};
	const std::string port = std::to_string(e.port());
	if (e.family() == AF_INET) {
		inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in *>(&e.ss)->sin_addr, buf, sizeof(buf));
		return std::string(buf) + ":" + port;
	}
	inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6 *>(&e.ss)->sin6_addr, buf, sizeof(buf));
	return "[" + std::string(buf) + "]:" + port;
}

Endpoint with_port(const Endpoint &e, uint16_t port)
{
	Endpoint h = e;
	if (h.family() == AF_INET)
		reinterpret_cast<sockaddr_in *>(&h.ss)->sin_port = htons(port);
	else
		reinterpret_cast<sockaddr_in6 *>(&h.ss)->sin6_port = htons(port);
	return h;
}

Endpoint host_of(const Endpoint &e)
{
	return with_port(e, 0);
}

Endpoint local_endpoint(int fd)
{
	Endpoint e;
	e.len = sizeof(e.ss);
	if (::getsockname(fd, reinterpret_cast<sockaddr *>(&e.ss), &e.len) < 0)
		throw_errno("getsockname");
	return e;
}

Prefix parse_prefix(const std::string &s)
{
	const size_t slash = s.find('/');
	if (slash == std::string::npos)
		throw std::invalid_argument("'" + s + "': need ADDR/BITS");
	const std::string addr = s.substr(0, slash), bits = s.substr(slash + 1);
	Prefix p;
	if (inet_pton(AF_INET, addr.c_str(), p.addr.data()) == 1)
		p.family = AF_INET;
	else if (inet_pton(AF_INET6, addr.c_str(), p.addr.data()) == 1)
		p.family = AF_INET6;
	else
		throw std::invalid_argument("'" + s + "': bad address '" + addr + "'");
	const int max = p.family == AF_INET ? 32 : 128;
	if (bits.empty() || bits.size() > 3 || !std::all_of(bits.begin(), bits.end(), ::isdigit) ||
	    std::stoi(bits) > max)
		throw std::invalid_argument("'" + s + "': prefix length '" + bits + "' not in 0.." +
					    std::to_string(max));
	p.bits = std::stoi(bits);
	return p;
}

bool contains(const Prefix &p, const Endpoint &e)
{
	int family;
	const auto a = addr_bytes(e, &family);
	if (family != p.family)
		return false;
	const int whole = p.bits / 8, rest = p.bits % 8;
	if (!std::equal(a.begin(), a.begin() + whole, p.addr.begin()))
		return false;
	const uint8_t mask = static_cast<uint8_t>(0xff00 >> rest);
	return rest == 0 || ((a[whole] ^ p.addr[whole]) & mask) == 0;
}

Fd bind_udp(const Endpoint &e, int rcvbuf)
{
	Fd fd = udp_socket(e.family());
	set_rcvbuf(fd.get(), rcvbuf);
	if (e.family() == AF_INET) {
		set_int(fd.get(), IPPROTO_IP, IP_RECVTOS, 1, "IP_RECVTOS");
	} else {
		set_int(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, 1, "IPV6_V6ONLY");
		set_int(fd.get(), IPPROTO_IPV6, IPV6_RECVTCLASS, 1, "IPV6_RECVTCLASS");
	}
	if (::bind(fd.get(), e.sa(), e.len) < 0)
		throw_errno("bind " + to_string(e));
	return fd;
}

namespace {

// The wildcard address of family with port.
Endpoint any_endpoint(int family, uint16_t port)
{
	Endpoint e;
	if (family == AF_INET) {
		auto *in = reinterpret_cast<sockaddr_in *>(&e.ss);
		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		e.len = sizeof(*in);
	} else {
		auto *in6 = reinterpret_cast<sockaddr_in6 *>(&e.ss);
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		e.len = sizeof(*in6);
	}
	return e;
}

// Where re-paths draw source ports (spec 5.2 and 9.27): 16384 of them,
// by default from 49152, the first of the dynamic ports (RFC 6335).
constexpr uint32_t kDynamicPorts = 49152;
constexpr uint32_t kRepathPorts = 16384;

EntropyRange repath_ports(uint16_t first_port)
{
	const uint32_t first = first_port ? first_port : kDynamicPorts;
	return { first, std::min(kRepathPorts, 65536 - first) };
}

} // namespace

Fd connect_udp_ect(const Endpoint &dst, uint16_t src_port)
{
	Fd fd = udp_socket(dst.family());
	// Best effort: room for a burst of ACKs and NACKs; losses beyond it
	// are repaired like any other.
	try {
		set_rcvbuf(fd.get(), kDefaultRcvbuf);
	} catch (const SysError &) {
	}
	if (dst.family() == AF_INET)
		set_int(fd.get(), IPPROTO_IP, IP_TOS, kEct0, "IP_TOS");
	else
		set_int(fd.get(), IPPROTO_IPV6, IPV6_TCLASS, kEct0, "IPV6_TCLASS");
	if (src_port) {
		const Endpoint src = any_endpoint(dst.family(), src_port);
		if (::bind(fd.get(), src.sa(), src.len) < 0)
			throw_errno("bind " + to_string(src));
	}
	if (::connect(fd.get(), dst.sa(), dst.len) < 0)
		throw_errno("connect " + to_string(dst));
	return fd;
}

bool recv_datagram(int fd, std::span<uint8_t> buf, Datagram *out)
{
	alignas(cmsghdr) char ctrl[CMSG_SPACE(sizeof(int)) * 4 + CMSG_SPACE(sizeof(uint32_t))];
	iovec iov = { buf.data(), buf.size() };
	msghdr msg = {};
	msg.msg_name = &out->from.ss;
	msg.msg_namelen = sizeof(out->from.ss);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = ctrl;
	msg.msg_controllen = sizeof(ctrl);
	const ssize_t n = ::recvmsg(fd, &msg, MSG_DONTWAIT);
	if (n < 0)
		return false;
	out->from.len = msg.msg_namelen;
	out->len = static_cast<size_t>(n);
	out->truncated = (msg.msg_flags & MSG_TRUNC) != 0;
	out->tos = 0;
	out->drops = 0;
	for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
		if (!tos_of(c, &out->tos))
			drops_of(c, &out->drops);
	return true;
}

PortPaths::PortPaths(const Endpoint &dst, int subflows, uint16_t first_port)
	: dst_(dst), range_(repath_ports(first_port))
{
	if (subflows < 1 || subflows > 65536)
		throw std::invalid_argument("unorc: " + std::to_string(subflows) +
					    " sub-flows: need 1..65536");
	if (first_port && first_port + subflows - 1 > 65535)
		throw std::invalid_argument("unorc: " + std::to_string(subflows) +
					    " sub-flows from port " + std::to_string(first_port) +
					    " pass 65535");
	for (int k = 0; k < subflows; k++) {
		const uint16_t port = first_port ? static_cast<uint16_t>(first_port + k) : 0;

		subflows_.push_back(std::make_shared<const Fd>(connect_udp_ect(dst, port)));
	}
	update_raw();
}

bool PortPaths::send(uint16_t subflow, std::span<const uint8_t> dgram)
{
	return ::send(subflows_.at(subflow)->get(), dgram.data(), dgram.size(), MSG_DONTWAIT) ==
	       static_cast<ssize_t>(dgram.size());
}

uint32_t PortPaths::entropy(uint16_t subflow) const
{
	return local_endpoint(subflows_.at(subflow)->get()).port();
}

std::vector<uint16_t> PortPaths::ports() const
{
	std::vector<uint16_t> p;
	for (const Socket &s : subflows_)
		p.push_back(local_endpoint(s->get()).port());
	return p;
}

// The socket on a port: a sub-flow's (two sub-flows on one port are one
// path, and only one socket can bind it), a lingering one's, which goes
// back to work, or a new one (spec 5.2's simplest robust option).
PortPaths::Socket PortPaths::socket_on(uint16_t port)
{
	const auto on = [port](const Socket &s) { return local_endpoint(s->get()).port() == port; };
	if (const auto it = std::find_if(subflows_.begin(), subflows_.end(), on);
	    it != subflows_.end())
		return *it;
	const auto it = std::find_if(lingering_.begin(), lingering_.end(),
				     [&](const Lingering &l) { return on(l.sock); });
	if (it == lingering_.end())
		return std::make_shared<const Fd>(connect_udp_ect(dst_, port));
	Socket s = std::move(it->sock);
	lingering_.erase(it);
	return s;
}

// A port that cannot be bound (another socket has it) leaves the sub-flow
// on its socket.
bool PortPaths::repath(uint16_t subflow, uint32_t entropy, uint64_t now_ns, uint64_t linger_ns)
{
	if (subflow >= subflows_.size() || entropy == 0 || entropy > 65535)
		return false;
	std::erase_if(lingering_, [now_ns](const Lingering &l) { return l.until_ns <= now_ns; });
	try {
		if (local_endpoint(subflows_[subflow]->get()).port() == entropy) {
			update_raw();
			return true;
		}
		Socket left = std::exchange(subflows_[subflow],
					    socket_on(static_cast<uint16_t>(entropy)));
		// A socket another sub-flow still sends on is read anyway.
		if (std::find(subflows_.begin(), subflows_.end(), left) == subflows_.end())
			lingering_.push_back({ std::move(left), now_ns + linger_ns });
		update_raw();
		return true;
	} catch (const SysError &) {
		update_raw();
		return false;
	}
}

void PortPaths::update_raw()
{
	raw_.clear();
	for (const Socket &s : subflows_)
		raw_.push_back(s->get());
	for (const Lingering &l : lingering_)
		raw_.push_back(l.sock->get());
}

} // namespace unorc
