// SPDX-License-Identifier: GPL-2.0
#include "tcp_core_ops.h"

#include <algorithm>

#include <ns3/simulator.h>
#include <ns3/tcp-socket-state.h>
#include <ns3/tcp-tx-buffer.h>

namespace ns3 {

NS_OBJECT_ENSURE_REGISTERED(TcpCoreOps);

TypeId TcpCoreOps::GetTypeId()
{
	static TypeId tid =
		TypeId("ns3::TcpCoreOps").SetParent<TcpCongestionOps>().SetGroupName("Uno");
	return tid;
}

// Both ends: ECN in DCTCP's mode, whose receiver echoes each segment's CE
// (with one ACK per segment, the scenarios' setting) as uno_ecn.h does
// for the modules with delayed ACKs.
void TcpCoreOps::Init(Ptr<TcpSocketState> tcb)
{
	tcb->m_useEcn = TcpSocketState::On;
	tcb->m_ecnMode = TcpSocketState::DctcpEcn;
	tcb->m_ectCodePoint = TcpSocketState::Ect0;
	tcb->m_pacing = paced();
	rtt_us_ = -1;
	srtt8_us_ = 0;
	last_acked_ = SequenceNumber32(0);
	tcb_ = tcb;
	losses_ = 0;
}

// No state exit rewrites cwnd (TCP_INFINITE_SSTHRESH in the modules).
uint32_t TcpCoreOps::GetSsThresh(Ptr<const TcpSocketState>, uint32_t)
{
	return UINT32_MAX;
}

void TcpCoreOps::IncreaseWindow(Ptr<TcpSocketState>, uint32_t)
{
	// Never called: CongControl owns the window.
}

bool TcpCoreOps::HasCongControl() const
{
	return true;
}

// ns-3 hands the RTT estimator's output, m_lastRtt, to PktsAcked on
// every ACK: the scenarios set RttMeanDeviation's Alpha to 1, so that it
// is the newest sample itself, but it is handed on again when the ACK
// brought none.
void TcpCoreOps::PktsAcked(Ptr<TcpSocketState>, uint32_t, const Time &rtt)
{
	rtt_us_ = rtt.IsZero() ? -1 : rtt.GetMicroSeconds();
}

// The estimator takes a sample from an ACK that advances past a segment
// it did not retransmit. ns-3 tells a congestion control neither, so a
// sample counts when the ACK advanced outside loss recovery (an ACK in
// recovery gives none here; Linux's rate sample would give one for a
// segment sent anew). srtt as tcp_rtt_estimator() keeps it (g = 1/8).
s32 TcpCoreOps::take_rtt_us(Ptr<const TcpSocketState> tcb)
{
	bool advanced = tcb->m_lastAckedSeq > last_acked_;
	bool recovering = tcb->m_congState == TcpSocketState::CA_RECOVERY ||
			  tcb->m_congState == TcpSocketState::CA_LOSS;
	int64_t rtt = rtt_us_;

	last_acked_ = tcb->m_lastAckedSeq;
	rtt_us_ = -1;
	if (!advanced || recovering || rtt < 0)
		return -1;
	rtt = std::min<int64_t>(rtt, INT32_MAX >> 3);
	if (!srtt8_us_)
		srtt8_us_ = static_cast<u32>(rtt << 3);
	else
		srtt8_us_ = static_cast<u32>(srtt8_us_ + rtt - (srtt8_us_ >> 3));
	return static_cast<s32>(rtt);
}

void TcpCoreOps::WatchLosses(Ptr<TcpSocketBase> sock)
{
	sock->TraceConnectWithoutContext("Tx", MakeCallback(&TcpCoreOps::on_segment_sent, this));
}

// ns-3 marks a segment lost as RFC 6675 does (three SACKed above it, or
// the head on the third duplicate ACK; Linux marks by RACK) and resends
// it in the same ACK's processing (the head, on entering recovery) or
// right after it: each lost segment's retransmission stands for its
// mark, at most one ACK later than Linux's rs->losses tells it. Segments
// resent without a mark (RFC 6675's NextSeg rule 3, a partial ACK's
// retransmission) are not losses; nor, as in Linux, are the marks of an
// RTO, which marks every segment.
void TcpCoreOps::on_segment_sent(Ptr<const Packet> p, const TcpHeader &h,
				 Ptr<const TcpSocketBase> sock)
{
	SequenceNumber32 seq = h.GetSequenceNumber();

	if (tcb_ && p->GetSize() && seq < tcb_->m_highTxMark &&
	    tcb_->m_congState != TcpSocketState::CA_LOSS && sock->GetTxBuffer()->IsLost(seq))
		losses_++;
}

u32 TcpCoreOps::take_losses()
{
	u32 n = losses_;

	losses_ = 0;
	return n;
}

void TcpCoreOps::CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event)
{
	switch (event) {
	case TcpSocketState::CA_EVENT_ECN_IS_CE:
		tcb->m_ecnState = TcpSocketState::ECN_CE_RCVD;
		break;
	case TcpSocketState::CA_EVENT_ECN_NO_CE:
		if (tcb->m_ecnState == TcpSocketState::ECN_CE_RCVD ||
		    tcb->m_ecnState == TcpSocketState::ECN_SENDING_ECE)
			tcb->m_ecnState = TcpSocketState::ECN_IDLE;
		break;
	case TcpSocketState::CA_EVENT_TX_START:
		on_tx_start(tcb);
		break;
	default:
		break;
	}
}

u32 TcpCoreOps::now_us()
{
	return static_cast<u32>(Simulator::Now().GetMicroSeconds());
}

u32 TcpCoreOps::min_rtt_us(Ptr<const TcpSocketState> tcb)
{
	if (tcb->m_minRtt == Time::Max())
		return ~0U;
	return static_cast<u32>(std::min<int64_t>(tcb->m_minRtt.GetMicroSeconds(), ~0U - 1));
}

void TcpCoreOps::set_cwnd_segs(Ptr<TcpSocketState> tcb, u64 segs)
{
	tcb->m_cWnd = static_cast<uint32_t>(std::min<u64>(segs * tcb->m_segmentSize, UINT32_MAX));
}

void TcpCoreOps::set_pacing_rate(Ptr<TcpSocketState> tcb, u64 rate)
{
	tcb->m_pacingRate = std::min(DataRate(rate * 8), tcb->m_maxPacingRate);
}

} // namespace ns3
