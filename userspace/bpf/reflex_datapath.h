// SPDX-License-Identifier: GPL-2.0
//
// Reflex's datapath (bpf/reflex.bpf.c) in a namespace, for its loader
// (unoctl reflex): the stamp on a leaf's host ports, NSF on a gateway's
// WAN and LAN ports, the pseudo-ACKs' acceptance on a sender's device.
//
// Each role is one load of the object. Its programs stay on the devices'
// clsacts as tc filters (handle RFX_TC_HANDLE, priority RFX_TC_PRIO + the
// role, so that two roles may share a port in a test), and
// its maps are pinned in /sys/fs/bpf/uno/<netns>/reflex-<role>/ so that
// unoctl reads them later. The sockets' mailboxes and the flows' records
// that the struct_ops CCs share with the host role are pinned once for
// the whole machine (rfx_shared_pin()), as the CCs are registered once.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "config.h"
#include "uapi/uno_reflex.h"

namespace uno {

struct RfxError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

constexpr uint32_t RFX_TC_HANDLE = 2;
constexpr uint16_t RFX_TC_PRIO = 0x5246;

const char *rfx_stat_name(uint32_t stat); // "nsf_packs"

// /sys/fs/bpf/uno/<name>: a map every object of the CCs and the host role
// reuses ("rfx_sk", "rfx_flows").
std::string rfx_shared_pin(const std::string &map);

// Checks c (rfx_conf_error(), and that its devices exist): an RfxError
// says what is wrong, and nothing has changed.
void rfx_conf_check(const RfxConf &c);

// Puts the role on its devices in this namespace, replacing what the role
// had here.
void rfx_attach(const RfxConf &c);

// Takes the role off every device of this namespace, and its pins.
// Nothing to do is not an error.
void rfx_detach(uint32_t role);

struct RfxNsfFlow {
	rfx_flow4 key;
	uint8_t state;
	uint32_t fb_seq;
	uint64_t first_pack_ns;
	uint64_t pack_ns;
};

struct RfxHostFlow {
	rfx_flow4 key;
	rfx_flow_info info;
};

struct RfxStatus {
	uint32_t role;
	rfx_cfg cfg = {};
	std::array<uint64_t, __RFX_STAT_MAX> stats = {};
	std::vector<rfx_prefix4> prefixes;   // gateway: the stamped hosts
	std::vector<RfxNsfFlow> nsf_flows;   // gateway
	std::vector<RfxHostFlow> host_flows; // host: the CCs' records
};

// The roles attached in this namespace, with their state.
std::vector<RfxStatus> rfx_status();

} // namespace uno
