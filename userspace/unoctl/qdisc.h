// SPDX-License-Identifier: GPL-2.0
//
// unoctl qdisc show: our qdiscs (phantom, ndt) as an rtnetlink dump gives
// them (libuno's QdiscInfo), and NDT's part of reflex show.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nl.h"

namespace unoctl {

// "kind", "handle", "dev", "root", "options" (the keys and numbers of tc
// -j: the options' tc names with underscores, in the units of the wire
// but phantom_rate in percent and alpha as a fraction), the counters of
// TCA_STATS2 ("bytes", "packets", "drops", ...), and "xstats" (the
// qdisc's own, by the names of their struct's fields), if any; an ndt
// qdisc's "flows" if its QdiscInfo has them (reflex show).
nlohmann::json qdisc_json(const uno::QdiscInfo &q);
// The same as lines, the options in tc's syntax.
std::string qdisc_text(const uno::QdiscInfo &q);

// reflex show's element for NDT, Reflex's destination gateway:
// {"role": "ndt", "ndt": [qdisc_json() of each ndt qdisc]}, each with its
// "flows" ("src", "dst", "status": "normal" or "congested", "active",
// "closed", "normal_pkts", "ctl_pkts", "rtt_dst_last_ns", "idle_ns") if
// its QdiscInfo has them; null if there is none, so that reflex show is
// the same without.
nlohmann::json reflex_ndt_json(const std::vector<uno::QdiscInfo> &qdiscs);

} // namespace unoctl
