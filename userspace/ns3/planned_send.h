// SPDX-License-Identifier: GPL-2.0
//
// unoperf's client in ns-3: a TCP connection opened when the application
// starts, its bytes written at a planned time. A mix's flows wait
// connected as unoperf's do (it connects every flow before the common
// start), so a handshake never meets the load and a flow's start is its
// plan's.
#ifndef UNO_NS3_PLANNED_SEND_H
#define UNO_NS3_PLANNED_SEND_H

#include <ns3/application.h>
#include <ns3/socket.h>

namespace uno_sim {

class PlannedSend : public ns3::Application {
public:
	static ns3::TypeId GetTypeId();

	// Connect to @to at the start, write @bytes at @write_at and close. The
	// connection must be open by then: a run that gives its handshakes
	// too little time throws std::runtime_error.
	void Plan(const ns3::Address &to, uint64_t bytes, ns3::Time write_at);
	// The connection, once the application started.
	ns3::Ptr<ns3::Socket> GetSocket() const;

protected:
	void DoDispose() override;

private:
	void StartApplication() override;
	void StopApplication() override;
	void Connected(ns3::Ptr<ns3::Socket> socket);
	void Write();

	ns3::Address m_to;
	uint64_t m_bytes = 0;
	ns3::Time m_writeAt;
	ns3::Ptr<ns3::Socket> m_socket;
	ns3::EventId m_write;
	bool m_connected = false;
};

} // namespace uno_sim

#endif
