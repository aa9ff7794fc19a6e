// SPDX-License-Identifier: GPL-2.0
//
// unoctl mlcc: MLCC's sockops datapath (userspace/bpf/mlcc_datapath.h),
// its settings from the command line and its state as shown.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mlcc_datapath.h"

namespace unoctl {

// KEY VALUE pairs (cgroup PATH, remote A.B.C.D/LEN, rtt-d-us N,
// hpcc-line-mbps N) into c, over MlccConf's defaults: an error message, or
// "".
std::string mlcc_parse(uno::MlccConf &c, const std::vector<std::string> &args);

// A near-source role's KEY VALUE pairs into c (its role set), over zero
// settings: dci: lan DEV, wan DEV (repeated), addr A.B.C.D; sender: dev
// DEV, dci A.B.C.D (repeated), line-mbps N, rtt-ns-us N. An error
// message, or "".
std::string mlcc_ns_parse(uno::MlccNsConf &c, const std::vector<std::string> &args);

// "attached", "cgroup_id", "remote", "rtt_d_us", "counters" (enum
// mlcc_stat) and "flows": each received flow's segments, those with the
// option, by records carried ("nhop"), "overflow", HPCC's "u" and its
// last records decoded ("hops": qlen and tx in bytes, ts in ns, the
// port's rate in bit/s); "near_source": this namespace's roles of the
// near-source loop, each with its "role", settings, "counters" (enum
// mlcc_ns_stat) and, for a sender, "flows": each flow's Switch-INTs,
// round commits, R_NS ("r_ns_bps"), U and last records.
nlohmann::json mlcc_json(const uno::MlccStatus &s, const std::vector<uno::MlccNsStatus> &ns);
std::string mlcc_text(const uno::MlccStatus &s, const std::vector<uno::MlccNsStatus> &ns);

} // namespace unoctl
