// SPDX-License-Identifier: GPL-2.0
//
// The entropy datapath (bpf/lb.bpf.c) on a device, for its loaders: unod
// attaches, reconfigures and detaches it from [[lb]], unoctl reads and
// removes it.
//
// A device's datapath outlives its loader, as a qdisc does: its two
// programs stay on the clsact as tc filters (handle LB_TC_HANDLE, priority
// LB_TC_PRIO), and its programs and maps are pinned in
// /sys/fs/bpf/uno/<netns>/<dev>/, <netns> the inode of the network
// namespace, so that each namespace's datapaths are apart in the one bpf
// filesystem. Run a loader for another namespace with nsenter --net:
// 'ip netns exec' mounts a /sys of its own, without that filesystem.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "config.h"
#include "uapi/uno_lb.h"

namespace uno {

struct LbError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

// /sys/fs/bpf/uno/<netns>: this namespace's datapaths.
std::string lb_pin_root();
// The devices with a datapath pinned in this namespace.
std::vector<std::string> lb_pinned_devices();

// Puts the datapath on c.dev, or changes its configuration in place: the
// maps pinned for the device (its flows, its counters) are kept, the
// programs loaded again and swapped in on the clsact (made if there is
// none). A change of mode, num_ev or ev_base starts every flow over.
void lb_attach(const LbConf &c);
// Takes it off: its filters, its pins, and the clsact if nothing else is
// on it. Nothing to do is not an error.
void lb_detach(const std::string &dev);

struct LbStatus {
	std::string dev;
	lb_cfg cfg = {};
	// by protocol (IPPROTO_UDP, IPPROTO_TCP) and destination port
	std::map<std::pair<uint8_t, uint16_t>, lb_policy_val> policies;
	std::array<uint64_t, __LB_STAT_MAX> stats = {};
	std::map<uint16_t, uint64_t> ev_hist; // packets per EV, EVs used only
	uint32_t flows = 0;
	uint32_t egress_prog = 0; // ids of the programs on the clsact; 0: none
	uint32_t ingress_prog = 0;
};
LbStatus lb_status(const std::string &dev);

const char *lb_stat_name(uint32_t stat); // "pkts_seen"

// The sum of a per-CPU u64 counter, or 0 if there is no such key.
uint64_t lb_percpu_sum(int map_fd, uint32_t key);

} // namespace uno
