// SPDX-License-Identifier: GPL-2.0
//
// unoperf: parsing of the user's input (sizes, endpoints, flow specs).
// Pure functions: no sockets, no system state, so they are unit-tested alone.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace unoperf {

// Bad user input. The message is complete and meant for stderr as is.
class InputError : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

inline constexpr uint16_t kDefaultPort = 5301;
// Linux TCP_CA_NAME_MAX is 16, including the terminating NUL.
inline constexpr size_t kMaxCcName = 15;
// A start offset past one day is a typo, and keeps offset * 1000 far from overflow.
inline constexpr uint64_t kMaxStartUs = 86'400'000'000ULL;
inline constexpr unsigned kMaxCount = 10'000;
// Flow spec ns value meaning "stay in the caller's network namespace".
inline constexpr std::string_view kCurrentNs = "-";

// An unsigned decimal integer, digits only (no sign, no blanks, no 0x).
// `what` names the value in the error message.
uint64_t parse_uint(std::string_view text, std::string_view what,
		    uint64_t max = UINT64_MAX);

// A byte count: decimal digits with an optional k, m or g suffix (either
// case), 1000-based: "8m" is 8000000. At least 1 byte.
uint64_t parse_size(std::string_view text);

struct Endpoint {
	std::string addr;  // dotted IPv4 or IPv6 text, validated
	uint16_t port = kDefaultPort;

	bool operator==(const Endpoint &) const = default;
	bool v6() const;
	// "ADDR:PORT", "[V6ADDR]:PORT".
	std::string str() const;
};

// An IPv4 address in dotted form, returned as given.
std::string parse_ipv4(std::string_view text);
// An IPv6 address (no brackets), returned as given.
std::string parse_ipv6(std::string_view text);
// Either: IPv6 if it has a ':'.
std::string parse_ip(std::string_view text);

// "ADDR" or "ADDR:PORT", ADDR an IPv4 address in dotted form; "[V6ADDR]"
// or "[V6ADDR]:PORT".
Endpoint parse_endpoint(std::string_view text, uint16_t default_port = kDefaultPort);

// Where a flow of a connection matrix came from (not a --flow key).
struct MatrixRef {
	uint64_t id = 0;  // the line's id
	unsigned src = 0; // host numbers; every dst maps onto the one server
	unsigned dst = 0;

	bool operator==(const MatrixRef &) const = default;
};

// One --flow argument: comma-separated key=value pairs, for example
// "ns=uno-h1,size=8m,cc=dctcp,start=0,class=intra".
struct FlowSpec {
	std::string ns;                      // required; kCurrentNs for none
	uint64_t size = 0;                   // required, bytes
	std::string cc;                      // empty: the namespace's default
	uint64_t start_us = 0;               // offset from the common start
	std::string cls;                     // free-form label, may be empty
	std::optional<uint64_t> base_rtt_us; // for slowdown
	std::optional<Endpoint> dst;         // overrides --dst
	unsigned count = 1;                  // this many identical flows
	std::optional<MatrixRef> matrix;     // set by the matrix workload only

	bool operator==(const FlowSpec &) const = default;
};

// Checks of single values, shared with the command-line options.
// A network namespace name: one file name under /run/netns, or kCurrentNs.
void check_ns_name(std::string_view ns);
// A TCP congestion control name: 1 to kMaxCcName printable characters.
void check_cc_name(std::string_view cc);

// Throws InputError naming the spec and the offending key.
FlowSpec parse_flow_spec(std::string_view text);

// One flow spec per line; blank lines and lines starting with '#' are
// skipped, surrounding blanks trimmed. Errors name `source` and the line.
std::vector<FlowSpec> parse_flows_file(std::istream &in, std::string_view source);

// The key list for help texts and error messages.
std::string_view flow_spec_keys();

} // namespace unoperf
