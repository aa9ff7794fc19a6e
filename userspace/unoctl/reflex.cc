// SPDX-License-Identifier: GPL-2.0
#include "reflex.h"

#include <arpa/inet.h>

#include <string>

#include "config.h" // rfx_role_name(), prefix4_text()
#include "nl.h"	    // addr_port()
#include "reflex_core.h" // NSF_COOL_PACK

namespace unoctl {
namespace {

using nlohmann::json;

std::string addr_text(uint32_t a)
{
	char buf[INET_ADDRSTRLEN];
	return inet_ntop(AF_INET, &a, buf, sizeof(buf)) ? buf : "?";
}

json reflex_flow_key(const rfx_flow4 &k)
{
	return { { "src", uno::addr_port(k.saddr, k.sport) },
		 { "dst", uno::addr_port(k.daddr, k.dport) } };
}

} // namespace

json reflex_json(const uno::RfxStatus &s)
{
	json stats = json::object();
	for (uint32_t i = 0; i < __RFX_STAT_MAX; i++)
		if (s.stats[i])
			stats[uno::rfx_stat_name(i)] = s.stats[i];
	const rfx_cfg &c = s.cfg;
	json j = { { "role", uno::rfx_role_name(s.role) },
		   { "k", c.k },
		   { "port", c.port },
		   { "counters", stats } };
	if (s.role == RFX_ROLE_GATEWAY) {
		j["t_src_thresh_ns"] = c.t_src_thresh_ns;
		j["t_interval_ns"] = c.t_interval_ns;
		j["t_idle_gc_ns"] = c.t_idle_gc_ns;
		j["n_cool"] = c.n_cool;
		j["cool_unit"] = c.cool_unit == NSF_COOL_PACK ? "pack" : "packet";
		j["emit"] = c.emit;
		j["addr"] = addr_text(c.lan_addr);
		json prefixes = json::array();
		for (const auto &p : s.prefixes)
			prefixes.push_back(uno::prefix4_text(p));
		j["prefixes"] = prefixes;
		json flows = json::array();
		static const char *const states[] = { "silent", "active", "cooling" };
		for (const auto &f : s.nsf_flows) {
			json fj = reflex_flow_key(f.key);
			fj["state"] = f.state < 3 ? states[f.state] : "?";
			fj["fb_seq"] = f.fb_seq;
			fj["first_pack_ns"] = f.first_pack_ns;
			fj["pack_ns"] = f.pack_ns;
			flows.push_back(fj);
		}
		j["flows"] = flows;
	}
	if (s.role == RFX_ROLE_HOST) {
		json flows = json::array();
		for (const auto &f : s.host_flows) {
			const rfx_flow_info &i = f.info;
			json fj = reflex_flow_key(f.key);
			fj["reflex"] = bool(i.reflex);
			fj["first_cut_ns"] = i.first_cut_ns;
			fj["first_fb_ns"] = i.first_fb_ns;
			fj["episode_ns"] = i.episode_ns;
			fj["loop_ns"] = i.loop_ns;
			fj["cut_wait_ns"] = i.cut_wait_ns;
			fj["rate_Bps"] = i.rate_Bps;
			fj["cwnd"] = i.cwnd;
			fj["cuts"] = i.cuts;
			fj["samples_src"] = i.samples_src;
			fj["samples_e2e"] = i.samples_e2e;
			fj["fb_accepted"] = i.fb_accepted;
			fj["fb_stale"] = i.fb_stale;
			fj["fb_bad_rtt"] = i.fb_bad_rtt;
			flows.push_back(fj);
		}
		j["flows"] = flows;
	}
	return j;
}

} // namespace unoctl
