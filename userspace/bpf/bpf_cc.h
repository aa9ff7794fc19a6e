// SPDX-License-Identifier: GPL-2.0
//
// The BPF struct_ops congestion controls of bpf/ (bpf_swift, bpf_timely), for kernels
// that load no modules, and the hosts of Reflex's near-source samples.
// Each runs the law of one of our modules with that module's parameters:
// the same names, units and ranges (libuno's table of tcp_<cc>), written
// into the object before it is loaded, so a change of parameters is a
// new registration.
//
// A registered CC stays registered after its loader exits (6.1 has no
// struct_ops links; the kernel holds the map), until bpf_cc_unregister().
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

namespace uno {

struct BpfCcError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

// The BPF hosts' own parameter, not the module's: 0 (the default) runs
// the law end to end; otherwise a flow whose handshake RTT is above this
// many us takes its samples from Reflex's pseudo-ACKs only
// (bpf/reflex_cc.h), and every flow is recorded in rfx_flows.
constexpr const char *kReflexInterRttParam = "reflex_inter_rtt_us";
constexpr uint32_t kReflexInterRttMax = 4000000;

// "swift", "timely": the laws with a BPF host.
bool bpf_cc_known(const std::string &cc);
// "bpf_swift": the tcp_congestion_ops name of its BPF host.
std::string bpf_cc_name(const std::string &cc);

// Registers cc's BPF host with params (raw names of tcp_<cc>, checked
// against the module's ranges and against each other; the rest take the
// module's defaults). Refused, with nothing registered, if one is already.
void bpf_cc_register(const std::string &cc, const std::map<std::string, uint32_t> &params);
// Unregisters it; sockets that run it keep it until they close.
void bpf_cc_unregister(const std::string &cc);

} // namespace uno
