// SPDX-License-Identifier: GPL-2.0
//
// unod with a file of [unorc] alone, which has nothing for the kernel: no
// privilege or module needed. --check reports a broken [unorc] and
// applies nothing; a SIGHUP reload refuses a broken [unorc] as a whole,
// and says what a good one changed.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

extern char **environ;

namespace {

class Unod : public testing::Test {
protected:
	void SetUp() override
	{
		char tmpl[] = "/tmp/unod_test_XXXXXX";
		ASSERT_NE(mkdtemp(tmpl), nullptr);
		dir_ = tmpl;
		file_ = dir_ + "/uno.toml";
	}
	void TearDown() override
	{
		if (pid_ > 0) {
			kill(pid_, SIGKILL);
			waitpid(pid_, nullptr, 0);
		}
		if (fd_ >= 0)
			close(fd_);
		unlink(file_.c_str());
		rmdir(dir_.c_str());
	}
	void write(const std::string &text) { std::ofstream(file_) << text; }

	// unod ARGS: its stderr in a pipe, no journal's prefixes.
	void start(std::vector<std::string> args)
	{
		int p[2];
		ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
		posix_spawn_file_actions_t fa;
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, p[1], 2);
		args.insert(args.begin(), UNOD_BIN);
		std::vector<char *> argv;
		for (std::string &a : args)
			argv.push_back(a.data());
		argv.push_back(nullptr);
		std::vector<char *> env;
		for (char **e = environ; *e; e++)
			if (!std::string(*e).starts_with("JOURNAL_STREAM=") &&
			    !std::string(*e).starts_with("NOTIFY_SOCKET="))
				env.push_back(*e);
		env.push_back(nullptr);
		ASSERT_EQ(posix_spawn(&pid_, UNOD_BIN, &fa, nullptr, argv.data(), env.data()), 0);
		posix_spawn_file_actions_destroy(&fa);
		close(p[1]);
		fd_ = p[0];
	}
	// The next line unod logs, "" if none within 5 s.
	std::string line()
	{
		const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
		for (;;) {
			if (size_t nl = buf_.find('\n'); nl != std::string::npos) {
				std::string l = buf_.substr(0, nl);
				buf_.erase(0, nl + 1);
				return l;
			}
			const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
				end - std::chrono::steady_clock::now());
			pollfd pfd = { fd_, POLLIN, 0 };
			if (left.count() <= 0 || poll(&pfd, 1, static_cast<int>(left.count())) <= 0)
				return "";
			char b[512];
			const ssize_t n = read(fd_, b, sizeof(b));
			if (n <= 0)
				return "";
			buf_.append(b, static_cast<size_t>(n));
		}
	}
	int wait()
	{
		int st;
		waitpid(pid_, &st, 0);
		pid_ = -1;
		return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	}

	std::string dir_, file_, buf_;
	pid_t pid_ = -1;
	int fd_ = -1;
};

} // namespace

TEST_F(Unod, CheckReportsABrokenUnorcTable)
{
	write("[unorc]\nrto-us = 5\nfoo = 1\n");
	start({ "--check", "-c", file_ });
	EXPECT_EQ(line(), file_ + ":2:10: unorc.rto-us: value 5 out of range 20..60000000 us");
	EXPECT_EQ(line(), file_ + ":3:7: unorc.foo: unknown key (known: code, inter-prefix, payload, "
				  "subflows, repath, shim, rto-us, link-mbps, intra-rtt-us, cc, ec-wait-us, "
				  "window-bytes, max-flows, trim-dscp, rcvbuf)");
	EXPECT_EQ(line(), "");
	EXPECT_EQ(wait(), 1);
}

TEST_F(Unod, ReloadRefusesABrokenUnorcTable)
{
	write("[unorc]\ncode = \"none\"\nrto-us = 5000\n");
	start({ "-c", file_ });
	EXPECT_EQ(line(), "unod: applied " + file_ + ", 0 failed");
	EXPECT_EQ(line(), "unod: [unorc] sets code, rto-us (unorc and unoperf read [unorc] when they "
			  "start; nothing to apply)");

	write("[unorc]\ncode = \"none\"\nrto-us = 5\n");
	kill(pid_, SIGHUP);
	EXPECT_EQ(line(), "unod: " + file_ + ":3:10: unorc.rto-us: value 5 out of range 20..60000000 us");
	EXPECT_EQ(line(), "unod: reload: " + file_ + " is broken (1 errors): keeping the configuration "
						      "in effect");

	write("[unorc]\ncode = \"8+2\"\n");
	kill(pid_, SIGHUP);
	EXPECT_EQ(line(), "unod: reload: [unorc] now sets code (unorc and unoperf read [unorc] when "
			  "they start; nothing to apply)");
	kill(pid_, SIGHUP);
	EXPECT_EQ(line(), "unod: reload: nothing changed");
	write("# nothing\n");
	kill(pid_, SIGHUP);
	EXPECT_EQ(line(), "unod: reload: [unorc] now sets none (unorc and unoperf read [unorc] when "
			  "they start; nothing to apply)");
	kill(pid_, SIGTERM);
	EXPECT_EQ(line(), "unod: exiting on Terminated");
	EXPECT_EQ(wait(), 0);
}
