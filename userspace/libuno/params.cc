// SPDX-License-Identifier: GPL-2.0
#include "params.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "smartt_core.h"
#include "swift_core.h"
#include "timely_core.h"
#include "uapi/uno_nl.h"
#include "uno_core.h"

namespace uno {
namespace {

const ParamSpec kSpecs[] = {
#define TCP_UNO_PARAM(_name, _desc, _val, _min, _max, _apply) \
	{ "uno", #_name, _min, _max, static_cast<Apply>(_apply), _desc },
#include "tcp_uno_params.h"
#undef TCP_UNO_PARAM
#define TCP_SMARTT_PARAM(_name, _desc, _val, _min, _max, _apply) \
	{ "smartt", #_name, _min, _max, static_cast<Apply>(_apply), _desc },
#include "tcp_smartt_params.h"
#undef TCP_SMARTT_PARAM
#define TCP_SWIFT_PARAM(_name, _desc, _val, _min, _max, _apply) \
	{ "swift", #_name, _min, _max, static_cast<Apply>(_apply), _desc },
#include "tcp_swift_params.h"
#undef TCP_SWIFT_PARAM
#define TCP_TIMELY_PARAM(_name, _desc, _val, _min, _max, _apply) \
	{ "timely", #_name, _min, _max, static_cast<Apply>(_apply), _desc },
#include "tcp_timely_params.h"
#undef TCP_TIMELY_PARAM
};

// Friendly names, documented in Documentation/unod.rst.
const ParamAlias kAliases[] = {
	{ "uno", "alpha", "alpha_ppm", 1e6, "fraction of the BDP per RTT" },
	{ "uno", "ewma_gain", "ewma_gain_q16", 65536, "fraction" },
	{ "uno", "beta_qa", "beta_qa_pct", 100, "fraction" },
	{ "uno", "qa_cut", "qa_cut_pct", 100, "fraction" },
	{ "uno", "qa_period", "qa_period_pct", 100, "base RTTs" },
	{ "uno", "phantom_md_scale", "phantom_md_scale_pct", 100, "fraction" },
	{ "uno", "phantom_delay_tol", "phantom_delay_tol_permille", 1000, "fraction" },
	{ "uno", "init_cwnd_bdp", "init_cwnd_bdp_pct", 100, "BDPs" },
	{ "uno", "max_cwnd_bdp", "max_cwnd_bdp_pct", 100, "BDPs" },
	{ "uno", "pacing", "pacing_pct", 100, "cwnd per base RTT" },
	{ "uno", "link_rate_gbps", "link_rate_mbps", 1000, "Gbit/s" },
	{ "smartt", "link_rate_gbps", "link_rate_mbps", 1000, "Gbit/s" },
	{ "smartt", "target_rtt", "trtt_factor", 1024, "base RTTs" },
	{ "smartt", "gamma", "md_gamma", 1024, "fraction" },
	{ "smartt", "md_min", "md_min_factor", 1024, "fraction" },
	{ "smartt", "pacing", "pacing_gain", 1024, "windows per base RTT" },
	{ "smartt", "max_cwnd_bdp", "max_cwnd", 1024, "BDPs" },
	{ "smartt", "init_cwnd_bdp", "init_cwnd", 1024, "BDPs" },
};

std::string num(double v)
{
	char s[32];
	std::snprintf(s, sizeof(s), "%g", v);
	return s;
}

std::string range_text(const ParamSpec &p)
{
	return std::to_string(p.min) + ".." + std::to_string(p.max);
}

std::string unknown_msg(std::string_view cc, std::string_view name)
{
	if (!known_cc(cc))
		return unknown_cc_msg(cc);
	return "'" + std::string(cc) + "' has no parameter '" + std::string(name) + "'";
}

} // namespace

const char *apply_name(Apply a)
{
	switch (a) {
	case Apply::Ack:
		return "ack";
	case Apply::Rebase:
		return "rebase";
	case Apply::New:
		return "new";
	}
	return "?";
}

std::span<const ParamSpec> param_specs()
{
	return kSpecs;
}

std::span<const ParamAlias> param_aliases()
{
	return kAliases;
}

const ParamSpec *find_param(std::string_view cc, std::string_view name)
{
	for (const auto &p : kSpecs)
		if (p.cc == cc && p.name == name)
			return &p;
	return nullptr;
}

const ParamAlias *find_alias(std::string_view cc, std::string_view alias)
{
	for (const auto &a : kAliases)
		if (a.cc == cc && a.alias == alias)
			return &a;
	return nullptr;
}

const std::vector<std::string> &cc_names()
{
	static const std::vector<std::string> names = [] {
		std::vector<std::string> v;
		for (const auto &p : kSpecs)
			if (v.empty() || v.back() != p.cc)
				v.emplace_back(p.cc);
		return v;
	}();
	return names;
}

bool known_cc(std::string_view cc)
{
	for (const auto &name : cc_names())
		if (name == cc)
			return true;
	return false;
}

std::string unknown_cc_msg(std::string_view cc)
{
	std::string known;

	for (const auto &name : cc_names())
		known += (known.empty() ? "" : ", ") + name;
	return "unknown congestion control '" + std::string(cc) + "' (known: " + known + ")";
}

std::optional<ParamValue> scale_param(std::string_view cc, std::string_view name,
				      double value, bool integral, std::string &err)
{
	const ParamAlias *a = find_alias(cc, name);
	const ParamSpec *p = find_param(cc, a ? a->raw : name);

	if (!p) {
		err = unknown_msg(cc, name);
		return std::nullopt;
	}
	if (!a && !integral) {
		err = std::string(name) + " takes an integer";
		return std::nullopt;
	}
	double raw = a ? std::round(value * a->scale) : value;
	if (!std::isfinite(raw) || raw < p->min || raw > p->max) {
		err = std::string(name) + ": value out of range ";
		if (a)
			err += num(p->min / a->scale) + ".." + num(p->max / a->scale) + " (" +
			       std::string(p->name) + " " + range_text(*p) + ")";
		else
			err += range_text(*p);
		return std::nullopt;
	}
	return ParamValue{ std::string(p->name), static_cast<uint32_t>(raw) };
}

std::optional<ParamValue> parse_param(std::string_view cc, std::string_view name,
				      std::string_view text, std::string &err)
{
	const ParamAlias *a = find_alias(cc, name);

	if (!a && !find_param(cc, name)) {
		err = unknown_msg(cc, name);
		return std::nullopt;
	}
	std::string s(text);
	char *end = nullptr;
	if (a) {
		double v = std::strtod(s.c_str(), &end);
		if (s.empty() || *end) {
			err = std::string(name) + ": '" + s + "' is not a number";
			return std::nullopt;
		}
		return scale_param(cc, name, v, false, err);
	}
	if (s.empty() || s[0] == '-' || s[0] == '+') {
		err = std::string(name) + ": '" + s + "' is not an unsigned integer";
		return std::nullopt;
	}
	errno = 0;
	unsigned long long v = std::strtoull(s.c_str(), &end, 0);
	if (*end || errno) {
		err = std::string(name) + ": '" + s + "' is not an unsigned integer";
		return std::nullopt;
	}
	if (v > UINT32_MAX) {
		err = std::string(name) + ": value out of range " +
		      range_text(*find_param(cc, name));
		return std::nullopt;
	}
	return scale_param(cc, name, static_cast<double>(v), true, err);
}

} // namespace uno
