// SPDX-License-Identifier: GPL-2.0
//
// The transport's command-line options (CLI11), for every command that
// runs it: unorc send and recv, unoperf client and server over UnoRC. The
// options are the knobs of knobs.h for the command's end, and --config
// FILE, whose [unorc] table gives their defaults: a value comes from the
// command line, else from the file, else from the command's built-in
// settings.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "knobs.h"
#include "settings.h"

namespace unorc {

// How a flow's code is chosen, and where the defaults come from, for a
// command's footer.
extern const char *const kCodeHelp;

// The configuration file read when --config is not given, if it exists.
extern const char *const kDefaultConfigFile;

// What apply() did.
struct Applied {
	std::string config; // the file read, "" if none
	std::map<std::string, Source> sources; // by knob name: where each value came from
	KnobTexts from_config; // the knobs [unorc] set, of this command's end

	bool from_default(const std::string &knob) const
	{
		return sources.at(knob) == Source::Default;
	}
};

class TransportOptions {
public:
	// Adds --config, --no-code (--code none) and an option per knob of
	// side (and of both ends) to cmd; defaults: the command's built-in
	// settings, for --help. A knob whose option cmd already has (unoperf
	// client's --cc, TCP's congestion control there) adds none: apply()
	// takes that option's values for it, and options() leaves it out.
	TransportOptions(CLI::App *cmd, Side side, const Settings &defaults = {});
	TransportOptions(const TransportOptions &) = delete;
	TransportOptions &operator=(const TransportOptions &) = delete;

	// Every option added, to tell whether one was given.
	const std::vector<CLI::Option *> &options() const { return opts_; }

	// After the command line is parsed: s holds the command's built-in
	// settings; sets in it [unorc] of the configuration file (--config
	// FILE, or default_config if it exists), then the options given.
	// Throws std::invalid_argument with what is wrong: a file that
	// cannot be read or is broken (every error as FILE:LINE:COL: msg,
	// one per line), or an option's value ("--rto-us: value 5 out of
	// range 20..60000000 us").
	Applied apply(Settings &s, const std::string &default_config = kDefaultConfigFile) const;
	// The same for a command that holds its end's settings apart: code
	// and tx (a sender) or rx (a receiver).
	Applied apply(CodeSettings &code, SenderSettings *tx, ReceiverSettings *rx,
		      const std::string &default_config = kDefaultConfigFile) const;

private:
	Side side_;
	std::string config_;
	bool no_code_ = false;
	std::map<std::string, std::vector<std::string>> given_; // knob -> values
	std::map<std::string, const CLI::Option *> shared_;     // knob -> cmd's own option
	std::vector<CLI::Option *> opts_;
	CLI::Option *config_opt_ = nullptr;
	CLI::Option *no_code_opt_ = nullptr;
};

// Whether a knob of side s is one of a command of side cmd.
bool for_side(Side s, Side cmd);

// "[unorc] of FILE: code = none, rto-us = 5000": what the file set, or "".
std::string describe(const Applied &a);

} // namespace unorc
