// SPDX-License-Identifier: GPL-2.0
//
// unorc: messages over UnoRC's UDP transport, timed. "unorc recv" holds
// a ReceiverTransport, "unorc send" one SenderFlow; both print JSON lines
// (--json) or text. Every message's bytes derive from its msg_id, so the
// receiver checks each byte.
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "pattern.h"
#include "settings.h"
#include "transport.h"

namespace {

using json = nlohmann::json;
using namespace unorc;

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1; // a message not done in time, bad bytes, a system error
constexpr int kExitUsage = 2;
constexpr uint64_t kUs = 1000;
constexpr uint64_t kMs = 1'000'000;

volatile sig_atomic_t g_stop = 0;

void on_signal(int)
{
	g_stop = 1;
}

// Runs f, naming the option in the std::invalid_argument it throws.
template <typename F> auto with_option(const char *option, F &&f)
{
	try {
		return f();
	} catch (const std::invalid_argument &e) {
		throw std::invalid_argument(std::string(option) + " " + e.what());
	}
}

void add_code_help(CLI::App *cmd)
{
	cmd->footer(std::string(kCodeHelp) + "\nThe sender classifies the destination, the receiver"
		    " each source, by the same prefixes.");
}

// The transport's settings of a command: its options over [unorc] of the
// configuration file over the built-in defaults. Says on stderr what the
// file set.
void apply_transport(const TransportOptions &t, const char *cmd, CodeSettings &code,
		     SenderSettings *tx, ReceiverSettings *rx)
{
	if (const std::string what = describe(t.apply(code, tx, rx)); !what.empty())
		std::fprintf(stderr, "unorc %s: %s\n", cmd, what.c_str());
}

json drops_json(const DropCounters &d)
{
	json j = json::object();
	for (const auto &[reason, n] : drops_by_reason(d))
		j[reason] = n;
	return j;
}

// One record: a JSON line, or "key: value" lines.
void print(const json &j, bool as_json)
{
	if (as_json) {
		std::printf("%s\n", j.dump().c_str());
	} else {
		for (const auto &[k, v] : j.items()) {
			const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
			std::printf("%s: %s\n", k.c_str(), text.c_str());
		}
		std::printf("\n");
	}
	std::fflush(stdout);
}

struct RecvOptions {
	std::string listen;
	CodeSettings code;
	ReceiverSettings rx;
	uint64_t messages = 0;
	uint64_t linger_ms = 200;
	uint64_t idle_ms = 0;
	bool json = false;
};

// Done: --messages delivered and then quiet for --linger-ms (late
// retransmissions still get their ACKs), quiet for --idle-ms after the
// first datagram, or a signal.
bool recv_done(const RecvOptions &o, const ReceiverTransport &rx, uint64_t delivered, uint64_t now)
{
	const uint64_t quiet = rx.last_datagram_ns() ? now - rx.last_datagram_ns() : 0;
	if (o.messages && delivered >= o.messages && quiet >= o.linger_ms * kMs)
		return true;
	return g_stop || (o.idle_ms && rx.last_datagram_ns() && quiet >= o.idle_ms * kMs);
}

int run_recv(const RecvOptions &o)
{
	const ReceiverOptions ro = receiver_options(o.rx, code_policy(o.code));
	ReceiverTransport rx(with_option("--listen", [&] { return parse_endpoint(o.listen); }), ro);
	std::fprintf(stderr, "unorc recv: listening on %s\n", to_string(rx.local()).c_str());
	uint64_t delivered = 0, bytes = 0, bad_bytes = 0;
	Loop loop;
	loop.add(rx);
	loop.run(
		[&](uint64_t now) {
			for (const Delivery &d : rx.take_delivered()) {
				const uint64_t bad = pattern_mismatches(d.msg.bytes, d.msg.msg_id);
				delivered++;
				bytes += d.msg.bytes.size();
				bad_bytes += bad;
				print({ { "role", "recv" }, { "peer", to_string(d.peer) }, { "flow_id", d.flow_id },
					{ "msg_id", d.msg.msg_id }, { "bytes", d.msg.bytes.size() },
					{ "mismatched_bytes", bad } }, o.json);
			}
			return !recv_done(o, rx, delivered, now);
		},
		UINT64_MAX);
	const ReceiverStats &s = rx.stats();
	const ReceiverCounters t = rx.totals();
	print({ { "role", "recv_summary" }, { "messages", delivered }, { "bytes", bytes },
		{ "mismatched_bytes", bad_bytes }, { "flows", rx.flows() }, { "datagrams", s.datagrams },
		{ "ce", s.ce }, { "acks", s.acks }, { "nacks", s.nacks }, { "trims", t.trims },
		{ "trims_unwanted", t.trims_unwanted }, { "trim_dscp", o.rx.trim_dscp },
		{ "decoded_blocks", t.decoded },
		{ "duplicates", t.duplicates }, { "done_block", t.done_block },
		{ "outside_window", t.outside_window }, { "conflicts", t.conflicts },
		{ "bad_messages", t.bad_messages }, { "send_failures", s.send_failures },
		{ "socket_drops", rx.socket_drops() }, { "rcvbuf", rx.rcvbuf() },
		{ "drops", drops_json(s.drops) } }, o.json);
	const bool short_count = o.messages && delivered < o.messages;
	return bad_bytes || short_count ? kExitFailed : kExitOk;
}

struct SendOptions {
	std::string to;
	CodeSettings code;
	SenderSettings tx;
	uint64_t messages = 0;
	size_t size = 0;
	uint64_t outstanding = 1;
	uint32_t flow_id = 0;
	uint64_t timeout_s = 60;
	bool json = false;
};

// Nearest-rank percentile of sorted v.
uint64_t percentile(const std::vector<uint64_t> &v, int pct)
{
	const size_t rank = (v.size() * pct + 99) / 100;
	return v[std::max<size_t>(rank, 1) - 1];
}

// min, mean, p50, p99 and max of the values; {} for none.
json spread_json(std::vector<uint64_t> v)
{
	if (v.empty())
		return json::object();
	std::sort(v.begin(), v.end());
	uint64_t sum = 0;
	for (uint64_t f : v)
		sum += f;
	return { { "min", v.front() }, { "mean", sum / v.size() }, { "p50", percentile(v, 50) },
		 { "p99", percentile(v, 99) }, { "max", v.back() } };
}

// The trimmed packets' repairs (TrimRepair), times in us.
struct TrimRepairs {
	std::vector<uint64_t> since_send_us, since_nack_us, since_resend_us;
	uint64_t retrimmed = 0; // packets trimmed again on a resend

	void add(const TrimRepair &t)
	{
		since_send_us.push_back(t.since_send_ns / kUs);
		since_nack_us.push_back(t.since_nack_ns / kUs);
		if (t.since_resend_ns)
			since_resend_us.push_back(*t.since_resend_ns / kUs);
		retrimmed += t.trims > 1;
	}
};

int run_send(const SendOptions &o)
{
	const Endpoint dst = with_option("--to", [&] { return parse_endpoint(o.to); });
	if (dst.port() == 0)
		throw std::invalid_argument("--to '" + o.to + "': port 0");
	const CodePolicy policy = code_policy(o.code);
	const WireLimits code = policy.code_for(dst);
	const int subflows = subflows_for(o.tx, code);
	auto paths = std::make_unique<PortPaths>(dst, subflows, o.tx.source_port);
	const std::vector<uint16_t> ports = paths->ports();
	const uint64_t start = monotonic_ns();
	SenderFlow tx(flow_config(o.tx, o.flow_id, code), std::move(paths), start);
	uint64_t queued = 0, done = 0, bytes = 0;
	std::vector<uint64_t> fct;
	TrimRepairs trims;
	const auto fill = [&](uint64_t now) {
		for (; queued < o.messages && queued - done < o.outstanding; queued++) {
			const uint32_t id = static_cast<uint32_t>(queued);
			tx.send_message(id, pattern_message(id, o.size), now);
		}
	};
	fill(start);
	Loop loop;
	loop.add(tx);
	const bool finished = loop.run(
		[&](uint64_t now) {
			for (const Completion &c : tx.take_completed()) {
				done++;
				bytes += c.bytes;
				fct.push_back(c.fct_ns / kUs);
				print({ { "role", "send" }, { "msg_id", c.msg_id }, { "bytes", c.bytes },
					{ "fct_us", c.fct_ns / kUs } }, o.json);
			}
			for (const TrimRepair &t : tx.take_trim_repairs())
				trims.add(t);
			fill(now);
			return done < o.messages && !g_stop;
		},
		start + o.timeout_s * 1000 * kMs) && done == o.messages;
	const uint64_t elapsed_us = (monotonic_ns() - start) / kUs;
	const FlowStats &s = tx.stats();
	const SenderCounters &c = tx.sender().counters();
	print({ { "role", "send_summary" }, { "to", to_string(dst) }, { "flow_id", o.flow_id },
		{ "class", policy.is_inter(dst) ? "inter" : "intra" }, { "code", code_name(code) },
		{ "payload", code.len }, { "subflows", subflows }, { "source_ports", ports },
		{ "messages", done }, { "messages_wanted", o.messages }, { "bytes", bytes },
		{ "complete", finished }, { "elapsed_us", elapsed_us },
		{ "goodput_mbps", elapsed_us ? bytes * 8.0 / elapsed_us : 0.0 },
		{ "fct_us", spread_json(fct) },
		{ "packets_sent", s.packets_sent }, { "bytes_sent", s.bytes_sent },
		{ "retransmissions", c.retransmits }, { "timeouts", c.timeouts },
		{ "rto_events", s.rto_events }, { "repath", o.tx.repath },
		{ "repath_events", s.repath_events }, { "rebinds", s.rebinds },
		{ "rebind_failures", s.rebind_failures }, { "acks", s.acks }, { "nacks", s.nacks },
		{ "trim_nacks", s.trim_nacks }, { "trim_resends", c.trim_resends },
		{ "trim_nacks_ignored", c.trim_nacks_ignored },
		{ "trims_repaired", trims.since_send_us.size() }, { "retrimmed", trims.retrimmed },
		{ "trim_repair_us", spread_json(trims.since_send_us) },
		{ "trim_nack_repair_us", spread_json(trims.since_nack_us) },
		{ "trim_resend_repair_us", spread_json(trims.since_resend_us) },
		{ "bad_acks", c.bad_acks }, { "bad_nacks", c.bad_nacks },
		{ "send_failures", s.send_failures }, { "socket_drops", s.socket_drops },
		{ "window_stops", s.window_stops }, { "pacing_waits", s.pacing_waits },
		{ "cc", cc_law_name(tx.cc().law) },
		{ "cwnd", tx.cwnd_bytes() }, { "max_cwnd", s.max_cwnd },
		{ "base_rtt_us", tx.cc().base_rtt_us }, { "max_rtt_us", s.max_rtt_us },
		{ "rtt_us_hist", rtt_hist_json<json>(s.rtt_us) },
		// UnoCC's class of the flow (spec 3.5); no other law has one.
		{ "uno_inter", tx.cc().law == CcLaw::Uno ? json(uno_is_inter(&o.tx.cc, tx.cc().base_rtt_us))
							 : json(nullptr) },
		{ "drops", drops_json(s.drops) } }, o.json);
	return finished ? kExitOk : kExitFailed;
}

void add_send_options(CLI::App *send, SendOptions &o, std::unique_ptr<TransportOptions> &t)
{
	send->add_option("--to", o.to, "receiver")->type_name("ADDR:PORT")->required();
	send->add_option("--messages", o.messages, "messages to send")
		->required()->check(CLI::Range(uint64_t{ 1 }, uint64_t{ UINT32_MAX }));
	send->add_option("--size", o.size, "bytes per message")
		->required()->check(CLI::Range(size_t{ 1 }, size_t{ UINT32_MAX }));
	t = std::make_unique<TransportOptions>(send, Side::Sender);
	send->add_option("--outstanding", o.outstanding, "messages in flight at once")
		->default_val(1)->check(CLI::Range(uint64_t{ 1 }, uint64_t{ 1 } << 20));
	send->add_option("--flow-id", o.flow_id, "flow id (default random)");
	send->add_option("--timeout-s", o.timeout_s, "give up after")
		->default_val(60)->check(CLI::Range(1, 86400));
	send->add_flag("--json", o.json, "JSON lines");
	add_code_help(send);
}

void add_recv_options(CLI::App *recv, RecvOptions &o, std::unique_ptr<TransportOptions> &t)
{
	recv->add_option("--listen", o.listen, "address to bind")->type_name("ADDR:PORT")->required();
	t = std::make_unique<TransportOptions>(recv, Side::Receiver);
	recv->add_option("--messages", o.messages, "exit after N messages and --linger-ms of quiet")
		->check(CLI::Range(uint64_t{ 1 }, UINT64_MAX));
	recv->add_option("--linger-ms", o.linger_ms, "quiet after the last of --messages")
		->default_val(200);
	recv->add_option("--idle-ms", o.idle_ms, "exit after MS of quiet (0: never)")->default_val(0);
	recv->add_flag("--json", o.json, "JSON lines");
	add_code_help(recv);
}

} // namespace

int main(int argc, char **argv)
{
	CLI::App app{ "unorc: messages over UnoRC's erasure-coded UDP transport" };
	app.require_subcommand(1);
	RecvOptions ro;
	SendOptions so;
	so.flow_id = std::random_device{}();
	CLI::App *recv = app.add_subcommand("recv", "receive messages, check their bytes");
	CLI::App *send = app.add_subcommand("send", "send messages, time them");
	std::unique_ptr<TransportOptions> recv_transport, send_transport;
	add_recv_options(recv, ro, recv_transport);
	add_send_options(send, so, send_transport);
	try {
		app.parse(argc, argv);
	} catch (const CLI::ParseError &e) {
		return app.exit(e) == 0 ? kExitOk : kExitUsage;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	const char *cmd = recv->parsed() ? "recv" : "send";
	try {
		if (recv->parsed()) {
			apply_transport(*recv_transport, cmd, ro.code, nullptr, &ro.rx);
			return run_recv(ro);
		}
		apply_transport(*send_transport, cmd, so.code, &so.tx, nullptr);
		return run_send(so);
	} catch (const std::invalid_argument &e) {
		std::fprintf(stderr, "unorc %s: %s\n", cmd, e.what());
		return kExitUsage;
	} catch (const std::exception &e) {
		std::fprintf(stderr, "unorc %s: %s\n", cmd, e.what());
		return kExitFailed;
	}
}
