// SPDX-License-Identifier: GPL-2.0
#include "bpf_cc.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mlcc_datapath.h" // mlcc_ns_shared_pin()
#include "params.h"
#include "reflex_datapath.h"

#include "swift_core.h"
#include "swift_cc.h"
#include "swift_cc.skel.h"
#include "timely_core.h"
#include "timely_cc.h"
#include "timely_cc.skel.h"
#include "mlcc_cc.skel.h"

namespace uno {
namespace {

std::string errno_text(int err)
{
	return std::strerror(err < 0 ? -err : err);
}

// tcp_swift_params.h's names, into the BPF host's configuration.
void swift_conf_set(bpf_swift_conf &c, const std::string &name, uint32_t v)
{
	swift_params &l = c.law;
	const std::map<std::string, uint32_t *> u32s = {
		{ "link_rate_mbps", &c.link_rate_mbps },
		{ "max_cwnd_bdp_pct", &c.max_cwnd_bdp_pct },
		{ "hops_intra", &c.hops_intra },
		{ "hops_inter", &c.hops_inter },
		{ "inter_rtt_us", &c.inter_rtt_us },
		{ kReflexInterRttParam, &c.reflex_inter_rtt_us },
		{ "base_rtt_ns", &l.base_rtt_ns },
		{ "base_delay_ns", &l.base_delay_ns },
		{ "hop_delay_ns", &l.hop_delay_ns },
		{ "beta_ppm", &l.beta_ppm },
		{ "max_mdf_ppm", &l.max_mdf_ppm },
		{ "retx_reset", &l.retx_reset },
		{ "fs_range_ns", &l.fs_range_ns },
	};
	const std::map<std::string, uint64_t *> u64s = {
		{ "ai_upkts", &l.ai },
		{ "min_cwnd_upkts", &l.min_cwnd },
		{ "fs_min_cwnd_upkts", &l.fs_min_cwnd },
		{ "fs_max_cwnd_upkts", &l.fs_max_cwnd },
	};
	if (auto i = u32s.find(name); i != u32s.end())
		*i->second = v;
	else if (auto j = u64s.find(name); j != u64s.end())
		*j->second = v;
	else
		throw BpfCcError("bpf_swift has no parameter '" + name + "'");
}

// Unregisters the struct_ops CC of that name: deletes the one element of
// each struct_ops map so named. A map of an unregistered CC lives on while
// a socket runs it, with the same name, and refuses (EINPROGRESS, ENOENT):
// registered is the map whose delete succeeds. Returns whether one did.
bool delete_struct_ops(const std::string &name)
{
	uint32_t id = 0;
	bool done = false;

	while (!bpf_map_get_next_id(id, &id)) {
		int fd = bpf_map_get_fd_by_id(id);
		if (fd < 0)
			continue;
		bpf_map_info info = {};
		uint32_t len = sizeof(info);
		const uint32_t key = 0;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    info.type == BPF_MAP_TYPE_STRUCT_OPS && name == info.name) {
			if (!bpf_map_delete_elem(fd, &key))
				done = true;
			else if (errno != EINPROGRESS && errno != ENOENT) {
				int err = errno;
				close(fd);
				throw BpfCcError(name + ": cannot unregister: " + errno_text(err));
			}
		}
		close(fd);
	}
	return done;
}

// Every given parameter is one of tcp_<cc>'s or the hosts' own, within
// its range.
void check_ranges(const std::string &cc, const std::map<std::string, uint32_t> &params)
{
	for (const auto &[name, v] : params) {
		if (name == kReflexInterRttParam) {
			if (v > kReflexInterRttMax)
				throw BpfCcError(name + ": value " + std::to_string(v) +
						 " out of range 0.." +
						 std::to_string(kReflexInterRttMax));
			continue;
		}
		const ParamSpec *p = find_param(cc, name);
		if (!p)
			throw BpfCcError("bpf_" + cc + " has no parameter '" + name + "'");
		if (v < p->min || v > p->max)
			throw BpfCcError(name + ": value " + std::to_string(v) + " out of range " +
					 std::to_string(p->min) + ".." + std::to_string(p->max));
	}
}

// /sys/fs/bpf/uno, where the maps shared with the datapaths are pinned.
void make_shared_dir()
{
	if (mkdir("/sys/fs/bpf/uno", 0700) && errno != EEXIST)
		throw BpfCcError("mkdir /sys/fs/bpf/uno: " + errno_text(errno) +
				 " (is a bpf filesystem mounted at /sys/fs/bpf?)");
}

// With Reflex on, the object's mailboxes and flow records are the ones
// the host role of bpf/reflex.bpf.c uses: pinned once, reused by all.
void share_reflex_maps(bpf_object *obj, uint32_t reflex_inter_rtt_us)
{
	if (!reflex_inter_rtt_us) {
		// unused: one entry, not the 64 Ki of a shared table
		bpf_map__set_max_entries(bpf_object__find_map_by_name(obj, "rfx_flows"), 1);
		return;
	}
	make_shared_dir();
	for (const char *m : { "rfx_sk", "rfx_flows" })
		if (int err = bpf_map__set_pin_path(bpf_object__find_map_by_name(obj, m),
						    rfx_shared_pin(m).c_str()))
			throw BpfCcError(std::string("pinning ") + m + ": " + errno_text(err));
}

// Loads skel's object (configured) and registers its struct_ops map,
// which stays registered when the skeleton goes: the kernel holds it.
template <typename Skel>
void load_and_register(Skel *skel, bpf_map *ops, const std::string &name)
{
	if (int err = Skel::load(skel))
		throw BpfCcError(name + ": the kernel refused the programs: " + errno_text(err));
	bpf_link *link = bpf_map__attach_struct_ops(ops);
	if (!link)
		throw BpfCcError(name + ": cannot register: " + errno_text(errno) +
				 (errno == EEXIST ? " (unregister the one there first)" : ""));
	bpf_link__disconnect(link);
	bpf_link__destroy(link);
}

void register_swift(const std::map<std::string, uint32_t> &params)
{
	swift_cc *skel = swift_cc::open();
	if (!skel)
		throw BpfCcError("bpf_swift: cannot open the object: " + errno_text(errno));
	try {
		for (const auto &[name, v] : params)
			swift_conf_set(skel->rodata->conf, name, v);
		if (!swift_params_valid(&skel->rodata->conf.law))
			throw BpfCcError("bpf_swift: the parameters do not agree (a target of 0, "
					 "or flow scaling's windows crossed)");
		share_reflex_maps(skel->obj, skel->rodata->conf.reflex_inter_rtt_us);
		load_and_register(skel, skel->maps.bpf_swift, "bpf_swift");
	} catch (...) {
		swift_cc::destroy(skel);
		throw;
	}
	swift_cc::destroy(skel);
}

// tcp_timely's parameters (their defaults, as the module's, and the
// given ones, by tcp_timely_params.h's names) as the law's.
bpf_timely_conf timely_conf_of(const std::map<std::string, uint32_t> &given)
{
	static const std::map<std::string, uint32_t timely_knobs::*> fields = {
#define TCP_TIMELY_PARAM(name, ...) { #name, &timely_knobs::name },
#include "tcp_timely_params.h"
#undef TCP_TIMELY_PARAM
	};
	timely_knobs k = TIMELY_KNOBS_INIT;
	for (const auto &[name, v] : given)
		if (name != kReflexInterRttParam)
			k.*fields.at(name) = v;
	bpf_timely_conf c = {};
	timely_params_from_knobs(&c.law, &k);
	c.cwnd_gain_pct = k.cwnd_gain_pct;
	if (auto r = given.find(kReflexInterRttParam); r != given.end())
		c.reflex_inter_rtt_us = r->second;
	return c;
}

void register_timely(const std::map<std::string, uint32_t> &params)
{
	const bpf_timely_conf conf = timely_conf_of(params);
	if (!timely_params_valid(&conf.law))
		throw BpfCcError("bpf_timely: the parameters do not agree (T_low above T_high, or "
				 "a rate step of 0 or above the line rate)");
	timely_cc *skel = timely_cc::open();
	if (!skel)
		throw BpfCcError("bpf_timely: cannot open the object: " + errno_text(errno));
	try {
		skel->rodata->conf = conf;
		share_reflex_maps(skel->obj, conf.reflex_inter_rtt_us);
		load_and_register(skel, skel->maps.bpf_timely, "bpf_timely");
	} catch (...) {
		timely_cc::destroy(skel);
		throw;
	}
	timely_cc::destroy(skel);
}

// bpf_mlcc: no parameters (its law's are the sender role's); the flows'
// records shared with the sender role of MLCC's near-source loop.
void register_mlcc(const std::map<std::string, uint32_t> &params)
{
	if (!params.empty())
		throw BpfCcError("bpf_mlcc has no parameter '" + params.begin()->first +
				 "' (its law's are the sender's: unoctl mlcc sender)");
	make_shared_dir();
	mlcc_cc *skel = mlcc_cc::open();
	if (!skel)
		throw BpfCcError("bpf_mlcc: cannot open the object: " + errno_text(errno));
	try {
		if (int err = bpf_map__set_pin_path(skel->maps.mlcc_ns_flows,
						    mlcc_ns_shared_pin().c_str()))
			throw BpfCcError("pinning mlcc_ns_flows: " + errno_text(err));
		load_and_register(skel, skel->maps.bpf_mlcc, "bpf_mlcc");
	} catch (...) {
		mlcc_cc::destroy(skel);
		throw;
	}
	mlcc_cc::destroy(skel);
}

} // namespace

bool bpf_cc_known(const std::string &cc)
{
	return cc == "swift" || cc == "timely" || cc == "mlcc";
}

std::string bpf_cc_name(const std::string &cc)
{
	return "bpf_" + cc;
}

void bpf_cc_register(const std::string &cc, const std::map<std::string, uint32_t> &params)
{
	if (!bpf_cc_known(cc))
		throw BpfCcError("no BPF host for '" + cc + "' (known: swift, timely, mlcc)");
	if (cc == "mlcc")
		return register_mlcc(params);
	check_ranges(cc, params);
	if (cc == "swift")
		register_swift(params);
	else
		register_timely(params);
}

void bpf_cc_unregister(const std::string &cc)
{
	if (!bpf_cc_known(cc))
		throw BpfCcError("no BPF host for '" + cc + "' (known: swift, timely, mlcc)");
	if (!delete_struct_ops(bpf_cc_name(cc)))
		throw BpfCcError(bpf_cc_name(cc) + " is not registered");
}

} // namespace uno
