// SPDX-License-Identifier: GPL-2.0
//
// Unit tests of unoperf's pure parts: sizes, endpoints, flow specs, the wire
// header, slowdown and the JSON records.
#include <sstream>

#include <gtest/gtest.h>

#include "record.h"
#include "spec.h"
#include "wire.h"

using namespace unoperf;

namespace {

// The message of the InputError `f` throws, or "" if it does not throw.
template <typename F> std::string error_of(F &&f)
{
	try {
		f();
	} catch (const InputError &e) {
		return e.what();
	}
	return "";
}

} // namespace

TEST(ParseSize, PlainAndSuffixes)
{
	EXPECT_EQ(parse_size("1"), 1u);
	EXPECT_EQ(parse_size("1500"), 1500u);
	EXPECT_EQ(parse_size("1k"), 1000u);
	EXPECT_EQ(parse_size("64K"), 64000u);
	EXPECT_EQ(parse_size("8m"), 8000000u);
	EXPECT_EQ(parse_size("4M"), 4000000u);
	EXPECT_EQ(parse_size("2g"), 2000000000u);
	EXPECT_EQ(parse_size("007"), 7u);
	EXPECT_EQ(parse_size("18446744073709551615"), UINT64_MAX);
	EXPECT_EQ(parse_size("18446744073709551k"), 18446744073709551000u);
}

TEST(ParseSize, Overflow)
{
	EXPECT_EQ(error_of([] { parse_size("18446744073709551616"); }),
		  "invalid size '18446744073709551616': larger than 18446744073709551615 bytes");
	EXPECT_EQ(error_of([] { parse_size("18446744073709552k"); }),
		  "invalid size '18446744073709552k': larger than 18446744073709551615 bytes");
	EXPECT_EQ(error_of([] { parse_size("18446744074g"); }),
		  "invalid size '18446744074g': larger than 18446744073709551615 bytes");
	EXPECT_EQ(error_of([] { parse_size("99999999999999999999999999g"); }),
		  "invalid size '99999999999999999999999999g': larger than 18446744073709551615 bytes");
}

TEST(ParseSize, BadInput)
{
	EXPECT_EQ(error_of([] { parse_size("0"); }), "invalid size '0': must be at least 1 byte");
	EXPECT_EQ(error_of([] { parse_size("0k"); }), "invalid size '0k': must be at least 1 byte");
	EXPECT_EQ(error_of([] { parse_size("-1"); }), "invalid size '-1': must not be negative");
	EXPECT_EQ(error_of([] { parse_size("-1m"); }), "invalid size '-1m': must not be negative");
	const std::string expect_fmt =
		": expected bytes as a decimal integer with an optional k, m or g suffix (1000-based)";
	for (const char *bad : {"", "m", "8mb", "1.5m", " 8m", "8m ", "+8", "0x10", "8t", "1e6", "8kk"})
		EXPECT_EQ(error_of([&] { parse_size(bad); }),
			  "invalid size '" + std::string(bad) + "'" + expect_fmt)
			<< bad;
}

TEST(ParseUint, RangeAndSign)
{
	EXPECT_EQ(parse_uint("0", "x"), 0u);
	EXPECT_EQ(parse_uint("65535", "port", 65535), 65535u);
	EXPECT_EQ(error_of([] { parse_uint("65536", "port", 65535); }),
		  "invalid port '65536': larger than 65535");
	EXPECT_EQ(error_of([] { parse_uint("-5", "start"); }), "invalid start '-5': must not be negative");
	EXPECT_EQ(error_of([] { parse_uint("5us", "start"); }),
		  "invalid start '5us': expected a non-negative decimal integer");
	EXPECT_EQ(error_of([] { parse_uint("", "start"); }),
		  "invalid start '': expected a non-negative decimal integer");
}

TEST(ParseEndpoint, Valid)
{
	EXPECT_EQ(parse_endpoint("192.168.77.2"), (Endpoint{"192.168.77.2", 5301}));
	EXPECT_EQ(parse_endpoint("192.168.77.2:80"), (Endpoint{"192.168.77.2", 80}));
	EXPECT_EQ(parse_endpoint("10.0.0.1", 9000), (Endpoint{"10.0.0.1", 9000}));
	EXPECT_EQ(parse_endpoint("10.0.0.1:65535").str(), "10.0.0.1:65535");
}

TEST(ParseEndpoint, Invalid)
{
	EXPECT_EQ(error_of([] { parse_endpoint("server:80"); }),
		  "invalid address 'server': expected an IPv4 address like 192.168.77.2");
	EXPECT_EQ(error_of([] { parse_endpoint(":80"); }),
		  "invalid address '': expected an IPv4 address like 192.168.77.2");
	EXPECT_EQ(error_of([] { parse_endpoint("1.2.3.4:0"); }),
		  "invalid port '0': must be 1 to 65535");
	EXPECT_EQ(error_of([] { parse_endpoint("1.2.3.4:65536"); }),
		  "invalid port '65536': larger than 65535");
	EXPECT_EQ(error_of([] { parse_endpoint("1.2.3.4:"); }),
		  "invalid port '': expected a non-negative decimal integer");
	EXPECT_EQ(error_of([] { parse_endpoint("1.2.3.256"); }),
		  "invalid address '1.2.3.256': expected an IPv4 address like 192.168.77.2");
	EXPECT_NE(error_of([] { parse_endpoint("::1"); }), "");
}

TEST(ParseEndpoint, Ipv6InBrackets)
{
	EXPECT_EQ(parse_endpoint("[::1]"), (Endpoint{"::1", 5301}));
	EXPECT_EQ(parse_endpoint("[fd00::2]:80"), (Endpoint{"fd00::2", 80}));
	EXPECT_EQ(parse_endpoint("[fd00::2]:80").str(), "[fd00::2]:80");
	EXPECT_TRUE(parse_endpoint("[::1]").v6());
	EXPECT_FALSE(parse_endpoint("10.0.0.1").v6());
	EXPECT_EQ(error_of([] { parse_endpoint("[::1"); }),
		  "invalid address '[::1': no ']' after the IPv6 address");
	EXPECT_EQ(error_of([] { parse_endpoint("[::1]80"); }),
		  "invalid address '[::1]80': expected ':PORT' after ']'");
	EXPECT_EQ(error_of([] { parse_endpoint("[::1]:0"); }), "invalid port '0': must be 1 to 65535");
	EXPECT_EQ(error_of([] { parse_endpoint("[10.0.0.1]:80"); }),
		  "invalid address '10.0.0.1': expected an IPv6 address like fd00::2");
	EXPECT_EQ(parse_flow_spec("ns=a,size=1,dst=[fd00::2]:6000").dst, (Endpoint{"fd00::2", 6000}));
	EXPECT_EQ(parse_ip("::"), "::");
	EXPECT_EQ(parse_ip("0.0.0.0"), "0.0.0.0");
}

TEST(ParseFlowSpec, Full)
{
	const FlowSpec s = parse_flow_spec(
		"ns=uno-h1,size=8m,cc=dctcp,start=250,class=intra,base_rtt=850,dst=192.168.77.2:6000,count=3");
	FlowSpec want;
	want.ns = "uno-h1";
	want.size = 8000000;
	want.cc = "dctcp";
	want.start_us = 250;
	want.cls = "intra";
	want.base_rtt_us = 850;
	want.dst = Endpoint{"192.168.77.2", 6000};
	want.count = 3;
	EXPECT_EQ(s, want);
}

TEST(ParseFlowSpec, DefaultsAndKeyOrder)
{
	const FlowSpec s = parse_flow_spec("size=1k,ns=-");
	EXPECT_EQ(s.ns, "-");
	EXPECT_EQ(s.size, 1000u);
	EXPECT_EQ(s.cc, "");
	EXPECT_EQ(s.start_us, 0u);
	EXPECT_EQ(s.cls, "");
	EXPECT_FALSE(s.base_rtt_us.has_value());
	EXPECT_FALSE(s.dst.has_value());
	EXPECT_EQ(s.count, 1u);
	// The largest offset allowed is one day.
	EXPECT_EQ(parse_flow_spec("ns=a,size=1,start=86400000000").start_us, 86400000000u);
}

TEST(ParseFlowSpec, BadInput)
{
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=a,size=1m,color=red"); }),
		  "flow spec 'ns=a,size=1m,color=red': unknown key 'color' (known keys: ns, size, "
		  "cc, start, class, base_rtt, dst, count)");
	EXPECT_EQ(error_of([] { parse_flow_spec("size=8m,cc=dctcp"); }),
		  "flow spec 'size=8m,cc=dctcp': missing required key 'ns' (use ns=- for the "
		  "current namespace)");
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=a"); }),
		  "flow spec 'ns=a': missing required key 'size'");
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=a,size=1m,start=-5"); }),
		  "flow spec 'ns=a,size=1m,start=-5': invalid start (microseconds) '-5': must not "
		  "be negative");
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=a,size=1,start=86400000001"); }),
		  "flow spec 'ns=a,size=1,start=86400000001': invalid start (microseconds) "
		  "'86400000001': larger than 86400000000");
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=a,size=20000000000g"); }),
		  "flow spec 'ns=a,size=20000000000g': invalid size '20000000000g': larger than "
		  "18446744073709551615 bytes");
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=a,ns=b,size=1"); }),
		  "flow spec 'ns=a,ns=b,size=1': key 'ns' given twice");
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=,size=1"); }),
		  "flow spec 'ns=,size=1': key 'ns' has an empty value");
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=a,size=1,"); }),
		  "flow spec 'ns=a,size=1,': empty item (stray comma?)");
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=a,size"); }),
		  "flow spec 'ns=a,size': item 'size' is not key=value");
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=../etc,size=1"); }),
		  "flow spec 'ns=../etc,size=1': invalid ns '../etc': must be a name under "
		  "/run/netns (or '-' for the current namespace)");
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=a,size=1,cc=averyveryverylongcc"); }),
		  "flow spec 'ns=a,size=1,cc=averyveryverylongcc': invalid cc "
		  "'averyveryverylongcc': longer than 15 characters");
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=a,size=1,count=0"); }),
		  "flow spec 'ns=a,size=1,count=0': invalid count '0': must be at least 1");
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=a,size=1,count=10001"); }),
		  "flow spec 'ns=a,size=1,count=10001': invalid count '10001': larger than 10000");
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=a,size=1,dst=h2"); }),
		  "flow spec 'ns=a,size=1,dst=h2': invalid address 'h2': expected an IPv4 address "
		  "like 192.168.77.2");
	EXPECT_EQ(error_of([] { parse_flow_spec("ns=a,size=1,base_rtt=1.5"); }),
		  "flow spec 'ns=a,size=1,base_rtt=1.5': invalid base_rtt (microseconds) '1.5': "
		  "expected a non-negative decimal integer");
	EXPECT_EQ(error_of([] { parse_flow_spec(""); }), "empty flow spec");
}

TEST(ParseFlowsFile, CommentsBlanksAndCrlf)
{
	std::istringstream in("# incast\n"
			      "\n"
			      "  ns=h1,size=4m,class=intra  \r\n"
			      "\t# indented comment\n"
			      "ns=h2,size=4m,start=100,count=2\n");
	const std::vector<FlowSpec> specs = parse_flows_file(in, "incast.txt");
	ASSERT_EQ(specs.size(), 2u);
	EXPECT_EQ(specs[0].ns, "h1");
	EXPECT_EQ(specs[0].cls, "intra");
	EXPECT_EQ(specs[1].ns, "h2");
	EXPECT_EQ(specs[1].start_us, 100u);
	EXPECT_EQ(specs[1].count, 2u);
}

TEST(ParseFlowsFile, ErrorNamesTheLine)
{
	std::istringstream in("ns=h1,size=4m\n\nns=h2,size=4x\n");
	EXPECT_EQ(error_of([&] { parse_flows_file(in, "f.txt"); }),
		  "f.txt:3: flow spec 'ns=h2,size=4x': invalid size '4x': expected bytes as a "
		  "decimal integer with an optional k, m or g suffix (1000-based)");
	std::istringstream empty("# nothing\n");
	EXPECT_TRUE(parse_flows_file(empty, "e.txt").empty());
}

TEST(Wire, EncodeIsBigEndianAndFixed)
{
	const HeaderBytes b = encode_header({0x01020304, 0x1122334455667788ULL, 0x0a0b0c0d0e0f1011ULL});
	const HeaderBytes want = {
		0x55, 0x4e, 0x4f, 0x50, 0x00, 0x01, 0x00, 0x00, // magic "UNOP", version 1, flags
		0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x00, 0x00, // flow id, reserved
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, // size
		0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, // start_ns
	};
	EXPECT_EQ(b, want);
}

TEST(Wire, RoundTrip)
{
	const FlowHeader h{7, 4000000, 123456789012345ULL};
	const HeaderBytes b = encode_header(h);
	FlowHeader got;
	std::string err;
	ASSERT_TRUE(decode_header(b, &got, &err)) << err;
	EXPECT_EQ(got, h);

	const FlowHeader max{UINT32_MAX, UINT64_MAX, UINT64_MAX};
	ASSERT_TRUE(decode_header(encode_header(max), &got, &err));
	EXPECT_EQ(got, max);
}

TEST(Wire, RejectsBadMagicAndVersion)
{
	HeaderBytes b = encode_header({1, 2, 3});
	FlowHeader got;
	std::string err;
	b[0] = 'G';
	EXPECT_FALSE(decode_header(b, &got, &err));
	EXPECT_EQ(err, "bad magic 0x474e4f50 (not an unoperf client?)");

	b = encode_header({1, 2, 3});
	b[5] = 2;
	EXPECT_FALSE(decode_header(b, &got, &err));
	EXPECT_EQ(err, "unsupported protocol version 2 (this is 1)");

	// Flags and reserved bits are ignored.
	b = encode_header({1, 2, 3});
	b[7] = 0xff;
	b[12] = 0xff;
	ASSERT_TRUE(decode_header(b, &got, &err));
	EXPECT_EQ(got, (FlowHeader{1, 2, 3}));
}

TEST(Slowdown, Math)
{
	// 1 MB at 1000 Mbit/s: 8000 us on the wire, plus a 10 us base RTT.
	EXPECT_EQ(ideal_fct_us(1000000, 1000, 10), 8010.0);
	// 4 MB at 200 Mbit/s with an 850 us base RTT.
	EXPECT_EQ(ideal_fct_us(4000000, 200, 850), 160850.0);
	EXPECT_EQ(ideal_fct_us(1, 8, 0), 1.0);
	EXPECT_EQ(slowdown(16020, 8010), 2.0);
	EXPECT_EQ(slowdown(8010, 8010), 1.0);
	EXPECT_EQ(ns_to_us(1234567), 1234.567);
}

namespace {

ClientFlowResult done_flow()
{
	ClientFlowResult r;
	r.id = 3;
	r.ns = "uno-h1";
	r.cc = "cubic";
	r.cls = "intra";
	r.dst = "192.168.77.2:5301";
	r.size = 1000000;
	r.offset_us = 0;
	r.base_rtt_us = 10;
	r.sched_ns = 5000000000;
	r.start_ns = 5000001500;
	r.end_ns = 5016021500; // fct 16020 us
	r.bytes = 1000000;
	r.ok = true;
	return r;
}

} // namespace

TEST(Json, ClientFlowWithSlowdown)
{
	EXPECT_EQ(client_flow_json(done_flow(), 1000.0).dump(),
		  R"({"id":3,"ns":"uno-h1","cc":"cubic","class":"intra","dst":"192.168.77.2:5301",)"
		  R"("transport":"tcp","size":1000000,"bytes":1000000,"offset_us":0,"ok":true,"sched_ns":5000000000,)"
		  R"("start_ns":5000001500,"end_ns":5016021500,"start_lag_us":1.5,"fct_us":16020.0,)"
		  R"("base_rtt_us":10,"ideal_us":8010.0,"slowdown":2.0})");
}

TEST(Json, ClientFlowWithoutRateHasNoSlowdown)
{
	ClientFlowResult r = done_flow();
	r.base_rtt_us.reset();
	r.ns = "-";
	r.cls.clear();
	EXPECT_EQ(client_flow_json(r, std::nullopt).dump(),
		  R"({"id":3,"ns":null,"cc":"cubic","class":null,"dst":"192.168.77.2:5301",)"
		  R"("transport":"tcp","size":1000000,"bytes":1000000,"offset_us":0,"ok":true,"sched_ns":5000000000,)"
		  R"("start_ns":5000001500,"end_ns":5016021500,"start_lag_us":1.5,"fct_us":16020.0})");
}

TEST(Json, FailedFlowAndEscaping)
{
	ClientFlowResult r;
	r.id = 0;
	r.ns = "h\"1";
	r.dst = "192.168.77.2:5301";
	r.size = 5;
	r.error = "connect to 192.168.77.2:5301: Connection refused\n";
	EXPECT_EQ(client_flow_json(r, 100.0).dump(),
		  R"({"id":0,"ns":"h\"1","cc":null,"class":null,"dst":"192.168.77.2:5301","transport":"tcp",)"
		  R"("size":5,"bytes":0,"offset_us":0,"ok":false,"sched_ns":null,"start_ns":null,"end_ns":null,)"
		  R"("start_lag_us":null,"fct_us":null,)"
		  R"("error":"connect to 192.168.77.2:5301: Connection refused\n"})");
}

TEST(Json, ClientReportSummary)
{
	ClientRun run;
	run.common_start_ns = 5000000000;
	run.timeout_s = 60;
	ClientFlowResult a = done_flow();
	a.base_rtt_us.reset();
	ClientFlowResult b = a;
	b.id = 4;
	b.start_ns = 5000003500;  // lag 3.5 us
	b.end_ns = 5000007500;    // fct 4000 ns
	ClientFlowResult c = a;
	c.id = 5;
	c.ok = false;
	c.end_ns = 0;
	c.error = "aborted: flow 9 failed";
	run.flows = {a, b, c};

	const Json j = client_report_json(run);
	EXPECT_EQ(j["unoperf"], 1);
	EXPECT_EQ(j["role"], "client");
	EXPECT_EQ(j["common_start_ns"], 5000000000u);
	EXPECT_TRUE(j["rate_mbps"].is_null());
	EXPECT_EQ(j["flows"].size(), 3u);
	EXPECT_EQ(j["summary"].dump(),
		  R"({"flows":3,"completed":2,"failed":1,"max_start_lag_us":3.5,)"
		  R"("min_fct_us":4.0,"mean_fct_us":8012.0,"max_fct_us":16020.0,)"
		  R"("bytes":3000000,"p50_fct_us":4.0,"p99_fct_us":16020.0,)"
		  R"("mean_slowdown":null,"p50_slowdown":null,"p99_slowdown":null,)"
		  R"("classes":{"intra":{"flows":3,"completed":2,"bytes":3000000,)"
		  R"("mean_fct_us":8012.0,"p50_fct_us":4.0,"p99_fct_us":16020.0,)"
		  R"("mean_slowdown":null,"p50_slowdown":null,"p99_slowdown":null}}})");
}

TEST(Json, ClientReportNothingCompleted)
{
	ClientRun run;
	ClientFlowResult r;
	r.error = "x";
	run.flows = {r};
	EXPECT_EQ(client_report_json(run)["summary"].dump(),
		  R"({"flows":1,"completed":0,"failed":1,"max_start_lag_us":0.0,)"
		  R"("min_fct_us":null,"mean_fct_us":null,"max_fct_us":null,"bytes":0,)"
		  R"("p50_fct_us":null,"p99_fct_us":null,)"
		  R"("mean_slowdown":null,"p50_slowdown":null,"p99_slowdown":null,"classes":{}})");
}

TEST(Json, ServerRecord)
{
	ServerFlowRecord r;
	r.id = 2;
	r.peer = "192.168.77.1:40312";
	r.cc = "cubic";
	r.size = 4000000;
	r.client_start_ns = 1000000000;
	r.first_byte_ns = 1000050000;
	r.last_byte_ns = 1032000000; // 32 ms: 1000 Mbit/s
	EXPECT_EQ(server_flow_json(r).dump(),
		  R"({"unoperf":1,"role":"server","id":2,"peer":"192.168.77.1:40312","cc":"cubic",)"
		  R"("transport":"tcp","size":4000000,"client_start_ns":1000000000,"first_byte_ns":1000050000,)"
		  R"("last_byte_ns":1032000000,"rx_fct_us":32000.0,"goodput_mbps":1000.0})");

	r.last_byte_ns = r.client_start_ns; // clocks disagree: no rates
	const Json j = server_flow_json(r);
	EXPECT_TRUE(j["rx_fct_us"].is_null());
	EXPECT_TRUE(j["goodput_mbps"].is_null());
}

TEST(Json, UnorcFlowAndServerRecord)
{
	ClientRun run;
	run.transport = "unorc";
	ClientFlowResult r = done_flow();
	r.transport = "unorc";
	r.cc = "uno";
	UnorcFlowStats u;
	u.cls = "inter";
	u.code = "8+2";
	u.subflows = 10;
	u.packets_sent = 900;
	u.bytes_sent = 1250000;
	u.retransmissions = 3;
	u.nacks = 1;
	u.max_cwnd = 65000;
	u.base_rtt_us = 120;
	u.rtt_us.add(120);
	u.rtt_us.add(121);
	u.rtt_us.add(250);
	r.unorc = u;
	run.flows = {r};
	const Json j = client_report_json(run);
	EXPECT_EQ(j["transport"], "unorc");
	EXPECT_EQ(j["flows"][0]["transport"], "unorc");
	EXPECT_EQ(j["flows"][0]["unorc"].dump(),
		  R"({"class":"inter","code":"8+2","subflows":10,"packets_sent":900,)"
		  R"("bytes_sent":1250000,"retransmissions":3,"timeouts":0,"rto_events":0,)"
		  R"("nacks":1,"trim_nacks":0,"repath_events":0,"max_cwnd":65000,"base_rtt_us":120,)"
		  R"("drops":0,"rtt_us_hist":{"120":2,"248":1}})");
	EXPECT_EQ(j["summary"]["unorc"]["packets_sent"], 900);
	EXPECT_EQ(j["summary"]["unorc"]["rtt_samples"], 3);
	EXPECT_EQ(j["summary"]["unorc"]["rtt_us_p50"], 120);
	EXPECT_EQ(j["summary"]["unorc"]["rtt_us_p99"], 248);
	EXPECT_EQ(j["summary"]["unorc"]["retransmissions"], 3);
	run.transport = "tcp";
	EXPECT_FALSE(client_report_json(run)["summary"].contains("unorc"));

	ServerFlowRecord s;
	s.id = 2;
	s.peer = "[fd00::1]:40312";
	s.cc = "uno";
	s.transport = "unorc";
	s.size = 4000000;
	s.client_start_ns = 1000000000;
	s.last_byte_ns = 1032000000;
	s.mismatched_bytes = 0;
	EXPECT_EQ(server_flow_json(s).dump(),
		  R"({"unoperf":1,"role":"server","id":2,"peer":"[fd00::1]:40312","cc":"uno",)"
		  R"("transport":"unorc","size":4000000,"client_start_ns":1000000000,)"
		  R"("first_byte_ns":null,"last_byte_ns":1032000000,"mismatched_bytes":0,"ok":true,)"
		  R"("rx_fct_us":32000.0,"goodput_mbps":1000.0})");
	s.mismatched_bytes = 3;
	EXPECT_FALSE(server_flow_json(s)["ok"].get<bool>());
	s.mismatched_bytes = 0;
	s.error = "bad magic";
	EXPECT_FALSE(server_flow_json(s)["ok"].get<bool>());
	EXPECT_EQ(server_flow_json(s)["error"], "bad magic");
}

TEST(Json, Percentile)
{
	// Nearest rank: the ceil(p/100 * n)-th smallest.
	const std::vector<double> v = {5, 1, 4, 2, 3};
	EXPECT_EQ(percentile(v, 0), 1.0);
	EXPECT_EQ(percentile(v, 20), 1.0);
	EXPECT_EQ(percentile(v, 21), 2.0);
	EXPECT_EQ(percentile(v, 50), 3.0);
	EXPECT_EQ(percentile(v, 99), 5.0);
	EXPECT_EQ(percentile(v, 100), 5.0);
	std::vector<double> h(100);
	for (size_t i = 0; i < h.size(); ++i)
		h[i] = static_cast<double>(i + 1);
	EXPECT_EQ(percentile(h, 99), 99.0);
	EXPECT_EQ(percentile({}, 50), 0.0);
}

TEST(Json, PerClassSummaryAndMatrixOrigin)
{
	ClientRun run;
	run.rate_mbps = 1000;
	ClientFlowResult a = done_flow(); // intra, slowdown 2
	ClientFlowResult b = done_flow();
	b.id = 4;
	b.cls = "inter";
	b.base_rtt_us = 1990; // ideal 9990 us
	b.end_ns = b.start_ns + 29970000; // slowdown 3
	b.matrix = MatrixRef{7, 1, 240};
	ClientFlowResult c = b;
	c.id = 5;
	c.ok = false;
	c.bytes = 10;
	c.error = "x";
	run.flows = {a, b, c};
	run.workload = {{"mode", "matrix"}};

	const Json j = client_report_json(run);
	EXPECT_EQ(j["workload"].dump(), R"({"mode":"matrix"})");
	EXPECT_EQ(j["flows"][1]["matrix"].dump(), R"({"id":7,"src":1,"dst":240})");
	EXPECT_FALSE(j["flows"][0].contains("matrix"));
	const Json &s = j["summary"];
	EXPECT_EQ(s["bytes"], 2000010u);
	EXPECT_EQ(s["mean_slowdown"], 2.5);
	EXPECT_EQ(s["p50_slowdown"], 2.0);
	EXPECT_EQ(s["p99_slowdown"], 3.0);
	EXPECT_EQ(s["classes"].dump(),
		  R"({"inter":{"flows":2,"completed":1,"bytes":1000010,"mean_fct_us":29970.0,)"
		  R"("p50_fct_us":29970.0,"p99_fct_us":29970.0,"mean_slowdown":3.0,)"
		  R"("p50_slowdown":3.0,"p99_slowdown":3.0},)"
		  R"("intra":{"flows":1,"completed":1,"bytes":1000000,"mean_fct_us":16020.0,)"
		  R"("p50_fct_us":16020.0,"p99_fct_us":16020.0,"mean_slowdown":2.0,)"
		  R"("p50_slowdown":2.0,"p99_slowdown":2.0}})");
}
