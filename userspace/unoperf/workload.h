// SPDX-License-Identifier: GPL-2.0
//
// unoperf: generated workloads. Flow-size CDFs, htsim connection matrices,
// Poisson arrivals and the assignment of flows to sender namespaces.
// Pure functions: no sockets, no clock, so they are unit-tested alone.
#pragma once

#include <cstdint>
#include <istream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "spec.h"

namespace unoperf {

inline constexpr std::string_view kIntra = "intra";
inline constexpr std::string_view kInter = "inter";
// More flows than this in one run is a mistake (and sockets, memory).
inline constexpr uint64_t kMaxGeneratedFlows = 100'000;

// A flow-size CDF: rows "size_bytes cumulative_percent", the first row at
// 0 %, the last at 100 %, both columns non-decreasing. Between rows the
// size is linear in the percentile (the Uno/HPCC artifact generator's
// rule), so the CDF describes a piecewise-uniform distribution.
class Cdf {
public:
	struct Row {
		double size;
		double percent;
	};

	// Blank lines and lines starting with '#' are skipped; errors are
	// InputError naming `source` and the line.
	static Cdf parse(std::istream &in, std::string_view source);

	// The size at percentile `percent` (0 <= percent <= 100), by linear
	// interpolation between the rows around it. Within a vertical step
	// (one size, several percentages) the size of the step.
	double quantile(double percent) const;
	// The mean of the piecewise-uniform distribution:
	// sum over rows i of (size[i-1] + size[i]) / 2 * (pct[i] - pct[i-1]) / 100.
	double mean() const;
	const std::vector<Row> &rows() const { return rows_; }

private:
	std::vector<Row> rows_;
};

// Portable random numbers: std::mt19937_64's output sequence is fixed by
// the C++ standard, the std:: distributions are not, so these transforms
// are ours. (The exponential uses std::log; libm may round its last bit
// differently, which moves a start time by far less than 1 us.)
// Uniform in [0, 1): the top 53 bits of one draw.
double uniform01(std::mt19937_64 &rng);
// Exponential with the given mean: -mean * log(1 - u).
double exponential(std::mt19937_64 &rng, double mean);

// One flow of an htsim connection matrix line
// "<src>-><dst> id <id> start <start_us> size <bytes>".
struct MatrixFlow {
	unsigned src = 0;
	unsigned dst = 0;
	uint64_t id = 0;
	double start_us = 0;
	uint64_t size = 0;
	unsigned line = 0; // in the file, for messages

	bool operator==(const MatrixFlow &) const = default;
};

// Hosts 0..127 are DC0, 128..255 DC1.
inline constexpr unsigned kHostsPerDc = 128;
inline constexpr unsigned kMaxHost = 2 * kHostsPerDc - 1;
// Inter-DC iff the two hosts are in different DCs.
bool matrix_is_inter(unsigned src, unsigned dst);

// "Nodes N", "Connections M", then M flow lines. Blank lines and '#'
// comment lines are skipped. Errors name `source` and the line.
std::vector<MatrixFlow> parse_matrix(std::istream &in, std::string_view source);

// Sender namespaces of the two classes.
struct Senders {
	std::vector<std::string> intra;
	std::vector<std::string> inter;

	const std::vector<std::string> &of(std::string_view cls) const
	{
		return cls == kIntra ? intra : inter;
	}
};

// Adds one --senders value "CLASS=NS[,NS...]" (CLASS intra or inter).
void parse_senders(std::string_view text, Senders *out);

// Size after scaling: max(min_size, floor(size * scale)).
uint64_t scale_size(double size, double scale, uint64_t min_size);

struct CdfWorkload {
	const Cdf *intra = nullptr; // needed when intra_fraction > 0
	const Cdf *inter = nullptr; // needed when intra_fraction < 1
	double load = 0;            // 0 < load <= 1, of rate_mbps
	double rate_mbps = 0;
	double intra_fraction = 0.8;
	uint64_t flows = 0;         // stop after this many (0: no limit)
	double duration_us = 0;     // stop at this start time (0: no limit)
	uint64_t seed = 1;
	double size_scale = 1;
	uint64_t min_size = 1;
};

// Mean of the sizes drawn, bytes: scale * (F * mean(intra) + (1-F) * mean(inter)).
double cdf_workload_mean_size(const CdfWorkload &w);
// Mean gap between arrivals, us: mean_size * 8 / (rate_mbps * load).
double cdf_workload_mean_gap_us(const CdfWorkload &w);

// Poisson arrivals. For each flow, three draws from one mt19937_64 seeded
// with `seed`, in this order: the gap since the previous arrival
// (exponential, mean cdf_workload_mean_gap_us; the first flow arrives one
// gap after 0), the class (intra iff u < intra_fraction), the size
// (quantile(100 u) of the class's CDF, then scale_size). start_us is the
// arrival time rounded to the nearest microsecond. Flows carry ns, class,
// size and start; the namespace is left empty (see assign_senders).
std::vector<FlowSpec> generate_cdf_flows(const CdfWorkload &w);

struct MatrixWorkload {
	double time_scale = 1;
	double size_scale = 1;
	uint64_t min_size = 1;
	uint64_t max_flows = 0; // 0: all
};

// Matrix flows sorted by start time (file order among equal starts), cut
// to max_flows, scaled: start_us = round(start * time_scale), size =
// scale_size(size, size_scale, min_size). Class by matrix_is_inter. Every
// destination host maps onto the one server.
std::vector<FlowSpec> matrix_flows(const std::vector<MatrixFlow> &m, const MatrixWorkload &w);

// Sets each flow's ns: the k-th flow (in the given order) of a class gets
// the class's namespace k mod n. Throws InputError when a class with flows
// has no namespace.
void assign_senders(std::vector<FlowSpec> &flows, const Senders &s);

} // namespace unoperf
