// SPDX-License-Identifier: GPL-2.0
#include "mlcc_datapath.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core_types.h"
#include "hpcc_core.h"
#include "lb_datapath.h" // lb_percpu_sum()
#include "map_iter.h"
#include "mlcc_types.h"
#include "mlcc.skel.h"

namespace uno {
namespace {

constexpr const char *kDir = "/sys/fs/bpf/uno/mlcc";
constexpr const char *kMaps[] = { "mlcc_cfg", "mlcc_stats", "mlcc_rx" };

[[noreturn]] void fail(const std::string &what, int err)
{
	throw MlccError(what + ": " + std::strerror(err < 0 ? -err : err));
}

std::string pin(const char *name, const std::string &dir = kDir)
{
	return dir + "/" + name;
}

// The pins in dir, and dir: removing the link's detaches its program.
void unpin_dir(const std::string &dir)
{
	unlink(pin("link", dir).c_str());
	for (const char *m : kMaps)
		unlink(pin(m, dir).c_str());
	rmdir(dir.c_str());
}

struct SkelDelete {
	void operator()(::mlcc *s) const { mlcc::destroy(s); }
};
using Skel = std::unique_ptr<::mlcc, SkelDelete>;

// Loaded and configured, not yet attached or pinned.
Skel load(const MlccConf &c)
{
	Skel skel(mlcc::open_and_load());
	if (!skel)
		fail("loading bpf/mlcc.bpf.o", errno);
	const uint32_t zero = 0;
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.mlcc_cfg), &zero, &c.cfg, BPF_ANY))
		fail("writing mlcc_cfg", errno);
	return skel;
}

void pin_all(const Skel &skel, bpf_link *link, const std::string &dir)
{
	for (const std::string &d : { std::string("/sys/fs/bpf/uno"), dir })
		if (mkdir(d.c_str(), 0700) && errno != EEXIST)
			fail("mkdir " + d, errno);
	for (const char *m : kMaps)
		if (int err = bpf_map__pin(bpf_object__find_map_by_name(skel->obj, m),
					   pin(m, dir).c_str()))
			fail(std::string("pinning ") + m, err);
	if (int err = bpf_link__pin(link, pin("link", dir).c_str()))
		fail("pinning the cgroup link", err);
}

} // namespace

void mlcc_conf_check(const MlccConf &c)
{
	if (c.cfg.remote_len > 32)
		throw MlccError("remote prefix length above 32");
	if (!c.cfg.rtt_d_ns || c.cfg.rtt_d_ns > HPCC_T_MAX)
		throw MlccError("rtt-d must be 1 ns to " + std::to_string(HPCC_T_MAX / 1000) +
				" us");
	struct stat st;
	if (stat(c.cgroup.c_str(), &st) || !S_ISDIR(st.st_mode))
		throw MlccError("cgroup " + c.cgroup + ": no such directory");
}

const char *mlcc_stat_name(uint32_t stat)
{
	static const char *const names[__MLCC_STAT_MAX] = {
		[MLCC_STAT_OPT_WRITTEN] = "opt_written",
		[MLCC_STAT_OPT_NO_ROOM] = "opt_no_room",
		[MLCC_STAT_RX_SEGS] = "rx_segs",
		[MLCC_STAT_RX_FLOWS_FULL] = "rx_flows_full",
	};
	return stat < __MLCC_STAT_MAX && names[stat] ? names[stat] : "?";
}

void mlcc_attach(const MlccConf &c)
{
	mlcc_conf_check(c);
	Skel skel = load(c);
	const int cg = open(c.cgroup.c_str(), O_RDONLY | O_DIRECTORY);
	if (cg < 0)
		fail("cgroup " + c.cgroup, errno);
	bpf_link *link = bpf_program__attach_cgroup(skel->progs.mlcc_sockops, cg);
	const int err = libbpf_get_error(link);
	close(cg);
	if (err)
		fail("attaching to cgroup " + c.cgroup, err);
	// The new datapath is attached and pinned beside the one in place,
	// which goes only once the new one is whole: a failure leaves the old.
	// For that moment both run; the second's option finds no room.
	const std::string next = std::string(kDir) + "-new"; // bpffs takes no "."
	unpin_dir(next);
	try {
		pin_all(skel, link, next);
	} catch (...) {
		bpf_link__destroy(link);
		unpin_dir(next);
		throw;
	}
	bpf_link__destroy(link); // the pin holds it
	mlcc_detach();
	if (rename(next.c_str(), kDir))
		fail("renaming " + next + " to " + kDir, errno);
}

void mlcc_detach()
{
	unpin_dir(kDir);
}

MlccStatus mlcc_status()
{
	MlccStatus s;
	const int link = bpf_obj_get(pin("link").c_str());
	if (link < 0)
		return s;
	s.attached = true;
	bpf_link_info info = {};
	uint32_t len = sizeof(info);
	if (!bpf_obj_get_info_by_fd(link, &info, &len))
		s.cgroup_id = info.cgroup.cgroup_id;
	close(link);
	const uint32_t zero = 0;
	int fd = bpf_obj_get(pin("mlcc_cfg").c_str());
	if (fd >= 0) {
		bpf_map_lookup_elem(fd, &zero, &s.cfg);
		close(fd);
	}
	if ((fd = bpf_obj_get(pin("mlcc_stats").c_str())) >= 0) {
		for (uint32_t i = 0; i < __MLCC_STAT_MAX; i++)
			s.stats[i] = lb_percpu_sum(fd, i);
		close(fd);
	}
	if ((fd = bpf_obj_get(pin("mlcc_rx").c_str())) >= 0) {
		bpf_map_for_each<mlcc_flow4, mlcc_rx_entry>(
			fd, [&](const mlcc_flow4 &k, const mlcc_rx_entry &e) {
				s.flows.push_back({ k, e.info });
			});
		close(fd);
	}
	return s;
}

} // namespace uno
