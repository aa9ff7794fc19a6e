// SPDX-License-Identifier: GPL-2.0
//
// unoperf server over UnoRC: one ReceiverTransport (one UDP socket, a
// Receiver per flow) in unorc's Loop, with SIGINT and SIGTERM as one more
// task of that loop.
//
// Each unoperf flow is one UnoRC flow carrying one message: the flow's
// 32-byte header (wire.h), then its payload, unorc's pattern of the flow
// id (pattern.h). A message is handed over once every block of it is in,
// decoded where parity had to stand in, and checked here byte by byte: a
// flow whose bytes differ from the pattern, or whose header is wrong, is
// logged, written with "ok": false, counted in the summary, and makes the
// exit status 1. The sender learns of the delivery from the transport's
// ACKs, as a TCP sender from the completion byte.
#include <cinttypes>
#include <cstdio>
#include <span>
#include <string>

#include "client.h"
#include "pattern.h"
#include "server.h"
#include "transport.h"
#include "wire.h"

namespace unoperf {

namespace {

constexpr uint64_t kMs = 1'000'000;

// The signals as a task of unorc's loop: its ppoll wakes on them.
class SignalTask : public unorc::Task {
public:
	std::span<const int> sockets() const override { return {&fd_, 1}; }
	void on_readable(int, uint64_t) override { caught_ = signals_.take(); }
	uint64_t run(uint64_t) override { return UINT64_MAX; }
	// "SIGINT" or "SIGTERM" once one came.
	const std::string &caught() const { return caught_; }

private:
	SignalFd signals_;
	int fd_ = signals_.get();
	std::string caught_;
};

// The flows checked so far.
struct Tally {
	uint64_t flows = 0;
	uint64_t bad_flows = 0; // bytes that differ, or a bad header
	uint64_t mismatched_bytes = 0;
};

// Checks a delivered message against its header and pattern.
ServerFlowRecord check(const unorc::Delivery &d, uint64_t now)
{
	const std::vector<uint8_t> &b = d.msg.bytes;
	ServerFlowRecord r;
	r.id = d.msg.msg_id;
	r.peer = unorc::to_string(d.peer);
	r.cc = kUnorcCc;
	r.transport = transport_name(Transport::Unorc);
	r.last_byte_ns = now;
	r.mismatched_bytes = 0;
	if (b.size() < kHeaderSize) {
		r.error = "a message of " + std::to_string(b.size()) + " bytes, shorter than the header";
		return r;
	}
	FlowHeader h;
	if (!decode_header(std::span<const uint8_t, kHeaderSize>(b.data(), kHeaderSize), &h, &r.error))
		return r;
	r.id = h.flow_id;
	r.size = h.size;
	r.client_start_ns = h.start_ns;
	const std::span<const uint8_t> payload(b.data() + kHeaderSize, b.size() - kHeaderSize);
	if (h.size != payload.size())
		r.error = "the header says " + std::to_string(h.size) + " bytes, the message carries " +
			  std::to_string(payload.size());
	else
		r.mismatched_bytes = unorc::pattern_mismatches(payload, h.flow_id);
	return r;
}

class UnorcServer {
public:
	UnorcServer(const ServerOptions &opt, OutputFile &sink);
	int run();

private:
	bool step(uint64_t now);
	void record(const unorc::Delivery &d, uint64_t now);
	bool done(uint64_t now) const;
	void summary();

	const ServerOptions &opt_;
	OutputFile &sink_;
	unorc::ReceiverTransport rx_;
	SignalTask signals_;
	Tally tally_;
};

unorc::Endpoint listen_endpoint(const ServerOptions &opt)
{
	return unorc::parse_endpoint(Endpoint{opt.bind_addr, opt.port}.str());
}

UnorcServer::UnorcServer(const ServerOptions &opt, OutputFile &sink)
	: opt_(opt), sink_(sink),
	  rx_(listen_endpoint(opt),
	      unorc::receiver_options(opt.unorc.rx, unorc::code_policy(opt.unorc.code)))
{
}

int UnorcServer::run()
{
	announce_listening(opt_, unorc::to_string(rx_.local()));
	unorc::Loop loop;
	loop.add(rx_);
	loop.add(signals_);
	loop.run([this](uint64_t now) { return step(now); }, UINT64_MAX);
	if (!signals_.caught().empty())
		server_log(signals_.caught() + ": exiting after " + std::to_string(tally_.flows) +
			   " flows");
	summary();
	return tally_.bad_flows ? kExitFailed : kExitOk;
}

bool UnorcServer::step(uint64_t now)
{
	for (const unorc::Delivery &d : rx_.take_delivered())
		record(d, now);
	return !done(now);
}

void UnorcServer::record(const unorc::Delivery &d, uint64_t now)
{
	const ServerFlowRecord r = check(d, now);
	tally_.flows++;
	tally_.mismatched_bytes += *r.mismatched_bytes;
	if (*r.mismatched_bytes || !r.error.empty()) {
		tally_.bad_flows++;
		server_log(r.peer + ": flow " + std::to_string(r.id) + ": " +
			   (r.error.empty() ? std::to_string(*r.mismatched_bytes) + " of " +
						      std::to_string(r.size) + " bytes differ"
					    : r.error));
	}
	sink_.write(server_flow_json(r).dump() + "\n");
}

// After --count flows, quiet for --linger-ms: a sender whose last ACKs
// were lost resends, and must still get them. Or a signal.
bool UnorcServer::done(uint64_t now) const
{
	if (!signals_.caught().empty())
		return true;
	const uint64_t last = rx_.last_datagram_ns();
	const uint64_t quiet = last && now > last ? now - last : 0;
	return opt_.count && tally_.flows >= opt_.count && quiet >= opt_.unorc.linger_ms * kMs;
}

// One last JSON line: what was checked, and what the transport did.
void UnorcServer::summary()
{
	const unorc::ReceiverStats &s = rx_.stats();
	const unorc::ReceiverCounters t = rx_.totals();
	Json j;
	j["unoperf"] = kJsonVersion;
	j["role"] = "server_summary";
	j["transport"] = transport_name(Transport::Unorc);
	j["flows"] = tally_.flows;
	j["bad_flows"] = tally_.bad_flows;
	j["mismatched_bytes"] = tally_.mismatched_bytes;
	j["datagrams"] = s.datagrams;
	j["ce"] = s.ce;
	j["acks"] = s.acks;
	j["nacks"] = s.nacks;
	j["decoded_blocks"] = t.decoded;
	j["duplicates"] = t.duplicates;
	j["trims"] = t.trims;
	j["send_failures"] = s.send_failures;
	// Datagrams the kernel dropped before the transport saw them: a
	// receive buffer (rcvbuf) too small for the bursts.
	j["socket_drops"] = rx_.socket_drops();
	j["rcvbuf"] = rx_.rcvbuf();
	j["drops"] = Json::object();
	for (const auto &[reason, n] : unorc::drops_by_reason(s.drops))
		j["drops"][reason] = n;
	sink_.write(j.dump() + "\n");
	server_log("done after " + std::to_string(tally_.flows) + " flows" +
		   (tally_.bad_flows ? ", " + std::to_string(tally_.bad_flows) +
					       " of them with bytes that differ or a bad header"
				     : std::string()));
}

} // namespace

int run_unorc_server(const ServerOptions &opt, OutputFile &sink)
{
	UnorcServer server(opt, sink);
	return server.run();
}

} // namespace unoperf
