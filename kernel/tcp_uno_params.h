/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run-time parameters of tcp_uno, one TCP_UNO_PARAM(name, description,
 * storage, min, max, apply) each; a description is one string, however
 * long, so that it can be found with grep.
 *
 * Like <linux/bpf_types.h>, a list to include with TCP_UNO_PARAM defined,
 * once per table made of it: tcp_uno.c makes its uno_nl table, module
 * parameters and their descriptions; libuno, ignoring the storage, the
 * table unoctl and unod check names and ranges against. Include
 * uno_core.h and uapi/uno_nl.h first.
 */
TCP_UNO_PARAM(link_rate_mbps,
	      "Reference line rate C, Mbit/s; BDP = C x base RTT (default 100000)",
	      uno_params.link_rate_mbps,
	      UNO_LINK_RATE_MBPS_MIN, UNO_LINK_RATE_MBPS_MAX, UNO_APPLY_ACK)
TCP_UNO_PARAM(intra_rtt_us,
	      "Intra-DC base RTT, us; sets K and the epoch length (default 14)",
	      uno_params.intra_rtt_us,
	      UNO_INTRA_RTT_US_MIN, UNO_INTRA_RTT_US_MAX, UNO_APPLY_ACK)
TCP_UNO_PARAM(inter_rtt_threshold_us,
	      "Flows with a base RTT above this, us, are inter-DC; 0: 8 x intra_rtt_us (default 0)",
	      uno_params.inter_rtt_threshold_us,
	      0, UNO_INTER_RTT_US_MAX, UNO_APPLY_ACK)
TCP_UNO_PARAM(alpha_ppm,
	      "Additive increase per RTT, parts per million of the flow's BDP (default 1000)",
	      uno_params.alpha_ppm,
	      UNO_ALPHA_PPM_MIN, UNO_ALPHA_PPM_MAX, UNO_APPLY_ACK)
TCP_UNO_PARAM(md_k_bytes,
	      "K of the MD gain 4K/(K+BDP), bytes; 0: intra-DC BDP / 7 (default 0)",
	      uno_params.md_k_bytes, 0, UNO_MD_K_BYTES_MAX, UNO_APPLY_ACK)
TCP_UNO_PARAM(ewma_gain_q16,
	      "Gain g of the marked-fraction EWMA, 1/65536 (default 32768)",
	      uno_params.ewma_gain_q16,
	      UNO_EWMA_GAIN_MIN, UNO_EWMA_GAIN_MAX, UNO_APPLY_ACK)
TCP_UNO_PARAM(beta_qa_pct,
	      "Quick Adapt fires if less than this % of cwnd is acked in a window; 0: off (default 50)",
	      uno_params.beta_qa_pct, 0, 100, UNO_APPLY_ACK)
TCP_UNO_PARAM(qa_cut_pct,
	      "Window after Quick Adapt, % of the bytes acked in the window (default 96)",
	      uno_params.qa_cut_pct, UNO_QA_CUT_PCT_MIN, 100, UNO_APPLY_ACK)
TCP_UNO_PARAM(qa_period_pct,
	      "Quick Adapt period, % of the base RTT (default 105)",
	      uno_params.qa_period_pct,
	      UNO_QA_PERIOD_PCT_MIN, UNO_QA_PERIOD_PCT_MAX, UNO_APPLY_ACK)
TCP_UNO_PARAM(qa_window_pct,
	      "Quick Adapt measures over this % of its period at the smoothed RTT, scaled to one period (default 200)",
	      uno_params.qa_window_pct,
	      UNO_QA_WINDOW_PCT_MIN, UNO_QA_WINDOW_PCT_MAX, UNO_APPLY_ACK)
TCP_UNO_PARAM(phantom_md_scale_pct,
	      "MD scale when only phantom queues marked, % (default 30)",
	      uno_params.phantom_md_scale_pct, 0, 100, UNO_APPLY_ACK)
TCP_UNO_PARAM(phantom_delay_tol_permille,
	      "Phantom-only if RTT <= base x (1 + this/1000) + delay_floor_us (default 55)",
	      uno_params.phantom_delay_tol_permille,
	      0, UNO_PH_TOL_PERMILLE_MAX, UNO_APPLY_ACK)
TCP_UNO_PARAM(delay_floor_us,
	      "Absolute RTT tolerance of the phantom-only test, us (default 20)",
	      uno_params.delay_floor_us,
	      0, UNO_DELAY_FLOOR_US_MAX, UNO_APPLY_ACK)
TCP_UNO_PARAM(init_cwnd_bdp_pct,
	      "Initial window, % of the flow's BDP (default 100)",
	      uno_params.init_cwnd_bdp_pct,
	      UNO_CWND_PCT_MIN, UNO_CWND_PCT_MAX, UNO_APPLY_NEW)
TCP_UNO_PARAM(max_cwnd_bdp_pct,
	      "Window cap, % of the flow's BDP (default 100)",
	      uno_params.max_cwnd_bdp_pct,
	      UNO_CWND_PCT_MIN, UNO_CWND_PCT_MAX, UNO_APPLY_ACK)
TCP_UNO_PARAM(min_cwnd_segs,
	      "snd_cwnd floor, segments (default 2)",
	      uno_params.min_cwnd_segs,
	      UNO_MIN_CWND_SEGS_MIN, UNO_MIN_CWND_SEGS_MAX, UNO_APPLY_ACK)
TCP_UNO_PARAM(min_cwnd_bytes,
	      "Window floor, bytes; below min_cwnd_segs only pacing enforces it; 0: min_cwnd_segs segments (default 64)",
	      uno_params.min_cwnd_bytes,
	      0, UNO_MIN_CWND_BYTES_MAX, UNO_APPLY_ACK)
TCP_UNO_PARAM(trend_rule,
	      "Skip MD while the ECN EWMA is falling, add AI instead (default 1)",
	      uno_params.trend_rule, 0, 1, UNO_APPLY_ACK)
TCP_UNO_PARAM(phantom_md_cumulative,
	      "Compound the phantom MD scale over consecutive epochs, as the paper's Algorithm 1 (default 0)",
	      uno_params.phantom_md_cumulative, 0, 1, UNO_APPLY_ACK)
TCP_UNO_PARAM(rto_cwnd_cut,
	      "Shrink the window by one segment per retransmission timeout (default 0)",
	      uno_params.rto_cwnd_cut, 0, 1, UNO_APPLY_ACK)
TCP_UNO_PARAM(qa_mark_pct,
	      "Quick Adapt only if at least this % of its window's bytes were ECN-echoed; 0: the paper's test alone (default 50)",
	      uno_params.qa_mark_pct, 0, 100, UNO_APPLY_ACK)
TCP_UNO_PARAM(pacing_pct,
	      "Pacing rate, % of cwnd / base RTT; 0: not paced by TCP (default 100)",
	      pacing_pct, 0, 1000, UNO_APPLY_ACK)
