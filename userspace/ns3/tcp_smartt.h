// SPDX-License-Identifier: GPL-2.0
//
// SMaRTT and Ultra Ethernet's NSCC in ns-3: kernel/core/smartt_core.h and
// nscc_core.h, the laws tcp_smartt.ko runs (mode 0 and 1), with the
// module's parameters and defaults; this file maps ns-3's TCP onto them
// as kernel/tcp_smartt.c maps Linux's.
#ifndef UNO_NS3_TCP_SMARTT_H
#define UNO_NS3_TCP_SMARTT_H

#include <string_view>

#include "tcp_core_ops.h"
#include "smartt_core.h"

namespace ns3 {

class TcpSmartt : public TcpCoreOps {
public:
	static TypeId GetTypeId();

	// The module's parameters (kernel/tcp_smartt_params.h), as TcpUno's.
	static bool SetParam(std::string_view name, uint32_t value);
	static void ResetParams();

	std::string GetName() const override;
	void Init(Ptr<TcpSocketState> tcb) override;
	void CongestionStateSet(Ptr<TcpSocketState> tcb,
				const TcpSocketState::TcpCongState_t state) override;
	void CongControl(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateConnection &rc,
			 const TcpRateOps::TcpRateSample &rs) override;
	Ptr<TcpCongestionOps> Fork() override;

private:
	bool paced() const override;
	void on_tx_start(Ptr<TcpSocketState> tcb) override;
	bool nscc() const;
	void start(Ptr<TcpSocketState> tcb);
	void apply(Ptr<TcpSocketState> tcb);

	smartt_state st_ = {};
	bool started_ = false;
};

} // namespace ns3

#endif
