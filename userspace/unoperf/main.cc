// SPDX-License-Identifier: GPL-2.0
//
// unoperf: flow completion times between network namespaces of one host.
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <fstream>

#include <CLI/CLI.hpp>

#include "spec.h"
#include "unoperf.h"

namespace {

constexpr const char *kClientFooter = R"(
Flow specs (--flow, or one per line in --flows-file; '#' starts a comment line):
  comma-separated key=value pairs, e.g. ns=uno-h1,size=8m,cc=dctcp,start=0,class=intra
    ns=NAME        network namespace /run/netns/NAME the flow's socket lives in
                   (required; '-' for the namespace unoperf runs in)
    size=BYTES     payload bytes (required); suffix k, m or g is decimal,
                   1000-based: 8m = 8000000 bytes
    cc=NAME        TCP congestion control, set before connect (default: --cc,
                   or the namespace's net.ipv4.tcp_congestion_control)
    start=USEC     start offset in microseconds from the common start (default 0)
    class=LABEL    free-form label copied to the output
    base_rtt=USEC  base RTT for this flow's slowdown (default --base-rtt-us)
    dst=ADDR[:PORT] server for this flow (default --dst)
    count=N        N identical flows (default 1)

All flows connect first; once all are connected, every flow starts sending at
common start + start on one CLOCK_MONOTONIC clock. FCT runs from the first byte
handed to the socket to the server's one-byte completion answer. With
--rate-mbps R and a base RTT T, slowdown = fct / (size*8/R + T).

Output: one JSON document (to -j FILE, or stdout). Exit status: 0 when every
flow completed, 1 when one failed, timed out or a namespace is missing (the
other flows are stopped at once), 2 for bad arguments.)";

constexpr const char *kServerFooter = R"(
Each connection carries one flow: a 32-byte header (flow id, size, the client's
CLOCK_MONOTONIC send start), then the payload. Once it has all of it, the server
answers one byte and appends one JSON object (one line) per flow to -j FILE, or
stdout. Runs until SIGINT/SIGTERM, or until --count flows completed. Prints
"listening on ADDR:PORT" on stderr once it accepts connections.)";

// Runs `f`, prefixing the message of an InputError it throws with `option`.
template <typename F> auto with_context(const char *option, F &&f)
{
	try {
		return f();
	} catch (const unoperf::InputError &e) {
		throw unoperf::InputError(std::string(option) + ": " + e.what());
	}
}

int usage_error(const std::string &cmd, const std::string &msg)
{
	std::fprintf(stderr, "unoperf %s: %s\n", cmd.c_str(), msg.c_str());
	return unoperf::kExitUsage;
}

} // namespace

int main(int argc, char **argv)
{
	using namespace unoperf;

	CLI::App app{"unoperf: flow completion times between network namespaces of one host"};
	app.require_subcommand(1);

	ServerOptions srv;
	std::string srv_bind = srv.bind_addr;
	CLI::App *server = app.add_subcommand("server", "receive flows and time them");
	server->add_option("-p,--port", srv.port, "TCP port")
		->type_name("PORT")
		->default_val(kDefaultPort)
		->check(CLI::Range(1, 65535));
	server->add_option("-B,--bind", srv_bind, "IPv4 address to listen on")
		->type_name("ADDR")->default_val("0.0.0.0");
	server->add_option("--netns", srv.netns, "run in network namespace /run/netns/NAME")
		->type_name("NAME");
	server->add_option("-j,--json", srv.json_path, "append JSON lines to FILE (default stdout)")
		->type_name("FILE");
	server->add_option("--count", srv.count, "exit after N completed flows")
		->type_name("N")
		->check(CLI::Range(uint64_t{1}, UINT64_MAX));
	server->footer(kServerFooter);

	ClientOptions cli;
	std::string dst, sndbuf, flows_file;
	std::vector<std::string> flow_args;
	double rate = 0;
	uint64_t base_rtt = 0;
	CLI::App *client = app.add_subcommand("client", "start flows together and time them");
	CLI::Option *dst_opt =
		client->add_option("-c,--dst", dst, "server ADDR[:PORT] (default port 5301)")
		->type_name("ADDR[:PORT]");
	client->add_option("--flow,--flows", flow_args, "flow SPEC (repeatable; see below)")
		->type_name("SPEC");
	client->add_option("-F,--flows-file", flows_file, "read flow specs from FILE, one per line")
		->type_name("FILE");
	client->add_option("-j,--json", cli.json_path, "write JSON to FILE (default stdout)")
		->type_name("FILE");
	client->add_option("--timeout", cli.timeout_s,
			   "seconds for connecting all flows, and for each flow from its start")
		->default_val(60)
		->type_name("SEC")
		->check(CLI::Range(1, 86400));
	CLI::Option *rate_opt = client->add_option(
		"--rate-mbps", rate, "bottleneck rate in Mbit/s, for slowdown")
		->type_name("R");
	CLI::Option *rtt_opt = client->add_option(
		"--base-rtt-us", base_rtt, "base RTT in microseconds for slowdown (all flows)")
		->type_name("USEC");
	client->add_option("--cc", cli.default_cc, "congestion control for flows without cc=")
		->type_name("NAME");
	CLI::Option *sndbuf_opt = client->add_option(
		"--sndbuf", sndbuf, "set SO_SNDBUF to BYTES (k/m/g suffixes); default: not set")
		->type_name("BYTES");
	client->footer(kClientFooter);

	try {
		app.parse(argc, argv);
	} catch (const CLI::ParseError &e) {
		const int rc = app.exit(e);
		return rc == 0 ? kExitOk : kExitUsage;
	}

	if (server->parsed()) {
		srv.bind_addr = srv_bind;
		try {
			with_context("--bind", [&] { return parse_ipv4(srv_bind); });
			if (!srv.netns.empty() && srv.netns != kCurrentNs)
				check_ns_name(srv.netns);
			else
				srv.netns.clear();
		} catch (const InputError &e) {
			return usage_error("server", e.what());
		}
		return run_server(srv);
	}

	try {
		if (*dst_opt)
			cli.dst = with_context("--dst", [&] { return parse_endpoint(dst); });
		for (const std::string &s : flow_args)
			cli.specs.push_back(parse_flow_spec(s));
		if (!flows_file.empty()) {
			std::ifstream in(flows_file);
			if (!in)
				throw InputError("cannot open flows file '" + flows_file +
						 "': " + std::strerror(errno));
			for (FlowSpec &s : parse_flows_file(in, flows_file))
				cli.specs.push_back(std::move(s));
		}
		if (*rate_opt) {
			if (!std::isfinite(rate) || rate <= 0)
				throw InputError("--rate-mbps must be a positive number");
			cli.rate_mbps = rate;
		}
		if (*rtt_opt) {
			if (!*rate_opt)
				throw InputError("--base-rtt-us needs --rate-mbps");
			cli.base_rtt_us = base_rtt;
		}
		if (*sndbuf_opt)
			cli.sndbuf = with_context("--sndbuf", [&] { return parse_size(sndbuf); });
		if (!cli.default_cc.empty())
			check_cc_name(cli.default_cc);
	} catch (const InputError &e) {
		return usage_error("client", e.what());
	}
	return run_client(cli);
}
