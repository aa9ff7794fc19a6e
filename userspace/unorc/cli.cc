// SPDX-License-Identifier: GPL-2.0
#include "cli.h"

namespace unorc {

const char *const kCodeHelp = R"(
Both ends must agree on --payload and the code: the wire carries neither.
A flow's code: --no-code, none; --code X+Y, X data and Y parity packets per
block; neither, 8+2 for a peer in an --inter-prefix (inter-DC, spec 6.1) and
none for any other (intra-DC: per-packet ACKs and the RTO only).)";

std::vector<CLI::Option *> add_code_options(CLI::App *cmd, CodeSettings &s)
{
	CLI::Option *code = cmd->add_option("--code", s.code,
					    "X+Y: X data, Y parity packets per block, every flow")
		->type_name("X+Y");
	CLI::Option *none = cmd->add_flag("--no-code", s.no_code, "no parity for any flow")
		->excludes(code);
	CLI::Option *prefix = cmd->add_option("--inter-prefix", s.inter_prefixes,
					      "inter-DC peers (repeatable)")
		->type_name("CIDR");
	CLI::Option *payload = cmd->add_option("--payload", s.payload, "payload bytes per packet")
		->capture_default_str()
		->check(CLI::Range(size_t{ 1 }, kMaxPayload));
	return { code, none, prefix, payload };
}

std::vector<CLI::Option *> add_sender_options(CLI::App *cmd, SenderSettings &s)
{
	return {
		cmd->add_option("--subflows", s.subflows,
				"UDP source ports (default: n of the code, at most 16; 1 without)")
			->check(CLI::Range(1, UNOLB_MAX_SUBFLOWS)),
		cmd->add_option("--source-port", s.source_port,
				"sub-flow k sends from port P + k, re-paths from P .. P + 16383 "
				"(default: ephemeral ports, re-paths from 49152 .. 65535)")
			->type_name("P")->check(CLI::Range(1, 65535)),
		cmd->add_option("--repath", s.repath, "UnoLB on a NACK or RTO (spec 5.1)")
			->capture_default_str()->check(CLI::IsMember(repath_modes())),
		cmd->add_option("--rto-us", s.rto_us, "retransmission timeout (spec 9.24)")
			->capture_default_str()
			->check(CLI::Range(uint64_t{ 20 }, uint64_t{ 60'000'000 })),
		cmd->add_option("--link-mbps", s.cc.link_rate_mbps, "UnoCC's C")
			->capture_default_str()
			->check(CLI::Range(UNO_LINK_RATE_MBPS_MIN, UNO_LINK_RATE_MBPS_MAX)),
		cmd->add_option("--intra-rtt-us", s.cc.intra_rtt_us, "UnoCC's RTT_intra")
			->capture_default_str()
			->check(CLI::Range(UNO_INTRA_RTT_US_MIN, UNO_INTRA_RTT_US_MAX)),
	};
}

std::vector<CLI::Option *> add_receiver_options(CLI::App *cmd, ReceiverSettings &s)
{
	return {
		cmd->add_option("--ec-wait-us", s.ec_wait_us, "NACK timer (spec 6.2, 9.23)")
			->capture_default_str()
			->check(CLI::Range(uint64_t{ 20 }, uint64_t{ 60'000'000 })),
		cmd->add_option("--window-bytes", s.window_bytes, "receive window per flow")
			->capture_default_str()
			->check(CLI::Range(uint64_t{ 1 }, uint64_t{ 1 } << 34)),
		cmd->add_option("--max-flows", s.max_flows, "peer flows at once")
			->capture_default_str()
			->check(CLI::Range(size_t{ 1 }, size_t{ 1 } << 20)),
		cmd->add_option("--trim-dscp", s.trim_dscp,
				"DSCP of trimmed headers, NACKed at once (sch_phantom trim-dscp), or off")
			->capture_default_str()
			->check(check_trim_dscp),
	};
}

} // namespace unorc
