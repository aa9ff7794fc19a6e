// SPDX-License-Identifier: GPL-2.0
//
// UnoCC in ns-3: kernel/core/uno_core.h, the very law tcp_uno.ko runs,
// with the module's parameters and defaults; this file maps ns-3's TCP
// onto it as kernel/tcp_uno.c maps Linux's.
#ifndef UNO_NS3_TCP_UNO_H
#define UNO_NS3_TCP_UNO_H

#include <string_view>

#include "tcp_core_ops.h"
#include "uno_core.h"

namespace ns3 {

class TcpUno : public TcpCoreOps {
public:
	static TypeId GetTypeId();

	// The module's parameters (kernel/tcp_uno_params.h), one set for
	// every flow of the simulation as for every socket of a host; a
	// name the list does not have returns false. Values are checked by
	// the caller (libuno's scale_param(), as unoctl checks them).
	static bool SetParam(std::string_view name, uint32_t value);
	// The module's defaults again.
	static void ResetParams();

	std::string GetName() const override;
	void Init(Ptr<TcpSocketState> tcb) override;
	void CongestionStateSet(Ptr<TcpSocketState> tcb,
				const TcpSocketState::TcpCongState_t state) override;
	void CongControl(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateConnection &rc,
			 const TcpRateOps::TcpRateSample &rs) override;
	Ptr<TcpCongestionOps> Fork() override;

	const uno_state &core() const { return core_; }
	uint32_t md_cuts() const { return md_cuts_; }

private:
	bool paced() const override;
	void on_tx_start(Ptr<TcpSocketState> tcb) override;
	void start(Ptr<TcpSocketState> tcb);
	void apply(Ptr<TcpSocketState> tcb);

	uno_state core_ = {};
	bool started_ = false;
	uint32_t md_cuts_ = 0;
};

} // namespace ns3

#endif
