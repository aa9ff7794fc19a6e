// SPDX-License-Identifier: GPL-2.0
#include "tcp_uno.h"

#include <ns3/tcp-socket-state.h>

#include "uapi/uno_nl.h"

namespace ns3 {

NS_OBJECT_ENSURE_REGISTERED(TcpUno);

namespace {

// The module's globals, under the names tcp_uno_params.h stores into.
struct uno_params uno_params = UNO_PARAMS_INIT;
u32 pacing_pct = 100;

} // namespace

TypeId TcpUno::GetTypeId()
{
	static TypeId tid = TypeId("ns3::TcpUno")
				    .SetParent<TcpCoreOps>()
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

void TcpUno::ResetParams()
{
	uno_params = UNO_PARAMS_INIT;
	pacing_pct = 100;
}

std::string TcpUno::GetName() const
{
	return "uno";
}

Ptr<TcpCongestionOps> TcpUno::Fork()
{
	return CopyObject<TcpUno>(this);
}

bool TcpUno::paced() const
{
	return pacing_pct != 0;
}

void TcpUno::Init(Ptr<TcpSocketState> tcb)
{
	TcpCoreOps::Init(tcb);
	core_ = {};
	started_ = false;
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

	set_cwnd_segs(tcb, uno_cwnd_segs(&core_, &uno_params, tcb->m_segmentSize));
	if (rate)
		set_pacing_rate(tcb, rate);
}

// tcp_uno_cong_control(). Linux's bytes_sent counts retransmissions,
// m_highTxMark does not: epochs re-arm on new data only.
void TcpUno::CongControl(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateConnection &,
			 const TcpRateOps::TcpRateSample &rs)
{
	s32 rtt_us = take_rtt_us(tcb);

	if (!started_)
		start(tcb);
	struct uno_ack a = {
		.now_us = now_us(),
		.acked = tcb->m_lastAckedSackedBytes,
		.rtt_us = rtt_us,
		.min_rtt_us = min_rtt_us(tcb),
		.srtt_us = srtt_us(),
		.sent = tcb->m_highTxMark.Get().GetValue(),
		.mss = tcb->m_segmentSize,
		.ece = tcb->m_ecnState == TcpSocketState::ECN_ECE_RCVD,
		// ns-3 3.37 keeps no is_cwnd_limited: the rate sample's flag only.
		.app_limited = rs.m_isAppLimited,
	};
	u32 ev = uno_on_ack(&core_, &uno_params, &a);

	md_cuts_ += !!(ev & UNO_EV_MD);
	apply(tcb);
}

// tcp_uno_set_state(): each timeout is one MSS timing out.
void TcpUno::CongestionStateSet(Ptr<TcpSocketState> tcb,
				const TcpSocketState::TcpCongState_t state)
{
	if (state == TcpSocketState::CA_LOSS)
		uno_on_timeout(&core_, &uno_params, tcb->m_segmentSize, tcb->m_segmentSize);
}

void TcpUno::on_tx_start(Ptr<TcpSocketState> tcb)
{
	if (!started_)
		start(tcb);
	uno_on_tx_start(&core_, &uno_params, now_us());
}

} // namespace ns3
