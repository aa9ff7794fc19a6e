// SPDX-License-Identifier: GPL-2.0
//
// unoperf server internals shared by its transports (server.cc: TCP;
// unorc_server.cc: UnoRC).
#pragma once

#include <string>

#include "sys.h"
#include "unoperf.h"

namespace unoperf {

void server_log(const std::string &msg);
// "listening on ADDR:PORT [in network namespace NS]" on stderr, and the
// options' on_listening.
void announce_listening(const ServerOptions &opt, const std::string &addr);

// The UnoRC server, in the caller's namespace, its JSON lines to sink.
// Returns an exit code; throws on system errors.
int run_unorc_server(const ServerOptions &opt, OutputFile &sink);

} // namespace unoperf
