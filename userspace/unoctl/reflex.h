// SPDX-License-Identifier: GPL-2.0
//
// unoctl reflex show: a Reflex role's state (userspace/bpf/reflex_datapath.h)
// as shown.
#pragma once

#include <nlohmann/json.hpp>

#include "reflex_datapath.h"

namespace unoctl {

// "role", "k", "port" and "counters" (enum rfx_stat, those not zero); a
// gateway's settings, stamped prefixes and NSF "flows" (state, fb_seq,
// pack times); a host's "flows": each socket's record of struct
// rfx_flow_info, from its first cut and loop to the feedback it refused.
nlohmann::json reflex_json(const uno::RfxStatus &s);

} // namespace unoctl
