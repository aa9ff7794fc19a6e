// SPDX-License-Identifier: GPL-2.0
//
// uno_nl_fuzz: send malformed and truncated requests to tcp_uno's generic
// netlink family and check that each is refused with the expected errno
// (or, for a message the netlink core cannot frame, not answered at all),
// then send mutated copies of a valid request by the thousand. Run as root
// in the test VM (selftests/unod/test_unod_netlink.sh), whose runner fails
// the test on any kernel warning. Prints one line per case; exit 1 if any
// case got an unexpected answer.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <sys/socket.h>
#include <sys/time.h>
#include <vector>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nl.h"
#include "socket.h"
#include "uapi/uno_nl.h"

namespace {

int failures;

struct Raw {
	mnl_socket *nl;
	uint32_t portid;
	uint32_t seq = 1;

	Raw()
	{
		int one = 1;
		nl = mnl_socket_open(NETLINK_GENERIC);
		if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
			std::perror("netlink");
			std::exit(1);
		}
		mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
		timeval tv = { 0, 300000 };
		setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		portid = mnl_socket_get_portid(nl);
	}

	// Send `len` bytes of `buf` as they are; return the errno of the
	// first NLMSG_ERROR/DONE answering it (0: ack), or nothing if none
	// came. Replies before the ack (a GET's answer) are skipped.
	std::optional<int> send(const char *buf, size_t len, std::string *msg = nullptr)
	{
		std::vector<char> rx(uno::kNlBufSize);
		if (mnl_socket_sendto(nl, buf, len) < 0)
			return -errno;
		for (;;) {
			ssize_t n = mnl_socket_recvfrom(nl, rx.data(), rx.size());
			if (n < 0)
				return std::nullopt;
			int left = static_cast<int>(n);
			for (auto *nlh = reinterpret_cast<const nlmsghdr *>(rx.data());
			     mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
				if (auto ack = uno::parse_ack(nlh)) {
					if (msg)
						*msg = ack->msg;
					// A dump's end: drain nothing more.
					return -ack->error;
				}
			}
		}
	}
};

void expect(const char *name, std::optional<int> got, std::optional<int> want,
	    const std::string &msg = "")
{
	auto str = [](std::optional<int> e) {
		return e ? (*e ? std::string(strerrorname_np(*e) ?: "?") : std::string("ack"))
			 : std::string("no reply");
	};
	bool ok = got == want;
	std::printf("%s: %s: %s%s%s\n", ok ? "ok" : "FAIL", name, str(got).c_str(),
		    ok ? "" : (" (want " + str(want) + ")").c_str(),
		    msg.empty() ? "" : (" \"" + msg + "\"").c_str());
	failures += !ok;
}

void expect_msg(const char *name, const std::string &got, const std::string &want)
{
	bool ok = got == want;
	std::printf("%s: %s: \"%s\"%s\n", ok ? "ok" : "FAIL", name, got.c_str(),
		    ok ? "" : (" (want \"" + want + "\")").c_str());
	failures += !ok;
}

nlmsghdr *genl_hdr(char *buf, uint16_t family, uint8_t cmd, uint16_t flags)
{
	nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	auto *g = static_cast<genlmsghdr *>(mnl_nlmsg_put_extra_header(nlh, sizeof(genlmsghdr)));
	g->cmd = cmd;
	g->version = UNO_GENL_VERSION;
	return nlh;
}

} // namespace

int main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 2000;
	uint16_t fam = 0;
	try {
		uno::NlSocket ctrl(NETLINK_GENERIC);
		ctrl.transact(
			[](char *b, uint32_t s) {
				return uno::put_ctrl_getfamily(b, s, UNO_GENL_NAME_PREFIX "uno");
			},
			[&](const nlmsghdr *n) {
				if (auto i = uno::parse_family_id(n))
					fam = *i;
			});
	} catch (const uno::NlError &e) {
		std::fprintf(stderr, "uno_nl_fuzz: family " UNO_GENL_NAME_PREFIX "uno: %s%s\n",
			     e.what(), e.err() == ENOENT ? " (modprobe tcp_uno)" : "");
		return 1;
	}
	if (!fam) {
		std::fprintf(stderr, "uno_nl_fuzz: no family id in the reply\n");
		return 1;
	}

	Raw raw;
	alignas(nlmsghdr) char buf[4096];
	std::string msg;
	nlmsghdr *nlh;

	// Well-formed references first.
	nlh = uno::put_param_get(buf, fam, 1, "uno", "alpha_ppm");
	expect("get, well formed", raw.send(buf, nlh->nlmsg_len), 0);
	nlh = uno::put_param_set(buf, fam, 1, "uno", "alpha_ppm", 0);
	expect("set, out of range", raw.send(buf, nlh->nlmsg_len, &msg), EINVAL, msg);
	// The range comes back as the value's policy.
	expect_msg("set, out of range: extack", msg, "value out of range 1..100000");
	nlh = uno::put_param_set(buf, fam, 1, "uno", "no_such_param", 1);
	expect("set, unknown parameter", raw.send(buf, nlh->nlmsg_len, &msg), ENOENT, msg);
	nlh = uno::put_param_set(buf, fam, 1, "smartt", "trtt_factor", 2048);
	expect("set, another family's cc", raw.send(buf, nlh->nlmsg_len, &msg), ENOENT, msg);

	// Missing attributes.
	nlh = genl_hdr(buf, fam, UNO_CMD_PARAM_SET, NLM_F_ACK);
	expect("set, no attributes", raw.send(buf, nlh->nlmsg_len, &msg), EINVAL, msg);
	nlh = genl_hdr(buf, fam, UNO_CMD_PARAM_SET, NLM_F_ACK);
	mnl_attr_put_strz(nlh, UNO_A_CC, "uno");
	mnl_attr_put_strz(nlh, UNO_A_PARAM, "alpha_ppm");
	expect("set, no value", raw.send(buf, nlh->nlmsg_len, &msg), EINVAL, msg);
	nlh = genl_hdr(buf, fam, UNO_CMD_PARAM_GET, NLM_F_ACK);
	mnl_attr_put_strz(nlh, UNO_A_CC, "uno");
	expect("get, no parameter", raw.send(buf, nlh->nlmsg_len, &msg), EINVAL, msg);
	nlh = genl_hdr(buf, fam, UNO_CMD_PARAM_GET, NLM_F_ACK);
	mnl_attr_put_strz(nlh, UNO_A_PARAM, "alpha_ppm");
	expect("get, no cc: the family's", raw.send(buf, nlh->nlmsg_len, &msg), 0, msg);

	// Attributes of the wrong shape.
	nlh = genl_hdr(buf, fam, UNO_CMD_PARAM_SET, NLM_F_ACK);
	mnl_attr_put_strz(nlh, UNO_A_CC, "uno");
	mnl_attr_put_strz(nlh, UNO_A_PARAM, "alpha_ppm");
	mnl_attr_put_u16(nlh, UNO_A_VALUE, 1000);
	expect("set, 2-byte value", raw.send(buf, nlh->nlmsg_len, &msg), EINVAL, msg);
	nlh = genl_hdr(buf, fam, UNO_CMD_PARAM_GET, NLM_F_ACK);
	mnl_attr_put(nlh, UNO_A_CC, 3, "uno"); // no NUL
	mnl_attr_put_strz(nlh, UNO_A_PARAM, "alpha_ppm");
	expect("get, unterminated string", raw.send(buf, nlh->nlmsg_len, &msg), EINVAL, msg);
	nlh = genl_hdr(buf, fam, UNO_CMD_PARAM_GET, NLM_F_ACK);
	mnl_attr_put_strz(nlh, UNO_A_CC, std::string(200, 'u').c_str());
	mnl_attr_put_strz(nlh, UNO_A_PARAM, "alpha_ppm");
	expect("get, 200-byte name", raw.send(buf, nlh->nlmsg_len, &msg), EINVAL, msg);
	nlh = genl_hdr(buf, fam, UNO_CMD_PARAM_GET, NLM_F_ACK);
	mnl_attr_put_strz(nlh, UNO_A_CC, "uno");
	mnl_attr_put_strz(nlh, UNO_A_PARAM, "alpha_ppm");
	mnl_attr_put_strz(nlh, UNO_A_DESC, "reply only");
	expect("get, reply-only attribute", raw.send(buf, nlh->nlmsg_len, &msg), EINVAL, msg);
	nlh = genl_hdr(buf, fam, UNO_CMD_PARAM_GET, NLM_F_ACK);
	mnl_attr_put_strz(nlh, UNO_A_CC, "uno");
	mnl_attr_put_u32(nlh, 77, 1);
	expect("get, unknown attribute", raw.send(buf, nlh->nlmsg_len, &msg), EINVAL, msg);
	nlh = genl_hdr(buf, fam, UNO_CMD_PARAM_GET, NLM_F_DUMP);
	mnl_attr_put_u32(nlh, UNO_A_VALUE_MIN, 5);
	expect("dump, reply-only attribute", raw.send(buf, nlh->nlmsg_len, &msg), EINVAL, msg);

	// Framing.
	nlh = uno::put_param_get(buf, fam, 1, "uno", "alpha_ppm");
	reinterpret_cast<nlattr *>(static_cast<char *>(mnl_nlmsg_get_payload(nlh)) +
				   GENL_HDRLEN)->nla_len = 200;
	expect("get, attribute longer than the message", raw.send(buf, nlh->nlmsg_len, &msg),
	       EINVAL, msg);
	nlh = uno::put_param_get(buf, fam, 1, "uno", "alpha_ppm");
	reinterpret_cast<nlattr *>(static_cast<char *>(mnl_nlmsg_get_payload(nlh)) +
				   GENL_HDRLEN)->nla_len = 2;
	expect("get, attribute shorter than its header", raw.send(buf, nlh->nlmsg_len, &msg),
	       EINVAL, msg);
	nlh = genl_hdr(buf, fam, UNO_CMD_PARAM_GET, NLM_F_ACK);
	nlh->nlmsg_len = NLMSG_HDRLEN + 2;
	expect("genl header cut short", raw.send(buf, nlh->nlmsg_len), EINVAL);
	nlh = uno::put_param_get(buf, fam, 1, "uno", "alpha_ppm");
	static_cast<genlmsghdr *>(mnl_nlmsg_get_payload(nlh))->reserved = 1;
	expect("reserved header field set", raw.send(buf, nlh->nlmsg_len, &msg), EINVAL, msg);
	nlh = genl_hdr(buf, fam, 77, NLM_F_ACK);
	expect("unknown command", raw.send(buf, nlh->nlmsg_len), EOPNOTSUPP);
	nlh = uno::put_param_get(buf, fam, 1, "uno", "alpha_ppm");
	// nlmsg_len claims more than was sent: the netlink core drops it.
	expect("datagram shorter than nlmsg_len", raw.send(buf, nlh->nlmsg_len - 8),
	       std::nullopt);

	// Mutations of a valid GET: random bytes after the netlink header,
	// random truncation. Any answer is fine; the kernel must stay quiet.
	std::mt19937 rng(12345);
	unsigned answered = 0, silent = 0;
	for (unsigned i = 0; i < rounds; i++) {
		nlh = uno::put_param_get(buf, fam, 1, "uno", "alpha_ppm");
		size_t len = nlh->nlmsg_len;
		for (int k = rng() % 4 + 1; k > 0; k--)
			buf[NLMSG_HDRLEN + rng() % (len - NLMSG_HDRLEN)] = static_cast<char>(rng());
		auto *g = static_cast<genlmsghdr *>(mnl_nlmsg_get_payload(nlh));
		g->cmd = UNO_CMD_PARAM_GET; // never a random SET
		if (rng() % 2)
			nlh->nlmsg_len = static_cast<uint32_t>(NLMSG_HDRLEN + rng() % (len - NLMSG_HDRLEN));
		(raw.send(buf, nlh->nlmsg_len) ? answered : silent)++;
	}
	std::printf("ok: %u mutated requests: %u answered, %u unanswered\n", rounds, answered,
		    silent);

	// And the family still works.
	nlh = uno::put_param_get(buf, fam, 1, "uno", "alpha_ppm");
	expect("get after the mutations", raw.send(buf, nlh->nlmsg_len), 0);
	std::printf("%d failed\n", failures);
	return failures ? 1 : 0;
}
