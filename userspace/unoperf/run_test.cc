// SPDX-License-Identifier: GPL-2.0
//
// unoperf end to end on the loopback: a server (run_server, in a thread,
// on a port the kernel picks) and the client as the command runs it
// (unoperf_main), over TCP and over UnoRC, IPv4 and IPv6, for each kind
// of workload: flows together, a flow-size CDF at a load, a connection
// matrix. Every flow must complete, the output have the same fields for
// both transports (UnoRC's own under "unorc"), every FCT be positive, and
// an UnoRC server check every byte. Then the command's answer to bad
// options: its words on stderr and exit status 2.
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <future>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "unoperf.h"
#include "wire.h"
// After unoperf.h: nlohmann/json.hpp before kernel/core's macros.
#include "pattern.h"
#include "transport.h"

using namespace unoperf;
using nlohmann::json;

namespace {

constexpr auto kServerGrace = std::chrono::seconds(5);

bool have_ipv6()
{
	try {
		unorc::bind_udp(unorc::parse_endpoint("[::1]:0"));
		return true;
	} catch (const unorc::SysError &) {
		return false;
	}
}

// A directory of its own for a test's files, removed with it.
class TempDir {
public:
	TempDir()
	{
		std::string t = testing::TempDir() + "unoperf_run_XXXXXX";
		path_ = ::mkdtemp(t.data()) ? t : "";
	}
	~TempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
	std::string file(const std::string &name) const { return path_ + "/" + name; }
	std::string write(const std::string &name, const std::string &text) const
	{
		std::ofstream(file(name)) << text;
		return file(name);
	}

private:
	std::string path_;
};

std::vector<json> json_lines(const std::string &path)
{
	std::vector<json> v;
	std::ifstream in(path);
	for (std::string line; std::getline(in, line);)
		v.push_back(json::parse(line));
	return v;
}

json json_file(const std::string &path)
{
	std::ifstream in(path);
	return json::parse(in);
}

// run_server in a thread of its own, on a port the kernel picks, for
// `count` flows.
class Server {
public:
	explicit Server(ServerOptions opt) : opt_(std::move(opt))
	{
		std::future<std::string> addr = listening_.get_future();
		opt_.on_listening = [this](const std::string &a) { listening_.set_value(a); };
		thread_ = std::thread([this] { rc_.set_value(run_server(opt_)); });
		if (addr.wait_for(kServerGrace) == std::future_status::ready)
			addr_ = addr.get();
	}
	~Server()
	{
		stop();
		thread_.join();
	}
	const std::string &addr() const { return addr_; }
	// The exit code; a server still waiting for flows is stopped.
	int wait()
	{
		if (done_.wait_for(kServerGrace) != std::future_status::ready)
			stop();
		return done_.get();
	}

private:
	// SIGTERM to the server's thread, which reads it from its signalfd.
	void stop()
	{
		if (done_.valid() && done_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
			::pthread_kill(thread_.native_handle(), SIGTERM);
	}

	ServerOptions opt_;
	std::promise<std::string> listening_;
	std::promise<int> rc_;
	std::future<int> done_ = rc_.get_future();
	std::thread thread_;
	std::string addr_;
};

ServerOptions server_options(Transport t, const std::string &bind, uint64_t count,
			     const std::string &json_path)
{
	ServerOptions o;
	o.bind_addr = bind;
	o.port = 0;
	o.count = count;
	o.json_path = json_path;
	o.transport = t;
	o.unorc.linger_ms = 20;
	return o;
}

// unoperf_main as the command runs it; returns its exit code. A run over
// UnoRC that names no --config reads an empty one, not this host's
// /etc/uno/uno.toml, whose [unorc] would change its defaults.
int run_command(std::vector<std::string> args)
{
	const auto unorc = std::find(args.begin(), args.end(), "unorc");
	if (unorc != args.begin() && unorc != args.end() && unorc[-1] == "--transport" &&
	    std::find(args.begin(), args.end(), "--config") == args.end())
		args.insert(args.end(), {"--config", "/dev/null"});
	args.insert(args.begin(), "unoperf");
	std::vector<char *> argv;
	for (std::string &a : args)
		argv.push_back(a.data());
	return unoperf_main(static_cast<int>(argv.size()), argv.data());
}

struct CmdResult {
	int rc;
	std::string err;
};

CmdResult unoperf_stderr(std::vector<std::string> args)
{
	testing::internal::CaptureStderr();
	const int rc = run_command(std::move(args));
	return {rc, testing::internal::GetCapturedStderr()};
}

std::set<std::string> keys(const json &j)
{
	std::set<std::string> k;
	for (const auto &[key, v] : j.items())
		k.insert(key);
	return k;
}

// What every flow of either transport has once it completed, with a rate
// and a base RTT; UnoRC adds "unorc".
const std::set<std::string> kFlowKeys = {
	"id", "ns", "cc", "class", "dst", "transport", "size", "bytes", "offset_us", "ok",
	"sched_ns", "start_ns", "end_ns", "start_lag_us", "fct_us", "base_rtt_us", "ideal_us",
	"slowdown"};
const std::set<std::string> kSummaryKeys = {
	"flows", "completed", "failed", "max_start_lag_us", "min_fct_us", "mean_fct_us",
	"max_fct_us", "bytes", "p50_fct_us", "p99_fct_us", "mean_slowdown", "p50_slowdown",
	"p99_slowdown", "classes"};

std::set<std::string> with(std::set<std::string> s, const std::string &k)
{
	s.insert(k);
	return s;
}

// Every flow complete, positive FCT and slowdown, the same fields.
void expect_complete(const json &doc, const std::string &transport, size_t flows)
{
	const bool unorc = transport == "unorc";
	EXPECT_EQ(doc["transport"], transport);
	ASSERT_EQ(doc["flows"].size(), flows);
	for (const json &f : doc["flows"]) {
		std::set<std::string> k = keys(f);
		k.erase("matrix"); // matrix flows only
		EXPECT_EQ(k, unorc ? with(kFlowKeys, "unorc") : kFlowKeys)
			<< f.dump();
		EXPECT_TRUE(f["ok"].get<bool>()) << f.dump();
		EXPECT_EQ(f["transport"], transport);
		EXPECT_EQ(f["bytes"], f["size"]);
		EXPECT_GT(f["fct_us"].get<double>(), 0);
		EXPECT_GT(f["slowdown"].get<double>(), 0);
		EXPECT_GE(f["end_ns"].get<uint64_t>(), f["start_ns"].get<uint64_t>());
		if (unorc) {
			EXPECT_EQ(f["cc"], "uno");
		}
	}
	const json &s = doc["summary"];
	EXPECT_EQ(keys(s), unorc ? with(kSummaryKeys, "unorc") : kSummaryKeys);
	EXPECT_EQ(s["completed"], flows);
	EXPECT_EQ(s["failed"], 0);
	EXPECT_GT(s["p99_fct_us"].get<double>(), 0);
	for (const auto &[cls, c] : s["classes"].items())
		EXPECT_EQ(c["completed"], c["flows"]) << cls;
}

// The UnoRC server's lines: every flow's bytes as sent, then the summary.
void expect_checked(const std::vector<json> &lines, size_t flows)
{
	ASSERT_EQ(lines.size(), flows + 1);
	for (size_t i = 0; i < flows; ++i) {
		EXPECT_EQ(lines[i]["role"], "server");
		EXPECT_EQ(lines[i]["transport"], "unorc");
		EXPECT_EQ(lines[i]["mismatched_bytes"], 0);
		EXPECT_TRUE(lines[i]["ok"].get<bool>()) << lines[i].dump();
		EXPECT_GT(lines[i]["rx_fct_us"].get<double>(), 0);
	}
	const json &s = lines.back();
	EXPECT_EQ(s["role"], "server_summary");
	EXPECT_EQ(s["flows"], flows);
	EXPECT_EQ(s["bad_flows"], 0);
	EXPECT_EQ(s["mismatched_bytes"], 0);
}

constexpr size_t kCdfFlows = 30;

// A CDF of 1 KB to 200 KB, 30 flows at 30 % of 1 Gbit/s, both classes
// from our own namespace.
std::vector<std::string> cdf_args(const TempDir &dir, const std::string &dst)
{
	const std::string cdf = dir.write("cdf.txt", "1000 0\n20000 50\n200000 100\n");
	return {"client", "--dst", dst, "--cdf-intra", cdf, "--cdf-inter", cdf,
		"--senders", "intra=-", "--senders", "inter=-", "--load", "0.3",
		"--rate-mbps", "1000", "--flows", std::to_string(kCdfFlows), "--seed", "3",
		"--base-rtt-us-intra", "100", "--base-rtt-us-inter", "1000",
		"--connect-ahead-ms", "5", "--timeout", "4", "-j", dir.file("client.json")};
}

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string> &b)
{
	a.insert(a.end(), b.begin(), b.end());
	return a;
}

// A CDF workload from a server on `bind`; the client's document.
json run_cdf(Transport t, const std::string &bind, const std::vector<std::string> &client_extra,
	     const std::vector<std::string> &server_prefixes = {})
{
	TempDir dir;
	ServerOptions so = server_options(t, bind, kCdfFlows, dir.file("server.jsonl"));
	so.unorc.code.inter_prefixes = server_prefixes;
	Server server(so);
	EXPECT_FALSE(server.addr().empty());
	EXPECT_EQ(run_command(cdf_args(dir, server.addr()) + client_extra), kExitOk);
	EXPECT_EQ(server.wait(), kExitOk);
	if (t == Transport::Unorc)
		expect_checked(json_lines(dir.file("server.jsonl")), kCdfFlows);
	return json_file(dir.file("client.json"));
}

const std::vector<std::string> kUnorc = {"--transport", "unorc"};

// Every flow's code, from the client's document.
std::set<std::string> codes(const json &doc)
{
	std::set<std::string> c;
	for (const json &f : doc["flows"])
		c.insert(f["unorc"]["code"].get<std::string>());
	return c;
}

} // namespace

TEST(Run, TcpCdfIpv4)
{
	expect_complete(run_cdf(Transport::Tcp, "127.0.0.1", {}), "tcp", kCdfFlows);
}

TEST(Run, TcpCdfIpv6)
{
	if (!have_ipv6())
		GTEST_SKIP() << "no IPv6 loopback";
	expect_complete(run_cdf(Transport::Tcp, "::1", {}), "tcp", kCdfFlows);
}

// Both ends know the loopback as inter-DC: every flow coded 8+2.
TEST(Run, UnorcCdfIpv4Coded)
{
	const json doc = run_cdf(Transport::Unorc, "127.0.0.1",
				 kUnorc + std::vector<std::string>{"--inter-prefix", "127.0.0.0/8"},
				 {"127.0.0.0/8"});
	expect_complete(doc, "unorc", kCdfFlows);
	EXPECT_EQ(codes(doc), std::set<std::string>{"8+2"});
	EXPECT_EQ(doc["flows"][0]["unorc"]["subflows"], 10);
}

// No prefix: intra-DC, no parity, one sub-flow.
TEST(Run, UnorcCdfIpv6Uncoded)
{
	if (!have_ipv6())
		GTEST_SKIP() << "no IPv6 loopback";
	const json doc = run_cdf(Transport::Unorc, "::1", kUnorc);
	expect_complete(doc, "unorc", kCdfFlows);
	EXPECT_EQ(codes(doc), std::set<std::string>{"none"});
	EXPECT_EQ(doc["flows"][0]["unorc"]["subflows"], 1);
}

TEST(Run, UnorcCdfIpv6Coded)
{
	if (!have_ipv6())
		GTEST_SKIP() << "no IPv6 loopback";
	const json doc = run_cdf(Transport::Unorc, "::1",
				 kUnorc + std::vector<std::string>{"--inter-prefix", "::1/128"},
				 {"::1/128"});
	expect_complete(doc, "unorc", kCdfFlows);
	EXPECT_EQ(codes(doc), std::set<std::string>{"8+2"});
}

// Flows together: four flows of 300 KB at one instant, the threads engine
// for TCP, UnoRC's loop with fixed source ports and three sub-flows.
void run_together(Transport t, const std::string &bind, const std::vector<std::string> &extra)
{
	TempDir dir;
	Server server(server_options(t, bind, 4, dir.file("server.jsonl")));
	const std::vector<std::string> args = {
		"client", "--dst", server.addr(), "--flow", "ns=-,size=300k,count=4,class=intra",
		"--rate-mbps", "1000", "--base-rtt-us", "100", "--timeout", "4",
		"-j", dir.file("client.json")};
	ASSERT_EQ(run_command(args + extra), kExitOk);
	ASSERT_EQ(server.wait(), kExitOk);
	const json doc = json_file(dir.file("client.json"));
	expect_complete(doc, transport_name(t), 4);
	EXPECT_EQ(doc["summary"]["bytes"], 1'200'000);
	if (t == Transport::Unorc)
		expect_checked(json_lines(dir.file("server.jsonl")), 4);
}

TEST(Run, TcpTogetherIpv4)
{
	run_together(Transport::Tcp, "127.0.0.1", {});
}

TEST(Run, UnorcTogetherIpv4)
{
	run_together(Transport::Unorc, "127.0.0.1",
		     kUnorc + std::vector<std::string>{"--subflows", "3", "--source-port", "41000",
						       "--link-mbps", "1000", "--intra-rtt-us",
						       "100", "--rto-us", "5000"});
}

// An RTO below the loopback's round trip: timeouts re-path sub-flows,
// whose sockets PortPaths replaces under the same descriptors; the loop
// must still hear their ACKs.
TEST(Run, UnorcRepathsKeepTheirReplies)
{
	TempDir dir;
	ServerOptions so = server_options(Transport::Unorc, "127.0.0.1", 2, dir.file("server.jsonl"));
	so.unorc.code.code = "8+2";
	Server server(so);
	const std::vector<std::string> args = {
		"client", "--transport", "unorc", "--code", "8+2", "--rto-us", "20",
		"--dst", server.addr(), "--flow", "ns=-,size=200k,count=2,class=inter",
		"--rate-mbps", "1000", "--base-rtt-us", "100", "--timeout", "4",
		"-j", dir.file("client.json")};
	ASSERT_EQ(run_command(args), kExitOk);
	ASSERT_EQ(server.wait(), kExitOk);
	const json doc = json_file(dir.file("client.json"));
	expect_complete(doc, "unorc", 2);
	EXPECT_GT(doc["summary"]["unorc"]["repath_events"].get<uint64_t>(), 0u);
	expect_checked(json_lines(dir.file("server.jsonl")), 2);
}

// [unorc] of --config gives the client its defaults, and an option
// overrides the file: the code from the file, the sub-flows from the
// command line.
TEST(Run, UnorcDefaultsFromTheConfigFile)
{
	TempDir dir;
	const std::string conf =
		dir.write("uno.toml", "[unorc]\ncode = \"4+1\"\nsubflows = 3\nrto-us = 20000\n");
	ServerOptions so = server_options(Transport::Unorc, "127.0.0.1", 2, dir.file("server.jsonl"));
	so.unorc.code.code = "4+1";
	Server server(so);
	const CmdResult r = unoperf_stderr(
		{"client", "--transport", "unorc", "--config", conf, "--subflows", "2", "--dst",
		 server.addr(), "--flow", "ns=-,size=100k,count=2", "--rate-mbps", "1000",
		 "--base-rtt-us", "100", "--timeout", "4", "-j", dir.file("client.json")});
	ASSERT_EQ(r.rc, kExitOk) << r.err;
	// Its first line, before the run's summary.
	EXPECT_EQ(r.err.substr(0, r.err.find('\n') + 1),
		  "unoperf client: [unorc] of " + conf + ": code = 4+1, subflows = 3, rto-us = 20000\n");
	ASSERT_EQ(server.wait(), kExitOk);
	const json doc = json_file(dir.file("client.json"));
	expect_complete(doc, "unorc", 2);
	EXPECT_EQ(codes(doc), std::set<std::string>{"4+1"});
	EXPECT_EQ(doc["flows"][0]["unorc"]["subflows"], 2);
	expect_checked(json_lines(dir.file("server.jsonl")), 2);
}

// An htsim matrix: intra and inter flows by host, coded 8+2 by --code on
// both ends (the loopback has one source address for both classes).
void run_matrix(Transport t, const std::string &bind, const std::vector<std::string> &extra)
{
	TempDir dir;
	const std::string m = dir.write("m.cm", "Nodes 256\nConnections 6\n"
						"0->1 id 1 start 0 size 20000\n"
						"130->1 id 2 start 100 size 150000\n"
						"2->3 id 3 start 300 size 1000\n"
						"140->5 id 4 start 400 size 60000\n"
						"6->7 id 5 start 900 size 90000\n"
						"200->7 id 6 start 1000 size 5000\n");
	ServerOptions so = server_options(t, bind, 6, dir.file("server.jsonl"));
	so.unorc.code.code = "8+2";
	Server server(so);
	const std::vector<std::string> args = {
		"client", "--dst", server.addr(), "--matrix", m, "--senders", "intra=-",
		"--senders", "inter=-", "--rate-mbps", "1000", "--base-rtt-us-intra", "100",
		"--base-rtt-us-inter", "1000", "--connect-ahead-ms", "5", "--timeout", "4",
		"-j", dir.file("client.json")};
	ASSERT_EQ(run_command(args + extra), kExitOk);
	ASSERT_EQ(server.wait(), kExitOk);
	const json doc = json_file(dir.file("client.json"));
	expect_complete(doc, transport_name(t), 6);
	EXPECT_EQ(doc["summary"]["classes"]["inter"]["completed"], 3);
	EXPECT_EQ(doc["flows"][1]["matrix"]["src"], 130);
	if (t == Transport::Unorc) {
		expect_checked(json_lines(dir.file("server.jsonl")), 6);
		EXPECT_EQ(codes(doc), std::set<std::string>{"8+2"});
	}
}

TEST(Run, TcpMatrixIpv6)
{
	if (!have_ipv6())
		GTEST_SKIP() << "no IPv6 loopback";
	run_matrix(Transport::Tcp, "::1", {});
}

TEST(Run, UnorcMatrixIpv4)
{
	run_matrix(Transport::Unorc, "127.0.0.1",
		   kUnorc + std::vector<std::string>{"--code", "8+2"});
}

// A flow whose bytes differ from its pattern, sent by a bare UnoRC
// sender: the server writes it "ok": false, counts it, exits with 1.
TEST(Run, UnorcServerCountsBytesThatDiffer)
{
	TempDir dir;
	Server server(server_options(Transport::Unorc, "127.0.0.1", 1, dir.file("server.jsonl")));
	const uint64_t size = 50'000;
	std::vector<uint8_t> msg(kHeaderSize + size);
	const HeaderBytes h = encode_header({7, size, unorc::monotonic_ns()});
	std::copy(h.begin(), h.end(), msg.begin());
	unorc::fill_pattern(std::span(msg).subspan(kHeaderSize), 7);
	msg[kHeaderSize + 10] ^= 0xff;
	msg.back() ^= 0x01;

	const unorc::SenderSettings s;
	const unorc::Endpoint dst = unorc::parse_endpoint(server.addr());
	const uint64_t now = unorc::monotonic_ns();
	unorc::SenderFlow tx(unorc::flow_config(s, 99, {1, 0, unorc::kDefaultPayload}),
			     std::make_unique<unorc::PortPaths>(dst, 1), now);
	tx.send_message(7, msg, now);
	unorc::Loop loop;
	loop.add(tx);
	size_t done = 0;
	ASSERT_TRUE(loop.run([&](uint64_t) { return (done += tx.take_completed().size()) == 0; },
			     now + 4'000'000'000ULL));

	EXPECT_EQ(server.wait(), kExitFailed);
	const std::vector<json> lines = json_lines(dir.file("server.jsonl"));
	ASSERT_EQ(lines.size(), 2u);
	EXPECT_EQ(lines[0]["id"], 7);
	EXPECT_EQ(lines[0]["size"], size);
	EXPECT_EQ(lines[0]["mismatched_bytes"], 2);
	EXPECT_FALSE(lines[0]["ok"].get<bool>());
	EXPECT_EQ(lines[1]["bad_flows"], 1);
	EXPECT_EQ(lines[1]["mismatched_bytes"], 2);
}

// Bad options: the command's words on stderr, exit status 2, nothing run.
TEST(Cli, BadOptionsSayWhy)
{
	const std::vector<std::string> flow = {"--dst", "127.0.0.1:9", "--flow", "ns=-,size=1k"};
	const struct {
		std::vector<std::string> args;
		std::string says;
	} cases[] = {
		{{"client", "--code", "8+2"}, "unoperf client: --code is for --transport unorc\n"},
		{{"client", "--transport", "unorc", "--cc", "cubic"},
		 "unoperf client: --cc: 'cubic': expected uno, smartt or nscc\n"},
		{{"client", "--transport", "unorc", "--cc-intra", "smartt"},
		 "unoperf client: --cc-intra is for --transport tcp: UnoRC flows run --cc's law\n"},
		{{"client", "--transport", "unorc", "--engine", "threads"},
		 "unoperf client: --engine threads is for --transport tcp: UnoRC flows run in one"
		 " loop per namespace\n"},
		{{"client", "--transport", "unorc", "--code", "8-2"},
		 "unoperf client: --code: '8-2': need X+Y (e.g. 8+2), none or auto\n"},
		{{"client", "--transport", "unorc", "--inter-prefix", "10.0.0.0/40"},
		 "unoperf client: --inter-prefix: '10.0.0.0/40': prefix length '40' not in 0..32\n"},
		{{"client", "--transport", "quic"}, "--transport: quic not in {tcp,unorc}"},
		{{"client", "--transport", "unorc", "--subflows", "17"},
		 "unoperf client: --subflows: '17': expected auto or 1..16\n"},
		{{"client", "--transport", "unorc", "--rto-us", "5"},
		 "unoperf client: --rto-us: value 5 out of range 20..60000000 us\n"},
		{{"client", "--transport", "unorc", "--config", "/nonexistent/uno.toml"},
		 "unoperf client: /nonexistent/uno.toml: cannot read: No such file or directory\n"},
		{{"client", "--config", "/nonexistent/uno.toml"},
		 "unoperf client: --config is for --transport unorc\n"},
	};
	for (const auto &c : cases) {
		const CmdResult r = unoperf_stderr(c.args + flow);
		EXPECT_EQ(r.rc, kExitUsage) << c.args[1] << " " << c.args[2];
		EXPECT_EQ(r.err.substr(0, c.says.size()), c.says) << r.err;
	}
	const CmdResult spec = unoperf_stderr(
		{"client", "--transport", "unorc", "--dst", "127.0.0.1:9", "--flow", "ns=-,size=1k,cc=bbr"});
	EXPECT_EQ(spec.rc, kExitUsage);
	EXPECT_EQ(spec.err, "unoperf client: flow spec 1: cc=bbr is for --transport tcp: UnoRC flows"
			    " run --cc's law\n");
	const CmdResult srv = unoperf_stderr({"server", "--ec-wait-us", "300"});
	EXPECT_EQ(srv.rc, kExitUsage);
	EXPECT_EQ(srv.err, "unoperf server: --ec-wait-us is for --transport unorc\n");
	const CmdResult dscp = unoperf_stderr({"server", "--transport", "unorc", "--trim-dscp", "64"});
	EXPECT_EQ(dscp.rc, kExitUsage);
	EXPECT_EQ(dscp.err, "unoperf server: --trim-dscp: '64': expected off or 0..63\n");
	const CmdResult bind = unoperf_stderr({"server", "-B", "::g"});
	EXPECT_EQ(bind.rc, kExitUsage);
	EXPECT_EQ(bind.err, "unoperf server: --bind: invalid address '::g': expected an IPv6 address"
			    " like fd00::2\n");
}
