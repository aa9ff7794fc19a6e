// SPDX-License-Identifier: GPL-2.0
//
// The settings every command takes (settings.h) and the checked payloads
// (pattern.h): what each value becomes, and the words a bad one gets.
#include <gtest/gtest.h>

#include "pattern.h"
#include "settings.h"

using namespace unorc;

namespace {

// The message of the std::invalid_argument f throws, "" if none.
template <typename F> std::string error_of(F &&f)
{
	try {
		f();
	} catch (const std::invalid_argument &e) {
		return e.what();
	}
	return "";
}

CodeSettings codes(std::string code, std::vector<std::string> prefixes,
		   size_t payload = kDefaultPayload)
{
	CodeSettings s;
	s.code = std::move(code);
	s.inter_prefixes = std::move(prefixes);
	s.payload = payload;
	return s;
}

bool same(const WireLimits &a, const WireLimits &b)
{
	return a.x == b.x && a.y == b.y && a.len == b.len;
}

} // namespace

TEST(Settings, ParseCode)
{
	EXPECT_TRUE(same(parse_code("8+2", 1400), { 8, 2, 1400 }));
	EXPECT_TRUE(same(parse_code("1+0", 100), { 1, 0, 100 }));
	EXPECT_EQ(error_of([] { parse_code("8-2", 1400); }),
		  "'8-2': need X+Y (e.g. 8+2), none or auto");
	EXPECT_EQ(error_of([] { parse_code("+2", 1400); }),
		  "'+2': need X+Y (e.g. 8+2), none or auto");
	EXPECT_EQ(error_of([] { parse_code("1000+2", 1400); }),
		  "'1000+2': need X+Y (e.g. 8+2), none or auto");
	// BlockCoder's checks, without ISA-L.
	EXPECT_EQ(error_of([] { parse_code("250+10", 1400); }),
		  "'250+10': bad code (250, 10): need 1 <= x, 0 <= y, x + y <= 256");
	EXPECT_EQ(error_of([] { parse_code("0+2", 1400); }),
		  "'0+2': bad code (0, 2): need 1 <= x, 0 <= y, x + y <= 256");
	EXPECT_EQ(error_of([] { parse_code("8+2", 0); }),
		  "'8+2': bad payload length 0: need 1..65535");
	EXPECT_EQ(check_code("auto"), "");
	EXPECT_EQ(check_code("none"), "");
	EXPECT_EQ(check_code("255+1"), "");
	EXPECT_EQ(check_code("None"), "'None': need X+Y (e.g. 8+2), none or auto");
	EXPECT_EQ(check_code(""), "'': need X+Y (e.g. 8+2), none or auto");
}

TEST(Settings, CodePolicyByPrefixOrForAll)
{
	const Endpoint in = parse_endpoint("10.1.2.3:1"), out = parse_endpoint("10.2.0.1:1");
	const CodePolicy p = code_policy(codes("auto", { "10.1.0.0/16" }, 1000));
	EXPECT_TRUE(p.is_inter(in));
	EXPECT_FALSE(p.is_inter(out));
	EXPECT_TRUE(same(p.code_for(in), { 8, 2, 1000 }));
	EXPECT_TRUE(same(p.code_for(out), { 1, 0, 1000 }));

	const CodePolicy all = code_policy(codes("4+1", { "10.1.0.0/16" }));
	EXPECT_TRUE(same(all.code_for(out), { 4, 1, kDefaultPayload }));
	EXPECT_TRUE(all.is_inter(in)); // the class stays the prefix's
	const CodePolicy none = code_policy(codes("none", {}));
	EXPECT_TRUE(same(none.code_for(in), { 1, 0, kDefaultPayload }));

	EXPECT_EQ(error_of([] { code_policy(codes("x", {})); }),
		  "--code 'x': need X+Y (e.g. 8+2), none or auto");
	EXPECT_NE(error_of([] { code_policy(codes("auto", { "10.1.0.0/33" })); })
			  .rfind("--inter-prefix ", 0),
		  std::string::npos);
	EXPECT_EQ(code_name({ 8, 2, 1 }), "8+2");
	EXPECT_EQ(code_name({ 1, 0, 1 }), "none");
}

TEST(Settings, TrimDscp)
{
	EXPECT_EQ(check_trim_dscp("off"), "");
	EXPECT_EQ(check_trim_dscp("0"), "");
	EXPECT_EQ(check_trim_dscp("63"), "");
	for (const char *bad : { "64", "", "-1", "6x", "100" })
		EXPECT_EQ(check_trim_dscp(bad), "expected off or 0..63") << bad;
	EXPECT_EQ(trim_dscp_of("off"), std::nullopt);
	EXPECT_EQ(trim_dscp_of("62"), 62);
	EXPECT_EQ(error_of([] { trim_dscp_of("64"); }), "--trim-dscp '64': expected off or 0..63");
}

TEST(Settings, SenderFlowConfig)
{
	SenderSettings s;
	EXPECT_EQ(subflows_for(s, { 8, 2, 1 }), 10);
	EXPECT_EQ(subflows_for(s, { 16, 4, 1 }), UNOLB_MAX_SUBFLOWS);
	EXPECT_EQ(subflows_for(s, { 1, 0, 1 }), 1);
	s.subflows = 3;
	EXPECT_EQ(subflows_for(s, { 1, 0, 1 }), 3);

	s.repath = "copy_good";
	s.rto_us = 500;
	const FlowConfig c = flow_config(s, 7, { 8, 2, 1 });
	EXPECT_EQ(c.flow_id, 7u);
	EXPECT_EQ(c.rto_ns, 500'000u);
	EXPECT_EQ(c.cc, &s.cc);
	EXPECT_EQ(c.repath, UNOLB_REPATH_COPY_GOOD);
	s.repath = "sideways";
	EXPECT_EQ(error_of([&] { flow_config(s, 7, { 8, 2, 1 }); }),
		  "--repath 'sideways': expected off, redraw or copy_good");
}

TEST(Settings, ReceiverOptions)
{
	const ReceiverOptions o = receiver_options({ .ec_wait_us = 300, .window_bytes = 5000,
						     .max_flows = 9, .trim_dscp = "off" },
						   code_policy({}));
	EXPECT_EQ(o.ec_wait_ns, 300'000u);
	EXPECT_EQ(o.window_bytes, 5000u);
	EXPECT_EQ(o.max_flows, 9u);
	EXPECT_EQ(o.trim_dscp, std::nullopt);
}

TEST(Pattern, EveryByteCounts)
{
	std::vector<uint8_t> m = pattern_message(5, 1000);
	EXPECT_EQ(pattern_mismatches(m, 5), 0u);
	EXPECT_GT(pattern_mismatches(m, 6), 900u); // another id's bytes
	m[999] ^= 1;
	m[0] ^= 0x80;
	EXPECT_EQ(pattern_mismatches(m, 5), 2u);
	// A byte out of place: the pattern depends on the position.
	const std::vector<uint8_t> ok = pattern_message(5, 1000);
	EXPECT_GT(pattern_mismatches(std::span(ok).subspan(1), 5), 500u);
	std::vector<uint8_t> f(3);
	fill_pattern(f, 5);
	EXPECT_EQ(f, std::vector<uint8_t>(ok.begin(), ok.begin() + 3));
	EXPECT_EQ(pattern_byte(5, 2), ok[2]);
}
