// SPDX-License-Identifier: GPL-2.0
#include "knobs.h"

#include <algorithm>
#include <stdexcept>

#include "settings.h"

namespace unorc {

namespace {

// A decimal integer, signed so that -5 is out of range rather than not a
// number; false if text is none.
bool parse_int(const std::string &text, bool &negative, uint64_t &v)
{
	negative = !text.empty() && text[0] == '-';
	const std::string digits = text.substr(negative);
	if (digits.empty() || digits.size() > 20 ||
	    !std::all_of(digits.begin(), digits.end(), ::isdigit))
		return false;
	v = 0;
	for (char c : digits) {
		const uint64_t d = static_cast<uint64_t>(c - '0');
		v = v > (UINT64_MAX - d) / 10 ? UINT64_MAX : v * 10 + d; // saturates
	}
	return true;
}

std::string with_unit(const Knob &k, std::string s)
{
	return k.unit.empty() ? s : s + " " + std::string(k.unit);
}

// An integer in k's range into out; or k's word, if it has one, as
// word_value.
template <typename T>
std::string set_int(const Knob &k, const std::string &text, T &out, T word_value = T{})
{
	if (!k.word.empty() && text == k.word) {
		out = word_value;
		return {};
	}
	bool negative;
	uint64_t v;
	if (!parse_int(text, negative, v))
		return "'" + text + "': expected " + (k.word.empty() ? "an integer, " : "") +
		       knob_syntax(k);
	if (negative ? v != 0 || k.min > 0 : v < k.min || v > k.max) {
		if (!k.word.empty())
			return "'" + text + "': expected " + knob_syntax(k);
		return "value " + text + " out of range " + knob_syntax(k);
	}
	out = static_cast<T>(v);
	return {};
}

// Runs f, which throws std::invalid_argument with what is wrong.
template <typename F> std::string why_not(F &&f)
{
	try {
		f();
	} catch (const std::invalid_argument &e) {
		return e.what();
	}
	return {};
}

const Knob kKnobs[] = {
	{
		.name = "code", .side = Side::Both, .type = TomlType::String, .metavar = "X+Y",
		.help = "a flow's code (below)",
		.syntax = "X+Y, none or auto",
		.set = [](const Knob &, Settings &s, const std::string &t) {
			std::string why = check_code(t);
			if (why.empty())
				s.code.code = t;
			return why;
		},
		.get = [](const Settings &s) -> KnobValue { return s.code.code; },
	},
	{
		.name = "inter-prefix", .side = Side::Both, .type = TomlType::Strings,
		.metavar = "CIDR",
		.help = "inter-DC peers, the remote DCs' prefixes (repeatable): what auto codes",
		.syntax = "CIDR",
		.set = [](const Knob &, Settings &s, const std::string &t) {
			std::string why = why_not([&] { parse_prefix(t); });
			if (why.empty())
				s.code.inter_prefixes.push_back(t);
			return why;
		},
		.get = [](const Settings &s) -> KnobValue { return s.code.inter_prefixes; },
		.clear = [](Settings &s) { s.code.inter_prefixes.clear(); },
	},
	{
		.name = "payload", .side = Side::Both, .type = TomlType::Integer, .metavar = "BYTES",
		.unit = "bytes", .help = "payload bytes per packet", .min = 1, .max = kMaxPayload,
		.set = [](const Knob &k, Settings &s, const std::string &t) {
			return set_int(k, t, s.code.payload);
		},
		.get = [](const Settings &s) -> KnobValue { return s.code.payload; },
	},
	{
		.name = "subflows", .side = Side::Sender, .type = TomlType::IntegerOrWord,
		.metavar = "N",
		.help = "UDP source ports per flow (auto: n of the code, at most 16; 1 without "
			"parity)",
		.min = 1, .max = UNOLB_MAX_SUBFLOWS, .word = "auto",
		.set = [](const Knob &k, Settings &s, const std::string &t) {
			return set_int(k, t, s.tx.subflows);
		},
		.get = [](const Settings &s) -> KnobValue {
			if (!s.tx.subflows)
				return std::string("auto");
			return static_cast<uint64_t>(s.tx.subflows);
		},
	},
	{
		.name = "source-port", .side = Side::Sender, .type = TomlType::Integer,
		.metavar = "P",
		.help = "sub-flow k sends from port P + k, re-paths from P .. P + 16383 (default: "
			"ephemeral ports, re-paths from 49152 .. 65535)",
		.cli_only = "each sender binds ports of its own", .min = 1, .max = 65535,
		.set = [](const Knob &k, Settings &s, const std::string &t) {
			return set_int(k, t, s.tx.source_port);
		},
		.get = [](const Settings &s) -> KnobValue { return s.tx.source_port; },
	},
	{
		.name = "repath", .side = Side::Sender, .type = TomlType::String, .metavar = "MODE",
		.help = "UnoLB on a NACK or RTO (spec 5.1)", .syntax = "off, redraw or copy_good",
		.set = [](const Knob &k, Settings &s, const std::string &t) {
			if (!repath_modes().contains(t))
				return "'" + t + "': expected " + std::string(k.syntax);
			s.tx.repath = t;
			return std::string();
		},
		.get = [](const Settings &s) -> KnobValue { return s.tx.repath; },
	},
	{
		.name = "shim", .side = Side::Sender, .type = TomlType::String, .metavar = "SHIM",
		.help = "arc1: open each packet with ARCANE's shim for the entropy datapath "
			"([[lb]], which rewrites the source port), 28 bytes the payload must leave "
			"room for",
		.syntax = "off or arc1",
		.set = [](const Knob &k, Settings &s, const std::string &t) {
			if (t != "off" && t != "arc1")
				return "'" + t + "': expected " + std::string(k.syntax);
			s.tx.shim = t;
			return std::string();
		},
		.get = [](const Settings &s) -> KnobValue { return s.tx.shim; },
	},
	{
		.name = "rto-us", .side = Side::Sender, .type = TomlType::Integer, .metavar = "US",
		.unit = "us", .help = "retransmission timeout (spec 9.24)", .min = kMinTimerUs,
		.max = kMaxTimerUs,
		.set = [](const Knob &k, Settings &s, const std::string &t) {
			return set_int(k, t, s.tx.rto_us);
		},
		.get = [](const Settings &s) -> KnobValue { return s.tx.rto_us; },
	},
	{
		.name = "link-mbps", .side = Side::Sender, .type = TomlType::Integer,
		.metavar = "MBPS", .unit = "Mbit/s", .help = "C, the link rate, of every --cc",
		.min = UNO_LINK_RATE_MBPS_MIN, .max = UNO_LINK_RATE_MBPS_MAX,
		.set = [](const Knob &k, Settings &s, const std::string &t) {
			uint32_t mbps = 0;
			std::string why = set_int(k, t, mbps);
			if (why.empty())
				set_link_mbps(s.tx, mbps);
			return why;
		},
		.get = [](const Settings &s) -> KnobValue { return s.tx.cc.link_rate_mbps; },
	},
	{
		.name = "intra-rtt-us", .side = Side::Sender, .type = TomlType::Integer,
		.metavar = "US", .unit = "us", .help = "UnoCC's RTT_intra",
		.min = UNO_INTRA_RTT_US_MIN, .max = UNO_INTRA_RTT_US_MAX,
		.set = [](const Knob &k, Settings &s, const std::string &t) {
			return set_int(k, t, s.tx.cc.intra_rtt_us);
		},
		.get = [](const Settings &s) -> KnobValue { return s.tx.cc.intra_rtt_us; },
	},
	{
		.name = "cc", .side = Side::Sender, .type = TomlType::String, .metavar = "LAW",
		.help = "the flow's congestion control: UnoCC, SMaRTT or UEC NSCC (kernel/core/)",
		.syntax = "uno, smartt or nscc",
		.set = [](const Knob &k, Settings &s, const std::string &t) {
			if (!cc_laws().contains(t))
				return "'" + t + "': expected " + std::string(k.syntax);
			s.tx.law = t;
			return std::string();
		},
		.get = [](const Settings &s) -> KnobValue { return s.tx.law; },
	},
	{
		.name = "ec-wait-us", .side = Side::Receiver, .type = TomlType::Integer,
		.metavar = "US", .unit = "us", .help = "NACK timer (spec 6.2, 9.23)",
		.min = kMinTimerUs, .max = kMaxTimerUs,
		.set = [](const Knob &k, Settings &s, const std::string &t) {
			return set_int(k, t, s.rx.ec_wait_us);
		},
		.get = [](const Settings &s) -> KnobValue { return s.rx.ec_wait_us; },
	},
	{
		.name = "window-bytes", .side = Side::Receiver, .type = TomlType::Integer,
		.metavar = "BYTES", .unit = "bytes", .help = "receive window per flow",
		.min = 1, .max = uint64_t{ 1 } << 34,
		.set = [](const Knob &k, Settings &s, const std::string &t) {
			return set_int(k, t, s.rx.window_bytes);
		},
		.get = [](const Settings &s) -> KnobValue { return s.rx.window_bytes; },
	},
	{
		.name = "max-flows", .side = Side::Receiver, .type = TomlType::Integer,
		.metavar = "N", .help = "peer flows held at once", .min = 1,
		.max = uint64_t{ 1 } << 20,
		.set = [](const Knob &k, Settings &s, const std::string &t) {
			return set_int(k, t, s.rx.max_flows);
		},
		.get = [](const Settings &s) -> KnobValue { return s.rx.max_flows; },
	},
	{
		.name = "trim-dscp", .side = Side::Receiver, .type = TomlType::IntegerOrWord,
		.metavar = "DSCP",
		.help = "DSCP of trimmed headers, NACKed at once (sch_phantom trim-dscp), or off",
		.min = 0, .max = 63, .word = "off",
		.set = [](const Knob &k, Settings &s, const std::string &t) {
			uint8_t dscp = 0;
			std::string why = set_int(k, t, dscp);
			if (why.empty())
				s.rx.trim_dscp = t == "off" ? t : std::to_string(dscp);
			return why;
		},
		.get = [](const Settings &s) -> KnobValue {
			if (s.rx.trim_dscp == "off")
				return s.rx.trim_dscp;
			return static_cast<uint64_t>(*trim_dscp_of(s.rx.trim_dscp));
		},
	},
	{
		.name = "rcvbuf", .side = Side::Receiver, .type = TomlType::Integer,
		.metavar = "BYTES", .unit = "bytes",
		.help = "the socket's receive buffer, room for a trimming port's burst "
			"(SO_RCVBUFFORCE as root, else SO_RCVBUF); 0: the kernel's default",
		.min = 0, .max = kMaxRcvbuf,
		.set = [](const Knob &k, Settings &s, const std::string &t) {
			return set_int(k, t, s.rx.rcvbuf);
		},
		.get = [](const Settings &s) -> KnobValue { return static_cast<uint64_t>(s.rx.rcvbuf); },
	},
};

} // namespace

const char *side_name(Side s)
{
	switch (s) {
	case Side::Both:
		return "both";
	case Side::Sender:
		return "sender";
	case Side::Receiver:
		return "receiver";
	}
	return "?";
}

const char *source_name(Source s)
{
	switch (s) {
	case Source::Default:
		return "default";
	case Source::Config:
		return "config";
	case Source::CommandLine:
		return "command line";
	}
	return "?";
}

std::span<const Knob> knobs()
{
	return kKnobs;
}

const Knob *find_knob(std::string_view name)
{
	for (const Knob &k : kKnobs)
		if (k.name == name)
			return &k;
	return nullptr;
}

std::string knob_syntax(const Knob &k)
{
	if (k.type == TomlType::String || k.type == TomlType::Strings)
		return std::string(k.syntax);
	std::string range = std::to_string(k.min) + ".." + std::to_string(k.max);
	if (!k.word.empty())
		range = std::string(k.word) + " or " + range;
	return with_unit(k, range);
}

std::string value_text(const KnobValue &v)
{
	if (const auto *n = std::get_if<uint64_t>(&v))
		return std::to_string(*n);
	if (const auto *s = std::get_if<std::string>(&v))
		return *s;
	std::string out;
	for (const std::string &s : std::get<std::vector<std::string>>(v))
		out += (out.empty() ? "" : " ") + s;
	return out;
}

std::string check_knob(const Knob &k, const std::string &text)
{
	Settings scratch;
	return k.set(k, scratch, text);
}

std::string apply_knobs(Settings &s, const KnobTexts &texts, std::string_view prefix)
{
	for (const auto &[name, values] : texts) {
		const std::string where = std::string(prefix) + name;
		const Knob *k = find_knob(name);
		if (!k)
			return where + ": no such setting";
		if (k->type != TomlType::Strings && values.size() != 1)
			return where + ": takes one value";
		if (k->clear)
			k->clear(s);
		for (const std::string &v : values)
			if (std::string why = k->set(*k, s, v); !why.empty())
				return where + ": " + why;
	}
	return {};
}

std::vector<KnobSetting> effective_settings(const KnobTexts &config)
{
	const Settings builtin;
	Settings s;
	if (const std::string why = apply_knobs(s, config, "unorc."); !why.empty())
		throw std::invalid_argument(why);
	std::vector<KnobSetting> out;
	for (const Knob &k : kKnobs)
		if (k.cli_only.empty())
			out.push_back({ &k, k.get(s), k.get(builtin),
					config.contains(std::string(k.name)) ? Source::Config
									     : Source::Default });
	return out;
}

} // namespace unorc
