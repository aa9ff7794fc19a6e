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
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "transport.h"

namespace {

using json = nlohmann::json;
using namespace unorc;

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1; // a message not done in time, bad bytes, a system error
constexpr int kExitUsage = 2;
constexpr uint64_t kUs = 1000;
constexpr uint64_t kMs = 1'000'000;
// UDP's largest IPv4 payload, 65507 bytes, less our header.
constexpr size_t kMaxPayload = 65507 - kPacketHeaderSize;

constexpr const char *kFooter = R"(
Both ends must agree on --payload and the code: the wire carries neither.
A flow's code: --no-code, none; --code X+Y, X data and Y parity packets per
block; neither, 8+2 for a peer in an --inter-prefix (inter-DC, spec 6.1) and
none for any other (intra-DC: per-packet ACKs and the RTO only). The sender
classifies the destination, the receiver each source, by the same prefixes.)";

volatile sig_atomic_t g_stop = 0;

void on_signal(int)
{
	g_stop = 1;
}

// Byte i of message msg_id: a position-dependent pattern of its own, so
// a byte out of place or from another message shows.
uint8_t pattern_byte(uint32_t msg_id, uint64_t i)
{
	const uint64_t v = (msg_id + 1) * 0x9e3779b97f4a7c15ULL ^ (i * 0xff51afd7ed558ccdULL);
	return static_cast<uint8_t>(v >> 56 ^ i);
}

std::vector<uint8_t> make_message(uint32_t msg_id, size_t size)
{
	std::vector<uint8_t> b(size);
	for (size_t i = 0; i < size; i++)
		b[i] = pattern_byte(msg_id, i);
	return b;
}

uint64_t mismatches(const DeliveredMessage &m)
{
	uint64_t n = 0;
	for (size_t i = 0; i < m.bytes.size(); i++)
		n += m.bytes[i] != pattern_byte(m.msg_id, i);
	return n;
}

struct CodeOptions {
	std::string code;
	bool no_code = false;
	std::vector<std::string> prefixes;
	size_t payload = 1400;
};

void add_code_options(CLI::App *cmd, CodeOptions &o)
{
	CLI::Option *code = cmd->add_option("--code", o.code,
					    "X+Y: X data, Y parity packets per block, every flow")
		->type_name("X+Y");
	cmd->add_flag("--no-code", o.no_code, "no parity for any flow")->excludes(code);
	cmd->add_option("--inter-prefix", o.prefixes, "inter-DC peers (repeatable)")->type_name("CIDR");
	cmd->add_option("--payload", o.payload, "payload bytes per packet")
		->default_val(1400)
		->check(CLI::Range(size_t{ 1 }, kMaxPayload));
	cmd->footer(kFooter);
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

WireLimits parse_code(const std::string &s, size_t len)
{
	const size_t plus = s.find('+');
	const auto digits = [](const std::string &d) {
		return !d.empty() && d.size() <= 3 && std::all_of(d.begin(), d.end(), ::isdigit);
	};
	if (plus == std::string::npos || !digits(s.substr(0, plus)) || !digits(s.substr(plus + 1)))
		throw std::invalid_argument("'" + s + "': need X+Y, e.g. 8+2");
	const WireLimits c = { std::stoi(s.substr(0, plus)), std::stoi(s.substr(plus + 1)), len };
	// BlockCoder says what it refuses.
	BlockCoder(c.len, c.x, c.y);
	return c;
}

CodePolicy code_policy(const CodeOptions &o)
{
	CodePolicy p;
	for (const std::string &s : o.prefixes)
		p.inter_prefixes.push_back(
			with_option("--inter-prefix", [&] { return parse_prefix(s); }));
	const WireLimits none = { 1, 0, o.payload };
	if (o.no_code)
		p.inter = p.intra = none;
	else if (!o.code.empty())
		p.inter = p.intra = with_option("--code", [&] { return parse_code(o.code, o.payload); });
	else
		p = { p.inter_prefixes,
		      { BlockCoder::kDefaultData, BlockCoder::kDefaultParity, o.payload }, none };
	return p;
}

std::string code_name(const WireLimits &c)
{
	return c.y ? std::to_string(c.x) + "+" + std::to_string(c.y) : "none";
}

json drops_json(const DropCounters &d)
{
	json j = json::object();
	for (size_t i = 1; i < kWireErrorCount; i++)
		if (d.wire[i])
			j[wire_error_name(static_cast<WireError>(i))] = d.wire[i];
	for (size_t i = 0; i < kDropCount; i++)
		if (d.transport[i])
			j[drop_name(static_cast<Drop>(i))] = d.transport[i];
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
	CodeOptions code;
	uint64_t ec_wait_us = 2000;
	uint64_t window_bytes = 16 << 20;
	size_t max_flows = 256;
	uint64_t messages = 0;
	uint64_t linger_ms = 200;
	uint64_t idle_ms = 0;
	std::string trim_dscp = "62";
	bool json = false;
};

// --trim-dscp: "off", or a DSCP 0..63.
std::optional<uint8_t> trim_dscp_of(const std::string &s)
{
	if (s == "off")
		return std::nullopt;
	return static_cast<uint8_t>(std::stoi(s));
}

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
	const ReceiverOptions ro = { .codes = code_policy(o.code), .ec_wait_ns = o.ec_wait_us * kUs,
				     .window_bytes = o.window_bytes, .max_flows = o.max_flows,
				     .trim_dscp = trim_dscp_of(o.trim_dscp) };
	ReceiverTransport rx(with_option("--listen", [&] { return parse_endpoint(o.listen); }), ro);
	std::fprintf(stderr, "unorc recv: listening on %s\n", to_string(rx.local()).c_str());
	uint64_t delivered = 0, bytes = 0, bad_bytes = 0;
	Loop loop;
	loop.add(rx);
	loop.run(
		[&](uint64_t now) {
			for (const Delivery &d : rx.take_delivered()) {
				const uint64_t bad = mismatches(d.msg);
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
		{ "trims_unwanted", t.trims_unwanted }, { "trim_dscp", o.trim_dscp },
		{ "decoded_blocks", t.decoded },
		{ "duplicates", t.duplicates }, { "done_block", t.done_block },
		{ "outside_window", t.outside_window }, { "conflicts", t.conflicts },
		{ "bad_messages", t.bad_messages }, { "send_failures", s.send_failures },
		{ "drops", drops_json(s.drops) } }, o.json);
	const bool short_count = o.messages && delivered < o.messages;
	return bad_bytes || short_count ? kExitFailed : kExitOk;
}

struct SendOptions {
	std::string to;
	CodeOptions code;
	uint64_t messages = 0;
	size_t size = 0;
	int subflows = 0;
	uint16_t source_port = 0;
	std::string repath = "redraw";
	uint64_t outstanding = 1;
	uint64_t rto_us = 10000;
	uint32_t flow_id = 0;
	uno_params cc = UNO_PARAMS_INIT;
	uint64_t timeout_s = 60;
	bool json = false;
};

// Nearest-rank percentile of sorted v.
uint64_t percentile(const std::vector<uint64_t> &v, int pct)
{
	const size_t rank = (v.size() * pct + 99) / 100;
	return v[std::max<size_t>(rank, 1) - 1];
}

// --repath's values (spec 5.1 and 9.25).
const std::map<std::string, unolb_mode> kRepathModes = {
	{ "off", UNOLB_REPATH_OFF },
	{ "redraw", UNOLB_REPATH_REDRAW },
	{ "copy_good", UNOLB_REPATH_COPY_GOOD },
};

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
	std::vector<uint64_t> since_send_us, since_nack_us;
	uint64_t retrimmed = 0; // packets trimmed again on a resend

	void add(const TrimRepair &t)
	{
		since_send_us.push_back(t.since_send_ns / kUs);
		since_nack_us.push_back(t.since_nack_ns / kUs);
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
	// S = n (spec 9.26), at most what UnoLB holds.
	const int subflows = o.subflows ? o.subflows
					: (code.y ? std::min(code.x + code.y, UNOLB_MAX_SUBFLOWS) : 1);
	auto paths = std::make_unique<PortPaths>(dst, subflows, o.source_port);
	const std::vector<uint16_t> ports = paths->ports();
	const uint64_t start = monotonic_ns();
	SenderFlow tx({ .flow_id = o.flow_id, .code = code, .rto_ns = o.rto_us * kUs, .cc = &o.cc,
			.repath = kRepathModes.at(o.repath) },
		      std::move(paths), start);
	uint64_t queued = 0, done = 0, bytes = 0;
	std::vector<uint64_t> fct;
	TrimRepairs trims;
	const auto fill = [&](uint64_t now) {
		for (; queued < o.messages && queued - done < o.outstanding; queued++) {
			const uint32_t id = static_cast<uint32_t>(queued);
			tx.send_message(id, make_message(id, o.size), now);
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
		{ "rto_events", s.rto_events }, { "repath", o.repath },
		{ "repath_events", s.repath_events }, { "rebinds", s.rebinds },
		{ "rebind_failures", s.rebind_failures }, { "acks", s.acks }, { "nacks", s.nacks },
		{ "trim_nacks", s.trim_nacks }, { "trim_resends", c.trim_resends },
		{ "trim_nacks_ignored", c.trim_nacks_ignored },
		{ "trims_repaired", trims.since_send_us.size() }, { "retrimmed", trims.retrimmed },
		{ "trim_repair_us", spread_json(trims.since_send_us) },
		{ "trim_nack_repair_us", spread_json(trims.since_nack_us) },
		{ "bad_acks", c.bad_acks }, { "bad_nacks", c.bad_nacks },
		{ "send_failures", s.send_failures },
		{ "window_stops", s.window_stops }, { "pacing_waits", s.pacing_waits },
		{ "cwnd", tx.cwnd_bytes() }, { "max_cwnd", s.max_cwnd },
		{ "base_rtt_us", tx.cc().base_rtt_us },
		{ "uno_inter", uno_is_inter(&o.cc, tx.cc().base_rtt_us) },
		{ "drops", drops_json(s.drops) } }, o.json);
	return finished ? kExitOk : kExitFailed;
}

void add_send_options(CLI::App *send, SendOptions &o)
{
	send->add_option("--to", o.to, "receiver")->type_name("ADDR:PORT")->required();
	send->add_option("--messages", o.messages, "messages to send")
		->required()->check(CLI::Range(uint64_t{ 1 }, uint64_t{ UINT32_MAX }));
	send->add_option("--size", o.size, "bytes per message")
		->required()->check(CLI::Range(size_t{ 1 }, size_t{ UINT32_MAX }));
	send->add_option("--subflows", o.subflows,
			 "UDP source ports (default: n of the code, at most 16; 1 without)")
		->check(CLI::Range(1, UNOLB_MAX_SUBFLOWS));
	send->add_option("--source-port", o.source_port,
			 "sub-flow k sends from port P + k, re-paths from P .. P + 16383 "
			 "(default: ephemeral ports, re-paths from 49152 .. 65535)")
		->type_name("P")->check(CLI::Range(1, 65535));
	send->add_option("--repath", o.repath, "UnoLB on a NACK or RTO (spec 5.1)")
		->default_val("redraw")->check(CLI::IsMember(kRepathModes));
	send->add_option("--outstanding", o.outstanding, "messages in flight at once")
		->default_val(1)->check(CLI::Range(uint64_t{ 1 }, uint64_t{ 1 } << 20));
	send->add_option("--rto-us", o.rto_us, "retransmission timeout (spec 9.24)")
		->default_val(10000)->check(CLI::Range(uint64_t{ 20 }, uint64_t{ 60'000'000 }));
	send->add_option("--flow-id", o.flow_id, "flow id (default random)");
	send->add_option("--link-mbps", o.cc.link_rate_mbps, "UnoCC's C")
		->default_val(UNO_LINK_RATE_MBPS_DEF)
		->check(CLI::Range(UNO_LINK_RATE_MBPS_MIN, UNO_LINK_RATE_MBPS_MAX));
	send->add_option("--intra-rtt-us", o.cc.intra_rtt_us, "UnoCC's RTT_intra")
		->default_val(UNO_INTRA_RTT_US_DEF)
		->check(CLI::Range(UNO_INTRA_RTT_US_MIN, UNO_INTRA_RTT_US_MAX));
	send->add_option("--timeout-s", o.timeout_s, "give up after")
		->default_val(60)->check(CLI::Range(1, 86400));
	send->add_flag("--json", o.json, "JSON lines");
	add_code_options(send, o.code);
}

void add_recv_options(CLI::App *recv, RecvOptions &o)
{
	recv->add_option("--listen", o.listen, "address to bind")->type_name("ADDR:PORT")->required();
	recv->add_option("--ec-wait-us", o.ec_wait_us, "NACK timer (spec 6.2, 9.23)")
		->default_val(2000)->check(CLI::Range(uint64_t{ 20 }, uint64_t{ 60'000'000 }));
	recv->add_option("--window-bytes", o.window_bytes, "receive window per flow")
		->default_val(16 << 20)->check(CLI::Range(uint64_t{ 1 }, uint64_t{ 1 } << 34));
	recv->add_option("--max-flows", o.max_flows, "peer flows at once")
		->default_val(256)->check(CLI::Range(size_t{ 1 }, size_t{ 1 } << 20));
	recv->add_option("--messages", o.messages, "exit after N messages and --linger-ms of quiet")
		->check(CLI::Range(uint64_t{ 1 }, UINT64_MAX));
	recv->add_option("--linger-ms", o.linger_ms, "quiet after the last of --messages")
		->default_val(200);
	recv->add_option("--idle-ms", o.idle_ms, "exit after MS of quiet (0: never)")->default_val(0);
	recv->add_option("--trim-dscp", o.trim_dscp,
			 "DSCP of trimmed headers, NACKed at once (sch_phantom trim-dscp), or off")
		->default_val("62")
		->check([](const std::string &s) {
			if (s == "off")
				return std::string();
			const bool digits = !s.empty() && s.size() <= 2 &&
					    s.find_first_not_of("0123456789") == std::string::npos;
			return digits && std::stoi(s) <= 63 ? std::string()
							    : std::string("expected off or 0..63");
		});
	recv->add_flag("--json", o.json, "JSON lines");
	add_code_options(recv, o.code);
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
	add_recv_options(recv, ro);
	add_send_options(send, so);
	try {
		app.parse(argc, argv);
	} catch (const CLI::ParseError &e) {
		return app.exit(e) == 0 ? kExitOk : kExitUsage;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	const char *cmd = recv->parsed() ? "recv" : "send";
	try {
		return recv->parsed() ? run_recv(ro) : run_send(so);
	} catch (const std::invalid_argument &e) {
		std::fprintf(stderr, "unorc %s: %s\n", cmd, e.what());
		return kExitUsage;
	} catch (const std::exception &e) {
		std::fprintf(stderr, "unorc %s: %s\n", cmd, e.what());
		return kExitFailed;
	}
}
