// SPDX-License-Identifier: GPL-2.0
//
// Netlink messages of unoctl and unod, built into and parsed from caller
// buffers with libmnl. Pure functions: no sockets, so the unit tests run
// them without a kernel. The sockets are in socket.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <linux/netlink.h>

#include "uapi/sch_ndt.h"
#include "uapi/sch_phantom.h"
#include "uapi/tcp_smartt.h"
#include "uapi/tcp_swift.h"
#include "uapi/tcp_timely.h"
#include "uapi/tcp_uno.h"

namespace uno {

// Large enough for any request we build and for one receive.
constexpr size_t kNlBufSize = 32768;

// --- generic netlink: the CC modules' families ------------------------

nlmsghdr *put_ctrl_getfamily(char *buf, uint32_t seq, std::string_view name);
// The family id in a CTRL_CMD_NEWFAMILY reply.
std::optional<uint16_t> parse_family_id(const nlmsghdr *nlh);

// GET of one parameter; with `param` empty a dump of `cc`'s parameters,
// with `cc` empty too a dump of all.
nlmsghdr *put_param_get(char *buf, uint16_t family, uint32_t seq, std::string_view cc,
			std::string_view param);
nlmsghdr *put_param_set(char *buf, uint16_t family, uint32_t seq, std::string_view cc,
			std::string_view param, uint32_t value);

struct Param {
	std::string cc;
	std::string name;
	uint32_t value = 0;
	uint32_t min = 0;
	uint32_t max = 0;
	uint8_t apply = 0;
	std::string desc;
};

// A parameter in a GET reply; nothing if the message is not a complete one.
std::optional<Param> parse_param_msg(const nlmsghdr *nlh, uint16_t family);

// --- acks and errors ---------------------------------------------------

struct NlAck {
	int error = 0; // 0 or a negative errno
	std::string msg; // the extack message, if any, with the policy's range
};

// An NLMSG_ERROR (ack or error) or an NLMSG_DONE carrying an error code.
std::optional<NlAck> parse_ack(const nlmsghdr *nlh);

// --- rtnetlink: the phantom and ndt qdiscs --------------------------------

// TCA_PHANTOM_* options, in the units of the wire: sizes and thresholds in
// bytes, pq_rate in ppm of rate.
struct PhantomOpts {
	std::optional<uint64_t> rate; // bytes/s
	std::optional<uint32_t> limit;
	std::optional<uint32_t> ecn_min;
	std::optional<uint32_t> ecn_max;
	std::optional<uint32_t> pq_rate;
	std::optional<uint32_t> pq_size;
	std::optional<uint32_t> pq_min;
	std::optional<uint32_t> pq_max;
	std::optional<uint32_t> trim;
	std::optional<uint8_t> trim_dscp;
	std::optional<uint32_t> trim_limit;
	std::optional<uint32_t> burst;
	std::optional<bool> trim_valid; // trimmed UDP datagrams leave valid
	std::optional<bool> int_stamp; // MLCC INT records at dequeue
	std::optional<uint32_t> xoff; // virtual PFC's X_off; 0: off

	bool operator==(const PhantomOpts &) const = default;
};

// TCA_NDT_* options, in the units of the wire: sizes in bytes, times in
// ns, alpha in ppm (TC_NDT_ONE is 1).
struct NdtOpts {
	std::optional<uint64_t> rate; // bytes/s
	std::optional<uint32_t> limit;
	std::optional<uint32_t> burst;
	std::optional<uint64_t> dst_thresh;
	std::optional<uint32_t> alpha;
	std::optional<uint32_t> n_throttle;
	std::optional<uint64_t> maxpause;
	std::optional<uint64_t> rearm;
	std::optional<uint64_t> active;
	std::optional<uint64_t> idle_gc;
	std::optional<uint32_t> flows;

	bool operator==(const NdtOpts &) const = default;
};

struct QdiscInfo {
	int ifindex = 0;
	uint32_t handle = 0;
	uint32_t parent = 0;
	std::string kind;
	PhantomOpts opts; // kind "phantom"
	NdtOpts ndt; // kind "ndt"
	uint64_t bytes = 0;
	uint64_t packets = 0;
	uint32_t drops = 0;
	uint32_t overlimits = 0;
	uint32_t requeues = 0;
	uint32_t backlog = 0;
	uint32_t qlen = 0;
	std::optional<tc_phantom_xstats> xstats; // phantom's
	std::optional<tc_ndt_xstats> ndt_xstats;
	// kind "ndt": its tracked flows (its class dump), when asked for
	std::optional<std::vector<tc_ndt_flow_xstats>> ndt_flows;
};

// Whether `kind` is one of our qdiscs, phantom or ndt: those [[qdisc]]
// puts at a root (and removes), and unoctl qdisc show lists.
bool our_qdisc(std::string_view kind);

nlmsghdr *put_qdisc_dump(char *buf, uint32_t seq);
// Replace (or create) the root qdisc of `ifindex` with phantom `o`.
nlmsghdr *put_phantom_replace(char *buf, uint32_t seq, int ifindex, const PhantomOpts &o);
// ... with ndt `o`.
nlmsghdr *put_ndt_replace(char *buf, uint32_t seq, int ifindex, const NdtOpts &o);
nlmsghdr *put_root_qdisc_delete(char *buf, uint32_t seq, int ifindex);
std::optional<QdiscInfo> parse_qdisc_msg(const nlmsghdr *nlh);
// Every class of the qdisc `handle` of `ifindex`: an ndt qdisc's flows.
nlmsghdr *put_class_dump(char *buf, uint32_t seq, int ifindex, uint32_t handle);
// A flow of an ndt qdisc's class dump; nullopt for any other message.
std::optional<tc_ndt_flow_xstats> parse_ndt_class_msg(const nlmsghdr *nlh);
// Every filter of `ifindex` under `parent` (a clsact's ingress or egress).
nlmsghdr *put_filter_dump(char *buf, uint32_t seq, int ifindex, uint32_t parent);

// --- sock_diag: TCP sockets and their CC state ---------------------------

nlmsghdr *put_tcp_diag_dump(char *buf, uint32_t seq, uint8_t family);

struct SockInfo {
	uint8_t family = 0;
	uint8_t state = 0;
	std::string src;
	std::string dst;
	uint16_t sport = 0;
	uint16_t dport = 0;
	uint32_t inode = 0;
	std::string cc;
	std::optional<uint32_t> rtt_us;
	std::optional<uint32_t> snd_cwnd;
	std::optional<uint64_t> bytes_acked;
	uint8_t rto_backoff = 0;	// RTOs in a row (tcpi_backoff)
	std::optional<tcp_uno_info> uno;
	std::optional<tcp_smartt_info> smartt;
	std::optional<tcp_swift_info> swift;
	std::optional<tcp_timely_info> timely;
};

std::optional<SockInfo> parse_tcp_diag_msg(const nlmsghdr *nlh);
const char *tcp_state_name(uint8_t state);
// "10.0.0.1:80" of an IPv4 address and a port, both in network order.
std::string addr_port(uint32_t addr, uint16_t port);

} // namespace uno
