// SPDX-License-Identifier: GPL-2.0
//
// unod: apply /etc/uno/uno.toml (tcp_uno and tcp_smartt parameters, the
// default congestion control, phantom qdiscs) and keep it applied: on
// SIGHUP re-read the file and apply only what changed. A broken file is
// refused with every error and its line: at start unod exits, on reload
// it keeps the configuration in effect. [unorc], UnoRC's defaults, is
// checked as the rest and has nothing to apply. See unod(8).
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "apply.h"
#include "config.h"

namespace {

constexpr const char *kDefaultConfig = uno::kDefaultConfigPath;

void log_errors(const std::string &path, const uno::ConfigResult &r, unod::Prio prio)
{
	for (const auto &e : r.errors)
		unod::log(prio, uno::format_error(path, e));
}

// sd_notify(3) without libsystemd: one datagram to $NOTIFY_SOCKET.
void notify(const char *state)
{
	const char *path = std::getenv("NOTIFY_SOCKET");
	if (!path || (path[0] != '/' && path[0] != '@'))
		return;
	sockaddr_un sa = {};
	sa.sun_family = AF_UNIX;
	size_t len = std::strlen(path);
	if (len >= sizeof(sa.sun_path))
		return;
	std::memcpy(sa.sun_path, path, len);
	if (sa.sun_path[0] == '@')
		sa.sun_path[0] = '\0';
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	sendto(fd, state, std::strlen(state), 0, reinterpret_cast<sockaddr *>(&sa),
	       static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + len));
	close(fd);
}

int check(const std::string &path)
{
	auto r = uno::load_config(path);
	for (const auto &e : r.errors)
		std::fprintf(stderr, "%s\n", uno::format_error(path, e).c_str());
	if (!r.config)
		return 1;
	std::printf("%s: OK\n", path.c_str());
	return 0;
}

// [unorc] is the transport's: unorc and unoperf read it when they start,
// and unod has nothing of it to apply. Says so when the file sets it.
void note_unorc(const std::string &what, const uno::Config &c)
{
	std::string keys;
	for (const auto &[key, values] : c.unorc)
		keys += (keys.empty() ? "" : ", ") + key;
	unod::log(unod::Prio::Notice,
		  what + (keys.empty() ? "none" : keys) +
			  " (unorc and unoperf read [unorc] when they start; nothing to apply)");
}

void reload(const std::string &path, uno::Config &applied)
{
	auto r = uno::load_config(path);
	if (!r.config) {
		log_errors(path, r, unod::Prio::Err);
		unod::log(unod::Prio::Err, "reload: " + path + " is broken (" +
						   std::to_string(r.errors.size()) +
						   " errors): keeping the configuration in effect");
		return;
	}
	auto plan = uno::plan_config(&applied, *r.config);
	const bool unorc_changed = r.config->unorc != applied.unorc;
	if (unorc_changed) {
		note_unorc("reload: [unorc] now sets ", *r.config);
		applied.unorc = r.config->unorc;
	}
	if (plan.empty()) {
		if (!unorc_changed)
			unod::log(unod::Prio::Notice, "reload: nothing changed");
		return;
	}
	int failures = unod::apply_plan(plan, *r.config, applied);
	unod::log(failures ? unod::Prio::Warning : unod::Prio::Notice,
		  "reload: applied, " + std::to_string(failures) + " failed");
}

} // namespace

int main(int argc, char **argv)
{
	CLI::App app{ "unod: applies the uno configuration file and keeps it applied" };
	app.footer(R"(
Reads the file (TOML; see unod(8) and Documentation/unod.rst), sets the
tcp_uno/tcp_smartt parameters through their modules' generic netlink families,
the default congestion control, and phantom root qdiscs on the listed devices.
[unorc] holds UnoRC's defaults for unorc and unoperf: checked, nothing applied.
SIGHUP: re-read the file and apply only what changed; a broken file changes
nothing. SIGTERM/SIGINT: exit, leaving the settings in place.

Exit status: 0 on SIGTERM, or --check/--once success; 1 on a broken file or,
with --once, a setting the kernel refused; 2 on a bad command line.)");
	std::string path = kDefaultConfig;
	bool check_only = false, once = false;
	app.add_option("-c,--config", path, "configuration file")->capture_default_str();
	app.add_flag("--check", check_only,
		     "validate the file, print every error with its line, apply nothing");
	app.add_flag("--once", once, "apply the file and exit instead of staying for SIGHUP");
	try {
		app.parse(argc, argv);
	} catch (const CLI::CallForHelp &e) {
		return app.exit(e);
	} catch (const CLI::ParseError &e) {
		app.exit(e);
		return 2;
	}
	if (check_only)
		return check(path);

	// Signals are taken synchronously, between two applications.
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, nullptr);

	auto r = uno::load_config(path);
	if (!r.config) {
		log_errors(path, r, unod::Prio::Err);
		unod::log(unod::Prio::Err, path + " is broken: not starting");
		return 1;
	}
	uno::Config applied;
	int failures = unod::apply_plan(uno::plan_config(nullptr, *r.config), *r.config, applied);
	unod::log(failures ? unod::Prio::Warning : unod::Prio::Notice,
		  "applied " + path + ", " + std::to_string(failures) + " failed");
	if (!r.config->unorc.empty())
		note_unorc("[unorc] sets ", *r.config);
	if (once)
		return failures ? 1 : 0;
	notify("READY=1");

	for (;;) {
		int sig;
		if (sigwait(&set, &sig))
			continue;
		if (sig == SIGHUP) {
			notify("RELOADING=1");
			reload(path, applied);
			notify("READY=1");
			continue;
		}
		unod::log(unod::Prio::Notice, std::string("exiting on ") + strsignal(sig));
		notify("STOPPING=1");
		return 0;
	}
}
