// SPDX-License-Identifier: GPL-2.0
#include "planned_send.h"

#include <stdexcept>
#include <string>

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

void PlannedSend::DoDispose()
{
	m_socket = nullptr;
	Application::DoDispose();
}

void PlannedSend::StartApplication()
{
	m_socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
	m_socket->SetConnectCallback(MakeCallback(&PlannedSend::Connected, this),
				     MakeNullCallback<void, Ptr<Socket>>());
	if (m_socket->Bind() < 0 || m_socket->Connect(m_to) < 0)
		throw std::runtime_error("PlannedSend: cannot connect (errno " +
					 std::to_string(m_socket->GetErrno()) + ")");
	m_write = Simulator::Schedule(Max(m_writeAt - Simulator::Now(), Time()), &PlannedSend::Write, this);
}

void PlannedSend::Connected(Ptr<Socket>)
{
	m_connected = true;
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
	if (!m_connected)
		throw std::runtime_error("a flow's connection was not open at its start: a longer warm-up "
					 "(warmup_inter_rtts)");
	if (m_socket->Send(Create<Packet>(static_cast<uint32_t>(m_bytes))) < 0)
		throw std::runtime_error("PlannedSend: the socket refused the flow (errno " +
					 std::to_string(m_socket->GetErrno()) + ")");
	m_socket->Close();
}

} // namespace uno_sim
