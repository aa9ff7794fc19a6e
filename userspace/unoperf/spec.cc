// SPDX-License-Identifier: GPL-2.0
#include "spec.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <set>

namespace unoperf {

namespace {

bool is_digits(std::string_view s)
{
	return !s.empty() &&
	       std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string quoted(std::string_view s)
{
	return "'" + std::string(s) + "'";
}

std::string_view trim(std::string_view s)
{
	const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
	while (!s.empty() && blank(s.front()))
		s.remove_prefix(1);
	while (!s.empty() && blank(s.back()))
		s.remove_suffix(1);
	return s;
}

} // namespace

void check_ns_name(std::string_view ns)
{
	if (ns.empty())
		throw InputError("empty ns name");
	if (ns == kCurrentNs)
		return;
	// `ip netns add NAME` makes /run/netns/NAME: the name is one path component.
	if (ns == "." || ns == ".." || ns.find('/') != std::string_view::npos ||
	    ns.find('\0') != std::string_view::npos)
		throw InputError("invalid ns " + quoted(ns) +
				 ": must be a name under /run/netns (or '-' for the current namespace)");
	if (ns.size() > NAME_MAX)
		throw InputError("invalid ns: longer than " + std::to_string(NAME_MAX) + " characters");
}

void check_cc_name(std::string_view cc)
{
	if (cc.empty())
		throw InputError("empty cc name");
	if (cc.size() > kMaxCcName)
		throw InputError("invalid cc " + quoted(cc) + ": longer than " +
				 std::to_string(kMaxCcName) + " characters");
	for (char c : cc)
		if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
			throw InputError("invalid cc " + quoted(cc) +
					 ": contains a blank or control character");
}

uint64_t parse_uint(std::string_view text, std::string_view what, uint64_t max)
{
	const std::string name(what);
	if (!text.empty() && text.front() == '-' && is_digits(text.substr(1)))
		throw InputError("invalid " + name + " " + quoted(text) + ": must not be negative");
	if (!is_digits(text))
		throw InputError("invalid " + name + " " + quoted(text) +
				 ": expected a non-negative decimal integer");
	uint64_t value = 0;
	const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
	if (ec == std::errc::result_out_of_range || value > max)
		throw InputError("invalid " + name + " " + quoted(text) + ": larger than " +
				 std::to_string(max));
	if (ec != std::errc() || end != text.data() + text.size())
		throw InputError("invalid " + name + " " + quoted(text));
	return value;
}

uint64_t parse_size(std::string_view text)
{
	uint64_t mult = 1;
	std::string_view digits = text;
	if (!text.empty()) {
		switch (text.back()) {
		case 'k': case 'K': mult = 1000ULL; break;
		case 'm': case 'M': mult = 1000ULL * 1000; break;
		case 'g': case 'G': mult = 1000ULL * 1000 * 1000; break;
		default: break;
		}
		if (mult != 1)
			digits.remove_suffix(1);
	}
	if (!is_digits(digits)) {
		if (!digits.empty() && digits.front() == '-')
			throw InputError("invalid size " + quoted(text) + ": must not be negative");
		throw InputError("invalid size " + quoted(text) +
				 ": expected bytes as a decimal integer with an optional k, m or g"
				 " suffix (1000-based)");
	}
	uint64_t n = 0;
	const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
	if (ec == std::errc::result_out_of_range || n > UINT64_MAX / mult)
		throw InputError("invalid size " + quoted(text) + ": larger than " +
				 std::to_string(UINT64_MAX) + " bytes");
	if (ec != std::errc() || end != digits.data() + digits.size())
		throw InputError("invalid size " + quoted(text));
	if (n == 0)
		throw InputError("invalid size " + quoted(text) + ": must be at least 1 byte");
	return n * mult;
}

bool Endpoint::v6() const
{
	return addr.find(':') != std::string::npos;
}

std::string Endpoint::str() const
{
	return (v6() ? "[" + addr + "]" : addr) + ":" + std::to_string(port);
}

std::string parse_ipv4(std::string_view text)
{
	in_addr a{};
	std::string addr(text);
	if (inet_pton(AF_INET, addr.c_str(), &a) != 1)
		throw InputError("invalid address " + quoted(text) +
				 ": expected an IPv4 address like 192.168.77.2");
	return addr;
}

std::string parse_ipv6(std::string_view text)
{
	in6_addr a{};
	std::string addr(text);
	if (inet_pton(AF_INET6, addr.c_str(), &a) != 1)
		throw InputError("invalid address " + quoted(text) +
				 ": expected an IPv6 address like fd00::2");
	return addr;
}

std::string parse_ip(std::string_view text)
{
	return text.find(':') == std::string_view::npos ? parse_ipv4(text) : parse_ipv6(text);
}

namespace {

uint16_t parse_port(std::string_view text)
{
	const uint64_t p = parse_uint(text, "port", 65535);
	if (p == 0)
		throw InputError("invalid port " + quoted(text) + ": must be 1 to 65535");
	return static_cast<uint16_t>(p);
}

// "[V6ADDR]" or "[V6ADDR]:PORT".
Endpoint parse_bracketed(std::string_view text, uint16_t default_port)
{
	const auto close = text.find(']');
	if (close == std::string_view::npos)
		throw InputError("invalid address " + quoted(text) + ": no ']' after the IPv6 address");
	Endpoint ep{parse_ipv6(text.substr(1, close - 1)), default_port};
	const std::string_view rest = text.substr(close + 1);
	if (rest.empty())
		return ep;
	if (rest.front() != ':')
		throw InputError("invalid address " + quoted(text) + ": expected ':PORT' after ']'");
	ep.port = parse_port(rest.substr(1));
	return ep;
}

} // namespace

Endpoint parse_endpoint(std::string_view text, uint16_t default_port)
{
	if (!text.empty() && text.front() == '[')
		return parse_bracketed(text, default_port);
	Endpoint ep;
	ep.port = default_port;
	std::string_view addr = text;
	if (const auto colon = text.rfind(':'); colon != std::string_view::npos) {
		addr = text.substr(0, colon);
		ep.port = parse_port(text.substr(colon + 1));
	}
	ep.addr = parse_ipv4(addr);
	return ep;
}

std::string_view flow_spec_keys()
{
	return "ns, size, cc, start, class, base_rtt, dst, count";
}

FlowSpec parse_flow_spec(std::string_view text)
{
	const std::string where = "flow spec " + quoted(text) + ": ";
	FlowSpec spec;
	std::set<std::string, std::less<>> seen;

	if (text.empty())
		throw InputError("empty flow spec");
	try {
		std::string_view rest = text;
		while (true) {
			const auto comma = rest.find(',');
			const std::string_view item = rest.substr(0, comma);
			const auto eq = item.find('=');
			if (eq == std::string_view::npos)
				throw InputError(item.empty() ? "empty item (stray comma?)"
							      : "item " + quoted(item) +
								" is not key=value");
			const std::string_view key = item.substr(0, eq);
			const std::string_view value = item.substr(eq + 1);
			if (!seen.emplace(key).second)
				throw InputError("key " + quoted(key) + " given twice");
			if (value.empty())
				throw InputError("key " + quoted(key) + " has an empty value");

			if (key == "ns") {
				check_ns_name(value);
				spec.ns = value;
			} else if (key == "size") {
				spec.size = parse_size(value);
			} else if (key == "cc") {
				check_cc_name(value);
				spec.cc = value;
			} else if (key == "start") {
				spec.start_us = parse_uint(value, "start (microseconds)", kMaxStartUs);
			} else if (key == "class") {
				spec.cls = value;
			} else if (key == "base_rtt") {
				spec.base_rtt_us = parse_uint(value, "base_rtt (microseconds)");
			} else if (key == "dst") {
				spec.dst = parse_endpoint(value);
			} else if (key == "count") {
				const uint64_t n = parse_uint(value, "count", kMaxCount);
				if (n == 0)
					throw InputError("invalid count '0': must be at least 1");
				spec.count = static_cast<unsigned>(n);
			} else {
				throw InputError("unknown key " + quoted(key) + " (known keys: " +
						 std::string(flow_spec_keys()) + ")");
			}

			if (comma == std::string_view::npos)
				break;
			rest.remove_prefix(comma + 1);
		}
	} catch (const InputError &e) {
		throw InputError(where + e.what());
	}

	if (!seen.contains("ns"))
		throw InputError(where + "missing required key 'ns' (use ns=- for the current namespace)");
	if (!seen.contains("size"))
		throw InputError(where + "missing required key 'size'");
	return spec;
}

std::vector<FlowSpec> parse_flows_file(std::istream &in, std::string_view source)
{
	std::vector<FlowSpec> specs;
	std::string line;
	unsigned lineno = 0;
	while (std::getline(in, line)) {
		++lineno;
		const std::string_view s = trim(line);
		if (s.empty() || s.front() == '#')
			continue;
		try {
			specs.push_back(parse_flow_spec(s));
		} catch (const InputError &e) {
			throw InputError(std::string(source) + ":" + std::to_string(lineno) + ": " +
					 e.what());
		}
	}
	if (in.bad())
		throw InputError(std::string(source) + ": read error");
	return specs;
}

} // namespace unoperf
