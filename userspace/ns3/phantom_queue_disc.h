// SPDX-License-Identifier: GPL-2.0
//
// The phantom port in ns-3: a QueueDisc over kernel/core/phantom_core.h,
// the law sch_phantom runs. A real FIFO of Limit bytes with the ECN ramp
// over its backlog, and the phantom counter, fed by every arrival (queued
// or dropped) and drained at PhantomRate of the line rate, with its ramp;
// both decided at dequeue with one uniform draw. The device under it
// serialises at the line rate (its own queue one packet long), which is
// what sch_phantom's token bucket does on a veth: the qdisc does not
// shape. Trimming is not modelled: ns-3's TCP has no use for a header
// without its payload.
#ifndef UNO_NS3_PHANTOM_QUEUE_DISC_H
#define UNO_NS3_PHANTOM_QUEUE_DISC_H

#include <ns3/data-rate.h>
#include <ns3/queue-disc.h>
#include <ns3/random-variable-stream.h>

#include "core_user.h"
#include "phantom_core.h"

namespace ns3 {

class PhantomQueueDisc : public QueueDisc {
public:
	static TypeId GetTypeId();
	static constexpr const char *kLimitDrop = "Limit exceeded";
	static constexpr const char *kRealMark = "Real queue ramp";
	static constexpr const char *kPhantomMark = "Phantom queue ramp";

	PhantomQueueDisc();

	int64_t AssignStreams(int64_t stream);
	// Time the port held no packet, as the module's empty_ns counter.
	Time EmptyTime() const;
	uint32_t PhantomBytes() const;

private:
	bool DoEnqueue(Ptr<QueueDiscItem> item) override;
	Ptr<QueueDiscItem> DoDequeue() override;
	bool CheckConfig() override;
	void InitializeParams() override;

	static u64 now_ns();

	DataRate rate_;
	uint32_t limit_ = 0;
	uint32_t ecn_min_ = 0;
	uint32_t ecn_max_ = 0;
	uint32_t pq_rate_ppm_ = 0;
	uint32_t pq_size_ = 0;
	uint32_t pq_min_ = 0;
	uint32_t pq_max_ = 0;
	phantom_state state_ = {};
	phantom_empty empty_ = {};
	Ptr<UniformRandomVariable> rnd_;
};

} // namespace ns3

#endif
