// SPDX-License-Identifier: GPL-2.0
#include "lb.h"

#include <cstdio>

#include <netinet/in.h>

namespace unoctl {
namespace {

using nlohmann::json;

// ARCANE's sends that explored, or that the cache served, of all its
// sends; null before the first.
std::pair<json, json> arcane_rates(const uno::LbStatus &s)
{
	const double explore = static_cast<double>(s.stats[LB_STAT_TX_EXPLORE]);
	const double cached = static_cast<double>(s.stats[LB_STAT_TX_CACHED]);
	if (explore + cached == 0)
		return { nullptr, nullptr };
	return { explore / (explore + cached), cached / (explore + cached) };
}

json prog_id(uint32_t id)
{
	return id ? json(id) : json(nullptr);
}

} // namespace

json lb_json(const uno::LbStatus &s)
{
	const lb_cfg &c = s.cfg;
	json ports = json::array();
	for (const auto &[key, v] : s.policies)
		ports.push_back({ { "proto", key.first == IPPROTO_TCP ? "tcp" : "udp" },
				  { "port", key.second },
				  { "mode", uno::lb_mode_name(v.mode_override < __LB_MODE_MAX ?
								      v.mode_override : c.mode) },
				  { "require_shim", (v.flags & LB_POLICY_REQUIRE_SHIM) != 0 } });
	json counters = json::object();
	for (uint32_t i = 0; i < __LB_STAT_MAX; i++)
		counters[uno::lb_stat_name(i)] = s.stats[i];
	json ev = json::object();
	for (const auto &[e, n] : s.ev_hist)
		ev[std::to_string(e)] = n;
	const auto [explore, hit] = arcane_rates(s);
	return { { "dev", s.dev },
		 { "mode", uno::lb_mode_name(c.mode) },
		 { "num_ev", c.num_ev },
		 { "ev_base", c.ev_base },
		 { "cache_size", c.cache_size },
		 { "bdp_pkts", c.bdp_pkts },
		 { "flowlet_gap_us", c.flowlet_gap_ns / 1000 },
		 { "plb_idle_rounds", c.plb_idle_rounds },
		 { "plb_rehash_rounds", c.plb_force_rounds },
		 { "plb_cong_thresh", c.plb_thresh_256 },
		 { "ports", ports },
		 { "prog", { { "egress", prog_id(s.egress_prog) },
			     { "ingress", prog_id(s.ingress_prog) } } },
		 { "flows", s.flows },
		 { "counters", counters },
		 { "exploration_rate", explore },
		 { "cache_hit_rate", hit },
		 { "ev_packets", ev } };
}

std::string lb_text(const uno::LbStatus &s)
{
	const json j = lb_json(s);
	std::string out = "lb dev " + s.dev + " mode " + j["mode"].get<std::string>() +
			  " num_ev " + std::to_string(s.cfg.num_ev) + " ev_base " +
			  std::to_string(s.cfg.ev_base) + " ports";
	for (const auto &p : j["ports"])
		out += " " + std::to_string(p["port"].get<int>()) + "/" + p["proto"].get<std::string>();
	out += s.egress_prog && s.ingress_prog ? "\n attached" : "\n NOT attached";
	out += " flows " + std::to_string(s.flows) + " EVs used " + std::to_string(s.ev_hist.size());
	for (const char *r : { "exploration_rate", "cache_hit_rate" })
		if (!j[r].is_null()) {
			char buf[64];
			std::snprintf(buf, sizeof(buf), " %s %.3f", r, j[r].get<double>());
			out += buf;
		}
	out += "\n";
	for (const auto &[name, v] : j["counters"].items())
		out += " " + name + " " + std::to_string(v.get<uint64_t>());
	return out + "\n";
}

} // namespace unoctl
