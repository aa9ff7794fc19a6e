// SPDX-License-Identifier: GPL-2.0
//
// ns-3's TCP calls, per ACK (TcpSocketBase::ReceivedAck, 3.37): the ECE
// bookkeeping (m_ecnState is ECN_ECE_RCVD iff this ACK advanced and
// echoed CE), PktsAcked with the RTT estimate, then CongControl with the
// rate sample, where this adapter runs uno_on_ack() and sets the window
// and the pacing rate, as tcp_uno_cong_control() does. With CongControl
// present ns-3 leaves cwnd alone on ECE, fast retransmit and recovery; a
// timeout sets it to one segment and the next ACK restores the core's, as
// in Linux.
#include "tcp_uno.h"

#include <algorithm>

#include <ns3/simulator.h>
#include <ns3/tcp-socket-state.h>

#include "uapi/uno_nl.h"

namespace ns3 {

NS_OBJECT_ENSURE_REGISTERED(TcpUno);

namespace {

// The module's globals, under the names tcp_uno_params.h stores into.
struct uno_params uno_params = UNO_PARAMS_INIT;
u32 pacing_pct = 100;

u32 min_rtt_us(Ptr<const TcpSocketState> tcb)
{
	if (tcb->m_minRtt == Time::Max())
		return UNO_RTT_NONE;
	return static_cast<u32>(std::min<int64_t>(tcb->m_minRtt.GetMicroSeconds(), UNO_RTT_NONE - 1));
}

} // namespace

TypeId TcpUno::GetTypeId()
{
	static TypeId tid = TypeId("ns3::TcpUno")
				    .SetParent<TcpCongestionOps>()
				    .AddConstructor<TcpUno>()
				    .SetGroupName("Uno");
	return tid;
}

bool TcpUno::SetParam(std::string_view name, uint32_t value)
{
#define TCP_UNO_PARAM(_name, _desc, _val, _min, _max, _apply) \
	if (name == #_name) {                                 \
		_val = value;                                 \
		uno_params.gen++;                             \
		return true;                                  \
	}
#include "tcp_uno_params.h"
#undef TCP_UNO_PARAM
	return false;
}

const struct uno_params &TcpUno::Params()
{
	return uno_params;
}

TcpUno::TcpUno() = default;

std::string TcpUno::GetName() const
{
	return "uno";
}

Ptr<TcpCongestionOps> TcpUno::Fork()
{
	return CopyObject<TcpUno>(this);
}

// Both ends: ECN in DCTCP's mode, whose receiver echoes each segment's CE
// (with one ACK per segment, the scenario's setting) as uno_ecn.h does
// for the module with delayed ACKs.
void TcpUno::Init(Ptr<TcpSocketState> tcb)
{
	tcb->m_useEcn = TcpSocketState::On;
	tcb->m_ecnMode = TcpSocketState::DctcpEcn;
	tcb->m_ectCodePoint = TcpSocketState::Ect0;
	tcb->m_pacing = pacing_pct != 0;
	core_ = {};
	started_ = false;
	rtt_us_ = -1;
	srtt_us_ = 0;
}

uint32_t TcpUno::now_us() const
{
	return static_cast<uint32_t>(Simulator::Now().GetMicroSeconds());
}

// Linux runs .init once the handshake is done, its RTT in the min-RTT
// filter; ns-3 runs Init when the socket is made, so the flow starts at
// its first transmission, when the SYN's RTT is known.
void TcpUno::start(Ptr<TcpSocketState> tcb)
{
	uno_init(&core_, &uno_params, tcb->m_segmentSize, min_rtt_us(tcb), now_us(),
		 tcb->m_highTxMark.Get().GetValue());
	started_ = true;
	apply(tcb);
}

// tcp_uno_apply(): the core's window and rate to TCP.
void TcpUno::apply(Ptr<TcpSocketState> tcb)
{
	u64 rate = uno_pacing_rate(&core_) * pacing_pct / 100;
	u64 segs = uno_cwnd_segs(&core_, &uno_params, tcb->m_segmentSize);

	tcb->m_cWnd = static_cast<uint32_t>(std::min<u64>(segs * tcb->m_segmentSize, UINT32_MAX));
	if (rate)
		tcb->m_pacingRate = std::min(DataRate(rate * 8), tcb->m_maxPacingRate);
}

uint32_t TcpUno::GetSsThresh(Ptr<const TcpSocketState>, uint32_t)
{
	return UINT32_MAX; // no state exit rewrites cwnd (tcp_uno_ssthresh)
}

void TcpUno::IncreaseWindow(Ptr<TcpSocketState>, uint32_t)
{
	// Never called: CongControl owns the window.
}

// ns-3 hands the RTT estimator's output as the ACK's sample: the scenario
// sets RttMeanDeviation's Alpha to 1, so that it is the sample itself, and
// srtt is kept here as Linux keeps it (tcp_rtt_estimator(): g = 1/8).
void TcpUno::PktsAcked(Ptr<TcpSocketState>, uint32_t, const Time &rtt)
{
	if (rtt.IsZero())
		return;
	rtt_us_ = rtt.GetMicroSeconds();
	if (!srtt_us_)
		srtt_us_ = static_cast<uint32_t>(rtt_us_);
	else
		srtt_us_ = static_cast<uint32_t>(srtt_us_ + (rtt_us_ - srtt_us_) / 8);
}

void TcpUno::CongControl(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateConnection &,
			 const TcpRateOps::TcpRateSample &rs)
{
	if (!started_)
		start(tcb);
	struct uno_ack a = {
		.now_us = now_us(),
		.acked = tcb->m_lastAckedSackedBytes,
		.rtt_us = static_cast<s32>(std::min<int64_t>(rtt_us_, INT32_MAX)),
		.min_rtt_us = min_rtt_us(tcb),
		.srtt_us = srtt_us_,
		.sent = tcb->m_highTxMark.Get().GetValue(),
		.mss = tcb->m_segmentSize,
		.ece = tcb->m_ecnState == TcpSocketState::ECN_ECE_RCVD,
		// ns-3 3.37 keeps no is_cwnd_limited: the rate sample's flag only.
		.app_limited = rs.m_isAppLimited,
	};
	u32 ev = uno_on_ack(&core_, &uno_params, &a);

	rtt_us_ = -1;
	md_cuts_ += !!(ev & UNO_EV_MD);
	qa_cuts_ += !!(ev & UNO_EV_QA);
	apply(tcb);
}

void TcpUno::CongestionStateSet(Ptr<TcpSocketState> tcb,
				const TcpSocketState::TcpCongState_t state)
{
	if (state == TcpSocketState::CA_LOSS)
		uno_on_timeout(&core_, &uno_params, tcb->m_segmentSize, tcb->m_segmentSize);
}

void TcpUno::CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event)
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
		if (!started_)
			start(tcb);
		uno_on_tx_start(&core_, &uno_params, now_us());
		break;
	default:
		break;
	}
}

bool TcpUno::HasCongControl() const
{
	return true;
}

} // namespace ns3
