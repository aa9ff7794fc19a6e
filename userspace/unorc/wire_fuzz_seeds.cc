// SPDX-License-Identifier: GPL-2.0
//
// Writes wire_fuzz's seed corpus: one valid message of each type, a
// trimmed header (a PARITY header without its payload), a TRIMMED NACK and
// a DATA packet after its ARC1 shim.
//
// usage: unorc_wire_fuzz_seeds DIR
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "wire_fuzz.h"

using namespace unorc;

namespace {

template <typename Bytes>
bool write_seed(const std::filesystem::path &path, const Bytes &head, size_t payload = 0)
{
	std::vector<char> b(head.begin(), head.end());
	b.resize(b.size() + payload, 'p');
	std::ofstream f(path, std::ios::binary | std::ios::trunc);
	f.write(b.data(), static_cast<std::streamsize>(b.size()));
	return static_cast<bool>(f.flush());
}

// A DATA packet's header after the shim the sender opens it with.
std::vector<uint8_t> shimmed(const PacketHeader &h)
{
	const Shim s{ .type = ShimType::Data, .flags = kShimRetx, .ev = kShimNoEv,
		      .reply_port = 40000, .seq = h.psn, .ts_ns = h.tx_ts_ns };
	const ShimBytes sb = serialize(s);
	const PacketHeaderBytes hb = serialize(h);
	std::vector<uint8_t> b(sb.begin(), sb.end());
	b.insert(b.end(), hb.begin(), hb.end());
	return b;
}

} // namespace

int main(int argc, char **argv)
{
	if (argc != 2) {
		std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	const std::filesystem::path dir = argv[1];
	std::filesystem::create_directories(dir);

	const uint64_t n = kFuzzLimits.x + kFuzzLimits.y;
	// Blocks 0..5 of 64-byte packets, the last with 2 data packets, the
	// second of 10 bytes: 41 * 64 + 10 bytes.
	const PacketHeader data{ .type = Type::Data, .flags = kFlagRetx | kFlagLastBlock, .subflow = 3,
			   .flow_id = 7, .psn = 5 * n + 1, .block_id = 5, .block_idx = 1,
			   .payload_len = 10, .tx_ts_ns = 123456789, .msg_id = 42, .msg_len = 2634 };
	PacketHeader parity = data;
	parity.type = Type::Parity;
	parity.flags = kFlagLastBlock;
	parity.block_idx = static_cast<uint16_t>(kFuzzLimits.x);
	parity.psn = 5 * n + parity.block_idx;
	parity.payload_len = static_cast<uint16_t>(kFuzzLimits.len);
	const Ack ack{ .flags = kFlagEcnCeEcho, .subflow = 3, .flow_id = 7, .acked_psn = 51,
		       .cum_psn = 50, .echo_tx_ts_ns = 123456789, .completed_block = 5,
		       .highest_completed_block = 4 };
	const Nack nack{ .flow_id = 7, .block_id = 6, .highest_completed_block = 4 };
	const Nack trim_nack{ .flow_id = 7, .block_id = 6, .highest_completed_block = 4,
			      .trimmed = true, .block_idx = 9, .echo_tx_ts_ns = 123456789 };

	const bool ok = write_seed(dir / "data", serialize(data), data.payload_len) &&
			write_seed(dir / "parity", serialize(parity), parity.payload_len) &&
			write_seed(dir / "ack", serialize(ack)) &&
			write_seed(dir / "nack", serialize(nack)) &&
			write_seed(dir / "trimmed", serialize(parity)) &&
			write_seed(dir / "trim_nack", serialize(trim_nack)) &&
			write_seed(dir / "shim", shimmed(data), data.payload_len);
	if (!ok) {
		std::perror(dir.c_str());
		return 1;
	}
	return 0;
}
