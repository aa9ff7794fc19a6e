// SPDX-License-Identifier: GPL-2.0
#include "config.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <arpa/inet.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <toml++/toml.h>

#include "core_types.h"
#include "hpcc_core.h"
#include "mlcc_core.h"
#include "params.h"
#include "ndt_units.h"
#include "phantom_units.h"
#include "reflex_core.h"

namespace uno {
namespace {

class Parser {
public:
	explicit Parser(const CcLookup &has_cc) : has_cc_(has_cc) {}

	std::vector<ConfigError> errors;

	void error(const toml::node &n, std::string msg)
	{
		const auto &b = n.source().begin;
		errors.push_back({ b.line, b.column, std::move(msg) });
	}

	void cc_section(const toml::table &cc, Config &c);
	void cc_params(const std::string &name, const toml::table &t, Config &c);
	template <class T>
	void dev_tables(const toml::node &n, const std::string &name,
			std::optional<T> (Parser::*parse)(const toml::table &),
			std::vector<T> &out);
	void unorc_section(const toml::table &t, Config &c);
	std::optional<QdiscConf> qdisc(const toml::table &t);
	bool phantom_option(const std::string &k, const toml::node &node, PhantomOpts &o);
	bool ndt_option(const std::string &k, const toml::node &node, NdtOpts &o);
	void ndt_check(const toml::table &t, const NdtOpts &o);
	std::optional<LbConf> lb(const toml::table &t);
	void reflex_section(const toml::table &t, Config &c);
	void mlcc_section(const toml::table &t, Config &c);
	std::optional<MlccNsConf> mlcc_ns_role(uint32_t role, const toml::table &t);
	std::optional<RfxConf> reflex_role(uint32_t role, const toml::table &t);
	void rfx_names(const toml::node &n, const std::string &key, std::vector<std::string> &out);
	std::optional<std::string> ifname(const toml::node &n, const std::string &key);
	std::optional<uint32_t> ipv4_addr(const toml::node &n, const std::string &key);
	void ipv4_addrs(const toml::node &n, const std::string &key, std::vector<uint32_t> &out);
	template <class T>
	std::optional<T> role_checked(const T &r, size_t before, const toml::table &t,
				      const std::string &sect, const std::string &err);
	void lb_ports(const toml::node &n, const std::string &key, std::vector<uint16_t> &ports);

private:
	const CcLookup &has_cc_;
};

// A table's entries in the order of the file (toml++ iterates by key).
std::vector<std::pair<std::string, const toml::node *>> in_file_order(const toml::table &t)
{
	std::vector<std::pair<std::string, const toml::node *>> v;
	for (const auto &[key, node] : t)
		v.emplace_back(std::string(key.str()), &node);
	std::stable_sort(v.begin(), v.end(), [](const auto &a, const auto &b) {
		const auto &x = a.second->source().begin, &y = b.second->source().begin;
		return x.line != y.line ? x.line < y.line : x.column < y.column;
	});
	return v;
}

bool valid_cc_name(std::string_view s)
{
	if (s.empty() || s.size() > 15) // TCP_CA_NAME_MAX - 1
		return false;
	for (char ch : s)
		if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '-')
			return false;
	return true;
}

void Parser::cc_params(const std::string &cc, const toml::table &t, Config &c)
{
	auto &out = c.params[cc];
	for (const auto &[name, np] : in_file_order(t)) {
		const toml::node &node = *np;
		double v;
		bool integral;
		if (auto i = node.as_integer()) {
			v = static_cast<double>(i->get());
			integral = true;
		} else if (auto f = node.as_floating_point()) {
			v = f->get();
			integral = false;
		} else if (auto b = node.as_boolean()) {
			v = b->get();
			integral = true;
		} else {
			error(node, "cc." + cc + "." + name + ": expected a number");
			continue;
		}
		std::string err;
		auto pv = scale_param(cc, name, v, integral, err);
		if (!pv) {
			error(node, "cc." + cc + "." + err);
			continue;
		}
		if (out.contains(pv->name)) {
			error(node, "cc." + cc + "." + name + ": " + pv->name + " is set twice");
			continue;
		}
		out[pv->name] = pv->value;
	}
}

void Parser::cc_section(const toml::table &cc, Config &c)
{
	for (const auto &[k, np] : in_file_order(cc)) {
		const toml::node &node = *np;
		if (k == "default") {
			auto s = node.as_string();
			if (!s || !valid_cc_name(s->get()))
				error(node, "cc.default: expected the name of a congestion control");
			else if (!has_cc_(s->get()))
				error(node, "cc.default: no congestion control '" + s->get() +
						    "' on this host (not in tcp_available_congestion_control, "
						    "no module tcp_" + s->get() + ")");
			else
				c.default_cc = s->get();
		} else if (auto t = node.as_table()) {
			if (!known_cc(k))
				error(node, unknown_cc_msg(k));
			else
				cc_params(k, *t, c);
		} else {
			error(node, "cc." + k + ": unknown key (expected 'default' or a [cc.NAME] table)");
		}
	}
}

// A size: an integer (bytes) or a string with tc's units.
std::optional<uint32_t> size_of(const toml::node &n)
{
	std::optional<uint64_t> v;
	if (auto i = n.as_integer()) {
		if (i->get() >= 0)
			v = static_cast<uint64_t>(i->get());
	} else if (auto s = n.as_string()) {
		v = parse_size(s->get());
	}
	if (!v || *v > UINT32_MAX)
		return std::nullopt;
	return static_cast<uint32_t>(*v);
}

// A rate: a string with tc's units, or an integer in bit/s, as tc.
std::optional<uint64_t> rate_of(const toml::node &n)
{
	std::optional<uint64_t> r;
	if (auto s = n.as_string())
		r = parse_rate(s->get());
	else if (auto i = n.as_integer(); i && i->get() > 0)
		r = static_cast<uint64_t>(i->get()) / 8;
	if (!r || !*r)
		return std::nullopt;
	return r;
}

// A time in ns: a string in tc's syntax ("10us"), or an integer in ns.
std::optional<uint64_t> time_of(const toml::node &n)
{
	uint64_t ns;
	if (auto i = n.as_integer())
		return i->get() >= 0 ? std::optional(static_cast<uint64_t>(i->get())) : std::nullopt;
	if (auto s = n.as_string(); s && !ndt_time_ns(s->get().c_str(), &ns))
		return ns;
	return std::nullopt;
}

// A fraction in ppm: a number (0.7, or 0 and 1), or a string ("0.7", "70%").
std::optional<uint64_t> fraction_of(const toml::node &n)
{
	uint32_t ppm;
	if (auto f = n.as_floating_point(); f && !ndt_fraction_ppm(f->get(), &ppm))
		return ppm;
	if (auto i = n.as_integer(); i && !ndt_fraction_ppm(static_cast<double>(i->get()), &ppm))
		return ppm;
	if (auto s = n.as_string(); s && !ndt_alpha_ppm(s->get().c_str(), &ppm))
		return ppm;
	return std::nullopt;
}

// The option of a phantom [[qdisc]] named @key that holds a size in
// bytes, if any.
std::optional<uint32_t> *size_field(PhantomOpts &o, const std::string &key)
{
	static const std::pair<const char *, std::optional<uint32_t> PhantomOpts::*> fields[] = {
		{ "limit", &PhantomOpts::limit },
		{ "ecn-min", &PhantomOpts::ecn_min },
		{ "ecn-max", &PhantomOpts::ecn_max },
		{ "phantom-size", &PhantomOpts::pq_size },
		{ "phantom-min", &PhantomOpts::pq_min },
		{ "phantom-max", &PhantomOpts::pq_max },
		{ "trim-limit", &PhantomOpts::trim_limit },
		{ "burst", &PhantomOpts::burst },
		{ "xoff", &PhantomOpts::xoff },
	};

	for (const auto &[name, member] : fields)
		if (key == name)
			return &(o.*member);
	return nullptr;
}

// The options of phantom that ndt has not, to tell a misplaced option
// from a misspelt one.
bool phantom_only(const std::string &key)
{
	static const char *const keys[] = { "ecn-min",	   "ecn-max",	"phantom-rate", "phantom-size",
					    "phantom-min", "phantom-max", "trim",	"trim-dscp",
					    "trim-limit",  "trim-udp",	"int",		"xoff" };
	return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}

// A phantom [[qdisc]]'s option but dev, kind and rate; false if k is none.
bool Parser::phantom_option(const std::string &k, const toml::node &node, PhantomOpts &o)
{
	auto bad = [&](const char *what) { error(node, "qdisc." + k + ": " + what); };
	if (auto field = size_field(o, k)) {
		auto v = size_of(node);
		if (!v)
			bad("expected a size in bytes (or with a unit: \"64kb\", \"1mb\")");
		else
			*field = v;
	} else if (k == "phantom-rate") {
		auto s = node.as_string();
		auto ppm = s ? parse_percent_ppm(s->get()) : std::nullopt;
		if (!ppm)
			bad("expected a percentage of rate, such as \"90%\"");
		else
			o.pq_rate = ppm;
	} else if (k == "trim") {
		auto s = node.as_string();
		if (s && s->get() == "off")
			o.trim = 0;
		else if (auto v = size_of(node))
			o.trim = v;
		else
			bad("expected \"off\" or the bytes kept of each header");
	} else if (k == "trim-dscp") {
		auto i = node.as_integer();
		if (!i || i->get() < 0 || i->get() > 63)
			bad("expected a DSCP, 0..63");
		else
			o.trim_dscp = static_cast<uint8_t>(i->get());
	} else if (k == "trim-udp") {
		auto s = node.as_string();
		if (s && (s->get() == "valid" || s->get() == "stale"))
			o.trim_valid = s->get() == "valid";
		else
			bad("expected \"valid\" or \"stale\"");
	} else if (k == "int") {
		auto b = node.as_boolean();
		if (!b)
			bad("expected true or false");
		else
			o.int_stamp = b->get();
	} else {
		return false;
	}
	return true;
}

// An ndt [[qdisc]]'s options but dev, kind and rate: how each is
// written, its range, and where it goes. The ranges are those of
// sch_ndt.h and ndt_params_valid() (reflex_core.h), each alone.
enum class NdtUnit { Bytes, Time, Count, Fraction };

struct NdtField {
	const char *key;
	NdtUnit unit;
	uint64_t min;
	uint64_t max;
	void (*set)(NdtOpts &o, uint64_t v);
};

const NdtField *ndt_field(const std::string &key)
{
	constexpr uint64_t kU32 = UINT32_MAX;
	static const NdtField fields[] = {
		{ "limit", NdtUnit::Bytes, TC_NDT_LIMIT_MIN, kU32,
		  [](NdtOpts &o, uint64_t v) { o.limit = static_cast<uint32_t>(v); } },
		{ "burst", NdtUnit::Bytes, 0, TC_NDT_BURST_MAX,
		  [](NdtOpts &o, uint64_t v) { o.burst = static_cast<uint32_t>(v); } },
		{ "dst-thresh", NdtUnit::Time, 0, TC_NDT_TIME_MAX,
		  [](NdtOpts &o, uint64_t v) { o.dst_thresh = v; } },
		{ "alpha", NdtUnit::Fraction, 0, TC_NDT_ONE,
		  [](NdtOpts &o, uint64_t v) { o.alpha = static_cast<uint32_t>(v); } },
		{ "n-throttle", NdtUnit::Count, 1, kU32,
		  [](NdtOpts &o, uint64_t v) { o.n_throttle = static_cast<uint32_t>(v); } },
		{ "maxpause", NdtUnit::Time, 1, TC_NDT_TIME_MAX, [](NdtOpts &o, uint64_t v) { o.maxpause = v; } },
		{ "rearm", NdtUnit::Time, 0, TC_NDT_TIME_MAX, [](NdtOpts &o, uint64_t v) { o.rearm = v; } },
		{ "active", NdtUnit::Time, 1, TC_NDT_TIME_MAX, [](NdtOpts &o, uint64_t v) { o.active = v; } },
		{ "idle-gc", NdtUnit::Time, 0, TC_NDT_TIME_MAX, [](NdtOpts &o, uint64_t v) { o.idle_gc = v; } },
		{ "flows", NdtUnit::Count, 1, TC_NDT_FLOWS_MAX,
		  [](NdtOpts &o, uint64_t v) { o.flows = static_cast<uint32_t>(v); } },
	};

	for (const auto &f : fields)
		if (key == f.key)
			return &f;
	return nullptr;
}

// What a value of f must be, for its error message.
std::string ndt_expected(const NdtField &f)
{
	switch (f.unit) {
	case NdtUnit::Bytes:
		return "expected a size in bytes (or with a unit: \"64kb\", \"1mb\")" +
		       (f.min ? ", at least " + std::to_string(f.min) : "") +
		       (f.max < UINT32_MAX ? ", at most " + std::to_string(f.max) : "");
	case NdtUnit::Time:
		return std::string("expected a time") + (f.min ? " above 0" : "") +
		       " up to an hour, such as \"10us\" or \"1.5ms\" (an integer: ns)";
	case NdtUnit::Count:
		return "expected an integer, " + std::to_string(f.min) + ".." + std::to_string(f.max);
	case NdtUnit::Fraction:
		break;
	}
	return "expected a fraction, 0..1, such as 0.7 or \"70%\"";
}

std::optional<uint64_t> ndt_value(const NdtField &f, const toml::node &n)
{
	std::optional<uint64_t> v;
	switch (f.unit) {
	case NdtUnit::Bytes:
		v = size_of(n);
		break;
	case NdtUnit::Time:
		v = time_of(n);
		break;
	case NdtUnit::Count:
		if (auto i = n.as_integer(); i && i->get() >= 0)
			v = static_cast<uint64_t>(i->get());
		break;
	case NdtUnit::Fraction:
		v = fraction_of(n);
		break;
	}
	if (!v || *v < f.min || *v > f.max)
		return std::nullopt;
	return v;
}

// An ndt [[qdisc]]'s option but dev, kind and rate; false if k is none.
bool Parser::ndt_option(const std::string &k, const toml::node &node, NdtOpts &o)
{
	const NdtField *f = ndt_field(k);
	if (!f)
		return false;
	if (auto v = ndt_value(*f, node))
		f->set(o, *v);
	else
		error(node, "qdisc." + k + ": " + ndt_expected(*f));
	return true;
}

std::string time_text(uint64_t ns)
{
	char buf[NDT_TIME_LEN];
	return ndt_time_text(ns, buf, sizeof(buf));
}

// idle-gc >= active, either taken at its default when not given (as the
// kernel does when it creates the qdisc): a flow must have left the
// active ones, and their counts, by the time it is forgotten.
void Parser::ndt_check(const toml::table &t, const NdtOpts &o)
{
	const uint64_t active = o.active.value_or(NDT_DEF_T_ACTIVE_NS);
	const uint64_t idle_gc = o.idle_gc.value_or(REFLEX_DEF_T_IDLE_GC_NS);

	if (idle_gc >= active)
		return;
	if (o.idle_gc)
		error(*t.get("idle-gc"), "qdisc.idle-gc: " + time_text(idle_gc) +
						 " is below active (" + time_text(active) + ")");
	else
		error(*t.get("active"), "qdisc.active: " + time_text(active) +
						" is above idle-gc (" + time_text(idle_gc) +
						", its default)");
}

std::optional<QdiscConf> Parser::qdisc(const toml::table &t)
{
	QdiscConf q;
	size_t before = errors.size();

	// The kind first: it says which options the others are.
	if (const toml::node *n = t.get("kind")) {
		auto s = n->as_string();
		if (!s || !our_qdisc(s->get())) {
			error(*n, "qdisc.kind: expected \"phantom\" or \"ndt\"");
			return std::nullopt;
		}
		q.kind = s->get();
	}
	const bool ndt = q.kind == "ndt";
	for (const auto &[k, np] : in_file_order(t)) {
		const toml::node &node = *np;
		auto bad = [&](const std::string &what) { error(node, "qdisc." + k + ": " + what); };
		if (k == "kind") {
			continue;
		} else if (k == "dev") {
			auto s = node.as_string();
			if (!s || s->get().empty() || s->get().size() >= 16)
				bad("expected an interface name");
			else
				q.dev = s->get();
		} else if (k == "rate") {
			auto r = rate_of(node);
			if (!r)
				bad("expected a rate such as \"1gbit\" or \"500mbit\"");
			else
				(ndt ? q.ndt.rate : q.opts.rate) = r;
		} else if (ndt ? ndt_option(k, node, q.ndt) : phantom_option(k, node, q.opts)) {
			// taken, or refused with its reason
		} else if (ndt ? phantom_only(k) : ndt_field(k) != nullptr) {
			bad(ndt ? "an option of phantom, not of ndt"
				: "an option of ndt, not of phantom (kind = \"ndt\" for ndt)");
		} else {
			bad("unknown option");
		}
	}
	// Required, unless present with a bad value (already reported).
	if (!t.contains("dev"))
		error(t, "[[qdisc]]: 'dev' is required");
	if (!t.contains("rate"))
		error(t, "[[qdisc]]: 'rate' is required");
	if (ndt && errors.size() == before)
		ndt_check(t, q.ndt);
	if (!ndt && errors.size() == before && q.opts.int_stamp.value_or(false) &&
	    hpcc_rate_bcode(*q.opts.rate) >= HPCC_BCODES)
		error(*t.get("int"), "qdisc.int: an INT record cannot carry this rate (10, 25, "
				     "50, 100, 250, 500 Mbit/s, 1, 2.5, 5, 10, 25, 40, 50, 100, "
				     "200, 400 Gbit/s)");

	if (errors.size() != before)
		return std::nullopt;
	return q;
}

// [[NAME]] tables of one device each, by `parse`, into `out`: a device
// listed twice is an error.
template <class T>
void Parser::dev_tables(const toml::node &n, const std::string &name,
			std::optional<T> (Parser::*parse)(const toml::table &),
			std::vector<T> &out)
{
	auto arr = n.as_array();
	if (!arr || !arr->is_array_of_tables()) {
		error(n, name + ": expected [[" + name + "]] tables");
		return;
	}
	for (const auto &el : *arr) {
		auto v = (this->*parse)(*el.as_table());
		if (!v)
			continue;
		for (const auto &other : out)
			if (other.dev == v->dev)
				error(el, "[[" + name + "]]: dev '" + v->dev + "' is listed twice");
		out.push_back(*v);
	}
}

// [[lb]]'s integer keys: the lb_cfg field each sets, and its range.
struct LbField {
	const char *key;
	int64_t min;
	int64_t max;
	void (*set)(lb_cfg &c, int64_t v);
};

const LbField *lb_field(const std::string &key)
{
	// The ranges are those lb_params_valid() accepts, each alone.
	static const LbField fields[] = {
		{ "num-ev", 1, LB_MAX_EV,
		  [](lb_cfg &c, int64_t v) { c.num_ev = static_cast<uint16_t>(v); } },
		{ "ev-base", 1, 65535,
		  [](lb_cfg &c, int64_t v) { c.ev_base = static_cast<uint16_t>(v); } },
		{ "cache-size", 1, 16,
		  [](lb_cfg &c, int64_t v) { c.cache_size = static_cast<uint8_t>(v); } },
		{ "bdp-pkts", 1, 1 << 20,
		  [](lb_cfg &c, int64_t v) { c.bdp_pkts = static_cast<uint32_t>(v); } },
		{ "flowlet-gap-us", 1, 60'000'000,
		  [](lb_cfg &c, int64_t v) { c.flowlet_gap_ns = static_cast<uint64_t>(v) * 1000; } },
		{ "plb-idle-rounds", 0, 31,
		  [](lb_cfg &c, int64_t v) { c.plb_idle_rounds = static_cast<uint32_t>(v); } },
		{ "plb-rehash-rounds", 1, 31,
		  [](lb_cfg &c, int64_t v) { c.plb_force_rounds = static_cast<uint32_t>(v); } },
		{ "plb-cong-thresh", 0, 256,
		  [](lb_cfg &c, int64_t v) { c.plb_thresh_256 = static_cast<uint32_t>(v); } },
	};

	for (const auto &f : fields)
		if (key == f.key)
			return &f;
	return nullptr;
}

void Parser::lb_ports(const toml::node &n, const std::string &key, std::vector<uint16_t> &ports)
{
	auto arr = n.as_array();
	if (!arr || arr->empty()) {
		error(n, "lb." + key + ": expected a list of destination ports, [9000, ...]");
		return;
	}
	for (const auto &el : *arr) {
		auto i = el.as_integer();
		if (!i || i->get() < 1 || i->get() > 65535) {
			error(el, "lb." + key + ": expected a port, 1..65535");
			continue;
		}
		ports.push_back(static_cast<uint16_t>(i->get()));
	}
	std::sort(ports.begin(), ports.end());
	if (std::adjacent_find(ports.begin(), ports.end()) != ports.end())
		error(n, "lb." + key + ": a port is listed twice");
}

std::optional<LbConf> Parser::lb(const toml::table &t)
{
	LbConf l;
	size_t before = errors.size();

	for (const auto &[k, np] : in_file_order(t)) {
		const toml::node &node = *np;
		auto bad = [&](const std::string &what) { error(node, "lb." + k + ": " + what); };
		if (k == "dev") {
			auto s = node.as_string();
			if (!s || s->get().empty() || s->get().size() >= 16)
				bad("expected an interface name");
			else
				l.dev = s->get();
		} else if (k == "mode") {
			auto s = node.as_string();
			auto m = s ? lb_mode_of(s->get()) : std::nullopt;
			if (!m)
				bad("expected one of " + lb_mode_names());
			else
				l.cfg.mode = *m;
		} else if (k == "ports") {
			lb_ports(node, k, l.ports);
		} else if (k == "tcp-ports") {
			lb_ports(node, k, l.tcp_ports);
		} else if (k == "tcp-mode") {
			auto s = node.as_string();
			auto m = s ? lb_mode_of(s->get()) : std::nullopt;
			if (!m)
				bad("expected one of " + lb_mode_names());
			else
				l.tcp_mode = *m;
		} else if (k == "require-shim") {
			auto b = node.as_boolean();
			if (!b)
				bad("expected true or false");
			else
				l.require_shim = b->get();
		} else if (const LbField *f = lb_field(k)) {
			auto i = node.as_integer();
			if (!i || i->get() < f->min || i->get() > f->max)
				bad("expected an integer, " + std::to_string(f->min) + ".." +
				    std::to_string(f->max));
			else
				f->set(l.cfg, i->get());
		} else {
			bad("unknown option");
		}
	}
	if (!t.contains("dev"))
		error(t, "[[lb]]: 'dev' is required");
	if (!t.contains("ports") && !t.contains("tcp-ports"))
		error(t, "[[lb]]: 'ports' or 'tcp-ports' is required");
	if (errors.size() != before)
		return std::nullopt;
	if (l.ports.size() + l.tcp_ports.size() > LB_MAX_POLICIES) {
		error(t, "[[lb]]: at most " + std::to_string(LB_MAX_POLICIES) +
				 " ports, UDP and TCP");
		return std::nullopt;
	}
	if (static_cast<uint32_t>(l.cfg.ev_base) + l.cfg.num_ev > 65536) {
		error(t, "[[lb]]: ev-base + num-ev passes port 65535");
		return std::nullopt;
	}
	if (!lb_cfg_runs(l.cfg)) {
		error(t, "[[lb]]: the datapath refuses these parameters");
		return std::nullopt;
	}
	return l;
}

// [reflex.ROLE]'s integer keys: the rfx_cfg field each sets, its range
// and the roles it is for (a mask of 1 << enum rfx_role).
struct RfxField {
	const char *key;
	uint64_t min;
	uint64_t max;
	uint32_t roles;
	void (*set)(rfx_cfg &c, uint64_t v);
};

constexpr uint32_t kRfxAll = 1U << RFX_ROLE_STAMP | 1U << RFX_ROLE_GATEWAY | 1U << RFX_ROLE_HOST;
constexpr uint32_t kRfxGw = 1U << RFX_ROLE_GATEWAY;

const RfxField *rfx_field(const std::string &key, uint32_t role)
{
	static const RfxField fields[] = {
		{ "k", 0, 48, kRfxAll, [](rfx_cfg &c, uint64_t v) { c.k = static_cast<uint8_t>(v); } },
		{ "port", 1, 65535, kRfxGw | 1U << RFX_ROLE_HOST,
		  [](rfx_cfg &c, uint64_t v) { c.port = static_cast<uint16_t>(v); } },
		{ "t-src-thresh-ns", 0, UINT32_MAX, kRfxGw,
		  [](rfx_cfg &c, uint64_t v) { c.t_src_thresh_ns = v; } },
		{ "t-interval-ns", 0, UINT32_MAX, kRfxGw,
		  [](rfx_cfg &c, uint64_t v) { c.t_interval_ns = v; } },
		{ "t-idle-gc-ns", 0, UINT32_MAX, kRfxGw,
		  [](rfx_cfg &c, uint64_t v) { c.t_idle_gc_ns = v; } },
		{ "n-cool", 1, 255, kRfxGw,
		  [](rfx_cfg &c, uint64_t v) { c.n_cool = static_cast<uint32_t>(v); } },
	};

	for (const auto &f : fields)
		if (key == f.key && (f.roles & 1U << role))
			return &f;
	return nullptr;
}

// A list of interface names.
void Parser::rfx_names(const toml::node &n, const std::string &key, std::vector<std::string> &out)
{
	auto arr = n.as_array();
	if (!arr || arr->empty()) {
		error(n, key + ": expected a list of interface names, [\"eth0\", ...]");
		return;
	}
	for (const auto &el : *arr) {
		auto s = el.as_string();
		if (!s || s->get().empty() || s->get().size() >= 16)
			error(el, key + ": expected an interface name");
		else if (std::find(out.begin(), out.end(), s->get()) != out.end())
			error(el, key + ": '" + s->get() + "' is listed twice");
		else
			out.push_back(s->get());
	}
}

// An interface name.
std::optional<std::string> Parser::ifname(const toml::node &n, const std::string &key)
{
	auto s = n.as_string();
	if (s && !s->get().empty() && s->get().size() < 16)
		return s->get();
	error(n, key + ": expected an interface name");
	return std::nullopt;
}

// An IPv4 address, network order.
std::optional<uint32_t> Parser::ipv4_addr(const toml::node &n, const std::string &key)
{
	in_addr a;
	auto s = n.as_string();
	if (s && inet_pton(AF_INET, s->get().c_str(), &a) == 1)
		return a.s_addr;
	error(n, key + ": expected an IPv4 address");
	return std::nullopt;
}

// A list of IPv4 addresses, network order.
void Parser::ipv4_addrs(const toml::node &n, const std::string &key, std::vector<uint32_t> &out)
{
	auto arr = n.as_array();
	if (!arr || arr->empty()) {
		error(n, key + ": expected a list of IPv4 addresses");
		return;
	}
	for (const auto &el : *arr)
		if (auto a = ipv4_addr(el, key))
			out.push_back(*a);
}

// A role's table, r, if its keys brought no error since before, and else
// nothing; err, what the role's checker finds wrong with the whole, is an
// error of the table, reported only when its keys were right.
template <class T>
std::optional<T> Parser::role_checked(const T &r, size_t before, const toml::table &t,
				      const std::string &sect, const std::string &err)
{
	if (errors.size() != before)
		return std::nullopt;
	if (!err.empty()) {
		error(t, "[" + sect + "]: " + err);
		return std::nullopt;
	}
	return r;
}

std::optional<RfxConf> Parser::reflex_role(uint32_t role, const toml::table &t)
{
	const std::string sect = std::string("reflex.") + rfx_role_name(role);
	RfxConf r;
	r.role = role;
	r.cfg = rfx_cfg_default();
	size_t before = errors.size();

	for (const auto &[k, np] : in_file_order(t)) {
		const toml::node &node = *np;
		const std::string key = sect + "." + k;
		auto bad = [&](const std::string &what) { error(node, key + ": " + what); };
		if (const RfxField *f = rfx_field(k, role)) {
			auto i = node.as_integer();
			if (!i || i->get() < 0 || static_cast<uint64_t>(i->get()) < f->min ||
			    static_cast<uint64_t>(i->get()) > f->max)
				bad("expected an integer, " + std::to_string(f->min) + ".." +
				    std::to_string(f->max));
			else
				f->set(r.cfg, static_cast<uint64_t>(i->get()));
		} else if ((k == "dev" && role == RFX_ROLE_HOST) ||
			   (k == "lan" && role == RFX_ROLE_GATEWAY)) {
			if (auto n = ifname(node, key))
				r.devs.push_back(*n);
		} else if (k == "devs" && role == RFX_ROLE_STAMP) {
			rfx_names(node, key, r.devs);
		} else if (k == "wan" && role == RFX_ROLE_GATEWAY) {
			rfx_names(node, key, r.wan);
		} else if (k == "addr" && role == RFX_ROLE_GATEWAY) {
			if (auto a = ipv4_addr(node, key))
				r.cfg.lan_addr = *a;
		} else if (k == "prefixes" && role == RFX_ROLE_GATEWAY) {
			auto arr = node.as_array();
			if (!arr || arr->empty())
				bad("expected a list of IPv4 prefixes, [\"10.100.0.0/16\", ...]");
			else
				for (const auto &el : *arr) {
					auto str = el.as_string();
					auto pf = str ? parse_prefix4(str->get()) : std::nullopt;
					if (!pf)
						error(el, key + ": expected an IPv4 prefix, A.B.C.D/LEN "
								"without host bits");
					else
						r.prefixes.push_back(*pf);
				}
		} else if (k == "gateways" && role == RFX_ROLE_HOST) {
			ipv4_addrs(node, key, r.gateways);
		} else if (k == "cool-unit" && role == RFX_ROLE_GATEWAY) {
			auto s = node.as_string();
			if (!s || (s->get() != "pack" && s->get() != "packet"))
				bad("expected \"pack\" or \"packet\"");
			else
				r.cfg.cool_unit = s->get() == "pack" ? NSF_COOL_PACK : NSF_COOL_PACKET;
		} else if (k == "emit" && role == RFX_ROLE_GATEWAY) {
			auto b = node.as_boolean();
			if (!b)
				bad("expected true or false");
			else
				r.cfg.emit = b->get();
		} else {
			bad("unknown option");
		}
	}
	return role_checked(r, before, t, sect, rfx_conf_error(r));
}

// [mlcc.dci], [mlcc.sender] or [mlcc.dcir]: a tc role
// (mlcc_ns_conf_error()).
std::optional<MlccNsConf> Parser::mlcc_ns_role(uint32_t role, const toml::table &t)
{
	const std::string sect = std::string("mlcc.") + mlcc_ns_role_name(role);
	const bool dci = role != MLCC_NS_ROLE_SENDER; // a DCI's LAN port
	const bool dcis = role == MLCC_NS_ROLE_DCI;
	const bool rate = role != MLCC_NS_ROLE_DCI;
	MlccNsConf r;
	r.role = role;
	size_t before = errors.size();

	for (const auto &[k, np] : in_file_order(t)) {
		const toml::node &node = *np;
		const std::string key = sect + "." + k;
		auto bad = [&](const std::string &what) { error(node, key + ": " + what); };
		auto count = [&](uint64_t max) -> std::optional<uint64_t> {
			auto i = node.as_integer();
			if (i && i->get() >= 1 && static_cast<uint64_t>(i->get()) <= max)
				return static_cast<uint64_t>(i->get());
			bad("expected an integer, 1.." + std::to_string(max));
			return std::nullopt;
		};
		if ((dci && k == "lan") || (!dci && k == "dev")) {
			if (auto n = ifname(node, key))
				r.dev = *n;
		} else if (dcis && k == "wan") {
			rfx_names(node, key, r.wan);
		} else if (dcis && k == "addr") {
			if (auto a = ipv4_addr(node, key))
				r.cfg.lan_addr = *a;
		} else if (!dci && k == "dcis") {
			ipv4_addrs(node, key, r.dcis);
		} else if (rate && k == "line-mbps") {
			if (auto n = count(HPCC_RATE_MAX / 125000))
				r.cfg.line_rate = *n * 125000;
		} else if (!dci && k == "rtt-ns-us") {
			if (auto n = count(HPCC_T_MAX / 1000))
				r.cfg.rtt_ns_ns = static_cast<uint32_t>(*n * 1000);
		} else {
			bad("unknown option");
		}
	}
	return role_checked(r, before, t, sect, mlcc_ns_conf_error(r));
}

// [mlcc]: the cgroup's program (cgroup, remote, rtt-d-us, HPCC end to
// end's hpcc-line-mbps, the credit loop's credit-line-mbps, rtt-c-us,
// theta-us and dt-us), and the tc roles of this namespace in [mlcc.dci],
// [mlcc.sender] and [mlcc.dcir]; a table with only roles attaches no
// cgroup program.
void Parser::mlcc_section(const toml::table &t, Config &c)
{
	MlccConf m;
	size_t before = errors.size();
	bool roles = false;

	for (const auto &[k, np] : in_file_order(t)) {
		const toml::node &node = *np;
		auto bad = [&](const std::string &what) { error(node, "mlcc." + k + ": " + what); };
		if (k == "dci" || k == "sender" || k == "dcir") {
			const uint32_t role = k == "dci"    ? MLCC_NS_ROLE_DCI :
					      k == "sender" ? MLCC_NS_ROLE_SENDER :
							      MLCC_NS_ROLE_DCI_R;
			roles = true;
			if (auto sub = node.as_table()) {
				if (auto r = mlcc_ns_role(role, *sub))
					c.mlcc_ns.push_back(*r);
			} else {
				bad("expected a table, [mlcc." + k + "]");
			}
		} else if (k == "cgroup") {
			auto s = node.as_string();
			if (!s || s->get().empty() || s->get()[0] != '/')
				bad("expected the absolute path of a cgroup v2 directory");
			else
				m.cgroup = s->get();
		} else if (k == "remote") {
			auto s = node.as_string();
			auto pf = s ? parse_prefix4(s->get()) : std::nullopt;
			if (!pf) {
				bad("expected an IPv4 prefix, A.B.C.D/LEN without host bits");
			} else {
				m.cfg.remote_addr = pf->addr;
				m.cfg.remote_len = pf->prefixlen;
			}
		} else if (k == "rtt-d-us") {
			auto i = node.as_integer();
			if (!i || i->get() < 1 || i->get() > int64_t(HPCC_T_MAX / 1000))
				bad("expected an integer, 1.." + std::to_string(HPCC_T_MAX / 1000));
			else
				m.cfg.rtt_d_ns = static_cast<uint32_t>(i->get()) * 1000;
		} else if (k == "hpcc-line-mbps" || k == "credit-line-mbps") {
			const bool hpcc = k == "hpcc-line-mbps";
			const uint64_t max = (hpcc ? HPCC_RATE_MAX : MLCC_RATE_MAX) / 125000;
			auto i = node.as_integer();
			if (!i || i->get() < 1 || uint64_t(i->get()) > max)
				bad("expected an integer, 1.." + std::to_string(max));
			else
				(hpcc ? m.cfg.hpcc_line_rate : m.cfg.credit_line_rate) =
					static_cast<uint64_t>(i->get()) * 125000;
		} else if (k == "rtt-c-us" || k == "theta-us" || k == "dt-us") {
			uint32_t *ns = k == "rtt-c-us" ? &m.cfg.rtt_c_ns :
				       k == "theta-us" ? &m.cfg.theta_ns :
							 &m.cfg.d_t_ns;
			const uint64_t max = (k == "rtt-c-us" ? MLCC_RTT_C_MAX : MLCC_THETA_MAX) / 1000;
			auto i = node.as_integer();
			if (!i || i->get() < 1 || uint64_t(i->get()) > max)
				bad("expected an integer, 1.." + std::to_string(max));
			else
				*ns = static_cast<uint32_t>(i->get()) * 1000;
		} else {
			bad("unknown option");
		}
	}
	const bool program = t.contains("cgroup") || t.contains("remote") ||
			     t.contains("rtt-d-us") || t.contains("hpcc-line-mbps") ||
			     t.contains("credit-line-mbps") || t.contains("rtt-c-us") ||
			     t.contains("theta-us") || t.contains("dt-us");
	if (!t.contains("cgroup") && (program || !roles))
		error(t, "[mlcc]: 'cgroup' is required");
	if (errors.size() == before && program) {
		if (const std::string err = mlcc_credit_error(m.cfg); !err.empty())
			error(t, "[mlcc]: " + err);
		else
			c.mlcc = m;
	}
}

void Parser::reflex_section(const toml::table &t, Config &c)
{
	for (const auto &[k, np] : in_file_order(t)) {
		uint32_t role = 0;
		while (role < __RFX_ROLE_MAX && k != rfx_role_name(role))
			role++;
		auto sub = np->as_table();
		if (role == __RFX_ROLE_MAX || !sub) {
			error(*np, "reflex." + k + ": expected [reflex.stamp], [reflex.gateway] or "
					       "[reflex.host]");
			continue;
		}
		if (auto r = reflex_role(role, *sub))
			c.reflex.push_back(*r);
	}
}

// The values of an [unorc] key as text, as the knob's option takes them;
// each element's node beside it. Nothing, with the error reported, if the
// node is not of the knob's type.
std::optional<std::vector<std::pair<std::string, const toml::node *>>>
knob_texts(const unorc::Knob &k, const toml::node &node, std::string &err)
{
	using unorc::TomlType;
	std::vector<std::pair<std::string, const toml::node *>> v;
	const std::string syntax = unorc::knob_syntax(k);
	switch (k.type) {
	case TomlType::Integer:
		if (auto i = node.as_integer()) {
			v.emplace_back(std::to_string(i->get()), &node);
			return v;
		}
		err = "expected an integer, " + syntax;
		return std::nullopt;
	case TomlType::String:
		if (auto s = node.as_string()) {
			v.emplace_back(s->get(), &node);
			return v;
		}
		err = "expected a string: " + syntax;
		return std::nullopt;
	case TomlType::IntegerOrWord:
		if (auto i = node.as_integer()) {
			v.emplace_back(std::to_string(i->get()), &node);
			return v;
		}
		if (auto s = node.as_string()) {
			v.emplace_back(s->get(), &node);
			return v;
		}
		err = "expected " + syntax + " (an integer or \"" + std::string(k.word) + "\")";
		return std::nullopt;
	case TomlType::Strings:
		if (auto s = node.as_string()) {
			v.emplace_back(s->get(), &node);
			return v;
		}
		if (auto a = node.as_array()) {
			for (const auto &el : *a) {
				auto s = el.as_string();
				if (!s) {
					err = "expected an array of strings: " + syntax;
					return std::nullopt;
				}
				v.emplace_back(s->get(), &el);
			}
			return v;
		}
		err = "expected a string or an array of strings: " + syntax;
		return std::nullopt;
	}
	return std::nullopt;
}

std::string knob_names()
{
	std::string names;
	for (const auto &k : unorc::knobs())
		if (k.cli_only.empty())
			names += (names.empty() ? "" : ", ") + std::string(k.name);
	return names;
}

void Parser::unorc_section(const toml::table &t, Config &c)
{
	for (const auto &[k, np] : in_file_order(t)) {
		const toml::node &node = *np;
		const std::string where = "unorc." + k + ": ";
		const unorc::Knob *knob = unorc::find_knob(k);
		if (!knob) {
			std::string dashed = k;
			std::replace(dashed.begin(), dashed.end(), '_', '-');
			if (unorc::find_knob(dashed))
				error(node, where + "unknown key: did you mean " + dashed +
						    "? (keys are unorc's option names)");
			else
				error(node, where + "unknown key (known: " + knob_names() + ")");
			continue;
		}
		if (!knob->cli_only.empty()) {
			error(node, where + "a command-line option only (--" + k + "): " +
					    std::string(knob->cli_only));
			continue;
		}
		std::string err;
		auto texts = knob_texts(*knob, node, err);
		if (!texts) {
			error(node, where + err);
			continue;
		}
		std::vector<std::string> values;
		for (const auto &[text, el] : *texts) {
			if (std::string why = unorc::check_knob(*knob, text); !why.empty())
				error(*el, where + why);
			else
				values.push_back(text);
		}
		if (values.size() == texts->size())
			c.unorc[k] = std::move(values);
	}
}

// toml++ positions the table of "[a.b]" at its header; an inline or
// implicit one may have none.
unsigned int_or_zero(unsigned v)
{
	return v == static_cast<unsigned>(-1) ? 0 : v;
}

} // namespace

std::string format_error(std::string_view path, const ConfigError &e)
{
	std::ostringstream os;
	os << (path.empty() ? "<config>" : path);
	if (e.line)
		os << ':' << int_or_zero(e.line) << ':' << int_or_zero(e.column);
	os << ": " << e.msg;
	return os.str();
}

namespace {

// Does modules.dep list a module file named module.ko[.xz|.zst|...]?
bool kernel_has_module(const std::string &module)
{
	struct utsname u;

	if (uname(&u))
		return false;
	std::ifstream in(std::string("/lib/modules/") + u.release + "/modules.dep");
	std::string line, ko = module + ".ko";
	while (std::getline(in, line)) {
		auto file = line.substr(0, line.find(':'));
		auto base = file.substr(file.rfind('/') + 1);	// npos + 1 == 0
		if (base == ko || base.rfind(ko + ".", 0) == 0)	// tcp_bbr.ko.xz
			return true;
	}
	return false;
}

}

bool cc_available(std::string_view name)
{
	std::ifstream in("/proc/sys/net/ipv4/tcp_available_congestion_control");
	std::string w;

	while (in >> w)
		if (w == name)
			return true;
	return false;
}

bool host_has_cc(std::string_view name)
{
	return cc_available(name) || kernel_has_module("tcp_" + std::string(name));
}

ConfigResult parse_config(std::string_view text, std::string_view path, const CcLookup &has_cc)
{
	ConfigResult r;
	toml::table root;

	try {
		root = toml::parse(text, path);
	} catch (const toml::parse_error &e) {
		const auto &b = e.source().begin;
		r.errors.push_back({ b.line, b.column, std::string(e.description()) });
		return r;
	}

	Parser p(has_cc);
	Config c;
	for (const auto &[k, np] : in_file_order(root)) {
		const toml::node &node = *np;
		if (k == "cc") {
			if (auto t = node.as_table())
				p.cc_section(*t, c);
			else
				p.error(node, "cc: expected a table");
		} else if (k == "qdisc") {
			p.dev_tables(node, k, &Parser::qdisc, c.qdiscs);
		} else if (k == "lb") {
			p.dev_tables(node, k, &Parser::lb, c.lbs);
		} else if (k == "reflex") {
			if (auto t = node.as_table())
				p.reflex_section(*t, c);
			else
				p.error(node, "reflex: expected a table, [reflex.ROLE]");
		} else if (k == "mlcc") {
			if (auto t = node.as_table())
				p.mlcc_section(*t, c);
			else
				p.error(node, "mlcc: expected a table, [mlcc]");
		} else if (k == "unorc") {
			if (auto t = node.as_table())
				p.unorc_section(*t, c);
			else
				p.error(node, "unorc: expected a table, [unorc]");
		} else {
			p.error(node, "unknown section '" + k +
					      "' (expected [cc], [cc.NAME], [[qdisc]], [[lb]], [reflex.ROLE], [mlcc], [mlcc.ROLE] or [unorc])");
		}
	}
	// Parameter tables with nothing in them are not worth keeping.
	std::erase_if(c.params, [](const auto &kv) { return kv.second.empty(); });
	r.errors = std::move(p.errors);
	std::stable_sort(r.errors.begin(), r.errors.end(), [](const auto &a, const auto &b) {
		return a.line != b.line ? a.line < b.line : a.column < b.column;
	});
	if (r.errors.empty())
		r.config = std::move(c);
	return r;
}

ConfigResult load_config(const std::string &path, const CcLookup &has_cc)
{
	struct stat st;
	ConfigResult r;

	// open(2) succeeds on a directory and reading it gives nothing, which
	// would pass for an empty file.
	if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
		r.errors.push_back({ 0, 0, std::string("cannot read: ") + std::strerror(EISDIR) });
		return r;
	}
	std::ifstream in(path);
	if (!in) {
		r.errors.push_back({ 0, 0, std::string("cannot read: ") + std::strerror(errno) });
		return r;
	}
	std::stringstream ss;
	ss << in.rdbuf();
	return parse_config(ss.str(), path, has_cc);
}

std::optional<std::string> config_to_read(const std::optional<std::string> &given,
					  const std::string &default_path)
{
	struct stat st;

	if (given)
		return given;
	// Anything but "no such file" (a directory, no permission) is the
	// file's to report.
	if (stat(default_path.c_str(), &st) == 0 || errno != ENOENT)
		return default_path;
	return std::nullopt;
}

ConfigResult read_config(const std::string &path)
{
	return load_config(path, [](std::string_view) { return true; });
}

ConfigPlan plan_config(const Config *prev, const Config &next)
{
	ConfigPlan plan;

	if (next.default_cc && (!prev || prev->default_cc != next.default_cc))
		plan.default_cc = next.default_cc;
	for (const auto &[cc, params] : next.params)
		for (const auto &[name, value] : params) {
			const uint32_t *old = nullptr;
			if (prev) {
				auto c = prev->params.find(cc);
				if (c != prev->params.end()) {
					auto p = c->second.find(name);
					if (p != c->second.end())
						old = &p->second;
				}
			}
			if (!old || *old != value)
				plan.params.push_back({ cc, name, value });
		}
	for (const auto &q : next.qdiscs) {
		bool same = false;
		if (prev)
			for (const auto &o : prev->qdiscs)
				same |= o == q;
		if (!same)
			plan.qdisc_replace.push_back(q);
	}
	if (prev)
		for (const auto &o : prev->qdiscs) {
			bool kept = false;
			for (const auto &q : next.qdiscs)
				kept |= q.dev == o.dev;
			if (!kept)
				plan.qdisc_delete.push_back(o.dev);
		}
	for (const auto &l : next.lbs)
		if (!prev || std::find(prev->lbs.begin(), prev->lbs.end(), l) == prev->lbs.end())
			plan.lb_attach.push_back(l);
	if (prev)
		for (const auto &o : prev->lbs)
			if (std::none_of(next.lbs.begin(), next.lbs.end(),
					 [&](const auto &l) { return l.dev == o.dev; }))
				plan.lb_detach.push_back(o.dev);
	for (const auto &r : next.reflex)
		if (!prev ||
		    std::find(prev->reflex.begin(), prev->reflex.end(), r) == prev->reflex.end())
			plan.reflex_attach.push_back(r);
	if (prev)
		for (const auto &o : prev->reflex)
			if (std::none_of(next.reflex.begin(), next.reflex.end(),
					 [&](const auto &r) { return r.role == o.role; }))
				plan.reflex_detach.push_back(o.role);
	if (next.mlcc && (!prev || prev->mlcc != next.mlcc))
		plan.mlcc_attach = next.mlcc;
	plan.mlcc_detach = prev && prev->mlcc && !next.mlcc;
	for (const auto &r : next.mlcc_ns)
		if (!prev ||
		    std::find(prev->mlcc_ns.begin(), prev->mlcc_ns.end(), r) == prev->mlcc_ns.end())
			plan.mlcc_ns_attach.push_back(r);
	if (prev)
		for (const auto &o : prev->mlcc_ns)
			if (std::none_of(next.mlcc_ns.begin(), next.mlcc_ns.end(),
					 [&](const auto &r) { return r.role == o.role; }))
				plan.mlcc_ns_detach.push_back(o.role);
	return plan;
}

// --- tc units ------------------------------------------------------------

namespace {

// Split "12.5mbit" into 12.5 and "mbit"; lower-case unit.
bool split_number(std::string_view s, double &v, std::string &unit)
{
	std::string str(s);
	char *end = nullptr;
	if (str.empty() || !(std::isdigit(static_cast<unsigned char>(str[0])) || str[0] == '.'))
		return false;
	v = std::strtod(str.c_str(), &end);
	if (end == str.c_str() || !std::isfinite(v) || v < 0)
		return false;
	unit = end;
	for (auto &ch : unit)
		ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
	return true;
}

} // namespace

// iproute2's get_rate64(): bits per second without a unit, the unit in any
// case, the result truncated to bytes per second.
std::optional<uint64_t> parse_rate(std::string_view s)
{
	static const struct {
		const char *unit;
		double bits;
	} units[] = {
		{ "", 1 },	      { "bit", 1 },	      { "kibit", 0x1p10 },   { "kbit", 1e3 },
		{ "mibit", 0x1p20 },  { "mbit", 1e6 },	      { "gibit", 0x1p30 },   { "gbit", 1e9 },
		{ "tibit", 0x1p40 },  { "tbit", 1e12 },	      { "bps", 8 },	     { "kibps", 0x1p13 },
		{ "kbps", 8e3 },      { "mibps", 0x1p23 },    { "mbps", 8e6 },	     { "gibps", 0x1p33 },
		{ "gbps", 8e9 },      { "tibps", 0x1p43 },    { "tbps", 8e12 },
	};
	double v;
	std::string unit;
	if (!split_number(s, v, unit))
		return std::nullopt;
	for (const auto &u : units)
		if (unit == u.unit) {
			double r = std::floor(v * u.bits / 8);
			if (r < 1 || r > 1.8e19)
				return std::nullopt;
			return static_cast<uint64_t>(r);
		}
	return std::nullopt;
}

// iproute2's get_size(): bytes without a unit, the unit in any case, the
// result truncated; more than 32 bits is an error.
std::optional<uint64_t> parse_size(std::string_view s)
{
	static const struct {
		const char *unit;
		double bytes;
	} units[] = {
		{ "", 1 },	       { "b", 1 },		   { "k", 1024 },
		{ "kb", 1024 },	       { "m", 1024 * 1024 },	   { "mb", 1024 * 1024 },
		{ "g", 1024.0 * 1024 * 1024 }, { "gb", 1024.0 * 1024 * 1024 }, { "kbit", 1024 / 8.0 },
		{ "mbit", 1024 * 1024 / 8.0 }, { "gbit", 1024.0 * 1024 * 1024 / 8 },
	};
	double v;
	std::string unit;
	if (!split_number(s, v, unit))
		return std::nullopt;
	for (const auto &u : units)
		if (unit == u.unit) {
			double r = std::floor(v * u.bytes);
			if (r > UINT32_MAX)
				return std::nullopt;
			return static_cast<uint64_t>(r);
		}
	return std::nullopt;
}

std::optional<uint32_t> parse_percent_ppm(std::string_view s)
{
	uint32_t ppm;

	if (phantom_rate_ppm(std::string(s).c_str(), &ppm))
		return std::nullopt;
	return ppm;
}

} // namespace uno
