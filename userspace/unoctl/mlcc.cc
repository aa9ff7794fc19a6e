// SPDX-License-Identifier: GPL-2.0
#include "mlcc.h"

#include <arpa/inet.h>

#include <charconv>
#include <optional>
#include <set>
#include <sstream>

#include "config.h" // parse_prefix4(), prefix4_text()
#include "core_types.h"
#include "hpcc_core.h"
#include "mlcc_core.h"

namespace unoctl {
namespace {

using nlohmann::json;

json hop_json(uint64_t wire)
{
	hpcc_hop h;
	hpcc_hop_unwire(wire, &h);
	return { { "qlen", uint64_t(h.qlen) * HPCC_INT_UNIT },
		 { "tx", uint64_t(h.tx) * HPCC_INT_UNIT },
		 { "ts", uint64_t(h.ts) * HPCC_INT_UNIT },
		 { "rate_bps", h.rate * 8 } };
}

json flow_json(const uno::MlccRxFlow &f)
{
	const mlcc_rx_info &i = f.info;
	json nhop = json::array(), hops = json::array();
	for (uint32_t n = 0; n <= MLCC_DATA_HOPS; n++)
		nhop.push_back(i.nhop[n]);
	for (uint32_t j = 0; j < i.last_nhop && j < MLCC_DATA_HOPS; j++)
		hops.push_back(hop_json(i.hop[j]));
	json j = { { "src", uno::addr_port(f.key.saddr, f.key.sport) },
		   { "dst", uno::addr_port(f.key.daddr, f.key.dport) },
		   { "segs", i.segs },
		   { "opts", i.opts },
		   { "nhop", nhop },
		   { "overflow", i.overflow },
		   { "u", double(i.u) / HPCC_ONE },
		   { "hops", hops } };
	if (i.c_r)
		j["credit"] = { { "segs", i.dci_segs },
				{ "rounds", i.rounds },
				{ "c_r", i.c_r },
				{ "c_d", i.c_d },
				{ "q_c", i.q_c },
				{ "r_credit_bps", i.r_credit * 8 },
				{ "r_dqm_bps", i.r_dqm * 8 },
				{ "r_dqm_bar_bps", i.r_dqm_bar * 8 } };
	return j;
}

std::string addr_text(uint32_t addr)
{
	char buf[INET_ADDRSTRLEN];
	return inet_ntop(AF_INET, &addr, buf, sizeof(buf)) ? buf : "?";
}

json ns_flow_json(const uno::MlccNsFlow &f)
{
	const mlcc_ns_info &i = f.info;
	json hops = json::array();
	for (uint32_t j = 0; j < i.nhop && j < MLCC_SWINT_HOPS; j++)
		hops.push_back(hop_json(i.hop[j]));
	return { { "src", uno::addr_port(f.key.saddr, f.key.sport) },
		 { "dst", uno::addr_port(f.key.daddr, f.key.dport) },
		 { "taken", i.taken },
		 { "commits", i.commits },
		 { "r_ns_bps", i.r_ns * 8 },
		 { "r_line_bps", i.r_line * 8 },
		 { "u", double(i.u) / HPCC_ONE },
		 { "base_rtt_us", i.base_rtt_us },
		 { "r_dqm_bar_bps", i.r_dqm_bar * 8 },
		 { "hops", hops } };
}

json pfq_json(const uno::MlccPfq &q)
{
	const mlcc_pfq_info &i = q.info;
	return { { "src", uno::addr_port(q.key.saddr, q.key.sport) },
		 { "dst", uno::addr_port(q.key.daddr, q.key.dport) },
		 { "rate_bps", i.rate * 8 },
		 { "c_d", i.c_d },
		 { "q_c", i.q_c },
		 { "pkts", i.pkts },
		 { "bytes", i.bytes },
		 { "acks", i.acks } };
}

json ns_json(const uno::MlccNsStatus &s)
{
	json counters = json::object(), j = { { "role", uno::mlcc_ns_role_name(s.role) } };
	for (uint32_t i = 0; i < __MLCC_NS_STAT_MAX; i++)
		counters[uno::mlcc_ns_stat_name(i)] = s.stats[i];
	if (s.role == MLCC_NS_ROLE_DCI) {
		j["addr"] = addr_text(s.cfg.lan_addr);
	} else if (s.role == MLCC_NS_ROLE_DCI_R) {
		json pfqs = json::array();
		for (const auto &q : s.pfqs)
			pfqs.push_back(pfq_json(q));
		j["r_init_bps"] = s.cfg.line_rate * 8;
		j["pfqs"] = pfqs;
	} else {
		json dcis = json::array(), flows = json::array();
		for (uint32_t a : s.dcis)
			dcis.push_back(addr_text(a));
		for (const auto &f : s.flows)
			flows.push_back(ns_flow_json(f));
		j["dcis"] = dcis;
		j["line_bps"] = s.cfg.line_rate * 8;
		j["rtt_ns_us"] = s.cfg.rtt_ns_ns / 1000;
		j["flows"] = flows;
	}
	j["counters"] = counters;
	return j;
}

// An unsigned decimal of 1..max, or nothing.
std::optional<uint64_t> count_of(const std::string &v, uint64_t max)
{
	uint64_t n = 0;
	const auto r = std::from_chars(v.data(), v.data() + v.size(), n);
	if (r.ec != std::errc() || r.ptr != v.data() + v.size() || !n || n > max)
		return std::nullopt;
	return n;
}

// The settings of each role, for its error.
const char *mlcc_ns_keys(uint32_t role)
{
	return role == MLCC_NS_ROLE_DCI	  ? " (lan, wan, addr)" :
	       role == MLCC_NS_ROLE_DCI_R ? " (lan, line-mbps)" :
					    " (dev, dci, line-mbps, rtt-ns-us)";
}

} // namespace

std::string mlcc_ns_parse(uno::MlccNsConf &c, const std::vector<std::string> &args)
{
	const bool dci = c.role != MLCC_NS_ROLE_SENDER; // a DCI's LAN port
	const bool dcis = c.role == MLCC_NS_ROLE_DCI;
	const bool rate = c.role != MLCC_NS_ROLE_DCI;
	std::set<std::string> seen;

	if (args.size() % 2)
		return "expected KEY VALUE pairs";
	for (size_t i = 0; i < args.size(); i += 2) {
		const std::string &k = args[i], &v = args[i + 1];
		in_addr a;
		if (k != "wan" && k != "dci" && !seen.insert(k).second)
			return k + ": set twice";
		if (dci && k == "lan") {
			c.dev = v;
		} else if (dcis && k == "wan") {
			c.wan.push_back(v);
		} else if ((dcis && k == "addr") || (!dci && k == "dci")) {
			if (inet_pton(AF_INET, v.c_str(), &a) != 1)
				return k + " " + v + ": expected A.B.C.D";
			if (dcis)
				c.cfg.lan_addr = a.s_addr;
			else
				c.dcis.push_back(a.s_addr);
		} else if (!dci && k == "dev") {
			c.dev = v;
		} else if (rate && k == "line-mbps") {
			const auto n = count_of(v, HPCC_RATE_MAX / 125000);
			if (!n)
				return k + " " + v + ": expected 1 to " +
				       std::to_string(HPCC_RATE_MAX / 125000);
			c.cfg.line_rate = *n * 125000;
		} else if (!dci && k == "rtt-ns-us") {
			const auto n = count_of(v, HPCC_T_MAX / 1000);
			if (!n)
				return k + " " + v + ": expected 1 to " +
				       std::to_string(HPCC_T_MAX / 1000);
			c.cfg.rtt_ns_ns = static_cast<uint32_t>(*n * 1000);
		} else {
			return k + ": not a setting of " + uno::mlcc_ns_role_name(c.role) +
			       mlcc_ns_keys(c.role);
		}
	}
	return uno::mlcc_ns_conf_error(c);
}

std::string mlcc_parse(uno::MlccConf &c, const std::vector<std::string> &args)
{
	std::set<std::string> seen;

	if (args.size() % 2)
		return "expected KEY VALUE pairs";
	for (size_t i = 0; i < args.size(); i += 2) {
		const std::string &k = args[i], &v = args[i + 1];
		if (!seen.insert(k).second)
			return k + ": set twice";
		if (k == "cgroup") {
			c.cgroup = v;
		} else if (k == "remote") {
			const auto pf = uno::parse_prefix4(v);
			if (!pf)
				return k + " " + v + ": expected A.B.C.D/LEN without host bits";
			c.cfg.remote_addr = pf->addr;
			c.cfg.remote_len = pf->prefixlen;
		} else if (k == "rtt-d-us") {
			const auto us = count_of(v, HPCC_T_MAX / 1000);
			if (!us)
				return k + " " + v + ": expected 1 to " +
				       std::to_string(HPCC_T_MAX / 1000);
			c.cfg.rtt_d_ns = static_cast<uint32_t>(*us * 1000);
		} else if (k == "hpcc-line-mbps" || k == "credit-line-mbps") {
			const bool hpcc = k == "hpcc-line-mbps";
			const uint64_t max = (hpcc ? HPCC_RATE_MAX : MLCC_RATE_MAX) / 125000;
			const auto n = count_of(v, max);
			if (!n)
				return k + " " + v + ": expected 1 to " + std::to_string(max);
			(hpcc ? c.cfg.hpcc_line_rate : c.cfg.credit_line_rate) = *n * 125000;
		} else if (k == "rtt-c-us" || k == "theta-us" || k == "dt-us") {
			uint32_t *ns = k == "rtt-c-us" ? &c.cfg.rtt_c_ns :
				       k == "theta-us" ? &c.cfg.theta_ns :
							 &c.cfg.d_t_ns;
			const uint64_t max = (k == "rtt-c-us" ? MLCC_RTT_C_MAX : MLCC_THETA_MAX) / 1000;
			const auto us = count_of(v, max);
			if (!us)
				return k + " " + v + ": expected 1 to " + std::to_string(max);
			*ns = static_cast<uint32_t>(*us * 1000);
		} else {
			return k + ": not a setting (cgroup, remote, rtt-d-us, hpcc-line-mbps, "
				   "credit-line-mbps, rtt-c-us, theta-us, dt-us)";
		}
	}
	if (c.cgroup.empty())
		return "cgroup PATH is required";
	return uno::mlcc_credit_error(c.cfg);
}

json mlcc_json(const uno::MlccStatus &s, const std::vector<uno::MlccNsStatus> &ns)
{
	json counters = json::object(), flows = json::array(), roles = json::array();
	for (uint32_t i = 0; i < __MLCC_STAT_MAX; i++)
		counters[uno::mlcc_stat_name(i)] = s.stats[i];
	for (const auto &f : s.flows)
		flows.push_back(flow_json(f));
	for (const auto &r : ns)
		roles.push_back(ns_json(r));
	const rfx_prefix4 remote = { s.cfg.remote_len, s.cfg.remote_addr };
	json j = { { "attached", s.attached },
		   { "cgroup_id", s.cgroup_id },
		   { "remote", uno::prefix4_text(remote) },
		   { "rtt_d_us", s.cfg.rtt_d_ns / 1000 },
		   { "counters", counters },
		   { "flows", flows },
		   { "near_source", roles } };
	json senders = json::array();
	for (const auto &f : s.senders)
		senders.push_back(ns_flow_json(f));
	if (s.cfg.hpcc_line_rate)
		j["hpcc"] = { { "line_bps", s.cfg.hpcc_line_rate * 8 }, { "flows", senders } };
	if (s.cfg.credit_line_rate)
		j["credit"] = { { "line_bps", s.cfg.credit_line_rate * 8 },
				{ "rtt_c_us", s.cfg.rtt_c_ns / 1000 },
				{ "theta_us", s.cfg.theta_ns / 1000 },
				{ "dt_us", s.cfg.d_t_ns / 1000 },
				{ "flows", senders } };
	return j;
}

std::string mlcc_text(const uno::MlccStatus &s, const std::vector<uno::MlccNsStatus> &ns)
{
	const json j = mlcc_json(s, ns);
	std::ostringstream out;
	if (!s.attached) {
		out << "mlcc: not attached\n";
	} else {
		out << "mlcc cgroup " << s.cgroup_id << " remote "
		    << j["remote"].get<std::string>() << " rtt-d-us " << j["rtt_d_us"];
		if (j.contains("hpcc"))
			out << " hpcc-line-mbps " << j["hpcc"]["line_bps"].get<uint64_t>() / 1000000;
		if (j.contains("credit"))
			out << " credit-line-mbps "
			    << j["credit"]["line_bps"].get<uint64_t>() / 1000000 << " rtt-c-us "
			    << j["credit"]["rtt_c_us"] << " theta-us " << j["credit"]["theta_us"]
			    << " dt-us " << j["credit"]["dt_us"];
		out << "\n";
		for (const auto &[name, v] : j["counters"].items())
			out << "  " << name << " " << v << "\n";
	}
	for (const auto &f : j["flows"])
		out << "  flow " << f["src"].get<std::string>() << " > "
		    << f["dst"].get<std::string>() << " segs " << f["segs"] << " opts "
		    << f["opts"] << " nhop " << f["nhop"].dump() << " u " << f["u"] << "\n";
	for (const auto &f : j["flows"])
		if (f.contains("credit"))
			out << "  credit " << f["src"].get<std::string>() << " > "
			    << f["dst"].get<std::string>() << " rounds " << f["credit"]["rounds"]
			    << " c_r " << f["credit"]["c_r"] << " q_c " << f["credit"]["q_c"]
			    << " r_credit_bps " << f["credit"]["r_credit_bps"] << " r_dqm_bar_bps "
			    << f["credit"]["r_dqm_bar_bps"] << "\n";
	for (const auto &f : j.contains("hpcc") ? j["hpcc"]["flows"] : json::array())
		out << "  hpcc " << f["src"].get<std::string>() << " > "
		    << f["dst"].get<std::string>() << " taken " << f["taken"] << " r_bps "
		    << f["r_ns_bps"] << " u " << f["u"] << " base_rtt_us " << f["base_rtt_us"]
		    << "\n";
	for (const auto &r : j["near_source"]) {
		out << "mlcc " << r["role"].get<std::string>() << "\n";
		for (const auto &[name, v] : r["counters"].items())
			if (v.get<uint64_t>())
				out << "  " << name << " " << v << "\n";
		for (const auto &f : r.value("flows", json::array()))
			out << "  flow " << f["src"].get<std::string>() << " > "
			    << f["dst"].get<std::string>() << " taken " << f["taken"] << " r_ns_bps "
			    << f["r_ns_bps"] << " u " << f["u"] << "\n";
		for (const auto &q : r.value("pfqs", json::array()))
			out << "  pfq " << q["src"].get<std::string>() << " > "
			    << q["dst"].get<std::string>() << " rate_bps " << q["rate_bps"] << " c_d "
			    << q["c_d"] << " q_c " << q["q_c"] << " pkts " << q["pkts"] << "\n";
	}
	return out.str();
}

} // namespace unoctl
