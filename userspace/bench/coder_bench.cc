// SPDX-License-Identifier: GPL-2.0
//
// coder_bench: encode and decode throughput of UnoRC's block code
// (unorc::BlockCoder, Reed-Solomon on ISA-L) on one core; make bench runs
// it (Documentation/benchmarks.rst). A benchmark, not a timed test: its
// numbers depend on the CPU, on the code path ISA-L picks for it (SSE,
// AVX2, AVX-512, GFNI) and on what else the machine runs.
//
//   coder_bench [-t SECONDS] [-c CPU] [-l LEN]... [-o FILE] [X+Y ...]
//
// Every point is one code, one payload length and one operation: encode a
// block, or decode it with 0, 1 or 2 of its data packets lost (a lost
// parity packet costs the decoder nothing, so these are the worst cases).
// The calls run back to back on one block, single-threaded and pinned to
// one CPU, for at least SECONDS (0.5) of CLOCK_MONOTONIC. Throughput counts
// the block's data bytes, x * LEN, in MB/s (10^6 bytes). A table goes to
// stdout; with -o, FILE gets one JSON object per point.

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "coder.h"

namespace {

using unorc::BlockCoder;

// unorc's default payload (1400: an IPv6 packet of it fits a 1500-byte
// MTU), and the largest whose IPv6 packet (40 + 8 + 40 bytes of headers)
// fits the testbed's 4000-byte MTU (selftests/lib/testbed.sh).
const size_t kDefaultLens[] = {1400, 3912};

struct Code {
	int x;
	int y;
};

// The paper's (8, 2) first, then a smaller and a larger one at its rate.
const Code kDefaultCodes[] = {{8, 2}, {4, 1}, {16, 4}};

// Decode with 0 .. kMaxLost data packets lost, as far as y allows.
constexpr int kMaxLost = 2;
constexpr int kCols = 1 + 1 + kMaxLost;	// encode, decode 0..kMaxLost

struct Options {
	double seconds = 0.5;
	int cpu = -1;			// -1: the last CPU we may run on
	const char *out = nullptr;
	std::vector<size_t> lens;
	std::vector<Code> codes;
};

struct Point {
	Code code;
	size_t len;
	const char *op;			// "encode", "decode"
	int lost;			// data packets lost (decode)
	uint64_t blocks;
	uint64_t ns;
};

uint64_t now_ns()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

double us_per_block(const Point &p)
{
	return p.ns / 1e3 / p.blocks;
}

double mb_per_s(const Point &p)
{
	return (double)p.code.x * p.len * p.blocks / p.ns * 1e3;
}

// Pins us to @cpu, or to the last CPU we may run on if @cpu < 0 (CPU 0
// takes most interrupts on many machines). Returns the CPU.
int pin(int cpu)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		perror("coder_bench: sched_getaffinity");
		exit(1);
	}
	if (cpu < 0)
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				cpu = c;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "coder_bench: cannot run on CPU %d: %s\n", cpu,
			strerror(errno));
		exit(1);
	}
	return cpu;
}

// Calls @op in batches until one batch lasts at least @min_ns; the point
// is that batch. A batch aims 10 % past @min_ns from the last one's pace,
// so the earlier, shorter ones also warm the caches and the clock.
template <typename Op> void time_op(Point &p, uint64_t min_ns, Op op)
{
	uint64_t n = 16;

	for (;;) {
		const uint64_t t0 = now_ns();

		for (uint64_t i = 0; i < n; i++)
			op();
		const uint64_t dt = now_ns() - t0;

		if (dt >= min_ns) {
			p.blocks = n;
			p.ns = dt;
			return;
		}
		n = dt ? std::min(n * 100, (uint64_t)(1.1 * n * min_ns / dt) + 1) :
			 n * 100;
	}
}

// One block as the receiver holds it: n payloads of len bytes back to
// back, data then parity (Receiver::Block::buf).
struct Block {
	const BlockCoder &coder;
	std::vector<uint8_t> buf;
	std::vector<uint8_t> sent;	// the data payloads, to check decoding

	explicit Block(const BlockCoder &c)
		: coder(c), buf((size_t)c.packets() * c.len())
	{
		uint64_t v = 0x9e3779b97f4a7c15ULL;

		for (size_t i = 0; i < (size_t)c.data() * c.len(); i++) {
			v = v * 6364136223846793005ULL + 1442695040888963407ULL;
			buf[i] = (uint8_t)(v >> 56);
		}
		sent.assign(buf.begin(), buf.begin() + c.data() * c.len());
	}

	uint8_t *pkt(int i) { return &buf[(size_t)i * coder.len()]; }
};

Point bench_encode(Block &b, uint64_t min_ns)
{
	const BlockCoder &c = b.coder;
	std::vector<const uint8_t *> data(c.data());
	std::vector<uint8_t *> parity(c.parity());
	Point p = {{c.data(), c.parity()}, c.len(), "encode", 0, 0, 0};

	for (int i = 0; i < c.data(); i++)
		data[i] = b.pkt(i);
	for (int r = 0; r < c.parity(); r++)
		parity[r] = b.pkt(c.data() + r);
	time_op(p, min_ns, [&] { c.encode(data, parity); });
	return p;
}

// A full block whose data packets 0..@lost-1 did not arrive, decoded into
// their slots as Receiver::complete() does. Checks the bytes once first.
Point bench_decode(Block &b, int lost, uint64_t min_ns)
{
	const BlockCoder &c = b.coder;
	std::vector<const uint8_t *> rx(c.packets());
	std::vector<uint8_t *> out(c.data());
	Point p = {{c.data(), c.parity()}, c.len(), "decode", lost, 0, 0};

	for (int i = 0; i < c.packets(); i++)
		rx[i] = i < lost ? nullptr : b.pkt(i);
	for (int i = 0; i < c.data(); i++)
		out[i] = b.pkt(i);

	std::fill_n(b.buf.begin(), (size_t)lost * c.len(), 0);
	if (!c.decode(rx, out) ||
	    !std::equal(b.sent.begin(), b.sent.end(), b.buf.begin())) {
		fprintf(stderr, "coder_bench: (%d, %d) len %zu: %d lost: bad decode\n",
			c.data(), c.parity(), c.len(), lost);
		exit(1);
	}
	time_op(p, min_ns, [&] {
		if (!c.decode(rx, out))
			abort();
	});
	return p;
}

// encode, then decode with 0 .. min(y, kMaxLost) data packets lost.
std::vector<Point> bench_code(Code code, size_t len, uint64_t min_ns)
{
	const BlockCoder c(len, code.x, code.y);
	Block b(c);
	std::vector<Point> pts;

	pts.push_back(bench_encode(b, min_ns));
	for (int lost = 0; lost <= std::min(code.y, kMaxLost); lost++)
		pts.push_back(bench_decode(b, lost, min_ns));
	return pts;
}

void print_header(int cpu)
{
	printf("UnoRC block code, one core (CPU %d): MB/s of data, us per block\n\n",
	       cpu);
	printf("%-6s %7s  %-15s %-15s %-15s %s\n", "code", "payload",
	       "encode", "decode: 0 lost", "1 lost", "2 lost");
	printf("%-6s %7s ", "", "");
	for (int i = 0; i < kCols; i++)
		printf(" %7s %7s", "MB/s", "us");
	printf("\n");
}

void print_row(const std::vector<Point> &pts)
{
	const Point &p0 = pts.front();
	char code[16];

	snprintf(code, sizeof(code), "%d+%d", p0.code.x, p0.code.y);
	printf("%-6s %7zu ", code, p0.len);
	for (int i = 0; i < kCols; i++) {
		if (i < (int)pts.size())
			printf(" %7.0f %7.2f", mb_per_s(pts[i]),
			       us_per_block(pts[i]));
		else
			printf(" %7s %7s", "-", "-");
	}
	printf("\n");
	fflush(stdout);
}

FILE *open_json(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "coder_bench: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

// One object a line, in an array: a file jq reads as it reads cc_cost.json.
void write_json(FILE *f, const char *path, const std::vector<Point> &pts,
		int cpu)
{
	fprintf(f, "[\n");
	for (size_t i = 0; i < pts.size(); i++) {
		const Point &p = pts[i];

		fprintf(f, "{\"code\":\"%d+%d\",\"x\":%d,\"y\":%d,\"payload\":%zu,"
			"\"op\":\"%s\",\"lost\":%d,\"cpu\":%d,\"blocks\":%llu,"
			"\"ns\":%llu,\"us_per_block\":%.3f,\"mb_per_s\":%.1f}%s\n",
			p.code.x, p.code.y, p.code.x, p.code.y, p.len, p.op,
			p.lost, cpu, (unsigned long long)p.blocks,
			(unsigned long long)p.ns, us_per_block(p), mb_per_s(p),
			i + 1 < pts.size() ? "," : "");
	}
	fprintf(f, "]\n");
	if (fclose(f)) {
		fprintf(stderr, "coder_bench: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

void usage()
{
	fprintf(stderr, "usage: coder_bench [-t SECONDS] [-c CPU] [-l LEN]... "
		"[-o FILE] [X+Y ...]\n");
	exit(2);
}

bool parse_code(const char *s, Code &c)
{
	char end;

	return sscanf(s, "%d+%d%c", &c.x, &c.y, &end) == 2;
}

Options parse_args(int argc, char **argv)
{
	Options o;

	for (int i = 1; i < argc; i++) {
		const bool arg = i + 1 < argc;
		Code c;

		if (!strcmp(argv[i], "-t") && arg) {
			o.seconds = atof(argv[++i]);
			if (!(o.seconds > 0))
				usage();
		} else if (!strcmp(argv[i], "-c") && arg) {
			o.cpu = atoi(argv[++i]);
			if (o.cpu < 0 || o.cpu >= CPU_SETSIZE)
				usage();
		} else if (!strcmp(argv[i], "-l") && arg) {
			o.lens.push_back(strtoul(argv[++i], nullptr, 10));
		} else if (!strcmp(argv[i], "-o") && arg) {
			o.out = argv[++i];
		} else if (argv[i][0] != '-' && parse_code(argv[i], c)) {
			o.codes.push_back(c);
		} else {
			usage();
		}
	}
	if (o.lens.empty())
		o.lens.assign(std::begin(kDefaultLens), std::end(kDefaultLens));
	if (o.codes.empty())
		o.codes.assign(std::begin(kDefaultCodes), std::end(kDefaultCodes));
	return o;
}

// Every code and length must be one BlockCoder takes, before any measuring.
void check_points(const Options &o)
{
	for (const Code &code : o.codes) {
		for (size_t len : o.lens) {
			try {
				BlockCoder(len, code.x, code.y);
			} catch (const std::invalid_argument &e) {
				fprintf(stderr, "coder_bench: %s\n", e.what());
				exit(2);
			}
		}
	}
}

} // namespace

int main(int argc, char **argv)
{
	const Options o = parse_args(argc, argv);
	const uint64_t min_ns = (uint64_t)(o.seconds * 1e9);
	std::vector<Point> all;

	check_points(o);
	FILE *json = o.out ? open_json(o.out) : nullptr;
	const int cpu = pin(o.cpu);

	print_header(cpu);
	for (const Code &code : o.codes) {
		for (size_t len : o.lens) {
			const std::vector<Point> pts = bench_code(code, len, min_ns);

			print_row(pts);
			all.insert(all.end(), pts.begin(), pts.end());
		}
	}
	if (json)
		write_json(json, o.out, all, cpu);
	return 0;
}
