// SPDX-License-Identifier: GPL-2.0
//
// The transport's settings as a command takes them (unorc send and recv,
// unoperf over UnoRC): the code and the inter-DC prefixes, the sender's
// and the receiver's knobs with their defaults, and the checks that turn
// them into the transport's configurations. One place, so that every
// command refuses the same values with the same words. knobs.h names
// each setting, for the command lines and [unorc] of /etc/uno/uno.toml.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "transport.h"

namespace unorc {

// With 40 + 8 + 40 bytes of headers an IPv6 packet fits a 1500-byte MTU.
inline constexpr size_t kDefaultPayload = 1400;
// UDP's largest IPv4 payload, 65507 bytes, less our header.
inline constexpr size_t kMaxPayload = 65507 - kPacketHeaderSize;
// The longest RTO and NACK timer, a minute, and the shortest, a
// twentieth of which is a microsecond.
inline constexpr uint64_t kMinTimerUs = 20;
inline constexpr uint64_t kMaxTimerUs = 60'000'000;

// Which code a flow gets. Both ends must agree: the wire carries no code.
struct CodeSettings {
	// "auto": 8+2 for a peer in an inter prefix, none for the others;
	// "none": no parity for any flow; "X+Y": that code for every flow.
	std::string code = "auto";
	std::vector<std::string> inter_prefixes;
	size_t payload = kDefaultPayload;
};

// SMaRTT's and NSCC's parameters: smartt_core.h's defaults, the module's,
// but for the link rate, UnoCC's default: --link-mbps is the link's,
// whatever the law.
smartt_params smartt_defaults();

struct SenderSettings {
	int subflows = 0;         // 0: subflows_for() the code
	uint16_t source_port = 0; // 0: ephemeral ports
	std::string repath = "redraw";
	std::string shim = "off"; // or arc1: FlowConfig::shim
	uint64_t rto_us = 10000;  // spec 9.24
	std::string law = "uno";  // --cc: cc_laws()
	uno_params cc = UNO_PARAMS_INIT;
	smartt_params smartt = smartt_defaults();
};

struct ReceiverSettings {
	uint64_t ec_wait_us = 2000; // spec 9.23
	uint64_t window_bytes = 16 << 20;
	size_t max_flows = 256;
	std::string trim_dscp = "62"; // sch_phantom's default, or "off"
	// The socket's receive buffer, bytes, 0: the kernel's default. A
	// trimming port's burst of headers needs room (net.h's
	// kDefaultRcvbuf).
	int rcvbuf = kDefaultRcvbuf;
};

// Both ends' settings: what knobs.h's table reads and writes.
struct Settings {
	CodeSettings code;
	SenderSettings tx;
	ReceiverSettings rx;
};

// --code: "" if s is auto, none or X+Y with 1 <= X, 0 <= Y and
// X + Y <= 256, else what is wrong, naming s.
std::string check_code(const std::string &s);
// "X+Y" with the payload length; throws std::invalid_argument with what
// is wrong, BlockCoder's words for a code it refuses.
WireLimits parse_code(const std::string &s, size_t len);
// code none: none; X+Y: that one; auto: 8+2 for a peer in an inter
// prefix, none for the others. Throws std::invalid_argument naming the
// option.
CodePolicy code_policy(const CodeSettings &s);
// "8+2", or "none" without parity.
std::string code_name(const WireLimits &c);

// --trim-dscp: "" if s is "off" or a DSCP 0..63, else what is wrong.
std::string check_trim_dscp(const std::string &s);
// A checked --trim-dscp: none for "off".
std::optional<uint8_t> trim_dscp_of(const std::string &s);

// --repath's values (spec 5.1 and 9.25).
const std::map<std::string, unolb_mode> &repath_modes();

// --cc's values: the flow's congestion control (cc.h).
const std::map<std::string, CcLaw> &cc_laws();

// --link-mbps: C, the link rate, of every law.
void set_link_mbps(SenderSettings &s, uint32_t mbps);

// S = n of the code (spec 9.26), at most what UnoLB holds; 1 without
// parity; settings' subflows if given.
int subflows_for(const SenderSettings &s, const WireLimits &code);

// One flow's config; its cc and smartt point into s, which must outlive
// the flow.
FlowConfig flow_config(const SenderSettings &s, uint32_t flow_id, const WireLimits &code);

ReceiverOptions receiver_options(const ReceiverSettings &s, const CodePolicy &codes);

} // namespace unorc
