// SPDX-License-Identifier: GPL-2.0
#include <algorithm>
#include <stdexcept>
#include <string>

#include "cc.h"

namespace unorc {

namespace {

// The cores' clocks: u32 microseconds, compared only as elapsed time.
uint32_t us32(uint64_t ns)
{
	return static_cast<uint32_t>(ns / 1000);
}

uint32_t sat32(uint64_t v)
{
	return static_cast<uint32_t>(std::min<uint64_t>(v, UINT32_MAX));
}

} // namespace

const char *cc_law_name(CcLaw law)
{
	switch (law) {
	case CcLaw::Uno:
		return "uno";
	case CcLaw::Smartt:
		return "smartt";
	case CcLaw::Nscc:
		return "nscc";
	}
	return "?";
}

// The flow starts as tcp_uno_init() starts a connection whose handshake
// gave no RTT (UDP has none): the window at its floor until the first
// ACK's RTT sample starts UnoCC at one BDP (uno_update_base()).
UnoCc::UnoCc(const uno_params *p, uint32_t mss, uint64_t now_ns) : p_(p), mss_(mss)
{
	uno_init(&s_, p_, mss_, UNO_RTT_NONE, us32(now_ns), 0);
}

void UnoCc::on_tx_start(uint64_t now_ns)
{
	uno_on_tx_start(&s_, p_, us32(now_ns));
}

// One ACK for UnoCC, as tcp_uno_cong_control() builds it from TCP's.
void UnoCc::on_ack(const CcAck &a)
{
	uno_ack ua = {};
	ua.now_us = us32(a.now_ns);
	ua.acked = a.acked;
	ua.rtt_us = a.rtt_us;
	ua.min_rtt_us = a.min_rtt_us;
	ua.srtt_us = a.srtt_us;
	ua.sent = static_cast<uint32_t>(a.sent);
	ua.mss = mss_;
	ua.ece = a.ce;
	ua.app_limited = a.app_limited;
	uno_on_ack(&s_, p_, &ua);
}

// The module's CA_EVENT_LOSS: one MSS per timeout event, which leaves the
// window alone unless rto_cwnd_cut (loss is no congestion signal in Uno,
// spec 3.4).
void UnoCc::on_rto(uint32_t)
{
	uno_on_timeout(&s_, p_, mss_, mss_);
}

SmarttCc::SmarttCc(CcLaw law, const smartt_params *p, uint32_t mss) : p_(p)
{
	if (law == CcLaw::Nscc)
		nscc_init(&s_, p_, mss, 0);
	else
		smartt_init(&s_, p_, mss, 0);
}

CcLaw SmarttCc::law() const
{
	return nscc() ? CcLaw::Nscc : CcLaw::Smartt;
}

void SmarttCc::on_ack(const CcAck &a)
{
	const smartt_ack sa = { .now = us32(a.now_ns), .size = a.acked, .rtt_us = a.rtt_us,
				.inflight = sat32(a.in_flight), .ecn = a.ce };
	if (nscc())
		nscc_on_ack(&s_, p_, &sa);
	else
		smartt_on_ack(&s_, p_, &sa);
}

void SmarttCc::on_nack(uint64_t now_ns, uint32_t lost, uint64_t in_flight)
{
	if (p_->trimming)
		on_trim(now_ns, lost, in_flight);
}

void SmarttCc::on_trim(uint64_t now_ns, uint32_t lost, uint64_t in_flight)
{
	if (nscc())
		nscc_on_nack(&s_, p_, us32(now_ns), lost, sat32(in_flight));
	else
		smartt_on_nack(&s_, p_, us32(now_ns), lost, sat32(in_flight));
}

void SmarttCc::on_rto(uint32_t lost)
{
	if (nscc())
		nscc_on_timeout(&s_, p_, lost);
	else
		smartt_on_timeout(&s_, p_, lost);
}

uint64_t SmarttCc::cwnd_bytes() const
{
	return s_.cwnd ? s_.cwnd : smartt_minwnd(&s_, p_);
}

std::unique_ptr<FlowCc> make_cc(CcLaw law, const uno_params *uno, const smartt_params *smartt,
				uint32_t mss, uint64_t now_ns)
{
	if (law == CcLaw::Uno) {
		if (!uno)
			throw std::invalid_argument("without UnoCC parameters");
		return std::make_unique<UnoCc>(uno, mss, now_ns);
	}
	if (!smartt)
		throw std::invalid_argument(std::string("without ") + cc_law_name(law) +
					    " parameters");
	return std::make_unique<SmarttCc>(law, smartt, mss);
}

} // namespace unorc
