// SPDX-License-Identifier: GPL-2.0
#include "rc.h"

#include <stdexcept>

using nlohmann::json;

namespace unoctl {

namespace {

json value_json(const unorc::KnobValue &v)
{
	return std::visit([](const auto &x) { return json(x); }, v);
}

// The settings shown: every one, or param's.
std::vector<unorc::KnobSetting> selected(const unorc::KnobTexts &config, const std::string &param)
{
	std::vector<unorc::KnobSetting> all = unorc::effective_settings(config);
	if (param.empty())
		return all;
	std::string names;
	for (const unorc::KnobSetting &s : all) {
		if (s.knob->name == param)
			return { s };
		names += (names.empty() ? "" : ", ") + std::string(s.knob->name);
	}
	throw std::invalid_argument("rc show: no setting '" + param + "' (known: " + names + ")");
}

bool integral(const unorc::Knob &k)
{
	return k.type == unorc::TomlType::Integer || k.type == unorc::TomlType::IntegerOrWord;
}

std::string shown(const unorc::KnobValue &v)
{
	const std::string s = unorc::value_text(v);
	return s.empty() ? "-" : s;
}

} // namespace

json rc_json(const unorc::KnobTexts &config, const std::string &param, bool details)
{
	json out = json::array();
	for (const unorc::KnobSetting &s : selected(config, param)) {
		const unorc::Knob &k = *s.knob;
		json j = { { "param", k.name },
			   { "value", value_json(s.value) },
			   { "default", value_json(s.builtin) },
			   { "source", unorc::source_name(s.source) },
			   { "side", unorc::side_name(k.side) },
			   { "syntax", unorc::knob_syntax(k) } };
		if (integral(k)) {
			j["min"] = k.min;
			j["max"] = k.max;
			j["unit"] = k.unit;
		}
		if (details)
			j["description"] = k.help;
		out.push_back(j);
	}
	return out;
}

std::string rc_text(const unorc::KnobTexts &config, const std::optional<std::string> &config_path,
		    const std::string &default_path, const std::string &param, bool details)
{
	const std::vector<unorc::KnobSetting> settings = selected(config, param);
	// Columns as cc show's: left-aligned, one space at least between.
	const auto row = [](const std::string &name, const std::string &value,
			    const std::string &source, const std::string &side,
			    const std::string &values) {
		const auto pad = [](std::string s, size_t w) {
			return s.size() < w ? s + std::string(w - s.size(), ' ') : s;
		};
		return pad(name, 13) + " " + pad(value, 24) + " " + pad(source, 8) + " " +
		       pad(side, 9) + " " + values + "\n";
	};
	std::string out = config_path ? "config " + *config_path + "\n"
				      : "config none (no " + default_path + "): built-in defaults\n";
	out += row("param", "value", "source", "side", "values");
	for (const unorc::KnobSetting &s : settings) {
		const unorc::Knob &k = *s.knob;
		out += row(std::string(k.name), shown(s.value), unorc::source_name(s.source),
			   unorc::side_name(k.side), unorc::knob_syntax(k));
		if (details)
			out += "              " + std::string(k.help) + " (default " +
			       shown(s.builtin) + ")\n";
	}
	return out;
}

} // namespace unoctl
