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

#define SMARTT_PARAMS(P)						\
	P(link_rate_mbps, smartt_conf.link_rate_mbps, 1, 10000000, UNO_APPLY_REBASE,	\
	  "sender line rate for the BDP, Mbit/s (default 1000, 1-10000000)") \
	P(base_rtt_us, smartt_conf.base_rtt_us, 0, SMARTT_RTT_MAX, UNO_APPLY_NEW,	\
	  "base RTT, us; 0: the handshake RTT, then the lowest sample (default 0, 0-16777215)") \
	P(base_rtt_floor_us, smartt_conf.base_rtt_floor_us, 0, SMARTT_RTT_MAX, UNO_APPLY_ACK,	\
	  "least learned base RTT, us: the network's shortest path RTT (default 0, 0-16777215)") \
	P(trtt_factor, smartt_conf.trtt_factor, 1024, 16384, UNO_APPLY_ACK,	\
	  "target RTT in base RTTs, Q10 (default 1536 = 1.5, 1024-16384)") \
	P(md_gamma, smartt_conf.md_gamma, 0, 1024, UNO_APPLY_ACK,	\
	  "multiplicative decrease gain, Q10 (default 819 = 0.8, 0-1024)") \
	P(md_min_factor, smartt_conf.md_min_factor, 0, 1024, UNO_APPLY_ACK,	\
	  "smallest factor of one decrease, Q10 (default 512 = 0.5, 0-1024)") \
	P(md_interval, smartt_conf.md_interval, 0, 16384, UNO_APPLY_ACK,	\
	  "least time between decreases in base RTTs, Q10 (default 1024 = 1, 0-16384)") \
	P(fi, smartt_conf.fi, 0, 65536, UNO_APPLY_ACK,	\
	  "fair increase, MSS per RTT per unit of BDP scale, Q10 (default 1024 = 1, 0-65536)") \
	P(pi, smartt_conf.pi, 0, 65536, UNO_APPLY_ACK,	\
	  "proportional increase constant per unit of BDP scale, Q10 (default 2048 = 2, 0-65536)") \
	P(bdp_ref, smartt_conf.bdp_ref, 1, SMARTT_CWND_LIMIT, UNO_APPLY_REBASE,	\
	  "reference BDP of the increase scale, bytes (default 150000, 1-1073741824)") \
	P(bdp_ref_mtu, smartt_conf.bdp_ref_mtu, 1, 65535, UNO_APPLY_REBASE,	\
	  "MTU the reference BDP is counted in, bytes (default 4096, 1-65535)") \
	P(fast_inc_k, smartt_conf.fast_inc_k, 0, 16384, UNO_APPLY_ACK,	\
	  "FastIncrease, bytes per acked byte, Q10 (default 2048 = 2, 0-16384)") \
	P(fast_inc_tol, smartt_conf.fast_inc_tol, 0, 16384, UNO_APPLY_ACK,	\
	  "FastIncrease: RTT counts as base if within this many base RTTs of it, Q10 (default 128 = 1/8, 0-16384)") \
	P(fast_inc_tol_us, smartt_conf.fast_inc_tol_us, 0, 1000000, UNO_APPLY_ACK,	\
	  "floor of that tolerance, us (default 0, 0-1000000)") \
	P(qa_scaling, smartt_conf.qa_scaling, 1, 16384, UNO_APPLY_ACK,	\
	  "QuickAdapt window per byte delivered in a target RTT, Q10 (default 1024 = 1, 1-16384)") \
	P(qa_notrim_rtt, smartt_conf.qa_notrim_rtt, 0, 65536, UNO_APPLY_ACK,	\
	  "trimming=0: arm QuickAdapt above base + this x (target - base) RTT, Q10 (default 4096 = 4, 0-65536)") \
	P(qa_notrim_acked, smartt_conf.qa_notrim_acked, 0, 1024, UNO_APPLY_ACK,	\
	  "trimming=0: ... if fewer bytes than this x max window were delivered, Q10 (default 128 = 1/8, 0-1024)") \
	P(min_cwnd, smartt_conf.min_cwnd, 1, 1024, UNO_APPLY_ACK,	\
	  "snd_cwnd floor, MSS, and the window floor if min_cwnd_bytes is 0; the paper's 1 meets the delayed-ACK timer (default 2, 1-1024)") \
	P(min_cwnd_bytes, smartt_conf.min_cwnd_bytes, 0, SMARTT_MIN_CWND_BYTES_MAX, UNO_APPLY_ACK,	\
	  "window floor, bytes; below min_cwnd MSS only the pacing rate enforces it; 0: min_cwnd MSS (default 64, 0-1048576)") \
	P(max_cwnd, smartt_conf.max_cwnd, 1, 16384, UNO_APPLY_ACK,	\
	  "window ceiling in BDPs, Q10 (default 1536 = 1.5, 1-16384)") \
	P(init_cwnd, smartt_conf.init_cwnd, 1, 16384, UNO_APPLY_NEW,	\
	  "initial window in BDPs, Q10 (default 1024 = 1, 1-16384)") \
	P(rtt_gain_pkts, smartt_conf.rtt_gain_pkts, 1, 1024, UNO_APPLY_REBASE,	\
	  "RTT average gain is this / BDP in packets (default 4, 1-1024)") \
	P(rtt_gain_min, smartt_conf.rtt_gain_min, 1, 1024, UNO_APPLY_REBASE,	\
	  "least RTT average gain, Q10 (default 8 = 1/128, 1-1024)") \
	P(rtt_gain_max, smartt_conf.rtt_gain_max, 1, 1024, UNO_APPLY_REBASE,	\
	  "greatest RTT average gain, Q10 (default 256 = 1/4, 1-1024)") \
	P(fair_decrease, smartt_conf.fair_decrease, 0, 1024, UNO_APPLY_ACK,	\
	  "decrease per marked ACK below target RTT, Q10; 0: off, the paper's no-op (default 0, 0-1024)") \
	P(pacing_gain, smartt_conf.pacing_gain, 0, 8192, UNO_APPLY_ACK,	\
	  "pacing rate in windows per base RTT, Q10; 0: do not pace (default 1280 = 1.25, 0-8192)") \
	P(trimming, smartt_conf.trimming, 0, 1, UNO_APPLY_ACK,	\
	  "1: losses found by SACK/RACK act as trim NACKs; 0: RTOs only, QuickAdapt armed by RTT (default 1, 0-1)") \
	P(mode, smartt_conf.mode, SMARTT_MODE_SMARTT, SMARTT_MODE_NSCC, UNO_APPLY_NEW,	\
	  "law of new connections: 0 SMaRTT (the paper), 1 NSCC (Ultra Ethernet) (default 0, 0-1)") \
	P(nscc_net_rtt_us, smartt_conf.nscc_net_rtt_us, 0, SMARTT_RTT_MAX, UNO_APPLY_ACK,	\
	  "mode 1: network RTT, us: target queueing delay 0.75x (1x if trimming=0), batch period, increase scale; 0: the flow's base RTT (default 0, 0-16777215)")

#endif /* _TCP_SMARTT_PARAMS_H */
