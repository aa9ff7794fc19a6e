// SPDX-License-Identifier: GPL-2.0
//
// The transport's settings by name: one table of every knob, with the
// values it takes, its range, unit and parser, for the command lines of
// unorc and unoperf (cli.h) and for [unorc] of /etc/uno/uno.toml (libuno's
// config parser, unoctl rc show). A knob's name is its option without the
// dashes and its key in [unorc]: --rto-us 5000 is rto-us = 5000.
//
// No transport header here: libuno and unoctl include it.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace unorc {

struct Settings; // settings.h

// Which end of a flow a knob is for: a command takes the knobs of its end
// and those of both.
enum class Side : uint8_t { Both, Sender, Receiver };
const char *side_name(Side s); // "both", "sender", "receiver"

// How [unorc] writes a knob's value.
enum class TomlType : uint8_t {
	Integer,         // an integer
	String,          // a string
	IntegerOrWord,   // an integer, or a string: the knob's word or digits
	Strings,         // an array of strings, or one; the option repeats
};

// A value as [unorc] holds it: an integer, a string, a list of strings.
using KnobValue = std::variant<uint64_t, std::string, std::vector<std::string>>;

struct Knob {
	std::string_view name;   // --NAME, and the key in [unorc]
	Side side;
	TomlType type;
	std::string_view metavar = {}; // for --help: "US", "X+Y", "CIDR"
	std::string_view unit = {};    // "us", "bytes", "Mbit/s" or ""
	std::string_view help = {};
	// Non-empty: a command-line option only, and why.
	std::string_view cli_only = {};
	// Integer and IntegerOrWord knobs: the range, and the word that
	// stands for another value ("auto", "off").
	uint64_t min = 0, max = 0;
	std::string_view word = {};
	// String and Strings knobs: the values they take.
	std::string_view syntax = {};
	// Checks one value, as the command line or the file writes it (an
	// element of a Strings knob), and stores it in s (appends, for
	// Strings). Returns "" or what is wrong with it, the value named.
	std::string (*set)(const Knob &k, Settings &s, const std::string &text) = nullptr;
	KnobValue (*get)(const Settings &s) = nullptr;
	// Strings knobs: empties the list; a value given replaces it.
	void (*clear)(Settings &s) = nullptr;
};

// The values a knob takes: "20..60000000 us", "auto or 1..16", "CIDR".
std::string knob_syntax(const Knob &k);

// Every knob, in the order of --help and unoctl rc show.
std::span<const Knob> knobs();
const Knob *find_knob(std::string_view name);

// "10000", "auto", "10.1.0.0/16 10.2.0.0/16" (space-separated).
std::string value_text(const KnobValue &v);

// What is wrong with a value of k, "" if nothing: k.set() on scratch
// settings.
std::string check_knob(const Knob &k, const std::string &text);

// Knob name -> its values as text: [unorc] as libuno's Config holds it
// (checked), or the options of a command line.
using KnobTexts = std::map<std::string, std::vector<std::string>>;

// Sets every knob texts names into s: a Strings knob's list is replaced by
// its values. Returns "" or the first value refused, as
// "NAME: what is wrong" (with prefix before NAME).
std::string apply_knobs(Settings &s, const KnobTexts &texts, std::string_view prefix = "");

// Where a knob's effective value comes from.
enum class Source : uint8_t { Default, Config, CommandLine };
const char *source_name(Source s); // "default", "config", "command line"

struct KnobSetting {
	const Knob *knob;
	KnobValue value;   // in effect
	KnobValue builtin; // the built-in default
	Source source;
};

// Every knob [unorc] may hold (none that is command-line only), as the
// built-in defaults and then config make them. Throws
// std::invalid_argument if config holds a value a knob refuses.
std::vector<KnobSetting> effective_settings(const KnobTexts &config);

} // namespace unorc
