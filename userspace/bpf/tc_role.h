// SPDX-License-Identifier: GPL-2.0
//
// A role of a BPF object in a network namespace: its programs as tc
// filters on the namespace's devices (one handle, one priority per role,
// so that roles may share a port), its programs and maps pinned in one
// directory, so that a later command finds and removes them. Reflex's
// datapath (reflex_datapath.cc) and MLCC's near-source loop
// (mlcc_datapath.cc) put their roles this way; Err is the exception type
// each throws.
#pragma once

#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

namespace uno {

struct TcRole {
	uint32_t handle;
	uint16_t prio;
	std::string dir;		// where its pins are
	std::vector<const char *> progs; // the object's programs, by name
	std::vector<const char *> maps;	 // the maps it pins, by name
};

template <typename Err> [[noreturn]] void tc_fail(const std::string &what, int err)
{
	throw Err(what + ": " + std::strerror(err < 0 ? -err : err));
}

template <typename Err> void tc_make_dir(const std::string &path)
{
	if (mkdir(path.c_str(), 0700) && errno != EEXIST)
		tc_fail<Err>("mkdir " + path, errno);
}

template <typename Err> int tc_ifindex(const std::string &dev)
{
	const int ifindex = static_cast<int>(if_nametoindex(dev.c_str()));
	if (!ifindex)
		throw Err("device " + dev + ": no such device");
	return ifindex;
}

// The first IPv4 address of dev, network order; Err says what it was for
// if there is none.
template <typename Err> uint32_t tc_ipv4_addr(const std::string &dev, const std::string &what)
{
	ifaddrs *ifa = nullptr;
	if (getifaddrs(&ifa))
		tc_fail<Err>("listing addresses", errno);
	uint32_t addr = 0;
	for (ifaddrs *i = ifa; i && !addr; i = i->ifa_next)
		if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET && dev == i->ifa_name)
			addr = reinterpret_cast<sockaddr_in *>(i->ifa_addr)->sin_addr.s_addr;
	freeifaddrs(ifa);
	if (!addr)
		throw Err("device " + dev + " has no IPv4 address for " + what);
	return addr;
}

inline bpf_tc_hook tc_hook(int ifindex, bpf_tc_attach_point point)
{
	bpf_tc_hook h = {};
	h.sz = sizeof(h);
	h.ifindex = ifindex;
	h.attach_point = point;
	return h;
}

inline bpf_tc_opts tc_role_filter(const TcRole &r, int prog_fd = 0, uint32_t flags = 0)
{
	bpf_tc_opts o = {};
	o.sz = sizeof(o);
	o.handle = r.handle;
	o.priority = r.prio;
	o.prog_fd = prog_fd;
	o.flags = flags;
	return o;
}

// prog on dev's clsact at point as r's filter, a clsact made if there is
// none.
template <typename Err>
void tc_role_put(const TcRole &r, const std::string &dev, bpf_tc_attach_point point,
		 const bpf_program *prog)
{
	bpf_tc_hook h = tc_hook(tc_ifindex<Err>(dev), point);
	const libbpf_print_fn_t prev = libbpf_set_print(nullptr);
	int err = bpf_tc_hook_create(&h); // EEXIST: there is one
	libbpf_set_print(prev);
	if (err && err != -EEXIST)
		tc_fail<Err>(dev + ": creating clsact", err);
	bpf_tc_opts o = tc_role_filter(r, bpf_program__fd(prog), BPF_TC_F_REPLACE);
	if ((err = bpf_tc_attach(&h, &o)))
		tc_fail<Err>(dev + ": attaching " + bpf_program__name(prog), err);
}

// Whether the program of id is one r pinned.
inline bool tc_role_owns(const TcRole &r, uint32_t id)
{
	bool ours = false;
	for (const char *p : r.progs) {
		const int fd = bpf_obj_get((r.dir + "/" + p).c_str());
		if (fd < 0)
			continue;
		bpf_prog_info info = {};
		uint32_t len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && info.id == id)
			ours = true;
		close(fd);
	}
	return ours;
}

// r's filters off every device of the namespace where they run a program
// r pinned, then its pins.
template <typename Err> void tc_role_remove(const TcRole &r)
{
	struct if_nameindex *ifs = if_nameindex();
	if (!ifs)
		tc_fail<Err>("listing devices", errno);
	const libbpf_print_fn_t prev = libbpf_set_print(nullptr);
	for (struct if_nameindex *i = ifs; i->if_index; i++) {
		for (auto point : { BPF_TC_EGRESS, BPF_TC_INGRESS }) {
			bpf_tc_hook h = tc_hook(static_cast<int>(i->if_index), point);
			bpf_tc_opts o = tc_role_filter(r);
			if (bpf_tc_query(&h, &o) || !tc_role_owns(r, o.prog_id))
				continue;
			o = tc_role_filter(r);
			bpf_tc_detach(&h, &o);
		}
	}
	libbpf_set_print(prev);
	if_freenameindex(ifs);
	for (const char *m : r.maps)
		unlink((r.dir + "/" + m).c_str());
	for (const char *p : r.progs)
		unlink((r.dir + "/" + p).c_str());
	rmdir(r.dir.c_str());
}

// obj's programs and r's maps pinned in r.dir, which is made (its parent
// must exist).
template <typename Err> void tc_role_pin(const TcRole &r, bpf_object *obj)
{
	tc_make_dir<Err>(r.dir);
	for (const char *m : r.maps) {
		bpf_map *map = bpf_object__find_map_by_name(obj, m);
		if (int err = bpf_map__pin(map, (r.dir + "/" + m).c_str()))
			tc_fail<Err>(std::string("pinning ") + m, err);
	}
	bpf_program *prog;
	bpf_object__for_each_program(prog, obj)
		if (int err = bpf_program__pin(prog, (r.dir + "/" + bpf_program__name(prog)).c_str()))
			tc_fail<Err>(std::string("pinning ") + bpf_program__name(prog), err);
}

} // namespace uno
