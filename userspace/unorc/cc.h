// SPDX-License-Identifier: GPL-2.0
//
// A flow's congestion control: one thin adapter per core of kernel/core/,
// as kernel/tcp_uno.c and kernel/tcp_smartt.c adapt the same cores to TCP,
// behind the one interface SenderFlow uses. A flow runs one law for its
// life, chosen when it starts:
//
//  - uno: UnoCC (uno_core.h), the default;
//  - smartt: SMaRTT (smartt_core.h);
//  - nscc: Ultra Ethernet's NSCC (nscc_core.h), on SMaRTT's state.
//
// The events are the transport's: an ACK (its bytes, the packet's own RTT
// from the echoed timestamp, its CE mark), a block's NACK, a TRIMMED NACK
// (a switch trimmed one packet, SMaRTT Sec. III-D), and an RTO scan that
// timed packets out. Bytes are payload bytes, as the window counts them,
// and the MSS is the code's payload length (transport.h).
#pragma once

#include <cstdint>
#include <memory>

#include "uno_core.h"
#include "nscc_core.h"

namespace unorc {

enum class CcLaw : uint8_t { Uno, Smartt, Nscc };

// "uno", "smartt", "nscc": --cc's values (settings.h, cc_laws()).
const char *cc_law_name(CcLaw law);

// One ACK, as the transport saw it.
struct CcAck {
	uint64_t now_ns;
	uint32_t acked;      // payload bytes newly ACKed
	int32_t rtt_us;      // the packet's RTT, -1 for none
	bool ce;             // the packet arrived CE-marked
	bool app_limited;    // nothing was queued: the window held nothing back
	uint32_t min_rtt_us; // the flow's least sample, UNO_RTT_NONE before one
	uint32_t srtt_us;    // TCP's smoothed RTT (RFC 6298), 0 before a sample
	uint64_t sent;       // payload bytes sent so far, resent included
	uint64_t in_flight;  // payload bytes still in flight after it
};

class FlowCc {
public:
	virtual ~FlowCc() = default;
	virtual CcLaw law() const = 0;
	// Sending restarts with nothing outstanding (TCP's CA_EVENT_TX_START).
	virtual void on_tx_start(uint64_t now_ns) = 0;
	virtual void on_ack(const CcAck &a) = 0;
	// A block's NACK queued lost bytes again; in_flight after it.
	virtual void on_nack(uint64_t now_ns, uint32_t lost, uint64_t in_flight) = 0;
	// A TRIMMED NACK queued one trimmed packet of lost bytes again.
	virtual void on_trim(uint64_t now_ns, uint32_t lost, uint64_t in_flight) = 0;
	// An RTO scan timed lost bytes out.
	virtual void on_rto(uint32_t lost) = 0;
	virtual uint64_t cwnd_bytes() const = 0;
	// Bytes per second; 0: unpaced.
	virtual uint64_t pacing_rate() const = 0;
	// The base RTT the law runs on, 0 before the first RTT sample.
	virtual uint32_t base_rtt_us() const = 0;
};

// UnoCC, as tcp_uno.c runs it: the window at its floor until the first
// RTT sample starts it at one BDP. A NACK or a trim is no event of
// UnoCC's: its signal is ECN (spec 3.4, on_trim_nack "not used").
class UnoCc : public FlowCc {
public:
	// p is shared by flows, as the module's, and outlives this.
	UnoCc(const uno_params *p, uint32_t mss, uint64_t now_ns);

	CcLaw law() const override { return CcLaw::Uno; }
	void on_tx_start(uint64_t now_ns) override;
	void on_ack(const CcAck &a) override;
	void on_nack(uint64_t, uint32_t, uint64_t) override {}
	void on_trim(uint64_t, uint32_t, uint64_t) override {}
	void on_rto(uint32_t lost) override;
	uint64_t cwnd_bytes() const override { return uno_cwnd_bytes(&s_); }
	uint64_t pacing_rate() const override { return uno_pacing_rate(&s_); }
	uint32_t base_rtt_us() const override { return s_.base_rtt_us; }

private:
	const uno_params *p_;
	uint32_t mss_;
	uno_state s_ = {};
};

// SMaRTT or NSCC, as tcp_smartt.c runs them: a TRIMMED NACK is
// smartt_on_nack() (nscc_on_nack()); a block's NACK, losses the receiver
// found, is one too if p->trimming, as TCP's SACK-detected losses are,
// and nothing otherwise (the RTO alone counts); an RTO takes the bytes it
// timed out (SMaRTT's timer is per packet, Sec. III-D); no restart after
// idle. UDP has no handshake RTT: the first ACK's sample starts the flow,
// and until then the window is the law's floor (min_cwnd_bytes), one
// packet at a time, as UnoCC's is.
class SmarttCc : public FlowCc {
public:
	// p outlives this; law is Smartt or Nscc.
	SmarttCc(CcLaw law, const smartt_params *p, uint32_t mss);

	CcLaw law() const override;
	void on_tx_start(uint64_t) override {}
	void on_ack(const CcAck &a) override;
	void on_nack(uint64_t now_ns, uint32_t lost, uint64_t in_flight) override;
	void on_trim(uint64_t now_ns, uint32_t lost, uint64_t in_flight) override;
	void on_rto(uint32_t lost) override;
	uint64_t cwnd_bytes() const override;
	uint64_t pacing_rate() const override { return smartt_pacing_rate(&s_, p_); }
	uint32_t base_rtt_us() const override { return s_.brtt; }
	const smartt_state &state() const { return s_; }

private:
	bool nscc() const { return s_.flags & SMARTT_F_NSCC; }

	const smartt_params *p_;
	smartt_state s_ = {};
};

// The law's adapter; its parameters (uno or smartt, for SMaRTT and NSCC)
// must outlive it. Throws std::invalid_argument without them.
std::unique_ptr<FlowCc> make_cc(CcLaw law, const uno_params *uno, const smartt_params *smartt,
				uint32_t mss, uint64_t now_ns);

} // namespace unorc
