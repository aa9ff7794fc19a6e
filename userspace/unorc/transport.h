// SPDX-License-Identifier: GPL-2.0
//
// UnoRC's UDP transport (spec 6): Sender and Receiver on real sockets, one
// thread, CLOCK_MONOTONIC.
//
// A Loop polls the sockets of its tasks (ppoll, with a nanosecond timeout
// computed from what each task next needs) and runs them. A SenderFlow is
// one flow's sending end: a Sender, a congestion control that sets the
// window and the pacing rate (cc.h: UnoCC from kernel/core/uno_core.h, or
// SMaRTT or NSCC from smartt_core.h, the modules' laws unchanged), and the
// Paths its sub-flows leave by, which NACKs and RTOs re-path by UnoLB's
// rule (kernel/core/unolb_core.h). A ReceiverTransport is one UDP socket
// with a Receiver per peer flow.
//
// The window counts payload bytes of DATA and PARITY packets, new and
// resent alike (spec 6.3: they consume window like data), and the MSS
// the law is given is the code's payload length: TCP's window and
// mss_cache count payload bytes too, so the modules' laws see the same
// units.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "net.h"
#include "receiver.h"
#include "sender.h"

#include "cc.h"
#include "rtt_hist.h"

namespace unorc {

// A task the loop runs: it reads its sockets and does what is due.
class Task {
public:
	virtual ~Task() = default;
	// Its sockets now: read again after on_readable() and run().
	virtual std::span<const int> sockets() const = 0;
	// Reads the datagrams waiting on fd, one of sockets().
	virtual void on_readable(int fd, uint64_t now_ns) = 0;
	// Does what is due at now_ns; returns when it next needs to run if
	// no datagram comes first (now_ns or earlier: at once).
	virtual uint64_t run(uint64_t now_ns) = 0;
};

class Loop {
public:
	void add(Task &t) { tasks_.push_back(&t); }
	// Runs the tasks until step(now_ns), called after each round, returns
	// false (then true) or until deadline_ns (then false).
	bool run(const std::function<bool(uint64_t)> &step, uint64_t deadline_ns);

private:
	std::vector<Task *> tasks_;
};

// Which code a peer's flows use: UnoRC codes inter-DC messages only (spec
// 6.1), so a peer in one of inter_prefixes gets the inter code and any
// other the intra one, normally without parity. The wire carries no code:
// both ends must be configured alike.
struct CodePolicy {
	std::vector<Prefix> inter_prefixes;
	WireLimits inter;
	WireLimits intra;

	bool is_inter(const Endpoint &peer) const;
	const WireLimits &code_for(const Endpoint &peer) const;
};

// Why the transport dropped a datagram before its Receiver or Sender saw
// it, beyond parse()'s WireError.
enum class Drop : uint8_t {
	Oversize,  // longer than the largest UDP datagram we read
	WrongType, // ACK or NACK at a receiver, DATA or PARITY at a sender
	OtherFlow, // an ACK or NACK of another flow id
	FlowLimit, // a new peer flow beyond max_flows
};
inline constexpr size_t kDropCount = static_cast<size_t>(Drop::FlowLimit) + 1;
const char *drop_name(Drop d);

// Datagrams dropped, by reason.
struct DropCounters {
	std::array<uint64_t, kWireErrorCount> wire = {}; // [Ok] unused
	std::array<uint64_t, kDropCount> transport = {};

	uint64_t total() const;
};
// The counters that are not 0, by wire_error_name() and drop_name().
std::map<std::string, uint64_t> drops_by_reason(const DropCounters &d);

struct FlowConfig {
	uint32_t flow_id = 0;
	WireLimits code = { BlockCoder::kDefaultData, BlockCoder::kDefaultParity, 0 };
	uint64_t rto_ns = 0;
	// UnoCC's parameters, shared by flows as the module's: its law's, and
	// UnoLB's RTT_intra whatever the law.
	const uno_params *cc = nullptr;
	CcLaw law = CcLaw::Uno;
	const smartt_params *smartt = nullptr; // SMaRTT's and NSCC's, shared alike
	unolb_mode repath = UNOLB_REPATH_REDRAW; // spec 5.1 and 9.25
	uint32_t lb_seed = 0; // UnoLB's draws: 0 seeds them from std::random_device
	// Open each DATA and PARITY with an ARC1 shim (wire.h), its
	// reply_port the sub-flow's entropy, the source port of PortPaths:
	// for the entropy datapath, which rewrites that port.
	bool shim = false;
};

// The flow's congestion control as it stands.
struct CcStatus {
	CcLaw law;
	uint32_t base_rtt_us; // 0 before the first RTT sample
};

struct FlowStats {
	uint64_t packets_sent = 0;
	uint64_t bytes_sent = 0;    // payload, resent included: uno_ack.sent
	uint64_t send_failures = 0; // the kernel refused: lost
	uint64_t acks = 0;
	uint64_t nacks = 0;         // TRIMMED ones included
	uint64_t trim_nacks = 0;    // TRIMMED: a switch trimmed a packet
	uint64_t rto_events = 0;    // scans that timed packets out
	uint64_t repath_events = 0; // NACKs and RTOs that re-pathed sub-flows
	uint64_t rebinds = 0;       // sub-flows moved (PortPaths: a socket re-bound)
	uint64_t rebind_failures = 0; // moves Paths refused: the sub-flow stayed
	uint64_t window_stops = 0;  // sending stopped on a full window
	uint64_t pacing_waits = 0;  // sending waited for the pacer
	uint64_t max_cwnd = 0;      // bytes
	// The longest round trip an ACK measured: the base RTT plus the
	// most queueing the path held.
	uint64_t max_rtt_us = 0;
	// Every round trip an ACK measured, one per packet it answered.
	RttHistogram rtt_us;
	// Replies the kernel dropped at the flow's sockets for want of
	// buffer (SO_RXQ_OVFL), summed over them; a socket a re-path
	// replaced counts what it reported last.
	uint64_t socket_drops = 0;
	DropCounters drops;
};

// A completed message: its bytes and the time from send_message() to the
// ACK that completed it.
struct Completion {
	uint32_t msg_id;
	uint64_t bytes;
	uint64_t fct_ns;
};

class SenderFlow : public Task {
public:
	// Throws std::invalid_argument on a config Sender refuses, no cc, or
	// no smartt for a SMaRTT or NSCC flow.
	SenderFlow(const FlowConfig &cfg, std::unique_ptr<Paths> paths, uint64_t now_ns);

	// Queues a message, as Sender::send_message().
	void send_message(uint32_t msg_id, std::span<const uint8_t> bytes, uint64_t now_ns);
	std::vector<Completion> take_completed() { return std::exchange(completed_, {}); }
	// The trimmed packets repaired since the last call (Sender's).
	std::vector<TrimRepair> take_trim_repairs() { return std::exchange(trim_repairs_, {}); }

	std::span<const int> sockets() const override { return paths_->sockets(); }
	void on_readable(int fd, uint64_t now_ns) override;
	// One datagram that came back to the flow (an ACK or NACK, or
	// whatever the network made of one), as on_readable() takes each:
	// for a caller that reads the sockets itself, or a network in memory.
	void on_datagram(std::span<const uint8_t> dgram, uint64_t now_ns);
	uint64_t run(uint64_t now_ns) override;

	const Sender &sender() const { return sender_; }
	CcStatus cc() const { return { cc_->law(), cc_->base_rtt_us() }; }
	uint64_t cwnd_bytes() const;
	// 0 before the first RTT sample: unpaced.
	uint64_t pacing_rate() const { return cc_->pacing_rate(); }
	const FlowStats &stats() const { return stats_; }

private:
	void on_reply(const uint8_t *buf, size_t len, uint64_t now_ns);
	void on_ack(const Ack &a, uint64_t now_ns);
	void on_trim_nack(const Nack &n, uint64_t now_ns);
	CcAck cc_ack(const AckInfo &info, bool app_limited, uint64_t now_ns) const;
	void scan(uint64_t now_ns);
	void repath(uint64_t now_ns);
	Shim data_shim(const PacketHeader &h) const;
	bool transmit(uint64_t now_ns);
	void collect(uint64_t now_ns);

	FlowConfig cfg_;
	Sender sender_;
	std::unique_ptr<Paths> paths_;
	std::unique_ptr<FlowCc> cc_;
	uint32_t min_rtt_us_ = UNO_RTT_NONE;
	uint32_t srtt_us_ = 0;
	uint64_t next_send_ns_ = 0;
	uint64_t next_scan_ns_ = 0;
	struct Pending {
		uint64_t bytes;
		uint64_t start_ns;
	};

	std::map<uint32_t, Pending> pending_; // by msg_id
	std::vector<Completion> completed_;
	std::vector<TrimRepair> trim_repairs_;
	std::vector<uint8_t> buf_;
	std::map<int, uint32_t> socket_drops_; // the last SO_RXQ_OVFL count, by socket
	std::mt19937 rng_; // UnoLB's draws
	FlowStats stats_;
};

struct ReceiverOptions {
	CodePolicy codes;
	uint64_t ec_wait_ns = 0;      // spec 6.2 and 9.23
	uint64_t window_bytes = 0;    // each flow's receive window
	size_t max_flows = 0;         // peer flows held at once
	// The DSCP a trimming switch gives the headers it cuts (sch_phantom's
	// trim-dscp, with trim-udp valid): such a datagram, its payload
	// short, is a trim and NACKed at once. None: it is dropped as
	// truncated, and the NACK timer and RTO repair it.
	std::optional<uint8_t> trim_dscp;
	// The socket's receive buffer, bytes (set_rcvbuf()); 0: the
	// kernel's default.
	int rcvbuf = kDefaultRcvbuf;
};

struct ReceiverStats {
	uint64_t datagrams = 0;
	uint64_t ce = 0;            // of them CE-marked
	uint64_t acks = 0;
	uint64_t nacks = 0;         // trims' included
	uint64_t send_failures = 0; // ACKs and NACKs the kernel refused
	// Datagrams the kernel dropped at the socket for want of buffer,
	// before the transport saw them: the socket's cumulative count as
	// the last datagram read reported it (SO_RXQ_OVFL).
	uint64_t socket_drops = 0;
	DropCounters drops;
};

struct Delivery {
	Endpoint peer;
	uint32_t flow_id;
	DeliveredMessage msg;
};

class ReceiverTransport : public Task {
public:
	// Throws std::invalid_argument on options Receiver refuses, SysError
	// if the socket cannot be bound.
	ReceiverTransport(const Endpoint &listen, const ReceiverOptions &opt);

	Endpoint local() const { return local_endpoint(fd_.get()); }
	std::vector<Delivery> take_delivered() { return std::exchange(delivered_, {}); }
	const ReceiverStats &stats() const { return stats_; }
	// The socket's drops now, those after the last datagram read too
	// (socket_drops_of()), at least what the last datagram reported.
	uint64_t socket_drops() const;
	// The socket's receive buffer as the kernel holds it (rcvbuf_of()).
	int rcvbuf() const { return rcvbuf_of(fd_.get()); }
	// Every flow's counters, summed.
	ReceiverCounters totals() const;
	size_t flows() const { return flows_.size(); }
	uint64_t last_datagram_ns() const { return last_rx_ns_; }

	std::span<const int> sockets() const override { return { &raw_, 1 }; }
	void on_readable(int fd, uint64_t now_ns) override;
	uint64_t run(uint64_t now_ns) override;

private:
	struct Flow {
		Endpoint peer; // where its replies go: a shim's reply_port
		Receiver rx;
		bool shim = false; // its packets came shimmed: so go its NACKs
	};
	using Key = std::pair<Endpoint, uint32_t>;

	void on_datagram(const Datagram &d, uint64_t now_ns);
	void on_trimmed(const PacketHeader &h, const Endpoint &from, const WireLimits &code,
			const std::optional<Shim> &shim);
	Flow *flow_for(const Endpoint &peer, uint32_t flow_id, const WireLimits &code, bool shim);
	void note_holding(const Endpoint &peer, uint32_t flow_id, const Receiver &rx);
	void reply(const std::optional<Shim> &shim, std::span<const uint8_t> msg,
		   const Endpoint &to);

	ReceiverOptions opt_;
	Fd fd_;
	int raw_;
	std::map<Key, Flow> flows_;
	// The flows holding blocks, the only ones a tick can NACK: a run of
	// thousands of short flows (unoperf) keeps every finished flow, and
	// ticks at a twentieth of ec_wait.
	std::set<Key> holding_;
	std::vector<uint8_t> buf_;
	std::vector<Delivery> delivered_;
	uint64_t next_tick_ns_ = 0;
	uint64_t last_rx_ns_ = 0;
	ReceiverStats stats_;
};

} // namespace unorc
