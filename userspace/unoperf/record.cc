// SPDX-License-Identifier: GPL-2.0
#include "record.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

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

Json unorc_stats_json(const UnorcFlowStats &u)
{
	return {{"class", u.cls}, {"code", u.code}, {"subflows", u.subflows},
		{"packets_sent", u.packets_sent}, {"bytes_sent", u.bytes_sent},
		{"retransmissions", u.retransmissions}, {"timeouts", u.timeouts},
		{"rto_events", u.rto_events}, {"nacks", u.nacks}, {"trim_nacks", u.trim_nacks},
		{"repath_events", u.repath_events}, {"max_cwnd", u.max_cwnd},
		{"base_rtt_us", u.base_rtt_us}, {"drops", u.drops}, {"rtt_us_hist", unorc::rtt_hist_json<Json>(u.rtt_us)}};
}

Json client_flow_json(const ClientFlowResult &r, std::optional<double> rate_mbps)
{
	Json j;
	j["id"] = r.id;
	j["ns"] = r.ns == kCurrentNs ? Json(nullptr) : Json(r.ns);
	j["cc"] = string_or_null(r.cc);
	j["class"] = string_or_null(r.cls);
	j["dst"] = r.dst;
	j["transport"] = r.transport;
	j["size"] = r.size;
	j["bytes"] = r.bytes;
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
	if (r.matrix)
		j["matrix"] = {{"id", r.matrix->id}, {"src", r.matrix->src}, {"dst", r.matrix->dst}};
	if (r.unorc)
		j["unorc"] = unorc_stats_json(*r.unorc);
	if (!r.ok)
		j["error"] = r.error;
	return j;
}

double percentile(std::vector<double> v, double p)
{
	if (v.empty())
		return 0;
	std::sort(v.begin(), v.end());
	const double rank = std::ceil(p / 100 * static_cast<double>(v.size()));
	const size_t i = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
	return v[std::min(i, v.size() - 1)];
}

namespace {

// count, completed, bytes, then mean/p50/p99 of FCT and of slowdown over
// the completed flows (null when there are none).
Json class_summary(const std::vector<const ClientFlowResult *> &flows,
		   std::optional<double> rate_mbps)
{
	std::vector<double> fct, sd;
	uint64_t bytes = 0;
	for (const ClientFlowResult *r : flows) {
		bytes += r->bytes;
		if (!r->ok || r->end_ns < r->start_ns || !r->start_ns)
			continue;
		fct.push_back(ns_to_us(r->end_ns - r->start_ns));
		if (r->base_rtt_us && rate_mbps)
			sd.push_back(slowdown(fct.back(), ideal_fct_us(r->size, *rate_mbps,
								     static_cast<double>(*r->base_rtt_us))));
	}
	const auto stats = [](Json &j, const std::string &name, const std::vector<double> &v) {
		const bool any = !v.empty();
		const double mean = any ? std::accumulate(v.begin(), v.end(), 0.0) /
						  static_cast<double>(v.size())
					: 0;
		j["mean_" + name] = any ? Json(mean) : Json(nullptr);
		j["p50_" + name] = any ? Json(percentile(v, 50)) : Json(nullptr);
		j["p99_" + name] = any ? Json(percentile(v, 99)) : Json(nullptr);
	};
	Json j;
	j["flows"] = flows.size();
	j["completed"] = fct.size();
	j["bytes"] = bytes;
	stats(j, "fct_us", fct);
	stats(j, "slowdown", sd);
	return j;
}

// The UnoRC senders' work over every flow.
Json unorc_totals(const std::vector<ClientFlowResult> &flows)
{
	UnorcFlowStats t;
	for (const ClientFlowResult &r : flows) {
		if (!r.unorc)
			continue;
		t.packets_sent += r.unorc->packets_sent;
		t.bytes_sent += r.unorc->bytes_sent;
		t.retransmissions += r.unorc->retransmissions;
		t.timeouts += r.unorc->timeouts;
		t.rto_events += r.unorc->rto_events;
		t.nacks += r.unorc->nacks;
		t.trim_nacks += r.unorc->trim_nacks;
		t.repath_events += r.unorc->repath_events;
		t.drops += r.unorc->drops;
		t.rtt_us.merge(r.unorc->rtt_us);
	}
	const Json none;
	return {{"packets_sent", t.packets_sent}, {"bytes_sent", t.bytes_sent},
		{"retransmissions", t.retransmissions}, {"timeouts", t.timeouts},
		{"rto_events", t.rto_events}, {"nacks", t.nacks}, {"trim_nacks", t.trim_nacks},
		{"repath_events", t.repath_events}, {"drops", t.drops},
		{"rtt_samples", t.rtt_us.samples()},
		{"rtt_us_p50", t.rtt_us.samples() ? Json(t.rtt_us.quantile(0.5)) : none},
		{"rtt_us_p99", t.rtt_us.samples() ? Json(t.rtt_us.quantile(0.99)) : none},
		{"rtt_us_hist", unorc::rtt_hist_json<Json>(t.rtt_us)}};
}

} // namespace

Json client_report_json(const ClientRun &run)
{
	Json j;
	j["unoperf"] = kJsonVersion;
	j["role"] = "client";
	j["transport"] = run.transport;
	j["common_start_ns"] = run.common_start_ns ? Json(run.common_start_ns) : Json(nullptr);
	j["rate_mbps"] = run.rate_mbps ? Json(*run.rate_mbps) : Json(nullptr);
	j["timeout_s"] = run.timeout_s;
	if (!run.workload.is_null())
		j["workload"] = run.workload;

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
	std::vector<const ClientFlowResult *> all;
	std::map<std::string, std::vector<const ClientFlowResult *>> by_class;
	for (const ClientFlowResult &r : run.flows) {
		all.push_back(&r);
		if (!r.cls.empty())
			by_class[r.cls].push_back(&r);
	}
	const Json overall = class_summary(all, run.rate_mbps);
	for (const char *k : {"bytes", "p50_fct_us", "p99_fct_us", "mean_slowdown", "p50_slowdown",
			      "p99_slowdown"})
		summary[k] = overall[k];
	Json classes = Json::object();
	for (const auto &[cls, v] : by_class)
		classes[cls] = class_summary(v, run.rate_mbps);
	summary["classes"] = std::move(classes);
	if (run.transport == "unorc")
		summary["unorc"] = unorc_totals(run.flows);
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
	j["transport"] = r.transport;
	j["size"] = r.size;
	j["client_start_ns"] = r.client_start_ns;
	j["first_byte_ns"] = r.first_byte_ns ? Json(r.first_byte_ns) : Json(nullptr);
	j["last_byte_ns"] = r.last_byte_ns;
	if (r.mismatched_bytes) {
		j["mismatched_bytes"] = *r.mismatched_bytes;
		j["ok"] = *r.mismatched_bytes == 0 && r.error.empty();
	}
	if (!r.error.empty())
		j["error"] = r.error;
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
