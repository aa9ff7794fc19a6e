// SPDX-License-Identifier: GPL-2.0
//
// [reflex]'s values and unoctl reflex's: the roles by name, reflex.md
// 2.2's defaults, and the checks that need no kernel.
#include <arpa/inet.h>

#include <charconv>
#include <cstring>

#include "config.h"

#include "core_types.h"
#include "reflex_core.h"

namespace uno {

const char *rfx_role_name(uint32_t role)
{
	static const char *const names[__RFX_ROLE_MAX] = { "stamp", "gateway", "host" };
	return role < __RFX_ROLE_MAX ? names[role] : "?";
}

rfx_cfg rfx_cfg_default()
{
	nsf_params p;
	nsf_params_default(&p, NSF_DEF_T_INTERVAL_TIMELY_NS);
	rfx_cfg c = {};
	c.t_src_thresh_ns = p.t_src_thresh_ns;
	c.t_interval_ns = p.t_interval_ns;
	c.t_idle_gc_ns = p.t_idle_gc_ns;
	c.n_cool = p.n_cool;
	c.cool_unit = p.cool_unit;
	c.port = RFX_DEF_PORT;
	c.k = 6; // reflex.md 4.3, at paper scale
	c.emit = 1;
	return c;
}

bool RfxConf::operator==(const RfxConf &o) const
{
	const auto same_prefixes = [&] {
		if (prefixes.size() != o.prefixes.size())
			return false;
		for (size_t i = 0; i < prefixes.size(); i++)
			if (prefixes[i].prefixlen != o.prefixes[i].prefixlen ||
			    prefixes[i].addr != o.prefixes[i].addr)
				return false;
		return true;
	};
	return role == o.role && !std::memcmp(&cfg, &o.cfg, sizeof(cfg)) && devs == o.devs &&
	       wan == o.wan && gateways == o.gateways && same_prefixes();
}

std::optional<rfx_prefix4> parse_prefix4(std::string_view text)
{
	const size_t slash = text.find('/');
	if (slash == std::string_view::npos)
		return std::nullopt;
	const std::string addr(text.substr(0, slash));
	const std::string_view len = text.substr(slash + 1);
	uint32_t bits = 33;
	in_addr a;
	auto [end, ec] = std::from_chars(len.data(), len.data() + len.size(), bits);
	if (ec != std::errc() || end != len.data() + len.size() || len.empty() || bits > 32 ||
	    inet_pton(AF_INET, addr.c_str(), &a) != 1)
		return std::nullopt;
	const uint32_t mask = bits ? ~0U << (32 - bits) : 0;
	if (ntohl(a.s_addr) & ~mask)
		return std::nullopt; // host bits: a typo, not a prefix
	return rfx_prefix4{ bits, a.s_addr };
}

std::string prefix4_text(const rfx_prefix4 &p)
{
	char buf[INET_ADDRSTRLEN];
	in_addr a = { p.addr };
	return std::string(inet_ntop(AF_INET, &a, buf, sizeof(buf)) ? buf : "?") + "/" +
	       std::to_string(p.prefixlen);
}

std::string rfx_conf_error(const RfxConf &c)
{
	const nsf_params p = { c.cfg.t_src_thresh_ns, c.cfg.t_interval_ns, c.cfg.t_idle_gc_ns,
			       c.cfg.n_cool, c.cfg.cool_unit };
	const std::string role = rfx_role_name(c.role);

	if (c.role >= __RFX_ROLE_MAX)
		return "no such role";
	if (c.role == RFX_ROLE_GATEWAY && !nsf_params_valid(&p))
		return "n_cool must be 1.." + std::to_string(NSF_N_COOL_MAX) +
		       " and cool_unit pack or packet";
	// 16 bits of 2^k ns within the 64-bit clock (reflex_rtt_src_max_ns())
	if (c.cfg.k > 64 - REFLEX_STAMP_BITS)
		return "k must be 0.." + std::to_string(64 - REFLEX_STAMP_BITS);
	/*
	 * T_src is a stamp's age modulo the wrap, 2^(16+k) ns: a threshold
	 * must be below what the stamp can tell from a wrapped one, the
	 * quarter period the sender takes too (RTT_SRC_MAX).
	 */
	if (c.role == RFX_ROLE_GATEWAY &&
	    c.cfg.t_src_thresh_ns >= reflex_rtt_src_max_ns(REFLEX_STAMP_BITS, c.cfg.k))
		return "t_src_thresh_ns must be below 2^(14+k) ns, a quarter of the stamp's "
		       "wrap: raise k";
	// a flow idle for one interval would start over before it cooled
	if (c.role == RFX_ROLE_GATEWAY && c.cfg.t_idle_gc_ns <= c.cfg.t_interval_ns)
		return "t_idle_gc_ns must be above t_interval_ns";
	if (!c.cfg.port)
		return "the port must not be 0";
	if (c.devs.empty())
		return role + ": a device is required";
	if (c.role != RFX_ROLE_STAMP && c.devs.size() != 1)
		return role + ": one device";
	if (c.role == RFX_ROLE_GATEWAY && c.wan.empty())
		return "gateway: at least one WAN device";
	if (c.role == RFX_ROLE_HOST && c.gateways.empty())
		return "host: at least one gateway address";
	if (c.prefixes.size() > RFX_MAX_PREFIXES)
		return "at most " + std::to_string(RFX_MAX_PREFIXES) + " prefixes";
	return "";
}

} // namespace uno
