// SPDX-License-Identifier: GPL-2.0
//
// unoctl lb show: the entropy datapath of a device (bpf/lb.bpf.c), as its
// pinned maps hold it (userspace/bpf/lb_datapath.h).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "lb_datapath.h"

namespace unoctl {

// "dev", the configuration (mode, num_ev, ev_base, cache_size, bdp_pkts,
// flowlet_gap_us, plb_*), "ports" (each with its protocol, its mode and
// whether it wants the shim), "prog" (the ids on the clsact, null if none), "flows",
// "counters" (enum lb_stat), "exploration_rate" and "cache_hit_rate"
// (ARCANE's sends, null before one), "ev_packets" (packets per EV used).
nlohmann::json lb_json(const uno::LbStatus &s);
std::string lb_text(const uno::LbStatus &s);

} // namespace unoctl
