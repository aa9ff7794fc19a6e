// SPDX-License-Identifier: GPL-2.0
#include "record.h"

#include <algorithm>

#include "spec.h"

namespace unoperf {

namespace {

Json string_or_null(const std::string &s)
{
	return s.empty() ? Json(nullptr) : Json(s);
}

} // namespace

double ideal_fct_us(uint64_t size_bytes, double rate_mbps, double base_rtt_us)
{
	return static_cast<double>(size_bytes) * 8.0 / rate_mbps + base_rtt_us;
}

double slowdown(double fct_us, double ideal_us)
{
	return fct_us / ideal_us;
}

double ns_to_us(uint64_t ns)
{
	return static_cast<double>(ns) / 1e3;
}

Json client_flow_json(const ClientFlowResult &r, std::optional<double> rate_mbps)
{
	Json j;
	j["id"] = r.id;
	j["ns"] = r.ns == kCurrentNs ? Json(nullptr) : Json(r.ns);
	j["cc"] = string_or_null(r.cc);
	j["class"] = string_or_null(r.cls);
	j["dst"] = r.dst;
	j["size"] = r.size;
	j["offset_us"] = r.offset_us;
	j["ok"] = r.ok;

	const bool started = r.start_ns != 0;
	const bool ended = r.ok && r.end_ns >= r.start_ns && started;
	j["sched_ns"] = r.sched_ns ? Json(r.sched_ns) : Json(nullptr);
	j["start_ns"] = started ? Json(r.start_ns) : Json(nullptr);
	j["end_ns"] = ended ? Json(r.end_ns) : Json(nullptr);
	j["start_lag_us"] = started && r.sched_ns && r.start_ns >= r.sched_ns
				    ? Json(ns_to_us(r.start_ns - r.sched_ns))
				    : Json(nullptr);
	const double fct = ended ? ns_to_us(r.end_ns - r.start_ns) : 0.0;
	j["fct_us"] = ended ? Json(fct) : Json(nullptr);

	if (r.base_rtt_us)
		j["base_rtt_us"] = *r.base_rtt_us;
	if (r.base_rtt_us && rate_mbps) {
		const double ideal = ideal_fct_us(r.size, *rate_mbps, static_cast<double>(*r.base_rtt_us));
		j["ideal_us"] = ideal;
		j["slowdown"] = ended ? Json(slowdown(fct, ideal)) : Json(nullptr);
	}
	if (!r.ok)
		j["error"] = r.error;
	return j;
}

Json client_report_json(const ClientRun &run)
{
	Json j;
	j["unoperf"] = kJsonVersion;
	j["role"] = "client";
	j["common_start_ns"] = run.common_start_ns ? Json(run.common_start_ns) : Json(nullptr);
	j["rate_mbps"] = run.rate_mbps ? Json(*run.rate_mbps) : Json(nullptr);
	j["timeout_s"] = run.timeout_s;

	Json flows = Json::array();
	unsigned completed = 0;
	double fct_min = 0, fct_max = 0, fct_sum = 0, lag_max = 0;
	for (const ClientFlowResult &r : run.flows) {
		flows.push_back(client_flow_json(r, run.rate_mbps));
		if (r.start_ns && r.sched_ns && r.start_ns >= r.sched_ns)
			lag_max = std::max(lag_max, ns_to_us(r.start_ns - r.sched_ns));
		if (!r.ok)
			continue;
		const double fct = ns_to_us(r.end_ns - r.start_ns);
		fct_min = completed ? std::min(fct_min, fct) : fct;
		fct_max = completed ? std::max(fct_max, fct) : fct;
		fct_sum += fct;
		++completed;
	}
	j["flows"] = std::move(flows);

	Json summary;
	summary["flows"] = run.flows.size();
	summary["completed"] = completed;
	summary["failed"] = run.flows.size() - completed;
	summary["max_start_lag_us"] = lag_max;
	if (completed) {
		summary["min_fct_us"] = fct_min;
		summary["mean_fct_us"] = fct_sum / completed;
		summary["max_fct_us"] = fct_max;
	} else {
		summary["min_fct_us"] = nullptr;
		summary["mean_fct_us"] = nullptr;
		summary["max_fct_us"] = nullptr;
	}
	j["summary"] = std::move(summary);
	return j;
}

Json server_flow_json(const ServerFlowRecord &r)
{
	Json j;
	j["unoperf"] = kJsonVersion;
	j["role"] = "server";
	j["id"] = r.id;
	j["peer"] = r.peer;
	j["cc"] = string_or_null(r.cc);
	j["size"] = r.size;
	j["client_start_ns"] = r.client_start_ns;
	j["first_byte_ns"] = r.first_byte_ns;
	j["last_byte_ns"] = r.last_byte_ns;
	if (r.last_byte_ns > r.client_start_ns) {
		const double fct = ns_to_us(r.last_byte_ns - r.client_start_ns);
		j["rx_fct_us"] = fct;
		j["goodput_mbps"] = static_cast<double>(r.size) * 8.0 / fct;
	} else {
		// The client's clock reading is ahead of ours: not one host?
		j["rx_fct_us"] = nullptr;
		j["goodput_mbps"] = nullptr;
	}
	return j;
}

} // namespace unoperf
