// SPDX-License-Identifier: GPL-2.0
#include "workload.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

namespace unoperf {

namespace {

std::string quoted(std::string_view s)
{
	return "'" + std::string(s) + "'";
}

// Splits at blanks (space, tab, CR).
std::vector<std::string_view> fields(std::string_view line)
{
	std::vector<std::string_view> out;
	const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
	size_t i = 0;
	while (i < line.size()) {
		while (i < line.size() && blank(line[i]))
			++i;
		const size_t b = i;
		while (i < line.size() && !blank(line[i]))
			++i;
		if (i > b)
			out.push_back(line.substr(b, i - b));
	}
	return out;
}

bool skip_line(const std::vector<std::string_view> &f)
{
	return f.empty() || f.front().front() == '#';
}

// A finite, non-negative decimal number ("12", "0.5", "1e6").
double parse_number(std::string_view text, std::string_view what)
{
	double v = 0;
	const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
	if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
		throw InputError("invalid " + std::string(what) + " " + quoted(text) +
				 ": expected a decimal number");
	if (v < 0)
		throw InputError("invalid " + std::string(what) + " " + quoted(text) +
				 ": must not be negative");
	return v;
}

std::string at(std::string_view source, unsigned line)
{
	return std::string(source) + ":" + std::to_string(line) + ": ";
}

} // namespace

Cdf Cdf::parse(std::istream &in, std::string_view source)
{
	Cdf cdf;
	std::string line;
	unsigned lineno = 0, last_line = 0;
	while (std::getline(in, line)) {
		++lineno;
		const auto f = fields(line);
		if (skip_line(f))
			continue;
		try {
			if (f.size() != 2)
				throw InputError("expected two columns 'size_bytes cumulative_percent', got " +
						 std::to_string(f.size()));
			const Row r{parse_number(f[0], "size"), parse_number(f[1], "cumulative_percent")};
			if (r.percent > 100)
				throw InputError("cumulative_percent " + quoted(f[1]) + " is above 100");
			if (cdf.rows_.empty() && r.percent != 0)
				throw InputError("the first row must have cumulative_percent 0, not " +
						 quoted(f[1]));
			if (!cdf.rows_.empty()) {
				const Row &p = cdf.rows_.back();
				if (r.size < p.size)
					throw InputError("size " + quoted(f[0]) +
							 " is smaller than the previous row's");
				if (r.percent < p.percent)
					throw InputError("cumulative_percent " + quoted(f[1]) +
							 " is smaller than the previous row's");
			}
			cdf.rows_.push_back(r);
			last_line = lineno;
		} catch (const InputError &e) {
			throw InputError(at(source, lineno) + e.what());
		}
	}
	if (in.bad())
		throw InputError(std::string(source) + ": read error");
	if (cdf.rows_.size() < 2)
		throw InputError(std::string(source) + ": a CDF needs at least two rows ('0 0' and"
				 " one ending at 100), found " + std::to_string(cdf.rows_.size()));
	if (cdf.rows_.back().percent != 100)
		throw InputError(at(source, last_line) +
				 "the last row must have cumulative_percent 100");
	return cdf;
}

double Cdf::quantile(double percent) const
{
	percent = std::clamp(percent, 0.0, 100.0);
	// The first row whose percentage is above `percent`.
	const auto it = std::upper_bound(rows_.begin(), rows_.end(), percent,
					 [](double p, const Row &r) { return p < r.percent; });
	if (it == rows_.end())
		return rows_.back().size;
	const Row &hi = *it;
	const Row &lo = *(it - 1); // rows_[0].percent == 0 <= percent
	return lo.size + (hi.size - lo.size) * (percent - lo.percent) / (hi.percent - lo.percent);
}

double Cdf::mean() const
{
	double sum = 0;
	for (size_t i = 1; i < rows_.size(); ++i)
		sum += (rows_[i - 1].size + rows_[i].size) / 2 *
		       (rows_[i].percent - rows_[i - 1].percent);
	return sum / 100;
}

double uniform01(std::mt19937_64 &rng)
{
	return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

double exponential(std::mt19937_64 &rng, double mean)
{
	return -mean * std::log1p(-uniform01(rng));
}

bool matrix_is_inter(unsigned src, unsigned dst)
{
	return (src < kHostsPerDc) != (dst < kHostsPerDc);
}

namespace {

unsigned parse_host(std::string_view text)
{
	return static_cast<unsigned>(parse_uint(text, "host", kMaxHost));
}

MatrixFlow parse_matrix_line(const std::vector<std::string_view> &f)
{
	constexpr const char *kFormat = "expected '<src>-><dst> id <id> start <start_us> size <bytes>'";
	if (f.size() != 7 || f[1] != "id" || f[3] != "start" || f[5] != "size")
		throw InputError(kFormat);
	const auto arrow = f[0].find("->");
	if (arrow == std::string_view::npos)
		throw InputError(std::string(kFormat) + ": no '->' in " + quoted(f[0]));
	MatrixFlow m;
	m.src = parse_host(f[0].substr(0, arrow));
	m.dst = parse_host(f[0].substr(arrow + 2));
	m.id = parse_uint(f[2], "id");
	m.start_us = parse_number(f[4], "start");
	m.size = parse_uint(f[6], "size");
	return m;
}

} // namespace

std::vector<MatrixFlow> parse_matrix(std::istream &in, std::string_view source)
{
	std::vector<MatrixFlow> flows;
	std::string line;
	unsigned lineno = 0;
	bool have_nodes = false, have_conns = false;
	uint64_t conns = 0;
	while (std::getline(in, line)) {
		++lineno;
		const auto f = fields(line);
		if (skip_line(f))
			continue;
		try {
			if (!have_nodes) {
				if (f.size() != 2 || f[0] != "Nodes")
					throw InputError("expected 'Nodes N' as the first line");
				parse_uint(f[1], "Nodes");
				have_nodes = true;
			} else if (!have_conns) {
				if (f.size() != 2 || f[0] != "Connections")
					throw InputError("expected 'Connections M' after 'Nodes N'");
				conns = parse_uint(f[1], "Connections", kMaxGeneratedFlows);
				have_conns = true;
			} else {
				if (flows.size() == conns)
					throw InputError("more flow lines than 'Connections " +
							 std::to_string(conns) + "'");
				MatrixFlow m = parse_matrix_line(f);
				m.line = lineno;
				flows.push_back(m);
			}
		} catch (const InputError &e) {
			throw InputError(at(source, lineno) + e.what());
		}
	}
	if (in.bad())
		throw InputError(std::string(source) + ": read error");
	if (!have_conns)
		throw InputError(std::string(source) + ": no 'Nodes N' and 'Connections M' header");
	if (flows.size() != conns)
		throw InputError(std::string(source) + ": 'Connections " + std::to_string(conns) +
				 "' but " + std::to_string(flows.size()) + " flow lines");
	return flows;
}

void parse_senders(std::string_view text, Senders *out)
{
	const std::string where = "--senders " + quoted(text) + ": ";
	const auto eq = text.find('=');
	const std::string_view cls = text.substr(0, eq);
	if (eq == std::string_view::npos || (cls != kIntra && cls != kInter))
		throw InputError(where + "expected CLASS=NS[,NS...] with CLASS intra or inter");
	std::vector<std::string> &dst = cls == kIntra ? out->intra : out->inter;
	std::string_view rest = text.substr(eq + 1);
	for (;;) {
		const auto comma = rest.find(',');
		const std::string_view ns = rest.substr(0, comma);
		try {
			check_ns_name(ns);
		} catch (const InputError &e) {
			throw InputError(where + e.what());
		}
		dst.emplace_back(ns);
		if (comma == std::string_view::npos)
			break;
		rest.remove_prefix(comma + 1);
	}
}

uint64_t scale_size(double size, double scale, uint64_t min_size)
{
	const double v = std::floor(size * scale);
	if (!(v < 0x1.0p63))
		throw InputError("scaled size " + std::to_string(v) + " is too large");
	return std::max(min_size, static_cast<uint64_t>(v));
}

double cdf_workload_mean_size(const CdfWorkload &w)
{
	const double f = w.intra_fraction;
	const double intra = f > 0 ? f * w.intra->mean() : 0;
	const double inter = f < 1 ? (1 - f) * w.inter->mean() : 0;
	return w.size_scale * (intra + inter);
}

double cdf_workload_mean_gap_us(const CdfWorkload &w)
{
	// 1 Mbit/s is 1 bit/us.
	return cdf_workload_mean_size(w) * 8 / (w.rate_mbps * w.load);
}

std::vector<FlowSpec> generate_cdf_flows(const CdfWorkload &w)
{
	if (!(w.intra_fraction >= 0 && w.intra_fraction <= 1))
		throw InputError("the intra fraction must be between 0 and 1");
	if ((w.intra_fraction > 0 && !w.intra) || (w.intra_fraction < 1 && !w.inter))
		throw InputError(std::string("no CDF for ") +
				 (w.intra_fraction > 0 && !w.intra ? "intra" : "inter") +
				 " flows (--cdf-intra / --cdf-inter; or --intra-fraction 1 or 0)");
	if (!(w.load > 0 && w.load <= 1))
		throw InputError("the load must be in (0, 1]");
	if (!(w.rate_mbps > 0))
		throw InputError("a CDF workload needs --rate-mbps");
	if (!(w.size_scale > 0) || !std::isfinite(w.size_scale))
		throw InputError("the size scale must be positive");
	if (w.flows == 0 && !(w.duration_us > 0))
		throw InputError("a CDF workload needs --flows N or --duration-ms T");
	const double gap = cdf_workload_mean_gap_us(w);
	if (!(gap > 0) || !std::isfinite(gap))
		throw InputError("the mean flow size of the CDFs is 0: no load to offer");

	std::mt19937_64 rng(w.seed);
	std::vector<FlowSpec> out;
	double t = 0;
	for (;;) {
		if (w.flows && out.size() >= w.flows)
			break;
		t += exponential(rng, gap);
		if (w.duration_us > 0 && t >= w.duration_us)
			break;
		if (out.size() >= kMaxGeneratedFlows)
			throw InputError("more than " + std::to_string(kMaxGeneratedFlows) +
					 " flows: give fewer --flows or a shorter --duration-ms");
		if (t > static_cast<double>(kMaxStartUs))
			throw InputError("a start time beyond one day: check --load and --rate-mbps");
		const bool intra = uniform01(rng) < w.intra_fraction;
		const Cdf &cdf = intra ? *w.intra : *w.inter;
		FlowSpec s;
		s.cls = intra ? kIntra : kInter;
		s.size = scale_size(cdf.quantile(100 * uniform01(rng)), w.size_scale, w.min_size);
		s.start_us = static_cast<uint64_t>(std::llround(t));
		out.push_back(std::move(s));
	}
	return out;
}

std::vector<FlowSpec> matrix_flows(const std::vector<MatrixFlow> &m, const MatrixWorkload &w)
{
	if (!(w.time_scale >= 0) || !std::isfinite(w.time_scale))
		throw InputError("the time scale must be a non-negative number");
	if (!(w.size_scale > 0) || !std::isfinite(w.size_scale))
		throw InputError("the size scale must be positive");
	std::vector<size_t> order(m.size());
	std::iota(order.begin(), order.end(), size_t{0});
	std::stable_sort(order.begin(), order.end(),
			 [&](size_t a, size_t b) { return m[a].start_us < m[b].start_us; });
	if (w.max_flows && order.size() > w.max_flows)
		order.resize(w.max_flows);

	std::vector<FlowSpec> out;
	out.reserve(order.size());
	for (size_t i : order) {
		const MatrixFlow &f = m[i];
		const double start = f.start_us * w.time_scale;
		if (start > static_cast<double>(kMaxStartUs))
			throw InputError("matrix line " + std::to_string(f.line) +
					 ": scaled start beyond one day");
		FlowSpec s;
		s.cls = matrix_is_inter(f.src, f.dst) ? kInter : kIntra;
		s.size = scale_size(static_cast<double>(f.size), w.size_scale, w.min_size);
		s.start_us = static_cast<uint64_t>(std::llround(start));
		s.matrix = MatrixRef{f.id, f.src, f.dst};
		out.push_back(std::move(s));
	}
	return out;
}

void assign_senders(std::vector<FlowSpec> &flows, const Senders &s)
{
	size_t next_intra = 0, next_inter = 0;
	for (FlowSpec &f : flows) {
		const bool intra = f.cls == kIntra;
		const std::vector<std::string> &ns = intra ? s.intra : s.inter;
		if (ns.empty())
			throw InputError(std::string("the workload has ") + (intra ? "intra" : "inter") +
					 " flows but no sender namespace for them: give --senders " +
					 (intra ? "intra" : "inter") + "=NS[,NS...]");
		size_t &k = intra ? next_intra : next_inter;
		f.ns = ns[k++ % ns.size()];
	}
}

} // namespace unoperf
