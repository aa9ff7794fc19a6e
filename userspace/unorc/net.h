// SPDX-License-Identifier: GPL-2.0
//
// UnoRC's sockets: addresses, prefixes, UDP sockets with ECN (spec 6.4),
// and the sub-flows a sender's packets leave by (spec 5.1 and 5.2).
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "uno_fd.h"

namespace unorc {

// A failed system call: "what: strerror(errno)".
class SysError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

using uno::Fd;

uint64_t monotonic_ns();

// An IPv4 or IPv6 address and UDP port.
struct Endpoint {
	sockaddr_storage ss = {};
	socklen_t len = 0;

	int family() const { return ss.ss_family; }
	const sockaddr *sa() const { return reinterpret_cast<const sockaddr *>(&ss); }
	uint16_t port() const;
	// By family, port, then address: a map key.
	bool operator<(const Endpoint &o) const;
};

// "ADDR:PORT", "[V6ADDR]:PORT"; numeric addresses only, port 0 for
// bind's "any". Throws
// std::invalid_argument with what is wrong.
Endpoint parse_endpoint(const std::string &s);
std::string to_string(const Endpoint &e);
// e with another port, and with port 0: its host.
Endpoint with_port(const Endpoint &e, uint16_t port);
Endpoint host_of(const Endpoint &e);
// The endpoint of a socket (getsockname).
Endpoint local_endpoint(int fd);

// An address prefix, "10.1.0.0/16" or "fd00::/8".
struct Prefix {
	int family = 0;
	std::array<uint8_t, 16> addr = {};
	int bits = 0;
};
// Throws std::invalid_argument with what is wrong.
Prefix parse_prefix(const std::string &s);
// Whether e's address is in p; a v4-mapped IPv6 address is the IPv4 one.
bool contains(const Prefix &p, const Endpoint &e);

// A receiver's socket buffer by default. A trimming port sends a burst of
// headers at line rate (an incast's packets, each cut to its header),
// and the kernel charges each datagram its skb's truesize, a few hundred
// bytes to some KiB whatever its length: on the kernel's default,
// net.core.rmem_default (208 KiB), RC2's server read 1009 of the 1347
// datagrams its senders sent. 4 MiB holds thousands.
inline constexpr int kDefaultRcvbuf = 4 << 20;
// The largest receive buffer asked for: the kernel doubles what it is
// given, and caps it at INT_MAX / 2.
inline constexpr int kMaxRcvbuf = 1 << 30;

// Sets fd's receive buffer to bytes (0: leaves the kernel's default):
// SO_RCVBUFFORCE, beyond net.core.rmem_max, as root (CAP_NET_ADMIN),
// else SO_RCVBUF, which rmem_max caps. Throws SysError if neither takes
// it.
void set_rcvbuf(int fd, int bytes);
// The socket's receive buffer as the kernel holds it (SO_RCVBUF: twice
// what was asked for, for its overhead).
int rcvbuf_of(int fd);
// The datagrams the kernel dropped at fd for want of buffer since the
// socket was made (SO_MEMINFO's drops, what SO_RXQ_OVFL reports); 0 if
// the kernel cannot say.
uint32_t socket_drops_of(int fd);

// A non-blocking UDP socket of e's family bound to e; v6 only for an
// IPv6 endpoint, its receive buffer rcvbuf bytes (set_rcvbuf()). It reads
// the ECN field of every datagram (IP_RECVTOS, IPV6_RECVTCLASS) and the
// socket's drops (SO_RXQ_OVFL) for recv_datagram().
Fd bind_udp(const Endpoint &e, int rcvbuf = kDefaultRcvbuf);
// A non-blocking UDP socket bound to src_port (0: an ephemeral one) and
// connected to dst, sending ECT(0) (spec 6.4: IP_TOS / IPV6_TCLASS =
// 0x02), its receive buffer kDefaultRcvbuf if it can get it, the socket's
// drops read as bind_udp()'s.
Fd connect_udp_ect(const Endpoint &dst, uint16_t src_port = 0);

// ECN codepoints (RFC 3168), the low two bits of the TOS or traffic class.
inline constexpr uint8_t kEcnMask = 0x03;
inline constexpr uint8_t kEct0 = 0x02;
inline constexpr uint8_t kCe = 0x03;

struct Datagram {
	size_t len = 0;         // bytes in the buffer
	bool truncated = false; // longer than the buffer
	uint8_t tos = 0;        // its TOS or traffic class, 0 if unknown
	// SO_RXQ_OVFL: the datagrams the socket had dropped for want of
	// buffer when this one was queued, since the socket was made; the
	// kernel says nothing while none were (0).
	uint32_t drops = 0;
	Endpoint from;

	uint8_t ecn() const { return tos & kEcnMask; }
	uint8_t dscp() const { return tos >> 2; }
	bool ce() const { return ecn() == kCe; }
};
// One datagram from fd into buf; false when none is waiting (EAGAIN) or
// on an error the socket reports (ICMP unreachable, ...), which the
// transport's RTO covers.
bool recv_datagram(int fd, std::span<uint8_t> buf, Datagram *out);

// Where fresh entropies are drawn from: [first, first + span).
struct EntropyRange {
	uint32_t first = 0;
	uint32_t span = 0;
};

// The sub-flows of a sender's flow (spec 5.1): sub-flow k's packets leave
// by a path of its own, which its entropy picks. The entropy of a path is
// for now the UDP source port of a socket of its own (spec 5.2); UnoLB's
// eBPF steering will implement this interface by re-writing the entropy
// of one socket.
class Paths {
public:
	virtual ~Paths() = default;
	// The number of sub-flows, S.
	virtual int count() const = 0;
	// Sends one datagram on sub-flow k < count(); false if the kernel
	// refused it (a full socket buffer, ENOBUFS): the packet is then lost,
	// which the sender's NACK and RTO repair.
	virtual bool send(uint16_t subflow, std::span<const uint8_t> dgram) = 0;
	// The sockets ACKs and NACKs come back on: sub-flow k's at [k], then
	// those re-paths left that are still kept. Two sub-flows on one path
	// name one socket twice. A re-path changes the set: read it again
	// after one.
	virtual std::span<const int> sockets() const = 0;
	// Sub-flow k's entropy, k < count().
	virtual uint32_t entropy(uint16_t subflow) const = 0;
	// Where UnoLB draws fresh entropies from (spec 5.2 and 9.27).
	virtual EntropyRange entropy_range() const = 0;
	// Moves sub-flow k < count() onto the path of an entropy: a fresh one
	// from entropy_range() or another sub-flow's (UnoLB, spec 5.1), at
	// now_ns. Replies to what the sub-flow sent on the path it leaves
	// are still on their way: they are read for linger_ns more.
	// false if it cannot: the sub-flow keeps its path. Never throws.
	virtual bool repath(uint16_t subflow, uint32_t entropy, uint64_t now_ns,
			    uint64_t linger_ns) = 0;
};

// One connected UDP socket per sub-flow, each bound to its own source
// port, its entropy: first_port + k for sub-flow k, or ephemeral ones if
// first_port is 0 (a fixed port lets a test or a firewall find a
// sub-flow's path). Re-paths draw 16384 ports from first_port on, or
// from 49152 (the dynamic ports, spec 5.2) if it is 0, never past 65535:
// a firewall that admits those admits every path of the flow.
//
// A re-path keeps the socket a sub-flow leaves open, and in sockets(),
// for linger_ns: closed at once, it would answer the replies still on
// their way with ICMP port unreachable, and their packets would wait for
// the RTO, which re-paths again. Lingering sockets are closed at the
// first re-path after their time; as UnoLB moves a sub-flow at most once
// per base RTT, at most S * (linger / base RTT + 1) are open.
class PortPaths : public Paths {
public:
	PortPaths(const Endpoint &dst, int subflows, uint16_t first_port = 0);

	int count() const override { return static_cast<int>(subflows_.size()); }
	bool send(uint16_t subflow, std::span<const uint8_t> dgram) override;
	std::span<const int> sockets() const override { return raw_; }
	uint32_t entropy(uint16_t subflow) const override;
	EntropyRange entropy_range() const override { return range_; }
	bool repath(uint16_t subflow, uint32_t entropy, uint64_t now_ns,
		    uint64_t linger_ns) override;
	// The source port of each sub-flow: its entropy.
	std::vector<uint16_t> ports() const;
	// The sockets re-paths left that are still open.
	size_t lingering() const { return lingering_.size(); }

private:
	using Socket = std::shared_ptr<const Fd>;
	struct Lingering {
		Socket sock;
		uint64_t until_ns;
	};

	Socket socket_on(uint16_t port);
	void update_raw();

	Endpoint dst_;
	EntropyRange range_;
	std::vector<Socket> subflows_; // sub-flows on one port share one
	std::vector<Lingering> lingering_;
	std::vector<int> raw_;
};

} // namespace unorc
