// SPDX-License-Identifier: GPL-2.0
#include "lb_datapath.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <net/if.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <linux/magic.h>
#include <linux/pkt_sched.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <tuple>

#include <bpf/bpf.h>

#include "lb.skel.h"
#include "socket.h"
#include "uno_fd.h"

namespace uno {
namespace {

constexpr const char *kBpffs = "/sys/fs/bpf";
constexpr const char *kMaps[] = { "lb_cfg",   "lb_policy",  "lb_flows",
				  "lb_stats", "lb_ev_hist", "lb_txlogs" };
constexpr const char *kProgs[] = { "lb_egress", "lb_ingress" };
// An empty directory among the pins: the clsact is the datapath's, made
// when it was attached.
constexpr const char *kOwnClsact = "clsact";

[[noreturn]] void fail(const std::string &what, int err)
{
	throw LbError(what + ": " + std::strerror(err));
}

// A name the kernel would take for a device (dev_valid_name()): it is a
// path component of the pins, so "..", or a name with a '/', must never
// reach the file system.
bool dev_name_valid(const std::string &dev)
{
	return !dev.empty() && dev.size() < IFNAMSIZ && dev != "." && dev != ".." &&
	       dev.find_first_of("/: \t\n") == std::string::npos;
}

std::string pin_dir(const std::string &dev)
{
	if (!dev_name_valid(dev))
		throw LbError("'" + dev + "' is not a device name");
	return lb_pin_root() + "/" + dev;
}

void make_dir(const std::string &path)
{
	if (mkdir(path.c_str(), 0700) && errno != EEXIST)
		fail("mkdir " + path, errno);
}

// The pin directory of `dev`, made if need be, on a bpf filesystem.
std::string make_pin_dir(const std::string &dev)
{
	struct statfs fs;
	if (statfs(kBpffs, &fs) || fs.f_type != BPF_FS_MAGIC)
		throw LbError(std::string("no bpf filesystem at ") + kBpffs +
			    " (mount -t bpf bpf /sys/fs/bpf; under 'ip netns exec', use "
			    "nsenter --net instead)");
	make_dir(std::string(kBpffs) + "/uno");
	make_dir(lb_pin_root());
	make_dir(pin_dir(dev));
	return pin_dir(dev);
}

void unpin_all(const std::string &dir)
{
	for (const char *name : kMaps)
		unlink((dir + "/" + name).c_str());
	for (const char *name : kProgs)
		unlink((dir + "/" + name).c_str());
}

int ifindex_of(const std::string &dev)
{
	const int ifindex = static_cast<int>(if_nametoindex(dev.c_str()));
	if (!ifindex)
		throw LbError("device " + dev + ": no such device");
	return ifindex;
}

bpf_tc_hook clsact(int ifindex, bpf_tc_attach_point point)
{
	bpf_tc_hook h = {};
	h.sz = sizeof(h);
	h.ifindex = ifindex;
	h.attach_point = point;
	return h;
}

bpf_tc_opts our_filter(int prog_fd = 0, uint32_t flags = 0)
{
	bpf_tc_opts o = {};
	o.sz = sizeof(o);
	o.handle = LB_TC_HANDLE;
	o.priority = LB_TC_PRIO;
	o.prog_fd = prog_fd;
	o.flags = flags;
	return o;
}

// libbpf quiet while it asks for what may not be there: a filter or a
// clsact missing is an answer, not an error to print.
class QuietLibbpf {
public:
	QuietLibbpf() : prev_(libbpf_set_print(nullptr)) {}
	~QuietLibbpf() { libbpf_set_print(prev_); }
	QuietLibbpf(const QuietLibbpf &) = delete;
	QuietLibbpf &operator=(const QuietLibbpf &) = delete;

private:
	libbpf_print_fn_t prev_;
};

// The id of the program our filter runs at `point`; 0 if none.
uint32_t attached_prog(int ifindex, bpf_tc_attach_point point)
{
	const bpf_tc_hook h = clsact(ifindex, point);
	bpf_tc_opts o = our_filter();
	const QuietLibbpf quiet;
	return bpf_tc_query(&h, &o) ? 0 : o.prog_id;
}

// Removes our filters, and the clsact if we made it (`owned`) and nothing
// else is on it.
void tc_detach(int ifindex, bool owned)
{
	for (auto point : { BPF_TC_EGRESS, BPF_TC_INGRESS }) {
		const bpf_tc_hook h = clsact(ifindex, point);
		const bpf_tc_opts o = our_filter();
		const QuietLibbpf quiet;
		const int err = bpf_tc_detach(&h, &o);
		if (err && err != -ENOENT && err != -EINVAL)
			fail("removing the filter from clsact", -err);
	}
	if (!owned)
		return;
	const uint32_t ingress = TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS);
	const uint32_t egress = TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_EGRESS);
	try {
		if (tc_filter_count(ifindex, ingress) || tc_filter_count(ifindex, egress))
			return;
	} catch (const NlError &) {
		return; // no clsact
	}
	bpf_tc_hook h = clsact(ifindex, static_cast<bpf_tc_attach_point>(BPF_TC_INGRESS |
									  BPF_TC_EGRESS));
	bpf_tc_hook_destroy(&h);
}

bool has_clsact(int ifindex)
{
	try {
		for (const auto &q : qdisc_dump())
			if (q.ifindex == ifindex && q.parent == TC_H_CLSACT && q.kind == "clsact")
				return true;
	} catch (const NlError &e) {
		throw LbError(std::string("listing qdiscs: ") + e.what());
	}
	return false;
}

// Both programs on the clsact, made if there is none; whether we made it.
bool tc_attach(int ifindex, int egress_fd, int ingress_fd)
{
	bpf_tc_hook h = clsact(ifindex, static_cast<bpf_tc_attach_point>(BPF_TC_INGRESS |
									  BPF_TC_EGRESS));
	const bool made = !has_clsact(ifindex);
	int err = made ? bpf_tc_hook_create(&h) : 0;
	if (err)
		fail("creating clsact", -err);
	for (auto [point, fd] : { std::pair{ BPF_TC_EGRESS, egress_fd },
				  std::pair{ BPF_TC_INGRESS, ingress_fd } }) {
		const bpf_tc_hook hp = clsact(ifindex, point);
		bpf_tc_opts o = our_filter(fd, BPF_TC_F_REPLACE);
		if ((err = bpf_tc_attach(&hp, &o))) {
			if (made)
				tc_detach(ifindex, true);
			fail("attaching to clsact", -err);
		}
	}
	return made;
}

void clear_map(int fd, size_t key_size)
{
	std::vector<uint8_t> key(key_size);
	while (!bpf_map_get_next_key(fd, nullptr, key.data()))
		if (bpf_map_delete_elem(fd, key.data()))
			break;
}

// The TCP ports' mode in a policy map, if it has any.
std::optional<uint32_t> tcp_mode_of(int pol_fd)
{
	lb_policy_key k, next;
	for (const lb_policy_key *prev = nullptr; !bpf_map_get_next_key(pol_fd, prev, &next);
	     prev = &k) {
		k = next;
		lb_policy_val v;
		if (k.proto == IPPROTO_TCP && !bpf_map_lookup_elem(pol_fd, &k, &v))
			return v.mode_override;
	}
	return std::nullopt;
}

// The configuration and the ports into the (maybe reused) maps.
void configure(::lb *skel, const LbConf &c)
{
	const int cfg_fd = bpf_map__fd(skel->maps.lb_cfg);
	const int pol_fd = bpf_map__fd(skel->maps.lb_policy);
	const uint32_t zero = 0;
	lb_cfg old = {};

	bpf_map_lookup_elem(cfg_fd, &zero, &old);
	if (old.num_ev && (old.mode != c.cfg.mode || old.num_ev != c.cfg.num_ev ||
			   old.ev_base != c.cfg.ev_base)) {
		clear_map(bpf_map__fd(skel->maps.lb_flows), sizeof(lb_flow_key));
		clear_map(bpf_map__fd(skel->maps.lb_txlogs), sizeof(lb_flow_key));
	}
	if (bpf_map_update_elem(cfg_fd, &zero, &c.cfg, BPF_ANY))
		fail("writing lb_cfg", errno);
	// A new TCP mode: no TCP flow's sequence log is the new mode's.
	if (const auto old_tcp = tcp_mode_of(pol_fd); old_tcp && *old_tcp != c.tcp_mode)
		clear_map(bpf_map__fd(skel->maps.lb_txlogs), sizeof(lb_flow_key));
	clear_map(pol_fd, sizeof(lb_policy_key));
	const lb_policy_val udp = { .mode_override = __LB_MODE_MAX,
				    .flags = c.require_shim ? LB_POLICY_REQUIRE_SHIM : 0U };
	const lb_policy_val tcp = { .mode_override = c.tcp_mode, .flags = 0 };
	for (const auto &[proto, ports, v] : { std::tuple{ IPPROTO_UDP, &c.ports, udp },
					       std::tuple{ IPPROTO_TCP, &c.tcp_ports, tcp } })
		for (uint16_t port : *ports) {
			lb_policy_key k = {};
			k.proto = static_cast<uint8_t>(proto);
			k.dport = htons(port);
			if (bpf_map_update_elem(pol_fd, &k, &v, BPF_ANY))
				fail("writing lb_policy", errno);
		}
}

struct SkelDeleter {
	void operator()(::lb *s) const { lb__destroy(s); }
};
using Skel = std::unique_ptr<::lb, SkelDeleter>;

// The skeleton loaded, its maps those pinned in `dir` if they fit it.
Skel load(const std::string &dir)
{
	for (int attempt = 0;; attempt++) {
		Skel skel(lb__open());
		if (!skel)
			fail("opening bpf/lb.bpf.c", errno);
		bpf_map *m;
		// The state and the settings; the programs' own constants
		// (.rodata) are loaded with them each time.
		bpf_object__for_each_map(m, skel->obj)
			if (!bpf_map__is_internal(m))
				bpf_map__set_pin_path(m, (dir + "/" + bpf_map__name(m)).c_str());
		const int err = lb__load(skel.get());
		if (!err)
			return skel;
		// Maps pinned by another build of the programs: start over.
		if (err != -EINVAL || attempt)
			fail("loading bpf/lb.bpf.c", -err);
		unpin_all(dir);
	}
}

void pin_progs(::lb *skel, const std::string &dir)
{
	bpf_program *p;
	bpf_object__for_each_program(p, skel->obj) {
		const std::string path = dir + "/" + bpf_program__name(p);
		unlink(path.c_str());
		if (const int err = bpf_program__pin(p, path.c_str()))
			fail("pinning " + path, -err);
	}
}

Fd pinned(const std::string &dev, const char *name)
{
	const std::string path = pin_dir(dev) + "/" + name;
	const int fd = bpf_obj_get(path.c_str());
	if (fd < 0)
		throw LbError("no datapath on " + dev + " in this namespace (" + path + ": " +
			    std::strerror(errno) + ")");
	return Fd(fd);
}

// The id of a pinned program; 0 if none.
uint32_t pinned_prog(const std::string &dir, const char *name)
{
	const Fd fd(bpf_obj_get((dir + "/" + name).c_str()));
	bpf_prog_info info = {};
	uint32_t len = sizeof(info);
	if (!fd || bpf_obj_get_info_by_fd(fd.get(), &info, &len))
		return 0;
	return info.id;
}

} // namespace

std::string lb_pin_root()
{
	struct stat st;
	if (stat("/proc/self/ns/net", &st))
		fail("/proc/self/ns/net", errno);
	return std::string(kBpffs) + "/uno/" + std::to_string(st.st_ino);
}

std::vector<std::string> lb_pinned_devices()
{
	std::vector<std::string> devs;
	DIR *d = opendir(lb_pin_root().c_str());
	if (!d)
		return devs;
	while (const dirent *e = readdir(d))
		if (e->d_type == DT_DIR && e->d_name[0] != '.')
			devs.emplace_back(e->d_name);
	closedir(d);
	std::sort(devs.begin(), devs.end());
	return devs;
}

void lb_attach(const LbConf &c)
{
	const int ifindex = ifindex_of(c.dev);
	/*
	 * Pins whose program is not the one on the device are another's: of
	 * a namespace deleted with its datapath on, whose inode this one
	 * got, or of a datapath whose filter someone removed. Start over.
	 */
	const uint32_t pinned = pinned_prog(pin_dir(c.dev), "lb_egress");
	const bool fresh = !pinned || pinned != attached_prog(ifindex, BPF_TC_EGRESS);
	if (fresh) {
		unpin_all(pin_dir(c.dev));
		rmdir((pin_dir(c.dev) + "/" + kOwnClsact).c_str());
	}
	const std::string dir = make_pin_dir(c.dev);
	try {
		Skel skel = load(dir);
		configure(skel.get(), c);
		pin_progs(skel.get(), dir);
		if (tc_attach(ifindex, bpf_program__fd(skel->progs.lb_egress),
			      bpf_program__fd(skel->progs.lb_ingress)))
			make_dir(dir + "/" + kOwnClsact);
	} catch (const LbError &) {
		if (fresh) // leave nothing of a datapath that never ran
			lb_detach(c.dev);
		throw;
	}
}

void lb_detach(const std::string &dev)
{
	const std::string dir = pin_dir(dev);
	const std::string owned = dir + "/" + kOwnClsact;
	struct stat st;
	if (const int ifindex = static_cast<int>(if_nametoindex(dev.c_str())))
		tc_detach(ifindex, !stat(owned.c_str(), &st));
	rmdir(owned.c_str());
	unpin_all(dir);
	if (rmdir(dir.c_str()) && errno != ENOENT)
		fail("rmdir " + dir, errno);
	// The namespace's last datapath, and the last namespace's.
	if (!rmdir(lb_pin_root().c_str()))
		rmdir((std::string(kBpffs) + "/uno").c_str());
}

LbStatus lb_status(const std::string &dev)
{
	LbStatus s;
	s.dev = dev;
	const Fd cfg = pinned(dev, "lb_cfg"), pol = pinned(dev, "lb_policy");
	const Fd flows = pinned(dev, "lb_flows"), stats = pinned(dev, "lb_stats");
	const Fd hist = pinned(dev, "lb_ev_hist");
	const uint32_t zero = 0;
	bpf_map_lookup_elem(cfg.get(), &zero, &s.cfg);
	lb_policy_key k, next;
	for (const lb_policy_key *prev = nullptr;
	     !bpf_map_get_next_key(pol.get(), prev, &next); prev = &k) {
		k = next;
		lb_policy_val v;
		if (!bpf_map_lookup_elem(pol.get(), &k, &v))
			s.policies[{ k.proto, ntohs(k.dport) }] = v;
	}
	lb_flow_key fk, fnext;
	for (const lb_flow_key *prev = nullptr;
	     !bpf_map_get_next_key(flows.get(), prev, &fnext); prev = &fk) {
		fk = fnext;
		s.flows++;
	}
	for (uint32_t i = 0; i < __LB_STAT_MAX; i++)
		s.stats[i] = lb_percpu_sum(stats.get(), i);
	for (uint32_t ev = 0; ev < s.cfg.num_ev && ev < LB_MAX_EV; ev++)
		if (const uint64_t n = lb_percpu_sum(hist.get(), ev))
			s.ev_hist[static_cast<uint16_t>(ev)] = n;
	if (const int ifindex = static_cast<int>(if_nametoindex(dev.c_str()))) {
		s.egress_prog = attached_prog(ifindex, BPF_TC_EGRESS);
		s.ingress_prog = attached_prog(ifindex, BPF_TC_INGRESS);
	}
	return s;
}

const char *lb_stat_name(uint32_t stat)
{
	static const char *const names[__LB_STAT_MAX] = {
		"pkts_seen",	   "pkts_rewritten",	"parse_skips", "flows_created",
		"flow_table_full", "acks_parsed",	"acks_unknown_flow",
		"tx_explore",	   "tx_cached",		"fb_good",     "fb_ce",
		"fb_nack",	   "fb_ignored",	"plb_rehashes", "txlog_acked",
		"txlog_withheld",  "txlog_overwritten",
	};
	return stat < __LB_STAT_MAX ? names[stat] : "?";
}

uint64_t lb_percpu_sum(int map_fd, uint32_t key)
{
	std::vector<uint64_t> v(static_cast<size_t>(libbpf_num_possible_cpus()));
	if (bpf_map_lookup_elem(map_fd, &key, v.data()))
		return 0;
	uint64_t sum = 0;
	for (uint64_t x : v)
		sum += x;
	return sum;
}

} // namespace uno
