// SPDX-License-Identifier: GPL-2.0
//
// Netlink sockets for unoctl and unod: one request, its replies, its ack.
// Errors are thrown as NlError with the kernel's errno and extack message.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "nl.h"

struct mnl_socket;

namespace uno {

class NlError : public std::runtime_error {
public:
	NlError(int err, const std::string &what) : std::runtime_error(what), err_(err) {}
	int err() const { return err_; } // positive errno
private:
	int err_;
};

class NlSocket {
public:
	explicit NlSocket(int bus);
	~NlSocket();
	NlSocket(const NlSocket &) = delete;
	NlSocket &operator=(const NlSocket &) = delete;

	// Send the request built by `build` (given a buffer and a sequence
	// number), hand every reply message to `on_msg`, and return at the
	// ack or the end of the dump. Throws NlError on an error reply; its
	// message is the extack message, or strerror.
	void transact(const std::function<nlmsghdr *(char *, uint32_t)> &build,
		      const std::function<void(const nlmsghdr *)> &on_msg = {});

	// The last dump was interrupted by a change (NLM_F_DUMP_INTR): its
	// messages may be inconsistent; dump again.
	bool interrupted() const { return intr_; }

private:
	bool intr_ = false;
	mnl_socket *nl_;
	uint32_t portid_;
	uint32_t seq_;
	std::vector<char> buf_;
};

// The "uno" generic netlink family.
class UnoGenl {
public:
	UnoGenl();
	Param get(const std::string &cc, const std::string &param);
	std::vector<Param> dump(const std::string &cc = "");
	void set(const std::string &cc, const std::string &param, uint32_t value);

private:
	NlSocket sock_;
	uint16_t family_ = 0;
};

std::vector<QdiscInfo> qdisc_dump();
void phantom_replace(int ifindex, const PhantomOpts &o);
void root_qdisc_delete(int ifindex);
std::vector<SockInfo> tcp_socks();

} // namespace uno
