// SPDX-License-Identifier: GPL-2.0
#include "tcp_smartt.h"

#include <algorithm>

#include <ns3/tcp-socket-state.h>

#include "nscc_core.h"
#include "uapi/uno_nl.h"

namespace ns3 {

NS_OBJECT_ENSURE_REGISTERED(TcpSmartt);

namespace {

// The module's global, under the name tcp_smartt_params.h stores into.
struct smartt_params smartt_params = SMARTT_PARAMS_INIT;

} // namespace

TypeId TcpSmartt::GetTypeId()
{
	static TypeId tid = TypeId("ns3::TcpSmartt")
				    .SetParent<TcpCoreOps>()
				    .AddConstructor<TcpSmartt>()
				    .SetGroupName("Uno");
	return tid;
}

bool TcpSmartt::SetParam(std::string_view name, uint32_t value)
{
#define TCP_SMARTT_PARAM(_name, _desc, _val, _min, _max, _apply) \
	if (name == #_name) {                                    \
		_val = value;                                    \
		smartt_params.gen++;                             \
		return true;                                     \
	}
#include "tcp_smartt_params.h"
#undef TCP_SMARTT_PARAM
	return false;
}

void TcpSmartt::ResetParams()
{
	smartt_params = SMARTT_PARAMS_INIT;
}

std::string TcpSmartt::GetName() const
{
	return "smartt";
}

Ptr<TcpCongestionOps> TcpSmartt::Fork()
{
	return CopyObject<TcpSmartt>(this);
}

bool TcpSmartt::paced() const
{
	return smartt_params.pacing_gain != 0;
}

bool TcpSmartt::nscc() const
{
	return st_.flags & SMARTT_F_NSCC;
}

void TcpSmartt::Init(Ptr<TcpSocketState> tcb)
{
	TcpCoreOps::Init(tcb);
	st_ = {};
	started_ = false;
}

// tcp_smartt_init() at the first transmission (see TcpUno::start()): a
// flow keeps the law it started with.
void TcpSmartt::start(Ptr<TcpSocketState> tcb)
{
	u32 min_rtt = min_rtt_us(tcb);

	min_rtt = min_rtt == ~0U ? 0 : min_rtt;
	if (smartt_params.mode == SMARTT_MODE_NSCC)
		nscc_init(&st_, &smartt_params, tcb->m_segmentSize, min_rtt);
	else
		smartt_init(&st_, &smartt_params, tcb->m_segmentSize, min_rtt);
	started_ = true;
	apply(tcb);
}

// tcp_smartt_apply() and tcp_smartt_segs(): the byte window in whole
// segments, rounded up, at least min_cwnd; no window yet, the stack's
// initial window stands.
void TcpSmartt::apply(Ptr<TcpSocketState> tcb)
{
	u32 mss = std::max(tcb->m_segmentSize, 1U);
	u64 rate;

	if (!st_.cwnd)
		return;
	set_cwnd_segs(tcb, std::max<u64>((st_.cwnd + mss - 1) / mss,
					  std::max(smartt_params.min_cwnd, 1U)));
	rate = smartt_pacing_rate(&st_, &smartt_params);
	if (rate)
		set_pacing_rate(tcb, rate);
	else
		tcb->m_pacingRate = tcb->m_maxPacingRate;
}

// tcp_smartt_cong_control(): the segments lost (TcpCoreOps::WatchLosses(),
// Linux's rs->losses) stand in for trimming's NACKs when trimming=1, and
// are taken first; then the ACK.
void TcpSmartt::CongControl(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateConnection &,
			    const TcpRateOps::TcpRateSample &)
{
	s32 rtt_us = take_rtt_us(tcb);
	u32 losses = take_losses();

	if (!started_)
		start(tcb);
	if (st_.mtu != tcb->m_segmentSize)
		smartt_set_mtu(&st_, &smartt_params, tcb->m_segmentSize);
	if (losses && smartt_params.trimming) {
		u32 lost = static_cast<u32>(std::min<u64>(u64(losses) * tcb->m_segmentSize, UINT32_MAX));
		u32 inflight = tcb->m_bytesInFlight.Get();

		if (nscc())
			nscc_on_nack(&st_, &smartt_params, now_us(), lost, inflight);
		else
			smartt_on_nack(&st_, &smartt_params, now_us(), lost, inflight);
	}
	if (tcb->m_lastAckedSackedBytes) {
		const struct smartt_ack a = {
			.now = now_us(),
			.size = tcb->m_lastAckedSackedBytes,
			.rtt_us = rtt_us,
			.inflight = tcb->m_bytesInFlight.Get(),
			.ecn = tcb->m_ecnState == TcpSocketState::ECN_ECE_RCVD,
		};

		if (nscc())
			nscc_on_ack(&st_, &smartt_params, &a);
		else
			smartt_on_ack(&st_, &smartt_params, &a);
	}
	apply(tcb);
}

// tcp_smartt_set_state(): each timeout is one MSS timing out.
void TcpSmartt::CongestionStateSet(Ptr<TcpSocketState> tcb,
				   const TcpSocketState::TcpCongState_t state)
{
	if (state != TcpSocketState::CA_LOSS)
		return;
	if (nscc())
		nscc_on_timeout(&st_, &smartt_params, tcb->m_segmentSize);
	else
		smartt_on_timeout(&st_, &smartt_params, tcb->m_segmentSize);
}

// No restart after idle (tcp_smartt_cwnd_event()): only the start.
void TcpSmartt::on_tx_start(Ptr<TcpSocketState> tcb)
{
	if (!started_)
		start(tcb);
}

} // namespace ns3
