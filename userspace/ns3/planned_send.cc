// SPDX-License-Identifier: GPL-2.0
#include "planned_send.h"

#include <ns3/log.h>
#include <ns3/packet.h>
#include <ns3/simulator.h>
#include <ns3/tcp-socket-factory.h>

using namespace ns3;

namespace uno_sim {

NS_OBJECT_ENSURE_REGISTERED(PlannedSend);

TypeId PlannedSend::GetTypeId()
{
	static TypeId tid = TypeId("uno_sim::PlannedSend")
				    .SetParent<Application>()
				    .SetGroupName("Applications")
				    .AddConstructor<PlannedSend>();
	return tid;
}

void PlannedSend::Plan(const Address &to, uint64_t bytes, Time write_at)
{
	NS_ABORT_MSG_IF(bytes == 0 || bytes > UINT32_MAX, "PlannedSend: 1 to 2^32 - 1 bytes");
	m_to = to;
	m_bytes = bytes;
	m_writeAt = write_at;
}

Ptr<Socket> PlannedSend::GetSocket() const
{
	return m_socket;
}

void PlannedSend::StartApplication()
{
	m_socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
	NS_ABORT_MSG_IF(m_socket->Bind() < 0 || m_socket->Connect(m_to) < 0,
			"PlannedSend: cannot connect");
	m_write = Simulator::Schedule(m_writeAt - Simulator::Now(), &PlannedSend::Write, this);
}

void PlannedSend::StopApplication()
{
	Simulator::Cancel(m_write);
	if (m_socket)
		m_socket->Close();
}

// One write of the whole flow: the send buffer holds it (sim.cc sets it
// to 256 MB), as unoperf's writes fill Linux's.
void PlannedSend::Write()
{
	NS_ABORT_MSG_IF(m_socket->Send(Create<Packet>(static_cast<uint32_t>(m_bytes))) < 0,
			"PlannedSend: the send buffer cannot take the flow");
	m_socket->Close();
}

} // namespace uno_sim
