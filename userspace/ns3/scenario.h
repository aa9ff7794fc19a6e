// SPDX-License-Identifier: GPL-2.0
//
// A scenario as data (userspace/ns3/scenarios/*.toml): the flows, the
// measurement window and, per profile, the fabric's scale, one file for
// the paper's scale and the VM's.
#ifndef UNO_NS3_SCENARIO_H
#define UNO_NS3_SCENARIO_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace uno_sim {

enum class FlowClass { Intra, Inter };

struct FlowGroup {
	FlowClass cls;
	uint32_t count = 1;
	// The group starts when the window does, not at 0 (S11.5: a flow
	// joins one that runs alone).
	bool at_window = false;
};

// [rpcs]: a stream of short flows from one more sender of a class, one
// every gap from the window's start, sizes uniform in [min, max]; the
// window ends when the last completes (N3). The gap is given at 100
// Gbit/s and scales with the time (test_eval_n3.sh: x 100 Gbit/s / C).
struct RpcStream {
	FlowClass cls = FlowClass::Intra;
	uint32_t count = 0;
	uint32_t min_bytes = 0, max_bytes = 0;
	double gap_us_at_100g = 0;
};

// [[also]]: the same flows again at another size, every metric of that
// run kept under a prefix (S11.3's small messages: small_fct_over_ideal).
struct AlsoRun {
	std::string prefix;
	double flow_bdps;
};

// [mix]: lib_eval.sh ev_mix's workload, planned by unoperf's own
// generator (unoperf/workload.h): Poisson arrivals offering @load x C
// for @duration_ms, a flow intra-DC with probability @intra_fraction,
// its size drawn from its class's CDF (a file, relative to the scenario's),
// the flows of a class taking that class's [[flows]] senders in turn.
struct Mix {
	std::string cdf_intra, cdf_inter;
	double load = 0;
	double intra_fraction = 0.8;
	double duration_ms = 0;
	uint64_t seed = 1;
};

// One flow of a mix's plan: its class, the sender of that class (0..n-1),
// its size and start, and its ideal FCT (size at C plus its class's base
// RTT, unoperf's), to which its slowdown is measured.
struct MixFlow {
	FlowClass cls;
	uint32_t sender;
	uint64_t bytes;
	uint64_t start_us;
	double ideal_us;
};

// [[points]]: a sweep, the scenario run once per point and each run
// labelled VARIANT@LABEL as the VM labels it (N8's uno@32, N9's uno@40%):
// the mix's load, and the inter-DC RTT as a multiple of the intra-DC one.
struct Point {
	std::string label;
	std::optional<double> load;
	std::optional<double> rtt_ratio;
};

// A module parameter a profile sets: [profile.NAME.uno], [...smartt].
struct ModuleParam {
	std::string cc;
	std::string name;
	uint32_t value;
};

// One scale of the dumbbell: C, the propagation RTTs of the two paths,
// the bottleneck's buffer, the baselines' ECN ramp (RED 25/75 % of the
// buffer unless given) and the modules' parameters.
struct Profile {
	std::string name;
	uint64_t rate_mbps = 0;
	uint32_t mtu = 0;
	uint32_t intra_rtt_us = 0;
	uint32_t inter_rtt_us = 0;
	uint32_t buffer_bytes = 0;
	uint32_t kmin_bytes = 0;
	uint32_t kmax_bytes = 0;
	uint64_t flow_bytes = 0; // 0: flows run until the window ends
	// TCP's RTO floor: Linux's TCP_RTO_MIN unless the fabric's is given
	// (SMaRTT's 84 us, 7 base RTTs, where trimming is unavailable).
	uint32_t rto_min_us = 200000;
	// The scenario's warm-up, window and sampling at this scale, if given.
	std::optional<double> warmup_inter_rtts, window_inter_rtts, sample_inter_rtts;
	// The mix's duration at this scale, if given.
	std::optional<double> mix_duration_ms;
	std::vector<ModuleParam> params;
};

struct Scenario {
	std::string name;
	std::string description;
	std::vector<std::string> variants;
	std::vector<FlowGroup> flows;
	double warmup_inter_rtts = 0;
	double window_inter_rtts = 0;	// 0: until the first flow ends
	double sample_inter_rtts = 10;
	// The flows' size in BDPs (C x the intra-DC RTT) at every scale, in
	// place of the profiles' flow_bytes: SMaRTT's sizes (smartt.md 11.3).
	std::optional<double> flow_bdps;
	std::vector<AlsoRun> also;
	std::optional<RpcStream> rpcs;
	std::optional<Mix> mix;
	std::vector<Point> points;
	std::vector<Profile> profiles;

	const Profile *profile(const std::string &name) const;
	// The scenario at a profile's scale: its warm-up, window and sampling.
	Scenario at(const Profile &p) const;
	// The profile with the scenario's flow size, if it gives one in BDPs.
	Profile sized(const Profile &p) const;
	// The scenario and profile at a point of its sweep.
	std::pair<Scenario, Profile> at_point(const Profile &p, const Point &pt) const;
};

// "CC.NAME=VALUE" (uno.init_cwnd_bdp_pct=10): one more module parameter
// for @p, checked as a profile's; false and @err set when it is not one.
bool add_param(Profile &p, const std::string &spec, std::string &err);

// The mix's flows at the profile's scale, in order of start; nothing and
// @err set when a CDF cannot be read or the plan is refused.
std::optional<std::vector<MixFlow>> plan_mix(const Scenario &s, const Profile &p, std::string &err);

// C x the intra-DC RTT, in bytes; @bdps of them.
uint64_t bdp_bytes(const Profile &p);
uint64_t bdps_bytes(const Profile &p, double bdps);

// A variant a scenario may name: the VM evaluation's (uno, uno-nophantom,
// smartt, smartt-nscc, dctcp, cubic, bbr, and dctcp+bbr: dctcp intra-DC,
// bbr inter-DC).
bool known_variant(const std::string &variant);

// The scenario in @path, or nothing and @err set.
std::optional<Scenario> load_scenario(const std::string &path, std::string &err);
std::optional<Scenario> parse_scenario(const std::string &text, std::string &err);

// The flow groups scaled to @hosts senders in all, each keeping its share
// (4 + 4 to 64: 32 + 32); false if a group would have none.
bool scale_flows(Scenario &s, uint32_t hosts);

const char *class_name(FlowClass c);

} // namespace uno_sim

#endif
