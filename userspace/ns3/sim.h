// SPDX-License-Identifier: GPL-2.0
//
// One variant of a scenario simulated in ns-3 on the dumbbell the VM's
// testbed builds (selftests/lib/testbed.sh tb_dumbbell): intra-DC senders
// and inter-DC senders, each on its own link of rate C, into a ToR whose
// port toward the receiver is the bottleneck, a phantom port. The result
// is one variant object of the evaluation's JSON (selftests/eval/
// lib_eval.sh ev_end): metrics, flows and rates.
#ifndef UNO_NS3_SIM_H
#define UNO_NS3_SIM_H

#include <nlohmann/json.hpp>

#include "scenario.h"

namespace uno_sim {

struct RunCost {
	double wall_s = 0;
	double sim_s = 0;
	uint64_t events = 0;
};

// The variant's run, then each of the scenario's [[also]] runs, whose
// metrics join the first's under their prefixes; @cost adds them all up.
nlohmann::json run_variant(const Scenario &s, const Profile &p, const std::string &variant,
			   uint32_t seed, RunCost *cost = nullptr);

// The variant at each of the scenario's [[points]] (once when it has
// none), each result with its cost, keyed VARIANT[@LABEL] as the VM's.
// Throws std::runtime_error when a [mix] cannot be planned.
nlohmann::json run_sweep(const Scenario &s, const Profile &p, const std::string &variant,
			 uint32_t seed);

// The evaluation's scenario object around the variants' results.
nlohmann::json scenario_json(const Scenario &s, const Profile &p, nlohmann::json variants);

// The phantom queue's size, the inter-DC BDP (lib_eval.sh: EV_PQ_SIZE).
uint64_t phantom_size(const Profile &p);

} // namespace uno_sim

#endif
