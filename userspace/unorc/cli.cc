// SPDX-License-Identifier: GPL-2.0
#include "cli.h"

#include <optional>
#include <stdexcept>

#include "config.h" // libuno's: /etc/uno/uno.toml

namespace unorc {

const char *const kCodeHelp = R"(
Both ends must agree on --payload and the code: the wire carries neither.
A flow's code: --code X+Y, X data and Y parity packets per block; --code none
(--no-code), no parity; --code auto (the default), 8+2 for a peer in an
--inter-prefix (inter-DC, spec 6.1) and none for any other (intra-DC:
per-packet ACKs and the RTO only).
Defaults: [unorc] of --config FILE (default /etc/uno/uno.toml, if it exists;
keys are these options' names: rto-us = 5000), then the built-in ones shown;
an option given overrides the file. unoctl rc show prints what the file sets.)";

const char *const kDefaultConfigFile = uno::kDefaultConfigPath;

bool for_side(Side s, Side cmd)
{
	return s == Side::Both || s == cmd;
}

TransportOptions::TransportOptions(CLI::App *cmd, Side side, const Settings &defaults)
	: side_(side)
{
	config_opt_ = cmd->add_option("--config", config_,
				      "[unorc] of FILE gives these options' defaults (default: " +
					      std::string(kDefaultConfigFile) + " if it exists)")
			      ->type_name("FILE");
	opts_.push_back(config_opt_);
	for (const Knob &k : knobs()) {
		if (!for_side(k.side, side))
			continue;
		std::vector<std::string> &values = given_[std::string(k.name)];
		const std::string name = "--" + std::string(k.name);
		if (const CLI::Option *own = cmd->get_option_no_throw(name)) {
			shared_[std::string(k.name)] = own;
			continue;
		}
		const std::string syntax = knob_syntax(k);
		const std::string help =
			std::string(k.help) + (syntax == k.metavar ? "" : "; " + syntax);
		CLI::Option *o;
		if (k.type == TomlType::Strings) {
			o = cmd->add_option(name, values, help);
		} else {
			// One value; the last of several, as for any other option.
			o = cmd->add_option(name, values, help)
				    ->expected(1)
				    ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
			if (k.name != "source-port")
				o->default_str(value_text(k.get(defaults)));
		}
		o->type_name(std::string(k.metavar));
		opts_.push_back(o);
		if (k.name == "code") {
			no_code_opt_ = cmd->add_flag("--no-code", no_code_, "--code none")->excludes(o);
			opts_.push_back(no_code_opt_);
		}
	}
}

namespace {

// [unorc] of the file, the knobs of side only. Throws
// std::invalid_argument with every error of a broken file.
KnobTexts read_unorc(const std::string &path, Side side)
{
	const uno::ConfigResult r = uno::read_config(path);
	if (!r.config) {
		std::string msg;
		for (const uno::ConfigError &e : r.errors)
			msg += (msg.empty() ? "" : "\n") + uno::format_error(path, e);
		throw std::invalid_argument(msg);
	}
	KnobTexts texts;
	for (const auto &[name, values] : r.config->unorc)
		if (const Knob *k = find_knob(name); k && for_side(k->side, side))
			texts[name] = values;
	return texts;
}

} // namespace

Applied TransportOptions::apply(Settings &s, const std::string &default_config) const
{
	Applied a;
	const auto path = uno::config_to_read(
		config_opt_->count() ? std::optional(config_) : std::nullopt, default_config);
	if (path) {
		a.config = *path;
		a.from_config = read_unorc(a.config, side_);
	}
	if (const std::string why = apply_knobs(s, a.from_config, "[unorc] of " + a.config + ": ");
	    !why.empty())
		throw std::invalid_argument(why); // libuno checked them: not reached

	KnobTexts cli;
	for (const Knob &k : knobs()) {
		const std::string name(k.name);
		if (!for_side(k.side, side_))
			continue;
		a.sources[name] = a.from_config.contains(name) ? Source::Config : Source::Default;
		if (!given_.at(name).empty())
			cli[name] = given_.at(name);
		if (const auto own = shared_.find(name); own != shared_.end() && own->second->count())
			cli[name] = own->second->results();
	}
	if (no_code_)
		cli["code"] = { "none" };
	if (const std::string why = apply_knobs(s, cli, "--"); !why.empty())
		throw std::invalid_argument(why);
	for (const auto &[name, values] : cli)
		a.sources[name] = Source::CommandLine;
	return a;
}

Applied TransportOptions::apply(CodeSettings &code, SenderSettings *tx, ReceiverSettings *rx,
				const std::string &default_config) const
{
	Settings s;
	s.code = code;
	if (tx)
		s.tx = *tx;
	if (rx)
		s.rx = *rx;
	const Applied a = apply(s, default_config);
	code = s.code;
	if (tx)
		*tx = s.tx;
	if (rx)
		*rx = s.rx;
	return a;
}

std::string describe(const Applied &a)
{
	if (a.from_config.empty())
		return {};
	std::string out;
	for (const Knob &k : knobs()) {
		const auto it = a.from_config.find(std::string(k.name));
		if (it == a.from_config.end())
			continue;
		std::string values;
		for (const std::string &v : it->second)
			values += (values.empty() ? "" : " ") + v;
		out += (out.empty() ? "" : ", ") + it->first + " = " + values;
	}
	return "[unorc] of " + a.config + ": " + out;
}

} // namespace unorc
