// SPDX-License-Identifier: GPL-2.0
#include "nl.h"

#include <arpa/inet.h>
#include <cstring>

#include <libmnl/libmnl.h>
#include <linux/gen_stats.h>
#include <linux/genetlink.h>
#include <linux/inet_diag.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <netinet/in.h>

#include "uapi/uno_nl.h"

namespace uno {
namespace {

// The header of every request this library sends.
nlmsghdr *put_request(char *buf, uint16_t type, uint16_t flags, uint32_t seq)
{
	nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = seq;
	return nlh;
}

nlmsghdr *put_genl(char *buf, uint16_t family, uint32_t seq, uint8_t cmd, uint8_t version,
		   uint16_t flags)
{
	nlmsghdr *nlh = put_request(buf, family, flags, seq);
	auto *g = static_cast<genlmsghdr *>(mnl_nlmsg_put_extra_header(nlh, sizeof(genlmsghdr)));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

void put_str(nlmsghdr *nlh, uint16_t type, std::string_view s)
{
	mnl_attr_put(nlh, type, s.size() + 1, std::string(s).c_str());
}

// Attributes after a fixed header of `hdr` bytes, indexed by type;
// attributes shorter than their type needs are left out.
template <size_t N> void parse_attrs(const nlmsghdr *nlh, size_t hdr, const nlattr *(&tb)[N])
{
	std::memset(tb, 0, sizeof(tb));
	if (nlh->nlmsg_len < NLMSG_HDRLEN + hdr)
		return;
	mnl_attr_parse(
		nlh, hdr,
		[](const nlattr *a, void *data) {
			auto **t = static_cast<const nlattr **>(data);
			uint16_t type = mnl_attr_get_type(a);
			if (type < N)
				t[type] = a;
			return MNL_CB_OK;
		},
		tb);
}

template <size_t N> void parse_nested(const nlattr *nest, const nlattr *(&tb)[N])
{
	std::memset(tb, 0, sizeof(tb));
	mnl_attr_parse_nested(
		nest,
		[](const nlattr *a, void *data) {
			auto **t = static_cast<const nlattr **>(data);
			uint16_t type = mnl_attr_get_type(a);
			if (type < N)
				t[type] = a;
			return MNL_CB_OK;
		},
		tb);
}

bool has(const nlattr *a, size_t len)
{
	return a && mnl_attr_get_payload_len(a) >= len;
}

std::optional<uint32_t> get_u32(const nlattr *a)
{
	if (!has(a, sizeof(uint32_t)))
		return std::nullopt;
	return mnl_attr_get_u32(a);
}

// A NUL-terminated string attribute, or nothing.
std::optional<std::string> get_str(const nlattr *a)
{
	if (!a || mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
		return std::nullopt;
	return std::string(mnl_attr_get_str(a));
}

std::optional<uint64_t> get_u64(const nlattr *a)
{
	if (!has(a, sizeof(uint64_t)))
		return std::nullopt;
	return mnl_attr_get_u64(a);
}

// The largest value of an unsigned policy type.
uint64_t type_max(uint32_t type)
{
	switch (type) {
	case NL_ATTR_TYPE_U8:
		return UINT8_MAX;
	case NL_ATTR_TYPE_U16:
		return UINT16_MAX;
	case NL_ATTR_TYPE_U32:
		return UINT32_MAX;
	default:
		return UINT64_MAX;
	}
}

// The range of an unsigned policy an extack carries, as " MIN..MAX"; ""
// if it has none but its type's.
std::string policy_range(const nlattr *policy)
{
	const nlattr *tb[NL_POLICY_TYPE_ATTR_MAX + 1];

	parse_nested(policy, tb);
	auto type = get_u32(tb[NL_POLICY_TYPE_ATTR_TYPE]);
	auto min = get_u64(tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_U]);
	auto max = get_u64(tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_U]);
	if (!type || !min || !max || (*min == 0 && *max == type_max(*type)))
		return "";
	return " " + std::to_string(*min) + ".." + std::to_string(*max);
}

} // namespace

nlmsghdr *put_ctrl_getfamily(char *buf, uint32_t seq, std::string_view name)
{
	nlmsghdr *nlh = put_genl(buf, GENL_ID_CTRL, seq, CTRL_CMD_GETFAMILY, 1, NLM_F_ACK);
	put_str(nlh, CTRL_ATTR_FAMILY_NAME, name);
	return nlh;
}

std::optional<uint16_t> parse_family_id(const nlmsghdr *nlh)
{
	const nlattr *tb[CTRL_ATTR_MAX + 1];

	if (nlh->nlmsg_type != GENL_ID_CTRL)
		return std::nullopt;
	parse_attrs(nlh, sizeof(genlmsghdr), tb);
	if (!has(tb[CTRL_ATTR_FAMILY_ID], sizeof(uint16_t)))
		return std::nullopt;
	return mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
}

nlmsghdr *put_param_get(char *buf, uint16_t family, uint32_t seq, std::string_view cc,
			std::string_view param)
{
	bool dump = param.empty();
	nlmsghdr *nlh = put_genl(buf, family, seq, UNO_CMD_PARAM_GET, UNO_GENL_VERSION,
				 dump ? NLM_F_DUMP : NLM_F_ACK);
	if (!cc.empty())
		put_str(nlh, UNO_A_CC, cc);
	if (!dump)
		put_str(nlh, UNO_A_PARAM, param);
	return nlh;
}

nlmsghdr *put_param_set(char *buf, uint16_t family, uint32_t seq, std::string_view cc,
			std::string_view param, uint32_t value)
{
	nlmsghdr *nlh = put_genl(buf, family, seq, UNO_CMD_PARAM_SET, UNO_GENL_VERSION, NLM_F_ACK);
	put_str(nlh, UNO_A_CC, cc);
	put_str(nlh, UNO_A_PARAM, param);
	mnl_attr_put_u32(nlh, UNO_A_VALUE, value);
	return nlh;
}

std::optional<Param> parse_param_msg(const nlmsghdr *nlh, uint16_t family)
{
	const nlattr *tb[UNO_A_MAX + 1];
	Param p;

	if (nlh->nlmsg_type != family)
		return std::nullopt;
	parse_attrs(nlh, sizeof(genlmsghdr), tb);
	auto cc = get_str(tb[UNO_A_CC]);
	auto name = get_str(tb[UNO_A_PARAM]);
	auto value = get_u32(tb[UNO_A_VALUE]);
	if (!cc || !name || !value)
		return std::nullopt;
	p.cc = *cc;
	p.name = *name;
	p.value = *value;
	p.min = get_u32(tb[UNO_A_VALUE_MIN]).value_or(0);
	p.max = get_u32(tb[UNO_A_VALUE_MAX]).value_or(UINT32_MAX);
	if (has(tb[UNO_A_APPLY], 1))
		p.apply = mnl_attr_get_u8(tb[UNO_A_APPLY]);
	p.desc = get_str(tb[UNO_A_DESC]).value_or("");
	return p;
}

std::optional<NlAck> parse_ack(const nlmsghdr *nlh)
{
	NlAck ack;

	if (nlh->nlmsg_type == NLMSG_DONE) {
		if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int))
			std::memcpy(&ack.error, mnl_nlmsg_get_payload(nlh), sizeof(int));
		return ack;
	}
	if (nlh->nlmsg_type != NLMSG_ERROR)
		return std::nullopt;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(nlmsgerr)) {
		ack.error = -EBADMSG;
		return ack;
	}
	auto *e = static_cast<const nlmsgerr *>(mnl_nlmsg_get_payload(nlh));
	ack.error = e->error;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return ack;
	// The TLVs follow the request's header, or the whole request.
	size_t off = sizeof(nlmsgerr);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(nlmsghdr);
	if (NLMSG_HDRLEN + off > nlh->nlmsg_len)
		return ack;
	const nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	parse_attrs(nlh, off, tb);
	ack.msg = get_str(tb[NLMSGERR_ATTR_MSG]).value_or("");
	// A value out of its range ("integer out of range", the policy's
	// own, or a family's "value out of range"): the policy says which.
	if (tb[NLMSGERR_ATTR_POLICY] && ack.msg.ends_with("out of range"))
		ack.msg += policy_range(tb[NLMSGERR_ATTR_POLICY]);
	return ack;
}

// --- qdisc ---------------------------------------------------------------

bool our_qdisc(std::string_view kind)
{
	return kind == "phantom" || kind == "ndt";
}

nlmsghdr *put_qdisc_dump(char *buf, uint32_t seq)
{
	nlmsghdr *nlh = put_request(buf, RTM_GETQDISC, NLM_F_DUMP, seq);
	mnl_nlmsg_put_extra_header(nlh, sizeof(tcmsg));
	return nlh;
}

static tcmsg *put_root_tcmsg(nlmsghdr *nlh, int ifindex)
{
	auto *t = static_cast<tcmsg *>(mnl_nlmsg_put_extra_header(nlh, sizeof(tcmsg)));
	t->tcm_family = AF_UNSPEC;
	t->tcm_ifindex = ifindex;
	t->tcm_parent = TC_H_ROOT;
	return t;
}

// RTM_NEWQDISC that creates, or replaces, the root qdisc of ifindex with
// one of `kind`; its TCA_OPTIONS nest is left open for the options.
static nlmsghdr *put_root_replace(char *buf, uint32_t seq, int ifindex, const char *kind,
				  nlattr **nest)
{
	nlmsghdr *nlh = put_request(buf, RTM_NEWQDISC, NLM_F_ACK | NLM_F_CREATE | NLM_F_REPLACE, seq);
	put_root_tcmsg(nlh, ifindex);
	mnl_attr_put_strz(nlh, TCA_KIND, kind);
	*nest = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	(*nest)->nla_type |= NLA_F_NESTED;
	return nlh;
}

// An option, if given: the kernel keeps what is not sent.
static void put_opt(nlmsghdr *nlh, uint16_t type, const std::optional<uint32_t> &v)
{
	if (v)
		mnl_attr_put_u32(nlh, type, *v);
}

static void put_opt(nlmsghdr *nlh, uint16_t type, const std::optional<uint64_t> &v)
{
	if (v)
		mnl_attr_put_u64(nlh, type, *v);
}

nlmsghdr *put_phantom_replace(char *buf, uint32_t seq, int ifindex, const PhantomOpts &o)
{
	nlattr *nest;
	nlmsghdr *nlh = put_root_replace(buf, seq, ifindex, "phantom", &nest);

	put_opt(nlh, TCA_PHANTOM_RATE, o.rate);
	put_opt(nlh, TCA_PHANTOM_LIMIT, o.limit);
	put_opt(nlh, TCA_PHANTOM_ECN_MIN, o.ecn_min);
	put_opt(nlh, TCA_PHANTOM_ECN_MAX, o.ecn_max);
	put_opt(nlh, TCA_PHANTOM_PQ_RATE, o.pq_rate);
	put_opt(nlh, TCA_PHANTOM_PQ_SIZE, o.pq_size);
	put_opt(nlh, TCA_PHANTOM_PQ_MIN, o.pq_min);
	put_opt(nlh, TCA_PHANTOM_PQ_MAX, o.pq_max);
	put_opt(nlh, TCA_PHANTOM_TRIM, o.trim);
	if (o.trim_dscp)
		mnl_attr_put_u8(nlh, TCA_PHANTOM_TRIM_DSCP, *o.trim_dscp);
	put_opt(nlh, TCA_PHANTOM_TRIM_LIMIT, o.trim_limit);
	put_opt(nlh, TCA_PHANTOM_BURST, o.burst);
	if (o.trim_valid)
		mnl_attr_put_u8(nlh, TCA_PHANTOM_TRIM_VALID, *o.trim_valid);
	if (o.int_stamp)
		mnl_attr_put_u8(nlh, TCA_PHANTOM_INT, *o.int_stamp);
	put_opt(nlh, TCA_PHANTOM_XOFF, o.xoff);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

nlmsghdr *put_ndt_replace(char *buf, uint32_t seq, int ifindex, const NdtOpts &o)
{
	nlattr *nest;
	nlmsghdr *nlh = put_root_replace(buf, seq, ifindex, "ndt", &nest);

	put_opt(nlh, TCA_NDT_RATE, o.rate);
	put_opt(nlh, TCA_NDT_LIMIT, o.limit);
	put_opt(nlh, TCA_NDT_BURST, o.burst);
	put_opt(nlh, TCA_NDT_DST_THRESH, o.dst_thresh);
	put_opt(nlh, TCA_NDT_ALPHA, o.alpha);
	put_opt(nlh, TCA_NDT_N_THROTTLE, o.n_throttle);
	put_opt(nlh, TCA_NDT_MAXPAUSE, o.maxpause);
	put_opt(nlh, TCA_NDT_REARM, o.rearm);
	put_opt(nlh, TCA_NDT_ACTIVE, o.active);
	put_opt(nlh, TCA_NDT_IDLE_GC, o.idle_gc);
	put_opt(nlh, TCA_NDT_FLOWS, o.flows);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

nlmsghdr *put_filter_dump(char *buf, uint32_t seq, int ifindex, uint32_t parent)
{
	nlmsghdr *nlh = put_request(buf, RTM_GETTFILTER, NLM_F_DUMP, seq);
	auto *t = static_cast<tcmsg *>(mnl_nlmsg_put_extra_header(nlh, sizeof(tcmsg)));
	t->tcm_family = AF_UNSPEC;
	t->tcm_ifindex = ifindex;
	t->tcm_parent = parent;
	return nlh;
}

nlmsghdr *put_root_qdisc_delete(char *buf, uint32_t seq, int ifindex)
{
	nlmsghdr *nlh = put_request(buf, RTM_DELQDISC, NLM_F_ACK, seq);
	put_root_tcmsg(nlh, ifindex);
	return nlh;
}

static void parse_phantom_opts(const nlattr *nest, PhantomOpts &o)
{
	const nlattr *tb[TCA_PHANTOM_MAX + 1];

	parse_nested(nest, tb);
	o.rate = get_u64(tb[TCA_PHANTOM_RATE]);
	o.limit = get_u32(tb[TCA_PHANTOM_LIMIT]);
	o.ecn_min = get_u32(tb[TCA_PHANTOM_ECN_MIN]);
	o.ecn_max = get_u32(tb[TCA_PHANTOM_ECN_MAX]);
	o.pq_rate = get_u32(tb[TCA_PHANTOM_PQ_RATE]);
	o.pq_size = get_u32(tb[TCA_PHANTOM_PQ_SIZE]);
	o.pq_min = get_u32(tb[TCA_PHANTOM_PQ_MIN]);
	o.pq_max = get_u32(tb[TCA_PHANTOM_PQ_MAX]);
	o.trim = get_u32(tb[TCA_PHANTOM_TRIM]);
	if (has(tb[TCA_PHANTOM_TRIM_DSCP], 1))
		o.trim_dscp = mnl_attr_get_u8(tb[TCA_PHANTOM_TRIM_DSCP]);
	o.trim_limit = get_u32(tb[TCA_PHANTOM_TRIM_LIMIT]);
	o.burst = get_u32(tb[TCA_PHANTOM_BURST]);
	if (has(tb[TCA_PHANTOM_TRIM_VALID], 1))
		o.trim_valid = mnl_attr_get_u8(tb[TCA_PHANTOM_TRIM_VALID]);
	if (has(tb[TCA_PHANTOM_INT], 1))
		o.int_stamp = mnl_attr_get_u8(tb[TCA_PHANTOM_INT]);
	o.xoff = get_u32(tb[TCA_PHANTOM_XOFF]);
}

static void parse_ndt_opts(const nlattr *nest, NdtOpts &o)
{
	const nlattr *tb[TCA_NDT_MAX + 1];

	parse_nested(nest, tb);
	o.rate = get_u64(tb[TCA_NDT_RATE]);
	o.limit = get_u32(tb[TCA_NDT_LIMIT]);
	o.burst = get_u32(tb[TCA_NDT_BURST]);
	o.dst_thresh = get_u64(tb[TCA_NDT_DST_THRESH]);
	o.alpha = get_u32(tb[TCA_NDT_ALPHA]);
	o.n_throttle = get_u32(tb[TCA_NDT_N_THROTTLE]);
	o.maxpause = get_u64(tb[TCA_NDT_MAXPAUSE]);
	o.rearm = get_u64(tb[TCA_NDT_REARM]);
	o.active = get_u64(tb[TCA_NDT_ACTIVE]);
	o.idle_gc = get_u64(tb[TCA_NDT_IDLE_GC]);
	o.flows = get_u32(tb[TCA_NDT_FLOWS]);
}

// A qdisc's own counters (TCA_STATS_APP), if they are all there.
template <class T> static void get_xstats(const nlattr *a, std::optional<T> &out)
{
	if (has(a, sizeof(T))) {
		T x;
		std::memcpy(&x, mnl_attr_get_payload(a), sizeof(x));
		out = x;
	}
}

static void parse_stats2(const nlattr *nest, QdiscInfo &q)
{
	const nlattr *tb[TCA_STATS_MAX + 1];

	parse_nested(nest, tb);
	if (has(tb[TCA_STATS_BASIC], sizeof(gnet_stats_basic))) {
		gnet_stats_basic b;
		std::memcpy(&b, mnl_attr_get_payload(tb[TCA_STATS_BASIC]), sizeof(b));
		q.bytes = b.bytes;
		q.packets = b.packets;
	}
	if (has(tb[TCA_STATS_QUEUE], sizeof(gnet_stats_queue))) {
		gnet_stats_queue s;
		std::memcpy(&s, mnl_attr_get_payload(tb[TCA_STATS_QUEUE]), sizeof(s));
		q.qlen = s.qlen;
		q.backlog = s.backlog;
		q.drops = s.drops;
		q.requeues = s.requeues;
		q.overlimits = s.overlimits;
	}
	if (q.kind == "phantom")
		get_xstats(tb[TCA_STATS_APP], q.xstats);
	else if (q.kind == "ndt")
		get_xstats(tb[TCA_STATS_APP], q.ndt_xstats);
}

std::optional<QdiscInfo> parse_qdisc_msg(const nlmsghdr *nlh)
{
	const nlattr *tb[TCA_MAX + 1];
	QdiscInfo q;

	if (nlh->nlmsg_type != RTM_NEWQDISC || mnl_nlmsg_get_payload_len(nlh) < sizeof(tcmsg))
		return std::nullopt;
	auto *t = static_cast<const tcmsg *>(mnl_nlmsg_get_payload(nlh));
	q.ifindex = t->tcm_ifindex;
	q.handle = t->tcm_handle;
	q.parent = t->tcm_parent;
	parse_attrs(nlh, sizeof(tcmsg), tb);
	auto kind = get_str(tb[TCA_KIND]);
	if (!kind)
		return std::nullopt;
	q.kind = *kind;
	if (q.kind == "phantom" && tb[TCA_OPTIONS])
		parse_phantom_opts(tb[TCA_OPTIONS], q.opts);
	else if (q.kind == "ndt" && tb[TCA_OPTIONS])
		parse_ndt_opts(tb[TCA_OPTIONS], q.ndt);
	if (tb[TCA_STATS2])
		parse_stats2(tb[TCA_STATS2], q);
	return q;
}

nlmsghdr *put_class_dump(char *buf, uint32_t seq, int ifindex, uint32_t handle)
{
	nlmsghdr *nlh = put_request(buf, RTM_GETTCLASS, NLM_F_DUMP, seq);
	auto *t = static_cast<tcmsg *>(mnl_nlmsg_put_extra_header(nlh, sizeof(tcmsg)));
	t->tcm_family = AF_UNSPEC;
	t->tcm_ifindex = ifindex;
	t->tcm_parent = handle; // the kernel dumps only this qdisc's classes
	return nlh;
}

std::optional<tc_ndt_flow_xstats> parse_ndt_class_msg(const nlmsghdr *nlh)
{
	const nlattr *tb[TCA_MAX + 1];
	const nlattr *st[TCA_STATS_MAX + 1];
	std::optional<tc_ndt_flow_xstats> flow;

	if (nlh->nlmsg_type != RTM_NEWTCLASS || mnl_nlmsg_get_payload_len(nlh) < sizeof(tcmsg))
		return std::nullopt;
	parse_attrs(nlh, sizeof(tcmsg), tb);
	if (get_str(tb[TCA_KIND]) != "ndt" || !tb[TCA_STATS2])
		return std::nullopt;
	parse_nested(tb[TCA_STATS2], st);
	get_xstats(st[TCA_STATS_APP], flow);
	return flow;
}

// --- sock_diag -------------------------------------------------------------

nlmsghdr *put_tcp_diag_dump(char *buf, uint32_t seq, uint8_t family)
{
	nlmsghdr *nlh = put_request(buf, SOCK_DIAG_BY_FAMILY, NLM_F_DUMP, seq);
	auto *r = static_cast<inet_diag_req_v2 *>(
		mnl_nlmsg_put_extra_header(nlh, sizeof(inet_diag_req_v2)));
	r->sdiag_family = family;
	r->sdiag_protocol = IPPROTO_TCP;
	r->idiag_states = ~0U;
	r->idiag_ext = (1 << (INET_DIAG_INFO - 1)) | (1 << (INET_DIAG_VEGASINFO - 1)) |
		       (1 << (INET_DIAG_CONG - 1));
	return nlh;
}

std::string addr_port(uint32_t addr, uint16_t port)
{
	char buf[INET_ADDRSTRLEN];
	return std::string(inet_ntop(AF_INET, &addr, buf, sizeof(buf)) ? buf : "?") + ":" +
	       std::to_string(ntohs(port));
}

const char *tcp_state_name(uint8_t state)
{
	static const char *const names[] = {
		"UNKNOWN",  "ESTAB",	 "SYN-SENT", "SYN-RECV",   "FIN-WAIT-1", "FIN-WAIT-2",
		"TIME-WAIT", "UNCONN",	 "CLOSE-WAIT", "LAST-ACK", "LISTEN",	"CLOSING",
		"NEW-SYN-RECV",
	};
	return state < std::size(names) ? names[state] : "UNKNOWN";
}

static std::string addr_str(uint8_t family, const uint32_t *a)
{
	char s[INET6_ADDRSTRLEN] = "";
	inet_ntop(family, a, s, sizeof(s));
	return s;
}

std::optional<SockInfo> parse_tcp_diag_msg(const nlmsghdr *nlh)
{
	const nlattr *tb[INET_DIAG_MAX + 1];
	SockInfo s;

	if (nlh->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(inet_diag_msg))
		return std::nullopt;
	auto *m = static_cast<const inet_diag_msg *>(mnl_nlmsg_get_payload(nlh));
	if (m->idiag_family != AF_INET && m->idiag_family != AF_INET6)
		return std::nullopt;
	s.family = m->idiag_family;
	s.state = m->idiag_state;
	s.src = addr_str(s.family, m->id.idiag_src);
	s.dst = addr_str(s.family, m->id.idiag_dst);
	s.sport = ntohs(m->id.idiag_sport);
	s.dport = ntohs(m->id.idiag_dport);
	s.inode = m->idiag_inode;
	parse_attrs(nlh, sizeof(inet_diag_msg), tb);
	s.cc = get_str(tb[INET_DIAG_CONG]).value_or("");
	// tcp_info grows with kernels: read the fields we use if present.
	if (const nlattr *a = tb[INET_DIAG_INFO]) {
		tcp_info ti{};
		size_t len = std::min<size_t>(mnl_attr_get_payload_len(a), sizeof(ti));
		std::memcpy(&ti, mnl_attr_get_payload(a), len);
		s.rto_backoff = ti.tcpi_backoff;
		if (len >= offsetof(tcp_info, tcpi_rttvar))
			s.rtt_us = ti.tcpi_rtt;
		if (len >= offsetof(tcp_info, tcpi_advmss))
			s.snd_cwnd = ti.tcpi_snd_cwnd;
		if (len >= offsetof(tcp_info, tcpi_bytes_received))
			s.bytes_acked = ti.tcpi_bytes_acked;
	}
	// Our CCs answer in the Vegas attribute (see uapi/tcp_uno.h).
	if (const nlattr *a = tb[INET_DIAG_VEGASINFO]) {
		if (s.cc.starts_with("uno") && has(a, sizeof(tcp_uno_info))) {
			tcp_uno_info u;
			std::memcpy(&u, mnl_attr_get_payload(a), sizeof(u));
			s.uno = u;
		} else if (s.cc.starts_with("smartt") && has(a, sizeof(tcp_smartt_info))) {
			tcp_smartt_info i;
			std::memcpy(&i, mnl_attr_get_payload(a), sizeof(i));
			s.smartt = i;
		} else if (s.cc == "swift" && has(a, sizeof(tcp_swift_info))) {
			tcp_swift_info i;
			std::memcpy(&i, mnl_attr_get_payload(a), sizeof(i));
			s.swift = i;
		} else if (s.cc == "timely" && has(a, sizeof(tcp_timely_info))) {
			tcp_timely_info i;
			std::memcpy(&i, mnl_attr_get_payload(a), sizeof(i));
			s.timely = i;
		}
	}
	return s;
}

} // namespace uno
