// SPDX-License-Identifier: GPL-2.0
#include "phantom_queue_disc.h"

#include <ns3/drop-tail-queue.h>
#include <ns3/simulator.h>
#include <ns3/uinteger.h>

namespace ns3 {

NS_OBJECT_ENSURE_REGISTERED(PhantomQueueDisc);

TypeId PhantomQueueDisc::GetTypeId()
{
	static TypeId tid =
		TypeId("ns3::PhantomQueueDisc")
			.SetParent<QueueDisc>()
			.SetGroupName("Uno")
			.AddConstructor<PhantomQueueDisc>()
			.AddAttribute("Rate", "Line rate of the port", DataRateValue(DataRate("100Gbps")),
				      MakeDataRateAccessor(&PhantomQueueDisc::rate_), MakeDataRateChecker())
			.AddAttribute("Limit", "Real queue capacity, bytes", UintegerValue(1000000),
				      MakeUintegerAccessor(&PhantomQueueDisc::limit_),
				      MakeUintegerChecker<uint32_t>(1))
			.AddAttribute("EcnMin", "Real-queue ramp start, bytes", UintegerValue(1000000),
				      MakeUintegerAccessor(&PhantomQueueDisc::ecn_min_),
				      MakeUintegerChecker<uint32_t>())
			.AddAttribute("EcnMax", "Real-queue ramp end, bytes", UintegerValue(1000000),
				      MakeUintegerAccessor(&PhantomQueueDisc::ecn_max_),
				      MakeUintegerChecker<uint32_t>())
			.AddAttribute("PhantomRate", "Phantom drain rate, ppm of the line rate",
				      UintegerValue(900000),
				      MakeUintegerAccessor(&PhantomQueueDisc::pq_rate_ppm_),
				      MakeUintegerChecker<uint32_t>(1, PHANTOM_PPM_ONE))
			.AddAttribute("PhantomSize", "Phantom capacity, bytes; 0: off", UintegerValue(0),
				      MakeUintegerAccessor(&PhantomQueueDisc::pq_size_),
				      MakeUintegerChecker<uint32_t>())
			.AddAttribute("PhantomMin", "Phantom ramp start, bytes", UintegerValue(0),
				      MakeUintegerAccessor(&PhantomQueueDisc::pq_min_),
				      MakeUintegerChecker<uint32_t>())
			.AddAttribute("PhantomMax", "Phantom ramp end, bytes", UintegerValue(0),
				      MakeUintegerAccessor(&PhantomQueueDisc::pq_max_),
				      MakeUintegerChecker<uint32_t>());
	return tid;
}

PhantomQueueDisc::PhantomQueueDisc()
	: QueueDisc(QueueDiscSizePolicy::SINGLE_INTERNAL_QUEUE),
	  rnd_(CreateObject<UniformRandomVariable>())
{
}

int64_t PhantomQueueDisc::AssignStreams(int64_t stream)
{
	rnd_->SetStream(stream);
	return 1;
}

u64 PhantomQueueDisc::now_ns()
{
	return static_cast<u64>(Simulator::Now().GetNanoSeconds());
}

Time PhantomQueueDisc::EmptyTime() const
{
	return NanoSeconds(static_cast<int64_t>(phantom_empty_ns(&empty_, now_ns())));
}

uint32_t PhantomQueueDisc::PhantomBytes() const
{
	return phantom_pq_level(&state_.pq, now_ns());
}

// sch_phantom's enqueue without trimming: the counter sees every arrival.
bool PhantomQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
	u64 now = now_ns();
	uint32_t len = item->GetSize();

	phantom_arrive(&state_, now, len);
	if (GetNBytes() + len > limit_) {
		DropBeforeEnqueue(item, kLimitDrop);
		return false;
	}
	phantom_empty_end(&empty_, now);
	return GetInternalQueue(0)->Enqueue(item);
}

// Marking at dequeue over the backlog left behind (SMaRTT Sec. III-B).
Ptr<QueueDiscItem> PhantomQueueDisc::DoDequeue()
{
	Ptr<QueueDiscItem> item = GetInternalQueue(0)->Dequeue();
	u64 now = now_ns();
	uint32_t backlog = GetNBytes();
	u32 draw = 0;

	if (!item)
		return nullptr;
	if (!backlog)
		phantom_empty_begin(&empty_, now);
	if (phantom_depart_draws(&state_, now, backlog))
		draw = rnd_->GetInteger(0, UINT32_MAX);
	switch (phantom_depart(&state_, now, backlog, draw)) {
	case PHANTOM_MARK_REAL:
		Mark(item, kRealMark);
		break;
	case PHANTOM_MARK_PHANTOM:
		Mark(item, kPhantomMark);
		break;
	case PHANTOM_PASS:
		break;
	}
	return item;
}

bool PhantomQueueDisc::CheckConfig()
{
	if (GetNQueueDiscClasses() || GetNPacketFilters())
		return false;
	if (ecn_min_ > ecn_max_ || pq_min_ > pq_max_ || rate_.GetBitRate() == 0)
		return false;
	if (!GetNInternalQueues())
		AddInternalQueue(CreateObject<DropTailQueue<QueueDiscItem>>());
	GetInternalQueue(0)->SetMaxSize(QueueSize(QueueSizeUnit::BYTES, limit_));
	return true;
}

void PhantomQueueDisc::InitializeParams()
{
	phantom_params p = {
		.rate = rate_.GetBitRate() / 8,
		.limit = limit_,
		.ecn_min = ecn_min_,
		.ecn_max = ecn_max_,
		.pq_rate = pq_rate_ppm_,
		.pq_size = pq_size_,
		.pq_min = pq_min_,
		.pq_max = pq_max_,
	};
	u64 now = now_ns();

	phantom_configure(&state_, &p, now);
	phantom_empty_begin(&empty_, now);
}

} // namespace ns3
