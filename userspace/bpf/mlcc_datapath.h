// SPDX-License-Identifier: GPL-2.0
//
// MLCC's sockops program (bpf/mlcc.bpf.c) on a cgroup, for its loader
// (unoctl mlcc): senders to the remote prefix write the INT data option,
// receivers read it and run R_credit's measurement on its records.
//
// A cgroup's programs act on sockets whatever their namespace, so the
// datapath is one for the machine: its program, maps and cgroup link are
// pinned in /sys/fs/bpf/uno/mlcc/, and removing the link's pin detaches
// it.
//
// The tc roles (bpf/mlcc_ns.bpf.c) are per namespace, as Reflex's
// (tc_role.h): DCI_s on its WAN and LAN ports, a sender on its device,
// DCI_r on its LAN port, pinned in /sys/fs/bpf/uno/<netns>/mlcc-<role>/. The senders'
// flows, which bpf_mlcc (bpf_cc.h) reads, are pinned once for the machine
// (mlcc_ns_shared_pin()).
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "config.h" // MlccConf
#include "uapi/uno_mlcc.h"

namespace uno {

struct MlccError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

const char *mlcc_stat_name(uint32_t stat); // "opt_written"

// Checks c: an MlccError says what is wrong (a prefix length above 32, an
// rtt-d out of 1 ns..HPCC_T_MAX, an HPCC line rate above HPCC_RATE_MAX,
// the credit loop's constants (mlcc_credit_error()), a cgroup that is not
// a directory).
void mlcc_conf_check(const MlccConf &c);

// Attaches the program to c.cgroup with c.cfg, then takes off the
// datapath there was. An MlccError says what is wrong; nothing has
// changed then, but for a failure to move the new pins into place.
void mlcc_attach(const MlccConf &c);

// Detaches it and removes its pins. Nothing to do is not an error.
void mlcc_detach();

struct MlccRxFlow {
	mlcc_flow4 key;
	mlcc_rx_info info;
};

struct MlccNsFlow {
	mlcc_flow4 key;
	mlcc_ns_info info;
};

struct MlccStatus {
	bool attached = false;
	uint64_t cgroup_id = 0;
	mlcc_cfg cfg = {};
	std::array<uint64_t, __MLCC_STAT_MAX> stats = {};
	std::vector<MlccRxFlow> flows;
	std::vector<MlccNsFlow> senders; // HPCC end to end, credit loop: the rate records
};

MlccStatus mlcc_status();

constexpr uint32_t MLCC_TC_HANDLE = 3;
constexpr uint16_t MLCC_TC_PRIO = 0x4d4c;

const char *mlcc_ns_stat_name(uint32_t stat); // "swint_built"

// /sys/fs/bpf/uno/mlcc_ns_flows: the senders' flows, shared by the
// sender role and bpf_mlcc.
std::string mlcc_ns_shared_pin();

// Checks c (mlcc_ns_conf_error(), and that its devices exist): an
// MlccError says what is wrong, and nothing has changed.
void mlcc_ns_conf_check(const MlccNsConf &c);

// Puts the role on its devices in this namespace, replacing what the role
// had here.
void mlcc_ns_attach(const MlccNsConf &c);

// Takes the role off every device of this namespace, and its pins.
// Nothing to do is not an error.
void mlcc_ns_detach(uint32_t role);

struct MlccPfq {
	mlcc_flow4 key;
	mlcc_pfq_info info;
};

struct MlccNsStatus {
	uint32_t role;
	mlcc_ns_cfg cfg = {};
	std::array<uint64_t, __MLCC_NS_STAT_MAX> stats = {};
	std::vector<uint32_t> dcis;    // sender
	std::vector<MlccNsFlow> flows; // sender: every sender's, machine-wide
	std::vector<MlccPfq> pfqs;     // dcir
};

// The tc roles attached in this namespace, with their state.
std::vector<MlccNsStatus> mlcc_ns_status();

} // namespace uno
