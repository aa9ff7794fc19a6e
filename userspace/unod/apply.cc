// SPDX-License-Identifier: GPL-2.0
#include "apply.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <spawn.h>
#include <sys/wait.h>

#include <net/if.h>

#include "lb_datapath.h"
#include "mlcc_datapath.h"
#include "reflex_datapath.h"
#include "socket.h"

extern char **environ;

namespace unod {
namespace {

const char *kCcSysctl = "/proc/sys/net/ipv4/tcp_congestion_control";
// modprobe tcp_<cc>, as setting the sysctl would; its errors go to our
// stderr.
void load_cc(const std::string &cc)
{
	if (uno::cc_available(cc))
		return;
	std::string mod = "tcp_" + cc;
	char *argv[] = { const_cast<char *>("modprobe"), mod.data(), nullptr };
	pid_t pid;
	if (posix_spawnp(&pid, "modprobe", nullptr, nullptr, argv, environ) == 0) {
		int st;
		waitpid(pid, &st, 0);
	}
}

std::string nl_reason(const uno::NlError &e)
{
	std::string why = e.what();
	if (why != std::strerror(e.err()))
		why += " (" + std::string(std::strerror(e.err())) + ")";
	return why;
}

bool set_default_cc(const std::string &cc)
{
	std::ofstream out(kCcSysctl);
	out << cc << '\n';
	out.close();
	if (!out) {
		log(Prio::Err, "default cc " + cc + ": cannot write " + kCcSysctl + ": " +
				       std::strerror(errno));
		return false;
	}
	log(Prio::Info, "default cc " + cc);
	return true;
}

// Values that must agree with each other (TIMELY's T_low <= T_high) are
// checked together by the module, so a value may be refused until another
// of the file is set: the refused ones are tried again while a pass sets
// any, and logged as failed when none does.
bool set_params(const std::vector<uno::ConfigPlan::ParamSet> &sets,
		std::vector<uno::ConfigPlan::ParamSet> &failed)
{
	std::optional<uno::UnoGenl> genl;
	std::vector<uno::ConfigPlan::ParamSet> todo = sets;

	for (const auto &s : sets)
		load_cc(s.cc);
	while (!todo.empty()) {
		std::vector<uno::ConfigPlan::ParamSet> refused;
		std::vector<std::string> why;

		for (const auto &s : todo) {
			std::string what = "cc " + s.cc + " " + s.name + " " + std::to_string(s.value);
			try {
				if (!genl)
					genl.emplace();
				genl->set(s.cc, s.name, s.value);
				log(Prio::Info, what);
			} catch (const uno::NlError &e) {
				refused.push_back(s);
				why.push_back(what + ": " + nl_reason(e));
			}
		}
		if (refused.size() == todo.size()) {
			for (const auto &w : why)
				log(Prio::Err, w);
			failed.insert(failed.end(), refused.begin(), refused.end());
			break;
		}
		todo = std::move(refused);
	}
	return failed.empty();
}

bool replace_qdisc(const uno::QdiscConf &q)
{
	int ifindex = static_cast<int>(if_nametoindex(q.dev.c_str()));
	if (!ifindex) {
		log(Prio::Err, "qdisc dev " + q.dev + ": no such device");
		return false;
	}
	try {
		if (q.kind == "ndt")
			uno::ndt_replace(ifindex, q.ndt);
		else
			uno::phantom_replace(ifindex, q.opts);
	} catch (const uno::NlError &e) {
		log(Prio::Err, "qdisc dev " + q.dev + ": " + q.kind + " refused: " + nl_reason(e));
		return false;
	}
	log(Prio::Info, "qdisc dev " + q.dev + " root " + q.kind);
	return true;
}

// Only a root qdisc of a kind that we would have put there is removed.
bool delete_qdisc(const std::string &dev)
{
	int ifindex = static_cast<int>(if_nametoindex(dev.c_str()));
	if (!ifindex)
		return true; // gone with its device
	try {
		for (const auto &q : uno::qdisc_dump())
			if (q.ifindex == ifindex && q.parent == 0xffffffffU && uno::our_qdisc(q.kind)) {
				uno::root_qdisc_delete(ifindex);
				log(Prio::Info, "qdisc dev " + dev + ": " + q.kind + " removed");
			}
	} catch (const uno::NlError &e) {
		log(Prio::Err, "qdisc dev " + dev + ": cannot remove: " + nl_reason(e));
		return false;
	}
	return true;
}

const uno::QdiscConf *find_qdisc(const uno::Config &c, const std::string &dev)
{
	for (const auto &q : c.qdiscs)
		if (q.dev == dev)
			return &q;
	return nullptr;
}

void put_qdisc(uno::Config &c, const std::string &dev, const uno::QdiscConf *q)
{
	std::erase_if(c.qdiscs, [&](const auto &x) { return x.dev == dev; });
	if (q)
		c.qdiscs.push_back(*q);
}

bool attach_lb(const uno::LbConf &l)
{
	try {
		uno::lb_attach(l);
	} catch (const uno::LbError &e) {
		log(Prio::Err, "lb dev " + l.dev + ": " + e.what());
		return false;
	}
	log(Prio::Info, "lb dev " + l.dev + " mode " + uno::lb_mode_name(l.cfg.mode));
	return true;
}

bool detach_lb(const std::string &dev)
{
	try {
		uno::lb_detach(dev);
	} catch (const uno::LbError &e) {
		log(Prio::Err, "lb dev " + dev + ": cannot remove: " + e.what());
		return false;
	}
	log(Prio::Info, "lb dev " + dev + ": removed");
	return true;
}

const uno::LbConf *find_lb(const uno::Config &c, const std::string &dev)
{
	for (const auto &l : c.lbs)
		if (l.dev == dev)
			return &l;
	return nullptr;
}

void put_lb(uno::Config &c, const std::string &dev, const uno::LbConf *l)
{
	std::erase_if(c.lbs, [&](const auto &x) { return x.dev == dev; });
	if (l)
		c.lbs.push_back(*l);
}

bool attach_reflex(const uno::RfxConf &r)
{
	const std::string role = uno::rfx_role_name(r.role);
	try {
		uno::rfx_attach(r);
	} catch (const uno::RfxError &e) {
		log(Prio::Err, "reflex " + role + ": " + e.what());
		return false;
	}
	log(Prio::Info, "reflex " + role + " on " + std::to_string(r.devs.size() + r.wan.size()) +
				" devices, k " + std::to_string(r.cfg.k));
	return true;
}

bool detach_reflex(uint32_t role)
{
	const std::string name = uno::rfx_role_name(role);
	try {
		uno::rfx_detach(role);
	} catch (const uno::RfxError &e) {
		log(Prio::Err, "reflex " + name + ": cannot remove: " + e.what());
		return false;
	}
	log(Prio::Info, "reflex " + name + ": removed");
	return true;
}

// The role as c has it, or nothing.
void put_reflex(uno::Config &c, uint32_t role, const uno::Config &from)
{
	std::erase_if(c.reflex, [&](const auto &x) { return x.role == role; });
	for (const auto &r : from.reflex)
		if (r.role == role)
			c.reflex.push_back(r);
}

bool attach_mlcc(const uno::MlccConf &m)
{
	try {
		uno::mlcc_attach(m);
	} catch (const uno::MlccError &e) {
		log(Prio::Err, "mlcc: " + std::string(e.what()));
		return false;
	}
	log(Prio::Info, "mlcc on cgroup " + m.cgroup);
	return true;
}

bool detach_mlcc()
{
	try {
		uno::mlcc_detach();
	} catch (const uno::MlccError &e) {
		log(Prio::Err, "mlcc: cannot remove: " + std::string(e.what()));
		return false;
	}
	log(Prio::Info, "mlcc: removed");
	return true;
}

bool attach_mlcc_ns(const uno::MlccNsConf &r)
{
	const std::string role = uno::mlcc_ns_role_name(r.role);
	try {
		uno::mlcc_ns_attach(r);
	} catch (const uno::MlccError &e) {
		log(Prio::Err, "mlcc " + role + ": " + e.what());
		return false;
	}
	log(Prio::Info, "mlcc " + role + " on " + std::to_string(1 + r.wan.size()) + " devices");
	return true;
}

bool detach_mlcc_ns(uint32_t role)
{
	const std::string name = uno::mlcc_ns_role_name(role);
	try {
		uno::mlcc_ns_detach(role);
	} catch (const uno::MlccError &e) {
		log(Prio::Err, "mlcc " + name + ": cannot remove: " + e.what());
		return false;
	}
	log(Prio::Info, "mlcc " + name + ": removed");
	return true;
}

// The near-source role as c has it, or nothing.
void put_mlcc_ns(uno::Config &c, uint32_t role, const uno::Config &from)
{
	std::erase_if(c.mlcc_ns, [&](const auto &x) { return x.role == role; });
	for (const auto &r : from.mlcc_ns)
		if (r.role == role)
			c.mlcc_ns.push_back(r);
}

} // namespace

void log(Prio prio, const std::string &msg)
{
	static const bool journal = std::getenv("JOURNAL_STREAM") != nullptr;
	if (journal)
		std::fprintf(stderr, "<%d>%s\n", static_cast<int>(prio), msg.c_str());
	else
		std::fprintf(stderr, "unod: %s\n", msg.c_str());
	std::fflush(stderr);
}

int apply_plan(const uno::ConfigPlan &plan, const uno::Config &next, uno::Config &applied)
{
	uno::Config prev = applied;
	int failures = 0;

	applied = next;
	// Parameters first, so that connections of a new default CC start
	// with them.
	std::vector<uno::ConfigPlan::ParamSet> failed;
	set_params(plan.params, failed);
	for (const auto &f : failed) {
		failures++;
		auto &cc = applied.params[f.cc];
		auto p = prev.params.find(f.cc);
		if (p != prev.params.end() && p->second.contains(f.name))
			cc[f.name] = p->second.at(f.name);
		else
			cc.erase(f.name);
	}
	if (plan.default_cc) {
		load_cc(*plan.default_cc);
		if (!set_default_cc(*plan.default_cc)) {
			failures++;
			applied.default_cc = prev.default_cc;
		}
	}
	for (const auto &q : plan.qdisc_replace)
		if (!replace_qdisc(q)) {
			failures++;
			put_qdisc(applied, q.dev, find_qdisc(prev, q.dev));
		}
	for (const auto &dev : plan.qdisc_delete)
		if (!delete_qdisc(dev)) {
			failures++;
			put_qdisc(applied, dev, find_qdisc(prev, dev));
		}
	for (const auto &l : plan.lb_attach)
		if (!attach_lb(l)) {
			failures++;
			put_lb(applied, l.dev, find_lb(prev, l.dev));
		}
	for (const auto &dev : plan.lb_detach)
		if (!detach_lb(dev)) {
			failures++;
			put_lb(applied, dev, find_lb(prev, dev));
		}
	for (const auto &r : plan.reflex_attach)
		if (!attach_reflex(r)) {
			failures++;
			put_reflex(applied, r.role, prev);
		}
	for (uint32_t role : plan.reflex_detach)
		if (!detach_reflex(role)) {
			failures++;
			put_reflex(applied, role, prev);
		}
	if ((plan.mlcc_attach && !attach_mlcc(*plan.mlcc_attach)) ||
	    (plan.mlcc_detach && !detach_mlcc())) {
		failures++;
		applied.mlcc = prev.mlcc;
	}
	for (const auto &r : plan.mlcc_ns_attach)
		if (!attach_mlcc_ns(r)) {
			failures++;
			put_mlcc_ns(applied, r.role, prev);
		}
	for (uint32_t role : plan.mlcc_ns_detach)
		if (!detach_mlcc_ns(role)) {
			failures++;
			put_mlcc_ns(applied, role, prev);
		}
	return failures;
}

} // namespace unod
