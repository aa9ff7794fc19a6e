// SPDX-License-Identifier: GPL-2.0
//
// unoctl rc show, without a kernel: the settings in effect from [unorc]
// of a configuration file, as JSON and as a table, from the functions
// and from the command itself. unoctl lb show's output, from a datapath's
// state as its maps would hold it; qdisc show's, and reflex show's ndt,
// from rtnetlink messages as a dump would give them.
#include <netinet/in.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <libmnl/libmnl.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "lb.h"
#include "mlcc.h"
#include "qdisc.h"
#include "rc.h"
#include "reflex.h"
// after nlohmann/json.hpp: core_user.h defines noinline
#include "core_types.h"
#include "hpcc_core.h"

using nlohmann::json;
using unoctl::rc_json;
using unoctl::rc_text;

namespace {

const unorc::KnobTexts kConfig = {
	{ "code", { "none" } },
	{ "inter-prefix", { "10.1.0.0/16", "fd00:1::/48" } },
	{ "rto-us", { "5000" } },
	{ "trim-dscp", { "off" } },
	{ "subflows", { "4" } },
};

// Every setting, in the table's order: what [unorc] above makes of them.
const char *const kJson =
	R"([{"default":"auto","param":"code","side":"both","source":"config","syntax":"X+Y, none or auto","value":"none"},)"
	R"({"default":[],"param":"inter-prefix","side":"both","source":"config","syntax":"CIDR","value":["10.1.0.0/16","fd00:1::/48"]},)"
	R"({"default":1400,"max":65467,"min":1,"param":"payload","side":"both","source":"default","syntax":"1..65467 bytes","unit":"bytes","value":1400},)"
	R"({"default":"auto","max":16,"min":1,"param":"subflows","side":"sender","source":"config","syntax":"auto or 1..16","unit":"","value":4},)"
	R"({"default":"redraw","param":"repath","side":"sender","source":"default","syntax":"off, redraw or copy_good","value":"redraw"},)"
	R"({"default":"off","param":"shim","side":"sender","source":"default","syntax":"off or arc1","value":"off"},)"
	R"({"default":10000,"max":60000000,"min":20,"param":"rto-us","side":"sender","source":"config","syntax":"20..60000000 us","unit":"us","value":5000},)"
	R"({"default":100000,"max":10000000,"min":1,"param":"link-mbps","side":"sender","source":"default","syntax":"1..10000000 Mbit/s","unit":"Mbit/s","value":100000},)"
	R"({"default":14,"max":1000000,"min":1,"param":"intra-rtt-us","side":"sender","source":"default","syntax":"1..1000000 us","unit":"us","value":14},)"
	R"({"default":"uno","param":"cc","side":"sender","source":"default","syntax":"uno, smartt or nscc","value":"uno"},)"
	R"({"default":2000,"max":60000000,"min":20,"param":"ec-wait-us","side":"receiver","source":"default","syntax":"20..60000000 us","unit":"us","value":2000},)"
	R"({"default":16777216,"max":17179869184,"min":1,"param":"window-bytes","side":"receiver","source":"default","syntax":"1..17179869184 bytes","unit":"bytes","value":16777216},)"
	R"({"default":256,"max":1048576,"min":1,"param":"max-flows","side":"receiver","source":"default","syntax":"1..1048576","unit":"","value":256},)"
	R"({"default":62,"max":63,"min":0,"param":"trim-dscp","side":"receiver","source":"config","syntax":"off or 0..63","unit":"","value":"off"},)"
	R"({"default":4194304,"max":1073741824,"min":0,"param":"rcvbuf","side":"receiver","source":"default","syntax":"0..1073741824 bytes","unit":"bytes","value":4194304}])";

const char *const kToml = R"(# as an operator writes it
[cc]
default = "nope"            # unod's to check on its host

[unorc]
code = "none"
inter-prefix = ["10.1.0.0/16", "fd00:1::/48"]
rto-us = 5000
trim-dscp = "off"
subflows = 4
)";

struct Result {
	int status;
	std::string out, err;
};

std::string slurp(const std::string &path)
{
	std::ifstream in(path);
	std::stringstream ss;
	ss << in.rdbuf();
	return ss.str();
}

class RcShow : public testing::Test {
protected:
	void SetUp() override
	{
		char tmpl[] = "/tmp/unoctl_test_XXXXXX";
		ASSERT_NE(mkdtemp(tmpl), nullptr);
		dir_ = tmpl;
	}
	void TearDown() override
	{
		for (const char *f : { "uno.toml", "out", "err" })
			unlink((dir_ + "/" + f).c_str());
		rmdir(dir_.c_str());
	}
	std::string write(const std::string &text)
	{
		std::ofstream(dir_ + "/uno.toml") << text;
		return dir_ + "/uno.toml";
	}
	// unoctl ARGS, its exit status, stdout and stderr.
	Result unoctl(const std::string &args)
	{
		const std::string cmd = std::string(UNOCTL_BIN) + " " + args + " >" + dir_ + "/out 2>" +
					dir_ + "/err";
		const int st = std::system(cmd.c_str());
		return { WIFEXITED(st) ? WEXITSTATUS(st) : -1, slurp(dir_ + "/out"), slurp(dir_ + "/err") };
	}

	std::string dir_;
};

} // namespace

TEST(RcJson, EverySetting)
{
	EXPECT_EQ(rc_json(kConfig, "", false).dump(), kJson);
}

TEST(RcJson, OneSettingWithItsDescription)
{
	EXPECT_EQ(rc_json(kConfig, "rto-us", true).dump(),
		  R"j([{"default":10000,"description":"retransmission timeout (spec 9.24)","max":60000000,)j"
		  R"("min":20,"param":"rto-us","side":"sender","source":"config","syntax":"20..60000000 us",)"
		  R"("unit":"us","value":5000}])");
	// No file: every value its default.
	const json all = rc_json({}, "", false);
	ASSERT_EQ(all.size(), 15u);
	for (const json &j : all) {
		EXPECT_EQ(j["value"], j["default"]) << j.dump();
		EXPECT_EQ(j["source"], "default") << j.dump();
	}
	try {
		rc_json(kConfig, "source-port", false); // the command line's only
		ADD_FAILURE() << "source-port shown";
	} catch (const std::invalid_argument &e) {
		EXPECT_STREQ(e.what(), "rc show: no setting 'source-port' (known: code, inter-prefix, "
				       "payload, subflows, repath, shim, rto-us, link-mbps, intra-rtt-us, "
				       "cc, ec-wait-us, window-bytes, max-flows, trim-dscp, rcvbuf)");
	}
}

TEST(RcText, Table)
{
	EXPECT_EQ(rc_text(kConfig, std::string("/etc/uno/uno.toml"), "/etc/uno/uno.toml", "", false),
		  "config /etc/uno/uno.toml\n"
		  "param         value                    source   side      values\n"
		  "code          none                     config   both      X+Y, none or auto\n"
		  "inter-prefix  10.1.0.0/16 fd00:1::/48  config   both      CIDR\n"
		  "payload       1400                     default  both      1..65467 bytes\n"
		  "subflows      4                        config   sender    auto or 1..16\n"
		  "repath        redraw                   default  sender    off, redraw or copy_good\n"
		  "shim          off                      default  sender    off or arc1\n"
		  "rto-us        5000                     config   sender    20..60000000 us\n"
		  "link-mbps     100000                   default  sender    1..10000000 Mbit/s\n"
		  "intra-rtt-us  14                       default  sender    1..1000000 us\n"
		  "cc            uno                      default  sender    uno, smartt or nscc\n"
		  "ec-wait-us    2000                     default  receiver  20..60000000 us\n"
		  "window-bytes  16777216                 default  receiver  1..17179869184 bytes\n"
		  "max-flows     256                      default  receiver  1..1048576\n"
		  "trim-dscp     off                      config   receiver  off or 0..63\n"
		  "rcvbuf        4194304                  default  receiver  0..1073741824 bytes\n");
	EXPECT_EQ(rc_text({}, std::nullopt, "/etc/uno/uno.toml", "inter-prefix", true),
		  "config none (no /etc/uno/uno.toml): built-in defaults\n"
		  "param         value                    source   side      values\n"
		  "inter-prefix  -                        default  both      CIDR\n"
		  "              inter-DC peers, the remote DCs' prefixes (repeatable): what auto "
		  "codes (default -)\n");
}

TEST_F(RcShow, TheCommand)
{
	const std::string file = write(kToml);
	Result r = unoctl("-j rc show -c " + file);
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, std::string(kJson) + "\n");
	EXPECT_EQ(r.err, "");

	r = unoctl("-j rc show --config " + file + " trim-dscp");
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, R"([{"default":62,"max":63,"min":0,"param":"trim-dscp","side":"receiver",)"
			 R"("source":"config","syntax":"off or 0..63","unit":"","value":"off"}])"
			 "\n");
	r = unoctl("-j -p rc show -c " + file + " code");
	EXPECT_EQ(r.out, "[\n  {\n    \"default\": \"auto\",\n    \"param\": \"code\",\n"
			 "    \"side\": \"both\",\n    \"source\": \"config\",\n"
			 "    \"syntax\": \"X+Y, none or auto\",\n    \"value\": \"none\"\n  }\n]\n");
	r = unoctl("rc show -c " + file + " rto-us");
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "config " + file + "\n" +
				 "param         value                    source   side      values\n"
				 "rto-us        5000                     config   sender    20..60000000 us\n");
}

TEST_F(RcShow, WhatIsWrong)
{
	// A broken file: every error, as unod --check prints them, and nothing.
	const std::string file = write("[unorc]\nrto-us = 5\ncode = \"9+9+9\"\n");
	Result r = unoctl("-j rc show -c " + file);
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.out, "");
	EXPECT_EQ(r.err, "unoctl: " + file + ":2:10: unorc.rto-us: value 5 out of range 20..60000000 us\n" +
				 "unoctl: " + file +
				 ":3:8: unorc.code: '9+9+9': need X+Y (e.g. 8+2), none or auto\n");
	// A file given must be there.
	r = unoctl("rc show -c " + dir_ + "/none.toml");
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "unoctl: " + dir_ + "/none.toml: cannot read: No such file or directory\n");
	// An unknown setting is a bad command line.
	write("");
	r = unoctl("rc show -c " + file + " rto");
	EXPECT_EQ(r.status, 2);
	EXPECT_EQ(r.err, "unoctl: rc show: no setting 'rto' (known: code, inter-prefix, payload, "
			 "subflows, repath, shim, rto-us, link-mbps, intra-rtt-us, cc, ec-wait-us, window-bytes, "
			 "max-flows, trim-dscp, rcvbuf)\n");
}

// --- lb show -----------------------------------------------------------------

uno::LbStatus lb_status()
{
	uno::LbStatus s;
	s.dev = "eth0";
	s.cfg = uno::LbConf::lb_cfg_defaults();
	s.policies[{ IPPROTO_UDP, 9000 }] = { .mode_override = __LB_MODE_MAX,
					      .flags = LB_POLICY_REQUIRE_SHIM };
	s.policies[{ IPPROTO_UDP, 4791 }] = { .mode_override = LB_MODE_SPRAY, .flags = 0 };
	s.policies[{ IPPROTO_TCP, 5201 }] = { .mode_override = LB_MODE_FLOWLET, .flags = 0 };
	s.stats[LB_STAT_PKTS_SEEN] = 12;
	s.stats[LB_STAT_PKTS_REWRITTEN] = 10;
	s.stats[LB_STAT_TX_EXPLORE] = 3;
	s.stats[LB_STAT_TX_CACHED] = 1;
	s.ev_hist = { { 0, 7 }, { 255, 3 } };
	s.flows = 2;
	s.egress_prog = 41;
	return s;
}

TEST(LbJson, EveryField)
{
	EXPECT_EQ(unoctl::lb_json(lb_status()).dump(),
		  R"({"bdp_pkts":40,"cache_hit_rate":0.25,"cache_size":8,"counters":{"acks_parsed":0,)"
		  R"("acks_unknown_flow":0,"fb_ce":0,"fb_good":0,"fb_ignored":0,"fb_nack":0,)"
		  R"("flow_table_full":0,"flows_created":0,"parse_skips":0,"pkts_rewritten":10,)"
		  R"("pkts_seen":12,"plb_rehashes":0,"tx_cached":1,"tx_explore":3,)"
		  R"("txlog_acked":0,"txlog_overwritten":0,"txlog_withheld":0},"dev":"eth0",)"
		  R"("ev_base":49152,"ev_packets":{"0":7,"255":3},"exploration_rate":0.75,)"
		  R"("flowlet_gap_us":1000,"flows":2,"mode":"arcane","num_ev":256,)"
		  R"("plb_cong_thresh":128,"plb_idle_rounds":3,"plb_rehash_rounds":12,)"
		  R"("ports":[{"mode":"flowlet","port":5201,"proto":"tcp","require_shim":false},)"
		  R"({"mode":"spray","port":4791,"proto":"udp","require_shim":false},)"
		  R"({"mode":"arcane","port":9000,"proto":"udp","require_shim":true}],)"
		  R"("prog":{"egress":41,"ingress":null}})");
}

TEST(LbJson, NoArcaneSendsNoRates)
{
	uno::LbStatus s = lb_status();
	s.stats[LB_STAT_TX_EXPLORE] = s.stats[LB_STAT_TX_CACHED] = 0;
	const json j = unoctl::lb_json(s);
	EXPECT_TRUE(j["exploration_rate"].is_null());
	EXPECT_TRUE(j["cache_hit_rate"].is_null());
}

TEST(LbText, Lines)
{
	EXPECT_EQ(unoctl::lb_text(lb_status()),
		  "lb dev eth0 mode arcane num_ev 256 ev_base 49152 ports 5201/tcp 4791/udp 9000/udp\n"
		  " NOT attached flows 2 EVs used 2 exploration_rate 0.750 cache_hit_rate 0.250\n"
		  " acks_parsed 0 acks_unknown_flow 0 fb_ce 0 fb_good 0 fb_ignored 0 fb_nack 0 "
		  "flow_table_full 0 flows_created 0 parse_skips 0 pkts_rewritten 10 pkts_seen 12 "
		  "plb_rehashes 0 tx_cached 1 tx_explore 3 txlog_acked 0 txlog_overwritten 0 "
		  "txlog_withheld 0\n");
}

using LbShow = RcShow; // the command, in a scratch directory

TEST_F(LbShow, BadCommandLine)
{
	Result r = unoctl("lb show eth0");
	EXPECT_EQ(r.status, 2);
	EXPECT_EQ(r.err, "unoctl: lb show: expected nothing or dev DEV\n");
	r = unoctl("lb detach");
	EXPECT_EQ(r.status, 2);
	EXPECT_EQ(r.err, "unoctl: lb detach: expected dev DEV\n");
	// A device's name is a path component of its pins: never a path.
	r = unoctl("lb detach dev ../x");
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "unoctl: '../x' is not a device name\n");
	r = unoctl("lb show dev ..");
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "unoctl: '..' is not a device name\n");
}

// --- mlcc ----------------------------------------------------------------------

TEST(MlccParse, DefaultsAndEverySetting)
{
	uno::MlccConf c;
	EXPECT_EQ(unoctl::mlcc_parse(c, { "cgroup", "/sys/fs/cgroup" }), "");
	EXPECT_EQ(c.cgroup, "/sys/fs/cgroup");
	EXPECT_EQ(c.cfg.remote_len, 0U);
	EXPECT_EQ(c.cfg.rtt_d_ns, 100000U);
	EXPECT_EQ(unoctl::mlcc_parse(c, { "cgroup", "/cg", "remote", "10.200.0.0/16", "rtt-d-us",
					  "240" }),
		  "");
	EXPECT_EQ(c.cfg.remote_addr, htonl(0x0ac80000));
	EXPECT_EQ(c.cfg.remote_len, 16U);
	EXPECT_EQ(c.cfg.rtt_d_ns, 240000U);
	EXPECT_EQ(c.cfg.hpcc_line_rate, 0U);
	EXPECT_EQ(unoctl::mlcc_parse(c, { "cgroup", "/cg", "hpcc-line-mbps", "100" }), "");
	EXPECT_EQ(c.cfg.hpcc_line_rate, 12500000U);
	EXPECT_EQ(c.cfg.credit_line_rate, 0U);
	EXPECT_EQ(c.cfg.theta_ns, 18000000U);
	EXPECT_EQ(c.cfg.d_t_ns, 1000000U);
	uno::MlccConf k;
	EXPECT_EQ(unoctl::mlcc_parse(k, { "cgroup", "/cg", "rtt-d-us", "2500", "credit-line-mbps",
					  "50", "rtt-c-us", "27000", "theta-us", "81000", "dt-us",
					  "4500" }),
		  "");
	EXPECT_EQ(k.cfg.credit_line_rate, 6250000U);
	EXPECT_EQ(k.cfg.rtt_c_ns, 27000000U);
	EXPECT_EQ(k.cfg.theta_ns, 81000000U);
	EXPECT_EQ(k.cfg.d_t_ns, 4500000U);
}

TEST(MlccParse, WhatIsWrong)
{
	const std::pair<std::vector<std::string>, std::string> bad[] = {
		{ { "cgroup" }, "expected KEY VALUE pairs" },
		{ { "remote", "10.0.0.0/8" }, "cgroup PATH is required" },
		{ { "cgroup", "/a", "cgroup", "/b" }, "cgroup: set twice" },
		{ { "cgroup", "/a", "dev", "eth0" },
		  "dev: not a setting (cgroup, remote, rtt-d-us, hpcc-line-mbps, credit-line-mbps, "
		  "rtt-c-us, theta-us, dt-us)" },
		{ { "cgroup", "/a", "remote", "10.0.0.1/8" },
		  "remote 10.0.0.1/8: expected A.B.C.D/LEN without host bits" },
		{ { "cgroup", "/a", "rtt-d-us", "0" }, "rtt-d-us 0: expected 1 to 134217" },
		{ { "cgroup", "/a", "rtt-d-us", "134218" }, "rtt-d-us 134218: expected 1 to 134217" },
		{ { "cgroup", "/a", "rtt-d-us", "5ms" }, "rtt-d-us 5ms: expected 1 to 134217" },
		{ { "cgroup", "/a", "hpcc-line-mbps", "0" }, "hpcc-line-mbps 0: expected 1 to 549755" },
		{ { "cgroup", "/a", "hpcc-line-mbps", "549756" },
		  "hpcc-line-mbps 549756: expected 1 to 549755" },
		{ { "cgroup", "/a", "credit-line-mbps", "0" }, "credit-line-mbps 0: expected 1 to 68719" },
		{ { "cgroup", "/a", "credit-line-mbps", "68720" },
		  "credit-line-mbps 68720: expected 1 to 68719" },
		{ { "cgroup", "/a", "credit-line-mbps", "50" },
		  "rtt-c-us must be rtt-d-us to 1073741 us" },
		{ { "cgroup", "/a", "credit-line-mbps", "50", "rtt-d-us", "200", "rtt-c-us", "100" },
		  "rtt-c-us must be rtt-d-us to 1073741 us" },
		{ { "cgroup", "/a", "credit-line-mbps", "50", "rtt-d-us", "10", "rtt-c-us", "20000" },
		  "rtt-c-us / rtt-d-us (Eq. 1's n) above 1024" },
		{ { "cgroup", "/a", "credit-line-mbps", "50", "rtt-c-us", "20000", "theta-us", "1000",
		    "dt-us", "2000" },
		  "theta-us must be 1 to 536870 us, and dt-us at most theta-us" },
		{ { "cgroup", "/a", "theta-us", "536871" }, "theta-us 536871: expected 1 to 536870" },
		{ { "cgroup", "/a", "rtt-c-us", "1073742" }, "rtt-c-us 1073742: expected 1 to 1073741" },
	};
	for (const auto &[args, err] : bad) {
		uno::MlccConf c;
		EXPECT_EQ(unoctl::mlcc_parse(c, args), err);
	}
}

uno::MlccStatus mlcc_status()
{
	uno::MlccStatus s;
	s.attached = true;
	s.cgroup_id = 1;
	s.cfg.remote_addr = htonl(0x0ac80000);
	s.cfg.remote_len = 16;
	s.cfg.rtt_d_ns = 10000000;
	s.stats[MLCC_STAT_OPT_WRITTEN] = 9;
	s.stats[MLCC_STAT_RX_SEGS] = 8;
	uno::MlccRxFlow f = {};
	f.key = { htonl(0x0a640101), htonl(0x0ac80101), htons(40000), htons(5201) };
	f.info.segs = 8;
	f.info.opts = 7;
	f.info.nhop[2] = 7;
	f.info.u = 98304;
	f.info.last_nhop = 1;
	f.info.hop[0] = hpcc_hop_wire(64000, 1000000, 1000000, 15);
	s.flows.push_back(f);
	return s;
}

TEST(MlccJson, EveryField)
{
	EXPECT_EQ(unoctl::mlcc_json(mlcc_status(), {}).dump(),
		  R"({"attached":true,"cgroup_id":1,"counters":{"ack_x_malformed":0,"ack_x_no_flow":0,)"
		  R"("ack_x_no_room":0,"ack_x_taken":0,"ack_x_written":0,"credit_no_state":0,)"
		  R"("credit_rounds":0,"credit_segs":0,"echo_malformed":0,"echo_no_flow":0,)"
		  R"("echo_no_room":0,"echo_no_rtt":0,"echo_taken":0,"echo_written":0,"opt_no_room":0,)"
		  R"("opt_written":9,)"
		  R"("rx_flows_full":0,"rx_segs":8},"flows":[{"dst":"10.200.1.1:5201",)"
		  R"("hops":[{"qlen":64000,"rate_bps":50000000,"ts":1000000,"tx":1000000}],)"
		  R"("nhop":[0,0,7,0],"opts":7,"overflow":0,"segs":8,"src":"10.100.1.1:40000",)"
		  R"("u":1.5}],"near_source":[],"remote":"10.200.0.0/16","rtt_d_us":10000})");
}

// HPCC end to end: its settings, and the senders' rate records.
TEST(MlccJson, Hpcc)
{
	uno::MlccStatus s = mlcc_status();
	s.flows.clear();
	s.cfg.hpcc_line_rate = 12500000;
	uno::MlccNsFlow f = {};
	f.key = { htonl(0x0a640101), htonl(0x0a640201), htons(40000), htons(5201) };
	f.info.taken = 4;
	f.info.r_ns = 6250000;
	f.info.r_line = 12500000;
	f.info.u = 65536;
	f.info.base_rtt_us = 4473;
	s.senders.push_back(f);
	const json j = unoctl::mlcc_json(s, {});
	EXPECT_EQ(j["hpcc"].dump(),
		  R"({"flows":[{"base_rtt_us":4473,"commits":0,"dst":"10.100.2.1:5201","hops":[],)"
		  R"("r_dqm_bar_bps":0,"r_line_bps":100000000,"r_ns_bps":50000000,)"
		  R"("src":"10.100.1.1:40000","taken":4,)"
		  R"("u":1.0}],"line_bps":100000000})");
	EXPECT_EQ(unoctl::mlcc_text(s, {}),
		  "mlcc cgroup 1 remote 10.200.0.0/16 rtt-d-us 10000 hpcc-line-mbps 100\n"
		  "  ack_x_malformed 0\n  ack_x_no_flow 0\n  ack_x_no_room 0\n  ack_x_taken 0\n"
		  "  ack_x_written 0\n  credit_no_state 0\n  credit_rounds 0\n  credit_segs 0\n"
		  "  echo_malformed 0\n  echo_no_flow 0\n  echo_no_room 0\n  echo_no_rtt 0\n"
		  "  echo_taken 0\n  echo_written 0\n  opt_no_room 0\n  opt_written 9\n"
		  "  rx_flows_full 0\n  rx_segs 8\n"
		  "  hpcc 10.100.1.1:40000 > 10.100.2.1:5201 taken 4 r_bps 50000000 u 1.0 "
		  "base_rtt_us 4473\n");
	EXPECT_FALSE(unoctl::mlcc_json(mlcc_status(), {}).contains("hpcc"));
}

TEST(MlccText, Lines)
{
	EXPECT_EQ(unoctl::mlcc_text(mlcc_status(), {}),
		  "mlcc cgroup 1 remote 10.200.0.0/16 rtt-d-us 10000\n"
		  "  ack_x_malformed 0\n  ack_x_no_flow 0\n  ack_x_no_room 0\n  ack_x_taken 0\n"
		  "  ack_x_written 0\n  credit_no_state 0\n  credit_rounds 0\n  credit_segs 0\n"
		  "  echo_malformed 0\n  echo_no_flow 0\n  echo_no_room 0\n  echo_no_rtt 0\n"
		  "  echo_taken 0\n  echo_written 0\n  opt_no_room 0\n  opt_written 9\n"
		  "  rx_flows_full 0\n  rx_segs 8\n"
		  "  flow 10.100.1.1:40000 > 10.200.1.1:5201 segs 8 opts 7 nhop [0,0,7,0] u 1.5\n");
	EXPECT_EQ(unoctl::mlcc_text({}, {}), "mlcc: not attached\n");
}

TEST(MlccNsParse, EveryRoleAndSetting)
{
	uno::MlccNsConf d;
	d.role = MLCC_NS_ROLE_DCI;
	EXPECT_EQ(unoctl::mlcc_ns_parse(d, { "lan", "down0", "wan", "wan1", "wan", "wan2", "addr",
					     "10.10.0.254" }),
		  "");
	EXPECT_EQ(d.dev, "down0");
	EXPECT_EQ(d.wan, (std::vector<std::string>{ "wan1", "wan2" }));
	EXPECT_EQ(d.cfg.lan_addr, htonl(0x0a0a00fe));
	uno::MlccNsConf h;
	EXPECT_EQ(unoctl::mlcc_ns_parse(h, { "dev", "eth0", "dci", "10.10.0.254", "line-mbps", "100",
					     "rtt-ns-us", "1000" }),
		  "");
	EXPECT_EQ(h.dev, "eth0");
	EXPECT_EQ(h.dcis, std::vector<uint32_t>{ htonl(0x0a0a00fe) });
	EXPECT_EQ(h.cfg.line_rate, 12500000U);
	EXPECT_EQ(h.cfg.rtt_ns_ns, 1000000U);
	uno::MlccNsConf r;
	r.role = MLCC_NS_ROLE_DCI_R;
	EXPECT_EQ(unoctl::mlcc_ns_parse(r, { "lan", "down0", "line-mbps", "50" }), "");
	EXPECT_EQ(r.dev, "down0");
	EXPECT_EQ(r.cfg.line_rate, 6250000U);
}

TEST(MlccNsParse, WhatIsWrong)
{
	const struct {
		uint32_t role;
		std::vector<std::string> args;
		const char *err;
	} bad[] = {
		{ MLCC_NS_ROLE_DCI, { "lan" }, "expected KEY VALUE pairs" },
		{ MLCC_NS_ROLE_DCI, { "wan", "wan1" }, "dci: its LAN port (lan) is required" },
		{ MLCC_NS_ROLE_DCI, { "lan", "down0" }, "dci: at least one WAN port (wan) is required" },
		{ MLCC_NS_ROLE_DCI, { "lan", "a", "wan", "a" }, "dci: a is both its LAN port and a WAN port" },
		{ MLCC_NS_ROLE_DCI, { "lan", "a", "lan", "b" }, "lan: set twice" },
		{ MLCC_NS_ROLE_DCI, { "dev", "a" }, "dev: not a setting of dci (lan, wan, addr)" },
		{ MLCC_NS_ROLE_DCI, { "addr", "10.0.0" }, "addr 10.0.0: expected A.B.C.D" },
		{ MLCC_NS_ROLE_SENDER, { "lan", "a" },
		  "lan: not a setting of sender (dev, dci, line-mbps, rtt-ns-us)" },
		{ MLCC_NS_ROLE_SENDER, { "dci", "10.0.0.1", "line-mbps", "1", "rtt-ns-us", "1" },
		  "sender: its device (dev) is required" },
		{ MLCC_NS_ROLE_SENDER, { "dev", "e", "line-mbps", "1", "rtt-ns-us", "1" },
		  "sender: at least one DCI address (dci) is required" },
		{ MLCC_NS_ROLE_SENDER, { "dev", "e", "dci", "10.0.0.1", "rtt-ns-us", "1" },
		  "sender: line rate out of 1 to 549755 Mbit/s" },
		{ MLCC_NS_ROLE_SENDER, { "dev", "e", "dci", "10.0.0.1", "line-mbps", "1" },
		  "sender: rtt-ns out of 1 to 134217 us" },
		{ MLCC_NS_ROLE_SENDER, { "line-mbps", "549756" }, "line-mbps 549756: expected 1 to 549755" },
		{ MLCC_NS_ROLE_SENDER, { "rtt-ns-us", "0" }, "rtt-ns-us 0: expected 1 to 134217" },
		{ MLCC_NS_ROLE_DCI_R, { "line-mbps", "50" }, "dcir: its LAN port (lan) is required" },
		{ MLCC_NS_ROLE_DCI_R, { "lan", "down0" },
		  "dcir: line rate (R_init) out of 1 to 68719 Mbit/s" },
		{ MLCC_NS_ROLE_DCI_R, { "lan", "down0", "wan", "wan1" },
		  "wan: not a setting of dcir (lan, line-mbps)" },
		{ MLCC_NS_ROLE_DCI_R, { "lan", "down0", "line-mbps", "68720" },
		  "dcir: line rate (R_init) out of 1 to 68719 Mbit/s" },
	};
	for (const auto &b : bad) {
		uno::MlccNsConf c;
		c.role = b.role;
		EXPECT_EQ(unoctl::mlcc_ns_parse(c, b.args), b.err);
	}
}

std::vector<uno::MlccNsStatus> mlcc_ns_status()
{
	uno::MlccNsStatus d = {};
	d.role = MLCC_NS_ROLE_DCI;
	d.cfg.lan_addr = htonl(0x0a0a00fe);
	d.stats[MLCC_NS_STAT_DCI_DATA] = 5;
	d.stats[MLCC_NS_STAT_SWINT_BUILT] = 5;
	uno::MlccNsStatus h = {};
	h.role = MLCC_NS_ROLE_SENDER;
	h.cfg.line_rate = 12500000;
	h.cfg.rtt_ns_ns = 1000000;
	h.dcis.push_back(htonl(0x0a0a00fe));
	h.stats[MLCC_NS_STAT_SWINT_TAKEN] = 4;
	uno::MlccNsFlow f = {};
	f.key = { htonl(0x0a640101), htonl(0x0ac80101), htons(40000), htons(5201) };
	f.info.taken = 4;
	f.info.commits = 2;
	f.info.r_ns = 6250000;
	f.info.r_line = 12500000;
	f.info.u = 65536;
	f.info.nhop = 1;
	f.info.hop[0] = hpcc_hop_wire(64000, 1000000, 1000000, 15);
	h.flows.push_back(f);
	return { d, h };
}

TEST(MlccJson, NearSourceRoles)
{
	EXPECT_EQ(unoctl::mlcc_json({}, mlcc_ns_status())["near_source"].dump(),
		  R"([{"addr":"10.10.0.254","counters":{"dci_cleared":0,"dci_clone_err":0,)"
		  R"("dci_data":5,"pfq_ack_malformed":0,"pfq_ack_no_flow":0,"pfq_ack_x":0,)"
		  R"("pfq_closed":0,"pfq_data":0,"pfq_drops":0,"pfq_full":0,"pfq_rewrite_err":0,)"
		  R"("swint_build_err":0,"swint_built":5,)"
		  R"("swint_foreign":0,"swint_malformed":0,"swint_no_flow":0,"swint_no_route":0,)"
		  R"("swint_taken":0},"role":"dci"},{"counters":{"dci_cleared":0,"dci_clone_err":0,)"
		  R"("dci_data":0,"pfq_ack_malformed":0,"pfq_ack_no_flow":0,"pfq_ack_x":0,)"
		  R"("pfq_closed":0,"pfq_data":0,"pfq_drops":0,"pfq_full":0,"pfq_rewrite_err":0,)"
		  R"("swint_build_err":0,"swint_built":0,)"
		  R"("swint_foreign":0,"swint_malformed":0,"swint_no_flow":0,"swint_no_route":0,)"
		  R"("swint_taken":4},"dcis":["10.10.0.254"],"flows":[{"base_rtt_us":0,"commits":2,)"
		  R"("dst":"10.200.1.1:5201","hops":[{"qlen":64000,"rate_bps":50000000,)"
		  R"("ts":1000000,"tx":1000000}],"r_dqm_bar_bps":0,"r_line_bps":100000000,)"
		  R"("r_ns_bps":50000000,)"
		  R"("src":"10.100.1.1:40000","taken":4,"u":1.0}],"line_bps":100000000,)"
		  R"("role":"sender","rtt_ns_us":1000}])");
	EXPECT_EQ(unoctl::mlcc_text({}, mlcc_ns_status()),
		  "mlcc: not attached\n"
		  "mlcc dci\n  dci_data 5\n  swint_built 5\n"
		  "mlcc sender\n  swint_taken 4\n"
		  "  flow 10.100.1.1:40000 > 10.200.1.1:5201 taken 4 r_ns_bps 50000000 u 1.0\n");
}

// The credit loop: its settings, a receiver's loop, DCI_r's queues.
TEST(MlccJson, Credit)
{
	uno::MlccStatus s = mlcc_status();
	s.cfg.credit_line_rate = 6250000;
	s.cfg.rtt_c_ns = 27000000;
	s.cfg.theta_ns = 81000000;
	s.cfg.d_t_ns = 4500000;
	mlcc_rx_info &i = s.flows[0].info;
	i.dci_segs = 7;
	i.rounds = 3;
	i.c_r = 4;
	i.c_d = 3;
	i.q_c = 14000;
	i.r_credit = 3125000;
	i.r_dqm = 3000000;
	i.r_dqm_bar = 3100000;
	uno::MlccNsFlow f = {};
	f.key = s.flows[0].key;
	f.info.r_dqm_bar = 3100000;
	s.senders.push_back(f);
	const json j = unoctl::mlcc_json(s, {});
	EXPECT_EQ(j["credit"].dump(),
		  R"({"dt_us":4500,"flows":[{"base_rtt_us":0,"commits":0,"dst":"10.200.1.1:5201",)"
		  R"("hops":[],"r_dqm_bar_bps":24800000,"r_line_bps":0,"r_ns_bps":0,)"
		  R"("src":"10.100.1.1:40000","taken":0,"u":0.0}],"line_bps":50000000,)"
		  R"("rtt_c_us":27000,"theta_us":81000})");
	EXPECT_EQ(j["flows"][0]["credit"].dump(),
		  R"({"c_d":3,"c_r":4,"q_c":14000,"r_credit_bps":25000000,"r_dqm_bar_bps":24800000,)"
		  R"("r_dqm_bps":24000000,"rounds":3,"segs":7})");
	EXPECT_FALSE(j.contains("hpcc"));
	const std::string text = unoctl::mlcc_text(s, {});
	EXPECT_NE(text.find(" rtt-d-us 10000 credit-line-mbps 50 rtt-c-us 27000 theta-us 81000 "
			    "dt-us 4500\n"),
		  std::string::npos);
	EXPECT_NE(text.find("  credit 10.100.1.1:40000 > 10.200.1.1:5201 rounds 3 c_r 4 q_c 14000 "
			    "r_credit_bps 25000000 r_dqm_bar_bps 24800000\n"),
		  std::string::npos);
	EXPECT_FALSE(unoctl::mlcc_json(mlcc_status(), {})["flows"][0].contains("credit"));

	uno::MlccNsStatus r = {};
	r.role = MLCC_NS_ROLE_DCI_R;
	r.cfg.line_rate = 6250000;
	r.stats[MLCC_NS_STAT_PFQ_DATA] = 9;
	r.stats[MLCC_NS_STAT_PFQ_ACK_X] = 5;
	uno::MlccPfq q = {};
	q.key = s.flows[0].key;
	q.info = { .rate = 3125000, .next_tx_ns = 1, .pkts = 9, .bytes = 13500, .acks = 5,
		   .q_c = 3000, .c_d = 4, .pad = 0 };
	r.pfqs.push_back(q);
	const json d = unoctl::mlcc_json({}, { r })["near_source"][0];
	EXPECT_EQ(d["r_init_bps"], 50000000);
	EXPECT_EQ(d["pfqs"].dump(),
		  R"([{"acks":5,"bytes":13500,"c_d":4,"dst":"10.200.1.1:5201","pkts":9,"q_c":3000,)"
		  R"("rate_bps":25000000,"src":"10.100.1.1:40000"}])");
	EXPECT_EQ(unoctl::mlcc_text({}, { r }),
		  "mlcc: not attached\n"
		  "mlcc dcir\n  pfq_ack_x 5\n  pfq_data 9\n"
		  "  pfq 10.100.1.1:40000 > 10.200.1.1:5201 rate_bps 25000000 c_d 4 q_c 3000 pkts 9\n");
}

using MlccAttach = RcShow; // the command, in a scratch directory

// Refused before anything reaches the kernel: exit 2 and why.
TEST_F(MlccAttach, BadCommandLine)
{
	Result r = unoctl("mlcc attach remote 10.0.0.0/8");
	EXPECT_EQ(r.status, 2);
	EXPECT_EQ(r.err, "unoctl: mlcc attach: cgroup PATH is required\n");
	r = unoctl("mlcc attach cgroup " + dir_ + "/none");
	EXPECT_EQ(r.status, 2);
	EXPECT_EQ(r.err, "unoctl: mlcc attach: cgroup " + dir_ + "/none: no such directory\n");
	r = unoctl("mlcc dci lan down0");
	EXPECT_EQ(r.status, 2);
	EXPECT_EQ(r.err, "unoctl: mlcc dci: dci: at least one WAN port (wan) is required\n");
	r = unoctl("mlcc sender dev nosuchdev0 dci 10.0.0.1 line-mbps 100 rtt-ns-us 10");
	EXPECT_EQ(r.status, 2);
	EXPECT_EQ(r.err, "unoctl: mlcc sender: device nosuchdev0: no such device\n");
	r = unoctl("mlcc detach host");
	EXPECT_EQ(r.status, 2);
	EXPECT_EQ(r.err, "unoctl: mlcc detach: expected nothing (the cgroup's program), dci, "
			 "sender or dcir\n");
	r = unoctl("mlcc attach cgroup " + dir_ + " credit-line-mbps 50 rtt-c-us 10");
	EXPECT_EQ(r.status, 2);
	EXPECT_EQ(r.err, "unoctl: mlcc attach: rtt-c-us must be rtt-d-us to 1073741 us\n");
	r = unoctl("mlcc dcir lan nosuchdev0 line-mbps 50");
	EXPECT_EQ(r.status, 2);
	EXPECT_EQ(r.err, "unoctl: mlcc dcir: device nosuchdev0: no such device\n");
}

using CcBpf = RcShow; // the command, in a scratch directory

// Refused before anything reaches the kernel: exit 2 and why.
TEST_F(CcBpf, BadCommandLine)
{
	const struct {
		const char *args, *err;
	} cases[] = {
		{ "cc bpf register uno",
		  "unoctl: cc bpf: no BPF host for 'uno' (known: swift, timely, mlcc)\n" },
		{ "cc bpf unregister smartt",
		  "unoctl: cc bpf: no BPF host for 'smartt' (known: swift, timely, mlcc)\n" },
		{ "cc bpf register mlcc line_rate_mbps 100",
		  "unoctl: cc bpf register: bpf_mlcc has no parameters (its law's are the sender "
		  "role's: unoctl mlcc sender)\n" },
		{ "cc bpf register swift base_rtt_ns",
		  "unoctl: cc bpf register: expected CC [PARAM VALUE ...]\n" },
		{ "cc bpf register swift nope 3", "unoctl: swift 'swift' has no parameter 'nope'\n" },
		{ "cc bpf register swift beta_ppm 0",
		  "unoctl: swift beta_ppm: value out of range 1..1000000\n" },
		{ "cc bpf register swift hops_intra 2 hops_intra 3",
		  "unoctl: swift hops_intra: set twice\n" },
		{ "cc bpf register swift reflex_inter_rtt_us 1 reflex_inter_rtt_us 2",
		  "unoctl: swift reflex_inter_rtt_us: set twice\n" },
		{ "cc bpf register timely reflex_inter_rtt_us -1",
		  "unoctl: reflex_inter_rtt_us: expected an unsigned integer\n" },
	};
	for (const auto &c : cases) {
		Result r = unoctl(c.args);
		EXPECT_EQ(r.status, 2) << c.args;
		EXPECT_EQ(r.err, c.err) << c.args;
	}
}

// --- reflex -----------------------------------------------------------------

// Settings that no role takes, or not this one, twice, or out of range:
// refused before anything is loaded (no kernel needed), exit 2.
using Reflex = RcShow; // the command, in a scratch directory

TEST_F(Reflex, BadSettingsAreRefused)
{
	const struct {
		const char *args, *err;
	} cases[] = {
		{ "reflex host dev eth0 gateway 10.0.0.1 emit 1",
		  "unoctl: reflex host: emit: not a setting of host\n" },
		{ "reflex stamp dev a1 gateway 10.0.0.1",
		  "unoctl: reflex stamp: gateway: not a setting of stamp\n" },
		{ "reflex gateway lan d wan w k 13 k 14", "unoctl: reflex gateway: k: set twice\n" },
		{ "reflex gateway lan d wan w k 49", "unoctl: reflex gateway: k 49: a bad value\n" },
		{ "reflex gateway lan d wan w cool_unit ack",
		  "unoctl: reflex gateway: cool_unit ack: a bad value\n" },
		{ "reflex host dev eth0 gateway 10.0.0", "unoctl: reflex host: gateway 10.0.0: a bad value\n" },
		{ "reflex host dev eth0", "unoctl: reflex host: host: at least one gateway address\n" },
		{ "reflex gateway lan d wan w n_cool 0",
		  "unoctl: reflex gateway: n_cool must be 1..255 and cool_unit pack or packet\n" },
		{ "reflex gateway lan d wan w k 6 t_src_thresh_ns 1048576",
		  "unoctl: reflex gateway: t_src_thresh_ns must be below 2^(14+k) ns, a quarter of "
		  "the stamp's wrap: raise k\n" },
		{ "reflex gateway lan d wan w t_idle_gc_ns 5000",
		  "unoctl: reflex gateway: t_idle_gc_ns must be above t_interval_ns\n" },
		{ "reflex gateway lan d", "unoctl: reflex gateway: gateway: at least one WAN device\n" },
		{ "reflex gateway lan d wan w prefix 10.0.0.1/8",
		  "unoctl: reflex gateway: prefix 10.0.0.1/8: a bad value\n" },
		{ "reflex host dev eth0 gateway 10.0.0.1 prefix 10.0.0.0/8",
		  "unoctl: reflex host: prefix: not a setting of host\n" },
		{ "reflex stamp dev", "unoctl: reflex stamp: expected KEY VALUE pairs\n" },
		{ "reflex detach router", "unoctl: reflex detach: expected stamp, gateway or host\n" },
	};
	for (const auto &c : cases) {
		Result r = unoctl(c.args);
		EXPECT_EQ(r.status, 2) << c.args;
		EXPECT_EQ(r.err, c.err) << c.args;
	}
}

// --- qdisc ------------------------------------------------------------------

namespace {

// An RTM_NEWQDISC of a dump: the root qdisc of lo (ifindex 1 in every
// namespace), of `kind`, with the options `put` adds and the counters
// of TCA_STATS2, the qdisc's own (TCA_STATS_APP) xstats of `len` bytes.
std::optional<uno::QdiscInfo> dumped(const char *kind, void (*put)(nlmsghdr *),
				     const void *xstats, size_t len)
{
	alignas(nlmsghdr) static char buf[uno::kNlBufSize];
	nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWQDISC;
	auto *t = static_cast<tcmsg *>(mnl_nlmsg_put_extra_header(nlh, sizeof(tcmsg)));
	t->tcm_ifindex = 1;
	t->tcm_handle = 0x80010000;
	t->tcm_parent = TC_H_ROOT;
	mnl_attr_put_strz(nlh, TCA_KIND, kind);
	nlattr *opts = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	put(nlh);
	mnl_attr_nest_end(nlh, opts);
	nlattr *st = mnl_attr_nest_start(nlh, TCA_STATS2);
	const gnet_stats_basic b = { 123456, 789 };
	mnl_attr_put(nlh, TCA_STATS_BASIC, sizeof(b), &b);
	const gnet_stats_queue q = { 5, 7000, 2, 1, 3 };
	mnl_attr_put(nlh, TCA_STATS_QUEUE, sizeof(q), &q);
	mnl_attr_put(nlh, TCA_STATS_APP, len, xstats);
	mnl_attr_nest_end(nlh, st);
	return uno::parse_qdisc_msg(nlh);
}

// Every option of ndt and every counter of its own.
std::optional<uno::QdiscInfo> ndt_dumped()
{
	tc_ndt_xstats x{};
	x.flows = 3;
	x.active = 2;
	x.congested = 1;
	x.paused = 1;
	x.normal_qlen = 4;
	x.ctl_qlen = 5;
	x.max_backlog = 60000;
	x.rtt_dst_last_ns = 12000;
	x.ctl_enqueued = 9;
	x.pauses = 10;
	x.pause_timeouts = 11;
	x.samples = 12;
	x.flows_full = 13;
	x.tail_drops = 14;
	x.paused_ns = 1500000;
	x.normal_bytes = 800000;
	x.ctl_bytes = 100000;
	return dumped(
		"ndt",
		[](nlmsghdr *nlh) {
			mnl_attr_put_u64(nlh, TCA_NDT_RATE, 12500000);
			mnl_attr_put_u32(nlh, TCA_NDT_LIMIT, 64 << 20);
			mnl_attr_put_u32(nlh, TCA_NDT_BURST, 3000);
			mnl_attr_put_u64(nlh, TCA_NDT_DST_THRESH, 10000);
			mnl_attr_put_u32(nlh, TCA_NDT_ALPHA, 700000);
			mnl_attr_put_u32(nlh, TCA_NDT_N_THROTTLE, 8);
			mnl_attr_put_u64(nlh, TCA_NDT_MAXPAUSE, 500000);
			mnl_attr_put_u64(nlh, TCA_NDT_REARM, 1500000);
			mnl_attr_put_u64(nlh, TCA_NDT_ACTIVE, 100000);
			mnl_attr_put_u64(nlh, TCA_NDT_IDLE_GC, 10000000);
			mnl_attr_put_u32(nlh, TCA_NDT_FLOWS, 65536);
		},
		&x, sizeof(x));
}

} // namespace

TEST(QdiscJson, Ndt)
{
	auto q = ndt_dumped();
	ASSERT_TRUE(q);
	EXPECT_TRUE(uno::our_qdisc(q->kind));
	EXPECT_EQ(unoctl::qdisc_json(*q).dump(),
		  R"({"backlog":7000,"bytes":123456,"dev":"lo","drops":2,"handle":"8001:",)"
		  R"("kind":"ndt","options":{"active":100000,"alpha":0.7,"burst":3000,)"
		  R"("dst_thresh":10000,"flows":65536,"idle_gc":10000000,"limit":67108864,)"
		  R"("maxpause":500000,"n_throttle":8,"rate":12500000,"rearm":1500000},)"
		  R"("overlimits":3,"packets":789,"qlen":5,"requeues":1,"root":true,)"
		  R"("xstats":{"active":2,"congested":1,"ctl_bytes":100000,"ctl_enqueued":9,)"
		  R"("ctl_qlen":5,"flows":3,"flows_full":13,"max_backlog":60000,)"
		  R"("normal_bytes":800000,"normal_qlen":4,)"
		  R"("pause_timeouts":11,"paused":1,"paused_ns":1500000,"pauses":10,)"
		  R"("rtt_dst_last_ns":12000,"samples":12,"tail_drops":14}})");
}

TEST(QdiscText, Ndt)
{
	EXPECT_EQ(unoctl::qdisc_text(*ndt_dumped()),
		  "qdisc ndt 8001: dev lo root rate 100Mbit limit 67108864b burst 3000b "
		  "dst-thresh 10us alpha 0.7 n-throttle 8 maxpause 500us rearm 1500us "
		  "active 100us idle-gc 10ms flows 65536\n"
		  " Sent 123456 bytes 789 pkt (dropped 2, overlimits 3 requeues 1)\n"
		  " backlog 7000b 5p\n"
		  " flows 3 active 2 congested 1 paused 1 normal_qlen 4 ctl_qlen 5 "
		  "max_backlog 60000b rtt_dst_last_ns 12000\n"
		  " ctl_enqueued 9 pauses 10 pause_timeouts 11 samples 12 flows_full 13 "
		  "tail_drops 14 paused_ns 1500000\n"
		  " normal_bytes 800000 ctl_bytes 100000\n");
}

// What the kernel did not send is not shown; xstats too short are none.
TEST(QdiscJson, NdtWithLess)
{
	const uint32_t x = 0;
	auto q = dumped(
		"ndt", [](nlmsghdr *nlh) { mnl_attr_put_u64(nlh, TCA_NDT_RATE, 1000); }, &x,
		sizeof(x));
	ASSERT_TRUE(q);
	const nlohmann::json j = unoctl::qdisc_json(*q);
	EXPECT_EQ(j["options"].dump(), R"({"rate":1000})");
	EXPECT_FALSE(j.contains("xstats"));
	EXPECT_EQ(unoctl::qdisc_text(*q).substr(0, 38), "qdisc ndt 8001: dev lo root rate 0.008");
}

TEST(QdiscJson, Phantom)
{
	tc_phantom_xstats x{};
	x.ce_marks = 42;
	x.phantom_marks = 7;
	x.trim_backlog = 100;
	x.int_stamped = 5;
	x.xoff_events = 3;
	auto q = dumped(
		"phantom",
		[](nlmsghdr *nlh) {
			mnl_attr_put_u64(nlh, TCA_PHANTOM_RATE, 125000000);
			mnl_attr_put_u32(nlh, TCA_PHANTOM_PQ_RATE, 900000);
			mnl_attr_put_u32(nlh, TCA_PHANTOM_TRIM, 0);
			mnl_attr_put_u8(nlh, TCA_PHANTOM_TRIM_VALID, 1);
			mnl_attr_put_u8(nlh, TCA_PHANTOM_INT, 1);
			mnl_attr_put_u32(nlh, TCA_PHANTOM_XOFF, 1000000);
		},
		&x, sizeof(x));
	ASSERT_TRUE(q);
	EXPECT_EQ(unoctl::qdisc_json(*q).dump(),
		  R"({"backlog":7000,"bytes":123456,"dev":"lo","drops":2,"handle":"8001:",)"
		  R"("kind":"phantom","options":{"int":"on","phantom_rate":90.0,"rate":125000000,)"
		  R"("trim":0,"trim_udp":"valid","xoff":1000000},"overlimits":3,"packets":789,)"
		  R"("qlen":5,"requeues":1,"root":true,"xstats":{"ce_marks":42,"empty_ns":0,)"
		  R"("idle_ns":0,"int_full":0,"int_stamped":5,"max_backlog":0,"phantom_backlog":0,)"
		  R"("phantom_marks":7,"phantom_max_backlog":0,"stall_ns":0,"tail_drops":0,)"
		  R"("trim_backlog":100,"trim_drops":0,"trimmed":0,"xoff_events":3}})");
	EXPECT_EQ(unoctl::qdisc_text(*q),
		  "qdisc phantom 8001: dev lo root rate 1000Mbit phantom-rate 90% trim off "
		  "trim-udp valid int on xoff 1000000b\n"
		  " Sent 123456 bytes 789 pkt (dropped 2, overlimits 3 requeues 1)\n"
		  " backlog 7000b 5p\n"
		  " ce_marks 42 phantom_marks 7 trimmed 0 trim_drops 0 tail_drops 0\n"
		  " max_backlog 0b phantom_backlog 0b phantom_max_backlog 0b trim_backlog 100b\n"
		  " int_stamped 5 int_full 0 xoff_events 3\n");
}

// reflex show's element for NDT: the ndt qdiscs only, none without one.
TEST(ReflexNdt, TheNdtQdiscs)
{
	uno::QdiscInfo fq;
	fq.kind = "fq_codel";
	uno::QdiscInfo phantom;
	phantom.kind = "phantom";
	EXPECT_FALSE(uno::our_qdisc(fq.kind));
	EXPECT_TRUE(unoctl::reflex_ndt_json({}).is_null());
	EXPECT_TRUE(unoctl::reflex_ndt_json({ fq, phantom }).is_null());

	const uno::QdiscInfo ndt = *ndt_dumped();
	const nlohmann::json j = unoctl::reflex_ndt_json({ fq, ndt, phantom, ndt });
	EXPECT_EQ(j["role"], "ndt");
	ASSERT_EQ(j["ndt"].size(), 2u);
	EXPECT_EQ(j["ndt"][0], unoctl::qdisc_json(ndt));
	EXPECT_EQ(j["ndt"][1], unoctl::qdisc_json(ndt));
	EXPECT_FALSE(j["ndt"][0].contains("flows"));
}

// reflex show's ndt qdiscs with their flows (the class dump): each by its
// addresses and state; an empty table an empty list.
TEST(ReflexNdt, TheFlows)
{
	uno::QdiscInfo ndt = *ndt_dumped();
	ndt.ndt_flows.emplace();
	EXPECT_EQ(unoctl::qdisc_json(ndt)["flows"], nlohmann::json::array());

	tc_ndt_flow_xstats f{};
	f.saddr = htonl(0x0a640101);
	f.daddr = htonl(0x0ac80101);
	f.sport = htons(38602);
	f.dport = htons(5403);
	f.status = TC_NDT_CONGESTED;
	f.active = 1;
	f.normal_pkts = 2;
	f.ctl_pkts = 12;
	f.rtt_dst_last_ns = 41000000;
	f.idle_ns = 3000;
	ndt.ndt_flows->push_back(f);
	f.status = TC_NDT_NORMAL;
	f.active = 0;
	f.closed = 1;
	f.ctl_pkts = 0;
	ndt.ndt_flows->push_back(f);
	const nlohmann::json j = unoctl::reflex_ndt_json({ ndt });
	EXPECT_EQ(j["ndt"][0]["flows"].dump(),
		  R"([{"active":true,"closed":false,"ctl_pkts":12,"dst":"10.200.1.1:5403",)"
		  R"("idle_ns":3000,"normal_pkts":2,"rtt_dst_last_ns":41000000,)"
		  R"("src":"10.100.1.1:38602","status":"congested"},)"
		  R"({"active":false,"closed":true,"ctl_pkts":0,"dst":"10.200.1.1:5403",)"
		  R"("idle_ns":3000,"normal_pkts":2,"rtt_dst_last_ns":41000000,)"
		  R"("src":"10.100.1.1:38602","status":"normal"}])");
	const std::string text = unoctl::qdisc_text(ndt);
	EXPECT_NE(text.find(" flow 10.100.1.1:38602 > 10.200.1.1:5403 congested active "
			    "normal_pkts 2 ctl_pkts 12 rtt_dst_last_ns 41000000 idle_ns 3000\n"),
		  std::string::npos);
	EXPECT_NE(text.find(" flow 10.100.1.1:38602 > 10.200.1.1:5403 normal closed "
			    "normal_pkts 2 ctl_pkts 0 rtt_dst_last_ns 41000000 idle_ns 3000\n"),
		  std::string::npos);
}


// reflex show's host element: the counters not zero, and each socket's
// record with every field of struct rfx_flow_info under its own key.
TEST(ReflexShow, AHostsFlows)
{
	uno::RfxStatus s;
	s.role = RFX_ROLE_HOST;
	s.cfg.k = 6;
	s.cfg.port = 5404;
	s.stats[RFX_STAT_FB_ACCEPTED] = 25;
	s.stats[RFX_STAT_FB_STALE] = 1;

	uno::RfxHostFlow f{};
	f.key.saddr = htonl(0x0a640101);
	f.key.daddr = htonl(0x0ac80101);
	f.key.sport = htons(38602);
	f.key.dport = htons(5201);
	rfx_flow_info &i = f.info;
	i.reflex = 1;
	i.first_cut_ns = 1000;
	i.first_fb_ns = 900;
	i.episode_ns = 800;
	i.loop_ns = 50;
	i.cut_wait_ns = 150;
	i.rate_Bps = 6250000;
	i.cwnd = 3;
	i.cuts = 6;
	i.samples_src = 25;
	i.samples_e2e = 40;
	i.fb_accepted = 25;
	i.fb_stale = 1;
	i.fb_bad_rtt = 2;
	s.host_flows.push_back(f);

	EXPECT_EQ(unoctl::reflex_json(s).dump(),
		  R"({"counters":{"fb_accepted":25,"fb_stale":1},)"
		  R"("flows":[{"cut_wait_ns":150,"cuts":6,"cwnd":3,"dst":"10.200.1.1:5201",)"
		  R"("episode_ns":800,"fb_accepted":25,"fb_bad_rtt":2,"fb_stale":1,)"
		  R"("first_cut_ns":1000,"first_fb_ns":900,"loop_ns":50,"rate_Bps":6250000,)"
		  R"("reflex":true,"samples_e2e":40,"samples_src":25,"src":"10.100.1.1:38602"}],)"
		  R"("k":6,"port":5404,"role":"host"})");
}
