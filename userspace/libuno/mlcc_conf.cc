// SPDX-License-Identifier: GPL-2.0
//
// MLCC's settings: the tc roles ([mlcc.dci], [mlcc.sender], [mlcc.dcir],
// unoctl mlcc dci|sender|dcir), their names, and the credit loop's
// constants ([mlcc], unoctl mlcc attach); the checks that need no kernel.
#include <algorithm>
#include <cstring>

#include "config.h"

#include "core_types.h"
#include "hpcc_core.h"
#include "mlcc_core.h"

namespace uno {

const char *mlcc_ns_role_name(uint32_t role)
{
	static const char *const names[__MLCC_NS_ROLE_MAX] = { "dci", "sender", "dcir" };
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
	if (c.role == MLCC_NS_ROLE_DCI_R) {
		if (c.dev.empty())
			return "dcir: its LAN port (lan) is required";
		if (!c.cfg.line_rate || c.cfg.line_rate > MLCC_RATE_MAX)
			return "dcir: line rate (R_init) out of 1 to " +
			       std::to_string(MLCC_RATE_MAX / 125000) + " Mbit/s";
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

std::string mlcc_credit_error(const mlcc_cfg &c)
{
	if (!c.credit_line_rate)
		return "";
	mlcc_params p;
	mlcc_params_default(&p, c.credit_line_rate, c.rtt_d_ns, c.rtt_c_ns);
	p.theta_ns = c.theta_ns;
	p.d_t_ns = c.d_t_ns;
	if (p.credit.r_max > MLCC_RATE_MAX)
		return "credit-line-mbps above " + std::to_string(MLCC_RATE_MAX / 125000);
	if (!c.rtt_c_ns || c.rtt_c_ns < c.rtt_d_ns || c.rtt_c_ns > MLCC_RTT_C_MAX)
		return "rtt-c-us must be rtt-d-us to " + std::to_string(MLCC_RTT_C_MAX / 1000) +
		       " us";
	if (c.rtt_c_ns / c.rtt_d_ns > MLCC_HIST_MAX)
		return "rtt-c-us / rtt-d-us (Eq. 1's n) above " + std::to_string(MLCC_HIST_MAX);
	if (!c.theta_ns || c.theta_ns > MLCC_THETA_MAX || c.d_t_ns > c.theta_ns)
		return "theta-us must be 1 to " + std::to_string(MLCC_THETA_MAX / 1000) +
		       " us, and dt-us at most theta-us";
	if (!mlcc_params_valid(&p))
		return "the credit loop's constants are not usable";
	return "";
}

} // namespace uno
