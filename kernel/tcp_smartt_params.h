/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run-time parameters of tcp_smartt, one TCP_SMARTT_PARAM(name,
 * description, storage, min, max, apply) each; a description is one
 * string, however long, so that it can be found with grep. "Q10": in
 * 1/1024 units, 1024 = 1.0.
 *
 * Like <linux/bpf_types.h>, a list to include with TCP_SMARTT_PARAM
 * defined, once per table made of it: tcp_smartt.c makes its uno_nl table,
 * module parameters and their descriptions; libuno, ignoring the storage,
 * the table unoctl and unod check names and ranges against. Include
 * smartt_core.h and uapi/uno_nl.h first.
 */
TCP_SMARTT_PARAM(link_rate_mbps,
		 "Sender line rate for the BDP, Mbit/s (default 1000)",
		 smartt_params.link_rate_mbps, 1, 10000000, UNO_APPLY_REBASE)
TCP_SMARTT_PARAM(base_rtt_us,
		 "Base RTT, us; 0: the handshake RTT, then the lowest sample (default 0)",
		 smartt_params.base_rtt_us, 0, SMARTT_RTT_MAX, UNO_APPLY_NEW)
TCP_SMARTT_PARAM(base_rtt_floor_us,
		 "Least learned base RTT, us: the network's shortest path RTT (default 0)",
		 smartt_params.base_rtt_floor_us,
		 0, SMARTT_RTT_MAX, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(trtt_factor,
		 "Target RTT in base RTTs, Q10 (default 1536 = 1.5)",
		 smartt_params.trtt_factor, 1024, 16384, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(md_gamma,
		 "Multiplicative decrease gain, Q10 (default 819 = 0.8)",
		 smartt_params.md_gamma, 0, 1024, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(md_min_factor,
		 "Smallest factor of one decrease, Q10 (default 512 = 0.5)",
		 smartt_params.md_min_factor, 0, 1024, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(md_interval,
		 "Least time between decreases in base RTTs, Q10 (default 1024 = 1)",
		 smartt_params.md_interval, 0, 16384, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(fi,
		 "Fair increase, MSS per RTT per unit of BDP scale, Q10 (default 1024 = 1)",
		 smartt_params.fi, 0, 65536, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(pi,
		 "Proportional increase constant per unit of BDP scale, Q10 (default 2048 = 2)",
		 smartt_params.pi, 0, 65536, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(bdp_ref,
		 "Reference BDP of the increase scale, bytes (default 150000)",
		 smartt_params.bdp_ref, 1, SMARTT_CWND_LIMIT, UNO_APPLY_REBASE)
TCP_SMARTT_PARAM(bdp_ref_mtu,
		 "MTU the reference BDP is counted in, bytes (default 4096)",
		 smartt_params.bdp_ref_mtu, 1, 65535, UNO_APPLY_REBASE)
TCP_SMARTT_PARAM(fast_inc_k,
		 "FastIncrease, bytes per acked byte, Q10 (default 2048 = 2)",
		 smartt_params.fast_inc_k, 0, 16384, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(fast_inc_tol,
		 "FastIncrease: RTT counts as base if within this many base RTTs of it, Q10 (default 128 = 1/8)",
		 smartt_params.fast_inc_tol, 0, 16384, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(fast_inc_tol_us,
		 "Floor of that tolerance, us (default 0)",
		 smartt_params.fast_inc_tol_us, 0, 1000000, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(qa_scaling,
		 "QuickAdapt window per byte delivered in a target RTT, Q10 (default 1024 = 1)",
		 smartt_params.qa_scaling, 1, 16384, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(qa_notrim_rtt,
		 "trimming=0: arm QuickAdapt above base + this x (target - base) RTT, Q10 (default 4096 = 4)",
		 smartt_params.qa_notrim_rtt, 0, 65536, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(qa_notrim_acked,
		 "trimming=0: ... if fewer bytes than this x max window were delivered, Q10 (default 128 = 1/8)",
		 smartt_params.qa_notrim_acked, 0, 1024, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(min_cwnd,
		 "snd_cwnd floor, MSS, and the window floor if min_cwnd_bytes is 0; the paper's 1 meets the delayed-ACK timer (default 2)",
		 smartt_params.min_cwnd, 1, 1024, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(min_cwnd_bytes,
		 "Window floor, bytes; below min_cwnd MSS only the pacing rate enforces it; 0: min_cwnd MSS (default 64)",
		 smartt_params.min_cwnd_bytes,
		 0, SMARTT_MIN_CWND_BYTES_MAX, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(max_cwnd,
		 "Window ceiling in BDPs, Q10 (default 1536 = 1.5)",
		 smartt_params.max_cwnd, 1, 16384, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(init_cwnd,
		 "Initial window in BDPs, Q10 (default 1024 = 1)",
		 smartt_params.init_cwnd, 1, 16384, UNO_APPLY_NEW)
TCP_SMARTT_PARAM(rtt_gain_pkts,
		 "RTT average gain is this / BDP in packets (default 4)",
		 smartt_params.rtt_gain_pkts, 1, 1024, UNO_APPLY_REBASE)
TCP_SMARTT_PARAM(rtt_gain_min,
		 "Least RTT average gain, Q10 (default 8 = 1/128)",
		 smartt_params.rtt_gain_min, 1, 1024, UNO_APPLY_REBASE)
TCP_SMARTT_PARAM(rtt_gain_max,
		 "Greatest RTT average gain, Q10 (default 256 = 1/4)",
		 smartt_params.rtt_gain_max, 1, 1024, UNO_APPLY_REBASE)
TCP_SMARTT_PARAM(fair_decrease,
		 "Decrease per marked ACK below target RTT, Q10; 0: off, the paper's no-op (default 0)",
		 smartt_params.fair_decrease, 0, 1024, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(pacing_gain,
		 "Pacing rate in windows per base RTT, Q10; 0: do not pace (default 1280 = 1.25)",
		 smartt_params.pacing_gain, 0, 8192, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(trimming,
		 "1: losses found by SACK/RACK act as trim NACKs; 0: RTOs only, QuickAdapt armed by RTT (default 1)",
		 smartt_params.trimming, 0, 1, UNO_APPLY_ACK)
TCP_SMARTT_PARAM(mode,
		 "Law of new connections: 0 SMaRTT (the paper), 1 NSCC (Ultra Ethernet) (default 0)",
		 smartt_params.mode,
		 SMARTT_MODE_SMARTT, SMARTT_MODE_NSCC, UNO_APPLY_NEW)
TCP_SMARTT_PARAM(nscc_net_rtt_us,
		 "mode=1: network RTT, us: target queueing delay 0.75x (1x if trimming=0), batch period, increase scale; 0: the flow's base RTT (default 0)",
		 smartt_params.nscc_net_rtt_us,
		 0, SMARTT_RTT_MAX, UNO_APPLY_ACK)
