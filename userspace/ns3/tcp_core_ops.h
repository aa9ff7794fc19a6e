// SPDX-License-Identifier: GPL-2.0
//
// What the modules take from Linux's TCP, for a TcpCongestionOps over a
// kernel/core law in ns-3: ECN with DCTCP's per-segment echo at the
// receiver (uno_ecn.h's part), the ACK's RTT sample and srtt, the
// handshake's min RTT, the clock in us, an infinite ssthresh, and the
// window and rate owned in CongControl (ns-3's cong_control). tcp_uno.cc
// and tcp_smartt.cc map the rest, as tcp_uno.c and tcp_smartt.c do.
//
// ns-3 3.37 calls, per ACK (TcpSocketBase::ReceivedAck): the ECE
// bookkeeping (m_ecnState is ECN_ECE_RCVD after an ACK that advanced and
// echoed CE, until one advances without), PktsAcked with the RTT
// estimate, then CongControl with the rate sample. With CongControl
// present it leaves cwnd alone on ECE and fast retransmit; leaving
// recovery and a timeout set it (to ssthresh, to one segment), and
// CongControl sets the law's again before anything is sent.
#ifndef UNO_NS3_TCP_CORE_OPS_H
#define UNO_NS3_TCP_CORE_OPS_H

#include <ns3/tcp-congestion-ops.h>
#include <ns3/tcp-socket-base.h>

#include "core_user.h"

namespace ns3 {

class TcpCoreOps : public TcpCongestionOps {
public:
	static TypeId GetTypeId();

	void Init(Ptr<TcpSocketState> tcb) override;
	uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytes_in_flight) override;
	void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segments_acked) override;
	void PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segments_acked, const Time &rtt) override;
	void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event) override;
	bool HasCongControl() const override;

	// Linux's rs->losses, the segments an ACK marked lost, for the laws
	// that take losses as NACKs: ns-3 hands a congestion control only
	// |the change| of the lost bytes, so the sim points the socket here
	// and each segment marked lost that it resends outside an RTO counts
	// once (see tcp_core_ops.cc).
	void WatchLosses(Ptr<TcpSocketBase> sock);

protected:
	static u32 now_us();
	// tcp_min_rtt(): ~0U until a sample.
	static u32 min_rtt_us(Ptr<const TcpSocketState> tcb);
	// snd_cwnd, in segments.
	static void set_cwnd_segs(Ptr<TcpSocketState> tcb, u64 segs);
	// sk_pacing_rate, in bytes per second, under sk_max_pacing_rate.
	static void set_pacing_rate(Ptr<TcpSocketState> tcb, u64 rate);

	// The ACK's RTT sample, once: < 0 when it brought none (see
	// tcp_core_ops.cc); srtt takes it.
	s32 take_rtt_us(Ptr<const TcpSocketState> tcb);
	u32 srtt_us() const { return srtt8_us_ >> 3; }

	// The segments lost since the last call (WatchLosses()).
	u32 take_losses();

	// Whether the law paces (its module's pacing parameter).
	virtual bool paced() const = 0;
	// A transmission starts with nothing in flight (CA_EVENT_TX_START).
	virtual void on_tx_start(Ptr<TcpSocketState> tcb) = 0;

private:
	void on_segment_sent(Ptr<const Packet> p, const TcpHeader &h, Ptr<const TcpSocketBase> sock);

	Ptr<const TcpSocketState> tcb_;
	u32 losses_ = 0;
	int64_t rtt_us_ = -1;
	u32 srtt8_us_ = 0;	// srtt << 3, as Linux keeps it
	SequenceNumber32 last_acked_;
};

} // namespace ns3

#endif
