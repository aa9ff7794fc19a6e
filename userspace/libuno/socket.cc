// SPDX-License-Identifier: GPL-2.0
#include "socket.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "params.h"
#include "uapi/uno_nl.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

namespace uno {

NlSocket::NlSocket(int bus) : buf_(kNlBufSize)
{
	int one = 1;

	nl_ = mnl_socket_open(bus);
	if (!nl_)
		throw NlError(errno, std::string("netlink socket: ") + std::strerror(errno));
	mnl_socket_setsockopt(nl_, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl_, 0, MNL_SOCKET_AUTOPID) < 0) {
		int err = errno;
		mnl_socket_close(nl_);
		throw NlError(err, std::string("netlink bind: ") + std::strerror(err));
	}
	portid_ = mnl_socket_get_portid(nl_);
	seq_ = static_cast<uint32_t>(time(nullptr));
}

NlSocket::~NlSocket()
{
	mnl_socket_close(nl_);
}

void NlSocket::transact(const std::function<nlmsghdr *(char *, uint32_t)> &build,
			const std::function<void(const nlmsghdr *)> &on_msg)
{
	uint32_t seq = ++seq_;
	nlmsghdr *req = build(buf_.data(), seq);

	if (mnl_socket_sendto(nl_, req, req->nlmsg_len) < 0)
		throw NlError(errno, std::string("netlink send: ") + std::strerror(errno));
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(nl_, buf_.data(), buf_.size());
		if (n < 0)
			throw NlError(errno, std::string("netlink receive: ") + std::strerror(errno));
		int len = static_cast<int>(n);
		for (auto *nlh = reinterpret_cast<const nlmsghdr *>(buf_.data());
		     mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_seq != seq || nlh->nlmsg_pid != portid_)
				continue;
			if (auto ack = parse_ack(nlh)) {
				if (ack->error) {
					int err = -ack->error;
					throw NlError(err, ack->msg.empty() ? std::strerror(err)
									    : ack->msg);
				}
				return;
			}
			if (on_msg)
				on_msg(nlh);
		}
	}
}

uint16_t UnoGenl::family(const std::string &cc)
{
	if (auto it = families_.find(cc); it != families_.end())
		return it->second;
	// Only our CCs: tcp_metrics is a family too, with other commands.
	if (!known_cc(cc))
		return 0;
	std::string name = UNO_GENL_NAME_PREFIX + cc;
	uint16_t id = 0;

	try {
		sock_.transact([&](char *b, uint32_t s) { return put_ctrl_getfamily(b, s, name); },
			       [&](const nlmsghdr *nlh) {
				       if (auto got = parse_family_id(nlh))
					       id = *got;
			       });
	} catch (const NlError &e) {
		if (e.err() != ENOENT)
			throw;
		return 0; // not cached: the module may be loaded later
	}
	if (!id)
		throw NlError(EPROTO, "no family id in the reply to CTRL_CMD_GETFAMILY");
	families_[cc] = id;
	return id;
}

uint16_t UnoGenl::loaded_family(const std::string &cc)
{
	uint16_t id = family(cc);

	if (id)
		return id;
	if (!known_cc(cc))
		throw NlError(ENOENT, unknown_cc_msg(cc));
	// The module's directory is there in every network namespace.
	if (access(("/sys/module/tcp_" + cc).c_str(), F_OK) == 0)
		throw NlError(ENOENT, "congestion control '" + cc + "' is loaded, but its "
				      "parameters are global and served in the initial network "
				      "namespace only");
	throw NlError(ENOENT, "congestion control '" + cc + "' is not loaded (modprobe tcp_" +
				      cc + ")");
}

// Run `request` on cc's family. A module unloaded since its family was
// looked up leaves a stale id, which the kernel answers with ENOENT: look
// the family up again and retry once if it came back under a new id; if it
// is gone, skip it (optional) or say so.
void UnoGenl::on_family(const std::string &cc, bool optional,
			const std::function<void(uint16_t)> &request)
{
	for (int tries = 0; tries < 2; tries++) {
		uint16_t id = optional ? family(cc) : loaded_family(cc);

		if (!id)
			return;
		try {
			request(id);
			return;
		} catch (const NlError &e) {
			if (e.err() != ENOENT)
				throw;
			families_.erase(cc);
			if (family(cc) == id)
				throw; // the family is there: the request's own ENOENT
		}
	}
	throw NlError(EAGAIN, "the generic netlink family of '" + cc + "' keeps changing");
}

Param UnoGenl::get(const std::string &cc, const std::string &param)
{
	std::optional<Param> p;

	on_family(cc, false, [&](uint16_t id) {
		sock_.transact([&](char *b, uint32_t s) { return put_param_get(b, id, s, cc, param); },
			       [&](const nlmsghdr *nlh) { p = parse_param_msg(nlh, id); });
	});
	if (!p)
		throw NlError(EPROTO, "malformed reply to UNO_CMD_PARAM_GET");
	return *p;
}

std::vector<Param> UnoGenl::dump(const std::string &cc)
{
	const std::vector<std::string> one{ cc };
	std::vector<Param> out;

	for (const auto &name : cc.empty() ? cc_names() : one) {
		on_family(name, cc.empty(), [&](uint16_t id) {
			std::vector<Param> got;

			sock_.transact(
				[&](char *b, uint32_t s) { return put_param_get(b, id, s, name, ""); },
				[&](const nlmsghdr *nlh) {
					if (auto p = parse_param_msg(nlh, id))
						got.push_back(*p);
				});
			out.insert(out.end(), got.begin(), got.end());
		});
	}
	return out;
}

void UnoGenl::set(const std::string &cc, const std::string &param, uint32_t value)
{
	on_family(cc, false, [&](uint16_t id) {
		sock_.transact(
			[&](char *b, uint32_t s) { return put_param_set(b, id, s, cc, param, value); });
	});
}

std::vector<QdiscInfo> qdisc_dump()
{
	NlSocket sock(NETLINK_ROUTE);
	std::vector<QdiscInfo> out;

	sock.transact([](char *b, uint32_t s) { return put_qdisc_dump(b, s); },
		      [&](const nlmsghdr *nlh) {
			      if (auto q = parse_qdisc_msg(nlh))
				      out.push_back(*q);
		      });
	return out;
}

std::vector<tc_ndt_flow_xstats> ndt_flows(int ifindex, uint32_t handle)
{
	NlSocket sock(NETLINK_ROUTE);
	std::vector<tc_ndt_flow_xstats> out;

	sock.transact([&](char *b, uint32_t s) { return put_class_dump(b, s, ifindex, handle); },
		      [&](const nlmsghdr *nlh) {
			      if (auto f = parse_ndt_class_msg(nlh))
				      out.push_back(*f);
		      });
	return out;
}

void phantom_replace(int ifindex, const PhantomOpts &o)
{
	NlSocket sock(NETLINK_ROUTE);

	sock.transact([&](char *b, uint32_t s) { return put_phantom_replace(b, s, ifindex, o); });
}

void ndt_replace(int ifindex, const NdtOpts &o)
{
	NlSocket sock(NETLINK_ROUTE);

	sock.transact([&](char *b, uint32_t s) { return put_ndt_replace(b, s, ifindex, o); });
}

void root_qdisc_delete(int ifindex)
{
	NlSocket sock(NETLINK_ROUTE);

	sock.transact([&](char *b, uint32_t s) { return put_root_qdisc_delete(b, s, ifindex); });
}

size_t tc_filter_count(int ifindex, uint32_t parent)
{
	NlSocket sock(NETLINK_ROUTE);
	size_t n = 0;

	sock.transact([&](char *b, uint32_t s) { return put_filter_dump(b, s, ifindex, parent); },
		      [&](const nlmsghdr *nlh) { n += nlh->nlmsg_type == RTM_NEWTFILTER; });
	return n;
}

std::vector<SockInfo> tcp_socks()
{
	NlSocket sock(NETLINK_SOCK_DIAG);
	std::vector<SockInfo> out;

	for (uint8_t family : { AF_INET, AF_INET6 })
		sock.transact([&](char *b, uint32_t s) { return put_tcp_diag_dump(b, s, family); },
			      [&](const nlmsghdr *nlh) {
				      if (auto si = parse_tcp_diag_msg(nlh))
					      out.push_back(*si);
			      });
	return out;
}

} // namespace uno
