// SPDX-License-Identifier: GPL-2.0
//
// unoctl: show and set the run-time parameters of tcp_uno, tcp_smartt, tcp_swift and tcp_timely,
// show phantom and ndt qdiscs, the entropy datapath and the TCP sockets that run
// our CCs, and UnoRC's settings from the configuration file. iproute2's
// conventions: OBJECT COMMAND [ARGS], -j for JSON, errors on stderr.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <arpa/inet.h>
#include <net/if.h>
#include <nlohmann/json.hpp>

#include "bpf_cc.h"
#include "core_types.h"
#include "config.h"
#include "lb.h"
#include "params.h"
#include "qdisc.h"
#include "rc.h"
#include "reflex.h"
#include "reflex_core.h"
#include "reflex_datapath.h"
#include "mlcc.h"
#include "socket.h"

using nlohmann::json;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFail = 1; // the kernel refused or failed
constexpr int kExitUsage = 2; // bad command line, unknown name, bad value

struct Opts {
	bool json = false;
	bool pretty = false;
	bool details = false;
};

Opts g_opts;

int fail(const std::string &msg, int code = kExitFail)
{
	std::fprintf(stderr, "unoctl: %s\n", msg.c_str());
	return code;
}

void print_json(const json &j)
{
	std::cout << j.dump(g_opts.pretty ? 2 : -1) << '\n';
}

std::optional<uint64_t> parse_u64(const std::string &text)
{
	if (text.empty() || text[0] == '-')
		return std::nullopt;
	char *end = nullptr;
	errno = 0;
	const unsigned long long v = std::strtoull(text.c_str(), &end, 0);
	if (errno || *end)
		return std::nullopt;
	return v;
}

std::optional<uint32_t> parse_u32(const std::string &text)
{
	auto v = parse_u64(text);
	if (!v || *v > UINT32_MAX)
		return std::nullopt;
	return static_cast<uint32_t>(*v);
}

const char *apply_text(uint8_t a)
{
	return uno::apply_name(static_cast<uno::Apply>(a));
}

// --- cc --------------------------------------------------------------------

int cc_show(const std::string &cc, const std::string &param)
{
	std::vector<uno::Param> params;
	uno::UnoGenl genl;

	if (!param.empty()) {
		std::string name = param;
		if (const auto *a = uno::find_alias(cc, param))
			name = std::string(a->raw);
		params.push_back(genl.get(cc, name));
	} else {
		params = genl.dump(cc);
	}

	if (g_opts.json) {
		json out = json::array();
		for (const auto &p : params) {
			json j = { { "cc", p.cc },   { "param", p.name }, { "value", p.value },
				   { "min", p.min }, { "max", p.max },	  { "applies", apply_text(p.apply) } };
			if (g_opts.details)
				j["description"] = p.desc;
			out.push_back(j);
		}
		print_json(out);
		return kExitOk;
	}
	std::printf("%-7s %-27s %10s  %-22s %s\n", "cc", "param", "value", "range", "applies");
	for (const auto &p : params) {
		std::string range = std::to_string(p.min) + ".." + std::to_string(p.max);
		std::printf("%-7s %-27s %10u  %-22s %s\n", p.cc.c_str(), p.name.c_str(), p.value,
			    range.c_str(), apply_text(p.apply));
		if (g_opts.details)
			std::printf("        %s\n", p.desc.c_str());
	}
	return kExitOk;
}

int cc_set(const std::string &cc, const std::vector<std::string> &args, bool force)
{
	struct Set {
		std::string arg, name;
		uint32_t value;
	};
	std::vector<Set> sets;

	if (args.empty() || args.size() % 2)
		return fail("cc set: expected PARAM VALUE [PARAM VALUE ...]", kExitUsage);
	// Check everything before changing anything.
	for (size_t i = 0; i < args.size(); i += 2) {
		std::string err;
		if (force) {
			char *end;
			errno = 0;
			unsigned long v = std::strtoul(args[i + 1].c_str(), &end, 0);
			if (*end || errno || v > UINT32_MAX)
				return fail(cc + " " + args[i] + ": '" + args[i + 1] +
						    "' is not a u32", kExitUsage);
			sets.push_back({ args[i], args[i], static_cast<uint32_t>(v) });
			continue;
		}
		auto pv = uno::parse_param(cc, args[i], args[i + 1], err);
		if (!pv)
			return fail(cc + " " + err, kExitUsage);
		sets.push_back({ args[i], pv->name, pv->value });
	}
	// Values the module checks together (TIMELY's T_low <= T_high) may be
	// refused until another of the command is set: what was refused is
	// tried again while a pass sets anything, as unod does.
	uno::UnoGenl genl;
	while (!sets.empty()) {
		std::vector<Set> refused;
		std::string why;
		for (const auto &s : sets) {
			try {
				genl.set(cc, s.name, s.value);
			} catch (const uno::NlError &e) {
				std::string what = e.what();
				// The kernel's own words, and the errno when they are not it.
				if (what != std::strerror(e.err()))
					what += " (" + std::string(std::strerror(e.err())) + ")";
				if (why.empty())
					why = "set " + cc + " " + s.name + " " + std::to_string(s.value) +
					      ": " + what;
				refused.push_back(s);
			}
		}
		if (refused.size() == sets.size())
			return fail(why);
		sets = std::move(refused);
	}
	return kExitOk;
}

// --- qdisc -----------------------------------------------------------------

int qdisc_show(const std::vector<std::string> &args)
{
	int ifindex = 0;

	for (size_t i = 0; i < args.size(); i++) {
		if (args[i] == "dev" && i + 1 < args.size()) {
			ifindex = static_cast<int>(if_nametoindex(args[++i].c_str()));
			if (!ifindex)
				return fail("cannot find device \"" + args[i] + "\"");
		} else {
			return fail("qdisc show: unknown argument '" + args[i] + "' (expected: dev DEV)",
				    kExitUsage);
		}
	}
	json out = json::array();
	for (const auto &q : uno::qdisc_dump()) {
		if (!uno::our_qdisc(q.kind) || (ifindex && q.ifindex != ifindex))
			continue;
		if (g_opts.json)
			out.push_back(unoctl::qdisc_json(q));
		else
			std::fputs(unoctl::qdisc_text(q).c_str(), stdout);
	}
	if (g_opts.json)
		print_json(out);
	return kExitOk;
}

// --- lb --------------------------------------------------------------------

// Whether args are "dev DEV".
bool dev_args(const std::vector<std::string> &args)
{
	return args.size() == 2 && args[0] == "dev";
}

int lb_show(const std::vector<std::string> &args)
{
	if (!args.empty() && !dev_args(args))
		return fail("lb show: expected nothing or dev DEV", kExitUsage);
	const auto devs = args.empty() ? uno::lb_pinned_devices() : std::vector{ args[1] };
	json out = json::array();
	for (const auto &d : devs) {
		const uno::LbStatus s = uno::lb_status(d);
		if (g_opts.json)
			out.push_back(unoctl::lb_json(s));
		else
			std::fputs(unoctl::lb_text(s).c_str(), stdout);
	}
	if (g_opts.json)
		print_json(out);
	return kExitOk;
}

int lb_detach(const std::vector<std::string> &args)
{
	if (!dev_args(args))
		return fail("lb detach: expected dev DEV", kExitUsage);
	uno::lb_detach(args[1]);
	return kExitOk;
}

// --- cc bpf ----------------------------------------------------------------

// Registers cc's BPF struct_ops host with PARAM VALUE pairs, parsed as
// cc set parses them (the module's names, aliases and ranges).
int cc_bpf_register(const std::string &cc, const std::vector<std::string> &args)
{
	std::map<std::string, uint32_t> params;

	if (!uno::bpf_cc_known(cc))
		return fail("cc bpf: no BPF host for '" + cc + "' (known: swift, timely, mlcc)", kExitUsage);
	if (cc == "mlcc" && !args.empty())
		return fail("cc bpf register: bpf_mlcc has no parameters (its law's are the sender "
			    "role's: unoctl mlcc sender)",
			    kExitUsage);
	if (args.size() % 2)
		return fail("cc bpf register: expected CC [PARAM VALUE ...]", kExitUsage);
	for (size_t i = 0; i < args.size(); i += 2) {
		std::string err;
		if (args[i] == uno::kReflexInterRttParam) {
			auto v = parse_u32(args[i + 1]);
			if (!v)
				return fail(args[i] + ": expected an unsigned integer", kExitUsage);
			if (!params.emplace(args[i], *v).second)
				return fail(cc + " " + args[i] + ": set twice", kExitUsage);
			continue;
		}
		auto pv = uno::parse_param(cc, args[i], args[i + 1], err);
		if (!pv)
			return fail(cc + " " + err, kExitUsage);
		if (params.contains(pv->name))
			return fail(cc + " " + args[i] + ": set twice", kExitUsage);
		params[pv->name] = pv->value;
	}
	uno::bpf_cc_register(cc, params);
	return kExitOk;
}

int cc_bpf_unregister(const std::string &cc)
{
	if (!uno::bpf_cc_known(cc))
		return fail("cc bpf: no BPF host for '" + cc + "' (known: swift, timely, mlcc)", kExitUsage);
	uno::bpf_cc_unregister(cc);
	return kExitOk;
}

// --- reflex ----------------------------------------------------------------

// The keys of each role (enum rfx_role); those that list may repeat.
bool reflex_key_of(uint32_t role, const std::string &k, bool *list)
{
	static const std::map<std::string, std::pair<uint32_t, bool>> keys = {
		{ "dev", { 1U << RFX_ROLE_STAMP | 1U << RFX_ROLE_HOST, true } },
		{ "lan", { 1U << RFX_ROLE_GATEWAY, false } },
		{ "wan", { 1U << RFX_ROLE_GATEWAY, true } },
		{ "gateway", { 1U << RFX_ROLE_HOST, true } },
		{ "addr", { 1U << RFX_ROLE_GATEWAY, false } },
		{ "prefix", { 1U << RFX_ROLE_GATEWAY, true } },
		{ "k", { 7, false } },
		{ "port", { 1U << RFX_ROLE_GATEWAY | 1U << RFX_ROLE_HOST, false } },
		{ "t_src_thresh_ns", { 1U << RFX_ROLE_GATEWAY, false } },
		{ "t_interval_ns", { 1U << RFX_ROLE_GATEWAY, false } },
		{ "t_idle_gc_ns", { 1U << RFX_ROLE_GATEWAY, false } },
		{ "n_cool", { 1U << RFX_ROLE_GATEWAY, false } },
		{ "cool_unit", { 1U << RFX_ROLE_GATEWAY, false } },
		{ "emit", { 1U << RFX_ROLE_GATEWAY, false } },
	};
	auto it = keys.find(k);
	if (it == keys.end() || !(it->second.first & 1U << role))
		return false;
	*list = it->second.second;
	return true;
}

// The role's KEY VALUE pairs into c: an error message, or "" if all were
// taken.
std::string reflex_parse(uno::RfxConf &c, const std::vector<std::string> &args)
{
	std::set<std::string> seen;

	if (args.size() % 2)
		return "expected KEY VALUE pairs";
	for (size_t i = 0; i < args.size(); i += 2) {
		const std::string &k = args[i], &v = args[i + 1];
		const auto u64 = parse_u64(v);
		const auto upto = [&](uint64_t max) { return u64 && *u64 <= max; };
		rfx_cfg &g = c.cfg;
		in_addr a;
		bool list, ok = true;
		if (!reflex_key_of(c.role, k, &list))
			return k + ": not a setting of " + uno::rfx_role_name(c.role);
		if (!list && !seen.insert(k).second)
			return k + ": set twice";
		if (k == "dev" || k == "lan")
			c.devs.push_back(v);
		else if (k == "wan")
			c.wan.push_back(v);
		else if (k == "prefix") {
			auto pf = uno::parse_prefix4(v);
			if ((ok = pf.has_value()))
				c.prefixes.push_back(*pf);
		} else if (k == "gateway" || k == "addr") {
			ok = inet_pton(AF_INET, v.c_str(), &a) == 1;
			if (ok && k == "gateway")
				c.gateways.push_back(a.s_addr);
			else if (ok)
				g.lan_addr = a.s_addr;
		} else if (k == "k" && (ok = upto(48)))
			g.k = static_cast<uint8_t>(*u64);
		else if (k == "port" && (ok = upto(65535)))
			g.port = static_cast<uint16_t>(*u64);
		else if (k == "t_src_thresh_ns" && (ok = upto(UINT32_MAX)))
			g.t_src_thresh_ns = *u64;
		else if (k == "t_interval_ns" && (ok = upto(UINT32_MAX)))
			g.t_interval_ns = *u64;
		else if (k == "t_idle_gc_ns" && (ok = upto(UINT32_MAX)))
			g.t_idle_gc_ns = *u64;
		else if (k == "n_cool" && (ok = upto(UINT32_MAX)))
			g.n_cool = static_cast<uint32_t>(*u64);
		else if (k == "cool_unit" && (ok = v == "pack" || v == "packet"))
			g.cool_unit = v == "pack" ? NSF_COOL_PACK : NSF_COOL_PACKET;
		else if (k == "emit" && (ok = upto(1)))
			g.emit = static_cast<uint8_t>(*u64);
		if (!ok)
			return k + " " + v + ": a bad value";
	}
	return "";
}

int reflex_attach(uint32_t role, const std::vector<std::string> &args)
{
	uno::RfxConf c;
	c.role = role;
	c.cfg = uno::rfx_cfg_default();
	const std::string err = reflex_parse(c, args);
	if (!err.empty())
		return fail(std::string("reflex ") + uno::rfx_role_name(role) + ": " + err, kExitUsage);
	try {
		uno::rfx_conf_check(c);
	} catch (const uno::RfxError &e) {
		return fail(std::string("reflex ") + uno::rfx_role_name(role) + ": " + e.what(),
			    kExitUsage);
	}
	uno::rfx_attach(c);
	return kExitOk;
}

int reflex_show()
{
	json out = json::array();
	for (const auto &s : uno::rfx_status())
		out.push_back(unoctl::reflex_json(s));
	// NDT, the destination gateway's role, is a qdisc rather than a
	// program: an element of its own, which the roles' readers skip.
	std::vector<uno::QdiscInfo> qdiscs = uno::qdisc_dump();
	for (auto &q : qdiscs)
		if (q.kind == "ndt")
			q.ndt_flows = uno::ndt_flows(q.ifindex, q.handle);
	if (json ndt = unoctl::reflex_ndt_json(qdiscs); !ndt.is_null())
		out.push_back(ndt);
	if (g_opts.json) {
		print_json(out);
		return kExitOk;
	}
	for (const auto &r : out) {
		if (r["role"] == "ndt")
			continue; // below, as qdisc show prints them
		std::cout << "reflex " << r["role"].get<std::string>() << " k " << r["k"] << " port "
			  << r["port"] << "\n";
		for (const auto &[name, v] : r["counters"].items())
			std::cout << "  " << name << " " << v << "\n";
		if (r.contains("flows"))
			for (const auto &f : r["flows"])
				std::cout << "  flow " << f.dump() << "\n";
	}
	for (const auto &q : qdiscs)
		if (q.kind == "ndt")
			std::cout << unoctl::qdisc_text(q);
	return kExitOk;
}

int reflex_detach(const std::string &role)
{
	for (uint32_t r = 0; r < __RFX_ROLE_MAX; r++)
		if (role == uno::rfx_role_name(r)) {
			uno::rfx_detach(r);
			return kExitOk;
		}
	return fail("reflex detach: expected stamp, gateway or host", kExitUsage);
}

// --- mlcc ------------------------------------------------------------------

int mlcc_attach(const std::vector<std::string> &args)
{
	uno::MlccConf c;
	if (const std::string err = unoctl::mlcc_parse(c, args); !err.empty())
		return fail("mlcc attach: " + err, kExitUsage);
	try {
		uno::mlcc_conf_check(c);
	} catch (const uno::MlccError &e) {
		return fail(std::string("mlcc attach: ") + e.what(), kExitUsage);
	}
	uno::mlcc_attach(c);
	return kExitOk;
}

// A tc role here: unoctl mlcc dci|sender|dcir KEY VALUE...
int mlcc_ns_attach(uint32_t role, const std::vector<std::string> &args)
{
	uno::MlccNsConf c;
	c.role = role;
	const std::string what = std::string("mlcc ") + uno::mlcc_ns_role_name(role) + ": ";
	if (const std::string err = unoctl::mlcc_ns_parse(c, args); !err.empty())
		return fail(what + err, kExitUsage);
	try {
		uno::mlcc_ns_conf_check(c);
	} catch (const uno::MlccError &e) {
		return fail(what + e.what(), kExitUsage);
	}
	uno::mlcc_ns_attach(c);
	return kExitOk;
}

// unoctl mlcc detach [dci|sender|dcir]: the cgroup's program, or a role here.
int mlcc_detach(const std::string &role)
{
	if (role.empty()) {
		uno::mlcc_detach();
		return kExitOk;
	}
	for (uint32_t r = 0; r < __MLCC_NS_ROLE_MAX; r++)
		if (role == uno::mlcc_ns_role_name(r)) {
			uno::mlcc_ns_detach(r);
			return kExitOk;
		}
	return fail("mlcc detach: expected nothing (the cgroup's program), dci, sender or dcir",
		    kExitUsage);
}

int mlcc_show()
{
	const uno::MlccStatus s = uno::mlcc_status();
	const std::vector<uno::MlccNsStatus> ns = uno::mlcc_ns_status();
	if (g_opts.json)
		print_json(unoctl::mlcc_json(s, ns));
	else
		std::cout << unoctl::mlcc_text(s, ns);
	return kExitOk;
}

// --- sock ------------------------------------------------------------------

bool ours(const std::string &cc)
{
	return cc.starts_with("uno") || cc.starts_with("smartt") || cc == "swift" ||
	       cc == "timely" || cc == "bpf_swift" || cc == "bpf_timely";
}

std::string endpoint(const std::string &addr, uint16_t port, uint8_t family)
{
	if (family == AF_INET6)
		return "[" + addr + "]:" + std::to_string(port);
	return addr + ":" + std::to_string(port);
}

json sock_json(const uno::SockInfo &s)
{
	json j = { { "state", uno::tcp_state_name(s.state) },
		   { "local", endpoint(s.src, s.sport, s.family) },
		   { "peer", endpoint(s.dst, s.dport, s.family) },
		   { "cc", s.cc } };
	if (s.rtt_us)
		j["rtt_us"] = *s.rtt_us;
	if (s.snd_cwnd)
		j["snd_cwnd"] = *s.snd_cwnd;
	if (s.bytes_acked)
		j["bytes_acked"] = *s.bytes_acked;
	if (s.rto_backoff)
		j["rto_backoff"] = s.rto_backoff;
	if (s.uno) {
		const auto &u = *s.uno;
		j["uno"] = { { "enabled", bool(u.uno_flags & TCP_UNO_INFO_ENABLED) },
			     { "inter_dc", bool(u.uno_flags & TCP_UNO_INFO_INTER) },
			     { "epoch_on", bool(u.uno_flags & TCP_UNO_INFO_EPOCH_ON) },
			     { "qa_open", bool(u.uno_flags & TCP_UNO_INFO_QA_OPEN) },
			     { "cwnd_bytes", u.uno_cwnd },
			     { "base_rtt_us", u.uno_base_rtt_us },
			     { "ecn_ewma", u.uno_ecn_ewma / 65536.0 },
			     { "md_cuts", u.uno_md_cuts },
			     { "md_phantom", u.uno_md_phantom },
			     { "qa_cuts", u.uno_qa_cuts } };
	}
	if (s.smartt) {
		const auto &m = *s.smartt;
		j["smartt"] = { { "nscc", bool(m.smartt_flags & TCP_SMARTT_NSCC) },
				{ "ecn", bool(m.smartt_flags & TCP_SMARTT_ECN) },
				{ "fast_inc", bool(m.smartt_flags & TCP_SMARTT_FAST_INC) },
				{ "qa_armed", bool(m.smartt_flags & TCP_SMARTT_QA_ARMED) },
				{ "ignoring", bool(m.smartt_flags & TCP_SMARTT_IGNORING) },
				{ "cwnd_bytes", m.smartt_cwnd },
				{ "avg_rtt_us", m.smartt_avg_rtt },
				{ "base_rtt_us", m.smartt_base_rtt },
				{ "quick_adapts", m.smartt_quick_adapts },
				{ "decreases", m.smartt_decreases } };
	}
	if (s.swift) {
		const auto &w = *s.swift;
		j["swift"] = { { "inter_dc", bool(w.swift_flags & TCP_SWIFT_INTER) },
			       { "paced", bool(w.swift_flags & TCP_SWIFT_PACED) },
			       { "cwnd_pkts", w.swift_cwnd / 1000.0 },
			       { "rtt_us", w.swift_rtt },
			       { "target_us", w.swift_target },
			       { "hops", w.swift_hops },
			       { "retx", w.swift_retx },
			       { "decreases", w.swift_decreases } };
	}
	if (s.timely) {
		const auto &t = *s.timely;
		j["timely"] = { { "rate_kbps", t.timely_rate },
				{ "rtt_us", t.timely_rtt },
				{ "rtt_diff_ns", t.timely_rtt_diff },
				{ "inc_stage", t.timely_inc_stage },
				{ "decreases", t.timely_decreases } };
	}
	return j;
}

void sock_print(const uno::SockInfo &s)
{
	std::printf("%-10s %-22s %-22s %s", uno::tcp_state_name(s.state),
		    endpoint(s.src, s.sport, s.family).c_str(),
		    endpoint(s.dst, s.dport, s.family).c_str(), s.cc.c_str());
	if (s.uno) {
		const auto &u = *s.uno;
		std::printf(" cwnd %ub base_rtt %uus ecn_ewma %.4f md %u (phantom %u) qa %u%s%s",
			    u.uno_cwnd, u.uno_base_rtt_us, u.uno_ecn_ewma / 65536.0, u.uno_md_cuts,
			    u.uno_md_phantom, u.uno_qa_cuts,
			    u.uno_flags & TCP_UNO_INFO_INTER ? " inter-dc" : "",
			    u.uno_flags & TCP_UNO_INFO_ENABLED ? "" : " reno");
	}
	if (s.smartt) {
		const auto &m = *s.smartt;
		std::printf(" cwnd %ub avg_rtt %uus base_rtt %uus qa %u md %u%s%s",
			    m.smartt_cwnd, m.smartt_avg_rtt, m.smartt_base_rtt,
			    m.smartt_quick_adapts, m.smartt_decreases,
			    m.smartt_flags & TCP_SMARTT_FAST_INC ? " fast-inc" : "",
			    m.smartt_flags & TCP_SMARTT_ECN ? "" : " no-ecn");
		if (m.smartt_flags & TCP_SMARTT_NSCC)
			std::printf(" nscc");
	}
	if (s.swift) {
		const auto &w = *s.swift;
		std::printf(" cwnd %.3fpkt rtt %uus target %uus hops %u md %u%s%s",
			    w.swift_cwnd / 1000.0, w.swift_rtt, w.swift_target, w.swift_hops,
			    w.swift_decreases, w.swift_flags & TCP_SWIFT_INTER ? " inter-dc" : "",
			    w.swift_flags & TCP_SWIFT_PACED ? " paced" : "");
	}
	if (s.timely) {
		const auto &t = *s.timely;
		std::printf(" rate %ukbit rtt %uus rtt_diff %dns inc %u md %u", t.timely_rate,
			    t.timely_rtt, t.timely_rtt_diff, t.timely_inc_stage, t.timely_decreases);
	}
	std::printf("\n");
}

int sock_show(bool all)
{
	json out = json::array();
	if (!g_opts.json)
		std::printf("%-10s %-22s %-22s %s\n", "State", "Local", "Peer", "CC and state");
	for (const auto &s : uno::tcp_socks()) {
		if (!all && !ours(s.cc))
			continue;
		if (g_opts.json)
			out.push_back(sock_json(s));
		else
			sock_print(s);
	}
	if (g_opts.json)
		print_json(out);
	return kExitOk;
}

// --- rc ------------------------------------------------------------------

int rc_show(const std::optional<std::string> &given, const std::string &param)
{
	const auto path = uno::config_to_read(given);
	unorc::KnobTexts unorc;
	if (path) {
		// Every error, as unod --check prints them; nothing shown.
		const uno::ConfigResult r = uno::read_config(*path);
		for (const auto &e : r.errors)
			fail(uno::format_error(*path, e));
		if (!r.config)
			return kExitFail;
		unorc = r.config->unorc;
	}
	try {
		if (g_opts.json)
			print_json(unoctl::rc_json(unorc, param, g_opts.details));
		else
			std::cout << unoctl::rc_text(unorc, path, uno::kDefaultConfigPath, param,
						     g_opts.details);
	} catch (const std::invalid_argument &e) {
		return fail(e.what(), kExitUsage);
	}
	return kExitOk;
}

constexpr const char *kFooter = R"(
Examples:
  unoctl cc show                      every parameter of every loaded CC
  unoctl -j cc show uno alpha_ppm     one, as JSON
  unoctl cc set uno alpha 0.002       an alias: alpha_ppm 2000
  unoctl cc set smartt trtt_factor 2048 md_gamma 700
  unoctl cc bpf register swift base_delay_ns 200000   bpf_swift, for a kernel without modules
  unoctl qdisc show dev eth0          phantom and ndt options and counters
  unoctl -j lb show dev eth0          the entropy datapath's settings and counters
  unoctl lb detach dev eth0           take it off (unod does, when [[lb]] goes)
  unoctl reflex gateway lan down0 wan wan1 k 16   NSF on a DC's border router
  unoctl reflex host dev eth0 gateway 10.10.0.254 k 16   a sender takes its pseudo-ACKs
  unoctl -j reflex show               Reflex's roles here, counters and flows, ndt qdiscs
  unoctl mlcc attach cgroup /sys/fs/cgroup remote 10.20.0.0/16 rtt-d-us 240
                                      MLCC's INT option: senders write it, receivers read it
  unoctl mlcc dci lan down0 wan wan1  DCI_s returns INT records to their senders
  unoctl mlcc sender dev eth0 dci 10.10.0.254 line-mbps 100 rtt-ns-us 1000
                                      a sender's R_NS from them (bpf_mlcc paces at it)
  unoctl -j mlcc show                 settings, counters, received flows, near-source roles
  unoctl sock show                    TCP sockets running uno, smartt, swift or timely
  unoctl -j rc show                   UnoRC's defaults: [unorc] of /etc/uno/uno.toml

Exit status: 0 success, 1 the kernel refused or failed (the reason on
stderr), 2 a bad command line, parameter name or value. See unoctl(8).)";

} // namespace

int main(int argc, char **argv)
{
	CLI::App app{ "unoctl: run-time control of tcp_uno, tcp_smartt, tcp_swift, tcp_timely and the phantom and ndt qdiscs" };
	app.footer(kFooter);
	app.require_subcommand(1);
	app.add_flag("-j,--json", g_opts.json, "JSON output");
	app.add_flag("-p,--pretty", g_opts.pretty, "indented JSON");
	app.add_flag("-d,--details", g_opts.details, "also show each parameter's description");

	auto *cc = app.add_subcommand("cc", "congestion control parameters (the CC modules' genl families)");
	cc->require_subcommand(1);
	std::string show_cc, show_param;
	auto *cc_show_cmd = cc->add_subcommand("show", "show parameters: [CC [PARAM]]");
	cc_show_cmd->add_option("cc", show_cc, "uno, smartt, swift or timely (default: every loaded CC)");
	cc_show_cmd->add_option("param", show_param, "one parameter (a raw name or an alias)");

	std::string set_cc;
	std::vector<std::string> set_args;
	bool force = false;
	auto *cc_set_cmd = cc->add_subcommand(
		"set", "set parameters (CAP_NET_ADMIN): CC PARAM VALUE [PARAM VALUE ...]");
	cc_set_cmd->add_option("cc", set_cc, "uno, smartt, swift or timely")->required();
	cc_set_cmd->add_option("args", set_args, "PARAM VALUE pairs; PARAM a raw name or an alias")
		->required();
	cc_set_cmd->add_flag("-f,--force", force,
			     "send raw u32 values unchecked: the kernel checks them");

	auto *cc_bpf = cc->add_subcommand(
		"bpf", "the BPF struct_ops hosts of the laws (bpf_swift, bpf_timely), with the modules' parameters");
	cc_bpf->require_subcommand(1);
	std::string bpf_cc;
	std::vector<std::string> bpf_args;
	auto *cc_bpf_register_cmd = cc_bpf->add_subcommand(
		"register", "register (CAP_BPF, CAP_NET_ADMIN): CC [PARAM VALUE ...]");
	cc_bpf_register_cmd->add_option("cc", bpf_cc, "swift or timely")->required();
	cc_bpf_register_cmd->add_option("args", bpf_args,
					"PARAM VALUE pairs, as cc set; the rest the module's defaults");
	auto *cc_bpf_unregister_cmd = cc_bpf->add_subcommand("unregister", "unregister: CC");
	cc_bpf_unregister_cmd->add_option("cc", bpf_cc, "swift or timely")->required();

	auto *qdisc = app.add_subcommand("qdisc", "phantom and ndt qdiscs");
	qdisc->require_subcommand(1);
	std::vector<std::string> qdisc_args;
	auto *qdisc_show_cmd = qdisc->add_subcommand("show", "options and counters: [dev DEV]");
	qdisc_show_cmd->add_option("args", qdisc_args, "dev DEV");

	auto *lb = app.add_subcommand("lb", "the entropy datapath (tc programs of bpf/lb.bpf.c)");
	lb->require_subcommand(1);
	std::vector<std::string> lb_args;
	auto *lb_show_cmd = lb->add_subcommand(
		"show", "settings and counters of this namespace's datapaths: [dev DEV]");
	lb_show_cmd->add_option("args", lb_args, "dev DEV");
	auto *lb_detach_cmd = lb->add_subcommand("detach", "take a device's datapath off: dev DEV");
	lb_detach_cmd->add_option("args", lb_args, "dev DEV");

	auto *reflex = app.add_subcommand(
		"reflex", "Reflex's datapath in this namespace (tc programs of bpf/reflex.bpf.c)");
	reflex->require_subcommand(1);
	std::vector<std::string> rfx_args;
	std::string rfx_role;
	auto *rfx_stamp_cmd = reflex->add_subcommand(
		"stamp", "the IP-ID stamp on a leaf's host ports: dev DEV [dev DEV ...] [k K]");
	auto *rfx_gateway_cmd = reflex->add_subcommand(
		"gateway", "NSF: lan DEV wan DEV [wan DEV ...] [prefix A/L ...] [addr A] [k K] [port P] "
			   "[t_src_thresh_ns N] [t_interval_ns N] [t_idle_gc_ns N] [n_cool N] "
			   "[cool_unit pack|packet] [emit 0|1]");
	auto *rfx_host_cmd = reflex->add_subcommand(
		"host", "a sender's acceptance: dev DEV gateway A [gateway A ...] [k K] [port P]");
	for (auto *c : { rfx_stamp_cmd, rfx_gateway_cmd, rfx_host_cmd })
		c->add_option("args", rfx_args, "KEY VALUE pairs")->required();
	auto *rfx_show_cmd = reflex->add_subcommand("show", "the roles here, counters and flows, and the ndt qdiscs");
	auto *rfx_detach_cmd = reflex->add_subcommand("detach", "take a role off: stamp|gateway|host");
	rfx_detach_cmd->add_option("role", rfx_role, "stamp, gateway or host")->required();

	auto *mlcc = app.add_subcommand(
		"mlcc", "MLCC's INT option at the hosts (the sockops program of bpf/mlcc.bpf.c on a cgroup)");
	mlcc->require_subcommand(1);
	std::vector<std::string> mlcc_args;
	auto *mlcc_attach_cmd = mlcc->add_subcommand(
		"attach", "attach (CAP_BPF, CAP_NET_ADMIN): cgroup PATH [remote A.B.C.D/LEN] [rtt-d-us N] "
		"[hpcc-line-mbps N] [credit-line-mbps N rtt-c-us N [theta-us N] [dt-us N]]");
	mlcc_attach_cmd->add_option("args", mlcc_args, "KEY VALUE pairs")->required();
	auto *mlcc_dci_cmd = mlcc->add_subcommand(
		"dci", "DCI_s's near-source loop here: lan DEV wan DEV [wan DEV...] [addr A.B.C.D]");
	mlcc_dci_cmd->add_option("args", mlcc_args, "KEY VALUE pairs")->required();
	auto *mlcc_sender_cmd = mlcc->add_subcommand(
		"sender", "a sender takes Switch-INTs: dev DEV dci A.B.C.D line-mbps N rtt-ns-us N");
	mlcc_sender_cmd->add_option("args", mlcc_args, "KEY VALUE pairs")->required();
	auto *mlcc_dcir_cmd = mlcc->add_subcommand(
		"dcir", "DCI_r's per-flow queues here (fq on the port): lan DEV line-mbps N");
	mlcc_dcir_cmd->add_option("args", mlcc_args, "KEY VALUE pairs")->required();
	auto *mlcc_show_cmd = mlcc->add_subcommand(
		"show", "settings, counters and received flows; the tc roles here");
	auto *mlcc_detach_cmd = mlcc->add_subcommand(
		"detach", "take it off its cgroup, or a tc role off: dci|sender|dcir");
	std::string mlcc_role;
	mlcc_detach_cmd->add_option("role", mlcc_role,
				    "dci, sender or dcir (none: the cgroup's program)");

	auto *sock = app.add_subcommand("sock", "TCP sockets");
	sock->require_subcommand(1);
	bool all = false;
	auto *sock_show_cmd = sock->add_subcommand("show", "sockets running uno, smartt, swift or timely, with "
							    "their CC state (inet_diag)");
	sock_show_cmd->add_flag("-a,--all", all, "every TCP socket");

	auto *rc = app.add_subcommand("rc", "UnoRC's settings (unorc, unoperf --transport unorc)");
	rc->require_subcommand(1);
	std::string rc_config, rc_param;
	auto *rc_show_cmd = rc->add_subcommand(
		"show", "the settings in effect, from [unorc] of the file or built in: [PARAM]");
	auto *rc_config_opt = rc_show_cmd->add_option(
		"-c,--config", rc_config,
		"configuration file (default: " + std::string(uno::kDefaultConfigPath) +
			", if it exists)")->type_name("FILE");
	rc_show_cmd->add_option("param", rc_param, "one setting, e.g. rto-us");

	try {
		app.parse(argc, argv);
	} catch (const CLI::CallForHelp &e) {
		return app.exit(e);
	} catch (const CLI::ParseError &e) {
		app.exit(e);
		return kExitUsage;
	}

	try {
		if (*cc_show_cmd)
			return cc_show(show_cc, show_param);
		if (*cc_set_cmd)
			return cc_set(set_cc, set_args, force);
		if (*cc_bpf_register_cmd)
			return cc_bpf_register(bpf_cc, bpf_args);
		if (*cc_bpf_unregister_cmd)
			return cc_bpf_unregister(bpf_cc);
		if (*qdisc_show_cmd)
			return qdisc_show(qdisc_args);
		if (*lb_show_cmd)
			return lb_show(lb_args);
		if (*lb_detach_cmd)
			return lb_detach(lb_args);
		if (*rfx_stamp_cmd)
			return reflex_attach(RFX_ROLE_STAMP, rfx_args);
		if (*rfx_gateway_cmd)
			return reflex_attach(RFX_ROLE_GATEWAY, rfx_args);
		if (*rfx_host_cmd)
			return reflex_attach(RFX_ROLE_HOST, rfx_args);
		if (*rfx_show_cmd)
			return reflex_show();
		if (*rfx_detach_cmd)
			return reflex_detach(rfx_role);
		if (*mlcc_attach_cmd)
			return mlcc_attach(mlcc_args);
		if (*mlcc_dci_cmd)
			return mlcc_ns_attach(MLCC_NS_ROLE_DCI, mlcc_args);
		if (*mlcc_sender_cmd)
			return mlcc_ns_attach(MLCC_NS_ROLE_SENDER, mlcc_args);
		if (*mlcc_dcir_cmd)
			return mlcc_ns_attach(MLCC_NS_ROLE_DCI_R, mlcc_args);
		if (*mlcc_show_cmd)
			return mlcc_show();
		if (*mlcc_detach_cmd)
			return mlcc_detach(mlcc_role);
		if (*sock_show_cmd)
			return sock_show(all);
		if (*rc_show_cmd)
			return rc_show(*rc_config_opt ? std::optional(rc_config) : std::nullopt,
				       rc_param);
	} catch (const uno::NlError &e) {
		return fail(e.what());
	} catch (const uno::LbError &e) {
		return fail(e.what());
	} catch (const uno::BpfCcError &e) {
		return fail(e.what());
	} catch (const uno::RfxError &e) {
		return fail(e.what());
	} catch (const uno::MlccError &e) {
		return fail(e.what());
	}
	return kExitUsage;
}
