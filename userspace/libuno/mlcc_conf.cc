// SPDX-License-Identifier: GPL-2.0
//
// The near-source roles of MLCC ([mlcc.dci], [mlcc.sender], unoctl mlcc
// dci|sender): their names, and the checks that need no kernel.
#include <algorithm>
#include <cstring>

#include "config.h"

#include "core_types.h"
#include "hpcc_core.h"

namespace uno {

const char *mlcc_ns_role_name(uint32_t role)
{
	static const char *const names[__MLCC_NS_ROLE_MAX] = { "dci", "sender" };
	return role < __MLCC_NS_ROLE_MAX ? names[role] : "?";
}

bool MlccNsConf::operator==(const MlccNsConf &o) const
{
	return role == o.role && !std::memcmp(&cfg, &o.cfg, sizeof(cfg)) && dev == o.dev &&
	       wan == o.wan && dcis == o.dcis;
}

std::string mlcc_ns_conf_error(const MlccNsConf &c)
{
	if (c.role >= __MLCC_NS_ROLE_MAX)
		return "no such role";
	if (c.role == MLCC_NS_ROLE_DCI) {
		if (c.dev.empty())
			return "dci: its LAN port (lan) is required";
		if (c.wan.empty())
			return "dci: at least one WAN port (wan) is required";
		if (std::find(c.wan.begin(), c.wan.end(), c.dev) != c.wan.end())
			return "dci: " + c.dev + " is both its LAN port and a WAN port";
		return "";
	}
	if (c.dev.empty())
		return "sender: its device (dev) is required";
	if (c.dcis.empty())
		return "sender: at least one DCI address (dci) is required";
	if (!c.cfg.line_rate || c.cfg.line_rate > HPCC_RATE_MAX)
		return "sender: line rate out of 1 to " + std::to_string(HPCC_RATE_MAX / 125000) +
		       " Mbit/s";
	if (!c.cfg.rtt_ns_ns || c.cfg.rtt_ns_ns > HPCC_T_MAX)
		return "sender: rtt-ns out of 1 to " + std::to_string(HPCC_T_MAX / 1000) + " us";
	return "";
}

} // namespace uno
