/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run-time parameters of tcp_smartt, one P(name, storage, min, max,
 * apply, description) each. tcp_smartt.c expands the list into module
 * parameters and the uno_nl table; user space (libuno) expands it, ignoring
 * the storage, into the table unoctl and unod check names and ranges
 * against. "Q10": in 1/1024 units, 1024 = 1.0.
 */
#ifndef _TCP_SMARTT_PARAMS_H
#define _TCP_SMARTT_PARAMS_H

#include "smartt_core.h"
#include "uapi/uno_nl.h"

#define TCP_SMARTT_PARAMS(P)						\
	P(link_rate_mbps, smartt_params.link_rate_mbps,			\
	  1, 10000000, UNO_APPLY_REBASE,				\
	  "Sender line rate for the BDP, Mbit/s (default 1000)")	\
	P(base_rtt_us, smartt_params.base_rtt_us,			\
	  0, SMARTT_RTT_MAX, UNO_APPLY_NEW,				\
	  "Base RTT, us; 0: the handshake RTT, then the lowest sample (default 0)") \
	P(base_rtt_floor_us, smartt_params.base_rtt_floor_us,		\
	  0, SMARTT_RTT_MAX, UNO_APPLY_ACK,				\
	  "Least learned base RTT, us: the network's shortest path RTT (default 0)") \
	P(trtt_factor, smartt_params.trtt_factor,			\
	  1024, 16384, UNO_APPLY_ACK,					\
	  "Target RTT in base RTTs, Q10 (default 1536 = 1.5)")		\
	P(md_gamma, smartt_params.md_gamma,				\
	  0, 1024, UNO_APPLY_ACK,					\
	  "Multiplicative decrease gain, Q10 (default 819 = 0.8)")	\
	P(md_min_factor, smartt_params.md_min_factor,			\
	  0, 1024, UNO_APPLY_ACK,					\
	  "Smallest factor of one decrease, Q10 (default 512 = 0.5)")	\
	P(md_interval, smartt_params.md_interval,			\
	  0, 16384, UNO_APPLY_ACK,					\
	  "Least time between decreases in base RTTs, Q10 (default 1024 = 1)") \
	P(fi, smartt_params.fi,						\
	  0, 65536, UNO_APPLY_ACK,					\
	  "Fair increase, MSS per RTT per unit of BDP scale, Q10 (default 1024 = 1)") \
	P(pi, smartt_params.pi,						\
	  0, 65536, UNO_APPLY_ACK,					\
	  "Proportional increase constant per unit of BDP scale, Q10 (default 2048 = 2)") \
	P(bdp_ref, smartt_params.bdp_ref,				\
	  1, SMARTT_CWND_LIMIT, UNO_APPLY_REBASE,			\
	  "Reference BDP of the increase scale, bytes (default 150000)") \
	P(bdp_ref_mtu, smartt_params.bdp_ref_mtu,			\
	  1, 65535, UNO_APPLY_REBASE,					\
	  "MTU the reference BDP is counted in, bytes (default 4096)")	\
	P(fast_inc_k, smartt_params.fast_inc_k,				\
	  0, 16384, UNO_APPLY_ACK,					\
	  "FastIncrease, bytes per acked byte, Q10 (default 2048 = 2)")	\
	P(fast_inc_tol, smartt_params.fast_inc_tol,			\
	  0, 16384, UNO_APPLY_ACK,					\
	  "FastIncrease: RTT counts as base if within this many base "	\
	  "RTTs of it, Q10 (default 128 = 1/8)")			\
	P(fast_inc_tol_us, smartt_params.fast_inc_tol_us,		\
	  0, 1000000, UNO_APPLY_ACK,					\
	  "Floor of that tolerance, us (default 0)")			\
	P(qa_scaling, smartt_params.qa_scaling,				\
	  1, 16384, UNO_APPLY_ACK,					\
	  "QuickAdapt window per byte delivered in a target RTT, Q10 (default 1024 = 1)") \
	P(qa_notrim_rtt, smartt_params.qa_notrim_rtt,			\
	  0, 65536, UNO_APPLY_ACK,					\
	  "trimming=0: arm QuickAdapt above base + this x (target - "	\
	  "base) RTT, Q10 (default 4096 = 4)")				\
	P(qa_notrim_acked, smartt_params.qa_notrim_acked,		\
	  0, 1024, UNO_APPLY_ACK,					\
	  "trimming=0: ... if fewer bytes than this x max window were "	\
	  "delivered, Q10 (default 128 = 1/8)")				\
	P(min_cwnd, smartt_params.min_cwnd,				\
	  1, 1024, UNO_APPLY_ACK,					\
	  "snd_cwnd floor, MSS, and the window floor if min_cwnd_bytes " \
	  "is 0; the paper's 1 meets the delayed-ACK timer (default 2)") \
	P(min_cwnd_bytes, smartt_params.min_cwnd_bytes,			\
	  0, SMARTT_MIN_CWND_BYTES_MAX, UNO_APPLY_ACK,			\
	  "Window floor, bytes; below min_cwnd MSS only the pacing rate " \
	  "enforces it; 0: min_cwnd MSS (default 64)")			\
	P(max_cwnd, smartt_params.max_cwnd,				\
	  1, 16384, UNO_APPLY_ACK,					\
	  "Window ceiling in BDPs, Q10 (default 1536 = 1.5)")		\
	P(init_cwnd, smartt_params.init_cwnd,				\
	  1, 16384, UNO_APPLY_NEW,					\
	  "Initial window in BDPs, Q10 (default 1024 = 1)")		\
	P(rtt_gain_pkts, smartt_params.rtt_gain_pkts,			\
	  1, 1024, UNO_APPLY_REBASE,					\
	  "RTT average gain is this / BDP in packets (default 4)")	\
	P(rtt_gain_min, smartt_params.rtt_gain_min,			\
	  1, 1024, UNO_APPLY_REBASE,					\
	  "Least RTT average gain, Q10 (default 8 = 1/128)")		\
	P(rtt_gain_max, smartt_params.rtt_gain_max,			\
	  1, 1024, UNO_APPLY_REBASE,					\
	  "Greatest RTT average gain, Q10 (default 256 = 1/4)")		\
	P(fair_decrease, smartt_params.fair_decrease,			\
	  0, 1024, UNO_APPLY_ACK,					\
	  "Decrease per marked ACK below target RTT, Q10; 0: off, the paper's no-op (default 0)") \
	P(pacing_gain, smartt_params.pacing_gain,			\
	  0, 8192, UNO_APPLY_ACK,					\
	  "Pacing rate in windows per base RTT, Q10; 0: do not pace (default 1280 = 1.25)") \
	P(trimming, smartt_params.trimming,				\
	  0, 1, UNO_APPLY_ACK,						\
	  "1: losses found by SACK/RACK act as trim NACKs; 0: RTOs only, " \
	  "QuickAdapt armed by RTT (default 1)")			\
	P(mode, smartt_params.mode,					\
	  SMARTT_MODE_SMARTT, SMARTT_MODE_NSCC, UNO_APPLY_NEW,		\
	  "Law of new connections: 0 SMaRTT (the paper), 1 NSCC (Ultra Ethernet) (default 0)") \
	P(nscc_net_rtt_us, smartt_params.nscc_net_rtt_us,		\
	  0, SMARTT_RTT_MAX, UNO_APPLY_ACK,				\
	  "mode=1: network RTT, us: target queueing delay 0.75x (1x if " \
	  "trimming=0), batch period, increase scale; 0: the flow's "	\
	  "base RTT (default 0)")

#endif /* _TCP_SMARTT_PARAMS_H */
