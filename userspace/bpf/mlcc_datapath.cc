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
#include "lb_datapath.h" // lb_percpu_sum(), lb_pin_root()
#include "map_iter.h"
#include "mlcc_types.h"
#include "mlcc.skel.h"
#include "mlcc_ns.skel.h"
#include "tc_role.h"

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

// Loaded and configured, not yet attached or pinned; the senders' rate
// records the machine's shared ones.
Skel load(const MlccConf &c)
{
	Skel skel(mlcc::open());
	if (!skel)
		fail("opening bpf/mlcc.bpf.o", errno);
	tc_make_dir<MlccError>("/sys/fs/bpf/uno");
	if (int err = bpf_map__set_pin_path(skel->maps.mlcc_ns_flows, mlcc_ns_shared_pin().c_str()))
		fail("pinning mlcc_ns_flows", err);
	if (int err = mlcc::load(skel.get()))
		fail("the kernel refused bpf/mlcc.bpf.o (a map pinned in /sys/fs/bpf/uno "
		     "by an older build? remove mlcc_ns_flows there)",
		     err);
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

constexpr const char *kNsMaps[] = { "mlcc_ns_cfg", "mlcc_ns_stats", "mlcc_dcis", "mlcc_pfq" };

TcRole ns_role(uint32_t role)
{
	return { MLCC_TC_HANDLE, static_cast<uint16_t>(MLCC_TC_PRIO + role),
		 lb_pin_root() + "/mlcc-" + mlcc_ns_role_name(role),
		 { "mlcc_dci_egress", "mlcc_dci_build", "mlcc_host_swint", "mlcc_pfq_egress",
		   "mlcc_pfq_ack" },
		 { std::begin(kNsMaps), std::end(kNsMaps) } };
}

struct NsSkelDelete {
	void operator()(::mlcc_ns *s) const { mlcc_ns::destroy(s); }
};
using NsSkel = std::unique_ptr<::mlcc_ns, NsSkelDelete>;

// Loaded, its maps at the role's size (what a role does not keep: one
// entry), a sender's flows the machine's shared ones.
NsSkel ns_load(const MlccNsConf &c)
{
	NsSkel skel(mlcc_ns::open());
	if (!skel)
		fail("opening bpf/mlcc_ns.bpf.o", errno);
	if (c.role == MLCC_NS_ROLE_SENDER) {
		if (int err = bpf_map__set_pin_path(skel->maps.mlcc_ns_flows,
						    mlcc_ns_shared_pin().c_str()))
			fail("pinning mlcc_ns_flows", err);
	} else {
		bpf_map__set_max_entries(skel->maps.mlcc_ns_flows, 1);
		bpf_map__set_max_entries(skel->maps.mlcc_dcis, 1);
	}
	if (c.role != MLCC_NS_ROLE_DCI_R)
		bpf_map__set_max_entries(skel->maps.mlcc_pfq, 1);
	if (int err = mlcc_ns::load(skel.get()))
		fail("the kernel refused bpf/mlcc_ns.bpf.o (a map pinned in /sys/fs/bpf/uno "
		     "by an older build? remove mlcc_ns_flows there)",
		     err);
	return skel;
}

void ns_configure(const NsSkel &skel, const MlccNsConf &c)
{
	mlcc_ns_cfg cfg = c.cfg;
	if (c.role == MLCC_NS_ROLE_DCI) {
		cfg.lan_ifindex = static_cast<uint32_t>(tc_ifindex<MlccError>(c.dev));
		if (!cfg.lan_addr)
			cfg.lan_addr = tc_ipv4_addr<MlccError>(c.dev, "the Switch-INTs");
	}
	const uint32_t zero = 0;
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.mlcc_ns_cfg), &zero, &cfg, BPF_ANY))
		fail("writing mlcc_ns_cfg", errno);
	const uint8_t one = 1;
	for (uint32_t dci : c.dcis)
		if (bpf_map_update_elem(bpf_map__fd(skel->maps.mlcc_dcis), &dci, &one, BPF_ANY))
			fail("writing mlcc_dcis", errno);
}

void ns_put(const NsSkel &skel, const MlccNsConf &c)
{
	const TcRole r = ns_role(c.role);
	if (c.role == MLCC_NS_ROLE_DCI) {
		tc_role_put<MlccError>(r, c.dev, BPF_TC_INGRESS, skel->progs.mlcc_dci_build);
		for (const auto &d : c.wan)
			tc_role_put<MlccError>(r, d, BPF_TC_EGRESS, skel->progs.mlcc_dci_egress);
	} else if (c.role == MLCC_NS_ROLE_DCI_R) {
		tc_role_put<MlccError>(r, c.dev, BPF_TC_EGRESS, skel->progs.mlcc_pfq_egress);
		tc_role_put<MlccError>(r, c.dev, BPF_TC_INGRESS, skel->progs.mlcc_pfq_ack);
	} else {
		tc_role_put<MlccError>(r, c.dev, BPF_TC_INGRESS, skel->progs.mlcc_host_swint);
	}
}

// The senders' rate records, machine-wide.
std::vector<MlccNsFlow> sender_flows()
{
	std::vector<MlccNsFlow> flows;
	const int fd = bpf_obj_get(mlcc_ns_shared_pin().c_str());
	if (fd < 0)
		return flows;
	bpf_map_for_each<mlcc_flow4, mlcc_ns_entry>(
		fd, [&](const mlcc_flow4 &k, const mlcc_ns_entry &e) {
			flows.push_back({ k, e.info });
		});
	close(fd);
	return flows;
}

MlccNsStatus ns_status(uint32_t role, const std::string &dir)
{
	MlccNsStatus s;
	s.role = role;
	const auto map_fd = [&](const char *m) { return bpf_obj_get((dir + "/" + m).c_str()); };
	const uint32_t zero = 0;
	int fd = map_fd("mlcc_ns_cfg");
	if (fd >= 0) {
		bpf_map_lookup_elem(fd, &zero, &s.cfg);
		close(fd);
	}
	if ((fd = map_fd("mlcc_ns_stats")) >= 0) {
		for (uint32_t i = 0; i < __MLCC_NS_STAT_MAX; i++)
			s.stats[i] = lb_percpu_sum(fd, i);
		close(fd);
	}
	if (role == MLCC_NS_ROLE_DCI_R && (fd = map_fd("mlcc_pfq")) >= 0) {
		bpf_map_for_each<mlcc_flow4, mlcc_pfq_entry>(
			fd, [&](const mlcc_flow4 &k, const mlcc_pfq_entry &e) {
				s.pfqs.push_back({ k, e.info });
			});
		close(fd);
	}
	if (role != MLCC_NS_ROLE_SENDER)
		return s;
	if ((fd = map_fd("mlcc_dcis")) >= 0) {
		bpf_map_for_each<uint32_t, uint8_t>(fd, [&](const uint32_t &k, uint8_t &) {
			s.dcis.push_back(k);
		});
		close(fd);
	}
	s.flows = sender_flows();
	return s;
}

} // namespace

void mlcc_conf_check(const MlccConf &c)
{
	if (c.cfg.remote_len > 32)
		throw MlccError("remote prefix length above 32");
	if (!c.cfg.rtt_d_ns || c.cfg.rtt_d_ns > HPCC_T_MAX)
		throw MlccError("rtt-d must be 1 ns to " + std::to_string(HPCC_T_MAX / 1000) +
				" us");
	if (c.cfg.hpcc_line_rate > HPCC_RATE_MAX)
		throw MlccError("hpcc-line-mbps above " + std::to_string(HPCC_RATE_MAX / 125000));
	if (const std::string err = mlcc_credit_error(c.cfg); !err.empty())
		throw MlccError(err);
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
		[MLCC_STAT_ECHO_WRITTEN] = "echo_written",
		[MLCC_STAT_ECHO_NO_ROOM] = "echo_no_room",
		[MLCC_STAT_ECHO_TAKEN] = "echo_taken",
		[MLCC_STAT_ECHO_NO_FLOW] = "echo_no_flow",
		[MLCC_STAT_ECHO_NO_RTT] = "echo_no_rtt",
		[MLCC_STAT_ECHO_MALFORMED] = "echo_malformed",
		[MLCC_STAT_CREDIT_SEGS] = "credit_segs",
		[MLCC_STAT_CREDIT_ROUNDS] = "credit_rounds",
		[MLCC_STAT_CREDIT_NO_STATE] = "credit_no_state",
		[MLCC_STAT_ACK_X_WRITTEN] = "ack_x_written",
		[MLCC_STAT_ACK_X_NO_ROOM] = "ack_x_no_room",
		[MLCC_STAT_ACK_X_TAKEN] = "ack_x_taken",
		[MLCC_STAT_ACK_X_NO_FLOW] = "ack_x_no_flow",
		[MLCC_STAT_ACK_X_MALFORMED] = "ack_x_malformed",
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
	if (s.cfg.hpcc_line_rate || s.cfg.credit_line_rate)
		s.senders = sender_flows();
	return s;
}

} // namespace uno

namespace uno {

const char *mlcc_ns_stat_name(uint32_t stat)
{
	static const char *const names[__MLCC_NS_STAT_MAX] = {
		[MLCC_NS_STAT_DCI_DATA] = "dci_data",
		[MLCC_NS_STAT_DCI_CLONE_ERR] = "dci_clone_err",
		[MLCC_NS_STAT_DCI_CLEARED] = "dci_cleared",
		[MLCC_NS_STAT_SWINT_BUILT] = "swint_built",
		[MLCC_NS_STAT_SWINT_BUILD_ERR] = "swint_build_err",
		[MLCC_NS_STAT_SWINT_NO_ROUTE] = "swint_no_route",
		[MLCC_NS_STAT_SWINT_TAKEN] = "swint_taken",
		[MLCC_NS_STAT_SWINT_NO_FLOW] = "swint_no_flow",
		[MLCC_NS_STAT_SWINT_MALFORMED] = "swint_malformed",
		[MLCC_NS_STAT_SWINT_FOREIGN] = "swint_foreign",
		[MLCC_NS_STAT_PFQ_DATA] = "pfq_data",
		[MLCC_NS_STAT_PFQ_DROPS] = "pfq_drops",
		[MLCC_NS_STAT_PFQ_REWRITE_ERR] = "pfq_rewrite_err",
		[MLCC_NS_STAT_PFQ_FULL] = "pfq_full",
		[MLCC_NS_STAT_PFQ_CLOSED] = "pfq_closed",
		[MLCC_NS_STAT_PFQ_ACK_X] = "pfq_ack_x",
		[MLCC_NS_STAT_PFQ_ACK_NO_FLOW] = "pfq_ack_no_flow",
		[MLCC_NS_STAT_PFQ_ACK_MALFORMED] = "pfq_ack_malformed",
	};
	return stat < __MLCC_NS_STAT_MAX && names[stat] ? names[stat] : "?";
}

std::string mlcc_ns_shared_pin()
{
	return "/sys/fs/bpf/uno/mlcc_ns_flows";
}

void mlcc_ns_conf_check(const MlccNsConf &c)
{
	if (const std::string err = mlcc_ns_conf_error(c); !err.empty())
		throw MlccError(err);
	tc_ifindex<MlccError>(c.dev);
	for (const auto &d : c.wan)
		tc_ifindex<MlccError>(d);
}

void mlcc_ns_attach(const MlccNsConf &c)
{
	mlcc_ns_conf_check(c);
	tc_make_dir<MlccError>("/sys/fs/bpf/uno");
	tc_make_dir<MlccError>(lb_pin_root());
	NsSkel skel = ns_load(c);
	ns_configure(skel, c);
	mlcc_ns_detach(c.role);
	try {
		tc_role_pin<MlccError>(ns_role(c.role), skel->obj);
		ns_put(skel, c);
	} catch (...) {
		mlcc_ns_detach(c.role);
		throw;
	}
}

void mlcc_ns_detach(uint32_t role)
{
	tc_role_remove<MlccError>(ns_role(role));
}

std::vector<MlccNsStatus> mlcc_ns_status()
{
	std::vector<MlccNsStatus> all;
	for (uint32_t role = 0; role < __MLCC_NS_ROLE_MAX; role++) {
		const std::string dir = ns_role(role).dir;
		struct stat st;
		if (!stat(dir.c_str(), &st))
			all.push_back(ns_status(role, dir));
	}
	return all;
}

} // namespace uno
