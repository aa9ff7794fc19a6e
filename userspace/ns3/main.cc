// SPDX-License-Identifier: GPL-2.0
//
// uno-sim: one scenario file, one profile, its variants simulated in ns-3
// one after the other, the evaluation's JSON out (scripts/eval_report.sh
// reads it beside the VM's).
#include <algorithm>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>

#include "sim.h"

int main(int argc, char **argv)
{
	CLI::App app{ "Simulate an evaluation scenario in ns-3 with the modules' own cores" };
	std::string path, profile = "paper", out;
	std::vector<std::string> variants, points, params;
	uint32_t seed = 1;
	std::optional<uint64_t> flow_bytes;
	std::optional<double> warmup, window, mix_ms;
	std::optional<uint32_t> hosts;
	bool list = false;

	app.add_option("scenario", path, "Scenario file (userspace/ns3/scenarios/*.toml)")->required();
	app.add_option("-p,--profile", profile, "Profile of the scenario file (default paper)");
	app.add_option("-v,--variant", variants, "Variant to run (default: the file's list)");
	app.add_option("--point", points, "Point of the file's [[points]] to run (default: all)");
	app.add_option("-s,--seed", seed, "Run number of ns-3's random streams (default 1)")
		->check(CLI::Range(1u, 1000000u));
	app.add_option("-o,--out", out, "Write the JSON here (default stdout)");
	app.add_option("--flow-bytes", flow_bytes, "Override the profile's flow size");
	app.add_option("--warmup-inter-rtts", warmup, "Override the warm-up")->check(CLI::NonNegativeNumber);
	app.add_option("--window-inter-rtts", window, "Override the window")->check(CLI::NonNegativeNumber);
	app.add_option("--mix-duration-ms", mix_ms, "Override the mix's duration")
		->check(CLI::PositiveNumber);
	app.add_option("--param", params, "A module parameter beside the profile's: CC.NAME=VALUE");
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
		for (const uno_sim::Point &pt : s->points)
			std::cout << "point " << pt.label << "\n";
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
	for (const std::string &spec : params) {
		if (!uno_sim::add_param(p, spec, err)) {
			std::cerr << "uno-sim: --param " << err << "\n";
			return 2;
		}
	}
	if (s->mix && (window || flow_bytes)) {
		std::cerr << "uno-sim: " << path << " is a mix: its flows run their plan's sizes until they end\n";
		return 2;
	}
	if (mix_ms && !s->mix) {
		std::cerr << "uno-sim: " << path << " has no [mix] for --mix-duration-ms\n";
		return 2;
	}
	if (mix_ms)
		s->mix->duration_ms = *mix_ms;
	if (hosts && !uno_sim::scale_flows(*s, *hosts)) {
		std::cerr << "uno-sim: " << *hosts << " senders cannot keep every flow group\n";
		return 2;
	}
	if (!p.flow_bytes && s->window_inter_rtts <= 0 && !s->rpcs && !s->mix) {
		std::cerr << "uno-sim: endless flows need a window (window_inter_rtts), [rpcs] or [mix]\n";
		return 2;
	}
	if (variants.empty())
		variants = s->variants;
	for (const std::string &v : variants) {
		if (!uno_sim::known_variant(v)) {
			std::cerr << "uno-sim: unknown variant '" << v
				  << "' (known: uno, uno-nophantom, smartt, smartt-nscc, dctcp, cubic, bbr, dctcp+bbr)\n";
			return 2;
		}
	}

	if (!points.empty()) {
		std::vector<uno_sim::Point> kept;
		for (const std::string &l : points) {
			auto it = std::find_if(s->points.begin(), s->points.end(),
					       [&](const uno_sim::Point &pt) { return pt.label == l; });
			if (it == s->points.end()) {
				std::cerr << "uno-sim: " << path << " has no point '" << l << "'\n";
				return 2;
			}
			kept.push_back(*it);
		}
		s->points = kept;
	}

	nlohmann::json res = nlohmann::json::object();
	try {
		for (const std::string &v : variants)
			res.update(uno_sim::run_sweep(*s, p, v, seed));
	} catch (const std::runtime_error &e) {
		std::cerr << "uno-sim: " << path << ": " << e.what() << "\n";
		return 2;
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
