/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run-time parameters of tcp_uno, one P(name, storage, min, max, apply,
 * description) each. tcp_uno.c expands the list into module parameters and
 * the uno_nl table; user space (libuno) expands it, ignoring the storage,
 * into the table unoctl and unod check names and ranges against.
 */
#ifndef _TCP_UNO_PARAMS_H
#define _TCP_UNO_PARAMS_H

#include "uno_core.h"
#include "uapi/uno_nl.h"

#define TCP_UNO_PARAMS(P)							\
	P(link_rate_mbps, uno_params.link_rate_mbps,				\
	  UNO_LINK_RATE_MBPS_MIN, UNO_LINK_RATE_MBPS_MAX, UNO_APPLY_ACK,	\
	  "Reference line rate C, Mbit/s; BDP = C x base RTT (default 100000)") \
	P(intra_rtt_us, uno_params.intra_rtt_us,				\
	  UNO_INTRA_RTT_US_MIN, UNO_INTRA_RTT_US_MAX, UNO_APPLY_ACK,		\
	  "Intra-DC base RTT, us; sets K and the epoch length (default 14)")	\
	P(inter_rtt_threshold_us, uno_params.inter_rtt_threshold_us,		\
	  0, UNO_INTER_RTT_US_MAX, UNO_APPLY_ACK,				\
	  "Flows with a base RTT above this, us, are inter-DC; 0: 8 x intra_rtt_us (default 0)") \
	P(alpha_ppm, uno_params.alpha_ppm,					\
	  UNO_ALPHA_PPM_MIN, UNO_ALPHA_PPM_MAX, UNO_APPLY_ACK,			\
	  "Additive increase per RTT, parts per million of the flow's BDP (default 1000)") \
	P(md_k_bytes, uno_params.md_k_bytes, 0, UNO_MD_K_BYTES_MAX, UNO_APPLY_ACK, \
	  "K of the MD gain 4K/(K+BDP), bytes; 0: intra-DC BDP / 7 (default 0)") \
	P(ewma_gain_q16, uno_params.ewma_gain_q16,				\
	  UNO_EWMA_GAIN_MIN, UNO_EWMA_GAIN_MAX, UNO_APPLY_ACK,			\
	  "Gain g of the marked-fraction EWMA, 1/65536 (default 32768)")	\
	P(beta_qa_pct, uno_params.beta_qa_pct, 0, 100, UNO_APPLY_ACK,		\
	  "Quick Adapt fires if less than this % of cwnd is acked in a " \
	  "window; 0: off (default 50)")				\
	P(qa_cut_pct, uno_params.qa_cut_pct, UNO_QA_CUT_PCT_MIN, 100, UNO_APPLY_ACK, \
	  "Window after Quick Adapt, % of the bytes acked in the window (default 96)") \
	P(qa_period_pct, uno_params.qa_period_pct,				\
	  UNO_QA_PERIOD_PCT_MIN, UNO_QA_PERIOD_PCT_MAX, UNO_APPLY_ACK,		\
	  "Quick Adapt period, % of the base RTT (default 105)")		\
	P(qa_window_pct, uno_params.qa_window_pct,				\
	  UNO_QA_WINDOW_PCT_MIN, UNO_QA_WINDOW_PCT_MAX, UNO_APPLY_ACK,		\
	  "Quick Adapt measures over this % of its period at the "	\
	  "smoothed RTT, scaled to one period (default 200)")		\
	P(phantom_md_scale_pct, uno_params.phantom_md_scale_pct, 0, 100,	\
	  UNO_APPLY_ACK,							\
	  "MD scale when only phantom queues marked, % (default 30)")		\
	P(phantom_delay_tol_permille, uno_params.phantom_delay_tol_permille,	\
	  0, UNO_PH_TOL_PERMILLE_MAX, UNO_APPLY_ACK,				\
	  "Phantom-only if RTT <= base x (1 + this/1000) + delay_floor_us (default 55)") \
	P(delay_floor_us, uno_params.delay_floor_us, 0, UNO_DELAY_FLOOR_US_MAX,	\
	  UNO_APPLY_ACK,							\
	  "Absolute RTT tolerance of the phantom-only test, us (default 20)")	\
	P(init_cwnd_bdp_pct, uno_params.init_cwnd_bdp_pct,			\
	  UNO_CWND_PCT_MIN, UNO_CWND_PCT_MAX, UNO_APPLY_NEW,			\
	  "Initial window, % of the flow's BDP (default 100)")			\
	P(max_cwnd_bdp_pct, uno_params.max_cwnd_bdp_pct,			\
	  UNO_CWND_PCT_MIN, UNO_CWND_PCT_MAX, UNO_APPLY_ACK,			\
	  "Window cap, % of the flow's BDP (default 100)")			\
	P(min_cwnd_segs, uno_params.min_cwnd_segs,				\
	  UNO_MIN_CWND_SEGS_MIN, UNO_MIN_CWND_SEGS_MAX, UNO_APPLY_ACK,		\
	  "snd_cwnd floor, segments (default 2)")				\
	P(min_cwnd_bytes, uno_params.min_cwnd_bytes, 0, UNO_MIN_CWND_BYTES_MAX,	\
	  UNO_APPLY_ACK,							\
	  "Window floor, bytes; below min_cwnd_segs only pacing enforces " \
	  "it; 0: min_cwnd_segs segments (default 64)")			\
	P(trend_rule, uno_params.trend_rule, 0, 1, UNO_APPLY_ACK,		\
	  "Skip MD while the ECN EWMA is falling, add AI instead (default 1)")	\
	P(phantom_md_cumulative, uno_params.phantom_md_cumulative, 0, 1,	\
	  UNO_APPLY_ACK,							\
	  "Compound the phantom MD scale over consecutive epochs, as the " \
	  "paper's Algorithm 1 (default 0)")				\
	P(rto_cwnd_cut, uno_params.rto_cwnd_cut, 0, 1, UNO_APPLY_ACK,		\
	  "Shrink the window by one segment per retransmission timeout (default 0)") \
	P(qa_mark_pct, uno_params.qa_mark_pct, 0, 100, UNO_APPLY_ACK,		\
	  "Quick Adapt only if at least this % of its window's bytes "	\
	  "were ECN-echoed; 0: the paper's test alone (default 50)")	\
	P(pacing_pct, pacing_pct, 0, 1000, UNO_APPLY_ACK,			\
	  "Pacing rate, % of cwnd / base RTT; 0: not paced by TCP (default 100)")

#endif /* _TCP_UNO_PARAMS_H */
