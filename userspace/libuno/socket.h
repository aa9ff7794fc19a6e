// SPDX-License-Identifier: GPL-2.0
//
// Netlink sockets for unoctl and unod: one request, its replies, its ack.
// Errors are thrown as NlError with the kernel's errno and extack message.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <linux/netlink.h>

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

private:
	mnl_socket *nl_;
	uint32_t portid_;
	uint32_t seq_;
	std::vector<char> buf_;
};

// The generic netlink families of the CC modules, one per CC, named
// UNO_GENL_NAME_PREFIX and the CC ("tcp_uno"), each looked up when first
// used. A CC whose family is not there is an ENOENT error that says why.
class UnoGenl {
public:
	UnoGenl() : sock_(NETLINK_GENERIC) {}
	Param get(const std::string &cc, const std::string &param);
	// Every parameter of cc, or of every loaded CC if cc is empty.
	std::vector<Param> dump(const std::string &cc = "");
	void set(const std::string &cc, const std::string &param, uint32_t value);

private:
	uint16_t family(const std::string &cc); // 0: not one of ours, or not here
	uint16_t loaded_family(const std::string &cc); // or why not, as NlError
	void on_family(const std::string &cc, bool optional,
		       const std::function<void(uint16_t)> &request);

	NlSocket sock_;
	std::map<std::string, uint16_t> families_;
};

std::vector<QdiscInfo> qdisc_dump();
// The flows an ndt qdisc tracks, from its class dump.
std::vector<tc_ndt_flow_xstats> ndt_flows(int ifindex, uint32_t handle);
void phantom_replace(int ifindex, const PhantomOpts &o);
void ndt_replace(int ifindex, const NdtOpts &o);
void root_qdisc_delete(int ifindex);
// How many filters `ifindex` has under `parent`.
size_t tc_filter_count(int ifindex, uint32_t parent);
std::vector<SockInfo> tcp_socks();

} // namespace uno
