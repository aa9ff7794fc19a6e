// SPDX-License-Identifier: GPL-2.0
#include "settings.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace unorc {

namespace {

constexpr uint64_t kUs = 1000;

// Runs f, naming the option in the std::invalid_argument it throws.
template <typename F> auto with_option(const char *option, F &&f)
{
	try {
		return f();
	} catch (const std::invalid_argument &e) {
		throw std::invalid_argument(std::string(option) + " " + e.what());
	}
}

} // namespace

namespace {

constexpr const char *kCodeSyntax = "need X+Y (e.g. 8+2), none or auto";

} // namespace

WireLimits parse_code(const std::string &s, size_t len)
{
	const size_t plus = s.find('+');
	const auto digits = [](const std::string &d) {
		return !d.empty() && d.size() <= 3 && std::all_of(d.begin(), d.end(), ::isdigit);
	};
	if (plus == std::string::npos || !digits(s.substr(0, plus)) || !digits(s.substr(plus + 1)))
		throw std::invalid_argument("'" + s + "': " + kCodeSyntax);
	const WireLimits c = { std::stoi(s.substr(0, plus)), std::stoi(s.substr(plus + 1)), len };
	// BlockCoder's own checks, without building one.
	if (const std::string why = BlockCoder::check(c.len, c.x, c.y); !why.empty())
		throw std::invalid_argument("'" + s + "': " + why);
	return c;
}

std::string check_code(const std::string &s)
{
	if (s == "auto" || s == "none")
		return {};
	try {
		parse_code(s, kDefaultPayload);
	} catch (const std::invalid_argument &e) {
		return e.what();
	}
	return {};
}

CodePolicy code_policy(const CodeSettings &s)
{
	CodePolicy p;
	for (const std::string &prefix : s.inter_prefixes)
		p.inter_prefixes.push_back(
			with_option("--inter-prefix", [&] { return parse_prefix(prefix); }));
	const WireLimits none = { 1, 0, s.payload };
	if (s.code == "none")
		p.inter = p.intra = none;
	else if (s.code != "auto")
		p.inter = p.intra = with_option("--code", [&] { return parse_code(s.code, s.payload); });
	else
		p = { p.inter_prefixes,
		      { BlockCoder::kDefaultData, BlockCoder::kDefaultParity, s.payload }, none };
	return p;
}

std::string code_name(const WireLimits &c)
{
	return c.y ? std::to_string(c.x) + "+" + std::to_string(c.y) : "none";
}

std::string check_trim_dscp(const std::string &s)
{
	if (s == "off")
		return {};
	const bool digits = !s.empty() && s.size() <= 2 &&
			    s.find_first_not_of("0123456789") == std::string::npos;
	return digits && std::stoi(s) <= 63 ? std::string() : std::string("expected off or 0..63");
}

std::optional<uint8_t> trim_dscp_of(const std::string &s)
{
	if (const std::string why = check_trim_dscp(s); !why.empty())
		throw std::invalid_argument("--trim-dscp '" + s + "': " + why);
	if (s == "off")
		return std::nullopt;
	return static_cast<uint8_t>(std::stoi(s));
}

const std::map<std::string, unolb_mode> &repath_modes()
{
	static const std::map<std::string, unolb_mode> modes = {
		{ "off", UNOLB_REPATH_OFF },
		{ "redraw", UNOLB_REPATH_REDRAW },
		{ "copy_good", UNOLB_REPATH_COPY_GOOD },
	};
	return modes;
}

const std::map<std::string, CcLaw> &cc_laws()
{
	static const std::map<std::string, CcLaw> laws = {
		{ "uno", CcLaw::Uno },
		{ "smartt", CcLaw::Smartt },
		{ "nscc", CcLaw::Nscc },
	};
	return laws;
}

smartt_params smartt_defaults()
{
	smartt_params p = SMARTT_PARAMS_INIT;
	const uno_params uno = UNO_PARAMS_INIT;
	p.link_rate_mbps = uno.link_rate_mbps;
	return p;
}

void set_link_mbps(SenderSettings &s, uint32_t mbps)
{
	s.cc.link_rate_mbps = mbps;
	s.smartt.link_rate_mbps = mbps;
}

int subflows_for(const SenderSettings &s, const WireLimits &code)
{
	if (s.subflows)
		return s.subflows;
	return code.y ? std::min(code.x + code.y, UNOLB_MAX_SUBFLOWS) : 1;
}

FlowConfig flow_config(const SenderSettings &s, uint32_t flow_id, const WireLimits &code)
{
	const auto mode = repath_modes().find(s.repath);
	if (mode == repath_modes().end())
		throw std::invalid_argument("--repath '" + s.repath + "': expected off, redraw or copy_good");
	const auto law = cc_laws().find(s.law);
	if (law == cc_laws().end())
		throw std::invalid_argument("--cc '" + s.law + "': expected uno, smartt or nscc");
	return { .flow_id = flow_id, .code = code, .rto_ns = s.rto_us * kUs, .cc = &s.cc,
		 .law = law->second, .smartt = &s.smartt, .repath = mode->second,
		 .shim = s.shim == "arc1" };
}

ReceiverOptions receiver_options(const ReceiverSettings &s, const CodePolicy &codes)
{
	return { .codes = codes, .ec_wait_ns = s.ec_wait_us * kUs, .window_bytes = s.window_bytes,
		 .max_flows = s.max_flows, .trim_dscp = trim_dscp_of(s.trim_dscp),
		 .rcvbuf = s.rcvbuf };
}

} // namespace unorc
