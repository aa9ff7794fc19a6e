// SPDX-License-Identifier: GPL-2.0
//
// libuno without a kernel: parameter tables and aliases, the configuration
// file (good and broken, [unorc] too), the reload plan, and netlink
// messages built and parsed back.
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

#include <gtest/gtest.h>
#include <libmnl/libmnl.h>
#include <linux/gen_stats.h>
#include <linux/genetlink.h>
#include <linux/inet_diag.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <netinet/in.h>

#include "config.h"
#include "core_types.h"
#include "ndt_units.h"
#include "nl.h"
#include "params.h"
#include "reflex_core.h"
#include "uapi/uno_nl.h"

using namespace uno;

namespace {

// --- parameters ----------------------------------------------------------

TEST(Params, TablesFromTheKernelLists)
{
	std::map<std::string_view, size_t> n;
	for (const auto &p : param_specs()) {
		EXPECT_LE(p.min, p.max) << p.name;
		EXPECT_LT(p.name.size(), static_cast<size_t>(UNO_NAME_MAX)) << p.name;
		n[p.cc]++;
	}
	EXPECT_EQ(n["uno"], 22u); // 21 in uno_params + pacing_pct
	EXPECT_EQ(n["smartt"], 29u); // + min_cwnd_bytes, mode, nscc_net_rtt_us
	EXPECT_EQ(n["swift"], 16u);
	EXPECT_EQ(n["timely"], 12u);
	EXPECT_EQ(cc_names(), (std::vector<std::string>{ "uno", "smartt", "swift", "timely" }));
	EXPECT_EQ(unknown_cc_msg("reno"),
		  "unknown congestion control 'reno' (known: uno, smartt, swift, timely)");
	EXPECT_EQ(find_param("swift", "hops_inter")->apply, Apply::New);
	EXPECT_EQ(find_param("timely", "hai_gradient")->max, 1u);
	EXPECT_EQ(find_param("smartt", "mode")->apply, Apply::New);
	EXPECT_EQ(find_param("smartt", "mode")->max, 1u);
	EXPECT_EQ(find_param("smartt", "min_cwnd_bytes")->min, 0u);
	ASSERT_NE(find_param("uno", "pacing_pct"), nullptr);
	EXPECT_EQ(find_param("uno", "init_cwnd_bdp_pct")->apply, Apply::New);
	EXPECT_EQ(find_param("smartt", "bdp_ref")->apply, Apply::Rebase);
	EXPECT_EQ(find_param("uno", "alpha_ppm")->min, 1u);
}

TEST(Params, AliasesNameRealParameters)
{
	for (const auto &a : param_aliases()) {
		EXPECT_NE(find_param(a.cc, a.raw), nullptr) << a.alias;
		EXPECT_EQ(find_param(a.cc, a.alias), nullptr) << a.alias << " shadows a parameter";
	}
}

TEST(Params, ParseRawAndAlias)
{
	std::string err;
	auto v = parse_param("uno", "alpha", "0.001", err);
	ASSERT_TRUE(v) << err;
	EXPECT_EQ(v->name, "alpha_ppm");
	EXPECT_EQ(v->value, 1000u);

	v = parse_param("uno", "alpha_ppm", "2500", err);
	ASSERT_TRUE(v) << err;
	EXPECT_EQ(v->value, 2500u);

	v = parse_param("smartt", "gamma", "0.5", err);
	ASSERT_TRUE(v) << err;
	EXPECT_EQ(v->name, "md_gamma");
	EXPECT_EQ(v->value, 512u);

	v = parse_param("smartt", "trtt_factor", "0x800", err);
	ASSERT_TRUE(v) << err;
	EXPECT_EQ(v->value, 2048u);

	v = parse_param("smartt", "mode", "1", err);	// NSCC
	ASSERT_TRUE(v) << err;
	EXPECT_EQ(v->value, 1u);
}

struct BadParam {
	const char *cc, *name, *value, *msg;
};

TEST(Params, BadValuesAreRefusedWithAReason)
{
	const BadParam cases[] = {
		{ "uno", "alpha_ppm", "0", "alpha_ppm: value out of range 1..100000" },
		{ "uno", "alpha_ppm", "4294967296", "alpha_ppm: value out of range 1..100000" },
		{ "uno", "alpha_ppm", "-1", "alpha_ppm: '-1' is not an unsigned integer" },
		{ "uno", "alpha_ppm", "0.5", "alpha_ppm: '0.5' is not an unsigned integer" },
		{ "uno", "alpha", "1", "alpha: value out of range" },
		{ "uno", "alpha", "x", "alpha: 'x' is not a number" },
		{ "uno", "alhpa", "1", "'uno' has no parameter 'alhpa'" },
		{ "cubic", "beta", "1", "unknown congestion control 'cubic'" },
		{ "smartt", "trtt_factor", "1000", "trtt_factor: value out of range 1024..16384" },
		{ "smartt", "mode", "2", "mode: value out of range 0..1" },
	};
	for (const auto &c : cases) {
		std::string err;
		EXPECT_FALSE(parse_param(c.cc, c.name, c.value, err)) << c.name << " " << c.value;
		EXPECT_NE(err.find(c.msg), std::string::npos)
			<< "got '" << err << "', want '" << c.msg << "'";
	}
}

// --- configuration -------------------------------------------------------

// The congestion controls of the hosts the tests pretend to run on.
bool TestHasCc(std::string_view name)
{
	return name == "uno" || name == "smartt" || name == "cubic" || name == "dctcp";
}

ConfigResult parse(std::string_view text, std::string_view path = "")
{
	return parse_config(text, path, TestHasCc);
}

constexpr const char *kGood = R"(
[cc]
default = "uno"

[cc.uno]
link_rate_mbps = 1000
alpha = 0.002           # alias: alpha_ppm = 2000
trend_rule = false

[cc.smartt]
trtt_factor = 2048

[[qdisc]]
dev = "eth0"
rate = "1gbit"
limit = "200kb"
ecn-min = "20kb"
ecn-max = 102400        # bytes
phantom-rate = "90%"
phantom-size = 100000
phantom-min = 2000
trim = "off"
burst = 64000

[[qdisc]]
dev = "eth1"
rate = 400000000        # bit/s, as tc
trim = 96
trim-udp = "valid"
xoff = "1mb"            # virtual PFC's X_off
)";

TEST(Config, GoodFile)
{
	auto r = parse(kGood, "uno.toml");
	ASSERT_TRUE(r.errors.empty()) << format_error("uno.toml", r.errors[0]);
	const Config &c = *r.config;
	EXPECT_EQ(c.default_cc, "uno");
	EXPECT_EQ(c.params.at("uno").at("link_rate_mbps"), 1000u);
	EXPECT_EQ(c.params.at("uno").at("alpha_ppm"), 2000u);
	EXPECT_EQ(c.params.at("uno").at("trend_rule"), 0u);
	EXPECT_EQ(c.params.at("smartt").at("trtt_factor"), 2048u);
	ASSERT_EQ(c.qdiscs.size(), 2u);
	const PhantomOpts &o = c.qdiscs[0].opts;
	EXPECT_EQ(c.qdiscs[0].dev, "eth0");
	EXPECT_EQ(o.rate, 125000000u);
	EXPECT_EQ(o.limit, 204800u);
	EXPECT_EQ(o.ecn_min, 20480u);
	EXPECT_EQ(o.ecn_max, 102400u);
	EXPECT_EQ(o.pq_rate, 900000u);
	EXPECT_EQ(o.pq_size, 100000u);
	EXPECT_EQ(o.pq_min, 2000u);
	EXPECT_EQ(o.trim, 0u);
	EXPECT_EQ(o.burst, 64000u);
	EXPECT_FALSE(o.trim_dscp);
	EXPECT_FALSE(o.trim_valid);
	EXPECT_EQ(c.qdiscs[1].opts.rate, 50000000u);
	EXPECT_EQ(c.qdiscs[1].opts.trim, 96u);
	EXPECT_EQ(c.qdiscs[1].opts.trim_valid, true);
	EXPECT_EQ(c.qdiscs[1].opts.xoff, 1048576u);
	EXPECT_FALSE(o.xoff);
}

TEST(Config, EmptyFileIsValid)
{
	auto r = parse("# nothing\n");
	ASSERT_TRUE(r.config);
	EXPECT_TRUE(plan_config(nullptr, *r.config).empty());
}

struct BadFile {
	const char *name;
	const char *text;
	unsigned line;
	const char *msg;
};

// Each broken file, the line its first error is on and what it says.
const BadFile kBadFiles[] = {
	{ "syntax", "[cc]\ndefault = \n", 2, "" },
	{ "unclosed table", "[cc\n", 1, "" },
	{ "duplicate key", "[cc.uno]\nalpha_ppm = 1\nalpha_ppm = 2\n", 3, "" },
	{ "unknown section", "[ccc]\n", 1, "unknown section 'ccc'" },
	{ "unknown cc", "[cc.cubic]\nbeta = 1\n", 1, "unknown congestion control 'cubic'" },
	{ "unknown param", "[cc.uno]\nalhpa = 0.1\n", 2, "'uno' has no parameter 'alhpa'" },
	{ "out of range", "[cc.uno]\n\nalpha_ppm = 0\n", 3, "value out of range 1..100000" },
	{ "alias out of range", "[cc.uno]\nalpha = 0.5\n", 2, "alpha: value out of range" },
	{ "float for raw", "[cc.smartt]\nmd_gamma = 0.8\n", 2, "md_gamma takes an integer" },
	{ "string value", "[cc.uno]\nalpha_ppm = \"1000\"\n", 2, "expected a number" },
	{ "same param twice", "[cc.uno]\nalpha_ppm = 1000\nalpha = 0.001\n", 3, "set twice" },
	{ "bad default", "[cc]\ndefault = 3\n", 2, "cc.default: expected the name" },
	{ "default too long", "[cc]\ndefault = \"abcdefghijklmnopq\"\n", 2, "cc.default" },
	{ "no such cc", "[cc]\ndefault = \"nope\"\n", 2, "no congestion control 'nope' on this host" },
	{ "cc key", "[cc]\nfoo = 1\n", 2, "cc.foo: unknown key" },
	{ "qdisc not array", "[qdisc]\ndev = \"eth0\"\n", 1, "expected [[qdisc]] tables" },
	{ "qdisc dev twice", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\n[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\n", 4,
	  "[[qdisc]]: dev 'e' is listed twice" },
	{ "qdisc no dev", "[[qdisc]]\nrate = \"1gbit\"\n", 1, "'dev' is required" },
	{ "qdisc no rate", "[[qdisc]]\ndev = \"eth0\"\n", 1, "'rate' is required" },
	{ "int not bool", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\nint = \"on\"\n", 4,
	  "qdisc.int: expected true or false" },
	{ "int at a rate without code", "[[qdisc]]\ndev = \"e\"\nrate = \"200mbit\"\nint = true\n", 4,
	  "qdisc.int: an INT record cannot carry this rate" },
	{ "int on ndt", "[[qdisc]]\ndev = \"e\"\nkind = \"ndt\"\nrate = \"1gbit\"\nint = true\n", 5,
	  "qdisc.int: an option of phantom, not of ndt" },
	{ "mlcc no cgroup", "[mlcc]\nremote = \"10.0.0.0/8\"\n", 1, "[mlcc]: 'cgroup' is required" },
	{ "mlcc relative cgroup", "[mlcc]\ncgroup = \"cg\"\n", 2, "mlcc.cgroup: expected the absolute path" },
	{ "mlcc host bits", "[mlcc]\ncgroup = \"/c\"\nremote = \"10.0.0.1/8\"\n", 3,
	  "mlcc.remote: expected an IPv4 prefix" },
	{ "mlcc rtt 0", "[mlcc]\ncgroup = \"/c\"\nrtt-d-us = 0\n", 3, "mlcc.rtt-d-us: expected an integer, 1..134217" },
	{ "mlcc rtt too long", "[mlcc]\ncgroup = \"/c\"\nrtt-d-us = 134218\n", 3, "mlcc.rtt-d-us" },
	{ "mlcc key", "[mlcc]\ncgroup = \"/c\"\ndev = \"eth0\"\n", 3, "mlcc.dev: unknown option" },
	{ "mlcc hpcc rate 0", "[mlcc]\ncgroup = \"/c\"\nhpcc-line-mbps = 0\n", 3,
	  "mlcc.hpcc-line-mbps: expected an integer, 1..549755" },
	{ "mlcc hpcc rate", "[mlcc]\ncgroup = \"/c\"\nhpcc-line-mbps = 549756\n", 3,
	  "mlcc.hpcc-line-mbps: expected an integer, 1..549755" },
	{ "mlcc not a table", "mlcc = 1\n", 1, "mlcc: expected a table, [mlcc]" },
	{ "mlcc empty", "[mlcc]\n", 1, "[mlcc]: 'cgroup' is required" },
	{ "mlcc role not a table", "[mlcc]\ndci = 1\n", 2, "mlcc.dci: expected a table, [mlcc.dci]" },
	{ "mlcc dci no wan", "[mlcc.dci]\nlan = \"down0\"\n", 1,
	  "[mlcc.dci]: dci: at least one WAN port (wan) is required" },
	{ "mlcc dci lan is wan", "[mlcc.dci]\nlan = \"a\"\nwan = [\"a\"]\n", 1,
	  "[mlcc.dci]: dci: a is both its LAN port and a WAN port" },
	{ "mlcc dci key", "[mlcc.dci]\nlan = \"a\"\nwan = [\"b\"]\ndev = \"c\"\n", 4,
	  "mlcc.dci.dev: unknown option" },
	{ "mlcc dci addr", "[mlcc.dci]\nlan = \"a\"\nwan = [\"b\"]\naddr = \"10.0.0\"\n", 4,
	  "mlcc.dci.addr: expected an IPv4 address" },
	{ "mlcc sender no dcis", "[mlcc.sender]\ndev = \"e\"\nline-mbps = 1\nrtt-ns-us = 1\n", 1,
	  "[mlcc.sender]: sender: at least one DCI address (dci) is required" },
	{ "mlcc sender no rate", "[mlcc.sender]\ndev = \"e\"\ndcis = [\"10.0.0.1\"]\nrtt-ns-us = 1\n", 1,
	  "[mlcc.sender]: sender: line rate out of 1 to 549755 Mbit/s" },
	{ "mlcc sender rate", "[mlcc.sender]\nline-mbps = 549756\n", 2,
	  "mlcc.sender.line-mbps: expected an integer, 1..549755" },
	{ "mlcc sender rtt", "[mlcc.sender]\nrtt-ns-us = 0\n", 2,
	  "mlcc.sender.rtt-ns-us: expected an integer, 1..134217" },
	{ "mlcc sender dci", "[mlcc.sender]\ndcis = [\"x\"]\n", 2,
	  "mlcc.sender.dcis: expected an IPv4 address" },
	{ "mlcc credit rate", "[mlcc]\ncgroup = \"/c\"\ncredit-line-mbps = 0\n", 3,
	  "mlcc.credit-line-mbps: expected an integer, 1..68719" },
	{ "mlcc credit no rtt-c", "[mlcc]\ncgroup = \"/c\"\ncredit-line-mbps = 50\n", 1,
	  "[mlcc]: rtt-c-us must be rtt-d-us to 1073741 us" },
	{ "mlcc credit theta", "[mlcc]\ncgroup = \"/c\"\ntheta-us = 0\n", 3,
	  "mlcc.theta-us: expected an integer, 1..536870" },
	{ "mlcc credit dt above theta",
	  "[mlcc]\ncgroup = \"/c\"\ncredit-line-mbps = 50\nrtt-c-us = 20000\ntheta-us = 100\n"
	  "dt-us = 200\n",
	  1, "[mlcc]: theta-us must be 1 to 536870 us, and dt-us at most theta-us" },
	{ "mlcc dcir no rate", "[mlcc.dcir]\nlan = \"down0\"\n", 1,
	  "[mlcc.dcir]: dcir: line rate (R_init) out of 1 to 68719 Mbit/s" },
	{ "mlcc dcir wan", "[mlcc.dcir]\nlan = \"a\"\nline-mbps = 50\nwan = [\"b\"]\n", 4,
	  "mlcc.dcir.wan: unknown option" },
	{ "bad rate", "[[qdisc]]\ndev = \"eth0\"\nrate = \"fast\"\n", 3, "qdisc.rate: expected a rate" },
	{ "zero rate", "[[qdisc]]\ndev = \"eth0\"\nrate = \"0bit\"\n", 3, "qdisc.rate" },
	{ "bad size", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\nlimit = \"lots\"\n", 4,
	  "qdisc.limit: expected a size" },
	{ "negative size", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\nburst = -1\n", 4,
	  "qdisc.burst" },
	{ "threshold in percent", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\necn-min = \"10%\"\n", 4,
	  "qdisc.ecn-min: expected a size" },
	{ "bad percent", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\nphantom-rate = 0.9\n", 4,
	  "expected a percentage" },
	{ "bad trim", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\ntrim = \"on\"\n", 4, "qdisc.trim" },
	{ "bad dscp", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\ntrim-dscp = 64\n", 4,
	  "expected a DSCP" },
	{ "bad xoff", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\nxoff = true\n", 4,
	  "qdisc.xoff: expected a size" },
	{ "xoff in ndt", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nxoff = 1000\n", 5,
	  "qdisc.xoff: an option of phantom, not of ndt" },
	{ "bad trim-udp", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\ntrim-udp = true\n", 4,
	  "qdisc.trim-udp: expected \"valid\" or \"stale\"" },
	{ "unknown option", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\necn_min = \"1%\"\n", 4,
	  "qdisc.ecn_min: unknown option" },
	{ "dev twice", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\n[[qdisc]]\ndev = \"e\"\nrate = \"1mbit\"\n",
	  4, "listed twice" },
	{ "long dev", "[[qdisc]]\ndev = \"abcdefghijklmnopq\"\nrate = \"1gbit\"\n", 2,
	  "expected an interface name" },
	// [[qdisc]] kind = "ndt"
	{ "bad kind", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\nkind = \"red\"\n", 4,
	  "qdisc.kind: expected \"phantom\" or \"ndt\"" },
	{ "kind not a string", "[[qdisc]]\nkind = 1\ndev = \"e\"\nrate = \"1gbit\"\n", 2,
	  "qdisc.kind: expected \"phantom\" or \"ndt\"" },
	{ "ndt no rate", "[[qdisc]]\ndev = \"e\"\nkind = \"ndt\"\n", 1, "[[qdisc]]: 'rate' is required" },
	{ "ndt bad rate", "[[qdisc]]\ndev = \"e\"\nkind = \"ndt\"\nrate = 0\n", 4,
	  "qdisc.rate: expected a rate" },
	{ "phantom option in ndt", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\necn-min = 100\nkind = \"ndt\"\n",
	  4, "qdisc.ecn-min: an option of phantom, not of ndt" },
	{ "ndt option in phantom", "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\ndst-thresh = \"10us\"\n", 4,
	  "qdisc.dst-thresh: an option of ndt, not of phantom (kind = \"ndt\" for ndt)" },
	{ "ndt option, kind phantom", "[[qdisc]]\nkind = \"phantom\"\ndev = \"e\"\nrate = \"1gbit\"\nflows = 5\n",
	  5, "qdisc.flows: an option of ndt, not of phantom" },
	{ "ndt unknown", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nalfa = 0.7\n", 5,
	  "qdisc.alfa: unknown option" },
	{ "alpha above 1", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nalpha = 1.5\n", 5,
	  "qdisc.alpha: expected a fraction, 0..1, such as 0.7 or \"70%\"" },
	{ "alpha above 100%", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nalpha = \"101%\"\n",
	  5, "qdisc.alpha: expected a fraction" },
	{ "alpha 70", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nalpha = \"70\"\n", 5,
	  "qdisc.alpha: expected a fraction" },
	{ "alpha negative", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nalpha = -0.1\n", 5,
	  "qdisc.alpha: expected a fraction" },
	{ "alpha word", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nalpha = \"most\"\n", 5,
	  "qdisc.alpha: expected a fraction" },
	{ "n-throttle 0", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nn-throttle = 0\n", 5,
	  "qdisc.n-throttle: expected an integer, 1..4294967295" },
	{ "n-throttle float", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nn-throttle = 8.5\n",
	  5, "qdisc.n-throttle: expected an integer, 1..4294967295" },
	{ "maxpause 0", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nmaxpause = \"0us\"\n", 5,
	  "qdisc.maxpause: expected a time above 0 up to an hour, such as \"10us\" or \"1.5ms\" (an integer: ns)" },
	{ "active 0", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nactive = 0\n", 5,
	  "qdisc.active: expected a time above 0" },
	{ "maxpause over an hour",
	  "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nmaxpause = \"7200s\"\n", 5,
	  "qdisc.maxpause: expected a time above 0 up to an hour" },
	{ "limit below a GSO packet",
	  "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nlimit = 60000\n", 5,
	  "qdisc.limit: expected a size in bytes (or with a unit: \"64kb\", \"1mb\"), at least 65536" },
	{ "time unit", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\ndst-thresh = \"10m\"\n", 5,
	  "qdisc.dst-thresh: expected a time up to an hour, such as \"10us\" or \"1.5ms\" (an integer: ns)" },
	{ "time space", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nrearm = \"10 us\"\n", 5,
	  "qdisc.rearm: expected a time" },
	{ "negative time", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nidle-gc = -1\n", 5,
	  "qdisc.idle-gc: expected a time" },
	{ "time float", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nrearm = 1.5\n", 5,
	  "qdisc.rearm: expected a time" },
	{ "idle-gc below active", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nidle-gc = \"50us\"\n",
	  5, "qdisc.idle-gc: 50us is below active (100us)" },
	{ "active above idle-gc", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nactive = \"20ms\"\n",
	  5, "qdisc.active: 20ms is above idle-gc (10ms, its default)" },
	{ "both given", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nidle-gc = \"1ms\"\nactive = \"2ms\"\n",
	  5, "qdisc.idle-gc: 1ms is below active (2ms)" },
	{ "flows 0", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nflows = 0\n", 5,
	  "qdisc.flows: expected an integer, 1..1048576" },
	{ "flows above max", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nflows = 1048577\n", 5,
	  "qdisc.flows: expected an integer, 1..1048576" },
	{ "burst above max", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nburst = \"65mb\"\n", 5,
	  "qdisc.burst: expected a size in bytes (or with a unit: \"64kb\", \"1mb\"), at most 67108864" },
	{ "ndt bad limit", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\nlimit = \"5gb\"\n", 5,
	  "qdisc.limit: expected a size in bytes (or with a unit: \"64kb\", \"1mb\")" },
	{ "ndt dev twice", "[[qdisc]]\nkind = \"ndt\"\ndev = \"e\"\nrate = \"1gbit\"\n"
			   "[[qdisc]]\ndev = \"e\"\nrate = \"1gbit\"\n", 5, "[[qdisc]]: dev 'e' is listed twice" },
	// [[lb]]
	{ "no dev", "[[lb]]\nports = [1]\n", 1, "[[lb]]: 'dev' is required" },
	{ "no ports", "[[lb]]\ndev = \"e\"\n", 1, "[[lb]]: 'ports' or 'tcp-ports' is required" },
	{ "tcp mode", "[[lb]]\ndev = \"e\"\ntcp-ports = [5]\ntcp-mode = \"fast\"\n", 4,
	  "lb.tcp-mode: expected one of ecmp, spray, spray_rr, arcane, flowlet, plb, passthru" },
	{ "empty ports", "[[lb]]\ndev = \"e\"\nports = []\n", 3, "lb.ports: expected a list" },
	{ "tcp port 0", "[[lb]]\ndev = \"e\"\ntcp-ports = [0]\n", 3,
	  "lb.tcp-ports: expected a port, 1..65535" },
	{ "port 0", "[[lb]]\ndev = \"e\"\nports = [0]\n", 3, "lb.ports: expected a port, 1..65535" },
	{ "port twice", "[[lb]]\ndev = \"e\"\nports = [5, 5]\n", 3, "lb.ports: a port is listed twice" },
	{ "bad mode", "[[lb]]\ndev = \"e\"\nports = [5]\nmode = \"reps\"\n", 4,
	  "lb.mode: expected one of ecmp, spray, spray_rr, arcane, flowlet, plb, passthru" },
	{ "num-ev 0", "[[lb]]\ndev = \"e\"\nports = [5]\nnum-ev = 0\n", 4,
	  "lb.num-ev: expected an integer, 1..4096" },
	{ "cache 17", "[[lb]]\ndev = \"e\"\nports = [5]\ncache-size = 17\n", 4,
	  "lb.cache-size: expected an integer, 1..16" },
	{ "thresh 257", "[[lb]]\ndev = \"e\"\nports = [5]\nplb-cong-thresh = 257\n", 4,
	  "lb.plb-cong-thresh: expected an integer, 0..256" },
	{ "ports past 65535", "[[lb]]\ndev = \"e\"\nports = [5]\nev-base = 65000\nnum-ev = 1000\n",
	  1, "[[lb]]: ev-base + num-ev passes port 65535" },
	{ "unknown key", "[[lb]]\ndev = \"e\"\nports = [5]\nnumev = 3\n", 4,
	  "lb.numev: unknown option" },
	{ "dev twice", "[[lb]]\ndev = \"e\"\nports = [5]\n[[lb]]\ndev = \"e\"\nports = [6]\n",
	  4, "[[lb]]: dev 'e' is listed twice" },
	{ "not a table", "lb = 3\n", 1, "lb: expected [[lb]] tables" },
	// [reflex.ROLE]
	{ "reflex not a table", "reflex = 3\n", 1, "reflex: expected a table" },
	{ "reflex role", "[reflex.router]\nk = 1\n", 1, "reflex.router: expected [reflex.stamp]" },
	{ "stamp no devs", "[reflex.stamp]\nk = 13\n", 1, "[reflex.stamp]: stamp: a device is required" },
	{ "stamp dev twice", "[reflex.stamp]\ndevs = [\"a\", \"a\"]\n", 2,
	  "reflex.stamp.devs: 'a' is listed twice" },
	{ "stamp port", "[reflex.stamp]\ndevs = [\"a\"]\nport = 1\n", 3,
	  "reflex.stamp.port: unknown option" },
	{ "k 49", "[reflex.host]\ndev = \"e\"\ngateways = [\"10.0.0.1\"]\nk = 49\n", 4,
	  "reflex.host.k: expected an integer, 0..48" },
	{ "host no gateway", "[reflex.host]\ndev = \"e\"\n", 1,
	  "[reflex.host]: host: at least one gateway address" },
	{ "bad gateway", "[reflex.host]\ndev = \"e\"\ngateways = [\"10.0.0\"]\n", 3,
	  "reflex.host.gateways: expected an IPv4 address" },
	{ "gateway no wan", "[reflex.gateway]\nlan = \"d\"\n", 1,
	  "[reflex.gateway]: gateway: at least one WAN device" },
	{ "n-cool 0", "[reflex.gateway]\nlan = \"d\"\nwan = [\"w\"]\nn-cool = 0\n", 4,
	  "reflex.gateway.n-cool: expected an integer, 1..255" },
	{ "cool-unit", "[reflex.gateway]\nlan = \"d\"\nwan = [\"w\"]\ncool-unit = \"ack\"\n", 4,
	  "reflex.gateway.cool-unit: expected \"pack\" or \"packet\"" },
	{ "negative thresh", "[reflex.gateway]\nlan = \"d\"\nwan = [\"w\"]\nt-src-thresh-ns = -1\n",
	  4, "reflex.gateway.t-src-thresh-ns: expected an integer" },
	{ "emit 1", "[reflex.gateway]\nlan = \"d\"\nwan = [\"w\"]\nemit = 1\n", 4,
	  "reflex.gateway.emit: expected true or false" },
	{ "host bits", "[reflex.gateway]\nlan = \"d\"\nwan = [\"w\"]\nprefixes = [\"10.1.2.3/16\"]\n",
	  4, "reflex.gateway.prefixes: expected an IPv4 prefix, A.B.C.D/LEN without host bits" },
	{ "prefix /33", "[reflex.gateway]\nlan = \"d\"\nwan = [\"w\"]\nprefixes = [\"10.0.0.0/33\"]\n",
	  4, "reflex.gateway.prefixes: expected an IPv4 prefix" },
	{ "host prefixes", "[reflex.host]\ndev = \"e\"\ngateways = [\"10.0.0.1\"]\nprefixes = [\"10.0.0.0/8\"]\n",
	  4, "reflex.host.prefixes: unknown option" },
};

TEST(Config, BrokenFiles)
{
	for (const auto &b : kBadFiles) {
		auto r = parse(b.text, "bad.toml");
		EXPECT_FALSE(r.config) << b.name;
		ASSERT_FALSE(r.errors.empty()) << b.name;
		EXPECT_EQ(r.errors[0].line, b.line) << b.name << ": " << r.errors[0].msg;
		EXPECT_NE(r.errors[0].msg.find(b.msg), std::string::npos)
			<< b.name << ": got '" << r.errors[0].msg << "', want '" << b.msg << "'";
		std::string line = format_error("bad.toml", r.errors[0]);
		EXPECT_EQ(line.rfind("bad.toml:" + std::to_string(b.line) + ":", 0), 0u) << line;
	}
}

TEST(Config, EveryErrorIsReported)
{
	auto r = parse("[cc.uno]\nalpha_ppm = 0\nfoo = 1\n[bar]\n");
	ASSERT_EQ(r.errors.size(), 3u);
	EXPECT_EQ(r.errors[0].line, 2u);
	EXPECT_EQ(r.errors[1].line, 3u);
	EXPECT_EQ(r.errors[2].line, 4u);
}

TEST(Config, MissingFile)
{
	auto r = load_config("/nonexistent/uno.toml");
	ASSERT_EQ(r.errors.size(), 1u);
	EXPECT_EQ(format_error("/nonexistent/uno.toml", r.errors[0]),
		  "/nonexistent/uno.toml: cannot read: No such file or directory");
}

TEST(Config, DirectoryIsNotAFile)
{
	auto r = load_config("/tmp");
	ASSERT_EQ(r.errors.size(), 1u);
	EXPECT_FALSE(r.config);
	EXPECT_EQ(format_error("/tmp", r.errors[0]), "/tmp: cannot read: Is a directory");
}

// Every Linux has cubic built in; nothing is called "nope".
TEST(Config, HostHasCc)
{
	if (!std::ifstream("/proc/sys/net/ipv4/tcp_available_congestion_control"))
		GTEST_SKIP() << "no /proc/sys/net/ipv4 here";
	EXPECT_TRUE(host_has_cc("cubic"));
	EXPECT_FALSE(host_has_cc("nope"));
}

TEST(Config, PlanAppliesOnlyWhatChanged)
{
	Config a = *parse(kGood).config;
	ConfigPlan first = plan_config(nullptr, a);
	EXPECT_EQ(first.default_cc, "uno");
	EXPECT_EQ(first.params.size(), 4u);
	EXPECT_EQ(first.qdisc_replace.size(), 2u);
	EXPECT_TRUE(plan_config(&a, a).empty());

	Config b = a;
	b.default_cc = "smartt";
	b.params["uno"]["alpha_ppm"] = 3000;
	b.qdiscs[0].opts.rate = 1000;
	b.qdiscs.pop_back();
	ConfigPlan p = plan_config(&a, b);
	EXPECT_EQ(p.default_cc, "smartt");
	ASSERT_EQ(p.params.size(), 1u);
	EXPECT_EQ(p.params[0], (ConfigPlan::ParamSet{ "uno", "alpha_ppm", 3000 }));
	ASSERT_EQ(p.qdisc_replace.size(), 1u);
	EXPECT_EQ(p.qdisc_replace[0].dev, "eth0");
	ASSERT_EQ(p.qdisc_delete.size(), 1u);
	EXPECT_EQ(p.qdisc_delete[0], "eth1");

	// A parameter dropped from the file keeps its value: nothing to do.
	Config c = a;
	c.params.erase("smartt");
	EXPECT_TRUE(plan_config(&a, c).empty());
}

// --- [[qdisc]] kind = "ndt": Reflex's NDT ---------------------------------

constexpr const char *kNdt = R"(
[[qdisc]]
dev = "gw0"
kind = "ndt"
rate = "100mbit"
limit = "64mb"
burst = 3000
dst-thresh = "1ms"      # reflex.md 5.3, dilated 100 times
alpha = 0.7
n-throttle = 8
maxpause = "50ms"
rearm = 1000000         # ns
active = "10ms"
idle-gc = "1s"
flows = 65536

[[qdisc]]
kind = "ndt"
dev = "gw1"
rate = 800000000        # bit/s, as tc
alpha = "70%"
burst = "64mb"          # TC_NDT_BURST_MAX
flows = 1048576         # TC_NDT_FLOWS_MAX
active = "10ms"
idle-gc = "10ms"        # = active
n-throttle = 1

[[qdisc]]
dev = "gw2"
kind = "ndt"
rate = "1gbit"
alpha = 1
maxpause = "1ns"
dst-thresh = "2.5us"

[[qdisc]]
dev = "eth0"
kind = "phantom"
rate = "1gbit"
ecn-min = "20kb"
)";

// kNdt's first table, as the wire has it.
NdtOpts ndt_opts()
{
	NdtOpts o;
	o.rate = 12500000;
	o.limit = 64 << 20;
	o.burst = 3000;
	o.dst_thresh = 1000000;
	o.alpha = 700000;
	o.n_throttle = 8;
	o.maxpause = 50000000;
	o.rearm = 1000000;
	o.active = 10000000;
	o.idle_gc = 1000000000;
	o.flows = 65536;
	return o;
}

TEST(ConfigNdt, EveryKey)
{
	auto r = parse(kNdt);
	ASSERT_TRUE(r.errors.empty()) << format_error("", r.errors[0]);
	ASSERT_EQ(r.config->qdiscs.size(), 4u);
	const QdiscConf &a = r.config->qdiscs[0];
	EXPECT_EQ(a.dev, "gw0");
	EXPECT_EQ(a.kind, "ndt");
	EXPECT_EQ(a.opts, PhantomOpts{});
	EXPECT_EQ(a.ndt, ndt_opts());

	// Only what the file gives: the kernel has the defaults.
	const NdtOpts &b = r.config->qdiscs[1].ndt;
	EXPECT_EQ(b.rate, 100000000u);
	EXPECT_EQ(b.alpha, 700000u);
	EXPECT_EQ(b.burst, TC_NDT_BURST_MAX);
	EXPECT_EQ(b.flows, TC_NDT_FLOWS_MAX);
	EXPECT_EQ(b.active, 10000000u);
	EXPECT_EQ(b.idle_gc, 10000000u);
	EXPECT_EQ(b.n_throttle, 1u);
	EXPECT_FALSE(b.limit || b.dst_thresh || b.maxpause || b.rearm);

	const NdtOpts &c = r.config->qdiscs[2].ndt;
	EXPECT_EQ(c.alpha, static_cast<uint32_t>(TC_NDT_ONE));
	EXPECT_EQ(c.maxpause, 1u);
	EXPECT_EQ(c.dst_thresh, 2500u);

	const QdiscConf &d = r.config->qdiscs[3];
	EXPECT_EQ(d.kind, "phantom");
	EXPECT_EQ(d.opts.ecn_min, 20480u);
	EXPECT_EQ(d.ndt, NdtOpts{});
}

// Without kind, an entry is phantom's, as every file before ndt.
TEST(ConfigNdt, PhantomByDefault)
{
	const Config c = *parse(kGood).config;
	for (const auto &q : c.qdiscs) {
		EXPECT_EQ(q.kind, "phantom");
		EXPECT_EQ(q.ndt, NdtOpts{});
	}
}

// The whole message of each kind of refusal, where it points, and that
// nothing of the file is kept.
TEST(ConfigNdt, Refusals)
{
	auto r = parse("[cc]\ndefault = \"uno\"\n\n[[qdisc]]\ndev = \"gw0\"\nkind = \"ndt\"\n"
		       "rate = \"1gbit\"\nphantom-rate = \"90%\"\nalpha = 2\nidle-gc = \"1us\"\n",
		       "uno.toml");
	EXPECT_FALSE(r.config);
	ASSERT_EQ(r.errors.size(), 2u);
	EXPECT_EQ(format_error("uno.toml", r.errors[0]),
		  "uno.toml:8:16: qdisc.phantom-rate: an option of phantom, not of ndt");
	EXPECT_EQ(format_error("uno.toml", r.errors[1]),
		  "uno.toml:9:9: qdisc.alpha: expected a fraction, 0..1, such as 0.7 or \"70%\"");

	// idle-gc against active is checked once each is good.
	r = parse("[[qdisc]]\ndev = \"gw0\"\nkind = \"ndt\"\nrate = \"1gbit\"\nidle-gc = \"1us\"\n",
		  "uno.toml");
	ASSERT_EQ(r.errors.size(), 1u);
	EXPECT_EQ(format_error("uno.toml", r.errors[0]),
		  "uno.toml:5:11: qdisc.idle-gc: 1us is below active (100us)");
}

// The example's ndt table, uncommented, is valid and writes out the
// defaults of the law (reflex_core.h) and of the uapi.
TEST(ConfigNdt, ShippedExampleHasTheDefaults)
{
	std::ifstream in(UNO_TOML_EXAMPLE);
	std::string line, table;
	bool in_ndt = false;
	while (std::getline(in, line)) {
		if (line.starts_with("# Reflex's Near-Destination"))
			in_ndt = true;
		else if (in_ndt && !line.starts_with("# "))
			break;
		else if (in_ndt && (line.starts_with("# [[") || line.find(" = ") != std::string::npos))
			table += line.substr(2) + "\n"; // a line of the table, not of prose
	}
	auto r = parse(table, "example");
	ASSERT_TRUE(r.config) << format_error("example", r.errors[0]);
	ASSERT_EQ(r.config->qdiscs.size(), 1u);
	const NdtOpts &o = r.config->qdiscs[0].ndt;
	EXPECT_EQ(r.config->qdiscs[0].kind, "ndt");
	EXPECT_EQ(o.dst_thresh, NDT_DEF_T_DST_THRESH_NS);
	EXPECT_EQ(o.alpha, NDT_DEF_ALPHA_PPM);
	EXPECT_EQ(o.n_throttle, NDT_DEF_N_THROTTLE);
	EXPECT_EQ(o.maxpause, NDT_DEF_T_MAXPAUSE_NS);
	EXPECT_EQ(o.rearm, NDT_DEF_T_REARM_NS);
	EXPECT_EQ(o.active, NDT_DEF_T_ACTIVE_NS);
	EXPECT_EQ(o.idle_gc, REFLEX_DEF_T_IDLE_GC_NS);
	EXPECT_EQ(o.limit, 64u << 20); // reflex.md 5.3's gateway ports
	EXPECT_EQ(o.flows, 65536u);
}

TEST(ConfigNdt, PlanReplacesWhatChanged)
{
	const Config a = *parse(kNdt).config;
	EXPECT_EQ(plan_config(nullptr, a).qdisc_replace.size(), 4u);
	EXPECT_TRUE(plan_config(&a, a).empty());

	// A changed option, and a device that changes kind, are replaced.
	Config b = a;
	b.qdiscs[0].ndt.alpha = 500000;
	b.qdiscs[3].kind = "ndt";
	b.qdiscs[3].ndt.rate = b.qdiscs[3].opts.rate;
	b.qdiscs[3].opts = {};
	b.qdiscs.erase(b.qdiscs.begin() + 1);
	ConfigPlan p = plan_config(&a, b);
	ASSERT_EQ(p.qdisc_replace.size(), 2u);
	EXPECT_EQ(p.qdisc_replace[0].dev, "gw0");
	EXPECT_EQ(p.qdisc_replace[1].dev, "eth0");
	EXPECT_EQ(p.qdisc_replace[1].kind, "ndt");
	EXPECT_EQ(p.qdisc_delete, std::vector<std::string>{ "gw1" });
}

// --- [[lb]]: the entropy datapath ----------------------------------------

constexpr const char *kLb = R"(
[[lb]]
dev = "eth0"
ports = [9001, 9000]

[[lb]]
dev = "eth1"
mode = "plb"
ports = [4791]
num-ev = 4096
ev-base = 32768
cache-size = 16
bdp-pkts = 10
flowlet-gap-us = 250
plb-idle-rounds = 0
plb-rehash-rounds = 31
plb-cong-thresh = 256
require-shim = false
tcp-ports = [5201, 80]
tcp-mode = "plb"
)";

TEST(ConfigLb, DefaultsAndEveryKey)
{
	auto r = parse(kLb);
	ASSERT_TRUE(r.errors.empty()) << format_error("", r.errors[0]);
	ASSERT_EQ(r.config->lbs.size(), 2u);
	const LbConf &d = r.config->lbs[0];
	EXPECT_EQ(d.dev, "eth0");
	EXPECT_EQ(d.ports, (std::vector<uint16_t>{ 9000, 9001 }));
	EXPECT_TRUE(d.require_shim);
	EXPECT_EQ(d.cfg.mode, (uint32_t)LB_MODE_ARCANE);
	EXPECT_EQ(d.cfg.num_ev, 256);
	EXPECT_EQ(d.cfg.ev_base, 49152);
	EXPECT_EQ(d.cfg.cache_size, 8);
	EXPECT_EQ(d.cfg.write_shim_ev, 1);
	EXPECT_EQ(d.cfg.bdp_pkts, 40u);
	EXPECT_EQ(d.cfg.flowlet_gap_ns, 1000000u);
	EXPECT_EQ(d.cfg.plb_idle_rounds, 3u);
	EXPECT_EQ(d.cfg.plb_force_rounds, 12u);
	EXPECT_EQ(d.cfg.plb_thresh_256, 128u);
	EXPECT_TRUE(d.tcp_ports.empty());
	EXPECT_EQ(d.tcp_mode, (uint32_t)LB_MODE_FLOWLET);

	const LbConf &e = r.config->lbs[1];
	EXPECT_EQ(e.cfg.mode, (uint32_t)LB_MODE_PLB);
	EXPECT_EQ(e.ports, (std::vector<uint16_t>{ 4791 }));
	EXPECT_FALSE(e.require_shim);
	EXPECT_EQ(e.cfg.num_ev, 4096);
	EXPECT_EQ(e.cfg.ev_base, 32768);
	EXPECT_EQ(e.cfg.cache_size, 16);
	EXPECT_EQ(e.cfg.bdp_pkts, 10u);
	EXPECT_EQ(e.cfg.flowlet_gap_ns, 250000u);
	EXPECT_EQ(e.cfg.plb_idle_rounds, 0u);
	EXPECT_EQ(e.cfg.plb_force_rounds, 31u);
	EXPECT_EQ(e.cfg.plb_thresh_256, 256u);
	EXPECT_EQ(e.tcp_ports, (std::vector<uint16_t>{ 80, 5201 }));
	EXPECT_EQ(e.tcp_mode, (uint32_t)LB_MODE_PLB);
	EXPECT_TRUE(lb_cfg_runs(d.cfg));
	EXPECT_TRUE(lb_cfg_runs(e.cfg));
}

TEST(ConfigLb, ModeNames)
{
	for (uint32_t m = 0; m < __LB_MODE_MAX; m++)
		EXPECT_EQ(lb_mode_of(lb_mode_name(m)), m);
	EXPECT_FALSE(lb_mode_of("Arcane"));
	EXPECT_STREQ(lb_mode_name(__LB_MODE_MAX), "?");
}

TEST(ConfigLb, PlanAttachesAndDetaches)
{
	const Config a = *parse(kLb).config;
	ConfigPlan first = plan_config(nullptr, a);
	ASSERT_EQ(first.lb_attach.size(), 2u);
	EXPECT_TRUE(first.lb_detach.empty());
	EXPECT_TRUE(plan_config(&a, a).empty());

	// A changed mode is an attach in place; a table gone, a detach.
	Config b = a;
	b.lbs[0].cfg.mode = LB_MODE_SPRAY;
	b.lbs.pop_back();
	ConfigPlan p = plan_config(&a, b);
	ASSERT_EQ(p.lb_attach.size(), 1u);
	EXPECT_EQ(p.lb_attach[0].dev, "eth0");
	EXPECT_EQ(p.lb_attach[0].cfg.mode, (uint32_t)LB_MODE_SPRAY);
	EXPECT_EQ(p.lb_detach, std::vector<std::string>{ "eth1" });

	Config c = a;
	c.lbs[1].ports.push_back(4792);
	EXPECT_EQ(plan_config(&a, c).lb_attach.size(), 1u);
	c = a;
	c.lbs[0].tcp_mode = LB_MODE_SPRAY;
	EXPECT_EQ(plan_config(&a, c).lb_attach.size(), 1u);
}

// --- [reflex.ROLE]: Reflex's datapath -------------------------------------

constexpr const char *kReflex = R"(
[reflex.stamp]
devs = ["a1", "a2"]
k = 13

[reflex.gateway]
lan = "down0"
wan = ["wan1", "wan2"]
prefixes = ["10.100.0.0/16", "10.101.1.1/32"]
addr = "10.10.0.254"
k = 13
port = 9798
t-src-thresh-ns = 5000000
t-interval-ns = 1000000
t-idle-gc-ns = 20000000
n-cool = 7
cool-unit = "packet"
emit = false

[reflex.host]
dev = "eth0"
gateways = ["10.10.0.254", "10.10.1.254"]
)";

TEST(ConfigReflex, DefaultsAndEveryKey)
{
	auto r = parse(kReflex);
	ASSERT_TRUE(r.errors.empty()) << format_error("", r.errors[0]);
	ASSERT_EQ(r.config->reflex.size(), 3u);
	const RfxConf &s = r.config->reflex[0];
	EXPECT_EQ(s.role, (uint32_t)RFX_ROLE_STAMP);
	EXPECT_EQ(s.devs, (std::vector<std::string>{ "a1", "a2" }));
	EXPECT_EQ(s.cfg.k, 13);

	const RfxConf &g = r.config->reflex[1];
	EXPECT_EQ(g.role, (uint32_t)RFX_ROLE_GATEWAY);
	EXPECT_EQ(g.devs, std::vector<std::string>{ "down0" });
	EXPECT_EQ(g.wan, (std::vector<std::string>{ "wan1", "wan2" }));
	ASSERT_EQ(g.prefixes.size(), 2u);
	EXPECT_EQ(g.prefixes[0].prefixlen, 16u);
	EXPECT_EQ(g.prefixes[0].addr, htonl(0x0a640000));
	EXPECT_EQ(prefix4_text(g.prefixes[1]), "10.101.1.1/32");
	EXPECT_EQ(g.cfg.lan_addr, htonl(0x0a0a00fe));
	EXPECT_EQ(g.cfg.port, 9798);
	EXPECT_EQ(g.cfg.t_src_thresh_ns, 5000000u);
	EXPECT_EQ(g.cfg.t_interval_ns, 1000000u);
	EXPECT_EQ(g.cfg.t_idle_gc_ns, 20000000u);
	EXPECT_EQ(g.cfg.n_cool, 7u);
	EXPECT_EQ(g.cfg.cool_unit, 1u); // NSF_COOL_PACKET
	EXPECT_EQ(g.cfg.emit, 0);

	// reflex.md 2.2's defaults, k 6 and the port 9797
	const RfxConf &h = r.config->reflex[2];
	EXPECT_EQ(h.role, (uint32_t)RFX_ROLE_HOST);
	EXPECT_EQ(h.devs, std::vector<std::string>{ "eth0" });
	EXPECT_EQ(h.gateways, (std::vector<uint32_t>{ htonl(0x0a0a00fe), htonl(0x0a0a01fe) }));
	EXPECT_EQ(h.cfg.k, 6);
	EXPECT_EQ(h.cfg.port, RFX_DEF_PORT);
	EXPECT_EQ(h.cfg.t_src_thresh_ns, 5000u);
	EXPECT_EQ(h.cfg.t_interval_ns, 5000u);
	EXPECT_EQ(h.cfg.n_cool, 5u);
	EXPECT_EQ(h.cfg.emit, 1);
	EXPECT_EQ(rfx_conf_error(h), "");
}

TEST(ConfigReflex, PlanAttachesAndDetaches)
{
	const Config a = *parse(kReflex).config;
	ConfigPlan first = plan_config(nullptr, a);
	ASSERT_EQ(first.reflex_attach.size(), 3u);
	EXPECT_TRUE(first.reflex_detach.empty());
	EXPECT_TRUE(plan_config(&a, a).empty());

	// A changed setting is an attach in place; a table gone, a detach.
	Config b = a;
	b.reflex[1].cfg.emit = 1;
	b.reflex.pop_back();
	ConfigPlan p = plan_config(&a, b);
	ASSERT_EQ(p.reflex_attach.size(), 1u);
	EXPECT_EQ(p.reflex_attach[0].role, (uint32_t)RFX_ROLE_GATEWAY);
	EXPECT_EQ(p.reflex_attach[0].cfg.emit, 1);
	EXPECT_EQ(p.reflex_detach, std::vector<uint32_t>{ RFX_ROLE_HOST });

	Config c = a;
	c.reflex[0].devs.push_back("a3");
	EXPECT_EQ(plan_config(&a, c).reflex_attach.size(), 1u);
}

// --- [mlcc] and phantom's int: MLCC's INT ----------------------------------

constexpr const char *kMlcc = R"(
[[qdisc]]
dev = "up0"
rate = "50mbit"
int = true

[mlcc]
cgroup = "/sys/fs/cgroup"
remote = "10.200.0.0/16"
rtt-d-us = 240
)";

TEST(ConfigMlcc, EveryKey)
{
	auto r = parse(kMlcc);
	ASSERT_TRUE(r.errors.empty()) << format_error("", r.errors[0]);
	EXPECT_EQ(r.config->qdiscs[0].opts.int_stamp, true);
	ASSERT_TRUE(r.config->mlcc);
	const MlccConf &m = *r.config->mlcc;
	EXPECT_EQ(m.cgroup, "/sys/fs/cgroup");
	EXPECT_EQ(m.cfg.remote_addr, htonl(0x0ac80000));
	EXPECT_EQ(m.cfg.remote_len, 16u);
	EXPECT_EQ(m.cfg.rtt_d_ns, 240000u);
	// defaults: every remote address, 100 us, no HPCC
	r = parse("[mlcc]\ncgroup = \"/c\"\n");
	ASSERT_TRUE(r.config);
	EXPECT_EQ(r.config->mlcc->cfg.remote_len, 0u);
	EXPECT_EQ(r.config->mlcc->cfg.rtt_d_ns, 100000u);
	EXPECT_EQ(r.config->mlcc->cfg.hpcc_line_rate, 0u);
	r = parse("[mlcc]\ncgroup = \"/c\"\nhpcc-line-mbps = 100\n");
	ASSERT_TRUE(r.config) << format_error("", r.errors[0]);
	EXPECT_EQ(r.config->mlcc->cfg.hpcc_line_rate, 12500000u);
	EXPECT_FALSE(r.config->qdiscs.size());
	EXPECT_EQ(r.config->mlcc->cfg.credit_line_rate, 0u);
	// the credit loop, and its theta and D_t at the paper's unless set
	r = parse("[mlcc]\ncgroup = \"/c\"\nrtt-d-us = 2500\ncredit-line-mbps = 50\n"
		  "rtt-c-us = 27000\n");
	ASSERT_TRUE(r.config) << format_error("", r.errors[0]);
	EXPECT_EQ(r.config->mlcc->cfg.credit_line_rate, 6250000u);
	EXPECT_EQ(r.config->mlcc->cfg.rtt_c_ns, 27000000u);
	EXPECT_EQ(r.config->mlcc->cfg.theta_ns, 18000000u);
	EXPECT_EQ(r.config->mlcc->cfg.d_t_ns, 1000000u);
	r = parse("[mlcc]\ncgroup = \"/c\"\nrtt-d-us = 2500\ncredit-line-mbps = 50\n"
		  "rtt-c-us = 27000\ntheta-us = 81000\ndt-us = 4500\n");
	ASSERT_TRUE(r.config) << format_error("", r.errors[0]);
	EXPECT_EQ(r.config->mlcc->cfg.theta_ns, 81000000u);
	EXPECT_EQ(r.config->mlcc->cfg.d_t_ns, 4500000u);
}

TEST(ConfigMlcc, PlanAttachesAndDetaches)
{
	const Config a = *parse(kMlcc).config;
	ConfigPlan first = plan_config(nullptr, a);
	ASSERT_TRUE(first.mlcc_attach);
	EXPECT_EQ(first.mlcc_attach->cgroup, "/sys/fs/cgroup");
	EXPECT_FALSE(first.mlcc_detach);
	EXPECT_TRUE(plan_config(&a, a).empty());

	Config b = a;
	b.mlcc->cfg.rtt_d_ns = 500000;
	ConfigPlan p = plan_config(&a, b);
	ASSERT_TRUE(p.mlcc_attach);
	EXPECT_EQ(p.mlcc_attach->cfg.rtt_d_ns, 500000u);
	EXPECT_FALSE(p.mlcc_detach);
	b = a;
	b.mlcc->cfg.hpcc_line_rate = 12500000;
	p = plan_config(&a, b);
	ASSERT_TRUE(p.mlcc_attach);
	EXPECT_EQ(p.mlcc_attach->cfg.hpcc_line_rate, 12500000u);
	b = a;
	b.mlcc->cfg.d_t_ns = 4500000;
	p = plan_config(&a, b);
	ASSERT_TRUE(p.mlcc_attach);
	EXPECT_EQ(p.mlcc_attach->cfg.d_t_ns, 4500000u);

	Config c = a;
	c.mlcc.reset();
	p = plan_config(&a, c);
	EXPECT_FALSE(p.mlcc_attach);
	EXPECT_TRUE(p.mlcc_detach);
	EXPECT_FALSE(p.empty());
}

constexpr const char *kMlccNs = R"(
[mlcc.dci]
lan = "down0"
wan = ["wan1", "wan2"]
addr = "10.10.0.254"

[mlcc.sender]
dev = "eth0"
dcis = ["10.10.0.254"]
line-mbps = 100
rtt-ns-us = 4500

[mlcc.dcir]
lan = "down0"
line-mbps = 50
)";

TEST(ConfigMlcc, NearSourceRoles)
{
	auto r = parse(kMlccNs);
	ASSERT_TRUE(r.errors.empty()) << format_error("", r.errors[0]);
	EXPECT_FALSE(r.config->mlcc); // roles only: no cgroup program
	ASSERT_EQ(r.config->mlcc_ns.size(), 3u);
	const MlccNsConf &d = r.config->mlcc_ns[0], &h = r.config->mlcc_ns[1];
	const MlccNsConf &q = r.config->mlcc_ns[2];
	EXPECT_EQ(q.role, (uint32_t)MLCC_NS_ROLE_DCI_R);
	EXPECT_EQ(q.dev, "down0");
	EXPECT_EQ(q.cfg.line_rate, 6250000u);
	EXPECT_EQ(d.role, (uint32_t)MLCC_NS_ROLE_DCI);
	EXPECT_EQ(d.dev, "down0");
	EXPECT_EQ(d.wan, (std::vector<std::string>{ "wan1", "wan2" }));
	EXPECT_EQ(d.cfg.lan_addr, htonl(0x0a0a00fe));
	EXPECT_EQ(h.role, (uint32_t)MLCC_NS_ROLE_SENDER);
	EXPECT_EQ(h.dev, "eth0");
	EXPECT_EQ(h.dcis, std::vector<uint32_t>{ htonl(0x0a0a00fe) });
	EXPECT_EQ(h.cfg.line_rate, 12500000u);
	EXPECT_EQ(h.cfg.rtt_ns_ns, 4500000u);
	// beside the cgroup's program
	r = parse(std::string(kMlcc) + kMlccNs);
	ASSERT_TRUE(r.errors.empty()) << format_error("", r.errors[0]);
	EXPECT_TRUE(r.config->mlcc);
	EXPECT_EQ(r.config->mlcc_ns.size(), 3u);
}

TEST(ConfigMlcc, PlanPutsAndTakesOffRoles)
{
	const Config a = *parse(kMlccNs).config;
	ConfigPlan first = plan_config(nullptr, a);
	ASSERT_EQ(first.mlcc_ns_attach.size(), 3u);
	EXPECT_TRUE(first.mlcc_ns_detach.empty());
	EXPECT_FALSE(first.mlcc_attach);
	EXPECT_TRUE(plan_config(&a, a).empty());

	Config b = a;
	b.mlcc_ns[1].cfg.rtt_ns_ns = 1000000;
	ConfigPlan p = plan_config(&a, b);
	ASSERT_EQ(p.mlcc_ns_attach.size(), 1u);
	EXPECT_EQ(p.mlcc_ns_attach[0].role, (uint32_t)MLCC_NS_ROLE_SENDER);
	EXPECT_TRUE(p.mlcc_ns_detach.empty());

	Config c = a;
	c.mlcc_ns.erase(c.mlcc_ns.begin());
	p = plan_config(&a, c);
	EXPECT_TRUE(p.mlcc_ns_attach.empty());
	EXPECT_EQ(p.mlcc_ns_detach, std::vector<uint32_t>{ MLCC_NS_ROLE_DCI });
	c = a;
	c.mlcc_ns[2].cfg.line_rate = 12500000;
	p = plan_config(&a, c);
	ASSERT_EQ(p.mlcc_ns_attach.size(), 1u);
	EXPECT_EQ(p.mlcc_ns_attach[0].role, (uint32_t)MLCC_NS_ROLE_DCI_R);
}

// --- [unorc]: UnoRC's defaults for unorc and unoperf ---------------------

constexpr const char *kUnorc = R"(
[unorc]
code = "8+2"
inter-prefix = ["10.1.0.0/16", "fd00:1::/48"]
payload = 1200
subflows = 4
repath = "copy_good"
shim = "arc1"
rto-us = 5000
link-mbps = 25000
intra-rtt-us = 20
cc = "nscc"
ec-wait-us = 1000
window-bytes = 8388608
max-flows = 1000
trim-dscp = 46
rcvbuf = 8388608
)";

TEST(ConfigUnorc, EveryKey)
{
	auto r = parse(kUnorc, "uno.toml");
	ASSERT_TRUE(r.errors.empty()) << format_error("uno.toml", r.errors[0]);
	const unorc::KnobTexts want = {
		{ "code", { "8+2" } },
		{ "inter-prefix", { "10.1.0.0/16", "fd00:1::/48" } },
		{ "payload", { "1200" } },
		{ "subflows", { "4" } },
		{ "repath", { "copy_good" } },
		{ "shim", { "arc1" } },
		{ "rto-us", { "5000" } },
		{ "link-mbps", { "25000" } },
		{ "intra-rtt-us", { "20" } },
		{ "cc", { "nscc" } },
		{ "ec-wait-us", { "1000" } },
		{ "window-bytes", { "8388608" } },
		{ "max-flows", { "1000" } },
		{ "trim-dscp", { "46" } },
		{ "rcvbuf", { "8388608" } },
	};
	EXPECT_EQ(r.config->unorc, want);
	// Every key [unorc] may hold is above: all but the command line's.
	for (const auto &k : unorc::knobs())
		EXPECT_EQ(want.contains(std::string(k.name)), k.cli_only.empty()) << k.name;
	// Nothing for unod to apply.
	EXPECT_TRUE(plan_config(nullptr, *r.config).empty());
}

TEST(ConfigUnorc, OtherSpellings)
{
	auto r = parse("[unorc]\ncode = \"none\"\ninter-prefix = \"10.0.0.0/8\"\n"
		       "subflows = \"auto\"\ntrim-dscp = \"off\"\n[cc]\ndefault = \"uno\"\n");
	ASSERT_TRUE(r.errors.empty()) << r.errors[0].msg;
	const unorc::KnobTexts want = { { "code", { "none" } },
					{ "inter-prefix", { "10.0.0.0/8" } },
					{ "subflows", { "auto" } },
					{ "trim-dscp", { "off" } } };
	EXPECT_EQ(r.config->unorc, want);
	EXPECT_EQ(r.config->default_cc, "uno");

	r = parse("[unorc]\ninter-prefix = []\ntrim-dscp = \"7\"\nsubflows = 16\n");
	ASSERT_TRUE(r.errors.empty()) << r.errors[0].msg;
	EXPECT_EQ(r.config->unorc, (unorc::KnobTexts{ { "inter-prefix", {} },
						     { "trim-dscp", { "7" } },
						     { "subflows", { "16" } } }));
	// An empty table is no setting.
	r = parse("[unorc]\n");
	ASSERT_TRUE(r.config);
	EXPECT_TRUE(r.config->unorc.empty());
}

struct BadUnorc {
	const char *text; // after "[unorc]\n"
	const char *error; // the first, as unod --check prints it
};

const char *const kKnownKeys = "known: code, inter-prefix, payload, subflows, repath, shim, rto-us, "
			       "link-mbps, intra-rtt-us, cc, ec-wait-us, window-bytes, max-flows, "
			       "trim-dscp, rcvbuf";

// Each broken [unorc], and its first error exactly.
const BadUnorc kBadUnorc[] = {
	{ "rto = 1\n", "bad.toml:2:7: unorc.rto: unknown key (" },
	{ "rto_us = 5000\n",
	  "bad.toml:2:10: unorc.rto_us: unknown key: did you mean rto-us? (keys are unorc's option "
	  "names)" },
	{ "source-port = 4000\n",
	  "bad.toml:2:15: unorc.source-port: a command-line option only (--source-port): each "
	  "sender binds ports of its own" },
	{ "rto-us = \"5000\"\n", "bad.toml:2:10: unorc.rto-us: expected an integer, 20..60000000 us" },
	{ "rto-us = 5e3\n", "bad.toml:2:10: unorc.rto-us: expected an integer, 20..60000000 us" },
	{ "rto-us = 19\n", "bad.toml:2:10: unorc.rto-us: value 19 out of range 20..60000000 us" },
	{ "rto-us = -20\n", "bad.toml:2:10: unorc.rto-us: value -20 out of range 20..60000000 us" },
	{ "ec-wait-us = 60000001\n",
	  "bad.toml:2:14: unorc.ec-wait-us: value 60000001 out of range 20..60000000 us" },
	{ "ec-wait-us = 0\n", "bad.toml:2:14: unorc.ec-wait-us: value 0 out of range 20..60000000 us" },
	{ "payload = 0\n", "bad.toml:2:11: unorc.payload: value 0 out of range 1..65467 bytes" },
	{ "payload = 65468\n", "bad.toml:2:11: unorc.payload: value 65468 out of range 1..65467 bytes" },
	{ "payload = true\n", "bad.toml:2:11: unorc.payload: expected an integer, 1..65467 bytes" },
	{ "code = 8\n", "bad.toml:2:8: unorc.code: expected a string: X+Y, none or auto" },
	{ "code = \"8-2\"\n", "bad.toml:2:8: unorc.code: '8-2': need X+Y (e.g. 8+2), none or auto" },
	{ "code = \"off\"\n", "bad.toml:2:8: unorc.code: 'off': need X+Y (e.g. 8+2), none or auto" },
	{ "code = \"300+2\"\n",
	  "bad.toml:2:8: unorc.code: '300+2': bad code (300, 2): need 1 <= x, 0 <= y, x + y <= 256" },
	{ "code = \"0+2\"\n",
	  "bad.toml:2:8: unorc.code: '0+2': bad code (0, 2): need 1 <= x, 0 <= y, x + y <= 256" },
	{ "inter-prefix = 10\n",
	  "bad.toml:2:16: unorc.inter-prefix: expected a string or an array of strings: CIDR" },
	{ "inter-prefix = [\"10.0.0.0/8\", 5]\n",
	  "bad.toml:2:16: unorc.inter-prefix: expected an array of strings: CIDR" },
	{ "inter-prefix = [\"10.0.0.0/8\",\n  \"10.0.0.0/33\"]\n",
	  "bad.toml:3:3: unorc.inter-prefix: '10.0.0.0/33': prefix length '33' not in 0..32" },
	{ "inter-prefix = \"fd00::/129\"\n",
	  "bad.toml:2:16: unorc.inter-prefix: 'fd00::/129': prefix length '129' not in 0..128" },
	{ "inter-prefix = \"10.0.0.0\"\n",
	  "bad.toml:2:16: unorc.inter-prefix: '10.0.0.0': need ADDR/BITS" },
	{ "inter-prefix = \"dc2/16\"\n",
	  "bad.toml:2:16: unorc.inter-prefix: 'dc2/16': bad address 'dc2'" },
	{ "subflows = 0\n", "bad.toml:2:12: unorc.subflows: '0': expected auto or 1..16" },
	{ "subflows = 17\n", "bad.toml:2:12: unorc.subflows: '17': expected auto or 1..16" },
	{ "subflows = \"many\"\n", "bad.toml:2:12: unorc.subflows: 'many': expected auto or 1..16" },
	{ "subflows = true\n",
	  "bad.toml:2:12: unorc.subflows: expected auto or 1..16 (an integer or \"auto\")" },
	{ "repath = \"sideways\"\n",
	  "bad.toml:2:10: unorc.repath: 'sideways': expected off, redraw or copy_good" },
	{ "repath = false\n",
	  "bad.toml:2:10: unorc.repath: expected a string: off, redraw or copy_good" },
	{ "link-mbps = 0\n", "bad.toml:2:13: unorc.link-mbps: value 0 out of range 1..10000000 Mbit/s" },
	{ "link-mbps = 10000001\n",
	  "bad.toml:2:13: unorc.link-mbps: value 10000001 out of range 1..10000000 Mbit/s" },
	{ "intra-rtt-us = 0\n",
	  "bad.toml:2:16: unorc.intra-rtt-us: value 0 out of range 1..1000000 us" },
	{ "window-bytes = 0\n",
	  "bad.toml:2:16: unorc.window-bytes: value 0 out of range 1..17179869184 bytes" },
	{ "window-bytes = 17179869185\n",
	  "bad.toml:2:16: unorc.window-bytes: value 17179869185 out of range 1..17179869184 bytes" },
	{ "max-flows = 0\n", "bad.toml:2:13: unorc.max-flows: value 0 out of range 1..1048576" },
	{ "max-flows = 1048577\n",
	  "bad.toml:2:13: unorc.max-flows: value 1048577 out of range 1..1048576" },
	{ "trim-dscp = 64\n", "bad.toml:2:13: unorc.trim-dscp: '64': expected off or 0..63" },
	{ "trim-dscp = -1\n", "bad.toml:2:13: unorc.trim-dscp: '-1': expected off or 0..63" },
	{ "trim-dscp = \"on\"\n", "bad.toml:2:13: unorc.trim-dscp: 'on': expected off or 0..63" },
	{ "rcvbuf = -1\n", "bad.toml:2:10: unorc.rcvbuf: value -1 out of range 0..1073741824 bytes" },
	{ "rcvbuf = 1073741825\n",
	  "bad.toml:2:10: unorc.rcvbuf: value 1073741825 out of range 0..1073741824 bytes" },
	{ "rcvbuf = \"4M\"\n", "bad.toml:2:10: unorc.rcvbuf: expected an integer, 0..1073741824 bytes" },
	{ "trim-dscp = 4.5\n",
	  "bad.toml:2:13: unorc.trim-dscp: expected off or 0..63 (an integer or \"off\")" },
	{ "[unorc.code]\nx = 1\n",
	  "bad.toml:2:1: unorc.code: expected a string: X+Y, none or auto" },
	{ "rto-us = 5000\nrto-us = 6000\n",
	  "bad.toml:3:10: Error while parsing key-value pair: cannot redefine existing integer "
	  "'rto-us'" }, // toml++'s words
};

TEST(ConfigUnorc, BrokenTables)
{
	for (const auto &b : kBadUnorc) {
		const std::string text = std::string("[unorc]\n") + b.text;
		auto r = parse(text, "bad.toml");
		EXPECT_FALSE(r.config) << b.text;
		ASSERT_FALSE(r.errors.empty()) << b.text;
		const std::string got = format_error("bad.toml", r.errors[0]);
		if (std::string(b.error).ends_with("unknown key ("))
			EXPECT_EQ(got, b.error + std::string(kKnownKeys) + ")");
		else
			EXPECT_EQ(got, b.error);
	}
}

TEST(ConfigUnorc, NotATable)
{
	auto r = parse("unorc = 5\n", "bad.toml");
	ASSERT_EQ(r.errors.size(), 1u);
	EXPECT_EQ(format_error("bad.toml", r.errors[0]), "bad.toml:1:9: unorc: expected a table, [unorc]");
	r = parse("[[unorc]]\nrto-us = 5000\n", "bad.toml");
	ASSERT_EQ(r.errors.size(), 1u);
	EXPECT_EQ(format_error("bad.toml", r.errors[0]), "bad.toml:1:1: unorc: expected a table, [unorc]");
	r = parse("[unrc]\n", "bad.toml");
	ASSERT_EQ(r.errors.size(), 1u);
	EXPECT_EQ(format_error("bad.toml", r.errors[0]),
		  "bad.toml:1:1: unknown section 'unrc' (expected [cc], [cc.NAME], [[qdisc]], [[lb]], [reflex.ROLE], [mlcc], [mlcc.ROLE] or [unorc])");
}

// Every error of the file, in file order, [unorc] with the others: the
// whole file is refused, unod's reload too.
TEST(ConfigUnorc, EveryErrorWithTheOthers)
{
	auto r = parse("[cc.uno]\nalpha_ppm = 0\n[unorc]\nrto-us = 1\ncode = \"9\"\nrepath = \"off\"\n"
		       "trim-dscp = 99\n",
		       "bad.toml");
	EXPECT_FALSE(r.config);
	std::vector<std::string> got;
	for (const auto &e : r.errors)
		got.push_back(format_error("bad.toml", e));
	EXPECT_EQ(got, (std::vector<std::string>{
			       "bad.toml:2:13: cc.uno.alpha_ppm: value out of range 1..100000",
			       "bad.toml:4:10: unorc.rto-us: value 1 out of range 20..60000000 us",
			       "bad.toml:5:8: unorc.code: '9': need X+Y (e.g. 8+2), none or auto",
			       "bad.toml:7:13: unorc.trim-dscp: '99': expected off or 0..63",
		       }));
}

// A change of [unorc] alone is a new configuration with nothing to apply.
TEST(ConfigUnorc, NothingToApply)
{
	Config a = *parse(std::string(kGood) + kUnorc).config;
	Config b = a;
	b.unorc["rto-us"] = { "6000" };
	EXPECT_NE(a, b);
	EXPECT_TRUE(plan_config(&a, b).empty());
	b.unorc.clear();
	EXPECT_TRUE(plan_config(&a, b).empty());
	const ConfigPlan pa = plan_config(nullptr, a), pb = plan_config(nullptr, b);
	EXPECT_EQ(pa.params, pb.params);
	EXPECT_EQ(pa.qdisc_replace, pb.qdisc_replace);
	EXPECT_EQ(pa.default_cc, pb.default_cc);
}

// The example unod installs: valid as it is, and its [unorc] lines, once
// uncommented, name every key [unorc] takes, with the built-in defaults.
TEST(ConfigUnorc, ShippedExample)
{
	std::ifstream in(UNO_TOML_EXAMPLE);
	std::stringstream ss;
	ss << in.rdbuf();
	const std::string text = ss.str();
	const size_t table = text.find("\n[unorc]\n");
	ASSERT_NE(table, std::string::npos);
	auto r = parse(text, "uno.toml");
	ASSERT_TRUE(r.config) << format_error("uno.toml", r.errors[0]);
	EXPECT_TRUE(r.config->unorc.empty());

	std::istringstream lines(text.substr(table + 1));
	std::string unorc;
	for (std::string line; std::getline(lines, line);) {
		// "# key = value  # comment", not "#   # more comment"
		if (line.starts_with("# ") && line.size() > 2 && std::islower(line[2]))
			line = line.substr(2);
		unorc += line + "\n";
	}
	r = parse(unorc, "unorc.toml");
	ASSERT_TRUE(r.config) << format_error("unorc.toml", r.errors[0]);
	size_t in_config = 0;
	for (const auto &k : unorc::knobs())
		in_config += k.cli_only.empty();
	EXPECT_EQ(r.config->unorc.size(), in_config);
	for (const auto &s : unorc::effective_settings(r.config->unorc)) {
		if (s.knob->name == "inter-prefix")
			continue;
		EXPECT_EQ(s.value, s.builtin) << s.knob->name;
	}
}

// unorc, unoperf and unoctl rc show read the file without applying it:
// the default file only if there is one, cc.default not checked against
// this host.
TEST(ConfigUnorc, ReadingWithoutApplying)
{
	EXPECT_EQ(config_to_read(std::nullopt, "/nonexistent/uno.toml"), std::nullopt);
	EXPECT_EQ(config_to_read(std::string("/nonexistent/x.toml"), "/tmp"), "/nonexistent/x.toml");
	EXPECT_EQ(config_to_read(std::nullopt, "/tmp"), "/tmp"); // read_config() says what is wrong

	char path[] = "/tmp/libuno_test_XXXXXX";
	int fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	const std::string text = "[cc]\ndefault = \"nope\"\n[unorc]\nrto-us = 5000\n";
	ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
	close(fd);
	EXPECT_EQ(config_to_read(std::nullopt, path), path);
	auto r = read_config(path);
	ASSERT_TRUE(r.config);
	EXPECT_EQ(r.config->unorc, (unorc::KnobTexts{ { "rto-us", { "5000" } } }));
	EXPECT_FALSE(load_config(path).config); // unod's: no 'nope' here
	unlink(path);
}

TEST(Units, AsTc)
{
	EXPECT_EQ(parse_rate("1gbit"), 125000000u);
	EXPECT_EQ(parse_rate("500Mbit"), 62500000u);
	EXPECT_EQ(parse_rate("10mbps"), 10000000u);
	EXPECT_EQ(parse_rate("8000"), 1000u);
	EXPECT_FALSE(parse_rate("1 gbit"));
	EXPECT_FALSE(parse_rate("-1gbit"));
	EXPECT_FALSE(parse_rate("gbit"));
	EXPECT_EQ(parse_size("64kb"), 65536u);
	EXPECT_EQ(parse_size("1m"), 1048576u);
	EXPECT_EQ(parse_size("1500"), 1500u);
	EXPECT_FALSE(parse_size("5gb"));
	EXPECT_EQ(parse_percent_ppm("2.5%"), 25000u);
	EXPECT_FALSE(parse_percent_ppm("25"));

	// What iproute2's get_rate64() and get_size() make of them: binary
	// prefixes, the unit in any case, truncation. (Debian's tc 6.1 set
	// these rates as tbf's and sizes as bfifo's limit, and refused 1Mib.)
	EXPECT_EQ(parse_rate("1Mibit"), 131072u);
	EXPECT_EQ(parse_rate("1KiBps"), 1024u);
	EXPECT_EQ(parse_rate("2GBPS"), 2000000000u);
	EXPECT_EQ(parse_rate("1004bit"), 125u);
	EXPECT_FALSE(parse_rate("1Mib"));
	EXPECT_EQ(parse_size("1.6"), 1u);
	EXPECT_EQ(parse_size("1.5KB"), 1536u);
	EXPECT_EQ(parse_size("1kbit"), 128u);
	EXPECT_EQ(parse_size("3.99g"), 4284229877u);
}

// The ndt qdisc's units (ndt_units.h), which its tc plugin parses with
// too: get_time64()'s syntax, rounded to the ns; a fraction or percent.
TEST(Units, NdtTimesAndAlpha)
{
	const struct {
		const char *text;
		uint64_t ns;
	} times[] = {
		{ "10ms", 10000000 }, { "500us", 500000 }, { "1s", 1000000000 }, { "250ns", 250 },
		{ "250", 250 },	      { "1.5ms", 1500000 }, { "0.29us", 290 },   { "2USEC", 2000 },
		{ "3secs", 3000000000 }, { "1e3us", 1000000 }, { "0", 0 },	   { "0.4ns", 0 },
		{ "18446744073709549568", UINT64_MAX - 2047 }, // the largest double below 2^64
	};
	for (const auto &t : times) {
		uint64_t ns = 1;
		EXPECT_EQ(ndt_time_ns(t.text, &ns), 0) << t.text;
		EXPECT_EQ(ns, t.ns) << t.text;
	}
	for (const char *bad : { "", "ms", "-1us", "10 us", "10m", "1min", "1e20s", "inf", "nan",
				 "18446744073709551615" /* 2^64 as a double */ }) {
		uint64_t ns;
		EXPECT_NE(ndt_time_ns(bad, &ns), 0) << bad;
	}

	const struct {
		uint64_t ns;
		const char *text;
	} texts[] = { { 0, "0ns" },	    { 250, "250ns" },	  { 10000, "10us" },
		      { 1500000, "1500us" }, { 10000000, "10ms" }, { 2000000000, "2s" },
		      { 1000000001, "1000000001ns" }, { UINT64_MAX, "18446744073709551615ns" } };
	for (const auto &t : texts) {
		char buf[NDT_TIME_LEN];
		EXPECT_STREQ(ndt_time_text(t.ns, buf, sizeof(buf)), t.text);
		uint64_t back;
		if (t.ns < (1ULL << 53)) { // what a double holds exactly: read back the same
			EXPECT_EQ(ndt_time_ns(buf, &back), 0) << buf;
			EXPECT_EQ(back, t.ns) << buf;
		}
	}

	uint32_t ppm = 0;
	EXPECT_EQ(ndt_alpha_ppm("0.7", &ppm), 0);
	EXPECT_EQ(ppm, 700000u);
	EXPECT_EQ(ndt_alpha_ppm("70%", &ppm), 0);
	EXPECT_EQ(ppm, 700000u);
	EXPECT_EQ(ndt_alpha_ppm("0.0000006", &ppm), 0);
	EXPECT_EQ(ppm, 1u); // rounded
	EXPECT_EQ(ndt_alpha_ppm("1", &ppm), 0);
	EXPECT_EQ(ppm, static_cast<uint32_t>(TC_NDT_ONE));
	EXPECT_EQ(ndt_alpha_ppm("150%", &ppm), 0); // the kernel's to refuse
	EXPECT_EQ(ppm, 1500000u);
	for (const char *bad : { "", "%", "-0.1", "0.7x", "70%%", "70 %", "nan", "5000" })
		EXPECT_NE(ndt_alpha_ppm(bad, &ppm), 0) << bad;
	EXPECT_DOUBLE_EQ(ndt_alpha_frac(700000), 0.7);
}

// --- netlink messages ----------------------------------------------------

struct Attrs {
	const nlattr *tb[64] = {};
};

Attrs attrs_of(const nlmsghdr *nlh, size_t hdr)
{
	Attrs a;
	mnl_attr_parse(
		nlh, hdr,
		[](const nlattr *at, void *data) {
			static_cast<Attrs *>(data)->tb[mnl_attr_get_type(at) & 63] = at;
			return MNL_CB_OK;
		},
		&a);
	return a;
}

TEST(Netlink, ParamSetRequest)
{
	alignas(nlmsghdr) char buf[kNlBufSize];
	nlmsghdr *nlh = put_param_set(buf, 0x1234, 7, "uno", "alpha_ppm", 2000);

	EXPECT_EQ(nlh->nlmsg_type, 0x1234);
	EXPECT_EQ(nlh->nlmsg_seq, 7u);
	EXPECT_EQ(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	auto *g = static_cast<genlmsghdr *>(mnl_nlmsg_get_payload(nlh));
	EXPECT_EQ(g->cmd, UNO_CMD_PARAM_SET);
	EXPECT_EQ(g->version, UNO_GENL_VERSION);
	Attrs a = attrs_of(nlh, sizeof(genlmsghdr));
	ASSERT_TRUE(a.tb[UNO_A_CC] && a.tb[UNO_A_PARAM] && a.tb[UNO_A_VALUE]);
	// NUL-terminated, as the kernel's NLA_NUL_STRING policy wants.
	EXPECT_EQ(mnl_attr_validate(a.tb[UNO_A_CC], MNL_TYPE_NUL_STRING), 0);
	EXPECT_STREQ(mnl_attr_get_str(a.tb[UNO_A_PARAM]), "alpha_ppm");
	EXPECT_EQ(mnl_attr_get_u32(a.tb[UNO_A_VALUE]), 2000u);
}

TEST(Netlink, ParamGetAndDumpRequests)
{
	alignas(nlmsghdr) char buf[kNlBufSize];
	nlmsghdr *nlh = put_param_get(buf, 20, 1, "smartt", "fi");
	EXPECT_EQ(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	EXPECT_TRUE(attrs_of(nlh, sizeof(genlmsghdr)).tb[UNO_A_PARAM]);

	nlh = put_param_get(buf, 20, 1, "", "");
	EXPECT_EQ(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
	EXPECT_EQ(nlh->nlmsg_len, NLMSG_HDRLEN + sizeof(genlmsghdr));

	nlh = put_param_get(buf, 20, 1, "uno", "");
	Attrs a = attrs_of(nlh, sizeof(genlmsghdr));
	EXPECT_TRUE(a.tb[UNO_A_CC]);
	EXPECT_FALSE(a.tb[UNO_A_PARAM]);
}

// A GET reply as the kernel builds it.
nlmsghdr *put_reply(char *buf, uint16_t family, bool with_desc)
{
	nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = family;
	auto *g = static_cast<genlmsghdr *>(mnl_nlmsg_put_extra_header(nlh, sizeof(genlmsghdr)));
	g->cmd = UNO_CMD_PARAM_GET;
	mnl_attr_put_strz(nlh, UNO_A_CC, "uno");
	mnl_attr_put_strz(nlh, UNO_A_PARAM, "alpha_ppm");
	mnl_attr_put_u32(nlh, UNO_A_VALUE, 1000);
	mnl_attr_put_u32(nlh, UNO_A_VALUE_MIN, 1);
	mnl_attr_put_u32(nlh, UNO_A_VALUE_MAX, 100000);
	mnl_attr_put_u8(nlh, UNO_A_APPLY, UNO_APPLY_ACK);
	if (with_desc)
		mnl_attr_put_strz(nlh, UNO_A_DESC, "Additive increase");
	return nlh;
}

TEST(Netlink, ParamReply)
{
	alignas(nlmsghdr) char buf[kNlBufSize];
	nlmsghdr *nlh = put_reply(buf, 30, true);

	auto p = parse_param_msg(nlh, 30);
	ASSERT_TRUE(p);
	EXPECT_EQ(p->cc, "uno");
	EXPECT_EQ(p->name, "alpha_ppm");
	EXPECT_EQ(p->value, 1000u);
	EXPECT_EQ(p->min, 1u);
	EXPECT_EQ(p->max, 100000u);
	EXPECT_EQ(p->desc, "Additive increase");
	EXPECT_FALSE(parse_param_msg(nlh, 31)) << "another family's message";
}

TEST(Netlink, TruncatedRepliesAreNotParams)
{
	alignas(nlmsghdr) char buf[kNlBufSize];
	nlmsghdr *nlh = put_reply(buf, 30, false);
	uint32_t full = nlh->nlmsg_len;

	// Every truncation that cuts into the required attributes fails
	// cleanly (libmnl reads up to the 4-byte aligned end, which a
	// received message always has).
	Attrs a = attrs_of(nlh, sizeof(genlmsghdr));
	uint32_t needed = static_cast<uint32_t>(reinterpret_cast<const char *>(a.tb[UNO_A_VALUE]) -
						buf) + MNL_ATTR_HDRLEN + 4;
	for (uint32_t len = NLMSG_HDRLEN; len < needed; len += NLMSG_ALIGNTO) {
		nlh->nlmsg_len = len;
		EXPECT_FALSE(parse_param_msg(nlh, 30)) << len;
	}
	nlh->nlmsg_len = full;
	// A string without its NUL is refused.
	nlattr *cc = const_cast<nlattr *>(a.tb[UNO_A_CC]);
	static_cast<char *>(mnl_attr_get_payload(cc))[3] = 'x';
	EXPECT_FALSE(parse_param_msg(nlh, 30));
}

TEST(Netlink, FamilyId)
{
	alignas(nlmsghdr) char buf[kNlBufSize];
	nlmsghdr *nlh = put_ctrl_getfamily(buf, 1, "uno");
	EXPECT_EQ(nlh->nlmsg_type, GENL_ID_CTRL);
	EXPECT_FALSE(parse_family_id(nlh)) << "a request has no id";
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x2a);
	EXPECT_EQ(parse_family_id(nlh), 0x2a);
}

TEST(Netlink, AckWithExtack)
{
	alignas(nlmsghdr) char buf[kNlBufSize];
	nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED | NLM_F_ACK_TLVS;
	auto *e = static_cast<nlmsgerr *>(mnl_nlmsg_put_extra_header(nlh, sizeof(nlmsgerr)));
	e->error = -EINVAL;
	e->msg.nlmsg_len = 100; // the request's, ignored when capped
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "value out of range");
	mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, 36);

	auto ack = parse_ack(nlh);
	ASSERT_TRUE(ack);
	EXPECT_EQ(ack->error, -EINVAL);
	EXPECT_EQ(ack->msg, "value out of range");

	// The attribute's policy, as netlink_policy_dump_write_attr() puts
	// it for NLA_U32 with a range: the message says the range.
	nlattr *pol = mnl_attr_nest_start(nlh, NLMSGERR_ATTR_POLICY);
	mnl_attr_put_u32(nlh, NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_U32);
	mnl_attr_put_u64(nlh, NL_POLICY_TYPE_ATTR_MIN_VALUE_U, 1);
	mnl_attr_put_u64(nlh, NL_POLICY_TYPE_ATTR_MAX_VALUE_U, 100000);
	mnl_attr_nest_end(nlh, pol);
	EXPECT_EQ(parse_ack(nlh)->msg, "value out of range 1..100000");

	// A policy without a range of its own says nothing of the value.
	nlh->nlmsg_len = reinterpret_cast<char *>(pol) - buf;
	pol = mnl_attr_nest_start(nlh, NLMSGERR_ATTR_POLICY);
	mnl_attr_put_u32(nlh, NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_U32);
	mnl_attr_put_u64(nlh, NL_POLICY_TYPE_ATTR_MIN_VALUE_U, 0);
	mnl_attr_put_u64(nlh, NL_POLICY_TYPE_ATTR_MAX_VALUE_U, UINT32_MAX);
	mnl_attr_nest_end(nlh, pol);
	EXPECT_EQ(parse_ack(nlh)->msg, "value out of range");

	// Nor does an error of another kind that carries a ranged policy.
	nlh->nlmsg_len = NLMSG_HDRLEN + sizeof(nlmsgerr);
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "invalid attribute length");
	pol = mnl_attr_nest_start(nlh, NLMSGERR_ATTR_POLICY);
	mnl_attr_put_u32(nlh, NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_U32);
	mnl_attr_put_u64(nlh, NL_POLICY_TYPE_ATTR_MIN_VALUE_U, 1);
	mnl_attr_put_u64(nlh, NL_POLICY_TYPE_ATTR_MAX_VALUE_U, 100000);
	mnl_attr_nest_end(nlh, pol);
	EXPECT_EQ(parse_ack(nlh)->msg, "invalid attribute length");

	// A plain ack; and a truncated error is an error, not a success.
	nlh->nlmsg_flags = 0;
	e->error = 0;
	EXPECT_EQ(parse_ack(nlh)->error, 0);
	nlh->nlmsg_len = NLMSG_HDRLEN + 2;
	EXPECT_EQ(parse_ack(nlh)->error, -EBADMSG);
}

TEST(Netlink, PhantomRoundTrip)
{
	alignas(nlmsghdr) char buf[kNlBufSize];
	PhantomOpts o;
	o.rate = 125000000;
	o.limit = 200000;
	o.pq_rate = 900000;
	o.trim = 0;
	o.trim_dscp = 8;
	o.burst = 64000;
	o.trim_valid = true;
	o.xoff = 100000;

	nlmsghdr *nlh = put_phantom_replace(buf, 3, 5, o);
	EXPECT_EQ(nlh->nlmsg_flags,
		  NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_REPLACE);
	auto *t = static_cast<tcmsg *>(mnl_nlmsg_get_payload(nlh));
	EXPECT_EQ(t->tcm_parent, TC_H_ROOT);
	Attrs a = attrs_of(nlh, sizeof(tcmsg));
	ASSERT_TRUE(a.tb[TCA_OPTIONS]);
	EXPECT_TRUE(a.tb[TCA_OPTIONS]->nla_type & NLA_F_NESTED);

	// RTM_NEWQDISC is also what a dump answers: parse it back.
	auto q = parse_qdisc_msg(nlh);
	ASSERT_TRUE(q);
	EXPECT_EQ(q->ifindex, 5);
	EXPECT_EQ(q->kind, "phantom");
	EXPECT_EQ(q->opts, o);
}

TEST(Netlink, QdiscStats)
{
	alignas(nlmsghdr) char buf[kNlBufSize];
	nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWQDISC;
	auto *t = static_cast<tcmsg *>(mnl_nlmsg_put_extra_header(nlh, sizeof(tcmsg)));
	t->tcm_ifindex = 2;
	mnl_attr_put_strz(nlh, TCA_KIND, "phantom");
	nlattr *st = mnl_attr_nest_start(nlh, TCA_STATS2);
	gnet_stats_basic b = { 1000, 10 };
	mnl_attr_put(nlh, TCA_STATS_BASIC, sizeof(b), &b);
	gnet_stats_queue qs = { 1, 3000, 4, 0, 5 };
	mnl_attr_put(nlh, TCA_STATS_QUEUE, sizeof(qs), &qs);
	tc_phantom_xstats x{};
	x.ce_marks = 42;
	x.phantom_marks = 7;
	x.xoff_events = 9;
	mnl_attr_put(nlh, TCA_STATS_APP, sizeof(x), &x);
	mnl_attr_nest_end(nlh, st);

	auto q = parse_qdisc_msg(nlh);
	ASSERT_TRUE(q);
	EXPECT_EQ(q->bytes, 1000u);
	EXPECT_EQ(q->packets, 10u);
	EXPECT_EQ(q->qlen, 1u);
	EXPECT_EQ(q->backlog, 3000u);
	EXPECT_EQ(q->drops, 4u);
	EXPECT_EQ(q->overlimits, 5u);
	ASSERT_TRUE(q->xstats);
	EXPECT_EQ(q->xstats->ce_marks, 42u);
	EXPECT_EQ(q->xstats->phantom_marks, 7u);
	EXPECT_EQ(q->xstats->xoff_events, 9u);
}

// The attributes of a nest in order: type, payload length and value
// (a u32 or a u64, by its length).
using AttrList = std::vector<std::tuple<uint16_t, uint16_t, uint64_t>>;

AttrList nested(const nlattr *nest)
{
	AttrList v;
	mnl_attr_parse_nested(
		nest,
		[](const nlattr *a, void *data) {
			const uint16_t len = mnl_attr_get_payload_len(a);
			static_cast<AttrList *>(data)->emplace_back(
				mnl_attr_get_type(a), len,
				len == 8 ? mnl_attr_get_u64(a) : mnl_attr_get_u32(a));
			return MNL_CB_OK;
		},
		&v);
	return v;
}

TEST(Netlink, NdtReplaceRequest)
{
	alignas(nlmsghdr) char buf[kNlBufSize];
	nlmsghdr *nlh = put_ndt_replace(buf, 7, 5, ndt_opts());

	EXPECT_EQ(nlh->nlmsg_type, RTM_NEWQDISC);
	EXPECT_EQ(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_REPLACE);
	EXPECT_EQ(nlh->nlmsg_seq, 7u);
	auto *t = static_cast<tcmsg *>(mnl_nlmsg_get_payload(nlh));
	EXPECT_EQ(t->tcm_family, AF_UNSPEC);
	EXPECT_EQ(t->tcm_ifindex, 5);
	EXPECT_EQ(t->tcm_handle, 0u);
	EXPECT_EQ(t->tcm_parent, TC_H_ROOT);
	Attrs a = attrs_of(nlh, sizeof(tcmsg));
	ASSERT_TRUE(a.tb[TCA_KIND]);
	EXPECT_STREQ(mnl_attr_get_str(a.tb[TCA_KIND]), "ndt");
	ASSERT_TRUE(a.tb[TCA_OPTIONS]);
	EXPECT_TRUE(a.tb[TCA_OPTIONS]->nla_type & NLA_F_NESTED);
	// Each attribute once, in the uapi's order, with the uapi's width.
	const AttrList want = {
		{ TCA_NDT_RATE, 8, 12500000 },	   { TCA_NDT_LIMIT, 4, 64 << 20 },
		{ TCA_NDT_BURST, 4, 3000 },	   { TCA_NDT_DST_THRESH, 8, 1000000 },
		{ TCA_NDT_ALPHA, 4, 700000 },	   { TCA_NDT_N_THROTTLE, 4, 8 },
		{ TCA_NDT_MAXPAUSE, 8, 50000000 }, { TCA_NDT_REARM, 8, 1000000 },
		{ TCA_NDT_ACTIVE, 8, 10000000 },   { TCA_NDT_IDLE_GC, 8, 1000000000 },
		{ TCA_NDT_FLOWS, 4, 65536 },
	};
	EXPECT_EQ(nested(a.tb[TCA_OPTIONS]), want);
	EXPECT_EQ(mnl_attr_get_len(a.tb[TCA_OPTIONS]), 4 + 6 * 12 + 5 * 8);

	// Only what is given: the kernel keeps (or defaults) the rest.
	NdtOpts o;
	o.rate = 1000;
	o.alpha = 0;
	nlh = put_ndt_replace(buf, 8, 5, o);
	a = attrs_of(nlh, sizeof(tcmsg));
	EXPECT_EQ(nested(a.tb[TCA_OPTIONS]),
		  (AttrList{ { TCA_NDT_RATE, 8, 1000 }, { TCA_NDT_ALPHA, 4, 0 } }));
	EXPECT_EQ(parse_qdisc_msg(nlh)->ndt, o);
}

TEST(Netlink, NdtRoundTrip)
{
	alignas(nlmsghdr) char buf[kNlBufSize];
	nlmsghdr *nlh = put_ndt_replace(buf, 3, 5, ndt_opts());

	auto q = parse_qdisc_msg(nlh);
	ASSERT_TRUE(q);
	EXPECT_EQ(q->ifindex, 5);
	EXPECT_EQ(q->kind, "ndt");
	EXPECT_EQ(q->ndt, ndt_opts());
	EXPECT_EQ(q->opts, PhantomOpts{});
}

// A dump's ndt qdisc: its options and its own counters, which another
// kind's message does not give.
TEST(Netlink, NdtStats)
{
	alignas(nlmsghdr) char buf[kNlBufSize];
	nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWQDISC;
	auto *t = static_cast<tcmsg *>(mnl_nlmsg_put_extra_header(nlh, sizeof(tcmsg)));
	t->tcm_ifindex = 2;
	t->tcm_handle = 0x80010000;
	t->tcm_parent = TC_H_ROOT;
	mnl_attr_put_strz(nlh, TCA_KIND, "ndt");
	nlattr *opts = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	mnl_attr_put_u64(nlh, TCA_NDT_RATE, 12500000);
	mnl_attr_put_u32(nlh, TCA_NDT_ALPHA, 700000);
	mnl_attr_put_u64(nlh, TCA_NDT_IDLE_GC, 10000000);
	mnl_attr_put_u32(nlh, TCA_NDT_FLOWS, 65536);
	mnl_attr_put_u16(nlh, TCA_NDT_LIMIT, 1); // too short: not a limit
	mnl_attr_nest_end(nlh, opts);
	nlattr *st = mnl_attr_nest_start(nlh, TCA_STATS2);
	gnet_stats_basic b = { 1000, 10 };
	mnl_attr_put(nlh, TCA_STATS_BASIC, sizeof(b), &b);
	tc_ndt_xstats x{};
	x.flows = 3;
	x.congested = 2;
	x.rtt_dst_last_ns = 12000;
	x.pauses = 4;
	x.paused_ns = 1500000;
	mnl_attr_put(nlh, TCA_STATS_APP, sizeof(x), &x);
	mnl_attr_nest_end(nlh, st);

	auto q = parse_qdisc_msg(nlh);
	ASSERT_TRUE(q);
	EXPECT_EQ(q->kind, "ndt");
	EXPECT_EQ(q->handle, 0x80010000u);
	NdtOpts o;
	o.rate = 12500000;
	o.alpha = 700000;
	o.idle_gc = 10000000;
	o.flows = 65536;
	EXPECT_EQ(q->ndt, o);
	EXPECT_EQ(q->bytes, 1000u);
	EXPECT_FALSE(q->xstats);
	ASSERT_TRUE(q->ndt_xstats);
	EXPECT_EQ(std::memcmp(&*q->ndt_xstats, &x, sizeof(x)), 0);

	// The same attributes from a qdisc of another kind.
	mnl_attr_parse(
		nlh, sizeof(tcmsg),
		[](const nlattr *a, void *) {
			if (mnl_attr_get_type(a) == TCA_KIND)
				std::memcpy(mnl_attr_get_payload(a), "xyz", 4);
			return MNL_CB_OK;
		},
		nullptr);
	q = parse_qdisc_msg(nlh);
	ASSERT_TRUE(q);
	EXPECT_EQ(q->kind, "xyz");
	EXPECT_EQ(q->ndt, NdtOpts{});
	EXPECT_FALSE(q->xstats || q->ndt_xstats);
}

// An ndt qdisc's flows: the class dump asks for one qdisc's classes, and
// a class message gives a flow only if it is an ndt one with a whole
// flow record.
TEST(Netlink, NdtClassDump)
{
	alignas(nlmsghdr) char buf[kNlBufSize];
	nlmsghdr *req = put_class_dump(buf, 4, 7, 0x80010000);
	EXPECT_EQ(req->nlmsg_type, RTM_GETTCLASS);
	EXPECT_TRUE(req->nlmsg_flags & NLM_F_DUMP);
	auto *rt = static_cast<const tcmsg *>(mnl_nlmsg_get_payload(req));
	EXPECT_EQ(rt->tcm_ifindex, 7);
	EXPECT_EQ(rt->tcm_parent, 0x80010000u);

	tc_ndt_flow_xstats f{};
	f.saddr = htonl(0x0a640101);
	f.sport = htons(38602);
	f.status = TC_NDT_CONGESTED;
	f.ctl_pkts = 12;
	f.idle_ns = 3000;
	auto cls = [&](const char *kind, uint16_t type, size_t len) {
		nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
		nlh->nlmsg_type = type;
		auto *t = static_cast<tcmsg *>(mnl_nlmsg_put_extra_header(nlh, sizeof(tcmsg)));
		t->tcm_handle = 0x80010001;
		mnl_attr_put_strz(nlh, TCA_KIND, kind);
		nlattr *st = mnl_attr_nest_start(nlh, TCA_STATS2);
		mnl_attr_put(nlh, TCA_STATS_APP, len, &f);
		mnl_attr_nest_end(nlh, st);
		return parse_ndt_class_msg(nlh);
	};
	auto got = cls("ndt", RTM_NEWTCLASS, sizeof(f));
	ASSERT_TRUE(got);
	EXPECT_EQ(std::memcmp(&*got, &f, sizeof(f)), 0);
	EXPECT_FALSE(cls("ndt", RTM_NEWTCLASS, sizeof(f) - 1));
	EXPECT_FALSE(cls("fq_codel", RTM_NEWTCLASS, sizeof(f)));
	EXPECT_FALSE(cls("ndt", RTM_NEWQDISC, sizeof(f)));
	EXPECT_EQ(addr_port(f.saddr, f.sport), "10.100.1.1:38602");
}

TEST(Netlink, TcpDiag)
{
	alignas(nlmsghdr) char buf[kNlBufSize];
	nlmsghdr *req = put_tcp_diag_dump(buf, 1, AF_INET);
	auto *r = static_cast<inet_diag_req_v2 *>(mnl_nlmsg_get_payload(req));
	EXPECT_EQ(r->sdiag_protocol, IPPROTO_TCP);
	EXPECT_TRUE(r->idiag_ext & (1 << (INET_DIAG_VEGASINFO - 1)));
	EXPECT_TRUE(r->idiag_ext & (1 << (INET_DIAG_CONG - 1)));

	nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	auto *m = static_cast<inet_diag_msg *>(mnl_nlmsg_put_extra_header(nlh, sizeof(inet_diag_msg)));
	m->idiag_family = AF_INET;
	m->idiag_state = 1;
	m->id.idiag_sport = htons(5201);
	m->id.idiag_dport = htons(40000);
	m->id.idiag_src[0] = htonl(0x0a000001);
	m->id.idiag_dst[0] = htonl(0x0a010101);
	mnl_attr_put_strz(nlh, INET_DIAG_CONG, "uno");
	tcp_uno_info u{};
	u.uno_flags = TCP_UNO_INFO_ENABLED | TCP_UNO_INFO_INTER;
	u.uno_cwnd = 123456;
	u.uno_base_rtt_us = 900;
	mnl_attr_put(nlh, INET_DIAG_VEGASINFO, sizeof(u), &u);
	// An older kernel's tcp_info: as far as tcpi_rttvar, no further.
	tcp_info ti{};
	ti.tcpi_backoff = 3;
	ti.tcpi_rtt = 1500;
	ti.tcpi_snd_cwnd = 10;
	mnl_attr_put(nlh, INET_DIAG_INFO, offsetof(tcp_info, tcpi_rttvar), &ti);

	auto s = parse_tcp_diag_msg(nlh);
	ASSERT_TRUE(s);
	EXPECT_EQ(s->src, "10.0.0.1");
	EXPECT_EQ(s->dst, "10.1.1.1");
	EXPECT_EQ(s->sport, 5201);
	EXPECT_STREQ(tcp_state_name(s->state), "ESTAB");
	EXPECT_EQ(s->cc, "uno");
	ASSERT_TRUE(s->uno);
	EXPECT_EQ(s->uno->uno_cwnd, 123456u);
	EXPECT_FALSE(s->smartt);
	EXPECT_EQ(s->rto_backoff, 3);
	EXPECT_EQ(s->rtt_us, 1500u);
	EXPECT_FALSE(s->snd_cwnd);

	// Truncated: no inet_diag_msg, no socket.
	nlh->nlmsg_len = NLMSG_HDRLEN + 8;
	EXPECT_FALSE(parse_tcp_diag_msg(nlh));
}

// The Vegas attribute is read as the struct of the CC that INET_DIAG_CONG
// names, and only if it is whole.
TEST(Netlink, TcpDiagDelayCcs)
{
	for (const char *cc : { "swift", "timely" }) {
		for (size_t cut : { 0, 1 }) {
			alignas(nlmsghdr) char buf[kNlBufSize];
			nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
			nlh->nlmsg_type = SOCK_DIAG_BY_FAMILY;
			auto *m = static_cast<inet_diag_msg *>(
				mnl_nlmsg_put_extra_header(nlh, sizeof(inet_diag_msg)));
			m->idiag_family = AF_INET;
			mnl_attr_put_strz(nlh, INET_DIAG_CONG, cc);
			tcp_swift_info w{};
			tcp_timely_info t{};
			w.swift_cwnd = 1500;	// 1.5 packets
			w.swift_target = 3200;
			t.timely_rate = 40000;
			t.timely_rtt_diff = -250;
			if (std::string(cc) == "swift")
				mnl_attr_put(nlh, INET_DIAG_VEGASINFO, sizeof(w) - cut, &w);
			else
				mnl_attr_put(nlh, INET_DIAG_VEGASINFO, sizeof(t) - cut, &t);

			auto s = parse_tcp_diag_msg(nlh);
			ASSERT_TRUE(s) << cc;
			EXPECT_FALSE(s->uno);
			EXPECT_FALSE(s->smartt);
			if (cut) {
				EXPECT_FALSE(s->swift || s->timely) << cc << " cut short";
			} else if (s->cc == "swift") {
				ASSERT_TRUE(s->swift);
				EXPECT_EQ(s->swift->swift_cwnd, 1500u);
				EXPECT_EQ(s->swift->swift_target, 3200u);
				EXPECT_FALSE(s->timely);
			} else {
				ASSERT_TRUE(s->timely);
				EXPECT_EQ(s->timely->timely_rate, 40000u);
				EXPECT_EQ(s->timely->timely_rtt_diff, -250);
				EXPECT_FALSE(s->swift);
			}
		}
	}
}

} // namespace
