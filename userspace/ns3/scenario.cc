// SPDX-License-Identifier: GPL-2.0
#include "scenario.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "params.h"

namespace uno_sim {

namespace {

const char *const kVariants[] = { "uno",   "uno-nophantom", "smartt", "smartt-nscc",
				  "dctcp", "cubic",	    "bbr" };

template <typename T>
bool get_uint(const toml::table &t, const char *key, T &out, bool required, std::string &err,
	      const std::string &where)
{
	const toml::node *n = t.get(key);

	if (!n) {
		if (required)
			err = where + ": '" + key + "' is missing";
		return !required;
	}
	auto v = n->value<int64_t>();
	if (!v || *v < 0 || static_cast<uint64_t>(*v) > static_cast<uint64_t>(T(~T(0)))) {
		err = where + ": '" + key + "' must be a non-negative integer in range";
		return false;
	}
	out = static_cast<T>(*v);
	return true;
}

bool get_double(const toml::table &t, const char *key, double &out, std::string &err)
{
	const toml::node *n = t.get(key);

	if (!n)
		return true;
	auto v = n->value<double>();
	if (!v || *v < 0) {
		err = std::string("'") + key + "' must be a non-negative number";
		return false;
	}
	out = *v;
	return true;
}

bool get_double(const toml::table &t, const char *key, std::optional<double> &out,
		std::string &err)
{
	double v = 0;

	if (!t.get(key))
		return true;
	if (!get_double(t, key, v, err))
		return false;
	out = v;
	return true;
}

// [profile.NAME.CC]: a module's parameters by name or alias, checked as
// unoctl checks them.
bool parse_module_params(const std::string &cc, const toml::table &t, Profile &p,
			 std::string &err)
{
	const std::string where = "profile." + p.name + "." + cc;

	for (const auto &[key, node] : t) {
		auto v = node.value<double>();
		std::string e;

		if (!v) {
			err = where + "." + std::string(key) + ": not a number";
			return false;
		}
		auto pv = uno::scale_param(cc, key, *v, node.is_integer(), e);
		if (!pv) {
			err = where + ": " + e;
			return false;
		}
		p.params.push_back({ cc, pv->name, pv->value });
	}
	return true;
}

bool parse_profile(const std::string &name, const toml::table &t, Profile &p, std::string &err)
{
	const std::string where = "profile." + name;

	p.name = name;
	if (!get_uint(t, "rate_mbps", p.rate_mbps, true, err, where) ||
	    !get_uint(t, "mtu", p.mtu, true, err, where) ||
	    !get_uint(t, "intra_rtt_us", p.intra_rtt_us, true, err, where) ||
	    !get_uint(t, "inter_rtt_us", p.inter_rtt_us, true, err, where) ||
	    !get_uint(t, "buffer_bytes", p.buffer_bytes, true, err, where) ||
	    !get_uint(t, "kmin_bytes", p.kmin_bytes, false, err, where) ||
	    !get_uint(t, "kmax_bytes", p.kmax_bytes, false, err, where) ||
	    !get_uint(t, "flow_bytes", p.flow_bytes, false, err, where) ||
	    !get_uint(t, "rto_min_us", p.rto_min_us, false, err, where))
		return false;
	if (!get_double(t, "warmup_inter_rtts", p.warmup_inter_rtts, err) ||
	    !get_double(t, "window_inter_rtts", p.window_inter_rtts, err) ||
	    !get_double(t, "sample_inter_rtts", p.sample_inter_rtts, err)) {
		err = where + ": " + err;
		return false;
	}
	if (p.sample_inter_rtts && *p.sample_inter_rtts <= 0) {
		err = where + ": 'sample_inter_rtts' must be > 0";
		return false;
	}
	if (!p.rate_mbps || p.mtu < 576 || p.mtu > 65535 || !p.intra_rtt_us ||
	    p.inter_rtt_us < p.intra_rtt_us || !p.buffer_bytes || !p.rto_min_us) {
		err = where + ": needs rate_mbps > 0, mtu 576..65535, 0 < intra_rtt_us <= inter_rtt_us, buffer_bytes > 0, rto_min_us > 0";
		return false;
	}
	if (!p.kmin_bytes && !p.kmax_bytes) {
		p.kmin_bytes = p.buffer_bytes / 4;
		p.kmax_bytes = p.buffer_bytes / 4 * 3;
	}
	if (p.kmin_bytes > p.kmax_bytes || p.kmax_bytes > p.buffer_bytes) {
		err = where + ": needs kmin_bytes <= kmax_bytes <= buffer_bytes";
		return false;
	}
	for (const char *cc : { "uno", "smartt" }) {
		const toml::table *m = t[cc].as_table();
		if (m && !parse_module_params(cc, *m, p, err))
			return false;
	}
	return true;
}

bool parse_class(const toml::table &t, FlowClass &cls, std::string &err, const char *where)
{
	auto c = t["class"].value<std::string>();

	if (c == "intra" || c == "inter") {
		cls = c == "intra" ? FlowClass::Intra : FlowClass::Inter;
		return true;
	}
	err = std::string(where) + ": class must be \"intra\" or \"inter\"";
	return false;
}

bool parse_rpcs(const toml::table &t, Scenario &s, std::string &err)
{
	RpcStream r;
	std::string e;

	if (!parse_class(t, r.cls, err, "rpcs") ||
	    !get_uint(t, "count", r.count, true, err, "rpcs") ||
	    !get_uint(t, "min_bytes", r.min_bytes, true, err, "rpcs") ||
	    !get_uint(t, "max_bytes", r.max_bytes, true, err, "rpcs"))
		return false;
	if (!get_double(t, "gap_us", r.gap_us_at_100g, e)) {
		err = "rpcs: " + e;
		return false;
	}
	if (!r.count || r.count > 10000 || !r.min_bytes || r.min_bytes > r.max_bytes ||
	    !(r.gap_us_at_100g > 0)) {
		err = "rpcs: needs count 1..10000, 0 < min_bytes <= max_bytes, gap_us > 0";
		return false;
	}
	s.rpcs = r;
	return true;
}

bool parse_flows(const toml::array &a, Scenario &s, std::string &err)
{
	for (const toml::node &n : a) {
		const toml::table *t = n.as_table();
		FlowGroup g;

		if (!t) {
			err = "flows: every entry must be a table";
			return false;
		}
		if (!parse_class(*t, g.cls, err, "flows"))
			return false;
		if (!get_uint(*t, "count", g.count, false, err, "flows"))
			return false;
		if (!g.count || g.count > 1024) {
			err = "flows: count must be 1..1024";
			return false;
		}
		const toml::node *w = t->get("at_window");
		if (w && !w->is_boolean()) {
			err = "flows: at_window must be true or false";
			return false;
		}
		g.at_window = w && *w->value<bool>();
		s.flows.push_back(g);
	}
	if (s.flows.empty()) {
		err = "no [[flows]]";
		return false;
	}
	return true;
}

bool positive_bdps(const toml::node *n, double &out)
{
	auto v = n ? n->value<double>() : std::nullopt;

	if (!v || !(*v > 0) || *v > 1e6)
		return false;
	out = *v;
	return true;
}

bool parse_also(const toml::array &a, Scenario &s, std::string &err)
{
	for (const toml::node &n : a) {
		const toml::table *t = n.as_table();
		AlsoRun r;

		auto prefix = t ? (*t)["prefix"].value<std::string>() : std::nullopt;
		if (!prefix || prefix->empty() || !positive_bdps(t->get("flow_bdps"), r.flow_bdps)) {
			err = "also: every entry needs a prefix and flow_bdps in (0, 1e6]";
			return false;
		}
		r.prefix = *prefix;
		s.also.push_back(std::move(r));
	}
	return true;
}

} // namespace

bool known_variant(const std::string &v)
{
	for (const char *k : kVariants)
		if (v == k)
			return true;
	return false;
}

const char *class_name(FlowClass c)
{
	return c == FlowClass::Intra ? "intra" : "inter";
}

bool scale_flows(Scenario &s, uint32_t hosts)
{
	uint32_t total = 0;

	for (const FlowGroup &g : s.flows)
		total += g.count;
	for (FlowGroup &g : s.flows) {
		g.count = static_cast<uint32_t>(uint64_t(g.count) * hosts / total);
		if (!g.count)
			return false;
	}
	return true;
}

Scenario Scenario::at(const Profile &p) const
{
	Scenario s = *this;

	s.warmup_inter_rtts = p.warmup_inter_rtts.value_or(warmup_inter_rtts);
	s.window_inter_rtts = p.window_inter_rtts.value_or(window_inter_rtts);
	s.sample_inter_rtts = p.sample_inter_rtts.value_or(sample_inter_rtts);
	return s;
}

uint64_t bdp_bytes(const Profile &p)
{
	return p.rate_mbps * 125 * p.intra_rtt_us / 1000;
}

uint64_t bdps_bytes(const Profile &p, double bdps)
{
	return static_cast<uint64_t>(std::llround(bdps * bdp_bytes(p)));
}

Profile Scenario::sized(const Profile &p) const
{
	Profile q = p;

	if (flow_bdps)
		q.flow_bytes = bdps_bytes(p, *flow_bdps);
	return q;
}

const Profile *Scenario::profile(const std::string &n) const
{
	for (const Profile &p : profiles)
		if (p.name == n)
			return &p;
	return nullptr;
}

std::optional<Scenario> parse_scenario(const std::string &text, std::string &err)
{
	toml::table t;
	Scenario s;

	try {
		t = toml::parse(text);
	} catch (const toml::parse_error &e) {
		err = std::string(e.description());
		return std::nullopt;
	}
	s.name = t["name"].value_or(std::string());
	s.description = t["description"].value_or(std::string());
	if (s.name.empty()) {
		err = "'name' is missing";
		return std::nullopt;
	}
	if (const toml::array *v = t["variants"].as_array()) {
		for (const toml::node &n : *v) {
			auto name = n.value<std::string>();
			if (!name || !known_variant(*name)) {
				err = "variants: unknown variant (known: uno, uno-nophantom, smartt, smartt-nscc, dctcp, cubic, bbr)";
				return std::nullopt;
			}
			s.variants.push_back(*name);
		}
	}
	if (!get_double(t, "warmup_inter_rtts", s.warmup_inter_rtts, err) ||
	    !get_double(t, "window_inter_rtts", s.window_inter_rtts, err) ||
	    !get_double(t, "sample_inter_rtts", s.sample_inter_rtts, err))
		return std::nullopt;
	if (s.sample_inter_rtts <= 0) {
		err = "'sample_inter_rtts' must be > 0";
		return std::nullopt;
	}
	if (const toml::node *b = t.get("flow_bdps")) {
		double v;
		if (!positive_bdps(b, v)) {
			err = "'flow_bdps' must be a number in (0, 1e6]";
			return std::nullopt;
		}
		s.flow_bdps = v;
	}
	if (const toml::node *a = t.get("also")) {
		if (!a->as_array()) {
			err = "also: must be [[also]] tables";
			return std::nullopt;
		}
		if (!parse_also(*a->as_array(), s, err))
			return std::nullopt;
	}
	if (const toml::node *r = t.get("rpcs")) {
		if (!r->as_table()) {
			err = "rpcs: must be a table";
			return std::nullopt;
		}
		if (!parse_rpcs(*r->as_table(), s, err))
			return std::nullopt;
	}
	const toml::array *flows = t["flows"].as_array();
	if (!flows) {
		err = "no [[flows]]";
		return std::nullopt;
	}
	if (!parse_flows(*flows, s, err))
		return std::nullopt;
	if (const toml::table *profs = t["profile"].as_table()) {
		for (const auto &[name, node] : *profs) {
			Profile p;
			if (!node.as_table()) {
				err = "profile." + std::string(name) + " must be a table";
				return std::nullopt;
			}
			if (!parse_profile(std::string(name), *node.as_table(), p, err))
				return std::nullopt;
			s.profiles.push_back(std::move(p));
		}
	}
	if (s.profiles.empty()) {
		err = "no [profile.NAME]";
		return std::nullopt;
	}
	return s;
}

std::optional<Scenario> load_scenario(const std::string &path, std::string &err)
{
	std::ifstream in(path);
	std::stringstream ss;

	if (!in) {
		err = path + ": cannot open";
		return std::nullopt;
	}
	ss << in.rdbuf();
	auto s = parse_scenario(ss.str(), err);
	if (!s)
		err = path + ": " + err;
	return s;
}

} // namespace uno_sim
