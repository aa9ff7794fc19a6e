// SPDX-License-Identifier: GPL-2.0
//
// The run-time parameters of tcp_uno, tcp_smartt, tcp_swift and tcp_timely as user space knows
// them: expanded from the very lists the modules are built from
// (kernel/tcp_*_params.h), plus friendly aliases with unit conversion.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace uno {

// uapi UNO_APPLY_*: when connections see a change.
enum class Apply : uint8_t { Ack = 0, Rebase = 1, New = 2 };

const char *apply_name(Apply a);

struct ParamSpec {
	std::string_view cc;
	std::string_view name;
	uint32_t min;
	uint32_t max;
	Apply apply;
	std::string_view desc;
};

// An alias: value given in `unit`, raw = round(value * scale).
struct ParamAlias {
	std::string_view cc;
	std::string_view alias;
	std::string_view raw;
	double scale;
	std::string_view unit;
};

std::span<const ParamSpec> param_specs();
std::span<const ParamAlias> param_aliases();
const ParamSpec *find_param(std::string_view cc, std::string_view name);
const ParamAlias *find_alias(std::string_view cc, std::string_view alias);
// The CCs with parameters, in the table's order ("uno", "smartt", "swift",
// "timely").
const std::vector<std::string> &cc_names();
bool known_cc(std::string_view cc);
// "unknown congestion control 'x' (known: uno, ...)"
std::string unknown_cc_msg(std::string_view cc);

struct ParamValue {
	std::string name; // the raw (module parameter) name
	uint32_t value;
};

// `name` is a raw name (value: an unsigned integer, decimal or 0x hex) or an
// alias (value: a decimal number in the alias' unit). On failure returns
// nothing and sets `err` to a message for the user.
std::optional<ParamValue> parse_param(std::string_view cc, std::string_view name,
				      std::string_view text, std::string &err);

// The same for a number already parsed (from a config file); `integral`
// says the number was written as an integer.
std::optional<ParamValue> scale_param(std::string_view cc, std::string_view name,
				      double value, bool integral, std::string &err);

} // namespace uno
