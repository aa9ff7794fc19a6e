/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run-time parameters of tcp_timely, one TCP_TIMELY_PARAM(name,
 * description, storage, min, max, apply) each; a description is one
 * string, however long, so that it can be found with grep. Rates are
 * parts per million of the line rate, as reflex.md 3.1 states them;
 * times are microseconds (the law's are ns). Defaults are 3.1's, at the
 * paper's scale; a time-dilated testbed multiplies the times by S.
 *
 * Like <linux/bpf_types.h>, a list to include with TCP_TIMELY_PARAM
 * defined, once per table made of it: tcp_timely.c makes its uno_nl table,
 * module parameters and their descriptions; libuno, ignoring the storage,
 * the table unoctl and unod check names and ranges against. Include
 * timely_core.h and uapi/uno_nl.h first. Values that only make sense
 * together (T_low <= T_high, delta <= the HAI step <= line rate) are
 * checked together on every store: a store that breaks them is refused.
 */
TCP_TIMELY_PARAM(link_rate_mbps,
		 "Line rate R_line, Mbit/s: the initial rate and the ceiling (default 100000)",
		 timely_conf.link_rate_mbps, 1, 8000000, UNO_APPLY_ACK)
TCP_TIMELY_PARAM(t_low_us,
		 "T_low: below this RTT, us, the rate always increases (default 50)",
		 timely_conf.t_low_us, 1, 4000000, UNO_APPLY_ACK)
TCP_TIMELY_PARAM(t_high_us,
		 "T_high: above this RTT, us, the rate falls by beta (1 - T_high / RTT) (default 500)",
		 timely_conf.t_high_us, 1, 4000000, UNO_APPLY_ACK)
TCP_TIMELY_PARAM(min_rtt_us,
		 "minRTT, us: normalises the RTT gradient (default 20)",
		 timely_conf.min_rtt_us, 1, 4000000, UNO_APPLY_ACK)
TCP_TIMELY_PARAM(beta_ppm,
		 "Multiplicative decrease gain, ppm (default 800000)",
		 timely_conf.beta_ppm, 1, 1000000, UNO_APPLY_ACK)
TCP_TIMELY_PARAM(ewma_ppm,
		 "Weight of a new RTT difference in the gradient's EWMA, ppm (default 875000)",
		 timely_conf.ewma_ppm, 1, 1000000, UNO_APPLY_ACK)
TCP_TIMELY_PARAM(add_step_ppm,
		 "Additive increase delta, ppm of the line rate (default 1000)",
		 timely_conf.add_step_ppm, 1, 1000000, UNO_APPLY_ACK)
TCP_TIMELY_PARAM(hai_mult,
		 "HAI step, in deltas (default 5)",
		 timely_conf.hai_mult, 1, 1000, UNO_APPLY_ACK)
TCP_TIMELY_PARAM(hai_thresh,
		 "Increases in a row before HAI (default 5)",
		 timely_conf.hai_thresh, 0, 1000, UNO_APPLY_ACK)
TCP_TIMELY_PARAM(hai_gradient,
		 "1: HAI on gradient increases only (TIMELY Algorithm 1); 0: on any (HPCC) (default 0)",
		 timely_conf.hai_gradient, 0, 1, UNO_APPLY_ACK)
TCP_TIMELY_PARAM(min_rate_ppm,
		 "R_min, ppm of the line rate (default 10000)",
		 timely_conf.min_rate_ppm, 1, 1000000, UNO_APPLY_ACK)
TCP_TIMELY_PARAM(cwnd_gain_pct,
		 "The window TCP keeps, % of rate x RTT: TIMELY is rate-based, the window only bounds what is in flight (default 200)",
		 timely_conf.cwnd_gain_pct, 100, 10000, UNO_APPLY_ACK)
