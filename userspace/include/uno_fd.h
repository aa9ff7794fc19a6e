/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One owned file descriptor, closed when its owner goes: the user-space
 * tools' (unoperf, unorc) only RAII handle for sockets, eventfds and
 * timerfds.
 */
#ifndef _UNO_FD_H
#define _UNO_FD_H

#include <unistd.h>

#include <utility>

namespace uno {

class Fd {
public:
	Fd() = default;
	explicit Fd(int fd) : fd_(fd) {}
	Fd(Fd &&o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
	Fd &operator=(Fd &&o) noexcept
	{
		if (this != &o)
			reset(std::exchange(o.fd_, -1));
		return *this;
	}
	Fd(const Fd &) = delete;
	Fd &operator=(const Fd &) = delete;
	~Fd() { reset(); }

	int get() const { return fd_; }
	explicit operator bool() const { return fd_ >= 0; }
	void reset(int fd = -1)
	{
		if (fd_ >= 0)
			::close(fd_);
		fd_ = fd;
	}

private:
	int fd_ = -1;
};

} // namespace uno

#endif /* _UNO_FD_H */
