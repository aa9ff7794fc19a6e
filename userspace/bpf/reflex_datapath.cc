// SPDX-License-Identifier: GPL-2.0
#include "reflex_datapath.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lb_datapath.h" // lb_pin_root(), lb_percpu_sum()
#include "map_iter.h"
#include "core_types.h"
#include "reflex_core.h"
#include "reflex_types.h"
#include "reflex.skel.h"
#include "tc_role.h"

namespace uno {
namespace {

constexpr const char *kMaps[] = { "rfx_cfg", "rfx_stats", "nsf_flows", "nsf_prefixes",
				  "rfx_gateways" };

[[noreturn]] void fail(const std::string &what, int err)
{
	tc_fail<RfxError>(what, err);
}

TcRole tc_role(uint32_t role)
{
	return { RFX_TC_HANDLE, static_cast<uint16_t>(RFX_TC_PRIO + role),
		 lb_pin_root() + "/reflex-" + rfx_role_name(role),
		 { "rfx_stamp", "nsf_egress", "nsf_build", "rfx_fb" },
		 { std::begin(kMaps), std::end(kMaps) } };
}

int ifindex_of(const std::string &dev)
{
	return tc_ifindex<RfxError>(dev);
}

void tc_put(uint32_t role, const std::string &dev, bpf_tc_attach_point point,
	    const bpf_program *prog)
{
	tc_role_put<RfxError>(tc_role(role), dev, point, prog);
}

struct SkelDelete {
	void operator()(::reflex *s) const { reflex::destroy(s); }
};
using Skel = std::unique_ptr<::reflex, SkelDelete>;

// The maps a role uses at their size, the others at one entry: a stamp
// keeps no flows (nsf_flows holds 64 Ki of them), only a host shares the
// CCs' records.
void size_maps(const Skel &skel, uint32_t role)
{
	if (role != RFX_ROLE_GATEWAY)
		bpf_map__set_max_entries(skel->maps.nsf_flows, 1);
	if (role != RFX_ROLE_HOST) {
		bpf_map__set_max_entries(skel->maps.rfx_flows, 1);
		bpf_map__set_max_entries(skel->maps.rfx_gateways, 1);
	}
}

// A map of the role pinned at path, to load the object on: the gateway's
// flows across a change of its settings, so that their fb_seq go on
// (their senders would take a count from 1 as stale).
void reuse_pinned(bpf_map *map, const std::string &path)
{
	const int fd = bpf_obj_get(path.c_str());
	if (fd < 0)
		return;
	const int err = bpf_map__reuse_fd(map, fd);
	close(fd);
	if (err)
		fail("reusing " + path, err);
}

Skel open_skel(const RfxConf &c)
{
	Skel skel(reflex::open());
	if (!skel)
		fail("opening bpf/reflex.bpf.o", errno);
	size_maps(skel, c.role);
	if (c.role == RFX_ROLE_GATEWAY)
		reuse_pinned(skel->maps.nsf_flows, tc_role(c.role).dir + "/nsf_flows");
	if (c.role == RFX_ROLE_HOST) {
		for (const char *m : { "rfx_sk", "rfx_flows" }) {
			bpf_map *map = bpf_object__find_map_by_name(skel->obj, m);
			if (int err = bpf_map__set_pin_path(map, rfx_shared_pin(m).c_str()))
				fail(std::string("pinning ") + m, err);
		}
	}
	if (int err = reflex::load(skel.get()))
		fail("the kernel refused bpf/reflex.bpf.o (a map pinned in /sys/fs/bpf/uno "
		     "by an older build? remove rfx_sk and rfx_flows there)",
		     err);
	return skel;
}

void configure(const Skel &skel, const RfxConf &c)
{
	rfx_cfg cfg = c.cfg;
	cfg.n_prefixes = static_cast<uint32_t>(c.prefixes.size());
	const uint8_t one = 1;
	for (const rfx_prefix4 &p : c.prefixes)
		if (bpf_map_update_elem(bpf_map__fd(skel->maps.nsf_prefixes), &p, &one, BPF_ANY))
			fail("writing nsf_prefixes", errno);
	if (c.role == RFX_ROLE_GATEWAY) {
		cfg.lan_ifindex = static_cast<uint32_t>(ifindex_of(c.devs[0]));
		if (!cfg.lan_addr)
			cfg.lan_addr = tc_ipv4_addr<RfxError>(c.devs[0], "the pseudo-ACKs");
	}
	const uint32_t zero = 0;
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.rfx_cfg), &zero, &cfg, BPF_ANY))
		fail("writing rfx_cfg", errno);
	for (uint32_t gw : c.gateways)
		if (bpf_map_update_elem(bpf_map__fd(skel->maps.rfx_gateways), &gw, &one, BPF_ANY))
			fail("writing rfx_gateways", errno);
}

void pin_role(const Skel &skel, uint32_t role)
{
	tc_make_dir<RfxError>(lb_pin_root().substr(0, lb_pin_root().rfind('/')));
	tc_make_dir<RfxError>(lb_pin_root());
	tc_role_pin<RfxError>(tc_role(role), skel->obj);
}

void attach_role(const Skel &skel, const RfxConf &c)
{
	switch (c.role) {
	case RFX_ROLE_STAMP:
		for (const auto &d : c.devs)
			tc_put(c.role, d, BPF_TC_INGRESS, skel->progs.rfx_stamp);
		break;
	case RFX_ROLE_GATEWAY:
		tc_put(c.role, c.devs[0], BPF_TC_INGRESS, skel->progs.nsf_build);
		for (const auto &d : c.wan)
			tc_put(c.role, d, BPF_TC_EGRESS, skel->progs.nsf_egress);
		break;
	default:
		tc_put(c.role, c.devs[0], BPF_TC_INGRESS, skel->progs.rfx_fb);
	}
}

RfxStatus role_status(uint32_t role, const std::string &dir)
{
	RfxStatus s;
	s.role = role;
	const auto map_fd = [&](const char *m) { return bpf_obj_get((dir + "/" + m).c_str()); };
	const uint32_t zero = 0;
	int fd = map_fd("rfx_cfg");
	if (fd >= 0) {
		bpf_map_lookup_elem(fd, &zero, &s.cfg);
		close(fd);
	}
	if ((fd = map_fd("rfx_stats")) >= 0) {
		for (uint32_t i = 0; i < __RFX_STAT_MAX; i++)
			s.stats[i] = lb_percpu_sum(fd, i);
		close(fd);
	}
	if (role == RFX_ROLE_GATEWAY && (fd = map_fd("nsf_prefixes")) >= 0) {
		bpf_map_for_each<rfx_prefix4, uint8_t>(fd, [&](const rfx_prefix4 &k, uint8_t &) {
			s.prefixes.push_back(k);
		});
		close(fd);
	}
	if (role == RFX_ROLE_GATEWAY && (fd = map_fd("nsf_flows")) >= 0) {
		bpf_map_for_each<rfx_flow4, nsf_entry>(fd, [&](const rfx_flow4 &k, nsf_entry &e) {
			s.nsf_flows.push_back({ k, e.flow.state, e.flow.fb_seq, e.first_pack_ns,
						nsf_answer_of(&e, e.flow.fb_seq)->pack_ns });
		});
		close(fd);
	}
	if (role == RFX_ROLE_HOST && (fd = bpf_obj_get(rfx_shared_pin("rfx_flows").c_str())) >= 0) {
		bpf_map_for_each<rfx_flow4, rfx_flow_info>(
			fd, [&](const rfx_flow4 &k, const rfx_flow_info &i) {
				s.host_flows.push_back({ k, i });
			});
		close(fd);
	}
	return s;
}

} // namespace

const char *rfx_stat_name(uint32_t stat)
{
	static const char *const names[__RFX_STAT_MAX] = {
		[RFX_STAT_STAMPED] = "stamped",
		[RFX_STAT_NSF_DATA] = "nsf_data",
		[RFX_STAT_NSF_FLOWS_FULL] = "nsf_flows_full",
		[RFX_STAT_NSF_PACKS] = "nsf_packs",
		[RFX_STAT_NSF_EPISODES] = "nsf_episodes",
		[RFX_STAT_NSF_CLONE_ERR] = "nsf_clone_err",
		[RFX_STAT_NSF_BUILT] = "nsf_built",
		[RFX_STAT_NSF_BUILD_ERR] = "nsf_build_err",
		[RFX_STAT_NSF_NO_ROUTE] = "nsf_no_route",
		[RFX_STAT_NSF_OVERRUN] = "nsf_overrun",
		[RFX_STAT_FB_ACCEPTED] = "fb_accepted",
		[RFX_STAT_FB_STALE] = "fb_stale",
		[RFX_STAT_FB_BAD_RTT] = "fb_bad_rtt",
		[RFX_STAT_FB_NO_FLOW] = "fb_no_flow",
		[RFX_STAT_FB_MALFORMED] = "fb_malformed",
		[RFX_STAT_FB_FOREIGN] = "fb_foreign",
	};
	return stat < __RFX_STAT_MAX && names[stat] ? names[stat] : "?";
}

std::string rfx_shared_pin(const std::string &map)
{
	return "/sys/fs/bpf/uno/" + map;
}

void rfx_conf_check(const RfxConf &c)
{
	if (const std::string err = rfx_conf_error(c); !err.empty())
		throw RfxError(err);
	for (const auto &d : c.devs)
		ifindex_of(d);
	for (const auto &d : c.wan)
		ifindex_of(d);
}

void rfx_attach(const RfxConf &c)
{
	rfx_conf_check(c);
	if (c.role == RFX_ROLE_HOST)
		tc_make_dir<RfxError>("/sys/fs/bpf/uno");
	Skel skel = open_skel(c);
	configure(skel, c);
	rfx_detach(c.role);
	try {
		pin_role(skel, c.role);
		attach_role(skel, c);
	} catch (...) {
		rfx_detach(c.role);
		throw;
	}
}

void rfx_detach(uint32_t role)
{
	tc_role_remove<RfxError>(tc_role(role));
}

std::vector<RfxStatus> rfx_status()
{
	std::vector<RfxStatus> all;
	for (uint32_t role = 0; role < __RFX_ROLE_MAX; role++) {
		const std::string dir = tc_role(role).dir;
		struct stat st;
		if (!stat(dir.c_str(), &st))
			all.push_back(role_status(role, dir));
	}
	return all;
}

} // namespace uno
