// SPDX-License-Identifier: GPL-2.0
//
// [[lb]]'s values: the datapath's modes by name, its defaults, and the
// check that the programs would run a configuration, by the same
// function they call (bpf/lb_params.h).
#include <array>
#include <cstring>

#include "config.h"

#include "core_types.h"
#include "lb_params.h"

namespace uno {
namespace {

constexpr std::array<const char *, __LB_MODE_MAX> kModeNames = {
	"ecmp", "spray", "spray_rr", "arcane", "flowlet", "plb", "passthru",
};

} // namespace

std::optional<uint32_t> lb_mode_of(std::string_view name)
{
	for (uint32_t m = 0; m < kModeNames.size(); m++)
		if (name == kModeNames[m])
			return m;
	return std::nullopt;
}

const char *lb_mode_name(uint32_t mode)
{
	return mode < kModeNames.size() ? kModeNames[mode] : "?";
}

std::string lb_mode_names()
{
	std::string s;
	for (const char *n : kModeNames)
		s += std::string(s.empty() ? "" : ", ") + n;
	return s;
}

lb_cfg LbConf::lb_cfg_defaults()
{
	lb_cfg c = {};
	c.mode = LB_MODE_ARCANE;
	c.num_ev = 256;		// arcane.md 2.2
	c.ev_base = 49152;
	c.cache_size = 8;
	c.write_shim_ev = 1;
	c.bdp_pkts = 40;	// arcane.md 4.2: the paper's BDP
	c.flowlet_gap_ns = 1'000'000;
	c.plb_idle_rounds = 3;	// Linux's net.ipv4.tcp_plb_* defaults
	c.plb_force_rounds = 12;
	c.plb_thresh_256 = 128;
	return c;
}

bool LbConf::operator==(const LbConf &o) const
{
	return dev == o.dev && !std::memcmp(&cfg, &o.cfg, sizeof(cfg)) && ports == o.ports &&
	       require_shim == o.require_shim && tcp_ports == o.tcp_ports &&
	       tcp_mode == o.tcp_mode;
}

bool lb_cfg_runs(const lb_cfg &cfg)
{
	struct lb_params lp;

	lb_params_of(&cfg, &lp);
	return cfg.mode < __LB_MODE_MAX && lb_params_valid(&cfg, &lp);
}

} // namespace uno
