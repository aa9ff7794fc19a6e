// SPDX-License-Identifier: GPL-2.0
//
// lb_flow: one UDP flow through the entropy datapath (bpf/lb.bpf.c), for
// the namespace tests (selftests/bpf/).
//
//   lb_flow echo --listen ADDR:PORT [--idle-ms MS]
//	answers every DATA datagram with an ACK that echoes its shim's EV,
//	sequence and timestamp and its CE bit, sent to the source address
//	and the shim's reply_port, as arcane.md 3.3 has the receiver do;
//	ends after MS without a datagram and prints what it received.
//   lb_flow send --to ADDR:PORT --src-port P --count N [--gap-us G]
//	[--dev DEV --mode MODE --num-ev E --bdp-pkts B]
//	sends N DATA datagrams (the shim, 64 bytes of payload, ECT(0)) G us
//	apart and counts the ACKs. With --dev it first attaches the datapath
//	to DEV's clsact egress and ingress (the libbpf skeleton and
//	bpf_tc_attach()), configured for MODE and the destination port, and
//	detaches it when done; it prints the datapath's counters and its
//	packets per EV.
//
// The output is one JSON object. Exit status 0, 1 on a system error, 2
// on bad arguments.
#include <arpa/inet.h>
#include <net/if.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <nlohmann/json.hpp>

#include "lb.skel.h"
#include "lb_datapath.h"
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

// The datapath on one device, for as long as this lives: its skeleton
// loaded and configured, unpinned, its programs on the device's clsact.
class Datapath {
public:
	Datapath(const std::string &dev, const lb_cfg &cfg, uint16_t dport) : hook_(dev)
	{
		skel_ = lb__open_and_load();
		if (!skel_)
			fail("loading bpf/lb.bpf.c");
		const uint32_t zero = 0;
		lb_policy_key k = {};
		k.proto = IPPROTO_UDP;
		k.dport = htons(dport);
		const lb_policy_val v = { .mode_override = __LB_MODE_MAX,
					  .flags = LB_POLICY_REQUIRE_SHIM };
		if (bpf_map__update_elem(skel_->maps.lb_cfg, &zero, sizeof(zero), &cfg,
					 sizeof(cfg), BPF_ANY) ||
		    bpf_map__update_elem(skel_->maps.lb_policy, &k, sizeof(k), &v, sizeof(v),
					 BPF_ANY))
			fail("configuring the datapath");
		hook_.attach(bpf_program__fd(skel_->progs.lb_egress),
			     bpf_program__fd(skel_->progs.lb_ingress));
	}

	~Datapath()
	{
		try {
			hook_.detach();
		} catch (const uno::LbError &e) {
			std::fprintf(stderr, "lb_flow: %s\n", e.what());
		}
		lb__destroy(skel_);
	}

	Datapath(const Datapath &) = delete;
	Datapath &operator=(const Datapath &) = delete;

	json counters() const
	{
		json j = json::object();
		for (uint32_t s = 0; s < __LB_STAT_MAX; s++)
			j[uno::lb_stat_name(s)] =
				uno::lb_percpu_sum(bpf_map__fd(skel_->maps.lb_stats), s);
		return j;
	}

	// Packets per EV, the EVs used only.
	json ev_hist(uint16_t num_ev) const
	{
		json j = json::object();
		for (uint32_t ev = 0; ev < num_ev; ev++)
			if (const uint64_t n =
				    uno::lb_percpu_sum(bpf_map__fd(skel_->maps.lb_ev_hist), ev))
				j[std::to_string(ev)] = n;
		return j;
	}

private:
	uno::LbTcHook hook_;
	lb *skel_ = nullptr;
};

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
	uint64_t count = 0;
	uint64_t gap_us = 100;
	std::string dev;
	std::string mode = "spray_rr";
	uint16_t num_ev = 256;
	uint32_t bdp_pkts = 16;
};

lb_cfg config_of(const SendOptions &o)
{
	lb_cfg c = uno::LbConf::lb_cfg_defaults();
	c.mode = *uno::lb_mode_of(o.mode);
	c.num_ev = o.num_ev;
	c.bdp_pkts = o.bdp_pkts;
	return c;
}

// Reads the ACKs waiting; how many.
uint64_t read_acks(int fd, std::vector<uint8_t> &buf, uint64_t *ce)
{
	uint64_t n = 0;
	unorc::Datagram d;
	while (unorc::recv_datagram(fd, buf, &d)) {
		if (d.len < sizeof(lb_shim))
			continue;
		const lb_shim s = read_shim(buf.data());
		if (s.magic != htonl(LB_SHIM_MAGIC) || s.type != LB_SHIM_ACK)
			continue;
		n++;
		*ce += (s.flags & LB_SHIM_CE_ECHO) != 0;
	}
	return n;
}

int send(const SendOptions &o)
{
	const Endpoint to = unorc::parse_endpoint(o.to);
	std::unique_ptr<Datapath> dp;
	if (!o.dev.empty())
		dp = std::make_unique<Datapath>(o.dev, config_of(o), to.port());
	const Fd fd = unorc::connect_udp_ect(to, o.src_port);
	std::vector<uint8_t> pkt(sizeof(lb_shim) + kPayload, 0x5a), buf(2048);
	uint64_t acks = 0, ce = 0;
	for (uint64_t i = 0; i < o.count; i++) {
		lb_shim s = {};
		s.magic = htonl(LB_SHIM_MAGIC);
		s.type = LB_SHIM_DATA;
		s.ev = htons(LB_SHIM_EV_NONE);
		s.reply_port = htons(o.src_port);
		s.seq = htobe64(i);
		s.ts_ns = htobe64(unorc::monotonic_ns());
		std::memcpy(pkt.data(), &s, sizeof(s));
		pollfd p = { .fd = fd.get(), .events = POLLOUT, .revents = 0 };
		::poll(&p, 1, 1000);
		if (::send(fd.get(), pkt.data(), pkt.size(), 0) != static_cast<ssize_t>(pkt.size()))
			fail("send");
		acks += read_acks(fd.get(), buf, &ce);
		const timespec gap = { .tv_sec = static_cast<time_t>(o.gap_us / 1'000'000),
				       .tv_nsec = static_cast<long>(o.gap_us % 1'000'000) * 1000 };
		::nanosleep(&gap, nullptr);
	}
	// The last ACKs: until a second passes without one.
	for (;;) {
		pollfd r = { .fd = fd.get(), .events = POLLIN, .revents = 0 };
		if (::poll(&r, 1, 1000) == 0 || acks >= o.count)
			break;
		acks += read_acks(fd.get(), buf, &ce);
	}
	json out = { { "role", "send" }, { "sent", o.count }, { "acks", acks }, { "ce", ce } };
	if (dp) {
		out["mode"] = o.mode;
		out["counters"] = dp->counters();
		out["ev_hist"] = dp->ev_hist(o.num_ev);
	}
	std::printf("%s\n", out.dump().c_str());
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
	CLI::App *s = app.add_subcommand("send", "send a flow, the datapath attached");
	s->add_option("--to", o.to, "ADDR:PORT")->required();
	s->add_option("--src-port", o.src_port, "the socket's port")->required();
	s->add_option("--count", o.count, "datagrams")->required();
	s->add_option("--gap-us", o.gap_us, "between datagrams");
	s->add_option("--dev", o.dev, "attach the datapath to this device");
	s->add_option("--mode", o.mode, uno::lb_mode_names())->check([](const std::string &m) {
		return uno::lb_mode_of(m) ? "" : "not one of " + uno::lb_mode_names();
	});
	s->add_option("--num-ev", o.num_ev, "EVs")->check(CLI::Range(1, LB_MAX_EV));
	s->add_option("--bdp-pkts", o.bdp_pkts, "ARCANE's initial phase, PLB's round")
		->check(CLI::Range(1U, 1U << 20));
	CLI11_PARSE(app, argc, argv);
	try {
		return e->parsed() ? echo(listen, idle_ms) : send(o);
	} catch (const std::exception &ex) {
		std::fprintf(stderr, "lb_flow: %s\n", ex.what());
		return 1;
	}
}
