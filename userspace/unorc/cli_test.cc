// SPDX-License-Identifier: GPL-2.0
//
// The transport's knobs (knobs.h) and their options (cli.h): every knob's
// values and the words a bad one gets, and where a command's settings
// come from: its options over [unorc] of the configuration file over its
// built-in defaults.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "cli.h"
#include "knobs.h"
#include "settings.h"

using namespace unorc;

namespace {

// A directory of files, removed at the end.
class TempDir {
public:
	TempDir()
	{
		char tmpl[] = "/tmp/unorc_cli_test_XXXXXX";
		if (!mkdtemp(tmpl))
			throw std::runtime_error("mkdtemp");
		path_ = tmpl;
	}
	~TempDir()
	{
		for (const std::string &f : files_)
			unlink(f.c_str());
		rmdir(path_.c_str());
	}
	std::string write(const std::string &name, const std::string &text)
	{
		const std::string f = file(name);
		std::ofstream(f) << text;
		files_.insert(f);
		return f;
	}
	std::string file(const std::string &name) const { return path_ + "/" + name; }

private:
	std::string path_;
	std::set<std::string> files_;
};

struct CmdRun {
	Settings s;
	Applied a;
	std::string error; // apply()'s
};

// A command of side with the transport's options, given args, its
// default file default_config, its built-in settings s.
CmdRun run(Side side, std::vector<std::string> args, const std::string &default_config,
	Settings s = {})
{
	CLI::App app;
	TransportOptions t(&app, side, s);
	args.insert(args.begin(), "cmd");
	std::vector<const char *> argv;
	for (const std::string &a : args)
		argv.push_back(a.c_str());
	app.parse(static_cast<int>(argv.size()), argv.data());
	CmdRun r{ s, {}, {} };
	try {
		r.a = t.apply(r.s, default_config);
	} catch (const std::invalid_argument &e) {
		r.error = e.what();
	}
	return r;
}

// Every knob of a side's command, in effect, as text.
std::map<std::string, std::string> values(const CmdRun &r, Side side)
{
	std::map<std::string, std::string> v;
	for (const Knob &k : knobs())
		if (for_side(k.side, side))
			v[std::string(k.name)] = value_text(k.get(r.s));
	return v;
}

std::map<std::string, std::string> sources(const CmdRun &r)
{
	std::map<std::string, std::string> v;
	for (const auto &[name, src] : r.a.sources)
		v[name] = source_name(src);
	return v;
}

constexpr const char *kNoFile = "/nonexistent/uno.toml";

} // namespace

// --- the table ------------------------------------------------------------

TEST(Knobs, Table)
{
	std::set<std::string_view> names;
	for (const Knob &k : knobs()) {
		EXPECT_TRUE(names.insert(k.name).second) << k.name << " twice";
		EXPECT_EQ(find_knob(k.name), &k);
		EXPECT_TRUE(k.set && k.get) << k.name;
		EXPECT_FALSE(k.help.empty() || k.metavar.empty()) << k.name;
		EXPECT_EQ(k.type == TomlType::Strings, k.clear != nullptr) << k.name;
		if (k.type == TomlType::Integer || k.type == TomlType::IntegerOrWord)
			EXPECT_LE(k.min, k.max) << k.name;
		else
			EXPECT_FALSE(k.syntax.empty()) << k.name;
		EXPECT_EQ(k.type == TomlType::IntegerOrWord, !k.word.empty()) << k.name;
		// The built-in default is a value the knob takes, as it shows it.
		if (!k.cli_only.empty())
			continue;
		const KnobValue v = k.get(Settings{});
		if (const auto *list = std::get_if<std::vector<std::string>>(&v))
			EXPECT_TRUE(list->empty()) << k.name;
		else
			EXPECT_EQ(check_knob(k, value_text(v)), "") << k.name;
	}
	EXPECT_EQ(find_knob("rto_us"), nullptr);
	EXPECT_EQ(names.size(), 16u);
}

// Each knob's value as the command line or the file gives it, and what
// it is then.
TEST(Knobs, EveryValue)
{
	const struct {
		const char *knob, *text, *shown;
	} cases[] = {
		{ "code", "4+1", "4+1" },
		{ "code", "none", "none" },
		{ "code", "auto", "auto" },
		{ "code", "1+0", "1+0" },
		{ "code", "255+1", "255+1" },
		{ "inter-prefix", "10.1.0.0/16", "10.1.0.0/16" },
		{ "inter-prefix", "fd00::/8", "fd00::/8" },
		{ "inter-prefix", "0.0.0.0/0", "0.0.0.0/0" },
		{ "payload", "1", "1" },
		{ "payload", "65467", "65467" },
		{ "subflows", "1", "1" },
		{ "subflows", "16", "16" },
		{ "subflows", "auto", "auto" },
		{ "source-port", "65535", "65535" },
		{ "repath", "off", "off" },
		{ "repath", "copy_good", "copy_good" },
		{ "rto-us", "20", "20" },
		{ "rto-us", "60000000", "60000000" },
		{ "rto-us", "007", "" }, // below: out of range
		{ "link-mbps", "10000000", "10000000" },
		{ "intra-rtt-us", "1", "1" },
		{ "cc", "smartt", "smartt" },
		{ "cc", "nscc", "nscc" },
		{ "cc", "uno", "uno" },
		{ "ec-wait-us", "300", "300" },
		{ "window-bytes", "17179869184", "17179869184" },
		{ "max-flows", "1048576", "1048576" },
		{ "trim-dscp", "0", "0" },
		{ "trim-dscp", "off", "off" },
		{ "trim-dscp", "07", "7" },
		{ "rcvbuf", "0", "0" },
		{ "rcvbuf", "65536", "65536" },
		{ "rcvbuf", "1073741824", "1073741824" },
	};
	for (const auto &c : cases) {
		const Knob *k = find_knob(c.knob);
		ASSERT_NE(k, nullptr) << c.knob;
		Settings s;
		const std::string why = k->set(*k, s, c.text);
		if (!*c.shown) {
			EXPECT_NE(why, "") << c.knob << " " << c.text;
			continue;
		}
		EXPECT_EQ(why, "") << c.knob << " " << c.text;
		EXPECT_EQ(value_text(k->get(s)), c.shown) << c.knob << " " << c.text;
	}
	// Where each lands.
	Settings s;
	ASSERT_EQ(apply_knobs(s, { { "code", { "4+1" } }, { "inter-prefix", { "10.0.0.0/8", "fd00::/8" } },
				   { "payload", { "1000" } }, { "subflows", { "3" } },
				   { "source-port", { "4000" } }, { "repath", { "off" } },
				   { "rto-us", { "500" } }, { "link-mbps", { "400" } },
				   { "intra-rtt-us", { "30" } }, { "ec-wait-us", { "300" } },
				   { "window-bytes", { "5000" } }, { "max-flows", { "9" } },
				   { "trim-dscp", { "off" } } }),
		  "");
	EXPECT_EQ(s.code.code, "4+1");
	EXPECT_EQ(s.code.inter_prefixes, (std::vector<std::string>{ "10.0.0.0/8", "fd00::/8" }));
	EXPECT_EQ(s.code.payload, 1000u);
	EXPECT_EQ(s.tx.subflows, 3);
	EXPECT_EQ(s.tx.source_port, 4000);
	EXPECT_EQ(s.tx.repath, "off");
	EXPECT_EQ(s.tx.rto_us, 500u);
	EXPECT_EQ(s.tx.cc.link_rate_mbps, 400u);
	EXPECT_EQ(s.tx.cc.intra_rtt_us, 30u);
	EXPECT_EQ(s.rx.ec_wait_us, 300u);
	EXPECT_EQ(s.rx.window_bytes, 5000u);
	EXPECT_EQ(s.rx.max_flows, 9u);
	EXPECT_EQ(s.rx.trim_dscp, "off");
	// UnoCC's other parameters stay the module's defaults.
	const uno_params init = UNO_PARAMS_INIT;
	EXPECT_EQ(s.tx.cc.alpha_ppm, init.alpha_ppm);
}

// What each knob says of a value it refuses: the same words on the
// command line (--NAME: ...) and in the file (unorc.NAME: ...).
TEST(Knobs, RefusedValues)
{
	const struct {
		const char *knob, *text, *why;
	} cases[] = {
		{ "code", "8-2", "'8-2': need X+Y (e.g. 8+2), none or auto" },
		{ "code", "8+", "'8+': need X+Y (e.g. 8+2), none or auto" },
		{ "code", "AUTO", "'AUTO': need X+Y (e.g. 8+2), none or auto" },
		{ "code", "200+57", "'200+57': bad code (200, 57): need 1 <= x, 0 <= y, x + y <= 256" },
		{ "inter-prefix", "10.0.0.0/40", "'10.0.0.0/40': prefix length '40' not in 0..32" },
		{ "inter-prefix", "10.0.0.0/", "'10.0.0.0/': prefix length '' not in 0..32" },
		{ "inter-prefix", "", "'': need ADDR/BITS" },
		{ "payload", "0", "value 0 out of range 1..65467 bytes" },
		{ "payload", "65468", "value 65468 out of range 1..65467 bytes" },
		{ "payload", "1k", "'1k': expected an integer, 1..65467 bytes" },
		{ "payload", "", "'': expected an integer, 1..65467 bytes" },
		{ "payload", "-", "'-': expected an integer, 1..65467 bytes" },
		{ "subflows", "0", "'0': expected auto or 1..16" },
		{ "subflows", "17", "'17': expected auto or 1..16" },
		{ "subflows", "-1", "'-1': expected auto or 1..16" },
		{ "source-port", "0", "value 0 out of range 1..65535" },
		{ "source-port", "65536", "value 65536 out of range 1..65535" },
		{ "repath", "REDRAW", "'REDRAW': expected off, redraw or copy_good" },
		{ "shim", "ARC1", "'ARC1': expected off or arc1" },
		{ "shim", "", "'': expected off or arc1" },
		{ "rto-us", "19", "value 19 out of range 20..60000000 us" },
		{ "rto-us", "-0", "value -0 out of range 20..60000000 us" },
		{ "rto-us", "99999999999999999999999", "'99999999999999999999999': expected an integer, "
						     "20..60000000 us" },
		{ "rto-us", "18446744073709551616", "value 18446744073709551616 out of range 20..60000000 us" },
		{ "rto-us", "1e4", "'1e4': expected an integer, 20..60000000 us" },
		{ "rto-us", " 100", "' 100': expected an integer, 20..60000000 us" },
		{ "link-mbps", "0", "value 0 out of range 1..10000000 Mbit/s" },
		{ "intra-rtt-us", "1000001", "value 1000001 out of range 1..1000000 us" },
		{ "cc", "cubic", "'cubic': expected uno, smartt or nscc" },
		{ "cc", "SMaRTT", "'SMaRTT': expected uno, smartt or nscc" },
		{ "cc", "", "'': expected uno, smartt or nscc" },
		{ "ec-wait-us", "60000001", "value 60000001 out of range 20..60000000 us" },
		{ "window-bytes", "17179869185", "value 17179869185 out of range 1..17179869184 bytes" },
		{ "max-flows", "0", "value 0 out of range 1..1048576" },
		{ "trim-dscp", "64", "'64': expected off or 0..63" },
		{ "trim-dscp", "OFF", "'OFF': expected off or 0..63" },
		{ "rcvbuf", "-1", "value -1 out of range 0..1073741824 bytes" },
		{ "rcvbuf", "1073741825", "value 1073741825 out of range 0..1073741824 bytes" },
		{ "rcvbuf", "4M", "'4M': expected an integer, 0..1073741824 bytes" },
		{ "rcvbuf", "", "'': expected an integer, 0..1073741824 bytes" },
	};
	for (const auto &c : cases) {
		const Knob *k = find_knob(c.knob);
		ASSERT_NE(k, nullptr) << c.knob;
		EXPECT_EQ(check_knob(*k, c.text), c.why) << c.knob << " '" << c.text << "'";
		// A refused value changes nothing.
		Settings s;
		const KnobValue before = k->get(s);
		k->set(*k, s, c.text);
		EXPECT_EQ(k->get(s), before) << c.knob;
	}
	Settings s;
	EXPECT_EQ(apply_knobs(s, { { "rto-us", { "5" } } }, "--"),
		  "--rto-us: value 5 out of range 20..60000000 us");
	EXPECT_EQ(apply_knobs(s, { { "rto-us", { "50", "60" } } }), "rto-us: takes one value");
	EXPECT_EQ(apply_knobs(s, { { "rto", { "50" } } }), "rto: no such setting");
}

TEST(Knobs, EffectiveSettings)
{
	const std::vector<KnobSetting> e =
		effective_settings({ { "code", { "none" } }, { "rto-us", { "5000" } },
				     { "inter-prefix", { "10.0.0.0/8" } }, { "trim-dscp", { "off" } } });
	std::vector<std::string> got;
	for (const KnobSetting &k : e)
		got.push_back(std::string(k.knob->name) + "=" + value_text(k.value) + " (" +
			      value_text(k.builtin) + ", " + source_name(k.source) + ")");
	EXPECT_EQ(got, (std::vector<std::string>{
			       "code=none (auto, config)",
			       "inter-prefix=10.0.0.0/8 (, config)",
			       "payload=1400 (1400, default)",
			       "subflows=auto (auto, default)",
			       "repath=redraw (redraw, default)",
			       "shim=off (off, default)",
			       "rto-us=5000 (10000, config)",
			       "link-mbps=100000 (100000, default)",
			       "intra-rtt-us=14 (14, default)",
			       "cc=uno (uno, default)",
			       "ec-wait-us=2000 (2000, default)",
			       "window-bytes=16777216 (16777216, default)",
			       "max-flows=256 (256, default)",
			       "trim-dscp=off (62, config)",
			       "rcvbuf=4194304 (4194304, default)",
		       }));
	// The JSON types of unoctl rc show: as [unorc] writes them.
	EXPECT_EQ(std::get<std::string>(e[0].value), "none");
	EXPECT_EQ(std::get<uint64_t>(e[6].value), 5000u);
	EXPECT_EQ(std::get<uint64_t>(e[13].builtin), 62u);
	EXPECT_THROW(effective_settings({ { "rto-us", { "5" } } }), std::invalid_argument);
}

// --- where a command's settings come from --------------------------------

TEST(Cli, BuiltInDefaultsWithoutAFile)
{
	const CmdRun r = run(Side::Sender, {}, kNoFile);
	ASSERT_EQ(r.error, "");
	EXPECT_EQ(r.a.config, "");
	EXPECT_TRUE(r.a.from_config.empty());
	EXPECT_EQ(values(r, Side::Sender),
		  (std::map<std::string, std::string>{ { "code", "auto" },
						       { "inter-prefix", "" },
						       { "payload", "1400" },
						       { "subflows", "auto" },
						       { "source-port", "0" },
						       { "repath", "redraw" },
						       { "shim", "off" },
						       { "rto-us", "10000" },
						       { "link-mbps", "100000" },
						       { "intra-rtt-us", "14" },
						       { "cc", "uno" } }));
	for (const auto &[name, src] : sources(r))
		EXPECT_EQ(src, "default") << name;
	EXPECT_EQ(r.a.sources.size(), 11u); // the sender's knobs and both ends'
	EXPECT_EQ(describe(r.a), "");
}

// CLI > config > built-in, knob by knob, for both ends.
TEST(Cli, CommandLineOverConfigOverBuiltIn)
{
	TempDir dir;
	const std::string file = dir.write("uno.toml", R"(
[cc]
default = "nope"   # unod's to check, not unorc's

[unorc]
code = "none"
inter-prefix = ["10.1.0.0/16", "10.2.0.0/16"]
payload = 1200
rto-us = 5000
link-mbps = 400
ec-wait-us = 700
trim-dscp = "off"
)");
	// The default file, as /etc/uno/uno.toml would be.
	CmdRun r = run(Side::Sender, { "--rto-us", "7000", "--inter-prefix", "fd00::/8" }, file);
	ASSERT_EQ(r.error, "");
	EXPECT_EQ(r.a.config, file);
	EXPECT_EQ(values(r, Side::Sender),
		  (std::map<std::string, std::string>{ { "code", "none" },
						       { "inter-prefix", "fd00::/8" },
						       { "payload", "1200" },
						       { "subflows", "auto" },
						       { "source-port", "0" },
						       { "repath", "redraw" },
						       { "shim", "off" },
						       { "rto-us", "7000" },
						       { "link-mbps", "400" },
						       { "intra-rtt-us", "14" },
						       { "cc", "uno" } }));
	EXPECT_EQ(sources(r), (std::map<std::string, std::string>{
				      { "code", "config" },
				      { "inter-prefix", "command line" },
				      { "payload", "config" },
				      { "subflows", "default" },
				      { "source-port", "default" },
				      { "repath", "default" },
				      { "shim", "default" },
				      { "rto-us", "command line" },
				      { "link-mbps", "config" },
				      { "intra-rtt-us", "default" },
				      { "cc", "default" } }));
	// A sender takes none of the receiver's.
	EXPECT_EQ(r.a.from_config, (KnobTexts{ { "code", { "none" } },
					       { "inter-prefix", { "10.1.0.0/16", "10.2.0.0/16" } },
					       { "payload", { "1200" } },
					       { "rto-us", { "5000" } },
					       { "link-mbps", { "400" } } }));
	EXPECT_EQ(describe(r.a), "[unorc] of " + file +
					 ": code = none, inter-prefix = 10.1.0.0/16 10.2.0.0/16, "
					 "payload = 1200, rto-us = 5000, link-mbps = 400");

	// The receiver, its built-in max-flows its own (unoperf's 100000).
	Settings builtin;
	builtin.rx.max_flows = 100000;
	r = run(Side::Receiver, { "--code", "auto", "--trim-dscp", "46" }, file, builtin);
	ASSERT_EQ(r.error, "");
	EXPECT_EQ(values(r, Side::Receiver),
		  (std::map<std::string, std::string>{ { "code", "auto" },
						       { "inter-prefix", "10.1.0.0/16 10.2.0.0/16" },
						       { "payload", "1200" },
						       { "ec-wait-us", "700" },
						       { "window-bytes", "16777216" },
						       { "max-flows", "100000" },
						       { "trim-dscp", "46" },
						       { "rcvbuf", "4194304" } }));
	EXPECT_EQ(sources(r), (std::map<std::string, std::string>{
				      { "code", "command line" },
				      { "inter-prefix", "config" },
				      { "payload", "config" },
				      { "ec-wait-us", "config" },
				      { "window-bytes", "default" },
				      { "max-flows", "default" },
				      { "trim-dscp", "command line" },
				      { "rcvbuf", "default" } }));
	EXPECT_EQ(r.s.rx.trim_dscp, "46");
	EXPECT_EQ(r.s.code.inter_prefixes, (std::vector<std::string>{ "10.1.0.0/16", "10.2.0.0/16" }));
}

TEST(Cli, ExplicitFileOverTheDefaultOne)
{
	TempDir dir;
	const std::string def = dir.write("default.toml", "[unorc]\nrto-us = 5000\nrepath = \"off\"\n");
	const std::string mine = dir.write("mine.toml", "[unorc]\nrto-us = 6000\n");
	const CmdRun r = run(Side::Sender, { "--config", mine }, def);
	ASSERT_EQ(r.error, "");
	EXPECT_EQ(r.a.config, mine);
	EXPECT_EQ(r.s.tx.rto_us, 6000u);
	EXPECT_EQ(r.s.tx.repath, "redraw"); // the default file is not read
	// --config FILE with no [unorc]: the built-in defaults.
	const std::string empty = dir.write("empty.toml", "# nothing\n");
	const CmdRun e = run(Side::Sender, { "--config", empty }, def);
	ASSERT_EQ(e.error, "");
	EXPECT_EQ(e.s.tx.rto_us, 10000u);
	EXPECT_EQ(describe(e.a), "");
}

TEST(Cli, NoCodeAndCodeOverTheFile)
{
	TempDir dir;
	const std::string file = dir.write("uno.toml", "[unorc]\ncode = \"8+2\"\n");
	EXPECT_EQ(run(Side::Sender, {}, file).s.code.code, "8+2");
	EXPECT_EQ(run(Side::Sender, { "--no-code" }, file).s.code.code, "none");
	EXPECT_EQ(run(Side::Sender, { "--code", "auto" }, file).s.code.code, "auto");
	EXPECT_EQ(run(Side::Sender, { "--code", "4+1" }, file).s.code.code, "4+1");
	EXPECT_EQ(run(Side::Sender, { "--no-code" }, file).a.sources.at("code"), Source::CommandLine);
	CLI::App app;
	TransportOptions t(&app, Side::Sender);
	const char *argv[] = { "cmd", "--code", "8+2", "--no-code" };
	EXPECT_THROW(app.parse(4, argv), CLI::ExcludesError);
}

TEST(Cli, LastOfAnOptionGivenTwice)
{
	const CmdRun r = run(Side::Receiver,
			  { "--ec-wait-us", "300", "--ec-wait-us", "400", "--inter-prefix", "10.0.0.0/8",
			    "--inter-prefix", "10.1.0.0/16" },
			  kNoFile);
	ASSERT_EQ(r.error, "");
	EXPECT_EQ(r.s.rx.ec_wait_us, 400u);
	EXPECT_EQ(r.s.code.inter_prefixes, (std::vector<std::string>{ "10.0.0.0/8", "10.1.0.0/16" }));
}

TEST(Cli, WhatIsWrong)
{
	TempDir dir;
	const std::string broken = dir.write("broken.toml", "[unorc]\nrto-us = 5\nfoo = 1\n"
							    "[cc.uno]\nalpha_ppm = 0\n");
	const std::string good = dir.write("good.toml", "[unorc]\nrto-us = 5000\n");
	const struct {
		std::vector<std::string> args;
		std::string default_config, error;
	} cases[] = {
		// An explicit file must be there; the default one need not.
		{ { "--config", dir.file("none.toml") }, good,
		  dir.file("none.toml") + ": cannot read: No such file or directory" },
		{ {}, dir.file("none.toml"), "" },
		{ { "--config", "/tmp" }, kNoFile, "/tmp: cannot read: Is a directory" },
		// Every error of a broken file, [unorc]'s or another table's.
		{ {}, broken,
		  broken + ":2:10: unorc.rto-us: value 5 out of range 20..60000000 us\n" + broken +
			  ":3:7: unorc.foo: unknown key (known: code, inter-prefix, payload, subflows, "
			  "repath, shim, rto-us, link-mbps, intra-rtt-us, cc, ec-wait-us, window-bytes, "
			  "max-flows, trim-dscp, rcvbuf)\n" +
			  broken + ":5:13: cc.uno.alpha_ppm: value out of range 1..100000" },
		// A broken file is an error even with every option given.
		{ { "--config", broken, "--rto-us", "5000" }, kNoFile,
		  broken + ":2:10: unorc.rto-us: value 5 out of range 20..60000000 us\n" + broken +
			  ":3:7: unorc.foo: unknown key (known: code, inter-prefix, payload, subflows, "
			  "repath, shim, rto-us, link-mbps, intra-rtt-us, cc, ec-wait-us, window-bytes, "
			  "max-flows, trim-dscp, rcvbuf)\n" +
			  broken + ":5:13: cc.uno.alpha_ppm: value out of range 1..100000" },
		{ { "--rto-us", "5" }, good, "--rto-us: value 5 out of range 20..60000000 us" },
		{ { "--rto-us", "5ms" }, good, "--rto-us: '5ms': expected an integer, 20..60000000 us" },
		{ { "--code", "8-2" }, good, "--code: '8-2': need X+Y (e.g. 8+2), none or auto" },
		{ { "--subflows", "17" }, good, "--subflows: '17': expected auto or 1..16" },
		{ { "--repath", "sideways" }, good,
		  "--repath: 'sideways': expected off, redraw or copy_good" },
		{ { "--inter-prefix", "10.0.0.0/8", "--inter-prefix", "x/8" }, good,
		  "--inter-prefix: 'x/8': bad address 'x'" },
		{ { "--cc", "cubic" }, good, "--cc: 'cubic': expected uno, smartt or nscc" },
	};
	for (const auto &c : cases) {
		const CmdRun r = run(Side::Sender, c.args, c.default_config);
		EXPECT_EQ(r.error, c.error);
	}
	const CmdRun rx = run(Side::Receiver, { "--trim-dscp", "64" }, good);
	EXPECT_EQ(rx.error, "--trim-dscp: '64': expected off or 0..63");
	// A sender has no receiver's options.
	CLI::App app;
	TransportOptions t(&app, Side::Sender);
	const char *argv[] = { "cmd", "--ec-wait-us", "300" };
	EXPECT_THROW(app.parse(3, argv), CLI::ExtrasError);
}

// --cc, from [unorc] of the file or the command line, picks the flows' law;
// a bad one in the file is refused with the file's position, nothing set.
TEST(Cli, CcFromTheFileOrTheCommandLine)
{
	TempDir dir;
	const std::string file = dir.write("uno.toml", "[unorc]\ncc = \"smartt\"\nlink-mbps = 400\n");
	CmdRun r = run(Side::Sender, {}, file);
	ASSERT_EQ(r.error, "");
	EXPECT_EQ(r.s.tx.law, "smartt");
	EXPECT_EQ(sources(r).at("cc"), "config");
	EXPECT_EQ(flow_config(r.s.tx, 1, { 1, 0, 1000 }).law, CcLaw::Smartt);
	// --link-mbps is the law's C too.
	EXPECT_EQ(r.s.tx.smartt.link_rate_mbps, 400u);
	r = run(Side::Sender, { "--cc", "nscc" }, file);
	ASSERT_EQ(r.error, "");
	EXPECT_EQ(r.s.tx.law, "nscc");
	EXPECT_EQ(sources(r).at("cc"), "command line");
	const std::string bad = dir.write("bad.toml", "[unorc]\ncc = \"reno\"\n");
	r = run(Side::Sender, {}, bad);
	EXPECT_EQ(r.error, bad + ":2:6: unorc.cc: 'reno': expected uno, smartt or nscc");
	EXPECT_EQ(r.s.tx.law, "uno");
	// A receiver runs no law: no --cc.
	CLI::App app;
	TransportOptions t(&app, Side::Receiver);
	const char *argv[] = { "cmd", "--cc", "smartt" };
	EXPECT_THROW(app.parse(3, argv), CLI::ExtrasError);
}

// A command that has a --cc of its own (unoperf client's, TCP's congestion
// control) shares it with the knob: no second option.
TEST(Cli, AnOptionTheCommandHasIsShared)
{
	CLI::App app;
	std::string tcp_cc;
	app.add_option("--cc", tcp_cc);
	TransportOptions t(&app, Side::Sender);
	for (const CLI::Option *o : t.options())
		EXPECT_NE(o->get_name(), "--cc");
	const char *argv[] = { "cmd", "--cc", "nscc" };
	app.parse(3, argv);
	Settings s;
	const Applied a = t.apply(s, kNoFile);
	EXPECT_EQ(tcp_cc, "nscc");
	EXPECT_EQ(s.tx.law, "nscc");
	EXPECT_EQ(a.sources.at("cc"), Source::CommandLine);
}

// --help shows the command's own built-in defaults, and every knob's range.
TEST(Cli, Help)
{
	CLI::App app;
	Settings builtin;
	builtin.rx.max_flows = 100000;
	TransportOptions t(&app, Side::Receiver, builtin);
	const std::string help = app.help();
	for (const char *want : { "--max-flows N=100000", "--trim-dscp DSCP=62", "--code X+Y=auto",
				  "--config FILE", "--no-code", "1..1048576", "off or 0..63",
				  "--ec-wait-us US=2000", "20..60000000 us" })
		EXPECT_NE(help.find(want), std::string::npos) << want << " in\n" << help;
	EXPECT_EQ(help.find("--rto-us"), std::string::npos);
	std::vector<std::string> names;
	for (const CLI::Option *o : t.options())
		names.push_back(o->get_name());
	EXPECT_EQ(names, (std::vector<std::string>{ "--config", "--code", "--no-code", "--inter-prefix",
						    "--payload", "--ec-wait-us", "--window-bytes",
						    "--max-flows", "--trim-dscp", "--rcvbuf" }));
}
