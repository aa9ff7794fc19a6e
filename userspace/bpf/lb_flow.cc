// SPDX-License-Identifier: GPL-2.0
//
// lb_flow: UDP flows through the entropy datapath (bpf/lb.bpf.c, which
// unod attaches for [[lb]]), for the namespace tests (selftests/bpf/).
//
//   lb_flow echo --listen ADDR:PORT [--idle-ms MS]
//	answers every DATA datagram with an ACK that echoes its shim's EV,
//	sequence and timestamp and its CE bit, sent to the source address
//	and the shim's reply_port, as arcane.md 3.3 has the receiver do;
//	ends after MS without a datagram and prints what it received.
//   lb_flow send --to ADDR:PORT --src-port P --count N [--flows F]
//	[--gap-us G]
//	sends N DATA datagrams (the shim, 64 bytes of payload, ECT(0)) on
//	each of F flows, from ports P .. P+F-1, one datagram every G us in
//	turn, and counts each flow's ACKs, and those of its second half:
//	a datagram the fabric lost is not sent again.
//
// The output is one JSON object. Exit status 0, 1 on a system error, 2
// on bad arguments.
#include <arpa/inet.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "net.h"
#include "uno_lb.h"

namespace {

using nlohmann::json;
using unorc::Endpoint;
using unorc::Fd;

constexpr size_t kPayload = 64;


[[noreturn]] void fail(const std::string &what, int err = errno)
{
	throw std::runtime_error(what + ": " + std::strerror(err));
}

lb_shim read_shim(const uint8_t *p)
{
	lb_shim s;
	std::memcpy(&s, p, sizeof(s));
	return s;
}

void send_to(int fd, const void *buf, size_t len, const Endpoint &to)
{
	if (::sendto(fd, buf, len, 0, to.sa(), to.len) != static_cast<ssize_t>(len))
		fail("sendto " + unorc::to_string(to));
}

int echo(const std::string &listen, int idle_ms)
{
	const Fd fd = unorc::bind_udp(unorc::parse_endpoint(listen));
	uint64_t data = 0, ce = 0, other = 0;
	std::vector<uint8_t> buf(2048);
	for (;;) {
		pollfd p = { .fd = fd.get(), .events = POLLIN, .revents = 0 };
		if (::poll(&p, 1, idle_ms) == 0)
			break;
		unorc::Datagram d;
		while (unorc::recv_datagram(fd.get(), buf, &d)) {
			lb_shim s = d.len >= sizeof(lb_shim) ? read_shim(buf.data()) : lb_shim{};
			if (s.magic != htonl(LB_SHIM_MAGIC) || s.type != LB_SHIM_DATA) {
				other++;
				continue;
			}
			data++;
			ce += d.ce();
			s.type = LB_SHIM_ACK;
			s.flags = d.ce() ? LB_SHIM_CE_ECHO : 0;
			Endpoint to = d.from;
			// The reply goes to reply_port: the source port is the EV.
			if (to.family() == AF_INET)
				reinterpret_cast<sockaddr_in *>(&to.ss)->sin_port = s.reply_port;
			else
				reinterpret_cast<sockaddr_in6 *>(&to.ss)->sin6_port = s.reply_port;
			send_to(fd.get(), &s, sizeof(s), to);
		}
	}
	std::printf("%s\n", json{ { "role", "echo" }, { "data", data }, { "ce", ce },
				  { "other", other } }.dump().c_str());
	return 0;
}

struct SendOptions {
	std::string to;
	uint16_t src_port = 0;
	uint16_t flows = 1;
	uint64_t count = 0;
	uint64_t gap_us = 100;
};

struct Flow {
	Fd fd;
	uint16_t port;
	uint64_t sent = 0;
	uint64_t acks = 0;
	uint64_t ce = 0;
	std::vector<bool> acked; // by sequence
};

// Reads the flow's ACKs waiting.
void read_acks(Flow &f, std::vector<uint8_t> &buf)
{
	unorc::Datagram d;
	while (unorc::recv_datagram(f.fd.get(), buf, &d)) {
		if (d.len < sizeof(lb_shim))
			continue;
		const lb_shim s = read_shim(buf.data());
		const uint64_t seq = be64toh(s.seq);
		if (s.magic != htonl(LB_SHIM_MAGIC) || s.type != LB_SHIM_ACK ||
		    seq >= f.acked.size() || f.acked[seq])
			continue;
		f.acked[seq] = true;
		f.acks++;
		f.ce += (s.flags & LB_SHIM_CE_ECHO) != 0;
	}
}

// ACKs of the flow's second half: where a law that moves off a dead path
// has moved.
uint64_t acks_last_half(const Flow &f)
{
	return static_cast<uint64_t>(
		std::count(f.acked.begin() + static_cast<long>(f.acked.size() / 2), f.acked.end(),
			   true));
}

void send_data(Flow &f, std::vector<uint8_t> &pkt)
{
	lb_shim s = {};
	s.magic = htonl(LB_SHIM_MAGIC);
	s.type = LB_SHIM_DATA;
	s.ev = htons(LB_SHIM_EV_NONE);
	s.reply_port = htons(f.port);
	s.seq = htobe64(f.sent);
	s.ts_ns = htobe64(unorc::monotonic_ns());
	std::memcpy(pkt.data(), &s, sizeof(s));
	pollfd p = { .fd = f.fd.get(), .events = POLLOUT, .revents = 0 };
	::poll(&p, 1, 1000);
	if (::send(f.fd.get(), pkt.data(), pkt.size(), 0) != static_cast<ssize_t>(pkt.size()))
		fail("send");
	f.sent++;
}

int send(const SendOptions &o)
{
	const Endpoint to = unorc::parse_endpoint(o.to);
	std::vector<Flow> flows;
	for (uint16_t i = 0; i < o.flows; i++)
		flows.push_back({ .fd = unorc::connect_udp_ect(to, static_cast<uint16_t>(o.src_port + i)),
				  .port = static_cast<uint16_t>(o.src_port + i),
				  .acked = std::vector<bool>(o.count) });
	std::vector<uint8_t> pkt(sizeof(lb_shim) + kPayload, 0x5a), buf(2048);
	const timespec gap = { .tv_sec = static_cast<time_t>(o.gap_us / 1'000'000),
			       .tv_nsec = static_cast<long>(o.gap_us % 1'000'000) * 1000 };
	for (uint64_t i = 0; i < o.count; i++)
		for (Flow &f : flows) {
			send_data(f, pkt);
			read_acks(f, buf);
			::nanosleep(&gap, nullptr);
		}
	// The last ACKs: until a second passes without one.
	std::vector<pollfd> fds;
	for (const Flow &f : flows)
		fds.push_back({ .fd = f.fd.get(), .events = POLLIN, .revents = 0 });
	while (::poll(fds.data(), fds.size(), 1000) > 0)
		for (Flow &f : flows)
			read_acks(f, buf);
	json per_flow = json::array();
	uint64_t acks = 0, ce = 0;
	for (const Flow &f : flows) {
		per_flow.push_back({ { "src_port", f.port },
				     { "sent", f.sent },
				     { "acks", f.acks },
				     { "acks_last_half", acks_last_half(f) } });
		acks += f.acks;
		ce += f.ce;
	}
	std::printf("%s\n", json{ { "role", "send" }, { "sent", o.count * o.flows }, { "acks", acks },
				  { "ce", ce }, { "flows", per_flow } }.dump().c_str());
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	CLI::App app("lb_flow: one UDP flow through the entropy datapath");
	app.require_subcommand(1);
	std::string listen;
	int idle_ms = 2000;
	CLI::App *e = app.add_subcommand("echo", "answer DATA datagrams with ACKs");
	e->add_option("--listen", listen, "ADDR:PORT")->required();
	e->add_option("--idle-ms", idle_ms, "end after this long without a datagram")
		->check(CLI::Range(1, 600000));
	SendOptions o;
	CLI::App *s = app.add_subcommand("send", "send flows, answered by an echo");
	s->add_option("--to", o.to, "ADDR:PORT")->required();
	s->add_option("--src-port", o.src_port, "the first flow's port")->required();
	s->add_option("--count", o.count, "datagrams per flow")->required();
	s->add_option("--flows", o.flows, "flows, from consecutive ports")->check(CLI::Range(1, 1024));
	s->add_option("--gap-us", o.gap_us, "between datagrams");
	CLI11_PARSE(app, argc, argv);
	try {
		return e->parsed() ? echo(listen, idle_ms) : send(o);
	} catch (const std::exception &ex) {
		std::fprintf(stderr, "lb_flow: %s\n", ex.what());
		return 1;
	}
}
