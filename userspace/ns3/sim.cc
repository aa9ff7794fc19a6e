// SPDX-License-Identifier: GPL-2.0
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <numeric>
#include <optional>

#include <ns3/applications-module.h>
#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>
#include <ns3/traffic-control-module.h>

#include "sim.h"
// After nlohmann/json and ns-3: core_user.h's macros.
#include "phantom_queue_disc.h"
#include "planned_send.h"
#include "tcp_smartt.h"
#include "tcp_uno.h"

using namespace ns3;
using nlohmann::json;

namespace uno_sim {
namespace {

constexpr uint16_t kBasePort = 5000;
constexpr uint16_t kRpcPort = 20000;
constexpr uint32_t kRpcSizeStream = 1u << 16;
constexpr uint32_t kTcpHeaders = 40; // IPv4 20, TCP 20
constexpr uint32_t kAccessX = 10;
// ev_mix's unoperf --timeout: a flow still running this long after the
// mix's last start failed.
const Time kMixTimeout = Seconds(60);

// A flow's FCT runs from its first write (unoperf's start_ns; after the
// handshake) to its last byte's arrival (htsim's end), and a mix's on to
// the receiver's answer (fct()).
struct Flow {
	FlowClass cls;
	uint32_t node;		// its sender's, in build()'s order
	Ptr<PacketSink> sink;
	uint64_t bytes = 0;	// 0: runs until the window ends
	Time start;		// its application's; a mix's flow: its write
	Time first_tx;
	Time end;		// zero until every byte arrived
	double ideal_us = 0;	// a mix's flow: its slowdown's denominator
	Time answer;		// a mix's flow: half its class's base RTT
};

// A flow's FCT, from its first write to its last byte's arrival, and for
// a mix's flow on to the client's receipt of the receiver's answer
// (unoperf's end), half its class's base RTT later: its slowdown is then
// unoperf's, against size / C plus the base RTT.
Time fct(const Flow &f)
{
	return f.end - f.first_tx + f.answer;
}

// One RPC of the scenario's stream, its FCT as a Flow's.
struct Rpc {
	Ptr<PacketSink> sink;
	uint64_t bytes;
	Time first_tx;
	Time end;
};

struct Run {
	Run(const Scenario &scn, const Profile &prof, const std::string &v) : s(scn), p(prof), variant(v)
	{
	}

	const Scenario &s;
	const Profile &p;
	std::string variant;
	std::vector<Flow> flows;
	std::vector<Rpc> rpcs;
	uint32_t rpcs_done = 0;
	Ptr<PhantomQueueDisc> port;
	std::vector<std::pair<double, std::vector<double>>> rates; // t, Mbit/s per flow
	std::vector<uint64_t> last_rx;
	std::vector<uint32_t> backlog;	// sampled in the window
	Time t0, t1;		// the window; t1 zero until it ends
	uint64_t rx_t0 = 0, rx_t1 = 0;
	Time empty_t0, empty_t1;
	uint32_t done = 0;
};

Time inter_rtts(const Profile &p, double n)
{
	return MicroSeconds(static_cast<int64_t>(std::llround(n * p.inter_rtt_us)));
}

// A sender's link: its path's propagation delay less the ToR-receiver
// hop's (build()).
Time access_delay(const Profile &p, FlowClass c)
{
	Time hop = MicroSeconds(p.intra_rtt_us) / 4;

	return c == FlowClass::Intra ? hop : MicroSeconds(p.inter_rtt_us) / 2 - hop;
}

Time rpc_gap(const Profile &p, const RpcStream &q)
{
	return NanoSeconds(static_cast<int64_t>(std::llround(q.gap_us_at_100g * 1e3 * 100000 / p.rate_mbps)));
}

TypeId socket_type(const std::string &variant, FlowClass c)
{
	if (variant == "dctcp+bbr")
		return c == FlowClass::Intra ? TcpDctcp::GetTypeId() : TcpBbr::GetTypeId();
	if (variant.rfind("uno", 0) == 0)
		return TcpUno::GetTypeId();
	if (variant.rfind("smartt", 0) == 0)
		return TcpSmartt::GetTypeId();
	if (variant == "dctcp")
		return TcpDctcp::GetTypeId();
	if (variant == "bbr")
		return TcpBbr::GetTypeId();
	return TcpCubic::GetTypeId();
}

// Linux's defaults where ns-3's differ, for every variant alike.
void tcp_defaults(const Profile &p, const std::string &variant)
{
	TcpUno::ResetParams();
	TcpSmartt::ResetParams();
	// The receiver's is the intra-DC one's (lib_eval.sh ev_begin).
	Config::SetDefault("ns3::TcpL4Protocol::SocketType",
			   TypeIdValue(socket_type(variant, FlowClass::Intra)));
	Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(p.mtu - kTcpHeaders));
	Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
	Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1u << 28));
	Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1u << 28));
	// One ACK per segment: each echoes its own CE (DCTCP's echo, exact).
	Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
	// Linux's RTO, srtt + max(4 rttvar, the floor) (tcp_rtt_estimator),
	// is ns-3's srtt + max(4 rttvar, ClockGranularity).
	Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MicroSeconds(p.rto_min_us)));
	Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MicroSeconds(p.rto_min_us)));
	// ns-3 measures RTT from its timestamps in ms when they are on, from
	// its send times (ns) when off; Linux from its send times (us).
	Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
	Config::SetDefault("ns3::TcpSocketState::MaxPacingRate",
			   DataRateValue(DataRate(p.rate_mbps * 1000000 * 4)));
	// dctcp+bbr's bbr sockets turn their pacing on themselves
	// (TcpBbr::InitPacingRate), and ns-3 warns that it had to.
	Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(variant == "bbr"));
	// A paced socket paces from its first segment, as Linux's.
	Config::SetDefault("ns3::TcpSocketState::PaceInitialWindow", BooleanValue(true));
	// The RTT "sample" ns-3 hands the CC is its estimator's output: with
	// Alpha 1 it is the sample (tcp_uno.cc keeps srtt itself).
	Config::SetDefault("ns3::RttMeanDeviation::Alpha", DoubleValue(1.0));
	// Device queues one packet long: the backlog waits in the qdisc.
	Config::SetDefault("ns3::DropTailQueue<Packet>::MaxSize", QueueSizeValue(QueueSize("1p")));
	// tb_cc_profile and lib_eval.sh ev_init: C and the RTTs are the
	// fabric's, always; NSCC's target delay derives from the largest.
	TcpUno::SetParam("link_rate_mbps", p.rate_mbps);
	TcpUno::SetParam("intra_rtt_us", p.intra_rtt_us);
	TcpSmartt::SetParam("link_rate_mbps", p.rate_mbps);
	TcpSmartt::SetParam("base_rtt_floor_us", p.intra_rtt_us);
	TcpSmartt::SetParam("nscc_net_rtt_us", p.inter_rtt_us);
	for (const ModuleParam &m : p.params)
		(m.cc == "uno" ? TcpUno::SetParam : TcpSmartt::SetParam)(m.name, m.value);
	// The variant's law, whatever the profile says.
	TcpSmartt::SetParam("mode", variant == "smartt-nscc" ? SMARTT_MODE_NSCC : 0);
}

// lib_eval.sh ev_begin: uno's port marks on the phantom queue only (its
// real ramp at the limit never marks); the baselines' on the real queue.
TrafficControlHelper bottleneck_qdisc(const Profile &p, const std::string &variant)
{
	TrafficControlHelper tch;
	uint64_t pq = phantom_size(p);
	bool phantom = variant == "uno";
	bool ramp = variant != "uno";

	tch.SetRootQueueDisc("ns3::PhantomQueueDisc", "Rate",
			     DataRateValue(DataRate(p.rate_mbps * 1000000)), "Limit",
			     UintegerValue(p.buffer_bytes), "EcnMin",
			     UintegerValue(ramp ? p.kmin_bytes : p.buffer_bytes), "EcnMax",
			     UintegerValue(ramp ? p.kmax_bytes : p.buffer_bytes), "PhantomRate",
			     UintegerValue(900000), "PhantomSize", UintegerValue(phantom ? pq : 0),
			     "PhantomMin", UintegerValue(pq * 2 / 100), "PhantomMax",
			     UintegerValue(pq * 60 / 100));
	return tch;
}

// ns-3 3.37 has no getter for a socket's congestion control: a sender's
// socket, once its application made it and before its SYN is answered,
// gets one of ours whose Tx trace counts its losses (WatchLosses()).
void watch_losses(Ptr<Application> app, TypeId cc_type)
{
	Ptr<BulkSendApplication> bulk = DynamicCast<BulkSendApplication>(app);
	Ptr<PlannedSend> planned = DynamicCast<PlannedSend>(app);
	Ptr<TcpSocketBase> sock = DynamicCast<TcpSocketBase>(bulk ? bulk->GetSocket() :
							     planned ? planned->GetSocket() : nullptr);

	NS_ABORT_MSG_IF(!sock, "watch_losses: not a TCP sender");
	ObjectFactory f(cc_type.GetName());
	Ptr<TcpCoreOps> cc = f.Create<TcpCoreOps>();

	sock->SetCongestionControlAlgorithm(cc);
	cc->WatchLosses(sock);
}

NetDeviceContainer link(Node *a, Node *b, const Profile &p, Time delay, uint32_t rate_x)
{
	PointToPointHelper p2p;

	p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(p.rate_mbps * 1000000 * rate_x)));
	p2p.SetDeviceAttribute("Mtu", UintegerValue(p.mtu));
	p2p.SetChannelAttribute("Delay", TimeValue(delay));
	return p2p.Install(a, b);
}

uint64_t total_rx(const Run &r)
{
	uint64_t rx = 0;

	for (const Flow &f : r.flows)
		rx += f.sink->GetTotalRx();
	return rx;
}

void window_start(Run *r)
{
	r->rx_t0 = total_rx(*r);
	r->empty_t0 = r->port->EmptyTime();
}

void window_end(Run *r)
{
	if (!r->t1.IsZero())
		return;
	r->t1 = Simulator::Now();
	r->rx_t1 = total_rx(*r);
	r->empty_t1 = r->port->EmptyTime();
}

// A flow of a size ends the window when it is the first to end (unless
// the scenario gives a window), and the run when it is the last.
void on_rx(Run *r, uint32_t i, Ptr<const Packet>, const Address &)
{
	Flow &f = r->flows[i];

	if (f.bytes && f.end.IsZero() && f.sink->GetTotalRx() >= f.bytes) {
		f.end = Simulator::Now();
		if (r->s.window_inter_rtts <= 0 && !r->s.mix && f.end >= r->t0)
			window_end(r);
		if (++r->done == r->flows.size()) {
			window_end(r);
			Simulator::Stop();
		}
	}
}

void on_flow_tx(Run *r, uint32_t i, Ptr<const Packet>)
{
	if (r->flows[i].first_tx.IsZero())
		r->flows[i].first_tx = Simulator::Now();
}

void on_rpc_tx(Run *r, uint32_t k, Ptr<const Packet>)
{
	if (r->rpcs[k].first_tx.IsZero())
		r->rpcs[k].first_tx = Simulator::Now();
}

// The last RPC to end ends the window, unless the scenario gives one, and
// the run.
void on_rpc_rx(Run *r, uint32_t k, Ptr<const Packet>, const Address &)
{
	Rpc &q = r->rpcs[k];

	if (q.end.IsZero() && q.sink->GetTotalRx() >= q.bytes) {
		q.end = Simulator::Now();
		if (++r->rpcs_done == r->rpcs.size() && r->s.window_inter_rtts <= 0) {
			window_end(r);
			Simulator::Stop();
		}
	}
}

void sample_rates(Run *r, Time every)
{
	std::vector<double> mbps;

	for (size_t i = 0; i < r->flows.size(); i++) {
		uint64_t rx = r->flows[i].sink->GetTotalRx();
		mbps.push_back((rx - r->last_rx[i]) * 8.0 / every.GetSeconds() / 1e6);
		r->last_rx[i] = rx;
	}
	r->rates.emplace_back(Simulator::Now().GetSeconds(), std::move(mbps));
	Simulator::Schedule(every, &sample_rates, r, every);
}

void sample_backlog(Run *r, Time every)
{
	Time now = Simulator::Now();

	if (now >= r->t0 && (r->t1.IsZero() || now <= r->t1))
		r->backlog.push_back(r->port->GetNBytes());
	Simulator::Schedule(every, &sample_backlog, r, every);
}

void start_sender(const Run &r, ApplicationContainer app, FlowClass c, Time at)
{
	TypeId cc = socket_type(r.variant, c);

	app.Start(at);
	// Just after StartApplication, which the node schedules at @at.
	if (cc.IsChildOf(TcpCoreOps::GetTypeId()))
		Simulator::Schedule(at + NanoSeconds(1), &watch_losses, app.Get(0), cc);
}

// Flow @i's sender on @node. A mix's waits connected from the start and
// writes at its time (PlannedSend: unoperf's flows); the others send all
// they have once connected (BulkSend), their first write their first_tx.
void sender_app(Run &r, uint32_t i, Address to, Ptr<Node> node)
{
	Flow &f = r.flows[i];

	if (r.s.mix) {
		Ptr<PlannedSend> app = CreateObject<PlannedSend>();
		app->Plan(to, f.bytes, f.start);
		node->AddApplication(app);
		start_sender(r, ApplicationContainer(app), f.cls, Time());
		return;
	}
	BulkSendHelper src("ns3::TcpSocketFactory", to);
	src.SetAttribute("MaxBytes", UintegerValue(f.bytes));
	src.SetAttribute("SendSize", UintegerValue(1 << 16));
	ApplicationContainer app = src.Install(node);
	app.Get(0)->TraceConnectWithoutContext("Tx", MakeBoundCallback(&on_flow_tx, &r, i));
	start_sender(r, app, f.cls, f.start);
}

// The scenario's RPCs from @sender, a connection each, one every gap
// from the window's start.
void build_rpcs(Run &r, Ptr<Node> sender, Ptr<Node> receiver, Ipv4Address to)
{
	const RpcStream &q = *r.s.rpcs;
	Ptr<UniformRandomVariable> size = CreateObject<UniformRandomVariable>();
	Time gap = rpc_gap(r.p, q);

	size->SetStream(kRpcSizeStream);
	r.rpcs.resize(q.count);
	for (uint32_t k = 0; k < q.count; k++) {
		uint16_t port = kRpcPort + k;
		PacketSinkHelper sink("ns3::TcpSocketFactory",
				      InetSocketAddress(Ipv4Address::GetAny(), port));
		BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(to, port));
		Rpc &rpc = r.rpcs[k];

		rpc.bytes = size->GetInteger(q.min_bytes, q.max_bytes);
		rpc.sink = DynamicCast<PacketSink>(sink.Install(receiver).Get(0));
		rpc.sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&on_rpc_rx, &r, k));
		src.SetAttribute("MaxBytes", UintegerValue(rpc.bytes));
		src.SetAttribute("SendSize", UintegerValue(1 << 16));
		ApplicationContainer app = src.Install(sender);
		app.Get(0)->TraceConnectWithoutContext("Tx", MakeBoundCallback(&on_rpc_tx, &r, k));
		start_sender(r, app, q.cls, r.t0 + gap * k);
	}
}

// The flows: the [[flows]] groups', a flow per sender, or the [mix]'s
// plan over those senders. @nodes: each sender's class, in order.
void plan_flows(Run &r, const std::vector<FlowClass> &nodes)
{
	const Profile &p = r.p;

	if (!r.s.mix) {
		uint32_t i = 0;
		for (const FlowGroup &g : r.s.flows)
			for (uint32_t k = 0; k < g.count; k++, i++)
				r.flows.push_back({ g.cls, i, nullptr, p.flow_bytes,
						    g.at_window ? r.t0 : Time(), Time(), Time(), 0, Time() });
		return;
	}
	std::vector<uint32_t> of_class[2];
	std::string err;

	for (uint32_t i = 0; i < nodes.size(); i++)
		of_class[nodes[i] == FlowClass::Inter].push_back(i);
	auto plan = plan_mix(r.s, p, err);
	if (!plan)
		throw std::runtime_error(err);
	for (const MixFlow &f : *plan) {
		uint32_t rtt = f.cls == FlowClass::Intra ? p.intra_rtt_us : p.inter_rtt_us;
		Time start = r.t0 + MicroSeconds(f.start_us);

		r.flows.push_back({ f.cls, of_class[f.cls == FlowClass::Inter][f.sender], nullptr, f.bytes,
				    start, start, Time(), f.ideal_us, MicroSeconds(rtt) / 2 });
	}
}

// Builds the dumbbell: each sender's link carries its path's propagation
// delay less the ToR-receiver hop's, so that the two RTTs are the
// profile's (serialisation adds one packet time per hop, as on the VM).
// The senders' links run at kAccessX x C, as the VM's senders are
// unshaped veths: the ToR's port is the one bottleneck, and a sender's
// own queue (pfifo_fast's 1000 packets) stays empty. The RPCs' sender,
// if any, is one more of its class.
void build(Run &r, NodeContainer &senders, Ptr<Node> &receiver)
{
	const Profile &p = r.p;
	Time hop = MicroSeconds(p.intra_rtt_us) / 4;
	const std::optional<RpcStream> &rpcs = r.s.rpcs;
	NodeContainer tor, rcv;
	InternetStackHelper stack;
	TrafficControlHelper fifo;
	Ipv4AddressHelper addr;
	std::vector<NetDeviceContainer> links;
	std::vector<FlowClass> nodes;

	tor.Create(1);
	rcv.Create(1);
	receiver = rcv.Get(0);
	for (const FlowGroup &g : r.s.flows)
		nodes.insert(nodes.end(), g.count, g.cls);
	// The RPCs' sender last.
	if (rpcs)
		nodes.push_back(rpcs->cls);
	plan_flows(r, nodes);
	senders.Create(nodes.size());
	stack.InstallAll();
	for (uint32_t i = 0; i < nodes.size(); i++) {
		// A sender's sockets are born with its class's congestion control.
		senders.Get(i)->GetObject<TcpL4Protocol>()->SetAttribute(
			"SocketType", TypeIdValue(socket_type(r.variant, nodes[i])));
		links.push_back(link(PeekPointer(senders.Get(i)), PeekPointer(tor.Get(0)), p,
				     access_delay(p, nodes[i]), kAccessX));
	}
	NetDeviceContainer down = link(PeekPointer(tor.Get(0)), PeekPointer(receiver), p, hop, 1);
	fifo.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("1000p"));
	for (NetDeviceContainer &l : links)
		fifo.Install(l);
	fifo.Install(down.Get(1));
	r.port = DynamicCast<PhantomQueueDisc>(
		bottleneck_qdisc(p, r.variant).Install(down.Get(0)).Get(0));
	addr.SetBase("10.0.0.0", "255.255.255.0");
	for (NetDeviceContainer &l : links) {
		addr.Assign(l);
		addr.NewNetwork();
	}
	Ipv4InterfaceContainer rif = addr.Assign(down);
	Ipv4GlobalRoutingHelper::PopulateRoutingTables();

	for (size_t i = 0; i < r.flows.size(); i++) {
		uint16_t port = kBasePort + i;
		PacketSinkHelper sink("ns3::TcpSocketFactory",
				      InetSocketAddress(Ipv4Address::GetAny(), port));

		r.flows[i].sink = DynamicCast<PacketSink>(sink.Install(receiver).Get(0));
		r.flows[i].sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&on_rx, &r, i));
		sender_app(r, i, InetSocketAddress(rif.GetAddress(1), port), senders.Get(r.flows[i].node));
	}
	if (rpcs)
		build_rpcs(r, senders.Get(nodes.size() - 1), receiver, rif.GetAddress(1));
}

double jain(const std::vector<double> &x)
{
	double sum = 0, sq = 0;

	for (double v : x) {
		sum += v;
		sq += v * v;
	}
	return sq > 0 ? sum * sum / (x.size() * sq) : 0;
}

template <typename T> double percentile(std::vector<T> v, double pct)
{
	if (v.empty())
		return 0;
	std::sort(v.begin(), v.end());
	return v[static_cast<size_t>(std::llround((v.size() - 1) * pct / 100))];
}

// The fairness window's samples: those that end in [t0, t1].
void fairness(const Run &r, json &m)
{
	std::vector<double> jains;
	double intra = 0, inter = 0;
	uint32_t n_intra = 0, n_inter = 0;

	for (const auto &[t, mbps] : r.rates) {
		if (t < r.t0.GetSeconds() - 1e-9 || t > r.t1.GetSeconds() + 1e-9)
			continue;
		jains.push_back(jain(mbps));
		for (size_t i = 0; i < mbps.size(); i++) {
			bool is_intra = r.flows[i].cls == FlowClass::Intra;
			(is_intra ? intra : inter) += mbps[i];
			(is_intra ? n_intra : n_inter)++;
		}
	}
	m["samples"] = jains.size();
	m["jain_mean"] = jains.empty() ?
				 json() :
				 json(std::accumulate(jains.begin(), jains.end(), 0.0) / jains.size());
	if (n_intra && n_inter) {
		m["intra_mbps"] = intra / n_intra;
		m["inter_mbps"] = inter / n_inter;
		m["intra_over_inter"] = inter > 0 ? json((intra / n_intra) / (inter / n_inter)) : json();
	}
}

// lib_eval.sh ev_sized_flows: the incast's completion against its ideal
// (all bytes at C, plus one base RTT of the slowest class), the spread of
// the FCTs over it, and Jain's index of the mean rates (size / FCT) of
// the flows that ended.
void completion(const Run &r, json &m)
{
	std::vector<double> mean_rates;
	uint32_t rtt_us = 0;
	Time last, fct_min = Time::Max(), fct_max;

	for (const Flow &f : r.flows) {
		rtt_us = std::max(rtt_us, f.cls == FlowClass::Intra ? r.p.intra_rtt_us : r.p.inter_rtt_us);
		if (f.end.IsZero())
			continue;
		last = std::max(last, f.end);
		fct_min = std::min(fct_min, fct(f));
		fct_max = std::max(fct_max, fct(f));
		mean_rates.push_back(f.bytes / fct(f).GetSeconds());
	}
	double ideal_ms = r.flows.size() * r.p.flow_bytes * 8.0 / (r.p.rate_mbps * 1e3) + rtt_us / 1e3;
	m["flows_completed"] = r.done;
	m["ideal_ms"] = ideal_ms;
	m["done_ms"] = r.done ? json(last.GetSeconds() * 1e3) : json();
	m["fct_over_ideal"] = r.done ? json(fct_max.GetSeconds() * 1e3 / ideal_ms) : json();
	m["fct_spread"] = r.done ? json((fct_max - fct_min).GetSeconds() * 1e3 / ideal_ms) : json();
	m["jain"] = mean_rates.empty() ? json() : json(jain(mean_rates));
}

// test_eval_s11_5.sh: how two flows converge once the second joins (at
// the window's start). Over the samples taken wholly in the window, the
// imbalance (max - min) / sum of the flows' rates; the flows converged at
// the first sample after the last one above 0.1 (smartt.md 11.5), given
// in seconds after the join and in intra-DC RTTs; Jain's index of the
// flows' rates summed over those samples, and their count, in place of
// fairness()'s (the VM's S11.5 gives these).
void convergence(const Run &r, json &m)
{
	double period = inter_rtts(r.p, r.s.sample_inter_rtts).GetSeconds();
	double t0 = r.t0.GetSeconds(), t1 = r.t1.GetSeconds();
	std::vector<double> sums(r.flows.size());
	std::optional<double> converged;
	uint32_t n = 0;

	for (const auto &[t, mbps] : r.rates) {
		if (t - period < t0 - 1e-9 || t > t1 + 1e-9)
			continue;
		auto [lo, hi] = std::minmax_element(mbps.begin(), mbps.end());
		double sum = std::accumulate(mbps.begin(), mbps.end(), 0.0);
		if (sum <= 0 || (*hi - *lo) / sum > 0.1)
			converged.reset();
		else if (!converged)
			converged = t - t0;
		for (size_t i = 0; i < mbps.size(); i++)
			sums[i] += mbps[i];
		n++;
	}
	m["samples"] = n;
	m["convergence_s"] = converged ? json(*converged) : json();
	m["convergence_brtt"] = converged ? json(std::floor(*converged * 1e6 / r.p.intra_rtt_us)) : json();
	m["jain"] = n ? json(jain(sums)) : json();
}

// test_eval_n3.sh: the RPCs' FCTs, and the long flows' goodput beside.
void rpc_fcts(const Run &r, json &m)
{
	std::vector<double> fcts;

	for (const Rpc &q : r.rpcs)
		if (!q.end.IsZero())
			fcts.push_back((q.end - q.first_tx).GetSeconds() * 1e6);
	m["rpcs_completed"] = fcts.size();
	m["rpc_mean_fct_us"] = fcts.empty() ? json() :
				json(std::accumulate(fcts.begin(), fcts.end(), 0.0) / fcts.size());
	m["rpc_p99_fct_us"] = fcts.empty() ? json() : json(percentile(fcts, 99));
	m["long_goodput_mbps"] = m["goodput_mbps"];
}

// lib_eval.sh ev_mix: over the flows that ended, their count, mean and
// p99 FCT and p99 slowdown, overall (@pre "") and per class; the flows
// that did not end; the p99 slowdown per size bin.
void mix_stats(const std::vector<const Flow *> &flows, const std::string &pre, json &m)
{
	std::vector<double> fcts, slowdown;

	for (const Flow *f : flows) {
		if (f->end.IsZero())
			continue;
		fcts.push_back(fct(*f).GetSeconds() * 1e6);
		slowdown.push_back(fcts.back() / f->ideal_us);
	}
	m[pre + "flows"] = fcts.size();
	m[pre + "mean_fct_us"] = fcts.empty() ? json() :
			      json(std::accumulate(fcts.begin(), fcts.end(), 0.0) / fcts.size());
	m[pre + "p99_fct_us"] = fcts.empty() ? json() : json(percentile(fcts, 99));
	m[pre + "p99_slowdown"] = slowdown.empty() ? json() : json(percentile(slowdown, 99));
}

void mix_fcts(const Run &r, json &m)
{
	static const std::pair<uint64_t, const char *> bins[] = {
		{ 10000, "<10K" }, { 100000, "10K-100K" }, { 1000000, "100K-1M" },
		{ 10000000, "1M-10M" }, { UINT64_MAX, ">10M" } };
	std::vector<const Flow *> all, intra, inter, by_size[std::size(bins)];
	json sizes = json::array();

	for (const Flow &f : r.flows) {
		all.push_back(&f);
		(f.cls == FlowClass::Intra ? intra : inter).push_back(&f);
		if (!f.end.IsZero())
			by_size[std::find_if(std::begin(bins), std::end(bins),
					     [&](const auto &b) { return f.bytes < b.first; }) - bins]
				.push_back(&f);
	}
	mix_stats(all, "", m);
	mix_stats(intra, "intra_", m);
	mix_stats(inter, "inter_", m);
	m["failed"] = all.size() - m["flows"].get<size_t>();
	for (size_t b = 0; b < std::size(bins); b++) {
		json s;
		if (by_size[b].empty())
			continue;
		mix_stats(by_size[b], "", s);
		sizes.push_back({ { "bucket", bins[b].second }, { "flows", s["flows"] },
				  { "p99_slowdown", s["p99_slowdown"] } });
	}
	m["p99_slowdown_by_size"] = std::move(sizes);
}

json metrics(const Run &r)
{
	json m;
	double span = (r.t1 - r.t0).GetSeconds();
	double goodput = span > 0 ? (r.rx_t1 - r.rx_t0) * 8.0 / span / 1e6 : 0;
	QueueDisc::Stats st = r.port->GetStats();
	Time empty = r.empty_t1 - r.empty_t0;

	m["window_from_s"] = r.t0.GetSeconds();
	m["window_to_s"] = r.t1.GetSeconds();
	m["goodput_mbps"] = goodput;
	m["utilisation"] = goodput / r.p.rate_mbps;
	m["drops"] = st.nTotalDroppedPackets;
	m["marks"] = st.nTotalMarkedPackets;
	m["phantom_marks"] = st.GetNMarkedPackets(PhantomQueueDisc::kPhantomMark);
	m["backlog_p50_bytes"] = percentile(r.backlog, 50);
	m["backlog_p90_bytes"] = percentile(r.backlog, 90);
	m["backlog_p99_bytes"] = percentile(r.backlog, 99);
	m["backlog_empty_fraction"] = span > 0 ? empty.GetSeconds() / span : 0;
	if (r.flows.size() > 1 && !r.s.mix)
		fairness(r, m);
	if (r.s.mix)
		mix_fcts(r, m);
	if (r.p.flow_bytes)
		completion(r, m);
	if (!r.rpcs.empty())
		rpc_fcts(r, m);
	if (std::any_of(r.s.flows.begin(), r.s.flows.end(), [](const FlowGroup &g) { return g.at_window; }))
		convergence(r, m);
	return m;
}

json flows_json(const Run &r)
{
	json a = json::array();

	for (size_t i = 0; i < r.flows.size(); i++) {
		const Flow &f = r.flows[i];
		json o = { { "id", i },
			   { "class", class_name(f.cls) },
			   { "bytes", f.sink->GetTotalRx() },
			   { "ok", !f.bytes || !f.end.IsZero() },
			   { "fct_us", f.end.IsZero() ? json() : json(fct(f).GetMicroSeconds()) } };
		if (f.ideal_us > 0) {
			o["size"] = f.bytes;
			o["slowdown"] = f.end.IsZero() ? json() :
					json(fct(f).GetSeconds() * 1e6 / f.ideal_us);
		}
		a.push_back(std::move(o));
	}
	return a;
}

// The VM's form (lib_eval.sh): a series per flow, named as the testbed
// names its senders (h1.. intra-DC, w1.. inter-DC).
json rates_json(const Run &r)
{
	json a = json::array();
	uint32_t n_intra = 0, n_inter = 0;

	if (r.rates.empty())
		return a;
	for (size_t i = 0; i < r.flows.size(); i++) {
		bool intra = r.flows[i].cls == FlowClass::Intra;
		json series = json::array();

		for (const auto &[t, mbps] : r.rates)
			series.push_back({ t, mbps[i] });
		a.push_back({ { "ns", (intra ? "h" : "w") + std::to_string(intra ? ++n_intra : ++n_inter) },
			      { "class", class_name(r.flows[i].cls) },
			      { "series", std::move(series) } });
	}
	return a;
}

// The CC's name as the VM's results give it (ns-3's own for the baselines).
std::string cc_name(const std::string &variant, FlowClass c)
{
	if (variant == "dctcp+bbr")
		return c == FlowClass::Intra ? "dctcp" : "bbr";
	return variant.substr(0, variant.find('-'));
}

} // namespace

uint64_t phantom_size(const Profile &p)
{
	return p.rate_mbps * 125 * p.inter_rtt_us / 1000;
}

namespace {

json run_once(const Scenario &s, const Profile &p, const std::string &variant, uint32_t seed,
	      RunCost *cost)
{
	Run r(s, p, variant);
	NodeContainer senders;
	Ptr<Node> receiver;
	Time sample = inter_rtts(p, s.sample_inter_rtts);
	auto wall0 = std::chrono::steady_clock::now();
	uint64_t events0 = Simulator::GetEventCount();

	RngSeedManager::SetSeed(1);
	RngSeedManager::SetRun(seed);
	tcp_defaults(p, variant);
	r.t0 = inter_rtts(p, s.warmup_inter_rtts);
	build(r, senders, receiver);
	r.port->AssignStreams(seed);
	r.last_rx.assign(r.flows.size(), 0);
	Simulator::Schedule(r.t0, &window_start, &r);
	// A mix's flows are too many and too short for rates.
	if (!s.mix)
		Simulator::Schedule(sample, &sample_rates, &r, sample);
	Simulator::Schedule(MicroSeconds(p.intra_rtt_us), &sample_backlog, &r,
			    MicroSeconds(p.intra_rtt_us));
	if (s.window_inter_rtts > 0) {
		Time end = r.t0 + inter_rtts(p, s.window_inter_rtts);
		Simulator::Schedule(end, &window_end, &r);
		// After the samples due at the window's end.
		Simulator::Stop(end + TimeStep(1));
	} else if (s.mix) {
		// Until the last flow ends; those still running unoperf's
		// timeout after the last start failed.
		Simulator::Stop(r.t0 + MicroSeconds(static_cast<int64_t>(1e3 * s.mix->duration_ms)) +
				kMixTimeout);
	} else if (s.rpcs) {
		// RPCs: until the last ends, at most twice their schedule plus
		// 50 inter-DC RTTs.
		Simulator::Stop(r.t0 + rpc_gap(p, *s.rpcs) * (2 * s.rpcs->count) + inter_rtts(p, 50));
	} else {
		// Flows of a size: run until all end, at most 4 x the ideal.
		Simulator::Stop(Seconds(4.0 * r.flows.size() * p.flow_bytes * 8 / (p.rate_mbps * 1e6)) +
				r.t0);
	}
	Simulator::Run();
	window_end(&r);

	json v = { { "variant", variant },
		   { "cc", { { "intra", cc_name(variant, FlowClass::Intra) },
			     { "inter", cc_name(variant, FlowClass::Inter) } } },
		   { "t0", r.t0.GetSeconds() },
		   { "t1", r.t1.GetSeconds() },
		   { "metrics", metrics(r) },
		   { "flows", flows_json(r) },
		   { "rates", rates_json(r) } };
	if (cost) {
		cost->sim_s += Simulator::Now().GetSeconds();
		cost->events += Simulator::GetEventCount() - events0;
		cost->wall_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
	}
	Simulator::Destroy();
	return v;
}

} // namespace

json run_variant(const Scenario &s, const Profile &p, const std::string &variant, uint32_t seed,
		 RunCost *cost)
{
	json v = run_once(s, p, variant, seed, cost);

	for (const AlsoRun &a : s.also) {
		Profile q = p;
		q.flow_bytes = bdps_bytes(p, a.flow_bdps);
		json m = run_once(s, q, variant, seed, cost)["metrics"];
		for (auto &[k, x] : m.items())
			v["metrics"][a.prefix + k] = x;
	}
	return v;
}

json run_sweep(const Scenario &s, const Profile &p, const std::string &variant, uint32_t seed)
{
	json out = json::object();
	std::vector<Point> points = s.points.empty() ? std::vector<Point>{ Point() } : s.points;

	for (const Point &pt : points) {
		auto [sp, pp] = s.at_point(p, pt);
		std::string label = pt.label.empty() ? variant : variant + "@" + pt.label;
		RunCost c;
		json r = run_variant(sp, pp, variant, seed, &c);

		// The point's, as the VM's N8 records it.
		if (pt.rtt_ratio) {
			r["metrics"]["rtt_ratio"] = *pt.rtt_ratio;
			r["metrics"]["inter_rtt_us"] = pp.inter_rtt_us;
		}
		r["seed"] = seed;
		r["cost"] = { { "wall_s", c.wall_s },
			      { "sim_s", c.sim_s },
			      { "events", c.events },
			      { "events_per_wall_s", c.wall_s > 0 ? c.events / c.wall_s : 0 },
			      { "sim_s_per_wall_s", c.wall_s > 0 ? c.sim_s / c.wall_s : 0 } };
		std::fprintf(stderr, "uno-sim: %s %s %s: %.3f simulated s in %.1f s\n", s.name.c_str(),
			     p.name.c_str(), label.c_str(), c.sim_s, c.wall_s);
		out[label] = std::move(r);
	}
	return out;
}

json scenario_json(const Scenario &s, const Profile &p, json variants)
{
	return { { "scenario", s.name },
		 { "description", s.description },
		 { "profile", "ns3-" + p.name },
		 { "engine", "ns-3" },
		 { "rate_mbps", p.rate_mbps },
		 { "intra_rtt_us", p.intra_rtt_us },
		 { "inter_rtt_us", p.inter_rtt_us },
		 { "buffer_bytes", p.buffer_bytes },
		 { "phantom_size_bytes", phantom_size(p) },
		 { "variants", std::move(variants) } };
}

} // namespace uno_sim
