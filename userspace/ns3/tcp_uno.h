// SPDX-License-Identifier: GPL-2.0
//
// UnoCC in ns-3: a TcpCongestionOps over kernel/core/uno_core.h, the very
// law tcp_uno.ko runs, with the module's parameters and defaults. Like
// kernel/tcp_uno.c this file only maps the transport's events onto the
// core; what the module takes from Linux's TCP, the adapter keeps itself
// where ns-3's TCP does not (the raw RTT sample, srtt, bytes sent).
#ifndef UNO_NS3_TCP_UNO_H
#define UNO_NS3_TCP_UNO_H

#include <string_view>

#include <ns3/tcp-congestion-ops.h>

#include "core_user.h"
#include "uno_core.h"

namespace ns3 {

class TcpUno : public TcpCongestionOps {
public:
	static TypeId GetTypeId();

	TcpUno();
	TcpUno(const TcpUno &other) = default;

	std::string GetName() const override;
	void Init(Ptr<TcpSocketState> tcb) override;
	uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytes_in_flight) override;
	void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segments_acked) override;
	void PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segments_acked, const Time &rtt) override;
	void CongestionStateSet(Ptr<TcpSocketState> tcb,
				const TcpSocketState::TcpCongState_t state) override;
	void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event) override;
	bool HasCongControl() const override;
	void CongControl(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateConnection &rc,
			 const TcpRateOps::TcpRateSample &rs) override;
	Ptr<TcpCongestionOps> Fork() override;

	// The module's parameters (kernel/tcp_uno_params.h), one set for
	// every flow of the simulation as for every socket of a host; a
	// name the list does not have returns false. Values are checked by
	// the caller (libuno's scale_param(), as unoctl checks them).
	static bool SetParam(std::string_view name, uint32_t value);
	static const uno_params &Params();

	const uno_state &core() const { return core_; }
	uint32_t md_cuts() const { return md_cuts_; }
	uint32_t qa_cuts() const { return qa_cuts_; }

private:
	void start(Ptr<TcpSocketState> tcb);
	void apply(Ptr<TcpSocketState> tcb);
	uint32_t now_us() const;

	uno_state core_ = {};
	bool started_ = false;
	int64_t rtt_us_ = -1;	// the newest RTT sample, taken by the next ACK
	uint32_t srtt_us_ = 0;	// Linux's srtt: 7/8 old + 1/8 sample
	uint32_t md_cuts_ = 0;
	uint32_t qa_cuts_ = 0;
};

} // namespace ns3

#endif
