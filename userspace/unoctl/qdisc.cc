// SPDX-License-Identifier: GPL-2.0
#include "qdisc.h"

#include <cstdarg>
#include <cstdio>

#include <linux/pkt_sched.h>
#include <net/if.h>

#include "ndt_units.h"
#include "phantom_units.h"

namespace unoctl {
namespace {

using nlohmann::json;

std::string handle_str(uint32_t h)
{
	char s[32];
	std::snprintf(s, sizeof(s), "%x:", h >> 16);
	return s;
}

std::string ifname(int ifindex)
{
	char name[IF_NAMESIZE] = "";
	if (!if_indextoname(ifindex, name))
		return std::to_string(ifindex);
	return name;
}

std::string strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

std::string strf(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	std::vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

std::string time_text(uint64_t ns)
{
	char buf[NDT_TIME_LEN];
	return ndt_time_text(ns, buf, sizeof(buf));
}

// The options given, from rate, limit and burst, which every kind has.
class JsonOpts {
public:
	template <class Opts> explicit JsonOpts(const Opts &o)
	{
		add("rate", o.rate);
		add("limit", o.limit);
		add("burst", o.burst);
	}
	template <class T> void add(const char *key, const std::optional<T> &v)
	{
		if (v)
			j[key] = *v;
	}
	json j = json::object();
};

template <class Opts> std::string common_opts_text(const Opts &o)
{
	std::string s;
	if (o.rate)
		s += strf(" rate %gMbit", *o.rate * 8 / 1e6);
	if (o.limit)
		s += strf(" limit %ub", *o.limit);
	if (o.burst)
		s += strf(" burst %ub", *o.burst);
	return s;
}

json phantom_opts_json(const uno::PhantomOpts &o)
{
	JsonOpts opts(o);
	opts.add("ecn_min", o.ecn_min);
	opts.add("ecn_max", o.ecn_max);
	if (o.pq_rate)
		opts.j["phantom_rate"] = phantom_rate_pct(*o.pq_rate); // percent, as tc -j
	opts.add("phantom_size", o.pq_size);
	opts.add("phantom_min", o.pq_min);
	opts.add("phantom_max", o.pq_max);
	opts.add("trim", o.trim);
	opts.add("trim_dscp", o.trim_dscp);
	opts.add("trim_limit", o.trim_limit);
	if (o.trim_valid)
		opts.j["trim_udp"] = *o.trim_valid ? "valid" : "stale";
	if (o.int_stamp)
		opts.j["int"] = *o.int_stamp ? "on" : "off";
	opts.add("xoff", o.xoff);
	return opts.j;
}

json ndt_opts_json(const uno::NdtOpts &o)
{
	JsonOpts opts(o);
	opts.add("dst_thresh", o.dst_thresh);
	if (o.alpha)
		opts.j["alpha"] = ndt_alpha_frac(*o.alpha); // a fraction, as tc -j
	opts.add("n_throttle", o.n_throttle);
	opts.add("maxpause", o.maxpause);
	opts.add("rearm", o.rearm);
	opts.add("active", o.active);
	opts.add("idle_gc", o.idle_gc);
	opts.add("flows", o.flows);
	return opts.j;
}

json phantom_xstats_json(const tc_phantom_xstats &x)
{
	return { { "ce_marks", x.ce_marks },
		 { "phantom_marks", x.phantom_marks },
		 { "trimmed", x.trimmed },
		 { "trim_drops", x.trim_drops },
		 { "tail_drops", x.tail_drops },
		 { "stall_ns", x.stall_ns },
		 { "idle_ns", x.idle_ns },
		 { "empty_ns", x.empty_ns },
		 { "max_backlog", x.max_backlog },
		 { "phantom_backlog", x.phantom_backlog },
		 { "phantom_max_backlog", x.phantom_max_backlog },
		 { "trim_backlog", x.trim_backlog },
		 { "int_stamped", x.int_stamped },
		 { "int_full", x.int_full },
		 { "xoff_events", x.xoff_events } };
}

json ndt_xstats_json(const tc_ndt_xstats &x)
{
	return { { "flows", x.flows },
		 { "active", x.active },
		 { "congested", x.congested },
		 { "paused", x.paused },
		 { "normal_qlen", x.normal_qlen },
		 { "ctl_qlen", x.ctl_qlen },
		 { "max_backlog", x.max_backlog },
		 { "rtt_dst_last_ns", x.rtt_dst_last_ns },
		 { "ctl_enqueued", x.ctl_enqueued },
		 { "pauses", x.pauses },
		 { "pause_timeouts", x.pause_timeouts },
		 { "samples", x.samples },
		 { "flows_full", x.flows_full },
		 { "tail_drops", x.tail_drops },
		 { "paused_ns", x.paused_ns },
		 { "normal_bytes", x.normal_bytes },
		 { "ctl_bytes", x.ctl_bytes } };
}

std::string phantom_opts_text(const uno::PhantomOpts &o)
{
	std::string s = common_opts_text(o);
	if (o.ecn_min)
		s += strf(" ecn-min %ub", *o.ecn_min);
	if (o.ecn_max)
		s += strf(" ecn-max %ub", *o.ecn_max);
	if (o.pq_rate)
		s += strf(" phantom-rate %g%%", phantom_rate_pct(*o.pq_rate));
	if (o.pq_size)
		s += strf(" phantom-size %ub", *o.pq_size);
	if (o.pq_min)
		s += strf(" phantom-min %ub", *o.pq_min);
	if (o.pq_max)
		s += strf(" phantom-max %ub", *o.pq_max);
	if (o.trim)
		s += *o.trim ? strf(" trim %ub", *o.trim) : " trim off";
	if (o.trim_dscp)
		s += strf(" trim-dscp %u", *o.trim_dscp);
	if (o.trim_limit)
		s += strf(" trim-limit %ub", *o.trim_limit);
	if (o.trim_valid)
		s += strf(" trim-udp %s", *o.trim_valid ? "valid" : "stale");
	if (o.int_stamp && *o.int_stamp)
		s += " int on";
	if (o.xoff && *o.xoff) // 0: off, as tc prints it
		s += strf(" xoff %ub", *o.xoff);
	return s;
}

std::string ndt_opts_text(const uno::NdtOpts &o)
{
	const std::pair<const char *, const std::optional<uint64_t> *> times[] = {
		{ "maxpause", &o.maxpause },
		{ "rearm", &o.rearm },
		{ "active", &o.active },
		{ "idle-gc", &o.idle_gc },
	};
	std::string s = common_opts_text(o);
	if (o.dst_thresh)
		s += " dst-thresh " + time_text(*o.dst_thresh);
	if (o.alpha)
		s += strf(" alpha %g", ndt_alpha_frac(*o.alpha));
	if (o.n_throttle)
		s += strf(" n-throttle %u", *o.n_throttle);
	for (const auto &[key, v] : times)
		if (*v)
			s += " " + std::string(key) + " " + time_text(**v);
	if (o.flows)
		s += strf(" flows %u", *o.flows);
	return s;
}

std::string phantom_xstats_text(const tc_phantom_xstats &x)
{
	return strf(" ce_marks %llu phantom_marks %llu trimmed %llu trim_drops %llu "
		    "tail_drops %llu\n",
		    (unsigned long long)x.ce_marks, (unsigned long long)x.phantom_marks,
		    (unsigned long long)x.trimmed, (unsigned long long)x.trim_drops,
		    (unsigned long long)x.tail_drops) +
	       strf(" max_backlog %ub phantom_backlog %ub phantom_max_backlog %ub "
		    "trim_backlog %ub\n",
		    x.max_backlog, x.phantom_backlog, x.phantom_max_backlog, x.trim_backlog) +
	       strf(" int_stamped %llu int_full %llu xoff_events %llu\n",
		    (unsigned long long)x.int_stamped, (unsigned long long)x.int_full,
		    (unsigned long long)x.xoff_events);
}

std::string ndt_xstats_text(const tc_ndt_xstats &x)
{
	return strf(" flows %u active %u congested %u paused %u normal_qlen %u ctl_qlen %u "
		    "max_backlog %ub rtt_dst_last_ns %u\n",
		    x.flows, x.active, x.congested, x.paused, x.normal_qlen, x.ctl_qlen,
		    x.max_backlog, x.rtt_dst_last_ns) +
	       strf(" ctl_enqueued %llu pauses %llu pause_timeouts %llu samples %llu "
		    "flows_full %llu tail_drops %llu paused_ns %llu\n",
		    (unsigned long long)x.ctl_enqueued, (unsigned long long)x.pauses,
		    (unsigned long long)x.pause_timeouts, (unsigned long long)x.samples,
		    (unsigned long long)x.flows_full, (unsigned long long)x.tail_drops,
		    (unsigned long long)x.paused_ns) +
	       strf(" normal_bytes %llu ctl_bytes %llu\n",
		    (unsigned long long)x.normal_bytes, (unsigned long long)x.ctl_bytes);
}

json ndt_flow_json(const tc_ndt_flow_xstats &f)
{
	return { { "src", uno::addr_port(f.saddr, f.sport) },
		 { "dst", uno::addr_port(f.daddr, f.dport) },
		 { "status", f.status == TC_NDT_CONGESTED ? "congested" : "normal" },
		 { "active", f.active != 0 },
		 { "closed", f.closed != 0 },
		 { "normal_pkts", f.normal_pkts },
		 { "ctl_pkts", f.ctl_pkts },
		 { "rtt_dst_last_ns", f.rtt_dst_last_ns },
		 { "idle_ns", f.idle_ns } };
}

std::string ndt_flow_text(const tc_ndt_flow_xstats &f)
{
	return strf(" flow %s > %s %s%s%s normal_pkts %u ctl_pkts %u rtt_dst_last_ns %u "
		    "idle_ns %llu\n",
		    uno::addr_port(f.saddr, f.sport).c_str(),
		    uno::addr_port(f.daddr, f.dport).c_str(),
		    f.status == TC_NDT_CONGESTED ? "congested" : "normal",
		    f.active ? " active" : "", f.closed ? " closed" : "", f.normal_pkts,
		    f.ctl_pkts, f.rtt_dst_last_ns, (unsigned long long)f.idle_ns);
}

} // namespace

json qdisc_json(const uno::QdiscInfo &q)
{
	const bool ndt = q.kind == "ndt";
	json j = { { "kind", q.kind },
		   { "handle", handle_str(q.handle) },
		   { "dev", ifname(q.ifindex) },
		   { "root", q.parent == TC_H_ROOT },
		   { "options", ndt ? ndt_opts_json(q.ndt) : phantom_opts_json(q.opts) },
		   { "bytes", q.bytes },
		   { "packets", q.packets },
		   { "drops", q.drops },
		   { "overlimits", q.overlimits },
		   { "requeues", q.requeues },
		   { "backlog", q.backlog },
		   { "qlen", q.qlen } };
	if (q.xstats)
		j["xstats"] = phantom_xstats_json(*q.xstats);
	if (q.ndt_xstats)
		j["xstats"] = ndt_xstats_json(*q.ndt_xstats);
	if (q.ndt_flows) {
		j["flows"] = json::array();
		for (const auto &f : *q.ndt_flows)
			j["flows"].push_back(ndt_flow_json(f));
	}
	return j;
}

std::string qdisc_text(const uno::QdiscInfo &q)
{
	const bool ndt = q.kind == "ndt";
	std::string s = "qdisc " + q.kind + " " + handle_str(q.handle) + " dev " +
			ifname(q.ifindex) + (q.parent == TC_H_ROOT ? " root" : " parent") +
			(ndt ? ndt_opts_text(q.ndt) : phantom_opts_text(q.opts)) + "\n";
	s += strf(" Sent %llu bytes %llu pkt (dropped %u, overlimits %u requeues %u)\n",
		  (unsigned long long)q.bytes, (unsigned long long)q.packets, q.drops,
		  q.overlimits, q.requeues);
	s += strf(" backlog %ub %up\n", q.backlog, q.qlen);
	if (q.xstats)
		s += phantom_xstats_text(*q.xstats);
	if (q.ndt_xstats)
		s += ndt_xstats_text(*q.ndt_xstats);
	if (q.ndt_flows)
		for (const auto &f : *q.ndt_flows)
			s += ndt_flow_text(f);
	return s;
}

json reflex_ndt_json(const std::vector<uno::QdiscInfo> &qdiscs)
{
	json ndt = json::array();
	for (const auto &q : qdiscs)
		if (q.kind == "ndt")
			ndt.push_back(qdisc_json(q));
	if (ndt.empty())
		return nullptr;
	return { { "role", "ndt" }, { "ndt", ndt } };
}

} // namespace unoctl
