// SPDX-License-Identifier: GPL-2.0
//
// unod's configuration file (/etc/uno/uno.toml), parsed with toml++ and
// checked against the parameter tables of params.h and the transport's
// knobs (unorc/knobs.h), without a kernel.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "knobs.h" // unorc's
#include "nl.h"
#include "uapi/uno_lb.h"
#include "uapi/uno_mlcc.h"
#include "uapi/uno_reflex.h"

namespace uno {

inline constexpr const char *kDefaultConfigPath = "/etc/uno/uno.toml";

// [[qdisc]]: the root qdisc of one device, of `kind`, with the options of
// its tc plugin; only those the file gives are sent.
struct QdiscConf {
	std::string dev;
	std::string kind = "phantom"; // or "ndt"
	PhantomOpts opts; // phantom's
	NdtOpts ndt; // ndt's

	bool operator==(const QdiscConf &) const = default;
};

// [[lb]]: the entropy datapath (bpf/lb.bpf.c) on one device, steering
// the UDP flows to `ports` by cfg.mode and the TCP/IPv6 flows to
// `tcp_ports` by tcp_mode.
struct LbConf {
	std::string dev;
	lb_cfg cfg = lb_cfg_defaults();
	std::vector<uint16_t> ports; // UDP destination ports, sorted, unique
	bool require_shim = true; // only datagrams that open with the shim
	std::vector<uint16_t> tcp_ports; // TCP destination ports, likewise
	uint32_t tcp_mode = LB_MODE_FLOWLET;

	// The defaults of Documentation/lb.rst: ARCANE on 256 EVs from
	// 49152, a ring of 8, arcane.md's 40-packet BDP, a 1 ms flowlet gap,
	// Linux's tcp_plb_* rounds and threshold.
	static lb_cfg lb_cfg_defaults();
	bool operator==(const LbConf &o) const;
};

// A role of Reflex's datapath (bpf/reflex.bpf.c) in this namespace:
// [reflex.stamp], [reflex.gateway], [reflex.host], or unoctl reflex.
struct RfxConf {
	uint32_t role = RFX_ROLE_HOST;
	rfx_cfg cfg = {};
	std::vector<std::string> devs;	// stamp: host ports; gateway: its LAN
					// port; host: its device
	std::vector<std::string> wan;	// gateway: its WAN ports
	std::vector<uint32_t> gateways; // host: their addresses, network order
	std::vector<rfx_prefix4> prefixes; // gateway: the stamped hosts; none: all

	bool operator==(const RfxConf &o) const;
};

const char *rfx_role_name(uint32_t role); // "stamp", "gateway", "host"
// reflex.md 2.2's defaults, the stamp's k at paper scale (4.3: 6), the
// port 9797, pseudo-ACKs emitted.
rfx_cfg rfx_cfg_default();
// What is wrong with c short of the devices' existence; "" if nothing.
std::string rfx_conf_error(const RfxConf &c);
// "10.100.0.0/16" (the prefix length 0..32, no host bits); nothing if not.
std::optional<rfx_prefix4> parse_prefix4(std::string_view text);
std::string prefix4_text(const rfx_prefix4 &p);

// [mlcc], or unoctl mlcc attach: MLCC's sockops program (bpf/mlcc.bpf.c)
// on a cgroup v2 directory, for the whole machine; rtt-d 100 us and every
// remote address unless set, HPCC end to end (hpcc-line-mbps) and the
// credit loop (credit-line-mbps, with rtt-c-us; theta 18 ms and D_t 1 ms
// unless set) only if set.
struct MlccConf {
	std::string cgroup;
	mlcc_cfg cfg = { .remote_addr = 0,
			 .remote_len = 0,
			 .rtt_d_ns = 100000,
			 .pad = 0,
			 .hpcc_line_rate = 0,
			 .credit_line_rate = 0,
			 .rtt_c_ns = 0,
			 .theta_ns = 18000000, // MLCC_DEF_THETA_NS
			 .d_t_ns = 1000000,    // MLCC_DEF_D_T_NS
			 .pad2 = 0 };

	bool operator==(const MlccConf &o) const
	{
		return cgroup == o.cgroup && cfg.remote_addr == o.cfg.remote_addr &&
		       cfg.remote_len == o.cfg.remote_len && cfg.rtt_d_ns == o.cfg.rtt_d_ns &&
		       cfg.hpcc_line_rate == o.cfg.hpcc_line_rate &&
		       cfg.credit_line_rate == o.cfg.credit_line_rate &&
		       cfg.rtt_c_ns == o.cfg.rtt_c_ns && cfg.theta_ns == o.cfg.theta_ns &&
		       cfg.d_t_ns == o.cfg.d_t_ns;
	}
};

// What is wrong with the credit loop's constants of c (mlcc_params_valid()
// on them), if it is on; "" if nothing.
std::string mlcc_credit_error(const mlcc_cfg &c);

// A tc role of MLCC (bpf/mlcc_ns.bpf.c) in this namespace: [mlcc.dci],
// [mlcc.sender], [mlcc.dcir], or unoctl mlcc dci|sender|dcir.
struct MlccNsConf {
	uint32_t role = MLCC_NS_ROLE_SENDER;
	mlcc_ns_cfg cfg = {}; // dci: lan_addr (0: the LAN port's); sender: the law;
			      // dcir: R_init
	std::string dev;	      // dci, dcir: its LAN port; sender: its device
	std::vector<std::string> wan; // dci: its WAN ports
	std::vector<uint32_t> dcis;   // sender: their addresses, network order

	bool operator==(const MlccNsConf &o) const;
};

const char *mlcc_ns_role_name(uint32_t role); // "dci", "sender"
// What is wrong with c short of the devices' existence; "" if nothing.
std::string mlcc_ns_conf_error(const MlccNsConf &c);

struct Config {
	std::optional<std::string> default_cc;
	// cc -> raw parameter name -> value
	std::map<std::string, std::map<std::string, uint32_t>> params;
	std::vector<QdiscConf> qdiscs;
	std::vector<LbConf> lbs;
	std::vector<RfxConf> reflex; // a role at most once
	std::optional<MlccConf> mlcc;	 // [mlcc]'s cgroup program
	std::vector<MlccNsConf> mlcc_ns; // [mlcc.ROLE]: a role at most once
	// [unorc]: the transport's defaults for unorc and unoperf, each key's
	// values as text, checked by its knob. Nothing for unod to apply.
	unorc::KnobTexts unorc;

	bool operator==(const Config &) const = default;
};

struct ConfigError {
	unsigned line = 0; // 1-based; 0: no position
	unsigned column = 0;
	std::string msg;
};

struct ConfigResult {
	std::optional<Config> config; // set iff errors is empty
	std::vector<ConfigError> errors;
};

// "path:line:col: msg", the way compilers print it.
std::string format_error(std::string_view path, const ConfigError &e);

// Whether the kernel lists a congestion control of that name in
// tcp_available_congestion_control: built in, or its module loaded.
bool cc_available(std::string_view name);

// Whether this host has a congestion control of that name: available, or
// a module tcp_NAME of the running kernel (modules.dep), which the kernel
// loads when the name is set as the default.
bool host_has_cc(std::string_view name);

using CcLookup = std::function<bool(std::string_view)>;

// cc.default must name a congestion control that has_cc knows.
ConfigResult parse_config(std::string_view text, std::string_view path = "",
			  const CcLookup &has_cc = host_has_cc);
// A path that is not a readable regular file is an error.
ConfigResult load_config(const std::string &path, const CcLookup &has_cc = host_has_cc);

// For the tools that read the file without applying it (unorc, unoperf,
// unoctl rc show): the file to read, the one given, else default_path if
// it exists; nothing if neither (built-in defaults then).
std::optional<std::string> config_to_read(const std::optional<std::string> &given,
					  const std::string &default_path = kDefaultConfigPath);
// load_config() for them: cc.default must be a name, but not one of this
// host's congestion controls, which is unod's to check where it applies.
ConfigResult read_config(const std::string &path);

// What to do to go from `prev` (nothing applied yet if null) to `next`:
// only what changed.
struct ConfigPlan {
	std::optional<std::string> default_cc;
	struct ParamSet {
		std::string cc;
		std::string name;
		uint32_t value;
		bool operator==(const ParamSet &) const = default;
	};
	std::vector<ParamSet> params;
	std::vector<QdiscConf> qdisc_replace;
	std::vector<std::string> qdisc_delete; // devices no longer listed
	std::vector<LbConf> lb_attach; // new or changed [[lb]]
	std::vector<std::string> lb_detach; // devices no longer listed
	std::vector<RfxConf> reflex_attach; // new or changed roles
	std::vector<uint32_t> reflex_detach; // roles no longer listed
	std::optional<MlccConf> mlcc_attach; // new or changed [mlcc]
	bool mlcc_detach = false; // [mlcc] no longer there
	std::vector<MlccNsConf> mlcc_ns_attach; // new or changed near-source roles
	std::vector<uint32_t> mlcc_ns_detach;	// roles no longer listed

	bool empty() const
	{
		return !default_cc && params.empty() && qdisc_replace.empty() &&
		       qdisc_delete.empty() && lb_attach.empty() && lb_detach.empty() &&
		       reflex_attach.empty() && reflex_detach.empty() && !mlcc_attach &&
		       !mlcc_detach && mlcc_ns_attach.empty() && mlcc_ns_detach.empty();
	}
};

ConfigPlan plan_config(const Config *prev, const Config &next);

// tc's units, for [[qdisc]] values given as strings.
std::optional<uint64_t> parse_rate(std::string_view s); // to bytes/s
std::optional<uint64_t> parse_size(std::string_view s); // to bytes
std::optional<uint32_t> parse_percent_ppm(std::string_view s); // "20%" to ppm

// The datapath's modes by their [[lb]] and unoctl names ("arcane").
std::optional<uint32_t> lb_mode_of(std::string_view name);
const char *lb_mode_name(uint32_t mode); // "?" for none
std::string lb_mode_names(); // "ecmp, spray, ..."
// Whether the datapath runs `cfg` (bpf/lb_params.h): it passes every
// packet unchanged otherwise.
bool lb_cfg_runs(const lb_cfg &cfg);

} // namespace uno
