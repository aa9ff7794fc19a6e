// SPDX-License-Identifier: GPL-2.0
#include "scenario.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include <toml++/toml.h>

#include "params.h"
#include "record.h"
#include "workload.h"

namespace uno_sim {

namespace {

const char *const kVariants[] = { "uno",	"uno-nophantom", "smartt", "smartt-nscc",
				  "dctcp",	"cubic",	 "bbr",	   "dctcp+bbr" };
// One port per flow at the receiver (sim.cc), from 5000.
constexpr size_t kMaxMixFlows = 60000;
// Ports a sender's connections may bind.
constexpr size_t kMaxFlowsPerSender = 16384;

// A key the table does not take is a mistake (a key written under the
// wrong table header lands in that table): refused, named.
bool known_keys(const toml::table &t, std::initializer_list<std::string_view> keys,
		const std::string &where, std::string &err)
{
	for (const auto &[key, node] : t) {
		if (std::find(keys.begin(), keys.end(), key.str()) == keys.end()) {
			err = (where.empty() ? "" : where + ": ") + "unknown key '" + std::string(key.str()) + "'";
			return false;
		}
	}
	return true;
}

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
	if (!v || !(*v >= 0) || !std::isfinite(*v)) {
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
	if (!known_keys(t, { "rate_mbps", "mtu", "intra_rtt_us", "inter_rtt_us", "buffer_bytes",
			     "kmin_bytes", "kmax_bytes", "flow_bytes", "rto_min_us", "warmup_inter_rtts",
			     "window_inter_rtts", "sample_inter_rtts", "mix_duration_ms", "uno", "smartt" },
			where, err))
		return false;
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
	    !get_double(t, "sample_inter_rtts", p.sample_inter_rtts, err) ||
	    !get_double(t, "mix_duration_ms", p.mix_duration_ms, err)) {
		err = where + ": " + err;
		return false;
	}
	if (p.mix_duration_ms && *p.mix_duration_ms <= 0) {
		err = where + ": 'mix_duration_ms' must be > 0";
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

	if (!known_keys(t, { "class", "count", "min_bytes", "max_bytes", "gap_us" }, "rpcs", err) ||
	    !parse_class(t, r.cls, err, "rpcs") ||
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

bool parse_mix(const toml::table &t, Scenario &s, std::string &err)
{
	Mix m;
	std::string e;

	if (s.rpcs) {
		err = "mix: a scenario has [mix] or [rpcs], not both";
		return false;
	}
	if (!known_keys(t, { "cdf_intra", "cdf_inter", "load", "intra_fraction", "duration_ms", "seed" },
			"mix", err))
		return false;
	for (auto [key, cdf] : { std::pair{ "cdf_intra", &m.cdf_intra }, std::pair{ "cdf_inter", &m.cdf_inter } }) {
		const toml::node *n = t.get(key);
		if (n && !n->is_string()) {
			err = std::string("mix: '") + key + "' must be a file name";
			return false;
		}
		*cdf = n ? *n->value<std::string>() : std::string();
	}
	if (!get_uint(t, "seed", m.seed, false, err, "mix"))
		return false;
	if (!get_double(t, "load", m.load, e) || !get_double(t, "intra_fraction", m.intra_fraction, e) ||
	    !get_double(t, "duration_ms", m.duration_ms, e)) {
		err = "mix: " + e;
		return false;
	}
	if (!(m.load > 0 && m.load <= 1) || m.intra_fraction > 1 || !(m.duration_ms > 0) ||
	    (m.intra_fraction > 0 && m.cdf_intra.empty()) || (m.intra_fraction < 1 && m.cdf_inter.empty())) {
		err = "mix: needs load in (0, 1], intra_fraction in [0, 1], duration_ms > 0 and a CDF "
		      "(cdf_intra, cdf_inter) for each class it draws";
		return false;
	}
	s.mix = m;
	return true;
}

bool parse_points(const toml::array &a, Scenario &s, std::string &err)
{
	for (const toml::node &n : a) {
		const toml::table *t = n.as_table();
		Point pt;
		double v = 0;
		std::string e;

		auto label = t ? (*t)["label"].value<std::string>() : std::nullopt;
		if (!label || label->empty()) {
			err = "points: every entry needs a label";
			return false;
		}
		pt.label = *label;
		if (!known_keys(*t, { "label", "load", "rtt_ratio" }, "points." + pt.label, err))
			return false;
		if (t->get("load")) {
			if (!get_double(*t, "load", v, e) || !(v > 0 && v <= 1) || !s.mix) {
				err = "points." + pt.label + ": load must be in (0, 1], and needs a [mix]";
				return false;
			}
			pt.load = v;
		}
		if (t->get("rtt_ratio")) {
			if (!get_double(*t, "rtt_ratio", v, e) || v < 1 || v > 10000) {
				err = "points." + pt.label + ": rtt_ratio must be in [1, 10000]";
				return false;
			}
			pt.rtt_ratio = v;
		}
		for (const Point &q : s.points)
			if (q.label == pt.label) {
				err = "points: label '" + pt.label + "' given twice";
				return false;
			}
		s.points.push_back(std::move(pt));
	}
	return true;
}

// An optional section @key of the scenario, parsed when present and of
// its kind (a table or an array of tables).
template <typename Kind>
bool parse_section(const toml::table &t, const char *key, const char *kind,
		   bool (*parse)(const Kind &, Scenario &, std::string &), Scenario &s,
		   std::string &err)
{
	const toml::node *n = t.get(key);

	if (!n)
		return true;
	if (!n->as<Kind>()) {
		err = std::string(key) + ": must be " + kind;
		return false;
	}
	return parse(*n->as<Kind>(), s, err);
}

// Each flow of a mix binds a port of its sender from the start, and ns-3
// has 16384 ephemeral ports a node (49152-65535).
void check_sender_ports(const std::vector<unoperf::FlowSpec> &flows)
{
	std::map<std::pair<std::string, std::string>, size_t> per_sender;

	for (const unoperf::FlowSpec &f : flows)
		if (++per_sender[{ f.cls, f.ns }] > kMaxFlowsPerSender)
			throw unoperf::InputError("more than " + std::to_string(kMaxFlowsPerSender) +
						  " flows from one sender: more senders (--hosts), a "
						  "shorter duration or a lower load");
}

// A mix's flows are its plan's, and it runs until they end: no window,
// flow size, [[also]] or group that joins at a window beside it.
bool mix_alone(const Scenario &s, std::string &err)
{
	bool sized = s.flow_bdps || !s.also.empty() || s.window_inter_rtts > 0;

	for (const FlowGroup &g : s.flows)
		sized |= g.at_window;
	for (const Profile &p : s.profiles)
		sized |= p.flow_bytes || p.window_inter_rtts.value_or(0) > 0;
	if (sized)
		err = "mix: its flows are its plan's until they end: no window_inter_rtts, flow_bytes, "
		      "flow_bdps, [[also]] or at_window beside it";
	return !sized;
}

// A [mix]'s CDF file, read and checked.
unoperf::Cdf read_cdf(const std::string &path)
{
	std::ifstream in(path);

	if (!in)
		throw unoperf::InputError(path + ": cannot open");
	return unoperf::Cdf::parse(in, path);
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
		if (!known_keys(*t, { "class", "count", "at_window" }, "flows", err) ||
		    !parse_class(*t, g.cls, err, "flows"))
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
		if (!known_keys(*t, { "prefix", "flow_bdps" }, "also", err))
			return false;
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
	if (s.mix)
		s.mix->duration_ms = p.mix_duration_ms.value_or(mix->duration_ms);
	return s;
}

std::pair<Scenario, Profile> Scenario::at_point(const Profile &p, const Point &pt) const
{
	Scenario s = *this;
	Profile q = p;

	if (pt.load)
		s.mix->load = *pt.load;
	// test_eval_n8.sh: EV_INTER_US = int(r * EV_INTRA_US).
	if (pt.rtt_ratio)
		q.inter_rtt_us = static_cast<uint32_t>(*pt.rtt_ratio * p.intra_rtt_us);
	return { s, q };
}

bool add_param(Profile &p, const std::string &spec, std::string &err)
{
	size_t dot = spec.find('.'), eq = spec.find('=');
	std::string cc = spec.substr(0, dot), value, e;
	double v;
	size_t end = 0;

	if (dot == std::string::npos || eq == std::string::npos || eq < dot || (cc != "uno" && cc != "smartt")) {
		err = "'" + spec + "': give CC.NAME=VALUE, CC uno or smartt";
		return false;
	}
	value = spec.substr(eq + 1);
	try {
		v = std::stod(value, &end);
	} catch (const std::exception &) {
		end = 0;
	}
	if (value.empty() || end != value.size()) {
		err = "'" + spec + "': the value is not a number";
		return false;
	}
	auto pv = uno::scale_param(cc, spec.substr(dot + 1, eq - dot - 1), v,
				   value.find_first_of(".eE") == std::string::npos, e);
	if (!pv) {
		err = "'" + spec + "': " + e;
		return false;
	}
	p.params.push_back({ cc, pv->name, pv->value });
	return true;
}

std::optional<std::vector<MixFlow>> plan_mix(const Scenario &s, const Profile &p, std::string &err)
{
	const Mix &m = *s.mix;
	unoperf::Senders senders;
	std::vector<MixFlow> out;

	for (const FlowGroup &g : s.flows)
		for (uint32_t i = 0; i < g.count; i++) {
			auto &of = g.cls == FlowClass::Intra ? senders.intra : senders.inter;
			of.push_back(std::to_string(of.size()));
		}
	try {
		std::optional<unoperf::Cdf> intra, inter;
		unoperf::CdfWorkload w;

		if (!m.cdf_intra.empty())
			intra = read_cdf(m.cdf_intra);
		if (!m.cdf_inter.empty())
			inter = read_cdf(m.cdf_inter);
		w.intra = intra ? &*intra : nullptr;
		w.inter = inter ? &*inter : nullptr;
		w.load = m.load;
		w.rate_mbps = static_cast<double>(p.rate_mbps);
		w.intra_fraction = m.intra_fraction;
		w.duration_us = m.duration_ms * 1e3;
		w.seed = m.seed;
		std::vector<unoperf::FlowSpec> flows = unoperf::generate_cdf_flows(w);
		if (flows.size() > kMaxMixFlows)
			throw unoperf::InputError("more than " + std::to_string(kMaxMixFlows) +
						  " flows: a shorter duration or a lower load");
		unoperf::assign_senders(flows, senders);
		check_sender_ports(flows);
		for (const unoperf::FlowSpec &f : flows) {
			FlowClass c = f.cls == unoperf::kIntra ? FlowClass::Intra : FlowClass::Inter;
			uint32_t rtt = c == FlowClass::Intra ? p.intra_rtt_us : p.inter_rtt_us;

			out.push_back({ c, static_cast<uint32_t>(std::stoul(f.ns)), f.size, f.start_us,
					unoperf::ideal_fct_us(f.size, w.rate_mbps, rtt) });
		}
	} catch (const std::exception &e) {
		err = std::string("mix: ") + e.what();
		return std::nullopt;
	}
	return out;
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
	if (!known_keys(t, { "name", "description", "variants", "warmup_inter_rtts", "window_inter_rtts",
			     "sample_inter_rtts", "flow_bdps", "also", "rpcs", "mix", "points", "flows",
			     "profile" },
			"", err))
		return std::nullopt;
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
				err = "variants: unknown variant (known: uno, uno-nophantom, smartt, smartt-nscc, dctcp, cubic, bbr, dctcp+bbr)";
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
	if (!parse_section<toml::array>(t, "also", "[[also]] tables", parse_also, s, err) ||
	    !parse_section<toml::table>(t, "rpcs", "a table", parse_rpcs, s, err) ||
	    !parse_section<toml::table>(t, "mix", "a table", parse_mix, s, err) ||
	    !parse_section<toml::array>(t, "points", "[[points]] tables", parse_points, s, err))
		return std::nullopt;
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
	if (s.mix && !mix_alone(s, err))
		return std::nullopt;
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
	if (!s) {
		err = path + ": " + err;
		return s;
	}
	// A mix's CDFs are named relative to the file, and read now.
	if (s->mix) {
		std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
		try {
			for (std::string *cdf : { &s->mix->cdf_intra, &s->mix->cdf_inter }) {
				if (cdf->empty())
					continue;
				if ((*cdf)[0] != '/')
					*cdf = dir + "/" + *cdf;
				read_cdf(*cdf);
			}
		} catch (const std::exception &e) {
			err = path + ": mix: " + e.what();
			return std::nullopt;
		}
	}
	return s;
}

} // namespace uno_sim
