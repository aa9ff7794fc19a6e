// SPDX-License-Identifier: GPL-2.0
//
// unoperf's command line: the options of "unoperf server" and "unoperf
// client", their checks, and the generated workloads they describe.
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <memory>

#include <CLI/CLI.hpp>

#include "spec.h"
#include "unoperf.h"
#include "workload.h"
// After unoperf.h: nlohmann/json.hpp before kernel/core's macros.
#include "cli.h" // unorc's

namespace unoperf {

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

With --flow/--flows-file (engine "threads", a thread per flow): all flows
connect first; once all are connected, every flow starts sending at common
start + start on one CLOCK_MONOTONIC clock.

Generated workloads (engine "loop", one thread and epoll set per sender
namespace; a flow connects --connect-ahead-ms before its start and closes
when done). Each flow is of class intra or inter; the k-th flow of a class
is sent from namespace k mod n of that class's --senders list; all flows go
to --dst. cc and base RTT: cc=/base_rtt= of a spec, else --cc-CLASS /
--base-rtt-us-CLASS, else --cc / --base-rtt-us.
  CDF mode (--cdf-intra and/or --cdf-inter): Poisson arrivals offering
    --load L of --rate-mbps R: mean gap (us) = mean_size*8 / (R*L), where
    mean_size = K*(F*mean(intra CDF) + (1-F)*mean(inter CDF)); each flow is
    intra with probability F (--intra-fraction); its size is the CDF's size
    at a uniform percentile, linear between rows, then max(--min-size,
    floor(size*K)) with K = --size-scale. Stops after --flows N or at
    --duration-ms T (either or both). CDF files: "size_bytes
    cumulative_percent" per line, first row at 0, last at 100.
    Same --seed, same flows (mt19937_64, our own transforms).
  Matrix mode (--matrix FILE, htsim format "Nodes N", "Connections M",
    "<src>-><dst> id <id> start <start_us> size <bytes>"): flows sorted by
    start, the first --max-flows kept, start = round(start*S) us with S =
    --time-scale, size = max(--min-size, floor(size*K)). Inter iff
    (src<128) != (dst<128). All destination hosts map onto the one server.
  --dry-run prints the flows as JSON ("role": "plan") and runs nothing.

FCT runs from the first byte handed to the socket (after the connect) to the
server's one-byte completion answer. With --rate-mbps R (Mbit/s) and a base
RTT T (us), ideal = size*8/R + T (us) and slowdown = fct / ideal. The summary
has min/mean/max/p50/p99 FCT, mean/p50/p99 slowdown (nearest rank), overall
and per class.

Output: one JSON document (to -j FILE, or stdout). Exit status: 0 when every
flow completed, 1 when one failed, timed out or a namespace is missing (the
other flows are stopped at once), 2 for bad arguments.)";

constexpr const char *kServerFooter = R"(
Each connection carries one flow: a 32-byte header (flow id, size, the client's
CLOCK_MONOTONIC send start), then the payload. Once it has all of it, the server
answers one byte and appends one JSON object (one line) per flow to -j FILE, or
stdout. Runs until SIGINT/SIGTERM, or until --count flows completed. Prints
"listening on ADDR:PORT" on stderr once it accepts connections.)";

constexpr const char *kClientUnorcFooter = R"(

--transport unorc: each flow is an UnoRC flow of its own (userspace/unorc;
its own flow id, sub-flow sockets and window, as a TCP flow has its own
connection) that carries one message, the flow's header and bytes the server
checks one by one. The sockets open --connect-ahead-ms before the start, all
workloads run on the loop engine, and FCT runs from handing the message to the
transport to the ACK that completes it (the receiver has every byte, decoded
where parity stood in). --cc is every flow's law, uno (UnoCC, the default),
smartt or nscc; no --cc-intra, --cc-inter, cc= or --sndbuf. The law's C
(--link-mbps) defaults to --rate-mbps, unless [unorc] of --config sets it. A
flow's code follows its source address, as the server's does: give both ends
the same --inter-prefix (the inter-DC senders' addresses), or the same --code /
--no-code.)";

constexpr const char *kServerUnorcFooter = R"(

--transport unorc: one UDP socket, an UnoRC receiver per flow, kept for the run
(--max-flows must hold every flow). Each flow's bytes are checked: one that
differs is logged and written with "ok": false. After --count flows and
--linger-ms without a datagram it exits, with a "server_summary" line last;
exit status 1 if a flow's bytes differed.)";

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

void add_transport_option(CLI::App *cmd, std::string &transport)
{
	cmd->add_option("--transport", transport,
			"tcp (a connection per flow, the default) or unorc (an UnoRC flow per flow)")
		->type_name("T")
		->check(CLI::IsMember({"tcp", "unorc"}));
}

// The receiver's options and --config: unorc's, over UnorcServerSettings'
// defaults.
std::unique_ptr<unorc::TransportOptions> add_unorc_server_options(CLI::App *server,
								  UnorcServerSettings &s,
								  std::vector<CLI::Option *> &opts)
{
	unorc::Settings defaults;
	defaults.code = s.code;
	defaults.rx = s.rx;
	auto t = std::make_unique<unorc::TransportOptions>(server, unorc::Side::Receiver, defaults);
	opts = t->options();
	opts.push_back(server->add_option("--linger-ms", s.linger_ms,
					  "unorc: quiet after --count flows before exiting")
			       ->capture_default_str());
	return t;
}

std::unique_ptr<unorc::TransportOptions> add_unorc_client_options(CLI::App *client,
								  UnorcClientSettings &s)
{
	unorc::Settings defaults;
	defaults.code = s.code;
	defaults.tx = s.tx;
	return std::make_unique<unorc::TransportOptions>(client, unorc::Side::Sender, defaults);
}

// --transport, and none of unorc's options without it.
Transport transport_of(const std::string &name, const std::vector<CLI::Option *> &unorc_opts)
{
	if (name == "unorc")
		return Transport::Unorc;
	for (const CLI::Option *o : unorc_opts)
		if (o->count())
			throw InputError(o->get_name() + " is for --transport unorc");
	return Transport::Tcp;
}

// The transport's own checks, before anything runs.
template <typename F> void with_unorc_words(F &&f)
{
	try {
		f();
	} catch (const std::invalid_argument &e) {
		throw InputError(e.what());
	}
}

// The options given over [unorc] of the configuration file over the
// built-in settings; says on stderr what the file set.
unorc::Applied apply_unorc(const unorc::TransportOptions &t, const char *cmd,
			   unorc::CodeSettings &code, unorc::SenderSettings *tx,
			   unorc::ReceiverSettings *rx)
{
	unorc::Applied a;
	with_unorc_words([&] { a = t.apply(code, tx, rx); });
	if (const std::string what = unorc::describe(a); !what.empty())
		std::fprintf(stderr, "unoperf %s: %s\n", cmd, what.c_str());
	return a;
}

void check_unorc_server(const unorc::TransportOptions &t, UnorcServerSettings &s)
{
	apply_unorc(t, "server", s.code, nullptr, &s.rx);
	with_unorc_words([&] { unorc::receiver_options(s.rx, unorc::code_policy(s.code)); });
}

// UnoRC runs its own law over UDP sockets of its own: TCP's knobs do not
// apply, and --cc names the law (unorc's knob of that name).
void check_unorc_client(CLI::App *client, const unorc::TransportOptions &t, ClientOptions &cli,
			const std::string &engine)
{
	for (const char *tcp_only : {"--cc-intra", "--cc-inter", "--sndbuf"})
		if (client->get_option(tcp_only)->count())
			throw InputError(std::string(tcp_only) +
					 " is for --transport tcp: UnoRC flows run --cc's law");
	if (engine == "threads")
		throw InputError("--engine threads is for --transport tcp: UnoRC flows run in"
				 " one loop per namespace");
	const unorc::Applied a = apply_unorc(t, "client", cli.unorc.code, &cli.unorc.tx, nullptr);
	// The law's C is --rate-mbps's unless set.
	cli.unorc.link_from_rate = a.from_default("link-mbps");
	with_unorc_words([&] { unorc::code_policy(cli.unorc.code); });
}

} // namespace

int unoperf_main(int argc, char **argv)
{
	CLI::App app{"unoperf: flow completion times between network namespaces of one host"};
	app.require_subcommand(1);

	ServerOptions srv;
	std::string srv_bind = srv.bind_addr;
	CLI::App *server = app.add_subcommand("server", "receive flows and time them");
	server->add_option("-p,--port", srv.port, "TCP or UDP port (--transport)")
		->type_name("PORT")
		->default_val(kDefaultPort)
		->check(CLI::Range(1, 65535));
	server->add_option("-B,--bind", srv_bind, "address to listen on, IPv4 or IPv6")
		->type_name("ADDR")->default_val("0.0.0.0");
	server->add_option("--netns", srv.netns, "run in network namespace /run/netns/NAME")
		->type_name("NAME");
	server->add_option("-j,--json", srv.json_path, "append JSON lines to FILE (default stdout)")
		->type_name("FILE");
	server->add_option("--count", srv.count, "exit after N completed flows")
		->type_name("N")
		->check(CLI::Range(uint64_t{1}, UINT64_MAX));
	std::string srv_transport;
	add_transport_option(server, srv_transport);
	std::vector<CLI::Option *> srv_unorc;
	const auto srv_transport_opts = add_unorc_server_options(server, srv.unorc, srv_unorc);
	server->footer(std::string(kServerFooter) + kServerUnorcFooter + "\n" + unorc::kCodeHelp);

	ClientOptions cli;
	std::string dst, sndbuf, flows_file;
	std::vector<std::string> flow_args;
	double rate = 0;
	uint64_t base_rtt = 0;
	CLI::App *client = app.add_subcommand("client", "start flows together and time them");
	CLI::Option *dst_opt =
		client->add_option("-c,--dst", dst, "server ADDR[:PORT] (default port 5301)")
		->type_name("ADDR[:PORT]");
	client->add_option("--flow", flow_args, "flow SPEC (repeatable; see below)")
		->type_name("SPEC");
	client->add_option("-F,--flows-file", flows_file, "read flow specs from FILE, one per line")
		->type_name("FILE");
	client->add_option("-j,--json", cli.json_path, "write JSON to FILE (default stdout)")
		->type_name("FILE");
	client->add_option("--timeout", cli.timeout_s,
			   "seconds for connecting (all flows; loop engine: each flow), and for each flow from its start")
		->default_val(60)
		->type_name("SEC")
		->check(CLI::Range(1, 86400));
	CLI::Option *rate_opt = client->add_option(
		"--rate-mbps", rate, "bottleneck rate in Mbit/s, for slowdown")
		->type_name("R");
	CLI::Option *rtt_opt = client->add_option(
		"--base-rtt-us", base_rtt, "base RTT in microseconds for slowdown (all flows)")
		->type_name("USEC");
	client->add_option("--cc", cli.default_cc,
			   "congestion control for flows without cc=; --transport unorc: the law,"
			   " uno, smartt or nscc")
		->type_name("NAME");
	CLI::Option *sndbuf_opt = client->add_option(
		"--sndbuf", sndbuf, "set SO_SNDBUF to BYTES (k/m/g suffixes); default: not set")
		->type_name("BYTES");
	std::vector<std::string> senders_args;
	std::string cc_intra, cc_inter, cdf_intra, cdf_inter, matrix, min_size, engine;
	uint64_t rtt_intra = 0, rtt_inter = 0, n_flows = 0, seed = 1, max_flows = 0;
	double load = 0, intra_fraction = 0.8, duration_ms = 0, size_scale = 1, time_scale = 1;
	double connect_ahead_ms = 100;
	client->add_option("--senders", senders_args,
			   "CLASS=NS[,NS...]: sender namespaces of class intra or inter (repeatable)")
		->type_name("CLASS=NS,..");
	client->add_option("--cc-intra", cc_intra, "congestion control of intra flows")
		->type_name("NAME");
	client->add_option("--cc-inter", cc_inter, "congestion control of inter flows")
		->type_name("NAME");
	CLI::Option *rtt_intra_opt = client->add_option(
		"--base-rtt-us-intra", rtt_intra, "base RTT of intra flows, for slowdown")
		->type_name("USEC");
	CLI::Option *rtt_inter_opt = client->add_option(
		"--base-rtt-us-inter", rtt_inter, "base RTT of inter flows, for slowdown")
		->type_name("USEC");
	client->add_option("--cdf-intra", cdf_intra, "CDF mode: flow-size CDF of intra flows")
		->type_name("FILE");
	client->add_option("--cdf-inter", cdf_inter, "CDF mode: flow-size CDF of inter flows")
		->type_name("FILE");
	CLI::Option *load_opt = client->add_option(
		"--load", load, "CDF mode: offered load, fraction 0 < L <= 1 of --rate-mbps")
		->type_name("L");
	CLI::Option *frac_opt = client->add_option(
		"--intra-fraction", intra_fraction, "CDF mode: fraction of flows that are intra")
		->type_name("F")->default_val(0.8)->check(CLI::Range(0.0, 1.0));
	CLI::Option *nflows_opt = client->add_option(
		"--flows", n_flows, "CDF mode: number of flows")
		->type_name("N")->check(CLI::Range(uint64_t{1}, kMaxGeneratedFlows));
	CLI::Option *dur_opt = client->add_option(
		"--duration-ms", duration_ms, "CDF mode: last arrival before T ms")
		->type_name("T");
	CLI::Option *seed_opt = client->add_option("--seed", seed, "CDF mode: random seed")
		->type_name("S")->default_val(1);
	client->add_option("--matrix", matrix, "matrix mode: htsim connection matrix")
		->type_name("FILE");
	CLI::Option *tscale_opt = client->add_option(
		"--time-scale", time_scale, "matrix mode: multiply start times by S")
		->type_name("S")->default_val(1);
	CLI::Option *maxf_opt = client->add_option(
		"--max-flows", max_flows, "matrix mode: keep the first N flows by start time")
		->type_name("N")->check(CLI::Range(uint64_t{1}, kMaxGeneratedFlows));
	CLI::Option *sscale_opt = client->add_option(
		"--size-scale", size_scale, "multiply generated flow sizes by K")
		->type_name("K")->default_val(1);
	CLI::Option *minsize_opt = client->add_option(
		"--min-size", min_size, "floor of generated flow sizes (default 1 byte)")
		->type_name("BYTES");
	CLI::Option *ahead_opt = client->add_option(
		"--connect-ahead-ms", connect_ahead_ms,
		"loop engine: connect each flow (UnoRC: open its sockets) this long before its start")
		->type_name("MS")->default_val(100)->check(CLI::Range(0.0, 60000.0));
	client->add_option("--engine", engine,
			   "threads (default for --flow) or loop (default for generated workloads)")
		->type_name("ENGINE")->check(CLI::IsMember({"threads", "loop"}));
	client->add_flag("--dry-run", cli.dry_run, "print the planned flows as JSON; no network");
	std::string cli_transport;
	add_transport_option(client, cli_transport);
	const auto cli_transport_opts = add_unorc_client_options(client, cli.unorc);
	const std::vector<CLI::Option *> &cli_unorc = cli_transport_opts->options();
	client->footer(std::string(kClientFooter) + kClientUnorcFooter + "\n" + unorc::kCodeHelp);

	try {
		app.parse(argc, argv);
	} catch (const CLI::ParseError &e) {
		const int rc = app.exit(e);
		return rc == 0 ? kExitOk : kExitUsage;
	}

	if (server->parsed()) {
		srv.bind_addr = srv_bind;
		try {
			with_context("--bind", [&] { return parse_ip(srv_bind); });
			srv.transport = transport_of(srv_transport, srv_unorc);
			if (srv.transport == Transport::Unorc)
				check_unorc_server(*srv_transport_opts, srv.unorc);
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
		cli.transport = transport_of(cli_transport, cli_unorc);
		if (cli.transport == Transport::Unorc)
			check_unorc_client(client, *cli_transport_opts, cli, engine);
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
		for (const auto &[name, cc] : {std::pair{"--cc-intra", &cc_intra},
					       std::pair{"--cc-inter", &cc_inter}})
			if (!cc->empty()) {
				with_context(name, [&] { check_cc_name(*cc); return 0; });
				cli.cc_by_class[std::string(name + 5)] = *cc;
			}
		for (const auto &[o, v] : {std::pair{rtt_intra_opt, rtt_intra},
					   std::pair{rtt_inter_opt, rtt_inter}})
			if (*o) {
				if (!*rate_opt)
					throw InputError(o->get_name() + " needs --rate-mbps");
				cli.base_rtt_by_class[o->get_name() == "--base-rtt-us-intra"
							      ? "intra" : "inter"] = v;
			}

		const bool cdf_mode = !cdf_intra.empty() || !cdf_inter.empty();
		const bool matrix_mode = !matrix.empty();
		if (cdf_mode && matrix_mode)
			throw InputError("--cdf-intra/--cdf-inter and --matrix exclude each other");
		const bool generated = cdf_mode || matrix_mode;
		if (generated && !cli.specs.empty())
			throw InputError("--flow/--flows-file cannot be combined with a generated"
					 " workload (--cdf-intra/--cdf-inter or --matrix)");
		for (CLI::Option *o : {load_opt, frac_opt, nflows_opt, dur_opt, seed_opt})
			if (*o && !cdf_mode)
				throw InputError(o->get_name() + " is for CDF mode"
						 " (--cdf-intra/--cdf-inter)");
		for (CLI::Option *o : {tscale_opt, maxf_opt})
			if (*o && !matrix_mode)
				throw InputError(o->get_name() + " is for matrix mode (--matrix)");
		for (CLI::Option *o : {sscale_opt, minsize_opt})
			if (*o && !generated)
				throw InputError(o->get_name() + " is for generated workloads"
						 " (--cdf-intra/--cdf-inter or --matrix)");
		if (!senders_args.empty() && !generated)
			throw InputError("--senders is for generated workloads"
					 " (--cdf-intra/--cdf-inter or --matrix)");
		if (!std::isfinite(size_scale) || size_scale <= 0)
			throw InputError("--size-scale must be a positive number");
		if (!std::isfinite(time_scale) || time_scale < 0)
			throw InputError("--time-scale must be a non-negative number");
		uint64_t min_bytes = 1;
		if (*minsize_opt)
			min_bytes = with_context("--min-size", [&] { return parse_size(min_size); });
		cli.connect_ahead_us = static_cast<uint64_t>(connect_ahead_ms * 1000);
		if (*ahead_opt && engine == "threads")
			throw InputError("--connect-ahead-ms is for the loop engine");
		if (cli.transport == Transport::Unorc)
			cli.engine = Engine::Loop; // its only one
		else
			cli.engine = engine.empty() ? (generated ? Engine::Loop : Engine::Threads)
						    : engine == "loop" ? Engine::Loop : Engine::Threads;

		if (generated) {
			Senders senders;
			Json sj = Json::object();
			for (const std::string &a : senders_args)
				parse_senders(a, &senders);
			sj["intra"] = senders.intra;
			sj["inter"] = senders.inter;
			std::vector<FlowSpec> flows;
			Json w;
			if (cdf_mode) {
				const auto load_cdf = [](const std::string &path) {
					std::ifstream in(path);
					if (!in)
						throw InputError("cannot open CDF file '" + path +
								 "': " + std::strerror(errno));
					return Cdf::parse(in, path);
				};
				std::optional<Cdf> intra, inter;
				if (!cdf_intra.empty())
					intra = load_cdf(cdf_intra);
				if (!cdf_inter.empty())
					inter = load_cdf(cdf_inter);
				if (!*load_opt)
					throw InputError("CDF mode needs --load L");
				if (!std::isfinite(load) || load <= 0 || load > 1)
					throw InputError("--load must be a fraction 0 < L <= 1");
				if (!cli.rate_mbps)
					throw InputError("CDF mode needs --rate-mbps");
				if (!*nflows_opt && !*dur_opt)
					throw InputError("CDF mode needs --flows N or --duration-ms T");
				if (*dur_opt && (!std::isfinite(duration_ms) || duration_ms <= 0))
					throw InputError("--duration-ms must be a positive number");
				// Without --intra-fraction, one CDF means one class.
				if (!*frac_opt && !intra)
					intra_fraction = 0;
				else if (!*frac_opt && !inter)
					intra_fraction = 1;
				CdfWorkload cw;
				cw.intra = intra ? &*intra : nullptr;
				cw.inter = inter ? &*inter : nullptr;
				cw.load = load;
				cw.rate_mbps = *cli.rate_mbps;
				cw.intra_fraction = intra_fraction;
				cw.flows = n_flows;
				cw.duration_us = *dur_opt ? duration_ms * 1000 : 0;
				cw.seed = seed;
				cw.size_scale = size_scale;
				cw.min_size = min_bytes;
				flows = generate_cdf_flows(cw);
				w["mode"] = "cdf";
				w["cdf_intra"] = intra ? Json(cdf_intra) : Json(nullptr);
				w["cdf_inter"] = inter ? Json(cdf_inter) : Json(nullptr);
				w["load"] = load;
				w["intra_fraction"] = intra_fraction;
				w["flows"] = *nflows_opt ? Json(n_flows) : Json(nullptr);
				w["duration_ms"] = *dur_opt ? Json(duration_ms) : Json(nullptr);
				w["seed"] = seed;
				w["mean_size_bytes"] = cdf_workload_mean_size(cw);
				w["mean_gap_us"] = cdf_workload_mean_gap_us(cw);
			} else {
				std::ifstream in(matrix);
				if (!in)
					throw InputError("cannot open matrix file '" + matrix +
							 "': " + std::strerror(errno));
				const std::vector<MatrixFlow> m = parse_matrix(in, matrix);
				MatrixWorkload mw;
				mw.time_scale = time_scale;
				mw.size_scale = size_scale;
				mw.min_size = min_bytes;
				mw.max_flows = max_flows;
				flows = matrix_flows(m, mw);
				w["mode"] = "matrix";
				w["matrix"] = matrix;
				w["matrix_flows"] = m.size();
				w["max_flows"] = *maxf_opt ? Json(max_flows) : Json(nullptr);
				w["time_scale"] = time_scale;
			}
			w["size_scale"] = size_scale;
			w["min_size"] = min_bytes;
			w["senders"] = std::move(sj);
			assign_senders(flows, senders);
			cli.specs = std::move(flows);
			cli.workload = std::move(w);
		}
	} catch (const InputError &e) {
		return usage_error("client", e.what());
	}
	return run_client(cli);
}

} // namespace unoperf
