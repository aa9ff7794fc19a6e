// SPDX-License-Identifier: GPL-2.0
//
// The transport's command-line options (CLI11), for every command that
// runs it: unorc send and recv, unoperf client and server over UnoRC.
// Each function adds one group of options bound to its settings, with the
// settings' values as defaults, and returns them, so that a command can
// tell whether any was given.
#pragma once

#include <vector>

#include <CLI/CLI.hpp>

#include "settings.h"

namespace unorc {

// How a flow's code is chosen, for a command's footer.
extern const char *const kCodeHelp;

// --code, --no-code, --inter-prefix, --payload.
std::vector<CLI::Option *> add_code_options(CLI::App *cmd, CodeSettings &s);
// --subflows, --source-port, --repath, --rto-us, --link-mbps,
// --intra-rtt-us.
std::vector<CLI::Option *> add_sender_options(CLI::App *cmd, SenderSettings &s);
// --ec-wait-us, --window-bytes, --max-flows, --trim-dscp.
std::vector<CLI::Option *> add_receiver_options(CLI::App *cmd, ReceiverSettings &s);

} // namespace unorc
