/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run-time parameters of tcp_swift, one TCP_SWIFT_PARAM(name,
 * description, storage, min, max, apply) each; a description is one
 * string, however long, so that it can be found with grep. Windows are in
 * micro-packets ("upkts", 10^6 = one packet), fractions in parts per
 * million, as in core/swift_core.h. Defaults are reflex.md 3.2's, at the
 * paper's scale; a time-dilated testbed multiplies the times by S.
 *
 * Like <linux/bpf_types.h>, a list to include with TCP_SWIFT_PARAM
 * defined, once per table made of it: tcp_swift.c makes its uno_nl table,
 * module parameters and their descriptions; libuno, ignoring the storage,
 * the table unoctl and unod check names and ranges against. Include
 * swift_core.h and uapi/uno_nl.h first. Values that only make sense
 * together (flow scaling's two windows) are checked together on every
 * store: a store that breaks them is refused.
 */
TCP_SWIFT_PARAM(link_rate_mbps,
		"Line rate C, Mbit/s: a flow starts at, and stays below, max_cwnd_bdp_pct of C x its base RTT (default 100000)",
		swift_conf.link_rate_mbps, 1, 10000000, UNO_APPLY_NEW)
TCP_SWIFT_PARAM(max_cwnd_bdp_pct,
		"Largest window, % of the flow's BDP at link_rate_mbps (default 100)",
		swift_conf.max_cwnd_bdp_pct, 1, 10000, UNO_APPLY_NEW)
TCP_SWIFT_PARAM(base_rtt_ns,
		"Intra-DC propagation RTT in every flow's target, ns (default 8000)",
		swift_conf.base_rtt_ns, 0, 1073741824, UNO_APPLY_ACK)
TCP_SWIFT_PARAM(base_delay_ns,
		"Swift's base target delay, ns (default 200)",
		swift_conf.base_delay_ns, 0, 1073741824, UNO_APPLY_ACK)
TCP_SWIFT_PARAM(hop_delay_ns,
		"Target delay per switch hop, ns (default 1000)",
		swift_conf.hop_delay_ns, 0, 1048576, UNO_APPLY_ACK)
TCP_SWIFT_PARAM(hops_intra,
		"Switch hops of an intra-DC flow's path (default 3)",
		swift_conf.hops_intra, 0, 255, UNO_APPLY_NEW)
TCP_SWIFT_PARAM(hops_inter,
		"Switch hops of an inter-DC flow's path (default 6)",
		swift_conf.hops_inter, 0, 255, UNO_APPLY_NEW)
TCP_SWIFT_PARAM(inter_rtt_us,
		"A flow whose handshake RTT is above this, us, is inter-DC (default 100)",
		swift_conf.inter_rtt_us, 1, 100000000, UNO_APPLY_NEW)
TCP_SWIFT_PARAM(ai_upkts,
		"Additive increase per RTT, micro-packets (default 1000000)",
		swift_conf.ai_upkts, 1, 16777216, UNO_APPLY_ACK)
TCP_SWIFT_PARAM(beta_ppm,
		"Multiplicative decrease gain, ppm (default 800000)",
		swift_conf.beta_ppm, 1, 1000000, UNO_APPLY_ACK)
TCP_SWIFT_PARAM(max_mdf_ppm,
		"Largest decrease per RTT, ppm (default 500000)",
		swift_conf.max_mdf_ppm, 1, 1000000, UNO_APPLY_ACK)
TCP_SWIFT_PARAM(min_cwnd_upkts,
		"Smallest window, micro-packets; below one packet, pacing carries it (default 1000)",
		swift_conf.min_cwnd_upkts, 1, 1000000000, UNO_APPLY_ACK)
TCP_SWIFT_PARAM(retx_reset,
		"RTOs in a row that reset the window to min_cwnd_upkts (default 5)",
		swift_conf.retx_reset, 1, 1000, UNO_APPLY_ACK)
TCP_SWIFT_PARAM(fs_range_ns,
		"Flow scaling's largest extra target, ns; 0: off (default 0)",
		swift_conf.fs_range_ns, 0, 1073741824, UNO_APPLY_ACK)
TCP_SWIFT_PARAM(fs_min_cwnd_upkts,
		"Window at and below which flow scaling adds fs_range_ns, micro-packets; below fs_max_cwnd_upkts (default 100000)",
		swift_conf.fs_min_cwnd_upkts, 1, 4000000000, UNO_APPLY_ACK)
TCP_SWIFT_PARAM(fs_max_cwnd_upkts,
		"Window from which flow scaling adds nothing, micro-packets (default 100000000)",
		swift_conf.fs_max_cwnd_upkts, 2, 4000000000, UNO_APPLY_ACK)
