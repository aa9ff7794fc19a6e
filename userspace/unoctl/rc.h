// SPDX-License-Identifier: GPL-2.0
//
// unoctl rc show: the transport's settings in effect for unorc and
// unoperf, from [unorc] of the configuration file over the built-in
// defaults (unorc/knobs.h). Nothing here is the kernel's.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "knobs.h" // unorc's

namespace unoctl {

// Every setting [unorc] may hold, or only param: an object each with
// "param", "value" and "default" (as [unorc] writes them), "source"
// ("config" or "default"), "side" ("both", "sender", "receiver"), "syntax";
// integer settings add "min", "max" and "unit"; details adds
// "description". Throws std::invalid_argument for an unknown param or a
// value a knob refuses.
nlohmann::json rc_json(const unorc::KnobTexts &config, const std::string &param, bool details);

// The same as a table, after a line naming the file (config: the file
// read, nothing if none; default_path: the one looked for).
std::string rc_text(const unorc::KnobTexts &config, const std::optional<std::string> &config_path,
		    const std::string &default_path, const std::string &param, bool details);

} // namespace unoctl
