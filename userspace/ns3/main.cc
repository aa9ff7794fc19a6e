// SPDX-License-Identifier: GPL-2.0
//
// uno-sim: one scenario file, one profile, its variants simulated in ns-3
// one after the other, the evaluation's JSON out (scripts/eval_report.sh
// reads it beside the VM's).
#include <cstdio>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>

#include "sim.h"

int main(int argc, char **argv)
{
	CLI::App app{ "Simulate an evaluation scenario in ns-3 with the modules' own cores" };
	std::string path, profile = "paper", out;
	std::vector<std::string> variants;
	uint32_t seed = 1;
	std::optional<uint64_t> flow_bytes;
	std::optional<double> warmup, window;
	std::optional<uint32_t> hosts;
	bool list = false;

	app.add_option("scenario", path, "Scenario file (userspace/ns3/scenarios/*.toml)")->required();
	app.add_option("-p,--profile", profile, "Profile of the scenario file (default paper)");
	app.add_option("-v,--variant", variants, "Variant to run (default: the file's list)");
	app.add_option("-s,--seed", seed, "Run number of ns-3's random streams (default 1)")
		->check(CLI::Range(1u, 1000000u));
	app.add_option("-o,--out", out, "Write the JSON here (default stdout)");
	app.add_option("--flow-bytes", flow_bytes, "Override the profile's flow size");
	app.add_option("--warmup-inter-rtts", warmup, "Override the warm-up")->check(CLI::NonNegativeNumber);
	app.add_option("--window-inter-rtts", window, "Override the window")->check(CLI::NonNegativeNumber);
	app.add_option("--hosts", hosts, "Scale the flow groups to this many senders, in proportion")
		->check(CLI::Range(1u, 4096u));
	app.add_flag("--list", list, "Print the file's profiles and variants, and exit");
	CLI11_PARSE(app, argc, argv);

	std::string err;
	auto s = uno_sim::load_scenario(path, err);
	if (!s) {
		std::cerr << "uno-sim: " << err << "\n";
		return 2;
	}
	if (list) {
		std::cout << "name " << s->name << "\n";
		for (const uno_sim::Profile &q : s->profiles)
			std::cout << "profile " << q.name << "\n";
		for (const std::string &v : s->variants)
			std::cout << "variant " << v << "\n";
		return 0;
	}
	const uno_sim::Profile *pp = s->profile(profile);
	if (!pp) {
		std::cerr << "uno-sim: " << path << " has no profile '" << profile << "'\n";
		return 2;
	}
	uno_sim::Profile p = s->sized(*pp);
	*s = s->at(p);
	if (flow_bytes)
		p.flow_bytes = *flow_bytes;
	if (warmup)
		s->warmup_inter_rtts = *warmup;
	if (window)
		s->window_inter_rtts = *window;
	if (hosts && !uno_sim::scale_flows(*s, *hosts)) {
		std::cerr << "uno-sim: " << *hosts << " senders cannot keep every flow group\n";
		return 2;
	}
	if (!p.flow_bytes && s->window_inter_rtts <= 0 && !s->rpcs) {
		std::cerr << "uno-sim: endless flows need a window (window_inter_rtts) or [rpcs]\n";
		return 2;
	}
	if (variants.empty())
		variants = s->variants;
	for (const std::string &v : variants) {
		if (!uno_sim::known_variant(v)) {
			std::cerr << "uno-sim: unknown variant '" << v
				  << "' (known: uno, uno-nophantom, smartt, smartt-nscc, dctcp, cubic, bbr)\n";
			return 2;
		}
	}

	nlohmann::json res = nlohmann::json::object();
	for (const std::string &v : variants) {
		uno_sim::RunCost c;
		nlohmann::json r = uno_sim::run_variant(*s, p, v, seed, &c);
		r["seed"] = seed;
		r["cost"] = { { "wall_s", c.wall_s },
			      { "sim_s", c.sim_s },
			      { "events", c.events },
			      { "events_per_wall_s", c.wall_s > 0 ? c.events / c.wall_s : 0 },
			      { "sim_s_per_wall_s", c.wall_s > 0 ? c.sim_s / c.wall_s : 0 } };
		std::fprintf(stderr, "uno-sim: %s %s %s: %.3f simulated s in %.1f s\n",
			     s->name.c_str(), p.name.c_str(), v.c_str(), c.sim_s, c.wall_s);
		res[v] = std::move(r);
	}
	nlohmann::json doc = uno_sim::scenario_json(*s, p, std::move(res));
	if (out.empty()) {
		std::cout << doc.dump(1) << "\n";
		return 0;
	}
	std::ofstream f(out);
	f << doc.dump(1) << "\n";
	if (!f) {
		std::cerr << "uno-sim: cannot write " << out << "\n";
		return 1;
	}
	return 0;
}
